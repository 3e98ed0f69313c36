//! Engines from C: create (threaded or manual-step), stop, free; ticks and steps for hosts
//! that bring their own threads; queue refresh; the scheduler's REST document; the event
//! stream.

use super::config::capsched_config;
use super::engine_handle::{capsched_engine, engine_ref, handle};
use super::ids::{EngineTag, Ids};
use super::status::{capsched_status, guard, FfiError, FfiResult};
use super::types::{
    capsched_owned_str, capsched_resource, give_string, need_out, read_growable, write_out,
};
use crate::ids::{AppId, ContainerId, YarnContainerId};
use crate::runtime::clock::SystemClock;
use crate::runtime::events::EngineEvent;
use crate::runtime::{Engine, EngineOptions, Mode};
use crate::sync::Arc;

pub const CAPSCHED_MODE_THREADED: i32 = 0;
pub const CAPSCHED_MODE_MANUAL: i32 = 1;
/// For `async_scheduling` and `preemption`: follow the configuration.
pub const CAPSCHED_FROM_CONFIG: i32 = -1;

/// How to run an engine. Growable: set `struct_size = sizeof(capsched_engine_options)`, or
/// start from `capsched_engine_options_default`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_engine_options {
    pub struct_size: u32,
    /// CAPSCHED_MODE_THREADED (an engine thread, and a preemption monitor thread when
    /// preemption is on) or CAPSCHED_MODE_MANUAL (no threads; the host ticks).
    pub mode: i32,
    /// Seeds the scheduler's PRNG (asynchronous pass start node, opportunistic placement).
    pub seed: u64,
    /// 0 off, 1 on, CAPSCHED_FROM_CONFIG (schedule-asynchronously.enable).
    pub async_scheduling: i32,
    /// 0 off, 1 on, CAPSCHED_FROM_CONFIG (yarn.resourcemanager.scheduler.monitor.enable).
    /// 0 and 1 hold whatever the configuration says, refreshes included.
    pub preemption: i32,
    /// Events kept before new ones are dropped (and counted); 0 means 65536.
    pub event_capacity: u32,
    /// Non-zero: the engine's clock is manual, starting at `clock_start_ms`, and moves only
    /// with `capsched_engine_tick(engine, now_ms, …)`; a threaded engine then also takes all
    /// its timed work (passes, expiry, preemption rounds) from that clock, not from wall time.
    /// Zero: the system clock.
    pub manual_clock: i32,
    pub clock_start_ms: i64,
    /// The RM's cluster timestamp (its start time) in the application ids the engine mints;
    /// 0: the engine's start time.
    pub cluster_timestamp: i64,
    /// The RM's epoch (restarts counted by its state store), in bits 40 and up of every
    /// container id the engine mints: 0 to 2^23 - 1.
    pub rm_epoch: i64,
}

/// The size of the first version (ABI 2), before `cluster_timestamp`.
const OPTIONS_V1: usize = std::mem::offset_of!(capsched_engine_options, cluster_timestamp);

/// Writes the defaults (threaded, seed 1, both settings from the configuration, system clock).
///
/// # Safety
/// `out` must be valid for writing one `capsched_engine_options`.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_options_default(
    out: *mut capsched_engine_options,
) -> capsched_status {
    guard(|| {
        write_out(
            out,
            capsched_engine_options {
                struct_size: std::mem::size_of::<capsched_engine_options>() as u32,
                mode: CAPSCHED_MODE_THREADED,
                seed: 1,
                async_scheduling: CAPSCHED_FROM_CONFIG,
                preemption: CAPSCHED_FROM_CONFIG,
                event_capacity: 0,
                manual_clock: 0,
                clock_start_ms: 0,
                cluster_timestamp: 0,
                rm_epoch: 0,
            },
            "out",
        )
    })
}

fn tri(v: i32, what: &str) -> FfiResult<Option<bool>> {
    match v {
        CAPSCHED_FROM_CONFIG => Ok(None),
        0 => Ok(Some(false)),
        1 => Ok(Some(true)),
        other => Err(FfiError::invalid(format!(
            "{what} is {other}: 0, 1 or CAPSCHED_FROM_CONFIG (-1)"
        ))),
    }
}

