//! Writes a run's outputs in SLS's shapes: `realtimetrack.json`, `jobruntime.csv`, per-queue
//! usage and pending CSVs, `summary.txt`, `summary.json`, and SVG charts.
//!
//! Everything is a pure function of the simulated run except the wall-clock measurements
//! (`scheduler.*.timecost` in realtimetrack.json, `wall_*` in the summaries): those measure this
//! process, so two runs differ there and only there (docs/SIMULATOR.md).

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;

use serde_json::{json, Map, Value};

use super::charts;
use super::engine::SimulationResult;
use super::metrics::{percentile, time_average};

/// The figures of `summary.json`.
pub fn summary(r: &SimulationResult) -> Value {
    let first_submit = r.jobs.iter().map(|j| j.submit_ms).min().unwrap_or(0);
    let last_finish = r
        .jobs
        .iter()
        .filter_map(|j| j.finish_ms)
        .max()
        .unwrap_or(first_submit);
    let makespan = (last_finish - first_submit).max(0);
    let end = last_finish.max(first_submit + 1);
    let times: Vec<i64> = r.samples.iter().map(|s| s.time_ms).collect();
    let cluster = r.cluster;
    let share = |v: i64, total: i64| {
        if total > 0 {
            v as f64 / total as f64
        } else {
            0.0
        }
    };
    let mem: Vec<f64> = r
        .samples
        .iter()
        .map(|s| share(s.allocated_memory, cluster.memory_mb()))
        .collect();
    let vc: Vec<f64> = r
        .samples
        .iter()
        .map(|s| share(s.allocated_vcores, cluster.vcores()))
        .collect();
    // What the NodeManagers really ran, opportunistic containers included.
    let nm_mem: Vec<f64> = r
        .samples
        .iter()
        .map(|s| share(s.nm_used_memory, cluster.memory_mb()))
        .collect();
    let nm_vc: Vec<f64> = r
        .samples
        .iter()
        .map(|s| share(s.nm_used_vcores, cluster.vcores()))
        .collect();
    let completed: Vec<_> = r.jobs.iter().filter(|j| j.finish_ms.is_some()).collect();
    let mut waits: Vec<i64> = completed.iter().filter_map(|j| j.wait_ms()).collect();
    let mut runs: Vec<i64> = completed.iter().filter_map(|j| j.run_ms()).collect();
    waits.sort_unstable();
    runs.sort_unstable();
    let pct = |v: &[i64]| json!({"p50": percentile(v, 50.0), "p90": percentile(v, 90.0), "p99": percentile(v, 99.0), "max": v.last().copied().unwrap_or(0)});
    let tasks_completed: u64 = completed.iter().map(|j| j.tasks as u64).sum();
    let mut queues = Map::new();
    for (i, leaf) in r.leaves.iter().enumerate() {
        let series: Vec<f64> = r
            .samples
            .iter()
            .map(|s| share(s.queues[i].allocated_memory, cluster.memory_mb()))
            .collect();
        let peak = series.iter().copied().fold(0.0, f64::max);
        queues.insert(
            leaf.path.clone(),
            json!({
                "average_share": round6(time_average(&times, &series, end)),
                "peak_share": round6(peak),
                "guaranteed_share": round6(leaf.guaranteed_share),
                "max_share": round6(leaf.max_share),
            }),
        );
    }
    let sim_secs = makespan as f64 / 1000.0;
    json!({
        "makespan_ms": makespan,
        "jobs_submitted": r.jobs.len(),
        "jobs_completed": completed.len(),
        "jobs_rejected": r.jobs.iter().filter(|j| j.rejected.is_some()).count(),
        "containers_allocated": r.containers_allocated,
        "containers_completed": tasks_completed,
        "utilization_memory": round6(time_average(&times, &mem, end)),
        "utilization_vcores": round6(time_average(&times, &vc, end)),
        "nm_utilization_memory": round6(time_average(&times, &nm_mem, end)),
        "nm_utilization_vcores": round6(time_average(&times, &nm_vc, end)),
        "tasks_per_sec": round6(if sim_secs > 0.0 { tasks_completed as f64 / sim_secs } else { 0.0 }),
        "allocations_per_sim_sec": round6(if sim_secs > 0.0 { r.containers_allocated as f64 / sim_secs } else { 0.0 }),
        "job_wait_ms": pct(&waits),
        "job_run_ms": pct(&runs),
        "queues": Value::Object(queues),
        "cluster": {"memory_mb": cluster.memory_mb(), "vcores": cluster.vcores()},
        "node_updates": r.node_updates,
        "allocate_calls": r.allocate_calls,
        "opportunistic_run_as_guaranteed": r.opportunistic_as_guaranteed,
        "opportunistic": {
            "enabled": r.opportunistic_enabled,
            "containers_allocated": r.opportunistic_allocated,
            "killed_by_nodemanager": r.killed_by_nm,
            "promotions": r.promotions,
        },
        "preemption": {
            "enabled": r.preemption_enabled,
            "rounds": r.preemption_rounds,
            "containers_marked": r.containers_marked,
            "containers_preempted": r.containers_preempted,
            "am_restarts": r.am_restarts,
            "wall_ms_per_round": round3(if r.preemption_rounds > 0 { r.preemption_wall_ms / r.preemption_rounds as f64 } else { 0.0 }),
        },
        "timed_out": r.timed_out,
        "wall_ms": round3(r.wall_ms),
        "wall_allocations_per_sec": round3(if r.wall_ms > 0.0 { r.containers_allocated as f64 / (r.wall_ms / 1000.0) } else { 0.0 }),
    })
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn round3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

/// The human summary printed at the end of a run (and saved as summary.txt).
pub fn summary_text(r: &SimulationResult, s: &Value) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "simulated {} ms of cluster time in {:.0} ms of wall time",
        s["makespan_ms"], r.wall_ms
    );
    let _ = writeln!(
        out,
        "jobs: {} submitted, {} completed, {} rejected; containers: {} allocated, {} tasks completed",
        s["jobs_submitted"], s["jobs_completed"], s["jobs_rejected"], s["containers_allocated"], s["containers_completed"]
    );
    let _ = writeln!(
        out,
        "utilization: memory {:.1}%, vcores {:.1}%; {:.2} tasks/s simulated; {:.0} allocations/s of wall time",
        s["utilization_memory"].as_f64().unwrap_or(0.0) * 100.0,
        s["utilization_vcores"].as_f64().unwrap_or(0.0) * 100.0,
        s["tasks_per_sec"].as_f64().unwrap_or(0.0),
        s["wall_allocations_per_sec"].as_f64().unwrap_or(0.0)
    );
    let _ = writeln!(
        out,
        "NodeManagers ran: memory {:.1}%, vcores {:.1}% (opportunistic containers included)",
        s["nm_utilization_memory"].as_f64().unwrap_or(0.0) * 100.0,
        s["nm_utilization_vcores"].as_f64().unwrap_or(0.0) * 100.0,
    );
    let _ = writeln!(
        out,
        "job wait ms (p50/p90/p99/max): {}/{}/{}/{}",
        s["job_wait_ms"]["p50"],
        s["job_wait_ms"]["p90"],
        s["job_wait_ms"]["p99"],
        s["job_wait_ms"]["max"]
    );
    let _ = writeln!(
        out,
        "job run ms  (p50/p90/p99/max): {}/{}/{}/{}",
        s["job_run_ms"]["p50"],
        s["job_run_ms"]["p90"],
        s["job_run_ms"]["p99"],
        s["job_run_ms"]["max"]
    );
    let _ = writeln!(
        out,
        "{:<28} {:>9} {:>9} {:>11} {:>9}",
        "queue", "average", "peak", "guaranteed", "maximum"
    );
    if let Some(queues) = s["queues"].as_object() {
        for (path, q) in queues {
            let p = |k: &str| q[k].as_f64().unwrap_or(0.0) * 100.0;
            let _ = writeln!(
                out,
                "{path:<28} {:>8.1}% {:>8.1}% {:>10.1}% {:>8.1}%",
                p("average_share"),
                p("peak_share"),
                p("guaranteed_share"),
                p("max_share")
            );
        }
    }
    if r.preemption_enabled {
        let _ = writeln!(
            out,
            "preemption: {} rounds, {} containers marked, {} preempted, {} AM restarts",
            r.preemption_rounds, r.containers_marked, r.containers_preempted, r.am_restarts
        );
        let _ = writeln!(
            out,
            "preemption rounds took {:.3} ms each of wall time",
            s["preemption"]["wall_ms_per_round"].as_f64().unwrap_or(0.0)
        );
    }
    if r.opportunistic_enabled {
        let _ = writeln!(
            out,
            "opportunistic: {} containers allocated, {} killed or rejected by NodeManagers (-108), {} promoted",
            r.opportunistic_allocated, r.killed_by_nm, r.promotions
        );
    }
    if r.opportunistic_as_guaranteed > 0 {
        let _ = writeln!(
            out,
            "note: {} opportunistic tasks ran as guaranteed",
            r.opportunistic_as_guaranteed
        );
    }
    if r.timed_out {
        let _ = writeln!(out, "note: stopped at the time limit with jobs unfinished");
    }
    out
}

