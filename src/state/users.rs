//! `UsersManager`: per-leaf users, active users and the user limit (spec §4.6).

use std::collections::HashMap;

use slab::Slab;

use crate::resource::{CalculatorKind, Resource, ResourceCalculator, MAX_RESOURCE_TYPES};
use crate::state::capped_limit::{over_the_cap, CapCounts};
use crate::state::partition::{get_in, Partition, DEFAULT_PARTITION};
use crate::state::search::last_fitting;

#[derive(Debug, Clone, Default)]
pub struct User {
    pub name: String,
    /// The name again, shared: preemption snapshots take it without a copy per round.
    pub shared_name: crate::sync::Arc<str>,
    /// Allocated plus reserved, in this leaf, in the default partition.
    pub used: Resource,
    pub am_used: Resource,
    /// The same two in the labelled partitions.
    pub labelled_used: crate::state::partition::ByPartition,
    pub labelled_am_used: crate::state::partition::ByPartition,
    pub pending_apps: u32,
    pub active_apps: u32,
    /// Apps of this user waiting for a max-parallel-apps slot: they keep the user (and its
    /// slot, which they remember) as pending and active ones do (issue 36.3).
    pub non_runnable_apps: u32,
    /// Apps of this user with outstanding ANY asks: > 0 makes the user active.
    pub apps_with_demand: u32,
    pub weight: f32,
}

impl User {
    /// Allocated plus reserved in partition `p`.
    pub fn used_in(&self, p: Partition) -> Resource {
        get_in(self.used, &self.labelled_used, p)
    }

    pub fn is_active(&self) -> bool {
        self.apps_with_demand > 0
    }

    fn is_empty(&self) -> bool {
        self.pending_apps == 0
            && self.active_apps == 0
            && self.non_runnable_apps == 0
            && self.used.is_zero()
            && self.labelled_used.all_zero()
            && self.apps_with_demand == 0
    }
}

#[derive(Debug, Clone, Default)]
pub struct UsersManager {
    /// Users by slot: applications remember their user's slot, so the allocation path never
    /// hashes a user name.
    users: Slab<User>,
    by_name: HashMap<String, usize>,
    /// Users with outstanding asks.
    active_users: u32,
    active_weight: f32,
    /// Each user's `rc.ratio(used, total)` in the default partition, by slot, computed when its
    /// usage changes (`User.updateUsageRatio`) for the calculator and partition resource in
    /// `ratios_for`: the user limit sums them at every assignment, and only the user whose
    /// usage moved needs dividing again. Kept as the sum's terms (`summand`): a ratio that is
    /// not finite (YARN's sum skips it) and an empty slot are −0.0, which adding leaves every
    /// float as it is, so a plain sum of the slots gives the filtered sum bit for bit without
    /// a test per slot.
    ratios: Vec<f32>,
    ratios_for: Option<(ResourceCalculator, Resource)>,
    /// The active users' usage in the default partition (`totalResUsageForActiveUsers`), kept
    /// as usage and activity change.
    active_used: Resource,
    /// YARN's `CachedUserLimit` by slot: (usage epoch, reservation of the app found blocked).
    /// A user found over its limit stays so while usage is unchanged, so later apps of the user
    /// whose reservation fits in the cached one are skipped without another check.
    blocked: Vec<(u64, Resource)>,
    /// The parts of the user limit that depend only on the queue's inputs, with the queue
    /// tree's generation they were worked out at (`compute_queue_user_limit_kept`).
    limit_parts: Option<(u64, LimitParts)>,
    /// The last limit `compute_queue_user_limit_kept` worked out, with everything it was
    /// worked out from besides the kept parts' inputs (`LimitKey`).
    last_limit: Option<(LimitKey, Resource)>,
    /// The limit's thresholds for the queue's inputs and active weight (`SteadyLimit`).
    steady: Option<SteadyLimit>,
    /// The amounts past which the active users' share is above the cap, for the queue's
    /// inputs (`CapCounts`; `SteadyLimit` holds them as usage thresholds for the weight).
    cap_counts: Option<CapCounts>,
    /// The slots whose user's usage changed (any partition) or that got another user since
    /// `take_changed` last ran: the leaf's walk forgets what it remembered of those users
    /// (`state::walk_marks::WalkMarks`). `None` once more than `CHANGED_KEPT` did (the walk
    /// then forgets everything).
    changed: Option<Vec<usize>>,
    /// Changes when the users' weights are read again (a refresh): a user's limit scales by
    /// its weight.
    weights_version: u64,
}

/// The parts of `computeUserLimit` that depend only on the queue's inputs
/// (`QueueLimitInputs`), not on its users' usage: the allocation path computes the limit at
/// every assignment, and these stay the same until a capacity, the cluster or the
/// configuration changes.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LimitParts {
    /// `max(effectiveMin, minimumAllocation)`: the current capacity while the users consume
    /// less than it.
    queue_capacity: Resource,
    /// The user-limit percent's share of a current capacity of `queue_capacity`.
    by_percent_at_queue_capacity: Resource,
    /// What the user-limit factor (or the partition, or the maximum) caps a user at.
    max_user_limit: Resource,
}

