//! The intra-queue selector (spec P6.3; YARN's `IntraQueueCandidatesSelector` with the
//! `FifoIntraQueuePreemptionPlugin`): inside an under-served leaf, containers of lower-priority
//! applications, or of users over their user limit, are preempted for the demand of
//! higher-priority applications and of users under their limit.
//!
//! Per leaf and partition it computes each application's ideal share (highest priority first,
//! each capped by its user's limit and the queue's reassignable resource), what each
//! application could give back (lowest priority first, within `max-allowable-limit` of the
//! guarantee and the round's budget), and then matches demand to supply with the rules of
//! `validateOutSameAppPriorityFromDemand`. Selection walks the applications that must give,
//! lowest priority first, containers in the FIFO selector's victim order, never AMs, and
//! (`userlimit_first`) stops at a user who would drop to its limit.
//!
//! In a leaf with the fair ordering policy under `userlimit_first`, apps are ordered by
//! `TAFairOrderingComparator` instead (lighter users first, so the heaviest user's apps give
//! first). This is Hadoop trunk as of October 2024 (the version the conformance vectors come
//! from); later Hadoop versions add per-app fair shares for such leaves.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use super::fifo::{deduct_target, reserve_for, try_preempt_unselected, Pick, RoundState, ToObtain};
use super::ideal::{TempQueue, UnderServed};
use super::idset::FastBuild;
use super::order::{merge_sort, victim_cmp};
use super::snapshot::{AppSnap, ContainerSnap, PreemptionSnapshot, UserSnap};
use crate::config::{IntraQueuePreemptionOrder, PreemptionSettings};
use crate::resource::{Resource, ResourceCalculator};
use crate::sync::Arc;

/// `TempAppPerPartition`.
#[derive(Debug, Clone)]
pub struct TempApp {
    /// Index of the application in the snapshot.
    pub app: usize,
    /// Index into the leaf's temp users.
    user: usize,
    pub priority: i32,
    pub used: Resource,
    pub am_used: Resource,
    pub pending: Resource,
    /// Selected by earlier selectors this round.
    pub selected: Resource,
    pub ideal: Resource,
    pub to_be_preempted: Resource,
    pub actually_to_be_preempted: Resource,
    /// What this application needs from others (`toBePreemptFromOther`).
    pub from_others: Resource,
}

/// `TempUserPerPartition`.
#[derive(Debug, Clone)]
pub struct TempUser {
    pub used: Resource,
    pub am_used: Resource,
    pub selected: Resource,
    /// The user limit less the user's AM resource.
    pub limit: Resource,
    pub ideal_assigned: Resource,
    ul_delta_done: bool,
}

impl TempUser {
    fn used_deduct_am(&self) -> Resource {
        self.used - self.am_used
    }

    fn limit_reached(&self, rc: ResourceCalculator, cluster: &Resource) -> bool {
        rc.greater_than(cluster, &self.used_deduct_am(), &self.limit)
    }
}

/// One leaf in one partition: its applications from the lowest priority to the highest
/// (YARN's reverse `TAPriorityComparator`) and its users.
#[derive(Debug, Clone, Default)]
pub struct LeafDemand {
    pub apps: Vec<TempApp>,
    pub users: Vec<TempUser>,
}

/// Buffers the intra-queue selector keeps from round to round: every under-served leaf's temp
/// apps and users (some 300 bytes an app). Made afresh each round they were handed back to the
/// operating system at its end and faulted in again at the next: at 140,000 containers (1,000
/// apps in 10 under-served leaves) about 100 page faults, half the round's time.
/// They hold no state between rounds, only capacity: a clone starts empty.
#[derive(Debug, Default)]
pub struct IntraQueueScratch {
    /// Emptied `LeafDemand`s with their capacity.
    spare: Vec<LeafDemand>,
    /// A leaf's apps in `getAllApplications` order with their temp users, before sorting.
    members: Vec<(usize, usize)>,
}

impl Clone for IntraQueueScratch {
    fn clone(&self) -> Self {
        IntraQueueScratch::default()
    }
}