/// Creates and starts an engine over `config` (borrowed: the engine keeps its own reference).
/// `options` may be NULL for the defaults. The engine takes a tag no other live engine in the
/// process holds, for its ids (see "Ids" in the header's preamble); with 65,535 engines alive
/// at once none is free, and the call fails with CAPSCHED_ERR_REFUSED.
///
/// # Safety
/// `config` must be a live configuration handle; `options` NULL or valid; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_new(
    config: *const capsched_config,
    options: *const capsched_engine_options,
    out: *mut *mut capsched_engine,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let config = config.as_ref().ok_or_else(|| FfiError::null("config"))?;
        let mut o = std::mem::MaybeUninit::uninit();
        capsched_engine_options_default(o.as_mut_ptr());
        let mut o = o.assume_init();
        if !options.is_null() {
            o = read_growable(options, OPTIONS_V1, o, "options", "capsched_engine_options")?;
        }
        if !(0..1 << 23).contains(&o.rm_epoch) {
            return Err(FfiError::invalid(format!(
                "rm_epoch is {}: 0 to 8388607 (YARN's epoch takes the top 24 bits)",
                o.rm_epoch
            )));
        }
        if o.cluster_timestamp < 0 {
            return Err(FfiError::invalid(format!(
                "cluster_timestamp is {}: a time in ms, or 0 for the engine's start",
                o.cluster_timestamp
            )));
        }
        let mode = match o.mode {
            CAPSCHED_MODE_THREADED => Mode::Threaded,
            CAPSCHED_MODE_MANUAL => Mode::Manual,
            other => return Err(FfiError::invalid(format!("unknown mode {other}"))),
        };
        let mut opts = if o.manual_clock != 0 {
            EngineOptions::with_manual_clock(mode, o.clock_start_ms)
        } else {
            EngineOptions::new(mode, Arc::new(SystemClock::new()))
        };
        opts.seed = o.seed;
        if o.cluster_timestamp > 0 {
            opts.cluster_timestamp = o.cluster_timestamp;
        }
        opts.rm_epoch = o.rm_epoch;
        opts.async_scheduling = tri(o.async_scheduling, "async_scheduling")?;
        opts.preemption = tri(o.preemption, "preemption")?;
        if o.event_capacity > 0 {
            opts.event_capacity = o.event_capacity as usize;
        }
        let tag = EngineTag::acquire()?;
        let engine = Engine::start(config.inner.clone(), opts);
        write_out(
            out,
            Box::into_raw(Box::new(capsched_engine { engine, tag })),
            "out",
        )
    })
}

/// Stops the engine: queued calls finish, threads are joined; later calls return
/// CAPSCHED_ERR_STOPPED. Idempotent.
///
/// # Safety
/// `engine` must be a live handle.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_stop(engine: *const capsched_engine) -> capsched_status {
    guard(|| {
        engine_ref(engine)?.stop();
        Ok(())
    })
}

/// Stops (if needed) and frees an engine; NULL is fine. Must not race with other calls on it.
///
/// # Safety
/// `engine` must be NULL or a live handle, not freed before.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_free(engine: *mut capsched_engine) {
    if !engine.is_null() {
        let _ =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(Box::from_raw(engine))));
    }
}

/// One tick: expiry, the asynchronous pass when enabled, and (manual mode, or any engine on a
/// manual clock) the preemption round when due on the engine's clock. With a manual clock, `now_ms` sets the time first (it may not go
/// backwards); pass -1 to keep the clock. `out_allocated` (may be NULL) gets the containers
/// allocated (manual mode; threaded engines tick by themselves and report 0).
///
/// # Safety
/// `engine` must be a live handle; `out_allocated` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_tick(
    engine: *const capsched_engine,
    now_ms: i64,
    out_allocated: *mut u32,
) -> capsched_status {
    guard(|| {
        let e = engine_ref(engine)?;
        let n = if now_ms >= 0 {
            e.tick_at(now_ms)?
        } else {
            e.tick()?
        };
        if !out_allocated.is_null() {
            out_allocated.write(n);
        }
        Ok(())
    })
}

/// The most passes one `capsched_engine_step` runs: a call holds the engine while its passes
/// run (every other call on the engine waits), so a count is bounded; a host that wants more
/// calls again.
pub const CAPSCHED_ENGINE_STEP_MAX: u32 = 1000;

