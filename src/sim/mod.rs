//! The scheduler load simulator: replays YARN SLS traces against the deterministic core in
//! virtual time (discrete events), with SLS's outputs, a summary and charts.

mod am;
pub mod chaos;
pub mod charts;
pub mod default_workload;
mod engine;
mod error;
mod faults;
mod idle;
mod jobs;
pub mod limits;
mod livelock;
pub mod metrics;
mod nm;
pub mod observer;
mod opportunistic_report;
mod options;
pub mod output;
mod queue;
mod sampling;
mod setup;
mod state;
pub mod timeline;
pub mod trace;

pub use engine::{simulate, simulate_with, SimulationResult};
pub use error::SimError;
pub use metrics::LeafInfo;
pub use nm::NmStats;
pub use observer::{NoObserver, Progress, SimObserver};
pub use options::{SimulationInput, SimulationOptions};
pub use setup::{check_node_labels, split_rack_host};
