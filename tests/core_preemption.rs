//! Preemption end to end through the core: the policy's round over the scheduler's snapshot,
//! the marks reaching the AM in its allocate response, the kill after the wait (exit −102),
//! and events about containers that went away meanwhile being skipped.

mod common;

use capsched::ids::ContainerId;
use capsched::preempt::policy::{PreemptionEventKind, PreemptionPolicy};
use capsched::records::{diagnostics, exit_status, PRIORITY_UNDEFINED};
use common::cluster::*;

/// Two 50 % queues that may each grow to the whole cluster; preemption on with YARN's defaults
/// except a 15 s wait before kill; one user may fill either queue to the whole cluster.
const TWO_HALVES: &str = "\
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill=15000
yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.a.maximum-capacity=100
yarn.scheduler.capacity.root.b.maximum-capacity=100
yarn.scheduler.capacity.root.a.user-limit-factor=2
yarn.scheduler.capacity.root.b.user-limit-factor=2
yarn.scheduler.capacity.maximum-am-resource-percent=1
";

/// With `properties`, App1 in `a` holds all of a 16 GB node (AM + 15 tasks).
fn a_fills(properties: &str) -> (Cluster, capsched::ids::NodeId, capsched::ids::AppId) {
    let mut c = Cluster::new(properties);
    let n = c.node("h0", "/r", 16 * GB, 16);
    let app1 = c.app("a", "alice", GB);
    c.heartbeat(n);
    c.ask(app1, 1, GB, 15);
    // One off-switch container per heartbeat (maximum-offswitch-assignments = 1).
    for _ in 0..15 {
        c.heartbeat(n);
    }
    assert_eq!(c.queue_used_mb("a"), 16 * GB);
    (c, n, app1)
}

/// App1 in `a` holds all 16 GB (AM + 15 tasks); App2 in `b` asks for 8 × 1 GB.
fn a_fills_then_b_asks() -> (Cluster, capsched::ids::AppId, capsched::ids::AppId) {
    let (mut c, n, app1) = a_fills(TWO_HALVES);
    let app2 = c.unmanaged_app("b", "bob");
    c.ask(app2, 1, GB, 8);
    assert_eq!(c.heartbeat(n), 0, "the cluster is full");
    (c, app1, app2)
}

#[test]
fn marks_reach_the_am_then_kills_free_the_guarantee() {
    let (mut c, app1, app2) = a_fills_then_b_asks();
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());

    // Round 1: queue a is 8 GB over its guarantee and b wants 8 GB. The per-round cap scales
    // that to 10 % of 16 GB = 1.6 GB, natural termination to 20 % of it (328 MB after
    // normalising up), and the FIFO selector takes whole containers while any is left to
    // obtain: exactly one 1 GB container.
    let t0 = c.now;
    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), t0);
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(events
        .iter()
        .all(|e| e.kind == PreemptionEventKind::MarkForPreemption));
    let out = c.cs.apply_preemption(t0, &events);
    c.check();
    assert_eq!(out.marked as usize, events.len());
    assert_eq!(c.queue_used_mb("a"), 16 * GB, "marking kills nothing");

    // The AM hears about its marked containers once, as a fungible contract.
    let r = c.ask(app1, 1, GB, 0);
    let msg = r
        .preemption
        .expect("marked containers are reported to the AM");
    let marked: Vec<ContainerId> = events
        .iter()
        .map(|e| ContainerId::from_u64(e.container))
        .collect();
    assert_eq!(msg.contract_containers.len(), marked.len());
    for id in &marked {
        assert!(msg.contract_containers.contains(id));
        assert!(
            !c.cs.container(*id).unwrap().is_am,
            "the AM is never chosen while tasks remain"
        );
    }
    assert!(msg.strict.is_empty());
    assert_eq!(msg.contract_resources.len(), 1);
    let ask = &msg.contract_resources[0];
    assert_eq!(ask.key.priority, PRIORITY_UNDEFINED);
    assert_eq!(
        ask.num_containers as usize,
        marked.len(),
        "ceil(total / minimum allocation)"
    );
    assert!(c.ask(app1, 1, GB, 0).preemption.is_none(), "reported once");

    // Before the wait is over the same containers are neither re-marked nor killed.
    c.now = t0 + 14_000;
    let again = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
    assert!(again
        .iter()
        .all(|e| !marked.contains(&ContainerId::from_u64(e.container))));

    // After it, they are killed: completed with −102 and YARN's diagnostics.
    c.now = t0 + 15_000;
    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
    let killed: Vec<ContainerId> = events
        .iter()
        .filter(|e| e.kind == PreemptionEventKind::MarkKillable)
        .map(|e| ContainerId::from_u64(e.container))
        .collect();
    assert_eq!(killed.len(), marked.len());
    let out = c.cs.apply_preemption(c.now, &events);
    c.check();
    assert_eq!(out.killed as usize, killed.len());
    assert_eq!(c.queue_used_mb("a"), 16 * GB - killed.len() as i64 * GB);
    let r = c.ask(app1, 1, GB, 0);
    for id in &killed {
        let st = r
            .completed
            .iter()
            .find(|s| s.id == *id)
            .expect("the AM learns of the kill");
        assert_eq!(st.exit_status, exit_status::PREEMPTED);
        assert_eq!(st.exit_status, -102);
        assert_eq!(st.diagnostics, diagnostics::PREEMPTED);
        assert_eq!(st.diagnostics, "Container preempted by scheduler");
    }

    // The freed space goes to b, the queue under its guarantee.
    let n = c.cs.node_id("h0").unwrap();
    for _ in 0..killed.len() {
        assert_eq!(c.heartbeat(n), 1);
    }
    assert_eq!(c.queue_used_mb("b"), killed.len() as i64 * GB);
    let _ = app2;
}

