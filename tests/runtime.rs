//! The runtime: the engine thread and the manual-step mode, lifecycle, failure, the event
//! stream, asynchronous scheduling against synchronous, and a stress test of many host threads
//! against the asynchronous engine with preemption on.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use capsched::config::CapacitySchedulerConfiguration;
use capsched::ids::{AppId, ContainerId, NodeId};
use capsched::records::{AllocateRequest, NodeStatus, ResourceRequest};
use capsched::resource::Resource;
use capsched::runtime::clock::{ManualClock, SystemClock};
use capsched::runtime::events::EngineEvent;
use capsched::runtime::{Engine, EngineError, EngineOptions, Mode};
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;

const GB: i64 = 1024;

fn conf(extra: &str) -> Arc<CapacitySchedulerConfiguration> {
    let text = format!(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.a.maximum-capacity=100
yarn.scheduler.capacity.root.b.maximum-capacity=100
yarn.scheduler.capacity.root.a.user-limit-factor=2
yarn.scheduler.capacity.root.b.user-limit-factor=2
yarn.scheduler.capacity.maximum-am-resource-percent=0.5
{extra}"
    );
    Arc::new(CapacitySchedulerConfiguration::from_properties_str(&text).expect("valid"))
}

fn node(i: usize) -> NodeSpec {
    NodeSpec::new(&format!("h{i}"), "/r0", Resource::new(8 * GB, 8))
}

/// Submits an app with an attempt and waits (heartbeating `nodes`) until its AM container is
/// handed out; returns the app and the allocate response id to continue with.
fn start_app(engine: &Engine, nodes: &[NodeId], queue: &str, tick: &dyn Fn()) -> (AppId, i32) {
    let app = engine
        .submit(AppSubmission::new(queue, "u"))
        .unwrap()
        .expect("accepted");
    engine
        .add_attempt(app, AttemptSubmission::with_am(Resource::new(GB, 1)))
        .unwrap();
    let mut rid = 0;
    for _ in 0..200 {
        for &n in nodes {
            engine.node_update(n, NodeStatus::default()).unwrap();
        }
        tick();
        let r = engine
            .allocate(
                app,
                AllocateRequest {
                    response_id: rid,
                    ..Default::default()
                },
            )
            .unwrap();
        rid = r.response_id;
        if r.allocated.iter().any(|c| c.is_am) {
            return (app, rid);
        }
    }
    panic!("the AM container never came");
}

#[test]
fn a_threaded_engine_runs_the_scheduler_and_stops_cleanly() {
    let engine = Engine::start(
        conf(""),
        EngineOptions::new(Mode::Threaded, Arc::new(SystemClock::new())),
    );
    let nodes: Vec<NodeId> = (0..2).map(|i| engine.add_node(node(i)).unwrap()).collect();
    let (app, rid) = start_app(&engine, &nodes, "a", &|| {});
    let ask = ResourceRequest::any(1, Resource::new(GB, 1), 3);
    let mut got = 0;
    let mut rid = rid;
    let mut asks = vec![ask];
    for _ in 0..100 {
        let r = engine
            .allocate(
                app,
                AllocateRequest {
                    response_id: rid,
                    asks: std::mem::take(&mut asks),
                    ..Default::default()
                },
            )
            .unwrap();
        rid = r.response_id;
        got += r.allocated.len();
        if got == 3 {
            break;
        }
        for &n in &nodes {
            engine.node_update(n, NodeStatus::default()).unwrap();
        }
    }
    assert_eq!(got, 3);
    assert_eq!(engine.check_invariants().unwrap(), Ok(()));
    let snap = engine.refresh_snapshot().unwrap();
    assert_eq!(snap.num_nodes, 2);
    assert_eq!(snap.queue("root.a").unwrap().used, Resource::new(4 * GB, 4));
    let rest = engine.scheduler_json().unwrap();
    assert!(rest.contains("\"queueName\":\"a\""), "{}", &rest[..200]);
    let events = engine.poll_events(100);
    assert!(
        matches!(events[0], EngineEvent::Accepted { .. }),
        "{events:?}"
    );
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, EngineEvent::Allocated { .. }))
            .count(),
        4
    );

    engine.stop();
    engine.stop(); // idempotent
    assert_eq!(
        engine.submit(AppSubmission::new("a", "u")),
        Err(EngineError::Stopped)
    );
}

