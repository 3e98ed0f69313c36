//! Opportunistic containers against the core (spec part O): central allocation, locality,
//! blacklist and per-heartbeat cap, the disabled path, completion, the queue limit, the
//! least-loaded list, promotion and demotion with YARN's validation, and a seeded random mix —
//! with the invariant checker after every step that changes state.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use capsched::ids::{AppId, ContainerId, NodeId, YarnContainerId};
use capsched::opportunistic::node_queue::NodeQueueReport;
use capsched::records::ContainerQueuingLimit;
use capsched::records::{
    exit_status, AllocateRequest, AllocateResponse, AllocatedContainer, CompletedContainer,
    ContainerState, ContainerUpdateType, ExecutionType, NodeStatus, NodeType, NodeUpdateResponse,
    ResourceRequest, UpdateContainerRequest,
};
use capsched::resource::Resource;
use capsched::scheduler::apps::update::{
    INCORRECT_CONTAINER_VERSION_ERROR, INVALID_CONTAINER_ID, RESOURCE_OUTSIDE_ALLOWED_RANGE,
    UPDATE_OUTSTANDING_ERROR,
};
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;
use capsched::scheduler::CapacityScheduler;
use common::cluster::*;
use common::rng::SplitMix;

const ENABLED: &str = "yarn.resourcemanager.opportunistic-container-allocation.enabled=true\n";

/// One leaf with the whole cluster, so user limits never get in the way.
const ONE_QUEUE: &str = "\
yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.maximum-am-resource-percent=1
";

fn enabled(extra: &str) -> Cluster {
    Cluster::new(&format!("{ONE_QUEUE}{ENABLED}{extra}"))
}

/// An NM's `OpportunisticContainersStatus`: `len` queued, capacity `cap`.
fn queue_report(len: i32, cap: i32) -> NodeQueueReport {
    NodeQueueReport {
        queued_opportunistic: len,
        wait_queue_length: len,
        queue_capacity: cap,
        ..Default::default()
    }
}

/// A node heartbeat at the cluster's current time, invariants checked.
fn node_update(c: &mut Cluster, node: NodeId, status: NodeStatus) -> NodeUpdateResponse {
    let r = c.cs.node_update(c.now, node, &status).unwrap();
    c.check();
    r
}

/// A heartbeat that reports only the node's queue.
fn report(c: &mut Cluster, node: NodeId, len: i32, cap: i32) -> NodeUpdateResponse {
    node_update(
        c,
        node,
        NodeStatus {
            opportunistic: Some(queue_report(len, cap)),
            ..Default::default()
        },
    )
}

/// A heartbeat reporting `done` finished with `exit`.
fn finish(c: &mut Cluster, node: NodeId, done: &[ContainerId], exit: i32) -> NodeUpdateResponse {
    node_update(
        c,
        node,
        NodeStatus {
            completed: done
                .iter()
                .map(|&id| CompletedContainer {
                    id,
                    exit_status: exit,
                    diagnostics: format!("exit {exit}"),
                })
                .collect(),
            ..Default::default()
        },
    )
}

/// An allocate call with the right response id, invariants checked.
fn call(c: &mut Cluster, app: AppId, mut req: AllocateRequest) -> AllocateResponse {
    req.response_id = *c.response_ids.get(&app).unwrap_or(&0);
    let r = c.cs.allocate(c.now, app, &req).unwrap();
    c.response_ids.insert(app, r.response_id);
    c.check();
    r
}

fn asks(c: &mut Cluster, app: AppId, asks: Vec<ResourceRequest>) -> AllocateResponse {
    call(
        c,
        app,
        AllocateRequest {
            asks,
            ..Default::default()
        },
    )
}

fn updates(c: &mut Cluster, app: AppId, reqs: Vec<UpdateContainerRequest>) -> AllocateResponse {
    call(
        c,
        app,
        AllocateRequest {
            update_requests: reqs,
            ..Default::default()
        },
    )
}

fn pull(c: &mut Cluster, app: AppId) -> AllocateResponse {
    call(c, app, AllocateRequest::default())
}

fn opportunistic(mut r: ResourceRequest) -> ResourceRequest {
    r.execution_type = ExecutionType::Opportunistic;
    r
}

fn opp_any(priority: i32, mb: i64, n: i32) -> ResourceRequest {
    opportunistic(ResourceRequest::any(priority, Resource::new(mb, 1), n))
}

fn opp_at(priority: i32, name: &str, mb: i64, n: i32) -> ResourceRequest {
    opportunistic(ResourceRequest::at(priority, name, Resource::new(mb, 1), n))
}

fn ids(v: &[AllocatedContainer]) -> Vec<ContainerId> {
    v.iter().map(|a| a.id).collect()
}

fn root_used_mb(c: &Cluster) -> i64 {
    c.cs.queue_tree().root().used.memory_mb()
}

fn pending_mb(c: &Cluster, queue: &str) -> i64 {
    let t = c.cs.queue_tree();
    c.cs.queue_pending(t.find(queue).unwrap()).memory_mb()
}

fn opp_on(c: &Cluster, node: NodeId) -> usize {
    c.cs.node(node).unwrap().opportunistic().len()
}

fn version_of(c: &Cluster, id: ContainerId) -> i32 {
    c.cs.container(id).unwrap().version
}

/// Three 8 GB nodes (h0 on /r0, h1 and h2 on /r1), an app in `a` whose 1 GB AM runs on h0,
/// and every node reporting an empty queue of `cap`; the clock then moves past one sorting
/// interval so the next event re-sorts with all three nodes known.
fn three_nodes(extra: &str, cap: i32) -> (Cluster, [NodeId; 3], AppId, AllocatedContainer) {
    let mut c = enabled(extra);
    let n = [
        c.node("h0", "/r0", 8 * GB, 8),
        c.node("h1", "/r1", 8 * GB, 8),
        c.node("h2", "/r1", 8 * GB, 8),
    ];
    let app = c.app("a", "alice", GB);
    for (i, &node) in n.iter().enumerate() {
        c.now = 1 + i as i64;
        report(&mut c, node, 0, cap);
    }
    let r = pull(&mut c, app);
    assert_eq!(r.allocated.len(), 1);
    let am = r.allocated[0].clone();
    assert!(am.is_am);
    assert_eq!(am.node, n[0]);
    c.now = 1001;
    (c, n, app, am)
}

/// A queue refresh rebuilds the queues' usage from the containers themselves: opportunistic
/// ones, charged to no queue, must stay out of it (found by the soak test).
#[test]
fn a_refresh_leaves_opportunistic_containers_uncharged() {
    let (mut c, _, app, _) = three_nodes("", 2);
    let r = asks(&mut c, app, vec![opp_any(1, 1000, 3)]);
    assert_eq!(r.allocated.len(), 3);
    let before = c.queue_used_mb("a");
    let conf = capsched::config::CapacitySchedulerConfiguration::from_properties_str(&format!(
        "{ONE_QUEUE}{ENABLED}yarn.scheduler.capacity.root.a.user-limit-factor=2\n"
    ))
    .unwrap();
    c.cs.refresh_queues(c.now, std::sync::Arc::new(conf))
        .unwrap();
    c.check();
    assert_eq!(
        c.queue_used_mb("a"),
        before,
        "only the AM container is charged"
    );
}

// 1. Central allocation.

