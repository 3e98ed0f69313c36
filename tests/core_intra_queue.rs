//! Intra-queue preemption end to end through the core (spec P6.3): inside one full leaf, a
//! higher-priority application (`priority_first`) or a user under its limit (`userlimit_first`)
//! takes from the others; the marks reach the AM and the kill frees room for the waiting app.

mod common;

use capsched::ids::{AppId, ContainerId};
use capsched::preempt::policy::{PreemptionEventKind, PreemptionPolicy};
use capsched::records::exit_status;
use capsched::resource::Resource;
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use common::cluster::*;

/// One leaf owning the cluster, intra-queue preemption on, YARN's defaults otherwise
/// (10 % per round, natural termination 0.2, 20 % max-allowable-limit, threshold 0.5). A user
/// may grow to twice the queue's capacity (`user-limit-factor` 2), so a user holding the whole
/// queue still has demand counted within its limit; with factor 1 see
/// `a_user_at_its_limit_has_no_demand_the_policy_sees`.
fn config(extra: &str) -> String {
    format!(
        "\
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill=15000
yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled=true
yarn.cluster.max-application-priority=10
yarn.scheduler.capacity.root.queues=default
yarn.scheduler.capacity.root.default.capacity=100
yarn.scheduler.capacity.root.default.user-limit-factor=2
yarn.scheduler.capacity.maximum-am-resource-percent=1
{extra}"
    )
}

/// Submits an app at `priority` with an unmanaged AM (so it holds nothing yet).
fn unmanaged_at(c: &mut Cluster, user: &str, priority: i32) -> AppId {
    let sub = AppSubmission {
        priority: Some(priority),
        ..AppSubmission::new("default", user)
    };
    let id = c.cs.submit_application(c.now, &sub).unwrap();
    let attempt = AttemptSubmission {
        am_resource: Resource::new(GB, 1),
        unmanaged: true,
        keep_containers: false,
        recovering: false,
    };
    c.cs.add_attempt(c.now, id, attempt).unwrap();
    c.check();
    id
}

/// alice's priority-0 app holds all 16 GB (AM + 15 tasks); then `user`'s app at `priority`
/// asks for 8 × 1 GB.
fn full_leaf_then(extra: &str, user: &str, priority: i32) -> (Cluster, AppId, AppId) {
    let mut c = Cluster::new(&config(extra));
    let n = c.node("h0", "/r", 16 * GB, 16);
    let low = c.app("default", "alice", GB);
    c.heartbeat(n);
    c.ask(low, 1, GB, 15);
    for _ in 0..15 {
        c.heartbeat(n);
    }
    assert_eq!(c.queue_used_mb("default"), 16 * GB);
    let high = unmanaged_at(&mut c, user, priority);
    c.ask(high, 1, GB, 8);
    assert_eq!(c.heartbeat(n), 0, "the cluster is full");
    (c, low, high)
}

fn round(
    c: &mut Cluster,
    policy: &mut PreemptionPolicy,
) -> Vec<capsched::preempt::policy::PreemptionEvent> {
    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
    c.cs.apply_preemption(c.now, &events);
    c.check();
    events
}

