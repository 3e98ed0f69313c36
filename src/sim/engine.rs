//! The discrete-event loop: simulated NodeManagers and ApplicationMasters heartbeat the
//! deterministic core in virtual time. The same inputs and seed give the same run.

use crate::sync::Arc;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::Instant;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::am::{AmSim, AmState, SimTask, TaskState};
use super::metrics::{JobRecord, QueueSample, Sample};
use super::nm::NmSim;
use super::trace::{SimDefaults, TraceJob, TraceNode};
use crate::config::CapacitySchedulerConfiguration;
use crate::ids::{AppId, ContainerId, NodeId};
use crate::preempt::policy::PreemptionPolicy;
use crate::resource::Resource;
use crate::scheduler::apps::{AppSubmission, AttemptSubmission};
use crate::scheduler::nodes::NodeSpec;
use crate::scheduler::types::{
    AllocateRequest, ContainerState, ExecutionType, UpdateContainerRequest,
};
use crate::scheduler::CapacityScheduler;
use crate::state::queue::QueueId;

/// What to simulate.
pub struct SimulationInput {
    pub conf: Arc<CapacitySchedulerConfiguration>,
    pub nodes: Vec<TraceNode>,
    pub jobs: Vec<TraceJob>,
}

#[derive(Debug, Clone)]
pub struct SimulationOptions {
    pub seed: u64,
    pub defaults: SimDefaults,
    /// Tracking interval (SLS: 1 s).
    pub track_interval_ms: i64,
    /// Stop here even if jobs remain (a safety net for traces that can never finish).
    pub max_time_ms: i64,
    /// Run the invariant checker after every event (tests; slow on big traces).
    pub check_invariants: bool,
    /// Show a progress bar on stderr (drawn only when stderr is a terminal).
    pub progress: bool,
    /// Run the preemption monitor every `monitoring_interval`: `None` follows the
    /// configuration (`yarn.resourcemanager.scheduler.monitor.enable` and `.policies`).
    pub preemption: Option<bool>,
    /// Percentage of each job's maps asked for as OPPORTUNISTIC (MapReduce's
    /// `mapreduce.job.num-opportunistic-maps-percent`), on top of what the trace marks.
    pub opportunistic_percent: u32,
    /// AMs promote each opportunistic container once started (the distributed shell's
    /// `-promote_opportunistic_after_start`).
    pub promote_opportunistic_after_start: bool,
}

impl Default for SimulationOptions {
    fn default() -> Self {
        SimulationOptions {
            seed: 1,
            defaults: SimDefaults::default(),
            track_interval_ms: 1000,
            max_time_ms: 30 * 24 * 3600 * 1000,
            check_invariants: false,
            progress: false,
            preemption: None,
            opportunistic_percent: 0,
            promote_opportunistic_after_start: false,
        }
    }
}

/// A leaf queue as reported: path and its guaranteed and maximum shares of the cluster.
#[derive(Debug, Clone)]
pub struct LeafInfo {
    pub path: String,
    pub guaranteed_share: f64,
    pub max_share: f64,
}

