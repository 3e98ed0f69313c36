//! The AMRMProxy's `DistributedScheduler` (spec O7): local ids, the round-robin spread over
//! the least-loaded nodes, locality and the blacklist, what is forwarded to the RM, and the
//! whole loop through the RM core, which records the containers placed beside the node.

mod common;
use std::sync::Arc;

use capsched::config::opportunistic::{
    DIST_SCHEDULING_ENABLED, DIST_WITHOUT_OPPORTUNISTIC, OPPORTUNISTIC_ALLOCATION_ENABLED,
};
use capsched::ids::{ApplicationAttemptId, ApplicationId, ContainerId, NodeId};
use capsched::opportunistic::distributed::{DistributedParams, DistributedScheduler};
use capsched::opportunistic::node_queue::NodeQueueReport;
use capsched::records::{
    diagnostics, exit_status, AllocateRequest, ContainerState, ExecutionType, NodeStatus,
    RemoteNode, ResourceRequest, UpdateContainerRequest, ANY,
};
use capsched::resource::Resource;
use common::cluster::*;

fn attempt() -> ApplicationAttemptId {
    ApplicationAttemptId {
        application: ApplicationId {
            cluster_timestamp: 1_700_000_000_000,
            id: 1,
        },
        attempt: 1,
    }
}

fn params(container_id_start: i64) -> DistributedParams {
    DistributedParams {
        min: Resource::new(1024, 1),
        max: Resource::new(8192, 8),
        increment: Resource::new(1024, 1),
        container_id_start,
        resource_types: 2,
        max_allocations_per_heartbeat: -1,
    }
}

fn remote(i: u64, host: &str, rack: &str) -> RemoteNode {
    RemoteNode {
        node: NodeId::from_u64(i),
        host: Arc::from(host),
        rack: rack.to_string(),
    }
}

fn three_nodes() -> Vec<RemoteNode> {
    vec![
        remote(1, "h1", "/r1"),
        remote(2, "h2", "/r1"),
        remote(3, "h3", "/r2"),
    ]
}

fn opp(priority: i32, name: &str, mb: i64, n: i32) -> ResourceRequest {
    let mut r = ResourceRequest::at(priority, name, Resource::new(mb, 1), n);
    r.execution_type = ExecutionType::Opportunistic;
    r
}

fn asks(asks: Vec<ResourceRequest>) -> AllocateRequest {
    AllocateRequest {
        asks,
        ..Default::default()
    }
}

/// The hosts of the containers a forwarded request carries, in placement order.
fn placed_hosts(ds: &DistributedScheduler, req: &AllocateRequest) -> Vec<String> {
    req.remotely_allocated
        .iter()
        .map(|a| {
            let n = ds.nodes().iter().find(|n| n.node == a.node).unwrap();
            n.host.to_string()
        })
        .collect()
}

#[test]
fn local_ids_count_down_from_the_start() {
    let mut ds = DistributedScheduler::new(attempt(), params(0), three_nodes());
    let out = ds.allocate(asks(vec![opp(1, ANY, 1024, 3)]));
    let ids: Vec<i64> = out
        .remotely_allocated
        .iter()
        .map(|a| a.yarn_id.container_id)
        .collect();
    assert_eq!(ids, vec![-1, -2, -3]);
    assert_eq!(ds.ids_issued(), 3);
    for a in &out.remotely_allocated {
        assert_eq!(a.yarn_id.attempt, attempt());
    }
    // Printed as YARN's ContainerId.toString prints them: no epoch prefix (epoch −1 is not
    // > 0) and the low 40 bits as the sequence.
    assert_eq!(
        out.remotely_allocated[0].yarn_id.to_string(),
        "container_1700000000000_0001_01_1099511627775"
    );
    assert_eq!(
        out.remotely_allocated[1].yarn_id.to_string(),
        "container_1700000000000_0001_01_1099511627774"
    );

    // Epoch 5: start = 5 << 40, so the first id is the last one of epoch 4's range.
    let mut ds = DistributedScheduler::new(attempt(), params(5 << 40), three_nodes());
    let out = ds.allocate(asks(vec![opp(1, ANY, 1024, 1)]));
    let id = out.remotely_allocated[0].yarn_id;
    assert_eq!(id.container_id, (5 << 40) - 1);
    assert_eq!(
        id.to_string(),
        "container_e04_1700000000000_0001_01_1099511627775"
    );
}

