//! The RM REST scheduler document built from a running scheduler's state, field by field as
//! YARN 3.3.6's DAOs fill them (`CapacitySchedulerQueueInfo`, `CapacitySchedulerLeafQueueInfo`,
//! `UserInfo`, `ResourcesInfo`): application counts at the leaf (attempts: active, pending on
//! the AM limit) and at the parent (applications), the container counts of the queue metrics,
//! used/pending/AM resources, the users, and root's configured resources (the cluster's); on a
//! labelled cluster, each partition's usage and used capacities (`PartitionResourcesInfo`,
//! `PartitionQueueCapacitiesInfo`) with the numbers worked out by hand.

mod common;

use capsched::report::rest::scheduler_info_json_live;
use common::cluster::{Cluster, GB};
use serde_json::Value;

const CONF: &str = common::cluster::REST_CONF;

fn doc(c: &Cluster) -> Value {
    scheduler_info_json_live(c.cs.queue_tree(), &c.cs.live_queues())
}

fn queue<'a>(doc: &'a Value, path: &str) -> &'a Value {
    let mut at = &doc["scheduler"]["schedulerInfo"];
    let mut prefix = "root".to_string();
    for part in path.split('.').skip(1) {
        prefix = format!("{prefix}.{part}");
        at = at["queues"]["queue"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["queuePath"] == prefix.as_str())
            .unwrap_or_else(|| panic!("{prefix} not in the document"));
    }
    at
}

fn mb(v: &Value) -> i64 {
    v["memory"].as_i64().unwrap()
}

#[test]
fn the_document_shows_what_runs_as_yarn_does() {
    let mut c = Cluster::new(CONF);
    let node = c.node("h1", "/r", 16 * GB, 16);
    // a's AM limit is 10% of its 8 GB (normalised up to 1 GB): one AM at a time.
    let app1 = c.app("a", "alice", GB);
    c.app("a", "bob", GB);
    let d = doc(&c);
    let a = queue(&d, "root.p.a");
    assert_eq!(a["numApplications"], 2, "a leaf counts attempts");
    assert_eq!(a["numActiveApplications"], 1);
    assert_eq!(
        a["numPendingApplications"], 1,
        "bob's waits on the AM limit"
    );
    assert_eq!(a["pendingContainers"], 2, "both AMs are asked for");
    assert_eq!(
        mb(&a["resources"]["resourceUsagesByPartition"][0]["pending"]),
        2 * GB
    );
    assert_eq!(mb(&a["usedAMResource"]), GB, "counted at activation");
    let users = a["users"]["user"].as_array().unwrap();
    assert_eq!(users.len(), 2);
    assert_eq!(users[0]["username"], "alice");
    assert_eq!(users[0]["numActiveApplications"], 1);
    assert_eq!(mb(&users[0]["AMResourceUsed"]), GB);
    assert_eq!(users[1]["username"], "bob");
    assert_eq!(users[1]["numPendingApplications"], 1);
    assert_eq!(users[1]["numActiveApplications"], 0);
    assert_eq!(
        queue(&d, "root.p")["numApplications"],
        2,
        "a parent counts applications"
    );

    // alice's AM, then three 2 GB containers.
    c.heartbeat(node);
    c.ask(app1, 1, 2 * GB, 3);
    for _ in 0..3 {
        c.heartbeat(node);
    }
    let d = doc(&c);
    let a = queue(&d, "root.p.a");
    assert_eq!(a["allocatedContainers"], 4, "the AM container counts");
    assert_eq!(a["reservedContainers"], 0);
    assert_eq!(a["numContainers"], 4);
    assert_eq!(a["pendingContainers"], 1, "bob's AM still");
    assert_eq!(mb(&a["resourcesUsed"]), 7 * GB);
    let alice = &a["users"]["user"][0];
    assert_eq!(mb(&alice["resourcesUsed"]), 7 * GB);
    assert_eq!(alice["isActive"], false, "nothing left to ask for");
    assert!(mb(&alice["userResourceLimit"]) > 0);
    let p = queue(&d, "root.p");
    assert_eq!(
        p["allocatedContainers"], 4,
        "a parent's metrics are its subtree's"
    );
    assert_eq!(p["pendingContainers"], 1);
    assert_eq!(queue(&d, "root.b")["allocatedContainers"], 0);
    let root = &d["scheduler"]["schedulerInfo"]["capacities"]["queueCapacitiesByPartition"][0];
    assert_eq!(
        mb(&root["configuredMinResource"]),
        16 * GB,
        "root's are the cluster's"
    );
    assert_eq!(mb(&root["configuredMaxResource"]), 16 * GB);

    // The application leaves: bob's is activated, the counts follow.
    c.cs.remove_application(c.now, app1).unwrap();
    c.check();
    let d = doc(&c);
    let a = queue(&d, "root.p.a");
    assert_eq!(a["numApplications"], 1);
    assert_eq!(a["numActiveApplications"], 1);
    assert_eq!(a["numContainers"], 0);
    assert_eq!(
        a["users"]["user"].as_array().unwrap().len(),
        1,
        "alice is gone"
    );
    assert_eq!(queue(&d, "root.p")["numApplications"], 1);
}

