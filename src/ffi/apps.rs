//! Applications from C: submission (accepted, or rejected with YARN's reason), attempts,
//! removal, move, priority; the AM's allocate heartbeat; container expiry.

use std::ffi::CString;

use super::engine_handle::{capsched_engine, handle};
use super::ids::{Ids, Kind};
use super::status::{capsched_status, guard, FfiError, FfiResult};
use super::types::*;
use crate::records::{
    AllocateRequest, AllocateResponse, AllocatedContainer, ContainerUpdateType, ResourceRequest,
    SchedulerKey, UpdateContainerRequest,
};
use crate::runtime::EngineError;
use crate::scheduler::apps::{AppSubmission, AttemptSubmission};

/// For `capsched_app_submit`'s priority: the leaf queue's default.
pub const CAPSCHED_DEFAULT_PRIORITY: i32 = i32::MIN;

/// A call about one application: its id checked and untagged, the call made, and an
/// "unknown" answer told with the host's id.
unsafe fn on_app<R>(
    engine: *const capsched_engine,
    app: u64,
    call: impl FnOnce(&crate::runtime::Engine, crate::ids::AppId) -> Result<R, EngineError>,
) -> FfiResult<R> {
    let h = handle(engine)?;
    let id = h.ids().take_app(app)?;
    call(&h.engine, id).map_err(|e| h.ids().error(e, Kind::Application, app))
}

/// Submits an application. Accepted: CAPSCHED_OK and `*out_app`. Rejected:
/// CAPSCHED_ERR_REJECTED with YARN's reason in `capsched_last_error` (nothing written) — an
/// unknown or non-leaf queue, a full queue, a stopped queue, a denied ACL, or an empty `user`
/// (YARN's "Null user").
///
/// # Safety
/// `engine` live; strings valid; `out_app` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_app_submit(
    engine: *const capsched_engine,
    queue: capsched_str,
    user: capsched_str,
    priority: i32,
    out_app: *mut u64,
) -> capsched_status {
    guard(|| {
        need_out(out_app, "out_app")?;
        let h = handle(engine)?;
        let mut sub = AppSubmission::new(read_str(queue, "queue")?, read_str(user, "user")?);
        if priority != CAPSCHED_DEFAULT_PRIORITY {
            sub.priority = Some(priority);
        }
        match h.engine.submit(sub)? {
            Ok(app) => write_out(out_app, h.ids().app(app), "out_app"),
            Err(rejection) => Err(FfiError(
                capsched_status::CAPSCHED_ERR_REJECTED,
                rejection.message,
            )),
        }
    })
}

/// Adds the application's next attempt; the RM asks for its AM container (unless unmanaged).
///
/// # Safety
/// `engine` live.
#[no_mangle]
pub unsafe extern "C" fn capsched_attempt_add(
    engine: *const capsched_engine,
    app: u64,
    am_resource: capsched_resource,
    unmanaged: i32,
    keep_containers: i32,
) -> capsched_status {
    guard(|| {
        let attempt = AttemptSubmission {
            am_resource: am_resource.into(),
            unmanaged: unmanaged != 0,
            keep_containers: keep_containers != 0,
            recovering: false,
        };
        on_app(engine, app, |e, id| e.add_attempt(id, attempt))
    })
}

/// APP_ATTEMPT_ADDED for an attempt an RM recovers after a work-preserving restart: the
/// attempt was running, so no AM container is asked for — its AM container, and the rest,
/// come back in `capsched_node_add_recovered` reports (`is_am` set on the AM's). Otherwise as
/// `capsched_attempt_add`.
///
/// # Safety
/// `engine` live.
#[no_mangle]
pub unsafe extern "C" fn capsched_attempt_recover(
    engine: *const capsched_engine,
    app: u64,
    am_resource: capsched_resource,
    unmanaged: i32,
) -> capsched_status {
    guard(|| {
        let attempt = AttemptSubmission {
            am_resource: am_resource.into(),
            unmanaged: unmanaged != 0,
            keep_containers: false,
            recovering: true,
        };
        on_app(engine, app, |e, id| e.add_attempt(id, attempt))
    })
}

/// Ends the current attempt; its running containers are kept for the next one when
/// `keep_containers` is non-zero, killed otherwise.
///
/// # Safety
/// `engine` live.
#[no_mangle]
pub unsafe extern "C" fn capsched_attempt_remove(
    engine: *const capsched_engine,
    app: u64,
    keep_containers: i32,
) -> capsched_status {
    guard(|| {
        on_app(engine, app, |e, id| {
            e.remove_attempt(id, keep_containers != 0)
        })
    })
}

