//! **The allocation pass** (`scheduler::alloc`): what happens when a node offers room — this
//! file's per-node pass and the asynchronous pass over every node, `app` (one application on
//! one node: keys in order, delay scheduling, reserve or allocate), `commit` (accept, re-check,
//! apply), `ordering` with `child_order` (a parent's children in policy order, kept between
//! assignments) and `context` (what one pass hands down: the node's context, the limits, the
//! outcome). Methods over `CapacityScheduler`; it may use the scheduler's state and `state`,
//! `records`, `config`, `resource`, `ids` — never the runtime.
//!
//! One node's allocation (spec §4): fulfil the node's reservation, else descend from root —
//! children in ordering-policy order, queue limits, the leaf's applications in order with
//! user limits — and repeat while YARN's per-heartbeat limits allow.

mod app;
mod child_order;
mod commit;
mod context;
mod ordering;

pub(crate) use child_order::ChildOrder;
pub(crate) use context::{Limits, NodeCtx, Outcome};

use smallvec::SmallVec;

use crate::ids::{AppId, ContainerId, NodeId};
use crate::records::NodeType;
use crate::resource::Resource;
use crate::scheduler::CapacityScheduler;
use crate::state::partition::{Partition, DEFAULT_PARTITION};
use crate::state::queue::QueueId;
use crate::state::users::{QueueLimitInputs, UserCheck};

impl CapacityScheduler {
    fn node_ctx(&self, node: NodeId) -> NodeCtx {
        let n = &self.nodes[node];
        NodeCtx {
            node,
            host: n.host_name,
            rack: n.rack_name,
            total: n.total,
            unallocated: n.unallocated(),
            killable: n.killable_resource(),
            partition: n.partition,
            ignore: false,
        }
    }

    /// What a queue may count as free on the node: with lazy preemption the killable room too
    /// (for a queue below its guarantee; YARN's `canAssign` adds it for everyone).
    fn assignable(&self, ctx: &NodeCtx) -> Resource {
        if self.tree.settings().lazy_preemption_enabled {
            ctx.unallocated + ctx.killable
        } else {
            ctx.unallocated
        }
    }

    /// `allocateContainersToNode` (spec §4.1). `multiple` = the heartbeat's repeat loop (the
    /// asynchronous loop makes one attempt per visit). Returns containers allocated.
    pub fn allocate_containers_to_node(
        &mut self,
        now_ms: i64,
        node: NodeId,
        multiple: bool,
    ) -> u32 {
        // A decommissioning node takes nothing new (its total shrinks to what it runs, and a
        // reservation there could never be fulfilled).
        if self.nodes.get(node).is_none_or(|n| n.is_decommissioning()) {
            return 0;
        }
        self.expire_freed(node, now_ms);
        // Promotions and increases waiting for this node go first: they rank ahead of new
        // requests (spec O8).
        let mut assigned = if self.opportunistic.pending_increases.is_empty() {
            0
        } else {
            self.pending_increases_first(node)
        };
        if let Some(reserved) = self.nodes[node].reserved {
            // The reservation is served first. If the node is still reserved afterwards nothing
            // else happens; if it was fulfilled or released, scheduling goes on (Hadoop's
            // allocateContainerOnSingleNode re-checks the node; docs/SEMANTICS.md).
            assigned += u32::from(self.allocate_from_reserved(now_ms, node, reserved));
            if self.nodes[node].reserved.is_some() || !multiple {
                return assigned;
            }
        }
        let s = self.tree.settings();
        let (rc, min) = (s.resource_calculator, s.minimum_allocation);
        let multiple = multiple && s.multiple_assignments_enabled;
        let max_offswitch = s.maximum_offswitch_assignments;
        let max_assignments = s.maximum_container_assignments;
        let mut offswitch = 0i32;
        loop {
            let ctx = self.node_ctx(node);
            if self.nodes[node].reserved.is_some() || !rc.has_room_for(&self.assignable(&ctx), &min)
            {
                break;
            }
            // allocateOrReserveNewContainers: the node's own partition first; if nothing was
            // assigned (a reservation counts) on a non-exclusive labelled node, its room is
            // lent to default-partition asks.
            let partition_resource = self.partition_resource(ctx.partition);
            let mut limits = Limits {
                limit: partition_resource,
                headroom: partition_resource,
                amount_needed_unreserve: Resource::ZERO,
                user_checked_at: None,
            };
            let mut outcome = self.assign_from_root(now_ms, &ctx, &mut limits);
            if !outcome.assigned()
                && ctx.partition != DEFAULT_PARTITION
                && !self.labels.is_exclusive(ctx.partition)
            {
                let ctx = NodeCtx {
                    ignore: true,
                    ..self.node_ctx(node)
                };
                let default = self.tree.default_partition_resource();
                let mut limits = Limits {
                    limit: default,
                    headroom: default,
                    amount_needed_unreserve: Resource::ZERO,
                    user_checked_at: None,
                };
                outcome = self.assign_to_queue(now_ms, 0, &ctx, &mut limits);
            }
            match outcome {
                Outcome::Allocated { node_type } => {
                    assigned += 1;
                    if node_type == NodeType::OffSwitch {
                        offswitch += 1;
                    }
                }
                _ => break,
            }
            if !multiple
                || offswitch >= max_offswitch
                || (max_assignments != -1 && assigned as i32 >= max_assignments)
            {
                break;
            }
        }
        assigned
    }

