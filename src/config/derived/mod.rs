//! What YARN derives from the configuration and a cluster (or partition) size, before any
//! usage: each queue's relative and absolute capacities, normalised weights, and effective
//! (guaranteed and maximum) resources, on the default partition (`capacities`) and on each
//! labelled one (`partitions`, over the same derivation). The validation checks absolute
//! capacities with them, and the queue tree (`state::queue`) derives its values with them.
//!
//! The folder may use a queue's configuration types (`queue_conf`), the scheduler-wide
//! settings (their calculator) and the resource arithmetic; nothing that reads or checks a
//! configuration. This file is its facade.

pub mod capacities;
pub mod partitions;

pub use capacities::{derive_capacities, derive_capacities_by, QueueCapacities};
pub use partitions::{derive_partition_capacities, PartitionCapacities};