#[test]
fn one_container_per_node_per_call_the_rest_waits_for_the_next() {
    let mut ds = DistributedScheduler::new(attempt(), params(0), three_nodes());
    let out = ds.allocate(asks(vec![opp(1, ANY, 1024, 6)]));
    assert_eq!(placed_hosts(&ds, &out), vec!["h1", "h2", "h3"]);
    assert_eq!(ds.outstanding().total(), 3);
    // The next heartbeat (no new asks) places the other three, again one per node.
    let out = ds.allocate(AllocateRequest::default());
    assert_eq!(placed_hosts(&ds, &out), vec!["h1", "h2", "h3"]);
    let ids: Vec<i64> = out
        .remotely_allocated
        .iter()
        .map(|a| a.yarn_id.container_id)
        .collect();
    assert_eq!(ids, vec![-4, -5, -6]);
    assert!(ds.outstanding().is_empty());
    assert!(ds
        .allocate(AllocateRequest::default())
        .remotely_allocated
        .is_empty());
}

#[test]
fn the_per_heartbeat_cap_and_normalisation() {
    let mut p = params(0);
    p.max_allocations_per_heartbeat = 2;
    let mut ds = DistributedScheduler::new(attempt(), p, three_nodes());
    let out = ds.allocate(asks(vec![opp(1, ANY, 1500, 3), opp(1, ANY, 20_000, 1)]));
    assert_eq!(out.remotely_allocated.len(), 2);
    // DRF normalisation: up to the 1024 step, down to the maximum.
    let sizes: Vec<Resource> = out.remotely_allocated.iter().map(|a| a.resource).collect();
    assert_eq!(
        sizes,
        vec![Resource::new(2048, 1), Resource::new(8192, 1)],
        "one per (key, capability) entry per pass"
    );
    assert_eq!(ds.outstanding().total(), 2);
}

#[test]
fn node_local_first_then_the_blacklist_is_skipped() {
    let mut ds = DistributedScheduler::new(attempt(), params(0), three_nodes());
    // Two wanted on h3: node-local may reuse a node already given a container in this call.
    let out = ds.allocate(asks(vec![opp(1, ANY, 1024, 2), opp(1, "h3", 1024, 2)]));
    assert_eq!(placed_hosts(&ds, &out), vec!["h3", "h3"]);
    assert!(ds.outstanding().is_empty());

    // A rack ask goes to the rack's first listed node.
    let out = ds.allocate(asks(vec![opp(1, ANY, 1024, 1), opp(1, "/r1", 1024, 1)]));
    assert_eq!(placed_hosts(&ds, &out), vec!["h1"]);

    // h1 blacklisted: a node-local ask for it falls through to the first other node, the
    // rack ask to the rack's other node, and the blacklist still goes on to the RM.
    let out = ds.allocate(AllocateRequest {
        asks: vec![opp(2, ANY, 1024, 1), opp(2, "h1", 1024, 1)],
        blacklist_additions: vec!["h1".to_string()],
        ..Default::default()
    });
    assert_eq!(placed_hosts(&ds, &out), vec!["h2"]);
    assert_eq!(out.blacklist_additions, vec!["h1".to_string()]);
    assert!(ds.blacklist().contains("h1"));
    let out = ds.allocate(asks(vec![opp(3, ANY, 1024, 1), opp(3, "/r1", 1024, 1)]));
    assert_eq!(placed_hosts(&ds, &out), vec!["h2"]);

    // Every listed node blacklisted: the ask waits.
    let out = ds.allocate(AllocateRequest {
        asks: vec![opp(4, ANY, 1024, 1)],
        blacklist_additions: vec!["h2".to_string(), "h3".to_string()],
        ..Default::default()
    });
    assert!(out.remotely_allocated.is_empty());
    assert_eq!(ds.outstanding().total(), 1);
    let out = ds.allocate(AllocateRequest {
        blacklist_removals: vec!["h3".to_string()],
        ..Default::default()
    });
    assert_eq!(placed_hosts(&ds, &out), vec!["h3"]);
}

