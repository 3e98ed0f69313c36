//! Loom models of the runtime's handoffs. Run with
//! `RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=2 cargo test --release --test loom_runtime`
//! (`.ci/run` does). Each model is small: one engine, two or three threads, one handoff.
//! Under loom the engine thread waits only on its command channel (loom has no timeouts), so
//! ticks and preemption rounds are explicit calls.
#![cfg(loom)]

use capsched::config::CapacitySchedulerConfiguration;
use capsched::records::{exit_status, AllocateRequest, NodeStatus, ResourceRequest};
use capsched::resource::Resource;
use capsched::runtime::clock::ManualClock;
use capsched::runtime::events::EventQueue;
use capsched::runtime::{Engine, EngineError, EngineOptions, Mode};
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;
use capsched::sync::Arc;
use loom::thread;

/// Runs a loom model and prints how many interleavings it explored.
fn model(name: &str, f: impl Fn() + Sync + Send + 'static) {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    RUNS.store(0, std::sync::atomic::Ordering::SeqCst);
    let f = std::sync::Arc::new(f);
    loom::model(move || {
        RUNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        f()
    });
    eprintln!(
        "{name}: {} interleavings",
        RUNS.load(std::sync::atomic::Ordering::SeqCst)
    );
}

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

fn threaded(extra: &str, clock: Arc<ManualClock>) -> Arc<Engine> {
    Arc::new(Engine::start(
        conf(extra),
        EngineOptions::new(Mode::Threaded, clock),
    ))
}

#[test]
fn a_command_racing_shutdown_is_answered_or_refused_never_lost() {
    model(
        "a_command_racing_shutdown_is_answered_or_refused_never_lost",
        || {
            let engine = threaded("", Arc::new(ManualClock::new(0)));
            let e = engine.clone();
            let host = thread::spawn(move || e.submit(AppSubmission::new("a", "u")));
            engine.stop();
            match host.join().unwrap() {
                Ok(Ok(_)) | Err(EngineError::Stopped) => {}
                other => panic!("unexpected {other:?}"),
            }
            // Nothing hangs and nothing is half-done: a stopped engine refuses politely.
            assert_eq!(
                engine.submit(AppSubmission::new("a", "u")),
                Err(EngineError::Stopped)
            );
        },
    );
}

#[test]
fn a_tick_racing_a_command_runs_both_in_some_order() {
    model("a_tick_racing_a_command_runs_both_in_some_order", || {
        let clock = Arc::new(ManualClock::new(0));
        let engine = threaded(
            "yarn.scheduler.capacity.schedule-asynchronously.enable=true\n",
            clock.clone(),
        );
        let n = engine
            .add_node(NodeSpec::new("h0", "/r", Resource::new(4 * GB, 4)))
            .unwrap();
        let app = engine
            .submit(AppSubmission::new("a", "u"))
            .unwrap()
            .unwrap();
        let e = engine.clone();
        let ticker = thread::spawn(move || e.tick());
        engine
            .add_attempt(app, AttemptSubmission::with_am(Resource::new(GB, 1)))
            .unwrap();
        ticker.join().unwrap().unwrap();
        // Whichever came first, one more pass (the engine runs one after any work) and the AM
        // container is allocated; the core is consistent.
        engine.node_update(n, NodeStatus::default()).unwrap();
        assert_eq!(engine.check_invariants().unwrap(), Ok(()));
        let r = engine.allocate(app, AllocateRequest::default()).unwrap();
        assert!(r.allocated.iter().any(|c| c.is_am));
        engine.stop();
    });
}

#[test]
fn a_reader_sees_a_whole_snapshot_old_or_new() {
    model("a_reader_sees_a_whole_snapshot_old_or_new", || {
        let engine = threaded("", Arc::new(ManualClock::new(0)));
        let e = engine.clone();
        let reader = thread::spawn(move || {
            let s = e.snapshot();
            (s.num_nodes, s.cluster)
        });
        engine
            .add_node(NodeSpec::new("h0", "/r", Resource::new(4 * GB, 4)))
            .unwrap();
        engine.refresh_snapshot().unwrap();
        let (nodes, cluster) = reader.join().unwrap();
        assert!(
            (nodes, cluster) == (0, Resource::ZERO)
                || (nodes, cluster) == (1, Resource::new(4 * GB, 4)),
            "torn snapshot: {nodes} nodes, {cluster}"
        );
        assert_eq!(engine.snapshot().num_nodes, 1);
        engine.stop();
    });
}

