//! One test per scheduler event and per rejection reason, with the invariant checker after
//! every step (the `Cluster` driver checks after each call it makes).

mod common;
use std::sync::Arc;

use capsched::config::{CapacitySchedulerConfiguration, QueueState};
use capsched::records::{
    exit_status, AllocateRequest, ContainerReport, ContainerState, NodeStatus, ResourceRequest,
};
use capsched::resource::Resource;
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;
use capsched::scheduler::SchedulerError;
use common::cluster::*;

const AB: &str = "\
yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.maximum-am-resource-percent=1
";

fn reject(c: &mut Cluster, queue: &str, user: &str) -> String {
    let r =
        c.cs.submit_application(c.now, &AppSubmission::new(queue, user));
    c.check();
    r.expect_err("expected a rejection").message
}

#[test]
fn rejections_carry_yarns_reasons() {
    let mut c = Cluster::new(&format!(
        "{AB}yarn.scheduler.capacity.maximum-applications=3
yarn.scheduler.capacity.root.b.state=STOPPED
yarn.scheduler.capacity.root.a.queues=x
yarn.scheduler.capacity.root.a.x.capacity=100
yarn.scheduler.capacity.root.a.x.maximum-applications=1
"
    ));
    c.node("h0", "/r", 8 * GB, 8);
    assert_eq!(
        reject(&mut c, "nope", "alice"),
        "Application application_1700000000000_0001 submitted by user alice to unknown queue: nope"
    );
    assert_eq!(reject(&mut c, "a", "alice"), "Application application_1700000000000_0001 submitted by user : alice to non-leaf queue : a");
    assert_eq!(
        reject(&mut c, "b", "alice"),
        "org.apache.hadoop.security.AccessControlException: Queue root.b is STOPPED. Cannot accept submission of application: application_1700000000000_0001"
    );
    c.app("x", "alice", GB);
    assert_eq!(
        reject(&mut c, "root.a.x", "alice"),
        "org.apache.hadoop.security.AccessControlException: Queue root.a.x already has 1 applications, cannot accept submission of application: application_1700000000000_0002"
    );
}

#[test]
fn an_empty_user_is_refused_before_any_queue_check() {
    // UserGroupInformation.createRemoteUser("") throws IllegalArgumentException("Null user")
    // while the RM builds the submitter's UGI, before the scheduler hears of the application;
    // so even an unknown queue or a full cluster gives this message, and no number is used up.
    let mut c = Cluster::new(&format!(
        "{AB}yarn.scheduler.capacity.maximum-applications=2\n"
    ));
    c.node("h0", "/r", 8 * GB, 8);
    assert_eq!(reject(&mut c, "a", ""), "Null user");
    assert_eq!(reject(&mut c, "nope", ""), "Null user");
    assert_eq!(c.cs.num_applications_total(), 0);
    c.app("a", "alice", GB);
    c.app("b", "bob", GB);
    let mut numbers: Vec<String> =
        c.cs.applications()
            .map(|(_, a)| a.application_id.to_string())
            .collect();
    numbers.sort();
    assert_eq!(
        numbers,
        [
            "application_1700000000000_0001",
            "application_1700000000000_0002"
        ],
        "the refusals used no application number"
    );
    assert!(reject(&mut c, "a", "carol").starts_with("Maximum system application limit"));
    assert_eq!(reject(&mut c, "a", ""), "Null user");
    // A name of spaces is a name to UserGroupInformation.
    assert!(reject(&mut c, "nope", " ").starts_with("Maximum system application limit"));
}

#[test]
fn system_and_user_application_limits() {
    let mut c = Cluster::new(&format!(
        "{AB}yarn.scheduler.capacity.maximum-applications=2
yarn.scheduler.capacity.root.a.maximum-applications=10
yarn.scheduler.capacity.root.a.minimum-user-limit-percent=10
"
    ));
    c.node("h0", "/r", 8 * GB, 8);
    c.app("a", "alice", GB);
    // Per user: (int)(10 × 10/100 × 1) = 1.
    assert_eq!(
        reject(&mut c, "a", "alice"),
        "org.apache.hadoop.security.AccessControlException: Queue root.a already has 1 applications from user alice cannot accept submission of application: application_1700000000000_0002"
    );
    c.app("a", "bob", GB);
    assert_eq!(
        reject(&mut c, "b", "carol"),
        "Maximum system application limit reached,cannot accept submission of application: application_1700000000000_0003"
    );
}

