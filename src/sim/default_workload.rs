//! The built-in workloads of `capsched simulate`, both on ten 10 GB / 10-vcore nodes:
//!
//! - the default (elasticity): the seed document's queues (root.default 80%/80%, root.low
//!   20%/40%) and a trace where `low` borrows idle capacity up to its 40% maximum while
//!   `default` is idle, then gives it back as its containers finish once `default`'s jobs arrive;
//! - `preemption`: the preemption seed's timeline — two 50% queues that may each grow to the
//!   whole cluster, App1 filling it, App2 arriving a minute later. With the preemption monitor
//!   on, App2 gets its half within about two minutes instead of waiting for App1's tasks;
//! - `short-tasks`: a busy cluster of many 1–5 s tasks, the workload opportunistic containers
//!   exist for; run it with `--opportunistic-percent 0` and `100` to compare;
//! - `short-jobs` (on ten 8 GB / 8-vcore nodes): a steady stream of small jobs of short
//!   node-local tasks on a cluster that is busy but not full, where opportunistic containers
//!   once made jobs slower (issue 19); compare `--opportunistic-percent 0` and `50`;
//! - `priority-inversion`: one queue, a low-priority batch job filling the cluster, and an
//!   urgent high-priority job of the same user a minute later. Intra-queue preemption
//!   (`priority_first`) takes containers back from the batch job; compare `--preemption off`.

use super::trace::{SimDefaults, TraceJob, TraceNode, TraceTask};
use crate::config::CapacitySchedulerConfiguration;

pub fn nodes(defaults: &SimDefaults) -> Vec<TraceNode> {
    (0..10)
        .map(|i| TraceNode {
            host: format!("node{i}"),
            rack: format!("/rack{}", i / 5),
            memory_mb: defaults.node_memory_mb,
            vcores: defaults.node_vcores,
            labels: Vec::new(),
        })
        .collect()
}

/// `n` map tasks of 1 GB / 1 vcore lasting 20–40 s; every other one prefers a node.
fn tasks(n: usize, salt: usize) -> Vec<TraceTask> {
    tasks_lasting(n, salt, 20_000, 20_000, true)
}

/// `n` map tasks of 1 GB / 1 vcore lasting `base_ms` plus up to `spread_ms`; with `located`,
/// every other one prefers a node (and so waits out delay scheduling elsewhere).
fn tasks_lasting(
    n: usize,
    salt: usize,
    base_ms: i64,
    spread_ms: i64,
    located: bool,
) -> Vec<TraceTask> {
    (0..n)
        .map(|i| {
            let node = (i * 7 + salt) % 10;
            let duration_ms = base_ms + ((i * 7919 + salt * 104_729) as i64 % (spread_ms + 1));
            TraceTask {
                host: (located && i % 2 == 0).then(|| format!("/rack{}/node{node}", node / 5)),
                ..TraceTask::map(duration_ms, 1024, 1)
            }
        })
        .collect()
}

fn job(id: &str, queue: &str, user: &str, start_ms: i64, n: usize, salt: usize) -> TraceJob {
    job_with(id, queue, user, start_ms, tasks(n, salt))
}

fn job_with(id: &str, queue: &str, user: &str, start_ms: i64, tasks: Vec<TraceTask>) -> TraceJob {
    TraceJob::mapreduce(id, queue, user, start_ms, tasks)
}

pub fn jobs() -> Vec<TraceJob> {
    vec![
        // Two users in `low` (one user alone is held near the 20% guarantee by its user limit).
        job("job_low_1", "low", "lena", 0, 160, 1),
        job("job_low_2", "low", "liam", 5_000, 160, 2),
        // `default` wakes up a minute later with more work than its 80%.
        job("job_default_1", "default", "dana", 60_000, 240, 3),
        job("job_default_2", "default", "dev", 65_000, 240, 4),
        // A late small job in `low` once the rush is over.
        job("job_low_3", "low", "lena", 200_000, 30, 5),
    ]
}

