//! The ResourceManager's own calls from C: a node's resource changed, graceful
//! decommissioning and recommissioning, killing a container, queue ACL checks, and submission
//! with the user's groups (for those ACLs).

use super::engine_handle::capsched_engine;
use super::engine_handle::handle;
use super::ids::Kind;
use super::status::{capsched_status, guard, FfiError, FfiResult};
use super::types::*;
use crate::scheduler::apps::{AppSubmission, QueueAcl};

/// `capsched_check_access`'s rights (YARN's `QueueACL`).
pub const CAPSCHED_ACL_SUBMIT_APPLICATIONS: i32 = 0;
pub const CAPSCHED_ACL_ADMINISTER_QUEUE: i32 = 1;

/// A timeout argument: negative means none (YARN's −1).
fn timeout(ms: i64) -> Option<i64> {
    (ms >= 0).then_some(ms)
}

/// NODE_RESOURCE_UPDATE (`rmadmin -updateNodeResource`): the node's total becomes `resource`.
/// A node may shrink below what it runs; then `overcommit_timeout_ms` decides, as YARN's
/// does: negative — its containers run on and it takes nothing new until they finish; 0 — the
/// containers beyond the new total are killed now (−102, CAPSCHED_EVENT_PREEMPTED, and in the
/// node's next `to_kill`); positive — their AMs are told now (the preemption message,
/// CAPSCHED_EVENT_PREEMPT_WARNED) and the node's first heartbeat after the timeout kills what
/// is still over. Non-AM containers go first, then opportunistic before guaranteed, newest
/// first.
///
/// # Safety
/// `engine` live.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_update_resource(
    engine: *const capsched_engine,
    node: u64,
    resource: capsched_resource,
    overcommit_timeout_ms: i64,
) -> capsched_status {
    guard(|| {
        let h = handle(engine)?;
        let id = h.ids().take_node(node)?;
        h.engine
            .update_node_resource(id, resource.into(), timeout(overcommit_timeout_ms))
            .map_err(|e| h.ids().error(e, Kind::Node, node))
    })
}

/// Graceful decommissioning (DECOMMISSIONING): the node takes no new containers and its
/// capacity shrinks to what it still runs. It is DECOMMISSIONED — removed, with
/// CAPSCHED_EVENT_NODE_DECOMMISSIONED and `decommissioned` set in its heartbeat's response —
/// at its first heartbeat that finds it running nothing with every application that ran
/// there finished, or once `timeout_ms` has passed (negative: no timeout; YARN's default is
/// `yarn.resourcemanager.nodemanager-graceful-decommission-timeout-secs`, 3600 s), what still
/// runs there then lost (−100). Called again on a decommissioning node it changes the timeout,
/// still counted from the start.
///
/// # Safety
/// `engine` live.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_decommission(
    engine: *const capsched_engine,
    node: u64,
    timeout_ms: i64,
) -> capsched_status {
    guard(|| {
        let h = handle(engine)?;
        let id = h.ids().take_node(node)?;
        h.engine
            .decommission_node(id, timeout(timeout_ms))
            .map_err(|e| h.ids().error(e, Kind::Node, node))
    })
}

/// RECOMMISSION: a decommissioning node is back in service with its capacity (a node that is
/// not decommissioning is left as it is).
///
/// # Safety
/// `engine` live.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_recommission(
    engine: *const capsched_engine,
    node: u64,
) -> capsched_status {
    guard(|| {
        let h = handle(engine)?;
        let id = h.ids().take_node(node)?;
        h.engine
            .recommission_node(id)
            .map_err(|e| h.ids().error(e, Kind::Node, node))
    })
}

