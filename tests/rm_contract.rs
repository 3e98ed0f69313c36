//! What a ResourceManager built on the engine relies on, at the runtime's API: the RM's own
//! ids kept and handed back, exactly one completion event per container (after the event that
//! says why), the AM container handed to the RM by an event from whichever thread allocated
//! it, and the response-id contract of ApplicationMasterService.

use std::collections::HashMap;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::ids::{AppId, ApplicationId, ContainerId, YarnContainerId};
use capsched::records::PendingReason;
use capsched::records::{
    AllocateRequest, CompletedContainer, ContainerReport, NodeStatus, ResourceRequest, SchedulerKey,
};
use capsched::resource::Resource;
use capsched::runtime::events::EngineEvent;
use capsched::runtime::{Engine, EngineOptions, Mode};
use capsched::scheduler::apps::app_report::AppState;
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;

const GB: i64 = 1024;
const TS: i64 = 1_410_901_177_871;

fn conf(extra: &str) -> Arc<CapacitySchedulerConfiguration> {
    let text = format!(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.a.maximum-capacity=100
yarn.scheduler.capacity.root.b.maximum-capacity=100
yarn.scheduler.capacity.maximum-am-resource-percent=0.5
{extra}"
    );
    Arc::new(CapacitySchedulerConfiguration::from_properties_str(&text).expect("valid"))
}

fn manual(extra: &str, epoch: i64) -> Engine {
    let mut o = EngineOptions::with_manual_clock(Mode::Manual, 0);
    o.cluster_timestamp = TS;
    o.rm_epoch = epoch;
    Engine::start(conf(extra), o)
}

fn submit(e: &Engine, seq: Option<i32>) -> AppId {
    let mut sub = AppSubmission::new("a", "alice");
    sub.application_id = seq.map(|id| ApplicationId {
        cluster_timestamp: TS,
        id,
    });
    let app = e.submit(sub).unwrap().expect("accepted");
    e.add_attempt(app, AttemptSubmission::with_am(Resource::new(GB, 1)))
        .unwrap();
    app
}

fn heartbeat(e: &Engine, node: capsched::ids::NodeId, status: NodeStatus) -> Vec<ContainerId> {
    e.node_update(node, status)
        .unwrap()
        .allocated_containers
        .iter()
        .map(|c| c.id)
        .collect()
}

#[test]
fn the_rms_application_ids_are_kept_and_minted_ones_never_collide_with_them() {
    let e = manual("", 0);
    let given = submit(&e, Some(5));
    let minted = submit(&e, None);
    let id = |app| e.app_report(app).unwrap().unwrap().application_id;
    assert_eq!(id(given).to_string(), "application_1410901177871_0005");
    assert_eq!(id(minted).to_string(), "application_1410901177871_0006");
    assert_eq!(
        e.application_by_yarn_id(id(given)).unwrap(),
        Some(given),
        "found by its YARN id"
    );
    let mut dup = AppSubmission::new("a", "bob");
    dup.application_id = Some(id(minted));
    let r = e.submit(dup).unwrap().expect_err("a duplicate");
    assert_eq!(
        r.message,
        "Application with id application_1410901177871_0006 is already present! Cannot add a duplicate!"
    );
    // Rejections name the RM's application.
    let mut bad = AppSubmission::new("nope", "bob");
    bad.application_id = Some(ApplicationId {
        cluster_timestamp: TS,
        id: 9,
    });
    let r = e.submit(bad).unwrap().expect_err("unknown queue");
    assert!(
        r.message
            .starts_with("Application application_1410901177871_0009 submitted by user bob"),
        "{}",
        r.message
    );
    e.remove_application(given).unwrap();
    assert_eq!(e.application_by_yarn_id(id(minted)).unwrap(), Some(minted));
    let gone = ApplicationId {
        cluster_timestamp: TS,
        id: 5,
    };
    assert_eq!(e.application_by_yarn_id(gone).unwrap(), None);
}