/// SLS's realtimetrack.json: one object per tracking interval, SLS's key names.
pub fn realtimetrack(r: &SimulationResult) -> Value {
    let entries: Vec<Value> = r
        .samples
        .iter()
        .map(|s| {
            let mut m = Map::new();
            m.insert("time".into(), json!(s.time_ms / 1000));
            m.insert("running.applications".into(), json!(s.running_applications));
            m.insert("running.containers".into(), json!(s.running_containers));
            m.insert("cluster.allocated.memory".into(), json!(s.allocated_memory));
            m.insert("cluster.allocated.vcores".into(), json!(s.allocated_vcores));
            m.insert("cluster.available.memory".into(), json!(s.available_memory));
            m.insert("cluster.available.vcores".into(), json!(s.available_vcores));
            for (leaf, q) in r.leaves.iter().zip(&s.queues) {
                m.insert(
                    format!("queue.{}.allocated.memory", leaf.path),
                    json!(q.allocated_memory),
                );
                m.insert(
                    format!("queue.{}.allocated.vcores", leaf.path),
                    json!(q.allocated_vcores),
                );
                m.insert(
                    format!("queue.{}.pending.containers", leaf.path),
                    json!(q.pending_containers),
                );
            }
            m.insert(
                "scheduler.handle-NODE_UPDATE.timecost".into(),
                json!(round6(s.node_update_ms)),
            );
            m.insert(
                "scheduler.allocate.timecost".into(),
                json!(round6(s.allocate_ms)),
            );
            Value::Object(m)
        })
        .collect();
    Value::Array(entries)
}

