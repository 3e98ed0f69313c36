//! Regression tests for differences from YARN found in review, one per finding, each asserting
//! YARN's outcome (spec section or Hadoop class in the comment).

mod common;
use capsched::ids::NodeId;
use capsched::records::{ContainerReport, NodeStatus, ResourceRequest, SchedulerKey};
use capsched::resource::Resource;
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;
use capsched::scheduler::SchedulerError;
use capsched::state::app::AttemptState;
use common::cluster::*;

fn nodes(c: &mut Cluster, n: usize, gb: i64) -> Vec<NodeId> {
    (0..n)
        .map(|i| c.node(&format!("h{i}"), "/r", gb * GB, gb))
        .collect()
}

fn round(c: &mut Cluster, ns: &[NodeId], times: usize) {
    for _ in 0..times {
        for &n in ns {
            c.heartbeat(n);
        }
    }
}

fn state(c: &Cluster, app: capsched::ids::AppId) -> AttemptState {
    c.cs.application(app)
        .unwrap()
        .attempt
        .as_ref()
        .unwrap()
        .state
}

/// UsersManager.activateApplication: asks make a user active only while it has an active app.
#[test]
fn a_user_with_only_a_pending_app_is_not_active() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.minimum-user-limit-percent=25
",
    );
    let ns = nodes(&mut c, 10, 10);
    let alice = c.app("a", "alice", 8 * GB);
    round(&mut c, &ns, 1);
    c.ask(alice, 1, GB, 100);
    // bob's 4 GB AM does not fit the 10 GB AM limit next to alice's 8 GB: pending.
    let bob = c.app("a", "bob", 4 * GB);
    assert_eq!(state(&c, bob), AttemptState::Pending);
    let a = c.cs.queue_tree().find("a").unwrap();
    assert_eq!(c.cs.leaf(a).unwrap().users.active_users(), 1);
    round(&mut c, &ns, 20);
    assert!(
        c.user_used_mb("a", "alice") > 50 * GB,
        "alice is the only active user: {} MB",
        c.user_used_mb("a", "alice")
    );
}

/// ParentQueue.getResourceLimitsOfChild: min(limit, parent max), then minus blocked headroom.
#[test]
fn blocked_headroom_is_taken_from_the_capped_parent_limit() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=p,q
yarn.scheduler.capacity.root.p.capacity=50
yarn.scheduler.capacity.root.p.maximum-capacity=50
yarn.scheduler.capacity.root.q.capacity=50
yarn.scheduler.capacity.root.p.queues=x,y
yarn.scheduler.capacity.root.p.x.capacity=20
yarn.scheduler.capacity.root.p.x.maximum-capacity=20
yarn.scheduler.capacity.root.p.x.user-limit-factor=10
yarn.scheduler.capacity.root.p.y.capacity=80
yarn.scheduler.capacity.root.p.y.user-limit-factor=10
yarn.scheduler.capacity.maximum-am-resource-percent=1
",
    );
    let ns = nodes(&mut c, 10, 10);
    let x = c.unmanaged_app("x", "xavier");
    c.ask(x, 1, 4 * GB, 1);
    round(&mut c, &ns, 1);
    assert_eq!(c.queue_used_mb("x"), 4 * GB);
    // x's 8 GB ask exceeds its 6 GB headroom (QUEUE_LIMIT): y's limit is 50 − 6 − 4 = 40 GB.
    c.ask(x, 1, 8 * GB, 1);
    let y = c.unmanaged_app("y", "yara");
    c.ask(y, 1, GB, 100);
    round(&mut c, &ns, 20);
    assert_eq!(c.queue_used_mb("y"), 40 * GB);
}

/// LeafQueue.updateCurrentResourceLimits: each visit refreshes the limit the AM limit reads.
#[test]
fn the_am_limit_follows_the_limit_of_the_last_visit() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.b.user-limit-factor=10
yarn.scheduler.capacity.maximum-am-resource-percent=1
",
    );
    let ns = nodes(&mut c, 10, 10);
    let a = c.cs.queue_tree().find("a").unwrap();
    let before = c.cs.queue_tree().am_resource_limit(a);
    let b = c.unmanaged_app("b", "bo");
    c.ask(b, 1, GB, 79);
    round(&mut c, &ns, 10);
    assert_eq!(c.queue_used_mb("b"), 79 * GB);
    let app = c.unmanaged_app("a", "al");
    c.ask(app, 1, GB, 1);
    round(&mut c, &ns, 1);
    // The visit brought a limit of 100 − 79 = 21 GB (a has used nothing): the 50 GB guarantee
    // no longer fits in it, so the AM limit is the AM share of the guarantee.
    assert_eq!(
        c.cs.queue_tree().queue_current_limit(a).memory_mb(),
        21 * GB
    );
    assert_eq!(before.memory_mb(), 100 * GB);
    assert_eq!(c.cs.queue_tree().am_resource_limit(a).memory_mb(), 50 * GB);
}

