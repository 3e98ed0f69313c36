//! Spec §7's worked examples, transcribed from Hadoop's own unit tests, run against the core.

mod common;
use capsched::records::{NodeType, ResourceRequest, SchedulerKey};
use capsched::resource::Resource;
use common::cluster::*;

/// E2 — TestApplicationLimits.testAMResourceLimit: activation by queue and user AM limits,
/// not strictly FIFO.
#[test]
fn e2_am_activation() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=10
yarn.scheduler.capacity.root.a.minimum-user-limit-percent=50
yarn.scheduler.capacity.root.a.user-limit-factor=5
yarn.scheduler.capacity.root.b.capacity=90
",
    );
    for i in 0..10 {
        c.node(&format!("h{i}"), "/r", 8 * GB, 8);
    }
    let t = c.cs.queue_tree();
    let a = t.find("a").unwrap();
    assert_eq!(t.am_resource_limit(a).memory_mb(), 8 * GB);
    let state = |c: &Cluster, app| {
        c.cs.application(app)
            .unwrap()
            .attempt
            .as_ref()
            .unwrap()
            .state
    };
    use capsched::state::app::AttemptState::*;
    let u0a = c.app("a", "user_0", 2 * GB);
    let u0b = c.app("a", "user_0", 2 * GB);
    assert_eq!(
        (state(&c, u0a), state(&c, u0b)),
        (Active, Active),
        "user_0's AMs fit its 4 GB"
    );
    let u1a = c.app("a", "user_1", 2 * GB);
    assert_eq!(state(&c, u1a), Active, "queue AM used 6 GB of 8");
    // Two active users: the user AM limit is 2 GB.
    assert_eq!(
        c.cs.queue_tree()
            .user_am_resource_limit(a, 2, 1.0)
            .memory_mb(),
        2 * GB
    );
    let u1b = c.app("a", "user_1", 2 * GB);
    assert_eq!(state(&c, u1b), Pending, "user_1 is at its 2 GB AM limit");
    let lr = c.cs.leaf(a).unwrap();
    assert_eq!(lr.am_used.memory_mb(), 6 * GB);
    c.cs.remove_attempt(c.now, u1a, false).unwrap();
    c.check();
    assert_eq!(
        state(&c, u1b),
        Active,
        "finishing user_1's first app activates its second"
    );
}

fn e3_cluster() -> Cluster {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=8.5
yarn.scheduler.capacity.root.a.maximum-capacity=100
yarn.scheduler.capacity.root.a.minimum-user-limit-percent=50
yarn.scheduler.capacity.root.a.user-limit-factor=2
yarn.scheduler.capacity.root.b.capacity=91.5
yarn.scheduler.capacity.maximum-am-resource-percent=1
",
    );
    c.node("node_0", "/r", 8 * GB, 16);
    c.node("node_1", "/r", 8 * GB, 16);
    c
}

/// E3 — TestLeafQueue.testUserLimits: user_0 asks 2×3 GB, user_1 2×1 GB.
#[test]
fn e3_user_limit_sequence() {
    let mut c = e3_cluster();
    let app_0 = c.unmanaged_app("a", "user_0");
    let app_1 = c.unmanaged_app("a", "user_1");
    c.ask(app_0, 1, 3 * GB, 2);
    c.ask(app_1, 1, GB, 2);
    let a = c.cs.queue_tree().find("a").unwrap();
    assert_eq!(c.cs.leaf(a).unwrap().users.active_users(), 2);
    let node_0 = c.cs.node_id("node_0").unwrap();
    let node_1 = c.cs.node_id("node_1").unwrap();
    // 1. UL 1024: user_0 (0 used) gets 3 GB.
    assert_eq!(c.cs.user_limit(a, "user_0").unwrap().memory_mb(), 1024);
    assert_eq!(c.heartbeat(node_0), 1);
    assert_eq!(
        (c.user_used_mb("a", "user_0"), c.user_used_mb("a", "user_1")),
        (3 * GB, 0)
    );
    // 2. UL 2048: user_0 (3 GB) is skipped, user_1 gets 1 GB.
    assert_eq!(c.cs.user_limit(a, "user_0").unwrap().memory_mb(), 2048);
    assert_eq!(c.heartbeat(node_0), 1);
    assert_eq!(
        (c.user_used_mb("a", "user_0"), c.user_used_mb("a", "user_1")),
        (3 * GB, GB)
    );
    // 3. UL 3072: user_0 (3 GB ≤ 3 GB) gets its second 3 GB.
    assert_eq!(c.cs.user_limit(a, "user_0").unwrap().memory_mb(), 3072);
    assert_eq!(c.heartbeat(node_1), 1);
    assert_eq!(c.queue_used_mb("a"), 7 * GB);
    assert_eq!(
        (c.user_used_mb("a", "user_0"), c.user_used_mb("a", "user_1")),
        (6 * GB, GB)
    );
    assert_eq!(
        c.cs.leaf(a).unwrap().users.active_users(),
        1,
        "user_0 has no outstanding asks left"
    );
}

