//! The discrete-event loop: simulated NodeManagers and ApplicationMasters heartbeat the
//! deterministic core in virtual time. The same inputs and seed give the same run.
//!
//! Two kinds of events drive it: *periodic* ones (heartbeats, tracking samples, preemption
//! rounds), which only matter while something is going on, and *work* (a job's submission, a
//! container reaching its end), which is what makes something go on. Cost grows with work, not
//! with simulated time: while the scheduler is quiescent and every AM and NodeManager has
//! nothing to say, the periodic events jump (in phase) to the next piece of work; while nothing
//! has happened for a long stretch although something is asked for (a fixed point, e.g. asks
//! that fit no node while every node is busy with long containers), they jump too. When nothing
//! can ever happen again and jobs remain, the run stops with an error naming the stuck jobs and
//! what they ask for (the watchdog), instead of spinning.

use crate::sync::Arc;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::Instant;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::am::{AmSim, AmState, TaskGroup};
use super::limits;
use super::metrics::{JobRecord, QueueSample, Sample, SeriesStats};
use super::nm::NmSim;
use super::observer::{NoObserver, Progress, SimObserver};
use super::trace::{SimDefaults, TraceJob, TraceNode};
use crate::config::CapacitySchedulerConfiguration;
use crate::ids::{AppId, ContainerId, NodeId};
use crate::opportunistic::load_monitor::LoadComparator;
use crate::opportunistic::node_queue::QueuePolicy;
use crate::preempt::policy::PreemptionPolicy;
use crate::resource::Resource;
use crate::scheduler::apps::{AppSubmission, AttemptSubmission};
use crate::scheduler::nodes::NodeSpec;
use crate::scheduler::types::{
    AllocateRequest, AllocateResponse, ContainerState, ExecutionType, UpdateContainerRequest,
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
    /// Stop here even if jobs remain. `None`: 30 days of simulated time after the trace's
    /// horizon (its last submission plus its longest request delay and task), a safety net
    /// for runs that keep working without ever finishing.
    pub max_time_ms: Option<i64>,
    /// Run the invariant checker after every event (tests; slow on big traces).
    pub check_invariants: bool,
    /// Run the preemption monitor every `monitoring_interval`: `None` follows the
    /// configuration (`yarn.resourcemanager.scheduler.monitor.enable` and `.policies`).
    pub preemption: Option<bool>,
    /// Percentage of each job's maps asked for as OPPORTUNISTIC (MapReduce's
    /// `mapreduce.job.num-opportunistic-maps-percent`), on top of what the trace marks.
    pub opportunistic_percent: u32,
    /// AMs promote each opportunistic container once started (the distributed shell's
    /// `-promote_opportunistic_after_start`).
    pub promote_opportunistic_after_start: bool,
    /// Jump over stretches where nothing can happen (on by default; off, every heartbeat of
    /// every second runs, which gives the same decisions at a cost that grows with simulated
    /// time — tests compare the two). The watchdog works either way.
    pub skip_idle: bool,
}

impl Default for SimulationOptions {
    fn default() -> Self {
        SimulationOptions {
            seed: 1,
            defaults: SimDefaults::default(),
            track_interval_ms: 1000,
            max_time_ms: None,
            check_invariants: false,
            preemption: None,
            opportunistic_percent: 0,
            promote_opportunistic_after_start: false,
            skip_idle: true,
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
    /// The tracking samples kept in memory: every one up to [`limits::MAX_KEPT_SAMPLES`], then
    /// a thinned series (an observer sees every sample).
    pub samples: Vec<Sample>,
    /// Time integrals and peaks over every sample, for the summary: `[allocated memory,
    /// allocated vcores, NodeManager memory, NodeManager vcores, each leaf's memory…]`.
    pub series: SeriesStats,
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
    /// Simulated time skipped because nothing could happen in it.
    pub skipped_ms: i64,
    pub timed_out: bool,
    /// What the run refused or worked around without stopping (a node the ResourceManager
    /// refused, …), one line each.
    pub warnings: Vec<String>,
}

/// A heartbeat, sample or monitor round: repeats at its period while jobs remain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Periodic {
    Track,
    NodeHeartbeat(usize),
    AmHeartbeat(usize),
    /// The preemption monitor's round (SchedulingMonitor, every `monitoring_interval`).
    PreemptionRound,
}

/// What makes something happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Work {
    JobStart(usize),
    /// A container on NodeManager `usize` reaches its end time.
    ContainerEnd(usize, ContainerId),
}

