//! Conformance harness: Apache Hadoop's preemption unit tests, transcribed as data in
//! `preemption-vectors.json`, rebuilt as [`PreemptionSnapshot`](crate::preempt::snapshot::PreemptionSnapshot)s
//! and run through [`PreemptionPolicy`](crate::preempt::policy::PreemptionPolicy). A tool beside
//! the simulator and the CLI, not part of the policy.
//!
//! * [`vectors`] — serde model of the file.
//! * [`setup`] — the tests' base configuration and `config_overrides`.
//! * [`matrix`] — harness A, the integer matrix of `TestProportionalCapacityPreemptionPolicy`
//!   (spec P8).
//! * [`string`] — harness B, the string mock framework (spec P9): the grammar parsers and the
//!   snapshot builder.
//! * [`scenario`] — a built snapshot with the names and figures the expectations refer to.
//! * [`run`] — drives the policy as each test does and reports `PASS` / `FAIL` / `SKIP`.
//! * [`opportunistic`] — the file's `TestNodeQueueLoadMonitor` vectors, through
//!   [`NodeQueueLoadMonitor`](crate::opportunistic::load_monitor::NodeQueueLoadMonitor).
//!
//! Used by `capsched conformance FILE…` and by `tests/conformance.rs`.
//!
//! The folder may use the policy it drives (`preempt`), the node queue load monitor
//! (`opportunistic`), the configuration and the resource types; nothing of the scheduler, the
//! runtime or the simulator. Inside it, this file is the bottom (the caps on what a vector may
//! build); `vectors` and `scenario` come next, the harnesses on them, and `run` on top.

pub mod matrix;
pub mod opportunistic;
pub mod run;
pub mod scenario;
pub mod setup;
pub mod string;
pub mod vectors;

pub use run::{run_file, run_vector, Outcome, Summary, VectorResult};

// What one vector may ask the harnesses to build. The counts come from the file (a
// `subqueues` or `apps` cell, a `repeat`, the number of items in a string); unbounded, a
// single cell could ask for gigabytes. Hadoop's own vectors stay far below (at most a dozen
// queues, two dozen apps, a few hundred containers).

/// Queues (matrix columns, queuesConfig entries) in one vector.
pub const MAX_VECTOR_QUEUES: usize = 10_000;
/// Applications in one vector.
pub const MAX_VECTOR_APPS: usize = 10_000;
/// Nodes (nodesConfig entries) in one vector.
pub const MAX_VECTOR_NODES: usize = 10_000;
/// Partitions (labelsConfig entries) in one vector.
pub const MAX_VECTOR_PARTITIONS: usize = 64;
/// Containers, live and reserved, of all the applications of one vector.
pub const MAX_VECTOR_CONTAINERS: usize = 1_000_000;
/// Phases of one vector (each builds its snapshot again).
pub const MAX_VECTOR_PHASES: usize = 64;
/// Timeline or refresh steps of one vector (each runs a policy round).
pub const MAX_VECTOR_STEPS: usize = 256;
pub use scenario::Scenario;
pub use vectors::{Vector, VectorFile};
