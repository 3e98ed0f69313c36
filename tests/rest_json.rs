//! The RM REST scheduler document against Hadoop 3.4's own expected response
//! (TestRMWebServicesCapacitySched, `scheduler-response.json`: root.a 12.5%/50%, root.b 50%,
//! root.c 37.5% on 4 nodes of 8 GB / 8 vcores): the same keys, in the same order, the same values.

use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::report::rest::scheduler_info_json;
use capsched::resource::Resource;
use capsched::state::queue::QueueTree;
use serde_json::Value;

fn document() -> Value {
    let conf = CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=a,b,c\n\
         yarn.scheduler.capacity.root.a.capacity=12.5\n\
         yarn.scheduler.capacity.root.a.maximum-capacity=50\n\
         yarn.scheduler.capacity.root.b.capacity=50\n\
         yarn.scheduler.capacity.root.c.capacity=37.5\n",
    )
    .unwrap();
    let mut tree = QueueTree::new(Arc::new(conf));
    tree.update_cluster_resource(Resource::new(4 * 8192, 4 * 8));
    scheduler_info_json(&tree)
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn root_keys_are_hadoops_in_hadoops_order() {
    let doc = document();
    let info = &doc["scheduler"]["schedulerInfo"];
    assert_eq!(
        keys(info),
        [
            "type",
            "capacity",
            "usedCapacity",
            "maxCapacity",
            "weight",
            "normalizedWeight",
            "queueCapacityVectorInfo",
            "queueName",
            "queuePath",
            "maxParallelApps",
            "isAbsoluteResource",
            "queues",
            "capacities",
            "health",
            "maximumAllocation",
            "queueAcls",
            "queuePriority",
            "orderingPolicyInfo",
            "mode",
            "queueType",
            "creationMethod",
            "autoCreationEligibility",
            "autoQueueTemplateProperties",
            "autoQueueParentTemplateProperties",
            "autoQueueLeafTemplateProperties",
        ]
    );
    assert_eq!(info["type"], "capacityScheduler");
    assert_eq!(info["maxParallelApps"], 2147483647);
    assert_eq!(info["orderingPolicyInfo"], "utilization");
}

#[test]
fn leaf_entries_match_hadoops_expected_response() {
    let doc = document();
    let queues = doc["scheduler"]["schedulerInfo"]["queues"]["queue"]
        .as_array()
        .unwrap();
    let a = &queues[0];
    assert_eq!(
        keys(a),
        [
            "type",
            "queuePath",
            "capacity",
            "usedCapacity",
            "maxCapacity",
            "absoluteCapacity",
            "absoluteMaxCapacity",
            "absoluteUsedCapacity",
            "weight",
            "normalizedWeight",
            "numApplications",
            "maxParallelApps",
            "queueName",
            "isAbsoluteResource",
            "state",
            "resourcesUsed",
            "hideReservationQueues",
            "nodeLabels",
            "allocatedContainers",
            "reservedContainers",
            "pendingContainers",
            "capacities",
            "resources",
            "minEffectiveCapacity",
            "maxEffectiveCapacity",
            "maximumAllocation",
            "queueAcls",
            "queuePriority",
            "orderingPolicyInfo",
            "autoCreateChildQueueEnabled",
            "leafQueueTemplate",
            "mode",
            "queueType",
            "creationMethod",
            "autoCreationEligibility",
            "autoQueueTemplateProperties",
            "autoQueueParentTemplateProperties",
            "autoQueueLeafTemplateProperties",
            "numActiveApplications",
            "numPendingApplications",
            "numContainers",
            "maxApplications",
            "maxApplicationsPerUser",
            "userLimit",
            "users",
            "userLimitFactor",
            "configuredMaxAMResourceLimit",
            "AMResourceLimit",
            "usedAMResource",
            "userAMResourceLimit",
            "preemptionDisabled",
            "intraQueuePreemptionDisabled",
            "defaultPriority",
            "isAutoCreatedLeafQueue",
            "maxApplicationLifetime",
            "defaultApplicationLifetime",
        ]
    );
    assert_eq!(a["type"], "capacitySchedulerLeafQueueInfo");
    assert_eq!(a["queuePath"], "root.a");
    assert_eq!(a["capacity"], 12.5);
    assert_eq!(a["maxCapacity"], 50.0);
    assert_eq!(a["absoluteCapacity"], 12.5);
    assert_eq!(a["absoluteMaxCapacity"], 50.0);
    assert_eq!(a["weight"], -1.0);
    assert_eq!(a["maxApplications"], 1250);
    assert_eq!(a["maxApplicationsPerUser"], 1250);
    assert_eq!(a["userLimit"], 100.0);
    assert_eq!(a["users"], serde_json::json!({}));
    assert_eq!(a["configuredMaxAMResourceLimit"], 0.1);
    assert_eq!(a["AMResourceLimit"]["memory"], 2048);
    assert_eq!(a["AMResourceLimit"]["vCores"], 1);
    assert_eq!(a["userAMResourceLimit"]["memory"], 2048);
    assert_eq!(a["minEffectiveCapacity"]["memory"], 4096);
    assert_eq!(a["minEffectiveCapacity"]["vCores"], 4);
    assert_eq!(a["maxEffectiveCapacity"]["memory"], 16384);
    assert_eq!(a["maxEffectiveCapacity"]["vCores"], 16);
    assert_eq!(a["preemptionDisabled"], true);
    assert_eq!(a["orderingPolicyInfo"], "fifo");
    assert_eq!(a["nodeLabels"], serde_json::json!(["*"]));
    let part = &a["capacities"]["queueCapacitiesByPartition"][0];
    assert_eq!(
        part["queueCapacityVectorInfo"]["configuredCapacityVector"],
        "[memory-mb=12.5%,vcores=12.5%]"
    );
    assert_eq!(part["maxAMLimitPercentage"], 10.0);
    assert_eq!(
        part["configuredMinResource"]["resourceInformations"]["resourceInformation"][0]
            ["minimumAllocation"],
        1024
    );
    let usage = &a["resources"]["resourceUsagesByPartition"][0];
    assert_eq!(usage["amLimit"]["memory"], 2048);
    let acls = &a["queueAcls"]["queueAcl"];
    assert_eq!(acls[0]["accessType"], "ADMINISTER_QUEUE");
    assert_eq!(acls[0]["accessControlList"], " ");
    assert_eq!(acls[1]["accessControlList"], "*");

    let b = &queues[1];
    assert_eq!(b["AMResourceLimit"]["memory"], 4096);
    assert_eq!(b["maxApplications"], 5000);
    assert_eq!(b["maxEffectiveCapacity"]["memory"], 32768);
}