#[test]
fn guaranteed_asks_are_forwarded_unchanged_and_opportunistic_ones_kept() {
    let mut ds = DistributedScheduler::new(attempt(), params(0), vec![]);
    let g1 = ResourceRequest::any(1, Resource::new(2048, 2), 4);
    let g2 = ResourceRequest::at(1, "h1", Resource::new(2048, 2), 1);
    let update = UpdateContainerRequest::promote(ContainerId::from_u64(9), 0);
    let request = AllocateRequest {
        response_id: 7,
        asks: vec![g1.clone(), opp(1, ANY, 1024, 2), g2.clone()],
        releases: vec![ContainerId::from_u64(5)],
        blacklist_additions: vec!["h9".to_string()],
        blacklist_removals: vec!["h8".to_string()],
        update_requests: vec![update.clone()],
        remotely_allocated: vec![],
    };
    let out = ds.allocate(request.clone());
    assert_eq!(
        out,
        AllocateRequest {
            asks: vec![g1, g2],
            ..request
        },
        "no node listed yet: nothing placed"
    );
    assert_eq!(ds.outstanding().total(), 2);
    // The RM's list arrives; the kept asks are placed on the next heartbeat.
    ds.update_nodes(three_nodes());
    let out = ds.allocate(AllocateRequest {
        response_id: 8,
        ..Default::default()
    });
    assert_eq!(out.response_id, 8);
    assert!(out.asks.is_empty());
    assert_eq!(placed_hosts(&ds, &out), vec!["h1", "h2"]);
}

const OPPORTUNISTIC: &str = "\
yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.maximum-am-resource-percent=1
yarn.resourcemanager.opportunistic-container-allocation.enabled=true
yarn.nodemanager.distributed-scheduling.enabled=true
";

