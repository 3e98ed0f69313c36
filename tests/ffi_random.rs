//! Seeded random call sequences through the C ABI, as a careless C host would make them: valid
//! and stale ids, ids never issued, unknown queues, asks of odd sizes, releases of other apps'
//! containers, completions of containers on the wrong node, refreshes with valid and invalid
//! XML. Every call must return one of its documented statuses (never a panic or a failed
//! engine), and `capsched_engine_check_invariants` must pass after every step. A failure prints
//! its seed and step; `CAPSCHED_SEED=<seed>` replays one.

mod common;

use std::ptr;

use capsched::ffi::capsched_status::*;
use capsched::ffi::*;
use common::ffi::{last_error, s};
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
        ("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5"),
        ("yarn.resourcemanager.scheduler.monitor.enable", "true"),
        (
            "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled",
            "true",
        ),
    ])
}

/// One random run of `steps` calls; panics with the seed and step on a broken rule. Returns
/// how many containers were handed out and how many calls failed, so the caller can see the
/// run exercised both sides.
fn run(seed: u64, steps: usize) -> (usize, usize) {
    let (mut handed_out, mut failed) = (0, 0);
    let mut rng = SplitMix(seed);
    unsafe {
        let mut cfg = ptr::null_mut();
        assert_eq!(
            capsched_config_from_xml(s(&config(50)), &mut cfg),
            CAPSCHED_OK
        );
        let mut opts = std::mem::zeroed();
        assert_eq!(capsched_engine_options_default(&mut opts), CAPSCHED_OK);
        opts.mode = CAPSCHED_MODE_MANUAL;
        opts.preemption = 1;
        opts.manual_clock = 1;
        opts.clock_start_ms = 0;
        let mut e = ptr::null_mut();
        assert_eq!(capsched_engine_new(cfg, &opts, &mut e), CAPSCHED_OK);
        capsched_config_free(cfg);

        let mut now: i64 = 0;
        let mut nodes: Vec<u64> = Vec::new();
        let mut apps: Vec<u64> = Vec::new();
        let mut gone: Vec<u64> = Vec::new(); // ids that were valid once
        let mut containers: Vec<(u64, u64)> = Vec::new(); // (container, node)
        let mut response_ids: std::collections::HashMap<u64, i32> = Default::default();
        let mut host = 0;
        for step in 0..steps {
            now += 250;
            let what;
            let st: capsched_status;
            // A valid id, a stale one, or one never issued.
            let pick = |ids: &[u64], rng: &mut SplitMix| -> u64 {
                match rng.below(10) {
                    0 if !gone.is_empty() => gone[rng.below(gone.len() as u64) as usize],
                    1 => rng.next() | 1,
                    _ if !ids.is_empty() => ids[rng.below(ids.len() as u64) as usize],
                    _ => rng.next(),
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
                    let id = pick(&nodes, &mut rng);
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
                    let id = pick(&nodes, &mut rng);
                    // Finish some containers, some of them on the wrong node or unknown.
                    let mut done = Vec::new();
                    for _ in 0..rng.below(3) {
                        if let Some(&(c, _)) =
                            containers.get(rng.below(containers.len().max(1) as u64) as usize)
                        {
                            done.push(capsched_completed_container {
                                container: c,
                                exit_status: 0,
                                diagnostics: s(""),
                            });
                        } else {
                            done.push(capsched_completed_container {
                                container: rng.next(),
                                exit_status: 0,
                                diagnostics: s(""),
                            });
                        }
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
                        s(["u1", "u2"][rng.below(2) as usize]),
                        rng.below(6) as i32,
                        &mut app,
                    );
                    if st == CAPSCHED_OK {
                        let unmanaged = rng.below(2) as i32;
                        let am = capsched_resource {
                            memory_mb: 1024,
                            vcores: 1,
                        };
                        if capsched_attempt_add(e, app, am, unmanaged, 0) == CAPSCHED_OK {
                            apps.push(app);
                        }
                    }
                    &[CAPSCHED_OK, CAPSCHED_ERR_REJECTED]
                }
                40..=64 => {
                    what = "allocate";
                    let app = pick(&apps, &mut rng);
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
                            containers
                                .get(rng.below(containers.len().max(1) as u64) as usize)
                                .map_or(rng.next(), |c| c.0)
                        })
                        .collect();
                    let mut req: capsched_allocate_request = std::mem::zeroed();
                    req.struct_size = std::mem::size_of::<capsched_allocate_request>() as u32;
                    req.response_id = *response_ids.get(&app).unwrap_or(&0);
                    req.asks = &ask;
                    req.ask_count = 1;
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
                    let app = pick(&apps, &mut rng);
                    st = capsched_app_remove(e, app);
                    if st == CAPSCHED_OK {
                        apps.retain(|&a| a != app);
                        gone.push(app);
                    }
                    &[CAPSCHED_OK, CAPSCHED_ERR_UNKNOWN_ID]
                }
                70..=72 => {
                    what = "move";
                    let app = pick(&apps, &mut rng);
                    st = capsched_app_move(e, app, s(["a", "b", "nope"][rng.below(3) as usize]));
                    &[CAPSCHED_OK, CAPSCHED_ERR_UNKNOWN_ID, CAPSCHED_ERR_REFUSED]
                }
                73..=75 => {
                    what = "priority";
                    let app = pick(&apps, &mut rng);
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
                    let c = containers
                        .get(rng.below(containers.len().max(1) as u64) as usize)
                        .map_or(rng.next(), |c| c.0);
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
                81..=88 => {
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
            assert_eq!(
                capsched_engine_check_invariants(e),
                CAPSCHED_OK,
                "seed {seed}, step {step} ({what}): {}",
                last_error()
            );
        }
        capsched_engine_free(e);
    }
    (handed_out, failed)
}

#[test]
fn random_calls_through_the_c_abi_keep_every_invariant() {
    let seeds: Vec<u64> = match std::env::var("CAPSCHED_SEED") {
        Ok(s) => vec![s.parse().expect("CAPSCHED_SEED is a number")],
        Err(_) => (0..12).collect(),
    };
    let (mut handed_out, mut failed) = (0, 0);
    for seed in seeds {
        let (h, f) = run(seed, 600);
        handed_out += h;
        failed += f;
    }
    eprintln!("{handed_out} containers handed out, {failed} calls refused");
    assert!(
        handed_out > 100 && failed > 100,
        "{handed_out} handed out, {failed} refused"
    );
}