/// SchedulerApplicationAttempt keeps schedulingOpportunities and reReservations per key across
/// the key's requests coming and going.
#[test]
fn per_key_counters_outlive_the_requests() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a\nyarn.scheduler.capacity.root.a.capacity=100\n",
    );
    let ns = nodes(&mut c, 3, 8);
    let app = c.unmanaged_app("a", "al");
    c.ask(app, 1, GB, 1);
    round(&mut c, &ns[..1], 1);
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    assert!(
        t.requests.get(&SchedulerKey::new(1)).is_none(),
        "the key's requests are gone"
    );
    assert_eq!(
        t.counters(&SchedulerKey::new(1)).missed_opportunities,
        1,
        "an off-switch allocation keeps the count"
    );
}

#[test]
fn re_asking_a_reserved_key_does_not_reserve_a_second_node() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.user-limit-factor=10
yarn.scheduler.capacity.maximum-am-resource-percent=1
",
    );
    let ns = nodes(&mut c, 2, 4);
    let small = c.unmanaged_app("a", "alice");
    c.ask(small, 1, 2 * GB, 2);
    round(&mut c, &ns, 1);
    let big = c.unmanaged_app("a", "bob");
    c.ask(big, 1, 3 * GB, 1);
    c.heartbeat(ns[0]);
    assert!(c.cs.node(ns[0]).unwrap().reserved.is_some());
    c.ask(big, 1, 3 * GB, 0);
    c.ask(big, 1, 3 * GB, 1);
    c.heartbeat(ns[1]);
    assert!(
        c.cs.node(ns[1]).unwrap().reserved.is_none(),
        "one reservation still covers the one container"
    );
}

/// LocalityAppPlacementAllocator keeps count-0 entries; they count as locations.
#[test]
fn zero_count_locations_still_delay_off_switch() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled=false
",
    );
    let ns = nodes(&mut c, 3, 8);
    let app = c.unmanaged_app("a", "al");
    let one = Resource::new(GB, 1);
    c.allocate(
        app,
        vec![
            ResourceRequest::at(1, "hX", one, 0),
            ResourceRequest::at(1, "/rX", one, 0),
            ResourceRequest::any(1, one, 3),
        ],
        vec![],
    );
    // 3 locations on 3 nodes: wait factor 2/3, threshold min(3, 3 × 2/3) = 2 missed.
    let got: Vec<u32> = (0..3).map(|_| c.heartbeat(ns[0])).collect();
    assert_eq!(got, vec![0, 0, 1]);
}

/// RMServerUtils.validateContainerReleaseRequest checks ownership only; unknown ids are ignored.
#[test]
fn releasing_a_finished_container_is_not_an_error() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a\nyarn.scheduler.capacity.root.a.capacity=100\n",
    );
    let ns = nodes(&mut c, 1, 8);
    let app = c.unmanaged_app("a", "al");
    c.ask(app, 1, GB, 1);
    c.heartbeat(ns[0]);
    let got = c.allocate(app, vec![], vec![]).allocated[0].id;
    c.now += 1;
    let done = capsched::records::CompletedContainer {
        id: got,
        exit_status: 0,
        diagnostics: String::new(),
    };
    c.cs.node_update(
        c.now,
        ns[0],
        &NodeStatus {
            launched: vec![],
            completed: vec![done],
            ..Default::default()
        },
    )
    .unwrap();
    // The AM releases it anyway, and asks for more in the same call: the asks count.
    let r = c.allocate(
        app,
        vec![ResourceRequest::any(1, Resource::new(GB, 1), 2)],
        vec![got],
    );
    assert_eq!(r.completed.len(), 1);
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    assert_eq!(t.requests.pending().memory_mb(), 2 * GB);
}

/// CapacityScheduler.moveApplication submits the attempt to the target: pending, then activation.
#[test]
fn a_moved_app_waits_for_the_targets_am_limit() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.a.maximum-am-resource-percent=1
yarn.scheduler.capacity.root.b.maximum-am-resource-percent=0.01
",
    );
    nodes(&mut c, 10, 10);
    let in_b = c.app("b", "bo", GB);
    let moving = c.app("a", "al", GB);
    assert_eq!(
        (state(&c, in_b), state(&c, moving)),
        (AttemptState::Active, AttemptState::Active)
    );
    c.cs.move_application(c.now, moving, "b").unwrap();
    c.check();
    assert_eq!(
        state(&c, moving),
        AttemptState::Pending,
        "b's 1 GB AM limit is taken"
    );
}