/// `n` asynchronous scheduling passes now, at most CAPSCHED_ENGINE_STEP_MAX (more is
/// CAPSCHED_ERR_INVALID_ARGUMENT, nothing run); `out_allocated` (may be NULL) gets the
/// containers allocated.
///
/// # Safety
/// As `capsched_engine_tick`.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_step(
    engine: *const capsched_engine,
    n: u32,
    out_allocated: *mut u32,
) -> capsched_status {
    guard(|| {
        if n > CAPSCHED_ENGINE_STEP_MAX {
            return Err(FfiError::invalid(format!(
                "n is {n}: at most CAPSCHED_ENGINE_STEP_MAX ({CAPSCHED_ENGINE_STEP_MAX}) passes per call"
            )));
        }
        let allocated = engine_ref(engine)?.step(n)?;
        if !out_allocated.is_null() {
            out_allocated.write(allocated);
        }
        Ok(())
    })
}

/// `-refreshQueues` with a new configuration (borrowed). If YARN would refuse it, the status
/// is CAPSCHED_ERR_REFUSED with YARN's message and the running configuration stays.
///
/// # Safety
/// Both handles must be live.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_refresh_queues(
    engine: *const capsched_engine,
    config: *const capsched_config,
) -> capsched_status {
    guard(|| {
        let e = engine_ref(engine)?;
        let c = config.as_ref().ok_or_else(|| FfiError::null("config"))?;
        Ok(e.refresh_queues(c.inner.clone())?)
    })
}

/// The RM REST scheduler document (`/ws/v1/cluster/scheduler`) as JSON, built from the live
/// state now (applications, containers, users). Free it with `capsched_string_free`.
///
/// # Safety
/// `engine` live; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_scheduler_json(
    engine: *const capsched_engine,
    out: *mut capsched_owned_str,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let json = engine_ref(engine)?.scheduler_json()?;
        write_out(out, give_string(&json), "out")
    })
}

pub const CAPSCHED_EVENT_ACCEPTED: i32 = 1;
pub const CAPSCHED_EVENT_REJECTED: i32 = 2;
/// The AM pulled the container: its allocate response lists it (RMContainer ACQUIRED). Kept
/// as it was; an RM learns of a container at placement (the node update's response, or
/// CAPSCHED_EVENT_CONTAINER_PLACED), never first here.
pub const CAPSCHED_EVENT_ALLOCATED: i32 = 3;
pub const CAPSCHED_EVENT_RELEASED: i32 = 4;
pub const CAPSCHED_EVENT_PREEMPT_WARNED: i32 = 5;
pub const CAPSCHED_EVENT_PREEMPTED: i32 = 6;
pub const CAPSCHED_EVENT_EXPIRED: i32 = 7;
pub const CAPSCHED_EVENT_QUEUE_REFRESHED: i32 = 8;
pub const CAPSCHED_EVENT_NODE_LOST: i32 = 9;
pub const CAPSCHED_EVENT_NODE_DECOMMISSIONED: i32 = 10;

pub const CAPSCHED_EVENT_AM_CONTAINER_ALLOCATED: i32 = 11;
pub const CAPSCHED_EVENT_CONTAINER_COMPLETED: i32 = 12;
pub const CAPSCHED_EVENT_APP_ACTIVATED: i32 = 13;
pub const CAPSCHED_EVENT_APP_PENDING: i32 = 14;
/// The application's lifetime has ended (its queue's `default-application-lifetime`, or what
/// it asked for within the queue's `maximum-application-lifetime`): the RM kills it, with
/// "Application is killed by ResourceManager as it has exceeded the lifetime period."
/// (RMAppLifetimeMonitor). Told once; the engine keeps the application until it is removed.
pub const CAPSCHED_EVENT_APP_LIFETIME_EXPIRED: i32 = 15;
/// A container the engine placed outside a node update's response: by the asynchronous pass
/// (the engine thread's, `capsched_engine_tick`, `capsched_engine_step`) or by central
/// opportunistic allocation in an AM's allocate. The RM creates its RMContainer now (START →
/// ALLOCATED), as the stock scheduler does at its commit: this event comes before every other
/// event about the container (AM_CONTAINER_ALLOCATED, ALLOCATED at the AM's pull, PREEMPTED,
/// CONTAINER_COMPLETED, …). `capsched_container_get` gives its resource, priority, allocation
/// request id, locality and execution type while it lives. Containers a node update placed
/// are in that call's response (`allocated_containers`) instead, and get no PLACED.
pub const CAPSCHED_EVENT_CONTAINER_PLACED: i32 = 16;

