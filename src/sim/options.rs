//! What a run is given: the configuration, nodes and jobs, and how to run them.

use super::chaos::Chaos;
use super::trace::{SimDefaults, TraceJob, TraceNode};
use crate::config::CapacitySchedulerConfiguration;
use crate::sync::Arc;

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
    /// Faults to inject (node losses, AM crashes, lost launches, refreshes, moves).
    pub chaos: Option<Chaos>,
    /// Jump over stretches where nothing can happen (on by default; off, every heartbeat of
    /// every second runs, which gives the same decisions at a cost that grows with simulated
    /// time — tests compare the two). The watchdog works either way.
    pub skip_idle: bool,
    /// Simulated times (ms) at which the observer gets the RM REST scheduler document
    /// (`GET /ws/v1/cluster/scheduler`) as the simulated RM would answer then
    /// ([`super::SimObserver::rest_document`]).
    pub rest_at: Vec<i64>,
    /// Keep every container's steps, AM containers too (allocated, queued, started, paused,
    /// killed and by whom, finished, told to its AM), for the result's `container_log`.
    pub container_log: bool,
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
            chaos: None,
            rest_at: Vec::new(),
            container_log: false,
        }
    }
}