/// The RM kills a container, with the exit status and diagnostics it gives (YARN's
/// CapacityScheduler uses −102 and "Container preempted by scheduler"; the other schedulers
/// −106, KILLED_BY_RESOURCEMANAGER). Its AM gets the status in its next allocate response;
/// a running container is in its node's next `to_kill`; a reservation is released.
///
/// # Safety
/// `engine` live; `diagnostics` valid.
#[no_mangle]
pub unsafe extern "C" fn capsched_container_kill(
    engine: *const capsched_engine,
    container: u64,
    exit_status: i32,
    diagnostics: capsched_str,
) -> capsched_status {
    guard(|| {
        let h = handle(engine)?;
        let id = h.ids().take_container(container)?;
        let diagnostics = read_str(diagnostics, "diagnostics")?.to_string();
        h.engine
            .kill_container(id, exit_status, diagnostics)
            .map_err(|e| h.ids().error(e, Kind::Container, container))
    })
}

unsafe fn read_groups(groups: *const capsched_str, count: usize) -> Result<Vec<String>, FfiError> {
    read_slice(groups, count, "groups")?
        .iter()
        .enumerate()
        .map(|(i, g)| read_str(*g, &format!("groups[{i}]")).map(str::to_string))
        .collect()
}

/// `checkAccess(user, acl, queue)` as YARN's CapacityScheduler answers it: the queue by full
/// path or short name (a `root.` path that does not exist is checked at its nearest existing
/// ancestor; any other unknown queue is denied), allowed when the queue's ACL of that kind or
/// any ancestor's lists the user or one of `groups` (root's default is everyone's, every other
/// queue's nobody's). Like YARN's, it does not look at `yarn.acl.enable`: that is the RM's
/// (submission honours it). `*out_allowed` gets 1 or 0.
///
/// # Safety
/// `engine` live; strings valid; `groups` valid for `group_count` (NULL only with 0);
/// `out_allowed` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_check_access(
    engine: *const capsched_engine,
    user: capsched_str,
    groups: *const capsched_str,
    group_count: usize,
    acl: i32,
    queue: capsched_str,
    out_allowed: *mut i32,
) -> capsched_status {
    guard(|| {
        need_out(out_allowed, "out_allowed")?;
        let h = handle(engine)?;
        let acl = match acl {
            CAPSCHED_ACL_SUBMIT_APPLICATIONS => QueueAcl::SubmitApplications,
            CAPSCHED_ACL_ADMINISTER_QUEUE => QueueAcl::AdministerQueue,
            other => return Err(FfiError::invalid(format!("unknown acl {other}"))),
        };
        let user = read_str(user, "user")?.to_string();
        let queue = read_str(queue, "queue")?.to_string();
        let groups = read_groups(groups, group_count)?;
        let allowed = h.engine.check_access(user, groups, acl, queue)?;
        write_out(out_allowed, i32::from(allowed), "out_allowed")
    })
}

/// The RM's application lifetime questions (`checkAndGetApplicationLifetime`,
/// `getMaximumApplicationLifetime`), for an RM that runs its own lifetime monitor:
/// `*out_lifetime_s` gets the lifetime an application asking for `requested_s` seconds (≤ 0:
/// none) gets in `queue` (its leaf's default when it asks for none, capped at the leaf's
/// maximum), and `*out_maximum_s` the leaf's maximum; ≤ 0 means none. A queue that is not a
/// leaf gets what it asks for and no maximum, as YARN answers.
///
/// # Safety
/// `engine` live; `queue` valid; both outs writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_application_lifetime(
    engine: *const capsched_engine,
    queue: capsched_str,
    requested_s: i64,
    out_lifetime_s: *mut i64,
    out_maximum_s: *mut i64,
) -> capsched_status {
    guard(|| {
        need_out(out_lifetime_s, "out_lifetime_s")?;
        need_out(out_maximum_s, "out_maximum_s")?;
        let h = handle(engine)?;
        let queue = read_str(queue, "queue")?.to_string();
        let (lifetime, maximum) = h
            .engine
            .application_lifetime(queue, requested_s)?
            .unwrap_or((requested_s, -1));
        write_out(out_lifetime_s, lifetime, "out_lifetime_s")?;
        write_out(out_maximum_s, maximum, "out_maximum_s")
    })
}

