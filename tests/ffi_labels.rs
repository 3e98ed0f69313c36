//! Node labels through the C ABI, as a host calls the exports: the cluster's labels added,
//! listed and removed and nodes relabelled with the label manager's words on refusal; every
//! bad argument (NULL arrays, invalid UTF-8, a parallel array of the wrong length, labels
//! disabled) refused with its status and message and nothing applied; label expressions on
//! asks and submissions honoured end to end (an application asking for `x` gets its containers
//! on the `x` node); a relabelled node's usage moved and its reservation dropped through the
//! engine.

mod common;

use std::ptr;

use capsched::ffi::capsched_status::*;
use capsched::ffi::*;
use common::ffi::{drain_events, engine_state, heartbeat, last_error, s};

const GB: i64 = 1024;
const P: &str = "yarn.scheduler.capacity.root";

/// Labels on (unless `enabled` is false); root may use `x` (and `y`, which no queue lists);
/// `a` may use `x`, `b` only the default partition. Both may grow to the whole cluster.
fn xml(enabled: bool) -> String {
    let props = [
        (
            "yarn.node-labels.enabled",
            if enabled { "true" } else { "false" },
        ),
        (&format!("{P}.queues") as &str, "a,b"),
        (&format!("{P}.accessible-node-labels.x.capacity"), "100"),
        (&format!("{P}.a.capacity"), "50"),
        (&format!("{P}.a.maximum-capacity"), "100"),
        (&format!("{P}.a.user-limit-factor"), "2"),
        (&format!("{P}.a.accessible-node-labels"), "x"),
        (&format!("{P}.a.accessible-node-labels.x.capacity"), "100"),
        (&format!("{P}.b.capacity"), "50"),
        (&format!("{P}.b.accessible-node-labels"), " "),
        ("yarn.scheduler.capacity.maximum-am-resource-percent", "1"),
    ];
    let body: String = props
        .iter()
        .map(|(k, v)| format!("<property><name>{k}</name><value>{v}</value></property>"))
        .collect();
    format!("<configuration>{body}</configuration>")
}

