//! Auto-created leaf queues (YARN 3.3's managed parents, docs/SEMANTICS.md "Auto-created
//! queues"): made at submission under a managed parent from its template, given the template's
//! capacity or none by the GuaranteedOrZeroCapacityOverTimePolicy, kept across refreshes, and
//! refused with YARN's words.

use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::ids::AppId;
use capsched::resource::Resource;
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;
use capsched::scheduler::CapacityScheduler;

const TS: i64 = 1410901177871;

/// root.a 50%, root.managed 50% creating leaves with a 20% template (10% of the cluster),
/// users mapped to their own leaf under it.
fn conf(extra: &str) -> CapacitySchedulerConfiguration {
    let text = format!(
        "yarn.scheduler.capacity.root.queues=a,managed
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.managed.capacity=50
yarn.scheduler.capacity.root.managed.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.managed.leaf-queue-template.capacity=20
yarn.scheduler.capacity.root.managed.leaf-queue-template.maximum-capacity=100
yarn.scheduler.capacity.queue-mappings=u:%user:managed.%user
{extra}"
    );
    CapacitySchedulerConfiguration::from_properties_str(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn scheduler(extra: &str) -> CapacityScheduler {
    let mut cs = CapacityScheduler::new(Arc::new(conf(extra)), TS, 1);
    cs.add_node(
        0,
        &NodeSpec::new("h1", "/r1", Resource::new(100 * 1024, 100)),
    )
    .unwrap();
    cs
}

fn submit(cs: &mut CapacityScheduler, queue: &str, user: &str) -> Result<AppId, String> {
    let sub = AppSubmission::new(queue, user);
    let app = cs.submit_application(0, &sub).map_err(|r| r.message)?;
    cs.add_attempt(0, app, AttemptSubmission::with_am(Resource::new(1024, 1)))
        .unwrap();
    Ok(app)
}

/// (capacity, absolute capacity, maximum capacity) of `path`.
fn caps(cs: &CapacityScheduler, path: &str) -> (f32, f32, f32) {
    let t = cs.queue_tree();
    let q = t.find(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let c = &t.queue(q).capacities;
    (c.capacity, c.absolute_capacity, c.maximum_capacity)
}

#[test]
fn a_mapped_submission_creates_its_leaf_with_the_template_capacity() {
    let mut cs = scheduler("");
    let app = submit(&mut cs, "default", "alice").unwrap();
    assert_eq!(cs.app_report(app).unwrap().queue, "root.managed.alice");
    let (c, abs, max) = caps(&cs, "root.managed.alice");
    assert_eq!((c, max), (0.2, 1.0));
    assert!((abs - 0.1).abs() < 1e-6, "{abs}");
}

#[test]
fn leaves_beyond_the_parents_guarantee_start_with_no_capacity() {
    let mut cs = scheduler("");
    for u in ["u1", "u2", "u3", "u4", "u5", "u6"] {
        submit(&mut cs, "default", u).unwrap();
    }
    for u in ["u1", "u2", "u3", "u4", "u5"] {
        assert_eq!(caps(&cs, &format!("root.managed.{u}")).0, 0.2, "{u}");
    }
    let (c, abs, max) = caps(&cs, "root.managed.u6");
    assert_eq!((c, abs, max), (0.0, 0.0, 1.0));
}

fn invariants(cs: &CapacityScheduler) {
    if let Err(e) = cs.check_invariants() {
        panic!("invariants: {e:?}");
    }
}

#[test]
fn a_leaf_keeps_the_application_cap_of_the_template_whatever_its_entitlement() {
    // LeafQueue sizes maxApplications when the leaf is made, from the template's absolute
    // capacity (10% of 10000); the zero entitlement that follows does not move it.
    let mut cs = scheduler("");
    for u in ["u1", "u2", "u3", "u4", "u5", "u6"] {
        submit(&mut cs, "default", u).unwrap();
    }
    let t = cs.queue_tree();
    for u in ["u1", "u6"] {
        let q = t.find(&format!("root.managed.{u}")).unwrap();
        assert_eq!(t.queue(q).leaf.unwrap().max_applications, 1000, "{u}");
    }
    invariants(&cs);
}

#[test]
fn the_template_ignores_the_global_per_queue_defaults() {
    // The leaf is read from the template's keys alone (initializeLeafQueueConfigs): the global
    // maximum-am-resource-percent and user-limit-factor do not reach it, YARN's defaults do.
    let mut cs = scheduler(
        "yarn.scheduler.capacity.maximum-am-resource-percent=0.5
yarn.scheduler.capacity.user-limit-factor=4
yarn.scheduler.capacity.root.managed.leaf-queue-template.minimum-user-limit-percent=25",
    );
    submit(&mut cs, "default", "alice").unwrap();
    let t = cs.queue_tree();
    let leaf = t
        .conf(t.find("root.managed.alice").unwrap())
        .leaf
        .clone()
        .unwrap();
    assert_eq!(leaf.maximum_am_resource_percent, 0.1);
    assert_eq!(leaf.user_limit_factor, 1.0);
    assert_eq!(leaf.user_limit_percent, 25.0);
    // A static leaf takes the global values.
    let a = t.conf(t.find("root.a").unwrap()).leaf.clone().unwrap();
    assert_eq!(a.maximum_am_resource_percent, 0.5);
    assert_eq!(a.user_limit_factor, 4.0);
}

#[test]
fn creation_fails_with_yarns_words_at_the_limits() {
    // auto-create-child-queue.max-queues.
    let mut cs =
        scheduler("yarn.scheduler.capacity.root.managed.auto-create-child-queue.max-queues=2");
    submit(&mut cs, "default", "u1").unwrap();
    submit(&mut cs, "default", "u2").unwrap();
    assert_eq!(
        submit(&mut cs, "default", "u3").unwrap_err(),
        "Application application_1410901177871_0003 submission by user : u3 to  queue : u3 failed : \
         Cannot auto create leaf queue root.managed.u3.Max Child Queue limit exceeded which is \
         configured as : 2 and number of child queues is : 2"
    );
    // fail-on-exceeding-parent-capacity: five 10% leaves fill the parent's 50%.
    let mut cs = scheduler(
        "yarn.scheduler.capacity.root.managed.auto-create-child-queue.fail-on-exceeding-parent-capacity=true",
    );
    for u in ["u1", "u2", "u3", "u4", "u5"] {
        submit(&mut cs, "default", u).unwrap();
    }
    assert_eq!(
        submit(&mut cs, "default", "u6").unwrap_err(),
        "Application application_1410901177871_0006 submission by user : u6 to  queue : u6 failed : \
         Cannot auto create leaf queue root.managed.u6. Child queues capacities have reached parent \
         queue : root.managed's guaranteed capacity"
    );
    assert!(cs.queue_tree().find("root.managed.u6").is_err());
    invariants(&cs);
}

#[test]
fn a_template_key_the_leaf_cannot_take_fails_each_creation_not_the_configuration() {
    // As in Hadoop's TestPlacementManager configuration: the template's maximum allocation
    // is above the cluster's. The parent loads; making a leaf fails in the leaf's constructor.
    let mut cs = scheduler(
        "yarn.scheduler.capacity.root.managed.leaf-queue-template.maximum-allocation-mb=10240",
    );
    let err = submit(&mut cs, "default", "alice").unwrap_err();
    assert!(
        err.starts_with(
            "Application application_1410901177871_0001 submission by user : alice to  queue : alice failed : \
             Queue maximum allocation cannot be larger than the cluster setting for queue root.managed.alice max allocation"
        ),
        "{err}"
    );
    // Its capacity, though, is read with the parent: a bad one fails the configuration.
    let bad = CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=m
yarn.scheduler.capacity.root.m.capacity=100
yarn.scheduler.capacity.root.m.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.m.leaf-queue-template.capacity=200",
    );
    assert!(bad.is_err());
}

#[test]
fn an_auto_created_leaf_is_reached_only_through_its_mapping() {
    let mut cs = scheduler("");
    submit(&mut cs, "default", "alice").unwrap();
    // bob names alice's leaf: no placement sends him there, so YARN prohibits it.
    let mut cs2 = scheduler("yarn.scheduler.capacity.queue-mappings=u:alice:managed.alice");
    submit(&mut cs2, "default", "alice").unwrap();
    assert_eq!(
        submit(&mut cs2, "root.managed.alice", "bob").unwrap_err(),
        "Application application_1410901177871_0002 submission by user : bob to specified queue : \
         root.managed.alice  is prohibited. Verify automatic queue mapping for user exists in \
         yarn.scheduler.capacity.queue-mappings"
    );
    // alice again, through her mapping: the existing leaf.
    let app = submit(&mut cs, "default", "alice").unwrap();
    assert_eq!(cs.app_report(app).unwrap().queue, "root.managed.alice");
    assert_eq!(
        cs.queue_tree()
            .children(cs.queue_tree().find("root.managed").unwrap())
            .len(),
        1
    );
}

#[test]
fn a_mapping_under_a_parent_that_creates_no_leaves_is_refused_at_load() {
    let err = CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.b.queues=b1
yarn.scheduler.capacity.root.b.b1.capacity=100
yarn.scheduler.capacity.queue-mappings=u:%user:b.%user",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains(
            "mapping contains leaf queue [%user] and invalid parent queue which does not have auto creation of leaf queues enabled [b]"
        ),
        "{err}"
    );
}