#[test]
fn repeated_rounds_converge_to_the_guarantees() {
    let (mut c, _app1, _app2) = a_fills_then_b_asks();
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    let n = c.cs.node_id("h0").unwrap();
    // Rounds every 3 s for three minutes, the node heartbeating between them. One container
    // goes per 15 s wait (see the first test), so eight need about 150 s.
    for _ in 0..60 {
        c.now += 3_000;
        let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
        c.cs.apply_preemption(c.now, &events);
        c.check();
        for _ in 0..3 {
            c.heartbeat(n);
        }
    }
    // b got its 8 GB; a keeps its guarantee (never preempted below it).
    assert_eq!(c.queue_used_mb("b"), 8 * GB);
    assert_eq!(c.queue_used_mb("a"), 8 * GB);
    // And a quiet cluster at its guarantees selects nothing more.
    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now + 3_000);
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn events_about_vanished_containers_are_skipped() {
    let (mut c, app1, _app2) = a_fills_then_b_asks();
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    let t0 = c.now;
    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), t0);
    c.cs.apply_preemption(t0, &events);
    // The AM releases the first marked container itself before the kill.
    let gone = ContainerId::from_u64(events[0].container);
    c.allocate(app1, vec![], vec![gone]);
    assert!(c.cs.container(gone).is_none());
    let used = c.queue_used_mb("a");

    c.now = t0 + 15_000;
    let kills = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
    let stale_kill = capsched::preempt::policy::PreemptionEvent {
        kind: PreemptionEventKind::MarkKillable,
        app: 0,
        container: gone.as_u64(),
    };
    let mut all = kills.clone();
    all.push(stale_kill);
    all.push(stale_kill);
    let out = c.cs.apply_preemption(c.now, &all);
    c.check();
    assert_eq!(
        out.stale, 2,
        "a container released meanwhile is not completed twice"
    );
    assert_eq!(
        c.queue_used_mb("a"),
        used - out.killed as i64 * GB,
        "only live containers are subtracted"
    );
}

