//! Injecting the faults a [`Chaos`](super::chaos::Chaos) asks for into a running simulation.

use super::am::AmState;
use super::jobs::restart_attempt;
use super::nm::NmSim;
use super::state::{Sim, Work};
use crate::scheduler::nodes::NodeSpec;

/// A fault is due: inject one, and schedule the next.
pub(super) fn fault(sim: &mut Sim, now: i64) {
    let Some(c) = sim.chaos.as_mut() else {
        return;
    };
    let weights = [
        c.chaos.node_loss,
        c.chaos.am_crash,
        c.chaos.refresh,
        c.chaos.move_app,
        c.chaos.relabel,
    ];
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    let mut pick = c.below(total);
    let mut kind = 0;
    for (k, &w) in weights.iter().enumerate() {
        if pick < u64::from(w) {
            kind = k;
            break;
        }
        pick -= u64::from(w);
    }
    let gap = c.next_gap_ms();
    match kind {
        0 => lose_node(sim, now),
        1 => crash_am(sim, now),
        2 => refresh(sim, now),
        3 => move_app(sim, now),
        _ => relabel(sim, now),
    }
    sim.push_work(now.saturating_add(gap), Work::Fault);
    sim.active(now);
}

/// A NodeManager dies: the RM removes it (its containers end as lost), the simulated one
/// forgets everything, and it registers again, empty, after its downtime.
fn lose_node(sim: &mut Sim, now: i64) {
    let Some(c) = sim.chaos.as_mut() else { return };
    let up: Vec<usize> = (0..c.down.len()).filter(|&i| !c.down[i]).collect();
    // Keep at least one node, so work can always go on.
    if up.len() <= 1 {
        return;
    }
    let i = up[c.below(up.len() as u64) as usize];
    let (lo, hi) = c.chaos.node_down_ms;
    let downtime = lo + c.below((hi - lo).max(0) as u64 + 1) as i64;
    c.down[i] = true;
    c.faults.nodes_lost += 1;
    let id = sim.nms[i].id;
    let _ = sim.cs.remove_node(now, id);
    sim.nm_by_node.remove(&id);
    // Whatever ran or waited there is gone with the NodeManager.
    let opp = sim.cs.opportunistic_settings();
    let capability = sim.nms[i].capability();
    sim.nms[i] = NmSim::new(id, capability, opp.nm_max_queue_length, opp.nm_queue_policy);
    sim.push_work(now.saturating_add(downtime), Work::NodeBack(i));
}

/// A lost NodeManager registers again with nothing running.
pub(super) fn node_back(sim: &mut Sim, now: i64, i: usize) {
    let Some(c) = sim.chaos.as_mut() else { return };
    if !c.down[i] {
        return;
    }
    let capability = sim.nms[i].capability();
    let (host, rack) = sim.hosts[i].clone();
    let spec = NodeSpec::new(&host, &rack, capability);
    if let Ok(id) = sim.cs.add_node(now, &spec) {
        let opp = sim.cs.opportunistic_settings();
        sim.nms[i] = NmSim::new(id, capability, opp.nm_max_queue_length, opp.nm_queue_policy);
        sim.nm_by_node.insert(id, i);
        sim.nms[i].node_mem = super::state::node_mem(&sim.cs, id);
        if let Some(c) = sim.chaos.as_mut() {
            c.down[i] = false;
            c.faults.nodes_back += 1;
        }
    }
}

/// A running AM's container crashes: the RM starts another attempt, keeping the running
/// containers half of the time.
fn crash_am(sim: &mut Sim, now: i64) {
    let running: Vec<usize> = (0..sim.ams.len())
        .filter(|&j| sim.ams[j].state == AmState::Running)
        .collect();
    let Some(c) = sim.chaos.as_mut() else { return };
    if running.is_empty() {
        return;
    }
    let j = running[c.below(running.len() as u64) as usize];
    let keep = c.below(2) == 0;
    c.faults.am_crashes += 1;
    if keep {
        c.faults.am_crashes_keeping_containers += 1;
    }
    if let Some(app) = sim.ams[j].app {
        restart_attempt(sim, now, j, app, keep);
    }
}

/// `-refreshQueues`, alternating between the running configuration and the variant.
fn refresh(sim: &mut Sim, now: i64) {
    let Some(c) = sim.chaos.as_mut() else { return };
    let conf = match (&c.chaos.alternate, c.alternate_next) {
        (Some(alt), true) => alt.clone(),
        _ => c.original.clone(),
    };
    c.alternate_next = !c.alternate_next;
    c.faults.refreshes += 1;
    if sim.cs.refresh_queues(now, conf).is_err() {
        if let Some(c) = sim.chaos.as_mut() {
            c.faults.refreshes_refused += 1;
        }
    }
}

/// A node's host takes another of the cluster's labels, or none: running containers stay,
/// their usage moving to the new partition, the node's reservation dropped.
fn relabel(sim: &mut Sim, now: i64) {
    let labels: Vec<String> = sim
        .cs
        .cluster_node_labels()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let hosts: Vec<String> = sim.cs.nodes().map(|(_, n)| n.host.to_string()).collect();
    let Some(c) = sim.chaos.as_mut() else { return };
    if hosts.is_empty() {
        return;
    }
    let host = hosts[c.below(hosts.len() as u64) as usize].clone();
    let pick = c.below(labels.len() as u64 + 1) as usize;
    let to: Vec<String> = labels.get(pick).cloned().into_iter().collect();
    c.faults.relabels += 1;
    // Refused only if labels are disabled, which a labelled run never is.
    let _ = sim.cs.replace_labels_on_nodes(now, &[(host, to)]);
}

/// A live application moves to another leaf (refused moves change nothing).
fn move_app(sim: &mut Sim, now: i64) {
    let live: Vec<usize> = (0..sim.ams.len())
        .filter(|&j| matches!(sim.ams[j].state, AmState::Submitted | AmState::Running))
        .collect();
    sim.sync_leaves();
    let leaves: Vec<String> = sim
        .leaves
        .iter()
        .filter(|&&q| sim.cs.queue_tree().is_leaf(q))
        .map(|&q| sim.cs.queue_tree().path(q).to_string())
        .collect();
    let Some(c) = sim.chaos.as_mut() else { return };
    if live.is_empty() || leaves.is_empty() {
        return;
    }
    let j = live[c.below(live.len() as u64) as usize];
    let target = leaves[c.below(leaves.len() as u64) as usize].clone();
    if let Some(app) = sim.ams[j].app {
        if sim.cs.move_application(now, app, &target).is_ok() {
            if let Some(c) = sim.chaos.as_mut() {
                c.faults.moves += 1;
            }
        }
    }
}