#[test]
fn the_periodic_policy_moves_capacity_from_idle_leaves_to_waiting_ones() {
    let mut cs = scheduler(
        "yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.scheduler.monitor.policies=org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.QueueManagementDynamicEditPolicy",
    );
    let mut apps = Vec::new();
    for u in ["u1", "u2", "u3", "u4", "u5", "u6"] {
        apps.push(submit(&mut cs, "default", u).unwrap());
    }
    assert_eq!(caps(&cs, "root.managed.u6").0, 0.0);
    // Nothing changed: the round changes nothing.
    assert!(!cs.run_queue_management(10));
    // u1's application ends: its leaf gives its share back, and u6's (waiting) takes it.
    cs.remove_application(20, apps[0]).unwrap();
    assert!(cs.run_queue_management(30));
    assert_eq!(caps(&cs, "root.managed.u1").0, 0.0);
    assert_eq!(caps(&cs, "root.managed.u6").0, 0.2);
    for u in ["u2", "u3", "u4", "u5"] {
        assert_eq!(caps(&cs, &format!("root.managed.{u}")).0, 0.2, "{u}");
    }
    invariants(&cs);
    // u1 comes back: its leaf exists, but the parent is full; it waits at zero until
    // another leaf goes idle.
    let again = submit(&mut cs, "default", "u1").unwrap();
    assert_eq!(cs.app_report(again).unwrap().queue, "root.managed.u1");
    assert!(!cs.run_queue_management(40));
    assert_eq!(caps(&cs, "root.managed.u1").0, 0.0);
    cs.remove_application(50, apps[2]).unwrap();
    assert!(cs.run_queue_management(60));
    assert_eq!(caps(&cs, "root.managed.u3").0, 0.0);
    assert_eq!(caps(&cs, "root.managed.u1").0, 0.2);
    invariants(&cs);
}