#[test]
fn central_allocation_is_immediate_uncharged_and_bounded_by_node_queues() {
    let (mut c, n, app, am) = three_nodes("", 2);
    assert_eq!(
        am.yarn_id.sequence(),
        1,
        "the AM container is the first of the sequence"
    );
    // A fourth node that never reports a queue status is never a candidate.
    c.now = 4;
    let h3 = c.node("h3", "/r1", 8 * GB, 8);
    c.heartbeat(h3);
    c.now = 1001;

    // 10 asked; 3 reporting nodes with room for 2 each: 6 at once, in this response.
    let r = asks(&mut c, app, vec![opp_any(1, 1000, 10)]);
    assert_eq!(r.allocated.len(), 6);
    let mut seqs: Vec<i64> = r.allocated.iter().map(|a| a.yarn_id.sequence()).collect();
    seqs.sort();
    assert_eq!(
        seqs,
        vec![2, 3, 4, 5, 6, 7],
        "the app's own sequence, after the AM"
    );
    for a in &r.allocated {
        assert_eq!(a.execution_type, ExecutionType::Opportunistic);
        assert_eq!(a.version, 0);
        assert!(!a.is_am && !a.remotely_allocated);
        assert_eq!(a.yarn_id.attempt, am.yarn_id.attempt);
        assert_eq!(a.yarn_id.epoch(), 0);
        assert_eq!(
            a.resource,
            Resource::new(GB, 1),
            "normalised to the minimum"
        );
        assert_eq!(
            c.cs.container(a.id).unwrap().state,
            ContainerState::Acquired,
            "the AM has it already"
        );
    }
    for &node in &n {
        assert_eq!(opp_on(&c, node), 2, "two per node: the queue capacity");
        assert_eq!(
            c.cs.node(node).unwrap().opportunistic_allocated(),
            Resource::new(2 * GB, 2)
        );
    }
    assert_eq!(opp_on(&c, h3), 0);
    // Charged to nothing: queue, user, root, node unallocated and pending are as before.
    assert_eq!(c.queue_used_mb("a"), GB);
    assert_eq!(c.user_used_mb("a", "alice"), GB);
    assert_eq!(root_used_mb(&c), GB);
    assert_eq!(pending_mb(&c, "a"), 0);
    assert_eq!(c.cs.node(n[0]).unwrap().unallocated().memory_mb(), 7 * GB);
    assert_eq!(c.cs.node(n[1]).unwrap().unallocated().memory_mb(), 8 * GB);
    assert_eq!(c.cs.node(n[2]).unwrap().unallocated().memory_mb(), 8 * GB);

    // The queues are full: nothing more now.
    c.now = 1002;
    assert!(pull(&mut c, app).allocated.is_empty());

    // A guaranteed container takes the next number of the same sequence.
    c.ask(app, 1, GB, 1);
    assert_eq!(c.heartbeat(n[1]), 1);
    let r = pull(&mut c, app);
    assert_eq!(r.allocated.len(), 1);
    assert_eq!(r.allocated[0].execution_type, ExecutionType::Guaranteed);
    assert_eq!(r.allocated[0].yarn_id.sequence(), 8);
    assert_eq!(c.queue_used_mb("a"), 2 * GB);

    // The nodes report their queues full; the next sort drops them all.
    c.now = 1010;
    for &node in &n {
        report(&mut c, node, 2, 2);
    }
    c.now = 2001;
    assert!(pull(&mut c, app).allocated.is_empty());
    // Their queues drain, but until the next sort no node is a candidate.
    c.now = 2002;
    for &node in &n {
        report(&mut c, node, 0, 2);
    }
    c.now = 2005;
    assert!(pull(&mut c, app).allocated.is_empty());
    // The next sort sees the short queues: the 4 still outstanding come now.
    c.now = 3001;
    let r = pull(&mut c, app);
    assert_eq!(r.allocated.len(), 4);
    let mut seqs: Vec<i64> = r.allocated.iter().map(|a| a.yarn_id.sequence()).collect();
    seqs.sort();
    assert_eq!(seqs, vec![9, 10, 11, 12]);
    for &node in &n {
        assert!(opp_on(&c, node) <= 4);
    }
    assert_eq!(opp_on(&c, h3), 0);
    // Nothing is outstanding any more.
    c.now = 4001;
    assert!(pull(&mut c, app).allocated.is_empty());
    assert_eq!(c.queue_used_mb("a"), 2 * GB);
}

#[test]
fn the_queue_capacity_is_the_one_a_node_first_reported() {
    // O10: the record keeps the capacity of its first report; a re-registered node starts over.
    let mut c = enabled("");
    let h0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.now = 1;
    report(&mut c, h0, 0, 2);
    pull(&mut c, app);
    c.now = 2;
    report(&mut c, h0, 0, 10);
    c.now = 1001;
    let r = asks(&mut c, app, vec![opp_any(1, GB, 5)]);
    assert_eq!(r.allocated.len(), 2, "still the first report's 2");
    // Lost and back: a new record, with the capacity it reports now.
    let live = ids(&r.allocated);
    c.cs.remove_node(c.now, h0).unwrap();
    c.check();
    let h0 = c.node("h0", "/r", 8 * GB, 8);
    c.now = 1002;
    report(&mut c, h0, 0, 10);
    c.now = 2001;
    let r = pull(&mut c, app);
    assert_eq!(
        r.completed.len(),
        2 + 1,
        "the two and the AM, lost with the node"
    );
    assert!(live.iter().all(|id| c.cs.container(*id).is_none()));
    assert_eq!(
        r.allocated.len(),
        3,
        "the 3 still outstanding, on the new record"
    );
    assert!(r.allocated.iter().all(|a| a.node == h0));
}

#[test]
fn the_comparator_decides_what_a_node_without_a_queue_takes() {
    // NMs default to an opportunistic queue capacity of 0. Under QUEUE_LENGTH such a node is
    // never excluded but always refused; under QUEUE_LENGTH_THEN_RESOURCES it takes what fits
    // in its free resources (capability − guaranteed allocation − opportunistic in use).
    for (comparator, expected) in [("QUEUE_LENGTH", 0), ("QUEUE_LENGTH_THEN_RESOURCES", 5)] {
        let mut c = enabled(&format!(
            "yarn.resourcemanager.nm-container-queuing.load-comparator={comparator}\n"
        ));
        let h0 = c.node("h0", "/r", 8 * GB, 8);
        let app = c.app("a", "alice", GB);
        c.now = 1;
        report(&mut c, h0, 0, 0);
        pull(&mut c, app);
        // The AM (1 GB) runs, and 2 GB of opportunistic work is running there already.
        c.now = 2;
        node_update(
            &mut c,
            h0,
            NodeStatus {
                opportunistic: Some(NodeQueueReport {
                    running_opportunistic: 2,
                    opportunistic_resource: Resource::new(2 * GB, 2),
                    ..queue_report(0, 0)
                }),
                ..Default::default()
            },
        );
        c.now = 1001;
        let r = asks(&mut c, app, vec![opp_any(1, GB, 10)]);
        assert_eq!(r.allocated.len(), expected, "{comparator}");
        assert_eq!(c.queue_used_mb("a"), GB, "{comparator}");
    }
}

#[test]
fn an_oversized_opportunistic_ask_is_normalised_to_the_maximum() {
    let (mut c, _, app, _) = three_nodes("", 10);
    let req = AllocateRequest {
        response_id: c.response_ids[&app],
        asks: vec![opportunistic(ResourceRequest::any(
            1,
            Resource::new(9 * GB, 1),
            1,
        ))],
        ..Default::default()
    };
    let r = c.cs.allocate(c.now, app, &req);
    c.check();
    let r = r.expect("accepted");
    assert_eq!(r.allocated.len(), 1);
    assert_eq!(r.allocated[0].resource, Resource::new(8 * GB, 1));
}

// 2. Locality.

#[test]
fn a_host_ask_gets_that_host_and_a_rack_ask_that_rack() {
    let (mut c, n, app, _) = three_nodes("", 10);
    let r = asks(&mut c, app, vec![opp_at(1, "h2", GB, 2), opp_any(1, GB, 2)]);
    assert_eq!(r.allocated.len(), 2);
    for a in &r.allocated {
        assert_eq!(a.node, n[2]);
        assert_eq!(&*a.host, "h2");
        assert_eq!(c.cs.container(a.id).unwrap().node_type, NodeType::NodeLocal);
    }
    let r = asks(
        &mut c,
        app,
        vec![opp_at(2, "/r0", GB, 1), opp_any(2, GB, 1)],
    );
    assert_eq!(r.allocated.len(), 1);
    assert_eq!(r.allocated[0].node, n[0]);
    assert_eq!(
        c.cs.container(r.allocated[0].id).unwrap().node_type,
        NodeType::RackLocal
    );
    // A host whose queue is full is passed over: the container goes elsewhere.
    c.now = 1100;
    report(&mut c, n[1], 10, 10);
    let r = asks(&mut c, app, vec![opp_at(3, "h1", GB, 1), opp_any(3, GB, 1)]);
    assert_eq!(r.allocated.len(), 1);
    assert_ne!(r.allocated[0].node, n[1]);
    assert_eq!(
        c.cs.container(r.allocated[0].id).unwrap().node_type,
        NodeType::OffSwitch
    );
}

#[test]
fn a_host_ask_is_honoured_only_for_its_own_count() {
    // CentralizedOpportunisticContainerAllocator.allocateContainersPerRequest: node-local up to
    // the host's count (min(count, maxToAllocate)), then rack-local up to the rack's count, then
    // the rest on ANY.
    let (mut c, _, app, _) = three_nodes("", 10);
    let r = asks(&mut c, app, vec![opp_at(1, "h2", GB, 1), opp_any(1, GB, 4)]);
    assert_eq!(r.allocated.len(), 4);
    let node_local = r
        .allocated
        .iter()
        .filter(|a| c.cs.container(a.id).unwrap().node_type == NodeType::NodeLocal)
        .count();
    assert_eq!(
        node_local, 1,
        "one container was asked on h2; three anywhere"
    );
}

// 3. Blacklist.