fn e4_cluster(user_limit_percent: u32) -> Cluster {
    let mut c = Cluster::new(&format!(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=20
yarn.scheduler.capacity.root.b.capacity=80
yarn.scheduler.capacity.root.b.maximum-capacity=100
yarn.scheduler.capacity.root.b.minimum-user-limit-percent={user_limit_percent}
yarn.scheduler.capacity.root.b.user-limit-factor=1
"
    ));
    c.node("h0", "/r", 16 * GB, 16);
    c
}

/// E4 — TestLeafQueue.testComputeUserLimitAndSetHeadroom.
#[test]
fn e4_headroom() {
    // (i) UL 100, one app holding 4 GB with no more asks: UL 13312, headroom 9 GB.
    let mut c = e4_cluster(100);
    let h0 = c.cs.node_id("h0").unwrap();
    let app = c.unmanaged_app("b", "user_0");
    c.ask(app, 1, 4 * GB, 1);
    c.heartbeat(h0);
    let b = c.cs.queue_tree().find("b").unwrap();
    assert_eq!(
        c.cs.queue_tree()
            .queue(b)
            .capacities
            .effective_min
            .memory_mb(),
        13107
    );
    assert_eq!(c.cs.user_limit(b, "user_0").unwrap().memory_mb(), 13312);
    assert_eq!(c.cs.headroom(b, "user_0").unwrap().memory_mb(), 9 * GB);
    assert_eq!(c.allocate(app, vec![], vec![]).headroom.memory_mb(), 9 * GB);

    // (ii) UL 50, two users with 2 GB each: UL 7168, headroom 5 GB for both.
    let mut c = e4_cluster(50);
    let h0 = c.cs.node_id("h0").unwrap();
    let a0 = c.unmanaged_app("b", "user_0");
    let a1 = c.unmanaged_app("b", "user_1");
    c.ask(a0, 1, 2 * GB, 1);
    c.ask(a1, 1, 2 * GB, 1);
    c.heartbeat(h0);
    c.heartbeat(h0);
    assert_eq!(
        (c.user_used_mb("b", "user_0"), c.user_used_mb("b", "user_1")),
        (2 * GB, 2 * GB)
    );
    assert_eq!(c.cs.user_limit(b, "user_0").unwrap().memory_mb(), 7168);
    assert_eq!(c.cs.headroom(b, "user_0").unwrap().memory_mb(), 5 * GB);
    assert_eq!(c.cs.headroom(b, "user_1").unwrap().memory_mb(), 5 * GB);
}

fn locality_cluster(extra: &str, racks: &[(&str, &str)]) -> Cluster {
    let mut c = Cluster::new(&format!(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled=false
{extra}"
    ));
    for (host, rack) in racks {
        c.node(host, rack, 8 * GB, 8);
    }
    c
}

fn locality_asks(c: &mut Cluster, app: capsched::ids::AppId) {
    let one = Resource::new(GB, 1);
    c.allocate(
        app,
        vec![
            ResourceRequest::at(1, "host_0", one, 1),
            ResourceRequest::at(1, "rack_0", one, 1),
            ResourceRequest::at(1, "host_1", one, 1),
            ResourceRequest::at(1, "rack_1", one, 1),
            ResourceRequest::any(1, one, 3),
        ],
        vec![],
    );
}

fn key_state(c: &Cluster, app: capsched::ids::AppId) -> (u32, i32) {
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    let key = SchedulerKey::new(1);
    let outstanding = t.requests.get(&key).map(|k| k.outstanding()).unwrap_or(0);
    (t.counters(&key).missed_opportunities, outstanding)
}