#[test]
fn a_refresh_keeps_the_leaves_and_gives_capacity_again_in_submission_order() {
    let mut cs = scheduler("");
    let mut apps = Vec::new();
    for u in ["u1", "u2", "u3", "u4", "u5", "u6", "u7"] {
        apps.push(submit(&mut cs, "default", u).unwrap());
    }
    cs.remove_application(10, apps[1]).unwrap();
    // The same file again: every leaf stays (they are not in it), u2's (no application) gets
    // nothing, the others get the template's share by submission until the parent is full.
    cs.refresh_queues(20, Arc::new(conf(""))).unwrap();
    for (u, c) in [
        ("u1", 0.2),
        ("u2", 0.0),
        ("u3", 0.2),
        ("u4", 0.2),
        ("u5", 0.2),
        ("u6", 0.2),
        ("u7", 0.0),
    ] {
        assert_eq!(caps(&cs, &format!("root.managed.{u}")).0, c, "{u}");
    }
    invariants(&cs);
    // A bigger template after a refresh: fewer leaves fit.
    cs.refresh_queues(
        30,
        Arc::new(conf(
            "yarn.scheduler.capacity.root.managed.leaf-queue-template.capacity=40",
        )),
    )
    .unwrap();
    let active: Vec<f32> = ["u1", "u3", "u4", "u5", "u6", "u7"]
        .iter()
        .map(|u| caps(&cs, &format!("root.managed.{u}")).0)
        .collect();
    assert_eq!(active, vec![0.4, 0.4, 0.0, 0.0, 0.0, 0.0]);
    // Auto-creation switched off: CapacitySchedulerConfigValidator refuses to turn a managed
    // parent into anything else, and the running configuration stays.
    let err = cs
        .refresh_queues(
            40,
            Arc::new(
                CapacitySchedulerConfiguration::from_properties_str(
                    "yarn.scheduler.capacity.root.queues=a,managed
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.managed.capacity=50",
                )
                .unwrap(),
            ),
        )
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Cannot convert auto create enabled parent queue: root.managed to leaf queue. Please check  \
         parent queue's configuration auto-create-child-queue.enabled is set to true"
    );
    assert_eq!(caps(&cs, "root.managed.u1").0, 0.4);
    invariants(&cs);
}