#[test]
fn a_snapshot_is_unchanged_by_later_events() {
    // The monitor thread computes on a snapshot after releasing the scheduler: events that
    // happen meanwhile must not show through (the containers are shared copy-on-write).
    let (mut c, app1, _app2) = a_fills_then_b_asks();
    let snap = c.cs.preemption_snapshot();
    let live_before: usize = snap.apps.iter().map(|a| a.live.len()).sum();
    assert_eq!(live_before, 16, "App1's AM and 15 tasks");
    let victim = ContainerId::from_u64(snap.apps[0].live[3].id);
    c.allocate(app1, vec![], vec![victim]);
    assert!(c.cs.container(victim).is_none());
    let live_after: usize = snap.apps.iter().map(|a| a.live.len()).sum();
    assert_eq!(
        live_after, 16,
        "the snapshot still shows the released container"
    );
    assert!(snap.apps[0].live.iter().any(|x| x.id == victim.as_u64()));
    // A new snapshot shows the change, and every container's node is its node's index (the
    // nodes themselves are there only for the selectors that read them, off here).
    let fresh = c.cs.preemption_snapshot();
    assert_eq!(fresh.apps[0].live.len(), 15);
    assert!(!fresh.apps[0].live.iter().any(|x| x.id == victim.as_u64()));
    assert!(fresh.nodes.is_empty());
    for x in fresh.apps[0].live.iter() {
        let id = ContainerId::from_u64(x.id);
        assert_eq!(x.node, c.cs.container(id).unwrap().node.index());
    }
}

/// The attempts' containers as the snapshot gives them, each application's in id order.
fn live_by_app(snap: &capsched::preempt::snapshot::PreemptionSnapshot) -> Vec<Vec<u64>> {
    snap.apps
        .iter()
        .map(|a| {
            let mut ids: Vec<u64> = a.live.iter().map(|x| x.id).collect();
            ids.sort_unstable();
            ids
        })
        .collect()
}

#[test]
fn views_are_kept_only_while_the_policy_runs_and_a_refresh_builds_or_drops_them() {
    // Without the monitor no attempt keeps a preemption view (the invariants check each
    // step that they are empty), yet a snapshot shows every live container: it builds the
    // views it needs. A refresh that turns the policy on builds them all, and its rounds
    // preempt from them; one that turns it off drops them again.
    let without = TWO_HALVES.replace("yarn.resourcemanager.scheduler.monitor.enable=true\n", "");
    let conf = |p: &str| {
        std::sync::Arc::new(
            capsched::config::CapacitySchedulerConfiguration::from_properties_str(p).unwrap(),
        )
    };
    let (mut c, n, app1) = a_fills(&without);
    // Two of App1's tasks end: the kept views would now be out of id order (swap-remove).
    let off = c.cs.preemption_snapshot();
    let victims: Vec<ContainerId> = off.apps[0].live[2..4]
        .iter()
        .map(|x| ContainerId::from_u64(x.id))
        .collect();
    c.allocate(app1, vec![], victims.clone());
    let app2 = c.unmanaged_app("b", "bob");
    c.ask(app2, 1, GB, 8);
    c.heartbeat(n);
    c.heartbeat(n);
    c.check();
    assert_eq!(c.queue_used_mb("a"), 14 * GB);
    assert_eq!(c.queue_used_mb("b"), 2 * GB);
    let off = c.cs.preemption_snapshot();
    assert_eq!(
        live_by_app(&off).iter().map(Vec::len).collect::<Vec<_>>(),
        vec![14, 2],
        "the snapshot built each attempt's running containers"
    );
    assert!(off
        .apps
        .iter()
        .flat_map(|a| a.live.iter())
        .all(|x| !victims.iter().any(|v| v.as_u64() == x.id)));

    // The policy on: every view built, consistent with its containers (checked), the same
    // containers as the views built for the snapshot, and a round preempts from them.
    c.cs.refresh_queues(c.now, conf(TWO_HALVES)).unwrap();
    c.check();
    let on = c.cs.preemption_snapshot();
    assert_eq!(live_by_app(&on), live_by_app(&off));
    let apps_used = |s: &capsched::preempt::snapshot::PreemptionSnapshot| {
        s.apps.iter().map(|a| a.live_used).collect::<Vec<_>>()
    };
    assert_eq!(apps_used(&on), apps_used(&off));
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    let events = policy.edit_schedule(&on, c.now);
    assert!(
        !events.is_empty(),
        "queue a is over its guarantee and b asks"
    );
    c.cs.apply_preemption(c.now, &events);
    c.check();
    // Containers end and start while the views are kept: still consistent (checked).
    let ended = ContainerId::from_u64(on.apps[0].live[5].id);
    c.allocate(app1, vec![], vec![ended]);
    c.heartbeat(n);
    c.check();

    // The policy off again: the views go, the snapshot still shows every container.
    let before = live_by_app(&c.cs.preemption_snapshot());
    c.cs.refresh_queues(c.now, conf(&without)).unwrap();
    c.check();
    assert_eq!(live_by_app(&c.cs.preemption_snapshot()), before);
}

