//! Room taken by preemption goes to the queue it was taken for (docs/SEMANTICS.md, "Space
//! freed by preemption"), through the core:
//!
//! * lazy preemption (`yarn.scheduler.capacity.lazy-preemption-enabled`): a container whose
//!   wait is over becomes killable and runs on; it is killed only when a queue below its
//!   guarantee commits an allocation on its node, and only as many as that allocation needs;
//!   one that finishes by itself first is not counted as preempted; the queue it belongs to
//!   cannot use the room;
//! * the default (non-lazy) protection: a queue over its guarantee may not take, or reserve,
//!   the room freed by a kill while a queue below its guarantee wants it; YARN's exact
//!   behaviour (`capsched.preemption.freed-space.protect=false`) lets it, and counts the kill
//!   as wasted.

mod common;

use capsched::ids::{AppId, ContainerId, NodeId};
use capsched::preempt::policy::{PreemptionEvent, PreemptionEventKind, PreemptionPolicy};
use capsched::records::{exit_status, CompletedContainer, NodeStatus, ResourceRequest, ANY};
use capsched::resource::Resource;
use common::cluster::*;

/// Two 50 % queues that may each grow to the whole cluster; the monitor takes all that is
/// owed in one round (no per-round cap, no natural termination) and kills after 15 s.
const TWO_HALVES: &str = "\
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill=15000
yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round=1
yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor=1
yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.a.maximum-capacity=100
yarn.scheduler.capacity.root.b.maximum-capacity=100
yarn.scheduler.capacity.root.a.user-limit-factor=2
yarn.scheduler.capacity.root.b.user-limit-factor=2
yarn.scheduler.capacity.maximum-am-resource-percent=1
";

const LAZY: &str = "yarn.scheduler.capacity.lazy-preemption-enabled=true\n";
const YARN_EXACT: &str = "capsched.preemption.freed-space.protect=false\n";

fn queue(c: &Cluster, path: &str) -> usize {
    c.cs.queue_tree().find(path).unwrap()
}

/// App1 (alice, in a) holds both 8 GB nodes: its AM and 15 one-GB tasks.
fn a_fills_two_nodes(extra: &str) -> (Cluster, AppId, NodeId, NodeId) {
    let mut c = Cluster::new(&format!("{TWO_HALVES}{extra}"));
    let h0 = c.node("h0", "/r0", 8 * GB, 8);
    let h1 = c.node("h1", "/r1", 8 * GB, 8);
    let app1 = c.app("a", "alice", GB);
    c.heartbeat(h0);
    c.ask(app1, 1, GB, 15);
    while c.queue_used_mb("a") < 16 * GB {
        c.heartbeat(h0);
        c.heartbeat(h1);
    }
    (c, app1, h0, h1)
}

/// The monitor's rounds until its wait is over: marks, then the kill (or, lazily, killable).
fn rounds_until_kill(c: &mut Cluster) -> capsched::scheduler::preemption::PreemptionOutcome {
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    let t0 = c.now;
    let marks = policy.edit_schedule(&c.cs.preemption_snapshot(), t0);
    c.cs.apply_preemption(t0, &marks);
    c.check();
    c.now = t0 + 15_000;
    let kills = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
    assert!(kills
        .iter()
        .all(|e| e.kind == PreemptionEventKind::MarkKillable));
    let out = c.cs.apply_preemption(c.now, &kills);
    c.check();
    out
}

fn killable_on(c: &Cluster, n: NodeId) -> Vec<ContainerId> {
    c.cs.node(n).unwrap().killable().iter().copied().collect()
}