#[test]
fn the_rest_document_shows_the_managed_parent_and_its_leaves() {
    let mut cs = scheduler("");
    submit(&mut cs, "default", "alice").unwrap();
    let doc = capsched::report::rest::scheduler_info_json(cs.queue_tree());
    let doc = &doc["scheduler"]["schedulerInfo"];
    let queues = doc["queues"]["queue"]
        .as_array()
        .unwrap_or_else(|| panic!("{doc}"));
    let managed = queues
        .iter()
        .find(|q| q["queuePath"] == "root.managed")
        .unwrap();
    assert_eq!(managed["autoCreateChildQueueEnabled"], true);
    assert_eq!(managed["autoCreationEligibility"], "legacy");
    assert_eq!(
        managed["leafQueueTemplate"],
        serde_json::json!({"property": [
            {"name": "leaf-queue-template.capacity", "value": "20"},
            {"name": "leaf-queue-template.maximum-capacity", "value": "100"}
        ]})
    );
    let alice = &managed["queues"]["queue"][0];
    assert_eq!(alice["queuePath"], "root.managed.alice");
    assert_eq!(alice["isAutoCreatedLeafQueue"], true);
    assert_eq!(alice["creationMethod"], "dynamicLegacy");
    assert_eq!(alice["capacity"], 20.0);
    assert_eq!(alice["absoluteCapacity"], 10.0);
    assert_eq!(alice["maxApplications"], 1000);
    // The configured leaf next to it.
    let a = queues.iter().find(|q| q["queuePath"] == "root.a").unwrap();
    assert_eq!(a["autoCreateChildQueueEnabled"], false);
    assert_eq!(a["leafQueueTemplate"], serde_json::json!({}));
}

#[test]
fn a_refresh_turns_a_leaf_but_not_a_parent_into_a_managed_parent() {
    // Hadoop's testConvertFailsFromParentQueueToManagedParentQueue and
    // testConvertLeafQueueToParentQueueWithAutoCreate, reduced to their queues.
    let base = "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.a.queues=a1
yarn.scheduler.capacity.root.a.a1.capacity=100";
    let parse = |t: &str| Arc::new(CapacitySchedulerConfiguration::from_properties_str(t).unwrap());
    let mut cs = CapacityScheduler::new(parse(base), TS, 1);
    let err = cs
        .refresh_queues(
            0,
            parse(&format!(
                "{base}
yarn.scheduler.capacity.root.a.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.a.leaf-queue-template.capacity=2"
            )),
        )
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Can not convert parent queue: root.a to auto create enabled parent queue since it could have \
         other pre-configured queues which is not supported"
    );
    // A leaf (stopped, as a leaf must be to gain children) may become one.
    cs.refresh_queues(
        0,
        parse(&format!(
            "{base}\nyarn.scheduler.capacity.root.b.state=STOPPED"
        )),
    )
    .unwrap();
    cs.refresh_queues(
        0,
        parse(&format!(
            "{base}
yarn.scheduler.capacity.root.b.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.b.leaf-queue-template.capacity=3"
        )),
    )
    .unwrap();
    let t = cs.queue_tree();
    assert!(t.conf(t.find("root.b").unwrap()).managed.is_some());
}

