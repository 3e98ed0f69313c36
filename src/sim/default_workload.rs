//! The built-in workload `capsched simulate` runs with no arguments: the seed document's queues
//! (root.default 80%/80%, root.low 20%/40%) on ten 10 GB / 10-vcore nodes, and a trace that shows
//! elasticity — `low` borrows idle capacity up to its 40% maximum while `default` is idle, then
//! gives it back as its containers finish once `default`'s jobs arrive.

use super::trace::{SimDefaults, TraceExecutionType, TraceJob, TraceNode, TraceTask};

pub fn nodes(defaults: &SimDefaults) -> Vec<TraceNode> {
    (0..10)
        .map(|i| TraceNode {
            host: format!("node{i}"),
            rack: format!("/rack{}", i / 5),
            memory_mb: defaults.node_memory_mb,
            vcores: defaults.node_vcores,
        })
        .collect()
}

/// `n` map tasks of 1 GB / 1 vcore lasting 20–40 s; every other one prefers a node.
fn tasks(n: usize, salt: usize) -> Vec<TraceTask> {
    (0..n)
        .map(|i| {
            let node = (i * 7 + salt) % 10;
            TraceTask {
                host: (i % 2 == 0).then(|| format!("/rack{}/node{node}", node / 5)),
                rack: None,
                start_ms: None,
                duration_ms: 20_000 + ((i * 7919 + salt * 104_729) % 20_001) as i64,
                priority: 20,
                task_type: "map".to_string(),
                memory_mb: 1024,
                vcores: 1,
                execution_type: TraceExecutionType::Guaranteed,
                request_delay_ms: 0,
            }
        })
        .collect()
}

fn job(id: &str, queue: &str, user: &str, start_ms: i64, n: usize, salt: usize) -> TraceJob {
    TraceJob {
        id: id.to_string(),
        queue: queue.to_string(),
        user: user.to_string(),
        start_ms,
        end_ms: None,
        job_type: "mapreduce".to_string(),
        am_memory_mb: 1024,
        am_vcores: 1,
        tasks: tasks(n, salt),
        priority: 0,
    }
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
