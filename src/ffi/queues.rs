//! Each queue's figures as a ResourceManager publishes them (`QueueInfo`, `QueueMetrics`):
//! the scheduler's side of them, for a host that keeps YARN's own bookkeeping beside.

use super::engine_handle::{capsched_engine, engine_ref};
use super::status::{capsched_status, guard};
use super::types::{
    capsched_resource, capsched_str, free_array, give_array, need_out, read_str, write_out,
};
use crate::config::QueueState;
use crate::scheduler::queue_status::{QueueStatus, UserStatus};

/// `capsched_queue_status.state`: YARN's `QueueState`.
pub const CAPSCHED_QUEUE_RUNNING: i32 = 0;
pub const CAPSCHED_QUEUE_STOPPED: i32 = 1;
pub const CAPSCHED_QUEUE_DRAINING: i32 = 2;

/// One queue's figures, in the default partition (YARN's plain figures are that
/// partition's). Library-owned, in a `capsched_queue_status_list`; later versions may add
/// fields at its end.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_queue_status {
    /// The full path ("root.a.b"), owned by the list.
    pub path: capsched_str,
    /// The parent's index in the list (always before the child); -1 for root.
    pub parent: i32,
    /// Non-zero for a leaf.
    pub is_leaf: i32,
    /// CAPSCHED_QUEUE_RUNNING, _STOPPED or _DRAINING, as `getState()` has it now.
    pub state: i32,
    /// Fractions, 0 to 1: of the parent (`getCapacity`, `getMaximumCapacity`), of the cluster.
    pub capacity: f32,
    pub maximum_capacity: f32,
    pub absolute_capacity: f32,
    pub absolute_maximum_capacity: f32,
    /// Used over the guarantee (at least the minimum allocation): `getUsedCapacity`, the
    /// `QueueInfo`'s current capacity; and used over the partition.
    pub used_capacity: f32,
    pub absolute_used_capacity: f32,
    /// The guaranteed and maximum resources for the current cluster (`getEffectiveCapacity`,
    /// `getEffectiveMaxCapacity`).
    pub guaranteed: capsched_resource,
    pub maximum: capsched_resource,
    /// An absolute queue's configured minimum and maximum resources (YARN's
    /// `getConfiguredMinResource`/`getConfiguredMaxResource`), root's the default partition's;
    /// zero otherwise.
    pub configured_minimum: capsched_resource,
    pub configured_maximum: capsched_resource,
    /// The subtree's containers, reservations included.
    pub used: capsched_resource,
    pub reserved: capsched_resource,
    /// Reservations beneath (`QueueMetrics.reservedContainers`).
    pub reserved_containers: i64,
    /// What the subtree's attempts still ask for.
    pub pending: capsched_resource,
    /// The configured maximum allocation (the queue's `maximum-allocation-*`, else the
    /// scheduler's): YARN's `getMaximumResourceCapability(queue)` is its component-wise
    /// minimum with the cluster's node-aware maximum.
    pub maximum_allocation: capsched_resource,
    /// YARN's `getNumApplications`: a leaf's attempts, a parent's applications beneath.
    pub num_applications: i32,
    /// Leaves only, 0 for a parent: attempts active, and pending (the AM limit or
    /// max-parallel-apps holds them back).
    pub num_active_applications: i32,
    pub num_pending_applications: i32,
    /// Leaves only: the AM resource limit and the AM containers' resource now.
    pub am_limit: capsched_resource,
    pub am_used: capsched_resource,
    /// `maximum-am-resource-percent`, a fraction (a parent: the scheduler-wide value).
    pub maximum_am_resource_percent: f32,
    /// Leaves only: `getMaxApplications`, `getMaxApplicationsPerUser`.
    pub max_applications: i32,
    pub max_applications_per_user: i32,
    /// Leaves only: `minimum-user-limit-percent` (0 to 100) and `user-limit-factor`.
    pub user_limit_percent: f32,
    pub user_limit_factor: f32,
    /// Leaves only: `default-application-priority`.
    pub default_application_priority: i32,
    /// Non-zero: `getPreemptionDisabled()`, `getIntraQueuePreemptionDisabled()` (with the
    /// preemption monitor off both are set, as YARN's are).
    pub preemption_disabled: i32,
    pub intra_queue_preemption_disabled: i32,
}