#[test]
fn leaves_come_before_parents_and_parents_carry_no_type() {
    let conf = CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=p,l\n\
         yarn.scheduler.capacity.root.p.capacity=50\n\
         yarn.scheduler.capacity.root.p.queues=x\n\
         yarn.scheduler.capacity.root.p.x.capacity=100\n\
         yarn.scheduler.capacity.root.l.capacity=50\n",
    )
    .unwrap();
    let tree = QueueTree::new(Arc::new(conf));
    let doc = scheduler_info_json(&tree);
    let queues = doc["scheduler"]["schedulerInfo"]["queues"]["queue"]
        .as_array()
        .unwrap();
    assert_eq!(queues[0]["queuePath"], "root.l");
    assert_eq!(queues[1]["queuePath"], "root.p");
    assert!(queues[1].get("type").is_none());
    assert_eq!(queues[1]["queueType"], "parent");
    assert_eq!(queues[1]["queues"]["queue"][0]["queuePath"], "root.p.x");
}

#[test]
fn float_artifacts_print_as_java_does() {
    // 30% of 100 computed in float is 30.000002 in Java (ResourceManagerRest.md shows such values).
    let conf = CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=a,b\n\
         yarn.scheduler.capacity.root.a.capacity=30\n\
         yarn.scheduler.capacity.root.b.capacity=70\n",
    )
    .unwrap();
    let tree = QueueTree::new(Arc::new(conf));
    let text = serde_json::to_string(&scheduler_info_json(&tree)).unwrap();
    let expected = format!("\"capacity\":{}", 0.3f32 * 100.0);
    assert!(text.contains(&expected), "{expected} not in output");
    assert!(
        !text.contains("30.000001907"),
        "f64 widening leaked into the output"
    );
}

#[test]
fn the_streamed_document_is_the_value_printed_by_serde_json() {
    use capsched::report::json::JsonStyle;
    use capsched::report::rest::{scheduler_info_string, write_scheduler_info};
    let conf = CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=p,l\n\
         yarn.scheduler.capacity.root.p.capacity=50\n\
         yarn.scheduler.capacity.root.p.queues=x,y\n\
         yarn.scheduler.capacity.root.p.x.capacity=60\n\
         yarn.scheduler.capacity.root.p.y.capacity=40\n\
         yarn.scheduler.capacity.root.p.y.queues=z\n\
         yarn.scheduler.capacity.root.p.y.z.capacity=100\n\
         yarn.scheduler.capacity.root.l.capacity=50\n",
    )
    .unwrap();
    let mut tree = QueueTree::new(Arc::new(conf));
    tree.update_cluster_resource(Resource::new(4 * 8192, 4 * 8));
    let value = scheduler_info_json(&tree);
    assert_eq!(
        scheduler_info_string(&tree),
        serde_json::to_string(&value).unwrap()
    );
    let pretty = write_scheduler_info(&tree, Vec::new(), JsonStyle::Pretty).unwrap();
    assert_eq!(
        String::from_utf8(pretty).unwrap(),
        serde_json::to_string_pretty(&value).unwrap()
    );
    assert_eq!(document(), document()); // deterministic
}
