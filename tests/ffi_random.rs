//! Seeded random call sequences through the C ABI, as a careless C host would make them: valid
//! and stale ids, ids never issued, ids of a second live engine, 0, unknown queues, empty user
//! names, asks of odd sizes, releases of other apps' containers, completions of containers on
//! the wrong node, refreshes with valid and invalid XML. Every call must return one of its
//! documented statuses (never a panic or a failed engine), a call given another engine's id
//! must be refused as such, and `capsched_engine_check_invariants` must pass after every step;
//! at the end the second engine must be exactly as it was. Node labels come and go among the
//! calls (labels added and removed, nodes relabelled under running containers and
//! reservations, asks naming a label or not, parallel arrays of the wrong length). A failure
//! prints its seed and step; `CAPSCHED_SEED=<seed>` replays one.

mod common;

use std::ptr;

use capsched::ffi::capsched_status::*;
use capsched::ffi::*;
use common::ffi::{engine_state, last_error, manual_engine, s};
use common::rng::SplitMix;

fn xml(props: &[(&str, &str)]) -> String {
    let body: String = props
        .iter()
        .map(|(k, v)| format!("<property><name>{k}</name><value>{v}</value></property>"))
        .collect();
    format!("<configuration>{body}</configuration>")
}

fn config(a: u32) -> String {
    xml(&[
        ("yarn.scheduler.capacity.root.queues", "a,b"),
        ("yarn.scheduler.capacity.root.a.capacity", &a.to_string()),
        (
            "yarn.scheduler.capacity.root.b.capacity",
            &(100 - a).to_string(),
        ),
        ("yarn.scheduler.capacity.root.a.maximum-capacity", "100"),
        ("yarn.scheduler.capacity.root.b.maximum-capacity", "100"),
        ("yarn.node-labels.enabled", "true"),
        (
            "yarn.scheduler.capacity.root.accessible-node-labels.x.capacity",
            "100",
        ),
        ("yarn.scheduler.capacity.root.a.accessible-node-labels", "x"),
        (
            "yarn.scheduler.capacity.root.a.accessible-node-labels.x.capacity",
            "100",
        ),
        ("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5"),
        ("yarn.resourcemanager.scheduler.monitor.enable", "true"),
        (
            "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled",
            "true",
        ),
    ])
}

const AM: capsched_resource = capsched_resource {
    memory_mb: 1024,
    vcores: 1,
};

unsafe fn new_engine() -> *mut capsched_engine {
    manual_engine(&config(50))
}

/// The second engine's ids: a live node, application and container of every kind, whose
/// slots and generations are ones the first engine uses too.
struct Foreign {
    nodes: Vec<u64>,
    apps: Vec<u64>,
    containers: Vec<u64>,
}

