//! Each queue's figures through the C ABI (`capsched_engine_queue_statuses`), as an RM host
//! publishes them in YARN's `QueueInfo` and `QueueMetrics`: the hierarchy, states, capacities,
//! guarantees, usage with reservations and their count, AM figures, limits, the maximum
//! allocation and preemption settings; and the figures version, which moves with every change
//! and stays when nothing changed.

mod common;

use std::ptr;

use capsched::ffi::capsched_status::*;
use capsched::ffi::*;
use common::ffi::{heartbeat, last_error, manual_engine, s, scheduler_json, Am};
use common::xml;

const GB: i64 = 1024;

/// root → p (60 %: leaves a 50 %, c 50 % STOPPED), b 40 % with a 2 GB maximum allocation.
fn tree(extra: &[(&str, &str)]) -> String {
    let mut props = vec![
        ("yarn.scheduler.capacity.root.queues", "p,b"),
        ("yarn.scheduler.capacity.root.p.capacity", "60"),
        ("yarn.scheduler.capacity.root.p.queues", "a,c"),
        ("yarn.scheduler.capacity.root.p.a.capacity", "50"),
        ("yarn.scheduler.capacity.root.p.a.user-limit-factor", "2"),
        ("yarn.scheduler.capacity.root.p.c.capacity", "50"),
        ("yarn.scheduler.capacity.root.p.c.state", "STOPPED"),
        ("yarn.scheduler.capacity.root.b.capacity", "40"),
        ("yarn.scheduler.capacity.root.b.maximum-capacity", "50"),
        (
            "yarn.scheduler.capacity.root.b.maximum-allocation-mb",
            "2048",
        ),
        (
            "yarn.scheduler.capacity.root.b.minimum-user-limit-percent",
            "25",
        ),
        ("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5"),
    ];
    props.extend_from_slice(extra);
    xml(&props)
}

#[derive(Debug, Clone)]
struct Status {
    path: String,
    parent: i32,
    leaf: bool,
    state: i32,
    q: capsched_queue_status,
}

/// A manual engine whose preemption monitor is as the configuration says (off here).
unsafe fn engine_as_configured(xml: &str) -> *mut capsched_engine {
    let mut cfg = ptr::null_mut();
    assert_eq!(capsched_config_from_xml(s(xml), &mut cfg), CAPSCHED_OK);
    let mut opts = std::mem::zeroed();
    assert_eq!(capsched_engine_options_default(&mut opts), CAPSCHED_OK);
    opts.mode = CAPSCHED_MODE_MANUAL;
    let mut e = ptr::null_mut();
    assert_eq!(capsched_engine_new(cfg, &opts, &mut e), CAPSCHED_OK);
    capsched_config_free(cfg);
    e
}

unsafe fn statuses(e: *mut capsched_engine) -> (u64, Vec<Status>) {
    let mut list = ptr::null_mut();
    assert_eq!(
        capsched_engine_queue_statuses(e, &mut list),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    let out = (0..(*list).count)
        .map(|i| {
            let q = *(*list).queues.add(i);
            let path = std::slice::from_raw_parts(q.path.ptr.cast::<u8>(), q.path.len);
            Status {
                path: String::from_utf8_lossy(path).into_owned(),
                parent: q.parent,
                leaf: q.is_leaf != 0,
                state: q.state,
                q,
            }
        })
        .collect();
    let version = (*list).figures_version;
    capsched_queue_status_list_free(list);
    (version, out)
}

unsafe fn version(e: *mut capsched_engine) -> u64 {
    let mut v = 0;
    assert_eq!(capsched_engine_figures_version(e, &mut v), CAPSCHED_OK);
    v
}

fn by_path<'a>(all: &'a [Status], path: &str) -> &'a capsched_queue_status {
    &all.iter().find(|s| s.path == path).expect(path).q
}

fn mb(r: capsched_resource) -> i64 {
    r.memory_mb
}

unsafe fn add_node(e: *mut capsched_engine, host: &str, gb: i64) -> u64 {
    let mut node = 0;
    let size = capsched_resource {
        memory_mb: gb * GB,
        vcores: 16,
    };
    assert_eq!(
        capsched_node_add(e, s(host), s("/r"), size, &mut node),
        CAPSCHED_OK
    );
    node
}