/// The preemption scenario's configuration: two 50% queues, each free to use the whole cluster
/// (maximum-capacity 100, and a user-limit-factor that lets one user do so), with the
/// preemption monitor enabled. YARN's defaults take back about 2% of the cluster per 15 s
/// wait (10% per round, times a natural-termination factor of 0.2, and the same containers
/// are selected every round until killed); the scenario takes back 20% per wait and ignores
/// no overshoot, so the timeline converges to exactly 50/50 within a couple of minutes.
pub const PREEMPTION_PROPERTIES: &str = "\
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round=0.2
yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor=1.0
yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity=0
yarn.scheduler.capacity.maximum-am-resource-percent=0.2
yarn.scheduler.capacity.root.queues=q1,q2
yarn.scheduler.capacity.root.q1.capacity=50
yarn.scheduler.capacity.root.q1.maximum-capacity=100
yarn.scheduler.capacity.root.q1.user-limit-factor=2
yarn.scheduler.capacity.root.q2.capacity=50
yarn.scheduler.capacity.root.q2.maximum-capacity=100
yarn.scheduler.capacity.root.q2.user-limit-factor=2
";

pub fn preemption_configuration() -> CapacitySchedulerConfiguration {
    CapacitySchedulerConfiguration::from_properties_str(PREEMPTION_PROPERTIES)
        .expect("the built-in configuration is valid")
}

/// App1 (q1) at 0 s: 200 five-minute tasks, twice what the cluster holds. App2 (q2) at 60 s,
/// once App1 has filled the cluster: 80 one-minute tasks, more than its half. No task prefers
/// a node, so what the timeline shows is preemption, not delay scheduling.
pub fn preemption_jobs() -> Vec<TraceJob> {
    vec![
        job_with(
            "app1",
            "q1",
            "ann",
            0,
            tasks_lasting(200, 1, 300_000, 0, false),
        ),
        job_with(
            "app2",
            "q2",
            "bob",
            60_000,
            tasks_lasting(80, 2, 60_000, 0, false),
        ),
    ]
}

/// The priority-inversion scenario's configuration: one queue owning the cluster, the
/// preemption monitor with intra-queue preemption in `priority_first` order and YARN's other
/// defaults (10 % of the cluster per round, at most 20 % of the queue's guarantee taken inside
/// it per round, 15 s from mark to kill). The user may grow to twice the queue
/// (`user-limit-factor` 2), so the urgent job's demand counts within its user limit.
pub const PRIORITY_INVERSION_PROPERTIES: &str = "\
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled=true
yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.preemption-order-policy=priority_first
yarn.cluster.max-application-priority=10
yarn.scheduler.capacity.maximum-am-resource-percent=0.2
yarn.scheduler.capacity.root.queues=default
yarn.scheduler.capacity.root.default.capacity=100
yarn.scheduler.capacity.root.default.user-limit-factor=2
";

pub fn priority_inversion_configuration() -> CapacitySchedulerConfiguration {
    CapacitySchedulerConfiguration::from_properties_str(PRIORITY_INVERSION_PROPERTIES)
        .expect("the built-in configuration is valid")
}

/// `batch` (priority 0) at 0 s: 200 five-minute tasks, twice what the cluster holds. `urgent`
/// (priority 10, same user) at 60 s: 40 thirty-second tasks. No task prefers a node.
pub fn priority_inversion_jobs() -> Vec<TraceJob> {
    let mut urgent = job_with(
        "urgent",
        "default",
        "ann",
        60_000,
        tasks_lasting(40, 2, 30_000, 0, false),
    );
    urgent.priority = 10;
    vec![
        job_with(
            "batch",
            "default",
            "ann",
            0,
            tasks_lasting(200, 1, 300_000, 0, false),
        ),
        urgent,
    ]
}

