//! Orders a parent's children for allocation (`PriorityUtilizationQueueOrderingPolicy`, spec
//! §4.3) as the scheduler asks for them: the kept default-partition order (`child_order`), marked
//! when a child's usage moves, and sorted copies for labelled partitions.

use smallvec::SmallVec;

use super::child_order::{
    candidate, compare, default_candidate, ordering_policy, Candidate, ChildOrder,
};
use crate::scheduler::CapacityScheduler;
use crate::state::partition::{Partition, DEFAULT_PARTITION};
use crate::state::queue::QueueId;

impl CapacityScheduler {
    /// The children of `parent` in the order they are offered a node of `partition` (stable:
    /// ties keep the `queues` list order). The allocation path reads the default partition's
    /// order in place (`child_order`); this copy is for the others and the tests.
    pub(crate) fn sorted_children(
        &mut self,
        parent: QueueId,
        partition: Partition,
    ) -> SmallVec<[QueueId; 16]> {
        if partition != DEFAULT_PARTITION {
            return self.sorted_children_in(parent, partition);
        }
        self.child_order(parent).children().collect()
    }

    /// `parent`'s children in default-partition allocation order, brought up to date.
    pub(crate) fn child_order(&mut self, parent: QueueId) -> &ChildOrder {
        if self.child_orders.len() <= parent {
            self.child_orders.resize_with(parent + 1, Default::default);
        }
        // In place: bringing an order up to date reads only the tree.
        self.child_orders[parent].bring_up_to_date(&self.tree, parent);
        debug_assert!(
            self.child_orders[parent]
                .children()
                .eq(self.sorted_children_afresh(parent)),
            "the kept order of {parent}'s children differs from sorting them afresh"
        );
        &self.child_orders[parent]
    }

    /// Whether every kept order, brought up to date, is the order YARN's sort gives now (for
    /// the invariant checker: the kept orders must never change a decision).
    pub(crate) fn check_child_orders(&self) -> Result<(), String> {
        for (parent, kept) in self.child_orders.iter().enumerate() {
            if parent >= self.tree.len() || self.tree.is_leaf(parent) || kept.is_empty() {
                continue;
            }
            let mut o = kept.clone();
            o.bring_up_to_date(&self.tree, parent);
            let afresh = self.sorted_children_afresh(parent);
            if !o.children().eq(afresh.iter().copied()) {
                return Err(format!(
                    "the kept order of {}'s children is {:?}, sorting them afresh gives {:?}",
                    self.tree.path(parent),
                    o.children().collect::<Vec<_>>(),
                    afresh
                ));
            }
        }
        Ok(())
    }

    /// YARN's computation as it is: every child keyed and the list sorted (stable). What the
    /// kept order must always equal (checked in debug builds and by the tests).
    pub(crate) fn sorted_children_afresh(&self, parent: QueueId) -> SmallVec<[QueueId; 16]> {
        let policy = ordering_policy(&self.tree, parent);
        let mut candidates: SmallVec<[Candidate; 16]> = self
            .tree
            .children(parent)
            .iter()
            .map(|&id| default_candidate(&self.tree, id))
            .collect();
        candidates.sort_by(|a, b| compare(policy, a, b));
        candidates.iter().map(|c| c.id).collect()
    }

    /// PriorityUtilizationQueueOrderingPolicy on a labelled partition: queues that may use
    /// it come first, in either exclusivity mode; then the same order on the partition's
    /// figures. (A stable sort on access first: the two groups sorted apart.)
    fn sorted_children_in(&self, parent: QueueId, partition: Partition) -> SmallVec<[QueueId; 16]> {
        let policy = ordering_policy(&self.tree, parent);
        let label = self.labels.name(partition);
        let (mut with, mut without): (SmallVec<[Candidate; 16]>, SmallVec<[Candidate; 16]>) =
            Default::default();
        for &id in self.tree.children(parent) {
            let used = self.tree.queue(id).labelled_used.get(partition);
            let (used_capacity, absolute_used_capacity) =
                self.tree.used_capacities_in(id, label, used);
            let c = candidate(
                &self.tree,
                id,
                self.tree.partition_capacity(id, label).absolute_capacity,
                used_capacity,
                absolute_used_capacity,
            );
            if self.tree.conf(id).labels.accessible.can_access(label) {
                with.push(c);
            } else {
                without.push(c);
            }
        }
        with.sort_by(|a, b| compare(policy, a, b));
        without.sort_by(|a, b| compare(policy, a, b));
        with.iter().chain(&without).map(|c| c.id).collect()
    }
}
