//! Opportunistic containers in the simulator: the throughput they exist for, SLS's
//! `container.execution.type`, promotion after start, and the invariant checker after every
//! event of seeded runs where NodeManagers queue, shed and kill opportunistic containers.

use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::sim::trace::{self, SimDefaults, TraceJob};
use capsched::sim::{
    default_workload, simulate, SimulationInput, SimulationOptions, SimulationResult,
};

fn conf(properties: &str) -> Arc<CapacitySchedulerConfiguration> {
    Arc::new(CapacitySchedulerConfiguration::from_properties_str(properties).expect("valid"))
}

/// The short-tasks scenario cut down to `jobs` jobs of `tasks` tasks (debug builds run every
/// test; the full scenario is `capsched bench opportunistic`).
fn short_jobs(jobs: usize, tasks: usize) -> Vec<TraceJob> {
    let mut all = default_workload::short_tasks_jobs();
    all.truncate(jobs);
    for j in &mut all {
        j.tasks.truncate(tasks);
    }
    all
}

fn run(
    properties: &str,
    jobs: Vec<TraceJob>,
    seed: u64,
    percent: u32,
    promote: bool,
) -> SimulationResult {
    let defaults = SimDefaults::default();
    let input = SimulationInput {
        conf: conf(properties),
        nodes: default_workload::nodes(&defaults),
        jobs,
    };
    let opts = SimulationOptions {
        seed,
        check_invariants: true,
        opportunistic_percent: percent,
        promote_opportunistic_after_start: promote,
        ..SimulationOptions::default()
    };
    simulate(input, opts).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

fn tasks_per_sec(r: &SimulationResult) -> f64 {
    let first = r.jobs.iter().map(|j| j.submit_ms).min().unwrap();
    let last = r.jobs.iter().filter_map(|j| j.finish_ms).max().unwrap();
    r.tasks_completed as f64 * 1000.0 / (last - first) as f64
}

fn nm_utilization(r: &SimulationResult) -> f64 {
    let s: f64 = r
        .samples
        .iter()
        .map(|s| s.nm_used_memory as f64 / r.cluster.memory_mb() as f64)
        .sum();
    s / r.samples.len() as f64
}

/// The scenario under YARN's opportunistic behaviour (`YARN_OPPORTUNISTIC_PROPERTIES`):
/// opportunistic execution as such, every AM heartbeat served as it comes.
fn yarn_short_tasks() -> String {
    format!(
        "{}{}",
        default_workload::SHORT_TASKS_PROPERTIES,
        default_workload::YARN_OPPORTUNISTIC_PROPERTIES
    )
}

#[test]
fn short_tasks_complete_faster_with_opportunistic_containers() {
    let jobs = || short_jobs(8, 300);
    let guaranteed = run(&yarn_short_tasks(), jobs(), 1, 0, false);
    let opportunistic = run(&yarn_short_tasks(), jobs(), 1, 100, false);
    for r in [&guaranteed, &opportunistic] {
        assert!(!r.timed_out);
        assert_eq!(r.tasks_completed, 8 * 300, "every task ran to completion");
        assert!(r.jobs.iter().all(|j| j.finish_ms.is_some()));
    }
    assert_eq!(guaranteed.opportunistic_allocated, 0);
    assert!(opportunistic.opportunistic_allocated >= 8 * 300);
    let (g, o) = (tasks_per_sec(&guaranteed), tasks_per_sec(&opportunistic));
    assert!(
        o > g * 1.1,
        "throughput: {o:.2} tasks/s opportunistic vs {g:.2} guaranteed"
    );
    let (gu, ou) = (nm_utilization(&guaranteed), nm_utilization(&opportunistic));
    assert!(
        ou > gu,
        "utilization: {ou:.3} opportunistic vs {gu:.3} guaranteed"
    );
    // Opportunistic containers are never charged to the queue.
    let peak_queue = opportunistic
        .samples
        .iter()
        .map(|s| s.allocated_memory)
        .max()
        .unwrap();
    assert!(
        peak_queue <= 8 * 1024,
        "only the AMs are guaranteed: {peak_queue} MB"
    );
}

#[test]
fn with_opportunistic_allocation_off_the_rm_runs_them_as_guaranteed() {
    let off = default_workload::SHORT_TASKS_PROPERTIES.replace(
        "opportunistic-container-allocation.enabled=true",
        "opportunistic-container-allocation.enabled=false",
    );
    let r = run(&off, short_jobs(2, 50), 3, 100, false);
    assert_eq!(r.opportunistic_allocated, 0);
    assert_eq!(r.opportunistic_as_guaranteed, 100);
    assert_eq!(r.tasks_completed, 100);
}

#[test]
fn guaranteed_maps_kill_queued_and_running_opportunistic_ones_and_nothing_is_lost() {
    // Half the maps opportunistic under YARN's behaviour: guaranteed containers reclaim room
    // from them (−108), the AMs ask again, every task still completes, and the invariants hold
    // after every event.
    for seed in [1, 7, 42] {
        let r = run(&yarn_short_tasks(), short_jobs(6, 200), seed, 50, false);
        assert_eq!(r.tasks_completed, 6 * 200, "seed {seed}");
        assert!(
            r.nm_stats.killed_for_guaranteed > 0,
            "seed {seed}: no container was ever killed for a guaranteed one"
        );
        assert_eq!(r.nm_stats.paused, 0, "seed {seed}");
    }
}

#[test]
fn with_pause_for_preemption_guaranteed_maps_pause_opportunistic_ones_and_nothing_is_lost() {
    // The scenario's own settings: the same reclaiming pauses instead, and paused containers
    // resume with the work they had done; every task completes, invariants after every event.
    for seed in [1, 7, 42] {
        let r = run(
            default_workload::SHORT_TASKS_PROPERTIES,
            short_jobs(6, 200),
            seed,
            50,
            false,
        );
        assert_eq!(r.tasks_completed, 6 * 200, "seed {seed}");
        assert_eq!(r.nm_stats.killed_for_guaranteed, 0, "seed {seed}");
        assert!(r.nm_stats.paused > 0, "seed {seed}: nothing was paused");
        assert!(
            r.nm_stats.resumed <= r.nm_stats.paused,
            "seed {seed}: {:?}",
            r.nm_stats
        );
    }
}

#[test]
fn promoted_containers_run_as_guaranteed() {
    let r = run(
        default_workload::SHORT_TASKS_PROPERTIES,
        short_jobs(3, 100),
        5,
        100,
        true,
    );
    assert_eq!(r.tasks_completed, 300);
    assert!(r.promotions > 0, "no promotion took effect");
    // Promoted containers are charged to the queue: guaranteed usage rises above the AMs.
    let peak_queue = r.samples.iter().map(|s| s.allocated_memory).max().unwrap();
    assert!(peak_queue > 3 * 1024, "peak guaranteed {peak_queue} MB");
}

#[test]
fn an_sls_trace_asks_for_what_container_execution_type_says() {
    let trace = r#"{
      "am.type": "mapreduce", "job.start.ms": 0, "job.end.ms": 20000,
      "job.queue.name": "default", "job.id": "job_1", "job.user": "u",
      "job.tasks": [
        {"container.host": "/rack0/node1", "container.start.ms": 1000, "container.end.ms": 4000,
         "container.priority": 20, "container.type": "map",
         "container.execution.type": "OPPORTUNISTIC", "count": 30},
        {"container.host": "/rack0/node2", "container.start.ms": 1000, "container.end.ms": 3000,
         "container.priority": 20, "container.type": "map", "count": 10}
      ]
    }"#;
    let defaults = SimDefaults::default();
    let jobs = trace::parse_sls_jobs(trace, "inline", &defaults).expect("valid SLS");
    let r = run(default_workload::SHORT_TASKS_PROPERTIES, jobs, 2, 0, false);
    assert_eq!(r.tasks_completed, 40);
    assert!(
        r.opportunistic_allocated >= 30,
        "opportunistic containers: {}",
        r.opportunistic_allocated
    );
    assert_eq!(r.opportunistic_as_guaranteed, 0);
}

