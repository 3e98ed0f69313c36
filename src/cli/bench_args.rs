//! `capsched bench`'s sizes checked before any work (issue 36.10), by the simulator's rules:
//! every count at least 1, and none past what the machine could build — the simulator's
//! limits for nodes, jobs and task containers (`capsched::sim::limits`), and bounds of the
//! same kind for the others — with a message naming the flag, the value and the range.

use capsched::sim::limits::{MAX_JOBS, MAX_NODES, MAX_TASKS};

use super::bench::Bench;

/// Queues of the equal-queues configuration the benchmarks build.
const MAX_QUEUES: usize = 10_000;
/// Host calls, updates and policy rounds: a count of repetitions (time, not memory).
const MAX_REPEATS: usize = 1_000_000_000;
/// Pending asks and running containers the memory benchmark builds.
const MAX_ITEMS: usize = MAX_TASKS as usize;

/// The first size out of range, as "--flag V: …".
pub(super) fn check(bench: &Bench) -> Result<(), String> {
    let sizes: Vec<(&str, usize, usize)> = match bench {
        Bench::Alloc {
            nodes,
            apps,
            queues,
            containers,
            offswitch,
            ..
        } => vec![
            ("--nodes", *nodes, MAX_NODES),
            ("--apps", *apps, MAX_JOBS),
            ("--queues", *queues, MAX_QUEUES),
            ("--containers", *containers, MAX_ITEMS),
            ("--offswitch", *offswitch, MAX_ITEMS),
        ],
        Bench::Calls { calls, .. } => vec![("--calls", *calls, MAX_REPEATS)],
        Bench::Heartbeat { updates, .. } => vec![("--updates", *updates, MAX_REPEATS)],
        Bench::Simulate {
            nodes,
            containers,
            jobs,
            ..
        } => vec![
            ("--nodes", *nodes, MAX_NODES),
            ("--containers", *containers, MAX_ITEMS),
            ("--jobs", *jobs, MAX_JOBS),
        ],
        Bench::Preemption {
            nodes,
            containers,
            queues,
            apps,
            rounds,
            ..
        } => vec![
            ("--nodes", *nodes, MAX_NODES),
            ("--containers", *containers, MAX_ITEMS),
            ("--queues", *queues, MAX_QUEUES),
            ("--apps", *apps, MAX_JOBS),
            ("--rounds", *rounds, MAX_REPEATS),
        ],
        Bench::Memory {
            nodes,
            containers,
            asks,
            ..
        } => vec![
            ("--nodes", *nodes, MAX_NODES),
            ("--containers", *containers, MAX_ITEMS),
            ("--asks", *asks, MAX_ITEMS),
        ],
        Bench::Opportunistic { .. } => vec![],
    };
    for (flag, value, max) in sizes {
        if !(1..=max).contains(&value) {
            return Err(format!("{flag} {value}: must be from 1 to {max}"));
        }
    }
    Ok(())
}
