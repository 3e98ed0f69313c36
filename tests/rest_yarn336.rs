//! capsched's RM REST document against a real YARN 3.3.6 ResourceManager's for the same state,
//! field by field: the documents in tests/data/yarn-3.3.6/ were captured from Hadoop 3.3.6's
//! stock CapacityScheduler (see tests/data/README.md); this test rebuilds the same state in
//! capsched's core and compares every live field (application and container counts, used,
//! pending and AM resources, AM limits, users). Where YARN shows a value it computed lazily
//! (a user's limit and AM limit are the last ones it computed, 0 for a user never activated)
//! capsched shows the value now; those are the documented exceptions (docs/SEMANTICS.md). A
//! labelled cluster's document (scheduler-rest-labels.json) is compared partition by partition
//! the same way.

mod common;

use capsched::report::rest::scheduler_info_json_live;
use common::cluster::{Cluster, GB};
use serde_json::Value;

const CONF: &str = common::cluster::REST_CONF;

fn yarn(n: u32) -> Value {
    let path = format!(
        "{}/tests/data/yarn-3.3.6/scheduler-rest-live-{n}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The queue at `path` ("root", "root.p.a") found by queue names, as YARN 3.3.6 has no paths.
fn queue<'a>(doc: &'a Value, path: &str) -> &'a Value {
    let mut at = &doc["scheduler"]["schedulerInfo"];
    for name in path.split('.').skip(1) {
        at = at["queues"]["queue"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["queueName"] == name)
            .unwrap_or_else(|| panic!("{path}: no {name}"));
    }
    at
}

/// (memory, vcores) of a `ResourceInfo`; a missing one fails (both documents must have it).
fn resource(v: &Value) -> (i64, i64) {
    match (v["memory"].as_i64(), v["vCores"].as_i64()) {
        (Some(m), Some(c)) => (m, c),
        _ => panic!("not a resource: {v}"),
    }
}

/// Every live field of one queue (and its users) in both documents.
fn compare_queue(ours: &Value, theirs: &Value, path: &str, leaf: bool) {
    let q = queue(ours, path);
    let y = queue(theirs, path);
    let mut counts = vec![
        "numApplications",
        "allocatedContainers",
        "reservedContainers",
        "pendingContainers",
    ];
    if leaf {
        counts.extend([
            "numActiveApplications",
            "numPendingApplications",
            "numContainers",
        ]);
    }
    for k in counts {
        assert!(y[k].is_i64(), "{path}: YARN's document lacks {k}");
        assert_eq!(q[k], y[k], "{path}: {k}");
    }
    assert_eq!(
        resource(&q["resourcesUsed"]),
        resource(&y["resourcesUsed"]),
        "{path}: resourcesUsed"
    );
    let part = |d: &Value| d["resources"]["resourceUsagesByPartition"][0].clone();
    let (qp, yp) = (part(q), part(y));
    let mut parts = vec!["used", "reserved", "pending"];
    if leaf {
        parts.extend(["amUsed", "amLimit"]);
    }
    for k in parts {
        assert_eq!(
            resource(&qp[k]),
            resource(&yp[k]),
            "{path}: resourceUsagesByPartition.{k}"
        );
    }
    if !leaf {
        return;
    }
    for k in ["usedAMResource", "AMResourceLimit"] {
        assert_eq!(resource(&q[k]), resource(&y[k]), "{path}: {k}");
    }
    let users = |d: &Value| {
        let mut v: Vec<Value> = d["users"]["user"].as_array().cloned().unwrap_or_default();
        v.sort_by_key(|u| u["username"].as_str().unwrap().to_string());
        v
    };
    let (qu, yu) = (users(q), users(y));
    assert_eq!(qu.len(), yu.len(), "{path}: users");
    for (a, b) in qu.iter().zip(&yu) {
        let who = format!("{path}: user {}", b["username"]);
        assert_eq!(a["username"], b["username"], "{who}");
        for k in [
            "numActiveApplications",
            "numPendingApplications",
            "isActive",
        ] {
            assert_eq!(a[k], b[k], "{who}: {k}");
        }
        for k in ["resourcesUsed", "AMResourceUsed"] {
            assert_eq!(resource(&a[k]), resource(&b[k]), "{who}: {k}");
        }
        // A user YARN has computed a limit for (an active application): the same limit.
        if b["numActiveApplications"].as_i64().unwrap() > 0 {
            assert_eq!(
                resource(&a["userResourceLimit"]),
                resource(&b["userResourceLimit"]),
                "{who}: userResourceLimit"
            );
        }
    }
}

