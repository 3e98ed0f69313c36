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
