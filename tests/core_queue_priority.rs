//! The queue-priority selector end to end through the core (spec P6.4), after Hadoop's
//! `TestCapacitySchedulerSurgicalPreemption.testPriorityPreemptionWhenAllQueuesAreBelowGuaranteedCapacities`:
//! a higher-priority queue's reservation, once it has waited the delay, takes room on its node
//! from a lower-priority queue that is itself within its guarantee.

mod common;

use capsched::ids::ContainerId;
use capsched::preempt::policy::{PreemptionEventKind, PreemptionPolicy};
use capsched::records::ContainerState;
use common::cluster::*;

/// Queues a 10 %, b 20 %, c 70 % under a priority-utilization root, c at priority 1; the
/// queue-priority selector on with a 1 s delay; kills as soon as marked containers are seen
/// again (`max_wait_before_kill` 0).
fn config(extra: &str) -> String {
    format!(
        "\
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill=0
yarn.scheduler.capacity.root.queues=a,b,c
yarn.scheduler.capacity.root.ordering-policy=priority-utilization
yarn.scheduler.capacity.root.a.capacity=10
yarn.scheduler.capacity.root.b.capacity=20
yarn.scheduler.capacity.root.c.capacity=70
yarn.scheduler.capacity.root.a.maximum-capacity=100
yarn.scheduler.capacity.root.b.maximum-capacity=100
yarn.scheduler.capacity.root.c.maximum-capacity=100
yarn.scheduler.capacity.root.b.user-limit-factor=5
yarn.scheduler.capacity.root.c.priority=1
yarn.scheduler.capacity.maximum-am-resource-percent=1
yarn.scheduler.maximum-allocation-mb=20480
yarn.scheduler.capacity.ordering-policy.priority-utilization.underutilized-preemption.reserved-container-delay-ms=1000
{extra}"
    )
}

/// app1 in b: AM and 6 × 1 GB tasks, 4 containers on h1 and 3 on h2 (b holds 7 GB of its
/// 8 GB guarantee); app2 in c asks for an 18 GB AM, reserved on h1 (16 GB free).
fn setup(
    extra: &str,
) -> (
    Cluster,
    capsched::ids::AppId,
    capsched::ids::AppId,
    capsched::ids::NodeId,
) {
    let mut c = Cluster::new(&config(extra));
    let n1 = c.node("h1", "/r", 20 * GB, 20);
    let n2 = c.node("h2", "/r", 20 * GB, 20);
    let app1 = c.app("b", "user", GB);
    c.heartbeat(n1);
    c.ask(app1, 1, GB, 6);
    for _ in 0..3 {
        c.heartbeat(n1);
        c.heartbeat(n2);
    }
    assert_eq!(c.queue_used_mb("b"), 7 * GB);
    let app2 = c.app("c", "user", 18 * GB);
    c.heartbeat(n1);
    assert!(
        c.cs.nodes().any(|(_, n)| n.reserved.is_some()),
        "app2's AM is reserved on h1"
    );
    (c, app1, app2, n1)
}

#[test]
fn a_higher_priority_queue_takes_room_for_its_reservation_from_a_lower_one_within_guarantee() {
    let (mut c, app1, app2, n1) = setup(
        "yarn.scheduler.capacity.ordering-policy.priority-utilization.underutilized-preemption.enabled=true\n",
    );
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    // Right away: the reservation has not waited its second yet.
    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
    assert!(events.is_empty(), "{events:?}");
    // A second later: h1 lacks 2 GB, so two of app1's tasks there are marked (oldest first,
    // never the AM).
    c.now += 1_000;
    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
    c.cs.apply_preemption(c.now, &events);
    c.check();
    assert_eq!(events.len(), 2, "{events:?}");
    for e in &events {
        assert_eq!(e.kind, PreemptionEventKind::MarkForPreemption);
        let ct = c.cs.container(ContainerId::from_u64(e.container)).unwrap();
        assert_eq!((ct.app, ct.node, ct.is_am), (app1, n1, false));
    }
    // The next round kills them, and h1's next heartbeat places app2's AM.
    c.now += 1;
    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
    c.cs.apply_preemption(c.now, &events);
    c.check();
    assert_eq!(
        events
            .iter()
            .filter(|e| e.kind == PreemptionEventKind::MarkKillable)
            .count(),
        2
    );
    c.heartbeat(n1);
    let r = c.ask(app2, 1, GB, 0);
    assert!(r.allocated.iter().any(|ct| ct.is_am), "app2's AM runs");
    assert_eq!(c.queue_used_mb("b"), 5 * GB);
}

#[test]
fn without_the_selector_nothing_is_taken_from_a_queue_within_its_guarantee() {
    let (mut c, _app1, _app2, _n1) = setup("");
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    c.now += 5_000;
    assert!(policy
        .edit_schedule(&c.cs.preemption_snapshot(), c.now)
        .is_empty());
}

/// After `testPriorityPreemptionOnlyTriggeredWhenDemandingQueueUnsatisfied`: reservations are
/// served only until the demanding queue is satisfied (used − reserved + promised reaches its
/// guarantee): c holds its 10 GB AM and reserves 10 GB on eight nodes, but six reservations
/// bring it to its 70 GB, so six of app1's containers go, not eight.
#[test]
fn reservations_are_served_only_until_the_demanding_queue_is_satisfied() {
    let mut c = Cluster::new(&config(
        "yarn.scheduler.capacity.ordering-policy.priority-utilization.underutilized-preemption.enabled=true\n\
         yarn.scheduler.capacity.root.c.user-limit-factor=2\n",
    ));
    let nodes: Vec<_> = (0..10)
        .map(|i| c.node(&format!("h{i}"), "/r", 10 * GB, 10))
        .collect();
    let app1 = c.app("b", "user", GB);
    c.heartbeat(nodes[0]);
    c.ask(app1, 1, GB, 8);
    for &n in &nodes[1..9] {
        c.heartbeat(n);
    }
    assert_eq!(
        c.queue_used_mb("b"),
        9 * GB,
        "one container on each of h0–h8"
    );
    let app2 = c.app("c", "user", 10 * GB);
    c.heartbeat(nodes[9]);
    c.ask(app2, 1, 10 * GB, 10);
    for &n in &nodes[1..10] {
        c.heartbeat(n);
    }
    let reserved = nodes[1..9]
        .iter()
        .filter(|&&n| {
            c.cs.nodes()
                .any(|(id, node)| id == n && node.reserved.is_some())
        })
        .count();
    assert_eq!(reserved, 8, "app2 reserves on h1–h8");

    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    c.now += 1_000;
    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
    c.cs.apply_preemption(c.now, &events);
    c.check();
    assert_eq!(events.len(), 6, "{events:?}");
    assert!(events.iter().all(|e| {
        let ct = c.cs.container(ContainerId::from_u64(e.container)).unwrap();
        ct.app == app1 && !ct.is_am
    }));
    c.now += 1;
    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
    c.cs.apply_preemption(c.now, &events);
    c.check();
    for &n in &nodes[1..10] {
        c.heartbeat(n);
    }
    assert_eq!(c.queue_used_mb("b"), 3 * GB);
    // app2 runs its AM and six 10 GB containers on the freed nodes: 70 GB, its guarantee.
    let running =
        c.cs.containers()
            .filter(|(_, ct)| ct.app == app2 && ct.state != ContainerState::Reserved)
            .count();
    assert_eq!(running, 7);
}