fn compare(ours: &Value, theirs: &Value) {
    compare_queue(ours, theirs, "root.p", false);
    compare_queue(ours, theirs, "root.p.a", true);
    compare_queue(ours, theirs, "root.b", true);
    let root = |d: &Value| {
        d["scheduler"]["schedulerInfo"]["capacities"]["queueCapacitiesByPartition"][0].clone()
    };
    for k in ["configuredMinResource", "configuredMaxResource"] {
        assert_eq!(
            resource(&root(ours)[k]),
            resource(&root(theirs)[k]),
            "root: {k}"
        );
    }
}

#[test]
fn the_live_document_matches_a_real_yarn_3_3_6_rm_in_the_same_state() {
    let mut c = Cluster::new(CONF);
    let node = c.node("localhost", "/default-rack", 16 * GB, 16);
    // alice's AM runs (MockRM launches it at a heartbeat); bob's waits on a's AM limit.
    let alice = c.app("a", "alice", GB);
    c.heartbeat(node);
    c.app("a", "bob", GB);
    c.heartbeat(node);
    let doc = || scheduler_info_json_live(c.cs.queue_tree(), &c.cs.live_queues());
    compare(&doc(), &yarn(1));

    // alice's three 2 GB containers, one per heartbeat.
    c.ask(alice, 1, 2 * GB, 3);
    for _ in 0..3 {
        c.heartbeat(node);
    }
    let doc = scheduler_info_json_live(c.cs.queue_tree(), &c.cs.live_queues());
    compare(&doc, &yarn(2));
    c.check();
}

/// The labelled state of tests/data/yarn-3.3.6/scheduler-rest-labels.json: root {a, b, c, d};
/// root x = y = 100; a 50% (x 50 max 80, y 100; labels x, y), b 50% (x 50; label x, default
/// label x), c 0% (no labels), d 0% (`*`, no label keys). Labels x exclusive, y not; h1:1234
/// on x and h2:1234, 8 GB / 8 vcores each. u's application in b runs its AM on h1 (b's default
/// label), asks for 1 GB on x (priority 1) and 5 × 1 GB on the default partition (priority
/// 2); one heartbeat of each node places one of each.
const LABELS_CONF: &str = "yarn.node-labels.enabled=true
yarn.scheduler.capacity.root.queues=a,b,c,d
yarn.scheduler.capacity.root.accessible-node-labels.x.capacity=100
yarn.scheduler.capacity.root.accessible-node-labels.y.capacity=100
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.a.accessible-node-labels=x,y
yarn.scheduler.capacity.root.a.accessible-node-labels.x.capacity=50
yarn.scheduler.capacity.root.a.accessible-node-labels.x.maximum-capacity=80
yarn.scheduler.capacity.root.a.accessible-node-labels.y.capacity=100
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.b.accessible-node-labels=x
yarn.scheduler.capacity.root.b.accessible-node-labels.x.capacity=50
yarn.scheduler.capacity.root.b.default-node-label-expression=x
yarn.scheduler.capacity.root.c.capacity=0
yarn.scheduler.capacity.root.c.accessible-node-labels=
yarn.scheduler.capacity.root.d.capacity=0
";