/// The application leaves (APP_REMOVED).
///
/// # Safety
/// `engine` live.
#[no_mangle]
pub unsafe extern "C" fn capsched_app_remove(
    engine: *const capsched_engine,
    app: u64,
) -> capsched_status {
    guard(|| on_app(engine, app, |e, id| e.remove_application(id)))
}

/// Moves the application to another leaf queue (YARN's checks; CAPSCHED_ERR_REFUSED if not).
///
/// # Safety
/// `engine` live; `queue` valid.
#[no_mangle]
pub unsafe extern "C" fn capsched_app_move(
    engine: *const capsched_engine,
    app: u64,
    queue: capsched_str,
) -> capsched_status {
    guard(|| {
        let q = read_str(queue, "queue")?.to_string();
        on_app(engine, app, |e, id| e.move_application(id, q))
    })
}

/// Changes the application's priority; `*out_effective` (may be NULL) gets the priority in
/// force (clamped to the cluster maximum).
///
/// # Safety
/// `engine` live; `out_effective` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_app_set_priority(
    engine: *const capsched_engine,
    app: u64,
    priority: i32,
    out_effective: *mut i32,
) -> capsched_status {
    guard(|| {
        let p = on_app(engine, app, |e, id| {
            e.update_application_priority(id, priority)
        })?;
        if !out_effective.is_null() {
            out_effective.write(p);
        }
        Ok(())
    })
}

/// CONTAINER_EXPIRED: allocated but never launched.
///
/// # Safety
/// `engine` live.
#[no_mangle]
pub unsafe extern "C" fn capsched_container_expired(
    engine: *const capsched_engine,
    container: u64,
) -> capsched_status {
    guard(|| {
        let h = handle(engine)?;
        let id = h.ids().take_container(container)?;
        h.engine
            .container_expired(id)
            .map_err(|e| h.ids().error(e, Kind::Container, container))
    })
}

/// One ask (`ResourceRequest`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_ask {
    /// Lower numbers are more important (YARN's priority).
    pub priority: i32,
    pub allocation_request_id: i64,
    /// A host, a rack, or "*".
    pub resource_name: capsched_str,
    pub capability: capsched_resource,
    pub num_containers: i32,
    pub relax_locality: i32,
    /// CAPSCHED_GUARANTEED or CAPSCHED_OPPORTUNISTIC.
    pub execution_type: i32,
}

pub const CAPSCHED_UPDATE_INCREASE_RESOURCE: i32 = 0;
pub const CAPSCHED_UPDATE_DECREASE_RESOURCE: i32 = 1;
pub const CAPSCHED_UPDATE_PROMOTE_EXECUTION_TYPE: i32 = 2;
pub const CAPSCHED_UPDATE_DEMOTE_EXECUTION_TYPE: i32 = 3;

/// A container update (promotion, demotion, resize).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_update_request {
    pub container: u64,
    /// The version the AM holds.
    pub version: i32,
    /// CAPSCHED_UPDATE_*.
    pub update_type: i32,
    /// Target execution type for promote/demote.
    pub execution_type: i32,
    /// Target size for increase/decrease.
    pub capability: capsched_resource,
}

/// An AM heartbeat. Growable: set `struct_size = sizeof(capsched_allocate_request)`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_allocate_request {
    pub struct_size: u32,
    /// The last response's id (0 on the first call).
    pub response_id: i32,
    pub asks: *const capsched_ask,
    pub ask_count: usize,
    pub releases: *const u64,
    pub release_count: usize,
    pub blacklist_additions: *const capsched_str,
    pub blacklist_addition_count: usize,
    pub blacklist_removals: *const capsched_str,
    pub blacklist_removal_count: usize,
    pub updates: *const capsched_update_request,
    pub update_count: usize,
    /// Each ask's node-label expression (YARN's `ResourceRequest.getNodeLabelExpression()`),
    /// beside `asks` rather than in `capsched_ask` so that array's layout stays: entry `i` is
    /// `asks[i]`'s. `ask_label_count` is 0 (no ask has one; `ask_labels` may be NULL) or
    /// `ask_count`. An entry with a NULL `ptr` (and `len` 0) has none, as YARN's unset
    /// expression: an ANY ask then takes the application's label, else its queue's
    /// `default-node-label-expression`. Any other entry is the expression, trimmed; an empty
    /// one names the default partition. Only ANY asks may name a label, one label only, one
    /// the cluster has and the queue may access (YARN's messages, CAPSCHED_ERR_REFUSED).
    /// The second version of this struct (added within ABI 3).
    pub ask_labels: *const capsched_str,
    pub ask_label_count: usize,
}