/// The short-tasks scenario's configuration: one queue with the whole cluster, opportunistic
/// allocation enabled in the RM, and NodeManagers that queue up to 5 opportunistic
/// containers (Hadoop's documentation suggests 10 to start with; with queue order, shorter
/// node queues park less of the later jobs' work behind running and paused containers, so
/// the order holds: a 73–78 s median job instead of 78–101 s over seeds 1–4). Guaranteed
/// allocation is tuned for throughput: up to 100 off-switch containers per node heartbeat
/// instead of YARN's 1, so what separates the two runs is the heartbeat round trip, not a
/// per-heartbeat cap (docs/PERFORMANCE.md gives the default's figures too). Whether tasks are
/// asked for as opportunistic is the simulator's `--opportunistic-percent`.
///
/// Opportunistic execution as it helps rather than hurts (docs/SEMANTICS.md, "Opportunistic
/// containers on a busy cluster of short jobs"): guaranteed containers go around the room
/// opportunistic ones take while there is room elsewhere, NodeManagers pause an opportunistic
/// container a guaranteed one needs room from instead of killing it, and central allocation
/// serves the queue's jobs in the queue's order. [`YARN_OPPORTUNISTIC_PROPERTIES`] turns all
/// three back to YARN's behaviour.
pub const SHORT_TASKS_PROPERTIES: &str = "\
yarn.resourcemanager.opportunistic-container-allocation.enabled=true
yarn.nodemanager.opportunistic-containers-max-queue-length=5
yarn.nodemanager.opportunistic-containers-use-pause-for-preemption=true
capsched.opportunistic.allocation.follow-queue-order=true
capsched.opportunistic.guaranteed-avoids-opportunistic=true
yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments=100
yarn.scheduler.capacity.maximum-am-resource-percent=0.2
yarn.scheduler.capacity.root.queues=default
yarn.scheduler.capacity.root.default.capacity=100
yarn.scheduler.capacity.root.default.user-limit-factor=1
";

/// Appended to [`SHORT_TASKS_PROPERTIES`]: YARN's own opportunistic behaviour (kill, not
/// pause; every AM heartbeat served as it comes) with the documentation's queue length of 10
/// — the configuration issue 19 was measured on. A later property replaces an earlier one.
pub const YARN_OPPORTUNISTIC_PROPERTIES: &str = "\
yarn.nodemanager.opportunistic-containers-max-queue-length=10
yarn.nodemanager.opportunistic-containers-use-pause-for-preemption=false
capsched.opportunistic.allocation.follow-queue-order=false
capsched.opportunistic.guaranteed-avoids-opportunistic=false
";

pub fn short_tasks_configuration() -> CapacitySchedulerConfiguration {
    CapacitySchedulerConfiguration::from_properties_str(SHORT_TASKS_PROPERTIES)
        .expect("the built-in configuration is valid")
}

/// Sixteen jobs of 500 map tasks each, 1 GB / 1 vcore, lasting 1–5 s, one every 10 s from
/// three users: 8,000 tasks and about 24,000 container-seconds arriving in 150 s on a
/// 100-container cluster — more than it can run, so a backlog builds and what limits
/// throughput is how soon a freed container gets its next task: a node heartbeat, then an AM
/// heartbeat, for a guaranteed one; nothing, for one already queued at the node.
pub fn short_tasks_jobs() -> Vec<TraceJob> {
    let users = ["ann", "bob", "cid"];
    (0..16)
        .map(|i| {
            job_with(
                &format!("short_{i:02}"),
                "default",
                users[i % 3],
                i as i64 * 10_000,
                tasks_lasting(500, i + 1, 1_000, 4_000, false),
            )
        })
        .collect()
}

/// The short-jobs cluster: ten 8 GB / 8-vcore nodes on one rack.
pub fn short_jobs_nodes() -> Vec<TraceNode> {
    (1..=10)
        .map(|i| TraceNode {
            host: format!("node{i}"),
            rack: "/default-rack".to_string(),
            memory_mb: 8192,
            vcores: 8,
            labels: Vec::new(),
        })
        .collect()
}

/// Sixty jobs of 40 node-local 1 GB / 1-vcore map tasks lasting 0.8–3 s, one job every 2 s
/// from four users into one queue: about 38 containers busy on average out of 80, in bursts.
/// Hosts and durations come from a fixed seed, so the workload is the same every run.
pub fn short_jobs_jobs() -> Vec<TraceJob> {
    use rand_core::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(19);
    let users = ["ann", "bob", "cid", "dee"];
    (0..60)
        .map(|j| {
            let tasks = (0..40)
                .map(|_| {
                    let node = 1 + rng.next_u64() % 10;
                    let duration_ms = 800 + (rng.next_u64() % 2201) as i64;
                    TraceTask {
                        host: Some(format!("/default-rack/node{node}")),
                        ..TraceTask::map(duration_ms, 1024, 1)
                    }
                })
                .collect();
            job_with(
                &format!("job_{}", j + 1),
                "default",
                users[j % 4],
                j as i64 * 2_000,
                tasks,
            )
        })
        .collect()
}
