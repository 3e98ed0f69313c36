//! What the scheduler keeps of the queues it creates at run time, between events: the
//! auto-created leaves' policy memory (YARN 3.3's `GuaranteedOrZeroCapacityOverTimePolicy`) and
//! the dynamic queues' last activity with the deletion policy's marks (YARN 3.4's
//! `AutoCreatedQueueDeletionPolicy`). The scheduler's `placement` module runs both.

use std::collections::{BTreeSet, HashMap};

/// The policy's memory per managed parent and partition (`ParentQueueState`): the absolute
/// capacity its active leaves hold there, kept as YARN keeps it — a float moved by each
/// activation and deactivation — so that rounding matches.
#[derive(Debug, Default, Clone)]
pub(crate) struct QueueManagementState {
    /// By (parent path, label; `""` the default partition).
    pub activated: HashMap<(String, String), f32>,
}

/// The deletion policy's memory and each dynamic queue's last activity
/// (`lastSubmittedTimestamp`: a leaf's last submission, a parent's last new child).
#[derive(Debug, Default, Clone)]
pub(crate) struct DynamicQueueState {
    pub last_activity_ms: HashMap<String, i64>,
    pub marked: BTreeSet<String>,
    pub sent: BTreeSet<String>,
}