/// A submission with everything the RM knows of it. Growable: set `struct_size =
/// sizeof(capsched_submission)`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_submission {
    pub struct_size: u32,
    /// Full queue path or unique short leaf name.
    pub queue: capsched_str,
    pub user: capsched_str,
    /// The user's groups, for the queue ACLs (with `yarn.acl.enable`).
    pub groups: *const capsched_str,
    pub group_count: usize,
    /// CAPSCHED_DEFAULT_PRIORITY: the leaf's default.
    pub priority: i32,
    /// The RM's own ApplicationId (`cluster_timestamp` and `application`; the rest 0), which
    /// every report, event and message then carries; all 0: the engine mints the next one
    /// with its cluster timestamp. An id the engine already holds is rejected as YARN's
    /// RMAppManager rejects it.
    pub application_id: super::capsched_yarn_id,
    /// Non-zero: an application the RM recovers after a work-preserving restart (ABI 3's
    /// second version). It was accepted before, so ACLs, the system and queue limits and the
    /// queue's state are not checked (a STOPPED queue drains); a queue that no longer exists
    /// or is no longer a leaf rejects it with YARN's "Application killed on recovery as it was
    /// submitted to queue …" message, for the RM to kill it.
    pub recovering: i32,
    /// The application's name, for the `app-name` placement rule
    /// (`yarn.scheduler.queue-placement-rules`); empty: YARN's "N/A" (ABI 3's third version).
    pub app_name: capsched_str,
    /// The lifetime the application asks for, in seconds (YARN's `LIFETIME` timeout; ≤ 0:
    /// none, the queue's `default-application-lifetime` applies); capped at the queue's
    /// `maximum-application-lifetime`. When it ends the engine raises
    /// CAPSCHED_EVENT_APP_LIFETIME_EXPIRED (ABI 3's fourth version).
    pub lifetime_s: i64,
    /// The application's node-label expression (`ApplicationSubmissionContext.
    /// getNodeLabelExpression()`): its AM's and its ANY asks' label when they name none. A
    /// NULL `ptr` (and `len` 0): none, as YARN's unset expression (the queue's
    /// `default-node-label-expression` applies); any other value is the expression, trimmed,
    /// an empty one naming the default partition (ABI 3's fifth version).
    pub node_label_expression: capsched_str,
    /// The AM container request's own label expression (the AM `ResourceRequest`'s), NULL
    /// for none: then the application's, then the queue's default. Checked at submission as
    /// YARN's RMAppManager checks it: a label the cluster lacks or the queue may not access
    /// rejects the application with YARN's message (ABI 3's fifth version).
    pub am_node_label_expression: capsched_str,
}

/// The size of the first version (ABI 2), before `application_id`.
const SUBMISSION_V1: usize = std::mem::offset_of!(capsched_submission, application_id);

/// Submits an application as `capsched_app_submit` does, first placed by the configured
/// placement rules (`yarn.scheduler.capacity.queue-mappings`, the app-name rule) with the
/// user's groups and the application's name, as YARN's placement manager places it; with
/// `yarn.acl.enable` a user whom neither the queue's (nor an ancestor's) submit nor administer
/// ACL allows is rejected with YARN's "User … does not have permission to submit … to queue
/// …".
///
/// # Safety
/// `engine` live; `submission` valid with its strings and array; `out_app` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_app_submit_as(
    engine: *const capsched_engine,
    submission: *const capsched_submission,
    out_app: *mut u64,
) -> capsched_status {
    guard(|| {
        need_out(out_app, "out_app")?;
        let sub = read_submission(submission)?;
        let h = handle(engine)?;
        match h.engine.submit(sub)? {
            Ok(app) => write_out(out_app, h.ids().app(app), "out_app"),
            Err(rejection) => Err(FfiError(
                capsched_status::CAPSCHED_ERR_REJECTED,
                rejection.message,
            )),
        }
    })
}

