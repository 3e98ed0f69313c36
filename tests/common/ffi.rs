//! Helpers for tests that call the C ABI exactly as C does.
#![allow(dead_code)]

use std::ffi::CStr;

use capsched::ffi::capsched_status::CAPSCHED_OK;
use capsched::ffi::*;

/// A borrowed Rust string as the ABI's pointer + length.
pub fn s(text: &str) -> capsched_str {
    capsched_str {
        ptr: text.as_ptr().cast(),
        len: text.len(),
    }
}

/// A manual engine with preemption and a manual clock at 0, on the configuration `xml`.
///
/// # Safety
/// The caller frees the engine with `capsched_engine_free`.
pub unsafe fn manual_engine(xml: &str) -> *mut capsched_engine {
    let mut cfg = std::ptr::null_mut();
    assert_eq!(capsched_config_from_xml(s(xml), &mut cfg), CAPSCHED_OK);
    let mut opts = std::mem::zeroed();
    assert_eq!(capsched_engine_options_default(&mut opts), CAPSCHED_OK);
    opts.mode = CAPSCHED_MODE_MANUAL;
    opts.preemption = 1;
    opts.manual_clock = 1;
    opts.clock_start_ms = 0;
    let mut e = std::ptr::null_mut();
    assert_eq!(capsched_engine_new(cfg, &opts, &mut e), CAPSCHED_OK);
    capsched_config_free(cfg);
    e
}