fn last_node_type(c: &Cluster, app: capsched::ids::AppId) -> NodeType {
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    let newest = t.newly_allocated.last().copied().unwrap();
    c.cs.container(newest).unwrap().node_type
}

/// E5 — TestLeafQueue.testLocalityScheduling: 3 nodes, default delays.
#[test]
fn e5_delay_scheduling() {
    let mut c = locality_cluster(
        "",
        &[
            ("host_0", "rack_0"),
            ("host_1", "rack_1"),
            ("host_2", "rack_2"),
        ],
    );
    let app = c.unmanaged_app("a", "user_0");
    locality_asks(&mut c, app);
    let node_2 = c.cs.node_id("host_2").unwrap();
    // 5 locations ⇒ wait factor 1 ⇒ off-switch once more than min(3, 3 × 1) = 3 opportunities missed.
    for missed in 1..=3 {
        assert_eq!(c.heartbeat(node_2), 0, "opportunity {missed} on node_2");
        assert_eq!(key_state(&c, app), (missed, 3));
    }
    assert_eq!(c.heartbeat(node_2), 1);
    assert_eq!(last_node_type(&c, app), NodeType::OffSwitch);
    assert_eq!(
        key_state(&c, app),
        (4, 2),
        "an off-switch allocation does not reset the counter"
    );
    let node_0 = c.cs.node_id("host_0").unwrap();
    assert_eq!(c.heartbeat(node_0), 1);
    assert_eq!(last_node_type(&c, app), NodeType::NodeLocal);
    assert_eq!(
        key_state(&c, app),
        (0, 1),
        "a node-local allocation resets it"
    );
    let node_1 = c.cs.node_id("host_1").unwrap();
    assert_eq!(c.heartbeat(node_1), 1);
    assert_eq!(last_node_type(&c, app), NodeType::NodeLocal);
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    assert!(
        t.requests.get(&SchedulerKey::new(1)).is_none(),
        "ANY reached 0: the key is gone"
    );
}

/// E5 — a large ask with few locations: threshold min(nodes, outstanding × factor).
#[test]
fn e5_large_ask_waits_for_at_most_the_node_count() {
    let mut c = locality_cluster(
        "",
        &[
            ("host_0", "rack_0"),
            ("host_1", "rack_1"),
            ("host_2", "rack_2"),
        ],
    );
    let app = c.unmanaged_app("a", "user_0");
    let one = Resource::new(GB, 1);
    c.allocate(
        app,
        vec![
            ResourceRequest::at(1, "host_0", one, 100),
            ResourceRequest::at(1, "rack_0", one, 100),
            ResourceRequest::any(1, one, 100),
        ],
        vec![],
    );
    let node_2 = c.cs.node_id("host_2").unwrap();
    // 3 locations: min(3, 100 × 2/3) = 3 ⇒ off-switch on the 4th opportunity.
    for _ in 0..3 {
        assert_eq!(c.heartbeat(node_2), 0);
    }
    assert_eq!(c.heartbeat(node_2), 1);
}

/// E5 — TestLeafQueue.testRackLocalityDelayScheduling: node delay 2, additional rack delay.
#[test]
fn e5_rack_locality_additional_delay() {
    let nodes = [
        ("host_0", "rack_0"),
        ("host_1", "rack_1"),
        ("host_2", "rack_2"),
        ("host_3", "rack_1"),
        ("host_4", "rack_4"),
    ];
    let mut c = locality_cluster(
        "yarn.scheduler.capacity.node-locality-delay=2\nyarn.scheduler.capacity.rack-locality-additional-delay=1\n",
        &nodes,
    );
    let app = c.unmanaged_app("a", "user_0");
    locality_asks(&mut c, app);
    let node_2 = c.cs.node_id("host_2").unwrap();
    let node_3 = c.cs.node_id("host_3").unwrap();
    assert_eq!(c.heartbeat(node_2), 0);
    assert_eq!(c.heartbeat(node_2), 0);
    // Third opportunity, on rack_1: rack-local (min(5, 2) = 2 < 3), and the counter resets.
    assert_eq!(c.heartbeat(node_3), 1);
    assert_eq!(last_node_type(&c, app), NodeType::RackLocal);
    assert_eq!(key_state(&c, app), (0, 2));
    // Off-switch needs more than min(5, 2 + 1) = 3 missed: the 4th opportunity.
    for _ in 0..3 {
        assert_eq!(c.heartbeat(node_2), 0);
    }
    assert_eq!(c.heartbeat(node_2), 1);
    assert_eq!(last_node_type(&c, app), NodeType::OffSwitch);

    // Additional delay 10: capped at min(5, 12) = 5 ⇒ off-switch when the counter reaches 6.
    let mut c = locality_cluster(
        "yarn.scheduler.capacity.node-locality-delay=2\nyarn.scheduler.capacity.rack-locality-additional-delay=10\n",
        &nodes,
    );
    let app = c.unmanaged_app("a", "user_0");
    locality_asks(&mut c, app);
    let node_2 = c.cs.node_id("host_2").unwrap();
    for _ in 0..5 {
        assert_eq!(c.heartbeat(node_2), 0);
    }
    assert_eq!(c.heartbeat(node_2), 1);
    assert_eq!(key_state(&c, app).0, 6);
}

