//! What the core keeps of preemption between the monitor's rounds, so that room taken from an
//! over-served queue goes to the queues it was taken for (docs/SEMANTICS.md, "Space freed by
//! preemption"):
//!
//! * **Lazy preemption** (`yarn.scheduler.capacity.lazy-preemption-enabled`, YARN-4108): a
//!   container whose wait is over becomes *killable* instead of being killed. It runs on; a
//!   queue below its guarantee may count its room as free on its node, and it is killed only
//!   when such a queue's allocation there commits (`RegularContainerAllocator`'s
//!   `toKillContainers`). Others cannot use the room: it is still allocated.
//! * **Freed space** (non-lazy): a kill leaves a record on its node — the leaf the room was
//!   taken from, how much, when. While `capsched.preemption.freed-space.protect` is on (the
//!   default; capsched's own) and some queue below its guarantee has pending demand, queues at
//!   or above their guarantee may not allocate into that room, reserve the node, or have a
//!   reservation there fulfilled; the records age out after `capsched.preemption.freed-space.
//!   hold-ms`. Either way, a record taken by an allocation of the leaf it came from counts as a
//!   wasted preemption.

use crate::ids::{AppId, ContainerId, NodeId};
use crate::records::{diagnostics, exit_status};
use crate::resource::Resource;
use crate::scheduler::apps::containers::Completion;
use crate::scheduler::CapacityScheduler;
use crate::state::container::RmContainer;
use crate::state::leaf::PreemptionStats;
use crate::state::node::FreedSpace;
use crate::state::queue::QueueId;

impl CapacityScheduler {
    /// What the monitor did to `leaf`'s containers so far (zero for a parent).
    pub fn preemption_stats(&self, leaf: QueueId) -> PreemptionStats {
        self.leaf(leaf).map(|l| l.preemption).unwrap_or_default()
    }

    pub(crate) fn count_preemption(&mut self, leaf: QueueId, f: impl FnOnce(&mut PreemptionStats)) {
        if let Some(Some(l)) = self.leaves.get_mut(leaf) {
            f(&mut l.preemption);
        }
    }

    /// Whether `leaf` uses less than its guarantee (`LeafQueue.setPreemptionAllowed`: only such
    /// a queue may take room preemption freed or made killable). Reservations do not count,
    /// as YARN's `ResourceUsage.getUsed` keeps them apart.
    pub fn below_guarantee(&self, leaf: QueueId) -> bool {
        let rc = self.tree.settings().resource_calculator;
        let q = self.tree.queue(leaf);
        rc.less_than(
            &self.tree.cluster_resource(),
            &(q.used - self.queue_reserved[leaf]),
            &q.capacities.effective_min,
        )
    }

    /// Whether some leaf below its guarantee has pending demand: the condition under which
    /// freed space is held (O(leaves); asked only on a node holding freed space).
    pub(crate) fn under_served_demand(&self) -> bool {
        self.tree
            .leaves()
            .any(|q| !self.queue_pending[q].is_zero() && self.below_guarantee(q))
    }

    /// The room on `node` an allocation for `leaf` may not use: the freed space held there,
    /// for a leaf at or above its guarantee while the protection is on and the space is
    /// wanted; nothing otherwise.
    // Inlined: asked at every placement, and almost always answered by the node holding no
    // freed space; the rest stays out of line.
    #[inline]
    pub(crate) fn held_from(&self, node: NodeId, leaf: QueueId) -> Resource {
        if self.nodes[node].freed().is_empty() {
            return Resource::ZERO;
        }
        self.held_from_freed(node, leaf)
    }

    /// `held_from` on a node holding freed space.
    #[inline(never)]
    fn held_from_freed(&self, node: NodeId, leaf: QueueId) -> Resource {
        let n = &self.nodes[node];
        if !self.tree.settings().freed_space_protect
            || self.below_guarantee(leaf)
            || !self.under_served_demand()
        {
            return Resource::ZERO;
        }
        n.freed_total()
    }

    /// A preemption kill freed `resource` of `leaf` on `node`.
    pub(crate) fn record_freed(
        &mut self,
        node: NodeId,
        leaf: QueueId,
        resource: Resource,
        now_ms: i64,
    ) {
        if let Some(n) = self.nodes.get_mut(node) {
            n.extras_mut().freed.push(FreedSpace {
                leaf,
                resource,
                at_ms: now_ms,
            });
        }
    }