    /// What a visit's outcome depends on before it tries an application, besides the limit
    /// handed down and the node's room for a minimum allocation.
    fn found_nothing_key(&self, limit: Resource) -> crate::state::leaf::NothingFound {
        crate::state::leaf::NothingFound {
            usage_epoch: self.usage_epoch,
            generation: self.tree.generation(),
            demand_version: self.demand_version,
            limit,
        }
    }

    /// The descent from root. On a default-partition node with room for a minimum
    /// allocation, a descent whose inputs are those of one that tried no application ends as
    /// it did, with nothing and nothing to record (checked by doing it in debug builds): an
    /// idle heartbeat on a busy cluster costs a comparison, not a walk over every application.
    fn assign_from_root(&mut self, now_ms: i64, ctx: &NodeCtx, limits: &mut Limits) -> Outcome {
        let s = self.tree.settings();
        let memo = ctx.partition == DEFAULT_PARTITION
            && !ctx.ignore
            && s.resource_calculator
                .fits_in(&s.minimum_allocation, &self.assignable(ctx));
        if !memo {
            return self.assign_to_queue(now_ms, 0, ctx, limits);
        }
        let key = self.found_nothing_key(limits.limit);
        if self.root_found_nothing == Some(key) {
            if cfg!(debug_assertions) {
                let tried = self.apps_tried;
                let out = self.assign_to_queue(now_ms, 0, ctx, limits);
                debug_assert!(
                    out == Outcome::Null && tried == self.apps_tried,
                    "a descent found nothing at these inputs, now: {out:?}"
                );
            }
            return Outcome::Null;
        }
        let tried = self.apps_tried;
        let out = self.assign_to_queue(now_ms, 0, ctx, limits);
        self.root_found_nothing = (out == Outcome::Null && tried == self.apps_tried).then_some(key);
        out
    }

    fn assign_to_queue(
        &mut self,
        now_ms: i64,
        q: QueueId,
        ctx: &NodeCtx,
        limits: &mut Limits,
    ) -> Outcome {
        if self.tree.is_leaf(q) {
            self.assign_leaf(now_ms, q, ctx, limits)
        } else {
            self.assign_parent(now_ms, q, ctx, limits)
        }
    }

    /// Whether the queue has asks worth a visit (`hasPendingResourceRequest`): asks for the
    /// partition this pass serves.
    #[inline]
    fn has_pending(&self, q: QueueId, ctx: &NodeCtx) -> bool {
        let rc = self.tree.settings().resource_calculator;
        let p = ctx.request_partition();
        let pending = if p == DEFAULT_PARTITION {
            self.queue_pending[q]
        } else {
            self.queue_labelled_pending[q].get(p)
        };
        rc.is_any_major_resource_above_zero(&pending)
    }

    /// `accessibleToPartition`, checked only when exclusivity is respected.
    fn refuses_partition(&self, q: QueueId, ctx: &NodeCtx) -> bool {
        !ctx.ignore
            && ctx.partition != DEFAULT_PARTITION
            && !self
                .tree
                .conf(q)
                .labels
                .accessible
                .can_access(self.labels.name(ctx.partition))
    }