/// Every ended container: (why-events before its completion, its completions, exit status).
fn endings(events: &[EngineEvent]) -> HashMap<ContainerId, (Vec<&'static str>, usize, i32)> {
    let mut m: HashMap<ContainerId, (Vec<&'static str>, usize, i32)> = HashMap::new();
    for ev in events {
        match ev {
            EngineEvent::Released { container, .. } => {
                m.entry(*container).or_default().0.push("released")
            }
            EngineEvent::Preempted { container, .. } => {
                m.entry(*container).or_default().0.push("preempted")
            }
            EngineEvent::Expired { container, .. } => {
                m.entry(*container).or_default().0.push("expired")
            }
            EngineEvent::ContainerCompleted {
                container,
                exit_status,
                ..
            } => {
                let entry = m.entry(*container).or_default();
                entry.1 += 1;
                entry.2 = *exit_status;
            }
            _ => {}
        }
    }
    m
}

#[test]
fn each_container_ends_with_one_completion_after_the_event_that_says_why() {
    let e = manual("", 3);
    let node = e
        .add_node(NodeSpec::new("nm1:45454", "/r", Resource::new(16 * GB, 16)))
        .unwrap();
    let app = submit(&e, Some(1));
    let am = heartbeat(&e, node, NodeStatus::default());
    assert_eq!(am.len(), 1, "the AM container");
    let taken = e.take_am_container(app).unwrap().expect("the RM takes it");
    assert_eq!(
        taken.yarn_id.to_string(),
        "container_e03_1410901177871_0001_01_000001"
    );
    assert_eq!(&*taken.host, "nm1:45454", "the NodeId it registered with");
    assert!(e.take_am_container(app).unwrap().is_none(), "once");
    heartbeat(
        &e,
        node,
        NodeStatus {
            launched: am.clone(),
            ..Default::default()
        },
    );
    // The AM's first response: not its own container, which the RM took.
    let r = e
        .allocate(
            app,
            AllocateRequest {
                asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), 4)],
                ..Default::default()
            },
        )
        .unwrap();
    assert!(r.allocated.is_empty());
    let mut tasks = Vec::new();
    for _ in 0..4 {
        tasks.extend(heartbeat(&e, node, NodeStatus::default()));
    }
    assert_eq!(tasks.len(), 4);
    let r = e
        .allocate(
            app,
            AllocateRequest {
                response_id: r.response_id,
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(r.allocated.len(), 4);
    // Four ends: the NM reports one finished; the AM releases one; one is never launched and
    // expires (its AM did acquire it); the node shrinks below the last (killed at once).
    heartbeat(
        &e,
        node,
        NodeStatus {
            launched: tasks[..3].to_vec(),
            completed: vec![CompletedContainer {
                id: tasks[0],
                exit_status: 0,
                diagnostics: String::new(),
            }],
            ..Default::default()
        },
    );
    e.allocate(
        app,
        AllocateRequest {
            response_id: r.response_id,
            releases: vec![tasks[1]],
            ..Default::default()
        },
    )
    .unwrap();
    e.container_expired(tasks[3]).unwrap();
    // Left: the AM and task 2; the node shrinks to the AM's size (the AM goes last).
    e.update_node_resource(node, Resource::new(GB, 16), Some(0))
        .unwrap();
    let all = e.poll_events(1 << 16);
    let ends = endings(&all);
    assert_eq!(ends[&tasks[0]], (vec![], 1, 0), "finished");
    assert_eq!(ends[&tasks[1]], (vec!["released"], 1, -100), "released");
    assert_eq!(ends[&tasks[3]], (vec!["expired"], 1, -100), "expired");
    let preempted: Vec<_> = ends
        .iter()
        .filter(|(_, v)| v.0 == ["preempted"])
        .map(|(c, v)| (*c, v.1, v.2))
        .collect();
    assert_eq!(preempted, [(tasks[2], 1, -102)], "over the new total");
    // Each why-event comes before its completion, and both carry the app and the YARN id.
    for (i, ev) in all.iter().enumerate() {
        if let EngineEvent::ContainerCompleted {
            app: a,
            container,
            yarn_id,
            ..
        } = ev
        {
            assert_eq!(*a, app);
            assert_eq!(yarn_id.attempt.application.id, 1);
            let why_after = all[i..].iter().any(|later| {
                matches!(later,
                    EngineEvent::Released { container: c, .. }
                    | EngineEvent::Preempted { container: c, .. }
                    | EngineEvent::Expired { container: c, .. } if c == container)
            });
            assert!(!why_after, "{container:?}: the why after the completion");
        }
    }
    let report = e.app_report(app).unwrap().unwrap();
    assert_eq!(
        (report.preempted_containers, report.live_containers),
        (1, 1)
    );
    assert_eq!(report.state, AppState::Running);
    assert!(e.check_invariants().unwrap().is_ok());
}

#[test]
fn pending_attempts_say_why_and_activation_is_an_event() {
    // One AM fits a's AM limit (5% of 16 GB, rounded up to 1 GB).
    let e = manual(
        "yarn.scheduler.capacity.root.a.maximum-am-resource-percent=0.05",
        0,
    );
    let early = submit(&e, None);
    assert_eq!(
        e.app_report(early).unwrap().unwrap().pending_reason,
        Some(PendingReason::ClusterResourceEmpty)
    );
    e.add_node(NodeSpec::new("nm1", "/r", Resource::new(16 * GB, 16)))
        .unwrap();
    let second = submit(&e, None);
    let events = e.poll_events(1 << 16);
    let pending: Vec<_> = events
        .iter()
        .filter_map(|ev| match ev {
            EngineEvent::AppPending { app, reason, .. } => Some((*app, *reason)),
            _ => None,
        })
        .collect();
    assert_eq!(
        pending,
        [
            (early, PendingReason::ClusterResourceEmpty),
            (second, PendingReason::AmLimit)
        ]
    );
    assert!(events.iter().any(|ev| matches!(ev,
        EngineEvent::AppActivated { app, attempt } if *app == early
            && attempt.to_string().ends_with("_0001_000001"))));
    let r = e.app_report(second).unwrap().unwrap();
    assert_eq!(r.state, AppState::Accepted);
    assert_eq!(r.pending_reason, Some(PendingReason::AmLimit));
    assert!(PendingReason::AmLimit
        .diagnostics()
        .contains("Queue's AM resource limit exceeded"));
    // The first attempt ends: the second activates.
    e.remove_attempt(early, false).unwrap();
    assert!(e
        .poll_events(1 << 16)
        .iter()
        .any(|ev| matches!(ev, EngineEvent::AppActivated { app, .. } if *app == second)));
    assert_eq!(e.app_report(second).unwrap().unwrap().pending_reason, None);
}

#[test]
fn a_threaded_engine_tells_the_rm_of_an_am_container_its_async_pass_allocated() {
    // The pass runs on the engine thread after a tick, not inside any host call: its events
    // must still reach the host.
    let mut o = EngineOptions::with_manual_clock(Mode::Threaded, 0);
    o.async_scheduling = Some(true);
    o.cluster_timestamp = TS;
    let e = Engine::start(conf(""), o);
    let (tx, rx) = mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    e.set_event_sink(Some(Box::new(move |ev: &EngineEvent| {
        if let EngineEvent::AmContainerAllocated { app, yarn_id, .. } = ev {
            let _ = tx.lock().unwrap().send((*app, *yarn_id));
        }
    })));
    let node = e
        .add_node(NodeSpec::new("nm1:8041", "/r", Resource::new(8 * GB, 8)))
        .unwrap();
    let app = submit(&e, Some(42));
    let mut got = None;
    for t in 1..=50 {
        e.tick_at(t * 100).unwrap();
        if let Ok(x) = rx.recv_timeout(Duration::from_millis(200)) {
            got = Some(x);
            break;
        }
    }
    let (a, yarn_id): (AppId, YarnContainerId) = got.expect("AM_CONTAINER_ALLOCATED from the pass");
    assert_eq!(a, app);
    assert_eq!(
        yarn_id.to_string(),
        "container_1410901177871_0042_01_000001"
    );
    let c = e.take_am_container(app).unwrap().expect("to launch");
    assert_eq!((c.node, c.yarn_id), (node, yarn_id));
    let info = e.container_info(c.id).unwrap().unwrap();
    assert_eq!(info.node_address, "nm1:8041");
    assert_eq!(e.container_by_yarn_id(yarn_id).unwrap(), Some(c.id));
    e.stop();
}

#[test]
fn recovered_containers_keep_their_ids_and_new_ones_never_reuse_them() {
    let e = manual("", 2);
    let n1 = e
        .add_node(NodeSpec::new("nm1:1", "/r", Resource::new(8 * GB, 8)))
        .unwrap();
    let app = submit(&e, Some(1));
    heartbeat(&e, n1, NodeStatus::default());
    // An NM re-registers with a container of this epoch (sequence 7) and one of the epoch
    // before (sequence 9).
    let epoch = |e: i64, seq: i64| (e << 40) | seq;
    let mut spec = NodeSpec::new("nm2:1", "/r", Resource::new(8 * GB, 8));
    for id in [epoch(2, 7), epoch(1, 9)] {
        spec.containers.push(ContainerReport {
            app,
            resource: Resource::new(GB, 1),
            key: SchedulerKey {
                priority: 1,
                allocation_request_id: 0,
            },
            container_id: id,
            is_am: false,
        });
    }
    e.add_node(spec).unwrap();
    for (text, seq) in [
        ("container_e02_1410901177871_0001_01_000007", 7),
        ("container_e01_1410901177871_0001_01_000009", 9),
    ] {
        let y = YarnContainerId::parse(text).unwrap();
        let c = e.container_by_yarn_id(y).unwrap().expect(text);
        assert_eq!(
            e.container_info(c).unwrap().unwrap().yarn_id.sequence(),
            seq
        );
    }
    // The next container of this epoch comes after 7; the old epoch's 9 does not matter.
    e.allocate(
        app,
        AllocateRequest {
            asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), 1)],
            ..Default::default()
        },
    )
    .unwrap();
    let next = heartbeat(&e, n1, NodeStatus::default());
    let y = e.container_info(next[0]).unwrap().unwrap().yarn_id;
    assert_eq!(y.to_string(), "container_e02_1410901177871_0001_01_000008");
}

