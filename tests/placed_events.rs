//! Containers placed outside a node update's answer are told at placement: every container the
//! asynchronous pass places (engine thread, `tick`, `step`) or central opportunistic allocation
//! places gets one `ContainerPlaced`, before any other event about it — before its AM's
//! allocate hands it over (`Allocated`), before the AM container event, before a preemption,
//! an expiry or its completion. Containers a node update places are in its answer instead.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::ids::{AppId, ContainerId, NodeId};
use capsched::records::{
    AllocateRequest, CompletedContainer, ExecutionType, NodeQueueReport, NodeStatus,
    ResourceRequest,
};
use capsched::resource::Resource;
use capsched::runtime::clock::SystemClock;
use capsched::runtime::events::EngineEvent;
use capsched::runtime::{Engine, EngineOptions, Mode};
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

/// The event stream as a host reads it, checked as it comes: one `ContainerPlaced` per
/// container, and nothing about a container before it (unless a node update's answer listed
/// it: `heartbeat`).
#[derive(Default)]
struct Stream {
    placed: HashMap<ContainerId, capsched::records::AllocatedContainer>,
    heartbeat: HashSet<ContainerId>,
    completed: HashSet<ContainerId>,
    allocated: HashSet<ContainerId>,
    seen: Vec<EngineEvent>,
}

impl Stream {
    fn read(&mut self, engine: &Engine) {
        for e in engine.poll_events(usize::MAX) {
            self.check(&e);
            self.seen.push(e);
        }
    }

    fn known(&self, c: &ContainerId) -> bool {
        self.placed.contains_key(c) || self.heartbeat.contains(c)
    }

    fn check(&mut self, e: &EngineEvent) {
        match e {
            EngineEvent::ContainerPlaced { app, placed } => {
                assert!(placed.yarn_id.attempt.application.id > 0);
                assert!(
                    self.placed.insert(placed.id, (**placed).clone()).is_none()
                        && !self.heartbeat.contains(&placed.id),
                    "{:?} placed twice (app {app:?})",
                    placed.id
                );
            }
            EngineEvent::AmContainerAllocated { container, .. }
            | EngineEvent::Released { container, .. }
            | EngineEvent::PreemptWarned { container, .. }
            | EngineEvent::Preempted { container, .. }
            | EngineEvent::Expired { container, .. } => {
                assert!(self.known(container), "{e:?} before its placement");
            }
            EngineEvent::Allocated { container, .. } => {
                assert!(self.known(container), "{e:?} before its placement");
                self.allocated.insert(*container);
            }
            EngineEvent::ContainerCompleted { container, .. } => {
                assert!(self.known(container), "{e:?} before its placement");
                assert!(self.completed.insert(*container), "{e:?} twice");
            }
            _ => {}
        }
    }

    fn count(&self, f: impl Fn(&EngineEvent) -> bool) -> usize {
        self.seen.iter().filter(|e| f(e)).count()
    }
}

/// The AM's allocate, with every container it hands over checked against the events read when
/// it returns: each was told placed, before its ALLOCATED.
fn allocate(
    engine: &Engine,
    stream: &mut Stream,
    app: AppId,
    rid: &mut i32,
    req: AllocateRequest,
) -> Vec<ContainerId> {
    let r = engine
        .allocate(
            app,
            AllocateRequest {
                response_id: *rid,
                ..req
            },
        )
        .unwrap();
    *rid = r.response_id;
    // What the call returned was in the stream when it returned, each before its ALLOCATED
    // (`Stream::check`).
    stream.read(engine);
    for c in &r.allocated {
        if c.execution_type == ExecutionType::Guaranteed {
            if stream.heartbeat.contains(&c.id) {
                continue;
            }
            let told = stream.placed.get(&c.id).unwrap_or_else(|| {
                panic!(
                    "{:?} handed to its AM before it was told placed: {:?}",
                    c.id, stream.seen
                )
            });
            assert_eq!(told, c, "placed as it is handed over");
        }
    }
    r.allocated.iter().map(|c| c.id).collect()
}