#[test]
fn lazy_kills_only_when_the_starved_queue_commits_on_the_node() {
    let (mut c, app1, h0, h1) = a_fills_two_nodes(LAZY);
    let app2 = c.unmanaged_app("b", "bob");
    c.ask(app2, 1, GB, 4);
    let out = rounds_until_kill(&mut c);
    // b is owed 4 GB: four of App1's tasks become killable, and none is killed yet.
    assert_eq!((out.made_killable, out.killed), (4, 0));
    assert_eq!(
        c.queue_used_mb("a"),
        16 * GB,
        "killable containers still run"
    );
    let a = queue(&c, "root.a");
    assert_eq!(c.cs.preemption_stats(a).killed, 0);
    let killable: Vec<ContainerId> = [h0, h1].iter().flat_map(|&n| killable_on(&c, n)).collect();
    assert_eq!(killable.len(), 4);
    for id in &killable {
        let x = c.cs.container(*id).unwrap();
        assert!(x.killable && x.app == app1 && !x.is_am);
    }
    assert!(
        c.ask(app1, 1, GB, 0).completed.is_empty(),
        "App1 lost nothing yet"
    );

    // The over-served queue cannot use the killable room for its own new asks.
    c.ask(app2, 1, GB, 0);
    c.ask(app1, 1, GB, 2);
    for n in [h0, h1] {
        assert_eq!(c.heartbeat(n), 0);
    }
    assert_eq!(c.queue_used_mb("a"), 16 * GB);
    assert_eq!(
        [h0, h1]
            .iter()
            .map(|&n| killable_on(&c, n).len())
            .sum::<usize>(),
        4
    );
    c.ask(app1, 1, GB, 0);

    // b asks for one container: the first node with killable room gives it one, killing one
    // container there, exactly; the other killable containers keep running.
    let node = if killable_on(&c, h0).is_empty() {
        h1
    } else {
        h0
    };
    let other = if node == h0 { h1 } else { h0 };
    let before_here = killable_on(&c, node);
    let before_other = killable_on(&c, other);
    c.ask(app2, 1, GB, 1);
    let r =
        c.cs.node_update(c.now + 1, node, &NodeStatus::default())
            .unwrap();
    c.check();
    assert_eq!(r.allocated, 1);
    assert_eq!(
        r.preempted.len(),
        1,
        "one kill makes room for one container"
    );
    let victim = r.preempted[0];
    assert!(before_here.contains(&victim));
    assert!(r.to_kill.contains(&victim), "the NM is told to kill it");
    assert!(c.cs.container(victim).is_none());
    assert_eq!(c.queue_used_mb("b"), GB);
    assert_eq!(c.queue_used_mb("a"), 15 * GB);
    assert_eq!(killable_on(&c, node).len(), before_here.len() - 1);
    assert_eq!(killable_on(&c, other), before_other);
    assert_eq!(c.cs.preemption_stats(a).killed, 1);
    assert_eq!(c.cs.preemption_stats(a).wasted, 0);
    // App1 hears of it as a preemption (−102).
    let st = c.ask(app1, 1, GB, 0).completed;
    assert_eq!(st.len(), 1);
    assert_eq!(
        (st[0].id, st[0].exit_status),
        (victim, exit_status::PREEMPTED)
    );

    // b's remaining asks take the rest, node by node, one kill per container.
    c.ask(app2, 1, GB, 3);
    for _ in 0..4 {
        c.heartbeat(h0);
        c.heartbeat(h1);
    }
    assert_eq!(c.queue_used_mb("b"), 4 * GB);
    assert_eq!(c.queue_used_mb("a"), 12 * GB);
    assert_eq!(c.cs.preemption_stats(a).killed, 4);
    assert!(killable_on(&c, h0).is_empty() && killable_on(&c, h1).is_empty());
}

#[test]
fn a_killable_container_that_finishes_by_itself_is_not_preempted() {
    let (mut c, app1, h0, h1) = a_fills_two_nodes(LAZY);
    let app2 = c.unmanaged_app("b", "bob");
    c.ask(app2, 1, GB, 4);
    rounds_until_kill(&mut c);
    // b withdraws its asks for now, so no heartbeat kills anything.
    c.ask(app2, 1, GB, 0);
    let node = if killable_on(&c, h0).is_empty() {
        h1
    } else {
        h0
    };
    let done = killable_on(&c, node)[0];
    // The task ends normally before any allocation needs its room.
    c.now += 1;
    let status = NodeStatus {
        completed: vec![CompletedContainer {
            id: done,
            exit_status: 0,
            diagnostics: String::new(),
        }],
        ..NodeStatus::default()
    };
    let r = c.cs.node_update(c.now, node, &status).unwrap();
    c.check();
    assert!(r.preempted.is_empty());
    assert!(!killable_on(&c, node).contains(&done));
    let a = queue(&c, "root.a");
    assert_eq!(
        c.cs.preemption_stats(a).killed,
        0,
        "not counted as preempted"
    );
    let st = c.ask(app1, 1, GB, 0).completed;
    assert_eq!((st[0].id, st[0].exit_status), (done, 0));
    // Its room is plain free room now: b's next container there kills nobody.
    c.ask(app2, 1, GB, 1);
    let r =
        c.cs.node_update(c.now + 1, node, &NodeStatus::default())
            .unwrap();
    c.check();
    assert_eq!((r.allocated, r.preempted.len()), (1, 0));
    assert_eq!(c.cs.preemption_stats(a).killed, 0);
    assert_eq!(
        [h0, h1]
            .iter()
            .map(|&n| killable_on(&c, n).len())
            .sum::<usize>(),
        3,
        "the other three are still killable"
    );
}

