//! NodeManagers from C: register, remove, heartbeat.

use super::engine_handle::{capsched_engine, handle};
use super::ids::{Ids, Kind};
use super::status::{capsched_status, guard, FfiError, FfiResult};
use super::types::*;
use crate::opportunistic::node_queue::NodeQueueReport;
use crate::records::{CompletedContainer, ContainerReport, NodeStatus, SchedulerKey};
use crate::scheduler::nodes::NodeSpec;

/// Registers a NodeManager; `*out_node` gets its id.
///
/// # Safety
/// `engine` live; the strings valid; `out_node` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_add(
    engine: *const capsched_engine,
    host: capsched_str,
    rack: capsched_str,
    resource: capsched_resource,
    out_node: *mut u64,
) -> capsched_status {
    guard(|| {
        need_out(out_node, "out_node")?;
        let h = handle(engine)?;
        let e = &h.engine;
        let host = read_str(host, "host")?;
        let rack = read_str(rack, "rack")?;
        if host.is_empty() {
            return Err(FfiError::invalid("host is empty"));
        }
        let rack = if rack.is_empty() {
            "/default-rack"
        } else {
            rack
        };
        let id = e.add_node(NodeSpec::new(host, rack, resource.into()))?;
        write_out(out_node, h.ids().node(id), "out_node")
    })
}

/// A container a NodeManager reports when it (re)registers: work-preserving recovery.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct capsched_container_report {
    pub app: u64,
    pub resource: capsched_resource,
    pub priority: i32,
    pub allocation_request_id: i64,
    /// YARN's `ContainerId.getContainerId()`: the allocating RM's epoch in bits 40 and up,
    /// the sequence number within the attempt below.
    pub container_id: i64,
    pub is_am: i32,
}

fn report_to_c(ids: Ids, r: &ContainerReport) -> capsched_container_report {
    capsched_container_report {
        app: ids.app(r.app),
        resource: r.resource.into(),
        priority: r.key.priority,
        allocation_request_id: r.key.allocation_request_id,
        container_id: r.container_id,
        is_am: i32::from(r.is_am),
    }
}

/// Registers a NodeManager that already runs containers (after an RM restart or an NM
/// re-registration): each is re-attached to its application and queue. Containers of unknown
/// or finished applications of this engine come back in the node's next heartbeat response as
/// `orphans`, for the NodeManager to kill; a report whose `app` this engine did not issue
/// (another engine's, or 0) fails the whole call with CAPSCHED_ERR_UNKNOWN_ID.
///
/// # Safety
/// As `capsched_node_add`; `reports` valid for `count` entries (NULL only with 0).
#[no_mangle]
pub unsafe extern "C" fn capsched_node_add_recovered(
    engine: *const capsched_engine,
    host: capsched_str,
    rack: capsched_str,
    resource: capsched_resource,
    reports: *const capsched_container_report,
    count: usize,
    out_node: *mut u64,
) -> capsched_status {
    guard(|| {
        need_out(out_node, "out_node")?;
        let h = handle(engine)?;
        let e = &h.engine;
        let host = read_str(host, "host")?;
        let rack = read_str(rack, "rack")?;
        if host.is_empty() {
            return Err(FfiError::invalid("host is empty"));
        }
        let rack = if rack.is_empty() {
            "/default-rack"
        } else {
            rack
        };
        let mut spec = NodeSpec::new(host, rack, resource.into());
        for (i, r) in read_slice(reports, count, "reports")?.iter().enumerate() {
            spec.containers.push(ContainerReport {
                app: h.ids().take_app_at(r.app, "reports", i)?,
                resource: r.resource.into(),
                key: SchedulerKey {
                    priority: r.priority,
                    allocation_request_id: r.allocation_request_id,
                },
                container_id: r.container_id,
                is_am: r.is_am != 0,
            });
        }
        let id = e.add_node(spec)?;
        write_out(out_node, h.ids().node(id), "out_node")
    })
}

/// Removes a node: its containers are killed as lost (their AMs hear of them).
///
/// # Safety
/// `engine` live.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_remove(
    engine: *const capsched_engine,
    node: u64,
) -> capsched_status {
    guard(|| {
        let h = handle(engine)?;
        let id = h.ids().take_node(node)?;
        h.engine
            .remove_node(id)
            .map_err(|e| h.ids().error(e, Kind::Node, node))
    })
}

/// A container the NodeManager reports finished.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_completed_container {
    pub container: u64,
    pub exit_status: i32,
    pub diagnostics: capsched_str,
}

/// The node's opportunistic queue (`OpportunisticContainersStatus`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct capsched_queue_report {
    pub queued_opportunistic: i32,
    /// Queued guaranteed plus queued opportunistic containers.
    pub wait_queue_length: i32,
    pub running_opportunistic: i32,
    pub opportunistic_resource: capsched_resource,
    pub queue_capacity: i32,
}

/// A heartbeat's content. Growable: set `struct_size = sizeof(capsched_node_status)`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_node_status {
    pub struct_size: u32,
    /// Containers launched (or queued) since the last heartbeat.
    pub launched: *const u64,
    pub launched_count: usize,
    pub completed: *const capsched_completed_container,
    pub completed_count: usize,
    /// Non-zero when `queue_report` is filled in.
    pub has_queue_report: i32,
    pub queue_report: capsched_queue_report,
}

const STATUS_V1: usize = std::mem::size_of::<capsched_node_status>();

