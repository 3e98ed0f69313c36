//! Preemption through the C ABI, as a host (the RM plug-in) switches it: the engine option
//! `preemption` turns the monitor on, or off, whatever the configuration says; with lazy
//! preemption the host hears of a kill (CAPSCHED_EVENT_PREEMPTED) when the starved queue's
//! container is placed, and the node's heartbeat response tells the NM to kill it.

mod common;

use std::ptr;

use capsched::ffi::capsched_status::*;
use capsched::ffi::*;
use common::ffi::{last_error, s};

const GB: i64 = 1024;

fn xml(extra: &[(&str, &str)]) -> String {
    let mut props = vec![
        ("yarn.scheduler.capacity.root.queues", "a,b"),
        ("yarn.scheduler.capacity.root.a.capacity", "50"),
        ("yarn.scheduler.capacity.root.b.capacity", "50"),
        ("yarn.scheduler.capacity.root.a.maximum-capacity", "100"),
        ("yarn.scheduler.capacity.root.b.maximum-capacity", "100"),
        ("yarn.scheduler.capacity.root.a.user-limit-factor", "2"),
        ("yarn.scheduler.capacity.root.b.user-limit-factor", "2"),
        ("yarn.scheduler.capacity.maximum-am-resource-percent", "1"),
        // Take all that is owed in one round, 1 s after the mark.
        (
            "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round",
            "1",
        ),
        (
            "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor",
            "1",
        ),
        (
            "yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill",
            "1000",
        ),
    ];
    props.extend_from_slice(extra);
    let body: String = props
        .iter()
        .map(|(k, v)| format!("<property><name>{k}</name><value>{v}</value></property>"))
        .collect();
    format!("<configuration>{body}</configuration>")
}