/// The size of the first version, before `ask_labels`.
const REQUEST_V1: usize = std::mem::offset_of!(capsched_allocate_request, ask_labels);

/// A container handed to the AM.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_container {
    pub id: u64,
    /// Its YARN ContainerId (which names the application and attempt).
    pub yarn_id: super::capsched_yarn_id,
    pub node: u64,
    /// The node's NodeId as it registered (`host:port`, or the host), owned by the response.
    pub host: capsched_str,
    pub priority: i32,
    pub allocation_request_id: i64,
    pub resource: capsched_resource,
    pub execution_type: i32,
    /// The container token's version (bumped by promotion, demotion, resize).
    pub version: i32,
    pub is_am: i32,
    pub remotely_allocated: i32,
    /// CAPSCHED_NODE_LOCAL, CAPSCHED_RACK_LOCAL or CAPSCHED_OFF_SWITCH: the locality it was
    /// allocated at.
    pub locality: i32,
}

/// A finished container as its AM learns of it.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_container_status {
    pub container: u64,
    /// Its YARN ContainerId (the handle above is no longer valid).
    pub yarn_id: super::capsched_yarn_id,
    pub exit_status: i32,
    /// Owned by the response.
    pub diagnostics: capsched_str,
}

/// A container update that took effect.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_updated_container {
    pub update_type: i32,
    pub container: capsched_container,
}

/// A refused update, with YARN's reason and the container's current version (-1: unknown).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_update_error {
    pub container: u64,
    pub reason: capsched_str,
    pub current_version: i32,
}

/// The answer to an AM heartbeat (library-owned; free with `capsched_allocate_response_free`).
#[repr(C)]
#[derive(Debug)]
pub struct capsched_allocate_response {
    pub response_id: i32,
    pub allocated: *mut capsched_container,
    pub allocated_count: usize,
    pub completed: *mut capsched_container_status,
    pub completed_count: usize,
    pub headroom: capsched_resource,
    pub num_cluster_nodes: u32,
    /// The preemption message's contract: containers marked for preemption (the AM may give
    /// back the same resources instead), and what they add up to.
    pub preempt_containers: *mut u64,
    pub preempt_count: usize,
    pub preempt_resource: capsched_resource,
    pub updated: *mut capsched_updated_container,
    pub updated_count: usize,
    pub update_errors: *mut capsched_update_error,
    pub update_error_count: usize,
}

/// The response and the strings its entries point into.
#[repr(C)]
struct ResponseOwner {
    public: capsched_allocate_response,
    strings: Vec<CString>,
}

pub(crate) fn keep(strings: &mut Vec<CString>, s: &str) -> capsched_str {
    let c = CString::new(s.replace('\0', "\\0")).unwrap_or_default();
    let out = capsched_str {
        ptr: c.as_ptr(),
        len: c.as_bytes().len(),
    };
    strings.push(c); // the heap buffer does not move with the CString
    out
}

pub(crate) fn container(
    ids: Ids,
    strings: &mut Vec<CString>,
    c: &AllocatedContainer,
) -> capsched_container {
    capsched_container {
        id: ids.container(c.id),
        yarn_id: c.yarn_id.into(),
        node: ids.node(c.node),
        host: keep(strings, &c.host),
        priority: c.key.priority,
        allocation_request_id: c.key.allocation_request_id,
        resource: c.resource.into(),
        execution_type: execution_code(c.execution_type),
        version: c.version,
        is_am: i32::from(c.is_am),
        remotely_allocated: i32::from(c.remotely_allocated),
        locality: super::locality_code(c.node_type),
    }
}

fn update_code(t: ContainerUpdateType) -> i32 {
    match t {
        ContainerUpdateType::IncreaseResource => CAPSCHED_UPDATE_INCREASE_RESOURCE,
        ContainerUpdateType::DecreaseResource => CAPSCHED_UPDATE_DECREASE_RESOURCE,
        ContainerUpdateType::PromoteExecutionType => CAPSCHED_UPDATE_PROMOTE_EXECUTION_TYPE,
        ContainerUpdateType::DemoteExecutionType => CAPSCHED_UPDATE_DEMOTE_EXECUTION_TYPE,
    }
}

