//! capsched: Apache Hadoop YARN's CapacityScheduler, re-implemented in Rust with YARN's own
//! semantics and configuration keys, for embedding through a stable C ABI.
//!
//! Layers (see docs/ARCHITECTURE.md): [`resource`] (the resource vector and YARN's two
//! calculators), [`config`] (capacity-scheduler.xml, typed and validated), [`state`] (the
//! queue tree and its derived limits; the deterministic core grows here), and the `capsched`
//! command-line tool on top.

pub mod alloc;
pub mod config;
pub mod ids;
pub mod opportunistic;
pub mod preempt;
pub mod report;
pub mod resource;
pub mod runtime;
pub mod scheduler;
pub mod sim;
pub mod state;
pub mod sync;

include!(concat!(env!("OUT_DIR"), "/version.rs"));
