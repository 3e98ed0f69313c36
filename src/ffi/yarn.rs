//! YARN's own ids and the RM's reports from C: the `capsched_yarn_id` every container and
//! event carries, formatting and parsing YARN's string forms, finding an engine handle from a
//! YARN id, the AM container the RM launches, and the application and container reports.

use super::engine_handle::{capsched_engine, handle};
use super::ids::{Ids, Kind};
use super::status::{capsched_status, guard, FfiError, FfiResult};
use super::types::*;
use crate::echo::echo;
use crate::ids::{ApplicationAttemptId, ApplicationId, YarnContainerId};
use crate::records::PendingReason;
use crate::records::{ContainerState, NodeType};
use crate::scheduler::apps::app_report::{AppReport, AppState, ContainerInfo};

/// A YARN id as far as it goes: an application (`application` non-zero), one of its attempts
/// (`attempt` non-zero too) or a container of that attempt (`container_id` non-zero too).
/// Zero means "not this far". `container_id` is YARN's `ContainerId.getContainerId()`: the
/// allocating RM's epoch in bits 40 and up, the sequence number below.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct capsched_yarn_id {
    pub cluster_timestamp: i64,
    pub application: i32,
    pub attempt: i32,
    pub container_id: i64,
}

impl From<ApplicationId> for capsched_yarn_id {
    fn from(a: ApplicationId) -> Self {
        capsched_yarn_id {
            cluster_timestamp: a.cluster_timestamp,
            application: a.id,
            attempt: 0,
            container_id: 0,
        }
    }
}

impl From<ApplicationAttemptId> for capsched_yarn_id {
    fn from(a: ApplicationAttemptId) -> Self {
        capsched_yarn_id {
            attempt: a.attempt,
            ..a.application.into()
        }
    }
}

impl From<YarnContainerId> for capsched_yarn_id {
    fn from(c: YarnContainerId) -> Self {
        capsched_yarn_id {
            container_id: c.container_id,
            ..c.attempt.into()
        }
    }
}

impl capsched_yarn_id {
    fn application_id(&self) -> FfiResult<ApplicationId> {
        if self.application <= 0 {
            return Err(FfiError::invalid(format!(
                "yarn id has application {}: a positive sequence number expected",
                self.application
            )));
        }
        Ok(ApplicationId {
            cluster_timestamp: self.cluster_timestamp,
            id: self.application,
        })
    }

    fn container(&self) -> FfiResult<YarnContainerId> {
        let application = self.application_id()?;
        if self.attempt <= 0 || self.container_id <= 0 {
            return Err(FfiError::invalid(format!(
                "yarn id has attempt {} and container_id {}: a container's id needs both",
                self.attempt, self.container_id
            )));
        }
        Ok(YarnContainerId {
            attempt: ApplicationAttemptId {
                application,
                attempt: self.attempt,
            },
            container_id: self.container_id,
        })
    }

    /// YARN's string form of the most specific id it holds.
    fn format(&self) -> FfiResult<String> {
        let app = self.application_id()?;
        if self.attempt == 0 {
            if self.container_id != 0 {
                return Err(FfiError::invalid(
                    "yarn id has a container_id but no attempt",
                ));
            }
            return Ok(app.to_string());
        }
        if self.attempt < 0 {
            return Err(FfiError::invalid(format!(
                "yarn id has attempt {}",
                self.attempt
            )));
        }
        if self.container_id == 0 {
            return Ok(ApplicationAttemptId {
                application: app,
                attempt: self.attempt,
            }
            .to_string());
        }
        Ok(self.container()?.to_string())
    }
}

/// Writes YARN's string form of `id` — `application_<ts>_<seq>`,
/// `appattempt_<ts>_<seq>_<attempt>` or `container_[e<epoch>_]<ts>_<seq>_<attempt>_<n>`,
/// the most specific that `id` holds — into `*out` (free with `capsched_string_free`).
///
/// # Safety
/// `id` valid; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_yarn_id_format(
    id: *const capsched_yarn_id,
    out: *mut capsched_owned_str,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let id = id.as_ref().ok_or_else(|| FfiError::null("id"))?;
        write_out(out, give_string(&id.format()?), "out")
    })
}

