//! The C ABI refuses bad input with the right status and message, writes no out-parameter on
//! failure, and leaves the engine working. These call the exported functions exactly as C
//! does (raw pointers, lengths, struct sizes).

use std::ffi::CStr;
use std::ptr;

mod common;

use capsched::ffi::capsched_status::*;
use capsched::ffi::*;
use common::ffi::{engine_state, last_error, s};

const XML: &str = "<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>default</value></property>
<property><name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value></property>
</configuration>";

fn default_config() -> *mut capsched_config {
    let mut config = ptr::null_mut();
    assert_eq!(
        unsafe { capsched_config_from_xml(s(XML), &mut config) },
        CAPSCHED_OK
    );
    config
}

/// A submission of user "u" to "default" whose struct is `size` bytes as far as the library
/// is told.
fn submission(size: usize, application_id: capsched_yarn_id) -> capsched_submission {
    capsched_submission {
        struct_size: size as u32,
        queue: s("default"),
        user: s("u"),
        groups: ptr::null(),
        group_count: 0,
        priority: CAPSCHED_DEFAULT_PRIORITY,
        application_id,
        recovering: 0,
        app_name: s(""),
        lifetime_s: 0,
        node_label_expression: capsched_str::EMPTY,
        am_node_label_expression: capsched_str::EMPTY,
    }
}

fn engine() -> *mut capsched_engine {
    unsafe {
        let mut config = ptr::null_mut();
        assert_eq!(capsched_config_from_xml(s(XML), &mut config), CAPSCHED_OK);
        let mut opts = std::mem::zeroed();
        assert_eq!(capsched_engine_options_default(&mut opts), CAPSCHED_OK);
        opts.mode = CAPSCHED_MODE_MANUAL;
        opts.manual_clock = 1; // the state (and its JSON) moves only with the calls made
        let mut e = ptr::null_mut();
        assert_eq!(capsched_engine_new(config, &opts, &mut e), CAPSCHED_OK);
        capsched_config_free(config);
        e
    }
}