    /// Freed space older than the hold is released to everyone.
    pub(crate) fn expire_freed(&mut self, node: NodeId, now_ms: i64) {
        let hold = self.tree.settings().freed_space_hold_ms;
        if let Some(e) = self
            .nodes
            .get_mut(node)
            .and_then(|n| n.extras.as_deref_mut())
        {
            e.freed.retain(|f| now_ms.saturating_sub(f.at_ms) < hold);
        }
    }

    /// An allocation of `capability` for `leaf` on `node`, where `unallocated` was free before
    /// it: the part that did not fit beside the freed space came out of it, oldest first; a
    /// record taken by the leaf it was freed from is a wasted preemption.
    pub(crate) fn consume_freed(
        &mut self,
        node: NodeId,
        leaf: QueueId,
        capability: Resource,
        unallocated: Resource,
    ) {
        let Some(n) = self.nodes.get_mut(node) else {
            return;
        };
        if n.freed().is_empty() {
            return;
        }
        let spare = (unallocated - n.freed_total()).non_negative();
        let mut need = (capability - spare).non_negative();
        let mut wasted = 0;
        let freed = &mut n.extras_mut().freed;
        while !need.is_zero() && !freed.is_empty() {
            let f = freed.remove(0);
            need = (need - f.resource).non_negative();
            if f.leaf == leaf {
                wasted += 1;
            }
        }
        if wasted > 0 {
            self.count_preemption(leaf, |s| s.wasted += wasted);
        }
    }

    /// The containers lazy preemption killed to make room in the last scheduling pass (a node
    /// update's are in its response's `preempted`).
    pub fn take_killed_for_room(&mut self) -> Vec<ContainerId> {
        std::mem::take(&mut self.killed_for_room)
    }

    /// `delta` more (or less) killable under `leaf` and its ancestors.
    pub(crate) fn add_queue_killable(&mut self, leaf: QueueId, delta: Resource) {
        if delta.is_zero() {
            return;
        }
        // Parents count killable room as theirs to give: a descent's inputs changed.
        self.demand_version += 1;
        let mut at = Some(leaf);
        while let Some(q) = at {
            self.queue_killable[q] += delta;
            at = self.tree.parent(q);
        }
    }

    /// Lazy preemption: the container stays, killable (YARN's `markContainerForKillable`).
    pub(crate) fn mark_killable(&mut self, id: ContainerId) {
        let Some(c) = self.containers.get_mut(id) else {
            return;
        };
        if c.killable || c.is_reserved() || c.is_opportunistic() {
            return;
        }
        c.killable = true;
        let (app, node, resource, pos) = (c.app, c.node, c.resource, c.view_pos);
        if let Some(n) = self.nodes.get_mut(node) {
            let e = n.extras_mut();
            e.killable.insert(id);
            e.killable_resource += resource;
        }
        if let Some(a) = self.apps.get_mut(app) {
            if let Some(t) = a.attempt.as_mut() {
                if let Some(snap) =
                    crate::scheduler::preemption::preempt_view::view_entry_mut(t, pos)
                {
                    snap.killable = true;
                }
            }
            let leaf = a.queue;
            self.add_queue_killable(leaf, resource);
        }
    }

    /// Every killable container becomes an ordinary one (lazy preemption switched off by a
    /// refresh); the queue totals are left to the caller's rebuild.
    pub(crate) fn unmark_all_killable(&mut self) {
        let ids: Vec<ContainerId> = self
            .nodes
            .iter_mut()
            .flat_map(|(_, n)| {
                let killable = n
                    .extras
                    .as_deref_mut()
                    .map(|e| {
                        e.killable_resource = Resource::ZERO;
                        std::mem::take(&mut e.killable)
                    })
                    .unwrap_or_default();
                n.release_extras_if_empty();
                killable
            })
            .collect();
        for id in ids {
            let Some(c) = self.containers.get_mut(id) else {
                continue;
            };
            c.killable = false;
            let (app, pos) = (c.app, c.view_pos);
            if let Some(t) = self.apps.get_mut(app).and_then(|a| a.attempt.as_mut()) {
                if let Some(snap) =
                    crate::scheduler::preemption::preempt_view::view_entry_mut(t, pos)
                {
                    snap.killable = false;
                }
            }
        }
    }

