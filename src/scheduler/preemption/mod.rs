//! **Preemption, the scheduler's side** (`scheduler::preemption`): this file's snapshot for the
//! policy and its plan applied, `preempt_view` (each attempt's running containers kept in the
//! policy's form) and `freed_space` (what a round leaves between rounds: the room kills freed,
//! lazy preemption's killable containers). The policy itself is `crate::preempt`, below the
//! scheduler: it reads an owned snapshot and never sees the scheduler. This folder may use the
//! scheduler's state, `preempt`'s snapshot and plan types, and the floors below.
//!
//! The scheduler's side of preemption: an immutable snapshot for the policy, and applying a
//! round's events after re-checking each against the current state (propose, then commit: a
//! container released meanwhile is skipped, never counted twice).

pub(crate) mod freed_space;
pub(crate) mod preempt_view;

use crate::sync::Arc;

use self::preempt_view::container_snap;
use super::CapacityScheduler;
use crate::config::QueueOrderingPolicy;
use crate::ids::{AppId, ContainerId};
use crate::preempt::policy::{PreemptionEvent, PreemptionEventKind};
use crate::preempt::snapshot::*;
use crate::records::{PreemptionMessage, ResourceRequest, ANY, PRIORITY_UNDEFINED};
use crate::resource::Resource;
use crate::state::app::{Attempt, SchedulerApp};
use crate::state::partition::{get_in, Partition, DEFAULT_PARTITION};
use crate::state::users::{QueueLimitInputs, UsersManager};

/// What applying a round did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreemptionOutcome {
    pub marked: u32,
    pub killed: u32,
    pub unreserved: u32,
    /// Events about containers that no longer exist (or changed state) and were skipped.
    pub stale: u32,
    /// Lazy preemption: containers whose wait was over and that became killable instead.
    pub made_killable: u32,
    /// The containers marked and killed, in plan order.
    pub marked_ids: Vec<ContainerId>,
    pub killed_ids: Vec<ContainerId>,
}

/// An application in leaf `q` with its containers (`live`: the attempt's own, its shared
/// view, when `own_containers`; none for an application not yet active); its pending
/// demand and user only when the intra-queue selector reads them. Its user's name is shared
/// with the leaf's users manager when the user is there, and `user_index` (by user slot) says
/// where that user is in the snapshot's list of the leaf's users.
#[allow(clippy::too_many_arguments)]
fn app_snap(
    id: AppId,
    a: &SchedulerApp,
    t: &Attempt,
    q: usize,
    users: &UsersManager,
    user_index: &[Option<usize>],
    no_user: &Arc<str>,
    with_pending: bool,
    partitions: usize,
    live: Arc<Vec<ContainerSnap>>,
    own_containers: bool,
    reserved: Vec<ContainerSnap>,
) -> AppSnap {
    // Only the intra-queue selector reads the user: without it, the shared empty name (no
    // look at the user's entry, a cache miss per app).
    let (user, index) = if !with_pending {
        (Arc::clone(no_user), None)
    } else {
        // The app's slot is its user's (the invariant checker holds it so), so the name is
        // not compared: that would read two more strings per app.
        match users.by_slot(a.user_slot) {
            Some(u) => {
                debug_assert_eq!(u.name, a.user);
                let index = user_index.get(a.user_slot).copied().flatten();
                (Arc::clone(&u.shared_name), index)
            }
            None => (Arc::from(a.user.as_str()), None),
        }
    };
    AppSnap {
        id: id.as_u64(),
        name: Arc::clone(&a.name),
        queue: q,
        user,
        user_index: index,
        priority: a.priority,
        application_seq: a.application_id.id as u64,
        pending: if with_pending {
            per_partition(partitions, |p| {
                t.requests.pending_in(p as Partition).non_negative()
            })
        } else {
            PerPartition::new()
        },
        am: am_snap(t),
        // Without labelled partitions every container is in the default one, and the
        // attempt's `used` is the sum of its live containers (when they are the ones given).
        live_used: (partitions == 1 && own_containers).then_some(t.used),
        live,
        reserved,
    }
}