impl IntraQueueScratch {
    fn leaf(&mut self) -> LeafDemand {
        let mut d = self.spare.pop().unwrap_or_default();
        d.apps.clear();
        d.users.clear();
        d
    }

    fn give_back(&mut self, demand: BTreeMap<(usize, usize), LeafDemand>) {
        self.spare.extend(demand.into_values());
    }
}

/// The intra-queue selector over one round. `temps` are the last ideal computation's queue
/// figures, `under_served` the round's under-served queues per partition, `earlier` what the
/// selectors before it picked this round.
pub fn select(
    snap: &PreemptionSnapshot,
    temps: &[Vec<TempQueue>],
    under_served: &[UnderServed],
    settings: &PreemptionSettings,
    state: &mut RoundState,
    earlier: &[Pick],
    scratch: &mut IntraQueueScratch,
) -> Vec<Pick> {
    let earlier = resolve(snap, earlier);
    let mut selected: HashMap<(usize, usize), Resource, FastBuild> = HashMap::default();
    for &(a, c) in &earlier {
        *selected.entry((a, asked_partition(c))).or_default() += c.resource;
    }
    let mut demand = compute_demand(
        snap,
        temps,
        under_served,
        settings,
        state,
        &selected,
        scratch,
    );
    deduct_selected(snap, &earlier, &mut demand);
    let targets = demand.values().flat_map(|d| &d.apps);
    reserve_for(snap, state, targets.map(|t| t.actually_to_be_preempted));
    let picks = select_containers(snap, under_served, settings, state, &demand);
    scratch.give_back(demand);
    picks
}

/// The picked containers themselves, each with its app: one pass over the containers of the
/// apps that had picks, in app order (each app's live containers, then its reserved ones).
fn resolve<'a>(snap: &'a PreemptionSnapshot, picks: &[Pick]) -> Vec<(usize, &'a ContainerSnap)> {
    let mut wanted: Vec<(usize, u64)> = picks.iter().map(|p| (p.app, p.container)).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut out = Vec::with_capacity(picks.len());
    for ids in wanted.chunk_by(|x, y| x.0 == y.0) {
        let a = ids[0].0;
        let app = &snap.apps[a];
        for c in app.live.iter().chain(&app.reserved) {
            if ids.binary_search(&(a, c.id)).is_ok() {
                out.push((a, c));
            }
        }
    }
    out
}

/// `deductPreemptableResourcesBasedSelectedCandidates`, as Hadoop applies it to the apps: each
/// container earlier selectors took comes off the target of *every* app of its queue (in its
/// node's partition) whose target is larger than the container; smaller targets stay.
fn deduct_selected(
    snap: &PreemptionSnapshot,
    earlier: &[(usize, &ContainerSnap)],
    demand: &mut BTreeMap<(usize, usize), LeafDemand>,
) {
    let rc = snap.calculator;
    let cluster = snap.cluster;
    for &(a, c) in earlier {
        let Some(d) = demand.get_mut(&(c.partition, snap.apps[a].queue)) else {
            continue;
        };
        for t in &mut d.apps {
            deduct_target(rc, cluster, &mut t.actually_to_be_preempted, c.resource);
        }
    }
}