fn submit(engine: &Engine, queue: &str) -> AppId {
    let app = engine
        .submit(AppSubmission::new(queue, "u"))
        .unwrap()
        .expect("accepted");
    engine
        .add_attempt(app, AttemptSubmission::with_am(Resource::new(GB, 1)))
        .unwrap();
    app
}

/// The RM takes the AM container once it is told allocated.
fn take_am(engine: &Engine, stream: &mut Stream, app: AppId) -> ContainerId {
    stream.read(engine);
    let ev = stream
        .seen
        .iter()
        .find_map(|e| match e {
            EngineEvent::AmContainerAllocated {
                app: a, container, ..
            } if *a == app => Some(*container),
            _ => None,
        })
        .expect("AM_CONTAINER_ALLOCATED");
    if !stream.heartbeat.contains(&ev) {
        assert!(
            stream.placed[&ev].is_am,
            "the AM container is placed as one"
        );
    }
    let taken = engine.take_am_container(app).unwrap().expect("to take");
    assert_eq!(taken.id, ev);
    ev
}

#[test]
fn a_manual_engine_tells_each_container_of_its_passes_at_placement() {
    let mut opts = EngineOptions::with_manual_clock(Mode::Manual, 0);
    opts.async_scheduling = Some(true);
    opts.preemption = Some(true);
    let engine = Engine::start(
        conf(
            "yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill=1000
yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor=1",
        ),
        opts,
    );
    let nodes: Vec<NodeId> = (0..2).map(|i| engine.add_node(node(i)).unwrap()).collect();
    let mut s = Stream::default();
    let a = submit(&engine, "a");
    // The pass places the AM container: told placed, then AM_CONTAINER_ALLOCATED.
    assert_eq!(engine.step(1).unwrap(), 1);
    let am_a = take_am(&engine, &mut s, a);
    let placed_at = |s: &Stream, c: ContainerId| {
        s.seen.iter().position(
            |e| matches!(e, EngineEvent::ContainerPlaced { placed, .. } if placed.id == c),
        )
    };
    let am_event = s
        .seen
        .iter()
        .position(|e| matches!(e, EngineEvent::AmContainerAllocated { .. }));
    assert!(placed_at(&s, am_a) < am_event);

    // Queue a takes the whole cluster through passes (step, and tick_at's pass).
    let mut rid = 0;
    let mut got = allocate(
        &engine,
        &mut s,
        a,
        &mut rid,
        AllocateRequest {
            asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), 15)],
            ..Default::default()
        },
    );
    let mut now = 0;
    while got.len() < 15 {
        engine.step(1).unwrap();
        now += 10;
        engine.tick_at(now).unwrap();
        got.extend(allocate(&engine, &mut s, a, &mut rid, Default::default()));
        assert!(now < 10_000, "queue a never got its containers");
    }
    // Some run; one is released by its AM; one finishes on its node.
    let (ran, rest) = got.split_at(8);
    for &n in &nodes {
        let status = NodeStatus {
            launched: ran.to_vec(),
            ..Default::default()
        };
        engine.node_update(n, status).unwrap();
    }
    allocate(
        &engine,
        &mut s,
        a,
        &mut rid,
        AllocateRequest {
            releases: vec![ran[0]],
            ..Default::default()
        },
    );
    let on = engine.container_info(ran[1]).unwrap().unwrap().node;
    engine
        .node_update(
            on,
            NodeStatus {
                completed: vec![CompletedContainer {
                    id: ran[1],
                    exit_status: 0,
                    diagnostics: String::new(),
                }],
                ..Default::default()
            },
        )
        .unwrap();

    // Queue b arrives: its AM placed by a pass in the room left, then preemption takes
    // from a for b's asks (warned, then killed once the wait has passed).
    let b = submit(&engine, "b");
    engine.step(1).unwrap();
    take_am(&engine, &mut s, b);
    let mut rid_b = 0;
    allocate(
        &engine,
        &mut s,
        b,
        &mut rid_b,
        AllocateRequest {
            asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), 6)],
            ..Default::default()
        },
    );
    for _ in 0..6 {
        now += 1000;
        engine.tick_at(now).unwrap();
        engine.preemption_round().unwrap();
        for &n in &nodes {
            engine.node_update(n, NodeStatus::default()).unwrap();
        }
        engine.step(1).unwrap();
        allocate(&engine, &mut s, b, &mut rid_b, Default::default());
        allocate(&engine, &mut s, a, &mut rid, Default::default());
    }
    s.read(&engine);
    assert!(
        s.count(|e| matches!(e, EngineEvent::Preempted { .. })) > 0,
        "preemption took from a"
    );

    // What was handed over but never launched expires: told after its placement too.
    now += 700_000;
    engine.tick_at(now).unwrap();
    s.read(&engine);
    assert!(rest.iter().any(|c| s.completed.contains(c)));
    assert!(s.count(|e| matches!(e, EngineEvent::Expired { .. })) > 0);

    // Attempts end: their containers complete, each after its placement.
    engine.remove_attempt(a, false).unwrap();
    engine.remove_attempt(b, false).unwrap();
    s.read(&engine);
    assert!(s.heartbeat.is_empty());
    assert_eq!(
        s.completed,
        s.placed.keys().copied().collect::<HashSet<_>>(),
        "every container placed has ended, and nothing else"
    );
    assert_eq!(engine.check_invariants().unwrap(), Ok(()));
}