#[test]
fn a_seed_replays_exactly_with_opportunistic_containers() {
    let a = run(
        default_workload::SHORT_TASKS_PROPERTIES,
        short_jobs(3, 80),
        9,
        50,
        true,
    );
    let b = run(
        default_workload::SHORT_TASKS_PROPERTIES,
        short_jobs(3, 80),
        9,
        50,
        true,
    );
    let finish = |r: &SimulationResult| r.jobs.iter().map(|j| j.finish_ms).collect::<Vec<_>>();
    assert_eq!(finish(&a), finish(&b));
    assert_eq!(
        (a.killed_by_nm, a.promotions, a.opportunistic_allocated),
        (b.killed_by_nm, b.promotions, b.opportunistic_allocated)
    );
}

#[test]
fn distributed_schedulers_place_opportunistic_containers_beside_the_nodes() {
    let properties = format!(
        "{}yarn.nodemanager.distributed-scheduling.enabled=true\n",
        default_workload::SHORT_TASKS_PROPERTIES
    );
    let r = run(&properties, short_jobs(6, 300), 4, 100, false);
    assert_eq!(r.tasks_completed, 1800, "every task completed");
    assert!(r.opportunistic_allocated >= 1800);
    // No queue check before placing: NodeManagers reject what they cannot queue, and the
    // AMs ask again.
    assert!(r.killed_by_nm > 0);
}
