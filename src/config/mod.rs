//! Configuration: Hadoop's key/value `Configuration` (XML and properties, `${var}`
//! substitution) and, on top of it, the typed and validated CapacityScheduler configuration.

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