#[test]
fn priority_first_takes_from_a_lower_priority_app_of_the_same_user() {
    let (mut c, low, high) = full_leaf_then(
        "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.preemption-order-policy=priority_first\n",
        "alice",
        5,
    );
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    // The high app's ideal is its 8 GB of demand; the low app could give 8 GB (16 − its ideal
    // 7 − AM 1), capped by the round's budget, 10 % of 16 GB = 1638 MB: one 1 GB container.
    let events = round(&mut c, &mut policy);
    assert_eq!(events.len(), 1, "{events:?}");
    let e = events[0];
    assert_eq!(e.kind, PreemptionEventKind::MarkForPreemption);
    let victim = ContainerId::from_u64(e.container);
    let container = c.cs.container(victim).unwrap();
    assert_eq!(container.app, low);
    assert!(
        !container.is_am,
        "AM containers are never taken inside a queue"
    );
    // The low app's AM hears of it.
    let r = c.ask(low, 1, GB, 0);
    let msg = r.preemption.expect("a preemption message");
    assert!(msg.contract_containers.contains(&victim));

    // After the wait the container is killed (−102) and the high app gets the room.
    c.now += 15_001;
    let events = round(&mut c, &mut policy);
    assert!(events
        .iter()
        .any(|e| e.kind == PreemptionEventKind::MarkKillable && e.container == victim.as_u64()));
    assert!(c.cs.container(victim).is_none(), "killed");
    let r = c.ask(low, 1, GB, 0);
    assert!(r
        .completed
        .iter()
        .any(|s| s.id == victim && s.exit_status == exit_status::PREEMPTED));
    let n = c.cs.nodes().next().unwrap().0;
    c.heartbeat(n);
    let got = c.ask(high, 1, GB, 0).allocated.len();
    assert_eq!(got, 1, "the freed gigabyte goes to the higher-priority app");
}

#[test]
fn userlimit_first_protects_a_user_within_its_limit_even_from_its_own_higher_priority_app() {
    // The default order: alice (16 GB used) is within her limit (17 GB: the queue's 16 plus
    // one minimum allocation), so her low-priority app keeps its containers although her own
    // high-priority app waits: taking one would bring her to or under the limit.
    let (mut c, _low, _high) = full_leaf_then("", "alice", 5);
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    assert!(round(&mut c, &mut policy).is_empty());
}

#[test]
fn userlimit_first_takes_from_a_user_over_its_limit_for_one_under_it() {
    // minimum-user-limit-percent 50: with alice and bob in the queue each may hold 9 GB
    // (8.5 GB rounded up to the 1 GB minimum allocation). Alice holds 16; bob asks at the
    // same priority.
    let (mut c, low, _bob) = full_leaf_then(
        "yarn.scheduler.capacity.root.default.minimum-user-limit-percent=50\n",
        "bob",
        0,
    );
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    let events = round(&mut c, &mut policy);
    assert_eq!(events.len(), 1, "{events:?}");
    let container =
        c.cs.container(ContainerId::from_u64(events[0].container))
            .unwrap();
    assert_eq!(container.app, low);
    assert!(!container.is_am);
}

#[test]
fn nothing_moves_inside_a_queue_without_the_switch_or_with_the_queue_opted_out() {
    let order = "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.preemption-order-policy=priority_first\n";
    for extra in [
        format!("{order}yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled=false\n"),
        format!("{order}yarn.scheduler.capacity.root.default.intra-queue-preemption.disable_preemption=true\n"),
    ] {
        let (mut c, _low, _high) = full_leaf_then(&extra, "alice", 5);
        let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
        assert!(round(&mut c, &mut policy).is_empty(), "{extra}");
    }
}

#[test]
fn a_leaf_used_below_the_minimum_threshold_is_left_alone() {
    // Threshold 1.5: the leaf (used 100 % of its guarantee) does not qualify.
    let (mut c, _low, _high) = full_leaf_then(
        "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.preemption-order-policy=priority_first\n\
         yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.minimum-threshold=1.5\n",
        "alice",
        5,
    );
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    assert!(round(&mut c, &mut policy).is_empty());
}

#[test]
fn a_user_at_its_limit_has_no_demand_the_policy_sees() {
    // user-limit-factor 1: alice's limit is the queue's 16 GB and she holds it, so her
    // high-priority app's asks count for nothing in the queue's pending
    // (`getTotalPendingResourcesConsideringUserLimit`): the leaf is not under-served and the
    // intra-queue selector never looks at it, as in YARN.
    let (mut c, _low, _high) = full_leaf_then(
        "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.preemption-order-policy=priority_first\n\
         yarn.scheduler.capacity.root.default.user-limit-factor=1\n",
        "alice",
        5,
    );
    let snap = c.cs.preemption_snapshot();
    assert!(snap.queues[1].partitions[0].pending.is_zero());
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    assert!(round(&mut c, &mut policy).is_empty());
}

