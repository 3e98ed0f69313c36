//! Configuration: Hadoop's key/value `Configuration` (XML and properties, `${var}`
//! substitution) and, on top of it, the typed and validated CapacityScheduler configuration.
//! The folder owns every key capsched reads, how it is read and checked, and the capacities a
//! configuration gives for a cluster size; it may use only the resource types and arithmetic
//! (`resource`), the node queue policies its opportunistic keys name (`opportunistic`) and the
//! crate's helpers (`echo`, `files`, `sync`). The state, the scheduler and everything above
//! them use it, never the reverse. Its layers, each using only those below it:
//!
//! * the base: Hadoop's `Configuration` and Java's semantics (`hadoop/`), key names (`keys`),
//!   caps (`limits`), errors and refusal messages (`error`, `messages`), ACLs (`acl`), and a
//!   queue's types (`queue_conf`, with its node-label settings in `node_labels`);
//! * the readers: `reader` (typed reads that collect errors) and what reads with it — the
//!   scheduler-wide settings (`settings`), one queue (`queue_names`, `queue_read`,
//!   `node_labels_read`), the parents that create queues (`auto_queues/`), placement
//!   (`placement/`), opportunistic containers (`opportunistic`);
//! * the capacities a cluster size gives (`derived/`), and the hierarchy's checks with them
//!   (`validate`);
//! * the whole: `CapacitySchedulerConfiguration` (`capacity`, and `created_queues`, which adds
//!   the queues a running scheduler makes).
//!
//! This file is the facade.

pub mod acl;
pub mod auto_queues;
mod capacity;
mod created_queues;
pub mod derived;
mod error;
pub mod hadoop;
pub mod keys;
pub mod limits;
mod messages;
pub mod node_labels;
mod node_labels_read;
pub mod opportunistic;
pub mod placement;
mod queue_conf;
mod queue_names;
mod queue_read;
mod reader;
mod settings;
mod validate;

pub use acl::AccessControlList;
pub use capacity::{CapacitySchedulerConfiguration, SEED_PROPERTIES};
pub use error::{ConfigError, ConfigErrors};
pub use hadoop::Configuration;
pub use opportunistic::OpportunisticSettings;
pub use queue_conf::*;
pub use settings::{
    AsyncSchedulingSettings, IntraQueuePreemptionOrder, PreemptionSettings, SchedulerSettings,
};
