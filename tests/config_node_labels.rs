//! Node-label configuration (issue 17, part 2, first step): YARN 3.3.6's accessible labels
//! and their inheritance, per-label capacities for the labels a queue has keys for, the
//! default label expression and its inheritance, every check with YARN's words, the derived
//! per-partition capacities (Hadoop's TestQueueParsing.testQueueParsingWithLabels), and the
//! REST document's partitions.

use std::sync::Arc;

use capsched::config::node_labels::AccessibleLabels;
use capsched::config::CapacitySchedulerConfiguration;
use capsched::state::queue::QueueTree;

fn parse(text: &str) -> Result<CapacitySchedulerConfiguration, String> {
    CapacitySchedulerConfiguration::from_properties_str(text).map_err(|e| e.to_string())
}

/// TestQueueParsing's `setupQueueConfigurationWithLabels`.
const WITH_LABELS: &str = "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.accessible-node-labels.red.capacity=100
yarn.scheduler.capacity.root.accessible-node-labels.blue.capacity=100
yarn.scheduler.capacity.root.a.capacity=10
yarn.scheduler.capacity.root.a.maximum-capacity=15
yarn.scheduler.capacity.root.a.accessible-node-labels=red,blue
yarn.scheduler.capacity.root.a.accessible-node-labels.red.capacity=50
yarn.scheduler.capacity.root.a.accessible-node-labels.red.maximum-capacity=50
yarn.scheduler.capacity.root.a.accessible-node-labels.blue.capacity=50
yarn.scheduler.capacity.root.a.queues=a1,a2
yarn.scheduler.capacity.root.a.a1.capacity=30
yarn.scheduler.capacity.root.a.a1.maximum-capacity=45
yarn.scheduler.capacity.root.a.a1.accessible-node-labels.red.capacity=50
yarn.scheduler.capacity.root.a.a1.accessible-node-labels.blue.capacity=100
yarn.scheduler.capacity.root.a.a2.capacity=70
yarn.scheduler.capacity.root.a.a2.maximum-capacity=85
yarn.scheduler.capacity.root.a.a2.accessible-node-labels=red
yarn.scheduler.capacity.root.a.a2.accessible-node-labels.red.capacity=50
yarn.scheduler.capacity.root.a.a2.accessible-node-labels.red.maximum-capacity=60
yarn.scheduler.capacity.root.b.capacity=90
yarn.scheduler.capacity.root.b.accessible-node-labels=red,blue
yarn.scheduler.capacity.root.b.accessible-node-labels.red.capacity=50
yarn.scheduler.capacity.root.b.accessible-node-labels.blue.capacity=50
yarn.scheduler.capacity.root.b.queues=b1,b2,b3
yarn.scheduler.capacity.root.b.b1.capacity=50
yarn.scheduler.capacity.root.b.b1.maximum-capacity=85
yarn.scheduler.capacity.root.b.b1.accessible-node-labels.red.capacity=50
yarn.scheduler.capacity.root.b.b1.accessible-node-labels.blue.capacity=50
yarn.scheduler.capacity.root.b.b2.capacity=30
yarn.scheduler.capacity.root.b.b2.maximum-capacity=35
yarn.scheduler.capacity.root.b.b2.accessible-node-labels.red.capacity=25
yarn.scheduler.capacity.root.b.b2.accessible-node-labels.blue.capacity=25
yarn.scheduler.capacity.root.b.b3.capacity=20
yarn.scheduler.capacity.root.b.b3.maximum-capacity=35
yarn.scheduler.capacity.root.b.b3.accessible-node-labels.red.capacity=25
yarn.scheduler.capacity.root.b.b3.accessible-node-labels.blue.capacity=25
";

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn per_label_capacities_multiply_down_the_tree_as_in_test_queue_parsing() {
    let conf = Arc::new(parse(WITH_LABELS).unwrap());
    let tree = QueueTree::new(conf.clone());
    let q = |p: &str| tree.find(p).unwrap();
    // a1 inherits a's labels.
    assert_eq!(
        conf.queue("root.a.a1").unwrap().labels.accessible,
        AccessibleLabels::Only(["blue".to_string(), "red".to_string()].into())
    );
    let a2 = q("root.a.a2");
    assert_eq!(
        conf.queue("root.a.a2").unwrap().labels.accessible,
        AccessibleLabels::Only(["red".to_string()].into())
    );
    let c = tree.queue(a2).capacities;
    assert!(close(c.capacity, 0.7) && close(c.absolute_capacity, 0.07));
    assert!(close(c.absolute_maximum_capacity, 0.1275));
    let red = tree.partition_capacities(a2)["red"];
    assert!(close(red.capacity, 0.5) && close(red.absolute_capacity, 0.25));
    assert!(close(red.absolute_maximum_capacity, 0.3), "{red:?}");
    let b3 = q("root.b.b3");
    let c = tree.queue(b3).capacities;
    assert!(close(c.absolute_capacity, 0.18) && close(c.absolute_maximum_capacity, 0.35));
    let red = tree.partition_capacities(b3)["red"];
    assert!(close(red.absolute_capacity, 0.125) && close(red.absolute_maximum_capacity, 1.0));
    // Top-level queues without the key inherit root's "*".
    let plain = parse(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100",
    )
    .unwrap();
    assert_eq!(
        plain.queue("root.a").unwrap().labels.accessible,
        AccessibleLabels::Any
    );
}