/// Parses any of YARN's three string forms into `*out` (the parts it does not name are 0);
/// anything else fails with CAPSCHED_ERR_INVALID_ARGUMENT.
///
/// # Safety
/// `text` valid; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_yarn_id_parse(
    text: capsched_str,
    out: *mut capsched_yarn_id,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let s = read_str(text, "text")?;
        let id = if let Some(c) = YarnContainerId::parse(s) {
            c.into()
        } else if let Some(a) = ApplicationAttemptId::parse(s) {
            a.into()
        } else if let Some(a) = ApplicationId::parse(s) {
            a.into()
        } else {
            return Err(FfiError::invalid(format!(
                "{:?} is not a YARN application, attempt or container id",
                echo(s)
            )));
        };
        write_out(out, id, "out")
    })
}

/// The application this engine knows by the YARN id `id` (its attempt and container parts
/// are ignored) into `*out_app`; CAPSCHED_ERR_UNKNOWN_ID when there is none (never submitted,
/// or removed).
///
/// # Safety
/// `engine` live; `id` valid; `out_app` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_app_find(
    engine: *const capsched_engine,
    id: *const capsched_yarn_id,
    out_app: *mut u64,
) -> capsched_status {
    guard(|| {
        need_out(out_app, "out_app")?;
        let h = handle(engine)?;
        let yarn = id.as_ref().ok_or_else(|| FfiError::null("id"))?;
        let app = yarn.application_id()?;
        match h.engine.application_by_yarn_id(app)? {
            Some(a) => write_out(out_app, h.ids().app(a), "out_app"),
            None => Err(FfiError(
                capsched_status::CAPSCHED_ERR_UNKNOWN_ID,
                format!("no application {app} in this engine"),
            )),
        }
    })
}

/// The live (or reserved) container this engine knows by the YARN id `id` into
/// `*out_container`; CAPSCHED_ERR_UNKNOWN_ID when there is none (it completed, or never
/// was). O(containers of its application).
///
/// # Safety
/// `engine` live; `id` valid; `out_container` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_container_find(
    engine: *const capsched_engine,
    id: *const capsched_yarn_id,
    out_container: *mut u64,
) -> capsched_status {
    guard(|| {
        need_out(out_container, "out_container")?;
        let h = handle(engine)?;
        let yarn = id
            .as_ref()
            .ok_or_else(|| FfiError::null("id"))?
            .container()?;
        match h.engine.container_by_yarn_id(yarn)? {
            Some(c) => write_out(out_container, h.ids().container(c), "out_container"),
            None => Err(FfiError(
                capsched_status::CAPSCHED_ERR_UNKNOWN_ID,
                format!("no live container {yarn} in this engine"),
            )),
        }
    })
}

/// The node registered as `address` (its `host:port` NodeId, or its host) into `*out_node`;
/// CAPSCHED_ERR_UNKNOWN_ID when none is.
///
/// # Safety
/// `engine` live; `address` valid; `out_node` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_find(
    engine: *const capsched_engine,
    address: capsched_str,
    out_node: *mut u64,
) -> capsched_status {
    guard(|| {
        need_out(out_node, "out_node")?;
        let h = handle(engine)?;
        let address = read_str(address, "address")?.to_string();
        match h.engine.node_by_address(address.clone())? {
            Some(n) => write_out(out_node, h.ids().node(n), "out_node"),
            None => Err(FfiError(
                capsched_status::CAPSCHED_ERR_UNKNOWN_ID,
                format!("no node {} in this engine", echo(&address)),
            )),
        }
    })
}

/// `capsched_container_info.state`.
pub const CAPSCHED_CONTAINER_RESERVED: i32 = 1;
pub const CAPSCHED_CONTAINER_ALLOCATED: i32 = 2;
pub const CAPSCHED_CONTAINER_ACQUIRED: i32 = 3;
pub const CAPSCHED_CONTAINER_RUNNING: i32 = 4;

/// Locality a container was allocated at (`NodeType`).
pub const CAPSCHED_NODE_LOCAL: i32 = 0;
pub const CAPSCHED_RACK_LOCAL: i32 = 1;
pub const CAPSCHED_OFF_SWITCH: i32 = 2;

pub(crate) fn locality_code(t: NodeType) -> i32 {
    match t {
        NodeType::NodeLocal => CAPSCHED_NODE_LOCAL,
        NodeType::RackLocal => CAPSCHED_RACK_LOCAL,
        NodeType::OffSwitch => CAPSCHED_OFF_SWITCH,
    }
}