#[test]
fn configurations_report_yarns_message_and_null_arguments() {
    unsafe {
        let mut config = ptr::null_mut();
        let bad = "<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>\
                   <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>60</value></property>\
                   <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>60</value></property></configuration>";
        assert_eq!(
            capsched_config_from_xml(s(bad), &mut config),
            CAPSCHED_ERR_CONFIG
        );
        assert!(config.is_null(), "no out-parameter on failure");
        assert!(last_error().contains("root"), "{}", last_error());
        assert_eq!(
            capsched_config_from_xml(s(XML), ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(last_error(), "out is NULL");
        let not_utf8 = [0xffu8, 0xfe];
        let raw = capsched_str {
            ptr: not_utf8.as_ptr().cast(),
            len: 2,
        };
        assert_eq!(
            capsched_config_from_xml(raw, &mut config),
            CAPSCHED_ERR_INVALID_UTF8
        );
        let dangling = capsched_str {
            ptr: ptr::null(),
            len: 5,
        };
        assert_eq!(
            capsched_config_from_xml(dangling, &mut config),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            capsched_config_from_file(s("/no/such/file.xml"), &mut config),
            CAPSCHED_ERR_IO
        );
        let keys = [s("yarn.scheduler.capacity.root.queues")];
        assert_eq!(
            capsched_config_from_pairs(keys.as_ptr(), ptr::null(), 1, &mut config),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        capsched_config_free(ptr::null_mut()); // free accepts NULL
        capsched_engine_free(ptr::null_mut());
        capsched_node_response_free(ptr::null_mut());
        capsched_allocate_response_free(ptr::null_mut());
        assert_eq!(
            CStr::from_ptr(capsched_status_name(12345))
                .to_str()
                .unwrap(),
            "CAPSCHED_UNKNOWN_STATUS"
        );
    }
}

#[test]
fn engines_refuse_bad_calls_and_keep_working() {
    unsafe {
        let e = engine();
        let mut node = 0u64;
        let size = capsched_resource {
            memory_mb: 8192,
            vcores: 8,
        };
        // NULL engine, NULL out-parameter, empty host, duplicate host.
        assert_eq!(
            capsched_node_add(ptr::null(), s("h"), s("/r"), size, &mut node),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            capsched_node_add(e, s("h"), s("/r"), size, ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            capsched_node_add(e, s(""), s("/r"), size, &mut node),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            capsched_node_add(e, s("h1"), s("/r"), size, &mut node),
            CAPSCHED_OK
        );
        let mut again = 7u64;
        assert_eq!(
            capsched_node_add(e, s("h1"), s("/r"), size, &mut again),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert_eq!(again, 7, "untouched on failure");

        // Unknown queue: rejected with YARN's reason.
        let mut app = 0u64;
        assert_eq!(
            capsched_app_submit(e, s("nope"), s("u"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_ERR_REJECTED
        );
        assert!(last_error().contains("nope"), "{}", last_error());
        assert_eq!(
            capsched_app_submit(e, s("default"), s("u"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_OK
        );

        // Stale and unknown ids.
        assert_eq!(
            capsched_node_remove(e, node ^ (1 << 40)),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        let mut resp = ptr::null_mut();
        assert_eq!(
            capsched_node_update(e, 999_999, ptr::null(), &mut resp),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        assert!(resp.is_null());

        // A wrong struct_size, an unknown execution type, an oversized ask.
        assert_eq!(
            capsched_attempt_add(
                e,
                app,
                capsched_resource {
                    memory_mb: 1024,
                    vcores: 1
                },
                0,
                0
            ),
            CAPSCHED_OK
        );
        let mut req: capsched_allocate_request = std::mem::zeroed();
        req.struct_size = 4;
        let mut r = ptr::null_mut();
        assert_eq!(
            capsched_allocate(e, app, &req, &mut r),
            CAPSCHED_ERR_STRUCT_SIZE
        );
        assert!(
            last_error().contains("sizeof(capsched_allocate_request)"),
            "{}",
            last_error()
        );
        req.struct_size = std::mem::size_of::<capsched_allocate_request>() as u32;
        let mut ask = capsched_ask {
            priority: 1,
            allocation_request_id: 0,
            resource_name: s("*"),
            capability: capsched_resource {
                memory_mb: 1024,
                vcores: 1,
            },
            num_containers: 1,
            relax_locality: 1,
            execution_type: 7,
        };
        req.asks = &ask;
        req.ask_count = 1;
        assert_eq!(
            capsched_allocate(e, app, &req, &mut r),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        ask.execution_type = CAPSCHED_GUARANTEED;
        ask.capability.memory_mb = 1 << 40;
        req.asks = &ask; // a fresh pointer after each change
        assert_eq!(
            capsched_allocate(e, app, &req, &mut r),
            CAPSCHED_ERR_REFUSED
        );
        assert!(
            last_error().contains("Invalid resource request"),
            "{}",
            last_error()
        );
        assert!(r.is_null());

        // Still working: a valid heartbeat and allocate succeed.
        ask.capability.memory_mb = 1024;
        req.asks = &ask;
        assert_eq!(
            capsched_node_update(e, node, ptr::null(), &mut resp),
            CAPSCHED_OK
        );
        capsched_node_response_free(resp);
        let mut allocated = 0;
        assert_eq!(capsched_engine_step(e, 1, &mut allocated), CAPSCHED_OK);
        assert_eq!(capsched_allocate(e, app, &req, &mut r), CAPSCHED_OK);
        assert_eq!((*r).allocated_count, 1, "the AM container");
        assert_eq!(last_error(), "", "success clears the message");
        capsched_allocate_response_free(r);

        // After stop: refused politely; free is still fine.
        assert_eq!(capsched_engine_stop(e), CAPSCHED_OK);
        assert_eq!(capsched_engine_stop(e), CAPSCHED_OK);
        assert_eq!(
            capsched_app_submit(e, s("default"), s("u"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_ERR_STOPPED
        );
        capsched_engine_free(e);
    }
}

#[test]
fn a_stale_id_from_another_engine_is_unknown_here() {
    unsafe {
        let (a, b) = (engine(), engine());
        let mut n = 0u64;
        let size = capsched_resource {
            memory_mb: 4096,
            vcores: 4,
        };
        assert_eq!(
            capsched_node_add(a, s("h1"), s("/r"), size, &mut n),
            CAPSCHED_OK
        );
        capsched_engine_free(a);
        assert_eq!(capsched_node_remove(b, n), CAPSCHED_ERR_UNKNOWN_ID);
        capsched_engine_free(b);
    }
}

const SIZE: capsched_resource = capsched_resource {
    memory_mb: 8192,
    vcores: 8,
};
const AM: capsched_resource = capsched_resource {
    memory_mb: 1024,
    vcores: 1,
};

/// The bits of an id that hold its engine's tag (docs/C-API.md, "Ids": bits 48–61; the
/// kind is in 62–63).
fn tag(id: u64) -> u64 {
    (id >> 48) & 0x3fff
}

fn request() -> capsched_allocate_request {
    let mut req: capsched_allocate_request = unsafe { std::mem::zeroed() };
    req.struct_size = std::mem::size_of::<capsched_allocate_request>() as u32;
    req
}

fn node_status() -> capsched_node_status {
    let mut st: capsched_node_status = unsafe { std::mem::zeroed() };
    st.struct_size = std::mem::size_of::<capsched_node_status>() as u32;
    st
}

/// A node, an application with its attempt, and the application's AM container (allocated
/// and pulled by the AM).
struct World {
    node: u64,
    app: u64,
    container: u64,
    response_id: i32,
}

unsafe fn populate(e: *mut capsched_engine, host: &str) -> World {
    let mut node = 0;
    assert_eq!(
        capsched_node_add(e, s(host), s("/r"), SIZE, &mut node),
        CAPSCHED_OK
    );
    let mut app = 0;
    assert_eq!(
        capsched_app_submit(e, s("default"), s("u"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
        CAPSCHED_OK
    );
    assert_eq!(capsched_attempt_add(e, app, AM, 0, 0), CAPSCHED_OK);
    let mut nr = ptr::null_mut();
    assert_eq!(
        capsched_node_update(e, node, ptr::null(), &mut nr),
        CAPSCHED_OK
    );
    capsched_node_response_free(nr);
    let mut r = ptr::null_mut();
    assert_eq!(capsched_allocate(e, app, &request(), &mut r), CAPSCHED_OK);
    assert_eq!((*r).allocated_count, 1, "the AM container");
    let c = *(*r).allocated;
    assert_eq!(c.node, node);
    let world = World {
        node,
        app,
        container: c.id,
        response_id: (*r).response_id,
    };
    capsched_allocate_response_free(r);
    world
}

/// Every call that takes an id, each given `bad` in one id position of the kind `kind`
/// ("node", "application", "container"); `w` supplies valid ids for the other positions.
/// Each must fail with CAPSCHED_ERR_UNKNOWN_ID, a message containing `expect(what)`, and no
/// out-parameter written. Returns how many calls were made.
unsafe fn every_call_refuses(
    e: *mut capsched_engine,
    w: &World,
    bad: u64,
    kind: &str,
    expect: impl Fn(&str) -> String,
) -> usize {
    let mut n = 0;
    let mut check = |st: capsched_status, what: &str| {
        n += 1;
        assert_eq!(st, CAPSCHED_ERR_UNKNOWN_ID, "{what}: {}", last_error());
        let want = expect(what);
        assert!(
            last_error().contains(&want),
            "{what}: {:?} lacks {want:?}",
            last_error()
        );
    };
    let (node, app, container) = match kind {
        "node" => (bad, w.app, w.container),
        "application" => (w.node, bad, w.container),
        _ => (w.node, w.app, bad),
    };
    if kind == "node" {
        check(capsched_node_remove(e, node), "node_remove");
        let mut nr = ptr::dangling_mut::<capsched_node_response>();
        check(
            capsched_node_update(e, node, ptr::null(), &mut nr),
            "node_update",
        );
        assert_eq!(nr, ptr::dangling_mut(), "untouched on failure");
        check(
            capsched_node_update_resource(e, node, SIZE, -1),
            "node_update_resource",
        );
        check(capsched_node_decommission(e, node, -1), "node_decommission");
        check(capsched_node_recommission(e, node), "node_recommission");
        let mut label = capsched_owned_str {
            ptr: ptr::null_mut(),
            len: 7,
        };
        check(
            capsched_node_partition(e, node, &mut label),
            "node_partition",
        );
        assert_eq!(label.len, 7, "untouched on failure");
    }
    if kind == "application" {
        let report = capsched_container_report {
            app,
            resource: AM,
            priority: 1,
            allocation_request_id: 0,
            container_id: 99,
            is_am: 0,
        };
        let mut out = 7u64;
        check(
            capsched_node_add_recovered(e, s("recovered"), s("/r"), SIZE, &report, 1, &mut out),
            "reports[0]",
        );
        assert_eq!(out, 7);
        check(capsched_attempt_add(e, app, AM, 0, 0), "attempt_add");
        check(capsched_attempt_remove(e, app, 0), "attempt_remove");
        check(capsched_app_remove(e, app), "app_remove");
        check(capsched_app_move(e, app, s("default")), "app_move");
        let mut effective = 7;
        check(
            capsched_app_set_priority(e, app, 3, &mut effective),
            "app_set_priority",
        );
        assert_eq!(effective, 7);
        let mut r = ptr::dangling_mut::<capsched_allocate_response>();
        check(capsched_allocate(e, app, &request(), &mut r), "allocate");
        assert_eq!(r, ptr::dangling_mut());
        let mut info = capsched_container_info {
            id: 7,
            ..Default::default()
        };
        let mut found = 7;
        check(
            capsched_am_container_take(e, app, &mut info, &mut found),
            "am_container_take",
        );
        assert_eq!((info.id, found), (7, 7), "untouched on failure");
        let mut report = capsched_app_report {
            priority: 7,
            ..Default::default()
        };
        check(
            capsched_app_report_get(e, app, &mut report),
            "app_report_get",
        );
        assert_eq!(report.priority, 7);
    }
    if kind == "container" {
        check(
            capsched_container_expired(e, container),
            "container_expired",
        );
        check(
            capsched_container_kill(e, container, -106, s("")),
            "container_kill",
        );
        let mut info = capsched_container_info {
            id: 7,
            ..Default::default()
        };
        check(
            capsched_container_get(e, container, &mut info),
            "container_get",
        );
        assert_eq!(info.id, 7);
        let ids = [container];
        let mut st = node_status();
        st.launched = ids.as_ptr();
        st.launched_count = 1;
        let mut nr = ptr::dangling_mut::<capsched_node_response>();
        check(capsched_node_update(e, node, &st, &mut nr), "launched[0]");
        let done = [capsched_completed_container {
            container,
            exit_status: 0,
            diagnostics: s(""),
        }];
        let mut st = node_status();
        st.completed = done.as_ptr();
        st.completed_count = 1;
        check(capsched_node_update(e, node, &st, &mut nr), "completed[0]");
        assert_eq!(nr, ptr::dangling_mut());
        let mut req = request();
        req.response_id = w.response_id;
        req.releases = ids.as_ptr();
        req.release_count = 1;
        let mut r = ptr::dangling_mut::<capsched_allocate_response>();
        check(capsched_allocate(e, app, &req, &mut r), "releases[0]");
        let update = [capsched_update_request {
            container,
            version: 0,
            update_type: CAPSCHED_UPDATE_DEMOTE_EXECUTION_TYPE,
            execution_type: CAPSCHED_OPPORTUNISTIC,
            capability: AM,
        }];
        let mut req = request();
        req.response_id = w.response_id;
        req.updates = update.as_ptr();
        req.update_count = 1;
        check(capsched_allocate(e, app, &req, &mut r), "updates[0]");
        assert_eq!(r, ptr::dangling_mut());
    }
    n
}

#[test]
fn ids_of_another_live_engine_are_refused_on_every_call_and_change_nothing() {
    unsafe {
        let (a, b) = (engine(), engine());
        let wa = populate(a, "h1");
        let wb = populate(b, "h1");
        // The same calls in the same order: the same slots and generations, so the ids differ
        // in their engine tags alone.
        for (x, y) in [
            (wa.node, wb.node),
            (wa.app, wb.app),
            (wa.container, wb.container),
        ] {
            assert_ne!(x, y);
            assert_eq!(x & ((1 << 48) - 1), y & ((1 << 48) - 1));
            assert!(tag(x) != 0 && tag(y) != 0 && tag(x) != tag(y));
        }
        let (before_a, before_b) = (engine_state(a), engine_state(b));

        // The reported bug: this removed a's first application.
        assert_eq!(capsched_app_remove(a, wb.app), CAPSCHED_ERR_UNKNOWN_ID);
        assert_eq!(
            last_error(),
            format!(
                "application id {:#x} was not issued by this engine (it carries engine tag {}; this engine's is {})",
                wb.app,
                tag(wb.app),
                tag(wa.app)
            )
        );

        let mut calls = 0;
        for (bad, kind) in [
            (wb.node, "node"),
            (wb.app, "application"),
            (wb.container, "container"),
        ] {
            calls += every_call_refuses(a, &wa, bad, kind, |what| {
                let at = if what.ends_with(']') {
                    format!(" in {what}")
                } else {
                    String::new()
                };
                format!("{kind} id {bad:#x}{at} was not issued by this engine")
            });
            // And the other way round.
            let bad = match kind {
                "node" => wa.node,
                "application" => wa.app,
                _ => wa.container,
            };
            calls += every_call_refuses(b, &wb, bad, kind, |_| format!("{kind} id {bad:#x}"));
        }
        assert_eq!(calls, 2 * 22);
        assert_eq!(engine_state(a), before_a, "engine a unchanged");
        assert_eq!(engine_state(b), before_b, "engine b unchanged");

        // Each engine still takes its own ids.
        for (e, w) in [(a, &wa), (b, &wb)] {
            let mut req = request();
            req.response_id = w.response_id;
            let mut r = ptr::null_mut();
            assert_eq!(capsched_allocate(e, w.app, &req, &mut r), CAPSCHED_OK);
            capsched_allocate_response_free(r);
            assert_eq!(capsched_app_remove(e, w.app), CAPSCHED_OK);
            assert_eq!(capsched_node_remove(e, w.node), CAPSCHED_OK);
        }
        capsched_engine_free(a);
        capsched_engine_free(b);
    }
}

#[test]
fn zero_is_never_an_id() {
    unsafe {
        let e = engine();
        let w = populate(e, "h1");
        let before = engine_state(e);
        let mut calls = 0;
        for kind in ["node", "application", "container"] {
            calls += every_call_refuses(e, &w, 0, kind, |what| {
                let at = if what.ends_with(']') {
                    format!(" in {what}")
                } else {
                    String::new()
                };
                format!(
                    "{kind} id 0x0{at} was not issued by this engine (no id is 0: 0 means none)"
                )
            });
        }
        assert_eq!(calls, 22);
        assert_eq!(engine_state(e), before);
        capsched_engine_free(e);
    }
}

#[test]
fn stale_ids_are_unknown_with_the_hosts_own_value() {
    unsafe {
        let e = engine();
        let w = populate(e, "h1");
        // The container finishes, the application leaves, the node goes.
        let done = [capsched_completed_container {
            container: w.container,
            exit_status: 0,
            diagnostics: s("done"),
        }];
        let mut st = node_status();
        st.completed = done.as_ptr();
        st.completed_count = 1;
        let mut nr = ptr::null_mut();
        assert_eq!(capsched_node_update(e, w.node, &st, &mut nr), CAPSCHED_OK);
        capsched_node_response_free(nr);
        // A finished container is ignored where YARN ignores it: completed again, released.
        assert_eq!(capsched_node_update(e, w.node, &st, &mut nr), CAPSCHED_OK);
        capsched_node_response_free(nr);
        let mut req = request();
        req.response_id = w.response_id;
        let ids = [w.container];
        req.releases = ids.as_ptr();
        req.release_count = 1;
        let mut r = ptr::null_mut();
        assert_eq!(capsched_allocate(e, w.app, &req, &mut r), CAPSCHED_OK);
        capsched_allocate_response_free(r);
        // … and unknown where a call is about it alone.
        assert_eq!(
            capsched_container_expired(e, w.container),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        assert_eq!(
            last_error(),
            format!(
                "unknown container id {:#x}: this engine issued it, but it is gone (or never was)",
                w.container
            )
        );
        assert_eq!(capsched_app_remove(e, w.app), CAPSCHED_OK);
        assert_eq!(capsched_node_remove(e, w.node), CAPSCHED_OK);
        let before = engine_state(e);
        (r, nr) = (ptr::null_mut(), ptr::null_mut());
        for (st, what) in [
            (capsched_app_remove(e, w.app), "app_remove"),
            (capsched_attempt_add(e, w.app, AM, 0, 0), "attempt_add"),
            (capsched_allocate(e, w.app, &request(), &mut r), "allocate"),
            (capsched_app_move(e, w.app, s("default")), "app_move"),
            (capsched_node_remove(e, w.node), "node_remove"),
            (
                capsched_node_update(e, w.node, ptr::null(), &mut nr),
                "node_update",
            ),
        ] {
            assert_eq!(st, CAPSCHED_ERR_UNKNOWN_ID, "{what}");
            assert!(r.is_null() && nr.is_null(), "{what}");
        }
        assert_eq!(
            capsched_app_set_priority(e, w.app, 1, ptr::null_mut()),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        assert_eq!(
            last_error(),
            format!(
                "unknown application id {:#x}: this engine issued it, but it is gone (or never was)",
                w.app
            )
        );
        assert_eq!(capsched_node_remove(e, w.node), CAPSCHED_ERR_UNKNOWN_ID);
        assert_eq!(
            last_error(),
            format!(
                "unknown node id {:#x}: this engine issued it, but it is gone (or never was)",
                w.node
            )
        );
        // The slots come back with new generations: the old ids stay unknown.
        let w2 = populate(e, "h2");
        assert_eq!(w2.app & 0xff_ffff, w.app & 0xff_ffff, "the same slot");
        assert_ne!(w2.app, w.app);
        assert_eq!(capsched_app_remove(e, w.app), CAPSCHED_ERR_UNKNOWN_ID);
        assert_eq!(capsched_node_remove(e, w.node), CAPSCHED_ERR_UNKNOWN_ID);
        assert_eq!(
            capsched_container_expired(e, w.container),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        assert_ne!(engine_state(e), before);
        capsched_engine_free(e);
    }
}

#[test]
fn events_and_responses_carry_tagged_ids_and_zero_means_none() {
    unsafe {
        let e = engine();
        let w = populate(e, "h1");
        let t = tag(w.node);
        assert!(t != 0);
        assert_eq!((tag(w.app), tag(w.container)), (t, t));
        let mut app = 0;
        assert_eq!(
            capsched_app_submit(e, s("nope"), s("u"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_ERR_REJECTED
        );
        assert_eq!(capsched_node_remove(e, w.node), CAPSCHED_OK);
        let mut buf = [capsched_event::default(); 16];
        let mut n = 0;
        assert_eq!(
            capsched_poll_events(e, buf.as_mut_ptr(), buf.len(), &mut n, ptr::null_mut()),
            CAPSCHED_OK
        );
        let kinds: Vec<i32> = buf[..n].iter().map(|ev| ev.kind).collect();
        assert_eq!(
            kinds,
            [
                CAPSCHED_EVENT_ACCEPTED,
                CAPSCHED_EVENT_APP_ACTIVATED,
                CAPSCHED_EVENT_AM_CONTAINER_ALLOCATED,
                CAPSCHED_EVENT_ALLOCATED,
                CAPSCHED_EVENT_REJECTED,
                CAPSCHED_EVENT_NODE_LOST,
                CAPSCHED_EVENT_CONTAINER_COMPLETED
            ]
        );
        let ids: Vec<(u64, u64, u64)> = buf[..n]
            .iter()
            .map(|ev| (ev.app, ev.container, ev.node))
            .collect();
        assert_eq!(
            ids,
            [
                (w.app, 0, 0),
                (w.app, 0, 0),
                (w.app, w.container, w.node),
                (w.app, w.container, w.node),
                (0, 0, 0),
                (0, 0, w.node),
                (w.app, w.container, 0)
            ]
        );
        // The YARN ids: the application, its first attempt, then its first container.
        let y: Vec<(i32, i32, i64)> = buf[..n]
            .iter()
            .map(|ev| {
                (
                    ev.yarn_id.application,
                    ev.yarn_id.attempt,
                    ev.yarn_id.container_id,
                )
            })
            .collect();
        assert_eq!(
            y,
            [
                (1, 0, 0),
                (1, 1, 0),
                (1, 1, 1),
                (1, 1, 1),
                (0, 0, 0),
                (0, 0, 0),
                (1, 1, 1)
            ]
        );
        // Lost with its node: YARN's ABORTED.
        assert_eq!(buf[n - 1].code, -100);
        for ev in &buf[..n] {
            for id in [ev.app, ev.container, ev.node] {
                assert!(id == 0 || tag(id) == t, "{ev:?}");
            }
        }
        capsched_engine_free(e);
    }
}

#[test]
fn an_empty_user_is_rejected_with_yarns_message() {
    unsafe {
        let e = engine();
        let mut app = 7u64;
        for user in [
            s(""),
            capsched_str {
                ptr: ptr::null(),
                len: 0,
            },
        ] {
            assert_eq!(
                capsched_app_submit(e, s("default"), user, CAPSCHED_DEFAULT_PRIORITY, &mut app),
                CAPSCHED_ERR_REJECTED
            );
            assert_eq!(last_error(), "Null user");
            assert_eq!(app, 7, "untouched on failure");
        }
        let mut buf = [capsched_event::default(); 4];
        let mut n = 0;
        assert_eq!(
            capsched_poll_events(e, buf.as_mut_ptr(), buf.len(), &mut n, ptr::null_mut()),
            CAPSCHED_OK
        );
        assert_eq!(n, 2);
        assert!(buf[..n]
            .iter()
            .all(|ev| ev.kind == CAPSCHED_EVENT_REJECTED && ev.app == 0));
        let mut info = std::mem::zeroed::<capsched_cluster_info>();
        assert_eq!(capsched_engine_cluster_info(e, &mut info), CAPSCHED_OK);
        assert_eq!(info.num_applications, 0);
        assert_eq!(
            capsched_app_submit(e, s("default"), s("u"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_OK
        );
        capsched_engine_free(e);
    }
}

#[test]
fn engines_alive_together_never_share_a_tag() {
    unsafe {
        let engines: Vec<_> = (0..8).map(|_| engine()).collect();
        let mut tags = Vec::new();
        for &e in &engines {
            let mut node = 0;
            assert_eq!(
                capsched_node_add(e, s("h"), s("/r"), SIZE, &mut node),
                CAPSCHED_OK
            );
            assert_eq!(
                node & ((1 << 48) - 1),
                0,
                "the first slot, first generation"
            );
            tags.push(tag(node));
        }
        let mut distinct = tags.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), tags.len(), "{tags:?}");
        assert!(!tags.contains(&0));
        for e in engines {
            capsched_engine_free(e);
        }
    }
}

#[test]
fn yarn_id_calls_check_their_arguments() {
    unsafe {
        let e = engine();
        let w = populate(e, "h1:8041");
        let mut out = capsched_owned_str::default();
        // NULL pointers.
        assert_eq!(
            capsched_yarn_id_format(ptr::null(), &mut out),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        let id = capsched_yarn_id {
            cluster_timestamp: 5,
            application: 1,
            attempt: 0,
            container_id: 0,
        };
        assert_eq!(
            capsched_yarn_id_format(&id, ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        let mut parsed = capsched_yarn_id::default();
        assert_eq!(
            capsched_yarn_id_parse(s("container_1_0001_01_000001"), ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        let mut app = 7;
        assert_eq!(
            capsched_app_find(e, ptr::null(), &mut app),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            capsched_app_find(ptr::null(), &id, &mut app),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        let mut found = 7;
        assert_eq!(
            capsched_am_container_take(e, w.app, ptr::null_mut(), &mut found),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(found, 7);
        // Ids that are not ids.
        for bad in [
            "",
            "application_",
            "application_1_x",
            "container_1_0001_01",
            "appattempt_1_0001_-1",
            "job_1_0001",
        ] {
            assert_eq!(
                capsched_yarn_id_parse(s(bad), &mut parsed),
                CAPSCHED_ERR_INVALID_ARGUMENT,
                "{bad:?}"
            );
            assert!(last_error().contains("is not a YARN"), "{}", last_error());
        }
        for bad in [
            capsched_yarn_id {
                application: 0,
                ..id
            },
            capsched_yarn_id {
                container_id: 3,
                ..id
            },
            capsched_yarn_id { attempt: -1, ..id },
        ] {
            assert_eq!(
                capsched_yarn_id_format(&bad, &mut out),
                CAPSCHED_ERR_INVALID_ARGUMENT,
                "{bad:?}"
            );
        }
        // A container id needs the attempt and the number.
        let mut c = 7;
        assert_eq!(
            capsched_container_find(e, &id, &mut c),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert_eq!(c, 7);
        // Well-formed but unknown: UNKNOWN_ID, naming it as YARN does.
        let unknown = capsched_yarn_id {
            application: 9,
            ..id
        };
        assert_eq!(
            capsched_app_find(e, &unknown, &mut app),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        assert_eq!(
            last_error(),
            "no application application_5_0009 in this engine"
        );
        assert_eq!(app, 7);
        // The node by its NodeId and by its host; not by another port.
        let mut node = 0;
        assert_eq!(capsched_node_find(e, s("h1:8041"), &mut node), CAPSCHED_OK);
        assert_eq!(node, w.node);
        assert_eq!(capsched_node_find(e, s("h1"), &mut node), CAPSCHED_OK);
        assert_eq!(
            capsched_node_find(e, s("h1:8042"), &mut node),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        // Submission with a malformed RM id, and engine options out of range.
        let sub = submission(
            std::mem::size_of::<capsched_submission>(),
            capsched_yarn_id {
                application: -3,
                ..id
            },
        );
        assert_eq!(
            capsched_app_submit_as(e, &sub, &mut app),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        let mut o = std::mem::zeroed::<capsched_engine_options>();
        assert_eq!(capsched_engine_options_default(&mut o), CAPSCHED_OK);
        assert_eq!(
            o.struct_size as usize,
            std::mem::size_of::<capsched_engine_options>()
        );
        o.rm_epoch = 1 << 23;
        let config = default_config();
        let mut e2 = ptr::dangling_mut::<capsched_engine>();
        assert_eq!(
            capsched_engine_new(config, &o, &mut e2),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert!(last_error().contains("rm_epoch"), "{}", last_error());
        assert_eq!(e2, ptr::dangling_mut());
        capsched_config_free(config);
        capsched_engine_free(e);
    }
}

#[test]
fn a_host_built_against_abi_2_structs_gets_the_new_fields_defaults() {
    unsafe {
        // ABI 2's options and submission ended before `cluster_timestamp` / `application_id`:
        // a host that sizes them so is read up to there, the rest defaulted.
        let mut o = std::mem::zeroed::<capsched_engine_options>();
        assert_eq!(capsched_engine_options_default(&mut o), CAPSCHED_OK);
        o.mode = CAPSCHED_MODE_MANUAL;
        o.struct_size = std::mem::offset_of!(capsched_engine_options, cluster_timestamp) as u32;
        o.rm_epoch = -5; // beyond the old struct: never read
        let config = default_config();
        let mut e = ptr::null_mut();
        assert_eq!(capsched_engine_new(config, &o, &mut e), CAPSCHED_OK);
        // beyond the old struct, never read: an invalid id
        let mut sub = submission(
            std::mem::offset_of!(capsched_submission, application_id),
            capsched_yarn_id {
                application: -3,
                ..Default::default()
            },
        );
        let mut app = 0;
        assert_eq!(capsched_app_submit_as(e, &sub, &mut app), CAPSCHED_OK);
        // One byte short of ABI 2's struct is refused.
        sub.struct_size -= 1;
        assert_eq!(
            capsched_app_submit_as(e, &sub, &mut app),
            CAPSCHED_ERR_STRUCT_SIZE
        );
        capsched_engine_free(e);
        capsched_config_free(config);
    }
}

/// Issue 36.17: a 4 MiB queue name, id text or node address gave a 4 MiB message; every value
/// a message repeats is cut to 64 characters, as configuration errors are.
#[test]
fn messages_echo_at_most_a_bounded_prefix_of_an_input() {
    let huge = "q".repeat(4 << 20);
    unsafe {
        let e = engine();
        let mut app = 0u64;
        assert_eq!(
            capsched_app_submit(e, s(&huge), s(&huge), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_ERR_REJECTED
        );
        let m = last_error();
        assert!(
            m.len() < 1024 && m.contains("(4194304 bytes)"),
            "{} bytes",
            m.len()
        );
        let mut id = std::mem::zeroed();
        assert_eq!(
            capsched_yarn_id_parse(s(&huge), &mut id),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert!(last_error().len() < 1024, "{} bytes", last_error().len());
        let mut node = 0u64;
        assert_eq!(
            capsched_node_find(e, s(&huge), &mut node),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        assert!(last_error().len() < 1024, "{} bytes", last_error().len());
        capsched_engine_free(e);
    }
}

/// Issue 36.18: a count whose byte size passes isize::MAX segfaulted (or panicked sizing a
/// vector) before it was checked; it is refused before any slice is formed.
#[test]
fn counts_past_what_memory_can_hold_are_refused() {
    unsafe {
        let dangling = ptr::NonNull::<capsched_str>::dangling().as_ptr();
        let mut config = ptr::null_mut();
        assert_eq!(
            capsched_config_from_pairs(dangling, dangling, usize::MAX, &mut config),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert!(config.is_null());
        assert!(
            last_error().contains("more elements than any array"),
            "{}",
            last_error()
        );
        let e = engine();
        let before = engine_state(e);
        let mut sub = submission(
            std::mem::size_of::<capsched_submission>(),
            std::mem::zeroed(),
        );
        sub.groups = dangling;
        sub.group_count = usize::MAX;
        let mut app = 0u64;
        assert_eq!(
            capsched_app_submit_as(e, &sub, &mut app),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        let labels = ptr::NonNull::<capsched_node_label>::dangling().as_ptr();
        assert_eq!(
            capsched_node_labels_add(e, labels, usize::MAX),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        let long = capsched_str {
            ptr: "x".as_ptr().cast(),
            len: usize::MAX,
        };
        let mut node = 0u64;
        assert_eq!(
            capsched_node_find(e, long, &mut node),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        // An application to allocate for, then SIZE_MAX asks.
        assert_eq!(
            capsched_app_submit(e, s("default"), s("u"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_OK
        );
        assert_eq!(
            capsched_attempt_add(
                e,
                app,
                capsched_resource {
                    memory_mb: 1024,
                    vcores: 1
                },
                0,
                0
            ),
            CAPSCHED_OK
        );
        let state = engine_state(e);
        let mut req: capsched_allocate_request = std::mem::zeroed();
        req.struct_size = std::mem::size_of::<capsched_allocate_request>() as u32;
        req.asks = ptr::NonNull::<capsched_ask>::dangling().as_ptr();
        req.ask_count = usize::MAX;
        let mut resp = ptr::null_mut();
        assert_eq!(
            capsched_allocate(e, app, &req, &mut resp),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert!(resp.is_null());
        assert_eq!(engine_state(e), state, "nothing applied");
        assert_ne!(before, state);
        capsched_engine_free(e);
    }
}

/// Issue 36.19: a directory or a device is "not a regular file" (docs/CONFIGURATION.md), only
/// a missing path "no such file".
#[test]
fn a_configuration_path_that_is_no_regular_file_says_so() {
    unsafe {
        let mut config = ptr::null_mut();
        for path in ["/", "/dev/zero"] {
            assert_eq!(
                capsched_config_from_file(s(path), &mut config),
                CAPSCHED_ERR_IO
            );
            assert!(
                last_error().contains("not a regular file"),
                "{path}: {}",
                last_error()
            );
        }
        assert_eq!(
            capsched_config_from_file(s("/nonexistent/capacity-scheduler.xml"), &mut config),
            CAPSCHED_ERR_IO
        );
        assert!(last_error().contains("no such file"), "{}", last_error());
        assert!(config.is_null());
    }
}

/// Issue 36.6 through the exports: NodeManagers and recovered reports that would wrap a total
/// are refused with a message; the engine's invariants hold after each refusal.
#[test]
fn resources_that_would_wrap_are_refused_at_the_c_abi() {
    unsafe {
        let e = engine();
        let mut node = 0u64;
        let huge = capsched_resource {
            memory_mb: i64::MAX,
            vcores: 8,
        };
        assert_eq!(
            capsched_node_add(e, s("h0"), s("/r"), huge, &mut node),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert!(
            last_error().contains("capsched's limit"),
            "{}",
            last_error()
        );
        let half = capsched_resource {
            memory_mb: 1 << 61,
            vcores: 8,
        };
        assert_eq!(
            capsched_node_add(e, s("h0"), s("/r"), half, &mut node),
            CAPSCHED_OK
        );
        assert_eq!(
            capsched_node_add(e, s("h1"), s("/r"), half, &mut node),
            CAPSCHED_OK
        );
        assert_eq!(
            capsched_node_add(e, s("h2"), s("/r"), half, &mut node),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        engine_state(e);
        capsched_engine_free(e);
        let e = engine();
        let mut app = 0u64;
        assert_eq!(
            capsched_app_submit(e, s("default"), s("u"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_OK
        );
        assert_eq!(
            capsched_attempt_add(
                e,
                app,
                capsched_resource {
                    memory_mb: 1024,
                    vcores: 1
                },
                0,
                0
            ),
            CAPSCHED_OK
        );
        let report = |mb: i64, id: i64| capsched_container_report {
            app,
            resource: capsched_resource {
                memory_mb: mb,
                vcores: 1,
            },
            priority: 1,
            allocation_request_id: 0,
            container_id: id,
            is_am: 0,
        };
        let small = capsched_resource {
            memory_mb: 8192,
            vcores: 8,
        };
        for reports in [
            vec![report(-1, 5)],
            vec![report(16384, 5)],
            vec![report(i64::MAX, 5), report(i64::MAX, 6)],
        ] {
            assert_eq!(
                capsched_node_add_recovered(
                    e,
                    s("r0"),
                    s("/r"),
                    small,
                    reports.as_ptr(),
                    reports.len(),
                    &mut node
                ),
                CAPSCHED_ERR_INVALID_ARGUMENT
            );
            assert!(
                last_error().contains("recovered container"),
                "{}",
                last_error()
            );
            engine_state(e);
        }
        capsched_engine_free(e);
    }
}

/// Issue 36.9: `capsched_engine_step(UINT32_MAX)` held the engine for hours; a call runs at
/// most CAPSCHED_ENGINE_STEP_MAX passes, and a larger count is refused with nothing run.
#[test]
fn engine_step_is_bounded() {
    unsafe {
        let e = engine();
        let mut allocated = 7u32;
        assert_eq!(
            capsched_engine_step(e, u32::MAX, &mut allocated),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert_eq!(allocated, 7, "no out-parameter on failure");
        assert!(
            last_error().contains("CAPSCHED_ENGINE_STEP_MAX"),
            "{}",
            last_error()
        );
        assert_eq!(
            capsched_engine_step(e, CAPSCHED_ENGINE_STEP_MAX, &mut allocated),
            CAPSCHED_OK
        );
        assert_eq!(allocated, 0);
        capsched_engine_free(e);
    }
}

/// Issue 36.20: ids carried no kind, so a node id given to `capsched_container_get` returned
/// a live container's data (the same slot and generation), and to `capsched_app_report_get`
/// an application's. Ids carry their kind in bits 62–63 now; a call refuses another kind's.
#[test]
fn ids_of_one_kind_are_refused_by_calls_of_another() {
    unsafe {
        let e = engine();
        let w = populate(e, "h1");
        assert_eq!(
            w.node & ((1 << 48) - 1),
            w.app & ((1 << 48) - 1),
            "same slot and generation"
        );
        assert_eq!(w.node & ((1 << 48) - 1), w.container & ((1 << 48) - 1));
        let (node_kind, app_kind, container_kind) = (w.node >> 62, w.app >> 62, w.container >> 62);
        assert_eq!((node_kind, app_kind, container_kind), (1, 2, 3));
        let before = engine_state(e);
        let mut info = std::mem::zeroed::<capsched_container_info>();
        assert_eq!(
            capsched_container_get(e, w.node, &mut info),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        assert_eq!(
            last_error(),
            format!(
                "container id {:#x} is a node id, not a container id",
                w.node
            )
        );
        let mut report = std::mem::zeroed::<capsched_app_report>();
        assert_eq!(
            capsched_app_report_get(e, w.node, &mut report),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        assert!(
            last_error().contains("is a node id, not an application id"),
            "{}",
            last_error()
        );
        assert_eq!(capsched_app_remove(e, w.container), CAPSCHED_ERR_UNKNOWN_ID);
        assert!(
            last_error().contains("is a container id, not an application id"),
            "{}",
            last_error()
        );
        assert_eq!(capsched_node_remove(e, w.app), CAPSCHED_ERR_UNKNOWN_ID);
        assert_eq!(engine_state(e), before, "nothing applied");
        // The right kinds still work.
        assert_eq!(
            capsched_container_get(e, w.container, &mut info),
            CAPSCHED_OK
        );
        capsched_engine_free(e);
    }
}
