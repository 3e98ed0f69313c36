//! Writes a run's outputs in SLS's shapes: `realtimetrack.json`, `jobruntime.csv`, per-queue
//! usage and pending CSVs, `summary.txt`, `summary.json`, and SVG charts.
//!
//! Everything is a pure function of the simulated run except the wall-clock measurements
//! (`scheduler.*.timecost` in realtimetrack.json, `wall_*` in the summaries): those measure this
//! process, so two runs differ there and only there (docs/SIMULATOR.md).
//!
//! The output directory is checked before the run ([`OutputDir::prepare`]): it is new, empty,
//! or an earlier run's (replaced only when asked); files are created fresh inside it, never
//! through a link; the per-sample files are streamed while the run goes ([`TrackWriter`]).

use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::charts;
use super::engine::SimulationResult;
use super::metrics::{percentile, LeafInfo, QueueSample, Reached, Sample};
use super::observer::SimObserver;

/// The file that marks a directory as a capsched run's output.
pub const MARKER: &str = "capsched-run.json";

/// Every file a run writes (charts included), so that a replaced run leaves nothing of itself.
pub const FILES: [&str; 12] = [
    MARKER,
    "realtimetrack.json",
    "jobruntime.csv",
    "queue_usage_memory.csv",
    "queue_usage_vcores.csv",
    "queue_pending_containers.csv",
    "summary.json",
    "summary.txt",
    "queue_usage.svg",
    "utilization.svg",
    "pending.svg",
    "problems.txt",
];

/// A directory checked for a run's outputs.
#[derive(Debug)]
pub struct OutputDir {
    path: PathBuf,
    run: String,
}

/// `scheduler-<MS>.json`: the RM REST document at simulated time MS (`--rest-at`).
pub fn rest_document_name(time_ms: i64) -> String {
    format!("scheduler-{time_ms}.json")
}

/// Whether `name` is a REST document a run wrote (removed with that run's other outputs).
fn is_rest_document_name(name: &str) -> bool {
    name.strip_prefix("scheduler-")
        .and_then(|n| n.strip_suffix(".json"))
        .is_some_and(|ms| !ms.is_empty() && ms.bytes().all(|b| b.is_ascii_digit()))
}