/// One live container as the RM reports it (and launches it: everything a
/// `ContainerLaunchContext` needs from the scheduler).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct capsched_container_info {
    pub id: u64,
    pub yarn_id: capsched_yarn_id,
    pub app: u64,
    pub node: u64,
    /// CAPSCHED_CONTAINER_*.
    pub state: i32,
    pub resource: capsched_resource,
    pub priority: i32,
    pub allocation_request_id: i64,
    pub execution_type: i32,
    /// CAPSCHED_NODE_LOCAL, CAPSCHED_RACK_LOCAL or CAPSCHED_OFF_SWITCH.
    pub locality: i32,
    pub is_am: i32,
    /// The container token's version.
    pub version: i32,
    /// Non-zero: selected by the preemption monitor; its AM has been told.
    pub marked_for_preemption: i32,
    /// Engine-clock times: allocated (or reserved), taken by its AM or the RM, first reported
    /// running by its NodeManager; -1 for not yet.
    pub created_ms: i64,
    pub acquired_ms: i64,
    pub launched_ms: i64,
}

fn container_info_to_c(ids: Ids, c: &ContainerInfo) -> capsched_container_info {
    capsched_container_info {
        id: ids.container(c.id),
        yarn_id: c.yarn_id.into(),
        app: ids.app(c.app),
        node: ids.node(c.node),
        state: match c.state {
            ContainerState::Reserved => CAPSCHED_CONTAINER_RESERVED,
            ContainerState::Acquired => CAPSCHED_CONTAINER_ACQUIRED,
            ContainerState::Running => CAPSCHED_CONTAINER_RUNNING,
            _ => CAPSCHED_CONTAINER_ALLOCATED,
        },
        resource: c.resource.into(),
        priority: c.key.priority,
        allocation_request_id: c.key.allocation_request_id,
        execution_type: execution_code(c.execution_type),
        locality: locality_code(c.node_type),
        is_am: i32::from(c.is_am),
        version: c.version,
        marked_for_preemption: i32::from(c.marked_for_preemption),
        created_ms: c.created_ms,
        acquired_ms: c.acquired_ms.unwrap_or(-1),
        launched_ms: c.launched_ms.unwrap_or(-1),
    }
}

/// A live (or reserved) container's report into `*out`.
///
/// # Safety
/// `engine` live; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_container_get(
    engine: *const capsched_engine,
    container: u64,
    out: *mut capsched_container_info,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let h = handle(engine)?;
        let ids = h.ids();
        let id = ids.take_container(container)?;
        match h.engine.container_info(id)? {
            Some(c) => write_out(out, container_info_to_c(ids, &c), "out"),
            None => Err(FfiError(
                capsched_status::CAPSCHED_ERR_UNKNOWN_ID,
                format!("unknown container id {container}"),
            )),
        }
    })
}

/// The RM takes the attempt's AM container to launch it (after
/// CAPSCHED_EVENT_AM_CONTAINER_ALLOCATED): `*out_found` is 1 and `*out` the container, now
/// ACQUIRED (its expiry clock runs from here until its NodeManager reports it); the AM's own
/// allocate responses never list it. `*out_found` is 0 while it is not allocated, once taken,
/// and for an unmanaged AM.
///
/// # Safety
/// `engine` live; `out` and `out_found` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_am_container_take(
    engine: *const capsched_engine,
    app: u64,
    out: *mut capsched_container_info,
    out_found: *mut i32,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        need_out(out_found, "out_found")?;
        let h = handle(engine)?;
        let ids = h.ids();
        let id = ids.take_app(app)?;
        let taken = h
            .engine
            .take_am_container(id)
            .map_err(|e| ids.error(e, Kind::Application, app))?;
        let info = match taken {
            Some(c) => h.engine.container_info(c.id)?,
            None => None,
        };
        match info {
            Some(c) => {
                write_out(out, container_info_to_c(ids, &c), "out")?;
                write_out(out_found, 1, "out_found")
            }
            None => write_out(out_found, 0, "out_found"),
        }
    })
}

/// `capsched_app_report.state`: the scheduler's part of YARN's application state.
pub const CAPSCHED_APP_SUBMITTED: i32 = 0;
/// Its attempt waits for activation; `pending_reason` says why.
pub const CAPSCHED_APP_ACCEPTED: i32 = 1;
pub const CAPSCHED_APP_RUNNING: i32 = 2;
/// The last attempt was removed and the next is not added yet.
pub const CAPSCHED_APP_BETWEEN_ATTEMPTS: i32 = 3;

/// Why an attempt is not active yet (`capsched_app_report.pending_reason`,
/// CAPSCHED_EVENT_APP_PENDING's `reason`).
pub const CAPSCHED_PENDING_NONE: i32 = 0;
pub const CAPSCHED_PENDING_AM_LIMIT: i32 = 1;
pub const CAPSCHED_PENDING_USER_AM_LIMIT: i32 = 2;
pub const CAPSCHED_PENDING_MAX_PARALLEL_APPS: i32 = 3;
pub const CAPSCHED_PENDING_CLUSTER_RESOURCE_EMPTY: i32 = 4;

