//! The soak: seeded random workloads simulated with every kind of fault injected — NodeManagers
//! lost and registering again, AM crashes with and without kept containers, lost launches
//! that expire, queue refreshes, moves, nodes relabelled (on a labelled cluster) — with
//! preemption across and inside queues and opportunistic containers, the invariant checker
//! after every event, until at least
//! `CAPSCHED_SOAK_EVENTS` (2·10^6 by default) events have run. A failure prints the seed;
//! `CAPSCHED_SEED=<n> cargo test --release --test soak` replays it alone.
//!
//! Built in release by scripts/test (`cargo test --release --test soak`); a debug build skips
//! it (a million checked events take minutes there).

use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::sim::chaos::{Chaos, Faults};
use capsched::sim::trace::{TraceExecutionType, TraceJob, TraceNode, TraceTask};
use capsched::sim::{simulate, SimulationInput, SimulationOptions, SimulationResult};

mod common;
use common::rng::SplitMix;

const CONF: &str = "\
yarn.scheduler.capacity.root.queues=a,b,c
yarn.scheduler.capacity.root.a.capacity=30
yarn.scheduler.capacity.root.a.maximum-capacity=70
yarn.scheduler.capacity.root.a.user-limit-factor=2
yarn.scheduler.capacity.root.b.capacity=30
yarn.scheduler.capacity.root.b.queues=b1,b2
yarn.scheduler.capacity.root.b.b1.capacity=50
yarn.scheduler.capacity.root.b.b2.capacity=50
yarn.scheduler.capacity.root.b.b2.ordering-policy=fair
yarn.scheduler.capacity.root.c.capacity=40
yarn.scheduler.capacity.root.c.maximum-capacity=100
yarn.scheduler.capacity.root.c.user-limit-factor=3
yarn.scheduler.capacity.maximum-am-resource-percent=0.5
yarn.scheduler.capacity.node-locality-delay=5
yarn.resourcemanager.rm.container-allocation.expiry-interval-ms=30000
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round=0.3
yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill=5000
yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled=true
yarn.resourcemanager.opportunistic-container-allocation.enabled=true
yarn.nodemanager.opportunistic-containers-max-queue-length=6
";

/// The refreshes alternate with this: the same queues, other capacities and limits, and lazy
/// preemption.
fn alternate() -> String {
    CONF.replace("root.a.capacity=30", "root.a.capacity=50")
        .replace("root.b.capacity=30", "root.b.capacity=20")
        .replace("root.c.capacity=40", "root.c.capacity=30")
        .replace("root.b.b1.capacity=50", "root.b.b1.capacity=70")
        .replace("root.b.b2.capacity=50", "root.b.b2.capacity=30")
        // Killable containers outlive a switch of the mode either way.
        + "yarn.scheduler.capacity.lazy-preemption-enabled=true\n"
}

const LEAVES: [&str; 4] = ["a", "b1", "b2", "c"];

fn workload(seed: u64) -> (Vec<TraceNode>, Vec<TraceJob>, u32) {
    let mut r = SplitMix(seed);
    let nodes: Vec<TraceNode> = (0..6 + r.below(18))
        .map(|i| TraceNode {
            host: format!("n{i}"),
            rack: format!("/r{}", i % 3),
            memory_mb: 1024 * (8 + r.below(9) as i64),
            vcores: 8,
            labels: Vec::new(),
        })
        .collect();
    let jobs = (0..8 + r.below(22))
        .map(|k| {
            let tasks = (0..1 + r.below(4))
                .map(|_| {
                    let reduce = r.chance(20);
                    let host = (r.chance(40)).then(|| {
                        let n = &nodes[r.below(nodes.len() as u64) as usize];
                        format!("{}/{}", n.rack, n.host)
                    });
                    TraceTask {
                        count: 1 + r.below(40),
                        host,
                        rack: None,
                        start_ms: None,
                        duration_ms: 500 + r.below(60_000) as i64,
                        priority: if reduce { 10 } else { 20 },
                        task_type: if reduce { "reduce" } else { "map" }.into(),
                        memory_mb: 512 * (1 + r.below(6) as i64),
                        vcores: 1 + r.below(2) as i64,
                        execution_type: if r.chance(10) {
                            TraceExecutionType::Opportunistic
                        } else {
                            TraceExecutionType::Guaranteed
                        },
                        request_delay_ms: if r.chance(20) {
                            r.below(30_000) as i64
                        } else {
                            0
                        },
                    }
                })
                .collect();
            TraceJob {
                id: format!("job{k}"),
                queue: LEAVES[r.below(4) as usize].into(),
                user: format!("u{}", r.below(4)),
                start_ms: r.below(300_000) as i64,
                end_ms: None,
                job_type: "mapreduce".into(),
                am_memory_mb: 512 * (1 + r.below(3) as i64),
                am_vcores: 1,
                tasks,
                priority: r.below(4) as i32,
                label_expression: None,
            }
        })
        .collect();
    let percent = [0, 0, 30][r.below(3) as usize];
    (nodes, jobs, percent)
}