/// Everything a run produced.
#[derive(Debug, Clone)]
pub struct SimulationResult {
    pub samples: Vec<Sample>,
    pub jobs: Vec<JobRecord>,
    pub leaves: Vec<LeafInfo>,
    pub cluster: Resource,
    pub end_ms: i64,
    pub wall_ms: f64,
    pub containers_allocated: u64,
    pub node_updates: u64,
    pub allocate_calls: u64,
    /// Tasks marked opportunistic that ran as guaranteed because opportunistic allocation is
    /// off in the configuration (see docs/SIMULATOR.md).
    pub opportunistic_as_guaranteed: u64,
    /// Whether the RM allocated opportunistic containers, how many, how many the
    /// NodeManagers killed or rejected (−108), and how many were promoted.
    pub opportunistic_enabled: bool,
    pub opportunistic_allocated: u64,
    pub killed_by_nm: u64,
    pub promotions: u64,
    /// Task containers that completed successfully.
    pub tasks_completed: u64,
    /// Whether the preemption monitor ran, its rounds, and what they did.
    pub preemption_enabled: bool,
    pub preemption_rounds: u64,
    pub containers_marked: u64,
    pub containers_preempted: u64,
    /// Attempts restarted because their AM container was preempted or lost.
    pub am_restarts: u64,
    /// Wall time of the preemption rounds (snapshot, policy, apply), in total.
    pub preemption_wall_ms: f64,
    pub timed_out: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    Track,
    JobStart(usize),
    NodeHeartbeat(usize),
    AmHeartbeat(usize),
    /// The preemption monitor's round (SchedulingMonitor, every `monitoring_interval`).
    PreemptionRound,
    /// A container on NodeManager `usize` reaches its end time.
    ContainerEnd(usize, ContainerId),
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("{0}")]
    Input(String),
    #[error("invariant violated at {time_ms} ms after {event}: {violations}")]
    Invariant {
        time_ms: i64,
        event: String,
        violations: String,
    },
}

/// Splits SLS's `/rack/host` names; a bare name has no rack.
pub fn split_rack_host(name: &str) -> (Option<String>, String) {
    match name.rfind('/') {
        Some(i) if i > 0 => (Some(name[..i].to_string()), name[i + 1..].to_string()),
        Some(_) => (None, name[1..].to_string()),
        None => (None, name.to_string()),
    }
}

fn rack_name(rack: &str) -> String {
    if rack.starts_with('/') {
        rack.to_string()
    } else {
        format!("/{rack}")
    }
}

struct Sim {
    cs: CapacityScheduler,
    events: BinaryHeap<Reverse<(i64, u64, Event)>>,
    seq: u64,
    nms: Vec<NmSim>,
    nm_by_node: HashMap<NodeId, usize>,
    rack_of_host: HashMap<String, String>,
    ams: Vec<AmSim>,
    leaves: Vec<QueueId>,
    opts: SimulationOptions,
    samples: Vec<Sample>,
    unfinished: usize,
    containers_allocated: u64,
    node_updates: u64,
    allocate_calls: u64,
    /// Wall time and call counts since the last sample.
    nu_ns: u128,
    nu_calls: u64,
    al_ns: u128,
    al_calls: u64,
    opportunistic_as_guaranteed: u64,
    opportunistic_allocated: u64,
    promotions: u64,
    /// AMs go through a `DistributedScheduler` (yarn.nodemanager.distributed-scheduling.enabled).
    distributed: bool,
    policy: Option<PreemptionPolicy>,
    preemption_rounds: u64,
    containers_marked: u64,
    containers_preempted: u64,
    am_restarts: u64,
    preemption_ns: u128,
}

impl Sim {
    fn push(&mut self, at: i64, e: Event) {
        self.seq += 1;
        self.events.push(Reverse((at, self.seq, e)));
    }
}