impl OutputDir {
    /// Checks `path` before anything is simulated: it is created if missing; an existing one
    /// must be a directory that is empty, or that holds an earlier run's outputs (its
    /// [`MARKER`]) — of the same run (`run`: what the run was asked, e.g. its command line), or
    /// of another when `replace` is set. That run's files are then removed (links among them
    /// are removed, never followed). A non-empty directory that is not a run's output (`/`,
    /// a home directory) is refused whatever `replace` says. The marker is written at once.
    pub fn prepare(path: &Path, run: &str, replace: bool) -> Result<OutputDir, String> {
        let shown = path.display();
        match fs::symlink_metadata(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(path).map_err(|e| format!("{shown}: cannot create: {e}"))?;
            }
            Err(e) => return Err(format!("{shown}: {e}")),
            Ok(_) => {
                // The directory the user named may itself be a link; what is inside is ours.
                let meta = fs::metadata(path).map_err(|e| format!("{shown}: {e}"))?;
                if !meta.is_dir() {
                    return Err(format!("{shown}: not a directory"));
                }
                let mut entries = fs::read_dir(path).map_err(|e| format!("{shown}: {e}"))?;
                let empty = entries.next().is_none();
                if !empty {
                    let earlier_run = fs::symlink_metadata(path.join(MARKER))
                        .map(|m| m.is_file())
                        .unwrap_or(false);
                    if !earlier_run {
                        return Err(format!(
                            "{shown}: the directory is not empty and holds no earlier capsched run \
                             ({MARKER}); give a new or empty directory"
                        ));
                    }
                    let same_run =
                        crate::files::read_regular_file(&path.join(MARKER), 1 << 20, "a marker")
                            .ok()
                            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                            .is_some_and(|m| m["run"].as_str() == Some(run));
                    if !same_run && !replace {
                        return Err(format!(
                            "{shown}: holds the outputs of another run; pass --force to replace \
                             them, or give another directory"
                        ));
                    }
                    let documents: Vec<String> = fs::read_dir(path)
                        .map_err(|e| format!("{shown}: {e}"))?
                        .filter_map(|e| e.ok()?.file_name().into_string().ok())
                        .filter(|n| is_rest_document_name(n))
                        .collect();
                    for name in FILES.iter().map(|n| n.to_string()).chain(documents) {
                        match fs::remove_file(path.join(&name)) {
                            Ok(()) => {}
                            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                            Err(e) => return Err(format!("{shown}/{name}: cannot remove: {e}")),
                        }
                    }
                }
            }
        }
        let dir = OutputDir {
            path: path.to_path_buf(),
            run: run.to_string(),
        };
        dir.mark(false)
            .map_err(|e| format!("{shown}/{MARKER}: {e}"))?;
        Ok(dir)
    }

    /// The marker: which run the outputs are of, and whether they are all written.
    fn mark(&self, complete: bool) -> io::Result<()> {
        let marker = json!({"run": self.run, "complete": complete});
        self.write(MARKER, &format!("{marker}\n"))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Creates `name` inside the directory: a new file, never an existing one or a link
    /// (`O_CREAT | O_EXCL`, which does not follow links), so nothing outside is touched.
    pub fn create(&self, name: &str) -> io::Result<File> {
        debug_assert!(!name.contains('/'), "a plain file name");
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.path.join(name))
    }

    /// Writes `name` whole, replacing an earlier version this run wrote (removed first, so a
    /// link put in its place is removed, not followed).
    pub fn write(&self, name: &str, contents: &str) -> io::Result<()> {
        match fs::remove_file(self.path.join(name)) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        self.create(name)?.write_all(contents.as_bytes())
    }
}

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
    let cluster = r.cluster;
    let share = |v: f64, total: i64| if total > 0 { v / total as f64 } else { 0.0 };
    // [allocated memory, allocated vcores, NM memory, NM vcores, each leaf's memory].
    let averages = r.series.averages();
    let avg = |i: usize| averages.get(i).copied().unwrap_or(0.0);
    let peak = |i: usize| r.series.peak.get(i).copied().unwrap_or(0.0);
    let completed: Vec<_> = r.jobs.iter().filter(|j| j.finish_ms.is_some()).collect();
    let mut waits: Vec<i64> = completed.iter().filter_map(|j| j.wait_ms()).collect();
    let mut runs: Vec<i64> = completed.iter().filter_map(|j| j.run_ms()).collect();
    waits.sort_unstable();
    runs.sort_unstable();
    let pct = |v: &[i64]| json!({"p50": percentile(v, 50.0), "p90": percentile(v, 90.0), "p99": percentile(v, 99.0), "max": v.last().copied().unwrap_or(0)});
    let tasks_completed: u64 = completed.iter().map(|j| j.tasks).sum();
    let mut queues = Map::new();
    for (i, leaf) in r.leaves.iter().enumerate() {
        queues.insert(
            leaf.path.clone(),
            json!({
                "average_share": round6(share(avg(4 + i), cluster.memory_mb())),
                "peak_share": round6(share(peak(4 + i), cluster.memory_mb()).max(0.0)),
                "guaranteed_share": round6(leaf.guaranteed_share),
                "max_share": round6(leaf.max_share),
            }),
        );
    }
    let problems: Vec<Value> = r
        .jobs
        .iter()
        .filter_map(|j| {
            let (outcome, message) = match (&j.rejected, &j.failed, &j.killed) {
                (Some(m), _, _) => ("rejected", m),
                (None, Some(m), _) => ("failed", m),
                (None, None, Some(m)) => ("killed", m),
                (None, None, None) => return None,
            };
            Some(json!({"job": j.id, "queue": j.queue, "outcome": outcome, "message": message}))
        })
        .take(MAX_LISTED)
        .collect();
    let sim_secs = makespan as f64 / 1000.0;
    json!({
        "makespan_ms": makespan,
        "jobs_submitted": r.jobs.len(),
        "jobs_completed": completed.len(),
        "jobs_rejected": r.jobs.iter().filter(|j| j.rejected.is_some()).count(),
        "jobs_failed": r.jobs.iter().filter(|j| j.failed.is_some()).count(),
        "jobs_killed": r.jobs.iter().filter(|j| j.killed.is_some()).count(),
        "containers_allocated": r.containers_allocated,
        "containers_completed": tasks_completed,
        "utilization_memory": round6(share(avg(0), cluster.memory_mb())),
        "utilization_vcores": round6(share(avg(1), cluster.vcores())),
        "nm_utilization_memory": round6(share(avg(2), cluster.memory_mb())),
        "nm_utilization_vcores": round6(share(avg(3), cluster.vcores())),
        "tasks_per_sec": round6(if sim_secs > 0.0 { tasks_completed as f64 / sim_secs } else { 0.0 }),
        "allocations_per_sim_sec": round6(if sim_secs > 0.0 { r.containers_allocated as f64 / sim_secs } else { 0.0 }),
        "job_wait_ms": pct(&waits),
        "job_run_ms": pct(&runs),
        "queues": Value::Object(queues),
        "cluster": {"memory_mb": cluster.memory_mb(), "vcores": cluster.vcores()},
        "node_updates": r.node_updates,
        "allocate_calls": r.allocate_calls,
        "opportunistic_run_as_guaranteed": r.opportunistic_as_guaranteed,
        "opportunistic": super::opportunistic_report::summary(r),
        "preemption": {
            "enabled": r.preemption_enabled,
            "policies": r.preemption_policies,
            "freed_space_protected": r.freed_space_protected,
            "rounds": r.preemption_rounds,
            "containers_marked": r.containers_marked,
            "containers_preempted": r.containers_preempted,
            "containers_wasted": r.queue_preemption.iter().map(|q| q.stats.wasted).sum::<u64>(),
            "queues": preemption_by_queue(r),
            "am_restarts": r.am_restarts,
            "wall_ms_per_round": round3(if r.preemption_rounds > 0 { r.preemption_wall_ms / r.preemption_rounds as f64 } else { 0.0 }),
        },
        "problems": problems,
        "warnings": r.warnings.iter().take(MAX_LISTED).collect::<Vec<_>>(),
        "skipped_idle_ms": r.skipped_ms,
        "timed_out": r.timed_out,
        "wall_ms": round3(r.wall_ms),
        "wall_allocations_per_sec": round3(if r.wall_ms > 0.0 { r.containers_allocated as f64 / (r.wall_ms / 1000.0) } else { 0.0 }),
    })
}