/// The attempt's AM as YARN records it (in its AM's partition; unmanaged AMs are never
/// waiting).
fn am_snap(t: &Attempt) -> AmSnap {
    AmSnap {
        resource: t.am_resource,
        partition: t.am_partition as usize,
        waiting: !t.unmanaged_am && t.am_container.is_none(),
    }
}

impl CapacityScheduler {
    /// The policy's view of the scheduler now, every partition indexed by its id (the
    /// default partition is 0; a removed label keeps its id, empty).
    pub fn preemption_snapshot(&self) -> PreemptionSnapshot {
        let tree = &self.tree;
        let s = tree.settings();
        let cluster = tree.cluster_resource();
        let np = self.labels.num_partitions();
        // Nodes by slab slot (a container's `node` is its node's slot); a free slot is an
        // empty node with nothing on it. (The slab iterates in slot order.) Only the
        // reserved-container and queue-priority selectors read nodes: without them the
        // snapshot has none, and costs O(apps + queues).
        let preemption = self.configuration().preemption();
        let with_nodes = preemption.select_based_on_reserved_containers
            || preemption.underutilized_preemption_enabled;
        let mut nodes: Vec<NodeSnap> =
            Vec::with_capacity(if with_nodes { self.nodes.len() } else { 0 });
        let empty: Arc<str> = Arc::from("");
        for (id, n) in self.nodes.iter().filter(|_| with_nodes) {
            while nodes.len() < id.index() {
                nodes.push(NodeSnap {
                    name: Arc::clone(&empty),
                    partition: 0,
                    unallocated: Resource::ZERO,
                    killable: Resource::ZERO,
                    reservation: None,
                });
            }
            nodes.push(NodeSnap {
                name: Arc::clone(&n.host),
                partition: n.partition as usize,
                unallocated: n.unallocated(),
                killable: n.killable_resource(),
                reservation: None,
            });
        }
        let mut apps: Vec<AppSnap> = Vec::with_capacity(self.apps.len());
        let no_containers: Arc<Vec<ContainerSnap>> = Arc::default();
        let no_user: Arc<str> = Arc::from("");
        // Users and per-app pending are for the intra-queue selector only.
        let intra_queue = preemption.intra_queue_enabled;
        let mut queues: Vec<QueueSnap> = Vec::with_capacity(tree.len());
        let mut pending: Vec<Vec<(Resource, Resource)>> = Vec::with_capacity(tree.len());
        let mut user_index: Vec<Option<usize>> = Vec::new();
        for q in 0..tree.len() {
            let mut leaf_apps = Vec::new();
            let mut inactive = Vec::new();
            let mut users = Vec::new();
            let mut fair = false;
            // Per partition: demand within user limits, with and without reserved deducted.
            let mut sums = vec![(Resource::ZERO, Resource::ZERO); np];
            // Per user slot of this leaf: where the user is in `users`.
            user_index.clear();
            let mut user_index_next = 0;
            if let Some(lr) = self.leaf(q) {
                // Intra-queue preemption reads each user's usage and the limit counting
                // every user of the queue (`getResourceLimitForAllUsers`); without it the
                // snapshot skips them.
                if intra_queue {
                    let limits: Vec<_> = (0..np)
                        .map(|p| {
                            let inputs = self.limit_inputs_in(q, p as Partition, false);
                            let all = lr.users.compute_queue_user_limit_all_users(&inputs);
                            (inputs, all)
                        })
                        .collect();
                    users = lr
                        .users
                        .iter_slots()
                        .map(|(slot, u)| {
                            if user_index.len() <= slot {
                                user_index.resize(slot + 1, None);
                            }
                            user_index[slot] = Some(user_index_next);
                            user_index_next += 1;
                            UserSnap {
                                name: Arc::clone(&u.shared_name),
                                used: per_partition(np, |p| u.used_in(p as Partition)),
                                limit: per_partition(np, |p| {
                                    let (inputs, all) = &limits[p];
                                    UsersManager::user_limit(inputs, *all, u.weight)
                                }),
                            }
                        })
                        .collect();
                }
                // getTotalPendingResourcesConsideringUserLimit, called twice by YARN (with and
                // without reserved deducted), each call with its own per-user headroom: a
                // user's demand is capped at what its user limit still allows, apps taken in
                // the leaf's ordering-policy order. (Headroom by user slot: small and dense.)
                // Per (user slot, partition): (headroom left for the first pass, for the
                // second). Partitions other than the default one are met only with labels.
                let mut room: Vec<Option<(Resource, Resource)>> = Vec::new();
                let mut labelled_room: std::collections::HashMap<
                    (usize, Partition),
                    (Resource, Resource),
                > = Default::default();
                // The queue-wide limit once per leaf and partition; each user's is it times
                // the user's weight (the limit that respects the partition's exclusivity,
                // TempQueuePerPartition's).
                let inputs = self.limit_inputs(q);
                let queue_limit = self.queue_user_limit(q);
                let mut labelled_limits: Vec<Option<(QueueLimitInputs, Resource)>> = vec![None; np];
                // The policy walks this order backwards (`getPreemptionIterator`), so it must
                // be the leaf's own: FIFO's active list, or the fair policy's order.
                let order: Vec<AppId> = match self.fair_application_order(q) {
                    Some(order) => {
                        fair = true;
                        order.to_vec()
                    }
                    None => lr.active.iter().map(|e| e.2).collect(),
                };
                leaf_apps.reserve_exact(order.len());
                for app in order {
                    let a = &self.apps[app];
                    let t = a.attempt.as_ref().expect("active apps have an attempt");
                    let slot = a.user_slot;
                    if room.len() <= slot {
                        room.resize(slot + 1, None);
                    }
                    let (left_with, left_without) = *room[slot].get_or_insert_with(|| {
                        let user = lr.users.by_slot(slot);
                        let used = user.map(|u| u.used).unwrap_or_default();
                        let weight = user
                            .map(|u| u.weight)
                            .unwrap_or_else(|| self.user_weight(q, &a.user));
                        let limit = UsersManager::user_limit(&inputs, queue_limit, weight);
                        let headroom = (limit - used).non_negative();
                        (headroom, headroom)
                    });
                    let pending = t.requests.pending().non_negative();
                    let with = Resource::component_min(pending, left_with);
                    let default_reserved =
                        if t.requests.labelled_pending().is_empty() && !self.labels.has_labels() {
                            t.reserved
                        } else {
                            self.app_reserved_in(t, DEFAULT_PARTITION)
                        };
                    let pending = (t.requests.pending() - default_reserved).non_negative();
                    let without = Resource::component_min(pending, left_without);
                    room[slot] = Some((left_with - with, left_without - without));
                    sums[0].0 += with;
                    sums[0].1 += without;
                    for (p, asked) in t.requests.labelled_pending().iter() {
                        let asked = asked.non_negative();
                        if asked.is_zero() {
                            continue;
                        }
                        let (inputs, limit) =
                            *labelled_limits[p as usize].get_or_insert_with(|| {
                                let inputs = self.limit_inputs_in(q, p, false);
                                (inputs, lr.users.compute_queue_user_limit(&inputs))
                            });
                        let reserved = self.app_reserved_in(t, p);
                        let (left_with, left_without) =
                            *labelled_room.entry((slot, p)).or_insert_with(|| {
                                let user = lr.users.by_slot(slot);
                                let used = user.map(|u| u.used_in(p)).unwrap_or_default();
                                let weight = user.map(|u| u.weight).unwrap_or(1.0);
                                let limit = UsersManager::user_limit(&inputs, limit, weight);
                                let headroom = (limit - used).non_negative();
                                (headroom, headroom)
                            });
                        let with = Resource::component_min(asked, left_with);
                        let without = Resource::component_min(
                            (asked - reserved).non_negative(),
                            left_without,
                        );
                        labelled_room.insert((slot, p), (left_with - with, left_without - without));
                        sums[p as usize].0 += with;
                        sums[p as usize].1 += without;
                    }
                    let idx = apps.len();
                    let mut reserved = Vec::with_capacity(t.reservations.len());
                    for &cid in &t.reservations {
                        if let Some(c) = self.containers.get(cid) {
                            if let Some(n) = nodes.get_mut(c.node.index()) {
                                n.reservation = Some((idx, reserved.len()));
                            }
                            reserved.push(container_snap(cid, c));
                        }
                    }
                    let live = self.live_view(t);
                    apps.push(app_snap(
                        app,
                        a,
                        t,
                        q,
                        &lr.users,
                        &user_index,
                        &no_user,
                        intra_queue,
                        np,
                        live,
                        true,
                        reserved,
                    ));
                    leaf_apps.push(idx);
                }
                // Apps held back by the AM limit count among the leaf's apps for intra-queue
                // preemption (`getAllApplications`), with their demand and no containers.
                if intra_queue {
                    inactive.reserve_exact(lr.pending.len());
                    for &(_, _, app) in &lr.pending {
                        let a = &self.apps[app];
                        let Some(t) = a.attempt.as_ref() else {
                            continue;
                        };
                        inactive.push(apps.len());
                        let live = Arc::clone(&no_containers);
                        apps.push(app_snap(
                            app,
                            a,
                            t,
                            q,
                            &lr.users,
                            &user_index,
                            &no_user,
                            true,
                            np,
                            live,
                            false,
                            Vec::new(),
                        ));
                    }
                }
            }
            pending.push(sums);
            let conf = tree.conf(q);
            let queue = tree.queue(q);
            let relative_priority =
                match conf.parent.and_then(|p| tree.conf(p).queue_ordering_policy) {
                    Some(QueueOrderingPolicy::PriorityUtilization) => conf.priority,
                    _ => 0,
                };
            let fair_order = fair.then(|| leaf_apps.clone());
            queues.push(QueueSnap {
                fair_order,
                path: conf.path.clone(),
                parent: conf.parent,
                children: conf.children.clone(),
                partitions: (0..np)
                    .map(|p| self.queue_partition_snap(q, p as Partition))
                    .collect(),
                preemption_disabled: tree.preemption_disabled(q),
                intra_queue_preemption_disabled: tree.intra_queue_preemption_disabled(q),
                relative_priority,
                apps: leaf_apps,
                max_am_resource_percent: conf
                    .leaf
                    .as_ref()
                    .map(|l| l.maximum_am_resource_percent)
                    .unwrap_or(0.0),
                effective_capacity: queue.capacities.effective_min,
                users,
                inactive_apps: inactive,
            });
        }
        // Parents' pending is the sum of their children's, bottom-up.
        for q in (0..tree.len()).rev() {
            let mine = std::mem::take(&mut pending[q]);
            for (part, &(w, wo)) in mine.iter().enumerate() {
                if let Some(p) = tree.parent(q) {
                    pending[p][part].0 += w;
                    pending[p][part].1 += wo;
                }
                queues[q].partitions[part].pending = w;
                queues[q].partitions[part].pending_deduct_reserved = wo;
            }
        }
        PreemptionSnapshot {
            calculator: s.resource_calculator,
            cluster,
            minimum_allocation: s.minimum_allocation,
            partitions: (0..np)
                .map(|p| PartitionSnap {
                    name: self.labels.name(p as Partition).to_string(),
                    resource: self.partition_resource(p as Partition),
                    exclusive: self.labels.is_exclusive(p as Partition),
                })
                .collect(),
            queues,
            apps,
            nodes,
        }
    }