/// Replays `input` to the end (every job finished or rejected) or to `max_time_ms`.
pub fn simulate(
    input: SimulationInput,
    opts: SimulationOptions,
) -> Result<SimulationResult, SimError> {
    let started = Instant::now();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(opts.seed);
    let mut cs = CapacityScheduler::new(input.conf.clone(), 1_000_000, opts.seed);
    let opp = input.conf.opportunistic().clone();
    let mut nms = Vec::with_capacity(input.nodes.len());
    let mut nm_by_node = HashMap::new();
    let mut rack_of_host = HashMap::new();
    for n in &input.nodes {
        let rack = rack_name(&n.rack);
        let spec = NodeSpec::new(&n.host, &rack, Resource::new(n.memory_mb, n.vcores));
        let id = cs
            .add_node(0, &spec)
            .map_err(|e| SimError::Input(format!("node {}: {e}", n.host)))?;
        nm_by_node.insert(id, nms.len());
        rack_of_host.insert(n.host.clone(), rack.clone());
        nms.push(NmSim::new(
            id,
            spec.resource,
            opp.nm_max_queue_length,
            opp.nm_queue_policy,
        ));
    }
    if nms.is_empty() {
        return Err(SimError::Input("the simulation has no nodes".into()));
    }
    let mut opportunistic = 0;
    let percent = opts.opportunistic_percent.min(100) as usize;
    let promote = opts.promote_opportunistic_after_start;
    let ams: Vec<AmSim> = input
        .jobs
        .into_iter()
        .map(|job| {
            // MapReduce makes the first ⌊maps × percent / 100⌋ maps opportunistic.
            let maps = job.tasks.iter().filter(|t| t.task_type != "reduce").count();
            let opportunistic_maps = maps * percent / 100;
            let mut map_index = 0;
            let tasks = job
                .tasks
                .iter()
                .map(|t| {
                    let reduce = t.task_type == "reduce";
                    let by_percent = !reduce && map_index < opportunistic_maps;
                    if !reduce {
                        map_index += 1;
                    }
                    let (rack_from_host, host) = match &t.host {
                        Some(h) => {
                            let (r, h) = split_rack_host(h);
                            (r, Some(h))
                        }
                        None => (None, None),
                    };
                    let rack = t.rack.clone().or(rack_from_host).map(|r| rack_name(&r));
                    let mut execution: ExecutionType = t.execution_type.into();
                    if by_percent {
                        execution = ExecutionType::Opportunistic;
                    }
                    // With opportunistic allocation off the RM schedules these asks as
                    // guaranteed, so the AM treats them as such.
                    if execution == ExecutionType::Opportunistic && !opp.enabled {
                        opportunistic += 1;
                        execution = ExecutionType::Guaranteed;
                    }
                    SimTask {
                        host,
                        rack,
                        duration_ms: t.duration_ms.max(0),
                        resource: Resource::new(t.memory_mb, t.vcores),
                        reduce,
                        execution,
                        request_delay_ms: t.request_delay_ms.max(0),
                        state: TaskState::Pending,
                        attempts: 0,
                    }
                })
                .collect();
            let mut am = AmSim::new(job, tasks);
            am.promote_after_start = promote;
            am
        })
        .collect();
    let leaves: Vec<QueueId> = cs.queue_tree().leaves().collect();
    let preemption = input.conf.preemption();
    let policy = opts
        .preemption
        .unwrap_or_else(|| preemption.proportional_policy_enabled())
        .then(|| PreemptionPolicy::new(preemption.clone()));
    let mut sim = Sim {
        cs,
        events: BinaryHeap::new(),
        seq: 0,
        nms,
        nm_by_node,
        rack_of_host,
        unfinished: ams.len(),
        ams,
        leaves,
        opts,
        samples: Vec::new(),
        containers_allocated: 0,
        node_updates: 0,
        allocate_calls: 0,
        nu_ns: 0,
        nu_calls: 0,
        al_ns: 0,
        al_calls: 0,
        opportunistic_as_guaranteed: opportunistic,
        opportunistic_allocated: 0,
        promotions: 0,
        distributed: opp.distributed_enabled,
        policy,
        preemption_rounds: 0,
        containers_marked: 0,
        containers_preempted: 0,
        am_restarts: 0,
        preemption_ns: 0,
    };
    let nm_interval = sim.opts.defaults.nm_heartbeat_ms.max(1);
    for i in 0..sim.nms.len() {
        // NodeManagers start out of phase, as real ones do.
        let offset = (rng.next_u64() % nm_interval as u64) as i64;
        sim.push(offset, Event::NodeHeartbeat(i));
    }
    for j in 0..sim.ams.len() {
        let at = sim.ams[j].job.start_ms.max(0);
        sim.push(at, Event::JobStart(j));
    }
    sim.push(0, Event::Track);
    let monitoring_interval = input.conf.preemption().monitoring_interval_ms.max(1);
    if sim.policy.is_some() {
        sim.push(monitoring_interval, Event::PreemptionRound);
    }

    let progress = if sim.opts.progress {
        let bar = indicatif::ProgressBar::new(sim.ams.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} jobs {msg}",
            )
            .expect("static template")
            .progress_chars("=> "),
        );
        Some(bar)
    } else {
        None
    };

    let mut now = 0;
    let mut timed_out = false;
    while let Some(Reverse((at, _, event))) = sim.events.pop() {
        now = at;
        if now > sim.opts.max_time_ms {
            timed_out = true;
            break;
        }
        match event {
            Event::Track => {
                sim.cs.expire_containers(now);
                sample(&mut sim, now);
                if sim.unfinished > 0 {
                    let next = now + sim.opts.track_interval_ms;
                    sim.push(next, Event::Track);
                }
            }
            Event::JobStart(j) => start_job(&mut sim, now, j),
            Event::ContainerEnd(i, c) => {
                let started = sim.nms[i].container_end(now, c);
                schedule_ends(&mut sim, i, started);
            }
            Event::NodeHeartbeat(i) => {
                let status = sim.nms[i].status();
                let t = Instant::now();
                let response = sim
                    .cs
                    .node_update(now, sim.nms[i].id, &status)
                    .expect("a registered node");
                sim.nu_ns += t.elapsed().as_nanos();
                sim.nu_calls += 1;
                sim.node_updates += 1;
                sim.containers_allocated += response.allocated as u64;
                let mut started = sim.nms[i].kill(now, &response.to_kill);
                if let Some(limit) = response.queuing_limit {
                    started.extend(sim.nms[i].shed_to(now, limit.max_queue_length));
                }
                schedule_ends(&mut sim, i, started);

                if sim.unfinished > 0 {
                    sim.push(now + nm_interval, Event::NodeHeartbeat(i));
                }
            }
            Event::PreemptionRound => {
                preemption_round(&mut sim, now);
                if sim.unfinished > 0 {
                    sim.push(now + monitoring_interval, Event::PreemptionRound);
                }
            }
            Event::AmHeartbeat(j) => {
                am_heartbeat(&mut sim, now, j);
                if let Some(p) = &progress {
                    p.set_position((sim.ams.len() - sim.unfinished) as u64);
                }
            }
        }
        if sim.opts.check_invariants {
            if let Err(v) = sim.cs.check_invariants() {
                return Err(SimError::Invariant {
                    time_ms: now,
                    event: format!("{event:?}"),
                    violations: v.join("; "),
                });
            }
        }
        // Every job finished or rejected: a finished AM schedules no further heartbeat and
        // NodeManagers stop with the last job, so nothing is left to replay.
        if sim.unfinished == 0 {
            break;
        }
    }
    sample(&mut sim, now);
    if let Some(p) = progress {
        p.finish_and_clear();
    }
    let cluster = sim.cs.cluster_resource();
    let tree = sim.cs.queue_tree();
    let leaves = sim
        .leaves
        .iter()
        .map(|&q| LeafInfo {
            path: tree.path(q).to_string(),
            guaranteed_share: tree.queue(q).capacities.absolute_capacity as f64,
            max_share: tree.queue(q).capacities.absolute_maximum_capacity as f64,
        })
        .collect();
    let jobs = sim
        .ams
        .iter()
        .map(|a| JobRecord {
            id: a.job.id.clone(),
            queue: a.job.queue.clone(),
            user: a.job.user.clone(),
            trace_start_ms: a.job.start_ms,
            trace_end_ms: a.job.end_ms,
            submit_ms: a.submit_ms,
            am_start_ms: a.am_started_ms,
            first_task_ms: a.first_task_ms,
            finish_ms: a.finish_ms,
            tasks: a.tasks.len(),
            rejected: (a.state == AmState::Rejected).then(|| "rejected".to_string()),
            preempted: a.preempted,
        })
        .collect();
    Ok(SimulationResult {
        samples: sim.samples,
        jobs,
        leaves,
        cluster,
        end_ms: now,
        wall_ms: started.elapsed().as_secs_f64() * 1000.0,
        containers_allocated: sim.containers_allocated,
        node_updates: sim.node_updates,
        allocate_calls: sim.allocate_calls,
        opportunistic_as_guaranteed: sim.opportunistic_as_guaranteed,
        opportunistic_enabled: opp.enabled,
        opportunistic_allocated: sim.opportunistic_allocated,
        killed_by_nm: sim
            .nms
            .iter()
            .map(|n| n.killed_by_container_scheduler)
            .sum(),
        promotions: sim.promotions,
        tasks_completed: sim.ams.iter().map(|a| a.containers_completed).sum(),
        preemption_enabled: sim.policy.is_some(),
        preemption_rounds: sim.preemption_rounds,
        containers_marked: sim.containers_marked,
        containers_preempted: sim.containers_preempted,
        am_restarts: sim.am_restarts,
        preemption_wall_ms: sim.preemption_ns as f64 / 1e6,
        timed_out,
    })
}

