//! `FiCaSchedulerNode`: a NodeManager as the scheduler sees it.

use std::collections::BTreeSet;

use crate::ids::ContainerId;
use crate::records::ContainerReport;
use crate::resource::Resource;
pub use crate::state::container::ContainerSet;
use crate::state::queue::QueueId;
use crate::sync::Arc;

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

/// What a node keeps only while something uses it: opportunistic containers, preemption's
/// killable containers and freed room, containers to kill or orphans for the next heartbeat,
/// graceful decommissioning, an overcommit timeout. Empty on most nodes most of the time, so
/// it lives behind `SchedulerNode::extras`, allocated when first needed and dropped when
/// empty again (`SchedulerNode::release_extras_if_empty`): a node pays 8 bytes for all of it
/// instead of 280 (issue 18, "Memory" in docs/PERFORMANCE.md).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NodeExtras {
    /// Opportunistic containers sent here: they never reduce the unallocated resource.
    pub opportunistic: BTreeSet<ContainerId>,
    pub opportunistic_allocated: Resource,
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
}

impl NodeExtras {
    fn is_empty(&self) -> bool {
        *self == NodeExtras::default()
    }
}

/// `FiCaSchedulerNode`. Kept small (issue 18: at most 300 bytes per node with its names and
/// indexes): what every node uses on every heartbeat is here, the rest in `extras`.
#[derive(Debug, Clone)]
pub struct SchedulerNode {
    /// Shared: reports and preemption snapshots hand it out without copying. The same `Arc`
    /// as the scheduler's interned name (`host_name`).
    pub host: Arc<str>,
    /// YARN's `NodeId` as the node registered: `host:port`, or the host alone when no port
    /// was given (then the same `Arc` as `host`). `host` is its host part, the name requests
    /// and blacklists use.
    pub address: Arc<str>,
    /// Shared by every node of the rack (the interned name, `rack_name`).
    pub rack: Arc<str>,
    /// Interned resource names of the host and the rack (request-table keys).
    pub host_name: u32,
    pub rack_name: u32,
    pub total: Resource,
    /// Resources of the containers running (or allocated) here; reservations are not counted.
    pub allocated: Resource,
    pub containers: ContainerSet,
    /// At most one reservation per node (spec §4.9).
    pub reserved: Option<ContainerId>,
    pub last_heartbeat_ms: i64,
    /// Its label's partition (`SchedulerNode.getPartition`), the default one when unlabelled.
    pub partition: crate::state::partition::Partition,
    /// The rarely used rest; `None` while all of it is empty.
    pub extras: Option<Box<NodeExtras>>,
}

/// What `SchedulerNode`'s readers of an absent `extras` see.
static NO_EXTRAS: NodeExtras = NodeExtras {
    opportunistic: BTreeSet::new(),
    opportunistic_allocated: Resource::ZERO,
    to_kill: Vec::new(),
    orphans: Vec::new(),
    freed: Vec::new(),
    killable: BTreeSet::new(),
    killable_resource: Resource::ZERO,
    decommissioning: None,
    overcommit_deadline_ms: None,
    resized_below_use: false,
};

impl SchedulerNode {
    pub fn unallocated(&self) -> Resource {
        self.total - self.allocated
    }

    /// The room freed by preemption kills still held here.
    pub fn freed_total(&self) -> Resource {
        self.freed().iter().map(|f| f.resource).sum()
    }

    /// The rarely used part, read (empty when absent).
    pub fn extras(&self) -> &NodeExtras {
        self.extras.as_deref().unwrap_or(&NO_EXTRAS)
    }

    /// The rarely used part, to change: allocated on first use.
    pub fn extras_mut(&mut self) -> &mut NodeExtras {
        self.extras.get_or_insert_with(Default::default)
    }

    /// Drops `extras` once everything in it is empty again (after a heartbeat took the
    /// containers to kill, a kill, a completion), so a node that used it once does not keep it.
    pub fn release_extras_if_empty(&mut self) {
        if self.extras.as_deref().is_some_and(NodeExtras::is_empty) {
            self.extras = None;
        }
    }

    pub fn opportunistic(&self) -> &BTreeSet<ContainerId> {
        &self.extras().opportunistic
    }

    pub fn opportunistic_allocated(&self) -> Resource {
        self.extras().opportunistic_allocated
    }

    pub fn to_kill(&self) -> &[ContainerId] {
        &self.extras().to_kill
    }

    pub fn orphans(&self) -> &[ContainerReport] {
        &self.extras().orphans
    }

    pub fn freed(&self) -> &[FreedSpace] {
        &self.extras().freed
    }

    pub fn killable(&self) -> &BTreeSet<ContainerId> {
        &self.extras().killable
    }

    pub fn killable_resource(&self) -> Resource {
        self.extras().killable_resource
    }

    pub fn decommissioning(&self) -> Option<&Decommissioning> {
        self.extras().decommissioning.as_ref()
    }

    pub fn is_decommissioning(&self) -> bool {
        self.decommissioning().is_some()
    }

    pub fn overcommit_deadline_ms(&self) -> Option<i64> {
        self.extras().overcommit_deadline_ms
    }

    pub fn resized_below_use(&self) -> bool {
        self.extras().resized_below_use
    }
}
