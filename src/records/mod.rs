//! YARN's records: the values the scheduler's API speaks in, named as YARN names them
//! (`org.apache.hadoop.yarn.api.records` and the protocol records of the AM and NodeManager
//! heartbeats). They are plain data: the core's state holds them, the scheduler takes and
//! returns them, the runtime, the C ABI and the simulator pass them on. This layer may use only
//! `resource`, `ids` and `sync` (the `Arc<str>` of a host name); everything above may use it.

mod allocate;
mod app;
mod container;
mod node;
mod notice;
mod request;

pub use allocate::*;
pub use app::*;
pub use container::*;
pub use node::*;
pub use notice::*;
pub use request::*;