    /// A killable container ended (killed, finished by itself, moved…): it is no longer
    /// counted as killable anywhere. `leaf` is its application's leaf.
    pub(crate) fn forget_killable(&mut self, id: ContainerId, c: &RmContainer, leaf: QueueId) {
        if !c.killable {
            return;
        }
        if let Some(e) = self
            .nodes
            .get_mut(c.node)
            .and_then(|n| n.extras.as_deref_mut())
        {
            if e.killable.remove(&id) {
                e.killable_resource -= c.resource;
            }
        }
        self.add_queue_killable(leaf, -c.resource);
    }

    /// Lazy preemption: the killable containers on `node`, in container order, whose room
    /// together with the unallocated room fits `capability` (`RegularContainerAllocator`'s
    /// `toKillContainers`); `None` if even all of them would not make it fit.
    pub(crate) fn room_by_killing(
        &self,
        node: NodeId,
        capability: Resource,
    ) -> Option<Vec<ContainerId>> {
        let rc = self.tree.settings().resource_calculator;
        let n = &self.nodes[node];
        let mut room = n.unallocated();
        let mut victims = Vec::new();
        for &id in n.killable() {
            if rc.fits_in(&capability, &room) {
                break;
            }
            room += self.containers[id].resource;
            victims.push(id);
        }
        rc.fits_in(&capability, &room).then_some(victims)
    }

    /// Whether `app`'s container of `capability` would be accepted once `victims` are gone:
    /// every queue on its path within its maximum and its user within its limit, counting
    /// only what the kills take from that queue or user. Checked before anything is killed,
    /// so a refused allocation kills nobody. (YARN credits the released room to every queue
    /// on the path and then kills the parent's own killable containers to bring it back under
    /// its maximum, `killContainersToEnforceMaxQueueCapacity`; capsched refuses instead.)
    pub(crate) fn accepts_after_kills(
        &self,
        app: AppId,
        capability: Resource,
        victims: &[ContainerId],
    ) -> bool {
        let rc = self.tree.settings().resource_calculator;
        let Some(a) = self.apps.get(app) else {
            return false;
        };
        let victim_leaf = |id: &ContainerId| {
            self.containers
                .get(*id)
                .and_then(|c| self.apps.get(c.app))
                .map(|v| (v.queue, v.user.as_str(), self.containers[*id].resource))
        };
        let mut at = Some(a.queue);
        while let Some(q) = at {
            let freed: Resource = victims
                .iter()
                .filter_map(victim_leaf)
                .filter(|(leaf, _, _)| self.tree.is_ancestor_or_self(q, *leaf))
                .map(|(_, _, r)| r)
                .sum();
            let queue = self.tree.queue(q);
            if !rc.fits_in(
                &(queue.used - freed + capability),
                &queue.capacities.effective_max,
            ) {
                return false;
            }
            at = self.tree.parent(q);
        }
        let user_freed: Resource = victims
            .iter()
            .filter_map(victim_leaf)
            .filter(|(leaf, user, _)| *leaf == a.queue && *user == a.user)
            .map(|(_, _, r)| r)
            .sum();
        self.user_within_limit(app, user_freed)
    }

    /// Lazy preemption at commit: kills `victims` (−102), each counted as preempted from its
    /// leaf and reported in the node update's `preempted`.
    pub(crate) fn kill_for_room(&mut self, now_ms: i64, victims: Vec<ContainerId>) {
        for id in victims {
            self.kill_preempted(now_ms, id);
            self.killed_for_room.push(id);
        }
    }

    /// The one way preemption kills a container: completes it with `PREEMPTED` (−102) and
    /// counts the kill on its leaf, which it returns.
    pub(crate) fn kill_preempted(&mut self, now_ms: i64, id: ContainerId) -> Option<QueueId> {
        let leaf = self
            .containers
            .get(id)
            .and_then(|c| self.apps.get(c.app))
            .map(|a| a.queue);
        self.complete_container(
            now_ms,
            id,
            exit_status::PREEMPTED,
            diagnostics::PREEMPTED,
            Completion::Killed,
        );
        if let Some(leaf) = leaf {
            self.count_preemption(leaf, |s| s.killed += 1);
        }
        leaf
    }
}