#[test]
fn a_threaded_engine_tells_each_container_of_its_own_passes_before_the_am_pulls_it() {
    let mut opts = EngineOptions::new(Mode::Threaded, Arc::new(SystemClock::new()));
    opts.async_scheduling = Some(true);
    let engine = Engine::start(conf(""), opts);
    let nodes: Vec<NodeId> = (0..3).map(|i| engine.add_node(node(i)).unwrap()).collect();
    let mut s = Stream::default();
    let apps: Vec<AppId> = ["a", "b", "a"].iter().map(|q| submit(&engine, q)).collect();
    // The engine thread's passes place the AM containers (after the calls that brought work).
    let mut ams = Vec::new();
    for &app in &apps {
        let mut taken = None;
        for _ in 0..100_000 {
            s.read(&engine);
            if s.seen
                .iter()
                .any(|e| matches!(e, EngineEvent::AmContainerAllocated { app: a, .. } if *a == app))
            {
                taken = Some(take_am(&engine, &mut s, app));
                break;
            }
            engine.node_update(nodes[0], NodeStatus::default()).unwrap();
        }
        ams.push(taken.expect("the AM container came"));
    }
    let mut rids = vec![0; apps.len()];
    let mut got: Vec<Vec<ContainerId>> = vec![Vec::new(); apps.len()];
    for (i, &app) in apps.iter().enumerate() {
        got[i] = allocate(
            &engine,
            &mut s,
            app,
            &mut rids[i],
            AllocateRequest {
                asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), 5)],
                ..Default::default()
            },
        );
    }
    for round in 0.. {
        assert!(round < 100_000, "the asks were never served");
        for (i, &app) in apps.iter().enumerate() {
            let more = allocate(&engine, &mut s, app, &mut rids[i], Default::default());
            got[i].extend(more);
        }
        if got.iter().all(|g| g.len() == 5) {
            break;
        }
        engine
            .node_update(nodes[round % nodes.len()], NodeStatus::default())
            .unwrap();
    }
    // Each app releases what it got; then the apps end.
    for (i, &app) in apps.iter().enumerate() {
        allocate(
            &engine,
            &mut s,
            app,
            &mut rids[i],
            AllocateRequest {
                releases: got[i].clone(),
                ..Default::default()
            },
        );
        engine.remove_attempt(app, false).unwrap();
    }
    s.read(&engine);
    assert_eq!(s.placed.len(), 3 + 15);
    assert!(ams.iter().all(|c| s.placed.contains_key(c)));
    assert_eq!(
        s.allocated.len(),
        15,
        "the AM pulls each task once (ALLOCATED stays)"
    );
    assert_eq!(
        s.completed,
        s.placed.keys().copied().collect::<HashSet<_>>()
    );
    assert_eq!(engine.check_invariants().unwrap(), Ok(()));
}

