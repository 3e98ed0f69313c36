//! Orders a parent's children for allocation (`PriorityUtilizationQueueOrderingPolicy`, spec
//! §4.3) and a leaf's applications for the fair policy.

use std::cmp::Ordering;

use smallvec::SmallVec;

use crate::config::{CapacityValue, QueueOrderingPolicy};
use crate::scheduler::CapacityScheduler;
use crate::state::partition::{Partition, DEFAULT_PARTITION};
use crate::state::queue::QueueId;

#[derive(Clone, Copy)]
struct Candidate {
    id: QueueId,
    absolute_capacity: f32,
    used_capacity: f32,
    absolute_used_capacity: f32,
    priority: i32,
    /// Configured absolute minimum (memory, vcores), when the queue uses absolute mode.
    configured_min: Option<(i64, i64)>,
}

fn compare(policy: QueueOrderingPolicy, a: &Candidate, b: &Candidate) -> Ordering {
    let float = |x: f32, y: f32| x.partial_cmp(&y).unwrap_or(Ordering::Equal);
    // 2. A queue with guaranteed capacity goes before one without.
    let by_usage = match (a.absolute_capacity > 0.0, b.absolute_capacity > 0.0) {
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        // 3. Both zero: absolute used capacity, smaller first.
        (false, false) => float(a.absolute_used_capacity, b.absolute_used_capacity),
        (true, true) => match policy {
            QueueOrderingPolicy::Utilization => float(a.used_capacity, b.used_capacity),
            QueueOrderingPolicy::PriorityUtilization => {
                if a.priority == b.priority {
                    float(a.used_capacity, b.used_capacity)
                } else if (a.used_capacity < 1.0) == (b.used_capacity < 1.0) {
                    // Both under or both over their guarantee: the higher priority first.
                    b.priority.cmp(&a.priority)
                } else if a.used_capacity < 1.0 {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
        },
    };
    if by_usage != Ordering::Equal {
        return by_usage;
    }
    // 4. Still tied: larger configured absolute minimum first, else larger absolute capacity.
    match (a.configured_min, b.configured_min) {
        (Some(x), Some(y)) => y.cmp(&x),
        _ => float(b.absolute_capacity, a.absolute_capacity),
    }
}

impl CapacityScheduler {
    /// The children of `parent` in the order they are offered a node of `partition` (stable:
    /// ties keep the `queues` list order).
    pub(crate) fn sorted_children(
        &self,
        parent: QueueId,
        partition: Partition,
    ) -> SmallVec<[QueueId; 16]> {
        let policy = self
            .tree
            .conf(parent)
            .queue_ordering_policy
            .unwrap_or(QueueOrderingPolicy::Utilization);
        let candidate = |id: QueueId, abs: f32, used: f32, abs_used: f32| {
            let conf = self.tree.conf(id);
            Candidate {
                id,
                absolute_capacity: abs,
                used_capacity: used,
                absolute_used_capacity: abs_used,
                priority: conf.priority,
                configured_min: match &conf.capacity {
                    CapacityValue::Absolute(a) => {
                        Some((a.resource().memory_mb(), a.resource().vcores()))
                    }
                    _ => None,
                },
            }
        };
        let children = self.tree.children(parent).iter().copied();
        if partition == DEFAULT_PARTITION {
            let mut candidates: SmallVec<[Candidate; 16]> = children
                .map(|id| {
                    candidate(
                        id,
                        self.tree.queue(id).capacities.absolute_capacity,
                        self.tree.used_capacity(id),
                        self.tree.absolute_used_capacity(id),
                    )
                })
                .collect();
            candidates.sort_by(|a, b| compare(policy, a, b));
            return candidates.iter().map(|c| c.id).collect();
        }
        // PriorityUtilizationQueueOrderingPolicy on a labelled partition: queues that may use
        // it come first, in either exclusivity mode; then the same order on the partition's
        // figures. (A stable sort on access first: the two groups sorted apart.)
        let label = self.labels.name(partition);
        let (mut with, mut without): (SmallVec<[Candidate; 16]>, SmallVec<[Candidate; 16]>) =
            Default::default();
        for id in children {
            let used = self.tree.queue(id).labelled_used.get(partition);
            let (used_capacity, absolute_used_capacity) =
                self.tree.used_capacities_in(id, label, used);
            let c = candidate(
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

#[cfg(test)]
mod tests {
    use super::*;

    fn q(id: QueueId, abs: f32, used: f32) -> Candidate {
        Candidate {
            id,
            absolute_capacity: abs,
            used_capacity: used,
            absolute_used_capacity: used * abs,
            priority: 0,
            configured_min: None,
        }
    }

    #[test]
    fn e6_single_level_queues() {
        // TestParentQueue.testSingleLevelQueues: a 30%, b 70%, cluster 20 GB (6 GB / 14 GB).
        let order = |ua: f32, ub: f32| {
            let (a, b) = (q(0, 0.3, ua / 6.0), q(1, 0.7, ub / 14.0));
            compare(QueueOrderingPolicy::Utilization, &a, &b)
        };
        assert_eq!(order(0.0, 1.0), Ordering::Less, "(0,1) ⇒ a first");
        assert_eq!(order(2.0, 2.0), Ordering::Greater, "(2,2) ⇒ b first");
        assert_eq!(order(3.0, 4.0), Ordering::Greater, "(3,4) ⇒ b first");
        assert_eq!(order(3.0, 8.0), Ordering::Less, "(3,8) ⇒ a first");
    }

    #[test]
    fn guaranteed_before_zero_capacity_and_priority_rules() {
        assert_eq!(
            compare(
                QueueOrderingPolicy::Utilization,
                &q(0, 0.0, 0.0),
                &q(1, 0.5, 5.0)
            ),
            Ordering::Greater
        );
        let mut hi = q(0, 0.5, 0.5);
        hi.priority = 5;
        let lo = q(1, 0.5, 0.2);
        // Both under guarantee: the higher priority goes first despite higher usage.
        assert_eq!(
            compare(QueueOrderingPolicy::PriorityUtilization, &hi, &lo),
            Ordering::Less
        );
        // One over, one under: the under-served one first whatever the priority.
        let over = Candidate {
            used_capacity: 1.5,
            ..hi
        };
        assert_eq!(
            compare(QueueOrderingPolicy::PriorityUtilization, &over, &lo),
            Ordering::Greater
        );
        // Utilization ignores priorities.
        assert_eq!(
            compare(QueueOrderingPolicy::Utilization, &hi, &lo),
            Ordering::Greater
        );
    }
}