/// A fair-ordered leaf on one 16 GB node: alice holds it all with two apps (AM + 9 tasks,
/// AM + 5 tasks), over her 9 GB limit (minimum-user-limit-percent 50); bob's unmanaged app asks
/// for 8 GB at the same priority. Returns alice's two apps.
fn fair_leaf_alice_over_her_limit_bob_asking() -> (Cluster, AppId, AppId) {
    let mut c = Cluster::new(&config(
        "yarn.scheduler.capacity.root.default.ordering-policy=fair\n\
         yarn.scheduler.capacity.root.default.minimum-user-limit-percent=50\n",
    ));
    let n = c.node("h0", "/r", 16 * GB, 16);
    let big = c.app("default", "alice", GB);
    let small = c.app("default", "alice", GB);
    c.heartbeat(n);
    c.heartbeat(n);
    c.ask(big, 1, GB, 9);
    c.ask(small, 1, GB, 5);
    for _ in 0..20 {
        c.heartbeat(n);
    }
    assert_eq!(c.queue_used_mb("default"), 16 * GB);
    let bob = unmanaged_at(&mut c, "bob", 0);
    c.ask(bob, 1, GB, 8);
    (c, big, small)
}

#[test]
fn a_fair_ordered_leaf_takes_from_the_user_over_its_limit() {
    // ordering-policy fair: the snapshot carries the leaf's fair order (which orders the apps
    // of one user). Only alice's tasks give.
    let (mut c, big, small) = fair_leaf_alice_over_her_limit_bob_asking();
    let snap = c.cs.preemption_snapshot();
    assert!(snap.queues[1].fair_order.is_some());
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    let events = round(&mut c, &mut policy);
    assert!(!events.is_empty());
    for e in &events {
        let container = c.cs.container(ContainerId::from_u64(e.container)).unwrap();
        assert!(
            container.app == big || container.app == small,
            "only alice gives"
        );
        assert!(!container.is_am);
    }
}

#[test]
fn the_selector_finds_each_apps_user_by_the_snapshots_index_as_by_name() {
    // The scheduler's snapshot tells each app where its user is in the leaf's list, so the
    // selector hashes no names; a snapshot without those indexes (the conformance harness's)
    // is matched by name. Both must select the same containers.
    let (c, _, _) = fair_leaf_alice_over_her_limit_bob_asking();
    let snap = c.cs.preemption_snapshot();
    assert_eq!(snap.apps.len(), 3);
    for app in &snap.apps {
        let users = &snap.queues[app.queue].users;
        let j = app
            .user_index
            .expect("the scheduler's snapshot indexes every app's user");
        assert_eq!(users[j].name, app.user);
    }
    let mut by_name = snap.clone();
    for app in &mut by_name.apps {
        app.user_index = None;
    }
    let policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    let indexed = policy.clone().edit_schedule(&snap, c.now);
    assert!(!indexed.is_empty());
    assert_eq!(indexed, policy.clone().edit_schedule(&by_name, c.now));
    // An index that names another user is not trusted: the name decides.
    let mut wrong = snap.clone();
    for app in &mut wrong.apps {
        let users = wrong.queues[app.queue].users.len();
        app.user_index = app.user_index.map(|j| (j + 1) % users);
    }
    assert_eq!(indexed, policy.clone().edit_schedule(&wrong, c.now));
}

/// Snapshots built with the conformance harness's string grammar (Hadoop's mock framework),
/// for cases the live scheduler reaches only in corners.
fn harness_snapshot(
    queues: &str,
    apps: &str,
    settings: serde_json::Value,
) -> (
    capsched::preempt::snapshot::PreemptionSnapshot,
    capsched::config::PreemptionSettings,
) {
    use capsched::conformance::setup::configure;
    use capsched::conformance::string::{build, StringInput};
    let input = StringInput::parse("=100,true", "n1= res=100", queues, apps).unwrap();
    let (settings, ov) = configure(settings.as_object().unwrap()).unwrap();
    (build(&input, &ov, &settings).unwrap().snapshot, settings)
}