#[test]
fn ambiguous_short_names_and_acls() {
    let mut c = Cluster::new(
        "yarn.acl.enable=true
yarn.scheduler.capacity.root.acl_submit_applications= \n\
yarn.scheduler.capacity.root.acl_administer_queue= \n\
yarn.scheduler.capacity.root.queues=p,q
yarn.scheduler.capacity.root.p.capacity=50
yarn.scheduler.capacity.root.q.capacity=50
yarn.scheduler.capacity.root.p.queues=x
yarn.scheduler.capacity.root.q.queues=x
yarn.scheduler.capacity.root.p.x.capacity=100
yarn.scheduler.capacity.root.q.x.capacity=100
yarn.scheduler.capacity.root.p.acl_submit_applications=bob ops
",
    );
    c.node("h0", "/r", 8 * GB, 8);
    assert_eq!(
        reject(&mut c, "x", "bob"),
        "Application application_1700000000000_0001 submitted by user bob to ambiguous queue: x please use full queue path instead."
    );
    assert_eq!(
        reject(&mut c, "root.q.x", "bob"),
        "User bob does not have permission to submit application_1700000000000_0001 to queue root.q.x"
    );
    // Allowed by the parent's ACL, by name or by group.
    c.app("root.p.x", "bob", GB);
    let mut sub = AppSubmission::new("root.p.x", "carol");
    sub.groups = vec!["ops".into()];
    c.cs.submit_application(c.now, &sub).unwrap();
    c.check();
}