#[test]
fn pending_with_and_without_reserved_each_use_the_users_full_headroom() {
    // LeafQueue.getTotalPendingResourcesConsideringUserLimit is called twice, each call with
    // its own per-user headroom. Bob holds a 4 GB reservation in b (counted in his usage),
    // so his headroom is 8 − 4 = 4 GB. App2's pending is its reserved ask, app3's a fresh one.
    let (mut c, _app1, app2) = a_fills_then_b_asks_big();
    let app3 = c.unmanaged_app("b", "bob");
    c.ask(app3, 1, 4 * GB, 1);
    let snap = c.cs.preemption_snapshot();
    let b = snap.queues.iter().position(|q| q.path == "root.b").unwrap();
    let part = &snap.queues[b].partitions[0];
    assert_eq!(part.reserved.memory_mb(), 4 * GB);
    // With reserved: app2 takes the 4 GB of headroom, app3 gets none.
    assert_eq!(part.pending.memory_mb(), 4 * GB);
    // Without: app2 has nothing left to ask beyond its reservation, so app3 gets the 4 GB.
    assert_eq!(part.pending_deduct_reserved.memory_mb(), 4 * GB);
    let _ = app2;
}

/// Two 8 GB nodes; App1 holds 6 GB on each. App2 (unmanaged, bob) asks for one 4 GB
/// container: b's limit (16 − 12 GB) lets it in, but no node has room, so it is reserved.
/// (YARN reserves only when the queue could take the container: with less headroom than
/// that, continue-looking skips the node instead.)
fn a_fills_then_b_asks_big() -> (Cluster, capsched::ids::AppId, capsched::ids::AppId) {
    let mut c = Cluster::new(TWO_HALVES);
    let n0 = c.node("h0", "/r", 8 * GB, 8);
    let n1 = c.node("h1", "/r", 8 * GB, 8);
    let app1 = c.app("a", "alice", GB);
    c.heartbeat(n0);
    c.ask(app1, 1, GB, 11);
    while c.queue_used_mb("a") < 12 * GB {
        c.heartbeat(n1);
        c.heartbeat(n0);
    }
    for n in [n0, n1] {
        assert_eq!(c.cs.node(n).unwrap().unallocated().memory_mb(), 2 * GB);
    }
    let app2 = c.unmanaged_app("b", "bob");
    c.ask(app2, 1, 4 * GB, 1);
    c.heartbeat(n0);
    let b = c.cs.queue_tree().find("root.b").unwrap();
    assert_eq!(c.cs.queue_reserved(b).memory_mb(), 4 * GB);
    (c, app1, app2)
}

#[test]
fn a_fair_queue_gives_up_its_heaviest_app_first() {
    // FifoCandidatesSelector walks the leaf's ordering policy backwards
    // (`getPreemptionIterator`): under the fair policy that is the most-used app first, not
    // the most recently submitted.
    let mut c = Cluster::new(&format!(
        "{TWO_HALVES}yarn.scheduler.capacity.root.a.ordering-policy=fair\n"
    ));
    let n = c.node("h0", "/r", 16 * GB, 16);
    let heavy = c.unmanaged_app("a", "alice");
    c.ask(heavy, 1, GB, 12);
    for _ in 0..12 {
        c.heartbeat(n);
    }
    let light = c.unmanaged_app("a", "carol");
    c.ask(light, 1, GB, 4);
    for _ in 0..4 {
        c.heartbeat(n);
    }
    assert_eq!(c.queue_used_mb("a"), 16 * GB);
    assert_eq!(c.user_used_mb("a", "carol"), 4 * GB);
    let b = c.unmanaged_app("b", "bob");
    c.ask(b, 1, GB, 8);
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
    assert!(!events.is_empty());
    for e in &events {
        let id = ContainerId::from_u64(e.container);
        assert_eq!(c.cs.container(id).unwrap().app, heavy, "{events:?}");
    }
}