/// The asks' label expressions: none, or one entry (maybe unset) per ask.
unsafe fn read_ask_labels(r: &capsched_allocate_request) -> FfiResult<Vec<Option<String>>> {
    if r.ask_label_count == 0 {
        return Ok(vec![None; r.ask_count]);
    }
    if r.ask_label_count != r.ask_count {
        return Err(FfiError::invalid(format!(
            "ask_label_count is {} but ask_count is {}: one label expression per ask, or \
             ask_label_count 0 for none",
            r.ask_label_count, r.ask_count
        )));
    }
    read_slice(r.ask_labels, r.ask_label_count, "ask_labels")?
        .iter()
        .enumerate()
        .map(|(i, l)| Ok(read_opt_str(*l, &format!("ask_labels[{i}]"))?.map(str::to_string)))
        .collect()
}

/// Reads a host's allocate request, of whichever version of the struct it was built with (an
/// earlier one is read up to its end; the later fields take their defaults).
///
/// # Safety
/// `request` NULL or valid for its `struct_size` bytes, with its arrays.
unsafe fn read_request(
    ids: Ids,
    request: *const capsched_allocate_request,
) -> FfiResult<AllocateRequest> {
    // All zero: no arrays, and (for a host of the first version) no label expressions.
    let defaults: capsched_allocate_request = std::mem::zeroed();
    let r = read_growable(
        request,
        REQUEST_V1,
        defaults,
        "request",
        "capsched_allocate_request",
    )?;
    let names = |p: *const capsched_str, n: usize, what: &str| -> FfiResult<Vec<String>> {
        read_slice(p, n, what)?
            .iter()
            .enumerate()
            .map(|(i, s)| read_str(*s, &format!("{what}[{i}]")).map(str::to_string))
            .collect()
    };
    // Ids first: another engine's id is refused as such, whatever else is wrong.
    let releases = read_slice(r.releases, r.release_count, "releases")?
        .iter()
        .enumerate()
        .map(|(i, &c)| ids.take_container_at(c, "releases", i))
        .collect::<FfiResult<_>>()?;
    // Each array read (its count checked) before anything is sized by that count.
    let update_slice = read_slice(r.updates, r.update_count, "updates")?;
    let mut updates = Vec::with_capacity(update_slice.len());
    for (i, u) in update_slice.iter().enumerate() {
        let update_type = match u.update_type {
            CAPSCHED_UPDATE_INCREASE_RESOURCE => ContainerUpdateType::IncreaseResource,
            CAPSCHED_UPDATE_DECREASE_RESOURCE => ContainerUpdateType::DecreaseResource,
            CAPSCHED_UPDATE_PROMOTE_EXECUTION_TYPE => ContainerUpdateType::PromoteExecutionType,
            CAPSCHED_UPDATE_DEMOTE_EXECUTION_TYPE => ContainerUpdateType::DemoteExecutionType,
            other => return Err(FfiError::invalid(format!("unknown update type {other}"))),
        };
        let resize = matches!(
            update_type,
            ContainerUpdateType::IncreaseResource | ContainerUpdateType::DecreaseResource
        );
        updates.push(UpdateContainerRequest {
            container: ids.take_container_at(u.container, "updates", i)?,
            version: u.version,
            update_type,
            execution_type: execution_type(u.execution_type)?,
            capability: resize.then(|| u.capability.into()),
        });
    }
    let ask_slice = read_slice(r.asks, r.ask_count, "asks")?;
    let labels = read_ask_labels(&r)?;
    let mut asks = Vec::with_capacity(ask_slice.len());
    for ((i, a), label) in ask_slice.iter().enumerate().zip(labels) {
        asks.push(ResourceRequest {
            node_label_expression: label,
            key: SchedulerKey {
                priority: a.priority,
                allocation_request_id: a.allocation_request_id,
            },
            resource_name: read_str(a.resource_name, &format!("asks[{i}].resource_name"))?
                .to_string(),
            capability: a.capability.into(),
            num_containers: a.num_containers,
            relax_locality: a.relax_locality != 0,
            execution_type: execution_type(a.execution_type)?,
        });
    }
    Ok(AllocateRequest {
        response_id: r.response_id,
        asks,
        releases,
        blacklist_additions: names(
            r.blacklist_additions,
            r.blacklist_addition_count,
            "blacklist_additions",
        )?,
        blacklist_removals: names(
            r.blacklist_removals,
            r.blacklist_removal_count,
            "blacklist_removals",
        )?,
        update_requests: updates,
        remotely_allocated: Vec::new(),
    })
}