fn run(seed: u64) -> SimulationResult {
    let (nodes, jobs, percent) = workload(seed);
    run_with(seed, CONF, &alternate(), nodes, jobs, percent, 0)
}

/// One faulty run of `jobs` on `nodes` under `conf` (refreshes alternating with `alt`), every
/// invariant checked after each event; a failure names the seed.
fn run_with(
    seed: u64,
    conf: &str,
    alt: &str,
    nodes: Vec<TraceNode>,
    jobs: Vec<TraceJob>,
    percent: u32,
    relabel: u32,
) -> SimulationResult {
    let conf = Arc::new(CapacitySchedulerConfiguration::from_properties_str(conf).unwrap());
    let alt = Arc::new(CapacitySchedulerConfiguration::from_properties_str(alt).unwrap());
    let chaos = Chaos {
        alternate: Some(alt),
        relabel,
        ..Chaos::everything(seed)
    };
    let opts = SimulationOptions {
        seed,
        check_invariants: true,
        opportunistic_percent: percent,
        chaos: Some(chaos),
        max_time_ms: Some(2 * 24 * 3600 * 1000),
        ..SimulationOptions::default()
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        simulate(SimulationInput { conf, nodes, jobs }, opts)
    }));
    match result {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => panic!("CAPSCHED_SEED={seed}: {e}"),
        Err(_) => panic!("CAPSCHED_SEED={seed}: the simulation panicked"),
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: scripts/test runs cargo test --release --test soak"
)]
fn a_million_events_with_faults_keep_every_invariant() {
    let started = std::time::Instant::now();
    let target: u64 = std::env::var("CAPSCHED_SOAK_EVENTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000);
    let seeds: Box<dyn Iterator<Item = u64>> = match std::env::var("CAPSCHED_SEED") {
        Ok(s) => Box::new(std::iter::once(s.parse().expect("a seed"))),
        Err(_) => Box::new(1..),
    };
    let mut events = 0u64;
    let mut runs = 0;
    let mut total = Faults::default();
    let (mut marked, mut killed, mut opportunistic, mut finished, mut jobs) = (0, 0, 0, 0, 0);
    for seed in seeds {
        let r = run(seed);
        runs += 1;
        events += r.events;
        let f = r.faults;
        total.nodes_lost += f.nodes_lost;
        total.nodes_back += f.nodes_back;
        total.am_crashes += f.am_crashes;
        total.am_crashes_keeping_containers += f.am_crashes_keeping_containers;
        total.launches_lost += f.launches_lost;
        total.refreshes += f.refreshes;
        total.moves += f.moves;
        marked += r.containers_marked;
        killed += r.containers_preempted;
        opportunistic += r.opportunistic_allocated;
        finished += r.jobs.iter().filter(|j| j.finish_ms.is_some()).count();
        jobs += r.jobs.len();
        if events >= target || std::env::var("CAPSCHED_SEED").is_ok() {
            break;
        }
    }
    println!(
        "soak: {runs} runs, {events} events, invariants checked after each, in {:.1} s; \
         {finished}/{jobs} jobs finished; faults {total:?}; preemption marked {marked}, killed \
         {killed}; {opportunistic} opportunistic containers",
        started.elapsed().as_secs_f64()
    );
    if std::env::var("CAPSCHED_SEED").is_err() {
        assert!(events >= target);
        // Every kind of fault and feature was exercised.
        for (what, n) in [
            ("nodes lost", total.nodes_lost),
            ("nodes back", total.nodes_back),
            ("AM crashes", total.am_crashes),
            (
                "AM crashes keeping containers",
                total.am_crashes_keeping_containers,
            ),
            ("launches lost", total.launches_lost),
            ("refreshes", total.refreshes),
            ("moves", total.moves),
            ("preemption kills", killed),
            ("opportunistic containers", opportunistic),
        ] {
            assert!(n > 0, "never: {what}");
        }
        assert!(
            finished * 10 >= jobs * 9,
            "most jobs finish despite the faults: {finished}/{jobs}"
        );
    }
}

/// The same faults over queues the scheduler creates: c a managed parent (YARN 3.3) and d a
/// parent with flexible creation (YARN 3.4), users u0–u2 mapped to leaves of their own there,
/// both periodic queue policies running next to preemption, refreshes keeping the created
/// queues (or refused when the variant would remove them).
fn run_created(seed: u64) -> SimulationResult {
    let created = |base: &str| {
        base.replace(
            "yarn.scheduler.capacity.root.queues=a,b,c\n",
            "yarn.scheduler.capacity.root.queues=a,b,c,d\n",
        )
        .replace("root.c.capacity=40", "root.c.capacity=20")
        .replace("root.c.capacity=30", "root.c.capacity=10")
            + "yarn.scheduler.capacity.root.d.capacity=20
yarn.scheduler.capacity.root.c.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.c.leaf-queue-template.capacity=40
yarn.scheduler.capacity.root.c.leaf-queue-template.maximum-capacity=100
yarn.scheduler.capacity.root.c.leaf-queue-template.user-limit-factor=3
yarn.scheduler.capacity.root.c.leaf-queue-template.maximum-am-resource-percent=0.5
yarn.scheduler.capacity.root.d.auto-queue-creation-v2.enabled=true
yarn.scheduler.capacity.auto-queue-creation-v2.queue-expiration-time=10
yarn.scheduler.capacity.queue-mappings=u:u0:c.u0,u:u1:c.u1,u:u2:root.d.u2
yarn.scheduler.capacity.queue-mappings-override.enable=true
yarn.resourcemanager.scheduler.monitor.policies=org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy,org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.QueueManagementDynamicEditPolicy,org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AutoCreatedQueueDeletionPolicy
"
    };
    let (nodes, mut jobs, percent) = workload(seed);
    // The managed parent is no leaf: every job names a configured leaf (u0–u2's are mapped).
    for j in jobs.iter_mut().filter(|j| j.queue == "c") {
        j.queue = "a".into();
    }
    run_with(
        seed,
        &created(CONF),
        &created(&alternate()),
        nodes,
        jobs,
        percent,
        0,
    )
}

/// The same faults on a labelled cluster, with nodes relabelled among them: x non-exclusive
/// (a and b guaranteed there, idle room lent to everyone), gpu exclusive (c's alone); a
/// quarter of the jobs label their application (c's gpu, a's x), the rest ask for the
/// default partition and may spill onto x.
fn run_labelled(seed: u64) -> SimulationResult {
    let labelled = |base: &str| {
        base.to_string()
            + "yarn.node-labels.enabled=true
yarn.scheduler.capacity.root.accessible-node-labels.x.capacity=100
yarn.scheduler.capacity.root.accessible-node-labels.gpu.capacity=100
yarn.scheduler.capacity.root.a.accessible-node-labels=x
yarn.scheduler.capacity.root.a.accessible-node-labels.x.capacity=60
yarn.scheduler.capacity.root.b.accessible-node-labels=x
yarn.scheduler.capacity.root.b.accessible-node-labels.x.capacity=40
yarn.scheduler.capacity.root.b.b1.accessible-node-labels.x.capacity=50
yarn.scheduler.capacity.root.b.b2.accessible-node-labels.x.capacity=50
yarn.scheduler.capacity.root.c.accessible-node-labels=gpu
yarn.scheduler.capacity.root.c.accessible-node-labels.gpu.capacity=100
"
    };
    let (mut nodes, mut jobs, percent) = workload(seed);
    for (i, n) in nodes.iter_mut().enumerate() {
        n.labels = match i % 4 {
            1 => vec![("x".to_string(), false)],
            // The first gpu node declares the label; later ones name it again the same way.
            3 => vec![("gpu".to_string(), true)],
            _ => Vec::new(),
        };
    }
    let mut r = SplitMix(seed ^ 0x1abe1);
    for j in jobs.iter_mut() {
        if r.chance(25) {
            j.label_expression = Some(match j.queue.as_str() {
                "c" => "gpu".to_string(),
                "a" => "x".to_string(),
                _ => String::new(),
            });
        }
    }
    run_with(
        seed,
        &labelled(CONF),
        &labelled(&alternate()),
        nodes,
        jobs,
        percent,
        2,
    )
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: scripts/test runs cargo test --release --test soak"
)]
fn a_labelled_cluster_under_faults_keeps_every_invariant() {
    let started = std::time::Instant::now();
    let (mut events, mut runs, mut relabels, mut finished, mut jobs) = (0u64, 0, 0, 0, 0);
    for seed in 1.. {
        let r = run_labelled(seed);
        runs += 1;
        events += r.events;
        relabels += r.faults.relabels;
        finished += r.jobs.iter().filter(|j| j.finish_ms.is_some()).count();
        jobs += r.jobs.len();
        if events >= 300_000 {
            break;
        }
    }
    println!(
        "soak with node labels: {runs} runs, {events} events in {:.1} s; {relabels} nodes \
         relabelled; {finished}/{jobs} jobs finished",
        started.elapsed().as_secs_f64()
    );
    assert!(relabels > 0, "never relabelled");
    assert!(finished * 10 >= jobs * 9, "{finished}/{jobs}");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: scripts/test runs cargo test --release --test soak"
)]
fn created_queues_under_faults_keep_every_invariant() {
    let started = std::time::Instant::now();
    let mut events = 0u64;
    let (mut runs, mut created_jobs, mut finished, mut jobs) = (0, 0, 0, 0);
    for seed in 1.. {
        let r = run_created(seed);
        runs += 1;
        events += r.events;
        created_jobs += r
            .jobs
            .iter()
            .filter(|j| {
                j.leaf
                    .as_deref()
                    .is_some_and(|l| l.starts_with("root.c.") || l.starts_with("root.d."))
            })
            .count();
        finished += r.jobs.iter().filter(|j| j.finish_ms.is_some()).count();
        jobs += r.jobs.len();
        if events >= 300_000 {
            break;
        }
    }
    println!(
        "soak with created queues: {runs} runs, {events} events in {:.1} s; {created_jobs} jobs in \
         created queues; {finished}/{jobs} jobs finished",
        started.elapsed().as_secs_f64()
    );
    assert!(created_jobs > 0, "no job ran in a created queue");
    assert!(finished * 10 >= jobs * 9, "{finished}/{jobs}");
}
