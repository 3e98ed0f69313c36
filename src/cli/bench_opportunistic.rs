//! `capsched bench opportunistic`: the point of opportunistic containers, measured. The
//! short-tasks scenario (many 1–5 s tasks on a busy cluster) runs with every map guaranteed,
//! half and all of them opportunistic (centrally, and all through distributed schedulers), and
//! — for reference — guaranteed under YARN's default
//! of one off-switch container per node heartbeat. Prints utilization, throughput and job
//! times for each run and writes the comparison charts. Simulated time, so the figures are
//! exact and repeatable per seed.

use capsched::sync::Arc;
use std::path::PathBuf;

use serde_json::{json, Value};

use capsched::config::CapacitySchedulerConfiguration;
use capsched::sim::trace::SimDefaults;
use capsched::sim::{
    charts, default_workload, output, simulate, SimulationInput, SimulationOptions,
};

struct Run {
    label: &'static str,
    percent: u32,
    yarn_default_offswitch: bool,
    distributed: bool,
}

const fn run_of(
    label: &'static str,
    percent: u32,
    yarn_default_offswitch: bool,
    distributed: bool,
) -> Run {
    Run {
        label,
        percent,
        yarn_default_offswitch,
        distributed,
    }
}

const RUNS: [Run; 5] = [
    run_of(
        "guaranteed (YARN default: 1 off-switch per heartbeat)",
        0,
        true,
        false,
    ),
    run_of("guaranteed", 0, false, false),
    run_of("50% opportunistic", 50, false, false),
    run_of("100% opportunistic", 100, false, false),
    run_of("100% opportunistic, distributed", 100, false, true),
];

pub fn run(seed: u64, charts_dir: Option<PathBuf>, as_json: bool) -> std::process::ExitCode {
    let defaults = SimDefaults::default();
    let mut results = Vec::new();
    for r in &RUNS {
        let properties = if r.yarn_default_offswitch {
            default_workload::SHORT_TASKS_PROPERTIES.replace(
                "maximum-offswitch-assignments=100",
                "maximum-offswitch-assignments=1",
            )
        } else {
            default_workload::SHORT_TASKS_PROPERTIES.to_string()
        };
        let properties = if r.distributed {
            format!("{properties}yarn.nodemanager.distributed-scheduling.enabled=true\n")
        } else {
            properties
        };
        let conf = CapacitySchedulerConfiguration::from_properties_str(&properties)
            .expect("the built-in configuration is valid");
        let input = SimulationInput {
            conf: Arc::new(conf),
            nodes: default_workload::nodes(&defaults),
            jobs: default_workload::short_tasks_jobs(),
        };
        let opts = SimulationOptions {
            seed,
            defaults,
            opportunistic_percent: r.percent,
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
        .zip(&results)
        .map(|((r, s), res)| {
            json!({
                "run": r.label,
                "opportunistic_percent": r.percent,
                "makespan_s": s["makespan_ms"].as_i64().unwrap_or(0) as f64 / 1000.0,
                "nm_utilization_memory": s["nm_utilization_memory"],
                "rm_allocated_memory": s["utilization_memory"],
                "tasks_per_sec": s["tasks_per_sec"],
                "job_run_ms": s["job_run_ms"],
                "job_wait_ms": s["job_wait_ms"],
                "opportunistic_allocated": res.opportunistic_allocated,
                "killed_by_nodemanager": res.killed_by_nm,
            })
        })
        .collect();
    if as_json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).expect("plain JSON")
        );
    } else {
        println!("short-tasks scenario: 16 jobs x 500 tasks of 1-5 s, 10 nodes x 10 containers, seed {seed}");
        println!(
            "{:<55} {:>9} {:>8} {:>8} {:>8} {:>9} {:>9} {:>9} {:>6}",
            "run",
            "makespan",
            "NM used",
            "RM alloc",
            "tasks/s",
            "run p50",
            "run p90",
            "wait p50",
            "-108"
        );
        for row in &rows {
            let f = |k: &str| row[k].as_f64().unwrap_or(0.0);
            println!(
                "{:<55} {:>8.0}s {:>7.1}% {:>7.1}% {:>8.2} {:>8.0}s {:>8.0}s {:>8.0}s {:>6}",
                row["run"].as_str().unwrap_or(""),
                f("makespan_s"),
                f("nm_utilization_memory") * 100.0,
                f("rm_allocated_memory") * 100.0,
                f("tasks_per_sec"),
                row["job_run_ms"]["p50"].as_f64().unwrap_or(0.0) / 1000.0,
                row["job_run_ms"]["p90"].as_f64().unwrap_or(0.0) / 1000.0,
                row["job_wait_ms"]["p50"].as_f64().unwrap_or(0.0) / 1000.0,
                row["killed_by_nodemanager"],
            );
        }
        let base = summaries[1]["tasks_per_sec"].as_f64().unwrap_or(0.0);
        let opp = summaries[3]["tasks_per_sec"].as_f64().unwrap_or(0.0);
        if base > 0.0 {
            println!(
                "task throughput, 100% opportunistic vs guaranteed: {:+.1}%",
                (opp / base - 1.0) * 100.0
            );
        }
    }
    if let Some(dir) = charts_dir {
        let runs: Vec<(String, &capsched::sim::SimulationResult)> = RUNS
            .iter()
            .zip(&results)
            .map(|(r, res)| (r.label.to_string(), res))
            .collect();
        let written = std::fs::create_dir_all(&dir).and_then(|_| {
            for (name, svg) in charts::render_comparison("opportunistic", &runs)? {
                std::fs::write(dir.join(name), svg)?;
            }
            Ok(())
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