#[test]
fn node_removal_kills_its_containers_as_lost() {
    let mut c = Cluster::new(AB);
    let n0 = c.node("h0", "/r", 8 * GB, 8);
    let n1 = c.node("h1", "/r", 8 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.heartbeat(n0);
    c.ask(app, 1, GB, 2);
    c.heartbeat(n1);
    c.heartbeat(n1);
    // The AM container was handed out by the `ask` call; the two tasks come now.
    let r = c.allocate(app, vec![], vec![]);
    assert_eq!(r.allocated.len(), 2);
    c.cs.remove_node(c.now, n1).unwrap();
    c.check();
    let r = c.allocate(app, vec![], vec![]);
    assert_eq!(r.completed.len(), 2);
    assert!(r
        .completed
        .iter()
        .all(|s| s.exit_status == exit_status::ABORTED
            && s.diagnostics == "Container released on a *lost* node"));
    assert_eq!(c.queue_used_mb("a"), GB);
    assert_eq!(c.cs.cluster_resource().memory_mb(), 8 * GB);
    assert_eq!(r.num_cluster_nodes, 1);
}

#[test]
fn a_container_killed_before_acquisition_puts_its_asks_back() {
    // ContainerRescheduledTransition: a container the AM never pulled, killed with its node,
    // comes back as the very entries it satisfied — host, rack and ANY, with their flags.
    let mut c = Cluster::new(AB);
    let n0 = c.node("h0", "/r0", 8 * GB, 8);
    c.node("h1", "/r1", 8 * GB, 8);
    let app = c.unmanaged_app("a", "alice");
    let one = Resource::new(GB, 1);
    let mut rack = ResourceRequest::at(1, "/r0", one, 1);
    rack.relax_locality = false;
    c.allocate(
        app,
        vec![
            ResourceRequest::at(1, "h0", one, 1),
            rack,
            ResourceRequest::any(1, one, 1),
        ],
        vec![],
    );
    assert_eq!(c.heartbeat(n0), 1);
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    let fresh = *t.newly_allocated.last().unwrap();
    assert_eq!(
        c.cs.container(fresh).unwrap().state,
        ContainerState::Allocated
    );
    c.cs.remove_node(c.now, n0).unwrap();
    c.check();
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    assert_eq!(t.requests.pending().memory_mb(), GB, "the ask is restored");
    let k = t
        .requests
        .get(&capsched::records::SchedulerKey::new(1))
        .unwrap();
    assert_eq!(k.unique_locations(), 3, "host, rack and ANY all come back");
}

#[test]
fn expired_containers_do_not_put_their_ask_back() {
    // EXPIRE is a plain finish in RMContainerImpl: nothing is rescheduled.
    let mut c = Cluster::new(AB);
    let n0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.unmanaged_app("a", "alice");
    c.ask(app, 1, GB, 1);
    c.heartbeat(n0);
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    let fresh = *t.newly_allocated.last().unwrap();
    c.cs.container_expired(c.now, fresh).unwrap();
    c.check();
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    assert!(t.requests.pending().is_zero());
    let r = c.allocate(app, vec![], vec![]);
    assert_eq!(
        r.completed[0].diagnostics,
        "Container expired since it was unused"
    );
    // A launched container ignores expiry.
    c.ask(app, 1, GB, 1);
    c.heartbeat(n0);
    let r = c.allocate(app, vec![], vec![]);
    let running = r.allocated[0].id;
    c.now += 1;
    c.cs.node_update(
        c.now,
        n0,
        &NodeStatus {
            launched: vec![running],
            completed: vec![],
            ..Default::default()
        },
    )
    .unwrap();
    c.cs.container_expired(c.now, running).unwrap();
    c.check();
    assert_eq!(
        c.cs.container(running).unwrap().state,
        ContainerState::Running
    );
}

#[test]
fn attempt_removal_kills_or_keeps_containers() {
    let mut c = Cluster::new(AB);
    let n0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.heartbeat(n0);
    c.ask(app, 1, GB, 2);
    c.heartbeat(n0);
    c.heartbeat(n0);
    let r = c.allocate(app, vec![], vec![]);
    let ids: Vec<_> = r.allocated.iter().map(|a| a.id).collect();
    c.now += 1;
    // Only one task container is launched.
    let task = *ids
        .iter()
        .find(|id| !c.cs.container(**id).unwrap().is_am)
        .unwrap();
    c.cs.node_update(
        c.now,
        n0,
        &NodeStatus {
            launched: vec![task],
            completed: vec![],
            ..Default::default()
        },
    )
    .unwrap();
    c.check();
    c.cs.remove_attempt(c.now, app, true).unwrap();
    c.check();
    assert_eq!(
        c.queue_used_mb("a"),
        GB,
        "the running container is kept across attempts"
    );
    let r = c.cs.node_update(c.now, n0, &NodeStatus::default()).unwrap();
    assert_eq!(
        r.to_kill.len(),
        2,
        "the acquired but never launched ones (AM and one task) are killed on the node"
    );
    let am = Resource::new(GB, 1);
    c.cs.add_attempt(
        c.now,
        app,
        AttemptSubmission {
            am_resource: am,
            unmanaged: false,
            keep_containers: true,
            recovering: false,
        },
    )
    .unwrap();
    c.check();
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    assert!(
        t.live_containers.contains(&task),
        "the new attempt adopts it"
    );
    assert_eq!(t.attempt_id, 2);
    c.cs.remove_attempt(c.now, app, false).unwrap();
    c.cs.remove_application(c.now, app).unwrap();
    c.check();
    assert_eq!(c.queue_used_mb("a"), 0);
}

#[test]
fn allocate_validates_like_the_application_master_service() {
    let mut c = Cluster::new(AB);
    let n0 = c.node("h0", "/r", 16 * GB, 16);
    let app = c.app("a", "alice", GB);
    let other = c.app("b", "bob", GB);
    c.heartbeat(n0);
    c.heartbeat(n0);
    let theirs = c.allocate(other, vec![], vec![]).allocated[0].id;
    let call = |c: &mut Cluster, req: AllocateRequest| c.cs.allocate(c.now, app, &req);
    let big = AllocateRequest {
        asks: vec![ResourceRequest::any(1, Resource::new(9 * GB, 1), 1)],
        ..Default::default()
    };
    match call(&mut c, big) {
        Err(SchedulerError::InvalidResourceRequest(m)) => assert!(
            m.starts_with("Invalid resource request! Cannot allocate containers as requested resource is greater than maximum allowed allocation. Requested resource type=[memory-mb], Requested resource=<memory:9216, vCores:1>, maximum allowed allocation=<memory:8192, vCores:4>"),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }
    let negative = AllocateRequest {
        asks: vec![ResourceRequest::any(1, Resource::new(-1, 1), 1)],
        ..Default::default()
    };
    match call(&mut c, negative) {
        Err(SchedulerError::InvalidResourceRequest(m)) => assert!(
            m.contains("requested resource is less than 0! Requested resource type=[memory-mb]"),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }
    let star = AllocateRequest {
        blacklist_additions: vec!["*".into()],
        ..Default::default()
    };
    assert_eq!(
        call(&mut c, star),
        Err(SchedulerError::InvalidBlacklist(
            "Cannot add * to the blacklist!".into()
        ))
    );
    let steal = AllocateRequest {
        releases: vec![theirs],
        ..Default::default()
    };
    assert!(matches!(
        call(&mut c, steal),
        Err(SchedulerError::InvalidContainerRelease(_))
    ));
    c.check();
    // Nothing was applied by the failed calls; the response id rules hold.
    let ok = call(&mut c, AllocateRequest::default()).unwrap();
    assert_eq!(ok.response_id, 1);
    let again = call(&mut c, AllocateRequest::default()).unwrap();
    assert_eq!(again, ok, "a repeated request gets the last response again");
    let stale = AllocateRequest {
        response_id: 7,
        ..Default::default()
    };
    // ApplicationMasterService's text, which AMRMClient parses for the id to resync with.
    match call(&mut c, stale) {
        Err(SchedulerError::InvalidResponseId(m)) => {
            assert!(
                m.starts_with(
                    "Invalid responseId in AllocateRequest from application attempt: appattempt_"
                ) && m.ends_with("_000001 expect responseId to be 1 but get 7"),
                "{m}"
            )
        }
        other => panic!("{other:?}"),
    }
    // Asks are normalised up to the minimum allocation's multiple.
    let odd = AllocateRequest {
        response_id: 1,
        asks: vec![ResourceRequest::any(1, Resource::new(1500, 1), 1)],
        ..Default::default()
    };
    call(&mut c, odd).unwrap();
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    assert_eq!(t.requests.pending(), Resource::new(2048, 1));
}

#[test]
fn blacklisted_nodes_are_skipped() {
    let mut c = Cluster::new(AB);
    let n0 = c.node("h0", "/r0", 8 * GB, 8);
    let n1 = c.node("h1", "/r1", 8 * GB, 8);
    let app = c.unmanaged_app("a", "alice");
    let req = AllocateRequest {
        asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), 1)],
        blacklist_additions: vec!["h0".into()],
        ..Default::default()
    };
    c.cs.allocate(c.now, app, &req).unwrap();
    c.check();
    assert_eq!(c.heartbeat(n0), 0);
    assert_eq!(c.heartbeat(n1), 1);
}

