//! The reserved-container selector (spec P6.1, `select_based_on_reserved_containers`): frees
//! nodes holding a reservation, cheapest first, by preempting running containers of queues
//! that are over their target — only where that actually makes the reservation fit.

use super::fifo::{Pick, RoundState};
use super::ideal::TempQueue;
use super::snapshot::{ContainerSnap, PreemptionSnapshot};
use crate::resource::{Resource, ResourceCalculator};

/// A node worth freeing: its candidates (app, index into `live`) and the cost of freeing it.
struct Plan {
    node: usize,
    cost: f32,
}

/// The node's running containers, newest first (container id descending), AMs and killable
/// ones (already counted in the node's killable room) excluded.
fn candidates(snap: &PreemptionSnapshot, on_node: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut cs: Vec<(usize, usize)> = on_node
        .iter()
        .copied()
        .filter(|&(a, i)| !snap.apps[a].live[i].is_am && !snap.apps[a].live[i].killable)
        .collect();
    cs.sort_by(|&(a, i), &(b, j)| {
        let (x, y) = (&snap.apps[a], &snap.apps[b]);
        (y.id, y.live[j].sequence).cmp(&(x.id, x.live[i].sequence))
    });
    cs
}

/// Walks a node's containers: takes those that fit in their queue's quota and in the budget
/// until the reservation fits. `charge` deducts as it goes (the real pass); the dry run does not.
#[allow(clippy::too_many_arguments)]
fn walk(
    snap: &PreemptionSnapshot,
    rc: ResourceCalculator,
    node: usize,
    on_node: &[(usize, usize)],
    reserved: &ContainerSnap,
    quota: &mut [Vec<Resource>],
    allowed: &mut Resource,
    state: &RoundState,
    charge: bool,
) -> Option<(Vec<(usize, usize)>, Resource)> {
    let n = &snap.nodes[node];
    let available = n.unallocated + n.killable;
    let mut freed = Resource::ZERO;
    let mut newly = Vec::new();
    let mut cost = Resource::ZERO;
    for (a, i) in candidates(snap, on_node) {
        let c: &ContainerSnap = &snap.apps[a].live[i];
        let q = snap.apps[a].queue;
        let budget = &mut quota[c.partition][q];
        if !(rc.fits_in(&c.resource, budget) && rc.fits_in(&c.resource, allowed)) {
            continue;
        }
        if charge {
            *budget -= c.resource;
            *allowed -= c.resource;
        }
        freed += c.resource;
        if !state.selected.contains(&c.id) {
            newly.push((a, i));
            cost += c.resource;
        }
        if rc.fits_in(&reserved.resource, &(available + freed)) {
            return Some((newly, cost));
        }
    }
    if charge {
        // The node stays unfreed: the quota of what was chosen goes back (the budget does not).
        for &(a, i) in &newly {
            let c = &snap.apps[a].live[i];
            quota[c.partition][snap.apps[a].queue] += c.resource;
        }
    }
    None
}

pub fn select(
    snap: &PreemptionSnapshot,
    temps: &[Vec<TempQueue>],
    rc: ResourceCalculator,
    state: &mut RoundState,
) -> Vec<Pick> {
    let mut quota: Vec<Vec<Resource>> = temps
        .iter()
        .map(|part| part.iter().map(|t| t.actually_to_be_preempted).collect())
        .collect();
    // Dry run: which reserved nodes can be freed, and at what cost.
    let mut plans: Vec<Plan> = Vec::new();
    let mut by_node: Option<Vec<Vec<(usize, usize)>>> = None;
    for (node, n) in snap.nodes.iter().enumerate() {
        let Some((a, i)) = n.reservation else {
            continue;
        };
        let reserved = &snap.apps[a].reserved[i];
        if rc.fits_in(&reserved.resource, &(n.unallocated + n.killable)) {
            continue;
        }
        let mut budget = state.allowed;
        let by_node = by_node.get_or_insert_with(|| snap.containers_by_node());
        if let Some((_, cost)) = walk(
            snap,
            rc,
            node,
            &by_node[node],
            reserved,
            &mut quota.clone(),
            &mut budget,
            state,
            false,
        ) {
            plans.push(Plan {
                node,
                cost: rc.ratio(&cost, &reserved.resource),
            });
        }
    }
    plans.sort_by(|x, y| {
        x.cost
            .partial_cmp(&y.cost)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    // The real pass, cheapest first, deducting as it goes.
    let mut picks = Vec::new();
    for plan in plans {
        let (a, i) = snap.nodes[plan.node]
            .reservation
            .expect("planned nodes hold a reservation");
        let reserved = &snap.apps[a].reserved[i];
        let mut allowed = state.allowed;
        let on_node = by_node
            .as_ref()
            .map(|b| b[plan.node].as_slice())
            .unwrap_or(&[]);
        let chosen = walk(
            snap,
            rc,
            plan.node,
            on_node,
            reserved,
            &mut quota,
            &mut allowed,
            state,
            true,
        );
        state.allowed = allowed;
        for (a, i) in chosen.map(|(newly, _)| newly).unwrap_or_default() {
            let c = &snap.apps[a].live[i];
            state.selected.insert(c.id);
            picks.push(Pick {
                app: a,
                container: c.id,
                reserved: false,
            });
        }
    }
    picks
}