/// App1 wants one more container on h1 (a task's node-local re-ask); App2 in b wants one on
/// h0 only for now (node-local, locality relaxed), so on h1 it is passed over by delay
/// scheduling. Then one of App1's tasks on h1 is killed by preemption.
fn kill_on_h1(extra: &str, app1_mb: i64, relax: bool) -> (Cluster, AppId, AppId, NodeId) {
    let (mut c, app1, _h0, h1) = a_fills_two_nodes(extra);
    c.allocate(
        app1,
        vec![
            ResourceRequest::at(1, "h1", Resource::new(app1_mb, 1), 1),
            ResourceRequest::at(1, "/r1", Resource::new(app1_mb, 1), 1),
            ResourceRequest::at(1, ANY, Resource::new(app1_mb, 1), 16),
        ],
        vec![],
    );
    let app2 = c.unmanaged_app("b", "bob");
    let mut any = ResourceRequest::at(2, ANY, Resource::new(GB, 1), 1);
    any.relax_locality = relax;
    c.allocate(
        app2,
        vec![
            ResourceRequest::at(2, "h0", Resource::new(GB, 1), 1),
            ResourceRequest::at(2, "/r0", Resource::new(GB, 1), 1),
            any,
        ],
        vec![],
    );
    kill_a_task_on(&mut c, h1);
    (c, app1, app2, h1)
}

/// A preemption kill of one of App1's tasks on `node`.
fn kill_a_task_on(c: &mut Cluster, node: NodeId) {
    let victim = *c
        .cs
        .node(node)
        .unwrap()
        .containers
        .iter()
        .find(|id| !c.cs.container(**id).unwrap().is_am)
        .unwrap();
    let out = c.cs.apply_preemption(
        c.now,
        &[PreemptionEvent {
            kind: PreemptionEventKind::MarkKillable,
            app: 0,
            container: victim.as_u64(),
        }],
    );
    c.check();
    assert_eq!(out.killed, 1);
}

#[test]
fn yarn_exact_lets_the_preempted_queue_retake_the_room_and_counts_it_wasted() {
    let (mut c, _app1, _app2, h1) = kill_on_h1(YARN_EXACT, GB, true);
    assert_eq!(c.heartbeat(h1), 1);
    assert_eq!(c.queue_used_mb("a"), 16 * GB, "q1 took its room back");
    assert_eq!(c.queue_used_mb("b"), 0);
    let a = queue(&c, "root.a");
    assert_eq!(c.cs.preemption_stats(a).wasted, 1);
}

#[test]
fn protection_keeps_the_room_for_the_queue_below_its_guarantee() {
    let (mut c, _app1, _app2, h1) = kill_on_h1("", GB, true);
    let a = queue(&c, "root.a");
    // b passes h1 over a few times (delay scheduling), and a may not take it meanwhile.
    let mut beats = 0;
    while c.queue_used_mb("b") == 0 {
        assert_eq!(c.queue_used_mb("a"), 15 * GB, "a must not retake the room");
        c.heartbeat(h1);
        beats += 1;
        assert!(beats <= 50, "b never got the room");
    }
    assert!(beats > 1, "b took it only once delay scheduling let it");
    assert_eq!(c.queue_used_mb("b"), GB);
    assert_eq!(c.cs.preemption_stats(a).wasted, 0);
}

#[test]
fn yarn_exact_reserves_the_freed_node_for_the_preempted_queue_and_protection_does_not() {
    // App1's re-ask is 2 GB on h1 only; one of its tasks is killed on each node. App2 (b)
    // wants two containers on h0 only and gets the one there. The 1 GB freed on h1 cannot hold App1's 2 GB, so YARN reserves h1 for App1 (a
    // third node, empty and silent, leaves the cluster the headroom a reservation needs), and
    // the reservation would take the room as soon as more frees up there.
    let run = |extra: &str| {
        let (mut c, app1, h0, h1) = a_fills_two_nodes(extra);
        c.node("h2", "/r2", 8 * GB, 8);
        let two = Resource::new(2 * GB, 1);
        let mut rack = ResourceRequest::at(1, "/r1", two, 1);
        let mut any = ResourceRequest::at(1, ANY, two, 1);
        rack.relax_locality = false;
        any.relax_locality = false;
        c.allocate(
            app1,
            vec![ResourceRequest::at(1, "h1", two, 1), rack, any],
            vec![],
        );
        let app2 = c.unmanaged_app("b", "bob");
        let mut b_any = ResourceRequest::at(2, ANY, Resource::new(GB, 1), 2);
        b_any.relax_locality = false;
        c.allocate(
            app2,
            vec![
                ResourceRequest::at(2, "h0", Resource::new(GB, 1), 2),
                ResourceRequest::at(2, "/r0", Resource::new(GB, 1), 2),
                b_any,
            ],
            vec![],
        );
        kill_a_task_on(&mut c, h0);
        kill_a_task_on(&mut c, h1);
        assert_eq!(c.heartbeat(h0), 1);
        assert_eq!(c.queue_used_mb("b"), GB);
        c.heartbeat(h1);
        let a = queue(&c, "root.a");
        (
            c.cs.queue_reserved(a).memory_mb(),
            c.cs.node(h1).unwrap().reserved.is_some(),
        )
    };
    assert_eq!(run(YARN_EXACT), (2 * GB, true));
    assert_eq!(run(""), (0, false));
}

