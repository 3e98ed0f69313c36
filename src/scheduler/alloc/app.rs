//! One application on one node (`RegularContainerAllocator`, spec §4.7, §4.9, §4.10): keys in
//! order, pre-checks, delay scheduling across node, rack and off-switch, and the choice
//! between allocating, reserving and unreserving elsewhere.

use super::{Limits, NodeCtx, Outcome};
use crate::ids::{AppId, ContainerId};
use crate::records::{NodeType, SchedulerKey};
use crate::resource::Resource;
use crate::scheduler::CapacityScheduler;
use crate::state::partition::DEFAULT_PARTITION;
use crate::state::queue::QueueId;

/// The allocator's per-key result (`AllocationState` + what to do).
#[derive(Debug, Clone, Copy, PartialEq)]
enum KeyResult {
    Allocate {
        node_type: NodeType,
        unreserve: Option<ContainerId>,
        /// Lazy preemption: killable containers on the node make the room (killed at commit).
        kill_for_room: bool,
        /// The ask's capability and outstanding count as `try_key` read them: the commit
        /// takes them instead of looking the key up again.
        ask: (Resource, i32),
    },
    Reserve {
        node_type: NodeType,
    },
    PrioritySkipped,
    LocalitySkipped,
    AppSkipped,
    QueueSkipped,
}

impl CapacityScheduler {
    /// Tries `app` on the node; `reserved` = fulfilling that reservation (§4.10).
    pub(crate) fn assign_app(
        &mut self,
        now_ms: i64,
        app: AppId,
        ctx: &NodeCtx,
        limits: &Limits,
        reserved: Option<ContainerId>,
    ) -> Outcome {
        self.apps_tried += 1;
        // A reservation is fulfilled at its own key only (its outcome, whatever it is, is
        // the application's); otherwise the keys in order, one look-up each instead of
        // collecting them: `try_key` changes no request (only the key's counters), so the
        // key after a skipped one is the one the collected list would give. (One call of
        // `try_key` and of `apply_key_result`, so that both are inlined here.)
        let mut next = match reserved {
            Some(rc) => Some(self.containers[rc].key),
            None => match self.apps[app].attempt.as_ref() {
                Some(t) if !t.requests.pending_total().is_zero() => t.requests.first_key(),
                _ => return Outcome::AppSkipped,
            },
        };
        let user_checked_at = if reserved.is_some() {
            None
        } else {
            limits.user_checked_at
        };
        while let Some(key) = next {
            let result = self.try_key(app, key, ctx, limits, reserved);
            if result == KeyResult::PrioritySkipped && reserved.is_none() {
                next = self.apps[app]
                    .attempt
                    .as_ref()
                    .and_then(|t| t.requests.key_after(&key));
                continue;
            }
            return self.apply_key_result(now_ms, app, key, ctx, result, reserved, user_checked_at);
        }
        // Every key skipped: the application is skipped (SkippedType.OTHER), not the leaf.
        Outcome::AppSkipped
    }