impl LimitParts {
    fn of(q: &QueueLimitInputs) -> Self {
        let rc = q.rc;
        let (total, required) = (q.partition_total, q.minimum_allocation);
        let queue_capacity = rc.max(&total, &q.effective_min, &required);
        let max_user_limit = if q.ignore_exclusivity {
            total
        } else if q.user_limit_factor == -1.0 || q.effective_min.is_zero() {
            rc.round_down(&q.effective_max, &required)
        } else {
            queue_capacity.multiply_and_round_down(q.user_limit_factor as f64)
        };
        LimitParts {
            queue_capacity,
            by_percent_at_queue_capacity: by_percent(q, queue_capacity),
            max_user_limit,
        }
    }
}

/// What the active users' limit is worked out from once the kept parts are known (the
/// queue tree's generation stands for the queue's inputs, as it does for `LimitParts`): the
/// users' summed usage ratios, the active users' usage and their weights. A heartbeat that
/// completes one container and allocates another often ends with the same three (a user
/// gave back what another took), and the limit then is the one worked out before.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LimitKey {
    generation: u64,
    /// Compared bit for bit: the limit is a function of the float's bits.
    share_bits: u32,
    active_used: Resource,
    active_weight_bits: u32,
}

/// The user-limit percent's share of the queue's current capacity.
fn by_percent(q: &QueueLimitInputs, current_capacity: Resource) -> Resource {
    q.rc.divide_and_ceil_long(
        &current_capacity.multiply_and_round_down(q.user_limit_percent as f64),
        100,
    )
}

/// The active users' limit while it is steady: in a queue whose users take less than its
/// capacity and whose active users' equal share stays below the user-limit percent's share, the
/// limit is `roundUp(min(byPercent, maxUserLimit))` whatever the exact usage, yet
/// `compute_limit_with` works it out afresh (some 300 instructions) whenever a user's usage
/// moves. Both conditions are thresholds, worked out once per queue inputs and active weight:
/// the consumed capacity grows with the ratio sum, and the users' share grows with each
/// component of the active usage, so a sum up to `share_max` and a usage up to `used_max`
/// decide both comparisons exactly as `compute_limit_with` would (debug builds re-check).
#[derive(Debug, Clone, Copy)]
struct SteadyLimit {
    generation: u64,
    weight_bits: u32,
    /// The largest ratio sum (from 0) whose consumed capacity the dominant calculator finds
    /// below the queue capacity without dividing (componentwise at most, not equal); −1 when
    /// none is, which turns the fast path off.
    share_max: f32,
    /// Per configured type, the largest `activeUsed + minimumAllocation` whose share among the
    /// active weight is at most the percent's share (and no smallest); beyond the configured
    /// types the slot must be 0 (as everything keeps it), so that `max` returns the percent's
    /// share whole even when the two are equal.
    used_min: [i64; MAX_RESOURCE_TYPES],
    used_max: [i64; MAX_RESOURCE_TYPES],
    limit: Resource,
    /// The amounts of each type past which the active users' share is above the user cap,
    /// whatever the ratio sum (`CapCounts`), and per type the usage below which the share
    /// cannot be (`CapCounts::near`).
    cap: CapCounts,
    cap_near: [i64; MAX_RESOURCE_TYPES],
    /// The counts as usage thresholds for the weight (`CapCounts::thresholds`), worked out
    /// the first time a usage comes near them.
    cap_from: Option<[i64; MAX_RESOURCE_TYPES]>,
}

/// Values the threshold search stays monotone over: below 2^60, a product with a ratio sum
/// up to `SHARE_SEARCH_MAX` plus a rounding step cannot wrap.
const STEADY_VALUE_MAX: i64 = 1 << 60;
const SHARE_SEARCH_MAX: f32 = 4.0;

impl SteadyLimit {
    const OFF: f32 = -1.0;

    /// The thresholds for `q` at `generation` with active weight `weight`; `share_max` is
    /// `OFF` where the reasoning does not hold (another calculator, a cluster missing a type,
    /// extreme values, a weight that is not a positive number). Out of line: it runs once per
    /// change of the queue's inputs or active weight, and inlined it would burden the hit path.
    #[cold]
    #[inline(never)]
    fn build(
        q: &QueueLimitInputs,
        parts: &LimitParts,
        weight: f32,
        generation: u64,
        cap: &CapCounts,
    ) -> Self {
        let mut steady = SteadyLimit {
            generation,
            weight_bits: weight.to_bits(),
            share_max: Self::OFF,
            used_min: [i64::MIN; MAX_RESOURCE_TYPES],
            used_max: [i64::MIN; MAX_RESOURCE_TYPES],
            limit: Resource::ZERO,
            cap: *cap,
            cap_near: cap.near(weight),
            cap_from: None,
        };
        let rc = q.rc;
        let n = rc.types();
        let (total, required) = (q.partition_total, q.minimum_allocation);
        let bp = parts.by_percent_at_queue_capacity;
        let usable = rc.kind() == CalculatorKind::Dominant
            && (2..=MAX_RESOURCE_TYPES).contains(&n)
            && weight.is_finite()
            && weight > 0.0
            && (0..n).all(|i| {
                (1..=STEADY_VALUE_MAX).contains(&total.get(i))
                    && (0..=STEADY_VALUE_MAX).contains(&required.get(i))
            })
            && (n..MAX_RESOURCE_TYPES).all(|i| bp.get(i) == 0);
        if !usable {
            return steady;
        }
        // Below the queue capacity by the calculator's division-free case: every type at most,
        // not all equal (the cluster has every type, checked above).
        let qc = parts.queue_capacity;
        let below = |s: f32| {
            let c = rc.multiply_and_normalize_up(&total, s as f64, &required);
            (0..n).all(|i| c.get(i) <= qc.get(i)) && (0..n).any(|i| c.get(i) != qc.get(i))
        };
        // Non-negative floats order as their bits do; consumed grows with the sum over
        // [0, SHARE_SEARCH_MAX] (no product there wraps), so `below` holds up to a threshold.
        let estimate = (0..n)
            .map(|i| (qc.get(i) as f64 / total.get(i) as f64) as f32)
            .fold(SHARE_SEARCH_MAX, f32::min)
            .max(0.0);
        let share_bits = last_fitting(
            estimate.to_bits() as i64,
            (0, SHARE_SEARCH_MAX.to_bits() as i64),
            |b| below(f32::from_bits(b as u32)),
        );
        let Some(share_bits) = share_bits else {
            return steady;
        };
        let share_max = f32::from_bits(share_bits as u32);
        // `divideAndCeil(x, weight)` grows with x for a positive weight: the largest x whose
        // share is at most the percent's, per type.
        for i in 0..n {
            let fits = |x: i64| {
                rc.divide_and_ceil(&Resource::from_values(&[x]), weight)
                    .get(0)
                    <= bp.get(i)
            };
            let estimate = (bp.get(i) as f64 * weight as f64) as i64;
            let Some(max) = last_fitting(estimate, (i64::MIN, i64::MAX), fits) else {
                return steady;
            };
            steady.used_max[i] = max;
        }
        for i in n..MAX_RESOURCE_TYPES {
            (steady.used_min[i], steady.used_max[i]) = (0, 0);
        }
        steady.share_max = share_max;
        steady.limit = rc.round_up(&rc.min(&total, &bp, &parts.max_user_limit), &required);
        steady
    }