/// relaxLocality=false on the rack and ANY entries: only the named host will do.
#[test]
fn strict_locality_waits_for_the_host() {
    let mut c = locality_cluster("", &[("host_0", "rack_0"), ("host_1", "rack_0")]);
    let app = c.unmanaged_app("a", "user_0");
    let one = Resource::new(GB, 1);
    let mut rack = ResourceRequest::at(1, "rack_0", one, 1);
    rack.relax_locality = false;
    let mut any = ResourceRequest::any(1, one, 1);
    any.relax_locality = false;
    c.allocate(
        app,
        vec![ResourceRequest::at(1, "host_0", one, 1), rack, any],
        vec![],
    );
    let node_1 = c.cs.node_id("host_1").unwrap();
    for _ in 0..50 {
        assert_eq!(c.heartbeat(node_1), 0);
    }
    assert_eq!(
        key_state(&c, app).0,
        0,
        "PRIORITY_SKIPPED gives the opportunity back"
    );
    let node_0 = c.cs.node_id("host_0").unwrap();
    assert_eq!(c.heartbeat(node_0), 1);
    assert_eq!(last_node_type(&c, app), NodeType::NodeLocal);
}

/// E6 — TestParentQueue.testSingleLevelQueues, observed through allocations: a 30%, b 70% of
/// 20 GB; each node offer goes to the child with the lower used capacity (ties: the larger
/// guarantee first), one 1 GB container at a time.
#[test]
fn e6_children_are_offered_nodes_by_used_capacity() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=30
yarn.scheduler.capacity.root.a.user-limit-factor=10
yarn.scheduler.capacity.root.b.capacity=70
yarn.scheduler.capacity.root.b.user-limit-factor=10
yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled=false
",
    );
    let node = c.node("h0", "/r", 20 * GB, 20);
    let a = c.unmanaged_app("a", "alice");
    let b = c.unmanaged_app("b", "bob");
    c.ask(a, 1, GB, 100);
    c.ask(b, 1, GB, 100);
    // YARN's guarantee: (long)(cluster × (double)absoluteCapacity) — 6144 and 14335 MB (not
    // 14336: 0.7f is 0.69999999). The tie at (3 GB, 7 GB) therefore goes to a.
    let guarantee = |abs: f32| (20480f64 * abs as f64) as i64 as f32;
    let (guarantee_a, guarantee_b) = (guarantee(0.3), guarantee(0.7));
    assert_eq!((guarantee_a, guarantee_b), (6144.0, 14335.0));
    for _ in 0..12 {
        let (ua, ub) = (c.queue_used_mb("a") as f32, c.queue_used_mb("b") as f32);
        let expect_a = (ua / guarantee_a) < (ub / guarantee_b);
        c.heartbeat(node);
        let got_a = c.queue_used_mb("a") as f32 > ua;
        assert_eq!(got_a, expect_a, "used (a, b) = ({ua}, {ub}) MB");
    }
    // The table's own points, reached along the way: (0,1) ⇒ a; (2,2) ⇒ b; (3,4) ⇒ b; (3,8) ⇒ a.
    assert!(c.queue_used_mb("a") > 0 && c.queue_used_mb("b") > c.queue_used_mb("a"));
}