#[test]
fn blacklisted_hosts_are_never_chosen() {
    let (mut c, n, app, _) = three_nodes("", 10);
    let r = call(
        &mut c,
        app,
        AllocateRequest {
            asks: vec![opp_any(1, GB, 6)],
            blacklist_additions: vec!["h0".into(), "h1".into()],
            ..Default::default()
        },
    );
    assert_eq!(r.allocated.len(), 6);
    assert!(r.allocated.iter().all(|a| a.node == n[2]));
    // Not even when asked for by name: the container goes to a host that is allowed.
    let r = asks(&mut c, app, vec![opp_at(2, "h0", GB, 1), opp_any(2, GB, 1)]);
    assert_eq!(r.allocated.len(), 1);
    assert_eq!(r.allocated[0].node, n[2]);
    // h2 fills up (10 of 10): the only candidates left are blacklisted, nothing is placed.
    let r = asks(&mut c, app, vec![opp_any(3, GB, 5)]);
    assert_eq!(r.allocated.len(), 3);
    assert_eq!(opp_on(&c, n[2]), 10);
    c.now = 1002;
    assert!(pull(&mut c, app).allocated.is_empty());
    assert_eq!(opp_on(&c, n[0]) + opp_on(&c, n[1]), 0);
    // Taken off the blacklist, h0 takes the outstanding ones.
    let r = call(
        &mut c,
        app,
        AllocateRequest {
            blacklist_removals: vec!["h0".into()],
            ..Default::default()
        },
    );
    assert_eq!(r.allocated.len(), 2);
    assert!(r.allocated.iter().all(|a| a.node == n[0]));
}

#[test]
fn a_host_both_added_and_removed_in_one_call_stays_blacklisted_for_opportunistic() {
    // OpportunisticContainerAllocator.updateBlacklist: removeAll(removals), then
    // addAll(additions).
    let (mut c, n, app, _) = three_nodes("", 10);
    let r = call(
        &mut c,
        app,
        AllocateRequest {
            asks: vec![opp_any(1, GB, 9)],
            blacklist_additions: vec!["h0".into(), "h1".into()],
            blacklist_removals: vec!["h0".into()],
            ..Default::default()
        },
    );
    assert_eq!(r.allocated.len(), 9);
    assert!(r.allocated.iter().all(|a| a.node == n[2]));
    // The capacity scheduler adds, then removes (AppSchedulingInfo): h0 is allowed there.
    c.ask(app, 5, GB, 1);
    assert_eq!(c.heartbeat(n[0]), 1);
    let r = pull(&mut c, app);
    assert_eq!(r.allocated.len(), 1);
    assert_eq!(r.allocated[0].node, n[0]);
    assert_eq!(r.allocated[0].execution_type, ExecutionType::Guaranteed);
}

// 4. Per-heartbeat cap.

#[test]
fn the_per_heartbeat_cap_bounds_one_call_lowest_priority_first() {
    let (mut c, _, app, _) = three_nodes(
        "yarn.resourcemanager.opportunistic.max.container-allocation.per.am.heartbeat=3\n",
        100,
    );
    let r = asks(&mut c, app, vec![opp_any(1, GB, 2), opp_any(2, GB, 5)]);
    // Keys are walked in reverse order: the numerically largest priority (2) first.
    let prio = |r: &AllocateResponse| -> Vec<i32> {
        let mut v: Vec<i32> = r.allocated.iter().map(|a| a.key.priority).collect();
        v.sort();
        v
    };
    assert_eq!(prio(&r), vec![2, 2, 2]);
    c.now += 1;
    let r = pull(&mut c, app);
    assert_eq!(prio(&r), vec![1, 2, 2]);
    c.now += 1;
    let r = pull(&mut c, app);
    assert_eq!(prio(&r), vec![1]);
    c.now += 1;
    assert!(pull(&mut c, app).allocated.is_empty());
}

// 5. Disabled.

#[test]
fn with_opportunistic_allocation_off_an_opportunistic_ask_is_guaranteed() {
    let mut c = Cluster::new(ONE_QUEUE);
    let h0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.now = 1;
    let r = report(&mut c, h0, 0, 10);
    assert_eq!(
        r.queuing_limit, None,
        "no limit is sent while the feature is off"
    );
    assert_eq!(r.allocated, 1);
    pull(&mut c, app);
    let r = asks(&mut c, app, vec![opp_any(1, GB, 2)]);
    assert!(r.allocated.is_empty(), "nothing at once");
    assert_eq!(pending_mb(&c, "a"), 2 * GB, "the scheduler's pending");
    c.heartbeat(h0);
    c.heartbeat(h0);
    let r = pull(&mut c, app);
    assert_eq!(r.allocated.len(), 2);
    for a in &r.allocated {
        assert_eq!(a.execution_type, ExecutionType::Guaranteed);
    }
    assert_eq!(c.queue_used_mb("a"), 3 * GB);
    assert_eq!(c.user_used_mb("a", "alice"), 3 * GB);
    assert_eq!(c.cs.node(h0).unwrap().unallocated().memory_mb(), 5 * GB);
    assert_eq!(opp_on(&c, h0), 0);
}

// 6. Completion.

#[test]
fn opportunistic_containers_end_by_nm_report_release_node_loss_and_attempt_end() {
    let (mut c, n, app, _) = three_nodes("", 10);
    let r = asks(&mut c, app, vec![opp_at(1, "h1", GB, 4), opp_any(1, GB, 4)]);
    let o = ids(&r.allocated);
    assert_eq!(o.len(), 4);
    assert!(r.allocated.iter().all(|a| a.node == n[1]));

    // The NM de-queued one (−108): the AM hears of it on its next call; nothing to kill.
    c.now = 1100;
    let resp = finish(
        &mut c,
        n[1],
        &[o[0]],
        exit_status::KILLED_BY_CONTAINER_SCHEDULER,
    );
    assert!(resp.to_kill.is_empty());
    assert!(c.cs.container(o[0]).is_none());
    assert_eq!(opp_on(&c, n[1]), 3);
    let r = pull(&mut c, app);
    assert_eq!(r.completed.len(), 1);
    assert_eq!(r.completed[0].id, o[0]);
    assert_eq!(r.completed[0].exit_status, -108);
    assert_eq!(
        r.completed[0].diagnostics, "exit -108",
        "the NM's diagnostics"
    );
    assert_eq!(c.queue_used_mb("a"), GB, "nothing to give back");

    // Released by the AM: completed in that response, killed at the NM's next heartbeat.
    let r = call(
        &mut c,
        app,
        AllocateRequest {
            releases: vec![o[1]],
            ..Default::default()
        },
    );
    assert_eq!(r.completed.len(), 1);
    assert_eq!(r.completed[0].id, o[1]);
    assert_eq!(r.completed[0].exit_status, exit_status::ABORTED);
    assert_eq!(
        r.completed[0].diagnostics,
        "Container released by application"
    );
    let resp = report(&mut c, n[1], 2, 10);
    assert_eq!(resp.to_kill, vec![o[1]]);
    assert!(report(&mut c, n[1], 2, 10).to_kill.is_empty(), "once");

    // The node is lost: the rest end ABORTED, and h1 is no candidate any more.
    c.cs.remove_node(c.now, n[1]).unwrap();
    c.check();
    let r = pull(&mut c, app);
    let mut lost: Vec<ContainerId> = r.completed.iter().map(|s| s.id).collect();
    lost.sort();
    assert_eq!(lost, {
        let mut v = vec![o[2], o[3]];
        v.sort();
        v
    });
    assert!(r
        .completed
        .iter()
        .all(|s| s.exit_status == exit_status::ABORTED
            && s.diagnostics == "Container released on a *lost* node"));
    let r = asks(&mut c, app, vec![opp_any(2, GB, 6)]);
    assert_eq!(r.allocated.len(), 6);
    assert!(r.allocated.iter().all(|a| a.node != n[1]));

    // The attempt ends: its opportunistic containers are killed on their nodes.
    let live = ids(&r.allocated);
    c.cs.remove_attempt(c.now, app, false).unwrap();
    c.check();
    let mut killed = Vec::new();
    for node in [n[0], n[2]] {
        killed.extend(report(&mut c, node, 0, 10).to_kill);
    }
    for id in &live {
        assert!(killed.contains(id), "{id:?} not killed");
        assert!(c.cs.container(*id).is_none());
    }
    for node in [n[0], n[2]] {
        assert_eq!(opp_on(&c, node), 0);
    }
    assert_eq!(c.queue_used_mb("a"), 0);
}

// 7. Queue limit.

/// The `ContainerQueuingLimit` a heartbeat response carries once a sort has seen every node's
/// reported queue length.
fn limit_after(extra: &str, lengths: &[i32], cap: i32) -> Option<ContainerQueuingLimit> {
    let mut c = Cluster::new(&format!("{ONE_QUEUE}{extra}"));
    let nodes: Vec<NodeId> = (0..lengths.len())
        .map(|i| c.node(&format!("h{i}"), "/r", 8 * GB, 8))
        .collect();
    for (i, (&node, &len)) in nodes.iter().zip(lengths).enumerate() {
        c.now = 1 + i as i64;
        report(&mut c, node, len, cap);
    }
    c.now = 5000;
    report(&mut c, nodes[0], lengths[0], cap).queuing_limit
}

fn length_limit(max_queue_length: i32) -> Option<ContainerQueuingLimit> {
    Some(ContainerQueuingLimit {
        max_queue_length,
        max_queue_wait_ms: -1,
    })
}

