//! `capsched bench`'s sizes checked before any work (issue 36.10), by the simulator's rules:
//! every count at least 1 (`--calls` at least 8, one per host thread; `--warmup` may be 0), and none past what the machine could build — the simulator's
//! limits for nodes, jobs and task containers (`capsched::sim::limits`), and bounds of the
//! same kind for the others — with a message naming the flag, the value and the range.

use capsched::sim::limits::{MAX_JOBS, MAX_NODES, MAX_TASKS};

use super::bench::Bench;

/// `bench calls` shares its calls among up to 8 host threads: each makes at least one.
const CALL_THREADS: usize = 8;
/// Queues of the equal-queues configuration the benchmarks build.
const MAX_QUEUES: usize = 10_000;
/// Host calls, updates and policy rounds: a count of repetitions (time, not memory).
const MAX_REPEATS: usize = 1_000_000_000;
/// Pending asks and running containers the memory benchmark builds.
const MAX_ITEMS: usize = MAX_TASKS as usize;

/// The first size out of range, as "--flag V: …".
pub(super) fn check(bench: &Bench) -> Result<(), String> {
    let sizes: Vec<(&str, usize, usize, usize)> = match bench {
        Bench::Alloc {
            nodes,
            apps,
            queues,
            containers,
            offswitch,
            ..
        } => vec![
            ("--nodes", *nodes, 1, MAX_NODES),
            ("--apps", *apps, 1, MAX_JOBS),
            ("--queues", *queues, 1, MAX_QUEUES),
            ("--containers", *containers, 1, MAX_ITEMS),
            ("--offswitch", *offswitch, 1, MAX_ITEMS),
        ],
        Bench::Calls { calls, .. } => vec![("--calls", *calls, CALL_THREADS, MAX_REPEATS)],
        Bench::Heartbeat { updates, .. } => vec![("--updates", *updates, 1, MAX_REPEATS)],
        Bench::Simulate {
            nodes,
            containers,
            jobs,
            ..
        } => vec![
            ("--nodes", *nodes, 1, MAX_NODES),
            ("--containers", *containers, 1, MAX_ITEMS),
            ("--jobs", *jobs, 1, MAX_JOBS),
        ],
        Bench::Preemption {
            nodes,
            containers,
            queues,
            apps,
            rounds,
            warmup,
            ..
        } => {
            // Warm-up rounds may be none.
            if *warmup > MAX_REPEATS {
                return Err(format!(
                    "--warmup {warmup}: must be from 0 to {MAX_REPEATS}"
                ));
            }
            vec![
                ("--nodes", *nodes, 1, MAX_NODES),
                ("--containers", *containers, 1, MAX_ITEMS),
                ("--queues", *queues, 1, MAX_QUEUES),
                ("--apps", *apps, 1, MAX_JOBS),
                ("--rounds", *rounds, 1, MAX_REPEATS),
            ]
        }
        Bench::Memory {
            nodes,
            containers,
            asks,
            ..
        } => vec![
            ("--nodes", *nodes, 1, MAX_NODES),
            ("--containers", *containers, 1, MAX_ITEMS),
            ("--asks", *asks, 1, MAX_ITEMS),
        ],
        Bench::Opportunistic { .. } => vec![],
    };
    for (flag, value, min, max) in sizes {
        if !(min..=max).contains(&value) {
            return Err(format!("{flag} {value}: must be from {min} to {max}"));
        }
    }
    Ok(())
}
