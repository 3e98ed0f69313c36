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

use crate::resource::Resource;
use crate::state::users::{UserCheck, UsersManager};

/// Everything but the user's own usage and weight that its over-the-limit check reads. The
/// calculator, the minimum allocation and the cluster are covered by the queue tree's
/// generation (any change to them makes a new one), the weights by their version.
#[derive(Debug, Clone, Copy, PartialEq)]
struct CheckInputs {
    generation: u64,
    queue_user_limit: Resource,
    weights_version: u64,
}

/// The marks of a leaf's active applications, by place in its active list (forgotten
/// whenever that list changes, so a place always means the same application).
#[derive(Debug, Clone, Default)]
pub struct WalkMarks {
    /// By place, one bit each: the application there was found passed over for its user's
    /// limit, at the check's current inputs and its user's current usage. Kept as users'
    /// usage changes (`UsersManager`'s changed slots, taken at each `begin`), so the walk
    /// finds the next place without a mark by scanning bits, not applications.
    marked: Vec<u64>,
    /// How many places `marked` is for (`None`: forgotten, the active list changed).
    places: Option<usize>,
    /// By user slot: the places marked for that user since its usage last changed.
    places_of: Vec<Vec<usize>>,
    /// The check's inputs the marks were made at.
    inputs: Option<CheckInputs>,
}

impl WalkMarks {
    /// Forgets every mark (the active list changed: places mean other applications now).
    pub fn clear(&mut self) {
        self.places = None;
    }

    fn forget_all(&mut self) {
        self.marked.iter_mut().for_each(|w| *w = 0);
        self.places_of.iter_mut().for_each(Vec::clear);
    }

    /// Starts a default-partition FIFO visit of a leaf with `active` applications, checking
    /// users as `check` says at queue tree `generation` (whose cluster, calculator and minimum
    /// allocation the check reads): forgets every mark if an input of the check changed since
    /// the last visit or the active list did, and the marks of the users whose usage changed.
    pub fn begin(
        &mut self,
        check: &UserCheck<'_>,
        generation: u64,
        users: &mut UsersManager,
        active: usize,
    ) {
        let inputs = CheckInputs {
            generation,
            queue_user_limit: check.queue_user_limit,
            weights_version: users.weights_version(),
        };
        let mut forget_all = self.inputs != Some(inputs);
        self.inputs = Some(inputs);
        users.take_changed(|changed| match changed {
            None => forget_all = true,
            Some(_) if forget_all => {}
            Some(slots) => {
                for &slot in slots {
                    if let Some(places) = self.places_of.get_mut(slot) {
                        for &at in places.iter() {
                            if let Some(w) = self.marked.get_mut(at / 64) {
                                *w &= !(1 << (at % 64));
                            }
                        }
                        places.clear();
                    }
                }
            }
        });
        if self.places != Some(active) {
            self.places = Some(active);
            self.marked.resize(active.div_ceil(64), 0);
            forget_all = true;
        }
        if forget_all {
            self.forget_all();
        }
    }

    /// The first place at or after `from` without a mark (`active` if none): the applications
    /// before it are passed over, their users over their limits as they were.
    #[inline]
    pub fn next_unmarked(&self, from: usize, active: usize) -> usize {
        if from >= active {
            return from;
        }
        let mut w = from / 64;
        let Some(&word) = self.marked.get(w) else {
            return from;
        };
        let mut bits = !word & (u64::MAX << (from % 64));
        while bits == 0 {
            w += 1;
            match self.marked.get(w) {
                Some(&word) => bits = !word,
                None => return active,
            }
        }
        (w * 64 + bits.trailing_zeros() as usize).min(active)
    }

    /// Marks the application at place `at`, whose user in `slot` was just found over its
    /// limit while it held no reservation (a reservation is part of its user's usage, so
    /// while that usage stays the same the application still holds none).
    #[inline]
    pub fn mark(&mut self, at: usize, slot: usize) {
        let Some(w) = self.marked.get_mut(at / 64) else {
            return;
        };
        *w |= 1 << (at % 64);
        if self.places_of.len() <= slot {
            self.places_of.resize_with(slot + 1, Vec::new);
        }
        self.places_of[slot].push(at);
    }
}