/// `computeIntraQueuePreemptionDemand`: every under-served leaf used at or above the minimum
/// threshold gets its applications' ideal shares and targets. Keyed by (partition, queue).
pub fn compute_demand(
    snap: &PreemptionSnapshot,
    temps: &[Vec<TempQueue>],
    under_served: &[UnderServed],
    settings: &PreemptionSettings,
    state: &RoundState,
    selected: &HashMap<(usize, usize), Resource, FastBuild>,
    scratch: &mut IntraQueueScratch,
) -> BTreeMap<(usize, usize), LeafDemand> {
    let rc = snap.calculator;
    let mut out = BTreeMap::new();
    for (p, queues) in under_served.iter().enumerate() {
        let partition_total = snap.partitions[p].resource;
        for &q in queues.queues() {
            if !snap.queues[q].is_leaf() {
                continue;
            }
            let tq = &temps[p][q];
            // `QueueCapacities.getUsedCapacity` (`CSQueueUtils.updateUsedCapacity`): used over
            // the queue's guarantee, at least one minimum allocation.
            let guaranteed = rc.max(&partition_total, &tq.guaranteed, &snap.minimum_allocation);
            let used_capacity = rc.divide(&partition_total, &tq.used, &guaranteed);
            if used_capacity < settings.intra_queue_minimum_threshold {
                continue;
            }
            let reassignable = tq.used - tq.actually_to_be_preempted;
            let d = leaf_demand(
                snap,
                (tq, q, p),
                reassignable,
                settings,
                state,
                selected,
                scratch,
            );
            if let Some(d) = d {
                out.insert((p, q), d);
            }
        }
    }
    out
}