#[test]
fn fail_on_exceeding_compares_yarns_units_at_a_refresh() {
    // ManagedParentQueue.reinitialize compares the leaves' capacities (of the parent) with the
    // parent's own (of root): two active 20% leaves under a 50% parent pass (0.4 ≤ 0.5),
    // three fail (0.6 > 0.5) although they hold 30% of a 50% parent.
    let fail = "yarn.scheduler.capacity.root.managed.auto-create-child-queue.fail-on-exceeding-parent-capacity=true";
    let mut cs = scheduler(fail);
    submit(&mut cs, "default", "u1").unwrap();
    submit(&mut cs, "default", "u2").unwrap();
    cs.refresh_queues(0, Arc::new(conf(fail))).unwrap();
    submit(&mut cs, "default", "u3").unwrap();
    let err = cs
        .refresh_queues(0, Arc::new(conf(fail)))
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Total of Auto Created leaf queues guaranteed capacity : 0.6 exceeds Parent queue's root.managed \
         guaranteed capacity 0.5.Cannot enforce policy to auto create queues beyond parent queue's capacity"
    );
}

#[test]
fn a_recovered_application_gets_its_auto_created_leaf_again() {
    // Hadoop's testDynamicAutoCreatedQueueRecovery: after an RM restart the leaf does not
    // exist; the placement the RM runs at recovery makes it again.
    let mut cs = scheduler("");
    let mut sub = AppSubmission::new("alice", "alice");
    sub.recovering = true;
    let app = cs.submit_application(0, &sub).unwrap();
    assert_eq!(cs.app_report(app).unwrap().queue, "root.managed.alice");
    // Without a mapping to make it, the application is killed as YARN kills it.
    let mut cs = CapacityScheduler::new(
        Arc::new(
            CapacitySchedulerConfiguration::from_properties_str(
                "yarn.scheduler.capacity.root.queues=a,managed
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.managed.capacity=50
yarn.scheduler.capacity.root.managed.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.managed.leaf-queue-template.capacity=20",
            )
            .unwrap(),
        ),
        TS,
        1,
    );
    assert_eq!(
        cs.submit_application(0, &sub).unwrap_err().message,
        "Application killed on recovery as it was submitted to queue alice which no longer exists after restart."
    );
}

/// The configuration a scheduler builds as it creates leaves (spliced, without reading the
/// file again) equals the one a full read with the same leaves gives.
fn assert_same_as_a_full_read(cs: &CapacityScheduler) {
    let conf = cs.configuration();
    let full = conf
        .with_created_queues(
            conf.auto_created_leaves().to_vec(),
            conf.dynamic_queues().to_vec(),
        )
        .unwrap();
    assert_eq!(conf.queues(), full.queues());
    assert_eq!(conf.auto_created_leaves(), full.auto_created_leaves());
}

#[test]
fn leaves_made_one_by_one_give_the_configuration_a_full_read_gives() {
    let mut cs = scheduler(
        "yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.scheduler.monitor.policies=QueueManagementDynamicEditPolicy",
    );
    let mut apps = Vec::new();
    for u in ["u1", "u2", "u3", "u4", "u5", "u6", "u7"] {
        apps.push(submit(&mut cs, "default", u).unwrap());
        assert_same_as_a_full_read(&cs);
    }
    cs.remove_application(1, apps[0]).unwrap();
    assert!(cs.run_queue_management(2));
    assert_same_as_a_full_read(&cs);
}