/// The calling thread's `capsched_last_error()`.
pub fn last_error() -> String {
    unsafe { CStr::from_ptr(capsched_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Everything an engine shows a host — its cluster counts and the REST document — after
/// checking its invariants: equal strings mean an unchanged engine.
///
/// # Safety
/// `e` must be a live engine.
pub unsafe fn engine_state(e: *mut capsched_engine) -> String {
    assert_eq!(
        capsched_engine_check_invariants(e),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    let mut info = std::mem::zeroed::<capsched_cluster_info>();
    assert_eq!(capsched_engine_cluster_info(e, &mut info), CAPSCHED_OK);
    let mut json = std::mem::zeroed::<capsched_owned_str>();
    assert_eq!(capsched_engine_scheduler_json(e, &mut json), CAPSCHED_OK);
    let text = CStr::from_ptr(json.ptr).to_string_lossy().into_owned();
    capsched_string_free(json);
    format!(
        "{} nodes, {} applications, {} containers: {text}",
        info.num_nodes, info.num_applications, info.num_containers
    )
}

/// What one allocate call gave an AM.
#[derive(Debug, Default)]
pub struct Allocation {
    /// (container, node) of each container allocated.
    pub allocated: Vec<(u64, u64)>,
    /// Containers the preemption message asks back.
    pub preempt: Vec<u64>,
    /// (container, exit status, diagnostics) of each completed container.
    pub completed: Vec<(u64, i32, String)>,
}

/// An AM's side of the protocol: its application and the last response id it got.
pub struct Am {
    pub app: u64,
    last_response_id: i32,
}

impl Am {
    /// Submits to `queue` as `user` and adds an unmanaged attempt (the test plays the AM).
    ///
    /// # Safety
    /// `e` must be a live engine.
    pub unsafe fn submit(e: *mut capsched_engine, queue: &str, user: &str) -> Am {
        let mut app = 0;
        assert_eq!(
            capsched_app_submit(e, s(queue), s(user), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        let none = capsched_resource {
            memory_mb: 0,
            vcores: 0,
        };
        assert_eq!(capsched_attempt_add(e, app, none, 1, 0), CAPSCHED_OK);
        Am {
            app,
            last_response_id: 0,
        }
    }

    /// One allocate call asking for `count` more containers of `memory_mb` anywhere (0: none
    /// more), echoing the last response id.
    ///
    /// # Safety
    /// `e` must be a live engine.
    pub unsafe fn allocate(
        &mut self,
        e: *mut capsched_engine,
        count: i32,
        memory_mb: i64,
    ) -> Allocation {
        let ask = capsched_ask {
            priority: 1,
            allocation_request_id: 0,
            resource_name: s("*"),
            capability: capsched_resource {
                memory_mb,
                vcores: 1,
            },
            num_containers: count,
            relax_locality: 1,
            execution_type: CAPSCHED_GUARANTEED,
        };
        let mut req: capsched_allocate_request = std::mem::zeroed();
        req.struct_size = std::mem::size_of::<capsched_allocate_request>() as u32;
        req.response_id = self.last_response_id;
        req.asks = &ask;
        req.ask_count = usize::from(memory_mb > 0);
        let mut r = std::ptr::null_mut();
        assert_eq!(
            capsched_allocate(e, self.app, &req, &mut r),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        let resp = &*r;
        let out = Allocation {
            allocated: (0..resp.allocated_count)
                .map(|i| {
                    let c = &*resp.allocated.add(i);
                    (c.id, c.node)
                })
                .collect(),
            preempt: (0..resp.preempt_count)
                .map(|i| *resp.preempt_containers.add(i))
                .collect(),
            completed: (0..resp.completed_count)
                .map(|i| {
                    let c = &*resp.completed.add(i);
                    let d = std::slice::from_raw_parts(
                        c.diagnostics.ptr.cast::<u8>(),
                        c.diagnostics.len,
                    );
                    (
                        c.container,
                        c.exit_status,
                        String::from_utf8_lossy(d).into_owned(),
                    )
                })
                .collect(),
        };
        self.last_response_id = resp.response_id;
        capsched_allocate_response_free(r);
        out
    }
}

/// What a heartbeat told the NodeManager.
#[derive(Debug, Default)]
pub struct Heartbeat {
    pub to_kill: Vec<u64>,
    pub allocated: u32,
    pub decommissioned: bool,
}

/// A heartbeat reporting `launched` containers and `completed` ones (exit 0).
///
/// # Safety
/// `e` must be a live engine.
pub unsafe fn heartbeat(
    e: *mut capsched_engine,
    node: u64,
    launched: &[u64],
    completed: &[u64],
) -> Heartbeat {
    let done: Vec<capsched_completed_container> = completed
        .iter()
        .map(|&container| capsched_completed_container {
            container,
            exit_status: 0,
            diagnostics: s(""),
        })
        .collect();
    let mut st: capsched_node_status = std::mem::zeroed();
    st.struct_size = std::mem::size_of::<capsched_node_status>() as u32;
    st.launched = launched.as_ptr();
    st.launched_count = launched.len();
    st.completed = done.as_ptr();
    st.completed_count = done.len();
    let mut r = std::ptr::null_mut();
    assert_eq!(
        capsched_node_update(e, node, &st, &mut r),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    let resp = &*r;
    let out = Heartbeat {
        to_kill: (0..resp.to_kill_count)
            .map(|i| *resp.to_kill.add(i))
            .collect(),
        allocated: resp.allocated,
        decommissioned: resp.decommissioned != 0,
    };
    capsched_node_response_free(r);
    out
}

/// Every queued event.
///
/// # Safety
/// `e` must be a live engine.
pub unsafe fn drain_events(e: *mut capsched_engine) -> Vec<capsched_event> {
    let mut buf = vec![std::mem::zeroed::<capsched_event>(); 1024];
    let mut n = 0;
    assert_eq!(
        capsched_poll_events(e, buf.as_mut_ptr(), buf.len(), &mut n, std::ptr::null_mut()),
        CAPSCHED_OK
    );
    buf.truncate(n);
    buf
}

/// The cluster's total resource.
///
/// # Safety
/// `e` must be a live engine.
pub unsafe fn cluster_resource(e: *mut capsched_engine) -> capsched_resource {
    let mut info = std::mem::zeroed::<capsched_cluster_info>();
    assert_eq!(capsched_engine_cluster_info(e, &mut info), CAPSCHED_OK);
    info.resource
}

/// The engine's `/ws/v1/cluster/scheduler` document.
///
/// # Safety
/// `e` must be a live engine.
pub unsafe fn scheduler_json(e: *mut capsched_engine) -> String {
    let mut out = capsched_owned_str::default();
    assert_eq!(capsched_engine_scheduler_json(e, &mut out), CAPSCHED_OK);
    let text = std::str::from_utf8(std::slice::from_raw_parts(out.ptr as *const u8, out.len))
        .unwrap()
        .to_string();
    capsched_string_free(out);
    text
}
