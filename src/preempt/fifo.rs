//! Candidate selection (spec P5): the FIFO selector — leaves' applications in reverse
//! scheduling order, reserved containers first, then live containers least important and
//! newest first, AM containers last and only while the queue keeps more than its AM limit —
//! and the rule that decides whether one container is taken (P5.4), shared by selectors.

use std::collections::{BTreeMap, BTreeSet};

use super::ideal::TempQueue;
use super::order::victim_cmp;
use super::snapshot::{ContainerSnap, PreemptionSnapshot};
use crate::resource::{Resource, ResourceCalculator};

/// A selected container: (application index, container id, reserved?).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pick {
    pub app: usize,
    pub container: u64,
    pub reserved: bool,
}

/// The round's state shared by all selectors.
pub struct RoundState {
    /// Every container selected so far this round.
    pub selected: BTreeSet<u64>,
    /// The per-round budget (`totalPreemptionAllowed`), shared and decreasing.
    pub allowed: Resource,
    /// Reserved containers to release (`KILL_RESERVED_CONTAINER`), in dispatch order.
    pub kill_reserved: Vec<(usize, u64)>,
}

/// P5.4 `tryPreemptContainerAndDeductResToObtain`.
pub fn try_preempt(
    rc: ResourceCalculator,
    cluster: Resource,
    to_obtain: &mut BTreeMap<usize, Resource>,
    c: &ContainerSnap,
    state: &mut RoundState,
    conservative_drf: bool,
) -> bool {
    if state.selected.contains(&c.id) {
        return false;
    }
    let Some(obtain) = to_obtain.get_mut(&c.partition) else {
        return false;
    };
    // A type already exactly satisfied must not look "zero" to the checks below.
    for i in 0..rc.types() {
        if obtain.get(i) == 0 {
            obtain.set(i, -1);
        }
    }
    if !(rc.is_any_major_resource_above_zero(obtain) && rc.fits_in(&c.resource, &state.allowed)) {
        return false;
    }
    let take = if conservative_drf {
        !rc.is_any_major_resource_zero_or_negative(obtain)
    } else {
        // Non-conservative: take it if it shrinks some positive component.
        let after = (*obtain - c.resource).non_negative();
        rc.less_than(&cluster, &after, &obtain.non_negative())
    };
    if !take {
        return false;
    }
    *obtain -= c.resource;
    state.allowed -= c.resource;
    if rc.less_than_or_equal(&cluster, obtain, &Resource::ZERO) {
        to_obtain.remove(&c.partition);
    }
    state.selected.insert(c.id);
    true
}

/// P5.1: what earlier selectors took is deducted from each queue's target (only while the
/// target exceeds the container; then the whole-vector max with zero).
pub fn deduct_selected(
    snap: &PreemptionSnapshot,
    temps: &mut [Vec<TempQueue>],
    rc: ResourceCalculator,
    cluster: Resource,
    selected: &BTreeSet<u64>,
) {
    if selected.is_empty() {
        return;
    }
    for app in &snap.apps {
        for c in app.live.iter().chain(&app.reserved) {
            if !selected.contains(&c.id) {
                continue;
            }
            let t = &mut temps[c.partition][app.queue];
            deduct_target(rc, cluster, &mut t.actually_to_be_preempted, c.resource);
        }
    }
}

/// `deductActuallyToBePreempted` (of a queue or an app): subtract `taken` when the target is
/// larger, then the whole-vector max with zero (a negative component survives under DRF).
pub fn deduct_target(
    rc: ResourceCalculator,
    cluster: Resource,
    target: &mut Resource,
    taken: Resource,
) {
    if rc.greater_than(&cluster, target, &taken) {
        *target -= taken;
    }
    *target = rc.max(&cluster, target, &Resource::ZERO);
}