/// SLS's jobruntime.csv (real = the trace's times, simulate = this run's).
pub fn jobruntime_csv(r: &SimulationResult) -> String {
    let mut out =
        String::from("JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time\n");
    for j in &r.jobs {
        let end = j.finish_ms.map(|f| f.to_string()).unwrap_or_default();
        let real_end = j.trace_end_ms.map(|e| e.to_string()).unwrap_or_default();
        let _ = writeln!(
            out,
            "{},{},{},{},{}",
            j.id, j.trace_start_ms, real_end, j.submit_ms, end
        );
    }
    out
}

/// One row per sample: time and, per leaf, `value(sample, leaf)`.
fn queue_csv(
    r: &SimulationResult,
    value: impl Fn(&super::metrics::QueueSample) -> String,
) -> String {
    let mut out = String::from("time_ms");
    for leaf in &r.leaves {
        let _ = write!(out, ",{}", leaf.path);
    }
    out.push('\n');
    for s in &r.samples {
        let _ = write!(out, "{}", s.time_ms);
        for q in &s.queues {
            let _ = write!(out, ",{}", value(q));
        }
        out.push('\n');
    }
    out
}

/// Writes every output file into `dir` (created if needed).
pub fn write_all(dir: &Path, r: &SimulationResult) -> io::Result<Value> {
    fs::create_dir_all(dir)?;
    let s = summary(r);
    let pretty = |v: &Value| serde_json::to_string_pretty(v).expect("JSON values serialise") + "\n";
    fs::write(dir.join("realtimetrack.json"), pretty(&realtimetrack(r)))?;
    fs::write(dir.join("jobruntime.csv"), jobruntime_csv(r))?;
    fs::write(
        dir.join("queue_usage_memory.csv"),
        queue_csv(r, |q| q.allocated_memory.to_string()),
    )?;
    fs::write(
        dir.join("queue_usage_vcores.csv"),
        queue_csv(r, |q| q.allocated_vcores.to_string()),
    )?;
    fs::write(
        dir.join("queue_pending_containers.csv"),
        queue_csv(r, |q| q.pending_containers.to_string()),
    )?;
    fs::write(dir.join("summary.json"), pretty(&s))?;
    fs::write(dir.join("summary.txt"), summary_text(r, &s))?;
    charts::write_charts(dir, r)?;
    Ok(s)
}