/// Per leaf: containers marked, killed and wasted (killed, their room then taken by the same
/// leaf), and each starvation (pending demand below the guarantee) with how long it lasted.
fn preemption_by_queue(r: &SimulationResult) -> Value {
    let mut out = Map::new();
    for (leaf, q) in r.leaves.iter().zip(&r.queue_preemption) {
        let longest = q.starved.iter().map(|s| s.to_ms - s.from_ms).max();
        out.insert(
            leaf.path.clone(),
            json!({
                "containers_marked": q.stats.marked,
                "containers_killed": q.stats.killed,
                "containers_wasted": q.stats.wasted,
                "starved": q.starved.iter().take(MAX_LISTED).map(|s| json!({
                    "from_ms": s.from_ms,
                    "to_ms": s.to_ms,
                    "took_ms": s.to_ms - s.from_ms,
                    "reached": s.reached,
                })).collect::<Vec<_>>(),
                "longest_starved_ms": longest,
            }),
        );
    }
    Value::Object(out)
}

/// Rejected or failed jobs and warnings listed by name in the summaries (the counts are
/// complete; `problems.txt` lists every one).
const MAX_LISTED: usize = 100;

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn round3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

/// Every rejected or failed job with YARN's message, and every warning, one per line.
pub fn problems_text(r: &SimulationResult) -> String {
    let mut out = String::new();
    for j in &r.jobs {
        if let Some(m) = &j.rejected {
            let _ = writeln!(out, "job {} (queue {}) rejected: {m}", j.id, j.queue);
        } else if let Some(m) = &j.failed {
            let _ = writeln!(out, "job {} (queue {}) failed: {m}", j.id, j.queue);
        }
    }
    for w in &r.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    out
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
        "jobs: {} submitted, {} completed, {} rejected, {} failed, {} killed; containers: {} allocated, {} tasks completed",
        s["jobs_submitted"], s["jobs_completed"], s["jobs_rejected"], s["jobs_failed"], s["jobs_killed"], s["containers_allocated"], s["containers_completed"]
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
        let wasted: u64 = r.queue_preemption.iter().map(|q| q.stats.wasted).sum();
        let _ = writeln!(
            out,
            "preemption: {} rounds, {} containers marked, {} preempted, {} wasted, {} AM restarts",
            r.preemption_rounds, r.containers_marked, r.containers_preempted, wasted, r.am_restarts
        );
        let _ = writeln!(
            out,
            "preemption ran: {}; freed space {}",
            r.preemption_policies.join(", "),
            if r.freed_space_protected {
                "held for queues below their guarantee"
            } else {
                "open to every queue (YARN's behaviour)"
            }
        );
        for (leaf, q) in r.leaves.iter().zip(&r.queue_preemption) {
            if q.stats == Default::default() && q.starved.is_empty() {
                continue;
            }
            let longest = q.starved.iter().max_by_key(|s| s.to_ms - s.from_ms);
            let _ = writeln!(
                out,
                "  {:<26} marked {:>5}, killed {:>5}, wasted {:>5}; {}",
                leaf.path,
                q.stats.marked,
                q.stats.killed,
                q.stats.wasted,
                match longest {
                    Some(s) => format!(
                        "starved {} time(s), longest {:.0} s (until its {})",
                        q.starved.len(),
                        (s.to_ms - s.from_ms) as f64 / 1000.0,
                        match s.reached {
                            Reached::Guarantee => "guarantee",
                            Reached::Demand => "demand was met",
                            Reached::EndOfRun => "end of the run",
                        }
                    ),
                    None => "never starved".to_string(),
                }
            );
        }
        let _ = writeln!(
            out,
            "preemption rounds took {:.3} ms each of wall time",
            s["preemption"]["wall_ms_per_round"].as_f64().unwrap_or(0.0)
        );
    }
    if r.opportunistic_enabled {
        out.push_str(&super::opportunistic_report::text(&s["opportunistic"]));
    }
    if r.opportunistic_as_guaranteed > 0 {
        let _ = writeln!(
            out,
            "note: {} opportunistic tasks ran as guaranteed",
            r.opportunistic_as_guaranteed
        );
    }
    if r.skipped_ms > 0 {
        let _ = writeln!(
            out,
            "note: {:.0} s of simulated time skipped where nothing could happen",
            r.skipped_ms as f64 / 1000.0
        );
    }
    let listed = s["problems"].as_array().map_or(0, Vec::len);
    let problems = s["jobs_rejected"].as_u64().unwrap_or(0)
        + s["jobs_failed"].as_u64().unwrap_or(0)
        + s["jobs_killed"].as_u64().unwrap_or(0);
    for p in s["problems"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "job {} {}: {}",
            p["job"].as_str().unwrap_or(""),
            p["outcome"].as_str().unwrap_or(""),
            p["message"].as_str().unwrap_or("")
        );
    }
    if problems as usize > listed {
        let _ = writeln!(
            out,
            "… and {} more (problems.txt)",
            problems as usize - listed
        );
    }
    for w in r.warnings.iter().take(MAX_LISTED) {
        let _ = writeln!(out, "warning: {w}");
    }
    if r.timed_out {
        let _ = writeln!(out, "note: stopped at the time limit with jobs unfinished");
    }
    out
}