/// Hadoop's TestCapacitySchedulerAutoCreatedQueuePreemption
/// .testSimpleSurgicalPreemptionOnAutoCreatedLeafQueues: two auto-created leaves of c (30% each,
/// both active), user_1's filling both 20 GB nodes; user_2's 6 GB ask reserves on n1, and two
/// rounds of the policy (kill at once, no per-round cap, reserved-container selection) take
/// exactly the 4 GB it needs from user_1's containers on n1.
#[test]
fn surgical_preemption_frees_a_reserved_node_between_auto_created_leaves() {
    let mut c = Cluster::new(
        "yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill=0
yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round=1.0
yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor=1.0
yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval=60000
yarn.resourcemanager.monitor.capacity.preemption.select_based_on_reserved_containers=true
yarn.scheduler.maximum-allocation-mb=102400
yarn.scheduler.capacity.root.queues=c
yarn.scheduler.capacity.root.c.capacity=100
yarn.scheduler.capacity.root.c.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.c.leaf-queue-template.capacity=30
yarn.scheduler.capacity.root.c.leaf-queue-template.maximum-capacity=100
yarn.scheduler.capacity.root.c.leaf-queue-template.minimum-user-limit-percent=100
yarn.scheduler.capacity.root.c.leaf-queue-template.user-limit-factor=3.0
yarn.scheduler.capacity.queue-mappings=u:user_1:c.user_1,u:user_2:c.user_2
yarn.scheduler.capacity.queue-mappings-override.enable=true",
    );
    let n1 = c.node("h1", "/r", 20 * GB, 20);
    let n2 = c.node("h2", "/r", 20 * GB, 20);
    let live_on = |c: &Cluster, app, node| {
        c.cs.containers()
            .filter(|(_, k)| k.app == app && k.node == node && !k.is_reserved())
            .count()
    };
    let app1 = c.app("user_1", "user_1", GB);
    c.heartbeat(n1);
    c.ask(app1, 1, GB, 32);
    for _ in 0..32 {
        c.heartbeat(n1);
        c.heartbeat(n2);
    }
    assert_eq!((live_on(&c, app1, n1), live_on(&c, app1, n2)), (17, 16));
    let app2 = c.app("user_2", "user_2", GB);
    c.heartbeat(n1);
    assert_eq!(c.cs.app_report(app2).unwrap().queue, "root.c.user_2");
    let free = |c: &Cluster, n| {
        let node = c.cs.nodes().find(|(id, _)| *id == n).unwrap().1;
        (node.total - node.allocated).memory_mb()
    };
    assert_eq!((free(&c, n1), free(&c, n2)), (2 * GB, 4 * GB));
    c.ask(app2, 1, 6 * GB, 1);
    c.heartbeat(n1);
    assert!(c
        .cs
        .containers()
        .any(|(_, k)| k.app == app2 && k.is_reserved()));
    // With the reserved-container selector on, the snapshot lists the nodes by index, each
    // container's node among them.
    let snap = c.cs.preemption_snapshot();
    for (_, k) in c.cs.containers() {
        let n = &snap.nodes[k.node.index()];
        assert_eq!(&*n.name, c.cs.node(k.node).unwrap().host.as_ref());
    }
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    for _ in 0..2 {
        let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
        c.cs.apply_preemption(c.now, &events);
        c.check();
    }
    assert_eq!((live_on(&c, app1, n1), live_on(&c, app1, n2)), (13, 16));
}