fn marks_per_app(
    snap: &capsched::preempt::snapshot::PreemptionSnapshot,
    settings: &capsched::config::PreemptionSettings,
) -> Vec<usize> {
    let events = PreemptionPolicy::new(settings.clone()).edit_schedule(snap, 0);
    (0..snap.apps.len())
        .map(|a| {
            events
                .iter()
                .filter(|e| e.app == a && e.kind == PreemptionEventKind::MarkForPreemption)
                .count()
        })
        .collect()
}

#[test]
fn an_app_held_back_by_the_am_limit_still_counts_among_the_leafs_apps() {
    // app2 (priority 5) is not activated yet: it holds nothing but asks for 20. YARN's
    // `getAllApplications` includes it, so the leaf has two apps and app1 gives.
    let (mut snap, settings) = harness_snapshot(
        "root(=[100 100 100 20 0]);-a(=[100 100 100 20 0])",
        "a\t(1,1,n1,,100,false,0,user1);a\t(5,1,n1,,0,false,20,user1)",
        serde_json::json!({
            "intra-queue-preemption.enabled": true,
            "intra-queue-preemption.preemption-order-policy": "priority_first",
        }),
    );
    let leaf = &mut snap.queues[1];
    leaf.apps.retain(|&a| a != 1);
    leaf.inactive_apps.push(1);
    let marks = marks_per_app(&snap, &settings);
    assert!(marks[0] > 0 && marks[1] == 0, "{marks:?}");
    // Without it the leaf has a single app: nothing to balance.
    snap.queues[1].inactive_apps.clear();
    assert_eq!(marks_per_app(&snap, &settings), [0, 0]);
}

#[test]
fn an_am_not_yet_placed_counts_against_its_user_and_the_queue() {
    // testSimpleIntraQueuePreemptionWithTwoUsers' layout, with app2's AM (10) activated but
    // not placed: its user's limit is 50 − 10, so app2's ideal is 40 and user1 gives 40
    // (not 49, as it would if the AM counted for nothing).
    let (mut snap, settings) = harness_snapshot(
        "root(=[100 100 100 60 0]);-a(=[100 100 100 60 0])",
        "a\t(1,1,n1,,100,false,0,user1);a\t(1,1,n1,,0,false,60,user2)",
        serde_json::json!({
            "intra-queue-preemption.enabled": true,
            "intra-queue-preemption.max-allowable-limit": 1.0,
        }),
    );
    snap.apps[1].am = capsched::preempt::snapshot::AmSnap {
        resource: capsched::resource::Resource::new(10, 1),
        partition: 0,
        waiting: true,
    };
    assert_eq!(marks_per_app(&snap, &settings), [40, 0]);
}

#[test]
fn the_threshold_reads_used_over_at_least_one_minimum_allocation() {
    // Leaf a: guarantee 8 but a minimum allocation of 10, so its used capacity is 4 / 10 = 0.4
    // (`CSQueueUtils.updateUsedCapacity`), under the 0.5 threshold: no intra-queue preemption
    // although 4 / 8 would be exactly 0.5.
    let (mut snap, settings) = harness_snapshot(
        "root(=[100 100 100 10 0]);-a(=[8 100 4 10 0]);-b(=[92 100 96 0 0])",
        "a\t(1,1,n1,,4,false,0,user1);a\t(5,1,n1,,0,false,10,user1);b\t(1,1,n1,,96,false,0,user2)",
        serde_json::json!({
            "intra-queue-preemption.enabled": true,
            "intra-queue-preemption.preemption-order-policy": "priority_first",
        }),
    );
    assert_eq!(
        marks_per_app(&snap, &settings),
        [1, 0, 0],
        "a minimum allocation of 1"
    );
    snap.minimum_allocation = capsched::resource::Resource::new(10, 1);
    assert_eq!(marks_per_app(&snap, &settings), [0, 0, 0]);
}