/// Hadoop's TestCapacitySchedulerAutoQueueCreation fixture, reduced to the default partition:
/// c (20% of root) creates leaves with half of c each (10% of the cluster), users mapped to them.
fn hadoop_fixture(extra: &str) -> CapacityScheduler {
    let text = format!(
        "yarn.scheduler.capacity.root.queues=a,c,d
yarn.scheduler.capacity.root.a.capacity=60
yarn.scheduler.capacity.root.c.capacity=20
yarn.scheduler.capacity.root.d.capacity=20
yarn.scheduler.capacity.root.c.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.c.leaf-queue-template.capacity=50
yarn.scheduler.capacity.root.c.leaf-queue-template.maximum-capacity=100
yarn.scheduler.capacity.root.c.leaf-queue-template.user-limit-factor=3.0
yarn.scheduler.capacity.root.c.leaf-queue-template.minimum-user-limit-percent=100
yarn.scheduler.capacity.queue-mappings=u:user_0:c.user_0,u:user_1:c.user_1,u:user_2:c.user_2,u:user_3:c.user_3
yarn.scheduler.capacity.queue-mappings-override.enable=true
{extra}"
    );
    let conf = CapacitySchedulerConfiguration::from_properties_str(&text).unwrap();
    let mut cs = CapacityScheduler::new(Arc::new(conf), TS, 1);
    cs.add_node(0, &NodeSpec::new("h3", "/r", Resource::new(16 * 1024, 48)))
        .unwrap();
    cs
}

fn effective(cs: &CapacityScheduler, path: &str) -> (Resource, Resource) {
    let t = cs.queue_tree();
    let c = t.queue(t.find(path).unwrap()).capacities;
    (c.effective_min, c.effective_max)
}

#[test]
fn leaves_follow_the_cluster_size_as_in_test_cluster_resource_updation() {
    // testClusterResourceUpdationOnAutoCreatedLeafQueues, default partition.
    let mut cs = hadoop_fixture("");
    let h3 = cs
        .nodes()
        .map(|(id, _)| id)
        .next()
        .expect("the fixture's node");
    for u in ["user_1", "user_2", "user_3"] {
        submit(&mut cs, u, u).unwrap();
    }
    assert_eq!(caps(&cs, "root.c.user_3"), (0.0, 0.0, 1.0));
    let big = cs
        .add_node(
            0,
            &NodeSpec::new("127.0.0.3", "/r", Resource::new(128000, 20)),
        )
        .unwrap();
    let cluster = Resource::new(144384, 68);
    assert_eq!(effective(&cs, "root.c.user_3"), (Resource::ZERO, cluster));
    assert_eq!(
        effective(&cs, "root.c.user_1"),
        (Resource::new(14438, 6), cluster)
    );
    assert_eq!(
        effective(&cs, "root.c.user_2"),
        (Resource::new(14438, 6), cluster)
    );
    cs.remove_node(0, h3).unwrap();
    assert_eq!(effective(&cs, "root.c.user_1").0, Resource::new(12800, 2));
    assert_eq!(effective(&cs, "root.c.user_2").1, Resource::new(128000, 20));
    let _ = big;
    invariants(&cs);
}

