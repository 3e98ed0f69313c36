//! The queues a running scheduler creates, as the configuration reads them: YARN 3.3's managed
//! parents and the leaves they auto-create from their template (`auto_create`), and YARN 3.4's
//! flexible auto queue creation (`flexible`: the v2 keys, a parent's templates resolved over
//! wildcard paths, the keys each dynamic queue gets from them). What such a parent holds
//! (`ManagedParent`, `FlexibleParent`) is in `queue_conf`, beside the `QueueConf` that embeds
//! it; the queues the scheduler made are spliced into a configuration by `created_queues`,
//! above the whole configuration; the run-time side is the scheduler's.
//!
//! The folder may use the configuration's base (Hadoop's `Configuration`, the keys, the typed
//! reader, a queue's types), the scheduler-wide settings and one queue's reader (`queue_read`,
//! which reads a managed parent's template as a leaf); nothing that reads or checks the whole
//! configuration, which calls it. Its two files do not use each other. This file is the facade.

pub mod auto_create;
pub mod flexible;