/// `computeAppsIdealAllocation` for one leaf in one partition; `None` with a single app.
fn leaf_demand(
    snap: &PreemptionSnapshot,
    (tq, q, p): (&TempQueue, usize, usize),
    mut reassignable: Resource,
    settings: &PreemptionSettings,
    state: &RoundState,
    selected: &HashMap<(usize, usize), Resource, FastBuild>,
    scratch: &mut IntraQueueScratch,
) -> Option<LeafDemand> {
    let rc = snap.calculator;
    let cluster = snap.cluster;
    let queue = &snap.queues[q];
    // Every app of the leaf (`getAllApplications`): the active ones, then those the AM limit
    // holds back.
    let all = || queue.apps.iter().chain(&queue.inactive_apps).copied();
    let count = queue.apps.len() + queue.inactive_apps.len();
    // 1. AMs are frozen: the active apps' AM resource is not reassignable
    // (`calculateUsedAMResourcesPerQueue`, which also counts an AM not yet placed).
    let queue_am: Resource = queue
        .apps
        .iter()
        .map(|&a| snap.apps[a].am.resource_in(p))
        .sum();
    reassignable -= queue_am;
    // 2. Nothing to balance with a single application.
    if count == 1 {
        return None;
    }
    // 3. Temp apps and users (users in order of their first app; per user the AM and, for a
    // user the snapshot does not list, the usage of its apps). Per app: used in this
    // partition and its AM there (`getAMResource(partition)`).
    let mut d = scratch.leaf();
    let users = &mut d.users;
    let expected_users = count.min(queue.users.len() + 1);
    users.reserve(expected_users);
    // Which temp user an app belongs to. A user the snapshot lists is found by the index the
    // app carries (the scheduler's snapshot sets it: no name is hashed), else by name. Users
    // it does not list go by name.
    let mut by_name: Option<HashMap<&str, usize, FastBuild>> = None;
    let mut listed_user: Vec<usize> = vec![usize::MAX; queue.users.len()];
    let mut unlisted_user: HashMap<&str, usize, FastBuild> = HashMap::default();
    // Per temp user: its entry in the snapshot's list, and (unlisted users) its apps' usage.
    let mut listed: Vec<Option<&UserSnap>> = Vec::with_capacity(expected_users);
    let mut apps_usage: Vec<Resource> = Vec::with_capacity(expected_users);
    // The leaf's apps in `getAllApplications` order, each with its temp user; sorted below.
    // Only (app, user) pairs are sorted: the temp apps (some 300 bytes each) are built once,
    // in their final order.
    let mut members = std::mem::take(&mut scratch.members);
    members.clear();
    members.reserve(count);
    for (i, a) in all().enumerate() {
        let app = &snap.apps[a];
        let entry = app
            .user_index
            .filter(|&j| {
                queue
                    .users
                    .get(j)
                    .is_some_and(|u| Arc::ptr_eq(&u.name, &app.user) || *u.name == *app.user)
            })
            .or_else(|| {
                by_name
                    .get_or_insert_with(|| {
                        queue
                            .users
                            .iter()
                            .enumerate()
                            .map(|(j, u)| (&*u.name, j))
                            .collect()
                    })
                    .get(&*app.user)
                    .copied()
            });
        let slot = match entry {
            Some(j) => &mut listed_user[j],
            None => unlisted_user.entry(&*app.user).or_insert(usize::MAX),
        };
        if *slot == usize::MAX {
            *slot = users.len();
            users.push(TempUser {
                used: Resource::ZERO,
                am_used: Resource::ZERO,
                selected: Resource::ZERO,
                limit: Resource::ZERO,
                ideal_assigned: Resource::ZERO,
                ul_delta_done: false,
            });
            listed.push(entry.map(|j| &queue.users[j]));
            apps_usage.push(Resource::ZERO);
        }
        let user = *slot;
        // Per user, the AMs of its active apps.
        if i < queue.apps.len() {
            users[user].am_used += app.am.resource_in(p);
        }
        if entry.is_none() {
            apps_usage[user] += app.used_in(p);
        }
        members.push((a, user));
    }
    for ((u, apps_used), k) in users.iter_mut().zip(apps_usage).zip(listed) {
        // A user the snapshot does not list: its apps' usage, and no limit.
        let (used, limit) = match k {
            Some(k) => (k.used_in(p), k.limit_in(p)),
            None => (apps_used, snap.partitions[p].resource),
        };
        u.used = used;
        // The limit less the user's AMs (`getResourceLimitForAllUsers` − AM used).
        u.limit = limit - u.am_used;
    }
    // The apps' order: a stable sort, as YARN's.
    let userlimit_first = settings.intra_queue_order == IntraQueuePreemptionOrder::UserLimitFirst;
    if let (Some(fair), true) = (&queue.fair_order, userlimit_first) {
        // `TAFairOrderingComparator`: apps of one user in the leaf's fair order; across users,
        // the lighter user (used less AM) first, equal users by application id.
        let rank: HashMap<usize, usize> = fair.iter().enumerate().map(|(i, &a)| (a, i)).collect();
        let rank = |a: usize| rank.get(&a).copied().unwrap_or(usize::MAX);
        let users = &d.users;
        merge_sort(&mut members, &|&(x, xu): &(usize, usize), &(y, yu)| {
            if xu == yu {
                return rank(x).cmp(&rank(y));
            }
            let (ux, uy) = (users[xu].used_deduct_am(), users[yu].used_deduct_am());
            if ux == uy {
                snap.apps[x]
                    .application_seq
                    .cmp(&snap.apps[y].application_seq)
            } else if rc.less_than(&cluster, &ux, &uy) {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        });
    } else {
        // `TAPriorityComparator`: highest priority first, then the older application.
        members.sort_by(|&(x, _), &(y, _)| priority_order(&snap.apps[x], &snap.apps[y]));
    }
    // Kept lowest priority first (the order of steps 7 and 8); step 4 walks it backwards.
    d.apps.reserve(members.len());
    d.apps.extend(members.iter().rev().map(|&(a, user)| {
        let app = &snap.apps[a];
        let am = app.am.resource_in(p);
        TempApp {
            app: a,
            user,
            priority: app.priority,
            used: app.used_in(p),
            // Its AM once placed.
            am_used: if app.am.waiting { Resource::ZERO } else { am },
            pending: app.pending_in(p),
            selected: Resource::ZERO,
            ideal: Resource::ZERO,
            to_be_preempted: Resource::ZERO,
            actually_to_be_preempted: Resource::ZERO,
            from_others: Resource::ZERO,
        }
    }));
    scratch.members = members;
    // 4. Ideal per app, highest priority first.
    let conservative = settings.intra_queue_conservative_drf;
    for t in d.apps.iter_mut().rev() {
        if rc.less_than_or_equal(&cluster, &reassignable, &Resource::ZERO)
            || (conservative && rc.is_any_major_resource_zero_or_negative(&reassignable))
        {
            continue;
        }
        let user = &mut d.users[t.user];
        // What earlier selectors took from this app (reserved ones too), counted by the
        // partition it asked for.
        t.selected = selected.get(&(t.app, p)).copied().unwrap_or_default();
        user.selected += t.selected;
        let wants = t.used - t.am_used + t.pending - t.selected;
        if !rc.less_than(&cluster, &user.ideal_assigned, &user.limit) {
            continue;
        }
        let capped = rc.min(&cluster, &wants, &(user.limit - user.ideal_assigned));
        t.ideal = rc.min(&cluster, &reassignable, &capped);
        user.ideal_assigned += t.ideal;
        let holding = t.used - t.am_used - t.selected;
        if rc.greater_than(&cluster, &t.ideal, &holding) {
            t.from_others = t.ideal - holding;
        }
        reassignable = reassignable.sub_non_negative(&t.ideal);
    }
    // 5–6. The limit: a share of the guarantee less what inter-queue preemption takes, and
    // the round's remaining budget.
    let mut max_intra = tq
        .guaranteed
        .multiply(settings.intra_queue_max_allowable_limit as f64);
    if rc.greater_than(&cluster, &max_intra, &tq.actually_to_be_preempted) {
        max_intra -= tq.actually_to_be_preempted;
    } else {
        max_intra = Resource::ZERO;
    }
    let mut limit = rc.min(&cluster, &max_intra, &state.allowed);
    // 7. What each app could give, lowest priority first.
    for t in d.apps.iter_mut() {
        if rc.less_than_or_equal(&cluster, &limit, &Resource::ZERO)
            || rc.less_than_or_equal(&cluster, &t.used, &Resource::ZERO)
        {
            continue;
        }
        let mut give = (t.used - t.ideal).sub_non_negative(&t.selected);
        give = give.sub_non_negative(&t.am_used);
        if userlimit_first {
            give = give.sub_non_negative(&snap.minimum_allocation);
        }
        t.to_be_preempted = rc.min(&cluster, &rc.max(&cluster, &give, &Resource::ZERO), &limit);
        limit = limit.sub_non_negative(&t.to_be_preempted);
    }
    // 8. Match demand to supply.
    match_demand(&mut d, rc, cluster, userlimit_first);
    Some(d)
}

/// `TAPriorityComparator`: the higher application priority first, then the older application.
fn priority_order(x: &AppSnap, y: &AppSnap) -> Ordering {
    y.priority
        .cmp(&x.priority)
        .then(x.application_seq.cmp(&y.application_seq))
}

/// The partition a container asked for (`RMContainer.getNodeLabelExpression`): the default
/// one for a container placed on a labelled node while ignoring exclusivity.
fn asked_partition(c: &ContainerSnap) -> usize {
    if c.ignore_exclusivity {
        0
    } else {
        c.partition
    }
}

/// `validateOutSameAppPriorityFromDemand`: each app with demand, highest priority first, takes
/// from the apps that can give, lowest priority first — never from its own user at the same
/// or a higher priority; under `userlimit_first` never from another user still within its
/// limit; and from another user at the same priority at most that user's excess over its limit.
fn match_demand(
    d: &mut LeafDemand,
    rc: ResourceCalculator,
    cluster: Resource,
    userlimit_first: bool,
) {
    let n = d.apps.len();
    let zero = Resource::ZERO;
    for h in (0..n).rev() {
        if !rc.greater_than(&cluster, &d.apps[h].from_others, &zero) {
            continue;
        }
        for l in 0..n {
            if !rc.greater_than(&cluster, &d.apps[l].to_be_preempted, &zero) {
                continue;
            }
            let (hu, lu) = (d.apps[h].user, d.apps[l].user);
            let same_user = hu == lu;
            if same_user && d.apps[l].priority >= d.apps[h].priority {
                continue;
            }
            if rc.less_than_or_equal(
                &cluster,
                &d.apps[l].to_be_preempted,
                &d.apps[l].actually_to_be_preempted,
            ) || d.apps[h].from_others == zero
            {
                continue;
            }
            let reached = d.users[lu].limit_reached(rc, &cluster);
            if !same_user && !reached && userlimit_first {
                continue;
            }
            let wanted = d.apps[h].from_others;
            let taken = d.apps[l].actually_to_be_preempted;
            let mut offered = d.apps[l].to_be_preempted - taken;
            if !same_user && d.apps[l].priority == d.apps[h].priority && reached {
                let u = &mut d.users[lu];
                let mut excess = u.used_deduct_am() - u.selected - u.limit;
                if u.ul_delta_done {
                    excess = zero;
                }
                if rc.less_than(&cluster, &excess, &offered) {
                    u.ul_delta_done = true;
                    offered = excess;
                }
            }
            if rc.greater_than(&cluster, &offered, &zero) {
                let give = rc.min(&cluster, &wanted, &offered);
                d.apps[h].from_others = wanted - give;
                d.apps[l].actually_to_be_preempted = taken + give;
            }
        }
    }
}

/// `selectCandidates` steps 3–7: for each under-served leaf with intra-queue preemption on,
/// take from its apps' `actually_to_be_preempted`, lowest priority first.
fn select_containers(
    snap: &PreemptionSnapshot,
    under_served: &[UnderServed],
    settings: &PreemptionSettings,
    state: &mut RoundState,
    demand: &BTreeMap<(usize, usize), LeafDemand>,
) -> Vec<Pick> {
    let rc = snap.calculator;
    let cluster = snap.cluster;
    let userlimit_first = settings.intra_queue_order == IntraQueuePreemptionOrder::UserLimitFirst;
    let mut picks = Vec::new();
    // Buffers reused from leaf to leaf and app to app.
    let mut to_obtain = ToObtain::new(snap.partitions.len());
    let mut live: Vec<&ContainerSnap> = Vec::new();
    for (p, queues) in under_served.iter().enumerate() {
        for &q in queues.queues() {
            let queue = &snap.queues[q];
            if !queue.is_leaf() || queue.intra_queue_preemption_disabled {
                continue;
            }
            let Some(d) = demand.get(&(p, q)) else {
                continue;
            };
            let need: Resource = d.apps.iter().map(|t| t.actually_to_be_preempted).sum();
            to_obtain.clear();
            to_obtain.insert(p, need);
            // Rolling usage per user: a selected container comes off its user's usage.
            let mut rolling: Vec<Resource> = d.users.iter().map(|u| u.used).collect();
            for t in d
                .apps
                .iter()
                .filter(|t| !t.actually_to_be_preempted.is_zero())
            {
                // Nothing left to obtain: the rest would stop at their first container.
                if to_obtain.is_empty() {
                    break;
                }
                let app = &snap.apps[t.app];
                live.clear();
                live.extend(app.live.iter());
                live.sort_by(|x, y| victim_cmp(x, y));
                for &c in &live {
                    if to_obtain.is_empty() {
                        break;
                    }
                    if state.selected.contains(&c.id) || c.is_am || c.killable {
                        continue;
                    }
                    // `skipContainerBasedOnIntraQueuePolicy`: stop at a container that would
                    // bring its user to or under the limit — the user's limit in the partition
                    // the container runs in, against the rolling usage of this one. (Users are
                    // listed in the same order in every partition of a leaf.)
                    if userlimit_first {
                        let there = if c.partition == p {
                            Some(d)
                        } else {
                            demand.get(&(c.partition, q))
                        };
                        if let Some(u) = there.map(|e| &e.users[t.user]) {
                            let limit = u.limit + u.am_used;
                            if rc.less_than_or_equal(
                                &cluster,
                                &(rolling[t.user] - c.resource),
                                &limit,
                            ) {
                                break;
                            }
                        }
                    }
                    let conservative = settings.intra_queue_conservative_drf;
                    if try_preempt_unselected(rc, cluster, &mut to_obtain, c, state, conservative) {
                        picks.push(Pick {
                            app: t.app,
                            container: c.id,
                            reserved: false,
                        });
                        if userlimit_first {
                            rolling[t.user] -= c.resource;
                        }
                    }
                }
            }
        }
    }
    picks
}