    /// `canAssignToThisQueue` (spec §4.4): sets the headroom; denies when the queue is at its
    /// current limit, unless releasing `could_unreserve` would bring it under (continue-looking).
    // Inlined for a default-partition visit (every visit of an unlabelled cluster, twice per
    // allocated container): a few comparisons, where the call with the labelled cases in it
    // saved and restored a large frame. The labelled cases stay out of line. (`#[inline]`
    // alone left it a call.)
    #[inline(always)]
    pub(crate) fn can_assign_to_queue(
        &self,
        q: QueueId,
        ctx: &NodeCtx,
        limits: &mut Limits,
        could_unreserve: Resource,
    ) -> bool {
        if ctx.ignore || ctx.partition != DEFAULT_PARTITION {
            return self.can_assign_to_queue_in(q, ctx, limits, could_unreserve);
        }
        let s = self.tree.settings();
        let rc = s.resource_calculator;
        let cluster = self.tree.cluster_resource();
        let queue = self.tree.queue(q);
        // getCurrentLimitResource: the queue's maximum within its parent's limit.
        let current_limit = rc.min(&cluster, &queue.capacities.effective_max, &limits.limit);
        // A parent counts its killable containers (lazy preemption) as room it can give; a
        // leaf cannot preempt itself.
        let used = if s.lazy_preemption_enabled && !self.tree.is_leaf(q) {
            queue.used - self.queue_killable[q]
        } else {
            queue.used
        };
        limits.headroom = current_limit - used;
        if rc.greater_than_or_equal(&cluster, &used, &current_limit) {
            return self.under_by_unreserving(used, current_limit, could_unreserve);
        }
        true
    }

    /// A queue at its current limit may still be assigned to when continue-looking is on and
    /// releasing `could_unreserve` would bring its usage under the limit.
    #[cold]
    #[inline(never)]
    fn under_by_unreserving(
        &self,
        used: Resource,
        current_limit: Resource,
        could_unreserve: Resource,
    ) -> bool {
        let s = self.tree.settings();
        let rc = s.resource_calculator;
        let cluster = self.tree.cluster_resource();
        s.reservations_continue_look_all_nodes
            && rc.greater_than(&cluster, &could_unreserve, &Resource::ZERO)
            && rc.less_than(&cluster, &(used - could_unreserve), &current_limit)
    }

    /// `can_assign_to_queue` on a labelled node, or when exclusivity is ignored.
    #[inline(never)]
    fn can_assign_to_queue_in(
        &self,
        q: QueueId,
        ctx: &NodeCtx,
        limits: &mut Limits,
        could_unreserve: Resource,
    ) -> bool {
        let s = self.tree.settings();
        let rc = s.resource_calculator;
        let cluster = self.tree.cluster_resource();
        let p = ctx.partition;
        // getCurrentLimitResource: the queue's maximum there within its parent's limit; when
        // exclusivity is ignored, the whole partition.
        let current_limit = if ctx.ignore {
            self.partition_resource(p)
        } else {
            rc.min(&cluster, &self.effective_max_in(q, p), &limits.limit)
        };
        // A parent counts its killable containers (lazy preemption) as room it can give; a
        // leaf cannot preempt itself. (Killable room is tracked in the default partition.)
        let used = if s.lazy_preemption_enabled && !self.tree.is_leaf(q) && p == DEFAULT_PARTITION {
            self.tree.queue(q).used - self.queue_killable[q]
        } else {
            self.queue_used_in(q, p)
        };
        limits.headroom = current_limit - used;
        if rc.greater_than_or_equal(&cluster, &used, &current_limit) {
            return self.under_by_unreserving(used, current_limit, could_unreserve);
        }
        true
    }