/// What a heartbeat returns (library-owned; free with `capsched_node_response_free`).
#[repr(C)]
#[derive(Debug)]
pub struct capsched_node_response {
    /// Containers the NodeManager must kill.
    pub to_kill: *mut u64,
    pub to_kill_count: usize,
    /// Containers allocated on this node during the heartbeat.
    pub allocated: u32,
    /// Non-zero when opportunistic allocation is on: the queue limit below applies.
    pub has_queuing_limit: i32,
    pub max_queue_length: i32,
    pub max_queue_wait_ms: i32,
    /// The least-loaded nodes (distributed scheduling only), least loaded first.
    pub least_loaded: *mut u64,
    pub least_loaded_count: usize,
    /// Containers the node reported on registration that belong to no live attempt: kill
    /// them.
    pub orphans: *mut capsched_container_report,
    pub orphan_count: usize,
    /// Non-zero: the node was decommissioning and is now DECOMMISSIONED, removed from the
    /// scheduler (its id is no longer valid); the NM is to shut down.
    pub decommissioned: i32,
    /// Each guaranteed container allocated on this node during the heartbeat (`allocated`
    /// of them), for an RM that tracks containers from their allocation; their strings are
    /// owned by the response.
    pub allocated_containers: *mut super::capsched_container,
    pub allocated_container_count: usize,
}

/// The response and the strings its containers point into, freed together.
#[repr(C)]
struct NodeResponseOwner {
    public: capsched_node_response,
    strings: Vec<std::ffi::CString>,
}

unsafe fn read_status(ids: Ids, s: &capsched_node_status) -> FfiResult<NodeStatus> {
    check_struct_size(s.struct_size, STATUS_V1, "capsched_node_status")?;
    let launched = read_slice(s.launched, s.launched_count, "launched")?
        .iter()
        .enumerate()
        .map(|(i, &id)| ids.take_container_at(id, "launched", i))
        .collect::<FfiResult<_>>()?;
    let completed_slice = read_slice(s.completed, s.completed_count, "completed")?;
    let mut completed = Vec::with_capacity(completed_slice.len());
    for (i, c) in completed_slice.iter().enumerate() {
        completed.push(CompletedContainer {
            id: ids.take_container_at(c.container, "completed", i)?,
            exit_status: c.exit_status,
            diagnostics: read_str(c.diagnostics, &format!("completed[{i}].diagnostics"))?
                .to_string(),
        });
    }
    let opportunistic = (s.has_queue_report != 0).then(|| {
        let q = s.queue_report;
        NodeQueueReport {
            queued_opportunistic: q.queued_opportunistic,
            wait_queue_length: q.wait_queue_length,
            running_opportunistic: q.running_opportunistic,
            opportunistic_resource: q.opportunistic_resource.into(),
            queue_capacity: q.queue_capacity,
        }
    });
    Ok(NodeStatus {
        launched,
        completed,
        opportunistic,
    })
}

/// NODE_UPDATE. `status` may be NULL for an empty heartbeat. On success `*out` is a new
/// response. A launched or completed container this engine does not know (any more) is
/// ignored, as YARN does; one this engine did not issue (another engine's, or 0) fails the
/// whole call with CAPSCHED_ERR_UNKNOWN_ID, nothing applied.
///
/// # Safety
/// `engine` live; `status` NULL or valid with its arrays; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_update(
    engine: *const capsched_engine,
    node: u64,
    status: *const capsched_node_status,
    out: *mut *mut capsched_node_response,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let h = handle(engine)?;
        let ids = h.ids();
        let id = ids.take_node(node)?;
        let status = match status.as_ref() {
            Some(s) => read_status(ids, s)?,
            None => NodeStatus::default(),
        };
        let r = h
            .engine
            .node_update(id, status)
            .map_err(|e| ids.error(e, Kind::Node, node))?;
        let (to_kill, to_kill_count) =
            give_array(r.to_kill.iter().map(|&c| ids.container(c)).collect());
        let (least_loaded, least_loaded_count) =
            give_array(r.least_loaded.iter().map(|n| ids.node(n.node)).collect());
        let limit = r.queuing_limit;
        let (orphans, orphan_count) =
            give_array(r.orphans.iter().map(|o| report_to_c(ids, o)).collect());
        let mut strings = Vec::new();
        let (allocated_containers, allocated_container_count) = give_array(
            r.allocated_containers
                .iter()
                .map(|c| super::apps::container(ids, &mut strings, c))
                .collect(),
        );
        let public = capsched_node_response {
            to_kill,
            to_kill_count,
            allocated: r.allocated,
            has_queuing_limit: i32::from(limit.is_some()),
            max_queue_length: limit.map(|l| l.max_queue_length).unwrap_or(-1),
            max_queue_wait_ms: limit.map(|l| l.max_queue_wait_ms).unwrap_or(-1),
            least_loaded,
            least_loaded_count,
            orphans,
            orphan_count,
            decommissioned: i32::from(r.decommissioned),
            allocated_containers,
            allocated_container_count,
        };
        let owner = Box::new(NodeResponseOwner { public, strings });
        write_out(out, Box::into_raw(owner).cast(), "out")
    })
}

/// Frees a heartbeat response; NULL is fine.
///
/// # Safety
/// `r` must be NULL or from `capsched_node_update`, not freed before.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_response_free(r: *mut capsched_node_response) {
    if r.is_null() {
        return;
    }
    let owner = Box::from_raw(r.cast::<NodeResponseOwner>());
    let r = &owner.public;
    free_array(r.to_kill, r.to_kill_count);
    free_array(r.least_loaded, r.least_loaded_count);
    free_array(r.orphans, r.orphan_count);
    free_array(r.allocated_containers, r.allocated_container_count);
}
