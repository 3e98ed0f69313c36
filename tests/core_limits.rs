//! Sizes at the edges of what the core accepts (issue 36): resources that would wrap a total
//! are refused where they enter, with a message, and nothing of the call is applied; a queue's
//! maximum allocation below the scheduler's minimum behaves as YARN's does.

mod common;
use capsched::records::{AllocateRequest, ContainerReport, ResourceRequest, SchedulerKey};
use capsched::resource::{Resource, MAX_TOTAL};
use capsched::scheduler::nodes::NodeSpec;
use capsched::scheduler::SchedulerError;
use common::cluster::*;

const ONE_LEAF: &str = "yarn.scheduler.capacity.root.queues=default
yarn.scheduler.capacity.root.default.capacity=100";

fn refused(r: Result<impl std::fmt::Debug, SchedulerError>, words: &str) {
    match r {
        Err(e) => assert!(e.to_string().contains(words), "{e}"),
        Ok(v) => panic!("accepted: {v:?}"),
    }
}

/// Issue 36.6: two NodeManagers of INT64_MAX (or 2^62) MB wrapped the cluster's total.
#[test]
fn nodes_and_resizes_that_would_wrap_the_cluster_are_refused() {
    let mut c = Cluster::new(ONE_LEAF);
    let spec = |h: &str, mb: i64| NodeSpec::new(h, "/r", Resource::new(mb, 8));
    refused(c.cs.add_node(0, &spec("max", i64::MAX)), "capsched's limit");
    let a = c.cs.add_node(0, &spec("a", MAX_TOTAL / 2)).unwrap();
    refused(
        c.cs.add_node(0, &spec("b", MAX_TOTAL / 2 + 1)),
        "capsched's limit",
    );
    let b = c.cs.add_node(0, &spec("b", MAX_TOTAL / 2)).unwrap();
    c.check();
    assert_eq!(c.cs.queue_tree().cluster_resource().memory_mb(), MAX_TOTAL);
    refused(c.cs.add_node(0, &spec("c", 8192)), "capsched's limit");
    // A resize may not wrap it either; shrinking is fine.
    refused(
        c.cs.update_node_resource(0, a, Resource::new(MAX_TOTAL / 2 + 1, 8), None),
        "capsched's limit",
    );
    c.cs.update_node_resource(0, b, Resource::new(8192, 8), None)
        .unwrap();
    c.check();
    assert_eq!(
        c.cs.queue_tree().cluster_resource().memory_mb(),
        MAX_TOTAL / 2 + 8192
    );
}

/// Issue 36.6: recovered container reports of −1 MB, more than the node, or two INT64_MAX.
#[test]
fn recovered_containers_that_are_negative_or_exceed_the_node_are_refused() {
    let mut c = Cluster::new(ONE_LEAF);
    let n = c.node("h0", "/r", 8 * GB, 8);
    let app = c.app("default", "u", GB);
    c.heartbeat(n);
    c.check();
    let report = |mb: i64, id: i64| ContainerReport {
        app,
        resource: Resource::new(mb, 1),
        key: SchedulerKey::new(1),
        container_id: id,
        is_am: false,
    };
    for containers in [
        vec![report(-1, 10)],
        vec![report(16 * GB, 10)],
        vec![report(i64::MAX, 10), report(i64::MAX, 11)],
        vec![report(5 * GB, 10), report(5 * GB, 11)],
    ] {
        let mut spec = NodeSpec::new("h1", "/r", Resource::new(8 * GB, 8));
        spec.containers = containers;
        refused(c.cs.add_node(c.now, &spec), "recovered container");
        c.check();
        assert!(c.cs.node_id("h1").is_none(), "nothing applied");
    }
    let mut spec = NodeSpec::new("h1", "/r", Resource::new(8 * GB, 8));
    spec.containers = vec![report(4 * GB, 10), report(4 * GB, 11)];
    c.cs.add_node(c.now, &spec).unwrap();
    c.check();
}

/// Issue 36.6: an ask whose total (capability × count) or whose sum with what is pending would
/// wrap is refused with YARN's exception, before anything of the call is applied.
#[test]
fn asks_that_would_wrap_the_pending_demand_are_refused() {
    let mut c = Cluster::new(&format!(
        "{ONE_LEAF}\nyarn.scheduler.maximum-allocation-mb={}\nyarn.scheduler.maximum-allocation-vcores=8",
        i32::MAX
    ));
    let n = c.node("h0", "/r", i32::MAX as i64, 8);
    let app = c.app("default", "u", GB);
    c.heartbeat(n);
    let ask = |count| ResourceRequest::any(1, Resource::new(i32::MAX as i64, 1), count);
    let req = AllocateRequest {
        response_id: *c.response_ids.get(&app).unwrap_or(&0),
        asks: vec![ask(i32::MAX), ask(i32::MAX)],
        ..Default::default()
    };
    let before = c.cs.queue_pending(0);
    refused(c.cs.allocate(c.now, app, &req), "Invalid resource request");
    assert_eq!(c.cs.queue_pending(0), before, "nothing applied");
    c.check();
    c.ask(app, 1, GB, 3);
}

/// Issue 36.4: a queue's `maximum-allocation-mb` below the scheduler's minimum allocation.
/// YARN 3.3.6 accepts the configuration (`getMaximumAllocationPerQueue` checks only against
/// the cluster's maximum), validates each ask against the queue's maximum
/// (`SchedulerUtils.validateResourceRequest`, before normalisation) and normalises it against
/// the scheduler's minimum and the cluster's maximum (`CapacityScheduler.allocate`'s
/// `normalizeResourceRequests(ask)`): a 1024 MB ask becomes a 4096 MB container; a 3000 MB
/// ask is refused. capsched does the same (docs/SEMANTICS.md, "Maximum allocation below the
/// minimum").
#[test]
fn a_queue_maximum_allocation_below_the_minimum_follows_yarn() {
    let mut c = Cluster::new(&format!(
        "{ONE_LEAF}\nyarn.scheduler.minimum-allocation-mb=4096\nyarn.scheduler.capacity.root.default.maximum-allocation-mb=2048"
    ));
    let n = c.node("h0", "/r", 32 * GB, 32);
    let app = c.app("default", "u", GB);
    c.heartbeat(n);
    c.ask(app, 1, 1024, 1);
    c.heartbeat(n);
    let got = c.ask(app, 1, 1024, 0);
    let sizes: Vec<i64> = got
        .allocated
        .iter()
        .map(|a| a.resource.memory_mb())
        .collect();
    assert_eq!(sizes, vec![4096], "{got:?}");
    let req = AllocateRequest {
        response_id: *c.response_ids.get(&app).unwrap_or(&0),
        asks: vec![ResourceRequest::any(2, Resource::new(3000, 1), 1)],
        ..Default::default()
    };
    refused(
        c.cs.allocate(c.now, app, &req),
        "requested resource is greater than maximum allowed allocation",
    );
}