#[test]
fn a_refresh_resizes_leaves_as_in_test_reinitialize_queues_with_auto_created_leaf_queues() {
    // testReinitializeQueuesWithAutoCreatedLeafQueues, default partition.
    let mut cs = hadoop_fixture("");
    submit(&mut cs, "user_1", "user_1").unwrap();
    submit(&mut cs, "user_2", "user_2").unwrap();
    let leaf = |cs: &CapacityScheduler, p: &str| {
        let t = cs.queue_tree();
        let q = t.find(p).unwrap();
        let c = t.queue(q).capacities;
        let l = t.queue(q).leaf.unwrap();
        (
            c.capacity,
            c.absolute_capacity,
            c.maximum_capacity,
            c.absolute_maximum_capacity,
            l.max_applications,
            l.max_applications_per_user,
        )
    };
    // c at 30% (max 50%), d at 10%: the template gives 15% each, both leaves have apps.
    let resized = |extra: &str| {
        let text = format!(
            "yarn.scheduler.capacity.root.queues=a,c,d
yarn.scheduler.capacity.root.a.capacity=60
yarn.scheduler.capacity.root.c.capacity=30
yarn.scheduler.capacity.root.c.maximum-capacity=50
yarn.scheduler.capacity.root.d.capacity=10
yarn.scheduler.capacity.root.c.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.c.leaf-queue-template.user-limit-factor=3.0
yarn.scheduler.capacity.root.c.leaf-queue-template.minimum-user-limit-percent=100
yarn.scheduler.capacity.queue-mappings=u:user_0:c.user_0,u:user_1:c.user_1,u:user_2:c.user_2,u:user_3:c.user_3
yarn.scheduler.capacity.queue-mappings-override.enable=true
{extra}"
        );
        Arc::new(CapacitySchedulerConfiguration::from_properties_str(&text).unwrap())
    };
    cs.refresh_queues(
        1,
        resized(
            "yarn.scheduler.capacity.root.c.leaf-queue-template.capacity=50
yarn.scheduler.capacity.root.c.leaf-queue-template.maximum-capacity=100",
        ),
    )
    .unwrap();
    let (c, abs, max, abs_max, apps, per_user) = leaf(&cs, "root.c.user_1");
    assert!(close(c, 0.5) && close(abs, 0.15) && close(max, 1.0) && close(abs_max, 0.5));
    assert_eq!((apps, per_user), (1500, 1500));
    // The template at 30% (max 40%): 0.09 of the cluster each, max 0.2.
    cs.refresh_queues(
        2,
        resized(
            "yarn.scheduler.capacity.root.c.leaf-queue-template.capacity=30
yarn.scheduler.capacity.root.c.leaf-queue-template.maximum-capacity=40",
        ),
    )
    .unwrap();
    let (c, abs, max, abs_max, apps, per_user) = leaf(&cs, "root.c.user_1");
    assert!(close(c, 0.3) && close(abs, 0.09) && close(max, 0.4) && close(abs_max, 0.2));
    assert_eq!((apps, per_user), (900, 900));
    // user_3's leaf fits (0.3 − 0.18 ≥ 0.09): three leaves hold 0.27.
    submit(&mut cs, "user_3", "user_3").unwrap();
    let (c, abs, ..) = leaf(&cs, "root.c.user_3");
    assert!(close(c, 0.3) && close(abs, 0.09));
    invariants(&cs);
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-4
}

#[test]
fn a_mapping_moved_to_another_managed_parent_is_refused_for_an_existing_leaf() {
    // testParentQueueUpdateInQueueMappingFailsAfterAutoCreation.
    let managed_d = "yarn.scheduler.capacity.root.d.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.d.leaf-queue-template.capacity=50";
    let mut cs = hadoop_fixture(managed_d);
    submit(&mut cs, "user_0", "user_0").unwrap();
    let moved = format!(
        "yarn.scheduler.capacity.root.queues=a,c,d
yarn.scheduler.capacity.root.a.capacity=60
yarn.scheduler.capacity.root.c.capacity=20
yarn.scheduler.capacity.root.d.capacity=20
yarn.scheduler.capacity.root.c.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.c.leaf-queue-template.capacity=50
{managed_d}
yarn.scheduler.capacity.queue-mappings=u:user_0:d.user_0
yarn.scheduler.capacity.queue-mappings-override.enable=true"
    );
    cs.refresh_queues(
        1,
        Arc::new(CapacitySchedulerConfiguration::from_properties_str(&moved).unwrap()),
    )
    .unwrap();
    assert_eq!(
        submit(&mut cs, "user_0", "user_0").unwrap_err(),
        "Auto created Leaf queue user_0 already exists under queue : c. But Queue mapping configuration \
         yarn.scheduler.capacity.queue-mappings has been updated to a different parent queue : root.d \
         for the specified user : user_0"
    );
}