    /// `ParentQueue.assignContainers` (spec §4.2).
    fn assign_parent(
        &mut self,
        now_ms: i64,
        q: QueueId,
        ctx: &NodeCtx,
        limits: &mut Limits,
    ) -> Outcome {
        let s = self.tree.settings();
        let (rc, min, lazy) = (
            s.resource_calculator,
            s.minimum_allocation,
            s.lazy_preemption_enabled,
        );
        if self.refuses_partition(q, ctx)
            || !self.has_pending(q, ctx)
            || !rc.fits_in(&min, &self.assignable(ctx))
        {
            return Outcome::Null;
        }
        let p = ctx.partition;
        let could_unreserve = crate::state::partition::get_in(
            self.queue_reserved[q],
            &self.queue_labelled_reserved[q],
            p,
        );
        if !self.can_assign_to_queue(q, ctx, limits, could_unreserve) {
            return Outcome::Null;
        }
        let cluster = self.tree.cluster_resource();
        let parent_max = self.effective_max_in(q, p);
        // Lazy preemption: killable containers' room counts as the parent's to give
        // (getResourceLimitsOfChild deducts killable from used).
        let parent_used = if lazy && p == DEFAULT_PARTITION {
            self.tree.queue(q).used - self.queue_killable[q]
        } else {
            self.queue_used_in(q, p)
        };
        let mut blocked = Resource::ZERO;
        // The default partition's order is read in place: a descent below changes only its
        // own parents' orders, never this one.
        // (Not an `Option` of the order: with `None`, its inline array stays uninitialised,
        // and the optimised loop read the length from it before testing the variant — a
        // conditional jump on uninitialised bytes under memcheck, issue 36.22. An empty
        // order is initialised throughout.)
        let labelled = p != DEFAULT_PARTITION;
        let labelled_order = if labelled {
            self.sorted_children(q, p)
        } else {
            self.child_order(q);
            Default::default()
        };
        for i in 0..self.tree.children(q).len() {
            let child = if labelled {
                labelled_order[i]
            } else {
                self.child_orders[q].child(i)
            };
            // getResourceLimitsOfChild: min(parent limit − blocked, parent max) − parent used + child used.
            // min(parent limit, parent max), then minus what blocked siblings hold back.
            let l = rc.min(&cluster, &limits.limit, &parent_max) - blocked;
            let child_limit =
                rc.round_down(&(l - parent_used + self.queue_used_in(child, p)), &min);
            let mut child_limits = Limits {
                limit: child_limit,
                headroom: child_limit,
                amount_needed_unreserve: Resource::ZERO,
                user_checked_at: None,
            };
            // A leaf child is visited directly: through `assign_to_queue` it took a second
            // frame of the parent's visit (inlined there) for one test.
            let out = if self.tree.is_leaf(child) {
                self.assign_leaf(now_ms, child, ctx, &mut child_limits)
            } else {
                self.assign_to_queue(now_ms, child, ctx, &mut child_limits)
            };
            match out {
                out if out.assigned() => return out,
                Outcome::QueueLimit { headroom } => {
                    blocked += rc.max(&cluster, &headroom, &Resource::ZERO);
                }
                _ => {}
            }
        }
        if blocked.is_zero() {
            Outcome::Null
        } else {
            Outcome::QueueLimit { headroom: blocked }
        }
    }

