//! The vocabulary of the scheduler's API, in YARN's terms: resource requests, container states
//! and exit statuses, node and AM heartbeats, and the answers to them.

use crate::ids::{AppId, ContainerId, NodeId, YarnContainerId};
use crate::resource::Resource;

/// YARN's `ContainerExitStatus` values (hadoop-yarn-api, spec §3.6).
pub mod exit_status {
    pub const SUCCESS: i32 = 0;
    pub const INVALID: i32 = -1000;
    pub const ABORTED: i32 = -100;
    pub const DISKS_FAILED: i32 = -101;
    pub const PREEMPTED: i32 = -102;
    pub const KILLED_EXCEEDED_VMEM: i32 = -103;
    pub const KILLED_EXCEEDED_PMEM: i32 = -104;
    pub const KILLED_BY_APPMASTER: i32 = -105;
    pub const KILLED_BY_RESOURCEMANAGER: i32 = -106;
    pub const KILLED_AFTER_APP_COMPLETION: i32 = -107;
    pub const KILLED_BY_CONTAINER_SCHEDULER: i32 = -108;
    pub const KILLED_FOR_EXCESS_LOGS: i32 = -109;
}

/// Diagnostics YARN attaches to containers the scheduler completes.
pub mod diagnostics {
    pub const RELEASED_BY_APPLICATION: &str = "Container released by application";
    pub const COMPLETED_APPLICATION: &str = "Container of a completed application";
    pub const LOST_NODE: &str = "Container released on a *lost* node";
    pub const EXPIRED: &str = "Container expired since it was unused";
    pub const UNRESERVED: &str = "Container reservation no longer required.";
    pub const PREEMPTED: &str = "Container preempted by scheduler";
    pub const APPLICATION_COMPLETE: &str = "Application Complete";
}

/// `ExecutionType`: guaranteed containers go through the capacity scheduler; opportunistic
/// ones are recorded for the opportunistic allocator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ExecutionType {
    #[default]
    Guaranteed,
    Opportunistic,
}

/// A request's scheduler key: priority (lower number = more important), then allocation id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SchedulerKey {
    pub priority: i32,
    pub allocation_request_id: i64,
}

impl SchedulerKey {
    pub const fn new(priority: i32) -> Self {
        SchedulerKey {
            priority,
            allocation_request_id: 0,
        }
    }
}

/// The resource name of an ask that may be satisfied anywhere.
pub const ANY: &str = "*";

/// One AM ask (`ResourceRequest`): `count` containers of `capability` at `resource_name`
/// (a host, a rack, or `*`).
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceRequest {
    pub key: SchedulerKey,
    pub resource_name: String,
    pub capability: Resource,
    pub num_containers: i32,
    pub relax_locality: bool,
    pub execution_type: ExecutionType,
    /// The node-label expression (`ResourceRequest.getNodeLabelExpression`): one label, on
    /// ANY asks only; `None` takes the application's, then the queue's default.
    pub node_label_expression: Option<String>,
}

impl ResourceRequest {
    /// The same ask with a node-label expression.
    pub fn with_label(mut self, label: &str) -> Self {
        self.node_label_expression = Some(label.to_string());
        self
    }

    /// An off-switch ask (`*`) with relaxed locality, the common case.
    pub fn any(priority: i32, capability: Resource, num_containers: i32) -> Self {
        ResourceRequest {
            key: SchedulerKey::new(priority),
            resource_name: ANY.to_string(),
            capability,
            num_containers,
            relax_locality: true,
            execution_type: ExecutionType::Guaranteed,
            node_label_expression: None,
        }
    }

    pub fn at(
        priority: i32,
        resource_name: &str,
        capability: Resource,
        num_containers: i32,
    ) -> Self {
        ResourceRequest {
            resource_name: resource_name.to_string(),
            ..Self::any(priority, capability, num_containers)
        }
    }
}

/// `RMContainerState` (spec §3.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContainerState {
    New,
    Reserved,
    Allocated,
    Acquired,
    Running,
    Completed,
    Released,
    Killed,
    Expired,
}

impl ContainerState {
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            ContainerState::Completed
                | ContainerState::Released
                | ContainerState::Killed
                | ContainerState::Expired
        )
    }
}