/// O5 as the spec states it: integer mean, integer S, f32 division, sqrt, round half up,
/// (int)(mean + k·stdev), clamped to [min, max].
fn spec_limit(metrics: &[i32], k: f32, min: i32, max: i32) -> i32 {
    let n = metrics.len() as i64;
    let mean = metrics.iter().map(|&m| m as i64).sum::<i64>() / n;
    let s: i64 = metrics.iter().map(|&m| (m as i64 - mean).pow(2)).sum();
    let stdev = ((s as f32 / n as f32) as f64).sqrt();
    let stdev = (stdev + 0.5).floor() as i64;
    let raw = (mean as f32 + k * stdev as f32) as i32;
    max.min(min.max(raw))
}

#[test]
fn the_queue_limit_is_mean_plus_k_stdev_of_the_sorted_nodes() {
    // {15, 5, 10}: mean 10, S = 50, 50/3 = 16.67, sqrt 4.08 → 4; 10 + 1.0·4 = 14 in [5, 15].
    assert_eq!(spec_limit(&[15, 5, 10], 1.0, 5, 15), 14);
    assert_eq!(limit_after(ENABLED, &[15, 5, 10], 200), length_limit(14));
    // k = 1.3: (int)(10 + 5.2) = 15; k = 1.2: (int)(10 + 4.8) = 14 (truncated).
    let k = |v: &str| {
        format!("{ENABLED}yarn.resourcemanager.nm-container-queuing.queue-limit-stdev={v}\nyarn.resourcemanager.nm-container-queuing.max-queue-length=100\n")
    };
    assert_eq!(limit_after(&k("1.3"), &[15, 5, 10], 200), length_limit(15));
    assert_eq!(limit_after(&k("1.2"), &[15, 5, 10], 200), length_limit(14));
    // S / N is a float division: {1, 4} → S = 5, 5/2 = 2.5, sqrt 1.58 → 2 (not 1); 2 + 2 = 4.
    assert_eq!(spec_limit(&[1, 4], 1.0, 0, 100), 4);
    let wide = format!("{ENABLED}yarn.resourcemanager.nm-container-queuing.min-queue-length=0\nyarn.resourcemanager.nm-container-queuing.max-queue-length=100\n");
    assert_eq!(limit_after(&wide, &[1, 4], 200), length_limit(4));
    // Clamped: to the max above, to the min below.
    assert_eq!(
        limit_after(ENABLED, &[110, 120, 130, 140, 150, 160], 200),
        length_limit(15)
    );
    assert_eq!(limit_after(ENABLED, &[1, 1, 1], 200), length_limit(5));
    // The spec's vector testContainerQueuingLimit (k = 0, [6, 100]).
    let v = format!("{ENABLED}yarn.resourcemanager.nm-container-queuing.queue-limit-stdev=0\nyarn.resourcemanager.nm-container-queuing.min-queue-length=6\nyarn.resourcemanager.nm-container-queuing.max-queue-length=100\n");
    assert_eq!(limit_after(&v, &[15, 5, 10], 200), length_limit(10));
    assert_eq!(
        limit_after(&v, &[110, 120, 130, 140, 150, 160], 200),
        length_limit(100)
    );
    assert_eq!(limit_after(&v, &[1, 2, 3, 4, 5, 6], 200), length_limit(6));
    // Full nodes are left out of the statistics: capacity 12 drops the 15 → {5, 10}: mean 7,
    // S = 13, 6.5 → sqrt 2.55 → 3; 7 + 3 = 10.
    assert_eq!(spec_limit(&[5, 10], 1.0, 5, 15), 10);
    assert_eq!(limit_after(ENABLED, &[15, 5, 10], 12), length_limit(10));
    // Off: no limit at all.
    assert_eq!(limit_after("", &[15, 5, 10], 200), None);
}

#[test]
fn the_queue_limit_before_any_statistics_and_under_the_wait_time_comparator() {
    // No node has reported a queue yet: the statistics are still 0, so the limit is the min.
    let mut c = enabled("");
    let h0 = c.node("h0", "/r", 8 * GB, 8);
    c.now = 1;
    let r = node_update(&mut c, h0, NodeStatus::default());
    assert_eq!(r.queuing_limit, length_limit(5));
    // The first sort over {15} gives 15 + 0; a later sort over {15, 5, 10} gives 14; a sort that
    // finds every node full keeps the last values.
    report(&mut c, h0, 15, 20);
    let h1 = c.node("h1", "/r", 8 * GB, 8);
    let h2 = c.node("h2", "/r", 8 * GB, 8);
    c.now = 1001;
    assert_eq!(report(&mut c, h0, 15, 20).queuing_limit, length_limit(15));
    c.now = 1002;
    report(&mut c, h1, 5, 20);
    report(&mut c, h2, 10, 20);
    c.now = 2001;
    assert_eq!(report(&mut c, h0, 15, 20).queuing_limit, length_limit(14));
    c.now = 2002;
    report(&mut c, h1, 20, 20);
    report(&mut c, h2, 20, 20);
    c.now = 3001;
    assert_eq!(report(&mut c, h0, 20, 20).queuing_limit, length_limit(14));

    // QUEUE_WAIT_TIME: the NM never fills in the estimate (0), so mean and stdev are 0 and the
    // wait limit is its min; the length field is −1.
    let w = format!(
        "{ENABLED}yarn.resourcemanager.nm-container-queuing.load-comparator=QUEUE_WAIT_TIME\n"
    );
    assert_eq!(
        limit_after(&w, &[15, 5, 10], 200),
        Some(ContainerQueuingLimit {
            max_queue_length: -1,
            max_queue_wait_ms: 10,
        })
    );
}

#[test]
fn distributed_scheduling_hands_out_the_least_loaded_nodes_cached_for_an_interval() {
    let mut c = enabled(
        "yarn.nodemanager.distributed-scheduling.enabled=true\n\
         yarn.resourcemanager.opportunistic-container-allocation.nodes-used=2\n",
    );
    let n = [
        c.node("h0", "/r", 8 * GB, 8),
        c.node("h1", "/r", 8 * GB, 8),
        c.node("h2", "/r", 8 * GB, 8),
    ];
    let hosts = |r: &NodeUpdateResponse| -> Vec<String> {
        r.least_loaded.iter().map(|x| x.host.to_string()).collect()
    };
    // The first heartbeat sorts with h0 alone, and the list is cached from then.
    c.now = 0;
    assert_eq!(hosts(&report(&mut c, n[0], 3, 10)), vec!["h0"]);
    c.now = 1;
    assert_eq!(hosts(&report(&mut c, n[1], 1, 10)), vec!["h0"]);
    assert_eq!(hosts(&report(&mut c, n[2], 2, 10)), vec!["h0"]);
    // At 1000 the monitor re-sorts, but the cache lives until more than an interval has gone.
    c.now = 1000;
    assert_eq!(hosts(&report(&mut c, n[0], 3, 10)), vec!["h0"]);
    c.now = 1001;
    assert_eq!(hosts(&report(&mut c, n[0], 3, 10)), vec!["h1", "h2"]);
    // Central allocation without distributed scheduling sends no list.
    let mut d = enabled("");
    let h = d.node("h0", "/r", 8 * GB, 8);
    assert!(report(&mut d, h, 0, 10).least_loaded.is_empty());
}

// 8. Promotion and demotion.

#[test]
fn update_requests_are_validated_with_yarns_reasons_and_versions() {
    let mut c = enabled("");
    let h0 = c.node("h0", "/r", 16 * GB, 16);
    let app = c.app("a", "alice", GB);
    c.now = 1;
    report(&mut c, h0, 0, 10);
    pull(&mut c, app);
    let r = asks(&mut c, app, vec![opp_any(1, GB, 4)]);
    let o = ids(&r.allocated);
    assert_eq!(o.len(), 4);
    c.ask(app, 2, GB, 1);
    c.heartbeat(h0);
    let g = pull(&mut c, app).allocated[0].id;
    assert_eq!(
        c.cs.container(g).unwrap().execution_type,
        ExecutionType::Guaranteed
    );
    // A released container is one the RM no longer knows.
    call(
        &mut c,
        app,
        AllocateRequest {
            releases: vec![o[2]],
            ..Default::default()
        },
    );

    let sent = vec![
        UpdateContainerRequest::promote(o[2], 0),
        UpdateContainerRequest::promote(o[0], 3),
        UpdateContainerRequest::promote(o[1], 0),
        UpdateContainerRequest::promote(o[1], 0),
        // The type it already has, or the wrong direction: silently ignored.
        UpdateContainerRequest::promote(g, 0),
        UpdateContainerRequest::demote(o[3], 0),
    ];
    let r = updates(&mut c, app, sent.clone());
    let got: Vec<(&str, i32)> = r
        .update_errors
        .iter()
        .map(|e| (e.reason.as_str(), e.current_version))
        .collect();
    assert_eq!(
        got,
        vec![
            (INVALID_CONTAINER_ID, -1),
            (INCORRECT_CONTAINER_VERSION_ERROR, 0),
            (UPDATE_OUTSTANDING_ERROR, 0),
        ]
    );
    assert_eq!(r.update_errors[0].request, sent[0]);
    assert_eq!(r.update_errors[1].request, sent[1]);
    assert_eq!(r.update_errors[2].request, sent[3]);
    assert!(r.updated.is_empty());
    assert_eq!(
        c.cs.container(g).unwrap().execution_type,
        ExecutionType::Guaranteed
    );
    assert_eq!(
        c.cs.container(o[3]).unwrap().execution_type,
        ExecutionType::Opportunistic
    );

    // o[1]'s promotion is outstanding: another one is refused.
    let r = updates(&mut c, app, vec![UpdateContainerRequest::promote(o[1], 0)]);
    assert_eq!(r.update_errors.len(), 1);
    assert_eq!(r.update_errors[0].reason, UPDATE_OUTSTANDING_ERROR);
    assert_eq!(r.update_errors[0].current_version, 0);

    // An increase beyond the maximum allocation (8 GB) is out of range.
    let inc = UpdateContainerRequest {
        container: g,
        version: 0,
        update_type: ContainerUpdateType::IncreaseResource,
        execution_type: ExecutionType::Guaranteed,
        capability: Some(Resource::new(9 * GB, 1)),
    };
    let r = updates(&mut c, app, vec![inc.clone()]);
    assert_eq!(r.update_errors.len(), 1);
    assert_eq!(r.update_errors[0].reason, RESOURCE_OUTSIDE_ALLOWED_RANGE);
    assert_eq!(r.update_errors[0].current_version, 0);
    assert_eq!(r.update_errors[0].request, inc);
    assert_eq!(c.cs.container(g).unwrap().resource, Resource::new(GB, 1));

    // The ignored promotion left nothing outstanding: g can be demoted now.
    let r = updates(&mut c, app, vec![UpdateContainerRequest::demote(g, 0)]);
    assert!(r.update_errors.is_empty());
    assert_eq!(r.updated.len(), 1);
}