    /// One queue's figures in partition `p` (killable room is tracked in the default one).
    fn queue_partition_snap(&self, q: usize, p: Partition) -> QueuePartitionSnap {
        let (guaranteed, max, abs, abs_max) = if p == DEFAULT_PARTITION {
            let c = &self.tree.queue(q).capacities;
            (
                c.effective_min,
                c.effective_max,
                c.absolute_capacity,
                c.absolute_maximum_capacity,
            )
        } else {
            let c = self.tree.partition_capacity(q, self.labels.name(p));
            (
                c.effective_min,
                c.effective_max,
                c.absolute_capacity,
                c.absolute_maximum_capacity,
            )
        };
        QueuePartitionSnap {
            guaranteed,
            max,
            used: self.queue_used_in(q, p),
            reserved: get_in(self.queue_reserved[q], &self.queue_labelled_reserved[q], p),
            killable: if p == DEFAULT_PARTITION {
                self.queue_killable[q]
            } else {
                Resource::ZERO
            },
            pending: Resource::ZERO,
            pending_deduct_reserved: Resource::ZERO,
            absolute_capacity: abs,
            absolute_max_capacity: abs_max,
        }
    }

    /// What an attempt has reserved in partition `p`.
    fn app_reserved_in(&self, t: &Attempt, p: Partition) -> Resource {
        t.reservations
            .iter()
            .filter_map(|r| self.containers.get(*r))
            .filter(|c| c.partition == p)
            .map(|c| c.resource)
            .sum()
    }