    /// The limit for `used` = `activeUsed + minimumAllocation` when the active users' share
    /// is above the cap: the ratio sum does not matter then.
    #[inline]
    fn capped(&mut self, rc: ResourceCalculator, used: &Resource) -> Option<Resource> {
        if !(0..MAX_RESOURCE_TYPES).any(|i| used.get(i) >= self.cap_near[i]) {
            return None;
        }
        let from = match &self.cap_from {
            Some(from) => from,
            None => self
                .cap_from
                .insert(self.cap.thresholds(rc, f32::from_bits(self.weight_bits))),
        };
        over_the_cap(from, used).then_some(self.cap.limit())
    }

    /// The limit for ratio sum `share` and `used` = `activeUsed + minimumAllocation`, when
    /// both are within the thresholds.
    #[inline]
    fn get(&self, share: f32, used: &Resource) -> Option<Resource> {
        let within = share >= 0.0
            && share <= self.share_max
            && (0..MAX_RESOURCE_TYPES)
                .all(|i| self.used_min[i] <= used.get(i) && used.get(i) <= self.used_max[i]);
        within.then_some(self.limit)
    }
}

/// How many changed slots `UsersManager::changed` lists before it gives up listing (a leaf
/// whose walk does not run, a fair-ordered one, would otherwise grow the list forever).
const CHANGED_KEPT: usize = 64;

/// What an empty user slot adds to the sum of the users' ratios: nothing. `x + −0.0` is `x`
/// for every float `x` (−0.0 and NaN included), where `+0.0` would turn a −0.0 sum into +0.0.
const EMPTY_SLOT: f32 = -0.0;

/// A user's usage ratio as a term of the user limit's sum: YARN's sum skips a ratio that is
/// not finite (usage over a partition resource of zero), which adding `EMPTY_SLOT` does too.
fn summand(ratio: f32) -> f32 {
    if ratio.is_finite() {
        ratio
    } else {
        EMPTY_SLOT
    }
}

/// What a leaf visit checks each application's user against (`UsersManager::check_for_walk`),
/// worked out once per visit.
#[derive(Debug, Clone, Copy)]
pub struct UserCheck<'a> {
    pub inputs: &'a QueueLimitInputs,
    /// The queue-wide user limit before a user's weight.
    pub queue_user_limit: Resource,
    /// What the calculator compares against (the cluster).
    pub cluster: Resource,
    /// `reservations-continue-look-all-nodes`: a user over its limit by no more than an
    /// application's reservation may still be given more, unreserving.
    pub continue_looking: bool,
}

/// The inputs of the user-limit formula that come from the queue.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueueLimitInputs {
    pub rc: ResourceCalculator,
    pub partition_total: Resource,
    pub effective_min: Resource,
    pub effective_max: Resource,
    pub minimum_allocation: Resource,
    pub user_limit_percent: f32,
    pub user_limit_factor: f32,
    /// The partition the limit is for: users' usage there counts.
    pub partition: Partition,
    /// `IGNORE_PARTITION_EXCLUSIVITY`: the cap is the whole partition, not the factor's.
    pub ignore_exclusivity: bool,
}

impl UsersManager {
    pub fn get(&self, user: &str) -> Option<&User> {
        self.by_name.get(user).map(|&slot| &self.users[slot])
    }

    pub fn get_mut(&mut self, user: &str) -> Option<&mut User> {
        self.by_name.get(user).map(|&slot| &mut self.users[slot])
    }

    pub fn slot(&self, user: &str) -> Option<usize> {
        self.by_name.get(user).copied()
    }

    /// The user in `slot` (as remembered by one of its applications).
    pub fn by_slot(&self, slot: usize) -> Option<&User> {
        self.users.get(slot)
    }

    pub fn by_slot_mut(&mut self, slot: usize) -> Option<&mut User> {
        self.users.get_mut(slot)
    }

