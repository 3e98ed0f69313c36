//! The queue-priority selector (spec P6.4; YARN's `QueuePriorityContainerCandidateSelector`,
//! on with `ordering-policy.priority-utilization.underutilized-preemption.enabled`): a leaf
//! under its guarantee whose container has waited reserved on a node for at least
//! `reserved-container-delay-ms` takes, on that node, non-AM containers of leaves of lower
//! priority — even leaves within their own guarantee — until the reservation fits. It runs
//! first in a round.
//!
//! Priorities are compared where two leaves' paths meet: the children of their lowest common
//! ancestor, by `relative_priority` (set under a priority-utilization parent). Moving a
//! reservation to a better node (`allow-move-reservation`, off by default and marked
//! experimental in YARN) is not modelled.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use super::fifo::{Pick, RoundState};
use super::ideal::TempQueue;
use super::order::merge_sort;
use super::snapshot::{ContainerSnap, PreemptionSnapshot};
use crate::config::PreemptionSettings;
use crate::resource::Resource;

/// Which leaf may preempt which: `(demanding, victim)` pairs (YARN's `priorityDigraph`).
struct PriorityGraph(BTreeSet<(usize, usize)>);

impl PriorityGraph {
    fn build(snap: &PreemptionSnapshot) -> PriorityGraph {
        let path = |mut q: usize| {
            let mut p = vec![q];
            while let Some(up) = snap.queues[q].parent {
                p.push(up);
                q = up;
            }
            p
        };
        let leaves: Vec<usize> = (0..snap.queues.len())
            .filter(|&q| snap.queues[q].is_leaf())
            .collect();
        let mut edges = BTreeSet::new();
        for (i, &q1) in leaves.iter().enumerate() {
            for &q2 in &leaves[i + 1..] {
                let (p1, p2) = (path(q1), path(q2));
                // Walk down from the root while the paths agree; the first difference are the
                // children of the lowest common ancestor.
                let (mut a, mut b) = (p1.len() - 1, p2.len() - 1);
                while p1[a] == p2[b] {
                    a -= 1;
                    b -= 1;
                }
                let (r1, r2) = (
                    snap.queues[p1[a]].relative_priority,
                    snap.queues[p2[b]].relative_priority,
                );
                match r1.cmp(&r2) {
                    Ordering::Less => {
                        edges.insert((q2, q1));
                    }
                    Ordering::Greater => {
                        edges.insert((q1, q2));
                    }
                    Ordering::Equal => {}
                }
            }
        }
        PriorityGraph(edges)
    }

    fn allowed(&self, demanding: usize, victim: usize) -> bool {
        self.0.contains(&(demanding, victim))
    }

    /// The queue may preempt some other queue.
    fn demands(&self, q: usize) -> bool {
        self.0.range((q, 0)..=(q, usize::MAX)).next().is_some()
    }

    /// `CONTAINER_CREATION_TIME_COMPARATOR`: a container of a queue that may preempt the
    /// other's comes first; otherwise the older one.
    fn order(
        &self,
        (q1, c1): (usize, &ContainerSnap),
        (q2, c2): (usize, &ContainerSnap),
    ) -> Ordering {
        if self.allowed(q1, q2) {
            Ordering::Less
        } else if self.allowed(q2, q1) {
            Ordering::Greater
        } else {
            c1.created_ms.cmp(&c2.created_ms)
        }
    }
}

