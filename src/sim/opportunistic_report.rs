//! What an operator needs to judge opportunistic execution on a run: job times split by
//! whether the job ran opportunistic containers, how long containers waited in NodeManager
//! queues, what the NodeManagers killed, rejected, shed or paused and why, and the
//! per-container timeline (`containers.csv`).

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::engine::SimulationResult;
use super::metrics::percentile;
use super::timeline::TimelineRow;

fn distribution(mut v: Vec<i64>) -> Value {
    v.sort_unstable();
    json!({
        "count": v.len(),
        "p50": percentile(&v, 50.0),
        "p90": percentile(&v, 90.0),
        "p99": percentile(&v, 99.0),
        "max": v.last().copied().unwrap_or(0),
    })
}

/// The `opportunistic` object of `summary.json`.
pub fn summary(r: &SimulationResult) -> Value {
    let runs = |used: bool| {
        distribution(
            r.jobs
                .iter()
                .filter(|j| (j.opportunistic_containers > 0) == used)
                .filter_map(|j| j.run_ms())
                .collect(),
        )
    };
    let delays = |v: &[u32]| distribution(v.iter().map(|&d| d as i64).collect());
    let n = &r.nm_stats;
    json!({
        "enabled": r.opportunistic_enabled,
        "containers_allocated": r.opportunistic_allocated,
        "killed_by_nodemanager": r.killed_by_nm,
        "promotions": r.promotions,
        "nodemanager_actions": {
            "killed_for_guaranteed": n.killed_for_guaranteed,
            "rejected_queue_full": n.rejected_queue_full,
            "dequeued_by_queue_limit": n.dequeued,
            "paused_for_guaranteed": n.paused,
            "resumed": n.resumed,
        },
        "job_run_ms": {
            "with_opportunistic": runs(true),
            "guaranteed_only": runs(false),
        },
        "nm_queue_delay_ms": {
            "opportunistic": delays(&n.queue_delay_opportunistic_ms),
            "guaranteed": delays(&n.queue_delay_guaranteed_ms),
        },
    })
}

/// The lines of `summary.txt` about opportunistic execution (`s`: the summary's
/// `opportunistic` object).
pub fn text(s: &Value) -> String {
    let mut out = String::new();
    let a = &s["nodemanager_actions"];
    let _ = writeln!(
        out,
        "opportunistic: {} containers allocated, {} killed or rejected by NodeManagers (-108): {} killed for guaranteed, {} rejected (queue full), {} shed (queue limit); {} paused, {} resumed; {} promoted",
        s["containers_allocated"],
        s["killed_by_nodemanager"],
        a["killed_for_guaranteed"],
        a["rejected_queue_full"],
        a["dequeued_by_queue_limit"],
        a["paused_for_guaranteed"],
        a["resumed"],
        s["promotions"],
    );
    for (label, key) in [
        ("jobs with opportunistic", "with_opportunistic"),
        ("jobs guaranteed only", "guaranteed_only"),
    ] {
        let d = &s["job_run_ms"][key];
        if d["count"].as_u64().unwrap_or(0) > 0 {
            let _ = writeln!(
                out,
                "  {label}: {} jobs, run ms (p50/p90/p99/max): {}/{}/{}/{}",
                d["count"], d["p50"], d["p90"], d["p99"], d["max"]
            );
        }
    }
    let d = &s["nm_queue_delay_ms"]["opportunistic"];
    if d["count"].as_u64().unwrap_or(0) > 0 {
        let _ = writeln!(
            out,
            "  NodeManager queueing delay of opportunistic containers, ms (p50/p90/p99/max): {}/{}/{}/{}",
            d["p50"], d["p90"], d["p99"], d["max"]
        );
    }
    out
}

/// `containers.csv`: one row per step of every container, by job, container, time.
pub fn containers_csv(rows: &[TimelineRow]) -> String {
    let mut out = String::from("job,container,execution,host,time_ms,step,detail\n");
    for r in rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{}",
            r.job,
            r.container,
            r.execution,
            r.host,
            r.time_ms,
            r.step,
            r.detail.replace(',', ";")
        );
    }
    out
}