    /// `LeafQueue.assignContainers` (spec §4.5).
    fn assign_leaf(
        &mut self,
        now_ms: i64,
        q: QueueId,
        ctx: &NodeCtx,
        limits: &mut Limits,
    ) -> Outcome {
        // updateCurrentResourceLimits: the limit this visit brings becomes the leaf's current
        // limit (min with its maximum), which the AM limit and headroom read. Only a default-
        // partition visit sets it (docs/SEMANTICS.md, "Node labels").
        let default_visit = ctx.partition == DEFAULT_PARTITION;
        if default_visit {
            self.tree.queue_mut(q).limit_from_parent = limits.limit;
        }
        if self.refuses_partition(q, ctx) || !self.has_pending(q, ctx) {
            return Outcome::Null;
        }
        // A visit whose inputs are those of a visit that tried no application ends as that
        // one did: with nothing, and nothing to record (checked by doing it in debug builds).
        let inputs_now = default_visit.then(|| self.found_nothing_key(limits.limit));
        if inputs_now.is_some() && self.leaf(q).expect("a leaf").found_nothing == inputs_now {
            if cfg!(debug_assertions) {
                self.leaf_mut(q).found_nothing = None;
                let tried = self.apps_tried;
                let out = self.assign_leaf(now_ms, q, ctx, limits);
                debug_assert!(
                    out == Outcome::Null && tried == self.apps_tried,
                    "a leaf visit found nothing at these inputs, now: {out:?}"
                );
            }
            return Outcome::Null;
        }
        let s = self.tree.settings();
        let continue_looking = s.reservations_continue_look_all_nodes;
        let cluster = self.tree.cluster_resource();
        let asked = ctx.request_partition();
        // FIFO walks the active list in place; the fair policy sorts a copy.
        let fair_order = self.fair_application_order(q);
        // The usage epoch the visit's user limit is computed at.
        let visit_epoch = self.usage_epoch;
        // (Made in place: as a pair, the inputs were copied out of the branch.)
        let inputs = if default_visit {
            self.limit_inputs(q)
        } else {
            self.labelled_limit_inputs(q, ctx)
        };
        let queue_user_limit = if default_visit {
            self.cached_queue_user_limit(q, &inputs)
        } else {
            self.labelled_queue_user_limit(q, &inputs)
        };
        let mut check_queue = true;
        // Whether an application was tried (its outcome may depend on the node and the time).
        let tried_before = self.apps_tried;
        // A FIFO visit of the default partition starts after the attempts known to ask for
        // nothing there (they would be passed over), and counts any more it passes first.
        let fifo_default = default_visit && !ctx.ignore && fair_order.is_none();
        let mut i = if fifo_default {
            self.asking_nothing_checked(q)
        } else {
            0
        };
        let mut first_scan = fifo_default;
        let user_check = UserCheck {
            inputs: &inputs,
            queue_user_limit,
            cluster,
            continue_looking,
        };
        loop {
            // What the user of the application at `i` may unreserve, when the tight loop has
            // already checked it.
            let mut checked = None;
            if fifo_default && !check_queue {
                (i, checked) = self.pass_over_users_at_their_limit(q, i, &user_check);
            }
            let found = self.next_with_asks(q, fair_order.as_deref(), i, asked);
            if std::mem::take(&mut first_scan) {
                let lr = self.leaf_mut(q);
                lr.asking_nothing = found.map_or(lr.active.len(), |(at, _)| at);
            }
            let Some((at, app)) = found else {
                break;
            };
            debug_assert!(
                checked.is_none() || at == i,
                "the checked application is the next"
            );
            i = at + 1;
            let (slot, reserved) = {
                let a = &self.apps[app];
                let t = a.attempt.as_ref().expect("active apps have an attempt");
                (a.user_slot, t.reserved)
            };
            if check_queue {
                if !self.can_assign_to_queue(q, ctx, limits, reserved) {
                    // (Only if no application was tried before the queue check failed.)
                    if self.apps_tried == tried_before {
                        self.leaf_mut(q).found_nothing = inputs_now;
                    }
                    return Outcome::Null;
                }
                check_queue = continue_looking && !reserved.is_zero();
            }
            let epoch = default_visit.then_some(self.usage_epoch);
            let unreserve = match checked {
                Some(unreserve) => Some(unreserve),
                None => self
                    .leaf_mut(q)
                    .users
                    .check_for_walk(&user_check, slot, reserved, epoch),
            };
            let Some(unreserve) = unreserve else {
                continue;
            };
            limits.amount_needed_unreserve = unreserve;
            limits.user_checked_at = (default_visit && unreserve.is_zero()).then_some(visit_epoch);
            match self.assign_app(now_ms, app, ctx, limits, None) {
                out if out.assigned() => return out,
                Outcome::AppSkipped => continue,
                Outcome::QueueLimit { .. } => {
                    return Outcome::QueueLimit {
                        headroom: limits.headroom,
                    }
                }
                _ => return Outcome::Null,
            }
        }
        if self.apps_tried == tried_before {
            self.leaf_mut(q).found_nothing = inputs_now;
        }
        Outcome::Null
    }

    /// The user-limit inputs of a labelled visit (`limit_inputs_in`). (Out of line, as the
    /// next: the default partition's visit is the allocation path's.)
    #[inline(never)]
    fn labelled_limit_inputs(&self, q: QueueId, ctx: &NodeCtx) -> QueueLimitInputs {
        self.limit_inputs_in(q, ctx.partition, ctx.ignore)
    }

    /// The queue-wide user limit of a labelled visit, computed afresh.
    #[inline(never)]
    fn labelled_queue_user_limit(&self, q: QueueId, inputs: &QueueLimitInputs) -> Resource {
        let users = &self.leaf(q).expect("a leaf").users;
        users.compute_queue_user_limit(inputs)
    }

