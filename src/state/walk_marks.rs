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
    /// By place: the mark last made there (current or not).
    marks: Vec<WalkMark>,
    /// By place, one bit each: the mark there is current (made at the current stamp, its
    /// user's usage unchanged since). Kept as users' usage changes (`UsersManager`'s changed
    /// slots, taken at each `begin`), so the walk finds the next place without a current mark
    /// by scanning bits, not applications.
    current: Vec<u64>,
    /// By user slot: the places marked for that user since its usage last changed.
    places_of: Vec<Vec<usize>>,
    /// The current stamp (0: none yet; a mark of stamp 0 is never current) and what it
    /// stands for: a new stamp whenever the inputs differ from the last visit's.
    stamp: u64,
    stamp_inputs: Option<StampInputs>,
}

impl WalkMarks {
    /// Forgets every mark (the active list changed: places mean other applications now).
    pub fn clear(&mut self) {
        self.marks.clear();
        self.forget_all();
    }

    fn forget_all(&mut self) {
        self.current.iter_mut().for_each(|w| *w = 0);
        self.places_of.iter_mut().for_each(Vec::clear);
    }

    /// Starts a default-partition FIFO visit of a leaf with `active` applications, checking
    /// users as `check` says: returns the stamp the visit's marks carry, a new one if an input
    /// of the check changed since the last visit (the old marks then stand for nothing), and
    /// forgets the marks of the users whose usage changed since the last visit.
    pub fn begin(&mut self, check: &UserCheck<'_>, users: &mut UsersManager, active: usize) -> u64 {
        let inputs = StampInputs {
            rc: check.inputs.rc,
            minimum_allocation: check.inputs.minimum_allocation,
            queue_user_limit: check.queue_user_limit,
            cluster: check.cluster,
            weights_version: users.weights_version(),
        };
        let mut forget_all = false;
        if self.stamp_inputs != Some(inputs) {
            self.stamp += 1;
            self.stamp_inputs = Some(inputs);
            forget_all = true;
        }
        users.take_changed(|changed| match changed {
            None => forget_all = true,
            Some(_) if forget_all => {}
            Some(slots) => {
                for &slot in slots {
                    if let Some(places) = self.places_of.get_mut(slot) {
                        for &at in places.iter() {
                            if let Some(w) = self.current.get_mut(at / 64) {
                                *w &= !(1 << (at % 64));
                            }
                        }
                        places.clear();
                    }
                }
            }
        });
        if forget_all {
            self.forget_all();
        }
        debug_assert!(
            self.marks.is_empty() || self.marks.len() == active,
            "walk marks kept for another active list"
        );
        if self.marks.len() != active {
            self.marks.clear();
            self.marks.resize(active, WalkMark::default());
            self.current.clear();
            self.current.resize(active.div_ceil(64), 0);
            self.places_of.iter_mut().for_each(Vec::clear);
        }
        self.stamp
    }

    /// The first place at or after `from` without a current mark (`active` if none): the
    /// applications before it are passed over, their users over their limits as they were.
    #[inline]
    pub fn next_unmarked(&self, from: usize, active: usize) -> usize {
        if from >= active {
            return from;
        }
        let mut w = from / 64;
        let Some(&word) = self.current.get(w) else {
            return from;
        };
        let mut bits = !word & (u64::MAX << (from % 64));
        while bits == 0 {
            w += 1;
            match self.current.get(w) {
                Some(&word) => bits = !word,
                None => return active,
            }
        }
        (w * 64 + bits.trailing_zeros() as usize).min(active)
    }

    /// Whether the mark at place `at` is current by its own record (made at `stamp`, its
    /// user's usage version unchanged): what the bit says, worked out from the mark (debug
    /// builds compare the two), with the user's slot.
    pub fn recorded_current(&self, at: usize, stamp: u64, users: &UsersManager) -> Option<usize> {
        let m = self.marks.get(at)?;
        (m.stamp == stamp && users.usage_version(m.slot) == m.version).then_some(m.slot)
    }

    /// Marks the application at place `at`, whose user in `slot` was just found over its
    /// limit at `stamp` while it held no reservation (a reservation is part of its user's
    /// usage, so while that usage stays the same the application still holds none).
    #[inline]
    pub fn mark(&mut self, at: usize, stamp: u64, slot: usize, users: &UsersManager) {
        let (Some(m), Some(w)) = (self.marks.get_mut(at), self.current.get_mut(at / 64)) else {
            return;
        };
        *m = WalkMark {
            stamp,
            version: users.usage_version(slot),
            slot,
        };
        *w |= 1 << (at % 64);
        if self.places_of.len() <= slot {
            self.places_of.resize_with(slot + 1, Vec::new);
        }
        self.places_of[slot].push(at);
    }
}