    /// Applies a round's events, each re-checked against the current state: a mark tells the
    /// AM on its next allocate; a kill completes the container with `PREEMPTED` (−102); a
    /// reserved container is released (`ABORTED`, −100).
    pub fn apply_preemption(
        &mut self,
        now_ms: i64,
        events: &[PreemptionEvent],
    ) -> PreemptionOutcome {
        let mut out = PreemptionOutcome::default();
        let lazy = self.tree.settings().lazy_preemption_enabled;
        for e in events {
            let id = ContainerId::from_u64(e.container);
            let Some(c) = self.containers.get(id) else {
                out.stale += 1;
                continue;
            };
            let (reserved, node, resource) = (c.is_reserved(), c.node, c.resource);
            match e.kind {
                PreemptionEventKind::MarkForPreemption if !reserved => {
                    if self.mark_for_preemption(id) {
                        out.marked += 1;
                        out.marked_ids.push(id);
                    } else {
                        // No attempt to tell (kept across attempts): nothing to mark.
                        out.stale += 1;
                    }
                }
                // Lazy preemption: killed only when a queue below its guarantee needs the room.
                PreemptionEventKind::MarkKillable if !reserved && lazy => {
                    self.mark_killable(id);
                    out.made_killable += 1;
                }
                PreemptionEventKind::MarkKillable if !reserved => {
                    if let Some(leaf) = self.kill_preempted(now_ms, id) {
                        self.record_freed(node, leaf, resource, now_ms);
                    }
                    out.killed += 1;
                    out.killed_ids.push(id);
                }
                PreemptionEventKind::KillReserved if reserved => {
                    self.unreserve(now_ms, id);
                    out.unreserved += 1;
                }
                _ => out.stale += 1,
            }
        }
        out
    }

    /// Drains an attempt's marked containers into the allocate response's message (each
    /// reported once; containers that completed meanwhile are dropped). `None` when nothing
    /// is marked.
    pub(crate) fn take_preemption_message(&mut self, app: AppId) -> Option<PreemptionMessage> {
        let marked = std::mem::take(&mut self.apps.get_mut(app)?.attempt.as_mut()?.to_preempt);
        let live: Vec<ContainerId> = marked
            .into_iter()
            .filter(|id| self.containers.contains(*id))
            .collect();
        if live.is_empty() {
            return None;
        }
        let s = self.tree.settings();
        let total: Resource = live.iter().map(|id| self.containers[*id].resource).sum();
        // FiCaSchedulerApp.getAllocation: ceil(divide(cluster, total, minimumAllocation)).
        let cluster = self.tree.cluster_resource();
        let count = (s
            .resource_calculator
            .divide(&cluster, &total, &s.minimum_allocation) as f64)
            .ceil() as i32;
        let mut ask = ResourceRequest::at(PRIORITY_UNDEFINED, ANY, s.minimum_allocation, count);
        ask.relax_locality = true;
        Some(PreemptionMessage {
            strict: Vec::new(),
            contract_containers: live,
            contract_resources: vec![ask],
        })
    }
}