fn start_job(sim: &mut Sim, now: i64, j: usize) {
    let (queue, user) = (sim.ams[j].job.queue.clone(), sim.ams[j].job.user.clone());
    let mut sub = AppSubmission::new(&queue, &user);
    sub.priority = Some(sim.ams[j].job.priority);
    sim.ams[j].submit_ms = now;
    match sim.cs.submit_application(now, &sub) {
        Ok(app) => {
            let am = sim.ams[j].am_resource();
            sim.cs
                .add_attempt(now, app, AttemptSubmission::with_am(am))
                .expect("a fresh application takes an attempt");
            let a = &mut sim.ams[j];
            a.app = Some(app);
            a.state = AmState::Submitted;
            let next = now + sim.opts.defaults.am_heartbeat_ms.max(1);
            sim.push(next, Event::AmHeartbeat(j));
        }
        Err(rejection) => {
            let a = &mut sim.ams[j];
            a.state = AmState::Rejected;
            a.finish_ms = None;
            a.job.queue = format!("{} (rejected: {})", a.job.queue, rejection.message);
            sim.unfinished -= 1;
        }
    }
}

fn am_heartbeat(sim: &mut Sim, now: i64, j: usize) {
    let Some(app) = sim.ams[j].app else { return };
    if sim.ams[j].state == AmState::Running && sim.ams[j].registered_ms.is_none() {
        sim.ams[j].registered_ms = Some(now);
    }
    let asks = if sim.ams[j].state == AmState::Running {
        sim.ams[j].asks(now)
    } else {
        Vec::new()
    };
    let update_requests = std::mem::take(&mut sim.ams[j].to_promote)
        .into_iter()
        .map(|(c, version)| UpdateContainerRequest::promote(c, version))
        .collect();
    let mut req = AllocateRequest {
        response_id: sim.ams[j].response_id,
        asks,
        update_requests,
        ..Default::default()
    };
    let t = Instant::now();
    // With distributed scheduling the AM talks to its node's AMRMProxy: opportunistic asks are
    // placed there and only the rest, with those placements, goes on to the RM.
    if sim.distributed && sim.ams[j].state == AmState::Running {
        if sim.ams[j].distributed.is_none() {
            sim.ams[j].distributed = Some(
                sim.cs
                    .register_distributed(now, app)
                    .expect("the AM's own attempt"),
            );
        }
        if let Some(ds) = sim.ams[j].distributed.as_mut() {
            req = ds.allocate(req);
        }
    }
    let response = sim
        .cs
        .allocate(now, app, &req)
        .expect("the AM's own attempt");
    if let Some(ds) = sim.ams[j].distributed.as_mut() {
        ds.update_nodes(response.opportunistic_nodes.clone());
    }
    sim.al_ns += t.elapsed().as_nanos();
    sim.al_calls += 1;
    sim.allocate_calls += 1;
    let a = &mut sim.ams[j];
    a.response_id = response.response_id;
    if a.take_completions(&response) {
        restart_attempt(sim, now, j, app);
        return;
    }
    let rack_of = |host: &str| sim.rack_of_host.get(host).cloned().unwrap_or_default();
    let (launch, surplus) = a.take_allocations(now, &response, rack_of);
    sim.opportunistic_allocated += response
        .allocated
        .iter()
        .filter(|c| c.execution_type == ExecutionType::Opportunistic)
        .count() as u64;
    for (container, duration) in launch {
        let Some(c) = sim.cs.container(container) else {
            continue;
        };
        let (node, resource, execution) = (c.node, c.resource, c.execution_type);
        if let Some(&i) = sim.nm_by_node.get(&node) {
            let started = sim.nms[i].launch(now, container, resource, execution, duration);
            schedule_ends(sim, i, started);
        }
        if Some(container) == sim.ams[j].am_container {
            sim.ams[j].state = AmState::Running;
        }
    }
    // Promoted containers: the AM hands the new token to their NodeManager.
    for u in &response.updated {
        if let Some(&i) = sim.nm_by_node.get(&u.container.node) {
            sim.promotions += 1;
            let started =
                sim.nms[i].update_execution_type(now, u.container.id, u.container.execution_type);
            schedule_ends(sim, i, started);
        }
    }
    if !surplus.is_empty() {
        let rid = sim.ams[j].response_id;
        let release = AllocateRequest {
            response_id: rid,
            releases: surplus,
            ..Default::default()
        };
        let r = sim
            .cs
            .allocate(now, app, &release)
            .expect("releasing our own containers");
        sim.ams[j].response_id = r.response_id;
        if sim.ams[j].take_completions(&r) {
            restart_attempt(sim, now, j, app);
            return;
        }
    }
    let a = &mut sim.ams[j];
    if a.state == AmState::Running && a.registered_ms.is_some() && a.all_done() {
        // Unregister: the attempt ends (its AM container is killed on its node), the app leaves.
        sim.cs
            .remove_attempt(now, app, false)
            .expect("live attempt");
        sim.cs
            .remove_application(now, app)
            .expect("live application");
        a.state = AmState::Finished;
        a.finish_ms = Some(now);
        sim.unfinished -= 1;
        return;
    }
    let next = now + sim.opts.defaults.am_heartbeat_ms.max(1);
    sim.push(next, Event::AmHeartbeat(j));
}