/// CSMaxRunningAppsEnforcer promotes the earliest waiting app, whatever its queue.
#[test]
fn held_back_apps_are_promoted_in_submission_order() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=p
yarn.scheduler.capacity.root.p.capacity=100
yarn.scheduler.capacity.root.p.max-parallel-apps=1
yarn.scheduler.capacity.root.p.queues=x,y
yarn.scheduler.capacity.root.p.x.capacity=50
yarn.scheduler.capacity.root.p.y.capacity=50
yarn.scheduler.capacity.maximum-am-resource-percent=1
",
    );
    nodes(&mut c, 2, 8);
    let running = c.app("x", "u1", GB);
    c.now += 10;
    let early = c.app("y", "u2", GB);
    c.now += 10;
    let late = c.app("x", "u3", GB);
    assert_eq!(
        (state(&c, early), state(&c, late)),
        (AttemptState::NonRunnable, AttemptState::NonRunnable)
    );
    c.cs.remove_application(c.now, running).unwrap();
    c.check();
    assert_ne!(
        state(&c, early),
        AttemptState::NonRunnable,
        "the earlier submission goes first"
    );
    assert_eq!(state(&c, late), AttemptState::NonRunnable);
}

/// checkAndGetApplicationPriority clamps the queue default too.
#[test]
fn a_queue_default_priority_is_clamped_to_the_cluster_maximum() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.default-application-priority=5
",
    );
    let app =
        c.cs.submit_application(0, &AppSubmission::new("a", "al"))
            .unwrap();
    assert_eq!(c.cs.application(app).unwrap().priority, 0);
}

/// ClusterNodeTracker: the configured maximum holds during the scheduling wait; asks normalise
/// against the cluster's maximum; an AM above the queue's maximum is refused.
#[test]
fn maximum_allocation_rules() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.maximum-allocation-mb=3000
yarn.scheduler.capacity.maximum-am-resource-percent=1
",
    );
    c.node("h0", "/r", 4 * GB, 4);
    assert_eq!(
        c.cs.cluster_max_allocation(0).memory_mb(),
        8192,
        "configured, during the wait"
    );
    assert_eq!(
        c.cs.cluster_max_allocation(60_000).memory_mb(),
        4096,
        "the largest node, after it"
    );
    let app = c.unmanaged_app("a", "al");
    c.allocate(
        app,
        vec![ResourceRequest::any(1, Resource::new(2500, 1), 1)],
        vec![],
    );
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    assert_eq!(
        t.requests.pending().memory_mb(),
        3072,
        "rounded up to the step, not capped at the queue's 3000"
    );
    let too_big =
        c.cs.submit_application(0, &AppSubmission::new("a", "al"))
            .unwrap();
    let r = c.cs.add_attempt(
        0,
        too_big,
        AttemptSubmission::with_am(Resource::new(4000, 1)),
    );
    assert!(
        matches!(r, Err(SchedulerError::InvalidResourceRequest(_))),
        "{r:?}"
    );
    c.check();
}

/// activateApplications computes the user AM limit with the first candidate past the queue check.
#[test]
fn the_user_am_limit_uses_the_weight_of_the_first_app_past_the_queue_check() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.minimum-user-limit-percent=50
yarn.scheduler.capacity.root.a.maximum-am-resource-percent=0.25
yarn.scheduler.capacity.root.a.user-settings.alice.weight=2
yarn.scheduler.capacity.root.a.user-settings.bob.weight=0.5
yarn.scheduler.maximum-allocation-mb=16384
",
    );
    nodes(&mut c, 2, 20);
    c.app("a", "carol", GB);
    // bob's 10 GB AM fails the queue check (1 + 10 > 10 GB); alice's 4 GB passes, and her own
    // weight gives her a 10 GB user AM limit (bob's would have given 3 GB).
    let bob = c.app("a", "bob", 10 * GB);
    let alice = c.app("a", "alice", 4 * GB);
    assert_eq!(state(&c, bob), AttemptState::Pending);
    assert_eq!(state(&c, alice), AttemptState::Active);
}

/// Resources.min(rc, cluster, clusterFree, headroom): a tie returns the cluster's free resource.
#[test]
fn a_headroom_tie_reports_the_clusters_free_resource() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a\nyarn.scheduler.capacity.root.a.capacity=100\n",
    );
    let ns = nodes(&mut c, 1, 10);
    let app = c.unmanaged_app("a", "al");
    c.ask(app, 1, GB, 1);
    c.heartbeat(ns[0]);
    let a = c.cs.queue_tree().find("a").unwrap();
    assert_eq!(c.cs.headroom(a, "al").unwrap(), Resource::new(9 * GB, 9));
    assert_eq!(c.cs.headroom(0, "al"), None, "root is not a leaf");
}