#[test]
fn the_version_is_checked_before_outstanding_updates() {
    let mut c = enabled("");
    let h0 = c.node("h0", "/r", 16 * GB, 16);
    let app = c.app("a", "alice", GB);
    c.now = 1;
    report(&mut c, h0, 0, 10);
    pull(&mut c, app);
    let o = ids(&asks(&mut c, app, vec![opp_any(1, GB, 2)]).allocated);
    // Same container twice, the second with a stale version: the version error wins.
    let r = updates(
        &mut c,
        app,
        vec![
            UpdateContainerRequest::promote(o[0], 0),
            UpdateContainerRequest::promote(o[0], 4),
        ],
    );
    assert_eq!(r.update_errors.len(), 1);
    assert_eq!(r.update_errors[0].reason, INCORRECT_CONTAINER_VERSION_ERROR);
    // While o[0]'s promotion is outstanding, a request with a wrong version is a version error.
    let r = updates(&mut c, app, vec![UpdateContainerRequest::promote(o[0], 4)]);
    assert_eq!(r.update_errors.len(), 1);
    assert_eq!(r.update_errors[0].reason, INCORRECT_CONTAINER_VERSION_ERROR);
}

#[test]
fn only_accepted_updates_make_a_later_one_in_the_same_request_a_duplicate() {
    let mut c = enabled("");
    let h0 = c.node("h0", "/r", 16 * GB, 16);
    let app = c.app("a", "alice", GB);
    c.now = 1;
    report(&mut c, h0, 0, 10);
    pull(&mut c, app);
    let o = ids(&asks(&mut c, app, vec![opp_any(1, GB, 1)]).allocated);
    c.ask(app, 2, GB, 1);
    c.heartbeat(h0);
    let g = pull(&mut c, app).allocated[0].id;
    let r = updates(
        &mut c,
        app,
        vec![
            // Refused (stale version), then the right one: accepted.
            UpdateContainerRequest::promote(o[0], 7),
            UpdateContainerRequest::promote(o[0], 0),
            // Ignored (already guaranteed), then a demotion: accepted.
            UpdateContainerRequest::promote(g, 0),
            UpdateContainerRequest::demote(g, 0),
        ],
    );
    let reasons: Vec<&str> = r.update_errors.iter().map(|e| e.reason.as_str()).collect();
    assert_eq!(reasons, vec![INCORRECT_CONTAINER_VERSION_ERROR]);
    assert_eq!(r.updated.len(), 1, "g demoted in this call");
    assert_eq!(
        c.cs.container(g).unwrap().execution_type,
        ExecutionType::Opportunistic
    );
    c.heartbeat(h0);
    let r = pull(&mut c, app);
    assert_eq!(r.updated.len(), 1, "o[0] promoted");
}

#[test]
fn a_promotion_is_applied_at_the_nodes_next_heartbeat_and_a_demotion_at_once() {
    let mut c = enabled("");
    let h0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.now = 1;
    report(&mut c, h0, 0, 10);
    pull(&mut c, app);
    let r = asks(&mut c, app, vec![opp_any(1, 2 * GB, 2)]);
    let before = r.allocated[0].clone();
    let o = before.id;

    let r = updates(&mut c, app, vec![UpdateContainerRequest::promote(o, 0)]);
    assert!(r.update_errors.is_empty() && r.updated.is_empty());
    assert_eq!(c.queue_used_mb("a"), GB, "not yet");
    // The node's heartbeat finds room: the container is charged like a guaranteed one.
    c.now = 2;
    report(&mut c, h0, 0, 10);
    assert_eq!(c.queue_used_mb("a"), 3 * GB);
    assert_eq!(c.user_used_mb("a", "alice"), 3 * GB);
    assert_eq!(root_used_mb(&c), 3 * GB);
    let node = c.cs.node(h0).unwrap();
    assert_eq!(node.unallocated().memory_mb(), 5 * GB);
    assert_eq!(node.opportunistic_allocated(), Resource::new(2 * GB, 1));
    let r = pull(&mut c, app);
    assert_eq!(r.updated.len(), 1);
    let u = &r.updated[0];
    assert_eq!(u.update_type, ContainerUpdateType::PromoteExecutionType);
    assert_eq!(u.container.id, o);
    assert_eq!(u.container.yarn_id, before.yarn_id, "same container");
    assert_eq!(u.container.version, 1);
    assert_eq!(u.container.execution_type, ExecutionType::Guaranteed);
    assert_eq!(u.container.resource, before.resource);
    assert!(pull(&mut c, app).updated.is_empty(), "reported once");

    // Demotion: in the same call, version bumped, the charge given back.
    let r = updates(&mut c, app, vec![UpdateContainerRequest::demote(o, 1)]);
    assert!(r.update_errors.is_empty());
    assert_eq!(r.updated.len(), 1);
    let u = &r.updated[0];
    assert_eq!(u.update_type, ContainerUpdateType::DemoteExecutionType);
    assert_eq!(u.container.id, o);
    assert_eq!(u.container.version, 2);
    assert_eq!(u.container.execution_type, ExecutionType::Opportunistic);
    assert_eq!(c.queue_used_mb("a"), GB);
    assert_eq!(c.user_used_mb("a", "alice"), GB);
    assert_eq!(c.cs.node(h0).unwrap().unallocated().memory_mb(), 7 * GB);
    assert_eq!(
        c.cs.node(h0).unwrap().opportunistic_allocated(),
        Resource::new(4 * GB, 2)
    );
    // The demoted container ends like any opportunistic one.
    c.now = 3;
    finish(&mut c, h0, &[o], 0);
    let r = pull(&mut c, app);
    assert_eq!(r.completed.len(), 1);
    assert_eq!(c.queue_used_mb("a"), GB);
}

