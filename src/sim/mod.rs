//! The scheduler load simulator: replays YARN SLS traces against the deterministic core in
//! virtual time (discrete events), with SLS's outputs, a summary and charts.

mod am;
pub mod chaos;
pub mod charts;
pub mod default_workload;
mod engine;
mod idle;
mod jobs;
pub mod limits;
pub mod metrics;
mod nm;
pub mod observer;
pub mod output;
mod sampling;
mod setup;
pub mod trace;

pub use engine::{
    simulate, simulate_with, split_rack_host, LeafInfo, SimError, SimulationInput,
    SimulationOptions, SimulationResult,
};
pub use observer::{NoObserver, Progress, SimObserver};