const ONE_QUEUE: &str = "\
yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.user-limit-factor=10
yarn.scheduler.capacity.maximum-am-resource-percent=1
";

/// Two 4 GB nodes, each half used by alice, and bob asking for 3 GB: the queue has room
/// (4 GB) but no node does, so the node bob is offered gets reserved.
fn half_full() -> (
    Cluster,
    capsched::ids::NodeId,
    capsched::ids::NodeId,
    capsched::ids::AppId,
    capsched::ids::AppId,
) {
    let mut c = Cluster::new(ONE_QUEUE);
    let n0 = c.node("h0", "/r", 4 * GB, 4);
    let n1 = c.node("h1", "/r", 4 * GB, 4);
    let small = c.unmanaged_app("a", "alice");
    c.ask(small, 1, 2 * GB, 2);
    c.heartbeat(n0);
    c.heartbeat(n1);
    let big = c.unmanaged_app("a", "bob");
    c.ask(big, 1, 3 * GB, 1);
    assert_eq!(c.heartbeat(n0), 0);
    (c, n0, n1, small, big)
}

#[test]
fn reservations_are_made_and_fulfilled_with_the_same_container() {
    let (mut c, n0, n1, small, _big) = half_full();
    let reserved =
        c.cs.node(n0)
            .unwrap()
            .reserved
            .expect("h0 is reserved for the 3 GB ask");
    assert_eq!(
        c.cs.container(reserved).unwrap().state,
        ContainerState::Reserved
    );
    assert_eq!(c.queue_used_mb("a"), 7 * GB, "reservations count as used");
    assert_eq!(c.cs.queue_reserved(0).memory_mb(), 3 * GB);
    assert_eq!(
        c.cs.node(n0).unwrap().allocated.memory_mb(),
        2 * GB,
        "but not on the node"
    );
    // One per node: h1 is not reserved too (bob's one container is covered).
    assert_eq!(c.heartbeat(n1), 0);
    assert!(c.cs.node(n1).unwrap().reserved.is_none());
    // alice's container on h0 finishes; the next heartbeat fulfils the reservation, same id.
    let on_h0 = *c
        .cs
        .application(small)
        .unwrap()
        .attempt
        .as_ref()
        .unwrap()
        .live_containers
        .iter()
        .find(|id| c.cs.container(**id).unwrap().node == n0)
        .unwrap();
    c.allocate(small, vec![], vec![on_h0]);
    assert_eq!(c.heartbeat(n0), 1);
    assert_eq!(
        c.cs.container(reserved).unwrap().state,
        ContainerState::Allocated
    );
    assert!(c.cs.node(n0).unwrap().reserved.is_none());
    assert_eq!(c.queue_used_mb("a"), 5 * GB);
    assert_eq!(c.cs.queue_reserved(0).memory_mb(), 0);
}

