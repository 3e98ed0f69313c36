//! An AM's heartbeat (`AllocateRequest`) and its answer (`AllocateResponse`): asks, releases,
//! blacklist and updates in; containers, completions, headroom, preemption and update results
//! out; and the opportunistic containers a `DistributedScheduler` placed beside a node.

use super::container::{
    AllocatedContainer, ContainerStatus, UpdateContainerError, UpdateContainerRequest,
    UpdatedContainer,
};
use super::node::RemoteNode;
use super::request::{ResourceRequest, SchedulerKey};
use crate::ids::{ContainerId, NodeId, YarnContainerId};
use crate::resource::Resource;

/// An AM heartbeat (`AllocateRequest`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AllocateRequest {
    pub response_id: i32,
    pub asks: Vec<ResourceRequest>,
    pub releases: Vec<ContainerId>,
    pub blacklist_additions: Vec<String>,
    pub blacklist_removals: Vec<String>,
    /// `UpdateContainerRequest`s: promotions and demotions (spec O8).
    pub update_requests: Vec<UpdateContainerRequest>,
    /// Opportunistic containers a node's `DistributedScheduler` placed for this AM, for the RM
    /// to record (`DistributedSchedulingAllocateRequest.allocatedContainers`, spec O7).
    pub remotely_allocated: Vec<RemoteAllocation>,
}

/// One opportunistic container a `DistributedScheduler` allocated beside a node.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteAllocation {
    /// Minted locally: `containerIdStart` (RM epoch << 40) counting down.
    pub yarn_id: YarnContainerId,
    pub node: NodeId,
    pub key: SchedulerKey,
    /// Normalised by the distributed allocator.
    pub resource: Resource,
}

/// `PreemptionMessage` as the CapacityScheduler sends it (spec P7): the strict contract is
/// never filled; the negotiable `PreemptionContract` lists the containers marked for preemption
/// and one `*` request of minimum-allocation containers adding up to them — "give back this
/// much, and the listed containers may be spared".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PreemptionMessage {
    /// `StrictPreemptionContract`: containers the platform will kill regardless (always empty
    /// from the CapacityScheduler).
    pub strict: Vec<ContainerId>,
    /// `PreemptionContract.containers`.
    pub contract_containers: Vec<ContainerId>,
    /// `PreemptionContract.resourceRequest`: priority UNDEFINED (−1), `*`, the minimum
    /// allocation, ceil(Σ marked / minimum allocation) containers.
    pub contract_resources: Vec<ResourceRequest>,
}

/// `AllocateResponse`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AllocateResponse {
    pub response_id: i32,
    pub allocated: Vec<AllocatedContainer>,
    pub completed: Vec<ContainerStatus>,
    /// Headroom (`availableResources`).
    pub headroom: Resource,
    pub num_cluster_nodes: u32,
    pub preemption: Option<PreemptionMessage>,
    /// Containers whose promotion or demotion took effect (version bumped).
    pub updated: Vec<UpdatedContainer>,
    pub update_errors: Vec<UpdateContainerError>,
    /// The least-loaded nodes, for a `DistributedScheduler` (only with distributed
    /// scheduling enabled).
    pub opportunistic_nodes: Vec<RemoteNode>,
}