/// killOrphanContainerOnNode: a registering NM's containers of unknown apps are killed.
#[test]
fn orphan_containers_are_handed_back_for_killing() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a\nyarn.scheduler.capacity.root.a.capacity=100\n",
    );
    let gone = c.unmanaged_app("a", "al");
    c.cs.remove_application(0, gone).unwrap();
    let mut spec = NodeSpec::new("h0", "/r", Resource::new(8 * GB, 8));
    let report = ContainerReport {
        app: gone,
        resource: Resource::new(GB, 1),
        key: SchedulerKey::new(1),
        container_id: 3,
        is_am: false,
    };
    spec.containers = vec![report.clone()];
    let n = c.cs.add_node(0, &spec).unwrap();
    c.check();
    let r = c.cs.node_update(1, n, &NodeStatus::default()).unwrap();
    assert_eq!(r.orphans, vec![report]);
    assert!(c.cs.node(n).unwrap().allocated.is_zero());
}

/// allocateContainerOnSingleNode: a served reservation does not end the heartbeat.
#[test]
fn scheduling_goes_on_after_a_reservation_is_served() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.user-limit-factor=10
yarn.scheduler.capacity.maximum-am-resource-percent=1
",
    );
    let ns = nodes(&mut c, 2, 4);
    let small = c.unmanaged_app("a", "alice");
    c.ask(small, 1, 2 * GB, 2);
    round(&mut c, &ns, 1);
    let big = c.unmanaged_app("a", "bob");
    c.ask(big, 1, 3 * GB, 1);
    c.heartbeat(ns[0]);
    assert!(c.cs.node(ns[0]).unwrap().reserved.is_some());
    let tiny = c.unmanaged_app("a", "carol");
    c.ask(tiny, 1, GB, 1);
    let on_h0 = *c
        .cs
        .application(small)
        .unwrap()
        .attempt
        .as_ref()
        .unwrap()
        .live_containers
        .iter()
        .find(|id| c.cs.container(**id).unwrap().node == ns[0])
        .unwrap();
    c.allocate(small, vec![], vec![on_h0]);
    assert_eq!(
        c.heartbeat(ns[0]),
        2,
        "the reservation (3 GB) and then carol's 1 GB"
    );
}

/// Work-preserving AM restart (keep-containers-across-application-attempts): the new attempt's
/// AM container is its AM container although the attempt already holds the kept ones (YARN's
/// RMAppAttemptImpl marks the allocation for the AM request, whatever else the attempt has).
/// Found by the soak test: the new AM container came back as a task container.
#[test]
fn a_new_attempt_keeping_containers_still_gets_its_am_container() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.maximum-am-resource-percent=1
",
    );
    let ns = nodes(&mut c, 2, 8);
    let app = c.app("a", "alice", GB);
    round(&mut c, &ns, 1);
    let r = c.ask(app, 1, GB, 2);
    assert!(r.allocated.iter().any(|a| a.is_am));
    round(&mut c, &ns, 2);
    let r = c.ask(app, 1, GB, 0);
    let tasks: Vec<_> = r.allocated.iter().filter(|a| !a.is_am).cloned().collect();
    assert_eq!(tasks.len(), 2);
    // Their NodeManagers run them (only running containers are kept).
    for t in &tasks {
        let status = NodeStatus {
            launched: vec![t.id],
            ..NodeStatus::default()
        };
        c.cs.node_update(c.now, t.node, &status).unwrap();
    }
    // The attempt ends keeping its containers; the next adopts them and asks for its AM.
    c.cs.remove_attempt(c.now, app, true).unwrap();
    let keep = AttemptSubmission {
        keep_containers: true,
        ..AttemptSubmission::with_am(Resource::new(GB, 1))
    };
    c.cs.add_attempt(c.now, app, keep).unwrap();
    c.response_ids.remove(&app);
    c.check();
    round(&mut c, &ns, 1);
    let r = c.ask(app, 1, GB, 0);
    let am: Vec<_> = r.allocated.iter().filter(|a| a.is_am).collect();
    assert_eq!(am.len(), 1, "{:?}", r.allocated);
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    assert_eq!(t.am_container, Some(am[0].id));
    assert_eq!(t.live_containers.len(), 3, "two kept and the new AM");
}