    /// `user_checked_at`: as `Limits::user_checked_at`, for the commit's re-check.
    // Always inlined into its one caller (as `try_key`): a call's frame less per allocation.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn apply_key_result(
        &mut self,
        now_ms: i64,
        app: AppId,
        key: SchedulerKey,
        ctx: &NodeCtx,
        result: KeyResult,
        reserved: Option<ContainerId>,
        user_checked_at: Option<u64>,
    ) -> Outcome {
        match result {
            KeyResult::Allocate {
                node_type,
                unreserve,
                kill_for_room,
                ask,
            } => {
                // (Kills complete other containers, which may give asks back: the commit then
                // reads the key afresh.)
                let ask = if kill_for_room {
                    if !self.make_room_by_killing(now_ms, app, key, ctx) {
                        return Outcome::Null;
                    }
                    None
                } else {
                    Some(ask)
                };
                match self.commit_allocation(
                    now_ms,
                    app,
                    key,
                    ask,
                    ctx,
                    node_type,
                    user_checked_at,
                    unreserve,
                    reserved,
                ) {
                    Some(_) => Outcome::Allocated { node_type },
                    None => Outcome::Null,
                }
            }
            KeyResult::Reserve { node_type } => {
                if self.commit_reservation(now_ms, app, key, ctx, node_type, reserved) {
                    Outcome::Reserved
                } else {
                    Outcome::Null
                }
            }
            KeyResult::AppSkipped => Outcome::AppSkipped,
            // The leaf reports its queue headroom upward.
            KeyResult::QueueSkipped => Outcome::QueueLimit {
                headroom: Resource::ZERO,
            },
            KeyResult::PrioritySkipped => Outcome::AppSkipped,
            KeyResult::LocalitySkipped => Outcome::Null,
        }
    }

    /// Lazy preemption at commit: kills the killable containers that make room for the key's
    /// ask on the node, if they do and the queues accept the container after the kills;
    /// whether it did. (Out of line: rare, and the allocation path's code is large enough.)
    #[cold]
    #[inline(never)]
    fn make_room_by_killing(
        &mut self,
        now_ms: i64,
        app: AppId,
        key: SchedulerKey,
        ctx: &NodeCtx,
    ) -> bool {
        let capability = self.capability_of(app, key);
        match self.room_by_killing(ctx.node, capability) {
            Some(victims) if self.accepts_after_kills(app, capability, &victims) => {
                self.kill_for_room(now_ms, victims);
                true
            }
            _ => false,
        }
    }

    /// `shouldAllocOrReserveNewContainer` (spec §4.9); `required_containers` is the key's
    /// outstanding count, which the caller has just read from the request table.
    fn should_alloc_or_reserve_new(
        &self,
        app: AppId,
        key: &SchedulerKey,
        required: &Resource,
        required_containers: i32,
    ) -> bool {
        let a = &self.apps[app];
        let Some(t) = a.attempt.as_ref() else {
            return false;
        };
        let reserved_containers = t
            .reservations
            .iter()
            .filter(|r| self.containers[**r].key == *key)
            .count() as i32;
        let mut starvation = 0;
        if reserved_containers > 0 {
            let re_reservations = t.counters(key).re_reservations;
            let s = self.tree.settings();
            let max_alloc = self.tree.conf(a.queue).maximum_allocation;
            let node_factor = s.resource_calculator.ratio(required, &max_alloc);
            let factor = 1.0 - node_factor.min(self.tree.minimum_allocation_factor(a.queue));
            starvation = ((re_reservations as f32 / reserved_containers as f32) * factor) as i32;
        }
        starvation + required_containers - reserved_containers > 0
    }

    /// One key on one node: pre-checks, delay scheduling, placement.
    #[inline(always)]
    fn try_key(
        &mut self,
        app: AppId,
        key: SchedulerKey,
        ctx: &NodeCtx,
        limits: &Limits,
        reserved: Option<ContainerId>,
    ) -> KeyResult {
        let s = self.tree.settings();
        let rc = s.resource_calculator;
        let continue_looking = s.reservations_continue_look_all_nodes;
        let node_locality_delay = s.node_locality_delay;
        let rack_additional_delay = s.rack_locality_additional_delay;
        let num_nodes = self.nodes.len() as i64;
        let a = &self.apps[app];
        let t = a.attempt.as_ref().expect("an active attempt");
        let Some(k) = t.requests.get(&key) else {
            return KeyResult::PrioritySkipped;
        };
        let outstanding = k.outstanding();
        let capability = k.capability();
        let key_partition = k.partition;
        // Everything else the key's entries tell, read in this one look-up: nothing below
        // changes the request table (only the key's counters).
        let unique_locations = k.unique_locations();
        // With no reservation held, `shouldAllocOrReserveNewContainer` is "something is
        // outstanding" (no starvation, no reserved containers): answered here, not by a look-up.
        let holds_reservations = !t.reservations.is_empty();
        // 6. (below) Blacklisted node or rack: read here too, with the attempt at hand.
        let blacklisted = t.blacklist.contains(&ctx.host) || t.blacklist.contains(&ctx.rack);
        let leaf = a.queue;
        // (Only the fields read below: an entry copied whole is 48 bytes.)
        let host_count = k.location(ctx.host).map(|r| r.count).unwrap_or(0);
        let rack_req = k.location(ctx.rack).map(|r| (r.count, r.relax_locality));
        let any_req = k.any.map(|r| (r.count, r.relax_locality));
        if reserved.is_none() {
            // 1. Nothing outstanding at this key.
            if outstanding <= 0 {
                return KeyResult::PrioritySkipped;
            }
            // 2. An AM container is never placed by lending a partition's room.
            if ctx.ignore && t.am_pending && !t.unmanaged_am {
                return KeyResult::AppSkipped;
            }
            // 3. precheckNode: the key must ask for the partition this pass serves.
            if key_partition != ctx.request_partition() {
                return KeyResult::PrioritySkipped;
            }
            // 4. Without continue-looking, no new container beyond what reservations cover.
            if !continue_looking
                && holds_reservations
                && !self.should_alloc_or_reserve_new(app, &key, &capability, outstanding)
            {
                return KeyResult::PrioritySkipped;
            }
            // 5. The ask must fit in the queue's headroom (plus what we could unreserve).
            let could_unreserve = if continue_looking {
                t.reserved
            } else {
                Resource::ZERO
            };
            if !rc.fits_in(&capability, &(limits.headroom + could_unreserve)) {
                return KeyResult::QueueSkipped;
            }
            // 5b. A default-partition ask counts the chances it had; it may take a lent
            //     partition's room only after missing as many as the cluster has nodes, so
            //     unlabelled nodes go first. (Counted only while some label lends its room:
            //     nothing else reads the count; docs/SEMANTICS.md.)
            if key_partition == DEFAULT_PARTITION && self.labels.has_non_exclusive() {
                let missed = self.count_chance(app, key, |c| &mut c.missed_non_partitioned);
                if ctx.ignore && missed < num_nodes {
                    return KeyResult::AppSkipped;
                }
            }
        }
        // 6. Blacklisted node or rack (checked for reservations too).
        if blacklisted {
            return KeyResult::AppSkipped;
        }
        // The visit counts as a scheduling opportunity for this key.
        let missed = self.count_chance(app, key, |c| &mut c.missed_opportunities);
        let rack_count = rack_req.map(|(count, _)| count).unwrap_or(0);

        let mut result = KeyResult::PrioritySkipped;
        // Node-local: a host entry here (and the rack still needs containers).
        if host_count > 0 {
            if rack_count > 0 {
                result = self.place(
                    app,
                    key,
                    (capability, outstanding, holds_reservations, leaf),
                    ctx,
                    limits,
                    NodeType::NodeLocal,
                    reserved,
                );
                if matches!(
                    result,
                    KeyResult::Allocate { .. } | KeyResult::Reserve { .. }
                ) {
                    return result;
                }
            }
            result = KeyResult::LocalitySkipped;
        }
        // Rack-local: delayed by node-locality-delay missed opportunities.
        if rack_count > 0 {
            if !rack_req.is_some_and(|(_, relax_locality)| relax_locality) {
                return self.undo_opportunity(app, key, reserved, KeyResult::PrioritySkipped);
            }
            if node_locality_delay.min(num_nodes as i32) as i64 >= missed {
                result = KeyResult::LocalitySkipped;
            } else {
                result = self.place(
                    app,
                    key,
                    (capability, outstanding, holds_reservations, leaf),
                    ctx,
                    limits,
                    NodeType::RackLocal,
                    reserved,
                );
                if matches!(
                    result,
                    KeyResult::Allocate { .. } | KeyResult::Reserve { .. }
                ) {
                    return result;
                }
            }
        }
        // Off-switch.
        if let Some((any_count, any_relax_locality)) = any_req.filter(|&(count, _)| count > 0) {
            if !any_relax_locality {
                return self.undo_opportunity(app, key, reserved, KeyResult::PrioritySkipped);
            }
            let allowed = reserved.is_some()
                || (num_nodes > 0
                    && (unique_locations == 1
                        || if rack_additional_delay > -1 {
                            missed
                                > num_nodes
                                    .min(node_locality_delay as i64 + rack_additional_delay as i64)
                        } else {
                            let lwf = ((unique_locations as f32 - 1.0) / num_nodes as f32).min(1.0);
                            (num_nodes as f32).min(any_count as f32 * lwf) < missed as f32
                        }));
            let placed = if allowed {
                self.place(
                    app,
                    key,
                    (capability, outstanding, holds_reservations, leaf),
                    ctx,
                    limits,
                    NodeType::OffSwitch,
                    reserved,
                )
            } else {
                KeyResult::LocalitySkipped
            };
            // In the off-switch branch a locality skip skips the whole application.
            return if matches!(placed, KeyResult::LocalitySkipped) {
                KeyResult::AppSkipped
            } else {
                placed
            };
        }
        if result == KeyResult::PrioritySkipped {
            return self.undo_opportunity(app, key, reserved, result);
        }
        result
    }

    /// A key that ended PRIORITY_SKIPPED gives back its opportunity (never for a reservation).
    /// One more chance for `key` in the counter `which` picks; the new count.
    fn count_chance(
        &mut self,
        app: AppId,
        key: SchedulerKey,
        which: impl FnOnce(&mut crate::state::request::KeyCounters) -> &mut u32,
    ) -> i64 {
        let t = self.apps[app].attempt.as_mut().expect("attempt");
        let n = which(t.counters_mut(key));
        *n += 1;
        *n as i64
    }

    fn undo_opportunity(
        &mut self,
        app: AppId,
        key: SchedulerKey,
        reserved: Option<ContainerId>,
        r: KeyResult,
    ) -> KeyResult {
        if reserved.is_none() {
            if let Some(t) = self.apps[app].attempt.as_mut() {
                let c = t.counters_mut(key);
                c.missed_opportunities = c.missed_opportunities.saturating_sub(1);
            }
        }
        r
    }

    /// `assignContainer` (spec §4.7 "Placing the container"); the ask's capability and
    /// outstanding count as `try_key` read them, whether the attempt holds reservations, and
    /// its leaf.
    #[allow(clippy::too_many_arguments)]
    fn place(
        &self,
        app: AppId,
        key: SchedulerKey,
        (capability, outstanding, holds_reservations, leaf): (Resource, i32, bool, QueueId),
        ctx: &NodeCtx,
        limits: &Limits,
        node_type: NodeType,
        reserved: Option<ContainerId>,
    ) -> KeyResult {
        let s = self.tree.settings();
        let rc = s.resource_calculator;
        let cluster = self.tree.cluster_resource();
        if !rc.fits_in(&capability, &ctx.total) {
            return KeyResult::LocalitySkipped;
        }
        // Asked only where the answer matters (it reads nothing it could change).
        let should_new = || {
            if holds_reservations {
                self.should_alloc_or_reserve_new(app, &key, &capability, outstanding)
            } else {
                outstanding > 0
            }
        };
        // Room preemption freed for queues below their guarantee is not this queue's
        // (capsched's protection; nothing held when it is off or the queue is below its own).
        let held =
            self.held_from(ctx.node, leaf) + self.opportunistic_room_spared(ctx, &capability);
        // (Only compared with 0 below: a count known to be at least 1 is not divided out.)
        let available =
            rc.available_containers_or_one(&(ctx.unallocated - held).non_negative(), &capability);
        // Lazy preemption: a queue below its guarantee may count killable containers' room.
        let kill_for_room = available == 0
            && s.lazy_preemption_enabled
            && !ctx.killable.is_zero()
            && self.below_guarantee(leaf)
            && rc.fits_in(&capability, &(ctx.unallocated + ctx.killable));
        let available = if kill_for_room { 1 } else { available };
        let mut need_unreserve = rc.max(
            &cluster,
            &(capability - limits.headroom),
            &limits.amount_needed_unreserve,
        );
        let need_to_unreserve = rc.is_any_major_resource_above_zero(&need_unreserve);
        let continue_looking = s.reservations_continue_look_all_nodes;
        if available > 0 {
            let mut unreserve = None;
            if reserved.is_none() && continue_looking && (need_to_unreserve || !should_new()) {
                if !need_to_unreserve {
                    need_unreserve = capability;
                }
                unreserve = self.find_reservation_to_release(app, &key, ctx, &need_unreserve);
                if unreserve.is_none() {
                    return KeyResult::LocalitySkipped;
                }
            }
            return KeyResult::Allocate {
                node_type,
                unreserve,
                kill_for_room,
                ask: (capability, outstanding),
            };
        }
        // Nor does it reserve a node where such room is held.
        if !held.is_zero() {
            return KeyResult::LocalitySkipped;
        }
        if reserved.is_some() || should_new() {
            if continue_looking && reserved.is_none() && need_to_unreserve {
                return KeyResult::LocalitySkipped;
            }
            return KeyResult::Reserve { node_type };
        }
        KeyResult::LocalitySkipped
    }

    /// The capability `app` asks at `key` (zero if the key is gone).
    fn capability_of(&self, app: AppId, key: SchedulerKey) -> Resource {
        self.apps[app]
            .attempt
            .as_ref()
            .and_then(|t| t.requests.get(&key))
            .map(|k| k.capability())
            .unwrap_or(Resource::ZERO)
    }

    /// `findNodeToUnreserve`: a reservation of this key on another node, at least `need`.
    fn find_reservation_to_release(
        &self,
        app: AppId,
        key: &SchedulerKey,
        ctx: &NodeCtx,
        need: &Resource,
    ) -> Option<ContainerId> {
        let rc = self.tree.settings().resource_calculator;
        let t = self.apps[app].attempt.as_ref()?;
        t.reservations.iter().copied().find(|r| {
            let c = &self.containers[*r];
            c.key == *key && c.node != ctx.node && rc.fits_in(need, &c.resource)
        })
    }
}