/// Schedules the end of each container that started on NodeManager `i`.
fn schedule_ends(sim: &mut Sim, i: usize, started: Vec<super::nm::Started>) {
    for (c, end) in started {
        if end != super::nm::UNTIL_KILLED {
            sim.push(end, Event::ContainerEnd(i, c));
        }
    }
}

/// The AM container ended under a running attempt (preempted, lost, expired): the RM ends
/// the attempt, killing its other containers, and starts a new one. A preempted AM does not
/// count against `yarn.resourcemanager.am.max-attempts`, so the restart is unconditional.
fn restart_attempt(sim: &mut Sim, now: i64, j: usize, app: AppId) {
    sim.cs
        .remove_attempt(now, app, false)
        .expect("the attempt whose AM was lost");
    let am = sim.ams[j].am_resource();
    sim.cs
        .add_attempt(now, app, AttemptSubmission::with_am(am))
        .expect("a new attempt for a live application");
    sim.ams[j].restart();
    sim.am_restarts += 1;
    let next = now + sim.opts.defaults.am_heartbeat_ms.max(1);
    sim.push(next, Event::AmHeartbeat(j));
}

/// One round of ProportionalCapacityPreemptionPolicy over the scheduler's current state.
fn preemption_round(sim: &mut Sim, now: i64) {
    let Some(policy) = sim.policy.as_mut() else {
        return;
    };
    let t = Instant::now();
    let snapshot = sim.cs.preemption_snapshot();
    let events = policy.edit_schedule(&snapshot, now);
    let outcome = sim.cs.apply_preemption(now, &events);
    sim.preemption_ns += t.elapsed().as_nanos();
    sim.preemption_rounds += 1;
    sim.containers_marked += outcome.marked as u64;
    sim.containers_preempted += outcome.killed as u64;
}

