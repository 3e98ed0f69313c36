//! `FiCaSchedulerNode`: a NodeManager as the scheduler sees it.

use std::collections::BTreeSet;

use crate::ids::ContainerId;
use crate::resource::Resource;
use crate::scheduler::types::ContainerReport;

#[derive(Debug, Clone)]
pub struct SchedulerNode {
    /// Shared: reports and preemption snapshots hand it out without copying.
    pub host: crate::sync::Arc<str>,
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
}

impl SchedulerNode {
    pub fn unallocated(&self) -> Resource {
        self.total - self.allocated
    }
}