#[test]
fn a_panic_on_the_engine_thread_fails_every_later_call_with_its_message() {
    for mode in [Mode::Threaded, Mode::Manual] {
        let engine = Engine::start(
            conf(""),
            EngineOptions::new(mode, Arc::new(ManualClock::new(0))),
        );
        engine.add_node(node(0)).unwrap();
        let r = engine.with_core(|_, _| -> () { panic!("boom in the core") });
        assert_eq!(
            r,
            Err(EngineError::Failed("boom in the core".into())),
            "{mode:?}"
        );
        let after = engine.submit(AppSubmission::new("a", "u"));
        assert_eq!(
            after,
            Err(EngineError::Failed("boom in the core".into())),
            "{mode:?}"
        );
        assert_eq!(engine.failure().as_deref(), Some("boom in the core"));
        engine.stop(); // joins the dead thread without hanging
    }
}

#[test]
fn manual_mode_moves_only_when_the_host_ticks_and_steps() {
    let clock = Arc::new(ManualClock::new(1_000));
    let mut opts = EngineOptions::new(Mode::Manual, clock.clone());
    opts.async_scheduling = Some(true);
    let engine = Engine::start(conf(""), opts);
    let n = engine.add_node(node(0)).unwrap();
    let app = engine
        .submit(AppSubmission::new("a", "u"))
        .unwrap()
        .unwrap();
    engine
        .add_attempt(app, AttemptSubmission::with_am(Resource::new(GB, 1)))
        .unwrap();
    // Asynchronous scheduling: a heartbeat allocates nothing by itself.
    assert_eq!(
        engine
            .node_update(n, NodeStatus::default())
            .unwrap()
            .allocated,
        0
    );
    clock.advance(100);
    assert_eq!(
        engine.step(1).unwrap(),
        1,
        "the pass allocates the AM container"
    );
    let r = engine.allocate(app, AllocateRequest::default()).unwrap();
    assert!(r.allocated[0].is_am);
    // Acquired but never launched: a tick past the expiry interval expires it.
    clock.advance(600_001);
    engine.tick().unwrap();
    assert!(engine
        .poll_events(10)
        .iter()
        .any(|e| matches!(e, EngineEvent::Expired { .. })));
    assert_eq!(engine.snapshot().num_containers, 0);
}

#[test]
fn the_event_queue_drops_and_counts_when_the_host_falls_behind() {
    let mut opts = EngineOptions::new(Mode::Manual, Arc::new(ManualClock::new(0)));
    opts.event_capacity = 3;
    let engine = Engine::start(conf(""), opts);
    for _ in 0..5 {
        engine
            .submit(AppSubmission::new("nope", "u"))
            .unwrap()
            .unwrap_err();
    }
    assert_eq!(engine.poll_events(10).len(), 3);
    assert_eq!(engine.dropped_events(), 2);
    engine
        .submit(AppSubmission::new("nope", "u"))
        .unwrap()
        .unwrap_err();
    assert_eq!(engine.poll_events(10).len(), 1, "room again once drained");
}

/// Where allocation order cannot matter (one app, identical containers, every node filled),
/// asynchronous passes and synchronous heartbeats end in the same allocation.
#[test]
fn async_and_sync_reach_the_same_allocation() {
    let run = |asynchronous: bool| {
        let clock = Arc::new(ManualClock::new(0));
        let mut opts = EngineOptions::new(Mode::Manual, clock.clone());
        opts.async_scheduling = Some(asynchronous);
        let engine = Engine::start(conf(""), opts);
        let nodes: Vec<NodeId> = (0..4).map(|i| engine.add_node(node(i)).unwrap()).collect();
        let step = || {
            clock.advance(100);
            engine.step(1).unwrap();
        };
        let (app, rid) = start_app(&engine, &nodes, "a", &step);
        let ask = ResourceRequest::any(1, Resource::new(GB, 1), 31);
        engine
            .allocate(
                app,
                AllocateRequest {
                    response_id: rid,
                    asks: vec![ask],
                    ..Default::default()
                },
            )
            .unwrap();
        for _ in 0..20 {
            clock.advance(100);
            for &n in &nodes {
                engine.node_update(n, NodeStatus::default()).unwrap();
            }
            engine.step(1).unwrap();
        }
        assert_eq!(engine.check_invariants().unwrap(), Ok(()));
        engine
            .with_core(move |c, _| {
                let per_node: Vec<i64> =
                    c.cs.nodes().map(|(_, n)| n.allocated.memory_mb()).collect();
                (
                    per_node,
                    c.cs.application(app)
                        .unwrap()
                        .attempt
                        .as_ref()
                        .unwrap()
                        .used,
                )
            })
            .unwrap()
    };
    let (sync_nodes, sync_used) = run(false);
    let (async_nodes, async_used) = run(true);
    assert_eq!(sync_used, Resource::new(32 * GB, 32));
    assert_eq!((sync_nodes, sync_used), (async_nodes, async_used));
}