    /// The user's entry, created with its configured weight on first use.
    pub fn entry(&mut self, user: &str, weight: f32) -> &mut User {
        let slot = self.entry_slot(user, weight);
        &mut self.users[slot]
    }

    /// The user's slot, creating the user with `weight` if new.
    pub fn entry_slot(&mut self, user: &str, weight: f32) -> usize {
        if let Some(&slot) = self.by_name.get(user) {
            return slot;
        }
        let slot = self.users.insert(User {
            name: user.to_string(),
            shared_name: user.into(),
            weight,
            ..Default::default()
        });
        self.by_name.insert(user.to_string(), slot);
        self.forget_blocked(slot);
        self.note_changed(slot);
        if let Some((rc, total)) = self.ratios_for {
            if self.ratios.len() <= slot {
                self.ratios.resize(slot + 1, EMPTY_SLOT);
            }
            self.ratios[slot] = summand(rc.ratio(&Resource::ZERO, &total));
        }
        slot
    }

    pub fn users(&self) -> impl Iterator<Item = (&String, &User)> {
        self.users.iter().map(|(_, u)| (&u.name, u))
    }

    pub fn num_users(&self) -> usize {
        self.users.len()
    }

    pub fn active_users(&self) -> u32 {
        self.active_users
    }

    /// Active users plus users whose applications are all still pending: the count the user AM
    /// limit divides by (`getNumActiveUsers` with pending-only users).
    pub fn active_users_for_am_limit(&self) -> u32 {
        self.active_users
            + self
                .users
                .iter()
                .filter(|(_, u)| !u.is_active() && u.active_apps == 0 && u.pending_apps > 0)
                .count() as u32
    }

    /// Adds `delta` (may be negative) to the usage in `partition` of the user in `slot`; `rc`
    /// and `default_total` (the default partition's resource) are what its usage ratio is
    /// computed with. Inlined into `add_app_used`, its one caller on the allocation and
    /// completion paths (twice per churning heartbeat), which passes two resources by value.
    #[inline]
    pub fn add_used(
        &mut self,
        slot: usize,
        partition: Partition,
        delta: Resource,
        rc: ResourceCalculator,
        default_total: Resource,
    ) {
        let Some(u) = self.users.get_mut(slot) else {
            return;
        };
        crate::state::partition::add_in(&mut u.used, &mut u.labelled_used, partition, delta);
        let (used, active) = (u.used, u.is_active());
        self.note_changed(slot);
        if partition != DEFAULT_PARTITION {
            return;
        }
        if active {
            self.active_used += delta;
        }
        if !self.ratios_are_for(rc, &default_total) {
            self.recompute_ratios(rc, default_total);
        } else {
            self.ratios[slot] = summand(rc.ratio(&used, &default_total));
        }
    }

    /// The version the users' weights were read at (see `weights_version`).
    pub fn weights_version(&self) -> u64 {
        self.weights_version
    }

    /// Whether the kept ratios are over `total` with `rc`. (Compared in place: building the
    /// `Option` of a pair to compare with `ratios_for` copied the resource through the stack
    /// in misaligned halves, and reading them back stalled on the stores, at every usage
    /// change.)
    #[inline]
    fn ratios_are_for(&self, rc: ResourceCalculator, total: &Resource) -> bool {
        matches!(&self.ratios_for, Some((kept_rc, kept_total)) if *kept_rc == rc && kept_total == total)
    }

    /// Notes that the user in `slot` changed (see `changed`).
    #[inline]
    fn note_changed(&mut self, slot: usize) {
        if let Some(changed) = &mut self.changed {
            if changed.len() < CHANGED_KEPT {
                changed.push(slot);
            } else {
                self.changed = None;
            }
        }
    }

    /// Hands the slots whose user changed since the last call to `f` (`None`: too
    /// many to list, take every user as changed), and starts a new list.
    pub fn take_changed(&mut self, f: impl FnOnce(Option<&[usize]>)) {
        match &mut self.changed {
            Some(changed) => {
                f(Some(changed));
                changed.clear();
            }
            None => {
                f(None);
                self.changed = Some(Vec::new());
            }
        }
    }