#[test]
fn continue_looking_swaps_a_reservation_for_an_allocation_elsewhere() {
    let (mut c, n0, _n1, _small, _big) = half_full();
    assert!(c.cs.node(n0).unwrap().reserved.is_some());
    let n2 = c.node("h2", "/r", 4 * GB, 4);
    assert_eq!(c.heartbeat(n2), 1);
    assert!(
        c.cs.node(n0).unwrap().reserved.is_none(),
        "the reservation on h0 was released"
    );
    assert_eq!(c.queue_used_mb("a"), 7 * GB);
}

#[test]
fn a_reservation_no_longer_needed_is_released() {
    let (mut c, n0, _n1, _small, big) = half_full();
    assert!(c.cs.node(n0).unwrap().reserved.is_some());
    c.ask(big, 1, 3 * GB, 0);
    c.heartbeat(n0);
    assert!(c.cs.node(n0).unwrap().reserved.is_none());
    assert_eq!(c.queue_used_mb("a"), 4 * GB);
}

#[test]
fn maximum_capacity_is_a_hard_cap_and_guarantee_is_not() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=20
yarn.scheduler.capacity.root.a.maximum-capacity=40
yarn.scheduler.capacity.root.a.user-limit-factor=10
yarn.scheduler.capacity.root.b.capacity=80
",
    );
    let n: Vec<_> = (0..10)
        .map(|i| c.node(&format!("h{i}"), "/r", 10 * GB, 10))
        .collect();
    let app = c.unmanaged_app("a", "alice");
    c.ask(app, 1, GB, 100);
    for _ in 0..10 {
        for &node in &n {
            c.heartbeat(node);
        }
    }
    assert_eq!(
        c.queue_used_mb("a"),
        40 * GB,
        "a borrows idle capacity up to its 40% maximum, no further"
    );
}

#[test]
fn moving_an_application_moves_its_usage() {
    let mut c = Cluster::new(&format!(
        "{AB}yarn.scheduler.capacity.root.b.maximum-applications=5\n"
    ));
    let n0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.heartbeat(n0);
    c.ask(app, 1, GB, 2);
    c.heartbeat(n0);
    c.cs.move_application(c.now, app, "b").unwrap();
    c.check();
    assert_eq!((c.queue_used_mb("a"), c.queue_used_mb("b")), (0, 2 * GB));
    c.heartbeat(n0);
    assert_eq!(
        c.queue_used_mb("b"),
        3 * GB,
        "its remaining ask is served in the new queue"
    );
    assert!(matches!(
        c.cs.move_application(c.now, app, "root"),
        Err(SchedulerError::Refused(_))
    ));
    assert!(matches!(
        c.cs.move_application(c.now, app, "nope"),
        Err(SchedulerError::Refused(_))
    ));
    c.check();
}

#[test]
fn priority_changes_reorder_the_leaf() {
    let mut c = Cluster::new(&format!("{AB}yarn.cluster.max-application-priority=10\n"));
    let n0 = c.node("h0", "/r", 4 * GB, 4);
    let first = c.unmanaged_app("a", "alice");
    let second = c.unmanaged_app("a", "alice");
    c.ask(first, 1, GB, 1);
    c.ask(second, 1, GB, 1);
    assert_eq!(
        c.cs.update_application_priority(second, 50).unwrap(),
        10,
        "clamped to the cluster maximum"
    );
    c.check();
    c.heartbeat(n0);
    assert_eq!(
        c.cs.application(second)
            .unwrap()
            .attempt
            .as_ref()
            .unwrap()
            .used
            .memory_mb(),
        GB
    );
    assert_eq!(
        c.cs.application(first)
            .unwrap()
            .attempt
            .as_ref()
            .unwrap()
            .used
            .memory_mb(),
        0
    );
}