/// An engine on `xml(enabled)`: manual (the caller drives every heartbeat) or threaded.
unsafe fn engine(enabled: bool, mode: i32) -> *mut capsched_engine {
    let mut cfg = ptr::null_mut();
    assert_eq!(
        capsched_config_from_xml(s(&xml(enabled)), &mut cfg),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    let mut opts = std::mem::zeroed();
    assert_eq!(capsched_engine_options_default(&mut opts), CAPSCHED_OK);
    opts.mode = mode;
    opts.preemption = 0;
    opts.async_scheduling = 0;
    if mode == CAPSCHED_MODE_MANUAL {
        opts.manual_clock = 1;
    }
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

fn label(name: &str, exclusive: bool) -> capsched_node_label {
    capsched_node_label {
        name: s(name),
        exclusive: i32::from(exclusive),
    }
}

fn mapping<'a>(node: &'a str, label: &'a str) -> capsched_node_label_mapping {
    capsched_node_label_mapping {
        node: s(node),
        label: s(label),
    }
}

/// Invalid UTF-8, for every string argument.
const NOT_UTF8: [u8; 2] = [0xff, 0xfe];

fn not_utf8() -> capsched_str {
    capsched_str {
        ptr: NOT_UTF8.as_ptr().cast(),
        len: NOT_UTF8.len(),
    }
}

unsafe fn add_labels(e: *mut capsched_engine, labels: &[capsched_node_label]) -> capsched_status {
    capsched_node_labels_add(e, labels.as_ptr(), labels.len())
}

unsafe fn relabel(e: *mut capsched_engine, node: &str, to: &str) {
    let m = [mapping(node, to)];
    assert_eq!(
        capsched_node_labels_replace(e, m.as_ptr(), 1),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
}

/// The cluster's labels as (name, exclusive).
unsafe fn cluster_labels(e: *mut capsched_engine) -> Vec<(String, bool)> {
    let mut list = ptr::null_mut();
    assert_eq!(capsched_node_labels_get(e, &mut list), CAPSCHED_OK);
    let l = &*list;
    let out = (0..l.count)
        .map(|i| {
            let entry = &*l.labels.add(i);
            let name = std::slice::from_raw_parts(entry.name.ptr.cast::<u8>(), entry.name.len);
            (
                String::from_utf8(name.to_vec()).unwrap(),
                entry.exclusive != 0,
            )
        })
        .collect();
    capsched_node_label_list_free(list);
    out
}

unsafe fn partition(e: *mut capsched_engine, node: u64) -> String {
    let mut out = std::mem::zeroed::<capsched_owned_str>();
    assert_eq!(
        capsched_node_partition(e, node, &mut out),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    let p = std::ffi::CStr::from_ptr(out.ptr)
        .to_string_lossy()
        .into_owned();
    capsched_string_free(out);
    p
}

/// Memory `queue` uses in the partition `label`.
unsafe fn used_mb(e: *mut capsched_engine, queue: &str, label: &str) -> i64 {
    usage(e, queue, label).used.memory_mb
}

unsafe fn usage(e: *mut capsched_engine, queue: &str, label: &str) -> capsched_partition_usage {
    let mut u = capsched_partition_usage::default();
    assert_eq!(
        capsched_queue_partition_usage(e, s(queue), s(label), &mut u),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    u
}

unsafe fn add_node(e: *mut capsched_engine, host: &str, gb: i64) -> u64 {
    let mut node = 0;
    let size = capsched_resource {
        memory_mb: gb * GB,
        vcores: 8,
    };
    assert_eq!(
        capsched_node_add(e, s(host), s("/r"), size, &mut node),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    node
}

/// `n` heartbeats of `node` (one container each at most); the containers allocated.
unsafe fn heartbeats(e: *mut capsched_engine, node: u64, n: u32) -> u32 {
    (0..n).map(|_| heartbeat(e, node, &[], &[]).allocated).sum()
}

/// A submission with every field at its default (no label expressions).
fn submission(queue: &str) -> capsched_submission {
    capsched_submission {
        struct_size: std::mem::size_of::<capsched_submission>() as u32,
        queue: s(queue),
        user: s("alice"),
        groups: ptr::null(),
        group_count: 0,
        priority: CAPSCHED_DEFAULT_PRIORITY,
        application_id: capsched_yarn_id::default(),
        recovering: 0,
        app_name: capsched_str::EMPTY,
        lifetime_s: 0,
        node_label_expression: capsched_str::EMPTY,
        am_node_label_expression: capsched_str::EMPTY,
    }
}

/// Submits `sub` and adds its attempt, unmanaged (the test plays the AM) or with a 1 GB AM.
unsafe fn start(e: *mut capsched_engine, sub: &capsched_submission, unmanaged: bool) -> u64 {
    let mut app = 0;
    assert_eq!(
        capsched_app_submit_as(e, sub, &mut app),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    let am = capsched_resource {
        memory_mb: GB,
        vcores: 1,
    };
    assert_eq!(
        capsched_attempt_add(e, app, am, i32::from(unmanaged), 0),
        CAPSCHED_OK
    );
    app
}

fn ask(resource_name: &str, priority: i32, mb: i64, n: i32) -> capsched_ask {
    capsched_ask {
        priority,
        allocation_request_id: 0,
        resource_name: s(resource_name),
        capability: capsched_resource {
            memory_mb: mb,
            vcores: 1,
        },
        num_containers: n,
        relax_locality: 1,
        execution_type: CAPSCHED_GUARANTEED,
    }
}

/// An allocate request over `asks` with `labels` beside them (`ask_label_count` as given).
fn request(
    response_id: i32,
    asks: &[capsched_ask],
    labels: &[capsched_str],
) -> capsched_allocate_request {
    let mut req: capsched_allocate_request = unsafe { std::mem::zeroed() };
    req.struct_size = std::mem::size_of::<capsched_allocate_request>() as u32;
    req.response_id = response_id;
    req.asks = asks.as_ptr();
    req.ask_count = asks.len();
    req.ask_labels = if labels.is_empty() {
        ptr::null()
    } else {
        labels.as_ptr()
    };
    req.ask_label_count = labels.len();
    req
}

/// What an allocate call gave: the (container, node) pairs it handed out and its response
/// id; or its status and message.
type Allocated = Result<(Vec<(u64, u64)>, i32), (capsched_status, String)>;

/// One allocate call.
unsafe fn allocate(
    e: *mut capsched_engine,
    app: u64,
    req: &capsched_allocate_request,
) -> Allocated {
    let mut r = ptr::null_mut();
    let st = capsched_allocate(e, app, req, &mut r);
    if st != CAPSCHED_OK {
        assert!(r.is_null(), "no response on failure");
        return Err((st, last_error()));
    }
    let resp = &*r;
    let got = (0..resp.allocated_count)
        .map(|i| {
            let c = &*resp.allocated.add(i);
            (c.id, c.node)
        })
        .collect();
    let id = resp.response_id;
    capsched_allocate_response_free(r);
    Ok((got, id))
}

/// The label manager's refusal: CAPSCHED_ERR_REFUSED with YARN's words.
fn refused(st: capsched_status, words: &str) {
    assert_eq!(st, CAPSCHED_ERR_REFUSED, "{}", last_error());
    assert_eq!(last_error(), words);
}

#[test]
fn labels_are_added_listed_and_removed_with_the_label_managers_words() {
    unsafe {
        let e = engine(true, CAPSCHED_MODE_MANUAL);
        assert!(cluster_labels(e).is_empty());
        assert_eq!(
            add_labels(e, &[label(" x ", true), label("y", false)]),
            CAPSCHED_OK
        );
        assert_eq!(
            cluster_labels(e),
            vec![("x".to_string(), true), ("y".to_string(), false)],
            "trimmed, in the order added, with their exclusivity"
        );
        // Adding a label again is fine; changing its exclusivity is not, and nothing of the
        // call is added then.
        assert_eq!(add_labels(e, &[label("x", true)]), CAPSCHED_OK);
        refused(
            add_labels(e, &[label("z", true), label("x", false)]),
            "Exclusivity cannot be modified for an existing label with : <x:exclusivity=false>",
        );
        refused(
            add_labels(e, &[label("-bad", true)]),
            "label name should only contains {0-9, a-z, A-Z, -, _} and should not started with {-,_}, now it is= -bad",
        );
        refused(
            add_labels(e, &[label("", true)]),
            "label added is empty or exceeds 255 character(s)",
        );
        assert_eq!(cluster_labels(e).len(), 2, "z was not added");

        // A node's partition follows its host's label, and falls back when the label goes.
        let h1 = add_node(e, "h1", 8);
        assert_eq!(partition(e, h1), "");
        relabel(e, "h1", "y");
        assert_eq!(partition(e, h1), "y");
        refused(
            capsched_node_labels_remove(e, [s("x")].as_ptr(), 1),
            "Cannot remove label=x, because queue=root.a is using this label. Please remove label on queue before remove the label",
        );
        refused(
            capsched_node_labels_remove(e, [s("nope")].as_ptr(), 1),
            "Node label=nope to be removed doesn't existed in cluster node labels collection.",
        );
        assert_eq!(partition(e, h1), "y", "a refused removal changes nothing");
        assert_eq!(
            capsched_node_labels_remove(e, [s("y")].as_ptr(), 1),
            CAPSCHED_OK
        );
        assert_eq!(cluster_labels(e), vec![("x".to_string(), true)]);
        assert_eq!(partition(e, h1), "");

        // Relabelling: an unknown label and two labels on one node are refused, and every
        // entry is checked before any applies.
        let h2 = add_node(e, "h2:1234", 8);
        refused(
            capsched_node_labels_replace(
                e,
                [mapping("h1", "x"), mapping("h2", "nope")].as_ptr(),
                2,
            ),
            "Not all labels being replaced contained by known label collections, please check, new labels=[nope]",
        );
        assert_eq!(partition(e, h1), "", "the first entry was not applied");
        refused(
            capsched_node_labels_replace(e, [mapping(":1", "x")].as_ptr(), 1),
            "Invalid node: :1",
        );
        // A NodeManager's own mapping; a later entry for the same node wins; "" unlabels.
        let both = [
            mapping("h2:1234", "x"),
            mapping("h1", "x"),
            mapping("h1", ""),
        ];
        assert_eq!(
            capsched_node_labels_replace(e, both.as_ptr(), 3),
            CAPSCHED_OK
        );
        assert_eq!(
            (partition(e, h1), partition(e, h2)),
            ("".into(), "x".into())
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
fn every_label_call_checks_its_arguments_and_changes_nothing_when_it_refuses() {
    unsafe {
        let e = engine(true, CAPSCHED_MODE_MANUAL);
        let other = engine(true, CAPSCHED_MODE_MANUAL);
        assert_eq!(add_labels(e, &[label("x", true)]), CAPSCHED_OK);
        let h1 = add_node(e, "h1", 8);
        let foreign = add_node(other, "h1", 8);
        let gone = add_node(e, "h9", 1);
        assert_eq!(capsched_node_remove(e, gone), CAPSCHED_OK);
        let before = engine_state(e);
        let labels_before = cluster_labels(e);

        // Each call's status and message (the last error is per call, so checked at once).
        let check = |st: capsched_status, want: capsched_status, starts: &str| {
            assert_eq!(st, want, "{}", last_error());
            assert!(last_error().starts_with(starts), "{}", last_error());
        };
        let dangling = capsched_str {
            ptr: ptr::null(),
            len: 3,
        };
        let named = |name| [capsched_node_label { name, exclusive: 1 }];
        check(
            capsched_node_labels_add(ptr::null(), named(s("y")).as_ptr(), 1),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "engine is NULL",
        );
        check(
            capsched_node_labels_add(e, ptr::null(), 2),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "labels is NULL",
        );
        check(
            capsched_node_labels_add(e, named(not_utf8()).as_ptr(), 1),
            CAPSCHED_ERR_INVALID_UTF8,
            "labels[0].name is not UTF-8",
        );
        check(
            capsched_node_labels_add(e, named(dangling).as_ptr(), 1),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "labels[0].name is NULL",
        );
        check(
            capsched_node_labels_remove(ptr::null(), [s("x")].as_ptr(), 1),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "engine is NULL",
        );
        check(
            capsched_node_labels_remove(e, ptr::null(), 1),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "names is NULL",
        );
        check(
            capsched_node_labels_remove(e, [s("x"), not_utf8()].as_ptr(), 2),
            CAPSCHED_ERR_INVALID_UTF8,
            "names[1] is not UTF-8",
        );
        check(
            capsched_node_labels_replace(ptr::null(), [mapping("h1", "x")].as_ptr(), 1),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "engine is NULL",
        );
        check(
            capsched_node_labels_replace(e, ptr::null(), 1),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "mappings is NULL",
        );
        let bad_node = capsched_node_label_mapping {
            node: not_utf8(),
            label: s("x"),
        };
        check(
            capsched_node_labels_replace(e, [mapping("h1", "x"), bad_node].as_ptr(), 2),
            CAPSCHED_ERR_INVALID_UTF8,
            "mappings[1].node is not UTF-8",
        );
        let bad_label = capsched_node_label_mapping {
            node: s("h1"),
            label: not_utf8(),
        };
        check(
            capsched_node_labels_replace(e, [bad_label].as_ptr(), 1),
            CAPSCHED_ERR_INVALID_UTF8,
            "mappings[0].label is not UTF-8",
        );
        // n = 0 reads nothing: empty calls are fine (NULL arrays too).
        check(
            capsched_node_labels_replace(e, [mapping("h1", "x")].as_ptr(), 0),
            CAPSCHED_OK,
            "",
        );
        check(capsched_node_labels_add(e, ptr::null(), 0), CAPSCHED_OK, "");
        check(
            capsched_node_labels_remove(e, ptr::null(), 0),
            CAPSCHED_OK,
            "",
        );

        // Reads: NULL out-parameters, ids this engine did not issue, unknown queues.
        let mut list = ptr::dangling_mut::<capsched_node_label_list>();
        check(
            capsched_node_labels_get(ptr::null(), &mut list),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "engine is NULL",
        );
        check(
            capsched_node_labels_get(e, ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "out is NULL",
        );
        assert_eq!(list, ptr::dangling_mut(), "no out-parameter on failure");
        let mut out = capsched_owned_str {
            ptr: ptr::dangling_mut(),
            len: 77,
        };
        check(
            capsched_node_partition(e, h1, ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "out is NULL",
        );
        check(
            capsched_node_partition(e, 0, &mut out),
            CAPSCHED_ERR_UNKNOWN_ID,
            "node id 0x0 was not issued by this engine",
        );
        check(
            capsched_node_partition(e, foreign, &mut out),
            CAPSCHED_ERR_UNKNOWN_ID,
            &format!("node id {foreign:#x} was not issued by this engine"),
        );
        check(
            capsched_node_partition(e, gone, &mut out),
            CAPSCHED_ERR_UNKNOWN_ID,
            &format!("unknown node id {gone:#x}"),
        );
        assert_eq!(out.len, 77, "no out-parameter on failure");
        let mut u = capsched_partition_usage {
            used: capsched_resource {
                memory_mb: 5,
                vcores: 5,
            },
            ..Default::default()
        };
        check(
            capsched_queue_partition_usage(e, s("nope"), s("x"), &mut u),
            CAPSCHED_ERR_INVALID_ARGUMENT,
            "unknown queue: nope",
        );
        check(
            capsched_queue_partition_usage(e, s("a"), not_utf8(), &mut u),
            CAPSCHED_ERR_INVALID_UTF8,
            "label is not UTF-8",
        );
        check(
            capsched_queue_partition_usage(e, s("a"), s("x"), ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "out is NULL",
        );
        assert_eq!(u.used.memory_mb, 5, "no out-parameter on failure");
        // A label the cluster does not have: all zero, as the core answers.
        assert_eq!(usage(e, "root.a", "nope").used.memory_mb, 0);

        assert_eq!(
            engine_state(e),
            before,
            "nothing refused changed the engine"
        );
        assert_eq!(cluster_labels(e), labels_before);
        assert_eq!(partition(e, h1), "");
        capsched_engine_free(e);
        capsched_engine_free(other);
    }
}

#[test]
fn with_labels_disabled_every_label_call_and_expression_is_refused_in_yarns_words() {
    unsafe {
        let e = engine(false, CAPSCHED_MODE_MANUAL);
        let disabled =
            "Node-label-based scheduling is disabled. Please check yarn.node-labels.enabled";
        refused(add_labels(e, &[label("x", true)]), disabled);
        refused(
            capsched_node_labels_replace(e, [mapping("h1", "")].as_ptr(), 1),
            disabled,
        );
        // (A label a queue lists is refused for that first, as YARN checks it first.)
        refused(
            capsched_node_labels_remove(e, [s("y")].as_ptr(), 1),
            disabled,
        );
        assert!(cluster_labels(e).is_empty());

        let not_enabled =
            "Invalid resource request, node label not enabled but request contains label expression";
        // An application label is checked with its AM request at submission.
        let mut sub = submission("a");
        sub.node_label_expression = s("x");
        let mut app = 0;
        assert_eq!(
            capsched_app_submit_as(e, &sub, &mut app),
            CAPSCHED_ERR_REJECTED
        );
        assert_eq!(last_error(), not_enabled);
        // An empty expression names the default partition: allowed.
        sub.node_label_expression = s("");
        let app = start(e, &sub, true);
        let asks = [ask("*", 1, GB, 1)];
        refused(
            allocate(e, app, &request(0, &asks, &[s("x")]))
                .unwrap_err()
                .0,
            not_enabled,
        );
        capsched_engine_free(e);
    }
}

#[test]
fn ask_labels_are_a_parallel_array_checked_before_anything_applies() {
    unsafe {
        let e = engine(true, CAPSCHED_MODE_MANUAL);
        assert_eq!(add_labels(e, &[label("x", true)]), CAPSCHED_OK);
        let app = start(e, &submission("a"), true);
        let asks = [ask("*", 1, GB, 1), ask("h1", 1, GB, 1)];
        let fail = |req: capsched_allocate_request| allocate(e, app, &req).unwrap_err();

        // One expression per ask or none: any other count is refused.
        let (st, m) = fail(request(0, &asks, &[s("x")]));
        assert_eq!(st, CAPSCHED_ERR_INVALID_ARGUMENT);
        assert_eq!(
            m,
            "ask_label_count is 1 but ask_count is 2: one label expression per ask, or ask_label_count 0 for none"
        );
        let mut req = request(0, &asks, &[s("x"), capsched_str::EMPTY]);
        req.ask_labels = ptr::null();
        assert_eq!(
            fail(req),
            (CAPSCHED_ERR_NULL_ARGUMENT, "ask_labels is NULL".into())
        );
        let (st, m) = fail(request(0, &asks, &[s("x"), not_utf8()]));
        assert_eq!(st, CAPSCHED_ERR_INVALID_UTF8);
        assert!(m.starts_with("ask_labels[1] is not UTF-8"), "{m}");
        let dangling = capsched_str {
            ptr: ptr::null(),
            len: 1,
        };
        assert_eq!(
            fail(request(0, &asks, &[dangling, capsched_str::EMPTY])),
            (CAPSCHED_ERR_NULL_ARGUMENT, "ask_labels[0] is NULL".into())
        );
        // YARN's checks of the expressions, with its words.
        let yarn = |labels: [capsched_str; 2], words: &str| {
            let (st, m) = fail(request(0, &asks, &labels));
            assert_eq!(st, CAPSCHED_ERR_REFUSED, "{m}");
            assert_eq!(m, words);
        };
        yarn(
            [capsched_str::EMPTY, s("x")],
            "Invalid resource request, queue=a specified node label expression in a resource request has resource name = h1",
        );
        yarn(
            [s("x && y"), capsched_str::EMPTY],
            "Invalid resource request, queue=a specified more than one node label in a node label expression, node label expression = x && y",
        );
        yarn(
            [s("z"), capsched_str::EMPTY],
            "Invalid resource request, queue=a doesn't have permission to access all labels in resource request. labelExpression of resource request=z. Queue labels=x",
        );
        // Nothing was applied: the first response id is still expected, and no ask is pending.
        assert_eq!(usage(e, "a", "").pending.memory_mb, 0);
        assert_eq!(usage(e, "a", "x").pending.memory_mb, 0);
        let (_, id) = allocate(e, app, &request(0, &asks, &[s(" x "), capsched_str::EMPTY]))
            .expect("a valid request");
        assert_eq!(id, 1);
        assert_eq!(
            usage(e, "a", "x").pending.memory_mb,
            GB,
            "the ANY ask is pending in x (its label trimmed)"
        );
        assert_eq!(usage(e, "a", "").pending.memory_mb, 0);

        // A queue that may not use x is told so.
        let b = start(e, &submission("b"), true);
        let (st, m) = allocate(e, b, &request(0, &asks[..1], &[s("x")])).unwrap_err();
        assert_eq!(st, CAPSCHED_ERR_REFUSED);
        assert_eq!(
            m,
            "Invalid resource request, queue=b doesn't have permission to access all labels in resource request. labelExpression of resource request=x. Queue labels="
        );

        // A host built before ask_labels existed (the first version of the struct) is read up
        // to its end: whatever lies beyond is never looked at.
        let mut old = request(1, &asks[..1], &[]);
        old.struct_size = std::mem::offset_of!(capsched_allocate_request, ask_labels) as u32;
        old.ask_labels = ptr::dangling();
        old.ask_label_count = 99;
        allocate(e, app, &old).expect("a first-version request");
        old.struct_size -= 1;
        assert_eq!(fail(old).0, CAPSCHED_ERR_STRUCT_SIZE);
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
fn an_application_asking_for_x_gets_its_containers_on_the_x_node_through_a_threaded_engine() {
    unsafe {
        let e = engine(true, CAPSCHED_MODE_THREADED);
        assert_eq!(add_labels(e, &[label("x", true)]), CAPSCHED_OK);
        let h1 = add_node(e, "h1", 8);
        let h2 = add_node(e, "h2", 8);
        // Labelled after it registered: the node's partition changes at once.
        relabel(e, "h1", "x");
        assert_eq!(
            (partition(e, h1), partition(e, h2)),
            ("x".into(), "".into())
        );

        let app = start(e, &submission("a"), true);
        let asks = [ask("*", 1, GB, 2), ask("*", 2, GB, 1)];
        let (got, mut id) = allocate(e, app, &request(0, &asks, &[s("x"), capsched_str::EMPTY]))
            .expect("asks with labels");
        assert!(got.is_empty());
        // The exclusive partition x serves only the ask that names it, and h2 only the other.
        assert_eq!(heartbeats(e, h2, 3), 1);
        assert_eq!(heartbeats(e, h1, 3), 2);
        let (got, next) = allocate(e, app, &request(id, &[], &[])).unwrap();
        id = next;
        let mut on: Vec<u64> = got.iter().map(|(_, node)| *node).collect();
        on.sort_unstable();
        let mut want = vec![h1, h1, h2];
        want.sort_unstable();
        assert_eq!(on, want);
        assert_eq!(used_mb(e, "root.a", "x"), 2 * GB);
        assert_eq!(used_mb(e, "root", "x"), 2 * GB, "booked up the tree");
        assert_eq!(used_mb(e, "root.a", ""), GB);
        // No unlabelled ask ever lands on h1.
        let more = [ask("*", 3, GB, 4)];
        allocate(e, app, &request(id, &more, &[])).unwrap();
        assert_eq!(heartbeats(e, h1, 2), 0);
        assert_eq!(heartbeats(e, h2, 5), 4);
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
fn submission_labels_place_the_am_and_default_the_asks() {
    unsafe {
        let e = engine(true, CAPSCHED_MODE_MANUAL);
        assert_eq!(add_labels(e, &[label("x", true)]), CAPSCHED_OK);
        relabel(e, "h1", "x"); // before h1 registers: kept for it
        let h1 = add_node(e, "h1", 8);
        let h2 = add_node(e, "h2", 8);
        assert_eq!(partition(e, h1), "x");

        // The application's label sends its AM to x.
        let mut sub = submission("a");
        sub.node_label_expression = s("x");
        let app = start(e, &sub, false);
        drain_events(e);
        assert_eq!(heartbeats(e, h2, 2), 0);
        assert_eq!(heartbeats(e, h1, 2), 1);
        let am_on: Vec<u64> = drain_events(e)
            .iter()
            .filter(|ev| ev.kind == CAPSCHED_EVENT_AM_CONTAINER_ALLOCATED)
            .map(|ev| ev.node)
            .collect();
        assert_eq!(am_on, vec![h1]);
        assert_eq!(usage(e, "a", "x").am_used.memory_mb, GB);
        // Its asks that name nothing take the application's label; an empty one names the
        // default partition.
        let asks = [ask("*", 1, GB, 1), ask("*", 2, GB, 1)];
        allocate(e, app, &request(0, &asks, &[capsched_str::EMPTY, s("")])).unwrap();
        assert_eq!(usage(e, "a", "x").pending.memory_mb, GB);
        assert_eq!(usage(e, "a", "").pending.memory_mb, GB);

        // The AM's own label wins over the application's.
        let mut sub = submission("a");
        sub.node_label_expression = s("x");
        sub.am_node_label_expression = s("");
        let other = start(e, &sub, false);
        assert_eq!(
            heartbeats(e, h1, 2),
            1,
            "the first application's pending x ask"
        );
        assert_eq!(heartbeats(e, h2, 3), 2, "its default ask, and the AM");
        let report = {
            let mut r = std::mem::zeroed::<capsched_app_report>();
            assert_eq!(capsched_app_report_get(e, other, &mut r), CAPSCHED_OK);
            let am = r.am_container;
            capsched_app_report_free(&mut r);
            am
        };
        let mut info = std::mem::zeroed::<capsched_container_info>();
        assert_eq!(capsched_container_get(e, report, &mut info), CAPSCHED_OK);
        assert_eq!(info.node, h2);

        // A label the queue may not use rejects the application, as RMAppManager does; a
        // recovered application is not checked again.
        let mut sub = submission("b");
        sub.am_node_label_expression = s("x");
        let mut rejected = 0;
        assert_eq!(
            capsched_app_submit_as(e, &sub, &mut rejected),
            CAPSCHED_ERR_REJECTED
        );
        assert_eq!(
            last_error(),
            "Invalid resource request, queue=b doesn't have permission to access all labels in resource request. labelExpression of resource request=x. Queue labels="
        );
        assert_eq!(rejected, 0);
        let mut bad = submission("a");
        bad.node_label_expression = not_utf8();
        assert_eq!(
            capsched_app_submit_as(e, &bad, &mut rejected),
            CAPSCHED_ERR_INVALID_UTF8
        );
        assert!(last_error().starts_with("node_label_expression is not UTF-8"));
        bad.node_label_expression = capsched_str::EMPTY;
        bad.am_node_label_expression = capsched_str {
            ptr: ptr::null(),
            len: 2,
        };
        assert_eq!(
            capsched_app_submit_as(e, &bad, &mut rejected),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(last_error(), "am_node_label_expression is NULL");
        sub.recovering = 1;
        sub.application_id = capsched_yarn_id {
            cluster_timestamp: 1,
            application: 7,
            ..Default::default()
        };
        let mut recovered = 0;
        assert_eq!(
            capsched_app_submit_as(e, &sub, &mut recovered),
            CAPSCHED_OK,
            "{}",
            last_error()
        );

        // A host built before the label fields (the fourth version of the struct) submits
        // with none, whatever lies beyond.
        let mut old = submission("a");
        old.struct_size = std::mem::offset_of!(capsched_submission, node_label_expression) as u32;
        old.node_label_expression = not_utf8();
        old.am_node_label_expression = s("nope");
        let mut plain = 0;
        assert_eq!(
            capsched_app_submit_as(e, &old, &mut plain),
            CAPSCHED_OK,
            "{}",
            last_error()
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
fn relabelling_a_node_moves_its_usage_and_drops_its_reservation() {
    unsafe {
        let e = engine(true, CAPSCHED_MODE_MANUAL);
        assert_eq!(add_labels(e, &[label("x", true)]), CAPSCHED_OK);
        let h1 = add_node(e, "h1", 8);
        let h2 = add_node(e, "h2", 8); // room for the queue, but it does not heartbeat yet
        let app = start(e, &submission("a"), true);
        // 6 GB run on h1; a 4 GB ask does not fit and is reserved there.
        allocate(e, app, &request(0, &[ask("*", 1, GB, 6)], &[])).unwrap();
        assert_eq!(heartbeats(e, h1, 7), 6);
        let (pulled, id) = allocate(e, app, &request(1, &[ask("*", 2, 4 * GB, 1)], &[])).unwrap();
        assert_eq!(pulled.len(), 6);
        assert_eq!(heartbeat(e, h1, &[], &[]).allocated, 0);
        let reserved = |e| {
            let mut r = std::mem::zeroed::<capsched_app_report>();
            assert_eq!(capsched_app_report_get(e, app, &mut r), CAPSCHED_OK);
            let n = r.reserved_containers;
            capsched_app_report_free(&mut r);
            n
        };
        assert_eq!(reserved(e), 1);
        assert_eq!(
            used_mb(e, "a", ""),
            10 * GB,
            "6 GB and the 4 GB reservation"
        );
        drain_events(e);

        relabel(e, "h1", "x");
        assert_eq!(reserved(e), 0, "the reservation is dropped");
        assert_eq!(used_mb(e, "a", ""), 0);
        assert_eq!(
            used_mb(e, "a", "x"),
            6 * GB,
            "the running containers moved to x"
        );
        assert_eq!(used_mb(e, "root", "x"), 6 * GB);
        // Nothing running ended: no completion reaches the host.
        let completed = drain_events(e)
            .iter()
            .filter(|ev| ev.kind == CAPSCHED_EVENT_CONTAINER_COMPLETED)
            .count();
        assert_eq!(completed, 0);
        // The 4 GB ask is a default-partition ask: nothing on h1 serves it any more.
        assert_eq!(heartbeat(e, h1, &[], &[]).allocated, 0);
        assert_eq!(reserved(e), 0);
        assert_eq!(heartbeat(e, h2, &[], &[]).allocated, 1);
        let (got, _) = allocate(e, app, &request(id, &[], &[])).unwrap();
        assert_eq!(got.iter().map(|(_, n)| *n).collect::<Vec<_>>(), vec![h2]);
        assert_eq!(used_mb(e, "a", ""), 4 * GB);
        assert_eq!(
            capsched_engine_check_invariants(e),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        capsched_engine_free(e);
    }
}

/// `(accessible labels, default expression)` of `queue` through `capsched_queue_node_labels`.
unsafe fn queue_labels(e: *mut capsched_engine, queue: &str) -> (Vec<String>, Option<String>) {
    let mut out = ptr::null_mut();
    assert_eq!(
        capsched_queue_node_labels(e, s(queue), &mut out),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    let l = &*out;
    let text = |p: capsched_str| {
        let bytes = std::slice::from_raw_parts(p.ptr.cast::<u8>(), p.len);
        String::from_utf8(bytes.to_vec()).unwrap()
    };
    let accessible = (0..l.accessible_count)
        .map(|i| text(*l.accessible.add(i)))
        .collect();
    let default = if l.default_node_label_expression.ptr.is_null() {
        assert_eq!(l.default_node_label_expression.len, 0);
        None
    } else {
        Some(text(l.default_node_label_expression))
    };
    capsched_queue_labels_free(out);
    (accessible, default)
}

#[test]
fn each_queue_states_its_accessible_labels_and_default_expression_as_yarns_queue_info() {
    // a may use x and y, its default x reaches a1 (which may use what a may) but not q (which
    // narrowed to y); b may use the default partition only and names it as its default; c
    // and its child inherit root's `*` and no default. Two leaves are called q.
    let conf = |a_default: &str| {
        let mut props = vec![
            ("yarn.node-labels.enabled".to_string(), "true".to_string()),
            (format!("{P}.queues"), "a,b,c".into()),
            (
                format!("{P}.accessible-node-labels.x.capacity"),
                "100".into(),
            ),
            (format!("{P}.a.capacity"), "40".into()),
            (format!("{P}.a.accessible-node-labels"), "y, x".into()),
            (
                format!("{P}.a.accessible-node-labels.x.capacity"),
                "100".into(),
            ),
            (format!("{P}.a.queues"), "a1,q".into()),
            (format!("{P}.a.a1.capacity"), "50".into()),
            (
                format!("{P}.a.a1.accessible-node-labels.x.capacity"),
                "100".into(),
            ),
            (format!("{P}.a.q.capacity"), "50".into()),
            (format!("{P}.a.q.accessible-node-labels"), "y".into()),
            (format!("{P}.b.capacity"), "30".into()),
            (format!("{P}.b.accessible-node-labels"), " ".into()),
            (format!("{P}.b.default-node-label-expression"), " ".into()),
            (format!("{P}.c.capacity"), "30".into()),
            (format!("{P}.c.queues"), "q".into()),
            (format!("{P}.c.q.capacity"), "100".into()),
        ];
        if !a_default.is_empty() {
            props.push((
                format!("{P}.a.default-node-label-expression"),
                a_default.into(),
            ));
        }
        let body: String = props
            .iter()
            .map(|(k, v)| format!("<property><name>{k}</name><value>{v}</value></property>"))
            .collect();
        format!("<configuration>{body}</configuration>")
    };
    unsafe {
        let mut cfg = ptr::null_mut();
        assert_eq!(
            capsched_config_from_xml(s(&conf(" x ")), &mut cfg),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        let mut opts = std::mem::zeroed();
        assert_eq!(capsched_engine_options_default(&mut opts), CAPSCHED_OK);
        opts.mode = CAPSCHED_MODE_MANUAL;
        opts.manual_clock = 1;
        let mut e = ptr::null_mut();
        assert_eq!(capsched_engine_new(cfg, &opts, &mut e), CAPSCHED_OK);
        capsched_config_free(cfg);

        let x = Some("x".to_string());
        let strs = |v: &[&str]| v.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(queue_labels(e, "root"), (strs(&["*"]), None));
        assert_eq!(queue_labels(e, "a"), (strs(&["x", "y"]), x.clone()));
        assert_eq!(queue_labels(e, "root.a.a1"), (strs(&["x", "y"]), x.clone()));
        assert_eq!(queue_labels(e, "a1"), (strs(&["x", "y"]), x.clone()));
        assert_eq!(queue_labels(e, "root.a.q"), (strs(&["y"]), None));
        // Unset is not empty: b's default names the default partition.
        assert_eq!(queue_labels(e, "b"), (vec![], Some(String::new())));
        assert_eq!(queue_labels(e, "root.c"), (strs(&["*"]), None));
        assert_eq!(queue_labels(e, "root.c.q"), (strs(&["*"]), None));

        // Bad arguments: a status and a message, nothing written.
        let check = |st: capsched_status, want: capsched_status, has: &str| {
            assert_eq!(st, want, "{}", last_error());
            assert!(last_error().contains(has), "{}", last_error());
        };
        let mut out = ptr::NonNull::<capsched_queue_labels>::dangling().as_ptr();
        let untouched = out;
        check(
            capsched_queue_node_labels(e, s("q"), &mut out),
            CAPSCHED_ERR_INVALID_ARGUMENT,
            "q",
        );
        check(
            capsched_queue_node_labels(e, s("nope"), &mut out),
            CAPSCHED_ERR_INVALID_ARGUMENT,
            "nope",
        );
        check(
            capsched_queue_node_labels(e, not_utf8(), &mut out),
            CAPSCHED_ERR_INVALID_UTF8,
            "queue is not UTF-8",
        );
        check(
            capsched_queue_node_labels(
                e,
                capsched_str {
                    ptr: ptr::null(),
                    len: 1,
                },
                &mut out,
            ),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "queue is NULL",
        );
        check(
            capsched_queue_node_labels(ptr::null(), s("a"), &mut out),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "engine is NULL",
        );
        assert_eq!(out, untouched);
        check(
            capsched_queue_node_labels(e, s("a"), ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT,
            "out is NULL",
        );
        capsched_queue_labels_free(ptr::null_mut());

        // They follow a refresh: without a's default, a1 has none either.
        let mut cfg = ptr::null_mut();
        assert_eq!(
            capsched_config_from_xml(s(&conf("")), &mut cfg),
            CAPSCHED_OK
        );
        assert_eq!(
            capsched_engine_refresh_queues(e, cfg),
            CAPSCHED_OK,
            "{}",
            last_error()
        );
        capsched_config_free(cfg);
        assert_eq!(queue_labels(e, "a1"), (strs(&["x", "y"]), None));
        capsched_engine_free(e);
    }
}
