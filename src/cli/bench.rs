//! `capsched bench …`: the workloads YARN 3.3.6's CapacityScheduler was measured with on a
//! machine like ours (docs/PERFORMANCE.md), so the figures compare directly. Numbers are
//! printed, never asserted: timing belongs to benchmarks, not tests.

use capsched::sync::Arc;
use std::time::Instant;

use clap::Subcommand;
use serde_json::json;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::ids::{AppId, ContainerId, NodeId};
use capsched::records::{
    AllocateRequest, CompletedContainer, ContainerReport, NodeStatus, NodeUpdateResponse,
    ResourceRequest, SchedulerKey,
};
use capsched::resource::Resource;
use capsched::scheduler::apps::AppSubmission;
use capsched::scheduler::nodes::NodeSpec;
use capsched::scheduler::CapacityScheduler;

use super::bench_cluster::{
    add_nodes, equal_queues_conf, submit_unmanaged, submit_unmanaged_at, GB,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AllocMode {
    Sync,
    Async,
}

#[derive(Subcommand)]
pub enum Bench {
    /// Containers allocated per second: Q equal queues, A apps, C containers of 1 GB / 1 vcore
    /// at `*`, node updates looped over all nodes until everything is allocated.
    Alloc {
        #[arg(long, default_value_t = 1000)]
        nodes: usize,
        #[arg(long, default_value_t = 100)]
        apps: usize,
        #[arg(long, default_value_t = 10)]
        queues: usize,
        #[arg(long, default_value_t = 20000)]
        containers: usize,
        /// Off-switch assignments per node heartbeat (YARN's default is 1; the reference run used 100).
        #[arg(long, default_value_t = 100)]
        offswitch: usize,
        /// `sync`: node heartbeats allocate (the core alone); `async`: the engine's asynchronous
        /// pass, through the runtime.
        #[arg(long, value_enum, default_value = "sync")]
        mode: AllocMode,
        #[arg(long)]
        json: bool,
    },
    /// The cost of one host call (submit, allocate, node update) through the engine, p50/p99,
    /// from 1 and 8 host threads, against the same call made directly on the core.
    Calls {
        #[arg(long, default_value_t = 20_000)]
        calls: usize,
        #[arg(long)]
        json: bool,
    },
    /// Node updates per second that find nothing to allocate: 1 queue, 101 apps each at its
    /// user limit, 2 nodes. With `--churn`, each update instead reports one of the node's
    /// containers completed and the one allocated there by its previous update launched, and
    /// allocates one in its place (to the user whose completion put it within its limit); the
    /// AMs take their containers between timed runs of 1,000 updates.
    Heartbeat {
        #[arg(long, default_value_t = 2_000_000)]
        updates: usize,
        #[arg(long)]
        churn: bool,
        #[arg(long)]
        json: bool,
    },
    /// The simulator at scale: a synthetic MapReduce trace of `jobs` jobs and `containers` task
    /// containers (10–60 s each) on `nodes` SLS-default nodes, on the built-in queues.
    Simulate {
        #[arg(long, default_value_t = 10_000)]
        nodes: usize,
        #[arg(long, default_value_t = 100_000)]
        containers: usize,
        #[arg(long, default_value_t = 1_000)]
        jobs: usize,
        /// Write the workload as an SLS trace and nodes file (DIR/trace.json, DIR/nodes.json)
        /// for `capsched simulate`, instead of running it.
        #[arg(long, value_name = "DIR")]
        write_sls: Option<std::path::PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// One ProportionalCapacityPreemptionPolicy round (snapshot, ideal assignment, selection)
    /// on a full cluster: odd-numbered queues hold about twice their guarantee, queue 0 asks
    /// for one and a half times its guarantee. Median of `rounds` rounds.
    Preemption {
        #[arg(long, default_value_t = 1000)]
        nodes: usize,
        #[arg(long, default_value_t = 28_000)]
        containers: usize,
        #[arg(long, default_value_t = 10)]
        queues: usize,
        #[arg(long, default_value_t = 100)]
        apps: usize,
        #[arg(long, default_value_t = 20)]
        rounds: usize,
        /// Rounds run first and not counted (caches and allocator warm, as a JVM's JIT is).
        #[arg(long, default_value_t = 5)]
        warmup: usize,
        /// Intra-queue preemption on (`priority_first`), and the asking app is a priority-10
        /// app in q1, among that queue's fillers, instead of an app in q0.
        #[arg(long)]
        intra_queue: bool,
        #[arg(long)]
        json: bool,
    },
    /// Opportunistic containers' gain on a built-in workload (simulated time): every map
    /// guaranteed, half opportunistic under YARN's behaviour and under capsched's, all
    /// opportunistic, and guaranteed under YARN's default per-heartbeat cap; throughput, job
    /// times split by opportunistic use, NodeManager queueing and kills, and the charts.
    Opportunistic {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_enum, default_value = "short-tasks")]
        workload: super::bench_opportunistic::Workload,
        /// Write opportunistic-utilization.svg, opportunistic-tasks.svg and
        /// opportunistic-job-times.svg here.
        #[arg(long)]
        charts: Option<std::path::PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Bytes per node, per running container and per pending ask (RSS deltas).
    Memory {
        #[arg(long, default_value_t = 50_000)]
        nodes: usize,
        #[arg(long, default_value_t = 1_000_000)]
        containers: usize,
        #[arg(long, default_value_t = 1_000_000)]
        asks: usize,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(bench: Bench) -> std::process::ExitCode {
    match bench {
        Bench::Opportunistic {
            seed,
            workload,
            charts,
            json,
        } => return super::bench_opportunistic::run(seed, workload, charts, json),
        Bench::Alloc {
            nodes,
            apps,
            queues,
            containers,
            offswitch,
            mode: AllocMode::Sync,
            json,
        } => alloc(nodes, apps, queues, containers, offswitch, json),
        Bench::Alloc {
            nodes,
            apps,
            queues,
            containers,
            offswitch,
            mode: AllocMode::Async,
            json,
        } => super::bench_runtime::alloc_async(nodes, apps, queues, containers, offswitch, json),
        Bench::Calls { calls, json } => super::bench_runtime::calls(calls, json),
        Bench::Heartbeat {
            updates,
            churn,
            json,
        } => heartbeat(updates, churn, json),
        Bench::Preemption {
            nodes,
            containers,
            queues,
            apps,
            rounds,
            warmup,
            intra_queue,
            json,
        } => preemption(
            nodes,
            containers,
            queues,
            apps,
            rounds,
            warmup,
            intra_queue,
            json,
        ),
        Bench::Memory {
            nodes,
            containers,
            asks,
            json,
        } => memory(nodes, containers, asks, json),
        Bench::Simulate {
            nodes,
            containers,
            jobs,
            write_sls,
            json,
        } => {
            return super::bench_simulate::run(nodes, containers, jobs, write_sls.as_deref(), json)
        }
    }
    std::process::ExitCode::SUCCESS
}

fn alloc(
    nodes: usize,
    apps: usize,
    queues: usize,
    containers: usize,
    offswitch: usize,
    json: bool,
) {
    let conf = equal_queues_conf(queues, offswitch, "");
    let mut cs = CapacityScheduler::new(conf, 1, 42);
    // Nodes big enough that everything fits, with room to spare.
    let per_node = (containers / nodes + 2) as i64 * 2;
    let node_ids = add_nodes(&mut cs, nodes, per_node, 40);
    let per_app = containers / apps;
    let mut app_ids = Vec::with_capacity(apps);
    for i in 0..apps {
        let app = submit_unmanaged(&mut cs, &format!("q{}", i % queues), &format!("user{i}"));
        let req = AllocateRequest {
            asks: vec![ResourceRequest::any(
                1,
                Resource::new(GB, 1),
                per_app as i32,
            )],
            ..Default::default()
        };
        cs.allocate(0, app, &req).expect("asks");
        app_ids.push(app);
    }
    let target = per_app * apps;
    let started = Instant::now();
    let (mut allocated, mut updates, mut now) = (0usize, 0usize, 0i64);
    let status = NodeStatus::default();
    // One response for every heartbeat, as a host's loop keeps it (`node_update_into`).
    let mut response = NodeUpdateResponse::default();
    while allocated < target {
        let before = allocated;
        for &n in &node_ids {
            now += 1;
            cs.node_update_into(now, n, &status, &mut response)
                .expect("node update");
            allocated += response.allocated as usize;
            updates += 1;
            if allocated >= target {
                break;
            }
        }
        if allocated == before {
            eprintln!("bench alloc: stalled at {allocated} of {target} containers");
            break;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let rate = allocated as f64 / secs;
    if let Err(v) = cs.check_invariants() {
        eprintln!("bench alloc: invariants violated: {}", v.join("; "));
    }
    if json {
        println!(
            "{}",
            json!({"bench": "alloc", "mode": "sync", "nodes": nodes, "apps": apps, "queues": queues,
                   "containers": allocated, "offswitch_per_heartbeat": offswitch, "node_updates": updates,
                   "seconds": secs, "containers_per_sec": rate})
        );
    } else {
        println!("bench alloc (sync): {nodes} nodes, {apps} apps, {queues} queues, {allocated} containers");
        println!("  node updates        {updates}");
        println!("  elapsed             {:.3} s", secs);
        println!("  containers/s        {:.0}", rate);
    }
}

fn heartbeat(updates: usize, churn: bool, json: bool) {
    // Two 200 GB nodes; ULF 0.005 caps every user at <2048 MB, 1 vcore>: 0.5 % of <400 GB, 400>
    // rounded down (the factor is a Java float: 400 × 0.005f is just under 2, so 1 vcore), then
    // up to the minimum allocation. Each user holds 3 GB / 3 vcores and asks for more, and the
    // nodes have ~97 GB free, so every update walks all 101 applications' user-limit checks
    // and allocates nothing.
    let conf = Arc::new(
        CapacitySchedulerConfiguration::from_properties_str(
            "yarn.scheduler.capacity.root.queues=default\n\
             yarn.scheduler.capacity.root.default.capacity=100\n\
             yarn.scheduler.capacity.root.default.user-limit-factor=0.005\n\
             yarn.scheduler.capacity.maximum-am-resource-percent=1\n\
             yarn.scheduler.capacity.resource-calculator=org.apache.hadoop.yarn.util.resource.DominantResourceCalculator\n",
        )
        .expect("bench configuration"),
    );
    let mut cs = CapacityScheduler::new(conf, 1, 42);
    let apps: Vec<AppId> = (0..101)
        .map(|i| submit_unmanaged(&mut cs, "default", &format!("user{i}")))
        .collect();
    // Each app's 3 GB arrives as recovered containers on the two nodes.
    let mut reports: [Vec<ContainerReport>; 2] = [Vec::new(), Vec::new()];
    for (i, &app) in apps.iter().enumerate() {
        for seq in 0..3 {
            reports[(i + seq as usize) % 2].push(ContainerReport {
                app,
                resource: Resource::new(GB, 1),
                key: SchedulerKey::new(1),
                container_id: seq + 1,
                is_am: false,
            });
        }
    }
    let node_ids: Vec<NodeId> = (0..2)
        .map(|i| {
            let mut spec =
                NodeSpec::new(&format!("node{i}"), "/rack0", Resource::new(200 * GB, 200));
            spec.containers = std::mem::take(&mut reports[i]);
            cs.add_node(0, &spec).expect("node")
        })
        .collect();
    let mut response_ids = Vec::with_capacity(apps.len());
    for &app in &apps {
        let req = AllocateRequest {
            // Enough asks that churn never runs out of them.
            asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), 1_000_000_000)],
            ..Default::default()
        };
        response_ids.push(cs.allocate(0, app, &req).expect("asks").response_id);
    }
    // The workload must reach the leaf: room on both nodes, demand in the queue, users blocked.
    for &n in &node_ids {
        let free = cs.node(n).expect("node").unallocated();
        assert!(
            free.memory_mb() >= GB,
            "bench heartbeat: node has no room ({free})"
        );
    }
    assert!(!cs.queue_pending(1).is_zero(), "bench heartbeat: no demand");
    assert!(
        cs.user_limit(1, "user0")
            .is_some_and(|l| l.memory_mb() < 3 * GB),
        "bench heartbeat: users are not at their limit"
    );
    // Churn: each update completes the oldest container the node runs. A user's first completion
    // leaves it at 2 GB / 2 vcores, still over its limit (1 vcore): nothing is allocated. After
    // that each completion takes a user to 1 container, within its limit, and the scheduler
    // gives it one back: the first application in FIFO order whose user has room.
    let mut running: [std::collections::VecDeque<ContainerId>; 2] = Default::default();
    if churn {
        for (i, &n) in node_ids.iter().enumerate() {
            running[i] = cs
                .node(n)
                .expect("node")
                .containers
                .iter()
                .copied()
                .collect();
        }
    }
    // As YARN's side does (`scripts/yarn-bench churn`): each update's report also has the
    // containers the node's previous update allocated, now launched, and the AMs take their
    // new containers and hear of the finished ones outside the timing, here between timed
    // runs of `AM_EVERY` updates (YARN's harness does it after each update). Without the AMs,
    // the lists the scheduler keeps for them would grow for the whole run, and with them the
    // process: page faults YARN's loop does not have.
    const AM_EVERY: usize = 1000;
    let mut launched: [Vec<ContainerId>; 2] = Default::default();
    let mut status = NodeStatus::default();
    let mut r = NodeUpdateResponse::default();
    let mut timed = std::time::Duration::ZERO;
    let mut allocated = 0;
    for from in (0..updates).step_by(AM_EVERY) {
        let started = Instant::now();
        for i in from..updates.min(from + AM_EVERY) {
            let n = i % 2;
            if churn {
                status.completed.clear();
                status.completed.push(CompletedContainer {
                    id: running[n].pop_front().expect("the node runs containers"),
                    exit_status: 0,
                    diagnostics: String::new(),
                });
                std::mem::swap(&mut status.launched, &mut launched[n]);
                launched[n].clear();
            }
            cs.node_update_into(i as i64, node_ids[n], &status, &mut r)
                .expect("update");
            allocated += r.allocated;
            if churn {
                // (One at a time: `extend` through an iterator adapter cost this loop about
                // 50 instructions per update for its one container, harness work that YARN's
                // side keeps outside its timing.)
                for c in &r.allocated_containers {
                    running[n].push_back(c.id);
                    launched[n].push(c.id);
                }
            }
        }
        timed += started.elapsed();
        if churn {
            for (&app, id) in apps.iter().zip(&mut response_ids) {
                let req = AllocateRequest {
                    response_id: *id,
                    ..Default::default()
                };
                *id = cs
                    .allocate(updates.min(from + AM_EVERY) as i64, app, &req)
                    .expect("AM")
                    .response_id;
            }
        }
    }
    let secs = timed.as_secs_f64();
    let rate = updates as f64 / secs;
    if !churn && allocated != 0 {
        eprintln!("bench heartbeat: {allocated} containers were allocated; the workload is wrong");
    }
    // (Each user's first completion leaves it over its limit: 101 updates allocate nothing.)
    if churn && (allocated as usize) + apps.len() < updates {
        eprintln!(
            "bench heartbeat --churn: {allocated} containers allocated in {updates} updates; the workload is wrong"
        );
    }
    if let Err(v) = cs.check_invariants() {
        eprintln!("bench heartbeat: invariants violated: {}", v.join("; "));
    }
    if json {
        println!(
            "{}",
            json!({"bench": "heartbeat", "mode": "sync", "churn": churn, "apps": apps.len(), "nodes": 2,
                   "updates": updates, "allocated": allocated,
                   "seconds": secs, "updates_per_sec": rate, "micros_per_update": 1e6 / rate})
        );
    } else {
        println!(
            "bench heartbeat (sync): 1 queue, {} apps at their user limit, 2 nodes{}",
            apps.len(),
            if churn {
                ", one container completed and one allocated per update"
            } else {
                ""
            }
        );
        println!("  node updates        {updates}");
        println!("  elapsed             {:.3} s", secs);
        println!(
            "  updates/s           {:.0}  ({:.2} µs each)",
            rate,
            1e6 / rate
        );
    }
}

/// Resident set size of this process, bytes (Linux `/proc/self/statm`).
#[allow(clippy::too_many_arguments)]
fn preemption(
    nodes: usize,
    containers: usize,
    queues: usize,
    apps: usize,
    rounds: usize,
    warmup: usize,
    intra_queue: bool,
    json: bool,
) {
    use capsched::preempt::policy::PreemptionPolicy;
    let (queues, apps, nodes) = (queues.max(2), apps.max(2), nodes.max(1));
    let mut extra = "yarn.resourcemanager.scheduler.monitor.enable=true\n".to_string();
    if intra_queue {
        extra.push_str(
            "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled=true\n\
             yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.preemption-order-policy=priority_first\n\
             yarn.cluster.max-application-priority=10\n",
        );
    }
    let conf = equal_queues_conf(queues, 100_000, &extra);
    let settings = conf.preemption().clone();
    let mut cs = CapacityScheduler::new(conf, 1, 42);
    // Nodes that hold exactly `containers` 1 GB containers between them.
    let per_node = (containers / nodes).max(1) as i64;
    let node_ids = add_nodes(&mut cs, nodes, per_node, 40);
    // App 0 waits in queue 0; the rest spread over the odd-numbered queues and fill the cluster.
    let odd: Vec<usize> = (1..queues).step_by(2).collect();
    let fillers = apps - 1;
    let capacity = per_node as usize * nodes;
    let per_filler = capacity.div_ceil(fillers) as i32;
    for i in 0..fillers {
        let app = submit_unmanaged(
            &mut cs,
            &format!("q{}", odd[i % odd.len()]),
            &format!("user{i}"),
        );
        let req = AllocateRequest {
            asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), per_filler)],
            ..Default::default()
        };
        cs.allocate(0, app, &req).expect("asks");
    }
    let status = NodeStatus::default();
    let mut now = 0;
    loop {
        let mut allocated = 0;
        for &n in &node_ids {
            now += 1;
            allocated += cs.node_update(now, n, &status).expect("update").allocated;
        }
        if allocated == 0 {
            break;
        }
    }
    let running = cs.containers().count();
    let asker = if intra_queue {
        let sub = AppSubmission {
            priority: Some(10),
            ..AppSubmission::new("q1", "asker")
        };
        submit_unmanaged_at(&mut cs, sub)
    } else {
        submit_unmanaged(&mut cs, "q0", "asker")
    };
    let want = (capacity as f64 / queues as f64 * 1.5).ceil() as i32;
    let req = AllocateRequest {
        asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), want)],
        ..Default::default()
    };
    cs.allocate(now, asker, &req).expect("asks");

    let mut totals = Vec::with_capacity(rounds);
    let mut snapshots = Vec::with_capacity(rounds);
    let mut selected = 0;
    // One policy, as the monitor thread keeps (its buffers are reused from round to round), with
    // its marks forgotten before each round: every round selects and marks, as YARN's first does.
    let mut policy = PreemptionPolicy::new(settings.clone());
    for round in 0..warmup + rounds.max(1) {
        policy.forget_marks();
        let t = Instant::now();
        let snap = cs.preemption_snapshot();
        let s = t.elapsed().as_secs_f64() * 1e3;
        let events = policy.edit_schedule(&snap, now);
        let total = t.elapsed().as_secs_f64() * 1e3;
        drop(snap);
        selected = events.len();
        if round >= warmup {
            totals.push(total);
            snapshots.push(s);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (min, max) = (
        totals.iter().copied().fold(f64::INFINITY, f64::min),
        totals.iter().copied().fold(0.0, f64::max),
    );
    let median_ms = median(&mut totals);
    let snapshot_ms = median(&mut snapshots);
    if json {
        println!(
            "{}",
            json!({"bench": "preemption", "intra_queue": intra_queue, "nodes": nodes, "containers": running, "queues": queues,
                   "apps": apps, "rounds": rounds, "warmup_rounds": warmup, "median_ms": median_ms, "min_ms": min, "max_ms": max,
                   "snapshot_median_ms": snapshot_ms, "containers_selected": selected})
        );
    } else {
        println!(
            "bench preemption{}: {nodes} nodes, {running} running containers, {queues} queues, {apps} apps",
            if intra_queue { " (intra-queue)" } else { "" }
        );
        println!("  round median        {median_ms:.3} ms (min {min:.3}, max {max:.3})");
        println!("  of which snapshot   {snapshot_ms:.3} ms");
        println!("  containers selected {selected}");
    }
}

fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    pages * page
}