fn sample(sim: &mut Sim, now: i64) {
    if sim.samples.last().is_some_and(|s| s.time_ms == now) {
        sim.samples.pop();
    }
    let cluster = sim.cs.cluster_resource();
    let allocated: Resource = sim.cs.nodes().map(|(_, n)| n.allocated).sum();
    let running_containers = sim
        .cs
        .containers()
        .filter(|(_, c)| {
            !c.is_opportunistic()
                && matches!(
                    c.state,
                    ContainerState::Running | ContainerState::Acquired | ContainerState::Allocated
                )
        })
        .count() as u64;
    let opportunistic_containers: u64 = sim
        .cs
        .nodes()
        .map(|(_, n)| n.opportunistic.len() as u64)
        .sum();
    let nm_used: Resource = sim.nms.iter().map(|n| n.in_use()).sum();
    let queued_containers: u64 = sim.nms.iter().map(|n| n.queued().max(0) as u64).sum();
    let tasks_completed: u64 = sim.ams.iter().map(|a| a.containers_completed).sum();
    let running_applications = sim
        .ams
        .iter()
        .filter(|a| matches!(a.state, AmState::Submitted | AmState::Running))
        .count() as u64;
    let tree = sim.cs.queue_tree();
    // Outstanding containers per leaf, one pass over the applications.
    let mut pending_by_queue = vec![0u64; tree.len()];
    for (_, a) in sim.cs.applications() {
        if let Some(t) = a.attempt.as_ref() {
            pending_by_queue[a.queue] += t
                .requests
                .keys()
                .map(|(_, k)| k.outstanding().max(0) as u64)
                .sum::<u64>();
        }
    }
    let pending_total = sim.leaves.iter().map(|&q| pending_by_queue[q]).sum();
    let queues = sim
        .leaves
        .iter()
        .map(|&q| {
            let used = tree.queue(q).used - sim.cs.queue_reserved(q);
            let pending = sim.cs.queue_pending(q);
            QueueSample {
                allocated_memory: used.memory_mb(),
                allocated_vcores: used.vcores(),
                pending_memory: pending.memory_mb(),
                pending_containers: pending_by_queue[q],
            }
        })
        .collect();
    let per_call = |ns: u128, calls: u64| {
        if calls == 0 {
            0.0
        } else {
            ns as f64 / calls as f64 / 1e6
        }
    };
    sim.samples.push(Sample {
        time_ms: now,
        running_applications,
        running_containers,
        allocated_memory: allocated.memory_mb(),
        allocated_vcores: allocated.vcores(),
        available_memory: cluster.memory_mb() - allocated.memory_mb(),
        available_vcores: cluster.vcores() - allocated.vcores(),
        pending_containers: pending_total,
        nm_used_memory: nm_used.memory_mb(),
        nm_used_vcores: nm_used.vcores(),
        queued_containers,
        opportunistic_containers,
        tasks_completed,
        queues,
        node_update_ms: per_call(sim.nu_ns, sim.nu_calls),
        allocate_ms: per_call(sim.al_ns, sim.al_calls),
    });
    sim.nu_ns = 0;
    sim.nu_calls = 0;
    sim.al_ns = 0;
    sim.al_calls = 0;
}