#[test]
fn held_room_is_released_when_nobody_below_its_guarantee_can_use_it() {
    // b's ask is pinned to h0 (no relaxed locality): it can never use h1. The room is held for
    // capsched.preemption.freed-space.hold-ms (30 s by default), then a may have it.
    let (mut c, _app1, _app2, h1) = kill_on_h1("", GB, false);
    for _ in 0..5 {
        assert_eq!(c.heartbeat(h1), 0);
    }
    assert_eq!(c.queue_used_mb("a"), 15 * GB);
    c.now += 30_000;
    assert_eq!(c.heartbeat(h1), 1);
    assert_eq!(c.queue_used_mb("a"), 16 * GB);
    assert_eq!(c.queue_used_mb("b"), 0);

    // And at once when no queue below its guarantee has demand left.
    let (mut c, _app1, app2, h1) = kill_on_h1("", GB, false);
    c.allocate(
        app2,
        vec![
            ResourceRequest::at(2, "h0", Resource::new(GB, 1), 0),
            ResourceRequest::at(2, "/r0", Resource::new(GB, 1), 0),
            ResourceRequest::at(2, ANY, Resource::new(GB, 1), 0),
        ],
        vec![],
    );
    assert_eq!(c.heartbeat(h1), 1);
    assert_eq!(c.queue_used_mb("a"), 16 * GB);
}

#[test]
fn a_reservation_of_the_preempted_queue_is_not_fulfilled_from_the_freed_room() {
    // App1 holds a reservation on h1 for a 2 GB container (h1 only). App2 (b) then wants two
    // 1 GB containers on h1 only, and one more of App1's tasks on h1 is killed for b: YARN
    // fulfils App1's reservation first with the room, while capsched drops the reservation
    // and b gets the room it was freed for.
    let run = |extra: &str| {
        let (mut c, app1, _h0, h1) = a_fills_two_nodes(extra);
        c.node("h2", "/r2", 8 * GB, 8);
        let pinned = |priority: i32, mb: i64, count: i32| {
            let r = Resource::new(mb, 1);
            let mut rack = ResourceRequest::at(priority, "/r1", r, count);
            let mut any = ResourceRequest::at(priority, ANY, r, count);
            rack.relax_locality = false;
            any.relax_locality = false;
            vec![ResourceRequest::at(priority, "h1", r, count), rack, any]
        };
        c.allocate(app1, pinned(1, 2 * GB, 1), vec![]);
        // (YARN does not schedule on a node with less than the minimum allocation free, so
        // the reservation comes once a first kill left 1 GB there.)
        kill_a_task_on(&mut c, h1);
        c.heartbeat(h1);
        let a = queue(&c, "root.a");
        assert_eq!(c.cs.queue_reserved(a).memory_mb(), 2 * GB, "h1 reserved");
        let app2 = c.unmanaged_app("b", "bob");
        c.allocate(app2, pinned(2, GB, 2), vec![]);
        kill_a_task_on(&mut c, h1);
        c.heartbeat(h1);
        (
            c.queue_used_mb("b"),
            c.cs.queue_reserved(a).memory_mb(),
            c.cs.preemption_stats(a).wasted,
        )
    };
    assert_eq!(
        run(YARN_EXACT),
        (0, 0, 2),
        "App1's reservation took the room"
    );
    assert_eq!(run(""), (2 * GB, 0, 0), "b took the room");
}

#[test]
fn switching_lazy_preemption_off_makes_killable_containers_ordinary_again() {
    let (mut c, _app1, h0, h1) = a_fills_two_nodes(LAZY);
    let app2 = c.unmanaged_app("b", "bob");
    c.ask(app2, 1, GB, 4);
    assert_eq!(rounds_until_kill(&mut c).made_killable, 4);
    let conf =
        capsched::config::CapacitySchedulerConfiguration::from_properties_str(TWO_HALVES).unwrap();
    c.cs.refresh_queues(c.now, std::sync::Arc::new(conf))
        .unwrap();
    c.check();
    assert!(killable_on(&c, h0).is_empty() && killable_on(&c, h1).is_empty());
    assert_eq!(
        c.queue_used_mb("a"),
        16 * GB,
        "nothing was killed by the switch"
    );
    // The next rounds select them again, and now kill them.
    let out = rounds_until_kill(&mut c);
    assert_eq!((out.killed, out.made_killable), (4, 0));
    assert_eq!(c.queue_used_mb("a"), 12 * GB);
}