fn give_response(ids: Ids, r: AllocateResponse) -> *mut capsched_allocate_response {
    let mut strings = Vec::new();
    let allocated: Vec<_> = r
        .allocated
        .iter()
        .map(|c| container(ids, &mut strings, c))
        .collect();
    let completed: Vec<_> = r
        .completed
        .iter()
        .map(|s| capsched_container_status {
            container: ids.container(s.id),
            yarn_id: s.yarn_id.into(),
            exit_status: s.exit_status,
            diagnostics: keep(&mut strings, &s.diagnostics),
        })
        .collect();
    let updated: Vec<_> = r
        .updated
        .iter()
        .map(|u| capsched_updated_container {
            update_type: update_code(u.update_type),
            container: container(ids, &mut strings, &u.container),
        })
        .collect();
    let errors: Vec<_> = r
        .update_errors
        .iter()
        .map(|e| capsched_update_error {
            container: ids.container(e.request.container),
            reason: keep(&mut strings, &e.reason),
            current_version: e.current_version,
        })
        .collect();
    let (preempt, preempt_resource) = match &r.preemption {
        Some(m) => (
            m.contract_containers
                .iter()
                .map(|&c| ids.container(c))
                .collect(),
            m.contract_resources
                .iter()
                .map(|a| a.capability.multiply_count(a.num_containers))
                .sum(),
        ),
        None => (Vec::new(), crate::resource::Resource::ZERO),
    };
    let (allocated, allocated_count) = give_array(allocated);
    let (completed, completed_count) = give_array(completed);
    let (updated, updated_count) = give_array(updated);
    let (update_errors, update_error_count) = give_array(errors);
    let (preempt_containers, preempt_count) = give_array(preempt);
    let owner = Box::new(ResponseOwner {
        public: capsched_allocate_response {
            response_id: r.response_id,
            allocated,
            allocated_count,
            completed,
            completed_count,
            headroom: r.headroom.into(),
            num_cluster_nodes: r.num_cluster_nodes,
            preempt_containers,
            preempt_count,
            preempt_resource: preempt_resource.into(),
            updated,
            updated_count,
            update_errors,
            update_error_count,
        },
        strings,
    });
    Box::into_raw(owner).cast()
}

/// The AM heartbeat (`allocate`). On success `*out` is a new response. A request YARN would
/// refuse (bad response id, invalid ask, another application's release, "*" blacklisted)
/// fails with CAPSCHED_ERR_REFUSED and YARN's message; nothing in it is applied. A release of
/// a container this engine no longer knows is ignored, as YARN does; a container id in
/// `releases` or `updates` that this engine did not issue (another engine's, or 0) fails the
/// call with CAPSCHED_ERR_UNKNOWN_ID, nothing applied.
///
/// # Safety
/// `engine` live; `request` valid with its arrays; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_allocate(
    engine: *const capsched_engine,
    app: u64,
    request: *const capsched_allocate_request,
    out: *mut *mut capsched_allocate_response,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let h = handle(engine)?;
        let ids = h.ids();
        let id = ids.take_app(app)?;
        let req = read_request(ids, request)?;
        let r = h
            .engine
            .allocate(id, req)
            .map_err(|e| ids.error(e, Kind::Application, app))?;
        write_out(out, give_response(ids, r), "out")
    })
}

/// Frees an allocate response; NULL is fine.
///
/// # Safety
/// `r` must be NULL or from `capsched_allocate`, not freed before.
#[no_mangle]
pub unsafe extern "C" fn capsched_allocate_response_free(r: *mut capsched_allocate_response) {
    if r.is_null() {
        return;
    }
    let owner = Box::from_raw(r.cast::<ResponseOwner>());
    let p = &owner.public;
    free_array(p.allocated, p.allocated_count);
    free_array(p.completed, p.completed_count);
    free_array(p.updated, p.updated_count);
    free_array(p.update_errors, p.update_error_count);
    free_array(p.preempt_containers, p.preempt_count);
}