pub(crate) fn pending_code(r: Option<PendingReason>) -> i32 {
    match r {
        None => CAPSCHED_PENDING_NONE,
        Some(PendingReason::AmLimit) => CAPSCHED_PENDING_AM_LIMIT,
        Some(PendingReason::UserAmLimit) => CAPSCHED_PENDING_USER_AM_LIMIT,
        Some(PendingReason::MaxParallelApps) => CAPSCHED_PENDING_MAX_PARALLEL_APPS,
        Some(PendingReason::ClusterResourceEmpty) => CAPSCHED_PENDING_CLUSTER_RESOURCE_EMPTY,
    }
}

/// One application as the RM reports it. The strings are the library's: release them with
/// `capsched_app_report_free`.
#[repr(C)]
#[derive(Debug, Default)]
pub struct capsched_app_report {
    /// The application and its current attempt (attempt 0: none).
    pub yarn_id: capsched_yarn_id,
    /// The leaf's full path.
    pub queue: capsched_owned_str,
    pub user: capsched_owned_str,
    pub priority: i32,
    /// CAPSCHED_APP_*.
    pub state: i32,
    /// CAPSCHED_PENDING_*, and the AM diagnostics YARN shows for it (empty when none).
    pub pending_reason: i32,
    pub diagnostics: capsched_owned_str,
    /// Guaranteed containers, AM included, reservations not.
    pub used: capsched_resource,
    /// What the attempt still asks for.
    pub pending: capsched_resource,
    pub am_used: capsched_resource,
    pub reserved: capsched_resource,
    pub live_containers: u32,
    pub reserved_containers: u32,
    pub opportunistic_containers: u32,
    /// Preempted so far over all attempts, and what they held.
    pub preempted_containers: u32,
    pub preempted_resource: capsched_resource,
    /// The AM container while it lives (0: none).
    pub am_container: u64,
    pub submit_time_ms: i64,
}

fn app_report_to_c(ids: Ids, r: &AppReport) -> capsched_app_report {
    capsched_app_report {
        yarn_id: match r.attempt {
            Some(a) => a.into(),
            None => r.application_id.into(),
        },
        queue: give_string(&r.queue),
        user: give_string(&r.user),
        priority: r.priority,
        state: match r.state {
            AppState::Submitted => CAPSCHED_APP_SUBMITTED,
            AppState::Accepted => CAPSCHED_APP_ACCEPTED,
            AppState::Running => CAPSCHED_APP_RUNNING,
            AppState::BetweenAttempts => CAPSCHED_APP_BETWEEN_ATTEMPTS,
        },
        pending_reason: pending_code(r.pending_reason),
        diagnostics: give_string(r.pending_reason.map_or("", |p| p.diagnostics())),
        used: r.used.into(),
        pending: r.pending.into(),
        am_used: r.am_used.into(),
        reserved: r.reserved.into(),
        live_containers: r.live_containers,
        reserved_containers: r.reserved_containers,
        opportunistic_containers: r.opportunistic_containers,
        preempted_containers: r.preempted_containers,
        preempted_resource: r.preempted_resource.into(),
        am_container: r.am_container.map_or(0, |c| ids.container(c)),
        submit_time_ms: r.submit_time_ms,
    }
}

/// The application's report, from the live state, into `*out`.
///
/// # Safety
/// `engine` live; `out` writable (its previous strings are not freed).
#[no_mangle]
pub unsafe extern "C" fn capsched_app_report_get(
    engine: *const capsched_engine,
    app: u64,
    out: *mut capsched_app_report,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let h = handle(engine)?;
        let ids = h.ids();
        let id = ids.take_app(app)?;
        match h.engine.app_report(id)? {
            Some(r) => write_out(out, app_report_to_c(ids, &r), "out"),
            None => Err(FfiError(
                capsched_status::CAPSCHED_ERR_UNKNOWN_ID,
                format!("unknown application id {app}"),
            )),
        }
    })
}

/// Frees a report's strings and empties them; NULL, and a report freed before, are fine.
///
/// # Safety
/// `report` NULL or filled by `capsched_app_report_get`.
#[no_mangle]
pub unsafe extern "C" fn capsched_app_report_free(report: *mut capsched_app_report) {
    let Some(r) = report.as_mut() else {
        return;
    };
    for s in [&mut r.queue, &mut r.user, &mut r.diagnostics] {
        capsched_string_free(std::mem::take(s));
    }
}