#[test]
fn end_to_end_through_the_rm_core() {
    let mut c = Cluster::new(OPPORTUNISTIC);
    let nodes = [
        c.node("h1", "/r1", 8 * GB, 8),
        c.node("h2", "/r1", 8 * GB, 8),
        c.node("h3", "/r2", 8 * GB, 8),
    ];
    let app = c.app("a", "alice", GB);
    c.heartbeat(nodes[0]);
    let r = c.allocate(app, vec![], vec![]);
    assert!(r.allocated[0].is_am);
    let used_before = c.queue_used_mb("a");
    assert_eq!(used_before, GB);

    // Queue reports, then past one sorting interval so the monitor sorts them all.
    let report = NodeStatus {
        opportunistic: Some(NodeQueueReport {
            queue_capacity: 10,
            ..Default::default()
        }),
        ..Default::default()
    };
    for n in nodes {
        c.now += 1;
        c.cs.node_update(c.now, n, &report).unwrap();
    }
    c.now += 1000;
    let resp = c.cs.node_update(c.now, nodes[0], &report).unwrap();
    c.check();
    assert_eq!(resp.least_loaded.len(), 3);

    // Registration, with what the RM would send.
    let a = c.cs.application(app).unwrap();
    let attempt = ApplicationAttemptId {
        application: a.application_id,
        attempt: a.attempt.as_ref().unwrap().attempt_id,
    };
    let s = c.cs.configuration().settings();
    let params = DistributedParams {
        min: s.minimum_allocation,
        max: s.maximum_allocation,
        increment: s.minimum_allocation,
        container_id_start: 0,
        resource_types: s.resource_types.count(),
        max_allocations_per_heartbeat: c
            .cs
            .opportunistic_settings()
            .max_allocations_per_am_heartbeat,
    };
    let mut ds = DistributedScheduler::new(attempt, params, resp.least_loaded.clone());

    // The AM asks for three opportunistic containers and one guaranteed through the proxy.
    let request = AllocateRequest {
        response_id: c.response_ids[&app],
        asks: vec![
            opp(1, ANY, GB, 3),
            ResourceRequest::any(1, Resource::new(GB, 1), 1),
        ],
        ..Default::default()
    };
    let forwarded = ds.allocate(request);
    assert_eq!(forwarded.remotely_allocated.len(), 3);
    assert_eq!(forwarded.asks.len(), 1);
    let resp = c.cs.allocate(c.now, app, &forwarded).unwrap();
    c.response_ids.insert(app, resp.response_id);
    c.check();
    assert_eq!(resp.allocated.len(), 3);
    for (got, sent) in resp.allocated.iter().zip(&forwarded.remotely_allocated) {
        assert!(got.remotely_allocated);
        assert_eq!(got.execution_type, ExecutionType::Opportunistic);
        assert_eq!(got.version, 0);
        assert!(got.yarn_id.container_id < 0);
        assert_eq!(got.yarn_id, sent.yarn_id);
        assert_eq!(
            (got.node, got.resource, got.key),
            (sent.node, sent.resource, sent.key)
        );
        assert_eq!(
            c.cs.container(got.id).map(|x| x.state),
            Some(ContainerState::Acquired)
        );
    }
    let mut hosts: Vec<&str> = resp.allocated.iter().map(|x| &*x.host).collect();
    hosts.sort();
    assert_eq!(hosts, vec!["h1", "h2", "h3"]);
    assert_eq!(
        c.queue_used_mb("a"),
        used_before,
        "opportunistic: charged to nothing"
    );
    assert!(c.cs.check_invariants().is_ok());
    // The response carries the list for the next round.
    assert_eq!(resp.opportunistic_nodes.len(), 3);
    ds.update_nodes(resp.opportunistic_nodes.clone());

    // The AM releases one, through the proxy.
    let victim = resp.allocated[0].id;
    let forwarded = ds.allocate(AllocateRequest {
        response_id: resp.response_id,
        releases: vec![victim],
        ..Default::default()
    });
    assert!(forwarded.remotely_allocated.is_empty());
    let resp = c.cs.allocate(c.now, app, &forwarded).unwrap();
    c.check();
    assert_eq!(resp.completed.len(), 1);
    assert_eq!(resp.completed[0].id, victim);
    assert_eq!(resp.completed[0].exit_status, exit_status::ABORTED);
    assert_eq!(
        resp.completed[0].diagnostics,
        diagnostics::RELEASED_BY_APPLICATION
    );
    assert!(c.cs.container(victim).is_none());
    let t = c.cs.application(app).unwrap().attempt.as_ref().unwrap();
    assert_eq!(t.opportunistic_containers.len(), 2);
    assert_eq!(c.queue_used_mb("a"), used_before);
}

#[test]
fn distributed_without_central_allocation_is_rejected() {
    let errors = common::errors(&[
        (OPPORTUNISTIC_ALLOCATION_ENABLED, "false"),
        (DIST_SCHEDULING_ENABLED, "true"),
    ]);
    assert_eq!(
        DIST_WITHOUT_OPPORTUNISTIC,
        "Invalid parameters: opportunistic container allocation has to be enabled when distributed scheduling is enabled."
    );
    common::assert_error(
        &errors,
        DIST_WITHOUT_OPPORTUNISTIC,
        None,
        Some(DIST_SCHEDULING_ENABLED),
    );
}