#[derive(Debug, Clone, Copy)]
enum Event {
    Periodic(Periodic),
    Work(Work),
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
    /// Nothing can ever happen again and jobs remain: which, and what they wait for.
    #[error("{0}")]
    Stalled(String),
    /// The observer failed to take a sample (writing the outputs).
    #[error("writing the outputs: {0}")]
    Output(#[from] std::io::Error),
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

/// The periodic events' periods, ms (each at least 1).
#[derive(Debug, Clone, Copy)]
struct Periods {
    nm: i64,
    am: i64,
    track: i64,
    monitor: i64,
}

impl Periods {
    fn of(&self, e: Periodic) -> i64 {
        match e {
            Periodic::Track => self.track,
            Periodic::NodeHeartbeat(_) => self.nm,
            Periodic::AmHeartbeat(_) => self.am,
            Periodic::PreemptionRound => self.monitor,
        }
    }
}

struct Sim {
    cs: CapacityScheduler,
    periodic: BinaryHeap<Reverse<(i64, u64, Periodic)>>,
    work: BinaryHeap<Reverse<(i64, u64, Work)>>,
    seq: u64,
    periods: Periods,
    nms: Vec<NmSim>,
    nm_by_node: HashMap<NodeId, usize>,
    rack_of_host: HashMap<String, String>,
    ams: Vec<AmSim>,
    leaves: Vec<QueueId>,
    opts: SimulationOptions,
    samples: Vec<Sample>,
    /// Samples taken since the last one kept, and how many a kept one stands for.
    since_kept: usize,
    stride: usize,
    series: SeriesStats,
    unfinished: usize,
    tasks_total: u64,
    tasks_completed: u64,
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
    /// When something last changed (an allocation, an ask, a container's start or end, a job's,
    /// a preemption mark or kill): the watchdog's measure.
    last_activity_ms: i64,
    /// How long nothing may happen, with something asked for, before the state is taken as a
    /// fixed point.
    fixed_point_ms: i64,
    skipped_ms: i64,
    /// A skip just happened: the next sample first repeats the last one just before it, so a
    /// kept series shows the flat stretch as flat.
    skipped: bool,
    /// The last sample, not yet shown to the observer.
    unsent: Option<Sample>,
    warnings: Vec<String>,
}

impl Sim {
    fn push_periodic(&mut self, at: i64, e: Periodic) {
        self.seq += 1;
        self.periodic.push(Reverse((at, self.seq, e)));
    }

    fn push_work(&mut self, at: i64, e: Work) {
        self.seq += 1;
        self.work.push(Reverse((at, self.seq, e)));
    }

    /// The next event in time (then insertion) order over both queues.
    fn pop(&mut self) -> Option<(i64, Event)> {
        let p = self.periodic.peek().map(|Reverse((t, s, _))| (*t, *s));
        let w = self.work.peek().map(|Reverse((t, s, _))| (*t, *s));
        match (p, w) {
            (None, None) => None,
            (Some(p), Some(w)) if w < p => self.pop_work(),
            (Some(_), _) => {
                let Reverse((t, _, e)) = self.periodic.pop()?;
                Some((t, Event::Periodic(e)))
            }
            (None, Some(_)) => self.pop_work(),
        }
    }

    fn pop_work(&mut self) -> Option<(i64, Event)> {
        let Reverse((t, _, e)) = self.work.pop()?;
        Some((t, Event::Work(e)))
    }

    fn active(&mut self, now: i64) {
        self.last_activity_ms = now;
    }
}

/// Replays `input` to the end (every job finished, rejected or failed) or to the time limit.
pub fn simulate(
    input: SimulationInput,
    opts: SimulationOptions,
) -> Result<SimulationResult, SimError> {
    simulate_with(input, opts, &mut NoObserver)
}

/// [`simulate`], showing every sample and the progress to `observer`.
pub fn simulate_with(
    input: SimulationInput,
    opts: SimulationOptions,
    observer: &mut dyn SimObserver,
) -> Result<SimulationResult, SimError> {
    let started = Instant::now();
    check_input(&input)?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(opts.seed);
    let mut cs = CapacityScheduler::new(input.conf.clone(), 1_000_000, opts.seed);
    let opp = input.conf.opportunistic().clone();
    let mut warnings = Vec::new();
    let mut nms = Vec::with_capacity(input.nodes.len());
    let mut nm_by_node = HashMap::with_capacity(input.nodes.len());
    let mut rack_of_host = HashMap::with_capacity(input.nodes.len());
    for n in &input.nodes {
        let rack = rack_name(&n.rack);
        let spec = NodeSpec::new(&n.host, &rack, Resource::new(n.memory_mb, n.vcores));
        match cs.add_node(0, &spec) {
            Ok(id) => {
                nm_by_node.insert(id, nms.len());
                rack_of_host.insert(n.host.clone(), rack.clone());
                nms.push(NmSim::new(
                    id,
                    spec.resource,
                    opp.nm_max_queue_length,
                    opp.nm_queue_policy,
                ));
            }
            // The ResourceManager refuses a NodeManager (too small for the smallest
            // container, a host already registered): the run goes on without it.
            Err(e) => warnings.push(format!("node {}{}: {e}", rack, format_args!("/{}", n.host))),
        }
    }
    if nms.is_empty() {
        let why = warnings
            .first()
            .map(|w| format!(": {w}"))
            .unwrap_or_default();
        return Err(SimError::Input(format!(
            "the simulation has no nodes the ResourceManager accepts{why}"
        )));
    }
    let percent = opts.opportunistic_percent.min(100) as u64;
    let promote = opts.promote_opportunistic_after_start;
    let mut opportunistic_as_guaranteed = 0;
    let mut ams: Vec<AmSim> = Vec::with_capacity(input.jobs.len());
    for mut job in input.jobs {
        let tasks = std::mem::take(&mut job.tasks);
        let groups = task_groups(
            &tasks,
            percent,
            opp.enabled,
            &mut opportunistic_as_guaranteed,
        );
        let mut am = AmSim::new(job, groups);
        am.promote_after_start = promote;
        ams.push(am);
    }
    let wants_opportunistic = ams.iter().any(|a| {
        a.groups
            .iter()
            .any(|g| g.execution == ExecutionType::Opportunistic)
    });
    if wants_opportunistic {
        check_opportunistic_can_be_placed(&opp)?;
    }
    let leaves: Vec<QueueId> = cs.queue_tree().leaves().collect();
    let preemption = input.conf.preemption().clone();
    let policy = opts
        .preemption
        .unwrap_or_else(|| preemption.proportional_policy_enabled())
        .then(|| PreemptionPolicy::new(preemption.clone()));
    let periods = Periods {
        nm: opts.defaults.nm_heartbeat_ms.max(1),
        am: opts.defaults.am_heartbeat_ms.max(1),
        track: opts.track_interval_ms.max(1),
        monitor: preemption.monitoring_interval_ms.max(1),
    };
    // Long enough for everything periodic to have acted on a state that stopped changing:
    // delay scheduling (a few rounds of node heartbeats), the preemption monitor's mark-then-
    // kill and queue-priority preemption's reservation delay (when the monitor runs), the
    // opportunistic re-sort.
    let monitor_settles = if policy.is_some() {
        let reserved_delay = if preemption.underutilized_preemption_enabled {
            preemption
                .underutilized_preemption_reserved_container_delay_ms
                .max(0)
        } else {
            0
        };
        periods
            .monitor
            .saturating_add(preemption.max_wait_before_kill_ms.max(0))
            .saturating_add(reserved_delay)
            .saturating_mul(4)
    } else {
        0
    };
    let fixed_point_ms = periods
        .nm
        .max(periods.am)
        .saturating_mul(100)
        .max(monitor_settles)
        .max(opp.sorting_interval_ms.max(1).saturating_mul(10));
    let tasks_total = ams.iter().map(|a| a.total_tasks()).sum();
    let horizon = ams
        .iter()
        .map(|a| {
            let longest = a
                .groups
                .iter()
                .map(|g| g.request_delay_ms.saturating_add(g.duration_ms))
                .max()
                .unwrap_or(0);
            a.job.start_ms.saturating_add(longest)
        })
        .max()
        .unwrap_or(0);
    let max_time_ms = opts
        .max_time_ms
        .unwrap_or_else(|| horizon.saturating_add(30 * 24 * 3600 * 1000));
    let mut sim = Sim {
        cs,
        periodic: BinaryHeap::new(),
        work: BinaryHeap::new(),
        seq: 0,
        periods,
        nms,
        nm_by_node,
        rack_of_host,
        unfinished: ams.len(),
        ams,
        leaves,
        opts,
        samples: Vec::new(),
        since_kept: 0,
        stride: 1,
        series: SeriesStats::default(),
        tasks_total,
        tasks_completed: 0,
        containers_allocated: 0,
        node_updates: 0,
        allocate_calls: 0,
        nu_ns: 0,
        nu_calls: 0,
        al_ns: 0,
        al_calls: 0,
        opportunistic_as_guaranteed,
        opportunistic_allocated: 0,
        promotions: 0,
        distributed: opp.distributed_enabled,
        policy,
        preemption_rounds: 0,
        containers_marked: 0,
        containers_preempted: 0,
        am_restarts: 0,
        preemption_ns: 0,
        last_activity_ms: 0,
        fixed_point_ms,
        skipped_ms: 0,
        skipped: false,
        unsent: None,
        warnings,
    };
    for i in 0..sim.nms.len() {
        // NodeManagers start out of phase, as real ones do.
        let offset = (rng.next_u64() % periods.nm as u64) as i64;
        sim.push_periodic(offset, Periodic::NodeHeartbeat(i));
    }
    for j in 0..sim.ams.len() {
        let at = sim.ams[j].job.start_ms.max(0);
        sim.push_work(at, Work::JobStart(j));
    }
    sim.push_periodic(0, Periodic::Track);
    if sim.policy.is_some() {
        sim.push_periodic(periods.monitor, Periodic::PreemptionRound);
    }
    let leaf_infos = leaf_infos(&sim);
    observer.start(&leaf_infos)?;

    let mut now = 0;
    let mut timed_out = false;
    let mut events: u64 = 0;
    while sim.unfinished > 0 {
        let Some((at, event)) = sim.pop() else { break };
        now = at;
        if now > max_time_ms {
            timed_out = true;
            break;
        }
        match event {
            Event::Periodic(Periodic::Track) => {
                sim.cs.expire_containers(now);
                sample(&mut sim, now, false, observer)?;
                if !skip_if_idle(&mut sim, now)? {
                    sim.push_periodic(now.saturating_add(periods.track), Periodic::Track);
                }
            }
            Event::Work(Work::JobStart(j)) => start_job(&mut sim, now, j),
            Event::Work(Work::ContainerEnd(i, c)) => {
                let started = sim.nms[i].container_end(now, c);
                schedule_ends(&mut sim, i, started);
                sim.active(now);
            }
            Event::Periodic(Periodic::NodeHeartbeat(i)) => {
                node_heartbeat(&mut sim, now, i);
                sim.push_periodic(now.saturating_add(periods.nm), Periodic::NodeHeartbeat(i));
            }
            Event::Periodic(Periodic::PreemptionRound) => {
                preemption_round(&mut sim, now);
                sim.push_periodic(
                    now.saturating_add(periods.monitor),
                    Periodic::PreemptionRound,
                );
            }
            Event::Periodic(Periodic::AmHeartbeat(j)) => am_heartbeat(&mut sim, now, j),
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
        events += 1;
        if events % 4096 == 0 {
            observer.progress(&progress(&sim, now));
        }
    }
    sample(&mut sim, now, true, observer)?;
    observer.progress(&progress(&sim, now));
    let cluster = sim.cs.cluster_resource();
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
            tasks: a.total_tasks(),
            rejected: match &a.state {
                AmState::Rejected(m) => Some(m.clone()),
                _ => None,
            },
            failed: match &a.state {
                AmState::Failed(m) => Some(m.clone()),
                _ => None,
            },
            preempted: a.preempted,
        })
        .collect();
    Ok(SimulationResult {
        samples: sim.samples,
        series: sim.series,
        jobs,
        leaves: leaf_infos,
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
        tasks_completed: sim.tasks_completed,
        preemption_enabled: sim.policy.is_some(),
        preemption_rounds: sim.preemption_rounds,
        containers_marked: sim.containers_marked,
        containers_preempted: sim.containers_preempted,
        am_restarts: sim.am_restarts,
        preemption_wall_ms: sim.preemption_ns as f64 / 1e6,
        skipped_ms: sim.skipped_ms,
        timed_out,
        warnings: sim.warnings,
    })
}

/// A hand-built input within the simulator's limits (the trace readers check while reading).
fn check_input(input: &SimulationInput) -> Result<(), SimError> {
    let input_err = |m: String| SimError::Input(m);
    if input.nodes.len() > limits::MAX_NODES {
        return Err(input_err(limits::too_many(
            "nodes",
            input.nodes.len(),
            limits::MAX_NODES,
        )));
    }
    let mut tally = limits::Tally::default();
    for job in &input.jobs {
        let tasks = job
            .tasks
            .iter()
            .fold(0u64, |n, t| n.saturating_add(t.count.max(1)));
        tally
            .add(1, tasks)
            .map_err(|m| input_err(format!("job {}: {m}", job.id)))?;
        limits::check_time("the job's start", job.start_ms)
            .map_err(|m| input_err(format!("job {}: {m}", job.id)))?;
        for t in &job.tasks {
            limits::check_time("a task's duration", t.duration_ms)
                .and_then(|()| limits::check_time("a task's request delay", t.request_delay_ms))
                .map_err(|m| input_err(format!("job {}: {m}", job.id)))?;
        }
    }
    Ok(())
}

/// A job's task entries as the AM's groups: MapReduce makes the first ⌊maps × percent / 100⌋
/// maps opportunistic (a group straddling that boundary is split); with opportunistic
/// allocation off the RM schedules opportunistic asks as guaranteed, so the AM treats them so.
fn task_groups(
    tasks: &[super::trace::TraceTask],
    percent: u64,
    opportunistic_enabled: bool,
    as_guaranteed: &mut u64,
) -> Vec<TaskGroup> {
    let maps: u64 = tasks
        .iter()
        .filter(|t| t.task_type != "reduce")
        .map(|t| t.count.max(1))
        .sum();
    let mut opportunistic_maps = maps * percent / 100;
    let mut groups = Vec::with_capacity(tasks.len());
    for t in tasks {
        let reduce = t.task_type == "reduce";
        let (rack_from_host, host) = match &t.host {
            Some(h) => {
                let (r, h) = split_rack_host(h);
                (r, Some(h))
            }
            None => (None, None),
        };
        let rack = t.rack.clone().or(rack_from_host).map(|r| rack_name(&r));
        let mut count = t.count.max(1);
        let mut group = |count: u64, by_percent: bool| {
            let mut execution: ExecutionType = t.execution_type.into();
            if by_percent {
                execution = ExecutionType::Opportunistic;
            }
            if execution == ExecutionType::Opportunistic && !opportunistic_enabled {
                *as_guaranteed += count;
                execution = ExecutionType::Guaranteed;
            }
            groups.push(TaskGroup {
                host: host.clone(),
                rack: rack.clone(),
                duration_ms: t.duration_ms.max(0),
                resource: Resource::new(t.memory_mb, t.vcores),
                reduce,
                execution,
                request_delay_ms: t.request_delay_ms.max(0),
                total: count,
                pending: count,
                done: 0,
            });
        };
        if !reduce && opportunistic_maps > 0 {
            let by_percent = count.min(opportunistic_maps);
            opportunistic_maps -= by_percent;
            count -= by_percent;
            group(by_percent, true);
        }
        if count > 0 {
            group(count, false);
        }
    }
    groups
}

/// With the QUEUE_LENGTH load comparator the RM places an opportunistic container only on a
/// node whose queue has room (`NodeQueueLoadMonitor.compareAndIncrement`), and a NodeManager
/// reports a queue capacity of 0 with `yarn.nodemanager.opportunistic-containers-max-queue-
/// length` 0 (its default) or the BY_RESOURCES policy: then no opportunistic container is ever
/// placed, in YARN as here, and every job asking for one would wait forever. Said up front.
fn check_opportunistic_can_be_placed(
    opp: &crate::config::OpportunisticSettings,
) -> Result<(), SimError> {
    let capacity = match opp.nm_queue_policy {
        QueuePolicy::ByResources => 0,
        QueuePolicy::ByQueueLength => opp.nm_max_queue_length,
    };
    if opp.enabled
        && !opp.distributed_enabled
        && opp.load_comparator == LoadComparator::QueueLength
        && capacity <= 0
    {
        let why = if opp.nm_queue_policy == QueuePolicy::ByResources {
            "yarn.nodemanager.opportunistic-containers-queue-policy is BY_RESOURCES, which reports a \
             queue capacity of 0"
                .to_string()
        } else {
            format!(
                "yarn.nodemanager.opportunistic-containers-max-queue-length is {} (0 is YARN's default)",
                opp.nm_max_queue_length
            )
        };
        return Err(SimError::Input(format!(
            "the workload asks for OPPORTUNISTIC containers, but no NodeManager can take one: {why}, \
             and with the QUEUE_LENGTH load comparator YARN's ResourceManager places an opportunistic \
             container only on a node whose queue has room (NodeQueueLoadMonitor), so those jobs would \
             wait forever, as they would in YARN. Set yarn.nodemanager.opportunistic-containers-max-\
             queue-length to a positive length (e.g. 10), or run without opportunistic tasks \
             (--opportunistic-percent 0)"
        )));
    }
    Ok(())
}

fn leaf_infos(sim: &Sim) -> Vec<LeafInfo> {
    let tree = sim.cs.queue_tree();
    sim.leaves
        .iter()
        .map(|&q| LeafInfo {
            path: tree.path(q).to_string(),
            guaranteed_share: tree.queue(q).capacities.absolute_capacity as f64,
            max_share: tree.queue(q).capacities.absolute_maximum_capacity as f64,
        })
        .collect()
}

fn progress(sim: &Sim, now: i64) -> Progress {
    Progress {
        sim_ms: now,
        jobs_done: sim.ams.len() - sim.unfinished,
        jobs: sim.ams.len(),
        tasks_done: sim.tasks_completed,
        tasks: sim.tasks_total,
    }
}

fn node_heartbeat(sim: &mut Sim, now: i64, i: usize) {
    let status = sim.nms[i].status();
    if !status.launched.is_empty() || !status.completed.is_empty() {
        sim.active(now);
    }
    let t = Instant::now();
    let response = match sim.cs.node_update(now, sim.nms[i].id, &status) {
        Ok(r) => r,
        // Only a node the scheduler does not know fails, and the simulator registered every
        // NodeManager it runs.
        Err(e) => unreachable!("a registered node's heartbeat: {e}"),
    };
    sim.nu_ns += t.elapsed().as_nanos();
    sim.nu_calls += 1;
    sim.node_updates += 1;
    if response.allocated > 0 || !response.to_kill.is_empty() {
        sim.active(now);
    }
    sim.containers_allocated += response.allocated as u64;
    let mut started = sim.nms[i].kill(now, &response.to_kill);
    if let Some(limit) = response.queuing_limit {
        started.extend(sim.nms[i].shed_to(now, limit.max_queue_length));
    }
    schedule_ends(sim, i, started);
}

fn start_job(sim: &mut Sim, now: i64, j: usize) {
    sim.active(now);
    let (queue, user) = (sim.ams[j].job.queue.clone(), sim.ams[j].job.user.clone());
    let mut sub = AppSubmission::new(&queue, &user);
    sub.priority = Some(sim.ams[j].job.priority);
    sim.ams[j].submit_ms = now;
    let app = match sim.cs.submit_application(now, &sub) {
        Ok(app) => app,
        Err(rejection) => return end_job(sim, now, j, AmState::Rejected(rejection.message)),
    };
    // RMAppManager validates the AM's request before the application reaches the scheduler:
    // one no container may be is refused at submission, with YARN's message.
    let am = sim.ams[j].am_resource();
    let leaf = sim.cs.application(app).map(|a| a.queue);
    let attempt = leaf
        .map(|q| sim.cs.queue_max_allocation_settled(q))
        .ok_or_else(|| "the application vanished".to_string())
        .and_then(|max| {
            sim.cs
                .check_capability(&am, &max)
                .map_err(|e| e.to_string())
        })
        .and_then(|()| {
            sim.cs
                .add_attempt(now, app, AttemptSubmission::with_am(am))
                .map_err(|e| e.to_string())
        });
    sim.ams[j].app = Some(app);
    if let Err(message) = attempt {
        return end_job(sim, now, j, AmState::Rejected(message));
    }
    sim.ams[j].state = AmState::Submitted;
    sim.push_periodic(now.saturating_add(sim.periods.am), Periodic::AmHeartbeat(j));
}

/// The job ends — finished, rejected or failed: its application leaves the scheduler (its
/// containers are killed on their nodes) and it stops heartbeating.
fn end_job(sim: &mut Sim, now: i64, j: usize, state: AmState) {
    if let Some(app) = sim.ams[j].app {
        // Removing what is there: an attempt (if one runs), then the application.
        let _ = sim.cs.remove_attempt(now, app, false);
        let _ = sim.cs.remove_application(now, app);
    }
    let a = &mut sim.ams[j];
    if state == AmState::Finished {
        a.finish_ms = Some(now);
        sim.series.job_finished(now);
    }
    a.state = state;
    a.distributed = None;
    sim.unfinished -= 1;
    sim.active(now);
}

fn am_heartbeat(sim: &mut Sim, now: i64, j: usize) {
    let Some(app) = sim.ams[j].app else { return };
    if !matches!(sim.ams[j].state, AmState::Submitted | AmState::Running) {
        return;
    }
    if sim.ams[j].state == AmState::Running && sim.ams[j].registered_ms.is_none() {
        sim.ams[j].registered_ms = Some(now);
        sim.active(now);
        // The MapReduce AM checks its tasks against the largest container the cluster gives
        // and kills the job when one cannot be had; the simulator fails it with the message
        // the ResourceManager's allocate would have returned.
        if let Err(message) = check_task_sizes(sim, j, app) {
            return end_job(sim, now, j, AmState::Failed(message));
        }
    }
    let asks = if sim.ams[j].state == AmState::Running {
        sim.ams[j].asks(now)
    } else {
        Vec::new()
    };
    if !asks.is_empty() {
        sim.active(now);
    }
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
            match sim.cs.register_distributed(now, app) {
                Ok(ds) => sim.ams[j].distributed = Some(ds),
                Err(e) => return end_job(sim, now, j, AmState::Failed(e.to_string())),
            }
        }
        if let Some(ds) = sim.ams[j].distributed.as_mut() {
            req = ds.allocate(req);
        }
    }
    let response = match sim.cs.allocate(now, app, &req) {
        Ok(r) => r,
        Err(e) => return end_job(sim, now, j, AmState::Failed(e.to_string())),
    };
    if let Some(ds) = sim.ams[j].distributed.as_mut() {
        ds.update_nodes(response.opportunistic_nodes.clone());
    }
    sim.al_ns += t.elapsed().as_nanos();
    sim.al_calls += 1;
    sim.allocate_calls += 1;
    sim.ams[j].response_id = response.response_id;
    if take_completions(sim, now, j, &response) {
        return restart_attempt(sim, now, j, app);
    }
    let rack_of_host = &sim.rack_of_host;
    let rack_of = |host: &str| rack_of_host.get(host).cloned().unwrap_or_default();
    let (launch, surplus) = sim.ams[j].take_allocations(now, &response, rack_of);
    if !response.allocated.is_empty() || !response.updated.is_empty() {
        sim.active(now);
    }
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
        let release = AllocateRequest {
            response_id: sim.ams[j].response_id,
            releases: surplus,
            ..Default::default()
        };
        let r = match sim.cs.allocate(now, app, &release) {
            Ok(r) => r,
            Err(e) => return end_job(sim, now, j, AmState::Failed(e.to_string())),
        };
        sim.ams[j].response_id = r.response_id;
        if take_completions(sim, now, j, &r) {
            return restart_attempt(sim, now, j, app);
        }
    }
    let a = &sim.ams[j];
    if a.state == AmState::Running && a.registered_ms.is_some() && a.all_done() {
        // Unregister: the attempt ends (its AM container is killed on its node), the app leaves.
        return end_job(sim, now, j, AmState::Finished);
    }
    sim.push_periodic(now.saturating_add(sim.periods.am), Periodic::AmHeartbeat(j));
}

