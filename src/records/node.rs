//! A NodeManager's side of the protocol: its heartbeat (with the opportunistic queue's state), the
//! containers it reports when it registers, and what a heartbeat returns (containers to kill,
//! the queuing limit, the least-loaded nodes).

use super::container::{AllocatedContainer, CompletedContainer, ContainerReport};
use crate::ids::{ContainerId, NodeId};
use crate::resource::Resource;

/// What every NM heartbeat response carries (`ContainerQueuingLimit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContainerQueuingLimit {
    pub max_queue_length: i32,
    pub max_queue_wait_ms: i32,
}

/// The opportunistic part of a node's heartbeat (`OpportunisticContainersStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeQueueReport {
    pub queued_opportunistic: i32,
    /// Queued guaranteed plus queued opportunistic.
    pub wait_queue_length: i32,
    pub running_opportunistic: i32,
    pub opportunistic_resource: Resource,
    pub queue_capacity: i32,
}

/// A NodeManager heartbeat's content.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeStatus {
    /// Containers the NM launched (or queued) since the last heartbeat (ACQUIRED → RUNNING).
    pub launched: Vec<ContainerId>,
    pub completed: Vec<CompletedContainer>,
    /// `OpportunisticContainersStatus`: the node's queue, for the least-loaded list and the
    /// queue limit (spec O4). `None` from a node that does not report one.
    pub opportunistic: Option<NodeQueueReport>,
}

/// A node in the least-loaded list the RM hands out (`RemoteNode`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteNode {
    pub node: NodeId,
    pub host: crate::sync::Arc<str>,
    pub rack: String,
}

/// What a node heartbeat returns to the host.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NodeUpdateResponse {
    /// Containers the NM must kill (released or killed by the scheduler while running there).
    pub to_kill: Vec<ContainerId>,
    /// Containers allocated on this node during the heartbeat.
    pub allocated: u32,
    /// Containers the NM reported when it registered that belong to no live application
    /// attempt: the NM must kill them.
    pub orphans: Vec<ContainerReport>,
    /// `ContainerQueuingLimit` (spec O5), sent while opportunistic allocation is enabled: the
    /// node sheds queued opportunistic containers beyond it.
    pub queuing_limit: Option<ContainerQueuingLimit>,
    /// The least-loaded nodes for the node's `DistributedScheduler` (distributed scheduling
    /// only).
    pub least_loaded: Vec<RemoteNode>,
    /// Containers killed on this node with −102 during this heartbeat — of other queues, to
    /// make room for its allocations (lazy preemption), or beyond the total of an
    /// overcommitted node whose timeout has passed; they are in `to_kill` too.
    pub preempted: Vec<ContainerId>,
    /// Each container allocated on this node during the heartbeat (as `allocated` counts
    /// them), for an RM that tracks containers from their allocation.
    pub allocated_containers: Vec<AllocatedContainer>,
    /// The node was decommissioning and is now DECOMMISSIONED: removed from the scheduler
    /// (the RM tells the NM to shut down).
    pub decommissioned: bool,
}
