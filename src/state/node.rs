//! `FiCaSchedulerNode`: a NodeManager as the scheduler sees it.

use std::collections::BTreeSet;

use crate::ids::ContainerId;
use crate::resource::Resource;
use crate::scheduler::types::ContainerReport;
use crate::state::queue::QueueId;

/// Room a preemption kill freed on a node: the leaf it was taken from, how much, and when
/// (docs/SEMANTICS.md, "Space freed by preemption").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FreedSpace {
    pub leaf: QueueId,
    pub resource: Resource,
    pub at_ms: i64,
}

/// A node being decommissioned gracefully (`NodeState.DECOMMISSIONING`): what it had before,
/// when it started, how long it may take, and the applications that ran containers on it (the
/// RM's `DecommissioningNodesWatcher` waits for them to finish too, for their shuffle data).
#[derive(Debug, Clone, PartialEq)]
pub struct Decommissioning {
    pub original_total: Resource,
    pub started_ms: i64,
    /// `None`: no timeout.
    pub timeout_ms: Option<i64>,
    pub apps: BTreeSet<crate::ids::AppId>,
}

#[derive(Debug, Clone)]
pub struct SchedulerNode {
    /// Shared: reports and preemption snapshots hand it out without copying.
    pub host: crate::sync::Arc<str>,
    /// YARN's `NodeId` as the node registered: `host:port`, or the host alone when no port
    /// was given. `host` is its host part, the name requests and blacklists use.
    pub address: crate::sync::Arc<str>,
    pub rack: String,
    /// Interned resource names of the host and the rack (request-table keys).
    pub host_name: u32,
    pub rack_name: u32,
    pub total: Resource,
    /// Resources of the containers running (or allocated) here; reservations are not counted.
    pub allocated: Resource,
    pub containers: BTreeSet<ContainerId>,
    /// Opportunistic containers sent here: they never reduce the unallocated resource.
    pub opportunistic: BTreeSet<ContainerId>,
    pub opportunistic_allocated: Resource,
    /// At most one reservation per node (spec §4.9).
    pub reserved: Option<ContainerId>,
    pub last_heartbeat_ms: i64,
    /// Containers to kill on the NM at its next heartbeat.
    pub to_kill: Vec<ContainerId>,
    /// Containers the NM reported on registration that belong to no live attempt: the NM must
    /// kill them (`killOrphanContainerOnNode`); handed back with the next heartbeat.
    pub orphans: Vec<ContainerReport>,
    /// Room freed here by preemption kills, oldest first, until a queue takes it or it ages
    /// out (`capsched.preemption.freed-space.hold-ms`): held for queues below their guarantee
    /// while `capsched.preemption.freed-space.protect` is on, and always the measure of kills
    /// whose room went back to the queue it was taken from (docs/SEMANTICS.md).
    pub freed: Vec<FreedSpace>,
    /// Killable containers here (lazy preemption), and their total.
    pub killable: BTreeSet<ContainerId>,
    pub killable_resource: Resource,
    /// Set while the node is decommissioned gracefully: it takes no new containers.
    pub decommissioning: Option<Decommissioning>,
    /// After a resource update with an overcommit timeout: when containers beyond the new
    /// total are killed (`SchedulerNode.overcommitTimeout`). `None`: never; they run on.
    pub overcommit_deadline_ms: Option<i64>,
    /// Set while a resource update has left the node running more than its total: the
    /// invariant checker allows that excess (never a new allocation) until it is gone.
    pub resized_below_use: bool,
    /// Its label's partition (`SchedulerNode.getPartition`), the default one when unlabelled.
    pub partition: crate::state::partition::Partition,
}

impl SchedulerNode {
    pub fn unallocated(&self) -> Resource {
        self.total - self.allocated
    }

    /// The room freed by preemption kills still held here.
    pub fn freed_total(&self) -> Resource {
        self.freed.iter().map(|f| f.resource).sum()
    }
}
