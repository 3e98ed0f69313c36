//! Runs a simulation the way the simulation tests want it: the invariant checker after every
//! event, and a run that must end with every job finished and every kill on the chart.

use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::sim::trace::{TraceJob, TraceNode};
use capsched::sim::{simulate, SimulationInput, SimulationOptions, SimulationResult};

/// Simulates `jobs` on `nodes` under the configuration `properties`; `preemption` is the
/// `--preemption` option (`None`: as the configuration says).
pub fn run_checked(
    properties: &str,
    nodes: Vec<TraceNode>,
    jobs: Vec<TraceJob>,
    preemption: Option<bool>,
) -> SimulationResult {
    let conf = CapacitySchedulerConfiguration::from_properties_str(properties).unwrap();
    let input = SimulationInput {
        conf: Arc::new(conf),
        nodes,
        jobs,
    };
    let opts = SimulationOptions {
        check_invariants: true,
        preemption,
        ..SimulationOptions::default()
    };
    let r = simulate(input, opts).unwrap();
    assert!(!r.timed_out);
    assert!(
        r.jobs.iter().all(|j| j.finish_ms.is_some()),
        "every job finishes"
    );
    // Every kill is on the chart: the kept samples' kills add up to the run's.
    let charted: u64 = r
        .samples
        .iter()
        .flat_map(|s| s.queues.iter().map(|q| q.killed))
        .sum();
    assert_eq!(charted, r.containers_preempted);
    r
}
