//! Lifecycle events against the core, with the invariant checker after every step.

mod common;
use capsched::records::{exit_status, CompletedContainer, NodeStatus};
use capsched::resource::Resource;
use common::cluster::*;

const TWO_QUEUES: &str = "\
yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.maximum-am-resource-percent=0.5
";

#[test]
fn am_container_then_tasks_then_release() {
    let mut c = Cluster::new(TWO_QUEUES);
    let n1 = c.node("h1", "/r1", 8 * GB, 8);
    let app = c.app("a", "alice", 1024);
    assert_eq!(
        c.heartbeat(n1),
        1,
        "the AM container is placed on the first heartbeat"
    );
    let r = c.allocate(app, vec![], vec![]);
    assert_eq!(r.allocated.len(), 1);
    assert!(r.allocated[0].is_am);
    let r = c.ask(app, 1, 1024, 3);
    assert!(r.allocated.is_empty());
    // Off-switch: one container per heartbeat by default (maximum-offswitch-assignments 1).
    assert_eq!(c.heartbeat(n1), 1);
    assert_eq!(c.heartbeat(n1), 1);
    assert_eq!(c.heartbeat(n1), 1);
    assert_eq!(c.heartbeat(n1), 0);
    let r = c.allocate(app, vec![], vec![]);
    assert_eq!(r.allocated.len(), 3);
    assert_eq!(c.queue_used_mb("a"), 4 * GB);
    let release = vec![r.allocated[0].id];
    let r = c.allocate(app, vec![], release.clone());
    assert_eq!(r.completed.len(), 1);
    assert_eq!(r.completed[0].exit_status, exit_status::ABORTED);
    assert_eq!(
        r.completed[0].diagnostics,
        "Container released by application"
    );
    assert_eq!(c.queue_used_mb("a"), 3 * GB);
    // The NM finishes another one.
    let done = r.allocated.first().map(|x| x.id);
    assert!(done.is_none());
    let live: Vec<_> =
        c.cs.application(app)
            .unwrap()
            .attempt
            .as_ref()
            .unwrap()
            .live_containers
            .iter()
            .copied()
            .collect();
    let victim = *live
        .iter()
        .find(|id| !c.cs.container(**id).unwrap().is_am)
        .unwrap();
    c.now += 1;
    c.cs.node_update(
        c.now,
        n1,
        &NodeStatus {
            launched: vec![],
            completed: vec![CompletedContainer {
                id: victim,
                exit_status: 0,
                diagnostics: String::new(),
            }],
            ..Default::default()
        },
    )
    .unwrap();
    c.check();
    let r = c.allocate(app, vec![], vec![]);
    assert_eq!(r.completed.len(), 1);
    assert_eq!(r.completed[0].exit_status, 0);
    assert_eq!(c.queue_used_mb("a"), 2 * GB);
    c.cs.remove_attempt(c.now, app, false).unwrap();
    c.check();
    c.cs.remove_application(c.now, app).unwrap();
    c.check();
    assert_eq!(c.queue_used_mb("a"), 0);
    assert_eq!(c.cs.node(n1).unwrap().allocated, Resource::ZERO);
}
