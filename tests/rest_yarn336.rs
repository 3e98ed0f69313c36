//! capsched's RM REST document against a real YARN 3.3.6 ResourceManager's for the same state,
//! field by field: the documents in tests/data/yarn-3.3.6/ were captured from Hadoop 3.3.6's
//! stock CapacityScheduler (see tests/data/README.md); this test rebuilds the same state in
//! capsched's core and compares every live field (application and container counts, used,
//! pending and AM resources, AM limits, users). Where YARN shows a value it computed lazily
//! (a user's limit and AM limit are the last ones it computed, 0 for a user never activated)
//! capsched shows the value now; those are the documented exceptions (docs/SEMANTICS.md).

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