/// An engine in `mode` with a manual clock; `preemption` is the option (CAPSCHED_FROM_CONFIG,
/// 0 or 1).
unsafe fn engine(mode: i32, xml: &str, preemption: i32) -> *mut capsched_engine {
    let mut cfg = ptr::null_mut();
    assert_eq!(capsched_config_from_xml(s(xml), &mut cfg), CAPSCHED_OK);
    let mut opts = std::mem::zeroed();
    assert_eq!(capsched_engine_options_default(&mut opts), CAPSCHED_OK);
    opts.mode = mode;
    opts.preemption = preemption;
    opts.manual_clock = 1;
    opts.clock_start_ms = 0;
    let mut e = ptr::null_mut();
    assert_eq!(
        capsched_engine_new(cfg, &opts, &mut e),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    capsched_config_free(cfg);
    e
}

unsafe fn app(e: *mut capsched_engine, queue: &str, user: &str) -> u64 {
    let mut id = 0;
    assert_eq!(
        capsched_app_submit(e, s(queue), s(user), CAPSCHED_DEFAULT_PRIORITY, &mut id),
        CAPSCHED_OK
    );
    let none = capsched_resource {
        memory_mb: 0,
        vcores: 0,
    };
    // Unmanaged: the test plays the AM itself.
    assert_eq!(
        capsched_attempt_add(e, id, none, 1, 0),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    id
}

/// One allocate call asking for `count` more 1 GB containers anywhere (0: none more); returns
/// (allocated, containers the AM is asked to give back, completed with −102).
unsafe fn allocate(e: *mut capsched_engine, app: u64, count: i32) -> (usize, usize, usize) {
    // The AM's protocol: each call carries the last response's id (a repeat is a replay).
    thread_local! {
        static LAST: std::cell::RefCell<std::collections::HashMap<u64, i32>> = Default::default();
    }
    let ask = capsched_ask {
        priority: 1,
        allocation_request_id: 0,
        resource_name: s("*"),
        capability: capsched_resource {
            memory_mb: GB,
            vcores: 1,
        },
        num_containers: count,
        relax_locality: 1,
        execution_type: CAPSCHED_GUARANTEED,
    };
    let mut req: capsched_allocate_request = std::mem::zeroed();
    req.struct_size = std::mem::size_of::<capsched_allocate_request>() as u32;
    req.response_id = LAST.with(|l| l.borrow().get(&app).copied().unwrap_or(0));
    req.asks = &ask;
    req.ask_count = 1;
    let mut r = ptr::null_mut();
    assert_eq!(
        capsched_allocate(e, app, &req, &mut r),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    let preempted = (0..(*r).completed_count)
        .filter(|&i| (*(*r).completed.add(i)).exit_status == -102)
        .count();
    let out = ((*r).allocated_count, (*r).preempt_count, preempted);
    LAST.with(|l| l.borrow_mut().insert(app, (*r).response_id));
    capsched_allocate_response_free(r);
    out
}

/// Heartbeats `node`; returns the containers the NM is told to kill.
unsafe fn heartbeat(e: *mut capsched_engine, node: u64) -> Vec<u64> {
    let mut r = ptr::null_mut();
    assert_eq!(
        capsched_node_update(e, node, ptr::null(), &mut r),
        CAPSCHED_OK
    );
    let kill = (0..(*r).to_kill_count)
        .map(|i| *(*r).to_kill.add(i))
        .collect();
    capsched_node_response_free(r);
    kill
}

unsafe fn events(e: *mut capsched_engine, kind: i32) -> Vec<u64> {
    let mut buf = vec![std::mem::zeroed::<capsched_event>(); 256];
    let mut n = 0;
    assert_eq!(
        capsched_poll_events(e, buf.as_mut_ptr(), buf.len(), &mut n, ptr::null_mut()),
        CAPSCHED_OK
    );
    buf[..n]
        .iter()
        .filter(|ev| ev.kind == kind)
        .map(|ev| ev.container)
        .collect()
}

/// App1 in a holds all of one 8 GB node; App2 in b asks for 4 GB. Returns (engine, node,
/// app1, app2).
unsafe fn a_full_b_asks(xml: &str, preemption: i32) -> (*mut capsched_engine, u64, u64, u64) {
    a_full_b_asks_in(CAPSCHED_MODE_MANUAL, xml, preemption)
}

unsafe fn a_full_b_asks_in(
    mode: i32,
    xml: &str,
    preemption: i32,
) -> (*mut capsched_engine, u64, u64, u64) {
    let e = engine(mode, xml, preemption);
    let mut node = 0;
    let size = capsched_resource {
        memory_mb: 8 * GB,
        vcores: 8,
    };
    assert_eq!(
        capsched_node_add(e, s("h0"), s("/r"), size, &mut node),
        CAPSCHED_OK
    );
    let app1 = app(e, "a", "alice");
    allocate(e, app1, 8);
    for _ in 0..8 {
        heartbeat(e, node);
    }
    assert_eq!(allocate(e, app1, 0).0, 8, "App1 holds the node");
    let app2 = app(e, "b", "bob");
    allocate(e, app2, 4);
    (e, node, app1, app2)
}

/// Ticks the manual engine through the monitor's rounds for `ms` of clock time.
unsafe fn run_monitor(e: *mut capsched_engine, from_ms: i64, ms: i64) -> i64 {
    let mut now = from_ms;
    while now < from_ms + ms {
        now += 500;
        assert_eq!(capsched_engine_tick(e, now, ptr::null_mut()), CAPSCHED_OK);
    }
    now
}

#[test]
fn the_preemption_option_turns_the_monitor_on_whatever_the_configuration_says() {
    unsafe {
        // No yarn.resourcemanager.scheduler.monitor.enable: the option alone switches it on.
        let (e, node, app1, app2) = a_full_b_asks(&xml(&[]), 1);
        // A refresh with a configuration that still lacks it keeps the option in force.
        let mut cfg = ptr::null_mut();
        assert_eq!(
            capsched_config_from_xml(s(&xml(&[])), &mut cfg),
            CAPSCHED_OK
        );
        assert_eq!(
            capsched_engine_refresh_queues(e, cfg),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        capsched_config_free(cfg);
        run_monitor(e, 0, 10_000);
        let (_, warned, killed) = allocate(e, app1, 0);
        assert_eq!(warned + killed, 4, "marked, then killed: b's 4 GB");
        assert_eq!(killed, 4);
        // One off-switch container per heartbeat (maximum-offswitch-assignments = 1).
        for _ in 0..4 {
            heartbeat(e, node);
        }
        assert_eq!(allocate(e, app2, 0).0, 4, "b got the room");
        capsched_engine_free(e);

        // The configuration enables it, the option says off: nothing is marked.
        let on = xml(&[("yarn.resourcemanager.scheduler.monitor.enable", "true")]);
        let (e, _node, app1, _app2) = a_full_b_asks(&on, 0);
        run_monitor(e, 0, 10_000);
        assert_eq!(allocate(e, app1, 0), (0, 0, 0));
        capsched_engine_free(e);

        // And the configuration alone, with the option left to it.
        let (e, _node, app1, _app2) = a_full_b_asks(&on, CAPSCHED_FROM_CONFIG);
        run_monitor(e, 0, 10_000);
        assert_eq!(allocate(e, app1, 0).2, 4);
        capsched_engine_free(e);
    }
}

/// A threaded engine on the host's clock (the RM plug-in's tests, a simulator driving a real
/// engine) runs its monitor on that clock: rounds come with `tick`, every
/// `monitoring_interval` of the host's time, exactly as a manual engine's do.
#[test]
fn a_threaded_engine_on_a_manual_clock_runs_the_monitor_on_that_clock() {
    unsafe {
        let (e, node, app1, app2) = a_full_b_asks_in(CAPSCHED_MODE_THREADED, &xml(&[]), 1);
        // 2.5 s of the host's time: still before the first round (monitoring_interval 3 s).
        let now = run_monitor(e, 0, 2_500);
        assert_eq!(
            allocate(e, app1, 0),
            (0, 0, 0),
            "no round before its interval"
        );
        // Two rounds later App1 has been told and then lost b's 4 GB, as in manual mode.
        run_monitor(e, now, 7_500);
        let (_, warned, killed) = allocate(e, app1, 0);
        assert_eq!((warned + killed, killed), (4, 4));
        for _ in 0..4 {
            heartbeat(e, node);
        }
        assert_eq!(allocate(e, app2, 0).0, 4, "b got the room");
        assert_eq!(
            capsched_engine_check_invariants(e),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        capsched_engine_free(e);
    }
}

#[test]
fn lazy_preemption_kills_when_the_starved_queue_is_placed_and_tells_the_host() {
    unsafe {
        let lazy = xml(&[("yarn.scheduler.capacity.lazy-preemption-enabled", "true")]);
        let (e, node, app1, app2) = a_full_b_asks(&lazy, 1);
        // No heartbeat meanwhile: the rounds make b's 4 GB of App1's containers killable,
        // and nothing is killed while no allocation needs the room.
        let now = run_monitor(e, 0, 10_000);
        assert!(events(e, CAPSCHED_EVENT_PREEMPT_WARNED).len() >= 4);
        assert_eq!(allocate(e, app1, 0).2, 0, "killable, not killed");
        // b now wants only two: the heartbeat places them, killing exactly two.
        allocate(e, app2, 2);
        let mut kill = Vec::new();
        for _ in 0..4 {
            kill.extend(heartbeat(e, node));
        }
        assert_eq!(kill.len(), 2, "the NM kills what made room");
        let mut preempted = events(e, CAPSCHED_EVENT_PREEMPTED);
        preempted.sort_unstable();
        let mut expected = kill.clone();
        expected.sort_unstable();
        assert_eq!(preempted, expected, "the host hears of each kill");
        assert_eq!(allocate(e, app2, 0).0, 2);
        assert_eq!(allocate(e, app1, 0).2, 2, "App1 learns of two −102s");
        assert_eq!(
            capsched_engine_tick(e, now + 500, ptr::null_mut()),
            CAPSCHED_OK
        );
        assert_eq!(
            capsched_engine_check_invariants(e),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        capsched_engine_free(e);
    }
}
