//! How an engine is built: threaded or manual, its seed and ids, its clock, whether it
//! schedules asynchronously and runs the preemption monitor, how many events it keeps.

use super::clock::{Clock, ManualClock};
use crate::sync::Arc;

/// How the engine runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// An engine thread (and a preemption monitor thread when preemption is on, unless the
    /// host brings a manual clock: then its `tick_at` runs the rounds).
    Threaded,
    /// No threads: the host drives time with `tick` and `step`.
    Manual,
}

/// How to build an engine.
pub struct EngineOptions {
    pub mode: Mode,
    /// Seeds the core's PRNG (asynchronous pass start node, opportunistic placement).
    pub seed: u64,
    /// The RM's start time in YARN's application ids.
    pub cluster_timestamp: i64,
    /// The RM's epoch in the container ids the engine mints (YARN's RM state store counts
    /// restarts; 0 for an RM without one).
    pub rm_epoch: i64,
    pub clock: Arc<dyn Clock>,
    /// `None`: as `yarn.scheduler.capacity.schedule-asynchronously.enable` says.
    pub async_scheduling: Option<bool>,
    /// `None`: as `yarn.resourcemanager.scheduler.monitor.enable` (with the proportional
    /// policy) says.
    pub preemption: Option<bool>,
    /// Events kept for the host before new ones are dropped (and counted).
    pub event_capacity: usize,
    /// Set when the clock is a [`ManualClock`] the host moves with `Engine::tick_at`.
    pub manual_clock: Option<Arc<ManualClock>>,
}

impl EngineOptions {
    pub fn new(mode: Mode, clock: Arc<dyn Clock>) -> Self {
        EngineOptions {
            mode,
            seed: 1,
            cluster_timestamp: clock.now_ms(),
            rm_epoch: 0,
            clock,
            async_scheduling: None,
            preemption: None,
            event_capacity: 65_536,
            manual_clock: None,
        }
    }

    /// Options for a host that brings its own time: a manual clock starting at `start_ms`,
    /// moved by `Engine::tick_at`.
    pub fn with_manual_clock(mode: Mode, start_ms: i64) -> Self {
        let clock = Arc::new(ManualClock::new(start_ms));
        let mut opts = Self::new(mode, clock.clone());
        opts.manual_clock = Some(clock);
        opts
    }
}