/// An AM container killed before the AM was told of it (its node lost) is asked for again
/// (ContainerRescheduledTransition), and the next allocation for it is again the AM container.
/// Found by the soak test: it came back as a task container and the job waited forever.
#[test]
fn an_am_container_lost_before_it_was_acquired_is_allocated_again_as_the_am() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.maximum-am-resource-percent=1
",
    );
    let ns = nodes(&mut c, 2, 8);
    let app = c.app("a", "alice", GB);
    c.heartbeat(ns[0]);
    let first =
        c.cs.application(app)
            .unwrap()
            .attempt
            .as_ref()
            .unwrap()
            .am_container;
    assert!(first.is_some(), "allocated on h0, not yet pulled by the AM");
    c.cs.remove_node(c.now, ns[0]).unwrap();
    c.check();
    c.heartbeat(ns[1]);
    let r = c.ask(app, 1, GB, 0);
    let am: Vec<_> = r.allocated.iter().filter(|a| a.is_am).collect();
    assert_eq!(am.len(), 1, "{:?}", r.allocated);
    assert_eq!(am[0].node, ns[1]);
}

/// Issue 36.3: an application waiting for a max-parallel-apps slot did not hold its user, so
/// when the user's other application left the user was dropped, and the waiting one, once
/// promoted (and held back by the AM limit), remembered a freed user slot ("remembers user
/// slot 1 for bob") and was charged to no listed user. A waiting application keeps its user
/// as pending and active ones do.
#[test]
fn an_app_waiting_for_a_slot_keeps_its_user() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.max-parallel-apps=2
yarn.scheduler.capacity.maximum-am-resource-percent=0.05
",
    );
    let ns = nodes(&mut c, 2, 8);
    let alice = c.app("a", "alice", GB);
    round(&mut c, &ns, 1);
    let held = c.app("a", "bob", GB);
    let waiting = c.app("a", "bob", GB);
    assert_eq!(state(&c, alice), AttemptState::Active);
    assert_eq!(
        state(&c, held),
        AttemptState::Pending,
        "alice's AM fills the AM limit"
    );
    assert_eq!(state(&c, waiting), AttemptState::NonRunnable);
    c.cs.remove_application(c.now, held).unwrap();
    c.check();
    assert_eq!(
        state(&c, waiting),
        AttemptState::Pending,
        "promoted, then held by the AM limit"
    );
    let t = c.cs.queue_tree();
    let users = &c.cs.leaf(t.find("a").unwrap()).unwrap().users;
    assert_eq!(users.get("bob").map(|u| u.pending_apps), Some(1));
    // Once alice leaves, bob's application runs, charged to bob.
    c.cs.remove_application(c.now, alice).unwrap();
    c.check();
    round(&mut c, &ns, 2);
    assert_eq!(state(&c, waiting), AttemptState::Active);
    assert!(c.user_used_mb("a", "bob") >= GB, "bob's usage is bob's");
    let json =
        capsched::report::rest::scheduler_info_string_live(c.cs.queue_tree(), &c.cs.live_queues());
    assert!(json.contains("\"username\":\"bob\""), "{json}");
}

/// Issue 36.5: a refresh that switched the resource calculator left containers the new one
/// finds over-committed (vcores past a node's, which the default calculator never counts),
/// and the invariant checker failed. YARN sets its calculator once, in `initScheduler`;
/// `reinitialize` never changes it: the running calculator stays until a restart.
#[test]
fn a_refresh_keeps_the_running_resource_calculator() {
    let base = "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.maximum-am-resource-percent=1
";
    let mut c = Cluster::new(base);
    let ns = vec![c.node("h0", "/r", 8 * GB, 2)];
    let app = c.app("a", "u", GB);
    round(&mut c, &ns, 1);
    c.allocate(
        app,
        vec![ResourceRequest::any(1, Resource::new(GB, 4), 3)],
        vec![],
    );
    round(&mut c, &ns, 3);
    let n = c.cs.node(ns[0]).unwrap();
    assert!(
        n.allocated.vcores() > n.total.vcores(),
        "the default calculator ignores vcores"
    );
    let drf = format!(
        "{base}yarn.scheduler.capacity.resource-calculator=org.apache.hadoop.yarn.util.resource.DominantResourceCalculator\n"
    );
    let conf = capsched::config::CapacitySchedulerConfiguration::from_properties_str(&drf).unwrap();
    c.cs.refresh_queues(c.now, std::sync::Arc::new(conf))
        .unwrap();
    c.check();
    assert_eq!(
        c.cs.queue_tree().settings().resource_calculator.kind(),
        capsched::resource::CalculatorKind::Default
    );
    round(&mut c, &ns, 2);
}