/// One event. An id that does not apply to the event's kind is 0, which is never an id (see
/// "Ids" in the header's preamble), and so are the parts of `yarn_id` that do not apply:
///
/// | kind | app | container | node | yarn_id | exit_status / reason |
/// |---|---|---|---|---|---|
/// | ACCEPTED | yes | | | application | |
/// | REJECTED | | | | | |
/// | ALLOCATED | yes | yes | yes | container | |
/// | RELEASED, PREEMPT_WARNED | yes | yes | | container | |
/// | PREEMPTED | yes | yes | | container | -102 |
/// | EXPIRED | yes | yes | | container | -100 |
/// | QUEUE_REFRESHED | | | | | |
/// | NODE_LOST, NODE_DECOMMISSIONED | | | yes | | |
/// | AM_CONTAINER_ALLOCATED | yes | yes | yes | container | |
/// | CONTAINER_COMPLETED | yes | yes | | container | its exit status |
/// | APP_ACTIVATED | yes | | | attempt | |
/// | APP_PENDING | yes | | | attempt | CAPSCHED_PENDING_* |
/// | APP_LIFETIME_EXPIRED | yes | | | application | |
/// | CONTAINER_PLACED | yes | yes | yes | container | |
///
/// Every container the engine places is told once at placement: in the response of the node
/// update that placed it, or else by CONTAINER_PLACED, before any other event about it.
/// Every container that ends gives one CONTAINER_COMPLETED, after the RELEASED, PREEMPTED or
/// EXPIRED that says why when there is one; its handle is no longer valid by then, its
/// `yarn_id` is.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct capsched_event {
    pub kind: i32,
    pub app: u64,
    pub container: u64,
    pub node: u64,
    pub yarn_id: super::capsched_yarn_id,
    /// CONTAINER_COMPLETED, PREEMPTED, EXPIRED: the exit status; APP_PENDING: the reason.
    pub code: i32,
}

fn to_c(ids: Ids, e: &EngineEvent) -> capsched_event {
    use crate::records::exit_status;
    let mut c = capsched_event::default();
    let mut container_event =
        |kind, app: &AppId, container: &ContainerId, yarn: &YarnContainerId| {
            c.kind = kind;
            c.app = ids.app(*app);
            c.container = ids.container(*container);
            c.yarn_id = (*yarn).into();
        };
    match e {
        EngineEvent::Accepted { app, application } => {
            c.kind = CAPSCHED_EVENT_ACCEPTED;
            c.app = ids.app(*app);
            c.yarn_id = (*application).into();
        }
        EngineEvent::Rejected { .. } => c.kind = CAPSCHED_EVENT_REJECTED,
        EngineEvent::Allocated {
            app,
            container,
            yarn_id,
            node,
            ..
        } => {
            container_event(CAPSCHED_EVENT_ALLOCATED, app, container, yarn_id);
            c.node = ids.node(*node);
        }
        EngineEvent::ContainerPlaced { app, placed } => {
            container_event(
                CAPSCHED_EVENT_CONTAINER_PLACED,
                app,
                &placed.id,
                &placed.yarn_id,
            );
            c.node = ids.node(placed.node);
        }
        EngineEvent::Released {
            app,
            container,
            yarn_id,
        } => container_event(CAPSCHED_EVENT_RELEASED, app, container, yarn_id),
        EngineEvent::PreemptWarned {
            app,
            container,
            yarn_id,
        } => container_event(CAPSCHED_EVENT_PREEMPT_WARNED, app, container, yarn_id),
        EngineEvent::Preempted {
            app,
            container,
            yarn_id,
        } => {
            container_event(CAPSCHED_EVENT_PREEMPTED, app, container, yarn_id);
            c.code = exit_status::PREEMPTED;
        }
        EngineEvent::Expired {
            app,
            container,
            yarn_id,
        } => {
            container_event(CAPSCHED_EVENT_EXPIRED, app, container, yarn_id);
            c.code = exit_status::ABORTED;
        }
        EngineEvent::QueueRefreshed => c.kind = CAPSCHED_EVENT_QUEUE_REFRESHED,
        EngineEvent::NodeLost { node } => {
            c.kind = CAPSCHED_EVENT_NODE_LOST;
            c.node = ids.node(*node);
        }
        EngineEvent::NodeDecommissioned { node } => {
            c.kind = CAPSCHED_EVENT_NODE_DECOMMISSIONED;
            c.node = ids.node(*node);
        }
        EngineEvent::AmContainerAllocated {
            app,
            container,
            yarn_id,
            node,
        } => {
            container_event(
                CAPSCHED_EVENT_AM_CONTAINER_ALLOCATED,
                app,
                container,
                yarn_id,
            );
            c.node = ids.node(*node);
        }
        EngineEvent::ContainerCompleted {
            app,
            container,
            yarn_id,
            exit_status,
        } => {
            container_event(CAPSCHED_EVENT_CONTAINER_COMPLETED, app, container, yarn_id);
            c.code = *exit_status;
        }
        EngineEvent::AppActivated { app, attempt } => {
            c.kind = CAPSCHED_EVENT_APP_ACTIVATED;
            c.app = ids.app(*app);
            c.yarn_id = (*attempt).into();
        }
        EngineEvent::AppLifetimeExpired { app, application } => {
            c.kind = CAPSCHED_EVENT_APP_LIFETIME_EXPIRED;
            c.app = ids.app(*app);
            c.yarn_id = (*application).into();
        }
        EngineEvent::AppPending {
            app,
            attempt,
            reason,
        } => {
            c.kind = CAPSCHED_EVENT_APP_PENDING;
            c.app = ids.app(*app);
            c.yarn_id = (*attempt).into();
            c.code = super::pending_code(Some(*reason));
        }
    }
    c
}