/// The policy planned to kill a container; its AM releases it at the same time. Whatever the
/// order, the container ends exactly once, its AM hears of it once, and the accounting holds.
#[test]
fn a_preemption_plan_racing_a_release_never_kills_twice() {
    // Set up outside the model: q.a fills the node, q.b asks; one round marks.
    let extra = "yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill=10
yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round=1.0
yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor=1.0
yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity=0
";
    model(
        "a_preemption_plan_racing_a_release_never_kills_twice",
        move || {
            let clock = Arc::new(ManualClock::new(0));
            let engine = threaded(extra, clock.clone());
            let n = engine
                .add_node(NodeSpec::new("h0", "/r", Resource::new(4 * GB, 4)))
                .unwrap();
            let start = |queue: &str| {
                let app = engine
                    .submit(AppSubmission::new(queue, "u"))
                    .unwrap()
                    .unwrap();
                engine
                    .add_attempt(app, AttemptSubmission::with_am(Resource::new(GB, 1)))
                    .unwrap();
                engine.node_update(n, NodeStatus::default()).unwrap();
                let r = engine.allocate(app, AllocateRequest::default()).unwrap();
                assert!(r.allocated[0].is_am);
                (app, r.response_id)
            };
            let (a, rid) = start("a");
            let r = engine
                .allocate(
                    a,
                    AllocateRequest {
                        response_id: rid,
                        asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), 3)],
                        ..Default::default()
                    },
                )
                .unwrap();
            for _ in 0..3 {
                // One off-switch container per heartbeat (YARN's default).
                engine.node_update(n, NodeStatus::default()).unwrap();
            }
            let r = engine
                .allocate(
                    a,
                    AllocateRequest {
                        response_id: r.response_id,
                        ..Default::default()
                    },
                )
                .unwrap();
            let tasks: Vec<_> = r.allocated.iter().map(|c| c.id).collect();
            assert_eq!(tasks.len(), 3, "a fills the node");
            let rid = r.response_id;
            // b's AM cannot fit: the policy marks a's newest task, then (after the wait) kills it.
            let b = engine
                .submit(AppSubmission::new("b", "v"))
                .unwrap()
                .unwrap();
            engine
                .add_attempt(b, AttemptSubmission::with_am(Resource::new(GB, 1)))
                .unwrap();
            engine
                .preemption_round()
                .unwrap()
                .expect("the policy is the host's under loom");
            clock.advance(20);
            let victim = *tasks.last().unwrap();

            let e = engine.clone();
            let release = thread::spawn(move || {
                e.allocate(
                    a,
                    AllocateRequest {
                        response_id: rid,
                        releases: vec![victim],
                        ..Default::default()
                    },
                )
            });
            let outcome = engine.preemption_round().unwrap().unwrap();
            let released = release.join().unwrap().unwrap();

            assert!(outcome.killed <= 1);
            assert_eq!(engine.check_invariants().unwrap(), Ok(()));
            // The AM hears of the victim exactly once, however it ended.
            let last = engine
                .allocate(
                    a,
                    AllocateRequest {
                        response_id: released.response_id,
                        ..Default::default()
                    },
                )
                .unwrap();
            let reports: Vec<i32> = released
                .completed
                .iter()
                .chain(&last.completed)
                .filter(|s| s.id == victim)
                .map(|s| s.exit_status)
                .collect();
            assert_eq!(reports.len(), 1, "{reports:?}");
            assert!(matches!(
                reports[0],
                exit_status::PREEMPTED | exit_status::ABORTED
            ));
            // And the event stream says one thing happened to it: preempted, or released,
            // then its one completion.
            use capsched::runtime::events::EngineEvent;
            let events = engine.poll_events(1000);
            let ended = events
                .iter()
                .filter(|e| match e {
                    EngineEvent::Preempted { container, .. } => *container == victim,
                    EngineEvent::Released { container, .. } => *container == victim,
                    _ => false,
                })
                .count();
            assert_eq!(ended, 1);
            let completed = events
                .iter()
                .filter(|e| {
                    matches!(e, EngineEvent::ContainerCompleted { container, .. }
                        if *container == victim)
                })
                .count();
            assert_eq!(completed, 1);
            engine.stop();
        },
    );
}

#[test]
fn a_full_event_queue_counts_what_it_drops_while_the_host_drains() {
    model(
        "a_full_event_queue_counts_what_it_drops_while_the_host_drains",
        || {
            let q = Arc::new(EventQueue::new(2));
            let producer = {
                let q = q.clone();
                thread::spawn(move || {
                    for _ in 0..3 {
                        q.push(capsched::runtime::events::EngineEvent::QueueRefreshed);
                    }
                })
            };
            let drained = q.drain(10).len();
            producer.join().unwrap();
            let rest = q.drain(10).len();
            assert_eq!(drained + rest + q.dropped() as usize, 3);
            assert!(q.dropped() <= 1);
        },
    );
}
