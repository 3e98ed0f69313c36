//! Rumen job histories (`--tracetype=RUMEN`), mapped the way `AMRunner.startAMFromRumenTrace`
//! → `AMDefinitionFactory.createFromRumenTrace` / `AMDefinitionRumen` do.

use super::json::{self, At, Fields};
use super::nodes::split_network_path;
use super::{SimDefaults, TraceError, TraceExecutionType, TraceJob, TraceTask};
use crate::sim::limits::{self, Tally};

/// `AMDefinitionRumen.DEFAULT_MAPPER_PRIORITY` / `DEFAULT_REDUCER_PRIORITY`.
const MAP_PRIORITY: i32 = 20;
const REDUCE_PRIORITY: i32 = 10;

/// Reads a Rumen trace: a stream of `LoggedJob` objects. Per job:
///
/// * id `jobID` (required), `user` (`"default"` when absent), `queue` (`"default"` when absent;
///   SLS would fail on such a job), AM type `"mapreduce"`, the defaults' AM size, priority 0.
/// * Times are made relative as SLS's `startAMFromRumenTrace` did before its `AMDefinition`
///   refactoring (Hadoop 3.0–3.3 `SLSRunner`): the baseline is the first job's `submitTime`;
///   `start_ms = submitTime − baseline`, `end_ms = finishTime − baseline` (none when
///   `finishTime` is absent or negative). A job submitted before the baseline starts at 0 and
///   its end moves by the same amount. (Current trunk passes a baseline of 0 that each job's
///   builder replaces by its own submit time, so every job would start at 0 — a regression not
///   reproduced here.) The baseline is per call: SLS shared one across all input files.
/// * Each of `mapTasks` (type `"map"`, priority 20) then `reduceTasks` (`"reduce"`, 10) gives
///   one container from its *last* attempt: host `hostName` (none when absent), duration
///   `finishTime − startTime` (must be > 0, as `TaskContainerDefinition` requires), the
///   defaults' container size, `GUARANTEED`, no request delay; `start_ms` is the attempt's
///   `startTime` on the job's time base. A task without attempts is an error (trunk SLS drops
///   the whole job: "Invalid map task, no attempt for a mapper!"). `otherTasks` (setup and
///   cleanup) are ignored, as SLS ignores them.
pub fn parse_rumen(
    text: &str,
    file: &str,
    defaults: &SimDefaults,
) -> Result<Vec<TraceJob>, TraceError> {
    let mut jobs = Vec::new();
    let mut baseline: Option<i64> = None;
    let mut tally = Tally::default();
    for item in json::read_stream(text, file) {
        let (index, value) = item?;
        let value = &value;
        let at = At {
            file,
            job: Some(index),
        };
        let f = Fields::new(json::expect_object(value, &at)?, at, "");
        let Some(id) = f.string("jobID")? else {
            return Err(f.err("jobID", "missing"));
        };
        let user = f.string("user")?.unwrap_or_else(|| "default".to_string());
        let queue = f.string("queue")?.unwrap_or_else(|| "default".to_string());
        let Some(submit) = f.non_negative("submitTime")? else {
            return Err(f.err("submitTime", "missing"));
        };
        let finish = f.long("finishTime")?.filter(|t| *t >= 0);
        let base = *baseline.get_or_insert(submit);
        let relative = submit - base;
        // adjustTimeValuesToBaselineTime: a job before the baseline is moved to 0.
        let shift = if relative < 0 { -relative } else { 0 };
        let mut tasks = Vec::new();
        for (key, task_type, priority) in [
            ("mapTasks", "map", MAP_PRIORITY),
            ("reduceTasks", "reduce", REDUCE_PRIORITY),
        ] {
            let Some(list) = f.array(key)? else { continue };
            for (i, v) in list.iter().enumerate() {
                let t = f.element(key, i, v)?;
                let attempts = t.array("attempts")?.map(Vec::as_slice).unwrap_or(&[]);
                let Some(last) = attempts.last() else {
                    return Err(t.err(
                        "attempts",
                        format!("a {task_type} task without attempts (SLS rejects the job)"),
                    ));
                };
                let a = t.element("attempts", attempts.len() - 1, last)?;
                let host = a.string("hostName")?;
                let rack = match &host {
                    Some(h) => Some(split_network_path(h).map_err(|m| a.err("hostName", m))?.0),
                    None => None,
                };
                let Some(start) = a.long("startTime")? else {
                    return Err(a.err("startTime", "missing"));
                };
                let Some(end) = a.long("finishTime")? else {
                    return Err(a.err("finishTime", "missing"));
                };
                let duration_ms = end.saturating_sub(start);
                if duration_ms <= 0 {
                    return Err(a.err(
                        "finishTime",
                        format!("the attempt's duration finishTime − startTime must be > 0 ms, found {duration_ms}"),
                    ));
                }
                limits::check_time("the attempt's duration", duration_ms)
                    .map_err(|m| a.err("finishTime", m))?;
                tasks.push(TraceTask {
                    count: 1,
                    host,
                    rack,
                    start_ms: Some(start.saturating_sub(base).saturating_add(shift)),
                    duration_ms,
                    priority,
                    task_type: task_type.to_string(),
                    memory_mb: defaults.container_memory_mb,
                    vcores: defaults.container_vcores,
                    execution_type: TraceExecutionType::Guaranteed,
                    request_delay_ms: 0,
                });
            }
        }
        tally
            .add(1, tasks.len() as u64)
            .map_err(|m| f.err("mapTasks", m))?;
        limits::check_time("the job's start", relative + shift)
            .map_err(|m| f.err("submitTime", m))?;
        jobs.push(TraceJob {
            id,
            queue,
            user,
            start_ms: relative + shift,
            end_ms: finish.map(|t| t - base + shift),
            job_type: "mapreduce".to_string(),
            am_memory_mb: defaults.am_memory_mb,
            am_vcores: defaults.am_vcores,
            tasks,
            priority: 0,
            // Rumen job histories carry no node label (SLS runs them without one).
            label_expression: None,
        });
    }
    Ok(jobs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::trace::nodes_from_jobs;

    const RUMEN: &str = include_str!("../../../tests/data/sls/2jobs2min-rumen-jh.json");

    fn parse(text: &str) -> Result<Vec<TraceJob>, TraceError> {
        parse_rumen(text, "r.json", &SimDefaults::default())
    }

    /// 2jobs2min-rumen-jh.json: 2 TeraGen jobs of 96 maps and no reduces each, on 4 hosts.
    /// Relative times match SLS's inputsls.json, which was converted from this trace.
    #[test]
    fn rumen_sample() {
        let jobs = parse_rumen(RUMEN, "2jobs2min-rumen-jh.json", &SimDefaults::default()).unwrap();
        assert_eq!(jobs.len(), 2);
        let (a, b) = (&jobs[0], &jobs[1]);
        assert_eq!(a.id, "job_1369942127770_1205");
        assert_eq!(b.id, "job_1369942127770_1206");
        assert!(jobs
            .iter()
            .all(|j| j.queue == "sls_queue_1" && j.user == "jenkins" && j.job_type == "mapreduce"));
        assert_eq!(
            (a.start_ms, a.end_ms),
            (0, Some(1371222153874 - 1371222054499))
        );
        assert_eq!((b.start_ms, b.end_ms), (105204, Some(197256)));
        assert_eq!((a.tasks.len(), b.tasks.len()), (96, 96));
        assert!(jobs
            .iter()
            .flat_map(|j| &j.tasks)
            .all(|t| t.task_type == "map"
                && t.priority == 20
                && t.memory_mb == 1024
                && t.vcores == 1
                && t.rack.as_deref() == Some("/default-rack")));
        let t = &a.tasks[0];
        assert_eq!(t.host.as_deref(), Some("/default-rack/a2118.smile.com"));
        assert_eq!((t.start_ms, t.duration_ms), (Some(6664), 17043));
        let t = &b.tasks[0];
        assert_eq!(
            (t.start_ms, t.duration_ms),
            (Some(1371222166321 - 1371222054499), 22163)
        );

        let nodes = nodes_from_jobs(&jobs, &SimDefaults::default()).unwrap();
        let mut hosts: Vec<&str> = nodes.iter().map(|n| n.host.as_str()).collect();
        hosts.sort_unstable();
        assert_eq!(
            hosts,
            [
                "a2115.smile.com",
                "a2116.smile.com",
                "a2117.smile.com",
                "a2118.smile.com"
            ]
        );
    }

    #[test]
    fn last_attempt_reduces_and_defaults() {
        let jobs = parse(
            r#"{"jobID": "job_1_0001", "submitTime": 1000, "finishTime": 9000,
                "mapTasks": [{"attempts": [
                    {"hostName": "/r1/h1", "startTime": 1100, "finishTime": 1200},
                    {"hostName": "/r2/h2", "startTime": 1300, "finishTime": 1700}]}],
                "reduceTasks": [{"attempts": [{"startTime": 2000, "finishTime": 2500}]}],
                "otherTasks": [{"attempts": []}]}
               {"jobID": "job_1_0002", "user": "bob", "submitTime": 500, "finishTime": 800, "queue": "q"}"#,
        )
        .unwrap();
        let a = &jobs[0];
        assert_eq!((a.user.as_str(), a.queue.as_str()), ("default", "default"));
        assert_eq!(a.tasks.len(), 2);
        let (m, r) = (&a.tasks[0], &a.tasks[1]);
        assert_eq!(
            (m.host.as_deref(), m.rack.as_deref()),
            (Some("/r2/h2"), Some("/r2"))
        );
        assert_eq!(
            (m.start_ms, m.duration_ms, m.priority, m.task_type.as_str()),
            (Some(300), 400, 20, "map")
        );
        assert_eq!((r.host.as_deref(), r.rack.as_deref()), (None, None));
        assert_eq!(
            (r.duration_ms, r.priority, r.task_type.as_str()),
            (500, 10, "reduce")
        );
        // Submitted before the baseline (the first job's 1000): moved to 0, end moved alike.
        let b = &jobs[1];
        assert_eq!((b.user.as_str(), b.queue.as_str()), ("bob", "q"));
        assert_eq!((b.start_ms, b.end_ms), (0, Some(300)));
        assert!(b.tasks.is_empty());
    }

    #[test]
    fn malformed_rumen_traces_are_errors() {
        let job = r#"{"jobID": "j", "submitTime": 1, "mapTasks": []}"#;
        let e = parse(&format!(
            r#"{job} {{"jobID": "k", "submitTime": 5, "mapTasks": [{{"attempts": []}}]}}"#
        ))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"r.json: job 1: key "mapTasks[0].attempts": a map task without attempts (SLS rejects the job)"#
        );

        let e = parse(r#"{"jobID": "j", "submitTime": 1, "reduceTasks": [{"attempts": [{"hostName": "/r/h", "startTime": 9, "finishTime": 4}]}]}"#).unwrap_err();
        assert_eq!(
            (e.job_index, e.key.as_deref()),
            (Some(0), Some("reduceTasks[0].attempts[0].finishTime"))
        );

        let e = parse(r#"{"jobID": "j", "submitTime": 1, "mapTasks": [{"attempts": [{"hostName": "h", "startTime": 1, "finishTime": 4}]}]}"#).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("mapTasks[0].attempts[0].hostName"));

        let e = parse(r#"{"submitTime": 1}"#).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("jobID"));
        let e = parse(r#"{"jobID": "j"}"#).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("submitTime"));
        let e = parse(r#"{"jobID": "j", "submitTime": "soon"}"#).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("submitTime"));
        let e = parse(r#"{"jobID": "j", "submitTime": 1, "mapTasks": {}}"#).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("mapTasks"));
        let e = parse(
            r#"{"jobID": "j", "submitTime": 1, "mapTasks": [{"attempts": [{"startTime": 1}]}]}"#,
        )
        .unwrap_err();
        assert_eq!(e.key.as_deref(), Some("mapTasks[0].attempts[0].finishTime"));

        let e = parse(&format!("{job}\n{{\"jobID\": \"k\",\n \"submitTime\": }}")).unwrap_err();
        assert_eq!((e.job_index, e.key.as_deref()), (Some(1), None));
        assert!(e.message.contains("line 3 column 16"), "{e}");
    }
}