/// Eight host threads against the asynchronous engine with the preemption monitor on, for a
/// couple of seconds: AMs submit, ask, release and finish; NodeManagers heartbeat and complete
/// containers; a reader polls snapshots and events. Afterwards the invariant checker is clean
/// and every container handed out is either still live or was reported completed to its AM.
#[test]
fn eight_host_threads_against_the_async_engine_with_preemption() {
    let conf = conf(
        "yarn.scheduler.capacity.schedule-asynchronously.enable=true
yarn.scheduler.capacity.schedule-asynchronously.scheduling-interval-ms=5
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval=20
yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill=40
",
    );
    let engine = Arc::new(Engine::start(
        conf,
        EngineOptions::new(Mode::Threaded, Arc::new(SystemClock::new())),
    ));
    let nodes: Vec<NodeId> = (0..6).map(|i| engine.add_node(node(i)).unwrap()).collect();
    // Containers each NodeManager runs (the AMs tell them), as the NM thread sees them.
    let running: Arc<std::sync::Mutex<HashMap<NodeId, Vec<ContainerId>>>> = Arc::default();
    // Per app: containers handed out and containers reported completed.
    type Ledger = HashMap<AppId, (BTreeSet<ContainerId>, BTreeSet<ContainerId>)>;
    let ledger: Arc<std::sync::Mutex<Ledger>> = Arc::default();
    let deadline = Instant::now() + Duration::from_millis(1500);
    let mut threads = Vec::new();
    for t in 0..5 {
        let (engine, running, ledger) = (engine.clone(), running.clone(), ledger.clone());
        threads.push(std::thread::spawn(move || {
            let queue = if t % 2 == 0 { "a" } else { "b" };
            let mut apps: Vec<(AppId, i32)> = Vec::new();
            let mut seq = 0u64;
            while Instant::now() < deadline {
                seq += 1;
                if apps.len() < 3 {
                    if let Ok(Ok(app)) = engine.submit(AppSubmission::new(queue, &format!("u{t}")))
                    {
                        engine
                            .add_attempt(app, AttemptSubmission::with_am(Resource::new(GB, 1)))
                            .unwrap();
                        apps.push((app, 0));
                    }
                }
                for (app, rid) in apps.iter_mut() {
                    let mut req = AllocateRequest {
                        response_id: *rid,
                        ..Default::default()
                    };
                    if seq % 7 == 1 {
                        req.asks
                            .push(ResourceRequest::any(1, Resource::new(GB, 1), 12));
                    }
                    let mut l = ledger.lock().unwrap();
                    let entry = l.entry(*app).or_default();
                    // Release one running container now and then.
                    if seq % 11 == 0 {
                        if let Some(c) = entry.0.difference(&entry.1).copied().find(|c| {
                            engine
                                .with_core({
                                    let c = *c;
                                    move |core, _| core.cs.container(c).is_some_and(|x| !x.is_am)
                                })
                                .unwrap_or(false)
                        }) {
                            req.releases.push(c);
                        }
                    }
                    drop(l);
                    let Ok(r) = engine.allocate(*app, req) else {
                        continue;
                    };
                    *rid = r.response_id;
                    let mut l = ledger.lock().unwrap();
                    let entry = l.entry(*app).or_default();
                    for c in &r.allocated {
                        entry.0.insert(c.id);
                        running
                            .lock()
                            .unwrap()
                            .entry(c.node)
                            .or_default()
                            .push(c.id);
                    }
                    for s in &r.completed {
                        entry.1.insert(s.id);
                    }
                }
                // Finish the oldest app now and then.
                if seq % 40 == 0 && !apps.is_empty() {
                    let (app, _) = apps.remove(0);
                    engine.remove_application(app).unwrap();
                    ledger.lock().unwrap().remove(&app);
                }
            }
            apps
        }));
    }
    let mut nm_threads = Vec::new();
    for t in 0..2 {
        let (engine, running) = (engine.clone(), running.clone());
        let mine: Vec<NodeId> = nodes.iter().copied().skip(t).step_by(2).collect();
        nm_threads.push(std::thread::spawn(move || {
            let mut round = 0u64;
            while Instant::now() < deadline {
                round += 1;
                for &n in &mine {
                    let launched = running.lock().unwrap().remove(&n).unwrap_or_default();
                    // Every third launched container finishes at once (exit 0).
                    let completed = launched
                        .iter()
                        .filter(|c| (c.as_u64() + round) % 3 == 0)
                        .map(|&id| capsched::records::CompletedContainer {
                            id,
                            exit_status: 0,
                            diagnostics: String::new(),
                        })
                        .collect();
                    let status = NodeStatus {
                        launched,
                        completed,
                        ..Default::default()
                    };
                    engine.node_update(n, status).unwrap();
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        }));
    }
    let reader = {
        let engine = engine.clone();
        std::thread::spawn(move || {
            let mut polled = 0usize;
            while Instant::now() < deadline {
                let s = engine.snapshot();
                assert!(s.queues.len() == 3);
                polled += engine.poll_events(1000).len();
            }
            polled
        })
    };
    let live_apps: Vec<(AppId, i32)> = threads
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    for t in nm_threads {
        t.join().unwrap();
    }
    let polled = reader.join().unwrap();
    assert!(polled > 0, "the reader saw events");
    // Collect the last completions, then account for every container handed out.
    for (app, rid) in &live_apps {
        let r = engine
            .allocate(
                *app,
                AllocateRequest {
                    response_id: *rid,
                    ..Default::default()
                },
            )
            .unwrap();
        let mut l = ledger.lock().unwrap();
        let entry = l.entry(*app).or_default();
        for c in &r.allocated {
            entry.0.insert(c.id);
        }
        for s in &r.completed {
            entry.1.insert(s.id);
        }
    }
    assert_eq!(engine.check_invariants().unwrap(), Ok(()));
    let ledger = ledger.lock().unwrap().clone();
    for (app, _) in &live_apps {
        let (handed, done) = &ledger[app];
        let live: BTreeSet<ContainerId> = engine
            .with_core({
                let app = *app;
                move |c, _| {
                    c.cs.containers()
                        .filter(|(_, x)| x.app == app && !x.is_reserved())
                        .map(|(id, _)| id)
                        .collect()
                }
            })
            .unwrap();
        let outstanding: BTreeSet<ContainerId> = handed.difference(done).copied().collect();
        // Allocated but not yet pulled containers are live without having been handed out.
        assert!(
            outstanding.is_subset(&live),
            "app {app:?}: handed out and neither live nor completed: {:?}",
            outstanding.difference(&live).collect::<Vec<_>>()
        );
        assert!(
            done.is_disjoint(&live),
            "a completed container is still live"
        );
    }
    engine.stop();
}

#[test]
fn tick_at_moves_a_manual_clock_forward_only() {
    let engine = Engine::start(
        conf(""),
        EngineOptions::with_manual_clock(Mode::Manual, 5_000),
    );
    assert_eq!(engine.now_ms(), 5_000);
    engine.tick_at(6_000).unwrap();
    assert_eq!(engine.now_ms(), 6_000);
    assert!(matches!(
        engine.tick_at(5_500),
        Err(EngineError::InvalidArgument(_))
    ));
    let system = Engine::start(
        conf(""),
        EngineOptions::new(Mode::Manual, Arc::new(SystemClock::new())),
    );
    assert!(matches!(
        system.tick_at(1),
        Err(EngineError::InvalidArgument(_))
    ));
}

#[test]
fn events_say_what_the_core_did_once() {
    let engine = Engine::start(
        conf(""),
        EngineOptions::new(Mode::Manual, Arc::new(ManualClock::new(0))),
    );
    let nodes: Vec<NodeId> = (0..1).map(|i| engine.add_node(node(i)).unwrap()).collect();
    let (app, rid) = start_app(&engine, &nodes, "a", &|| {});
    let ask = ResourceRequest::any(1, Resource::new(GB, 1), 1);
    let r = engine
        .allocate(
            app,
            AllocateRequest {
                response_id: rid,
                asks: vec![ask],
                ..Default::default()
            },
        )
        .unwrap();
    engine.node_update(nodes[0], NodeStatus::default()).unwrap();
    let r = engine
        .allocate(
            app,
            AllocateRequest {
                response_id: r.response_id,
                ..Default::default()
            },
        )
        .unwrap();
    let c = r.allocated[0].id;
    // The AM retries the same call: the same answer, and no second Allocated event.
    let again = engine
        .allocate(
            app,
            AllocateRequest {
                response_id: r.response_id - 1,
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(again.allocated[0].id, c);
    // Releasing twice: the second is ignored by the scheduler, and by the event stream.
    let r = engine
        .allocate(
            app,
            AllocateRequest {
                response_id: r.response_id,
                releases: vec![c],
                ..Default::default()
            },
        )
        .unwrap();
    engine
        .allocate(
            app,
            AllocateRequest {
                response_id: r.response_id,
                releases: vec![c],
                ..Default::default()
            },
        )
        .unwrap();
    let events = engine.poll_events(100);
    let count = |f: &dyn Fn(&EngineEvent) -> bool| events.iter().filter(|e| f(e)).count();
    assert_eq!(
        count(&|e| matches!(e, EngineEvent::Allocated { container, .. } if *container == c)),
        1,
        "{events:?}"
    );
    assert_eq!(
        count(&|e| matches!(e, EngineEvent::Released { .. })),
        1,
        "{events:?}"
    );
}

#[test]
fn calling_the_engine_from_inside_its_own_call_is_refused_not_a_hang() {
    for mode in [Mode::Threaded, Mode::Manual] {
        let engine = Arc::new(Engine::start(
            conf(""),
            EngineOptions::new(mode, Arc::new(ManualClock::new(0))),
        ));
        let inner = engine.clone();
        let r = engine
            .with_core(move |_, _| inner.submit(AppSubmission::new("a", "u")))
            .unwrap();
        assert!(
            matches!(r, Err(EngineError::InvalidArgument(_))),
            "{mode:?}: {r:?}"
        );
        // Still working, and stoppable.
        assert!(engine.submit(AppSubmission::new("a", "u")).unwrap().is_ok());
        engine.stop();
    }
}

#[test]
fn the_published_snapshot_never_goes_back_in_time() {
    let engine = Arc::new(Engine::start(
        conf(""),
        EngineOptions::new(Mode::Threaded, Arc::new(SystemClock::new())),
    ));
    let deadline = Instant::now() + Duration::from_millis(300);
    let writers: Vec<_> = (0..3)
        .map(|i| {
            let e = engine.clone();
            std::thread::spawn(move || {
                while Instant::now() < deadline {
                    e.refresh_snapshot().unwrap();
                    if i == 0 {
                        e.tick().unwrap();
                    }
                }
            })
        })
        .collect();
    let mut last = 0;
    while Instant::now() < deadline {
        let s = engine.snapshot().sequence;
        assert!(s >= last, "snapshot {s} after {last}");
        last = s;
    }
    for w in writers {
        w.join().unwrap();
    }
}

/// A refreshed configuration reaches the preemption policy from the next round (YARN's
/// `updateConfigIfNeeded`): switching intra-queue preemption on by `refresh_queues` makes the
/// next host-run round take from a low-priority app for a high-priority one in the same queue.
#[test]
fn a_refresh_changes_the_preemption_settings_from_the_next_round() {
    let base = "\
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.cluster.max-application-priority=10
yarn.scheduler.capacity.root.queues=default
yarn.scheduler.capacity.root.default.capacity=100
yarn.scheduler.capacity.root.default.user-limit-factor=2
yarn.scheduler.capacity.maximum-am-resource-percent=1
";
    let conf = |extra: &str| {
        Arc::new(
            CapacitySchedulerConfiguration::from_properties_str(&format!("{base}{extra}")).unwrap(),
        )
    };
    let clock = Arc::new(ManualClock::new(0));
    let mut opts = EngineOptions::new(Mode::Manual, clock.clone());
    opts.preemption = Some(true);
    let engine = Engine::start(conf(""), opts);
    let n = engine
        .add_node(NodeSpec::new("h0", "/r", Resource::new(16 * GB, 16)))
        .unwrap();
    let submit = |priority: i32, unmanaged: bool| {
        let sub = AppSubmission {
            priority: Some(priority),
            ..AppSubmission::new("default", "alice")
        };
        let app = engine.submit(sub).unwrap().unwrap();
        let attempt = AttemptSubmission {
            am_resource: Resource::new(GB, 1),
            unmanaged,
            keep_containers: false,
            recovering: false,
        };
        engine.add_attempt(app, attempt).unwrap();
        app
    };
    let ask = |app: AppId, count: i32| {
        engine
            .allocate(
                app,
                AllocateRequest {
                    asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), count)],
                    ..Default::default()
                },
            )
            .unwrap();
    };
    let low = submit(0, true);
    ask(low, 16);
    for _ in 0..16 {
        clock.advance(100);
        engine.node_update(n, NodeStatus::default()).unwrap();
    }
    let high = submit(5, true);
    ask(high, 8);
    clock.advance(100);
    let before = engine.preemption_round().unwrap().expect("preemption on");
    assert_eq!(before.marked, 0, "intra-queue preemption is off");
    engine
        .refresh_queues(conf(
            "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled=true\n\
             yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.preemption-order-policy=priority_first\n",
        ))
        .unwrap();
    clock.advance(3_000);
    let after = engine.preemption_round().unwrap().expect("preemption on");
    assert!(after.marked > 0, "the refreshed settings are in force");
    assert_eq!(engine.check_invariants().unwrap(), Ok(()));
}

#[test]
fn the_engine_runs_the_queue_policies_the_monitor_lists_on_their_periods() {
    // b makes a dynamic leaf per user (YARN 3.4) and the deletion policy removes idle ones
    // every queue-expiration-time (2 s); a is a managed parent (YARN 3.3) whose 100% template
    // fits one active leaf, revisited every 1.5 s by the queue-management policy.
    let text = "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.a.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.a.leaf-queue-template.capacity=100
yarn.scheduler.capacity.root.b.auto-queue-creation-v2.enabled=true
yarn.scheduler.capacity.auto-queue-creation-v2.queue-expiration-time=2
yarn.scheduler.capacity.queue-mappings=u:x1:a.x1,u:x2:a.x2,u:%user:root.b.%user
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.scheduler.monitor.policies=org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AutoCreatedQueueDeletionPolicy,org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.QueueManagementDynamicEditPolicy";
    let engine = Engine::start(
        Arc::new(CapacitySchedulerConfiguration::from_properties_str(text).unwrap()),
        EngineOptions::with_manual_clock(Mode::Manual, 0),
    );
    engine
        .add_node(NodeSpec::new("h1", "/r", Resource::new(8 * GB, 8)))
        .unwrap();
    // Both policies' first rounds, at start (SchedulingMonitor's initial delay is 0).
    engine.tick_at(0).unwrap();
    let submit = |user: &str| {
        let app = engine
            .submit(AppSubmission::new("default", user))
            .unwrap()
            .unwrap();
        engine
            .add_attempt(app, AttemptSubmission::with_am(Resource::new(GB, 1)))
            .unwrap();
        app
    };
    // Absolute capacities: the dynamic leaf is b's only child; one managed leaf fills a.
    let capacity = |path: &'static str| {
        engine
            .read_core(move |cs, _now| {
                let t = cs.cs.queue_tree();
                t.find(path)
                    .ok()
                    .map(|q| t.queue(q).capacities.absolute_capacity)
            })
            .unwrap()
    };
    let carol = submit("carol");
    let x1 = submit("x1");
    submit("x2");
    assert_eq!(capacity("root.b.carol"), Some(0.5));
    assert_eq!(
        (capacity("root.a.x1"), capacity("root.a.x2")),
        (Some(0.5), Some(0.0))
    );
    engine.remove_application(carol).unwrap();
    engine.remove_application(x1).unwrap();
    // Before the periods: nothing changes.
    engine.tick_at(1_000).unwrap();
    assert_eq!(capacity("root.a.x2"), Some(0.0));
    // The queue-management round: x1's idle leaf gives its share to x2's.
    engine.tick_at(1_600).unwrap();
    assert_eq!(
        (capacity("root.a.x1"), capacity("root.a.x2")),
        (Some(0.0), Some(0.5))
    );
    // The deletion rounds: carol's leaf is marked, then (idle > 2 s) removed.
    engine.tick_at(2_100).unwrap();
    assert!(capacity("root.b.carol").is_some());
    engine.tick_at(4_200).unwrap();
    assert_eq!(capacity("root.b.carol"), None);
    assert!(engine.check_invariants().unwrap().is_ok());
    assert!(!engine.scheduler_json().unwrap().contains("root.b.carol"));
}
