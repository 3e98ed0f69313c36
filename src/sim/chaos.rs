//! Faults injected into a run, for the soak test and for operators who want to see a workload
//! survive them: NodeManagers lost (their containers with them) and registering again later,
//! AM containers crashing (the next attempt keeping its running containers or not), container
//! launches lost so that the allocation expires, queue refreshes between the configuration and
//! a variant of it, applications moved between leaves. Faults arrive as a Poisson process of
//! the given rate, each kind chosen by its weight, from a generator of their own seed: the same
//! seeds replay the same run.

use std::sync::Arc;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::am::AmState;
use super::engine::{Sim, Work};
use super::jobs::restart_attempt;
use super::nm::NmSim;
use crate::config::CapacitySchedulerConfiguration;
use crate::scheduler::nodes::NodeSpec;

/// What to inject, and how often.
#[derive(Debug, Clone)]
pub struct Chaos {
    pub seed: u64,
    /// Faults per simulated minute, over the whole cluster.
    pub faults_per_minute: f64,
    /// Relative weights of the fault kinds.
    pub node_loss: u32,
    pub am_crash: u32,
    pub refresh: u32,
    pub move_app: u32,
    /// How long a lost NodeManager stays away, ms: uniform in [min, max].
    pub node_down_ms: (i64, i64),
    /// The percentage of task container launches the AM loses (the container is never
    /// started; the RM expires it after `yarn.resourcemanager.rm.container-allocation.expiry-
    /// interval-ms`).
    pub lost_launch_percent: u32,
    /// The configuration refreshes alternate with (the same queue paths, other capacities);
    /// without one, refreshes re-apply the running configuration.
    pub alternate: Option<Arc<CapacitySchedulerConfiguration>>,
}

impl Chaos {
    /// Every kind of fault, a few a minute.
    pub fn everything(seed: u64) -> Chaos {
        Chaos {
            seed,
            faults_per_minute: 3.0,
            node_loss: 3,
            am_crash: 3,
            refresh: 2,
            move_app: 2,
            node_down_ms: (5_000, 120_000),
            lost_launch_percent: 2,
            alternate: None,
        }
    }
}

/// What was injected.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Faults {
    pub nodes_lost: u64,
    pub nodes_back: u64,
    pub am_crashes: u64,
    pub am_crashes_keeping_containers: u64,
    pub launches_lost: u64,
    pub refreshes: u64,
    pub refreshes_refused: u64,
    pub moves: u64,
}

/// A run's fault injector.
#[derive(Debug)]
pub(super) struct ChaosState {
    chaos: Chaos,
    rng: Xoshiro256PlusPlus,
    /// NodeManagers lost and not yet back.
    pub down: Vec<bool>,
    /// Whether the next refresh applies the alternate configuration.
    alternate_next: bool,
    original: Arc<CapacitySchedulerConfiguration>,
    pub faults: Faults,
}

impl ChaosState {
    pub fn new(chaos: Chaos, nodes: usize, original: Arc<CapacitySchedulerConfiguration>) -> Self {
        let rng = Xoshiro256PlusPlus::seed_from_u64(chaos.seed);
        ChaosState {
            chaos,
            rng,
            down: vec![false; nodes],
            alternate_next: true,
            original,
            faults: Faults::default(),
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng.next_u64() % n.max(1)
    }

    /// The wait until the next fault: exponential with the configured rate.
    pub fn next_gap_ms(&mut self) -> i64 {
        let rate_per_ms = self.chaos.faults_per_minute.max(1e-9) / 60_000.0;
        let u = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let gap = -(1.0 - u).ln() / rate_per_ms;
        (gap as i64).clamp(1, 365 * 24 * 3600 * 1000)
    }

    /// Whether the AM loses this launch.
    pub fn lose_launch(&mut self) -> bool {
        let lost = self.below(100) < u64::from(self.chaos.lost_launch_percent);
        if lost {
            self.faults.launches_lost += 1;
        }
        lost
    }
}

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
        _ => move_app(sim, now),
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

/// A live application moves to another leaf (refused moves change nothing).
fn move_app(sim: &mut Sim, now: i64) {
    let live: Vec<usize> = (0..sim.ams.len())
        .filter(|&j| matches!(sim.ams[j].state, AmState::Submitted | AmState::Running))
        .collect();
    let leaves: Vec<String> = sim
        .leaves
        .iter()
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
