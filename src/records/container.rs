//! A container as the scheduler's callers see it: its state (`RMContainerState`), exit statuses
//! and diagnostics, what an AM is handed and told when one finishes, what a NodeManager reports
//! of it, and the container updates an AM asks for with their answers.

use super::request::{ExecutionType, SchedulerKey};
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
#[derive(Debug, Clone, PartialEq, Eq)]
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
