//! The ResourceManager's own calls through the C ABI, as an RM makes them: a node resized
//! below what it runs (each overcommit timeout), graceful decommissioning (the node drains,
//! then leaves; or its timeout passes) and recommissioning, the RM killing a container with
//! its own status, and queue ACLs (`checkAccess` and submission).

mod common;

use std::ptr;

use capsched::ffi::capsched_status::*;
use capsched::ffi::*;
use common::ffi::{cluster_resource, drain_events, heartbeat, last_error, s, scheduler_json, Am};

const GB: i64 = 1024;

fn xml(extra: &[(&str, &str)]) -> String {
    let mut props = vec![
        ("yarn.scheduler.capacity.root.queues", "default"),
        ("yarn.scheduler.capacity.root.default.capacity", "100"),
        (
            "yarn.scheduler.capacity.root.default.user-limit-factor",
            "1",
        ),
        ("yarn.scheduler.capacity.maximum-am-resource-percent", "1"),
    ];
    props.extend_from_slice(extra);
    let body: String = props
        .iter()
        .map(|(k, v)| format!("<property><name>{k}</name><value>{v}</value></property>"))
        .collect();
    format!("<configuration>{body}</configuration>")
}

/// A manual engine (manual clock at 0, preemption off: only the RM's calls kill here).
unsafe fn engine(xml: &str) -> *mut capsched_engine {
    let mut cfg = ptr::null_mut();
    assert_eq!(
        capsched_config_from_xml(s(xml), &mut cfg),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    let mut opts = std::mem::zeroed();
    assert_eq!(capsched_engine_options_default(&mut opts), CAPSCHED_OK);
    opts.mode = CAPSCHED_MODE_MANUAL;
    opts.preemption = 0;
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

/// A submission of `user` to `queue` with `groups` and every other field at its default; a
/// caller overrides what it tests with `..submission(…)`.
fn submission(queue: &str, user: &str, groups: &[capsched_str]) -> capsched_submission {
    capsched_submission {
        struct_size: std::mem::size_of::<capsched_submission>() as u32,
        queue: s(queue),
        user: s(user),
        groups: if groups.is_empty() {
            ptr::null()
        } else {
            groups.as_ptr()
        },
        group_count: groups.len(),
        priority: CAPSCHED_DEFAULT_PRIORITY,
        application_id: capsched_yarn_id::default(),
        recovering: 0,
        app_name: s(""),
        lifetime_s: 0,
        node_label_expression: capsched_str::EMPTY,
        am_node_label_expression: capsched_str::EMPTY,
    }
}

unsafe fn add_node(e: *mut capsched_engine, host: &str, gb: i64) -> u64 {
    let mut node = 0;
    let size = capsched_resource {
        memory_mb: gb * GB,
        vcores: 8,
    };
    assert_eq!(
        capsched_node_add(e, s(host), s("/r"), size, &mut node),
        CAPSCHED_OK
    );
    node
}

/// `am` gets `n` 1 GB containers on `node` (one heartbeat each), launched there; returns them
/// oldest first.
unsafe fn fill(e: *mut capsched_engine, am: &mut Am, node: u64, n: i32) -> Vec<u64> {
    am.allocate(e, n, GB);
    for _ in 0..n {
        heartbeat(e, node, &[], &[]);
    }
    let got: Vec<u64> = am.allocate(e, 0, 0).allocated.iter().map(|c| c.0).collect();
    assert_eq!(got.len(), n as usize);
    heartbeat(e, node, &got, &[]);
    got
}

fn kinds(events: &[capsched_event], kind: i32) -> Vec<u64> {
    events
        .iter()
        .filter(|ev| ev.kind == kind)
        .map(|ev| {
            if ev.container != 0 {
                ev.container
            } else {
                ev.node
            }
        })
        .collect()
}

fn mem(r: capsched_resource) -> i64 {
    r.memory_mb
}

#[test]
fn a_node_shrunk_below_its_use_without_a_timeout_keeps_its_containers_and_takes_nothing_new() {
    unsafe {
        let e = engine(&xml(&[]));
        let node = add_node(e, "h1", 8);
        let mut am = Am::submit(e, "default", "alice");
        let running = fill(e, &mut am, node, 6);
        drain_events(e);
        let four = capsched_resource {
            memory_mb: 4 * GB,
            vcores: 8,
        };
        assert_eq!(
            capsched_node_update_resource(e, node, four, -1),
            CAPSCHED_OK
        );
        assert_eq!(
            mem(cluster_resource(e)),
            4 * GB,
            "the cluster shrinks at once"
        );
        am.allocate(e, 1, GB);
        let hb = heartbeat(e, node, &[], &[]);
        assert_eq!(
            (hb.allocated, hb.to_kill.len()),
            (0, 0),
            "nothing new, nothing killed"
        );
        assert!(drain_events(e).is_empty());
        // Two finish: 4 GB run on 4 GB, still no room; a third, and the ask is placed.
        assert_eq!(heartbeat(e, node, &[], &running[..2]).allocated, 0);
        let hb = heartbeat(e, node, &[], &running[2..3]);
        assert_eq!(hb.allocated, 1, "room again once back under the new total");
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
fn an_overcommit_timeout_of_zero_kills_the_newest_containers_beyond_the_new_total() {
    unsafe {
        let e = engine(&xml(&[]));
        let node = add_node(e, "h1", 8);
        let mut am = Am::submit(e, "default", "alice");
        let running = fill(e, &mut am, node, 6);
        drain_events(e);
        let four = capsched_resource {
            memory_mb: 4 * GB,
            vcores: 8,
        };
        assert_eq!(capsched_node_update_resource(e, node, four, 0), CAPSCHED_OK);
        let mut killed = kinds(&drain_events(e), CAPSCHED_EVENT_PREEMPTED);
        killed.sort_unstable();
        // Two over: the two newest (allocated last) go, each −102.
        let mut newest = running[4..].to_vec();
        newest.sort_unstable();
        assert_eq!(killed, newest);
        let mut to_kill = heartbeat(e, node, &[], &[]).to_kill;
        to_kill.sort_unstable();
        assert_eq!(to_kill, newest, "the NM is told to kill them");
        let statuses: Vec<(u64, i32)> = am
            .allocate(e, 0, 0)
            .completed
            .iter()
            .map(|c| (c.0, c.1))
            .collect();
        assert_eq!(statuses.len(), 2);
        assert!(statuses.iter().all(|(_, exit)| *exit == -102));
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
fn a_positive_overcommit_timeout_warns_the_am_then_kills_at_the_first_heartbeat_after_it() {
    unsafe {
        let e = engine(&xml(&[]));
        let node = add_node(e, "h1", 8);
        let mut am = Am::submit(e, "default", "alice");
        let running = fill(e, &mut am, node, 6);
        drain_events(e);
        let five = capsched_resource {
            memory_mb: 5 * GB,
            vcores: 8,
        };
        assert_eq!(
            capsched_node_update_resource(e, node, five, 10_000),
            CAPSCHED_OK
        );
        let warned = kinds(&drain_events(e), CAPSCHED_EVENT_PREEMPT_WARNED);
        assert_eq!(warned, vec![running[5]], "the newest, enough to fit");
        assert_eq!(
            am.allocate(e, 0, 0).preempt,
            vec![running[5]],
            "in the preemption message"
        );
        // Before the deadline a heartbeat kills nothing.
        assert_eq!(capsched_engine_tick(e, 9_999, ptr::null_mut()), CAPSCHED_OK);
        assert!(heartbeat(e, node, &[], &[]).to_kill.is_empty());
        // After it, what is still over goes.
        assert_eq!(
            capsched_engine_tick(e, 10_000, ptr::null_mut()),
            CAPSCHED_OK
        );
        assert_eq!(heartbeat(e, node, &[], &[]).to_kill, vec![running[5]]);
        assert_eq!(am.allocate(e, 0, 0).completed[0].1, -102);
        capsched_engine_free(e);
    }
}

#[test]
fn a_decommissioning_node_drains_then_leaves_when_its_applications_have_finished() {
    unsafe {
        let e = engine(&xml(&[]));
        let node = add_node(e, "h1", 8);
        let other = add_node(e, "h2", 8);
        let mut am = Am::submit(e, "default", "alice");
        let running = fill(e, &mut am, node, 2);
        assert_eq!(capsched_node_decommission(e, node, -1), CAPSCHED_OK);
        assert_eq!(
            mem(cluster_resource(e)),
            8 * GB + 2 * GB,
            "h1 counts only what it runs"
        );
        // New asks go elsewhere, never to the decommissioning node.
        am.allocate(e, 2, GB);
        assert_eq!(heartbeat(e, node, &[], &[]).allocated, 0);
        assert_eq!(heartbeat(e, other, &[], &[]).allocated, 1);
        // Its containers finish; the application still runs, so the node waits for it.
        let hb = heartbeat(e, node, &[], &running);
        assert!(
            !hb.decommissioned,
            "an application that ran here still runs"
        );
        assert_eq!(mem(cluster_resource(e)), 8 * GB);
        assert_eq!(capsched_app_remove(e, am.app), CAPSCHED_OK);
        drain_events(e);
        let hb = heartbeat(e, node, &[], &[]);
        assert!(hb.decommissioned);
        assert_eq!(
            kinds(&drain_events(e), CAPSCHED_EVENT_NODE_DECOMMISSIONED),
            vec![node]
        );
        // It is gone: its id is unknown now.
        let mut r = ptr::null_mut();
        assert_eq!(
            capsched_node_update(e, node, ptr::null(), &mut r),
            CAPSCHED_ERR_UNKNOWN_ID
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

#[test]
fn a_decommissioning_timeout_removes_the_node_and_what_still_runs_there_is_lost() {
    unsafe {
        let e = engine(&xml(&[]));
        let node = add_node(e, "h1", 8);
        let mut am = Am::submit(e, "default", "alice");
        let running = fill(e, &mut am, node, 3);
        assert_eq!(capsched_node_decommission(e, node, 60_000), CAPSCHED_OK);
        // Asked again, only the timeout changes (still counted from the start).
        assert_eq!(capsched_node_decommission(e, node, 30_000), CAPSCHED_OK);
        drain_events(e);
        assert_eq!(
            capsched_engine_tick(e, 29_000, ptr::null_mut()),
            CAPSCHED_OK
        );
        assert!(drain_events(e).is_empty());
        assert_eq!(
            capsched_engine_tick(e, 30_000, ptr::null_mut()),
            CAPSCHED_OK
        );
        assert_eq!(
            kinds(&drain_events(e), CAPSCHED_EVENT_NODE_DECOMMISSIONED),
            vec![node]
        );
        let lost: Vec<(u64, i32)> = am
            .allocate(e, 0, 0)
            .completed
            .iter()
            .map(|c| (c.0, c.1))
            .collect();
        assert_eq!(lost.len(), running.len());
        assert!(lost.iter().all(|(_, exit)| *exit == -100), "{lost:?}");
        assert_eq!(mem(cluster_resource(e)), 0);
        capsched_engine_free(e);
    }
}

#[test]
fn recommissioning_gives_the_node_its_capacity_back() {
    unsafe {
        let e = engine(&xml(&[]));
        let node = add_node(e, "h1", 8);
        let mut am = Am::submit(e, "default", "alice");
        fill(e, &mut am, node, 2);
        assert_eq!(capsched_node_decommission(e, node, -1), CAPSCHED_OK);
        assert_eq!(mem(cluster_resource(e)), 2 * GB);
        assert_eq!(capsched_node_recommission(e, node), CAPSCHED_OK);
        assert_eq!(mem(cluster_resource(e)), 8 * GB);
        am.allocate(e, 1, GB);
        assert_eq!(
            heartbeat(e, node, &[], &[]).allocated,
            1,
            "in service again"
        );
        capsched_engine_free(e);
    }
}

#[test]
fn the_rm_kills_a_container_with_its_own_status_and_the_nm_and_am_hear_of_it() {
    unsafe {
        let e = engine(&xml(&[]));
        let node = add_node(e, "h1", 8);
        let mut am = Am::submit(e, "default", "alice");
        let running = fill(e, &mut am, node, 2);
        let why = "Killed by RM to simulate an AM container failure";
        assert_eq!(
            capsched_container_kill(e, running[0], -106, s(why)),
            CAPSCHED_OK
        );
        assert_eq!(heartbeat(e, node, &[], &[]).to_kill, vec![running[0]]);
        let done = am.allocate(e, 0, 0).completed;
        assert_eq!(done, vec![(running[0], -106, why.to_string())]);
        // Gone: a second kill names an unknown container.
        assert_eq!(
            capsched_container_kill(e, running[0], -106, s(why)),
            CAPSCHED_ERR_UNKNOWN_ID
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

const ACLS: &[(&str, &str)] = &[
    ("yarn.scheduler.capacity.root.queues", "a,b"),
    ("yarn.scheduler.capacity.root.a.capacity", "50"),
    ("yarn.scheduler.capacity.root.b.capacity", "50"),
    ("yarn.scheduler.capacity.root.a.queues", "a1"),
    ("yarn.scheduler.capacity.root.a.a1.capacity", "100"),
    // Root's default is everyone: narrowed, every right comes from below.
    ("yarn.scheduler.capacity.root.acl_submit_applications", " "),
    ("yarn.scheduler.capacity.root.acl_administer_queue", " "),
    (
        "yarn.scheduler.capacity.root.a.acl_submit_applications",
        "alice",
    ),
    (
        "yarn.scheduler.capacity.root.b.acl_submit_applications",
        " eng",
    ),
    (
        "yarn.scheduler.capacity.root.b.acl_administer_queue",
        "carol",
    ),
];

unsafe fn access(e: *mut capsched_engine, user: &str, groups: &[&str], acl: i32, q: &str) -> bool {
    let groups: Vec<capsched_str> = groups.iter().map(|g| s(g)).collect();
    let mut out = 7;
    assert_eq!(
        capsched_check_access(
            e,
            s(user),
            groups.as_ptr(),
            groups.len(),
            acl,
            s(q),
            &mut out
        ),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    assert!(out == 0 || out == 1);
    out == 1
}

#[test]
fn check_access_inherits_from_ancestors_as_yarns_authorizer_does() {
    unsafe {
        let e = engine(&xml(ACLS));
        let submit = CAPSCHED_ACL_SUBMIT_APPLICATIONS;
        let admin = CAPSCHED_ACL_ADMINISTER_QUEUE;
        assert!(
            access(e, "alice", &[], submit, "root.a.a1"),
            "a's ACL covers a1"
        );
        assert!(access(e, "alice", &[], submit, "a1"), "by short name too");
        assert!(!access(e, "bob", &[], submit, "a1"));
        assert!(access(e, "bob", &["eng"], submit, "b"), "by group");
        assert!(
            !access(e, "bob", &["eng"], admin, "b"),
            "one right is not the other"
        );
        assert!(access(e, "carol", &[], admin, "root.b"));
        // A root. path that does not exist is judged at its nearest existing ancestor.
        assert!(access(e, "alice", &[], submit, "root.a.a1.none"));
        assert!(
            !access(e, "alice", &[], submit, "nosuch"),
            "any other unknown queue: denied"
        );
        let mut out = 7;
        assert_eq!(
            capsched_check_access(e, s("alice"), ptr::null(), 0, 9, s("a1"), &mut out),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert_eq!(out, 7, "untouched on failure");
        capsched_engine_free(e);
    }
}

unsafe fn submit_as(
    e: *mut capsched_engine,
    queue: &str,
    user: &str,
    groups: &[&str],
) -> capsched_status {
    let groups: Vec<capsched_str> = groups.iter().map(|g| s(g)).collect();
    let sub = submission(queue, user, &groups);
    let mut app = 0;
    capsched_app_submit_as(e, &sub, &mut app)
}

#[test]
fn with_yarn_acl_enable_a_denied_submission_is_rejected_with_yarns_message() {
    unsafe {
        let mut props = ACLS.to_vec();
        props.push(("yarn.acl.enable", "true"));
        let e = engine(&xml(&props));
        assert_eq!(
            submit_as(e, "a1", "alice", &[]),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        assert_eq!(
            submit_as(e, "b", "bob", &["eng"]),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        assert_eq!(
            submit_as(e, "b", "carol", &[]),
            CAPSCHED_OK,
            "administer is enough"
        );
        assert_eq!(submit_as(e, "a1", "bob", &["eng"]), CAPSCHED_ERR_REJECTED);
        let msg = last_error();
        assert!(
            msg.starts_with("User bob does not have permission to submit application_")
                && msg.ends_with("_0004 to queue root.a.a1"),
            "{msg}"
        );
        capsched_engine_free(e);
        // Without yarn.acl.enable (YARN's default) the RM does not check.
        let e = engine(&xml(ACLS));
        assert_eq!(submit_as(e, "a1", "bob", &[]), CAPSCHED_OK);
        // A struct from a future header that is too small is refused.
        let sub = capsched_submission {
            struct_size: 4,
            ..submission("a1", "bob", &[])
        };
        let mut app = 7;
        assert_eq!(
            capsched_app_submit_as(e, &sub, &mut app),
            CAPSCHED_ERR_STRUCT_SIZE
        );
        assert_eq!(
            capsched_app_submit_as(e, ptr::null(), &mut app),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(app, 7);
        capsched_engine_free(e);
    }
}

#[test]
fn queue_info_counts_a_leafs_attempts_and_a_parents_applications() {
    unsafe {
        let e = engine(&xml(&[
            ("yarn.scheduler.capacity.root.queues", "p"),
            ("yarn.scheduler.capacity.root.p.capacity", "100"),
            ("yarn.scheduler.capacity.root.p.queues", "default"),
            ("yarn.scheduler.capacity.root.p.default.capacity", "100"),
        ]));
        add_node(e, "h1", 8);
        Am::submit(e, "default", "alice");
        Am::submit(e, "default", "bob");
        let mut list = ptr::null_mut();
        assert_eq!(capsched_engine_queues(e, &mut list), CAPSCHED_OK);
        let counts: Vec<(String, i32)> = (0..(*list).count)
            .map(|i| {
                let q = &*(*list).queues.add(i);
                let path = std::slice::from_raw_parts(q.path.ptr.cast::<u8>(), q.path.len);
                (
                    String::from_utf8_lossy(path).into_owned(),
                    q.num_applications,
                )
            })
            .collect();
        capsched_queue_list_free(list);
        assert_eq!(
            counts,
            [
                ("root".to_string(), 2),
                ("root.p".to_string(), 2),
                ("root.p.default".to_string(), 2)
            ]
        );
        capsched_engine_free(e);
    }
}

/// Submits as the RM re-adds an application it recovered after a restart.
unsafe fn recover_app(
    e: *mut capsched_engine,
    queue: &str,
    user: &str,
    seq: i32,
    struct_size: usize,
) -> capsched_status {
    let sub = capsched_submission {
        struct_size: struct_size as u32,
        application_id: capsched_yarn_id {
            cluster_timestamp: 1410901177871,
            application: seq,
            ..Default::default()
        },
        recovering: 1,
        ..submission(queue, user, &[])
    };
    let mut app = 0;
    capsched_app_submit_as(e, &sub, &mut app)
}

#[test]
fn a_recovered_application_is_re_added_as_yarn_recovers_it() {
    unsafe {
        // ACLs on (bob may not submit to a1), b STOPPED, room for one application in the system.
        let mut props = ACLS.to_vec();
        props.push(("yarn.acl.enable", "true"));
        props.push(("yarn.scheduler.capacity.root.b.state", "STOPPED"));
        props.push(("yarn.scheduler.capacity.maximum-applications", "1"));
        let e = engine(&xml(&props));
        let full = std::mem::size_of::<capsched_submission>();
        // Accepted before the restart, so accepted again: the ACL, the system cap and b's
        // state do not apply; b drains (it holds an application but takes no new ones).
        assert_eq!(
            recover_app(e, "a1", "bob", 1, full),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        assert_eq!(
            recover_app(e, "b", "carol", 2, full),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        let doc = scheduler_json(e);
        assert!(doc.contains("\"state\":\"DRAINING\""), "{doc}");
        assert_eq!(submit_as(e, "b", "carol", &[]), CAPSCHED_ERR_REJECTED);
        // A queue that is gone, or is no longer a leaf: YARN kills the application.
        assert_eq!(
            recover_app(e, "gone", "bob", 3, full),
            CAPSCHED_ERR_REJECTED
        );
        assert_eq!(
            last_error(),
            "Application killed on recovery as it was submitted to queue gone which no longer exists after restart."
        );
        assert_eq!(recover_app(e, "a", "bob", 4, full), CAPSCHED_ERR_REJECTED);
        assert_eq!(
            last_error(),
            "Application killed on recovery as it was submitted to queue a which is no longer a leaf queue after restart."
        );
        // A host built before `recovering` (its struct ends at application_id) submits as before.
        let before = std::mem::offset_of!(capsched_submission, recovering);
        assert_eq!(
            recover_app(e, "a1", "bob", 5, before),
            CAPSCHED_ERR_REJECTED
        );
        assert!(
            last_error().starts_with("Maximum system application limit reached"),
            "{}",
            last_error()
        );
        capsched_engine_free(e);
    }
}

/// Submits as `submit_as` does, with an application name, and returns the leaf it landed in.
unsafe fn submit_named(
    e: *mut capsched_engine,
    queue: &str,
    user: &str,
    groups: &[&str],
    app_name: &str,
) -> Result<String, String> {
    let groups: Vec<capsched_str> = groups.iter().map(|g| s(g)).collect();
    let sub = capsched_submission {
        app_name: s(app_name),
        ..submission(queue, user, &groups)
    };
    let mut app = 0;
    if capsched_app_submit_as(e, &sub, &mut app) != CAPSCHED_OK {
        return Err(last_error());
    }
    let mut rep = std::mem::zeroed();
    assert_eq!(capsched_app_report_get(e, app, &mut rep), CAPSCHED_OK);
    let q = std::str::from_utf8(std::slice::from_raw_parts(
        rep.queue.ptr as *const u8,
        rep.queue.len,
    ))
    .unwrap()
    .to_string();
    capsched_app_report_free(&mut rep);
    Ok(q)
}

#[test]
fn submissions_are_placed_by_the_queue_mappings_with_the_hosts_groups_and_app_name() {
    unsafe {
        let mut props = ACLS.to_vec();
        props.push((
            "yarn.scheduler.capacity.queue-mappings",
            "u:alice:a1,g:eng:b",
        ));
        props.push((
            "yarn.scheduler.queue-placement-rules",
            "app-name,user-group",
        ));
        props.push(("yarn.scheduler.queue-placement-rules.app-name", "etl:b"));
        let e = engine(&xml(&props));
        assert_eq!(
            submit_named(e, "default", "alice", &[], "").unwrap(),
            "root.a.a1"
        );
        assert_eq!(
            submit_named(e, "default", "bob", &["eng"], "").unwrap(),
            "root.b"
        );
        assert_eq!(
            submit_named(e, "default", "carol", &[], "etl").unwrap(),
            "root.b"
        );
        // No group for a group mapping to look at: YARN's reason, the submission rejected.
        let err = submit_named(e, "default", "carol", &[], "other").unwrap_err();
        assert!(
            err.ends_with("submitted by user carol reason: No groups found for user carol"),
            "{err}"
        );
        // The RM asks first, without submitting: the leaf and the rule's parent, or nothing.
        let place =
            |queue: &str, user: &str, groups: &[&str]| -> (capsched_status, String, String) {
                let groups: Vec<capsched_str> = groups.iter().map(|g| s(g)).collect();
                let sub = capsched_submission {
                    application_id: capsched_yarn_id {
                        cluster_timestamp: 7,
                        application: 42,
                        ..Default::default()
                    },
                    ..submission(queue, user, &groups)
                };
                let (mut q, mut p) = (capsched_owned_str::default(), capsched_owned_str::default());
                let st = capsched_app_place(e, &sub, &mut q, &mut p);
                let text = |o: &capsched_owned_str| {
                    if o.ptr.is_null() {
                        return String::new();
                    }
                    std::str::from_utf8(std::slice::from_raw_parts(o.ptr as *const u8, o.len))
                        .unwrap()
                        .to_string()
                };
                let out = (st, text(&q), text(&p));
                capsched_string_free(q);
                capsched_string_free(p);
                out
            };
        assert_eq!(
            place("default", "alice", &[]),
            (CAPSCHED_OK, "a1".into(), "root.a".into())
        );
        assert_eq!(
            place("default", "dan", &["staff"]),
            (CAPSCHED_OK, String::new(), String::new())
        );
        assert_eq!(place("a1", "bob", &["eng"]).0, CAPSCHED_OK);
        let (st, q, _) = place("default", "carol", &[]);
        assert_eq!((st, q), (CAPSCHED_ERR_REJECTED, String::new()));
        assert_eq!(
            last_error(),
            "Failed to submit application application_7_0042 submitted by user carol reason: No groups found for user carol"
        );
        let mut q = capsched_owned_str::default();
        let sub = submission("default", "alice", &[]);
        assert_eq!(
            capsched_app_place(e, &sub, &mut q, ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        capsched_engine_free(e);
    }
}

#[test]
fn an_application_past_its_lifetime_is_an_event_for_the_rm_to_kill_it() {
    unsafe {
        let mut props = ACLS.to_vec();
        props.push((
            "yarn.scheduler.capacity.root.b.maximum-application-lifetime",
            "60",
        ));
        let e = engine(&xml(&props));
        let sub = |lifetime_s: i64, seq: i32| capsched_submission {
            application_id: capsched_yarn_id {
                cluster_timestamp: 7,
                application: seq,
                ..Default::default()
            },
            lifetime_s,
            ..submission("b", "bob", &[])
        };
        // 5 s asked; 600 s asked, capped at b's 60; none asked: the default is the maximum.
        let mut short = 0;
        let mut long = 0;
        let mut plain = 0;
        assert_eq!(
            capsched_app_submit_as(e, &sub(5, 1), &mut short),
            CAPSCHED_OK
        );
        assert_eq!(
            capsched_app_submit_as(e, &sub(600, 2), &mut long),
            CAPSCHED_OK
        );
        assert_eq!(
            capsched_app_submit_as(e, &sub(0, 3), &mut plain),
            CAPSCHED_OK
        );
        drain_events(e);
        let expired = |e| -> Vec<(u64, String)> {
            drain_events(e)
                .iter()
                .filter(|ev| ev.kind == CAPSCHED_EVENT_APP_LIFETIME_EXPIRED)
                .map(|ev| {
                    let mut out = capsched_owned_str::default();
                    assert_eq!(capsched_yarn_id_format(&ev.yarn_id, &mut out), CAPSCHED_OK);
                    let t = std::str::from_utf8(std::slice::from_raw_parts(
                        out.ptr as *const u8,
                        out.len,
                    ))
                    .unwrap()
                    .to_string();
                    capsched_string_free(out);
                    (ev.app, t)
                })
                .collect()
        };
        // Deadlines are checked at the engine's once-a-second expiry pass (YARN's monitor
        // checks every application-timeouts.monitor.interval-ms, 3 s by default).
        assert_eq!(capsched_engine_tick(e, 4_000, ptr::null_mut()), CAPSCHED_OK);
        assert!(expired(e).is_empty());
        assert_eq!(capsched_engine_tick(e, 5_000, ptr::null_mut()), CAPSCHED_OK);
        assert_eq!(expired(e), vec![(short, "application_7_0001".to_string())]);
        // The RM kills it; the others end at 60 s, each told once.
        assert_eq!(capsched_app_remove(e, short), CAPSCHED_OK);
        assert_eq!(
            capsched_engine_tick(e, 60_000, ptr::null_mut()),
            CAPSCHED_OK
        );
        let mut both = expired(e);
        both.sort();
        let mut want = vec![
            (long, "application_7_0002".to_string()),
            (plain, "application_7_0003".to_string()),
        ];
        want.sort();
        assert_eq!(both, want);
        assert_eq!(
            capsched_engine_tick(e, 120_000, ptr::null_mut()),
            CAPSCHED_OK
        );
        assert!(expired(e).is_empty());
        // The same answers for an RM with its own lifetime monitor.
        let ask = |queue: &str, requested: i64| {
            let (mut l, mut m) = (7, 7);
            assert_eq!(
                capsched_application_lifetime(e, s(queue), requested, &mut l, &mut m),
                CAPSCHED_OK
            );
            (l, m)
        };
        assert_eq!(ask("b", 600), (60, 60));
        assert_eq!(ask("b", 5), (5, 60));
        assert_eq!(ask("b", 0), (60, 60));
        assert_eq!(ask("a1", 0), (-1, -1));
        assert_eq!(ask("a", 30), (30, -1)); // a parent: what is asked, no maximum
        let mut l = 0;
        assert_eq!(
            capsched_application_lifetime(e, s("b"), 1, &mut l, ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        capsched_engine_free(e);
    }
}

#[test]
fn a_submission_placed_under_a_managed_parent_creates_its_leaf_after_the_parents_acl() {
    unsafe {
        let props = [
            ("yarn.acl.enable", "true"),
            ("yarn.scheduler.capacity.root.queues", "a,m"),
            ("yarn.scheduler.capacity.root.a.capacity", "50"),
            ("yarn.scheduler.capacity.root.m.capacity", "50"),
            ("yarn.scheduler.capacity.root.acl_submit_applications", " "),
            ("yarn.scheduler.capacity.root.acl_administer_queue", " "),
            (
                "yarn.scheduler.capacity.root.m.acl_submit_applications",
                "alice",
            ),
            (
                "yarn.scheduler.capacity.root.m.auto-create-child-queue.enabled",
                "true",
            ),
            (
                "yarn.scheduler.capacity.root.m.leaf-queue-template.capacity",
                "50",
            ),
            ("yarn.scheduler.capacity.queue-mappings", "u:%user:m.%user"),
        ];
        let e = engine(&xml(&props));
        // The RM's question first: the leaf and its managed parent, though the leaf is new.
        let mut q = capsched_owned_str::default();
        let mut p = capsched_owned_str::default();
        let sub = submission("default", "alice", &[]);
        assert_eq!(capsched_app_place(e, &sub, &mut q, &mut p), CAPSCHED_OK);
        let text = |o: &capsched_owned_str| {
            std::str::from_utf8(std::slice::from_raw_parts(o.ptr as *const u8, o.len))
                .unwrap()
                .to_string()
        };
        assert_eq!((text(&q), text(&p)), ("alice".into(), "root.m".into()));
        capsched_string_free(q);
        capsched_string_free(p);
        assert_eq!(
            submit_named(e, "default", "alice", &[], "").unwrap(),
            "root.m.alice"
        );
        // bob may not submit under m: RMAppManager's check on the parent, before any leaf.
        let err = submit_named(e, "default", "bob", &[], "").unwrap_err();
        assert!(
            err.starts_with("User bob does not have permission to submit application_")
                && err.ends_with(" to queue bob"),
            "{err}"
        );
        // …so no leaf was made for him.
        let err = submit_named(e, "root.m.bob", "bob", &[], "").unwrap_err();
        assert!(
            err.ends_with("submitted by user bob to unknown queue: root.m.bob"),
            "{err}"
        );
        capsched_engine_free(e);
    }
}