/// Moves up to `capacity` events, oldest first, into `events`; `*out_count` gets how many.
/// `out_dropped` (may be NULL) gets the events dropped so far because the queue was full.
///
/// # Safety
/// `events` must be writable for `capacity` entries (NULL only with capacity 0).
#[no_mangle]
pub unsafe extern "C" fn capsched_poll_events(
    engine: *const capsched_engine,
    events: *mut capsched_event,
    capacity: usize,
    out_count: *mut usize,
    out_dropped: *mut u64,
) -> capsched_status {
    guard(|| {
        need_out(out_count, "out_count")?;
        if events.is_null() && capacity > 0 {
            return Err(FfiError::null("events"));
        }
        let h = handle(engine)?;
        let e = &h.engine;
        let taken = e.poll_events(capacity);
        for (i, ev) in taken.iter().enumerate() {
            events.add(i).write(to_c(h.ids(), ev));
        }
        out_count.write(taken.len());
        if !out_dropped.is_null() {
            out_dropped.write(e.dropped_events());
        }
        Ok(())
    })
}

/// The cluster as the scheduler sees it now.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct capsched_cluster_info {
    pub resource: capsched_resource,
    pub num_nodes: u64,
    pub num_applications: u64,
    pub num_containers: u64,
    /// Events dropped because the host did not drain them in time.
    pub dropped_events: u64,
}

/// Writes the cluster's figures (fresh).
///
/// # Safety
/// `engine` live; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_cluster_info(
    engine: *const capsched_engine,
    out: *mut capsched_cluster_info,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let s = engine_ref(engine)?.refresh_snapshot()?;
        write_out(
            out,
            capsched_cluster_info {
                resource: s.cluster.into(),
                num_nodes: s.num_nodes as u64,
                num_applications: s.num_applications as u64,
                num_containers: s.num_containers as u64,
                dropped_events: s.dropped_events,
            },
            "out",
        )
    })
}

/// Audits the scheduler's state against every invariant the tests check (containers, node,
/// queue, user and application totals agree): `CAPSCHED_OK`, or `CAPSCHED_ERR_INVARIANT` with
/// the violations in `capsched_last_error`. For hosts' own tests and audits; it walks the
/// whole state, so not for every call.
///
/// # Safety
/// `engine` live.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_check_invariants(
    engine: *const capsched_engine,
) -> capsched_status {
    guard(|| {
        engine_ref(engine)?
            .check_invariants()?
            .map_err(|v| FfiError(capsched_status::CAPSCHED_ERR_INVARIANT, v.join("; ")))
    })
}

/// One queue's figures.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_queue_info {
    /// The queue's full path ("root.a.b"), owned by the list.
    pub path: super::types::capsched_str,
    pub used: capsched_resource,
    pub pending: capsched_resource,
    pub reserved: capsched_resource,
    /// Guaranteed and maximum shares of the cluster, 0 to 1.
    pub absolute_capacity: f32,
    pub absolute_maximum_capacity: f32,
    /// YARN's `getNumApplications`: a leaf's attempts (pending, active, or held back by
    /// max-parallel-apps), a parent's applications submitted beneath it.
    pub num_applications: i32,
}

/// The queue list (library-owned; free with `capsched_queue_list_free`).
#[repr(C)]
pub struct capsched_queue_list {
    pub queues: *mut capsched_queue_info,
    pub count: usize,
}

/// The list and the path strings its entries point into.
#[repr(C)]
struct QueueListOwner {
    public: capsched_queue_list,
    paths: Vec<std::ffi::CString>,
}