    /// Whether the kept active usage and usage ratios equal what the users' usage gives (for
    /// the invariant checker).
    pub fn check_kept_sums(&self) -> Result<(), String> {
        let active: Resource = self
            .users
            .iter()
            .filter(|(_, u)| u.is_active())
            .map(|(_, u)| u.used)
            .sum();
        if active != self.active_used {
            return Err(format!(
                "active users' usage kept as {} but is {active}",
                self.active_used
            ));
        }
        if let Some((rc, total)) = self.ratios_for {
            for (slot, r) in self.ratios.iter().enumerate() {
                let want = self
                    .users
                    .get(slot)
                    .map_or(EMPTY_SLOT, |u| summand(rc.ratio(&u.used, &total)));
                if want.to_bits() != r.to_bits() {
                    return Err(format!(
                        "user slot {slot}: usage ratio kept as {r}, is {want}"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Every user's usage ratio afresh (the calculator or the partition's resource changed).
    fn recompute_ratios(&mut self, rc: ResourceCalculator, total: Resource) {
        self.ratios.clear();
        let slots = self
            .users
            .iter()
            .map(|(slot, _)| slot + 1)
            .max()
            .unwrap_or(0);
        self.ratios.resize(slots, EMPTY_SLOT);
        for (slot, u) in self.users.iter() {
            self.ratios[slot] = summand(rc.ratio(&u.used, &total));
        }
        self.ratios_for = Some((rc, total));
    }

    /// An app of the user in `slot` gained (true) or lost (false) all of its outstanding asks.
    pub fn set_app_demand(&mut self, slot: usize, has_demand: bool) {
        let Some(u) = self.users.get_mut(slot) else {
            return;
        };
        let was = u.is_active();
        if has_demand {
            u.apps_with_demand += 1;
        } else {
            u.apps_with_demand = u.apps_with_demand.saturating_sub(1);
        }
        match (was, u.is_active()) {
            (false, true) => {
                self.active_users += 1;
                self.active_weight += u.weight;
                self.active_used += u.used;
            }
            (true, false) => {
                self.active_users -= 1;
                self.active_weight -= u.weight;
                self.active_used -= u.used;
            }
            _ => {}
        }
    }

    /// Drops a user with nothing left in the queue.
    pub fn remove_if_empty(&mut self, user: &str) {
        if let Some(&slot) = self.by_name.get(user) {
            if self.users[slot].is_empty() {
                self.users.remove(slot);
                if let Some(r) = self.ratios.get_mut(slot) {
                    *r = EMPTY_SLOT;
                }
                self.by_name.remove(user);
                self.forget_blocked(slot);
                self.note_changed(slot);
            }
        }
    }

    /// `canAssignToUser` as a leaf's walk asks it for an application of the user in `slot`
    /// holding `reserved`, with YARN's `CachedUserLimit`: `epoch` is the usage epoch on a
    /// default-partition visit, which keeps the cache (a user's standing differs per
    /// partition), `None` elsewhere. `None`: pass the application over (its user is over its
    /// limit, found now — and noted — or at this epoch with a reservation this one fits in).
    /// Otherwise what the application must unreserve to be given more: nothing when its user
    /// is within its limit, the excess when it is over by no more than its reservation and the
    /// walk may unreserve (`continue_looking`).
    // Always inlined: it is the walk's per-application step, called from two places; out of
    // line it cost ~35 instructions a call (a churning heartbeat +13 %).
    #[inline(always)]
    pub fn check_for_walk(
        &mut self,
        user: &UserCheck<'_>,
        slot: usize,
        reserved: Resource,
        epoch: Option<u64>,
    ) -> Option<Resource> {
        let rc = user.inputs.rc;
        let cached = epoch.and_then(|e| self.blocked_reservation(slot, e));
        if cached.is_some_and(|r| rc.fits_in(&reserved, &r)) {
            return None;
        }
        let (used, limit) = self.used_and_limit(user, slot);
        if !rc.greater_than(&user.cluster, &used, &limit) {
            return Some(Resource::ZERO);
        }
        // With nothing reserved, over the limit is over it less the reservation too.
        if user.continue_looking
            && !reserved.is_zero()
            && rc.less_than_or_equal(&user.cluster, &(used - reserved), &limit)
        {
            return Some(used - limit);
        }
        if let Some(e) = epoch {
            if cached.is_none_or(|r| rc.fits_in(&r, &reserved)) {
                self.set_blocked(slot, e, reserved);
            }
        }
        None
    }

    /// Whether the user in `slot` is over its limit as the walk's check sees it for an
    /// application holding no reservation (`check_for_walk` answering `None`), without noting
    /// anything: what a `WalkMarks` mark stands for, re-checked in debug builds.
    pub fn over_limit(&self, user: &UserCheck<'_>, slot: usize) -> bool {
        let (used, limit) = self.used_and_limit(user, slot);
        user.inputs.rc.greater_than(&user.cluster, &used, &limit)
    }

    /// The usage of the user in `slot` in the partition checked, and its own limit (the
    /// queue's scaled by its weight); nothing and the queue's for an empty slot.
    #[inline(always)]
    fn used_and_limit(&self, user: &UserCheck<'_>, slot: usize) -> (Resource, Resource) {
        let u = self.by_slot(slot);
        let used = u
            .map(|u| u.used_in(user.inputs.partition))
            .unwrap_or(Resource::ZERO);
        let weight = u.map(|u| u.weight).unwrap_or(1.0);
        (
            used,
            Self::user_limit(user.inputs, user.queue_user_limit, weight),
        )
    }

    /// The reservation recorded when the user in `slot` was last found over its limit, if that
    /// was at `epoch` (usage unchanged since).
    pub fn blocked_reservation(&self, slot: usize, epoch: u64) -> Option<Resource> {
        self.blocked
            .get(slot)
            .filter(|(e, _)| *e == epoch)
            .map(|(_, r)| *r)
    }

    pub fn set_blocked(&mut self, slot: usize, epoch: u64, reservation: Resource) {
        if self.blocked.len() <= slot {
            self.blocked.resize(slot + 1, (u64::MAX, Resource::ZERO));
        }
        self.blocked[slot] = (epoch, reservation);
    }

    fn forget_blocked(&mut self, slot: usize) {
        if let Some(b) = self.blocked.get_mut(slot) {
            *b = (u64::MAX, Resource::ZERO);
        }
    }

    /// Re-reads every user's weight (after a refresh), keeping the active weight sum right.
    pub fn update_weights(&mut self, weight_of: impl Fn(&str) -> f32) {
        self.weights_version += 1;
        self.active_weight = 0.0;
        for (_, u) in self.users.iter_mut() {
            u.weight = weight_of(&u.name);
            if u.is_active() {
                self.active_weight += u.weight;
            }
        }
    }

    /// The queue-wide user limit before a user's weight (`computeUserLimit`, spec §4.6).
    pub fn compute_queue_user_limit(&self, q: &QueueLimitInputs) -> Resource {
        self.compute_limit(q, true, &LimitParts::of(q))
    }

    /// The same for the default partition, with the parts that depend only on `q` kept from
    /// the last call at the queue tree's `generation` (the allocation path's: it asks at every
    /// assignment). The inputs come from the tree's capacities, resources and configuration,
    /// which a new generation marks as changed (debug builds check the kept parts). The limit
    /// itself is remembered with what it was worked out from (`LimitKey`).
    pub fn compute_queue_user_limit_kept(
        &mut self,
        q: &QueueLimitInputs,
        generation: u64,
    ) -> Resource {
        if !self.kept_ratios_apply(q) {
            let parts = self.kept_parts(q, generation);
            return self.compute_limit(q, true, &parts);
        }
        let used = self.active_used + q.minimum_allocation;
        let weight_bits = self.active_weight.to_bits();
        if !matches!(&self.steady,
            Some(s) if s.generation == generation && s.weight_bits == weight_bits)
        {
            self.rebuild_steady(q, generation);
        }
        // Checked before the remembered limit: in a steady or capped queue they answer every
        // call, and then the key need not even be built; a capped one needs not even the
        // ratio sum.
        let capped = self
            .steady
            .as_mut()
            .expect("just built")
            .capped(q.rc, &used);
        if let Some(limit) = capped {
            debug_assert_eq!(
                limit,
                self.compute_limit(q, true, &LimitParts::of(q)),
                "the capped user limit is wrong"
            );
            return limit;
        }
        let share = self.kept_share();
        let steady = self.steady.as_ref().expect("just built");
        if let Some(limit) = steady.get(share, &used) {
            debug_assert_eq!(
                limit,
                self.compute_limit(q, true, &LimitParts::of(q)),
                "the steady user limit is wrong"
            );
            return limit;
        }
        let key = LimitKey {
            generation,
            share_bits: share.to_bits(),
            active_used: self.active_used,
            active_weight_bits: self.active_weight.to_bits(),
        };
        // The same inputs as last time: the same limit, without even the kept parts' copy.
        if let Some((at, limit)) = self.last_limit {
            if at == key {
                debug_assert_eq!(
                    limit,
                    self.compute_limit(q, true, &LimitParts::of(q)),
                    "the remembered user limit is stale"
                );
                return limit;
            }
        }
        let parts = self.kept_parts(q, generation);
        let limit = self.compute_limit_with(q, &parts, true, share, self.active_used);
        self.last_limit = Some((key, limit));
        debug_assert_eq!(limit, self.compute_limit(q, true, &parts));
        limit
    }

    /// Works out the thresholds (`SteadyLimit`) for `q` at `generation` and the active
    /// weight, with the cap's counts for `generation`. Out of line: it runs once per change of
    /// either, and inlined it would burden the hit path.
    #[cold]
    #[inline(never)]
    fn rebuild_steady(&mut self, q: &QueueLimitInputs, generation: u64) {
        let parts = self.kept_parts(q, generation);
        let counts = match self.cap_counts {
            Some(c) if c.generation == generation => c,
            _ => {
                let c = CapCounts::build(
                    q.rc,
                    q.partition_total,
                    parts.max_user_limit,
                    q.minimum_allocation,
                    generation,
                );
                self.cap_counts = Some(c);
                c
            }
        };
        let steady = SteadyLimit::build(q, &parts, self.active_weight, generation, &counts);
        self.steady = Some(steady);
    }

    /// The parts of the limit that depend only on `q`, kept from the last call at the queue
    /// tree's `generation`.
    fn kept_parts(&mut self, q: &QueueLimitInputs, generation: u64) -> LimitParts {
        let parts = match self.limit_parts {
            Some((at, parts)) if at == generation => parts,
            _ => {
                let parts = LimitParts::of(q);
                self.limit_parts = Some((generation, parts));
                parts
            }
        };
        debug_assert_eq!(parts, LimitParts::of(q), "kept user-limit parts");
        parts
    }

    /// Whether the kept usage ratios are the ones `q`'s limit sums: the default partition's,
    /// for its calculator and resource.
    fn kept_ratios_apply(&self, q: &QueueLimitInputs) -> bool {
        q.partition == DEFAULT_PARTITION && self.ratios_are_for(q.rc, &q.partition_total)
    }

    /// The kept ratios summed in slot order, as the slow path sums the users' ratios: the same
    /// float sum (the slots the slow path skips hold −0.0, which changes no sum).
    fn kept_share(&self) -> f32 {
        self.ratios.iter().sum()
    }

    /// The same limit counting every user of the queue, active or not
    /// (`getComputedResourceLimitForAllUsers`, which intra-queue preemption reads): the
    /// current capacity is shared among the weights of all users.
    pub fn compute_queue_user_limit_all_users(&self, q: &QueueLimitInputs) -> Resource {
        self.compute_limit(q, false, &LimitParts::of(q))
    }

    /// Every user of the queue.
    pub fn iter(&self) -> impl Iterator<Item = &User> {
        self.users.iter().map(|(_, u)| u)
    }

    /// The users with their slots, in slot order (the order of `iter`).
    pub fn iter_slots(&self) -> impl ExactSizeIterator<Item = (usize, &User)> {
        self.users.iter()
    }

    fn compute_limit(
        &self,
        q: &QueueLimitInputs,
        active_users: bool,
        parts: &LimitParts,
    ) -> Resource {
        // The default partition's usage is a plain field: read it without a branch per user.
        let slow = || {
            let p = q.partition;
            let share = self
                .users
                .iter()
                .map(|(_, u)| q.rc.ratio(&u.used_in(p), &q.partition_total))
                .filter(|r| r.is_finite())
                .sum();
            let active_used = self
                .users
                .iter()
                .filter(|(_, u)| u.is_active())
                .map(|(_, u)| u.used_in(p))
                .sum();
            self.compute_limit_with(q, parts, active_users, share, active_used)
        };
        if !self.kept_ratios_apply(q) {
            return slow();
        }
        let share = self.kept_share();
        let limit = self.compute_limit_with(q, parts, active_users, share, self.active_used);
        debug_assert_eq!(
            limit,
            slow(),
            "the kept usage ratios disagree with the users' usage"
        );
        limit
    }

    fn compute_limit_with(
        &self,
        q: &QueueLimitInputs,
        parts: &LimitParts,
        active_users: bool,
        share: f32,
        active_used: Resource,
    ) -> Resource {
        let rc = q.rc;
        let total = q.partition_total;
        let required = q.minimum_allocation;
        let queue_capacity = parts.queue_capacity;
        // consumed = multiplyAndNormalizeUp(total, share), share = Σ ratio(userUsed, total)
        let consumed = rc.multiply_and_normalize_up(&total, share as f64, &required);
        let (current_capacity, by_percent) = if rc.less_than(&total, &consumed, &queue_capacity) {
            (queue_capacity, parts.by_percent_at_queue_capacity)
        } else {
            let current = consumed + required;
            (current, by_percent(q, current))
        };
        let (resource_used, weights) = if active_users {
            (active_used + required, self.active_weight)
        } else {
            let all: f32 = self.users.iter().map(|(_, u)| u.weight).sum();
            (current_capacity, all)
        };
        let by_users = rc.divide_and_ceil(&resource_used, weights);
        let base = rc.max(&total, &by_users, &by_percent);
        rc.round_up(&rc.min(&total, &base, &parts.max_user_limit), &required)
    }

    /// A user's own limit: the queue limit scaled by its weight (`multiplyAndNormalizeDown`).
    pub fn user_limit(q: &QueueLimitInputs, queue_user_limit: Resource, weight: f32) -> Resource {
        if weight == 1.0 {
            return queue_user_limit;
        }
        q.rc.multiply_and_normalize_down(&queue_user_limit, weight as f64, &q.minimum_allocation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::CalculatorKind;

    const GB: i64 = 1024;

    fn inputs() -> QueueLimitInputs {
        QueueLimitInputs {
            rc: ResourceCalculator::new(CalculatorKind::Dominant, 2),
            partition_total: Resource::new(100 * GB, 100),
            effective_min: Resource::new(50 * GB, 50),
            effective_max: Resource::new(100 * GB, 100),
            minimum_allocation: Resource::new(GB, 1),
            user_limit_percent: 25.0,
            user_limit_factor: 2.0,
            partition: DEFAULT_PARTITION,
            ignore_exclusivity: false,
        }
    }

    /// The limit remembered between calls (`LimitKey`) follows every change of what it is
    /// worked out from: usage (the ratios' sum and the active users' usage), activity and
    /// weights — each step agrees with a limit worked out afresh.
    #[test]
    fn the_remembered_user_limit_follows_usage_activity_and_weights() {
        let q = inputs();
        let (rc, total) = (q.rc, q.partition_total);
        let mut m = UsersManager::default();
        let fresh = |m: &UsersManager| m.compute_queue_user_limit(&q);
        let mut limits = Vec::new();
        let mut check = |m: &mut UsersManager| {
            let kept = m.compute_queue_user_limit_kept(&q, 1);
            assert_eq!(kept, fresh(m));
            // Asked again with nothing changed: the remembered one.
            assert_eq!(m.compute_queue_user_limit_kept(&q, 1), kept);
            limits.push(kept);
        };
        let (a, b) = (m.entry_slot("a", 1.0), m.entry_slot("b", 1.0));
        m.add_used(a, DEFAULT_PARTITION, Resource::new(GB, 1), rc, total);
        m.set_app_demand(a, true);
        check(&mut m);
        for _ in 0..60 {
            m.add_used(a, DEFAULT_PARTITION, Resource::new(GB, 1), rc, total);
            check(&mut m);
        }
        m.add_used(b, DEFAULT_PARTITION, Resource::new(30 * GB, 1), rc, total);
        check(&mut m);
        m.set_app_demand(b, true);
        check(&mut m);
        // One user gives back what the other takes: same share, same limit.
        m.add_used(a, DEFAULT_PARTITION, Resource::new(-GB, -1), rc, total);
        m.add_used(b, DEFAULT_PARTITION, Resource::new(GB, 1), rc, total);
        check(&mut m);
        m.update_weights(|u| if u == "b" { 3.0 } else { 1.0 });
        check(&mut m);
        m.set_app_demand(a, false);
        check(&mut m);
        let distinct: std::collections::BTreeSet<_> =
            limits.iter().map(|l| (l.memory_mb(), l.vcores())).collect();
        assert!(distinct.len() > 3, "the limit moved: {limits:?}");
    }
}

#[cfg(test)]
mod steady_tests {
    use super::*;

    /// xorshift64*: enough randomness for the comparison, and the same cases every run.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
            xs[(self.next() % xs.len() as u64) as usize]
        }
        fn value(&mut self) -> i64 {
            match self.next() % 4 {
                0 => self.pick(&[0, 1, 7, 512, 1024, 100 * 1024, -5, 1 << 60, (1 << 60) + 1]),
                1 => (self.next() % 200_000) as i64,
                2 => (self.next() >> 20) as i64,
                _ => self.next() as i64,
            }
        }
    }

    fn resource(rng: &mut Rng, n: usize, f: impl Fn(&mut Rng) -> i64) -> Resource {
        let mut r = Resource::ZERO;
        for i in 0..n {
            r.set(i, f(rng));
        }
        r
    }

    /// Wherever the thresholds answer (the steady ones, and the cap's counts), they answer
    /// what `compute_limit_with` works out, over
    /// random and edge inputs (zero and negative totals, zero steps, extreme values, weights
    /// that are zero, negative or not a number), at and around the thresholds themselves.
    #[test]
    fn the_steady_limit_agrees_with_the_full_computation() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut hits, mut misses) = (0u32, 0u32);
        let (mut capped, mut not_capped) = (0u32, 0u32);
        for case in 0..20_000 {
            let n = if case % 5 == 0 { 3 } else { 2 };
            let kind = if case % 11 == 0 {
                CalculatorKind::Default
            } else {
                CalculatorKind::Dominant
            };
            let total = resource(&mut rng, n, |r| {
                if r.next() % 3 == 0 {
                    r.value()
                } else {
                    1 + (r.next() % 1_000_000) as i64
                }
            });
            let share_of = |r: &mut Rng, t: i64| {
                let f = r.pick(&[0.0, 0.1, 0.25, 0.5, 0.9, 1.0, 1.5]);
                (t as f64 * f) as i64
            };
            let effective_min = resource(&mut rng, n, |r| {
                if r.next() % 4 == 0 {
                    r.value()
                } else {
                    share_of(r, total.get(0).max(1))
                }
            });
            let effective_max = resource(&mut rng, n, |r| r.value());
            let minimum_allocation = resource(&mut rng, n, |r| {
                r.pick(&[0, 1, 2, 128, 1024, 3000, -1, 1 << 59])
            });
            let q = QueueLimitInputs {
                rc: ResourceCalculator::new(kind, n),
                partition_total: total,
                effective_min,
                effective_max,
                minimum_allocation,
                user_limit_percent: rng.pick(&[100.0, 25.0, 33.3, 0.0, 1.0, 150.0]),
                user_limit_factor: rng.pick(&[1.0, 2.0, -1.0, 0.5, 10.0]),
                partition: DEFAULT_PARTITION,
                ignore_exclusivity: rng.next() % 13 == 0,
            };
            let weight = rng.pick(&[1.0, 25.0, 101.0, 0.5, 3.7, 0.0, -1.0, f32::NAN, 1e-30, 1e30]);
            let parts = LimitParts::of(&q);
            let counts = CapCounts::build(q.rc, total, parts.max_user_limit, minimum_allocation, 7);
            let steady = SteadyLimit::build(&q, &parts, weight, 7, &counts);
            let m = UsersManager {
                active_weight: weight,
                ..Default::default()
            };
            for _ in 0..20 {
                let share = match rng.next() % 6 {
                    0 => steady.share_max,
                    1 => f32::from_bits(steady.share_max.to_bits().wrapping_add(1)),
                    2 => f32::from_bits(steady.share_max.to_bits().wrapping_sub(1)),
                    3 => rng.pick(&[0.0, -0.0, -1e-3, 4.0, 5.0, f32::NAN]),
                    _ => (rng.next() % 1_000_000) as f32 / 400_000.0,
                };
                let mut used = Resource::ZERO;
                for i in 0..MAX_RESOURCE_TYPES {
                    // Near the steady thresholds, or where the share reaches a cap count.
                    let near = if rng.next() % 2 == 0 {
                        steady.used_max[i]
                    } else {
                        let count = counts.counts()[i];
                        (count.saturating_sub(1) as f64 * weight as f64) as i64
                    };
                    let v = match rng.next() % 6 {
                        0 => near,
                        1 => near.wrapping_add(1),
                        2 => near.wrapping_sub((rng.next() % 1000) as i64),
                        3 => near.wrapping_add((rng.next() % 1000) as i64),
                        4 => rng.value(),
                        _ => (rng.next() % 1_000_000) as i64,
                    };
                    // Beyond the configured types usage is 0, but for the odd case.
                    let v = if i >= n && rng.next() % 8 != 0 { 0 } else { v };
                    used.set(i, v);
                }
                let active_used = used - minimum_allocation;
                let full = m.compute_limit_with(&q, &parts, true, share, active_used);
                let used = active_used + minimum_allocation;
                match steady.get(share, &used) {
                    Some(limit) => {
                        hits += 1;
                        assert_eq!(limit, full, "{q:?} weight {weight} share {share} {used:?}");
                    }
                    None => misses += 1,
                }
                match steady.clone().capped(q.rc, &used) {
                    Some(limit) => {
                        capped += 1;
                        assert_eq!(
                            limit,
                            full,
                            "capped: {q:?} weight {weight} share {share} {used:?} counts {:?}",
                            counts.counts()
                        );
                    }
                    None => not_capped += 1,
                }
            }
        }
        // Every answer was exercised, the shortcuts often.
        assert!(
            hits > 5_000 && misses > 5_000,
            "{hits} hits, {misses} misses"
        );
        assert!(
            capped > 5_000 && not_capped > 5_000,
            "{capped} capped, {not_capped} not"
        );
    }
}