/// TestCapacitySchedulerAutoQueueCreation.testAutoCreatedQueueActivationDeactivation, the
/// labelled half: c (20%) creates leaves with 50% of its default partition, 30% of its GPU and
/// 40% of its SSD; the policy entitles each partition on its own.
#[test]
fn leaves_are_entitled_on_each_partition_of_the_template_separately() {
    let text = "yarn.node-labels.enabled=true
yarn.scheduler.capacity.root.queues=a,c
yarn.scheduler.capacity.root.accessible-node-labels.GPU.capacity=100
yarn.scheduler.capacity.root.accessible-node-labels.SSD.capacity=100
yarn.scheduler.capacity.root.a.capacity=80
yarn.scheduler.capacity.root.a.accessible-node-labels=
yarn.scheduler.capacity.root.c.capacity=20
yarn.scheduler.capacity.root.c.accessible-node-labels=GPU,SSD
yarn.scheduler.capacity.root.c.accessible-node-labels.GPU.capacity=100
yarn.scheduler.capacity.root.c.accessible-node-labels.SSD.capacity=100
yarn.scheduler.capacity.root.c.default-node-label-expression=GPU
yarn.scheduler.capacity.root.c.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.c.leaf-queue-template.capacity=50
yarn.scheduler.capacity.root.c.leaf-queue-template.maximum-capacity=100
yarn.scheduler.capacity.root.c.leaf-queue-template.accessible-node-labels.GPU.capacity=30
yarn.scheduler.capacity.root.c.leaf-queue-template.accessible-node-labels.GPU.maximum-capacity=100
yarn.scheduler.capacity.root.c.leaf-queue-template.accessible-node-labels.SSD.capacity=40
yarn.scheduler.capacity.root.c.leaf-queue-template.accessible-node-labels.SSD.maximum-capacity=100
yarn.scheduler.capacity.root.c.leaf-queue-template.default-node-label-expression=SSD
yarn.scheduler.capacity.queue-mappings=u:%user:c.%user
";
    let conf = CapacitySchedulerConfiguration::from_properties_str(text).unwrap();
    let mut cs = CapacityScheduler::new(Arc::new(conf), TS, 1);
    cs.add_cluster_node_labels(&[("GPU".into(), true), ("SSD".into(), true)])
        .unwrap();
    cs.replace_labels_on_nodes(0, &[("h1".into(), vec!["SSD".into()])])
        .unwrap();
    cs.replace_labels_on_nodes(0, &[("h2".into(), vec!["GPU".into()])])
        .unwrap();
    for h in ["h1", "h2", "h3"] {
        cs.add_node(0, &NodeSpec::new(h, "/r1", Resource::new(10 * 1024, 10)))
            .unwrap();
    }
    // (default, GPU, SSD) capacities of a leaf, as fractions of c's.
    let entitled = |cs: &CapacityScheduler, user: &str| {
        let t = cs.queue_tree();
        let q = t.find(&format!("root.c.{user}")).unwrap();
        (
            t.queue(q).capacities.capacity,
            t.partition_capacity(q, "GPU").capacity,
            t.partition_capacity(q, "SSD").capacity,
        )
    };
    submit(&mut cs, "default", "user1").unwrap();
    let user2 = submit(&mut cs, "default", "user2").unwrap();
    submit(&mut cs, "default", "user1").unwrap();
    assert_eq!(entitled(&cs, "user1"), (0.5, 0.3, 0.4));
    assert_eq!(entitled(&cs, "user2"), (0.5, 0.3, 0.4));
    // c's default partition (2 × 0.1 of the cluster) and SSD (0.8 of 1.0) are taken; GPU has
    // 0.4 left for a third 0.3.
    submit(&mut cs, "default", "user3").unwrap();
    assert_eq!(entitled(&cs, "user3"), (0.0, 0.3, 0.0));
    let t = cs.queue_tree();
    let user3 = t.find("root.c.user3").unwrap();
    assert!((t.partition_capacity(user3, "GPU").absolute_capacity - 0.3).abs() < 1e-6);
    invariants(&cs);
    // user2's application goes: the next round takes all its entitlements and gives user3
    // the default partition and SSD.
    cs.remove_application(0, user2).unwrap();
    assert!(cs.run_queue_management(0));
    assert_eq!(entitled(&cs, "user2"), (0.0, 0.0, 0.0));
    assert_eq!(entitled(&cs, "user3"), (0.5, 0.3, 0.4));
    invariants(&cs);
}