/// Every queue in pre-order (root first), fresh. Free with `capsched_queue_list_free`.
///
/// # Safety
/// `engine` live; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_queues(
    engine: *const capsched_engine,
    out: *mut *mut capsched_queue_list,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let s = engine_ref(engine)?.refresh_snapshot()?;
        let paths: Vec<std::ffi::CString> = s
            .queues
            .iter()
            .map(|q| std::ffi::CString::new(q.path.clone()).unwrap_or_default())
            .collect();
        let infos: Vec<capsched_queue_info> = s
            .queues
            .iter()
            .zip(&paths)
            .map(|(q, p)| capsched_queue_info {
                path: super::types::capsched_str {
                    ptr: p.as_ptr(),
                    len: p.as_bytes().len(),
                },
                used: q.used.into(),
                pending: q.pending.into(),
                reserved: q.reserved.into(),
                absolute_capacity: q.absolute_capacity,
                absolute_maximum_capacity: q.absolute_maximum_capacity,
                num_applications: q.num_applications,
            })
            .collect();
        let (queues, count) = super::types::give_array(infos);
        let owner = Box::new(QueueListOwner {
            public: capsched_queue_list { queues, count },
            paths,
        });
        write_out(
            out,
            Box::into_raw(owner).cast::<capsched_queue_list>(),
            "out",
        )
    })
}

/// Frees a queue list; NULL is fine.
///
/// # Safety
/// `list` must be NULL or from `capsched_engine_queues`, not freed before.
#[no_mangle]
pub unsafe extern "C" fn capsched_queue_list_free(list: *mut capsched_queue_list) {
    if list.is_null() {
        return;
    }
    let owner = Box::from_raw(list.cast::<QueueListOwner>());
    super::types::free_array(owner.public.queues, owner.public.count);
}

/// An event callback: `event` is valid only during the call. It runs on the thread that
/// produced the event (the engine thread, in threaded mode) and must not call the engine.
pub type capsched_event_callback =
    Option<unsafe extern "C" fn(event: *const capsched_event, user_data: *mut std::ffi::c_void)>;

/// Called once with `user_data` when the callback is replaced or the engine freed.
pub type capsched_user_data_finalizer =
    Option<unsafe extern "C" fn(user_data: *mut std::ffi::c_void)>;

/// The host's callback and data; the finalizer runs when this is dropped.
struct CallbackSink {
    ids: Ids,
    callback: unsafe extern "C" fn(*const capsched_event, *mut std::ffi::c_void),
    user_data: *mut std::ffi::c_void,
    finalizer: capsched_user_data_finalizer,
}

// SAFETY: the header states that the callback may run on any thread; the host guarantees its
// user data is usable from there.
unsafe impl Send for CallbackSink {}
unsafe impl Sync for CallbackSink {}

impl CallbackSink {
    fn deliver(&self, ev: &EngineEvent) {
        let c = to_c(self.ids, ev);
        // SAFETY: registered by the host for exactly this.
        unsafe { (self.callback)(&c, self.user_data) };
    }
}

impl Drop for CallbackSink {
    fn drop(&mut self) {
        if let Some(f) = self.finalizer {
            // SAFETY: the host gave this finalizer for this data.
            unsafe { f(self.user_data) };
        }
    }
}

/// Registers `callback` (with `user_data`) for every later event, instead of the queue that
/// `capsched_poll_events` drains; NULL goes back to the queue. The previous registration's
/// finalizer (if any) runs once it is no longer in use; this one's runs when it is replaced
/// or the engine is freed.
///
/// # Safety
/// `engine` live; `callback` and `finalizer` valid functions (or NULL) for as long as they are
/// registered.
#[no_mangle]
pub unsafe extern "C" fn capsched_engine_set_event_callback(
    engine: *const capsched_engine,
    callback: capsched_event_callback,
    user_data: *mut std::ffi::c_void,
    finalizer: capsched_user_data_finalizer,
) -> capsched_status {
    guard(|| {
        let h = handle(engine)?;
        let e = &h.engine;
        let sink = callback.map(|callback| {
            let s = CallbackSink {
                ids: h.ids(),
                callback,
                user_data,
                finalizer,
            };
            Box::new(move |ev: &EngineEvent| s.deliver(ev)) as crate::runtime::events::EventSink
        });
        if sink.is_none() {
            if let Some(f) = finalizer {
                // Nothing to keep: the data is the host's again at once.
                f(user_data);
            }
        }
        e.set_event_sink(sink);
        Ok(())
    })
}
