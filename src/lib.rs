//! capsched: Apache Hadoop YARN's CapacityScheduler, re-implemented in Rust with YARN's own
//! semantics and configuration keys, for embedding through a stable C ABI.
//!
//! Layers (see docs/ARCHITECTURE.md): [`resource`] (the resource vector and YARN's two
//! calculators), [`config`] (capacity-scheduler.xml, typed and validated), [`state`] (the
//! queue tree and its derived limits; the deterministic core grows here), and the `capsched`
//! command-line tool on top.

/// cbindgen:ignore
pub mod config;
/// cbindgen:ignore
pub mod conformance;
/// cbindgen:ignore
pub mod echo;
pub mod ffi;
/// cbindgen:ignore
pub mod files;
/// cbindgen:ignore
pub mod ids;
/// cbindgen:ignore
pub mod opportunistic;
/// cbindgen:ignore
pub mod preempt;
/// cbindgen:ignore
pub mod records;
/// cbindgen:ignore
pub mod report;
/// cbindgen:ignore
pub mod resource;
/// cbindgen:ignore
pub mod runtime;
/// cbindgen:ignore
pub mod scheduler;
/// cbindgen:ignore
pub mod sim;
/// cbindgen:ignore
pub mod state;
/// cbindgen:ignore
pub mod sync;

// The C ABI is all of `ffi` (cbindgen reads only it: the other modules carry
// `cbindgen:ignore`).
include!(concat!(env!("OUT_DIR"), "/version.rs"));