/// P5.2: the FIFO selector over every non-disabled leaf. Returns its picks in order.
pub fn select(
    snap: &PreemptionSnapshot,
    temps: &[Vec<TempQueue>],
    rc: ResourceCalculator,
    state: &mut RoundState,
    conservative_drf: bool,
) -> Vec<Pick> {
    let cluster = snap.cluster;
    let mut picks = Vec::new();
    for (q, queue) in snap.queues.iter().enumerate() {
        if !queue.is_leaf() || queue.preemption_disabled {
            continue;
        }
        let mut to_obtain: BTreeMap<usize, Resource> = BTreeMap::new();
        for (p, part) in temps.iter().enumerate() {
            let want = part[q].actually_to_be_preempted;
            if rc.greater_than(&cluster, &want, &Resource::ZERO) {
                to_obtain.insert(p, want);
            }
        }
        if to_obtain.is_empty() {
            continue;
        }
        // 1. Containers placed on a labelled node for a default-partition ask, newest first.
        // (Only labelled partitions have such containers: skip the scan without any.)
        let mut ignore_exclusivity: Vec<(u64, i64, usize, usize)> = Vec::new();
        let labelled = snap.partitions.len() > 1;
        for &a in queue.apps.iter().filter(|_| labelled) {
            for (i, c) in snap.apps[a].live.iter().enumerate() {
                if c.ignore_exclusivity && to_obtain.contains_key(&c.partition) {
                    // `ContainerId` order: the application's id, then the container's.
                    ignore_exclusivity.push((snap.apps[a].application_seq, c.sequence, a, i));
                }
            }
        }
        ignore_exclusivity.sort_by_key(|x| std::cmp::Reverse((x.0, x.1)));
        for (_, _, a, i) in ignore_exclusivity {
            let c = &snap.apps[a].live[i];
            if try_preempt(rc, cluster, &mut to_obtain, c, state, conservative_drf) {
                picks.push(Pick {
                    app: a,
                    container: c.id,
                    reserved: false,
                });
            }
        }
        // 2. Applications in reverse scheduling order.
        let mut skipped_am: Vec<(usize, usize)> = Vec::new();
        let mut skipped_am_size = Resource::ZERO;
        for &a in queue.apps.iter().rev() {
            if to_obtain.is_empty() {
                break;
            }
            let app = &snap.apps[a];
            let mut left_app = false;
            for c in &app.reserved {
                if state.selected.contains(&c.id) {
                    continue;
                }
                if to_obtain.is_empty() {
                    left_app = true;
                    break;
                }
                if try_preempt(rc, cluster, &mut to_obtain, c, state, conservative_drf) {
                    picks.push(Pick {
                        app: a,
                        container: c.id,
                        reserved: true,
                    });
                }
                state.kill_reserved.push((a, c.id));
            }
            if left_app {
                continue;
            }
            let mut live: Vec<usize> = (0..app.live.len()).collect();
            live.sort_by(|&x, &y| victim_cmp(&app.live[x], &app.live[y]));
            for i in live {
                if to_obtain.is_empty() {
                    break;
                }
                let c = &app.live[i];
                // Already killable (lazy preemption): its queue's `killable` counts it.
                if state.selected.contains(&c.id) || c.killable {
                    continue;
                }
                if c.is_am {
                    skipped_am.push((a, i));
                    skipped_am_size += c.resource;
                    continue;
                }
                if try_preempt(rc, cluster, &mut to_obtain, c, state, conservative_drf) {
                    picks.push(Pick {
                        app: a,
                        container: c.id,
                        reserved: false,
                    });
                }
            }
        }
        // 3. AM containers, only while the queue keeps more AM resource than its AM limit.
        let am_budget = queue
            .effective_capacity
            .multiply(queue.max_am_resource_percent as f64);
        for (a, i) in skipped_am {
            if to_obtain.is_empty() || rc.less_than_or_equal(&cluster, &skipped_am_size, &am_budget)
            {
                break;
            }
            let c = &snap.apps[a].live[i];
            if try_preempt(rc, cluster, &mut to_obtain, c, state, conservative_drf) {
                skipped_am_size -= c.resource;
                picks.push(Pick {
                    app: a,
                    container: c.id,
                    reserved: false,
                });
            }
        }
    }
    picks
}
