//! The ideal assignment (spec P3, P4): per partition, untouchable and preemptable extras
//! bottom-up, then water-filling top-down — each parent's ideal shared among its children by
//! normalised guarantee, most under-served first — then per-level scaling to the round's budget
//! and, for leaves, the dead zone and natural termination.

use std::cmp::Ordering;

use super::snapshot::PreemptionSnapshot;
use crate::config::PreemptionSettings;
use crate::resource::{CalculatorKind, Resource, ResourceCalculator, MAX_RESOURCE_TYPES};

/// `TempQueuePerPartition`: one queue in one partition during a round.
#[derive(Debug, Clone, Default)]
pub struct TempQueue {
    pub guaranteed: Resource,
    pub max: Resource,
    pub used: Resource,
    pub pending: Resource,
    pub pending_deduct_reserved: Resource,
    pub reserved: Resource,
    pub killable: Resource,
    pub abs_capacity: f32,
    pub disabled: bool,
    pub relative_priority: i32,
    pub leaf: bool,
    pub untouchable_extra: Resource,
    pub preemptable_extra: Resource,
    pub ideal: Resource,
    pub to_be_preempted: Resource,
    pub actually_to_be_preempted: Resource,
    normalized: [f32; MAX_RESOURCE_TYPES],
}

/// How a selector's ideal computation differs (spec P1.2 selector list).
#[derive(Debug, Clone, Copy, Default)]
pub struct IdealFlags {
    /// Offer full pending (reserved included) and skip natural termination: the reserved
    /// selector, or FIFO with `additional_res_balance_based_on_reserved_containers`.
    pub counts_reserved: bool,
    /// Preempt-to-balance: no leaf cap at max(used, guaranteed).
    pub allow_balance: bool,
}

/// Snapshot figures for one partition, with YARN's fallbacks for unknown effective resources.
pub fn temp_queues(snap: &PreemptionSnapshot, partition: usize) -> Vec<TempQueue> {
    let part = &snap.partitions[partition];
    snap.queues
        .iter()
        .map(|q| {
            let p = &q.partitions[partition];
            let abs_max = if part.exclusive {
                p.absolute_max_capacity
            } else {
                1.0
            };
            let or_share = |r: Resource, share: f32| {
                if r.is_zero() {
                    part.resource.multiply(share as f64)
                } else {
                    r
                }
            };
            TempQueue {
                guaranteed: or_share(p.guaranteed, p.absolute_capacity),
                max: or_share(p.max, abs_max),
                used: p.used,
                pending: p.pending,
                pending_deduct_reserved: p.pending_deduct_reserved,
                reserved: p.reserved,
                killable: p.killable,
                abs_capacity: p.absolute_capacity,
                disabled: q.preemption_disabled,
                relative_priority: q.relative_priority,
                leaf: q.is_leaf(),
                ..Default::default()
            }
        })
        .collect()
}

/// P3: untouchable and preemptable extras, bottom-up (reverse pre-order).
pub fn compute_extras(
    snap: &PreemptionSnapshot,
    temps: &mut [TempQueue],
    rc: ResourceCalculator,
    cluster: Resource,
) {
    for q in (0..temps.len()).rev() {
        let t = &temps[q];
        let mut extra = t.used - t.guaranteed;
        if rc.less_than(&cluster, &extra, &Resource::ZERO) {
            extra = Resource::ZERO;
        }
        let children = &snap.queues[q].children;
        if children.is_empty() {
            let t = &mut temps[q];
            if t.disabled {
                t.untouchable_extra = extra;
                t.preemptable_extra = Resource::ZERO;
            } else {
                t.preemptable_extra = extra;
                t.untouchable_extra = Resource::ZERO;
            }
        } else {
            let child_pre: Resource = children.iter().map(|&c| temps[c].preemptable_extra).sum();
            let t = &mut temps[q];
            t.untouchable_extra = if rc.greater_than_or_equal(&cluster, &child_pre, &extra) {
                Resource::ZERO
            } else {
                extra - child_pre
            };
            t.preemptable_extra = rc.min(&cluster, &child_pre, &extra);
        }
    }
}

/// `multiplyAndNormalizeUp` with one factor per resource type and a step of 1.
fn normalize_up(rc: ResourceCalculator, r: &Resource, f: &[f32; MAX_RESOURCE_TYPES]) -> Resource {
    match rc.kind() {
        CalculatorKind::Default => {
            let m = (r.memory_mb() as f64 * f[0] as f64 + 0.5) as i64;
            Resource::new(m, i64::from(m > 0))
        }
        CalculatorKind::Dominant => {
            let mut out = Resource::ZERO;
            for (i, factor) in f.iter().enumerate().take(rc.types()) {
                out.set(i, (r.get(i) as f64 * *factor as f64).ceil() as i64);
            }
            out
        }
    }
}

