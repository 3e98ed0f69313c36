//! The run-time side of a leaf queue (`LeafQueue`): pending and active attempts, AM usage and
//! users. Configuration-derived values stay in the queue tree.

use crate::ids::{AppId, ApplicationId};
use crate::resource::Resource;
use crate::state::users::UsersManager;
use crate::state::walk_marks::WalkMarks;

#[derive(Debug, Clone, Default)]
pub struct LeafRuntime {
    /// Pending attempts in activation order: recovering first, then priority desc, then id asc.
    pub pending: Vec<(i32, ApplicationId, AppId)>,
    /// Active attempts in FIFO order (priority desc, id asc); the fair policy re-sorts a copy.
    /// Changed only through `insert_active`, `remove` and `reprioritise`, which forget what
    /// was kept by place in it (`asking_nothing`, `walk_marks`).
    pub active: Vec<(i32, ApplicationId, AppId)>,
    /// How many attempts at the head of `active` ask for nothing in the default partition
    /// (a FIFO queue's finished-asking applications, which every visit passes over): set by
    /// a FIFO visit that scanned them, back to 0 when the list changes
    /// (`insert_active`, `remove`, `reprioritise`) or an attempt of this leaf asks for more
    /// (`CapacityScheduler::apply_pending_delta`). An allocation only lowers asks, so it
    /// leaves the count true. Debug builds check it at every use.
    pub(crate) asking_nothing: usize,
    /// Attempts held back by max-parallel-apps.
    pub non_runnable: Vec<AppId>,
    /// AM resources of the active attempts, by their AM's partition: default, labelled.
    pub am_used: Resource,
    pub labelled_am_used: crate::state::partition::ByPartition,
    pub users: UsersManager,
    /// Total outstanding asks of the active apps (ANY entries), default partition, labelled.
    pub pending_resource: Resource,
    pub labelled_pending: crate::state::partition::ByPartition,
    /// The queue-wide user limit and the usage epoch it was computed at: YARN caches it the
    /// same way, invalidated by any usage or user change.
    pub user_limit_cache: Option<(u64, Resource)>,
    /// What the preemption monitor did to this leaf's containers so far.
    pub preemption: PreemptionStats,
    /// The last visit that tried no application (every one with asks was skipped for its
    /// user's limit, or the queue was at its own), with what its outcome depended on: a visit
    /// with the same inputs ends the same way, so it is not made again.
    pub(crate) found_nothing: Option<NothingFound>,
    /// The active applications a FIFO walk passed over for their user's limit, remembered
    /// while that standing cannot have changed; emptied with `asking_nothing`.
    pub(crate) walk_marks: WalkMarks,
}

/// The inputs of a leaf visit that tried no application (see `LeafRuntime::found_nothing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NothingFound {
    pub usage_epoch: u64,
    pub generation: u64,
    /// `CapacityScheduler::demand_version`.
    pub demand_version: u64,
    /// The limit the parent handed down.
    pub limit: Resource,
}

/// Preemption in a leaf: containers marked (the AM told), killed (−102, also killable ones a
/// queue below its guarantee took the room of), and killed whose room went back to this same
/// leaf ("wasted").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PreemptionStats {
    pub marked: u64,
    pub killed: u64,
    pub wasted: u64,
}

/// Several leaves' counts together (a managed parent's auto-created leaves, in reports).
impl std::ops::Add for PreemptionStats {
    type Output = PreemptionStats;
    fn add(self, o: PreemptionStats) -> PreemptionStats {
        PreemptionStats {
            marked: self.marked + o.marked,
            killed: self.killed + o.killed,
            wasted: self.wasted + o.wasted,
        }
    }
}

/// FIFO order key: higher priority first, then lower application id.
fn order(a: &(i32, ApplicationId, AppId), b: &(i32, ApplicationId, AppId)) -> std::cmp::Ordering {
    b.0.cmp(&a.0).then(a.1.cmp(&b.1))
}

impl LeafRuntime {
    pub fn num_attempts(&self) -> usize {
        self.pending.len() + self.active.len() + self.non_runnable.len()
    }

    pub fn insert_pending(&mut self, e: (i32, ApplicationId, AppId)) {
        let at = self.pending.partition_point(|x| order(x, &e).is_lt());
        self.pending.insert(at, e);
    }

    pub fn insert_active(&mut self, e: (i32, ApplicationId, AppId)) {
        let at = self.active.partition_point(|x| order(x, &e).is_lt());
        self.active.insert(at, e);
        self.asking_nothing = 0;
        self.walk_marks.clear();
    }

    pub fn remove(&mut self, app: AppId) {
        self.pending.retain(|e| e.2 != app);
        self.active.retain(|e| e.2 != app);
        self.non_runnable.retain(|a| *a != app);
        self.asking_nothing = 0;
        self.walk_marks.clear();
    }

    /// Re-sorts after an application's priority changed.
    pub fn reprioritise(&mut self, app: AppId, priority: i32) {
        self.asking_nothing = 0;
        self.walk_marks.clear();
        for list in [&mut self.pending, &mut self.active] {
            if let Some(i) = list.iter().position(|e| e.2 == app) {
                let mut e = list.remove(i);
                e.0 = priority;
                let at = list.partition_point(|x| order(x, &e).is_lt());
                list.insert(at, e);
            }
        }
    }
}
