//! The RM REST scheduler document built from a running scheduler's state, field by field as
//! YARN 3.3.6's DAOs fill them (`CapacitySchedulerQueueInfo`, `CapacitySchedulerLeafQueueInfo`,
//! `UserInfo`, `ResourcesInfo`): application counts at the leaf (attempts: active, pending on
//! the AM limit) and at the parent (applications), the container counts of the queue metrics,
//! used/pending/AM resources, the users, and root's configured resources (the cluster's).

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