/// P4.2 ordering: ideal / guaranteed (a zero guarantee counts as +∞), with priority-utilization
/// semantics for queues of different relative priorities. Ties fall back to queue order.
fn need_cmp(
    rc: ResourceCalculator,
    tot: Resource,
    temps: &[TempQueue],
    a: usize,
    b: usize,
) -> Ordering {
    let pct = |q: usize| -> f64 {
        let t = &temps[q];
        if rc.greater_than(&tot, &t.guaranteed, &Resource::ZERO) {
            rc.divide(&tot, &t.ideal, &t.guaranteed) as f64
        } else {
            i32::MAX as f64
        }
    };
    let (x, y) = (pct(a), pct(b));
    let (pa, pb) = (temps[a].relative_priority, temps[b].relative_priority);
    let by_value = || x.partial_cmp(&y).unwrap_or(Ordering::Equal);
    if pa == pb {
        by_value()
    } else if (x < 1.0) == (y < 1.0) {
        pb.cmp(&pa)
    } else if x < 1.0 {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

/// Resets the normalised guarantees of the needy queues (P4.2 step 3a).
fn reset_capacity(
    rc: ResourceCalculator,
    temps: &mut [TempQueue],
    needy: &[usize],
    ignore_guarantee: bool,
) {
    let n = needy.len().max(1) as f32;
    if ignore_guarantee {
        for &q in needy {
            temps[q].normalized = [1.0 / n; MAX_RESOURCE_TYPES];
        }
        return;
    }
    let active: Resource = needy.iter().map(|&q| temps[q].guaranteed).sum();
    let total_abs: f32 = needy.iter().map(|&q| temps[q].abs_capacity).sum();
    for &q in needy {
        let g = temps[q].guaranteed;
        let by_abs = (0..rc.types())
            .any(|i| g.get(i) == 0 && temps[q].abs_capacity != 0.0 && active.get(i) != 0);
        let mut norm = [0f32; MAX_RESOURCE_TYPES];
        for (i, slot) in norm.iter_mut().enumerate().take(rc.types()) {
            *slot = if by_abs && total_abs > 0.0 {
                temps[q].abs_capacity / total_abs
            } else if active.get(i) != 0 {
                g.get(i) as f32 / active.get(i) as f32
            } else {
                1.0 / n
            };
        }
        temps[q].normalized = norm;
    }
}

/// P4.3 `offer`: what queue `q` accepts of `avail`.
fn offer(
    rc: ResourceCalculator,
    tot: Resource,
    t: &mut TempQueue,
    avail: Resource,
    flags: IdealFlags,
) -> Resource {
    let pending = if flags.counts_reserved {
        t.pending
    } else {
        t.pending_deduct_reserved
    };
    let headroom_to_max = (t.max - t.ideal).non_negative();
    let want = rc.min(&tot, &avail, &(t.used + pending - t.ideal));
    let mut a = Resource::component_min(headroom_to_max, want);
    if t.leaf && !flags.allow_balance {
        let cap = rc.max(
            &tot,
            &(rc.max(&tot, &t.used, &t.guaranteed) - t.ideal),
            &Resource::ZERO,
        );
        a = rc.min(&tot, &a, &cap);
    }
    let a = Resource::component_min(a.non_negative(), avail);
    t.ideal += a;
    a
}

/// P4.2 step 4: the partition's under-served queues, an insertion-ordered set (YARN's
/// `partitionToUnderServedQueues`, which the intra-queue selector walks).
#[derive(Debug, Clone, Default)]
pub struct UnderServed(Vec<usize>);

impl UnderServed {
    pub fn add(&mut self, q: usize) {
        if !self.0.contains(&q) {
            self.0.push(q);
        }
    }

    pub fn queues(&self) -> &[usize] {
        &self.0
    }
}

/// P4.2: the fix-point for one group of siblings sharing `unassigned`.
#[allow(clippy::too_many_arguments)]
fn fixpoint(
    rc: ResourceCalculator,
    tot: Resource,
    temps: &mut [TempQueue],
    group: &[usize],
    unassigned: &mut Resource,
    ignore_guarantee: bool,
    flags: IdealFlags,
    under_served: &mut UnderServed,
) {
    let mut needy: Vec<usize> = Vec::new();
    for &q in group {
        let t = &mut temps[q];
        t.ideal = if rc.greater_than(&tot, &t.used, &t.guaranteed) {
            Resource::component_min(t.guaranteed, t.used) + t.untouchable_extra
        } else {
            t.used
        };
        *unassigned -= t.ideal;
        if rc.less_than(&tot, &t.ideal, &(t.used + t.pending)) {
            needy.push(q);
        }
    }
    while !needy.is_empty() && rc.greater_than(&tot, unassigned, &Resource::ZERO) {
        reset_capacity(rc, temps, &needy, ignore_guarantee);
        // The most under-served queue and every queue tied with it.
        needy.sort_by(|&a, &b| need_cmp(rc, tot, temps, a, b).then(a.cmp(&b)));
        let head = needy[0];
        let tied = needy
            .iter()
            .take_while(|&&q| need_cmp(rc, tot, temps, head, q) == Ordering::Equal)
            .count();
        let round: Vec<usize> = needy.drain(..tied).collect();
        // YARN records every queue it takes, and the first one it peeked at and found not
        // tied.
        for &q in round.iter().chain(needy.first()) {
            under_served.add(q);
        }
        let snap = *unassigned;
        let mut assigned = Resource::ZERO;
        for q in round {
            if !rc.is_any_major_resource_above_zero(unassigned) {
                // Left untried this sub-round: still needy.
                needy.push(q);
                continue;
            }
            let avail =
                Resource::component_min(normalize_up(rc, &snap, &temps[q].normalized), *unassigned);
            let accepted = offer(rc, tot, &mut temps[q], avail, flags);
            if rc.greater_than(&tot, &accepted, &Resource::ZERO) {
                needy.push(q);
            }
            assigned += accepted;
            *unassigned = (*unassigned - accepted).non_negative();
        }
        let _ = assigned;
    }
    // Queues still needy when the pool ran dry are under-served too, drained most under-served
    // first as YARN's priority queue is.
    needy.sort_by(|&a, &b| need_cmp(rc, tot, temps, a, b).then(a.cmp(&b)));
    for &q in &needy {
        under_served.add(q);
    }
}

/// P4.1, P4.6: shares `pool` (the parent's ideal) among `children`, then sets each child's
/// `to_be_preempted` scaled to the round's remaining budget.
fn distribute(
    rc: ResourceCalculator,
    temps: &mut [TempQueue],
    children: &[usize],
    pool: Resource,
    allowed: Resource,
    flags: IdealFlags,
    under_served: &mut UnderServed,
) {
    let tot = pool;
    let mut unassigned = pool;
    let (nz, z): (Vec<usize>, Vec<usize>) = children
        .iter()
        .partition(|&&q| rc.greater_than(&tot, &temps[q].guaranteed, &Resource::ZERO));
    fixpoint(
        rc,
        tot,
        temps,
        &nz,
        &mut unassigned,
        false,
        flags,
        under_served,
    );
    if !z.is_empty() && rc.greater_than(&tot, &unassigned, &Resource::ZERO) {
        fixpoint(
            rc,
            tot,
            temps,
            &z,
            &mut unassigned,
            true,
            flags,
            under_served,
        );
    }
    let need: Resource = children
        .iter()
        .filter(|&&q| rc.greater_than(&tot, &temps[q].used, &temps[q].ideal))
        .map(|&q| temps[q].used - temps[q].ideal)
        .sum();
    let scale = if rc.greater_than(&tot, &need, &allowed) {
        rc.divide(&tot, &allowed, &need)
    } else {
        1.0
    };
    for &q in children {
        let t = &mut temps[q];
        let keep = rc.max(
            &tot,
            &rc.min(&tot, &(t.used + t.pending), &t.guaranteed),
            &t.ideal,
        );
        let used_less_killable = t.used - t.killable;
        t.to_be_preempted = if rc.greater_than(&tot, &used_less_killable, &keep) {
            (used_less_killable - keep).multiply(scale as f64)
        } else {
            Resource::ZERO
        };
    }
}

/// P4 top-down over one partition: root keeps its guarantee, each parent shares its ideal.
/// The queues found under-served are added to `under_served`.
pub fn compute_ideal(
    snap: &PreemptionSnapshot,
    temps: &mut [TempQueue],
    rc: ResourceCalculator,
    allowed: Resource,
    flags: IdealFlags,
    under_served: &mut UnderServed,
) {
    if temps.is_empty() {
        return;
    }
    temps[0].ideal = temps[0].guaranteed;
    for q in 0..temps.len() {
        let children = &snap.queues[q].children;
        if !children.is_empty() {
            let pool = temps[q].ideal;
            distribute(rc, temps, children, pool, allowed, flags, under_served);
        }
    }
}

/// P4.7: leaves over their guarantee by more than the dead zone give back `to_be_preempted`,
/// damped by natural termination unless the selector counts reserved demand.
pub fn dead_zone(
    temps: &mut [TempQueue],
    rc: ResourceCalculator,
    cluster: Resource,
    settings: &PreemptionSettings,
    flags: IdealFlags,
) {
    for t in temps.iter_mut().filter(|t| t.leaf) {
        if t.disabled {
            t.actually_to_be_preempted = Resource::ZERO;
            continue;
        }
        let threshold = t
            .guaranteed
            .multiply(1.0 + settings.max_ignored_over_capacity);
        if !rc.greater_than(&cluster, &t.used, &threshold) {
            t.actually_to_be_preempted = Resource::ZERO;
            continue;
        }
        let mut obtain = t.to_be_preempted;
        if !flags.counts_reserved && rc.greater_than(&cluster, &obtain, &Resource::ZERO) {
            obtain = rc.multiply_and_normalize_up(
                &obtain,
                settings.natural_termination_factor,
                &Resource::new(1, 1),
            );
        }
        t.actually_to_be_preempted = obtain;
    }
}
