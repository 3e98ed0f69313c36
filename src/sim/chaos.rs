//! Faults injected into a run, for the soak test and for operators who want to see a workload
//! survive them: NodeManagers lost (their containers with them) and registering again later,
//! AM containers crashing (the next attempt keeping its running containers or not), container
//! launches lost so that the allocation expires, queue refreshes between the configuration and
//! a variant of it, applications moved between leaves. Faults arrive as a Poisson process of
//! the given rate, each kind chosen by its weight, from a generator of their own seed: the same
//! seeds replay the same run. This file says what to inject; faults.rs injects it.

use crate::sync::Arc;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::config::CapacitySchedulerConfiguration;

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
    /// A node given another of the cluster's labels, or none (its containers' usage moves
    /// with it; `replaceLabelsOnNode`). 0 in [`Chaos::everything`]: a cluster without labels
    /// has nothing to relabel.
    pub relabel: u32,
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
            relabel: 0,
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
    pub relabels: u64,
}

/// A run's fault injector.
#[derive(Debug)]
pub(super) struct ChaosState {
    pub chaos: Chaos,
    rng: Xoshiro256PlusPlus,
    /// NodeManagers lost and not yet back.
    pub down: Vec<bool>,
    /// Whether the next refresh applies the alternate configuration.
    pub alternate_next: bool,
    pub original: Arc<CapacitySchedulerConfiguration>,
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

    pub fn below(&mut self, n: u64) -> u64 {
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