#[test]
fn a_leaf_with_no_users_shows_its_queue_am_limit_and_an_empty_user_list() {
    let mut c = Cluster::new(CONF);
    c.node("h1", "/r", 16 * GB, 16);
    let d = doc(&c);
    let a = queue(&d, "root.p.a");
    assert_eq!(a["users"], serde_json::json!({}));
    assert_eq!(a["userAMResourceLimit"], a["AMResourceLimit"]);
    assert_eq!(a["numContainers"], 0);
}

/// A small labelled cluster for the per-partition figures: h1 carries the non-exclusive label
/// x, h2 none, 8 GB / 8 vcores each. p (50% of the default partition, all of x) holds leaf a
/// (all of p, x too); b (50%, user-limit-factor 2) may use the default partition only, so it
/// reaches x only through the room x lends to default-partition asks.
const LABELLED: &str = "yarn.node-labels.enabled=true
yarn.scheduler.capacity.root.queues=p,b
yarn.scheduler.capacity.root.accessible-node-labels.x.capacity=100
yarn.scheduler.capacity.root.p.capacity=50
yarn.scheduler.capacity.root.p.accessible-node-labels=x
yarn.scheduler.capacity.root.p.accessible-node-labels.x.capacity=100
yarn.scheduler.capacity.root.p.queues=a
yarn.scheduler.capacity.root.p.a.capacity=100
yarn.scheduler.capacity.root.p.a.accessible-node-labels.x.capacity=100
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.b.user-limit-factor=2
yarn.scheduler.capacity.root.b.accessible-node-labels=
";

/// The entry of `partition` in a `…ByPartition` array, and the array's partition names.
fn entry<'a>(list: &'a Value, partition: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|e| e["partitionName"] == partition)
        .unwrap_or_else(|| panic!("no partition {partition:?} in {list}"))
}

fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|e| e["partitionName"].as_str().unwrap().to_string())
        .collect()
}

fn usages(q: &Value) -> &Value {
    &q["resources"]["resourceUsagesByPartition"]
}

fn capacities(q: &Value) -> &Value {
    &q["capacities"]["queueCapacitiesByPartition"]
}

fn labelled_cluster() -> (Cluster, capsched::ids::NodeId, capsched::ids::NodeId) {
    let mut c = Cluster::new(LABELLED);
    c.cs.add_cluster_node_labels(&[("x".to_string(), false)])
        .unwrap();
    c.cs.replace_labels_on_nodes(0, &[("h1".to_string(), vec!["x".to_string()])])
        .unwrap();
    let h1 = c.node("h1", "/r", 8 * GB, 8);
    let h2 = c.node("h2", "/r", 8 * GB, 8);
    (c, h1, h2)
}

