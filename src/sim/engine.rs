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
use std::collections::HashMap;
use std::time::Instant;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::am::{AmSim, AmState};
use super::error::SimError;
use super::faults::{fault, node_back};
use super::idle::skip_if_idle;
use super::jobs::{am_heartbeat, kill_job, start_job};
use super::metrics::{
    JobRecord, LeafInfo, QueuePreemption, Reached, Sample, SeriesStats, Starvation,
};
use super::nm::{NmSim, NmStats};
use super::observer::{NoObserver, Progress, SimObserver};
use super::options::{SimulationInput, SimulationOptions};
use super::sampling::sample;
use super::setup::{
    apply_node_labels, check_input, check_opportunistic_can_be_placed, rack_name, task_groups,
};
use super::state::{schedule_ends, Event, Periodic, Periods, Sim, Work};
use crate::config::derived::partitions::PartitionCapacities;
use crate::preempt::policy::PreemptionPolicy;
use crate::records::ExecutionType;
use crate::resource::Resource;
use crate::scheduler::nodes::NodeSpec;
use crate::scheduler::CapacityScheduler;
use crate::state::queue::QueueId;

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
    /// What the NodeManagers' container schedulers did, summed over the nodes.
    pub nm_stats: NmStats,
    /// Every container's steps (AM containers too), when the run kept them
    /// ([`SimulationOptions::container_log`]).
    pub container_log: Option<Vec<super::timeline::TimelineRow>>,
    /// Task containers that completed successfully.
    pub tasks_completed: u64,
    /// Whether the preemption monitor ran, its rounds, and what they did.
    pub preemption_enabled: bool,
    pub preemption_rounds: u64,
    pub containers_marked: u64,
    pub containers_preempted: u64,
    /// Attempts restarted because their AM container was preempted or lost.
    pub am_restarts: u64,
    /// What ran: the policy, its selectors, how a container is taken (docs/SIMULATOR.md);
    /// empty when the monitor is off.
    pub preemption_policies: Vec<String>,
    /// Whether space freed by preemption was held for queues below their guarantee
    /// (`capsched.preemption.freed-space.protect`).
    pub freed_space_protected: bool,
    /// Per leaf (as `leaves`): containers marked, killed and wasted, and each starvation.
    pub queue_preemption: Vec<super::metrics::QueuePreemption>,
    /// Wall time of the preemption rounds (snapshot, policy, apply), in total.
    pub preemption_wall_ms: f64,
    /// Simulated time skipped because nothing could happen in it.
    pub skipped_ms: i64,
    /// Events processed (heartbeats, samples, monitor rounds, submissions, container ends,
    /// faults).
    pub events: u64,
    /// What the fault injector did (all zero without one).
    pub faults: super::chaos::Faults,
    pub timed_out: bool,
    /// What the run refused or worked around without stopping (a node the ResourceManager
    /// refused, …), one line each.
    pub warnings: Vec<String>,
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
    check_input(&input.nodes, &input.jobs)?;
    // `--preemption on|off` overrides the configuration fully: queues are preemptable only
    // while the monitor is on (YARN), so the flag switches the monitor, not just the rounds.
    let input = match opts.preemption {
        Some(on) => SimulationInput {
            conf: Arc::new(input.conf.with_preemption_monitor(on)),
            ..input
        },
        None => input,
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(opts.seed);
    let mut cs = CapacityScheduler::new(input.conf.clone(), 1_000_000, opts.seed);
    // The nodes file's labels are the cluster's before any NodeManager registers.
    apply_node_labels(&mut cs, &input.nodes)?;
    let opp = input.conf.opportunistic().clone();
    let mut warnings = Vec::new();
    let mut nms = Vec::with_capacity(input.nodes.len());
    let mut nm_by_node = HashMap::with_capacity(input.nodes.len());
    let mut rack_of_host = HashMap::with_capacity(input.nodes.len());
    let mut hosts = Vec::with_capacity(input.nodes.len());
    for n in &input.nodes {
        let rack = rack_name(&n.rack);
        let spec = NodeSpec::new(&n.host, &rack, Resource::new(n.memory_mb, n.vcores));
        match cs.add_node(0, &spec) {
            Ok(id) => {
                nm_by_node.insert(id, nms.len());
                rack_of_host.insert(n.host.clone(), rack.clone());
                hosts.push((n.host.clone(), rack.clone()));
                nms.push(
                    NmSim::new(
                        id,
                        spec.resource,
                        opp.nm_max_queue_length,
                        opp.nm_queue_policy,
                    )
                    .with_pause_for_preemption(opp.nm_pause_for_preemption)
                    .with_log(opts.container_log),
                );
            }
            // The ResourceManager refuses a NodeManager (too small for the smallest
            // container, a host already registered): the run goes on without it.
            Err(e) => warnings.push(format!("node {rack}/{}: {e}", n.host)),
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
    let leaves: Vec<QueueId> = super::state::report_rows(&cs);
    let leaves_count = leaves.len();
    let leaf_paths: Vec<String> = leaves
        .iter()
        .map(|&q| cs.queue_tree().path(q).to_string())
        .collect();
    let row_missing = vec![false; leaves_count];
    let preemption = input.conf.preemption().clone();
    let policy = preemption
        .proportional_policy_enabled()
        .then(|| PreemptionPolicy::new(preemption.clone()));
    let periods = Periods {
        nm: opts.defaults.nm_heartbeat_ms.max(1),
        am: opts.defaults.am_heartbeat_ms.max(1),
        track: opts.track_interval_ms.max(1),
        monitor: preemption.monitoring_interval_ms.max(1),
        queue_management: preemption.queue_management_interval_ms.max(1),
        queue_deletion: cs.dynamic_queue_expiration_s().saturating_mul(1000).max(1),
        async_pass: input.conf.settings().async_scheduling.interval_ms.max(1),
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
    for n in &mut nms {
        n.node_mem = super::state::node_mem(&cs, n.id);
    }
    let container_log = opts.container_log;
    let mut sim = Sim {
        cs,
        node_response: Default::default(),
        periodic: super::queue::EventQueue::new(),
        work: super::queue::EventQueue::new(),
        seq: 0,
        periods,
        nms,
        nm_by_node,
        rack_of_host,
        chaos: opts
            .chaos
            .clone()
            .map(|c| super::chaos::ChaosState::new(c, hosts.len(), input.conf.clone())),
        hosts,
        unfinished: ams.len(),
        ams,
        leaves,
        leaf_paths,
        row_missing,
        opts,
        samples: Vec::new(),
        since_kept: 0,
        killed_unkept: vec![0; leaves_count],
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
        am_restarts: 0,
        preemption_ns: 0,
        progress: Default::default(),
        last_activity_ms: 0,
        fixed_point_ms,
        skipped_ms: 0,
        skipped: false,
        unsent: None,
        container_log: container_log.then(super::timeline::ContainerLog::default),
        warnings,
        killed_at_sample: vec![0; leaves_count],
        starving_since: vec![None; leaves_count],
        starved: vec![Vec::new(); leaves_count],
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
    if let Some(c) = sim.chaos.as_mut() {
        let first = c.next_gap_ms();
        sim.push_work(first, Work::Fault);
    }
    if sim.policy.is_some() {
        sim.push_periodic(periods.monitor, Periodic::PreemptionRound);
    }
    if input.conf.preemption().queue_management_policy_enabled() {
        sim.push_periodic(periods.queue_management, Periodic::QueueManagement);
    }
    if input.conf.preemption().queue_deletion_policy_enabled() {
        sim.push_periodic(periods.queue_deletion, Periodic::QueueDeletion);
    }
    // YARN's asynchronous scheduling thread: heartbeats then only report, the pass allocates.
    if sim.cs.is_asynchronous() {
        sim.push_periodic(periods.async_pass, Periodic::AsyncPass);
    }
    let leaf_infos = leaf_infos(&sim);
    observer.start(&leaf_infos)?;

    let mut now = 0;
    let mut timed_out = false;
    let mut events: u64 = 0;
    // The REST documents still to write, latest first.
    let mut rest_at = sim.opts.rest_at.clone();
    rest_at.sort_unstable_by(|a, b| b.cmp(a));
    rest_at.dedup();
    while sim.unfinished > 0 {
        let Some((at, event)) = sim.pop() else { break };
        now = at;
        if now > max_time_ms {
            timed_out = true;
            break;
        }
        // Nothing changes between events: a document due before this one shows the state now.
        while rest_at.last().is_some_and(|&t| t <= now) {
            let t = rest_at.pop().expect("checked");
            rest_document(&sim, t, observer)?;
        }
        match event {
            Event::Periodic(Periodic::Track) => {
                sim.cs.expire_containers(now);
                // RMAppLifetimeMonitor: a job past its lifetime is killed.
                for app in sim.cs.expire_lifetimes(now) {
                    kill_job(&mut sim, now, app);
                }
                sample(&mut sim, now, false, observer)?;
                super::livelock::check(&mut sim, now)?;
                if !skip_if_idle(&mut sim, now)? {
                    sim.push_periodic(now.saturating_add(periods.track), Periodic::Track);
                }
            }
            Event::Work(Work::JobStart(j)) => start_job(&mut sim, now, j),
            Event::Work(Work::Fault) => fault(&mut sim, now),
            Event::Work(Work::NodeBack(i)) => node_back(&mut sim, now, i),
            Event::Work(Work::ContainerEnd(i, c)) => {
                let started = sim.nms[i].container_end(now, c);
                schedule_ends(&mut sim, i, started);
                sim.active(now);
            }
            Event::Periodic(Periodic::NodeHeartbeat(i)) => {
                sim.prefetch_heartbeats_ahead();
                node_heartbeat(&mut sim, now, i);
                sim.push_periodic(now.saturating_add(periods.nm), Periodic::NodeHeartbeat(i));
            }
            Event::Periodic(Periodic::QueueManagement) => {
                sim.cs.run_queue_management(now);
                sim.push_periodic(
                    now.saturating_add(periods.queue_management),
                    Periodic::QueueManagement,
                );
            }
            Event::Periodic(Periodic::QueueDeletion) => {
                sim.cs.run_queue_deletion(now);
                sim.push_periodic(
                    now.saturating_add(periods.queue_deletion),
                    Periodic::QueueDeletion,
                );
            }
            Event::Periodic(Periodic::PreemptionRound) => {
                preemption_round(&mut sim, now);
                sim.push_periodic(
                    now.saturating_add(periods.monitor),
                    Periodic::PreemptionRound,
                );
            }
            Event::Periodic(Periodic::AmHeartbeat(j)) => am_heartbeat(&mut sim, now, j),
            Event::Periodic(Periodic::AsyncPass) => {
                let allocated = sim.cs.schedule_pass(now);
                if allocated > 0 {
                    sim.active(now);
                }
                sim.containers_allocated += allocated as u64;
                sim.push_periodic(now.saturating_add(periods.async_pass), Periodic::AsyncPass);
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
        events += 1;
        if events % 4096 == 0 {
            observer.progress(&progress(&sim, now));
        }
    }
    // After the last event the state stays as it is: later documents show it, unless the
    // run was cut short (its state then is unknown).
    while let Some(t) = rest_at.pop() {
        if timed_out && t > max_time_ms {
            sim.warnings.push(format!(
                "--rest-at {t}: after the time limit ({max_time_ms} ms) the run stopped at; not \
                 written"
            ));
        } else {
            rest_document(&sim, t, observer)?;
        }
    }
    sample(&mut sim, now, true, observer)?;
    observer.progress(&progress(&sim, now));
    let queue_preemption: Vec<QueuePreemption> = (0..sim.leaves.len())
        .map(|i| {
            let mut starved = std::mem::take(&mut sim.starved[i]);
            if let Some(from_ms) = sim.starving_since[i] {
                starved.push(Starvation {
                    from_ms,
                    to_ms: now,
                    reached: Reached::EndOfRun,
                });
            }
            QueuePreemption {
                stats: sim
                    .row_members(i)
                    .into_iter()
                    .map(|m| sim.cs.preemption_stats(m))
                    .fold(Default::default(), |a, b| a + b),
                starved,
            }
        })
        .collect();
    let preemption_policies = match &sim.policy {
        Some(p) => p
            .settings()
            .describe(sim.cs.configuration().settings().lazy_preemption_enabled),
        None => Vec::new(),
    };
    let cluster = sim.cs.cluster_resource();
    let jobs = sim
        .ams
        .iter()
        .map(|a| JobRecord {
            id: a.job.id.clone(),
            queue: a.job.queue.clone(),
            leaf: a.leaf.clone(),
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
            killed: match &a.state {
                AmState::Killed(m) => Some(m.clone()),
                _ => None,
            },
            preempted: a.preempted,
            opportunistic_containers: a.opportunistic_containers,
        })
        .collect();
    let mut nm_stats = NmStats::default();
    for n in &mut sim.nms {
        nm_stats.add(std::mem::take(&mut n.stats));
    }
    let container_log = sim.container_log.take().map(|mut log| {
        for n in &mut sim.nms {
            if let Some(steps) = n.log.take() {
                log.add_nm_steps(&steps);
            }
        }
        let ids: Vec<String> = sim.ams.iter().map(|a| a.job.id.clone()).collect();
        log.into_rows(&ids)
    });
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
        nm_stats,
        container_log,
        tasks_completed: sim.tasks_completed,
        preemption_enabled: sim.policy.is_some(),
        preemption_rounds: sim.preemption_rounds,
        containers_marked: sim.containers_marked,
        // Killed by the rounds, and (lazy preemption) when a starved queue took the room.
        containers_preempted: queue_preemption.iter().map(|q| q.stats.killed).sum(),
        am_restarts: sim.am_restarts,
        preemption_policies,
        freed_space_protected: sim.policy.is_some()
            && !sim.cs.configuration().settings().lazy_preemption_enabled
            && sim.cs.configuration().settings().freed_space_protect,
        queue_preemption,
        preemption_wall_ms: sim.preemption_ns as f64 / 1e6,
        skipped_ms: sim.skipped_ms,
        events,
        faults: sim.chaos.as_ref().map(|c| c.faults).unwrap_or_default(),
        timed_out,
        warnings: sim.warnings,
    })
}

fn leaf_infos(sim: &Sim) -> Vec<LeafInfo> {
    let tree = sim.cs.queue_tree();
    let cluster_mb = tree.cluster_resource().memory_mb() as f64;
    // With node labels a queue's share of the cluster is its share of each partition, weighed
    // by the partition's memory (the shares chart and summary are of the whole cluster's
    // memory); without, its absolute capacities as they are.
    let share = |q: QueueId, default: f32, labelled: fn(&PartitionCapacities) -> f32| {
        if !sim.cs.has_node_labels() || cluster_mb <= 0.0 {
            return default as f64;
        }
        let mut mb = default as f64 * tree.default_partition_resource().memory_mb() as f64;
        for (label, pc) in tree.partition_capacities(q) {
            mb += labelled(pc) as f64 * tree.partition_resource(label).memory_mb() as f64;
        }
        mb / cluster_mb
    };
    sim.leaves
        .iter()
        .map(|&q| {
            let c = &tree.queue(q).capacities;
            LeafInfo {
                path: tree.path(q).to_string(),
                guaranteed_share: share(q, c.absolute_capacity, |p| p.absolute_capacity),
                max_share: share(q, c.absolute_maximum_capacity, |p| {
                    p.absolute_maximum_capacity
                }),
            }
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
    if sim.chaos.as_ref().is_some_and(|c| c.down[i]) {
        return;
    }
    // The queue's report only matters to an RM that allocates opportunistic containers.
    let opportunistic = sim.cs.opportunistic_settings().enabled;
    let status = sim.nms[i].status(opportunistic);
    if !status.launched.is_empty() || !status.completed.is_empty() {
        sim.active(now);
    }
    let t = Instant::now();
    // (The response's lists are kept from one heartbeat to the next.)
    let mut response = std::mem::take(&mut sim.node_response);
    if let Err(e) = sim
        .cs
        .node_update_into(now, sim.nms[i].id, &status, &mut response)
    {
        // Only a node the scheduler does not know fails, and the simulator registered every
        // NodeManager it runs.
        unreachable!("a registered node's heartbeat: {e}");
    }
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
    sim.node_response = response;
    schedule_ends(sim, i, started);
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
    if outcome.marked > 0 || outcome.killed > 0 || outcome.made_killable > 0 {
        sim.active(now);
    }
}

/// Hands the observer the RM REST scheduler document of the live state, for time `t`.
fn rest_document(sim: &Sim, t: i64, observer: &mut dyn SimObserver) -> Result<(), SimError> {
    let live = sim.cs.live_queues();
    let json = crate::report::rest::write_scheduler_info_live(
        sim.cs.queue_tree(),
        &live,
        Vec::new(),
        crate::report::json::JsonStyle::Pretty,
    )
    .map_err(SimError::Output)?;
    observer
        .rest_document(t, &String::from_utf8_lossy(&json))
        .map_err(SimError::Output)
}