#[test]
fn the_hierarchy_states_capacities_and_limits_are_the_configurations() {
    unsafe {
        let e = engine_as_configured(&tree(&[]));
        add_node(e, "h1", 10);
        let (_, all) = statuses(e);
        let shape: Vec<(&str, i32, bool, i32)> = all
            .iter()
            .map(|s| (s.path.as_str(), s.parent, s.leaf, s.state))
            .collect();
        assert_eq!(
            shape,
            [
                ("root", -1, false, CAPSCHED_QUEUE_RUNNING),
                ("root.p", 0, false, CAPSCHED_QUEUE_RUNNING),
                ("root.p.a", 1, true, CAPSCHED_QUEUE_RUNNING),
                ("root.p.c", 1, true, CAPSCHED_QUEUE_STOPPED),
                ("root.b", 0, true, CAPSCHED_QUEUE_RUNNING),
            ]
        );
        let a = by_path(&all, "root.p.a");
        assert_eq!((a.capacity, a.absolute_capacity), (0.5, 0.3));
        assert_eq!(
            (a.maximum_capacity, a.absolute_maximum_capacity),
            (1.0, 1.0)
        );
        assert_eq!(a.user_limit_factor, 2.0);
        // 30 % of 10 GB, and the cluster as its maximum.
        assert_eq!((mb(a.guaranteed), mb(a.maximum)), (3072, 10240));
        // (int)(10000 × 0.3), and at most that per user.
        assert_eq!(
            (a.max_applications, a.max_applications_per_user),
            (3000, 3000)
        );
        let b = by_path(&all, "root.b");
        assert_eq!(mb(b.maximum_allocation), 2048);
        assert_eq!(b.user_limit_percent, 25.0);
        assert_eq!((mb(b.guaranteed), mb(b.maximum)), (4096, 5120));
        // Without a per-queue key, the scheduler's maximum allocation.
        assert_eq!(mb(a.maximum_allocation), 8192);
        // The monitor is off: preemption is disabled everywhere, as YARN reports it.
        assert!(all
            .iter()
            .all(|s| s.q.preemption_disabled != 0 && s.q.intra_queue_preemption_disabled != 0));
        capsched_engine_free(e);
    }
}

#[test]
fn preemption_settings_follow_the_monitor_and_each_queues_inherited_keys() {
    unsafe {
        let e = manual_engine(&tree(&[
            ("yarn.resourcemanager.scheduler.monitor.enable", "true"),
            ("yarn.scheduler.capacity.root.p.disable_preemption", "true"),
            (
                "yarn.scheduler.capacity.root.p.c.disable_preemption",
                "false",
            ),
        ]));
        let (_, all) = statuses(e);
        let flags: Vec<(&str, bool, bool)> = all
            .iter()
            .map(|s| {
                (
                    s.path.as_str(),
                    s.q.preemption_disabled != 0,
                    s.q.intra_queue_preemption_disabled != 0,
                )
            })
            .collect();
        // Intra-queue preemption is off by default; a queue's own key beats its parent's.
        assert_eq!(
            flags,
            [
                ("root", false, true),
                ("root.p", true, true),
                ("root.p.a", true, true),
                ("root.p.c", false, true),
                ("root.b", false, true),
            ]
        );
        capsched_engine_free(e);
    }
}

#[test]
fn usage_reservations_and_am_figures_follow_the_scheduler_and_the_version_moves_with_them() {
    unsafe {
        let e = manual_engine(&tree(&[(
            "yarn.scheduler.capacity.root.p.a.user-limit-factor",
            "100",
        )]));
        let v0 = version(e);
        let h1 = add_node(e, "h1", 4);
        add_node(e, "h2", 4);
        let v1 = version(e);
        assert_ne!(v0, v1, "a node changes the guarantees");
        // An empty heartbeat changes nothing.
        heartbeat(e, h1, &[], &[]);
        assert_eq!(version(e), v1);
        let (listed, _) = statuses(e);
        assert_eq!(listed, v1, "the list says which version it is");

        let mut am = Am::submit(e, "a", "alice");
        am.allocate(e, 1, 3 * GB);
        heartbeat(e, h1, &[], &[]);
        assert_ne!(version(e), v1);
        let (_, all) = statuses(e);
        let a = by_path(&all, "root.p.a");
        assert_eq!((a.num_applications, a.num_active_applications), (1, 1));
        assert_eq!(mb(a.used), 3 * GB);
        // The 1 GB left is too small: the next ask reserves the node.
        am.allocate(e, 1, 2 * GB);
        heartbeat(e, h1, &[], &[]);
        let (_, all) = statuses(e);
        for path in ["root", "root.p", "root.p.a"] {
            let q = by_path(&all, path);
            assert_eq!(
                (mb(q.used), mb(q.reserved), q.reserved_containers),
                (5 * GB, 2 * GB, 1),
                "{path}"
            );
        }
        assert_eq!(by_path(&all, "root.b").reserved_containers, 0);
        // a's used capacity: 5 GB over its guarantee (30 % of 8 GB).
        let a = by_path(&all, "root.p.a");
        assert_eq!(a.used_capacity, 5120.0 / mb(a.guaranteed) as f32);
        assert_eq!(a.absolute_used_capacity, 5120.0 / 8192.0);
        let v = version(e);
        heartbeat(e, h1, &[], &[]);
        assert_eq!(
            version(e),
            v,
            "a heartbeat that keeps the reservation changes nothing"
        );
        capsched_engine_free(e);
    }
}

