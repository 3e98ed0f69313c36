//! What a FIFO leaf's walk remembers between visits about the applications it passed over
//! because their user was over its limit.
//!
//! YARN's `LeafQueue.assignContainers` checks every application's user against its limit in
//! FIFO order, with a `CachedUserLimit` per user that lasts one visit. On a busy queue most
//! users sit at their limit and every heartbeat frees one container of one user: YARN walks
//! (and capsched walked) the user-limit check of each application ahead of the one that gets
//! the container again. The check is a pure function of the user's usage, its weight, the
//! queue-wide user limit, the cluster and the calculator; a mark records that an
//! application's user was over its limit with all of those as they were, and while none has
//! changed the walk passes the application over as the check would: the same order of work
//! and the same outcome, without the arithmetic. Debug builds check the user anyway at every
//! mark they rely on.

use crate::resource::{Resource, ResourceCalculator};
use crate::state::users::{UserCheck, UsersManager};

/// One application's mark: its user (by slot) was over its limit at the walk stamp `stamp`
/// with the usage of version `version`.
#[derive(Debug, Clone, Copy, Default)]
struct WalkMark {
    stamp: u64,
    version: u64,
    slot: usize,
}

/// Everything but the user's own usage and weight that its over-the-limit check reads. The
/// weights are covered by their version.
#[derive(Debug, Clone, Copy, PartialEq)]
struct StampInputs {
    rc: ResourceCalculator,
    minimum_allocation: Resource,
    queue_user_limit: Resource,
    cluster: Resource,
    weights_version: u64,
}

/// The marks of a leaf's active applications, by place in its active list (emptied whenever
/// that list changes, so a place always means the same application).
#[derive(Debug, Clone, Default)]
pub struct WalkMarks {
    marks: Vec<WalkMark>,
    /// The current stamp (0: none yet; a mark of stamp 0 is never current) and what it
    /// stands for: a new stamp whenever the inputs differ from the last visit's.
    stamp: u64,
    stamp_inputs: Option<StampInputs>,
}

impl WalkMarks {
    /// Forgets every mark (the active list changed: places mean other applications now).
    pub fn clear(&mut self) {
        self.marks.clear();
    }

    /// Starts a default-partition FIFO visit of a leaf with `active` applications, checking
    /// users as `check` says: returns the stamp the visit's marks carry, a new one if an input
    /// of the check changed since the last visit (the old marks then stand for nothing).
    pub fn begin(&mut self, check: &UserCheck<'_>, users: &UsersManager, active: usize) -> u64 {
        let inputs = StampInputs {
            rc: check.inputs.rc,
            minimum_allocation: check.inputs.minimum_allocation,
            queue_user_limit: check.queue_user_limit,
            cluster: check.cluster,
            weights_version: users.weights_version(),
        };
        if self.stamp_inputs != Some(inputs) {
            self.stamp += 1;
            self.stamp_inputs = Some(inputs);
        }
        debug_assert!(
            self.marks.is_empty() || self.marks.len() == active,
            "walk marks kept for another active list"
        );
        if self.marks.len() != active {
            self.marks.clear();
            self.marks.resize(active, WalkMark::default());
        }
        self.stamp
    }

    /// Whether the application at place `at` is marked at `stamp` and its user's usage has
    /// not changed since: its user is over its limit now as it was then.
    #[inline(always)]
    pub fn passes(&self, at: usize, stamp: u64, users: &UsersManager) -> Option<usize> {
        let m = self.marks.get(at)?;
        (m.stamp == stamp && users.usage_version(m.slot) == m.version).then_some(m.slot)
    }

    /// Marks the application at place `at`, whose user in `slot` was just found over its
    /// limit at `stamp` while it held no reservation (a reservation is part of its user's
    /// usage, so while that usage stays the same the application still holds none).
    #[inline]
    pub fn mark(&mut self, at: usize, stamp: u64, slot: usize, users: &UsersManager) {
        if let Some(m) = self.marks.get_mut(at) {
            *m = WalkMark {
                stamp,
                version: users.usage_version(slot),
                slot,
            };
        }
    }
}
