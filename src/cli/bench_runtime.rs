//! Benchmarks of the runtime: allocation throughput of the engine's asynchronous pass (the
//! workloads of `bench alloc`, YARN 3.3.6's async figures to compare), and the cost of one host
//! call through the engine (submit, allocate, node update) with 1 and 8 host threads, against
//! the same call made directly on the core. Printed, never asserted.

use std::time::Instant;

use serde_json::json;

use super::bench_cluster::{add_nodes, equal_queues_conf, submit_unmanaged, GB};
use capsched::records::{AllocateRequest, NodeStatus, ResourceRequest};
use capsched::resource::Resource;
use capsched::runtime::clock::{ManualClock, SystemClock};
use capsched::runtime::{Engine, EngineOptions, Mode};
use capsched::scheduler::apps::AppSubmission;
use capsched::scheduler::CapacityScheduler;
use capsched::sync::Arc;

/// `bench alloc --mode async`: the same nodes, queues and asks as the synchronous bench, set
/// up inside the engine; then the host asks for ticks (each one asynchronous pass over every
/// node from a random start, one attempt per node) until everything is allocated. The clock
/// is frozen so no node ever looks silent.
pub fn alloc_async(
    nodes: usize,
    apps: usize,
    queues: usize,
    containers: usize,
    offswitch: usize,
    json: bool,
) {
    let conf = equal_queues_conf(queues, offswitch, "");
    let mut opts = EngineOptions::new(Mode::Threaded, Arc::new(ManualClock::new(0)));
    opts.async_scheduling = Some(true);
    opts.preemption = Some(false);
    opts.seed = 42;
    let engine = Engine::start(conf, opts);
    let per_node = (containers / nodes + 2) as i64 * 2;
    let per_app = containers / apps;
    let target = per_app * apps;
    engine
        .with_core(move |c, _| {
            add_nodes(&mut c.cs, nodes, per_node, 40);
            for i in 0..apps {
                let app =
                    submit_unmanaged(&mut c.cs, &format!("q{}", i % queues), &format!("user{i}"));
                let req = AllocateRequest {
                    asks: vec![ResourceRequest::any(
                        1,
                        Resource::new(GB, 1),
                        per_app as i32,
                    )],
                    ..Default::default()
                };
                c.cs.allocate(0, app, &req).expect("asks");
            }
        })
        .expect("setup");
    let allocated = |e: &Engine| {
        e.read_core(|c, _| c.cs.num_containers())
            .expect("engine alive")
    };
    let started = Instant::now();
    let mut ticks = 0usize;
    let mut done = 0usize;
    while done < target {
        for _ in 0..8 {
            engine.tick().expect("tick");
            ticks += 1;
        }
        let before = done;
        done = allocated(&engine);
        if done == before && ticks > 10 * (target / nodes + 10) {
            eprintln!("bench alloc --mode async: stalled at {done} of {target}");
            break;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let rate = done as f64 / secs;
    if let Ok(Err(v)) = engine.check_invariants() {
        eprintln!(
            "bench alloc --mode async: invariants violated: {}",
            v.join("; ")
        );
    }
    engine.stop();
    if json {
        println!(
            "{}",
            json!({"bench": "alloc", "mode": "async", "nodes": nodes, "apps": apps, "queues": queues,
                   "containers": done, "ticks": ticks, "seconds": secs, "containers_per_sec": rate})
        );
    } else {
        println!("bench alloc (async, through the engine): {nodes} nodes, {apps} apps, {queues} queues, {done} containers");
        println!("  passes requested    {ticks}");
        println!("  elapsed             {secs:.3} s");
        println!("  containers/s        {rate:.0}");
    }
}

fn percentiles(mut v: Vec<u64>) -> (f64, f64) {
    v.sort_unstable();
    let at = |p: f64| v[((p * v.len() as f64) as usize).min(v.len() - 1)] as f64 / 1000.0;
    (at(0.50), at(0.99))
}

/// `bench calls`: p50/p99 latency (µs) of submit, allocate and node update through a threaded
/// engine, from 1 and from 8 host threads, and the same calls made directly on the core.
pub fn calls(n: usize, json: bool) {
    let conf = equal_queues_conf(4, 100, "");
    let mut rows = Vec::new();

    // Directly on the core, one thread.
    {
        let mut cs = CapacityScheduler::new(conf.clone(), 1, 42);
        let nodes = add_nodes(&mut cs, 64, 64, 4);
        let mut submit = Vec::with_capacity(n);
        let mut apps = Vec::with_capacity(n);
        for i in 0..n {
            let t = Instant::now();
            apps.push(
                cs.submit_application(0, &AppSubmission::new(&format!("q{}", i % 4), "u"))
                    .expect("accepted"),
            );
            submit.push(t.elapsed().as_nanos() as u64);
        }
        let mut alloc = Vec::with_capacity(n);
        let mut update = Vec::with_capacity(n);
        for i in 0..n {
            let app = submit_unmanaged(&mut cs, &format!("q{}", i % 4), "v");
            let t = Instant::now();
            cs.allocate(0, app, &AllocateRequest::default())
                .expect("allocate");
            alloc.push(t.elapsed().as_nanos() as u64);
            let t = Instant::now();
            cs.node_update(0, nodes[i % nodes.len()], &NodeStatus::default())
                .expect("update");
            update.push(t.elapsed().as_nanos() as u64);
        }
        rows.push((
            "direct (core)",
            1,
            percentiles(submit),
            percentiles(alloc),
            percentiles(update),
        ));
    }

    for threads in [1usize, 8] {
        let mut opts = EngineOptions::new(Mode::Threaded, Arc::new(SystemClock::new()));
        opts.async_scheduling = Some(false);
        opts.preemption = Some(false);
        let engine = Arc::new(Engine::start(conf.clone(), opts));
        let nodes = engine
            .with_core(|c, _| add_nodes(&mut c.cs, 64, 64, 4))
            .expect("setup");
        let per = n / threads;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let engine = engine.clone();
                let nodes = nodes.clone();
                std::thread::spawn(move || {
                    let (mut s, mut a, mut u) = (Vec::new(), Vec::new(), Vec::new());
                    for i in 0..per {
                        let q = format!("q{}", (i + t) % 4);
                        let t0 = Instant::now();
                        let app = engine
                            .submit(AppSubmission::new(&q, "u"))
                            .expect("alive")
                            .expect("accepted");
                        s.push(t0.elapsed().as_nanos() as u64);
                        engine
                            .add_attempt(
                                app,
                                capsched::scheduler::apps::AttemptSubmission {
                                    unmanaged: true,
                                    ..capsched::scheduler::apps::AttemptSubmission::with_am(
                                        Resource::new(GB, 1),
                                    )
                                },
                            )
                            .expect("attempt");
                        let t0 = Instant::now();
                        let _ = engine.allocate(app, AllocateRequest::default());
                        a.push(t0.elapsed().as_nanos() as u64);
                        let t0 = Instant::now();
                        engine
                            .node_update(nodes[(i * 8 + t) % nodes.len()], NodeStatus::default())
                            .expect("update");
                        u.push(t0.elapsed().as_nanos() as u64);
                    }
                    (s, a, u)
                })
            })
            .collect();
        let (mut s, mut a, mut u) = (Vec::new(), Vec::new(), Vec::new());
        for h in handles {
            let (s1, a1, u1) = h.join().expect("host thread");
            s.extend(s1);
            a.extend(a1);
            u.extend(u1);
        }
        engine.stop();
        rows.push((
            "through the engine",
            threads,
            percentiles(s),
            percentiles(a),
            percentiles(u),
        ));
    }

    if json {
        let v: Vec<_> = rows
            .iter()
            .map(|(how, threads, s, a, u)| {
                json!({"how": how, "host_threads": threads,
                       "submit_us": {"p50": s.0, "p99": s.1},
                       "allocate_us": {"p50": a.0, "p99": a.1},
                       "node_update_us": {"p50": u.0, "p99": u.1}})
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&v).expect("plain JSON"));
    } else {
        println!("host call latency, µs (p50 / p99), {n} calls of each kind");
        println!(
            "{:<22} {:>7} {:>17} {:>17} {:>17}",
            "", "threads", "submit", "allocate", "node update"
        );
        for (how, threads, s, a, u) in rows {
            println!(
                "{how:<22} {threads:>7} {:>8.1} / {:<7.1} {:>8.1} / {:<7.1} {:>8.1} / {:<7.1}",
                s.0, s.1, a.0, a.1, u.0, u.1
            );
        }
    }
}