#[test]
fn a_recovered_attempt_asks_for_no_am_and_takes_its_running_one_back() {
    // An RM restarts: the application and its attempt come back first, then the NodeManagers
    // with what they run. Another NM registering (and heartbeating) in between must not get a
    // second AM container for the attempt.
    let e = manual("", 1);
    let other = e
        .add_node(NodeSpec::new("nm1:1", "/r", Resource::new(8 * GB, 8)))
        .unwrap();
    let mut sub = AppSubmission::new("a", "alice");
    sub.application_id = Some(ApplicationId {
        cluster_timestamp: TS,
        id: 1,
    });
    let app = e.submit(sub).unwrap().expect("accepted");
    e.add_attempt(
        app,
        AttemptSubmission {
            recovering: true,
            ..AttemptSubmission::with_am(Resource::new(GB, 1))
        },
    )
    .unwrap();
    assert!(heartbeat(&e, other, NodeStatus::default()).is_empty());
    let report = e.app_report(app).unwrap().unwrap();
    assert_eq!(report.pending, Resource::ZERO, "no AM ask");
    assert_eq!(report.am_container, None);
    // Its NM comes back with the AM (epoch 0, sequence 1) and a task (sequence 2).
    let mut spec = NodeSpec::new("nm2:1", "/r", Resource::new(8 * GB, 8));
    for (seq, is_am) in [(1, true), (2, false)] {
        spec.containers.push(ContainerReport {
            app,
            resource: Resource::new(GB, 1),
            key: SchedulerKey {
                priority: if is_am { 0 } else { 1 },
                allocation_request_id: 0,
            },
            container_id: seq,
            is_am,
        });
    }
    e.add_node(spec).unwrap();
    let report = e.app_report(app).unwrap().unwrap();
    assert_eq!(report.used, Resource::new(2 * GB, 2));
    assert_eq!(report.live_containers, 2);
    let am = report.am_container.expect("the AM container is back");
    assert_eq!(
        e.container_info(am).unwrap().unwrap().yarn_id.to_string(),
        "container_1410901177871_0001_01_000001"
    );
    // The AM goes on asking; new containers carry the new epoch.
    e.allocate(
        app,
        AllocateRequest {
            asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), 1)],
            ..Default::default()
        },
    )
    .unwrap();
    let next = heartbeat(&e, other, NodeStatus::default());
    assert_eq!(next.len(), 1);
    assert_eq!(
        e.container_info(next[0])
            .unwrap()
            .unwrap()
            .yarn_id
            .to_string(),
        "container_e01_1410901177871_0001_01_000001"
    );
    e.check_invariants().unwrap().expect("invariants hold");
    e.stop();
}

