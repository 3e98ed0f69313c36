//! The scheduler's side of preemption: an immutable snapshot for the policy, and applying a
//! round's events after re-checking each against the current state (propose, then commit: a
//! container released meanwhile is skipped, never counted twice).

use crate::sync::Arc;

use super::preempt_view::container_snap;
use super::types::{PreemptionMessage, ResourceRequest, ANY, PRIORITY_UNDEFINED};
use super::CapacityScheduler;
use crate::config::QueueOrderingPolicy;
use crate::ids::{AppId, ContainerId};
use crate::preempt::policy::{PreemptionEvent, PreemptionEventKind};
use crate::preempt::snapshot::*;
use crate::resource::Resource;
use crate::state::app::{Attempt, SchedulerApp};
use crate::state::users::UsersManager;

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

/// An application in leaf `q` without its containers; its pending demand only when the
/// intra-queue selector reads it.
fn app_snap(id: AppId, a: &SchedulerApp, t: &Attempt, q: usize, with_pending: bool) -> AppSnap {
    AppSnap {
        id: id.as_u64(),
        name: Arc::clone(&a.name),
        queue: q,
        user: a.user.clone(),
        priority: a.priority,
        application_seq: a.application_id.id as u64,
        pending: if with_pending {
            vec![t.requests.pending().non_negative()]
        } else {
            Vec::new()
        },
        am: am_snap(t),
        live: Arc::default(),
        reserved: Vec::new(),
    }
}

/// The attempt's AM as YARN records it (default partition; unmanaged AMs are never waiting).
fn am_snap(t: &Attempt) -> AmSnap {
    AmSnap {
        resource: t.am_resource,
        partition: 0,
        waiting: !t.unmanaged_am && t.am_container.is_none(),
    }
}

impl CapacityScheduler {
    /// The policy's view of the scheduler now (the default partition).
    pub fn preemption_snapshot(&self) -> PreemptionSnapshot {
        let tree = &self.tree;
        let s = tree.settings();
        let cluster = tree.cluster_resource();
        // Nodes by slab slot (a container's `node` is its node's slot); a free slot is an
        // empty node with nothing on it.
        // (The slab iterates in slot order.)
        let mut nodes: Vec<NodeSnap> = Vec::with_capacity(self.nodes.len());
        let empty: Arc<str> = Arc::from("");
        for (id, n) in self.nodes.iter() {
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
                partition: 0,
                unallocated: n.unallocated(),
                killable: n.killable_resource,
                reservation: None,
            });
        }
        let mut apps: Vec<AppSnap> = Vec::with_capacity(self.apps.len());
        // Users and per-app pending are for the intra-queue selector only.
        let intra_queue = self.configuration().preemption().intra_queue_enabled;
        let mut queues: Vec<QueueSnap> = Vec::with_capacity(tree.len());
        let mut pending = Vec::with_capacity(tree.len());
        for q in 0..tree.len() {
            let mut leaf_apps = Vec::new();
            let mut inactive = Vec::new();
            let mut users = Vec::new();
            let mut fair = false;
            let (mut with_sum, mut without_sum) = (Resource::ZERO, Resource::ZERO);
            if let Some(lr) = self.leaf(q) {
                // Intra-queue preemption reads each user's usage and the limit counting
                // every user of the queue (`getResourceLimitForAllUsers`); without it the
                // snapshot skips them.
                if intra_queue {
                    let inputs = self.limit_inputs(q);
                    let all_users_limit = lr.users.compute_queue_user_limit_all_users(&inputs);
                    users = lr
                        .users
                        .iter()
                        .map(|u| UserSnap {
                            name: u.name.clone(),
                            used: vec![u.used],
                            limit: vec![UsersManager::user_limit(
                                &inputs,
                                all_users_limit,
                                u.weight,
                            )],
                        })
                        .collect();
                }
                // getTotalPendingResourcesConsideringUserLimit, called twice by YARN (with and
                // without reserved deducted), each call with its own per-user headroom: a
                // user's demand is capped at what its user limit still allows, apps taken in
                // the leaf's ordering-policy order. (Headroom by user slot: small and dense.)
                // Per user slot: (headroom left for the first pass, for the second).
                let mut room: Vec<Option<(Resource, Resource)>> = Vec::new();
                // The queue-wide limit once per leaf; each user's is it times the user's weight.
                let inputs = self.limit_inputs(q);
                let queue_limit = self.queue_user_limit(q);
                // The policy walks this order backwards (`getPreemptionIterator`), so it must
                // be the leaf's own: FIFO's active list, or the fair policy's order.
                let order: Vec<AppId> = match self.fair_application_order(q) {
                    Some(order) => {
                        fair = true;
                        order.to_vec()
                    }
                    None => lr.active.iter().map(|e| e.2).collect(),
                };
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
                    let pending = (t.requests.pending() - t.reserved).non_negative();
                    let without = Resource::component_min(pending, left_without);
                    room[slot] = Some((left_with - with, left_without - without));
                    with_sum += with;
                    without_sum += without;
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
                    let mut snap = app_snap(app, a, t, q, intra_queue);
                    snap.live = Arc::clone(&t.preempt_view);
                    snap.reserved = reserved;
                    apps.push(snap);
                    leaf_apps.push(idx);
                }
                // Apps held back by the AM limit count among the leaf's apps for intra-queue
                // preemption (`getAllApplications`), with their demand and no containers.
                if intra_queue {
                    for &(_, _, app) in &lr.pending {
                        let a = &self.apps[app];
                        let Some(t) = a.attempt.as_ref() else {
                            continue;
                        };
                        inactive.push(apps.len());
                        apps.push(app_snap(app, a, t, q, true));
                    }
                }
            }
            pending.push((with_sum, without_sum));
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
                partitions: vec![QueuePartitionSnap {
                    guaranteed: queue.capacities.effective_min,
                    max: queue.capacities.effective_max,
                    used: queue.used,
                    reserved: self.queue_reserved(q),
                    killable: self.queue_killable[q],
                    pending: Resource::ZERO,
                    pending_deduct_reserved: Resource::ZERO,
                    absolute_capacity: queue.capacities.absolute_capacity,
                    absolute_max_capacity: queue.capacities.absolute_maximum_capacity,
                }],
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
            if let Some(p) = tree.parent(q) {
                let (w, wo) = pending[q];
                pending[p].0 += w;
                pending[p].1 += wo;
            }
            queues[q].partitions[0].pending = pending[q].0;
            queues[q].partitions[0].pending_deduct_reserved = pending[q].1;
        }
        PreemptionSnapshot {
            calculator: s.resource_calculator,
            cluster,
            minimum_allocation: s.minimum_allocation,
            partitions: vec![PartitionSnap {
                name: String::new(),
                resource: cluster,
                exclusive: true,
            }],
            queues,
            apps,
            nodes,
        }
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