#[test]
fn label_checks_use_yarns_words() {
    // A children's sum off 100% for a label the parent has.
    let err = parse(&WITH_LABELS.replace(
        "root.b.b3.accessible-node-labels.red.capacity=25",
        "root.b.b3.accessible-node-labels.red.capacity=24",
    ))
    .unwrap_err();
    assert!(
        err.contains("Illegal capacity of 0.99 for children of queue b for label=red. It should be either 0 or 1.0"),
        "{err}"
    );
    // Out of [0, 100].
    let err = parse(&WITH_LABELS.replace(
        "root.a.a2.accessible-node-labels.red.maximum-capacity=60",
        "root.a.a2.accessible-node-labels.red.maximum-capacity=-1",
    ))
    .unwrap_err();
    assert!(
        err.contains("Illegal capacity of -1.0 for node-label=red in queue=root.a.a2, valid capacity should in range of [0, 100]."),
        "{err}"
    );
    // Absolute capacity above the absolute maximum on a label.
    let err = parse(&WITH_LABELS.replace(
        "root.a.a2.accessible-node-labels.red.maximum-capacity=60",
        "root.a.a2.accessible-node-labels.red.maximum-capacity=40",
    ))
    .unwrap_err();
    assert!(
        err.contains("Illegal queue capacity setting (abs-capacity=0.25) > (abs-maximum-capacity=0.2) for queue=[root.a.a2],label=[red]"),
        "{err}"
    );
    // A capacity above the maximum is fine while the absolute values are.
    parse(&WITH_LABELS.replace(
        "root.a.a2.accessible-node-labels.red.maximum-capacity=60",
        "root.a.a2.accessible-node-labels.red.maximum-capacity=50",
    ))
    .unwrap();
    // A child may not reach beyond a (non-root, non-*) parent's labels.
    let err = parse(&format!(
        "{WITH_LABELS}yarn.scheduler.capacity.root.a.a1.accessible-node-labels=red,green\n"
    ))
    .unwrap_err();
    assert!(
        err.contains(
            "Some labels of child queue is not a subset of parent queue, these labels=[green]"
        ),
        "{err}"
    );
    let err = parse(&format!(
        "{WITH_LABELS}yarn.scheduler.capacity.root.a.a1.accessible-node-labels=*\n"
    ))
    .unwrap_err();
    assert!(
        err.contains("Parent's accessible queue is not ANY(*), but child's accessible queue is *"),
        "{err}"
    );
    // A leaf's default expression must be accessible (YARN's two spaces kept).
    let err = parse(&format!(
        "{WITH_LABELS}yarn.scheduler.capacity.root.a.a2.default-node-label-expression=blue\n"
    ))
    .unwrap_err();
    assert!(
        err.contains("Invalid default label expression of  queue=root.a.a2 doesn't have permission to access all labels in default label expression. labelExpression of resource request=blue. Queue labels=red"),
        "{err}"
    );
    // Labels the cluster does not have are not the configuration's concern.
    parse(&format!(
        "{WITH_LABELS}yarn.scheduler.capacity.root.a.a1.accessible-node-labels.nowhere.capacity=0\n"
    ))
    .unwrap();
}