fn conf(text: &str) -> Arc<CapacitySchedulerConfiguration> {
    Arc::new(CapacitySchedulerConfiguration::from_properties_str(text).unwrap())
}

#[test]
fn refresh_adds_queues_changes_capacities_and_drains_stopped_queues() {
    let mut c = Cluster::new(AB);
    let n0 = c.node("h0", "/r", 10 * GB, 10);
    let app = c.app("a", "alice", GB);
    c.heartbeat(n0);
    // Stop a (it has an application: it drains), grow b, add c.
    c.cs.refresh_queues(
        c.now,
        conf(
            "yarn.scheduler.capacity.root.queues=a,b,c
yarn.scheduler.capacity.root.a.capacity=20
yarn.scheduler.capacity.root.a.state=STOPPED
yarn.scheduler.capacity.root.b.capacity=60
yarn.scheduler.capacity.root.c.capacity=20
yarn.scheduler.capacity.maximum-am-resource-percent=1
",
        ),
    )
    .unwrap();
    c.check();
    let t = c.cs.queue_tree();
    let a = t.find("a").unwrap();
    assert_eq!(t.queue(a).state, QueueState::Draining);
    assert_eq!(
        t.queue(t.find("b").unwrap()).capacities.absolute_capacity,
        0.6
    );
    assert_eq!(c.queue_used_mb("a"), GB, "usage survives the refresh");
    assert!(reject(&mut c, "a", "bob").contains("Queue root.a is STOPPED"));
    c.app("c", "bob", GB);
    c.cs.remove_attempt(c.now, app, false).unwrap();
    c.cs.remove_application(c.now, app).unwrap();
    c.check();
    let t = c.cs.queue_tree();
    assert_eq!(
        t.queue(t.find("a").unwrap()).state,
        QueueState::Stopped,
        "drained"
    );
    // Now a may go.
    c.cs.refresh_queues(
        c.now,
        conf(
            "yarn.scheduler.capacity.root.queues=b,c
yarn.scheduler.capacity.root.b.capacity=80
yarn.scheduler.capacity.root.c.capacity=20
",
        ),
    )
    .unwrap();
    c.check();
    assert!(c.cs.queue_tree().find("a").is_err());
}

#[test]
fn refused_refreshes_leave_the_running_configuration_in_force() {
    let mut c = Cluster::new(AB);
    let n0 = c.node("h0", "/r", 10 * GB, 10);
    c.app("a", "alice", GB);
    c.heartbeat(n0);
    let before = c.cs.configuration().clone();
    let err = c
        .cs
        .refresh_queues(c.now, conf("yarn.scheduler.capacity.root.queues=b\nyarn.scheduler.capacity.root.b.capacity=100\n"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "root.a cannot be deleted from the capacity scheduler configuration, as the queue is not yet in stopped state. Current State : RUNNING"
    );
    let shrink = conf(&format!(
        "{AB}yarn.scheduler.capacity.root.a.maximum-allocation-mb=4096\n"
    ));
    let err = c.cs.refresh_queues(c.now, shrink).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "Trying to reinitialize root.a the maximum allocation size can not be decreased!"
        ),
        "{err}"
    );
    let to_parent = conf(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.a.queues=x
yarn.scheduler.capacity.root.a.x.capacity=100
",
    );
    let err = c.cs.refresh_queues(c.now, to_parent).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("Can not convert the leaf queue: root.a to parent queue"),
        "{err}"
    );
    assert!(Arc::ptr_eq(c.cs.configuration(), &before));
    c.check();
    assert_eq!(c.queue_used_mb("a"), GB);
}