/// One realtimetrack.json entry: SLS's key names.
fn track_entry(s: &Sample, leaves: &[LeafInfo]) -> Value {
    let mut m = Map::new();
    m.insert("time".into(), json!(s.time_ms / 1000));
    m.insert("running.applications".into(), json!(s.running_applications));
    m.insert("running.containers".into(), json!(s.running_containers));
    m.insert("cluster.allocated.memory".into(), json!(s.allocated_memory));
    m.insert("cluster.allocated.vcores".into(), json!(s.allocated_vcores));
    m.insert("cluster.available.memory".into(), json!(s.available_memory));
    m.insert("cluster.available.vcores".into(), json!(s.available_vcores));
    for (leaf, q) in leaves.iter().zip(&s.queues) {
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
}

/// The per-sample files, written as the samples come: SLS's realtimetrack.json (a JSON array,
/// one entry per sample; idle stretches the run skipped have no entries, the values holding
/// across them) and one CSV row per sample for each leaf's memory, vcores and pending
/// containers.
pub struct TrackWriter {
    leaves: Vec<LeafInfo>,
    track: BufWriter<File>,
    csvs: [QueueCsv; 3],
    entries: u64,
}

/// A per-queue CSV being written, and the column it shows.
type QueueCsv = (BufWriter<File>, fn(&QueueSample) -> i64);

impl TrackWriter {
    pub fn create(dir: &OutputDir) -> io::Result<TrackWriter> {
        let open = |name: &str| dir.create(name).map(BufWriter::new);
        Ok(TrackWriter {
            leaves: Vec::new(),
            track: open("realtimetrack.json")?,
            csvs: [
                (open("queue_usage_memory.csv")?, |q| q.allocated_memory),
                (open("queue_usage_vcores.csv")?, |q| q.allocated_vcores),
                (open("queue_pending_containers.csv")?, |q| {
                    q.pending_containers as i64
                }),
            ],
            entries: 0,
        })
    }

    /// Closes the JSON array and flushes everything.
    pub fn finish(mut self) -> io::Result<()> {
        self.track
            .write_all(if self.entries == 0 { b"[]\n" } else { b"\n]\n" })?;
        self.track.flush()?;
        for (w, _) in &mut self.csvs {
            w.flush()?;
        }
        Ok(())
    }
}

impl SimObserver for TrackWriter {
    fn start(&mut self, leaves: &[LeafInfo]) -> io::Result<()> {
        self.leaves = leaves.to_vec();
        for (w, _) in &mut self.csvs {
            let mut header = String::from("time_ms");
            for leaf in leaves {
                let _ = write!(header, ",{}", leaf.path);
            }
            writeln!(w, "{header}")?;
        }
        Ok(())
    }

    fn sample(&mut self, s: &Sample) -> io::Result<()> {
        let entry =
            serde_json::to_string(&track_entry(s, &self.leaves)).map_err(io::Error::other)?;
        let sep: &[u8] = if self.entries == 0 {
            b"[\n  "
        } else {
            b",\n  "
        };
        self.track.write_all(sep)?;
        self.track.write_all(entry.as_bytes())?;
        self.entries += 1;
        for (w, value) in &mut self.csvs {
            let mut row = s.time_ms.to_string();
            for q in &s.queues {
                let _ = write!(row, ",{}", value(q));
            }
            writeln!(w, "{row}")?;
        }
        Ok(())
    }
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

/// Writes the end-of-run files into `dir` (the per-sample ones were streamed by a
/// [`TrackWriter`]) and marks the run complete. Returns the summary.
pub fn write_all(dir: &OutputDir, r: &SimulationResult) -> io::Result<Value> {
    let s = summary(r);
    let pretty = |v: &Value| serde_json::to_string_pretty(v).expect("JSON values serialise") + "\n";
    dir.write("jobruntime.csv", &jobruntime_csv(r))?;
    if let Some(rows) = &r.container_log {
        dir.write(
            "containers.csv",
            &super::opportunistic_report::containers_csv(rows),
        )?;
    }
    dir.write("summary.json", &pretty(&s))?;
    dir.write("summary.txt", &summary_text(r, &s))?;
    let problems = problems_text(r);
    if !problems.is_empty() {
        dir.write("problems.txt", &problems)?;
    }
    for (name, svg) in charts::render_charts(r)? {
        dir.write(name, &svg)?;
    }
    dir.mark(true)?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("capsched-out-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_new_or_empty_directory_is_taken_a_foreign_one_never() {
        let d = temp("new");
        OutputDir::prepare(&d, "run a", false).unwrap();
        assert!(d.join(MARKER).is_file());
        // The same run again replaces its own outputs.
        fs::write(d.join("summary.json"), "{}").unwrap();
        OutputDir::prepare(&d, "run a", false).unwrap();
        assert!(!d.join("summary.json").exists());
        // Another run: refused without --force, replaced with it.
        fs::write(d.join("summary.json"), "{}").unwrap();
        let e = OutputDir::prepare(&d, "run b", false).unwrap_err();
        assert!(e.contains("--force"), "{e}");
        OutputDir::prepare(&d, "run b", true).unwrap();
        assert!(
            !d.join("summary.json").exists(),
            "the earlier run's files are gone"
        );
        // A directory with other files is not ours, --force or not.
        let foreign = temp("foreign");
        fs::create_dir_all(&foreign).unwrap();
        fs::write(foreign.join("notes.txt"), "mine").unwrap();
        for force in [false, true] {
            let e = OutputDir::prepare(&foreign, "run a", force).unwrap_err();
            assert!(e.contains("not empty"), "{e}");
        }
        assert_eq!(
            fs::read_to_string(foreign.join("notes.txt")).unwrap(),
            "mine"
        );
        let e = OutputDir::prepare(Path::new("/"), "run a", true).unwrap_err();
        assert!(e.contains("not empty"), "{e}");
        let file = foreign.join("notes.txt");
        assert!(OutputDir::prepare(&file, "run a", true)
            .unwrap_err()
            .contains("not a directory"));
        let _ = fs::remove_dir_all(&d);
        let _ = fs::remove_dir_all(&foreign);
    }

    #[cfg(unix)]
    #[test]
    fn links_inside_the_directory_are_never_followed() {
        let d = temp("links");
        let outside = temp("outside");
        fs::create_dir_all(&outside).unwrap();
        let victim = outside.join("precious.txt");
        fs::write(&victim, "keep me").unwrap();
        let dir = OutputDir::prepare(&d, "run a", false).unwrap();
        std::os::unix::fs::symlink(&victim, d.join("jobruntime.csv")).unwrap();
        // Writing a file whose name is a planted link replaces the link, not its target.
        dir.write("jobruntime.csv", "JobID\n").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep me");
        assert!(!fs::symlink_metadata(d.join("jobruntime.csv"))
            .unwrap()
            .is_symlink());
        // A planted link where a streamed file goes makes creation fail instead.
        std::os::unix::fs::symlink(&victim, d.join("realtimetrack.json")).unwrap();
        assert!(TrackWriter::create(&dir).is_err());
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep me");
        // Replacing a run removes links among its files without following them.
        OutputDir::prepare(&d, "run b", true).unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep me");
        let _ = fs::remove_dir_all(&d);
        let _ = fs::remove_dir_all(&outside);
    }
}