/// One round of the selector at `now_ms`. `temps` are the round's fresh queue figures
/// (`TempQueuePerPartition` as cloned at the start of a round), by partition.
pub fn select(
    snap: &PreemptionSnapshot,
    temps: &[Vec<TempQueue>],
    settings: &PreemptionSettings,
    state: &mut RoundState,
    now_ms: i64,
) -> Vec<Pick> {
    let graph = PriorityGraph::build(snap);
    let mut picks = Vec::new();
    if graph.0.is_empty() {
        return picks;
    }
    let rc = snap.calculator;
    let cluster = snap.cluster;
    // Every node's reservation whose queue outranks some other queue, oldest first among
    // queues that cannot preempt each other.
    let mut reserved: Vec<(usize, (usize, &ContainerSnap))> = Vec::new();
    for (n, node) in snap.nodes.iter().enumerate() {
        if let Some((a, i)) = node.reservation {
            let q = snap.apps[a].queue;
            if graph.demands(q) {
                reserved.push((n, (q, &snap.apps[a].reserved[i])));
            }
        }
    }
    merge_sort(&mut reserved, &|x: &(usize, (usize, &ContainerSnap)), y| {
        graph.order(x.1, y.1)
    });
    // The node → containers index, built once a reservation is old enough to need it.
    let mut by_node: Option<Vec<Vec<(usize, usize)>>> = None;
    let mut touched: BTreeSet<usize> = BTreeSet::new();
    // What each (queue, partition) has been promised this round.
    let mut promised: BTreeMap<(usize, usize), Resource> = BTreeMap::new();
    for (n, (q, reservation)) in reserved {
        if now_ms.saturating_sub(reservation.created_ms)
            < settings.underutilized_preemption_reserved_container_delay_ms
        {
            continue;
        }
        let p = snap.nodes[n].partition;
        // `isQueueSatisfied`: used − reserved + promised ≥ guaranteed.
        let tq = &temps[p][q];
        let promised_here = promised.get(&(q, p)).copied().unwrap_or_default();
        if rc.greater_than_or_equal(
            &cluster,
            &(tq.used - tq.reserved + promised_here),
            &tq.guaranteed,
        ) {
            continue;
        }
        if touched.contains(&n) {
            continue;
        }
        let Some(victims) = enough_for(
            snap,
            &graph,
            &by_node.get_or_insert_with(|| snap.containers_by_node())[n],
            n,
            q,
            reservation.resource,
            state,
        ) else {
            continue;
        };
        touched.insert(n);
        *promised.entry((q, p)).or_default() += reservation.resource;
        for (a, c) in victims {
            state.selected.insert(c.id);
            state.allowed -= c.resource;
            picks.push(Pick {
                app: a,
                container: c.id,
                reserved: false,
            });
        }
    }
    picks
}

/// `canPreemptEnoughResourceForAsked` on the reservation's node: what lacks once already
/// selected containers go, then non-AM containers of queues `demanding` outranks, within the
/// round's budget, until the reservation fits. The containers to take, or `None` when even all
/// of them would not make room.
fn enough_for<'a>(
    snap: &'a PreemptionSnapshot,
    graph: &PriorityGraph,
    on_node: &[(usize, usize)],
    node: usize,
    demanding: usize,
    required: Resource,
    state: &RoundState,
) -> Option<Vec<(usize, &'a ContainerSnap)>> {
    let rc = snap.calculator;
    let cluster = snap.cluster;
    let fits = |lacking: &Resource| rc.fits_in(lacking, &Resource::ZERO);
    let mut lacking = required - snap.nodes[node].unallocated;
    let mut running: Vec<(usize, (usize, &ContainerSnap))> = on_node
        .iter()
        .map(|&(a, i)| (a, (snap.apps[a].queue, &snap.apps[a].live[i])))
        .collect();
    merge_sort(&mut running, &|x: &(usize, (usize, &ContainerSnap)), y| {
        graph.order(x.1, y.1)
    });
    for (_, (_, c)) in &running {
        if state.selected.contains(&c.id) {
            lacking -= c.resource;
        }
    }
    if fits(&lacking) {
        return Some(Vec::new());
    }
    let mut allowed = state.allowed;
    let mut taken = Vec::new();
    for (a, (q, c)) in running {
        if state.selected.contains(&c.id) || !graph.allowed(demanding, q) || c.is_am {
            continue;
        }
        if rc.greater_than_or_equal(&cluster, &allowed, &c.resource) {
            allowed -= c.resource;
            lacking -= c.resource;
            taken.push((a, c));
        }
        if fits(&lacking) {
            return Some(taken);
        }
    }
    None
}