/// How well an allocation matched its ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeType {
    NodeLocal,
    RackLocal,
    OffSwitch,
}

/// A container handed to an AM.
#[derive(Debug, Clone, PartialEq)]
pub struct AllocatedContainer {
    pub id: ContainerId,
    pub yarn_id: YarnContainerId,
    pub node: NodeId,
    /// The node's `NodeId` as it registered (`host:port`, or the host): the node's own
    /// shared string, so handing out a container copies no name.
    pub host: crate::sync::Arc<str>,
    pub resource: Resource,
    pub key: SchedulerKey,
    pub execution_type: ExecutionType,
    pub is_am: bool,
    /// The container token's version: 0 at allocation, bumped by every promotion, demotion or
    /// resize. A NodeManager refuses an update whose token version is not newer.
    pub version: i32,
    /// Allocated by a node's `DistributedScheduler` and recorded by the RM.
    pub remotely_allocated: bool,
    /// The locality it was allocated at (opportunistic containers: as placed).
    pub node_type: NodeType,
}

/// A finished container, as reported to its AM (`ContainerStatus` with state COMPLETE).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerStatus {
    pub id: ContainerId,
    pub yarn_id: YarnContainerId,
    pub exit_status: i32,
    pub diagnostics: String,
}

/// A container the NodeManager reports finished (NODE_UPDATE).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletedContainer {
    pub id: ContainerId,
    pub exit_status: i32,
    pub diagnostics: String,
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

/// A container a NodeManager reports when it (re)registers: work-preserving recovery.
#[derive(Debug, Clone, PartialEq)]
pub struct ContainerReport {
    pub app: AppId,
    pub resource: Resource,
    pub key: SchedulerKey,
    /// YARN's `ContainerId.getContainerId()`: the epoch of the RM that allocated it (bits 40
    /// and up) and its sequence number within its attempt (the low 40 bits).
    pub container_id: i64,
    pub is_am: bool,
}

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

/// `ContainerUpdateType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContainerUpdateType {
    IncreaseResource,
    DecreaseResource,
    PromoteExecutionType,
    DemoteExecutionType,
}

/// `UpdateContainerRequest`: change a running container's execution type (or size).
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateContainerRequest {
    pub container: ContainerId,
    /// The version the AM holds; must equal the container's current version.
    pub version: i32,
    pub update_type: ContainerUpdateType,
    /// The target type for promote/demote.
    pub execution_type: ExecutionType,
    /// The target size for increase/decrease.
    pub capability: Option<Resource>,
}

impl UpdateContainerRequest {
    pub fn promote(container: ContainerId, version: i32) -> Self {
        UpdateContainerRequest {
            container,
            version,
            update_type: ContainerUpdateType::PromoteExecutionType,
            execution_type: ExecutionType::Guaranteed,
            capability: None,
        }
    }

    pub fn demote(container: ContainerId, version: i32) -> Self {
        UpdateContainerRequest {
            container,
            version,
            update_type: ContainerUpdateType::DemoteExecutionType,
            execution_type: ExecutionType::Opportunistic,
            capability: None,
        }
    }
}

/// `UpdateContainerError`: why an update was refused, with the container's current version
/// (−1 when the container is unknown).
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateContainerError {
    /// YARN's reason string (`INVALID_CONTAINER_ID`, `INCORRECT_CONTAINER_VERSION_ERROR`, …).
    pub reason: String,
    pub current_version: i32,
    pub request: UpdateContainerRequest,
}

/// `UpdatedContainer`: a container whose update took effect, with its new version.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdatedContainer {
    pub update_type: ContainerUpdateType,
    pub container: AllocatedContainer,
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

/// A node in the least-loaded list the RM hands out (`RemoteNode`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteNode {
    pub node: NodeId,
    pub host: crate::sync::Arc<str>,
    pub rack: String,
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

/// YARN's `Priority.UNDEFINED`.
pub const PRIORITY_UNDEFINED: i32 = -1;

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

/// Why an application was rejected at submission (APP_REJECTED).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub message: String,
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rejection {}

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
    pub queuing_limit: Option<crate::opportunistic::load_monitor::ContainerQueuingLimit>,
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