/// Every queue's figures (library-owned; free with `capsched_queue_status_list_free`).
#[repr(C)]
pub struct capsched_queue_status_list {
    /// Pre-order: root first, each parent before its children.
    pub queues: *mut capsched_queue_status,
    pub count: usize,
    /// The figures version these belong to (`capsched_engine_figures_version`).
    pub figures_version: u64,
}

/// The list and the path strings its entries point into.
#[repr(C)]
struct StatusListOwner {
    public: capsched_queue_status_list,
    paths: Vec<std::ffi::CString>,
}

fn state(s: QueueState) -> i32 {
    match s {
        QueueState::Running => CAPSCHED_QUEUE_RUNNING,
        QueueState::Stopped => CAPSCHED_QUEUE_STOPPED,
        QueueState::Draining => CAPSCHED_QUEUE_DRAINING,
    }
}

fn to_c(q: &QueueStatus, path: &std::ffi::CString) -> capsched_queue_status {
    capsched_queue_status {
        path: capsched_str {
            ptr: path.as_ptr(),
            len: path.as_bytes().len(),
        },
        parent: q.parent.map_or(-1, |p| p as i32),
        is_leaf: i32::from(q.is_leaf),
        state: state(q.state),
        capacity: q.capacity,
        maximum_capacity: q.maximum_capacity,
        absolute_capacity: q.absolute_capacity,
        absolute_maximum_capacity: q.absolute_maximum_capacity,
        used_capacity: q.used_capacity,
        absolute_used_capacity: q.absolute_used_capacity,
        guaranteed: q.guaranteed.into(),
        maximum: q.maximum.into(),
        configured_minimum: q.configured_minimum.into(),
        configured_maximum: q.configured_maximum.into(),
        used: q.used.into(),
        reserved: q.reserved.into(),
        reserved_containers: q.reserved_containers,
        pending: q.pending.into(),
        maximum_allocation: q.maximum_allocation.into(),
        num_applications: q.num_applications,
        num_active_applications: q.num_active_applications,
        num_pending_applications: q.num_pending_applications,
        am_limit: q.am_limit.into(),
        am_used: q.am_used.into(),
        maximum_am_resource_percent: q.maximum_am_resource_percent,
        max_applications: q.max_applications,
        max_applications_per_user: q.max_applications_per_user,
        user_limit_percent: q.user_limit_percent,
        user_limit_factor: q.user_limit_factor,
        default_application_priority: q.default_application_priority,
        preemption_disabled: i32::from(q.preemption_disabled),
        intra_queue_preemption_disabled: i32::from(q.intra_queue_preemption_disabled),
    }
}

/// Every queue's figures now, root first. Free with `capsched_queue_status_list_free`.
///
/// # Safety
/// `engine` live; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_queue_statuses(
    engine: *const capsched_engine,
    out: *mut *mut capsched_queue_status_list,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let (version, statuses) = engine_ref(engine)?.queue_statuses()?;
        let paths: Vec<std::ffi::CString> = statuses
            .iter()
            .map(|q| std::ffi::CString::new(q.path.clone()).unwrap_or_default())
            .collect();
        let entries: Vec<capsched_queue_status> = statuses
            .iter()
            .zip(&paths)
            .map(|(q, p)| to_c(q, p))
            .collect();
        let (queues, count) = give_array(entries);
        let owner = Box::new(StatusListOwner {
            public: capsched_queue_status_list {
                queues,
                count,
                figures_version: version,
            },
            paths,
        });
        write_out(
            out,
            Box::into_raw(owner).cast::<capsched_queue_status_list>(),
            "out",
        )
    })
}

/// Frees a status list; NULL is fine.
///
/// # Safety
/// `list` must be NULL or from `capsched_engine_queue_statuses`, not freed before.
#[no_mangle]
pub unsafe extern "C" fn capsched_queue_status_list_free(list: *mut capsched_queue_status_list) {
    if list.is_null() {
        return;
    }
    let owner = Box::from_raw(list.cast::<StatusListOwner>());
    free_array(owner.public.queues, owner.public.count);
}