fn yarn_labels() -> Value {
    let path = format!(
        "{}/tests/data/yarn-3.3.6/scheduler-rest-labels.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every per-partition field of a `…ByPartition` array: the partitions in the same order, and
/// each listed field's resource or number.
fn compare_partitions(
    ours: &Value,
    theirs: &Value,
    what: &str,
    resources: &[&str],
    numbers: &[&str],
) {
    let (o, t) = (ours.as_array().unwrap(), theirs.as_array().unwrap());
    let names = |a: &[Value]| {
        a.iter()
            .map(|e| e["partitionName"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(o), names(t), "{what}: partitions");
    for (a, b) in o.iter().zip(t) {
        let at = format!("{what} [{}]", b["partitionName"]);
        let keys = |e: &Value| e.as_object().unwrap().len();
        if numbers.is_empty() {
            assert_eq!(keys(a), keys(b), "{at}: keys");
        }
        for k in resources {
            assert_eq!(resource(&a[*k]), resource(&b[*k]), "{at}: {k}");
        }
        for k in numbers {
            assert!(b[*k].is_f64(), "{at}: YARN's lacks {k}");
            assert_eq!(a[*k], b[*k], "{at}: {k}");
        }
    }
}

#[test]
fn partitions_match_a_real_yarn_3_3_6_rm_in_the_same_state() {
    let mut c = Cluster::new(LABELS_CONF);
    c.cs.add_cluster_node_labels(&[("x".to_string(), true), ("y".to_string(), false)])
        .unwrap();
    c.cs.replace_labels_on_nodes(0, &[("h1".to_string(), vec!["x".to_string()])])
        .unwrap();
    let h1 = c.node("h1:1234", "/default-rack", 8 * GB, 8);
    let h2 = c.node("h2:1234", "/default-rack", 8 * GB, 8);
    let app = c.app("b", "u", GB);
    c.heartbeat(h1);
    let ask = |priority: i32, n: i32, label: &str| {
        let mut r = capsched::records::ResourceRequest::any(
            priority,
            capsched::resource::Resource::new(GB, 1),
            n,
        );
        r.node_label_expression = Some(label.to_string());
        r
    };
    c.allocate(app, vec![ask(1, 1, "x"), ask(2, 5, "")], vec![]);
    c.heartbeat(h1);
    c.heartbeat(h2);
    let ours = scheduler_info_json_live(c.cs.queue_tree(), &c.cs.live_queues());
    let theirs = yarn_labels();

    let caps = |d: &Value| d["capacities"]["queueCapacitiesByPartition"].clone();
    let cap_numbers = [
        "capacity",
        "usedCapacity",
        "maxCapacity",
        "absoluteCapacity",
        "absoluteUsedCapacity",
        "absoluteMaxCapacity",
        "maxAMLimitPercentage",
    ];
    let cap_resources = [
        "configuredMinResource",
        "configuredMaxResource",
        "effectiveMinResource",
        "effectiveMaxResource",
    ];
    compare_partitions(
        &caps(queue(&ours, "root")),
        &caps(queue(&theirs, "root")),
        "root capacities",
        &cap_resources,
        &cap_numbers,
    );
    for name in ["a", "b", "c", "d"] {
        let path = format!("root.{name}");
        let (q, y) = (queue(&ours, &path), queue(&theirs, &path));
        compare_partitions(
            &caps(q),
            &caps(y),
            &format!("{name} capacities"),
            &cap_resources,
            &cap_numbers,
        );
        // userAmLimit of the default partition is left out: YARN shows the last one it
        // computed (0 here: u's AM is on x), capsched the one now (the documented exception).
        let usages = |d: &Value| d["resources"]["resourceUsagesByPartition"].clone();
        compare_partitions(
            &usages(q),
            &usages(y),
            &format!("{name} resources"),
            &["used", "reserved", "pending", "amUsed", "amLimit"],
            &[],
        );
        let (qu, yu) = (usages(q), usages(y));
        for (a, b) in qu.as_array().unwrap().iter().zip(yu.as_array().unwrap()) {
            if b["partitionName"] != "" {
                assert_eq!(
                    resource(&a["userAmLimit"]),
                    resource(&b["userAmLimit"]),
                    "{name} [{}]: userAmLimit",
                    b["partitionName"]
                );
            }
        }
        for k in [
            "allocatedContainers",
            "reservedContainers",
            "pendingContainers",
            "numContainers",
            "numApplications",
            "numActiveApplications",
        ] {
            assert_eq!(q[k], y[k], "{name}: {k}");
        }
        for k in [
            "resourcesUsed",
            "usedAMResource",
            "AMResourceLimit",
            "minEffectiveCapacity",
            "maxEffectiveCapacity",
        ] {
            assert_eq!(resource(&q[k]), resource(&y[k]), "{name}: {k}");
        }
        for k in [
            "usedCapacity",
            "absoluteUsedCapacity",
            "nodeLabels",
            "defaultNodeLabelExpression",
        ] {
            assert_eq!(q.get(k), y.get(k), "{name}: {k}");
        }
    }
    // u: every partition's use in resourcesUsed, the default partition's AM use on its own;
    // per partition, the same use (the default partition's amLimit left out, as above).
    let (q, y) = (
        &queue(&ours, "root.b")["users"]["user"][0],
        &queue(&theirs, "root.b")["users"]["user"][0],
    );
    for k in ["resourcesUsed", "AMResourceUsed"] {
        assert_eq!(resource(&q[k]), resource(&y[k]), "u: {k}");
    }
    let usages = |u: &Value| u["resources"]["resourceUsagesByPartition"].clone();
    compare_partitions(
        &usages(q),
        &usages(y),
        "u resources",
        &["used", "reserved", "pending", "amUsed"],
        &[],
    );
    assert_eq!(
        resource(&usages(q)[1]["amLimit"]),
        resource(&usages(y)[1]["amLimit"]),
        "u [x]: amLimit"
    );
    c.check();
}
