//! Command-line front end: argument parsing and dispatch. Each subcommand lives in its own file.

mod bench;
mod bench_args;
mod bench_cluster;
mod bench_opportunistic;
mod bench_runtime;
mod bench_simulate;
mod common;
mod conformance;
mod describe;
mod pipe;
mod queues;
mod simulate;
mod validate;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "capsched",
    version,
    about = "YARN's CapacityScheduler, re-implemented in Rust"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a capacity-scheduler.xml (or key=value properties file) with YARN's rules.
    ///
    /// Exit 0 and a summary of the queue tree when valid; exit 1 with YARN's message, the queue
    /// path and the key of every problem when not. Without FILE, checks the built-in default.
    Validate {
        /// Hadoop configuration XML or properties file.
        file: Option<PathBuf>,
    },
    /// Print every queue's derived capacities and limits for a cluster of a given size.
    Queues {
        /// Hadoop configuration XML or properties file (default: the built-in configuration).
        file: Option<PathBuf>,
        /// Number of NodeManagers.
        #[arg(long, default_value_t = 10)]
        nodes: u32,
        /// Memory of each node, MB.
        #[arg(long = "node-memory", default_value_t = 10240)]
        node_memory: i64,
        /// Vcores of each node.
        #[arg(long = "node-vcores", default_value_t = 10)]
        node_vcores: i64,
        /// Print the ResourceManager REST API's scheduler JSON (`/ws/v1/cluster/scheduler`).
        #[arg(long)]
        json: bool,
    },
    /// Replay a YARN SLS trace (or the built-in workload) in virtual time; write SLS-shaped
    /// outputs, a summary and charts.
    Simulate(simulate::SimulateArgs),
    /// Benchmarks that mirror YARN 3.3.6's measured workloads; they print numbers.
    #[command(subcommand)]
    Bench(bench::Bench),
    /// Run Apache Hadoop's preemption test vectors (JSON) against the preemption policy.
    ///
    /// Prints `PASS id`, `FAIL id: expected … got …` or `SKIP id: reason` per vector, then
    /// `N passed, M failed, K skipped`. Exit 0 only when none failed.
    Conformance {
        /// Vector files (e.g. tests/data/conformance/preemption-vectors.json).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // Issue 36.11: a reader that goes away early (`capsched simulate | head -1`) ends the
    // command quietly, with exit 0, whichever `println!` saw it go.
    pipe::quiet_on_closed_stdout(|| dispatch(cli))
}

fn dispatch(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Validate { file } => validate::run(file.as_deref()),
        Command::Queues {
            file,
            nodes,
            node_memory,
            node_vcores,
            json,
        } => queues::run(file.as_deref(), nodes, node_memory, node_vcores, json),
        // Sizes checked before any work (issue 36.10).
        Command::Bench(b) => match bench_args::check(&b) {
            Ok(()) => bench::run(b),
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        },
        Command::Simulate(args) => simulate::run(args),
        Command::Conformance { files } => conformance::run(&files),
    }
}