/// Writes the queue figures version as the engine's last finished call or pass left it: it
/// moves whenever a figure of `capsched_engine_queue_statuses` may have changed (usage,
/// reservations, asks, activations, nodes, the configuration). Read without a call into the
/// engine (no hand-off to its thread), so a host that mirrors the figures can check it after
/// every event and read the statuses only when it moved.
///
/// # Safety
/// `engine` live; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_figures_version(
    engine: *const capsched_engine,
    out: *mut u64,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let v = engine_ref(engine)?.figures_version();
        write_out(out, v, "out")
    })
}

/// One user of a leaf, in the default partition (library-owned, in a
/// `capsched_user_status_list`; later versions may add fields at its end): what per-user queue
/// metrics take from the scheduler.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_user_status {
    /// The user's name, owned by the list.
    pub name: capsched_str,
    /// Allocated plus reserved.
    pub used: capsched_resource,
    pub am_used: capsched_resource,
    /// The user's AM limit with the leaf's active users now.
    pub am_limit: capsched_resource,
    /// The user's limit now, and the headroom an AM of the user is told.
    pub user_limit: capsched_resource,
    pub headroom: capsched_resource,
    pub weight: f32,
    pub active_applications: u32,
    pub pending_applications: u32,
}

/// A leaf's users (library-owned; free with `capsched_user_status_list_free`).
#[repr(C)]
pub struct capsched_user_status_list {
    pub users: *mut capsched_user_status,
    pub count: usize,
}

#[repr(C)]
struct UserListOwner {
    public: capsched_user_status_list,
    names: Vec<std::ffi::CString>,
}

/// The users of the leaf `queue` (a full path or a unique short name) and their figures.
/// `CAPSCHED_ERR_INVALID_ARGUMENT` for a queue that does not exist or is not a leaf. Free with
/// `capsched_user_status_list_free`.
///
/// # Safety
/// `engine` live; `queue` a valid string; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_queue_users(
    engine: *const capsched_engine,
    queue: capsched_str,
    out: *mut *mut capsched_user_status_list,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let e = engine_ref(engine)?;
        let queue = read_str(queue, "queue")?.to_string();
        let users = e.queue_users(queue)?;
        let names: Vec<std::ffi::CString> = users
            .iter()
            .map(|u| std::ffi::CString::new(u.name.clone()).unwrap_or_default())
            .collect();
        let entries: Vec<capsched_user_status> = users
            .iter()
            .zip(&names)
            .map(|(u, n)| user_to_c(u, n))
            .collect();
        let (users, count) = give_array(entries);
        let owner = Box::new(UserListOwner {
            public: capsched_user_status_list { users, count },
            names,
        });
        write_out(
            out,
            Box::into_raw(owner).cast::<capsched_user_status_list>(),
            "out",
        )
    })
}

fn user_to_c(u: &UserStatus, name: &std::ffi::CString) -> capsched_user_status {
    capsched_user_status {
        name: capsched_str {
            ptr: name.as_ptr(),
            len: name.as_bytes().len(),
        },
        used: u.used.into(),
        am_used: u.am_used.into(),
        am_limit: u.am_limit.into(),
        user_limit: u.user_limit.into(),
        headroom: u.headroom.into(),
        weight: u.weight,
        active_applications: u.active_applications,
        pending_applications: u.pending_applications,
    }
}

/// One user of the leaf `queue`, or the leaf's figures for a user it does not have (nothing
/// used, the configured weight): a host that sets a user's headroom as its last container goes
/// asks after it is gone. `out->name` is `user` itself (the caller's string). As
/// `capsched_engine_queue_users` for the queue.
///
/// # Safety
/// `engine` live; `queue` and `user` valid strings; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_queue_user(
    engine: *const capsched_engine,
    queue: capsched_str,
    user: capsched_str,
    out: *mut capsched_user_status,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let e = engine_ref(engine)?;
        let queue = read_str(queue, "queue")?.to_string();
        let u = e.queue_user(queue, read_str(user, "user")?.to_string())?;
        let mut c = user_to_c(&u, &std::ffi::CString::default());
        c.name = user;
        write_out(out, c, "out")
    })
}

/// Frees a user list; NULL is fine.
///
/// # Safety
/// `list` must be NULL or from `capsched_engine_queue_users`, not freed before.
#[no_mangle]
pub unsafe extern "C" fn capsched_user_status_list_free(list: *mut capsched_user_status_list) {
    if list.is_null() {
        return;
    }
    let owner = Box::from_raw(list.cast::<UserListOwner>());
    free_array(owner.public.users, owner.public.count);
}
