//! Conformance harness: Apache Hadoop's preemption unit tests, transcribed as data in
//! `preemption-vectors.json`, rebuilt as [`PreemptionSnapshot`](super::snapshot::PreemptionSnapshot)s
//! and run through [`PreemptionPolicy`](super::policy::PreemptionPolicy).
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

pub mod matrix;
pub mod opportunistic;
pub mod run;
pub mod scenario;
pub mod setup;
pub mod string;
pub mod vectors;

pub use run::{run_file, run_vector, Outcome, Summary, VectorResult};
pub use scenario::Scenario;
pub use vectors::{Vector, VectorFile};
