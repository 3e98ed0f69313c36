//! The RM's opportunistic allocator's state (spec O3-O5, O8): the node-queue monitor and when it
//! last sorted, the least-loaded list handed to distributed schedulers, the container updates
//! waiting for room, and the opportunistic total the invariant checker compares with the nodes'.

use std::collections::{BTreeMap, BTreeSet};

use crate::config::OpportunisticSettings;
use crate::ids::{ContainerId, NodeId};
use crate::opportunistic::load_monitor::NodeQueueLoadMonitor;
use crate::resource::Resource;

/// The opportunistic allocator's state in the RM.
#[derive(Debug, Clone)]
pub(crate) struct OpportunisticState {
    pub monitor: NodeQueueLoadMonitor<NodeId>,
    /// When the monitor last sorted (the sort runs on the first event of each interval).
    pub last_sort_ms: Option<i64>,
    /// The least-loaded list handed to distributed schedulers, and when it was last refreshed
    /// with a non-empty result (an empty one does not reset the clock, spec O3 step 1).
    pub cached_nodes: Vec<NodeId>,
    pub cached_ms: Option<i64>,
    /// Increases (promotions and resource increases) waiting for room on their node, in
    /// arrival order (spec O8).
    pub pending_increases: BTreeMap<NodeId, Vec<PendingIncrease>>,
    /// Containers with an update outstanding: one at a time per container.
    pub outstanding_updates: BTreeSet<ContainerId>,
    /// Every node's opportunistic containers (queued or running), summed: kept with the
    /// nodes' own figures (the invariant checker compares).
    pub allocated_total: Resource,
}

/// A promotion or resource increase waiting for the CapacityScheduler to find room.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PendingIncrease {
    pub container: ContainerId,
    /// What the queue, user and node are charged when it happens.
    pub delta: Resource,
    pub promote: bool,
}

impl OpportunisticState {
    pub fn new(s: &OpportunisticSettings) -> Self {
        OpportunisticState {
            monitor: NodeQueueLoadMonitor::new(s.load_comparator, s.queue_limit_calculator()),
            last_sort_ms: None,
            cached_nodes: Vec::new(),
            cached_ms: None,
            pending_increases: BTreeMap::new(),
            outstanding_updates: BTreeSet::new(),
            allocated_total: Resource::ZERO,
        }
    }
}