#[test]
fn an_am_counts_in_its_queues_am_figures_once_the_attempt_is_active() {
    unsafe {
        let e = manual_engine(&tree(&[]));
        let h1 = add_node(e, "h1", 10);
        let mut app = 0;
        assert_eq!(
            capsched_app_submit(e, s("b"), s("bob"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_OK
        );
        let am = capsched_resource {
            memory_mb: 2048,
            vcores: 1,
        };
        assert_eq!(capsched_attempt_add(e, app, am, 0, 0), CAPSCHED_OK);
        heartbeat(e, h1, &[], &[]);
        let (_, all) = statuses(e);
        let b = by_path(&all, "root.b");
        assert_eq!((mb(b.am_used), mb(b.used)), (2048, 2048));
        assert_eq!(
            (b.num_active_applications, b.num_pending_applications),
            (1, 0)
        );
        // The AM limit the REST document states.
        let doc = scheduler_json(e);
        assert!(
            doc.contains(&format!(
                "\"AMResourceLimit\":{{\"memory\":{}",
                mb(b.am_limit)
            )),
            "{} in {doc}",
            mb(b.am_limit)
        );
        // A second application beyond the AM limit waits.
        let mut second = 0;
        assert_eq!(
            capsched_app_submit(e, s("b"), s("bob"), CAPSCHED_DEFAULT_PRIORITY, &mut second),
            CAPSCHED_OK
        );
        assert!(mb(b.am_limit) < 4096, "{}", mb(b.am_limit));
        assert_eq!(capsched_attempt_add(e, second, am, 0, 0), CAPSCHED_OK);
        let (_, all) = statuses(e);
        let b = by_path(&all, "root.b");
        assert_eq!(
            (b.num_active_applications, b.num_pending_applications),
            (1, 1)
        );
        assert_eq!(
            (b.num_applications, by_path(&all, "root").num_applications),
            (2, 2)
        );
        capsched_engine_free(e);
    }
}

#[test]
fn a_leafs_users_have_their_use_limits_and_headroom() {
    unsafe {
        let e = engine_as_configured(&tree(&[]));
        let h1 = add_node(e, "h1", 10);
        let mut alice = Am::submit(e, "b", "alice");
        alice.allocate(e, 2, GB);
        heartbeat(e, h1, &[], &[]);
        heartbeat(e, h1, &[], &[]);
        Am::submit(e, "b", "bob");
        let mut list = ptr::null_mut();
        assert_eq!(
            capsched_engine_queue_users(e, s("root.b"), &mut list),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        let users: Vec<(String, i64, i64, i64, u32)> = (0..(*list).count)
            .map(|i| {
                let u = *(*list).users.add(i);
                let name = std::slice::from_raw_parts(u.name.ptr.cast::<u8>(), u.name.len);
                (
                    String::from_utf8_lossy(name).into_owned(),
                    mb(u.used),
                    mb(u.user_limit),
                    mb(u.headroom),
                    u.active_applications,
                )
            })
            .collect();
        capsched_user_status_list_free(list);
        // alice uses her 2 GB; neither asks for more now. Each one's headroom is at most
        // what its limit leaves it (the queue's room may leave less).
        assert_eq!(users.len(), 2, "{users:?}");
        let alice = users.iter().find(|u| u.0 == "alice").unwrap();
        assert_eq!((alice.1, alice.4), (2 * GB, 1));
        let bob = users.iter().find(|u| u.0 == "bob").unwrap();
        assert_eq!((bob.1, bob.4), (0, 1));
        for u in &users {
            assert!(u.2 > 0, "{users:?}");
            assert!(u.3 <= (u.2 - u.1).max(0), "{users:?}");
        }
        assert_eq!(bob.3, bob.2, "nothing used: the whole limit is room");
        let mut none = ptr::null_mut();
        assert_eq!(
            capsched_engine_queue_users(e, s("root.p"), &mut none),
            CAPSCHED_ERR_INVALID_ARGUMENT,
            "a parent has no users"
        );
        assert_eq!(
            capsched_engine_queue_users(e, s("nope"), &mut none),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert!(none.is_null(), "nothing written on failure");
        capsched_engine_free(e);
    }
}

#[test]
fn bad_arguments_are_refused_with_a_status() {
    unsafe {
        assert_eq!(
            capsched_engine_queue_statuses(ptr::null(), &mut ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        let e = manual_engine(&tree(&[]));
        assert_eq!(
            capsched_engine_queue_statuses(e, ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            capsched_engine_figures_version(e, ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        capsched_queue_status_list_free(ptr::null_mut());
        capsched_engine_free(e);
    }
}
