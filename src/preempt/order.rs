//! The order in which a leaf's containers are offered for preemption (spec P5.2): the
//! reverse of scheduling.

use std::cmp::Ordering;

use super::snapshot::ContainerSnap;

/// Victim order inside one application (`testContainerOrdering`): the least important request
/// first (numerically largest priority, then larger allocation-request id), then the most
/// recently allocated (larger container sequence) first.
pub fn victim_cmp(a: &ContainerSnap, b: &ContainerSnap) -> Ordering {
    b.priority
        .cmp(&a.priority)
        .then(b.allocation_request_id.cmp(&a.allocation_request_id))
        .then(b.sequence.cmp(&a.sequence))
}

/// A stable merge sort that tolerates a comparator which is not a total order (Hadoop's
/// `TAFairOrderingComparator` and the queue-priority selector's container order mix keys); `slice::sort_by` may panic on
/// such a comparator.
pub(crate) fn merge_sort<T: Clone>(v: &mut Vec<T>, cmp: &impl Fn(&T, &T) -> Ordering) {
    if v.len() <= 1 {
        return;
    }
    let mut right = v.split_off(v.len() / 2);
    merge_sort(v, cmp);
    merge_sort(&mut right, cmp);
    let left = std::mem::take(v);
    v.reserve(left.len() + right.len());
    let (mut l, mut r) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(a), Some(b)) = (l.peek(), r.peek()) {
        if cmp(a, b) == Ordering::Greater {
            v.extend(r.next());
        } else {
            v.extend(l.next());
        }
    }
    v.extend(l);
    v.extend(r);
}