#[test]
fn recovery_from_node_reports_rebuilds_the_same_state() {
    let mut c = Cluster::new(AB);
    let hosts = ["h0", "h1", "h2"];
    let nodes: Vec<_> = hosts.iter().map(|h| c.node(h, "/r", 8 * GB, 8)).collect();
    let apps = [c.app("a", "alice", GB), c.app("b", "bob", 2 * GB)];
    for &n in &nodes {
        c.heartbeat(n);
    }
    c.ask(apps[0], 1, GB, 4);
    c.ask(apps[1], 2, 3 * GB, 2);
    for _ in 0..4 {
        for &n in &nodes {
            c.heartbeat(n);
        }
    }
    // Everything allocated is launched.
    for &app in &apps {
        c.allocate(app, vec![], vec![]);
    }
    let mut reports: Vec<Vec<ContainerReport>> = vec![Vec::new(); nodes.len()];
    for (_, ct) in c.cs.containers() {
        let i = nodes.iter().position(|n| *n == ct.node).unwrap();
        reports[i].push(ContainerReport {
            app: ct.app,
            resource: ct.resource,
            key: ct.key,
            container_id: ct.yarn_id.container_id,
            is_am: ct.is_am,
        });
    }
    // A restarted RM: same configuration, applications re-submitted in the same order.
    let mut r = Cluster::new(AB);
    for (app, q, user) in [(apps[0], "a", "alice"), (apps[1], "b", "bob")] {
        let id =
            r.cs.submit_application(0, &AppSubmission::new(q, user))
                .unwrap();
        assert_eq!(id, app);
        let am =
            c.cs.application(app)
                .unwrap()
                .attempt
                .as_ref()
                .unwrap()
                .am_resource;
        r.cs.add_attempt(0, id, AttemptSubmission::with_am(am))
            .unwrap();
    }
    for (i, h) in hosts.iter().enumerate() {
        let mut spec = NodeSpec::new(h, "/r", Resource::new(8 * GB, 8));
        spec.containers = reports[i].clone();
        r.cs.add_node(0, &spec).unwrap();
        r.check();
    }
    for q in ["a", "b"] {
        assert_eq!(r.queue_used_mb(q), c.queue_used_mb(q), "queue {q}");
    }
    assert_eq!(r.user_used_mb("a", "alice"), c.user_used_mb("a", "alice"));
    for &app in &apps {
        let (x, y) = (
            c.cs.application(app).unwrap(),
            r.cs.application(app).unwrap(),
        );
        assert_eq!(
            x.attempt.as_ref().unwrap().used,
            y.attempt.as_ref().unwrap().used
        );
        assert_eq!(
            x.attempt.as_ref().unwrap().live_containers.len(),
            y.attempt.as_ref().unwrap().live_containers.len()
        );
    }
    for h in hosts {
        let (x, y) = (
            c.cs.node(c.cs.node_id(h).unwrap()).unwrap(),
            r.cs.node(r.cs.node_id(h).unwrap()).unwrap(),
        );
        assert_eq!(x.allocated, y.allocated, "node {h}");
    }
}

#[test]
fn per_heartbeat_limits_bound_assignments() {
    // Node-local containers keep coming in one heartbeat up to maximum-container-assignments.
    let mut c = Cluster::new(&format!(
        "{AB}yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments=5\n\
         yarn.scheduler.capacity.root.a.user-limit-factor=10\n"
    ));
    let n0 = c.node("h0", "/r0", 32 * GB, 32);
    let app = c.unmanaged_app("a", "alice");
    let one = Resource::new(GB, 1);
    c.allocate(
        app,
        vec![
            ResourceRequest::at(1, "h0", one, 20),
            ResourceRequest::at(1, "/r0", one, 20),
            ResourceRequest::any(1, one, 20),
        ],
        vec![],
    );
    assert_eq!(c.heartbeat(n0), 5);
    // Off-switch: the loop ends after maximum-offswitch-assignments (default 1).
    let other = c.unmanaged_app("b", "bob");
    c.ask(other, 1, GB, 10);
    let before = c.queue_used_mb("b");
    c.heartbeat(n0);
    assert!(c.queue_used_mb("b") - before <= GB);
}