unsafe fn foreign(e: *mut capsched_engine) -> Foreign {
    let mut f = Foreign {
        nodes: Vec::new(),
        apps: Vec::new(),
        containers: Vec::new(),
    };
    for h in 0..2 {
        let mut id = 0;
        let size = capsched_resource {
            memory_mb: 8192,
            vcores: 8,
        };
        assert_eq!(
            capsched_node_add(e, s(&format!("h{h}")), s("/r"), size, &mut id),
            CAPSCHED_OK
        );
        f.nodes.push(id);
    }
    for q in ["a", "b"] {
        let mut app = 0;
        assert_eq!(
            capsched_app_submit(e, s(q), s("u1"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_OK
        );
        assert_eq!(capsched_attempt_add(e, app, AM, 0, 0), CAPSCHED_OK);
        f.apps.push(app);
    }
    for &n in &f.nodes {
        let mut r = ptr::null_mut();
        assert_eq!(capsched_node_update(e, n, ptr::null(), &mut r), CAPSCHED_OK);
        capsched_node_response_free(r);
    }
    for &app in &f.apps {
        let mut req: capsched_allocate_request = std::mem::zeroed();
        req.struct_size = std::mem::size_of::<capsched_allocate_request>() as u32;
        let mut r = ptr::null_mut();
        assert_eq!(capsched_allocate(e, app, &req, &mut r), CAPSCHED_OK);
        for i in 0..(*r).allocated_count {
            f.containers.push((*(*r).allocated.add(i)).id);
        }
        capsched_allocate_response_free(r);
    }
    assert_eq!(f.containers.len(), 2, "the two AM containers");
    f
}

/// The low 48 bits of an id: its slot and generation (docs/C-API.md, "Ids").
const CORE: u64 = (1 << 48) - 1;

/// What a run exercised, so the caller can see it covered every side: containers handed out,
/// calls refused, calls given another engine's id, nodes labelled.
type Coverage = (usize, usize, usize, usize);

/// One random run of `steps` calls; panics with the seed and step on a broken rule.
fn run(seed: u64, steps: usize) -> Coverage {
    let (mut handed_out, mut failed, mut foreign_calls, mut relabelled) = (0, 0, 0, 0);
    let mut rng = SplitMix(seed);
    unsafe {
        let other = new_engine();
        let f = foreign(other);
        let other_before = engine_state(other);
        let e = new_engine();

        let mut now: i64 = 0;
        let mut nodes: Vec<u64> = Vec::new();
        // This engine's tag, from its first id: "never issued" ids carry it, so they reach
        // the core.
        let mut first = 0;
        assert_eq!(
            capsched_node_add(
                e,
                s("h0"),
                s("/r"),
                capsched_resource {
                    memory_mb: 4096,
                    vcores: 8
                },
                &mut first
            ),
            CAPSCHED_OK
        );
        nodes.push(first);
        // The tag alone (bits 48–61), without the node kind of `first` (bits 62–63).
        const KIND: u64 = 3 << 62;
        let tag = first & !CORE & !KIND;
        assert!(tag != 0 && tag != f.nodes[0] & !CORE & !KIND);
        let mut apps: Vec<u64> = Vec::new();
        let mut gone: Vec<u64> = Vec::new(); // ids that were valid once
        let mut containers: Vec<(u64, u64)> = Vec::new(); // (container, node)
        let mut response_ids: std::collections::HashMap<u64, i32> = Default::default();
        let mut host = 0;
        for step in 0..steps {
            now += 250;
            let what;
            let st: capsched_status;
            // Whether this call was given an id of the other engine.
            let mut alien = false;
            // A valid id, a stale one, one never issued (with this engine's tag, or none),
            // 0, or the other engine's.
            let mut pick = |ids: &[u64], theirs: &[u64], rng: &mut SplitMix| -> u64 {
                match rng.below(12) {
                    0 if !gone.is_empty() => gone[rng.below(gone.len() as u64) as usize],
                    // Any kind: a third of them reach the core, the others are refused
                    // as ids of another kind.
                    1 => tag | ((1 + rng.below(3)) << 62) | (rng.next() & CORE),
                    2 => rng.next() & CORE,
                    3 => 0,
                    4 => {
                        alien = true;
                        theirs[rng.below(theirs.len() as u64) as usize]
                    }
                    _ if !ids.is_empty() => ids[rng.below(ids.len() as u64) as usize],
                    _ => tag | ((1 + rng.below(3)) << 62) | (rng.next() & CORE),
                }
            };
            let allowed: &[capsched_status] = match rng.below(100) {
                0..=7 => {
                    what = "node add";
                    host += 1;
                    let name = format!("h{}", host % 12); // duplicates happen
                    let mb = 1024 * (2 + rng.below(14) as i64);
                    let mut id = 0;
                    st = capsched_node_add(
                        e,
                        s(&name),
                        s("/r"),
                        capsched_resource {
                            memory_mb: mb,
                            vcores: 8,
                        },
                        &mut id,
                    );
                    if st == CAPSCHED_OK {
                        nodes.push(id);
                    }
                    &[CAPSCHED_OK, CAPSCHED_ERR_INVALID_ARGUMENT]
                }
                8..=9 => {
                    what = "node remove";
                    let id = pick(&nodes, &f.nodes, &mut rng);
                    st = capsched_node_remove(e, id);
                    if st == CAPSCHED_OK {
                        nodes.retain(|&n| n != id);
                        containers.retain(|&(_, n)| n != id);
                        gone.push(id);
                    }
                    &[CAPSCHED_OK, CAPSCHED_ERR_UNKNOWN_ID]
                }
                10..=29 => {
                    what = "node update";
                    let id = pick(&nodes, &f.nodes, &mut rng);
                    // Finish some containers, some of them on the wrong node, unknown or the
                    // other engine's.
                    let mut done = Vec::new();
                    for _ in 0..rng.below(3) {
                        let container = match containers
                            .get(rng.below(containers.len().max(1) as u64) as usize)
                        {
                            Some(&(c, _)) if !rng.chance(10) => c,
                            _ => pick(&[], &f.containers, &mut rng),
                        };
                        done.push(capsched_completed_container {
                            container,
                            exit_status: 0,
                            diagnostics: s(""),
                        });
                    }
                    let mut status: capsched_node_status = std::mem::zeroed();
                    status.struct_size = std::mem::size_of::<capsched_node_status>() as u32;
                    status.completed = done.as_ptr();
                    status.completed_count = done.len();
                    let mut r = ptr::null_mut();
                    st = capsched_node_update(e, id, &status, &mut r);
                    capsched_node_response_free(r);
                    &[
                        CAPSCHED_OK,
                        CAPSCHED_ERR_UNKNOWN_ID,
                        CAPSCHED_ERR_INVALID_ARGUMENT,
                    ]
                }
                30..=39 => {
                    what = "submit";
                    let queue = ["a", "b", "root", "nope"][rng.below(4) as usize];
                    let mut app = 0;
                    st = capsched_app_submit(
                        e,
                        s(queue),
                        s(["u1", "u2", ""][rng.below(3) as usize]),
                        rng.below(6) as i32,
                        &mut app,
                    );
                    if st == CAPSCHED_OK {
                        let unmanaged = rng.below(2) as i32;
                        if capsched_attempt_add(e, app, AM, unmanaged, 0) == CAPSCHED_OK {
                            apps.push(app);
                        }
                    }
                    &[CAPSCHED_OK, CAPSCHED_ERR_REJECTED]
                }
                40..=64 => {
                    what = "allocate";
                    let app = pick(&apps, &f.apps, &mut rng);
                    let mb = [512, 1024, 2048, 0, -5, 1 << 40][rng.below(6) as usize];
                    let ask = capsched_ask {
                        priority: 1 + rng.below(3) as i32,
                        allocation_request_id: 0,
                        resource_name: s("*"),
                        capability: capsched_resource {
                            memory_mb: mb,
                            vcores: 1,
                        },
                        num_containers: rng.below(6) as i32,
                        relax_locality: 1,
                        execution_type: CAPSCHED_GUARANTEED,
                    };
                    let releases: Vec<u64> = (0..rng.below(2))
                        .map(|_| {
                            match containers.get(rng.below(containers.len().max(1) as u64) as usize)
                            {
                                Some(&(c, _)) if !rng.chance(10) => c,
                                _ => pick(&[], &f.containers, &mut rng),
                            }
                        })
                        .collect();
                    // Its label expression: none, unset, the default partition, a label or
                    // not; now and then a parallel array of the wrong length.
                    let labels = [capsched_str::EMPTY, s(""), s("x"), s("y"), s("nope")];
                    let label = [labels[rng.below(labels.len() as u64) as usize]];
                    let label_count = [0, 0, 1, 1, 2][rng.below(5) as usize];
                    let mut req: capsched_allocate_request = std::mem::zeroed();
                    req.struct_size = std::mem::size_of::<capsched_allocate_request>() as u32;
                    req.response_id = *response_ids.get(&app).unwrap_or(&0);
                    req.asks = &ask;
                    req.ask_count = 1;
                    req.ask_labels = label.as_ptr();
                    req.ask_label_count = label_count;
                    req.releases = releases.as_ptr();
                    req.release_count = releases.len();
                    let mut r = ptr::null_mut();
                    st = capsched_allocate(e, app, &req, &mut r);
                    if st == CAPSCHED_OK {
                        let resp = &*r;
                        response_ids.insert(app, resp.response_id);
                        for i in 0..resp.allocated_count {
                            let c = &*resp.allocated.add(i);
                            containers.push((c.id, c.node));
                        }
                        handed_out += resp.allocated_count;
                        for i in 0..resp.completed_count {
                            let id = (*resp.completed.add(i)).container;
                            containers.retain(|&(c, _)| c != id);
                        }
                        capsched_allocate_response_free(r);
                    }
                    &[
                        CAPSCHED_OK,
                        CAPSCHED_ERR_UNKNOWN_ID,
                        CAPSCHED_ERR_REFUSED,
                        CAPSCHED_ERR_INVALID_ARGUMENT,
                    ]
                }
                65..=69 => {
                    what = "app remove";
                    let app = pick(&apps, &f.apps, &mut rng);
                    st = capsched_app_remove(e, app);
                    if st == CAPSCHED_OK {
                        apps.retain(|&a| a != app);
                        gone.push(app);
                    }
                    &[CAPSCHED_OK, CAPSCHED_ERR_UNKNOWN_ID]
                }
                70..=72 => {
                    what = "move";
                    let app = pick(&apps, &f.apps, &mut rng);
                    st = capsched_app_move(e, app, s(["a", "b", "nope"][rng.below(3) as usize]));
                    &[CAPSCHED_OK, CAPSCHED_ERR_UNKNOWN_ID, CAPSCHED_ERR_REFUSED]
                }
                73..=75 => {
                    what = "priority";
                    let app = pick(&apps, &f.apps, &mut rng);
                    st = capsched_app_set_priority(
                        e,
                        app,
                        rng.below(20) as i32 - 5,
                        ptr::null_mut(),
                    );
                    &[
                        CAPSCHED_OK,
                        CAPSCHED_ERR_UNKNOWN_ID,
                        CAPSCHED_ERR_INVALID_ARGUMENT,
                        CAPSCHED_ERR_REFUSED,
                    ]
                }
                76..=78 => {
                    what = "container expired";
                    let c = match containers.get(rng.below(containers.len().max(1) as u64) as usize)
                    {
                        Some(&(c, _)) if !rng.chance(20) => c,
                        _ => pick(&[], &f.containers, &mut rng),
                    };
                    st = capsched_container_expired(e, c);
                    &[CAPSCHED_OK, CAPSCHED_ERR_UNKNOWN_ID, CAPSCHED_ERR_REFUSED]
                }
                79..=80 => {
                    what = "refresh";
                    let text = if rng.chance(50) {
                        config(10 * (1 + rng.below(9) as u32))
                    } else {
                        xml(&[("yarn.scheduler.capacity.root.queues", "a")])
                    };
                    let mut c = ptr::null_mut();
                    st = match capsched_config_from_xml(s(&text), &mut c) {
                        CAPSCHED_OK => {
                            let r = capsched_engine_refresh_queues(e, c);
                            capsched_config_free(c);
                            r
                        }
                        other => other,
                    };
                    &[CAPSCHED_OK, CAPSCHED_ERR_CONFIG, CAPSCHED_ERR_REFUSED]
                }
                81..=82 => {
                    what = "node resize";
                    let id = pick(&nodes, &f.nodes, &mut rng);
                    let size = capsched_resource {
                        memory_mb: 1024 * rng.below(16) as i64,
                        vcores: 1 + rng.below(8) as i64,
                    };
                    let timeout = [-1, 0, 2_000][rng.below(3) as usize];
                    st = capsched_node_update_resource(e, id, size, timeout);
                    &[CAPSCHED_OK, CAPSCHED_ERR_UNKNOWN_ID]
                }
                83 => {
                    what = "decommission or recommission";
                    let id = pick(&nodes, &f.nodes, &mut rng);
                    st = if rng.chance(30) {
                        capsched_node_recommission(e, id)
                    } else {
                        capsched_node_decommission(e, id, [-1, 0, 5_000][rng.below(3) as usize])
                    };
                    &[CAPSCHED_OK, CAPSCHED_ERR_UNKNOWN_ID]
                }
                84 => {
                    what = "container kill";
                    let c = match containers.get(rng.below(containers.len().max(1) as u64) as usize)
                    {
                        Some(&(c, _)) if !rng.chance(20) => c,
                        _ => pick(&[], &f.containers, &mut rng),
                    };
                    st = capsched_container_kill(e, c, -106, s("killed by the RM"));
                    &[CAPSCHED_OK, CAPSCHED_ERR_UNKNOWN_ID]
                }
                85 => {
                    what = "check access";
                    let queue = ["a", "root.b", "root.b.none", "nope", ""][rng.below(5) as usize];
                    let mut allowed = 0;
                    st = capsched_check_access(
                        e,
                        s("u"),
                        ptr::null(),
                        0,
                        rng.below(3) as i32,
                        s(queue),
                        &mut allowed,
                    );
                    &[CAPSCHED_OK, CAPSCHED_ERR_INVALID_ARGUMENT]
                }
                89..=90 => {
                    what = "app report, YARN id round trip";
                    let app = pick(&apps, &f.apps, &mut rng);
                    let mut r: capsched_app_report = std::mem::zeroed();
                    st = capsched_app_report_get(e, app, &mut r);
                    if st == CAPSCHED_OK {
                        // The report's YARN id formats, parses back and finds the same app.
                        let mut text = capsched_owned_str::default();
                        assert_eq!(capsched_yarn_id_format(&r.yarn_id, &mut text), CAPSCHED_OK);
                        let mut parsed = capsched_yarn_id::default();
                        let view = capsched_str {
                            ptr: text.ptr,
                            len: text.len,
                        };
                        assert_eq!(capsched_yarn_id_parse(view, &mut parsed), CAPSCHED_OK);
                        assert_eq!(parsed, r.yarn_id, "seed {seed}, step {step}");
                        let mut found = 0;
                        assert_eq!(capsched_app_find(e, &parsed, &mut found), CAPSCHED_OK);
                        assert_eq!(found, app, "seed {seed}, step {step}");
                        capsched_string_free(text);
                        capsched_app_report_free(&mut r);
                    }
                    &[CAPSCHED_OK, CAPSCHED_ERR_UNKNOWN_ID]
                }
                91 => {
                    what = "container report or AM container take";
                    let mut info = capsched_container_info::default();
                    if rng.chance(50) {
                        let c = match containers
                            .get(rng.below(containers.len().max(1) as u64) as usize)
                        {
                            Some(&(c, _)) if !rng.chance(20) => c,
                            _ => pick(&[], &f.containers, &mut rng),
                        };
                        st = capsched_container_get(e, c, &mut info);
                        if st == CAPSCHED_OK {
                            assert_eq!(info.id, c);
                        }
                    } else {
                        let app = pick(&apps, &f.apps, &mut rng);
                        let mut found = 0;
                        st = capsched_am_container_take(e, app, &mut info, &mut found);
                        if st == CAPSCHED_OK && found == 1 {
                            assert!(info.is_am == 1 && info.app == app);
                        }
                    }
                    &[CAPSCHED_OK, CAPSCHED_ERR_UNKNOWN_ID]
                }
                92..=94 => {
                    what = "node labels";
                    let names = ["x", "y", "nope", "-bad"];
                    let name = names[rng.below(names.len() as u64) as usize];
                    st = match rng.below(3) {
                        0 => {
                            let l = [capsched_node_label {
                                name: s(name),
                                exclusive: i32::from(name != "y" || rng.chance(10)),
                            }];
                            capsched_node_labels_add(e, l.as_ptr(), 1)
                        }
                        1 => capsched_node_labels_remove(e, [s(name)].as_ptr(), 1),
                        _ => {
                            // A host or one NodeManager, registered or not.
                            let node = format!(
                                "h{}{}",
                                rng.below(12),
                                if rng.chance(30) { ":0" } else { "" }
                            );
                            let to = ["", "x", "y", "nope"][rng.below(4) as usize];
                            let m = [capsched_node_label_mapping {
                                node: s(&node),
                                label: s(to),
                            }];
                            let st = capsched_node_labels_replace(e, m.as_ptr(), 1);
                            if st == CAPSCHED_OK && !to.is_empty() {
                                relabelled += 1;
                            }
                            st
                        }
                    };
                    &[CAPSCHED_OK, CAPSCHED_ERR_REFUSED]
                }
                86..=88 => {
                    what = "tick";
                    st = capsched_engine_tick(e, now, ptr::null_mut());
                    &[CAPSCHED_OK]
                }
                _ => {
                    what = "poll events";
                    let mut buf: [capsched_event; 8] = std::mem::zeroed();
                    let mut n = 0;
                    st = capsched_poll_events(
                        e,
                        buf.as_mut_ptr(),
                        buf.len(),
                        &mut n,
                        ptr::null_mut(),
                    );
                    &[CAPSCHED_OK]
                }
            };
            if st != CAPSCHED_OK {
                failed += 1;
            }
            assert!(
                allowed.contains(&st),
                "seed {seed}, step {step} ({what}): status {st:?}: {}",
                last_error()
            );
            if alien {
                foreign_calls += 1;
                // Another argument of the call may be refused first, as an id of another
                // kind (docs/C-API.md, "Ids").
                assert!(
                    st == CAPSCHED_ERR_UNKNOWN_ID
                        && (last_error().contains("was not issued by this engine")
                            || last_error().contains(" id, not ")),
                    "seed {seed}, step {step} ({what}) with another engine's id: {st:?}: {}",
                    last_error()
                );
            }
            assert_eq!(
                capsched_engine_check_invariants(e),
                CAPSCHED_OK,
                "seed {seed}, step {step} ({what}): {}",
                last_error()
            );
        }
        capsched_engine_free(e);
        assert_eq!(
            engine_state(other),
            other_before,
            "seed {seed}: the other engine changed"
        );
        capsched_engine_free(other);
    }
    (handed_out, failed, foreign_calls, relabelled)
}

#[test]
fn random_calls_through_the_c_abi_keep_every_invariant() {
    let seeds: Vec<u64> = match std::env::var("CAPSCHED_SEED") {
        Ok(s) => vec![s.parse().expect("CAPSCHED_SEED is a number")],
        Err(_) => (0..12).collect(),
    };
    let (mut handed_out, mut failed, mut foreign, mut relabelled) = (0, 0, 0, 0);
    for seed in seeds {
        let (h, f, x, l) = run(seed, 600);
        handed_out += h;
        failed += f;
        foreign += x;
        relabelled += l;
    }
    eprintln!(
        "{handed_out} containers handed out, {failed} calls refused, {foreign} given another engine's id, {relabelled} nodes labelled"
    );
    assert!(
        handed_out > 100 && failed > 100 && foreign > 100 && relabelled > 10,
        "{handed_out} handed out, {failed} refused, {foreign} with another engine's id, {relabelled} labelled"
    );
}
