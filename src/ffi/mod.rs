//! The C ABI: the only module with `extern "C"`. It translates, nothing more: C arguments are
//! checked and turned into Rust values, the engine is called, and results go back through
//! out-parameters written only on success. Every export runs inside [`guard`], which catches
//! panics and turns every failure into a `capsched_status` plus a per-thread message
//! (`capsched_last_error`). `include/capsched.h` is generated from this module by cbindgen.
//!
//! Ids cross the boundary tagged with their engine (`ids.rs`): every id handed out carries
//! the engine's tag, every id taken in is checked and untagged before the runtime sees it.
//!
//! Thread model: an engine handle may be used from any number of threads at once;
//! `capsched_engine_free` must not race with other calls on the same handle. A configuration
//! handle is immutable once built and may be shared likewise.
//!
//! The folder is the top of the library: it may use the runtime (`Engine`, its events and
//! clocks), the scheduler's vocabulary and reports, the configuration, the resource types and
//! the ids; nothing inside the crate uses it. This file is its facade (it re-exports every
//! piece, in the order cbindgen reads them). Inside: `status` at the bottom (statuses, the
//! last error, the panic guard); `ids` (engine tags) and `types` (C value types, argument
//! readers) on it; `engine_handle` (the opaque engine and reading it from C) above those; then
//! one file per area of calls — `config`, `engine`, `apps`, `nodes`, `labels`, `queues`, `rm`,
//! `yarn` — each using only the files below it (`yarn` below `engine`, `apps` and `rm`, whose
//! events, containers and submissions carry YARN ids; `apps` below `nodes`, `labels` and `rm`).
#![allow(non_camel_case_types)]
#![allow(clippy::missing_safety_doc)]

mod status;

mod apps;
mod config;
mod engine;
mod engine_handle;
mod ids;
mod labels;
mod nodes;
mod queues;
mod rm;
mod types;
mod yarn;

pub use status::*;

pub use apps::*;
pub use config::*;
pub use engine::*;
pub use engine_handle::*;
pub use labels::*;
pub use nodes::*;
pub use queues::*;
pub use rm::*;
pub use types::*;
pub use yarn::*;