#[test]
fn nodemanagers_sharing_a_host_are_each_local_to_its_asks() {
    // MiniYARNCluster's shape: two NMs on one host, told apart by port.
    let e = manual("yarn.scheduler.capacity.root.a.user-limit-factor=2", 0);
    let n1 = e
        .add_node(NodeSpec::new(
            "localhost:40001",
            "/r",
            Resource::new(4 * GB, 4),
        ))
        .unwrap();
    let n2 = e
        .add_node(NodeSpec::new(
            "localhost:40002",
            "/r",
            Resource::new(4 * GB, 4),
        ))
        .unwrap();
    assert_ne!(n1, n2);
    assert_eq!(
        e.node_by_address("localhost:40002".into()).unwrap(),
        Some(n2)
    );
    assert_eq!(
        e.node_by_address("localhost".into()).unwrap(),
        None,
        "the host alone names neither"
    );
    let app = submit(&e, None);
    heartbeat(&e, n1, NodeStatus::default());
    let r = e
        .allocate(
            app,
            AllocateRequest {
                asks: vec![
                    ResourceRequest::at(1, "localhost", Resource::new(GB, 1), 6),
                    ResourceRequest::at(1, "/r", Resource::new(GB, 1), 6),
                    ResourceRequest::any(1, Resource::new(GB, 1), 6),
                ],
                ..Default::default()
            },
        )
        .unwrap();
    assert!(r.allocated.is_empty() || r.allocated.iter().all(|c| c.is_am));
    // Node-local on either NM: three on n1 (beside the AM), three on n2.
    let mut placed = Vec::new();
    for _ in 0..3 {
        for n in [n1, n2] {
            for id in heartbeat(&e, n, NodeStatus::default()) {
                placed.push((n, e.container_info(id).unwrap().unwrap()));
            }
        }
    }
    let on = |n| placed.iter().filter(|(m, _)| *m == n).count();
    assert_eq!((on(n1), on(n2)), (3, 3), "{placed:?}");
    assert!(placed
        .iter()
        .all(|(_, c)| c.node_type == capsched::records::NodeType::NodeLocal));
    assert!(placed.iter().all(|(n, c)| c.node_address
        == if *n == n1 {
            "localhost:40001"
        } else {
            "localhost:40002"
        }));
    e.remove_node(n1).unwrap();
    assert_eq!(e.node_by_address("localhost".into()).unwrap(), Some(n2));
    assert!(e.check_invariants().unwrap().is_ok());
}
