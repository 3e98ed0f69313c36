//! Commit (`tryCommit` → `accept`, then `apply`; spec §4.11): every proposal is re-checked
//! against the current state before anything changes, then applied in one step.

use super::NodeCtx;
use crate::ids::{AppId, ContainerId};
use crate::resource::Resource;
use crate::scheduler::containers::Completion;
use crate::scheduler::preempt_view::view_add;
use crate::scheduler::types::{
    diagnostics, exit_status, ContainerState, ExecutionType, NodeType, SchedulerKey,
};
use crate::scheduler::CapacityScheduler;
use crate::state::container::RmContainer;

impl CapacityScheduler {
    /// `accept`: the node has room, and — unless fulfilling a reservation — every queue up to
    /// root stays within its maximum and the user was within its limit before this container.
    fn accept(
        &self,
        app: AppId,
        node: crate::ids::NodeId,
        capability: Resource,
        released: Resource,
        from_reservation: bool,
    ) -> bool {
        let s = self.tree.settings();
        let rc = s.resource_calculator;
        let node = &self.nodes[node];
        if !rc.fits_in(&capability, &(node.unallocated() + released)) {
            return false;
        }
        if from_reservation {
            return true;
        }
        self.fits_queue_maxima(self.apps[app].queue, capability - released)
            && self.user_within_limit(app, released)
    }

    /// The user-limit half of `accept`: `app`'s user, less `released` of its own, is not over
    /// its limit (YARN checks the user before this container, so one may take it over).
    pub(crate) fn user_within_limit(&self, app: AppId, released: Resource) -> bool {
        let a = &self.apps[app];
        let user_used = self
            .leaf(a.queue)
            .and_then(|l| l.users.get(&a.user))
            .map(|u| u.used)
            .unwrap_or(Resource::ZERO);
        !self.tree.settings().resource_calculator.greater_than(
            &self.tree.cluster_resource(),
            &(user_used - released),
            &self.user_limit(a.queue, &a.user).unwrap_or_default(),
        )
    }

    /// Whether `delta` more may be charged to `app` on `node` now (a promotion or increase):
    /// the same checks as a new allocation's.
    pub(crate) fn accept_charge(
        &self,
        app: AppId,
        node: crate::ids::NodeId,
        delta: Resource,
    ) -> bool {
        self.accept(app, node, delta, Resource::ZERO, false)
    }

    /// `AbstractCSQueue.accept` up the tree: `used + delta` fits in every queue's maximum.
    fn fits_queue_maxima(&self, leaf: crate::state::queue::QueueId, delta: Resource) -> bool {
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

    /// Applies an allocation; returns the container, or `None` if `accept` refused it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn commit_allocation(
        &mut self,
        now_ms: i64,
        app: AppId,
        key: SchedulerKey,
        ctx: &NodeCtx,
        node_type: NodeType,
        unreserve: Option<ContainerId>,
        from_reservation: Option<ContainerId>,
    ) -> Option<ContainerId> {
        let leaf = self.apps[app].queue;
        let capability = self.apps[app]
            .attempt
            .as_ref()?
            .requests
            .get(&key)?
            .capability();
        let released = unreserve
            .and_then(|r| self.containers.get(r))
            .map(|c| c.resource)
            .unwrap_or(Resource::ZERO);
        if !self.accept(
            app,
            ctx.node,
            capability,
            released,
            from_reservation.is_some(),
        ) {
            return None;
        }
        if let Some(r) = unreserve {
            self.unreserve(now_ms, r);
        }
        // What was free before it, for the freed-space accounting.
        let unallocated = self.nodes[ctx.node].unallocated();
        let is_am = {
            let t = self.apps[app].attempt.as_ref().expect("attempt");
            key == Self::AM_KEY && t.am_pending && !t.unmanaged_am
        };
        let id = match from_reservation {
            Some(rid) => {
                // Same container id; the reservation's charge becomes an allocation's.
                let old = self.containers[rid].resource;
                self.add_queue_reserved(leaf, -old);
                self.add_app_used(app, capability - old);
                let t = self.apps[app].attempt.as_mut().expect("attempt");
                t.reserved -= old;
                t.reservations.retain(|r| *r != rid);
                t.counters_mut(key).re_reservations = 0;
                let c = &mut self.containers[rid];
                c.state = ContainerState::Allocated;
                c.resource = capability;
                c.node_type = node_type;
                c.created_ms = now_ms;
                c.is_am = is_am;
                self.nodes[ctx.node].reserved = None;
                rid
            }
            None => {
                let yarn_id = self.next_sequence_id(app);
                self.add_app_used(app, capability);
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
                    acquired_ms: None,
                    launched_ms: None,
                    satisfied: Default::default(),
                    view_pos: 0,
                    version: 0,
                    remotely_allocated: false,
                    killable: false,
                })
            }
        };
        let node = &mut self.nodes[ctx.node];
        node.allocated += capability;
        node.containers.insert(id);
        let full_reset = self.tree.settings().rack_locality_full_reset;
        let t = self.apps[app].attempt.as_mut().expect("attempt");
        t.used += capability;
        t.live_containers.insert(id);
        view_add(t, id, &mut self.containers[id]);
        t.newly_allocated.push(id);
        if is_am {
            t.am_container = Some(id);
            t.am_pending = false;
        }
        // Delay scheduling restarts after a local allocation (not after fulfilling a reservation).
        if from_reservation.is_none() {
            match node_type {
                NodeType::NodeLocal => t.counters_mut(key).missed_opportunities = 0,
                NodeType::RackLocal if full_reset => t.counters_mut(key).missed_opportunities = 0,
                _ => {}
            }
        }
        let (delta, satisfied) = t.requests.allocate(&key, node_type, ctx.host, ctx.rack);
        self.containers[id].satisfied = satisfied;
        self.apply_pending_delta(app, delta);
        // A reservation fulfilled from freed room takes it as surely as a new container.
        self.consume_freed(ctx.node, leaf, capability, unallocated);
        self.allocated_now.push(id);
        if is_am {
            self.notice(
                crate::scheduler::notices::SchedulerNotice::AmContainerAllocated {
                    app,
                    container: id,
                },
            );
        }
        Some(id)
    }

    /// Reserves the node for `app`'s key, or counts a re-reservation (spec §4.9).
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
        if !self.fits_queue_maxima(self.apps[app].queue, capability) {
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
            acquired_ms: None,
            launched_ms: None,
            satisfied: Default::default(),
            view_pos: 0,
            version: 0,
            remotely_allocated: false,
            killable: false,
        });
        self.nodes[ctx.node].reserved = Some(id);
        self.add_app_used(app, capability);
        self.add_queue_reserved(leaf, capability);
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
