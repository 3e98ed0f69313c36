//! `capsched bench opportunistic`: the point of opportunistic containers, measured, on one of
//! two built-in workloads — `short-tasks` (many 1–5 s tasks on a saturated cluster) and
//! `short-jobs` (a stream of small jobs of 0.8–3 s tasks on a busy cluster, issue 19). Every
//! map guaranteed (under YARN's default per-heartbeat cap too), half of them opportunistic
//! under YARN's behaviour and under capsched's (NodeManagers pause instead of killing; central
//! allocation in the queue's order; AMs promote started containers), and all of them
//! opportunistic, centrally and through distributed schedulers. Prints throughput, job times
//! split by opportunistic use, NodeManager queueing delay and kills per cause for each run,
//! and writes the comparison charts. Simulated time, so the figures are exact and repeatable
//! per seed.

use capsched::sync::Arc;
use std::path::PathBuf;

use serde_json::{json, Value};

use capsched::config::CapacitySchedulerConfiguration;
use capsched::sim::trace::{SimDefaults, TraceJob, TraceNode};
use capsched::sim::{
    charts, default_workload, output, simulate, SimulationInput, SimulationOptions,
};

/// The built-in workloads the bench runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Workload {
    ShortTasks,
    ShortJobs,
}

/// How a run asks for and executes opportunistic containers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Behaviour {
    /// YARN 3.3.6: NodeManagers kill opportunistic containers for guaranteed ones, central
    /// allocation serves each AM heartbeat as it comes, AMs (MapReduce) never promote.
    Yarn,
    /// The workload's configuration as built in: pause, queue order; AMs promote once started.
    Capsched,
}

struct Run {
    label: &'static str,
    percent: u32,
    behaviour: Behaviour,
    yarn_default_offswitch: bool,
    distributed: bool,
}

const fn run_of(
    label: &'static str,
    percent: u32,
    behaviour: Behaviour,
    yarn_default_offswitch: bool,
    distributed: bool,
) -> Run {
    Run {
        label,
        percent,
        behaviour,
        yarn_default_offswitch,
        distributed,
    }
}

const RUNS: [Run; 6] = [
    run_of(
        "guaranteed (YARN default: 1 off-switch per heartbeat)",
        0,
        Behaviour::Yarn,
        true,
        false,
    ),
    run_of("guaranteed", 0, Behaviour::Yarn, false, false),
    run_of("50% opportunistic, YARN", 50, Behaviour::Yarn, false, false),
    run_of(
        "50% opportunistic, capsched",
        50,
        Behaviour::Capsched,
        false,
        false,
    ),
    run_of(
        "100% opportunistic, capsched",
        100,
        Behaviour::Capsched,
        false,
        false,
    ),
    run_of(
        "100% opportunistic, capsched, distributed",
        100,
        Behaviour::Capsched,
        false,
        true,
    ),
];

/// The index in [`RUNS`] of the all-guaranteed run and the two 50% runs.
const GUARANTEED: usize = 1;
const HALF_YARN: usize = 2;
const HALF_CAPSCHED: usize = 3;

fn workload(w: Workload, defaults: &SimDefaults) -> (Vec<TraceNode>, Vec<TraceJob>, &'static str) {
    match w {
        Workload::ShortTasks => (
            default_workload::nodes(defaults),
            default_workload::short_tasks_jobs(),
            "short-tasks: 16 jobs x 500 tasks of 1-5 s, 10 nodes x 10 containers",
        ),
        Workload::ShortJobs => (
            default_workload::short_jobs_nodes(),
            default_workload::short_jobs_jobs(),
            "short-jobs: 60 jobs x 40 node-local tasks of 0.8-3 s, one every 2 s, 10 nodes x 8 containers",
        ),
    }
}

/// The configuration of one run: the scenario's, YARN's opportunistic behaviour on top for a
/// YARN run, and the run's own switches.
fn properties(r: &Run) -> String {
    let mut p = default_workload::SHORT_TASKS_PROPERTIES.to_string();
    if r.yarn_default_offswitch {
        p = p.replace(
            "maximum-offswitch-assignments=100",
            "maximum-offswitch-assignments=1",
        );
    }
    if r.behaviour == Behaviour::Yarn {
        p.push_str(default_workload::YARN_OPPORTUNISTIC_PROPERTIES);
    }
    if r.distributed {
        p.push_str("yarn.nodemanager.distributed-scheduling.enabled=true\n");
    }
    p
}