fn memory(nodes: usize, containers: usize, asks: usize, json: bool) {
    // "Everything on", as an operator runs it: the preemption monitor (the per-attempt
    // preemption view is kept either way), opportunistic container allocation, node labels
    // (every node in the default partition).
    let conf = equal_queues_conf(
        1,
        100,
        "yarn.resourcemanager.scheduler.monitor.enable=true\n\
         yarn.resourcemanager.opportunistic-container-allocation.enabled=true\n\
         yarn.node-labels.enabled=true\n",
    );
    let mut cs = CapacityScheduler::new(conf, 1, 42);
    let base = rss_bytes();
    let per_node = (containers / nodes + 1) as i64;
    let node_ids = add_nodes(&mut cs, nodes, per_node, 100);
    let after_nodes = rss_bytes();
    let apps: Vec<AppId> = (0..1000)
        .map(|i| submit_unmanaged(&mut cs, "q0", &format!("user{i}")))
        .collect();
    let per_app = containers / apps.len();
    for &app in &apps {
        let req = AllocateRequest {
            asks: vec![ResourceRequest::any(
                1,
                Resource::new(GB, 1),
                per_app as i32,
            )],
            ..Default::default()
        };
        cs.allocate(0, app, &req).expect("asks");
    }
    let before_containers = rss_bytes();
    let status = NodeStatus::default();
    let mut allocated = 0usize;
    let mut now = 0;
    while allocated < per_app * apps.len() {
        let before = allocated;
        for &n in &node_ids {
            now += 1;
            allocated += cs.node_update(now, n, &status).expect("update").allocated as usize;
        }
        if before == allocated {
            break;
        }
    }
    for &app in &apps {
        cs.allocate(
            now,
            app,
            &AllocateRequest {
                response_id: 0,
                ..Default::default()
            },
        )
        .expect("pull");
    }
    let after_containers = rss_bytes();
    // Pending asks: host-level entries (the request table's unit), spread over applications.
    let ask_apps: Vec<AppId> = (0..1000)
        .map(|i| submit_unmanaged(&mut cs, "q0", &format!("asker{i}")))
        .collect();
    let per_ask_app = asks / ask_apps.len();
    let before_asks = rss_bytes();
    for (a, &app) in ask_apps.iter().enumerate() {
        let mut req = AllocateRequest::default();
        for j in 0..per_ask_app {
            let host = format!("node{}", (a * per_ask_app + j) % nodes);
            req.asks.push(ResourceRequest::at(
                1 + (j / nodes) as i32,
                &host,
                Resource::new(GB, 1),
                1,
            ));
        }
        req.asks.push(ResourceRequest::any(
            1,
            Resource::new(GB, 1),
            per_ask_app as i32,
        ));
        cs.allocate(now, app, &req).expect("asks");
    }
    let after_asks = rss_bytes();
    let per = |delta: u64, n: usize| if n == 0 { 0.0 } else { delta as f64 / n as f64 };
    let bytes_per_node = per(after_nodes - base, nodes);
    let bytes_per_container = per(
        after_containers.saturating_sub(before_containers),
        allocated,
    );
    let bytes_per_ask = per(
        after_asks.saturating_sub(before_asks),
        per_ask_app * ask_apps.len(),
    );
    if json {
        println!(
            "{}",
            json!({"bench": "memory", "nodes": nodes, "containers": allocated, "asks": per_ask_app * ask_apps.len(),
                   "bytes_per_node": bytes_per_node, "bytes_per_container": bytes_per_container,
                   "bytes_per_ask": bytes_per_ask, "rss_bytes": after_asks})
        );
    } else {
        println!(
            "bench memory: {nodes} nodes, {allocated} running containers, {} pending asks",
            per_ask_app * ask_apps.len()
        );
        println!("  bytes/node          {:.0}", bytes_per_node);
        println!("  bytes/container     {:.0}", bytes_per_container);
        println!("  bytes/pending ask   {:.0}", bytes_per_ask);
        println!(
            "  final RSS           {:.1} MiB",
            after_asks as f64 / (1 << 20) as f64
        );
    }
}