    /// The walk above, for its most common step, in one tight loop: from place `from` of a
    /// FIFO leaf's active list on a default-partition visit (the queue already checked), passes
    /// over the attempts that ask for nothing and those whose user is over its limit (noted in
    /// the visit's `CachedUserLimit` as the walk notes it), and returns the place of the first
    /// attempt the walk must try, with what it may unreserve. A churning leaf (each heartbeat
    /// frees one container of one user) spends its heartbeats here: most of its users are at
    /// their limit. An attempt holding no reservation whose user is found over its limit is
    /// marked (`WalkMarks`), and while its user's usage and the check's other inputs stay as
    /// they were, later visits pass it over on the mark alone.
    fn pass_over_users_at_their_limit(
        &mut self,
        q: QueueId,
        from: usize,
        user_check: &UserCheck<'_>,
    ) -> (usize, Option<Resource>) {
        let epoch = Some(self.usage_epoch);
        let generation = self.tree.generation();
        let apps = &self.apps;
        let lr = self.leaves[q].as_mut().expect("a leaf queue");
        lr.walk_marks
            .begin(user_check, generation, &mut lr.users, lr.active.len());
        let mut i = from;
        loop {
            let next = lr.walk_marks.next_unmarked(i, lr.active.len());
            if cfg!(debug_assertions) {
                for &(_, _, app) in &lr.active[i..next] {
                    let a = &apps[app];
                    debug_assert!(
                        lr.users.over_limit(user_check, a.user_slot)
                            && a.attempt.as_ref().is_some_and(|t| t.reserved.is_zero()),
                        "a marked application's user is within its limit, or it holds a \
                         reservation"
                    );
                }
            }
            i = next;
            let Some(&(_, _, app)) = lr.active.get(i) else {
                break;
            };
            let a = &apps[app];
            let t = a.attempt.as_ref().expect("active apps have an attempt");
            if !t.requests.pending_in(DEFAULT_PARTITION).is_zero() {
                let checked = lr
                    .users
                    .check_for_walk(user_check, a.user_slot, t.reserved, epoch);
                if checked.is_some() {
                    return (i, checked);
                }
                if t.reserved.is_zero() {
                    lr.walk_marks.mark(i, a.user_slot);
                }
            }
            i += 1;
        }
        (i, None)
    }

    /// The first application of the visit's order (`fair_order`, else the leaf's active
    /// list) at or after place `from` that asks for partition `asked`, with its place. The
    /// leaf's walk passes over the others without looking further (as YARN's loop does);
    /// finding them here, in one tight scan, is what lets a leaf whose first applications
    /// are done (a FIFO queue's usual state) cost little per finished application.
    fn next_with_asks(
        &self,
        q: QueueId,
        fair_order: Option<&[AppId]>,
        from: usize,
        asked: Partition,
    ) -> Option<(usize, AppId)> {
        let asks = |app: AppId| {
            let t = self.apps[app].attempt.as_ref();
            !t.expect("active apps have an attempt")
                .requests
                .pending_in(asked)
                .is_zero()
        };
        match fair_order {
            Some(order) => order
                .get(from..)?
                .iter()
                .position(|&a| asks(a))
                .map(|k| (from + k, order[from + k])),
            None => {
                let active = &self.leaf(q).expect("a leaf").active;
                active
                    .get(from..)?
                    .iter()
                    .position(|e| asks(e.2))
                    .map(|k| (from + k, active[from + k].2))
            }
        }
    }

    /// `LeafRuntime::asking_nothing` (checked against the attempts in debug builds).
    fn asking_nothing_checked(&self, q: QueueId) -> usize {
        let lr = self.leaf(q).expect("a leaf");
        debug_assert!(
            lr.asking_nothing <= lr.active.len()
                && lr.active[..lr.asking_nothing].iter().all(|e| self.apps[e.2]
                    .attempt
                    .as_ref()
                    .is_some_and(|t| t.requests.pending_in(DEFAULT_PARTITION).is_zero())),
            "an attempt counted as asking for nothing asks"
        );
        lr.asking_nothing.min(lr.active.len())
    }

    /// The fair policy's order of the leaf's active applications (`None` for FIFO, whose
    /// order is the active list's own): ascending usage (size-weighted if configured), then
    /// submission time, then apps with demand first, then application id.
    // Always inlined: a FIFO leaf's answer is a look at its configuration, not a call
    // returning a 272-byte value.
    #[inline(always)]
    pub(crate) fn fair_application_order(&self, q: QueueId) -> Option<SmallVec<[AppId; 32]>> {
        use crate::config::AppOrderingPolicy;
        match self.tree.conf(q).leaf.as_ref().map(|l| &l.ordering_policy) {
            Some(AppOrderingPolicy::Fair { size_based_weight }) => {
                Some(self.fair_order_of(q, *size_based_weight))
            }
            _ => None,
        }
    }