/// A host's submission as the core's: its strings, groups, priority, id and flags checked.
///
/// # Safety
/// `submission` valid with its strings and array, as `capsched_app_submit_as` requires.
unsafe fn read_submission(submission: *const capsched_submission) -> FfiResult<AppSubmission> {
    let defaults = capsched_submission {
        struct_size: 0,
        queue: capsched_str::EMPTY,
        user: capsched_str::EMPTY,
        groups: std::ptr::null(),
        group_count: 0,
        priority: super::CAPSCHED_DEFAULT_PRIORITY,
        application_id: super::capsched_yarn_id::default(),
        recovering: 0,
        app_name: capsched_str::EMPTY,
        lifetime_s: 0,
        node_label_expression: capsched_str::EMPTY,
        am_node_label_expression: capsched_str::EMPTY,
    };
    let s = read_growable(
        submission,
        SUBMISSION_V1,
        defaults,
        "submission",
        "capsched_submission",
    )?;
    let mut sub = AppSubmission::new(read_str(s.queue, "queue")?, read_str(s.user, "user")?);
    sub.groups = read_groups(s.groups, s.group_count)?;
    sub.recovering = s.recovering != 0;
    let app_name = read_str(s.app_name, "app_name")?;
    if !app_name.is_empty() {
        sub.app_name = Some(app_name.to_string());
    }
    if s.priority != super::CAPSCHED_DEFAULT_PRIORITY {
        sub.priority = Some(s.priority);
    }
    if s.lifetime_s > 0 {
        sub.lifetime_s = Some(s.lifetime_s);
    }
    sub.node_label_expression =
        read_opt_str(s.node_label_expression, "node_label_expression")?.map(str::to_string);
    sub.am_node_label_expression =
        read_opt_str(s.am_node_label_expression, "am_node_label_expression")?.map(str::to_string);
    let id = s.application_id;
    if id != super::capsched_yarn_id::default() {
        if id.application <= 0 || id.cluster_timestamp < 0 {
            return Err(FfiError::invalid(format!(
                "application_id is ({}, {}): a cluster timestamp and a positive sequence \
                 number expected",
                id.cluster_timestamp, id.application
            )));
        }
        sub.application_id = Some(crate::ids::ApplicationId {
            cluster_timestamp: id.cluster_timestamp,
            id: id.application,
        });
    }
    Ok(sub)
}

/// Where the placement rules would send `submission` (YARN's PlacementManager, which the RM
/// asks before it checks ACLs and submits): nothing is submitted. `*out_queue` gets the leaf
/// name a rule placed it in and `*out_parent` that rule's parent queue (either empty when there
/// is none; free both with `capsched_string_free`); both empty: no rule placed it, it goes to
/// the queue it names. A rule that fails the submission gives CAPSCHED_ERR_REJECTED with
/// YARN's message ("Failed to submit application … reason: …") and writes nothing.
///
/// # Safety
/// As `capsched_app_submit_as`; `out_queue` and `out_parent` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_app_place(
    engine: *const capsched_engine,
    submission: *const capsched_submission,
    out_queue: *mut capsched_owned_str,
    out_parent: *mut capsched_owned_str,
) -> capsched_status {
    guard(|| {
        need_out(out_queue, "out_queue")?;
        need_out(out_parent, "out_parent")?;
        let sub = read_submission(submission)?;
        let h = handle(engine)?;
        match h.engine.place(sub)? {
            Ok(placed) => {
                let (queue, parent) = placed
                    .map(|p| (p.queue, p.parent.unwrap_or_default()))
                    .unwrap_or_default();
                write_out(out_queue, give_string(&queue), "out_queue")?;
                write_out(out_parent, give_string(&parent), "out_parent")
            }
            Err(rejection) => Err(FfiError(
                capsched_status::CAPSCHED_ERR_REJECTED,
                rejection.message,
            )),
        }
    })
}