#[test]
fn fair_ordering_serves_the_app_with_less_usage_first() {
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.ordering-policy=fair
yarn.scheduler.capacity.maximum-am-resource-percent=1
",
    );
    let n0 = c.node("h0", "/r", 16 * GB, 16);
    let first = c.unmanaged_app("a", "alice");
    c.ask(first, 1, GB, 4);
    c.heartbeat(n0);
    c.heartbeat(n0);
    let second = c.unmanaged_app("a", "alice");
    c.ask(second, 1, GB, 4);
    // FIFO would keep serving `first`; fair serves `second` (0 used) until it catches up.
    c.heartbeat(n0);
    c.heartbeat(n0);
    let used = |c: &Cluster, app| {
        c.cs.application(app)
            .unwrap()
            .attempt
            .as_ref()
            .unwrap()
            .used
            .memory_mb()
    };
    assert_eq!((used(&c, first), used(&c, second)), (2 * GB, 2 * GB));
    c.heartbeat(n0);
    assert_eq!(
        used(&c, first),
        3 * GB,
        "tie on usage: the earlier submission goes first"
    );
}

#[test]
fn acquired_containers_expire_after_the_interval_unless_launched() {
    let mut c = Cluster::new(&format!(
        "{AB}yarn.resourcemanager.rm.container-allocation.expiry-interval-ms=1000\n"
    ));
    let n0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.unmanaged_app("a", "alice");
    c.ask(app, 1, GB, 2);
    c.heartbeat(n0);
    c.heartbeat(n0);
    let got = c.allocate(app, vec![], vec![]).allocated;
    assert_eq!(got.len(), 2);
    c.now += 1;
    c.cs.node_update(
        c.now,
        n0,
        &NodeStatus {
            launched: vec![got[0].id],
            completed: vec![],
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        c.cs.expire_containers(c.now + 500).is_empty(),
        "not yet due"
    );
    let expired = c.cs.expire_containers(c.now + 1000);
    c.check();
    assert_eq!(expired, vec![got[1].id], "only the unlaunched one expires");
    let r = c.allocate(app, vec![], vec![]);
    assert_eq!(r.completed.len(), 1);
    assert_eq!(
        r.completed[0].diagnostics,
        "Container expired since it was unused"
    );
    assert_eq!(c.queue_used_mb("a"), GB);
}

#[test]
fn a_reused_heartbeat_response_answers_as_a_fresh_one() {
    // A host that keeps one response for all its heartbeats (`node_update_into`) reads what
    // `node_update` returns each time: every field replaced, nothing left from the heartbeat
    // before (the containers allocated, those to kill).
    let (mut fresh, mut reused) = (Cluster::new(AB), Cluster::new(AB));
    let mut response = capsched::records::NodeUpdateResponse::default();
    let mut steps = Vec::new();
    for c in [&mut fresh, &mut reused] {
        let n = c.node("h0", "/r", 8 * GB, 8);
        let app = c.unmanaged_app("a", "alice");
        c.ask(app, 1, GB, 3);
        steps.push((n, app));
    }
    let (n, app) = steps[0];
    let mut heartbeat = |fresh: &mut Cluster, reused: &mut Cluster, what: &str| {
        fresh.now += 1;
        reused.now += 1;
        let expected = fresh
            .cs
            .node_update(fresh.now, n, &NodeStatus::default())
            .unwrap();
        reused
            .cs
            .node_update_into(reused.now, n, &NodeStatus::default(), &mut response)
            .unwrap();
        fresh.check();
        reused.check();
        assert_eq!(response, expected, "{what}");
        expected
    };
    // (One off-switch container per heartbeat.)
    for _ in 0..3 {
        let r = heartbeat(&mut fresh, &mut reused, "a container allocated");
        assert_eq!(r.allocated_containers.len(), 1);
    }
    // The AM takes them, then releases one: the NM is told to kill it at the next heartbeat.
    let taken = fresh.allocate(app, vec![], vec![]);
    reused.allocate(app, vec![], vec![]);
    let victim = taken.allocated[0].id;
    fresh.allocate(app, vec![], vec![victim]);
    reused.allocate(app, vec![], vec![victim]);
    let second = heartbeat(&mut fresh, &mut reused, "one container to kill");
    assert_eq!((second.to_kill, second.allocated), (vec![victim], 0));
    assert!(second.allocated_containers.is_empty());
    let third = heartbeat(&mut fresh, &mut reused, "nothing");
    assert_eq!(third, Default::default());
    // An unknown node fails the call and leaves the response as it was.
    reused.cs.remove_node(reused.now, n).unwrap();
    response.allocated = 7;
    let before = response.clone();
    let err = reused
        .cs
        .node_update_into(reused.now, n, &NodeStatus::default(), &mut response);
    assert!(err.is_err());
    assert_eq!(response, before);
}