#[test]
fn usage_by_partition_is_shown_as_yarn_3_3_6_shows_it() {
    let (mut c, h1, h2) = labelled_cluster();

    // Before anything runs: a leaf lists the partitions it may use (YARN sets an AM limit
    // for each once the cluster has resources: x's is 10% of a's 8 GB there, 819 MB
    // normalised up to 1 GB); b, default partition only, lists "" alone.
    let d = doc(&c);
    let a = queue(&d, "root.p.a");
    assert_eq!(names(usages(a)), ["", "x"]);
    assert_eq!(mb(&entry(usages(a), "x")["amLimit"]), GB);
    assert_eq!(names(usages(queue(&d, "root.b"))), [""]);
    assert_eq!(names(capacities(queue(&d, "root.b"))), [""]);

    // alice's application in a carries label x: its AM and its asks go to x (h1).
    let mut sub = capsched::scheduler::apps::AppSubmission::new("a", "alice");
    sub.node_label_expression = Some("x".into());
    let app1 = c.cs.submit_application(c.now, &sub).unwrap();
    c.cs.add_attempt(
        c.now,
        app1,
        capsched::scheduler::apps::AttemptSubmission::with_am(capsched::resource::Resource::new(
            GB, 1,
        )),
    )
    .unwrap();
    c.heartbeat(h1);
    c.ask(app1, 1, GB, 2);
    c.heartbeat(h1);
    c.heartbeat(h1);
    let a_id = c.cs.queue_tree().find("root.p.a").unwrap();
    assert_eq!(
        c.cs.queue_partition_usage(a_id, "x").used.memory_mb(),
        3 * GB
    );

    // bob's application in b: its AM and seven 1 GB containers fill h2 (b may grow to all
    // 8 GB of the default partition: maximum 100%, user-limit-factor 2 × its 4 GB); x then
    // lends its idle 5 GB to b's default-partition asks, once they have missed as many
    // chances as the cluster has nodes; one ask stays pending.
    let app2 = c.app("b", "bob", GB);
    c.heartbeat(h2);
    c.ask(app2, 1, GB, 13);
    // (An allocation on h2 resets the count: lending starts once h2 is full.)
    for _ in 0..20 {
        c.heartbeat(h2);
        c.heartbeat(h1);
    }
    // alice asks for two more on x (the outstanding count, as AMRMClient sends it), which is
    // full.
    c.ask(app1, 1, GB, 2);
    c.check();

    let d = doc(&c);
    let root = &d["scheduler"]["schedulerInfo"];
    let (p, a, b) = (
        queue(&d, "root.p"),
        queue(&d, "root.p.a"),
        queue(&d, "root.b"),
    );

    // resources: "" first, then x; seven keys on a leaf, four on a parent.
    for q in [p, a, b] {
        assert_eq!(names(usages(q)), ["", "x"], "{}", q["queueName"]);
    }
    assert!(root.get("resources").is_none(), "root has no resources");
    for e in usages(p).as_array().unwrap() {
        assert_eq!(e.as_object().unwrap().len(), 4, "{e}");
    }
    for e in usages(a).as_array().unwrap() {
        assert_eq!(e.as_object().unwrap().len(), 7, "{e}");
    }
    let ax = entry(usages(a), "x");
    // a on x: the AM and two containers, two more asked for; the AM's 1 GB; AM limit 10% of
    // a's 8 GB guarantee on x = 819 MB → 1 GB; the user AM limit the same (one user, limit
    // 100%, factor 1), set since alice's AM was activated there.
    assert_eq!(mb(&ax["used"]), 3 * GB);
    assert_eq!(mb(&ax["reserved"]), 0);
    assert_eq!(mb(&ax["pending"]), 2 * GB);
    assert_eq!(mb(&ax["amUsed"]), GB);
    assert_eq!(mb(&ax["amLimit"]), GB);
    assert_eq!(mb(&ax["userAmLimit"]), GB);
    let a0 = entry(usages(a), "");
    assert_eq!(
        (mb(&a0["used"]), mb(&a0["pending"]), mb(&a0["amUsed"])),
        (0, 0, 0)
    );
    // The parent sums its subtree on x.
    let px = entry(usages(p), "x");
    assert_eq!((mb(&px["used"]), mb(&px["pending"])), (3 * GB, 2 * GB));
    // b: 8 GB on h2 (AM included), 5 GB lent by x, one ask pending in the default partition;
    // no AM limit on x (b may not use x: YARN never sets one).
    let b0 = entry(usages(b), "");
    assert_eq!(
        (mb(&b0["used"]), mb(&b0["pending"]), mb(&b0["amUsed"])),
        (8 * GB, GB, GB)
    );
    let bx = entry(usages(b), "x");
    assert_eq!(
        (
            mb(&bx["used"]),
            mb(&bx["pending"]),
            mb(&bx["amUsed"]),
            mb(&bx["amLimit"]),
            mb(&bx["userAmLimit"])
        ),
        (5 * GB, 0, 0, 0, 0)
    );

    // capacities: usedCapacity = used / max(guarantee there, 1 GB), not capped;
    // absoluteUsedCapacity = used / partition (8 GB), capped at 100.
    let cap = |q: &Value, part: &str, k: &str| entry(capacities(q), part)[k].as_f64().unwrap();
    // a on x: 3 GB of its 8 GB guarantee, of the 8 GB partition.
    assert_eq!(cap(a, "x", "usedCapacity"), 37.5);
    assert_eq!(cap(a, "x", "absoluteUsedCapacity"), 37.5);
    assert_eq!(cap(p, "x", "usedCapacity"), 37.5);
    // b has no capacity key for x: its x entry exists because it used x (5 GB over the
    // 1 GB minimum allocation: 500%), with nothing configured (maximum 0 shows as 100).
    assert_eq!(names(capacities(b)), ["", "x"]);
    let bx = entry(capacities(b), "x");
    assert_eq!(bx["capacity"], 0.0);
    assert_eq!(bx["usedCapacity"], 500.0);
    assert_eq!(bx["maxCapacity"], 100.0);
    assert_eq!(bx["absoluteCapacity"], 0.0);
    assert_eq!(bx["absoluteUsedCapacity"], 62.5);
    assert_eq!(bx["absoluteMaxCapacity"], 0.0);
    assert_eq!(bx["maxAMLimitPercentage"], 0.0);
    assert_eq!(mb(&bx["effectiveMinResource"]), 0);
    // b's default partition: 8 GB of its 4 GB guarantee (200%), all of the partition.
    assert_eq!(cap(b, "", "usedCapacity"), 200.0);
    assert_eq!(cap(b, "", "absoluteUsedCapacity"), 100.0);
    // root: x is full (3 GB of a's, 5 GB lent to b).
    let rx = entry(&root["capacities"]["queueCapacitiesByPartition"], "x");
    assert_eq!(rx["usedCapacity"], 100.0);
    assert_eq!(rx["absoluteUsedCapacity"], 100.0);
    assert_eq!(mb(&rx["configuredMinResource"]), 8 * GB);

    // The queue metrics count the default partition only (YARN 3.3.6's QueueMetrics):
    // a's three containers on x are not allocatedContainers, nor its x asks
    // pendingContainers; numContainers counts every partition.
    assert_eq!(
        (
            &a["allocatedContainers"],
            &a["pendingContainers"],
            &a["numContainers"]
        ),
        (&0.into(), &0.into(), &3.into())
    );
    assert_eq!(
        (
            &b["allocatedContainers"],
            &b["pendingContainers"],
            &b["numContainers"]
        ),
        (&8.into(), &1.into(), &13.into())
    );
    assert_eq!(p["allocatedContainers"], 0);
    // Top-level resourcesUsed and usedAMResource are the default partition's; a user's
    // resourcesUsed is every partition's (getAllUsed), its entries split them.
    assert_eq!(mb(&a["resourcesUsed"]), 0);
    assert_eq!(mb(&a["usedAMResource"]), 0);
    let alice = &a["users"]["user"][0];
    assert_eq!(mb(&alice["resourcesUsed"]), 3 * GB);
    assert_eq!(mb(&alice["AMResourceUsed"]), 0);
    let ux = entry(&alice["resources"]["resourceUsagesByPartition"], "x");
    assert_eq!(
        (mb(&ux["used"]), mb(&ux["amUsed"]), mb(&ux["amLimit"])),
        (3 * GB, GB, GB)
    );
    let bob = &b["users"]["user"][0];
    assert_eq!(mb(&bob["resourcesUsed"]), 13 * GB);
    let bob_parts = &bob["resources"]["resourceUsagesByPartition"];
    assert_eq!(names(bob_parts), ["", "x"]);
    assert_eq!(mb(&entry(bob_parts, "")["used"]), 8 * GB);
    assert_eq!(mb(&entry(bob_parts, "x")["used"]), 5 * GB);
    assert_eq!(mb(&entry(bob_parts, "x")["amLimit"]), 0);

    // The streamed document is the same document.
    let streamed: Value = serde_json::from_str(
        &capsched::report::rest::scheduler_info_string_live(c.cs.queue_tree(), &c.cs.live_queues()),
    )
    .unwrap();
    assert_eq!(streamed, d);
}