/// Completed statuses to the AM, counting successful tasks. True when its own container ended.
fn take_completions(sim: &mut Sim, now: i64, j: usize, response: &AllocateResponse) -> bool {
    if response.completed.is_empty() {
        return false;
    }
    sim.active(now);
    let before = sim.ams[j].containers_completed;
    let am_lost = sim.ams[j].take_completions(response);
    sim.tasks_completed += sim.ams[j].containers_completed - before;
    am_lost
}

/// Every guaranteed task size of job `j` against the largest container its queue can be given.
fn check_task_sizes(sim: &Sim, j: usize, app: AppId) -> Result<(), String> {
    let Some(queue) = sim.cs.application(app).map(|a| a.queue) else {
        return Ok(());
    };
    let max = sim.cs.queue_max_allocation_settled(queue);
    for g in &sim.ams[j].groups {
        // Opportunistic asks are normalised to the maximum instead of refused.
        if g.execution == ExecutionType::Guaranteed {
            sim.cs
                .check_capability(&g.resource, &max)
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Schedules the end of each container that started on NodeManager `i`.
fn schedule_ends(sim: &mut Sim, i: usize, started: Vec<super::nm::Started>) {
    for (c, end) in started {
        if end != super::nm::UNTIL_KILLED {
            sim.push_work(end, Work::ContainerEnd(i, c));
        }
    }
}

/// The AM container ended under a running attempt (preempted, lost, expired): the RM ends
/// the attempt, killing its other containers, and starts a new one. A preempted AM does not
/// count against `yarn.resourcemanager.am.max-attempts`, so the restart is unconditional.
fn restart_attempt(sim: &mut Sim, now: i64, j: usize, app: AppId) {
    let _ = sim.cs.remove_attempt(now, app, false);
    let am = sim.ams[j].am_resource();
    if let Err(e) = sim.cs.add_attempt(now, app, AttemptSubmission::with_am(am)) {
        return end_job(sim, now, j, AmState::Failed(e.to_string()));
    }
    sim.ams[j].restart();
    sim.am_restarts += 1;
    sim.active(now);
    sim.push_periodic(now.saturating_add(sim.periods.am), Periodic::AmHeartbeat(j));
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
    if outcome.marked > 0 || outcome.killed > 0 {
        sim.active(now);
    }
}

/// At a tracking sample: when nothing can happen before the next piece of work, jump the
/// periodic events there (keeping each one's phase) and return true (the Track event is then
/// already rescheduled). When nothing can ever happen again, the watchdog's error.
fn skip_if_idle(sim: &mut Sim, now: i64) -> Result<bool, SimError> {
    if sim.unfinished == 0 {
        return Ok(false);
    }
    let exact = idle(sim);
    let fixed_point = !exact && now.saturating_sub(sim.last_activity_ms) >= sim.fixed_point_ms;
    if !exact && !fixed_point {
        return Ok(false);
    }
    let next_work = sim.work.peek().map(|Reverse((t, _, _))| *t);
    let next_release = sim
        .ams
        .iter()
        .filter(|a| a.state == AmState::Running)
        .filter_map(AmSim::next_release_ms)
        .min();
    let wake = match (next_work, next_release) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => match a.or(b) {
            Some(t) => t,
            None => return Err(SimError::Stalled(stall_report(sim, now))),
        },
    };
    // Worth it only past the next sample.
    if !sim.opts.skip_idle || wake <= now.saturating_add(sim.periods.track) {
        return Ok(false);
    }
    let events: Vec<(i64, Periodic)> = std::mem::take(&mut sim.periodic)
        .into_iter()
        .map(|Reverse((t, _, e))| (t, e))
        .chain(std::iter::once((now, Periodic::Track)))
        .collect();
    for (t, e) in events {
        let p = sim.periods.of(e);
        let t = if t < wake {
            // The first occurrence at or after `wake`, in the event's own phase.
            let steps = (wake - t + p - 1) / p;
            t.saturating_add(steps.saturating_mul(p))
        } else {
            t
        };
        sim.push_periodic(t, e);
    }
    sim.skipped_ms = sim.skipped_ms.saturating_add(wake - now);
    sim.skipped = true;
    // The stretch up to the wake-up counts as quiet, not as time without activity.
    sim.last_activity_ms = wake;
    Ok(true)
}

/// Nothing would change until the next piece of work: the scheduler is quiescent, every AM
/// has nothing to send or pull (and is not about to register or unregister), and no
/// NodeManager has anything to report or waiting in its queue.
fn idle(sim: &Sim) -> bool {
    sim.ams.iter().all(|a| match a.state {
        AmState::Waiting | AmState::Finished | AmState::Rejected(_) | AmState::Failed(_) => true,
        AmState::Submitted => false,
        AmState::Running => a.registered_ms.is_some() && !a.all_done() && !a.has_news(),
    }) && sim.nms.iter().all(|n| !n.has_news())
        && sim.cs.quiescent()
}

/// The watchdog's report: the jobs that cannot finish and what each still waits for.
fn stall_report(sim: &Sim, now: i64) -> String {
    let stuck: Vec<&AmSim> = sim
        .ams
        .iter()
        .filter(|a| matches!(a.state, AmState::Submitted | AmState::Running))
        .collect();
    let mut out = format!(
        "the simulation is stuck at {:.1} s of simulated time: nothing has happened for {:.0} s and \
         nothing can happen any more, but {} job(s) cannot finish:",
        now as f64 / 1000.0,
        (now - sim.last_activity_ms) as f64 / 1000.0,
        sim.unfinished
    );
    for a in stuck.iter().take(20) {
        out.push_str(&format!(
            "\n  job {} (queue {}, user {}): ",
            a.job.id, a.job.queue, a.job.user
        ));
        if a.state == AmState::Submitted {
            out.push_str(&format!(
                "its AM container {} was never allocated",
                a.am_resource()
            ));
            continue;
        }
        let waiting: Vec<String> = a
            .groups
            .iter()
            .filter(|g| g.pending > 0)
            .map(|g| {
                format!(
                    "{} {} {} container(s) of {}{}",
                    g.pending,
                    if g.execution == ExecutionType::Opportunistic {
                        "OPPORTUNISTIC"
                    } else {
                        "GUARANTEED"
                    },
                    if g.reduce { "reduce" } else { "map" },
                    g.resource,
                    g.host
                        .as_deref()
                        .map(|h| format!(" on {h}"))
                        .unwrap_or_default()
                )
            })
            .take(5)
            .collect();
        out.push_str(&format!(
            "{} of {} tasks left, asking for {}",
            a.tasks_left(),
            a.total_tasks(),
            if waiting.is_empty() {
                "nothing".to_string()
            } else {
                waiting.join(", ")
            }
        ));
        // The commonest cause: a container larger than the queue may ever hold.
        let queue = a
            .app
            .and_then(|app| sim.cs.application(app))
            .map(|x| x.queue);
        if let Some(q) = queue {
            let tree = sim.cs.queue_tree();
            let max = tree.queue(q).capacities.effective_max;
            let too_big = a
                .groups
                .iter()
                .filter(|g| g.pending > 0)
                .any(|g| !g.resource.fits_in(&max));
            if too_big {
                out.push_str(&format!(
                    " — larger than queue {}'s maximum capacity {max}",
                    tree.path(q)
                ));
            }
        }
    }
    if stuck.len() > 20 {
        out.push_str(&format!("\n  … and {} more", stuck.len() - 20));
    }
    let largest = sim
        .nms
        .iter()
        .filter_map(|n| sim.cs.node(n.id).map(|n| n.total))
        .fold(Resource::ZERO, Resource::component_max);
    out.push_str(&format!(
        "\nThe scheduler allocates nothing to them: check their queues' capacities, user and AM \
         limits, and container sizes against the nodes (the largest is {largest})."
    ));
    out
}

fn sample(
    sim: &mut Sim,
    now: i64,
    last: bool,
    observer: &mut dyn SimObserver,
) -> Result<(), SimError> {
    if sim.skipped {
        // The state held from the skip until the work that ended it: the sample just before.
        sim.skipped = false;
        if let Some(last) = sim
            .samples
            .last()
            .filter(|s| s.time_ms < now - sim.periods.track)
        {
            let mut flat = last.clone();
            flat.time_ms = now - sim.periods.track;
            flat.node_update_ms = 0.0;
            flat.allocate_ms = 0.0;
            record(sim, flat, false, observer)?;
        }
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
    let s = Sample {
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
        tasks_completed: sim.tasks_completed,
        queues,
        node_update_ms: per_call(sim.nu_ns, sim.nu_calls),
        allocate_ms: per_call(sim.al_ns, sim.al_calls),
    };
    sim.nu_ns = 0;
    sim.nu_calls = 0;
    sim.al_ns = 0;
    sim.al_calls = 0;
    record(sim, s, last, observer)
}

/// One sample: to the summary's integrals and (one sample late, so that a second sample at the
/// same time replaces the first, as at the very end) to the observer always; to the kept series
/// while it is short, then every `stride`-th, halving the kept series whenever it fills up.
fn record(
    sim: &mut Sim,
    s: Sample,
    last: bool,
    observer: &mut dyn SimObserver,
) -> Result<(), SimError> {
    let mut values = vec![
        s.allocated_memory as f64,
        s.allocated_vcores as f64,
        s.nm_used_memory as f64,
        s.nm_used_vcores as f64,
    ];
    values.extend(s.queues.iter().map(|q| q.allocated_memory as f64));
    sim.series.add(s.time_ms, &values);
    match sim.unsent.take() {
        Some(prev) if prev.time_ms != s.time_ms => observer.sample(&prev)?,
        _ => {}
    }
    sim.unsent = Some(s.clone());
    if last {
        if let Some(s) = sim.unsent.take() {
            observer.sample(&s)?;
        }
    }
    if sim.samples.last().is_some_and(|l| l.time_ms == s.time_ms) {
        sim.samples.pop();
    } else {
        sim.since_kept += 1;
        if sim.since_kept < sim.stride && !last {
            return Ok(());
        }
    }
    sim.since_kept = 0;
    sim.samples.push(s);
    if sim.samples.len() >= limits::MAX_KEPT_SAMPLES {
        let mut i = 0;
        sim.samples.retain(|_| {
            i += 1;
            i % 2 == 1
        });
        sim.stride *= 2;
    }
    Ok(())
}
