//! A parent's children in allocation order (`PriorityUtilizationQueueOrderingPolicy`, spec
//! §4.3), kept sorted between assignments: the comparison YARN sorts with, and the kept order
//! that re-keys only the children whose usage moved. Plain data over the queue tree; the
//! scheduler's side (which orders to mark, the per-partition copies) is `ordering`.

use std::cmp::Ordering;

use smallvec::SmallVec;

use crate::config::{CapacityValue, QueueOrderingPolicy};
use crate::resource::Resource;
use crate::state::queue::{QueueId, QueueTree};

#[derive(Debug, Clone, Copy)]
pub(super) struct Candidate {
    pub(super) id: QueueId,
    absolute_capacity: f32,
    used_capacity: f32,
    absolute_used_capacity: f32,
    priority: i32,
    /// Configured absolute minimum (memory, vcores), when the queue uses absolute mode.
    configured_min: Option<(i64, i64)>,
}

pub(super) fn compare(policy: QueueOrderingPolicy, a: &Candidate, b: &Candidate) -> Ordering {
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

/// A parent's children in default-partition order, kept between assignments
/// (`CapacityScheduler::child_orders`). YARN sorts the children afresh at every assignment; the
/// order only changes when a child's usage does (or the tree's capacities, resources or
/// configuration, which change its generation), so the sorted list is kept with each child's
/// key and the usage it was computed from, and an assignment re-keys the children whose usage
/// moved and puts them back in place by binary search. The result is the stable sort's
/// exactly: ties keep the `queues` list order (`pos`), and the comparison is a total preorder
/// (Java's `Collections.sort`, which YARN uses, requires the same).
#[derive(Debug, Clone, Default)]
pub(crate) struct ChildOrder {
    generation: u64,
    /// Each child's key, by its place in the parent's `queues` list.
    keyed: Vec<Keyed>,
    /// Those places in allocation order.
    order: Vec<u32>,
    /// The places of the children whose usage moved since the order was brought up to date
    /// (`moved`), unless `all_moved`.
    moved: SmallVec<[u32; 4]>,
    all_moved: bool,
}

#[derive(Debug, Clone, Copy)]
struct Keyed {
    key: Candidate,
    /// The child's usage `key` was computed from.
    used: Resource,
    /// What its used capacity divides by (`max(effectiveMin, minimumAllocation)`, a
    /// calculator comparison): fixed within a generation, so worked out once per generation
    /// instead of at every re-key.
    used_capacity_base: Resource,
}

impl ChildOrder {
    /// Whether no order is kept yet (made at the parent's first assignment).
    pub(super) fn is_empty(&self) -> bool {
        self.keyed.is_empty()
    }

    /// The usage of the child at `pos` (its place in the parent's list) moved.
    // Inlined for the test: an only child's place never changes (its stale key is never
    // compared; a second child changes the list's length, and `bring_up_to_date` re-keys
    // all), so a single-child parent such as a one-queue root notes nothing.
    #[inline]
    pub(crate) fn moved(&mut self, pos: u32) {
        if self.keyed.len() > 1 && !self.all_moved {
            self.note_moved(pos);
        }
    }

    fn note_moved(&mut self, pos: u32) {
        if self.moved.contains(&pos) {
            return;
        }
        if self.moved.len() == self.moved.inline_size() {
            self.all_moved = true;
        } else {
            self.moved.push(pos);
        }
    }

    /// The children in allocation order.
    pub(super) fn children(&self) -> impl Iterator<Item = QueueId> + '_ {
        (0..self.order.len()).map(|i| self.child(i))
    }

    /// The `i`-th child in allocation order.
    pub(crate) fn child(&self, i: usize) -> QueueId {
        self.keyed[self.order[i] as usize].key.id
    }

    /// The children at places `a` and `b` in allocation order (places break ties).
    fn cmp(&self, policy: QueueOrderingPolicy, a: u32, b: u32) -> Ordering {
        self.cmp_to(policy, a, &self.keyed[b as usize].key, b)
    }

    /// `cmp` with `b`'s key already read (a binary search reads it once, not at every probe).
    // Inlined: `put_back` makes two comparisons per assignment, each a call otherwise.
    #[inline]
    fn cmp_to(&self, policy: QueueOrderingPolicy, a: u32, b_key: &Candidate, b: u32) -> Ordering {
        compare(policy, &self.keyed[a as usize].key, b_key).then(a.cmp(&b))
    }

    /// Re-keys the children whose usage moved and puts them back in place (re-sorts all on a
    /// new generation).
    pub(super) fn bring_up_to_date(&mut self, tree: &QueueTree, parent: QueueId) {
        let generation = tree.generation();
        let children = tree.children(parent);
        if self.generation != generation || self.keyed.len() != children.len() {
            self.generation = generation;
            self.keyed.clear();
            for &id in children {
                self.keyed.push(Keyed {
                    key: default_candidate(tree, id),
                    used: tree.queue(id).used,
                    used_capacity_base: tree.used_capacity_base(id),
                });
            }
            self.order = (0..children.len() as u32).collect();
            self.sort(ordering_policy(tree, parent));
            self.moved.clear();
            self.all_moved = false;
            return;
        }
        // Re-key the children whose usage moved (usually the one just assigned to: usage
        // changes mark their parent's order)...
        if !self.all_moved {
            match self.moved[..] {
                // (Nothing moved, as for an only child: no call.)
                [] => return,
                // (The usual case, without the lists below.)
                [pos] => {
                    self.moved.clear();
                    if self.rekey(tree, pos) {
                        self.put_back(ordering_policy(tree, parent), pos);
                    }
                    return;
                }
                _ => {}
            }
        }
        self.rekey_moved(tree, ordering_policy(tree, parent));
    }

    /// `bring_up_to_date` for several moved children (or all): each re-keyed, then put back
    /// in place, or all re-sorted. (Out of line, so that the usual single child's re-key and
    /// `put_back` are inlined in `bring_up_to_date`.)
    #[inline(never)]
    fn rekey_moved(&mut self, tree: &QueueTree, policy: QueueOrderingPolicy) {
        let candidates: SmallVec<[u32; 4]> = if std::mem::take(&mut self.all_moved) {
            (0..self.keyed.len() as u32).collect()
        } else {
            std::mem::take(&mut self.moved)
        };
        self.moved.clear();
        let mut moved: SmallVec<[u32; 4]> = SmallVec::new();
        for pos in candidates {
            if self.rekey(tree, pos) {
                moved.push(pos);
            }
        }
        // ...and put them back in place: the others are still in order, so each goes where a
        // binary search says.
        if moved.len() > 4 {
            self.sort(policy);
        } else if let [x] = moved[..] {
            self.put_back_out_of_line(policy, x);
        } else if !moved.is_empty() {
            for &x in &moved {
                if let Some(i) = self.order.iter().position(|&e| e == x) {
                    self.order.remove(i);
                }
            }
            for &x in &moved {
                let kx = self.keyed[x as usize].key;
                let at = self
                    .order
                    .partition_point(|&e| self.cmp_to(policy, e, &kx, x).is_lt());
                self.order.insert(at, x);
            }
        }
    }

    /// Re-keys the child at place `pos` if its usage moved; whether it did.
    #[inline(always)]
    fn rekey(&mut self, tree: &QueueTree, pos: u32) -> bool {
        let e = &mut self.keyed[pos as usize];
        let used = tree.queue(e.key.id).used;
        if used == e.used {
            return false;
        }
        e.used = used;
        e.key.used_capacity = tree.used_capacity_over(used, e.used_capacity_base);
        debug_assert_eq!(
            e.key.used_capacity.to_bits(),
            tree.used_capacity(e.key.id).to_bits()
        );
        // Compared only between two queues without guaranteed capacity (`compare`): a queue
        // with some keeps it unread, and the division is not made.
        let guaranteed = e.key.absolute_capacity > 0.0;
        if !guaranteed {
            e.key.absolute_used_capacity = tree.absolute_used_capacity(e.key.id);
        }
        true
    }

    /// Puts the one re-keyed child (at place `x` of the parent's list) back in place, the
    /// others being in order: where a binary search of the list without it says, as the
    /// general path finds it, but searched on the side it moved to and moved there with one
    /// rotation. The child an assignment re-keys is usually the one offered the node first
    /// (the least used) and now, one container more, the most used: its neighbour tells the
    /// side, and the last child is compared before searching, so it goes to the back after
    /// two comparisons instead of a removal, a binary search and an insertion.
    // Always inlined into `bring_up_to_date`'s usual case (one call per assignment).
    #[inline(always)]
    fn put_back(&mut self, policy: QueueOrderingPolicy, x: u32) {
        let Some(i) = self.order.iter().position(|&e| e == x) else {
            return;
        };
        let kx = self.keyed[x as usize].key;
        // `e` goes before the moved child.
        let before = |e: u32| self.cmp_to(policy, e, &kx, x).is_lt();
        let n = self.order.len();
        if i + 1 < n && before(self.order[i + 1]) {
            // Later: after every child before it in the rest of the list.
            let rest = &self.order[i + 1..];
            let k = if before(rest[rest.len() - 1]) {
                rest.len()
            } else {
                rest.partition_point(|&e| before(e))
            };
            // (`rotate_left(1)`, which is a general rotation: ~100 instructions more.)
            self.order.copy_within(i + 1..=i + k, i);
            self.order[i + k] = x;
        } else if i > 0 && !before(self.order[i - 1]) {
            // Earlier.
            let j = self.order[..i].partition_point(|&e| before(e));
            self.order.copy_within(j..i, j + 1);
            self.order[j] = x;
        }
    }

    /// `put_back`, as a call (for the general path).
    #[inline(never)]
    fn put_back_out_of_line(&mut self, policy: QueueOrderingPolicy, x: u32) {
        self.put_back(policy, x);
    }

    fn sort(&mut self, policy: QueueOrderingPolicy) {
        let mut order = std::mem::take(&mut self.order);
        order.sort_by(|&a, &b| self.cmp(policy, a, b));
        self.order = order;
    }
}

