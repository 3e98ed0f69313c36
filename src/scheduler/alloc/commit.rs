//! Commit (`tryCommit` → `accept`, then `apply`; spec §4.11): every proposal is re-checked
//! against the current state before anything changes, then applied in one step.

use super::NodeCtx;
use crate::ids::{AppId, ContainerId};
use crate::records::{
    diagnostics, exit_status, ContainerState, ExecutionType, NodeType, SchedulerKey,
};
use crate::resource::Resource;
use crate::scheduler::apps::containers::Completion;
use crate::scheduler::preemption::preempt_view::view_add_expecting;
use crate::scheduler::CapacityScheduler;
use crate::state::container::{MaybeMs, RmContainer};
use crate::state::partition::DEFAULT_PARTITION;
use crate::state::queue::QueueId;

impl CapacityScheduler {
    /// `accept`: the node has room, and — unless fulfilling a reservation — every queue up to
    /// root stays within its maximum and the user was within its limit before this container.
    /// The commit's re-check (`FiCaSchedulerApp.accept`): room on the node, then — unless
    /// a reservation is fulfilled — every queue's maximum and the user's limit in the
    /// partition the pass serves (the whole partition when its exclusivity is ignored).
    /// `user_checked_at`: the usage epoch at which the leaf's walk found the user within its
    /// limit (`Limits::user_checked_at`).
    /// `unallocated`: the node's unallocated room now.
    // Inlined, with the queue-maxima walk: a few comparisons on every allocation's path,
    // where two calls saved and restored two large frames.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn accept(
        &self,
        app: AppId,
        leaf: QueueId,
        ctx: &NodeCtx,
        unallocated: Resource,
        capability: Resource,
        released: Resource,
        from_reservation: bool,
        user_checked_at: Option<u64>,
    ) -> bool {
        let s = self.tree.settings();
        let rc = s.resource_calculator;
        if !rc.fits_in(&capability, &(unallocated + released)) {
            return false;
        }
        if from_reservation {
            return true;
        }
        if !self.fits_queue_maxima(leaf, ctx, capability - released) {
            return false;
        }
        // The walk found the user within its limit in the default partition at this usage
        // epoch (nothing about the users has changed since) and nothing is released: the
        // re-check would compute the same limit and compare the same usage with it.
        if released.is_zero()
            && ctx.partition == DEFAULT_PARTITION
            && user_checked_at == Some(self.usage_epoch)
        {
            debug_assert!(
                self.user_within_limit_in(app, ctx, released),
                "the walk found the user within its limit at this usage epoch"
            );
            return true;
        }
        self.user_within_limit_in(app, ctx, released)
    }

    /// The user's usage, less `released`, within its limit in the default partition.
    pub(crate) fn user_within_limit(&self, app: AppId, released: Resource) -> bool {
        let a = &self.apps[app];
        let Some(lr) = self.leaf(a.queue) else {
            return false;
        };
        // The user by its slot (no name hashing on the allocation path).
        let u = lr.users.by_slot(a.user_slot);
        debug_assert!(
            u.is_none_or(|u| u.name == a.user),
            "an app's user slot is its user's"
        );
        let user_used = u.map(|u| u.used).unwrap_or(Resource::ZERO);
        let weight = u
            .map(|u| u.weight)
            .unwrap_or_else(|| self.user_weight(a.queue, &a.user));
        let limit = crate::state::users::UsersManager::user_limit(
            &self.limit_inputs(a.queue),
            self.queue_user_limit(a.queue),
            weight,
        );
        !self.tree.settings().resource_calculator.greater_than(
            &self.tree.cluster_resource(),
            &(user_used - released),
            &limit,
        )
    }

    fn user_within_limit_in(&self, app: AppId, ctx: &NodeCtx, released: Resource) -> bool {
        if ctx.partition == DEFAULT_PARTITION {
            return self.user_within_limit(app, released);
        }
        let a = &self.apps[app];
        let Some(lr) = self.leaf(a.queue) else {
            return false;
        };
        let inputs = self.limit_inputs_in(a.queue, ctx.partition, ctx.ignore);
        let queue_limit = lr.users.compute_queue_user_limit(&inputs);
        let u = lr.users.get(&a.user);
        let weight = u.map(|u| u.weight).unwrap_or(1.0);
        let user_used = u.map(|u| u.used_in(ctx.partition)).unwrap_or_default();
        let limit = crate::state::users::UsersManager::user_limit(&inputs, queue_limit, weight);
        !self.tree.settings().resource_calculator.greater_than(
            &self.tree.cluster_resource(),
            &(user_used - released),
            &limit,
        )
    }

    /// A container update's charge (`delta`) on `node` passes the same re-check.
    pub(crate) fn accept_charge(
        &self,
        app: AppId,
        node: crate::ids::NodeId,
        delta: Resource,
    ) -> bool {
        let ctx = self.node_ctx(node);
        self.accept(
            app,
            self.apps[app].queue,
            &ctx,
            ctx.unallocated,
            delta,
            Resource::ZERO,
            false,
            None,
        )
    }

    /// Every queue from the leaf up stays within its maximum in the pass's partition (the
    /// whole partition when its exclusivity is ignored).
    // Inlined for the default partition (a walk up the tree); the labelled case out of line.
    #[inline(always)]
    fn fits_queue_maxima(&self, leaf: QueueId, ctx: &NodeCtx, delta: Resource) -> bool {
        if ctx.partition != DEFAULT_PARTITION {
            return self.fits_queue_maxima_in(leaf, ctx, delta);
        }
        let rc = self.tree.settings().resource_calculator;
        let mut at = Some(leaf);
        while let Some(q) = at {
            let queue = self.tree.queue(q);
            if !rc.fits_in(&(queue.used + delta), &queue.capacities.effective_max) {
                return false;
            }
            at = self.tree.parent(q);
        }
        true
    }

    /// `fits_queue_maxima` on a labelled node.
    #[inline(never)]
    fn fits_queue_maxima_in(&self, leaf: QueueId, ctx: &NodeCtx, delta: Resource) -> bool {
        let rc = self.tree.settings().resource_calculator;
        let p = ctx.partition;
        let whole = ctx.ignore.then(|| self.partition_resource(p));
        let mut at = Some(leaf);
        while let Some(q) = at {
            let max = whole.unwrap_or_else(|| self.effective_max_in(q, p));
            if !rc.fits_in(&(self.queue_used_in(q, p) + delta), &max) {
                return false;
            }
            at = self.tree.parent(q);
        }
        true
    }

    /// `ask`: the key's capability and outstanding count as the placement read them (nothing
    /// changed them since), or `None` to read them here.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn commit_allocation(
        &mut self,
        now_ms: i64,
        app: AppId,
        key: SchedulerKey,
        ask: Option<(Resource, i32)>,
        ctx: &NodeCtx,
        node_type: NodeType,
        user_checked_at: Option<u64>,
        unreserve: Option<ContainerId>,
        from_reservation: Option<ContainerId>,
    ) -> Option<ContainerId> {
        // `asked`: the containers the key still wants, this one included: the attempt's
        // container set, preemption view and new-container list make room for them at once
        // (`reserve_when_full`). (All read in one look-up of the application.)
        let (leaf, capability, asked, is_am) = {
            let a = &self.apps[app];
            let t = a.attempt.as_ref()?;
            let (capability, outstanding) = match ask {
                Some(ask) => ask,
                None => {
                    let k = t.requests.get(&key)?;
                    (k.capability(), k.outstanding())
                }
            };
            debug_assert_eq!(
                t.requests
                    .get(&key)
                    .map(|k| (k.capability(), k.outstanding())),
                Some((capability, outstanding)),
                "the ask handed to the commit is the key's"
            );
            let is_am = key == Self::AM_KEY && t.am_pending && !t.unmanaged_am;
            (a.queue, capability, outstanding.max(1) as usize, is_am)
        };
        let released = unreserve
            .and_then(|r| self.containers.get(r))
            .map(|c| c.resource)
            .unwrap_or(Resource::ZERO);
        // What was free before it (for the freed-space accounting), read once for the
        // re-check too.
        let mut unallocated = self.nodes[ctx.node].unallocated();
        if !self.accept(
            app,
            leaf,
            ctx,
            unallocated,
            capability,
            released,
            from_reservation.is_some(),
            user_checked_at,
        ) {
            return None;
        }
        if let Some(r) = unreserve {
            self.unreserve(now_ms, r);
            // (The reservation released is on another node; read again all the same.)
            unallocated = self.nodes[ctx.node].unallocated();
        }
        let id = match from_reservation {
            Some(rid) => {
                self.allocate_reserved(
                    now_ms,
                    app,
                    key,
                    ctx,
                    node_type,
                    (rid, leaf, capability, is_am),
                );
                rid
            }
            None => {
                let yarn_id = self.next_sequence_id(app);
                self.add_app_used(app, ctx.partition, capability);
                self.containers.insert(RmContainer {
                    yarn_id,
                    app,
                    node: ctx.node,
                    resource: capability,
                    key,
                    state: ContainerState::Allocated,
                    execution_type: ExecutionType::Guaranteed,
                    node_type,
                    is_am,
                    created_ms: now_ms,
                    acquired_ms: MaybeMs::NONE,
                    launched_ms: MaybeMs::NONE,
                    satisfied: Default::default(),
                    view_pos: 0,
                    version: 0,
                    remotely_allocated: false,
                    killable: false,
                    partition: ctx.partition,
                    ignore_exclusivity: ctx.ignore_exclusivity(),
                    requested_partition: ctx.request_partition(),
                })
            }
        };
        // (A node's set grows as before: sized by what fits, it took more memory per running
        // container than `bench memory`'s budget has.)
        let node = &mut self.nodes[ctx.node];
        node.allocated += capability;
        node.containers.insert(id);
        let full_reset = self.tree.settings().rack_locality_full_reset;
        let t = self.apps[app].attempt.as_mut().expect("attempt");
        t.used += capability;
        t.live_containers.reserve_when_full(asked);
        t.live_containers.insert(id);
        // The entries it satisfies are taken here, before the view is added to, so the
        // container is looked up once for both (the view's entry does not show them).
        let (delta, satisfied) = t.requests.allocate(&key, node_type, ctx.host, ctx.rack);
        let c = &mut self.containers[id];
        c.satisfied = satisfied;
        view_add_expecting(t, id, c, asked);
        crate::state::container::reserve_when_full(&mut t.newly_allocated, asked);
        t.newly_allocated.push(id);
        if is_am {
            t.am_container = Some(id);
            t.am_pending = false;
        }
        // Delay scheduling restarts after a local allocation (not after fulfilling a reservation).
        // An allocation on an unlabelled node resets the key's count of chances (only kept
        // while some label lends its room).
        if ctx.partition == DEFAULT_PARTITION && self.labels.has_non_exclusive() {
            t.counters_mut(key).missed_non_partitioned = 0;
        }
        if from_reservation.is_none() {
            match node_type {
                NodeType::NodeLocal => t.counters_mut(key).missed_opportunities = 0,
                NodeType::RackLocal if full_reset => t.counters_mut(key).missed_opportunities = 0,
                _ => {}
            }
        }
        self.apply_pending_delta(app, delta);
        // A reservation fulfilled from freed room takes it as surely as a new container.
        self.consume_freed(ctx.node, leaf, capability, unallocated);
        self.allocated_now.push(id);
        if !self.in_heartbeat {
            self.notice_placed(app, id);
        }
        if is_am {
            self.notice(crate::records::SchedulerNotice::AmContainerAllocated {
                app,
                container: id,
            });
        }
        Some(id)
    }

    /// The commit's fulfilment of reservation `rid` (`allocate_from_reserved`): the same
    /// container id; the reservation's charge becomes an allocation's. (Out of line: the new
    /// container is the usual case.)
    #[inline(never)]
    fn allocate_reserved(
        &mut self,
        now_ms: i64,
        app: AppId,
        key: SchedulerKey,
        ctx: &NodeCtx,
        node_type: NodeType,
        (rid, leaf, capability, is_am): (ContainerId, QueueId, Resource, bool),
    ) {
        // Same container id; the reservation's charge becomes an allocation's.
        let (old, old_partition) = {
            let c = &self.containers[rid];
            (c.resource, c.partition)
        };
        self.add_queue_reserved(leaf, old_partition, -old, -1);
        self.add_app_used(app, old_partition, -old);
        self.add_app_used(app, ctx.partition, capability);
        let t = self.apps[app].attempt.as_mut().expect("attempt");
        t.reserved -= old;
        t.reservations.retain(|r| *r != rid);
        t.counters_mut(key).re_reservations = 0;
        let c = &mut self.containers[rid];
        c.state = ContainerState::Allocated;
        c.partition = ctx.partition;
        c.ignore_exclusivity = ctx.ignore_exclusivity();
        c.resource = capability;
        c.node_type = node_type;
        c.created_ms = now_ms;
        c.is_am = is_am;
        self.nodes[ctx.node].reserved = None;
    }

    /// Reserves the node for `app`'s key, or counts a re-reservation (spec §4.9).
    // Out of line: kept apart from the allocation's commit, whose code is on every
    // allocation's path.
    #[inline(never)]
    pub(crate) fn commit_reservation(
        &mut self,
        now_ms: i64,
        app: AppId,
        key: SchedulerKey,
        ctx: &NodeCtx,
        node_type: NodeType,
        existing: Option<ContainerId>,
    ) -> bool {
        if existing.is_some() {
            if let Some(t) = self.apps[app].attempt.as_mut() {
                t.counters_mut(key).re_reservations += 1;
            }
            return true;
        }
        if self.nodes[ctx.node].reserved.is_some() {
            return false;
        }
        let Some(capability) = self.apps[app]
            .attempt
            .as_ref()
            .and_then(|t| t.requests.get(&key))
            .map(|k| k.capability())
        else {
            return false;
        };
        // Queue maxima hold for reservations too (they count as used).
        if !self.fits_queue_maxima(self.apps[app].queue, ctx, capability) {
            return false;
        }
        let leaf = self.apps[app].queue;
        let yarn_id = self.next_sequence_id(app);
        let id = self.containers.insert(RmContainer {
            yarn_id,
            app,
            node: ctx.node,
            resource: capability,
            key,
            state: ContainerState::Reserved,
            execution_type: ExecutionType::Guaranteed,
            node_type,
            is_am: false,
            created_ms: now_ms,
            acquired_ms: MaybeMs::NONE,
            launched_ms: MaybeMs::NONE,
            satisfied: Default::default(),
            view_pos: 0,
            version: 0,
            remotely_allocated: false,
            killable: false,
            partition: ctx.partition,
            ignore_exclusivity: ctx.ignore_exclusivity(),
            requested_partition: ctx.request_partition(),
        });
        self.nodes[ctx.node].reserved = Some(id);
        self.add_app_used(app, ctx.partition, capability);
        self.add_queue_reserved(leaf, ctx.partition, capability, 1);
        let t = self.apps[app].attempt.as_mut().expect("attempt");
        t.reserved += capability;
        t.reservations.push(id);
        t.counters_mut(key).re_reservations = 0;
        true
    }

    /// Drops a reservation ("Container reservation no longer required.").
    pub(crate) fn unreserve(&mut self, now_ms: i64, reservation: ContainerId) {
        self.complete_container(
            now_ms,
            reservation,
            exit_status::ABORTED,
            diagnostics::UNRESERVED,
            Completion::Killed,
        );
    }
}