pub fn run(
    seed: u64,
    which: Workload,
    charts_dir: Option<PathBuf>,
    as_json: bool,
) -> std::process::ExitCode {
    let defaults = SimDefaults::default();
    let (nodes, jobs, title) = workload(which, &defaults);
    let mut results = Vec::new();
    for r in &RUNS {
        let conf = CapacitySchedulerConfiguration::from_properties_str(&properties(r))
            .expect("the built-in configuration is valid");
        let input = SimulationInput {
            conf: Arc::new(conf),
            nodes: nodes.clone(),
            jobs: jobs.clone(),
        };
        let opts = SimulationOptions {
            seed,
            defaults,
            opportunistic_percent: r.percent,
            promote_opportunistic_after_start: r.behaviour == Behaviour::Capsched && r.percent > 0,
            ..SimulationOptions::default()
        };
        match simulate(input, opts) {
            Ok(result) => results.push(result),
            Err(e) => {
                eprintln!("error: {e}");
                return std::process::ExitCode::from(1);
            }
        }
    }
    let summaries: Vec<Value> = results.iter().map(output::summary).collect();
    let rows: Vec<Value> = RUNS
        .iter()
        .zip(&summaries)
        .map(|(r, s)| {
            json!({
                "run": r.label,
                "opportunistic_percent": r.percent,
                "makespan_s": s["makespan_ms"].as_i64().unwrap_or(0) as f64 / 1000.0,
                "nm_utilization_memory": s["nm_utilization_memory"],
                "rm_allocated_memory": s["utilization_memory"],
                "tasks_per_sec": s["tasks_per_sec"],
                "job_run_ms": s["job_run_ms"],
                "job_wait_ms": s["job_wait_ms"],
                "opportunistic": s["opportunistic"],
            })
        })
        .collect();
    if as_json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).expect("plain JSON")
        );
    } else {
        print_table(title, seed, &rows);
    }
    if let Some(dir) = charts_dir {
        let runs: Vec<(String, &capsched::sim::SimulationResult)> = RUNS
            .iter()
            .zip(&results)
            .map(|(r, res)| (r.label.to_string(), res))
            .collect();
        let side_by_side: Vec<(String, &capsched::sim::SimulationResult)> =
            [GUARANTEED, HALF_YARN, HALF_CAPSCHED]
                .iter()
                .map(|&i| runs[i].clone())
                .collect();
        let written = std::fs::create_dir_all(&dir).and_then(|_| {
            for (name, svg) in charts::render_comparison("opportunistic", &runs)? {
                std::fs::write(dir.join(name), svg)?;
            }
            std::fs::write(
                dir.join("opportunistic-job-times.svg"),
                charts::render_job_times(&side_by_side)?,
            )
        });
        if let Err(e) = written {
            eprintln!("error: writing charts to {}: {e}", dir.display());
            return std::process::ExitCode::from(1);
        }
        if !as_json {
            println!("charts in {}", dir.display());
        }
    }
    std::process::ExitCode::SUCCESS
}

fn print_table(title: &str, seed: u64, rows: &[Value]) {
    println!("{title}, seed {seed}");
    println!(
        "{:<53} {:>8} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9} {:>6} {:>6} {:>6} {:>6}",
        "run",
        "makespan",
        "NM used",
        "tasks/s",
        "run p50",
        "p90",
        "p99",
        "NMq p99",
        "killed",
        "reject",
        "shed",
        "paused"
    );
    for row in rows {
        let f = |v: &Value| v.as_f64().unwrap_or(0.0);
        let o = &row["opportunistic"];
        let a = &o["nodemanager_actions"];
        println!(
            "{:<53} {:>7.0}s {:>6.1}% {:>7.2} {:>6.0}s {:>6.0}s {:>6.0}s {:>7}ms {:>6} {:>6} {:>6} {:>6}",
            row["run"].as_str().unwrap_or(""),
            f(&row["makespan_s"]),
            f(&row["nm_utilization_memory"]) * 100.0,
            f(&row["tasks_per_sec"]),
            f(&row["job_run_ms"]["p50"]) / 1000.0,
            f(&row["job_run_ms"]["p90"]) / 1000.0,
            f(&row["job_run_ms"]["p99"]) / 1000.0,
            o["nm_queue_delay_ms"]["opportunistic"]["p99"],
            a["killed_for_guaranteed"],
            a["rejected_queue_full"],
            a["dequeued_by_queue_limit"],
            a["paused_for_guaranteed"],
        );
    }
    let ratio = |i: usize, key: &str| {
        let g = rows[GUARANTEED]["job_run_ms"][key].as_f64().unwrap_or(0.0);
        let o = rows[i]["job_run_ms"][key].as_f64().unwrap_or(0.0);
        if g > 0.0 {
            o / g
        } else {
            0.0
        }
    };
    for (i, who) in [(HALF_YARN, "YARN"), (HALF_CAPSCHED, "capsched")] {
        println!(
            "50% opportunistic ({who}) vs guaranteed: job run p50 x{:.2}, p99 x{:.2}, tasks/s {:+.1}%",
            ratio(i, "p50"),
            ratio(i, "p99"),
            (rows[i]["tasks_per_sec"].as_f64().unwrap_or(0.0)
                / rows[GUARANTEED]["tasks_per_sec"].as_f64().unwrap_or(1.0)
                - 1.0)
                * 100.0
        );
    }
}
