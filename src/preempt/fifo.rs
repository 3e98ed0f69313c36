//! Candidate selection (spec P5): the FIFO selector — leaves' applications in reverse
//! scheduling order, reserved containers first, then live containers least important and
//! newest first, AM containers last and only while the queue keeps more than its AM limit —
//! and the rule that decides whether one container is taken (P5.4), shared by selectors.

use super::ideal::TempQueue;
use super::idset::IdSet;
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
    pub selected: IdSet,
    /// The per-round budget (`totalPreemptionAllowed`), shared and decreasing.
    pub allowed: Resource,
    /// Reserved containers to release (`KILL_RESERVED_CONTAINER`), in dispatch order.
    pub kill_reserved: Vec<(usize, u64)>,
}

/// What a leaf still has to give up, by partition (`resourceToObtainByPartitions`): one slot
/// per partition, reused from leaf to leaf.
#[derive(Debug, Clone, Default)]
pub struct ToObtain {
    slots: Vec<Option<Resource>>,
    left: usize,
}

impl ToObtain {
    pub fn new(partitions: usize) -> Self {
        ToObtain {
            slots: vec![None; partitions],
            left: 0,
        }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.left = 0;
    }

    pub fn insert(&mut self, partition: usize, r: Resource) {
        if partition >= self.slots.len() {
            self.slots.resize(partition + 1, None);
        }
        if self.slots[partition].replace(r).is_none() {
            self.left += 1;
        }
    }

    pub fn contains(&self, partition: usize) -> bool {
        matches!(self.slots.get(partition), Some(Some(_)))
    }

    pub fn get_mut(&mut self, partition: usize) -> Option<&mut Resource> {
        self.slots.get_mut(partition)?.as_mut()
    }

    pub fn remove(&mut self, partition: usize) {
        if let Some(slot) = self.slots.get_mut(partition) {
            if slot.take().is_some() {
                self.left -= 1;
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.left == 0
    }
}

/// P5.4 `tryPreemptContainerAndDeductResToObtain`.
pub fn try_preempt(
    rc: ResourceCalculator,
    cluster: Resource,
    to_obtain: &mut ToObtain,
    c: &ContainerSnap,
    state: &mut RoundState,
    conservative_drf: bool,
) -> bool {
    !state.selected.contains(&c.id)
        && try_preempt_unselected(rc, cluster, to_obtain, c, state, conservative_drf)
}

/// [`try_preempt`] for a container the caller has just found unselected.
pub fn try_preempt_unselected(
    rc: ResourceCalculator,
    cluster: Resource,
    to_obtain: &mut ToObtain,
    c: &ContainerSnap,
    state: &mut RoundState,
    conservative_drf: bool,
) -> bool {
    let Some(obtain) = to_obtain.get_mut(c.partition) else {
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
        to_obtain.remove(c.partition);
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
    selected: &IdSet,
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

/// Room in the round's selected set for about as many containers as `targets` add up to (in
/// minimum allocations, at most the running containers), so it does not grow step by step.
pub(crate) fn reserve_for(
    snap: &PreemptionSnapshot,
    state: &mut RoundState,
    targets: impl Iterator<Item = Resource>,
) {
    let unit = snap.minimum_allocation.memory_mb().max(1);
    let wanted: i64 = targets.map(|t| t.memory_mb().max(0) / unit).sum();
    if wanted <= 0 {
        return;
    }
    let running: usize = snap.apps.iter().map(|a| a.live.len()).sum();
    state.selected.reserve((wanted as usize).min(running));
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
    reserve_for(
        snap,
        state,
        temps
            .iter()
            .flatten()
            .filter(|t| t.leaf)
            .map(|t| t.actually_to_be_preempted),
    );
    // Buffers reused from leaf to leaf and app to app.
    let mut to_obtain = ToObtain::new(temps.len());
    let mut order: Vec<u32> = Vec::new();
    let mut skipped_am: Vec<(usize, usize)> = Vec::new();
    let mut ignore_exclusivity: Vec<(u64, i64, usize, usize)> = Vec::new();
    for (q, queue) in snap.queues.iter().enumerate() {
        if !queue.is_leaf() || queue.preemption_disabled {
            continue;
        }
        to_obtain.clear();
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
        ignore_exclusivity.clear();
        let labelled = snap.partitions.len() > 1;
        for &a in queue.apps.iter().filter(|_| labelled) {
            for (i, c) in snap.apps[a].live.iter().enumerate() {
                if c.ignore_exclusivity && to_obtain.contains(c.partition) {
                    // `ContainerId` order: the application's id, then the container's.
                    ignore_exclusivity.push((snap.apps[a].application_seq, c.sequence, a, i));
                }
            }
        }
        ignore_exclusivity.sort_by_key(|x| std::cmp::Reverse((x.0, x.1)));
        for &(_, _, a, i) in &ignore_exclusivity {
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
        skipped_am.clear();
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
                if try_preempt_unselected(rc, cluster, &mut to_obtain, c, state, conservative_drf) {
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
            order.clear();
            order.extend(0..app.live.len() as u32);
            order.sort_by(|&x, &y| victim_cmp(&app.live[x as usize], &app.live[y as usize]));
            for &i in &order {
                if to_obtain.is_empty() {
                    break;
                }
                let i = i as usize;
                let c = &app.live[i];
                // Already killable (lazy preemption): its queue's `killable` counts it.
                if c.killable || state.selected.contains(&c.id) {
                    continue;
                }
                if c.is_am {
                    skipped_am.push((a, i));
                    skipped_am_size += c.resource;
                    continue;
                }
                if try_preempt_unselected(rc, cluster, &mut to_obtain, c, state, conservative_drf) {
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
        for &(a, i) in &skipped_am {
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
