//! The active users' limit once their equal share is above the user cap.
//!
//! `computeUserLimit` ends with `roundUp(min(max(share, byPercent), maxUserLimit))`, where
//! `share` = `divideAndCeil(activeUsed + minimumAllocation, activeWeight)` and `byPercent`
//! comes from the consumed capacity, that is from the sum of every user's usage ratio. When
//! `share` is above the cap, so is the larger of the two, and the limit is the cap rounded up:
//! no ratio sum is needed. A queue whose user-limit factor holds its users below what they
//! would share (the usual reason for a factor) computes its limit this way at every
//! assignment and completion.
//!
//! Whether `share` is above the cap is a comparison by the calculator, which needs shares
//! (divisions) when neither vector holds the other. It is decided here with per-type counts
//! worked out once per queue inputs: the smallest amount of each type that, alone, the
//! calculator finds above the cap. The calculator's order grows with every component while
//! the cluster has every type (the dominant calculator compares sorted shares, and each share
//! grows with its component; exactly so below 2^52), so a `share` at least that count in one
//! type and not negative in any is above the cap too.

use std::cmp::Ordering;

use crate::resource::{Resource, ResourceCalculator, MAX_RESOURCE_TYPES};
use crate::state::search::last_fitting;

/// The largest component the counts answer for: below 2^52 the calculator's comparisons (in
/// doubles, or without dividing) agree exactly.
const VALUE_MAX: i64 = 1 << 52;
/// The largest usage component the thresholds answer for: its share among a weight of at
/// least 1 stays within `VALUE_MAX` (a float's rounding up included).
const USED_MAX: i64 = 1 << 51;

/// The counts for one set of queue inputs (the queue tree's generation stands for them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CapCounts {
    pub(crate) generation: u64,
    /// Per configured type, the smallest amount of it alone that compares above the cap
    /// (`i64::MAX`: none, or a type past the configured ones, or inputs the reasoning does not
    /// cover).
    counts: [i64; MAX_RESOURCE_TYPES],
    /// `roundUp(maxUserLimit, minimumAllocation)`.
    limit: Resource,
}

impl CapCounts {
    /// The counts for calculator `rc` on partition resource `total`, with user cap `cap` and
    /// minimum allocation `required`. Out of line: it runs once per change of the inputs.
    #[cold]
    #[inline(never)]
    pub(crate) fn build(
        rc: ResourceCalculator,
        total: Resource,
        cap: Resource,
        required: Resource,
        generation: u64,
    ) -> Self {
        let mut capped = CapCounts {
            generation,
            counts: [i64::MAX; MAX_RESOURCE_TYPES],
            limit: rc.round_up(&cap, &required),
        };
        let n = rc.types();
        // Every share finite: a type the cluster lacks has an infinite one, which the
        // calculator skips.
        if n == 0
            || n > MAX_RESOURCE_TYPES
            || !(0..n).all(|i| (1..=VALUE_MAX).contains(&total.get(i)))
        {
            return capped;
        }
        // The cap's dominant share: an amount of one type whose share passes it is near.
        let dominant = (0..n)
            .map(|i| cap.get(i) as f64 / total.get(i) as f64)
            .fold(0.0, f64::max);
        for i in 0..n {
            let within = |x: i64| {
                let mut alone = Resource::ZERO;
                alone.set(i, x);
                rc.compare(&total, &alone, &cap) != Ordering::Greater
            };
            // (A cap no amount of this type reaches, common past the dominant type, is found
            // with one look rather than a search up to the end.)
            if within(VALUE_MAX) {
                continue;
            }
            let estimate = (dominant * total.get(i) as f64).min(VALUE_MAX as f64) as i64;
            // Above the cap from nothing (a cap below zero): from 0.
            capped.counts[i] =
                last_fitting(estimate, (0, VALUE_MAX), within).map_or(0, |last| last + 1);
        }
        capped
    }

    /// `roundUp(maxUserLimit, minimumAllocation)`: the limit past the counts.
    pub(crate) fn limit(&self) -> Resource {
        self.limit
    }

    /// Per type, a usage below which the share `divideAndCeil(used, weight)` cannot reach the
    /// count, for active weight `weight` (a quick first look: most calls in a queue that is
    /// not capped end there). The share is `ceil((float) used / weight)`, so reaching count
    /// `k` takes a usage above `(k − 1) × weight` less the float's rounding, which the margin
    /// covers. A weight below 1 (or not a number) has no `thresholds`, so nothing is near.
    pub(crate) fn near(&self, weight: f32) -> [i64; MAX_RESOURCE_TYPES] {
        let mut near = [i64::MAX; MAX_RESOURCE_TYPES];
        if !(weight.is_finite() && weight >= 1.0) {
            return near;
        }
        for (i, &count) in self.counts.iter().enumerate() {
            near[i] = if count == i64::MAX {
                i64::MAX
            } else if count <= 1 {
                i64::MIN
            } else {
                ((count - 1) as f64 * weight as f64 * (1.0 - 1.0 / (1u64 << 20) as f64)) as i64 - 2
            };
        }
        near
    }

    /// The counts (for tests that probe around them).
    #[cfg(test)]
    pub(crate) fn counts(&self) -> [i64; MAX_RESOURCE_TYPES] {
        self.counts
    }

    /// The counts as thresholds on `activeUsed + minimumAllocation` for active weight
    /// `weight`: per type, the smallest usage whose share `divideAndCeil(used, weight)`
    /// reaches the count (`i64::MAX`: none). Only a weight of at least 1 is covered (the share
    /// is then no larger than the usage, so within `VALUE_MAX` for a usage up to `USED_MAX`);
    /// any other gives no threshold. Out of line: it runs once per weight, and only for a
    /// queue whose usage comes `near` the counts.
    #[cold]
    #[inline(never)]
    pub(crate) fn thresholds(
        &self,
        rc: ResourceCalculator,
        weight: f32,
    ) -> [i64; MAX_RESOURCE_TYPES] {
        let mut from = [i64::MAX; MAX_RESOURCE_TYPES];
        if !(weight.is_finite() && weight >= 1.0) {
            return from;
        }
        for (i, &count) in self.counts.iter().enumerate() {
            if count == i64::MAX {
                continue;
            }
            let below = |x: i64| {
                let mut used = Resource::ZERO;
                used.set(i, x);
                rc.divide_and_ceil(&used, weight).get(i) < count
            };
            let estimate = (count.saturating_sub(1) as f64 * weight as f64) as i64;
            from[i] = match last_fitting(estimate, (0, USED_MAX), below) {
                None => 0,
                Some(USED_MAX) => i64::MAX,
                Some(last) => last + 1,
            };
        }
        from
    }
}

/// Whether `used` = `activeUsed + minimumAllocation` puts the active users' share above the
/// cap, by the thresholds `from` (`CapCounts::thresholds`).
#[inline]
pub(crate) fn over_the_cap(from: &[i64; MAX_RESOURCE_TYPES], used: &Resource) -> bool {
    (0..MAX_RESOURCE_TYPES).any(|i| used.get(i) >= from[i])
        && (0..MAX_RESOURCE_TYPES).all(|i| (used.get(i) as u64) <= USED_MAX as u64)
}