pub(super) fn ordering_policy(tree: &QueueTree, parent: QueueId) -> QueueOrderingPolicy {
    tree.conf(parent)
        .queue_ordering_policy
        .unwrap_or(QueueOrderingPolicy::Utilization)
}

pub(super) fn candidate(
    tree: &QueueTree,
    id: QueueId,
    abs: f32,
    used: f32,
    abs_used: f32,
) -> Candidate {
    let conf = tree.conf(id);
    Candidate {
        id,
        absolute_capacity: abs,
        used_capacity: used,
        absolute_used_capacity: abs_used,
        priority: conf.priority,
        configured_min: match &conf.capacity {
            CapacityValue::Absolute(a) => Some((a.resource().memory_mb(), a.resource().vcores())),
            _ => None,
        },
    }
}

pub(super) fn default_candidate(tree: &QueueTree, id: QueueId) -> Candidate {
    candidate(
        tree,
        id,
        tree.queue(id).capacities.absolute_capacity,
        tree.used_capacity(id),
        tree.absolute_used_capacity(id),
    )
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

    /// `put_back` gives what sorting afresh gives, wherever the re-keyed child was and
    /// wherever it goes (ties included: places break them).
    #[test]
    fn one_moved_child_is_put_back_where_a_sort_puts_it() {
        let policy = QueueOrderingPolicy::Utilization;
        for n in 1..7u32 {
            for moved in 0..n {
                for new_used in 0..=(2 * n + 1) {
                    let keyed: Vec<Keyed> = (0..n)
                        .map(|p| Keyed {
                            key: q(p as QueueId, 0.5, (p / 2) as f32),
                            used: Resource::ZERO,
                            used_capacity_base: Resource::ZERO,
                        })
                        .collect();
                    let mut o = ChildOrder {
                        keyed,
                        order: (0..n).collect(),
                        ..Default::default()
                    };
                    o.sort(policy);
                    o.keyed[moved as usize].key.used_capacity = new_used as f32 / 2.0;
                    o.put_back(policy, moved);
                    let mut afresh = o.clone();
                    afresh.sort(policy);
                    assert_eq!(o.order, afresh.order, "{n} children, {moved} to {new_used}");
                }
            }
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