#[test]
fn containers_a_node_update_places_are_in_its_answer_and_get_no_placed_event() {
    for mode in [Mode::Manual, Mode::Threaded] {
        let mut opts = EngineOptions::with_manual_clock(mode, 0);
        opts.async_scheduling = Some(false);
        let engine = Engine::start(conf(""), opts);
        let n = engine.add_node(node(0)).unwrap();
        let mut s = Stream::default();
        let app = submit(&engine, "a");
        let r = engine.node_update(n, NodeStatus::default()).unwrap();
        s.heartbeat
            .extend(r.allocated_containers.iter().map(|c| c.id));
        assert_eq!(r.allocated_containers.len(), 1);
        take_am(&engine, &mut s, app);
        let mut rid = 0;
        allocate(
            &engine,
            &mut s,
            app,
            &mut rid,
            AllocateRequest {
                asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), 3)],
                ..Default::default()
            },
        );
        for _ in 0..3 {
            let r = engine.node_update(n, NodeStatus::default()).unwrap();
            s.heartbeat
                .extend(r.allocated_containers.iter().map(|c| c.id));
        }
        assert_eq!(s.heartbeat.len(), 4, "the AM's and three");
        // step and tick run no pass without asynchronous scheduling.
        engine.step(3).unwrap();
        engine.tick_at(10).unwrap();
        assert_eq!(
            allocate(&engine, &mut s, app, &mut rid, Default::default()).len(),
            3
        );
        engine.remove_attempt(app, false).unwrap();
        s.read(&engine);
        assert!(s.placed.is_empty(), "{mode:?}: {:?}", s.seen);
        assert_eq!(s.completed, s.heartbeat);
    }
}

#[test]
fn central_opportunistic_containers_are_told_placed_before_they_are_handed_over() {
    let mut opts = EngineOptions::with_manual_clock(Mode::Manual, 0);
    opts.async_scheduling = Some(false);
    let engine = Engine::start(
        conf("yarn.resourcemanager.opportunistic-container-allocation.enabled=true"),
        opts,
    );
    let nodes: Vec<NodeId> = (0..2).map(|i| engine.add_node(node(i)).unwrap()).collect();
    let mut s = Stream::default();
    let app = submit(&engine, "a");
    for (i, &n) in nodes.iter().enumerate() {
        engine.tick_at(1 + i as i64).unwrap();
        let status = NodeStatus {
            opportunistic: Some(NodeQueueReport {
                queue_capacity: 4,
                ..Default::default()
            }),
            ..Default::default()
        };
        let r = engine.node_update(n, status).unwrap();
        s.heartbeat
            .extend(r.allocated_containers.iter().map(|c| c.id));
    }
    take_am(&engine, &mut s, app);
    engine.tick_at(1001).unwrap();
    let mut ask = ResourceRequest::any(1, Resource::new(GB, 1), 4);
    ask.execution_type = ExecutionType::Opportunistic;
    let mut rid = 0;
    let mut got = Vec::new();
    let mut asks = vec![ask];
    for _ in 0..10 {
        got.extend(allocate(
            &engine,
            &mut s,
            app,
            &mut rid,
            AllocateRequest {
                asks: std::mem::take(&mut asks),
                ..Default::default()
            },
        ));
        if got.len() == 4 {
            break;
        }
    }
    assert_eq!(got.len(), 4);
    for c in &got {
        let placed = s
            .seen
            .iter()
            .position(
                |e| matches!(e, EngineEvent::ContainerPlaced { placed, .. } if placed.id == *c),
            )
            .expect("told placed");
        let handed = s
            .seen
            .iter()
            .position(|e| matches!(e, EngineEvent::Allocated { container, .. } if container == c))
            .expect("told handed over");
        assert!(placed < handed);
        assert_eq!(s.placed[c].execution_type, ExecutionType::Opportunistic);
    }
}