#[test]
fn the_default_expression_is_inherited_only_by_queues_that_can_access_all_the_parents_labels() {
    let conf = parse(&format!(
        "{WITH_LABELS}yarn.scheduler.capacity.root.a.default-node-label-expression= red \n"
    ))
    .unwrap();
    let d = |p: &str| conf.queue(p).unwrap().labels.default_expression.clone();
    assert_eq!(d("root.a"), Some("red".into()));
    // a1 inherited a's labels: it inherits the default too; a2 narrowed them: it does not.
    assert_eq!(d("root.a.a1"), Some("red".into()));
    assert_eq!(d("root.a.a2"), None);
    assert_eq!(d("root.b.b1"), None);
}

#[test]
fn the_rest_document_lists_each_queues_partitions() {
    let conf = Arc::new(
        parse(&format!(
            "{WITH_LABELS}yarn.scheduler.capacity.root.a.a1.default-node-label-expression=blue\n"
        ))
        .unwrap(),
    );
    let mut tree = QueueTree::new(conf);
    tree.update_cluster_resource(capsched::resource::Resource::new(100 * 1024, 100));
    let doc = capsched::report::rest::scheduler_info_json(&tree);
    let root = &doc["scheduler"]["schedulerInfo"];
    let a = &root["queues"]["queue"][0];
    let a1 = &a["queues"]["queue"][0];
    assert_eq!(a1["queueName"], "a1");
    assert_eq!(a1["nodeLabels"], serde_json::json!(["blue", "red"]));
    assert_eq!(a1["defaultNodeLabelExpression"], "blue");
    let parts = a1["capacities"]["queueCapacitiesByPartition"]
        .as_array()
        .unwrap();
    // "" first, then Java's HashMap order ("red" and "blue" by their hash buckets).
    let names: Vec<&str> = parts
        .iter()
        .map(|p| p["partitionName"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["", "red", "blue"]);
    let red = &parts[1];
    assert_eq!(red["capacity"], 50.0);
    assert_eq!(red["absoluteCapacity"], 25.0);
    // No node carries a label: the partition has nothing.
    assert_eq!(red["effectiveMinResource"]["memory"], 0);
    // The leaf's usage lists the partitions it may use, once the cluster has resources.
    let usage: Vec<&str> = a1["resources"]["resourceUsagesByPartition"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["partitionName"].as_str().unwrap())
        .collect();
    assert_eq!(usage, vec!["", "red", "blue"]);
    // A parent's lists the default partition only.
    assert_eq!(
        a["resources"]["resourceUsagesByPartition"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // A queue that may use only the default partition has no nodeLabels.
    let only_default = parse(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.accessible-node-labels= ",
    )
    .unwrap();
    let doc = capsched::report::rest::scheduler_info_json(&QueueTree::new(Arc::new(only_default)));
    let a = &doc["scheduler"]["schedulerInfo"]["queues"]["queue"][0];
    assert!(a.get("nodeLabels").is_none(), "{a}");
}

/// Absolute resources per label (`accessible-node-labels.<L>.capacity=[memory=…,vcores=…]`):
/// the percentage reads 0, the guarantee is the resource, scaled down when the children ask
/// for more than the parent has there (a float ratio, as YARN keeps it), and turned back into
/// a percentage of the parent's (`ParentQueue.calculateEffectiveResourcesAndCapacity`).
#[test]
fn absolute_label_capacities_are_derived_as_the_default_partitions_are() {
    let text = "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.accessible-node-labels.x.capacity=100
yarn.scheduler.capacity.root.a.capacity=[memory=4096,vcores=4]
yarn.scheduler.capacity.root.a.accessible-node-labels=x
yarn.scheduler.capacity.root.a.accessible-node-labels.x.capacity=[memory=8192,vcores=8]
yarn.scheduler.capacity.root.a.accessible-node-labels.x.maximum-capacity=[memory=10240,vcores=10]
yarn.scheduler.capacity.root.b.capacity=[memory=4096,vcores=4]
yarn.scheduler.capacity.root.b.accessible-node-labels=x
yarn.scheduler.capacity.root.b.accessible-node-labels.x.capacity=[memory=4096,vcores=4]
";
    let conf = Arc::new(parse(text).unwrap());
    let a_conf = conf.queue("root.a").unwrap();
    assert_eq!(
        a_conf.labels.capacities["x"].capacity, 0.0,
        "reads 0 as a percentage"
    );
    let mut tree = QueueTree::new(conf.clone());
    let x = capsched::resource::Resource::new(10240, 10);
    tree.update_partition_resources(
        capsched::resource::Resource::new(20480, 20),
        capsched::resource::Resource::new(10240, 10),
        [("x".to_string(), x)].into(),
    );
    let a = tree.partition_capacity(tree.find("root.a").unwrap(), "x");
    let b = tree.partition_capacity(tree.find("root.b").unwrap(), "x");
    // 8192 + 4096 > 10240: each scaled by 10240/12288 (f32), per resource type.
    let ratio = 10240f32 / 12288f32;
    assert_eq!(a.effective_min.memory_mb(), (8192f32 * ratio) as i64);
    assert_eq!(b.effective_min.memory_mb(), (4096f32 * ratio) as i64);
    assert_eq!(a.effective_max.memory_mb(), 10240);
    assert!((a.capacity - a.effective_min.memory_mb() as f32 / 10240.0).abs() < 1e-6);
    assert!((a.absolute_capacity - a.capacity).abs() < 1e-6);
    // The REST document shows the configured resources on the label.
    let doc = capsched::report::rest::scheduler_info_json(&tree);
    let a = &doc["scheduler"]["schedulerInfo"]["queues"]["queue"][0];
    let x = a["capacities"]["queueCapacitiesByPartition"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["partitionName"] == "x")
        .unwrap();
    assert_eq!(x["configuredMinResource"]["memory"], 8192);
    assert_eq!(x["configuredMaxResource"]["memory"], 10240);
}

#[test]
fn absolute_label_checks_use_yarns_words() {
    // A queue uses one mode on every partition it configures.
    let mixed = "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.accessible-node-labels.x.capacity=100
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.accessible-node-labels.x.capacity=[memory=1024,vcores=1]
";
    let e = parse(mixed).unwrap_err();
    assert!(
        e.contains("Queue 'root.a' should use either percentage based capacity configuration or absolute resource."),
        "{e}"
    );
    // The children's minima fit in the parent's on the label.
    let over = "yarn.scheduler.capacity.root.queues=p
yarn.scheduler.capacity.root.accessible-node-labels.x.capacity=100
yarn.scheduler.capacity.root.p.capacity=[memory=4096,vcores=4]
yarn.scheduler.capacity.root.p.accessible-node-labels.x.capacity=[memory=2048,vcores=2]
yarn.scheduler.capacity.root.p.queues=c1,c2
yarn.scheduler.capacity.root.p.c1.capacity=[memory=2048,vcores=2]
yarn.scheduler.capacity.root.p.c1.accessible-node-labels.x.capacity=[memory=2048,vcores=2]
yarn.scheduler.capacity.root.p.c2.capacity=[memory=2048,vcores=2]
yarn.scheduler.capacity.root.p.c2.accessible-node-labels.x.capacity=[memory=1024,vcores=1]
";
    let e = parse(over).unwrap_err();
    assert!(
        e.contains("Parent Queues capacity: <memory:2048, vCores:2> is less than to its children:<memory:3072, vCores:3> for queue:p"),
        "{e}"
    );
    // And a label's absolute minimum is within its maximum.
    let min_over_max = "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.accessible-node-labels.x.capacity=100
yarn.scheduler.capacity.root.a.capacity=[memory=1024,vcores=1]
yarn.scheduler.capacity.root.a.accessible-node-labels.x.capacity=[memory=4096,vcores=4]
yarn.scheduler.capacity.root.a.accessible-node-labels.x.maximum-capacity=[memory=2048,vcores=2]
";
    let e = parse(min_over_max).unwrap_err();
    assert!(
        e.contains("Min resource configuration <memory:4096, vCores:4> is greater than its max value:<memory:2048, vCores:2> in queue:root.a"),
        "{e}"
    );
}