    /// The fair policy's order of the leaf's active applications (`fair_application_order`).
    fn fair_order_of(&self, q: QueueId, size_based_weight: bool) -> SmallVec<[AppId; 32]> {
        let lr = self.leaf(q).expect("a leaf");
        let mut apps: SmallVec<[AppId; 32]> = lr.active.iter().map(|e| e.2).collect();
        let key = |app: &AppId| {
            let a = &self.apps[*app];
            let t = a.attempt.as_ref().expect("active");
            let used = t.used.memory_mb() as f64;
            let demand = (t.used + t.requests.pending_total()).memory_mb() as f64;
            let usage = if size_based_weight && demand > 0.0 {
                used / (1.0 + demand).log2()
            } else {
                used
            };
            (
                usage,
                a.submit_time_ms,
                t.requests.pending_total().is_zero(),
                a.application_id,
            )
        };
        apps.sort_by(|x, y| {
            let (kx, ky) = (key(x), key(y));
            kx.0.partial_cmp(&ky.0)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(kx.1.cmp(&ky.1))
                .then(kx.2.cmp(&ky.2))
                .then(kx.3.cmp(&ky.3))
        });
        apps
    }

    /// `apply_pending_increases`, kept out of the node loop's code (rarely any).
    #[cold]
    #[inline(never)]
    fn pending_increases_first(&mut self, node: NodeId) -> u32 {
        self.apply_pending_increases(node)
    }

    /// §4.10: a node holding a reservation serves only the reserving application's key.
    // Out of line: the node loop's code is on every heartbeat's path, a reserved node is not.
    #[inline(never)]
    fn allocate_from_reserved(&mut self, now_ms: i64, node: NodeId, reserved: ContainerId) -> bool {
        let Some(c) = self.containers.get(reserved) else {
            self.nodes[node].reserved = None;
            return false;
        };
        let (app, key) = (c.app, c.key);
        // Space freed by preemption for queues below their guarantee is not this queue's to
        // wait for: a reservation of a queue at or above its guarantee on such a node goes.
        if let Some(leaf) = self.apps.get(app).map(|a| a.queue) {
            if !self.held_from(node, leaf).is_zero() {
                self.unreserve(now_ms, reserved);
                return false;
            }
        }
        let outstanding = self
            .apps
            .get(app)
            .and_then(|a| a.attempt.as_ref())
            .and_then(|t| t.requests.get(&key))
            .map(|k| k.outstanding())
            .unwrap_or(0);
        if outstanding <= 0 {
            self.unreserve(now_ms, reserved);
            return false;
        }
        let ctx = self.node_ctx(node);
        // The reserving app's leaf is visited with the default partition's whole resource as
        // its limit (allocateFromReservedContainer), whatever the node's partition.
        let default = self.tree.default_partition_resource();
        let limits = Limits {
            limit: default,
            headroom: default,
            amount_needed_unreserve: Resource::ZERO,
            user_checked_at: None,
        };
        let leaf = self.apps[app].queue;
        self.tree.queue_mut(leaf).limit_from_parent = default;
        matches!(
            self.assign_app(now_ms, app, &ctx, &limits, Some(reserved)),
            Outcome::Allocated { .. }
        )
    }
}

impl CapacityScheduler {
    /// One pass of YARN's asynchronous scheduling thread (spec §6): from a random node, visit
    /// `[start, n)` then `[0, start]` — the start node twice, as YARN does — skipping nodes
    /// silent for more than two heartbeat intervals; one attempt per visit. Returns containers
    /// allocated.
    pub fn schedule_pass(&mut self, now_ms: i64) -> u32 {
        use rand_core::Rng;
        let mut nodes: Vec<NodeId> = self.nodes.iter().map(|(id, _)| id).collect();
        if nodes.is_empty() {
            return 0;
        }
        nodes.sort_by_key(|id| id.index());
        self.killed_for_room.clear();
        self.allocated_now.clear();
        let start = (self.rng.next_u64() % nodes.len() as u64) as usize;
        let silence = 2 * self.tree.settings().node_heartbeat_interval_ms;
        let mut allocated = 0;
        for &node in nodes[start..].iter().chain(nodes[..=start].iter()) {
            let alive = self
                .nodes
                .get(node)
                .is_some_and(|n| now_ms - n.last_heartbeat_ms <= silence);
            if alive {
                allocated += self.allocate_containers_to_node(now_ms, node, false);
            }
        }
        allocated
    }
}