#[test]
fn a_promotion_on_a_full_node_waits_for_a_guaranteed_container_to_finish() {
    let mut c = enabled("");
    let h0 = c.node("h0", "/r", 4 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.now = 1;
    report(&mut c, h0, 0, 10);
    pull(&mut c, app);
    c.ask(app, 1, GB, 3);
    for _ in 0..3 {
        c.heartbeat(h0);
    }
    let g = ids(&pull(&mut c, app).allocated);
    assert_eq!(g.len(), 3);
    assert_eq!(c.cs.node(h0).unwrap().unallocated().memory_mb(), 0);
    let o = asks(&mut c, app, vec![opp_any(2, GB, 1)]).allocated[0].id;

    updates(&mut c, app, vec![UpdateContainerRequest::promote(o, 0)]);
    // More guaranteed work waits too; the promotion ranks ahead of it.
    c.ask(app, 3, GB, 1);
    for t in 2..5 {
        c.now = t;
        report(&mut c, h0, 0, 10);
        assert_eq!(c.queue_used_mb("a"), 4 * GB);
        let r = pull(&mut c, app);
        assert!(r.updated.is_empty() && r.update_errors.is_empty());
    }
    assert_eq!(version_of(&c, o), 0);
    // One guaranteed container finishes: that heartbeat gives its room to the promotion.
    c.now = 10;
    finish(&mut c, h0, &[g[0]], 0);
    assert_eq!(c.queue_used_mb("a"), 4 * GB);
    assert_eq!(pending_mb(&c, "a"), GB, "the new ask still waits");
    let r = pull(&mut c, app);
    assert_eq!(r.completed.len(), 1);
    assert_eq!(r.completed[0].id, g[0]);
    assert_eq!(r.updated.len(), 1);
    assert_eq!(r.updated[0].container.id, o);
    assert_eq!(r.updated[0].container.version, 1);
    assert_eq!(
        r.updated[0].container.execution_type,
        ExecutionType::Guaranteed
    );
    assert!(r.allocated.is_empty());
}

#[test]
fn the_version_moves_only_when_the_am_is_told() {
    let mut c = enabled("");
    let h0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.now = 1;
    report(&mut c, h0, 0, 10);
    pull(&mut c, app);
    let o = asks(&mut c, app, vec![opp_any(1, GB, 1)]).allocated[0].id;
    assert!(
        updates(&mut c, app, vec![UpdateContainerRequest::promote(o, 0)])
            .updated
            .is_empty()
    );
    // The promotion takes effect at h0's heartbeat; the AM has not been told yet.
    c.now = 2;
    report(&mut c, h0, 0, 10);
    assert_eq!(
        c.cs.container(o).unwrap().execution_type,
        ExecutionType::Guaranteed
    );
    // Its next call still holds version 0, the only one it was ever given.
    let inc = UpdateContainerRequest {
        container: o,
        version: 0,
        update_type: ContainerUpdateType::IncreaseResource,
        execution_type: ExecutionType::Guaranteed,
        capability: Some(Resource::new(2 * GB, 1)),
    };
    let r = updates(&mut c, app, vec![inc]);
    // YARN validates before this call pulls (and versions) the promotion: 0 is current.
    // (What happens to the increase next depends on the promotion still being outstanding;
    // only the version check is asserted.)
    assert!(
        r.update_errors
            .iter()
            .all(|e| e.reason != INCORRECT_CONTAINER_VERSION_ERROR),
        "refused: {:?}",
        r.update_errors
    );
    assert_eq!(r.updated.len(), 1);
    assert_eq!(
        r.updated[0].update_type,
        ContainerUpdateType::PromoteExecutionType
    );
    assert_eq!(r.updated[0].container.version, 1);
}

#[test]
fn a_version_the_am_was_never_given_is_refused() {
    let mut c = enabled("");
    let h0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.now = 1;
    report(&mut c, h0, 0, 10);
    pull(&mut c, app);
    let o = asks(&mut c, app, vec![opp_any(1, GB, 1)]).allocated[0].id;
    updates(&mut c, app, vec![UpdateContainerRequest::promote(o, 0)]);
    c.now = 2;
    report(&mut c, h0, 0, 10);
    // The AM has only ever been given version 0; version 1 is a guess.
    let r = updates(&mut c, app, vec![UpdateContainerRequest::demote(o, 1)]);
    assert_eq!(r.update_errors.len(), 1);
    assert_eq!(r.update_errors[0].reason, INCORRECT_CONTAINER_VERSION_ERROR);
    assert_eq!(r.update_errors[0].current_version, 0);
    // This response tells the AM of the promotion: a guaranteed container, version 1.
    assert_eq!(r.updated.len(), 1);
    assert_eq!(
        r.updated[0].update_type,
        ContainerUpdateType::PromoteExecutionType
    );
    assert_eq!(
        r.updated[0].container.execution_type,
        ExecutionType::Guaranteed
    );
    assert_eq!(r.updated[0].container.version, 1);
}

#[test]
fn a_pending_increase_dies_with_its_attempt() {
    // YARN keeps outstanding increases in the attempt's ContainerUpdateContext: they end with it.
    let mut c = Cluster::new(ONE_QUEUE);
    let h0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.heartbeat(h0);
    let am = pull(&mut c, app).allocated[0].id;
    c.ask(app, 1, GB, 1);
    c.heartbeat(h0);
    let g = pull(&mut c, app).allocated[0].id;
    node_update(
        &mut c,
        h0,
        NodeStatus {
            launched: vec![am, g],
            ..Default::default()
        },
    );
    let inc = UpdateContainerRequest {
        container: g,
        version: 0,
        update_type: ContainerUpdateType::IncreaseResource,
        execution_type: ExecutionType::Guaranteed,
        capability: Some(Resource::new(2 * GB, 1)),
    };
    let r = updates(&mut c, app, vec![inc]);
    assert!(r.update_errors.is_empty());
    // The attempt ends, keeping its running containers for the next one; h0 heartbeats
    // before a new attempt exists.
    c.cs.remove_attempt(c.now, app, true).unwrap();
    c.check();
    c.heartbeat(h0);
    assert_eq!(c.cs.container(g).unwrap().resource, Resource::new(GB, 1));
    assert_eq!(c.queue_used_mb("a"), 2 * GB);
}

#[test]
fn an_adopted_container_does_not_inherit_the_last_attempts_pending_increase() {
    let mut c = Cluster::new(ONE_QUEUE);
    let h0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.heartbeat(h0);
    let am = pull(&mut c, app).allocated[0].id;
    c.ask(app, 1, GB, 1);
    c.heartbeat(h0);
    let g = pull(&mut c, app).allocated[0].id;
    node_update(
        &mut c,
        h0,
        NodeStatus {
            launched: vec![am, g],
            ..Default::default()
        },
    );
    let inc = UpdateContainerRequest {
        container: g,
        version: 0,
        update_type: ContainerUpdateType::IncreaseResource,
        execution_type: ExecutionType::Guaranteed,
        capability: Some(Resource::new(2 * GB, 1)),
    };
    assert!(updates(&mut c, app, vec![inc]).update_errors.is_empty());
    // The attempt ends and the next one adopts g before h0 heartbeats again.
    c.cs.remove_attempt(c.now, app, true).unwrap();
    c.check();
    c.cs.add_attempt(
        c.now,
        app,
        AttemptSubmission {
            am_resource: Resource::new(GB, 1),
            unmanaged: false,
            keep_containers: true,
            recovering: false,
        },
    )
    .unwrap();
    c.check();
    c.response_ids.remove(&app);
    c.heartbeat(h0);
    assert_eq!(c.cs.container(g).unwrap().resource, Resource::new(GB, 1));
    assert_eq!(version_of(&c, g), 0);
    assert!(pull(&mut c, app).updated.is_empty());
}

#[test]
fn an_adopted_container_demoted_by_the_new_attempt_can_still_be_released() {
    // DefaultAMSProcessor skips validateContainerReleaseRequest when containers are kept across
    // attempts: the AM may release containers of the earlier attempt.
    let mut c = enabled("");
    let h0 = c.node("h0", "/r", 8 * GB, 8);
    let app = c.app("a", "alice", GB);
    c.now = 1;
    report(&mut c, h0, 0, 10);
    let am = pull(&mut c, app).allocated[0].id;
    c.ask(app, 1, GB, 1);
    c.heartbeat(h0);
    let g = pull(&mut c, app).allocated[0].id;
    node_update(
        &mut c,
        h0,
        NodeStatus {
            launched: vec![am, g],
            ..Default::default()
        },
    );
    c.cs.remove_attempt(c.now, app, true).unwrap();
    c.check();
    c.cs.add_attempt(
        c.now,
        app,
        AttemptSubmission {
            am_resource: Resource::new(GB, 1),
            unmanaged: false,
            keep_containers: true,
            recovering: false,
        },
    )
    .unwrap();
    c.check();
    c.response_ids.remove(&app);
    // The adopted container can be released as it is ...
    let r = updates(&mut c, app, vec![UpdateContainerRequest::demote(g, 0)]);
    assert_eq!(r.updated.len(), 1);
    // ... and after the new attempt demoted it.
    let req = AllocateRequest {
        response_id: c.response_ids[&app],
        releases: vec![g],
        ..Default::default()
    };
    let r = c.cs.allocate(c.now, app, &req);
    c.check();
    let r = r.expect("release accepted");
    assert_eq!(r.completed.len(), 1);
    assert!(c.cs.container(g).is_none());
}

// 9. A seeded random mix.

struct Sim {
    cs: CapacityScheduler,
    rng: SplitMix,
    seed: u64,
    step: usize,
    now: i64,
    cap: Option<usize>,
    hosts: Vec<(String, String)>,
    nodes: Vec<Option<NodeId>>,
    queue_caps: Vec<i32>,
    apps: Vec<AppId>,
    response_ids: HashMap<AppId, i32>,
    blacklist: HashMap<AppId, BTreeSet<String>>,
    seen: HashSet<YarnContainerId>,
    versions: HashMap<ContainerId, i32>,
    ended: HashSet<ContainerId>,
    /// What happened, to check that the mix exercised every path.
    stats: BTreeMap<String, usize>,
    /// Attempts may end keeping their running containers for the next one (pending updates
    /// die with the attempt: a_pending_increase_dies_with_its_attempt).
    keep_mode: bool,
}

impl Sim {
    fn new(seed: u64) -> Sim {
        let cap = (seed % 2 == 1).then_some(4);
        let mut props = format!(
            "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.a.maximum-capacity=100
yarn.scheduler.capacity.root.b.maximum-capacity=100
yarn.scheduler.capacity.root.a.user-limit-factor=2
yarn.scheduler.capacity.root.b.user-limit-factor=2
yarn.scheduler.capacity.maximum-am-resource-percent=0.5
yarn.resourcemanager.nm-container-queuing.sorting-nodes-interval-ms=300
{ENABLED}"
        );
        if let Some(cap) = cap {
            props.push_str(&format!(
                "yarn.resourcemanager.opportunistic.max.container-allocation.per.am.heartbeat={cap}\n"
            ));
        }
        let conf = capsched::config::CapacitySchedulerConfiguration::from_properties_str(&props)
            .expect("configuration");
        let mut s = Sim {
            cs: CapacityScheduler::new(std::sync::Arc::new(conf), 1_700_000_000_000, seed),
            rng: SplitMix(seed),
            seed,
            step: 0,
            now: 0,
            cap,
            hosts: (0..4)
                .map(|i| (format!("h{i}"), format!("/r{}", i % 2)))
                .collect(),
            nodes: vec![None; 4],
            queue_caps: vec![0; 4],
            apps: Vec::new(),
            response_ids: HashMap::new(),
            blacklist: HashMap::new(),
            seen: HashSet::new(),
            versions: HashMap::new(),
            ended: HashSet::new(),
            stats: BTreeMap::new(),
            keep_mode: seed % 3 == 0,
        };
        for i in 0..4 {
            s.add_node(i);
        }
        for (q, u) in [("a", "alice"), ("b", "bob")] {
            let app =
                s.cs.submit_application(s.now, &AppSubmission::new(q, u))
                    .unwrap();
            s.check("submit");
            s.apps.push(app);
            s.add_attempt(app, false);
        }
        s
    }

    fn count(&mut self, what: &str) {
        *self.stats.entry(what.to_string()).or_default() += 1;
    }

    fn ctx(&self, what: &str) -> String {
        format!("seed {} step {} ({what})", self.seed, self.step)
    }

    fn check(&self, what: &str) {
        if let Err(v) = self.cs.check_invariants() {
            panic!(
                "{}: invariants violated:\n  {}",
                self.ctx(what),
                v.join("\n  ")
            );
        }
    }

    fn add_node(&mut self, i: usize) {
        let (host, rack) = self.hosts[i].clone();
        let id = self
            .cs
            .add_node(
                self.now,
                &NodeSpec::new(&host, &rack, Resource::new(8 * GB, 8)),
            )
            .unwrap();
        self.nodes[i] = Some(id);
        self.queue_caps[i] = self.rng.below(5) as i32;
        self.check("add node");
    }

    fn add_attempt(&mut self, app: AppId, keep: bool) {
        self.cs
            .add_attempt(
                self.now,
                app,
                AttemptSubmission {
                    am_resource: Resource::new(GB, 1),
                    unmanaged: false,
                    keep_containers: keep,
                    recovering: false,
                },
            )
            .unwrap();
        self.response_ids.insert(app, 0);
        self.blacklist.insert(app, BTreeSet::new());
        self.check("add attempt");
    }

    fn pick<T: Copy>(&mut self, v: &[T]) -> Option<T> {
        (!v.is_empty()).then(|| v[self.rng.below(v.len() as u64) as usize])
    }

    /// The live containers of the app's current attempt that its AM has been given.
    fn containers_of(&self, app: AppId) -> Vec<ContainerId> {
        self.all_containers_of(app)
            .into_iter()
            .filter(|id| self.versions.contains_key(id))
            .collect()
    }

    /// The live containers of the app's current attempt, guaranteed and opportunistic.
    fn all_containers_of(&self, app: AppId) -> Vec<ContainerId> {
        self.cs
            .application(app)
            .and_then(|a| a.attempt.as_ref())
            .map(|t| {
                t.live_containers
                    .iter()
                    .chain(&t.opportunistic_containers)
                    .copied()
                    .collect()
            })
            .unwrap_or_default()
    }

    fn random_ask(&mut self, opp: bool) -> Vec<ResourceRequest> {
        let priority = 1 + self.rng.below(3) as i32;
        let mb = 512 * (1 + self.rng.below(4) as i64);
        let n = self.rng.below(5) as i32;
        let mut v = Vec::new();
        if self.rng.chance(30) {
            let i = self.rng.below(4) as usize;
            let name = if self.rng.chance(50) {
                self.hosts[i].0.clone()
            } else {
                self.hosts[i].1.clone()
            };
            v.push(ResourceRequest::at(
                priority,
                &name,
                Resource::new(mb, 1),
                n.max(1),
            ));
        }
        v.push(ResourceRequest::any(priority, Resource::new(mb, 1), n));
        if opp {
            v = v.into_iter().map(opportunistic).collect();
        }
        v
    }

    fn random_updates(&mut self, app: AppId) -> Vec<UpdateContainerRequest> {
        let mut out = Vec::new();
        for _ in 0..self.rng.below(3) {
            let cands = self.containers_of(app);
            let Some(id) = self.pick(&cands) else {
                break;
            };
            // The version the AM was last told, as a real AM would send; now and then a wrong
            // one.
            let current = self.versions[&id];
            let resource = self.cs.container(id).unwrap().resource;
            let version = if self.rng.chance(10) {
                current + 1
            } else {
                current
            };
            let req = match self.rng.below(4) {
                0 => UpdateContainerRequest::promote(id, version),
                1 => UpdateContainerRequest::demote(id, version),
                k => UpdateContainerRequest {
                    container: id,
                    version,
                    update_type: if k == 2 {
                        ContainerUpdateType::IncreaseResource
                    } else {
                        ContainerUpdateType::DecreaseResource
                    },
                    execution_type: ExecutionType::Guaranteed,
                    capability: Some(if k == 2 {
                        resource + Resource::new(512 * (1 + self.rng.below(2) as i64), 0)
                    } else {
                        Resource::new((resource.memory_mb() - 512).max(512), resource.vcores())
                    }),
                },
            };
            out.push(req);
        }
        out
    }

    fn allocate(&mut self, app: AppId, mut req: AllocateRequest, what: &str) {
        if self
            .cs
            .application(app)
            .and_then(|a| a.attempt.as_ref())
            .is_none()
        {
            return;
        }
        req.response_id = self.response_ids[&app];
        let r = self
            .cs
            .allocate(self.now, app, &req)
            .unwrap_or_else(|e| panic!("{}: allocate failed: {e:?}", self.ctx(what)));
        self.check(what);
        self.response_ids.insert(app, r.response_id);
        // The opportunistic allocator's blacklist: removals, then additions.
        let bl = self.blacklist.get_mut(&app).unwrap();
        for h in &req.blacklist_removals {
            bl.remove(h);
        }
        bl.extend(req.blacklist_additions.iter().cloned());
        let bl = bl.clone();
        let mut fresh_opp = 0;
        for a in &r.allocated {
            assert!(
                self.seen.insert(a.yarn_id),
                "{}: id {:?} reused",
                self.ctx(what),
                a.yarn_id
            );
            if a.execution_type == ExecutionType::Opportunistic {
                fresh_opp += 1;
                *self
                    .stats
                    .entry("allocated opportunistic".into())
                    .or_default() += 1;
                assert_eq!(a.version, 0, "{}", self.ctx(what));
                assert!(
                    !bl.contains(&*a.host),
                    "{}: blacklisted {}",
                    self.ctx(what),
                    a.host
                );
                assert!(self.cs.node(a.node).is_some(), "{}", self.ctx(what));
            }
            self.versions.insert(a.id, a.version);
        }
        if let Some(cap) = self.cap {
            assert!(
                fresh_opp <= cap,
                "{}: {fresh_opp} > cap {cap}",
                self.ctx(what)
            );
        }
        // Versions the AM held before this response.
        let known = self.versions.clone();
        for u in &r.updated {
            let expected = match u.update_type {
                ContainerUpdateType::PromoteExecutionType => Some(ExecutionType::Guaranteed),
                ContainerUpdateType::DemoteExecutionType => Some(ExecutionType::Opportunistic),
                _ => None,
            };
            if let Some(t) = expected {
                assert_eq!(u.container.execution_type, t, "{}", self.ctx(what));
            }
            if let Some(&old) = known.get(&u.container.id) {
                assert!(
                    u.container.version > old,
                    "{}: version not bumped",
                    self.ctx(what)
                );
            }
            self.versions.insert(u.container.id, u.container.version);
            *self
                .stats
                .entry(format!("{:?}", u.update_type))
                .or_default() += 1;
        }
        for s in &r.completed {
            assert!(
                self.ended.insert(s.id),
                "{}: completed twice",
                self.ctx(what)
            );
            assert!(self.cs.container(s.id).is_none(), "{}", self.ctx(what));
            *self.stats.entry("completed".into()).or_default() += 1;
        }
        for e in &r.update_errors {
            assert!(
                [
                    INVALID_CONTAINER_ID,
                    INCORRECT_CONTAINER_VERSION_ERROR,
                    UPDATE_OUTSTANDING_ERROR,
                    RESOURCE_OUTSIDE_ALLOWED_RANGE
                ]
                .contains(&e.reason.as_str()),
                "{}: reason {}",
                self.ctx(what),
                e.reason
            );
            assert_eq!(
                e.reason == INVALID_CONTAINER_ID,
                e.current_version == -1,
                "{}",
                self.ctx(what)
            );
            *self.stats.entry(e.reason.clone()).or_default() += 1;
        }
    }

    fn node_update(&mut self, i: usize) {
        let Some(node) = self.nodes[i] else {
            return;
        };
        let n = self.cs.node(node).unwrap();
        let here: Vec<ContainerId> = n
            .containers
            .iter()
            .chain(n.opportunistic())
            .copied()
            .collect();
        let mut status = NodeStatus::default();
        for id in here {
            let state = self.cs.container(id).unwrap().state;
            if state == ContainerState::Acquired && self.rng.chance(70) {
                status.launched.push(id);
            }
            if self.rng.chance(15) {
                let exit = [0, -108, 1, -100][self.rng.below(4) as usize];
                status.completed.push(CompletedContainer {
                    id,
                    exit_status: exit,
                    diagnostics: String::new(),
                });
            }
        }
        if self.rng.chance(80) {
            status.opportunistic = Some(queue_report(self.rng.below(6) as i32, self.queue_caps[i]));
        }
        let r = self
            .cs
            .node_update(self.now, node, &status)
            .unwrap_or_else(|e| panic!("{}: node_update failed: {e:?}", self.ctx("node update")));
        self.check("node update");
        for id in &r.to_kill {
            assert!(
                self.cs.container(*id).is_none(),
                "{}",
                self.ctx("to_kill of a live one")
            );
        }
        assert!(r.queuing_limit.is_some(), "{}", self.ctx("node update"));
    }

    fn step(&mut self) {
        self.step += 1;
        self.now += self.rng.below(60) as i64;
        let apps = self.apps.clone();
        let app = self.pick(&apps).unwrap();
        match self.rng.below(100) {
            0..=19 => {
                let asks = self.random_ask(true);
                self.allocate(
                    app,
                    AllocateRequest {
                        asks,
                        ..Default::default()
                    },
                    "opp ask",
                );
            }
            20..=29 => {
                let asks = self.random_ask(false);
                self.allocate(
                    app,
                    AllocateRequest {
                        asks,
                        ..Default::default()
                    },
                    "ask",
                );
            }
            30..=54 => {
                let i = self.rng.below(4) as usize;
                self.node_update(i);
            }
            55..=71 => {
                let mut req = AllocateRequest {
                    update_requests: self.random_updates(app),
                    ..Default::default()
                };
                if self.rng.chance(30) {
                    let cands = self.containers_of(app);
                    req.releases.extend(self.pick(&cands));
                }
                if self.rng.chance(10) {
                    let i = self.rng.below(4) as usize;
                    req.blacklist_additions.push(self.hosts[i].0.clone());
                }
                if self.rng.chance(10) {
                    let i = self.rng.below(4) as usize;
                    req.blacklist_removals.push(self.hosts[i].0.clone());
                }
                self.allocate(app, req, "updates");
            }
            72..=75 => {
                let i = self.rng.below(4) as usize;
                if let Some(node) = self.nodes[i].take() {
                    self.cs.remove_node(self.now, node).unwrap();
                    self.check("remove node");
                    self.count("node removed");
                }
            }
            76..=81 => {
                let i = self.rng.below(4) as usize;
                if self.nodes[i].is_none() {
                    self.add_node(i);
                }
            }
            82..=84 => {
                let has = self.cs.application(app).unwrap().attempt.is_some();
                if has {
                    let keep = self.keep_mode && self.rng.chance(50);
                    self.cs.remove_attempt(self.now, app, keep).unwrap();
                    self.check("remove attempt");
                    self.count(if keep {
                        "attempt removed keeping containers"
                    } else {
                        "attempt removed"
                    });
                }
            }
            85..=89 => {
                if self.cs.application(app).unwrap().attempt.is_none() {
                    let keep = self.keep_mode && self.rng.chance(70);
                    self.add_attempt(app, keep);
                }
            }
            _ => {
                self.now += self.rng.below(700) as i64;
                self.allocate(app, AllocateRequest::default(), "pull");
            }
        }
    }
}

#[test]
fn seeded_random_events_keep_every_invariant() {
    let started = std::time::Instant::now();
    let mut total: BTreeMap<String, usize> = BTreeMap::new();
    // CAPSCHED_SWEEP=n adds seeds 100..100+n (a longer search, e.g. in release mode).
    let sweep: u64 = std::env::var("CAPSCHED_SWEEP")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let seeds = [1u64, 2, 3, 4, 5, 6, 0x5eed, 0xdead_beef]
        .into_iter()
        .chain(100..100 + sweep);
    for seed in seeds {
        let mut s = Sim::new(seed);
        for _ in 0..1500 {
            s.step();
        }
        for (k, v) in s.stats {
            *total.entry(k).or_default() += v;
        }
    }
    eprintln!("random mix in {:?}: {total:?}", started.elapsed());
    // The mix reached every path it is meant to exercise.
    for what in [
        "allocated opportunistic",
        "PromoteExecutionType",
        "DemoteExecutionType",
        "IncreaseResource",
        "DecreaseResource",
        "completed",
        "node removed",
        "attempt removed",
        "attempt removed keeping containers",
        INVALID_CONTAINER_ID,
        INCORRECT_CONTAINER_VERSION_ERROR,
        UPDATE_OUTSTANDING_ERROR,
    ] {
        assert!(total.get(what).copied().unwrap_or(0) > 0, "never: {what}");
    }
}

/// `capsched.opportunistic.allocation.follow-queue-order`: a later application gets no central
/// opportunistic containers while one ahead of it in the leaf still waits for some; YARN (the
/// default) serves whichever AM heartbeats first.
#[test]
fn follow_queue_order_serves_the_earlier_application_first() {
    for follow in [false, true] {
        let extra = format!("capsched.opportunistic.allocation.follow-queue-order={follow}\n");
        let (mut c, n, first, _) = three_nodes(&extra, 2);
        // Every node queue fills: 6 placed, 4 left outstanding.
        assert_eq!(
            asks(&mut c, first, vec![opp_any(1, 1000, 10)])
                .allocated
                .len(),
            6
        );
        let second = c.app("a", "bob", GB);
        c.heartbeat(n[1]);
        assert!(pull(&mut c, second).allocated.iter().any(|a| a.is_am));
        // The queues drain; the next event after a sorting interval re-sorts with room on
        // every node.
        for &node in &n {
            c.now += 1;
            report(&mut c, node, 0, 2);
        }
        c.now += 1001;
        let got = asks(&mut c, second, vec![opp_any(1, 1000, 2)])
            .allocated
            .len();
        if follow {
            assert_eq!(got, 0, "the first application still waits for 4");
            assert_eq!(pull(&mut c, first).allocated.len(), 4);
            assert_eq!(pull(&mut c, second).allocated.len(), 2, "now its turn");
        } else {
            assert_eq!(got, 2, "YARN: whoever heartbeats first");
        }
    }
}

/// `capsched.opportunistic.guaranteed-avoids-opportunistic`: a guaranteed container neither
/// takes nor reserves the room a node's opportunistic containers take while the cluster has
/// room free of them elsewhere; once it has none, it takes that room as YARN does (the
/// NodeManager then kills or pauses them). Off (YARN), the scheduler does not see them.
#[test]
fn guaranteed_containers_go_around_opportunistic_ones_while_there_is_room_elsewhere() {
    for avoid in [false, true] {
        let extra = format!("capsched.opportunistic.guaranteed-avoids-opportunistic={avoid}\n");
        let (mut c, n, app, _) = three_nodes(&extra, 10);
        // h1 and h2 full of opportunistic containers; h0 runs the AM (1 GB of 8).
        let r = asks(
            &mut c,
            app,
            vec![
                opp_at(1, "h1", 1024, 8),
                opp_at(1, "h2", 1024, 8),
                opp_any(1, 1024, 16),
            ],
        );
        assert_eq!(r.allocated.len(), 16);
        assert_eq!((opp_on(&c, n[1]), opp_on(&c, n[2])), (8, 8));
        c.ask(app, 5, 1024, 1);
        let on_h1 = c.heartbeat(n[1]);
        if !avoid {
            assert_eq!(on_h1, 1, "YARN: h1 looks empty to the capacity scheduler");
            continue;
        }
        assert_eq!(on_h1, 0, "7 GB free of opportunistic containers on h0");
        assert!(
            c.cs.node(n[1]).unwrap().reserved.is_none(),
            "nor is h1 reserved"
        );
        assert_eq!(c.heartbeat(n[0]), 1, "it lands on h0");
        // h0 fills with guaranteed containers: no room free of opportunistic ones is left,
        // and the next one takes h1's.
        c.ask(app, 5, 1024, 7);
        let on_h0: u32 = (0..6).map(|_| c.heartbeat(n[0])).sum();
        assert_eq!(on_h0, 6, "one off-switch container per heartbeat");
        assert_eq!(c.heartbeat(n[1]), 1, "the cluster has nothing else");
    }
}
