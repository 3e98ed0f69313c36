//! SLS's own JSON job format (`--tracetype=SLS`), read as `AMRunner.startAMFromSLSTrace` →
//! `AMDefinitionFactory.createFromSlsTrace` → `AMDefinitionSLS` / `TaskContainerDefinition` do.

use super::json::{self, At, Fields};
use super::nodes::split_network_path;
use super::{SimDefaults, TraceError, TraceExecutionType, TraceJob, TraceTask};
use crate::sim::limits::{self, Tally};

/// `AMDefinitionRumen.DEFAULT_MAPPER_PRIORITY`, `TaskContainerDefinition`'s default priority.
const DEFAULT_TASK_PRIORITY: i32 = 20;

/// Reads an SLS JSON trace: a stream of job objects. Per job (key: default when absent):
///
/// * `yarn.sls.am.type` (SLS's `SLSConfiguration.AM_TYPE`): `"mapreduce"`. The older key
///   `am.type` — still what SLS's documentation and sample `inputsls.json` write, and what SLS
///   before Hadoop 3 read — is accepted when `yarn.sls.am.type` is absent.
/// * `am.memory-mb`, `am.vcores`: the defaults' AM size.
/// * `job.start.ms`: 0; `job.end.ms`: none (SLS: 0, only logged).
/// * `job.user`: `"default"` (`AmDefinitionBuilder.DEFAULT_USER`); `job.queue.name`:
///   `"default"` (SLS submits a null queue, which the RM's `ClientRMService` replaces by
///   `default`).
/// * `job.id`: SLS's AM sequence number. `job.count` (default 1, at least 1) submits the job
///   that many times; then, as in `AMDefinitionSLS.Builder.build` and `AMRunner.runNewAM`, the
///   trace's id is dropped and every copy is named by the AM sequence number — the 0-based
///   count of AMs created so far in the file, as a decimal string (no suffix scheme: SLS uses
///   the bare number).
/// * `job.label.expression`: none; the application's node-label expression (a string, number
///   or boolean as text), which its AM and every task ask take (tasks carry no label of
///   their own in SLS).
/// * `job.tasks`: required and non-empty (SLS: "No task for the job!"). Per task:
///   `count` (1, at least 1) copies; `container.host` (none: no locality), which must be a
///   `/rack/host` path; a duration from `container.duration.ms`, else the legacy `duration.ms`,
///   else `container.end.ms − container.start.ms`, which must be > 0;
///   `container.memory-mb` / `container.vcores` (the defaults' container size);
///   `container.priority` (20); `container.type` (`"map"`);
///   `container.execution.type` (`GUARANTEED`, or `OPPORTUNISTIC`; other names are errors);
///   `container.request.delay` (0, negative clamped to 0 as SLS does);
///   `container.allocation.id` is checked but not kept.
///
/// A value with `num.nodes` and no `job.tasks` declares nodes, not a job (SLS's
/// `parseNodesFromSLSTrace` reads it, the AM reader skips it): it is skipped here, see
/// [`nodes_from_sls_trace`](super::nodes_from_sls_trace). Negative times and sizes are errors.
/// Jobs keep file order (SLS schedules each at its start time).
pub fn parse_sls_jobs(
    text: &str,
    file: &str,
    defaults: &SimDefaults,
) -> Result<Vec<TraceJob>, TraceError> {
    let mut jobs = Vec::new();
    // AMRunner's AM_ID: every AM created so far.
    let mut am_id: u64 = 0;
    let mut tally = Tally::default();
    for item in json::read_stream(text, file) {
        let (index, value) = item?;
        let value = &value;
        let at = At {
            file,
            job: Some(index),
        };
        let f = Fields::new(json::expect_object(value, &at)?, at, "");
        if !f.has("job.tasks") && f.has("num.nodes") {
            continue;
        }
        let (template, trace_id, count) = parse_job(&f, defaults)?;
        let containers = template.tasks.iter().map(|t| t.count).sum();
        let key = if count > 1 { "job.count" } else { "job.tasks" };
        tally
            .add(u64::from(count), containers)
            .map_err(|m| f.err(key, m))?;
        for _ in 0..count {
            let id = match (&trace_id, count) {
                (Some(id), 1) => id.clone(),
                _ => am_id.to_string(),
            };
            am_id += 1;
            jobs.push(TraceJob {
                id,
                ..template.clone()
            });
        }
    }
    Ok(jobs)
}

/// One job object: the job (with an empty id), the trace's id, and `job.count`.
fn parse_job(
    f: &Fields<'_>,
    defaults: &SimDefaults,
) -> Result<(TraceJob, Option<String>, u32), TraceError> {
    let job_type = match f.string("yarn.sls.am.type")? {
        Some(t) => t,
        None => f
            .string("am.type")?
            .unwrap_or_else(|| "mapreduce".to_string()),
    };
    let am_memory_mb = f
        .non_negative("am.memory-mb")?
        .unwrap_or(defaults.am_memory_mb);
    let am_vcores = f.non_negative("am.vcores")?.unwrap_or(defaults.am_vcores);
    let tasks = match f.array("job.tasks")? {
        Some(t) if !t.is_empty() => t,
        Some(_) => {
            return Err(f.err(
                "job.tasks",
                "no tasks (SLS rejects the job: \"No task for the job!\")",
            ))
        }
        None => {
            return Err(f.err(
                "job.tasks",
                "missing (SLS rejects the job: \"No task for the job!\")",
            ))
        }
    };
    let mut out = Vec::new();
    for (i, v) in tasks.iter().enumerate() {
        let t = f.element("job.tasks", i, v)?;
        parse_task(&t, defaults, &mut out)?;
    }
    let start_ms = f.non_negative("job.start.ms")?.unwrap_or(0);
    limits::check_time("job.start.ms", start_ms).map_err(|m| f.err("job.start.ms", m))?;
    let end_ms = f.non_negative("job.end.ms")?;
    // SLSRunner: `jsonJob.get(JOB_LABEL_EXPR).toString()`, the application's label.
    let label_expression = f.text("job.label.expression")?;
    let user = f
        .string("job.user")?
        .unwrap_or_else(|| "default".to_string());
    let queue = f
        .text("job.queue.name")?
        .unwrap_or_else(|| "default".to_string());
    let trace_id = f.string("job.id")?;
    let count = f.int("job.count")?.unwrap_or(1).max(1) as u32;
    let job = TraceJob {
        id: String::new(),
        queue,
        user,
        start_ms,
        end_ms,
        job_type,
        am_memory_mb,
        am_vcores,
        tasks: out,
        priority: 0,
        label_expression,
    };
    Ok((job, trace_id, count))
}

/// One task object: `count` identical containers.
fn parse_task(
    t: &Fields<'_>,
    defaults: &SimDefaults,
    out: &mut Vec<TraceTask>,
) -> Result<(), TraceError> {
    let count = t.int("count")?.unwrap_or(1).max(1);
    let host = t.string("container.host")?;
    let rack = match &host {
        Some(h) => Some(
            split_network_path(h)
                .map_err(|m| t.err("container.host", m))?
                .0,
        ),
        None => None,
    };
    // TaskContainerDefinition.validateAndGetDuration. (SLS uses -1 as "unset", so an explicit
    // -1 falls through to the next source there; here any value ≤ 0 is an error.)
    let duration = t.long("container.duration.ms")?;
    let legacy = t.long("duration.ms")?;
    let start = t.non_negative("container.start.ms")?;
    let end = t.non_negative("container.end.ms")?;
    let (duration_ms, key) = match (duration, legacy, start, end) {
        (Some(d), _, _, _) => (d, "container.duration.ms"),
        (None, Some(d), _, _) => (d, "duration.ms"),
        (None, None, Some(s), Some(e)) => (e - s, "container.end.ms"),
        _ => {
            return Err(t.err(
                "container.duration.ms",
                "missing: a task needs container.duration.ms (or duration.ms), or both \
                 container.start.ms and container.end.ms",
            ))
        }
    };
    if duration_ms <= 0 {
        return Err(t.err(
            key,
            format!("the task's duration must be > 0 ms, found {duration_ms}"),
        ));
    }
    limits::check_time("the task's duration", duration_ms).map_err(|m| t.err(key, m))?;
    let memory_mb = t
        .non_negative("container.memory-mb")?
        .unwrap_or(defaults.container_memory_mb);
    let vcores = t
        .non_negative("container.vcores")?
        .unwrap_or(defaults.container_vcores);
    let priority = t
        .int("container.priority")?
        .unwrap_or(DEFAULT_TASK_PRIORITY);
    let task_type = t
        .text("container.type")?
        .unwrap_or_else(|| "map".to_string());
    let execution_type = match t.text("container.execution.type")? {
        None => TraceExecutionType::Guaranteed,
        Some(name) => TraceExecutionType::parse(&name).ok_or_else(|| {
            t.err(
                "container.execution.type",
                format!("unknown execution type {name:?} (GUARANTEED or OPPORTUNISTIC)"),
            )
        })?,
    };
    t.long("container.allocation.id")?;
    let request_delay_ms = t.long("container.request.delay")?.unwrap_or(0).max(0);
    limits::check_time("container.request.delay", request_delay_ms)
        .map_err(|m| t.err("container.request.delay", m))?;
    out.push(TraceTask {
        count: count as u64,
        host,
        rack,
        start_ms: start,
        duration_ms,
        priority,
        task_type,
        memory_mb,
        vcores,
        execution_type,
        request_delay_ms,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT_SLS: &str = include_str!("../../../tests/data/sls/inputsls.json");
    const SLS_DAG: &str = include_str!("../../../tests/data/sls/sls_dag.json");

    fn parse(text: &str) -> Vec<TraceJob> {
        parse_sls_jobs(text, "t.json", &SimDefaults::default()).unwrap()
    }

    fn err(text: &str) -> TraceError {
        parse_sls_jobs(text, "t.json", &SimDefaults::default()).unwrap_err()
    }

    /// inputsls.json: 2 jobs, 3 + 2 map tasks, durations end − start.
    #[test]
    fn inputsls_sample() {
        let jobs = parse_sls_jobs(INPUT_SLS, "inputsls.json", &SimDefaults::default()).unwrap();
        assert_eq!(jobs.len(), 2);
        let (a, b) = (&jobs[0], &jobs[1]);
        assert_eq!(
            (a.id.as_str(), a.queue.as_str(), a.user.as_str()),
            ("job_1", "sls_queue_1", "default")
        );
        assert_eq!(
            (b.id.as_str(), b.queue.as_str(), b.user.as_str()),
            ("job_2", "sls_queue_2", "default")
        );
        assert_eq!((a.start_ms, a.end_ms), (0, Some(95375)));
        assert_eq!((b.start_ms, b.end_ms), (105204, Some(197256)));
        assert_eq!(a.job_type, "mapreduce");
        assert_eq!((a.am_memory_mb, a.am_vcores, a.priority), (1024, 1, 0));
        let durations = |j: &TraceJob| j.tasks.iter().map(|t| t.duration_ms).collect::<Vec<_>>();
        assert_eq!(durations(a), [23707 - 6664, 21593 - 6665, 86613 - 68770]);
        assert_eq!(durations(b), [133985 - 111822, 131377 - 111788]);
        let t = &a.tasks[1];
        assert_eq!(t.host.as_deref(), Some("/default-rack/node3"));
        assert_eq!(t.rack.as_deref(), Some("/default-rack"));
        assert_eq!(t.start_ms, Some(6665));
        assert_eq!((t.priority, t.task_type.as_str()), (20, "map"));
        assert_eq!((t.memory_mb, t.vcores), (1024, 1));
        assert_eq!(
            (t.execution_type, t.request_delay_ms),
            (TraceExecutionType::Guaranteed, 0)
        );
    }

    /// sls_dag.json: 2 `dag` jobs, 3 + 2 tasks, request delays 1000 and 1500 on the first two.
    #[test]
    fn sls_dag_sample() {
        let jobs = parse_sls_jobs(SLS_DAG, "sls_dag.json", &SimDefaults::default()).unwrap();
        assert_eq!(jobs.len(), 2);
        assert!(jobs.iter().all(|j| j.job_type == "dag"));
        assert_eq!(
            jobs.iter().map(|j| j.tasks.len()).collect::<Vec<_>>(),
            [3, 2]
        );
        let delays: Vec<i64> = jobs[0].tasks.iter().map(|t| t.request_delay_ms).collect();
        assert_eq!(delays, [1000, 1500, 0]);
        assert!(jobs[1].tasks.iter().all(|t| t.request_delay_ms == 0));
    }

    #[test]
    fn sls_defaults_for_missing_keys() {
        let d = SimDefaults {
            am_memory_mb: 700,
            am_vcores: 3,
            container_memory_mb: 333,
            container_vcores: 4,
            ..SimDefaults::default()
        };
        let jobs = parse_sls_jobs(
            r#"{"job.tasks": [{"container.duration.ms": 5}]}"#,
            "t.json",
            &d,
        )
        .unwrap();
        assert_eq!(
            jobs,
            [TraceJob {
                id: "0".into(),
                queue: "default".into(),
                user: "default".into(),
                start_ms: 0,
                end_ms: None,
                job_type: "mapreduce".into(),
                am_memory_mb: 700,
                am_vcores: 3,
                tasks: vec![TraceTask {
                    count: 1,
                    host: None,
                    rack: None,
                    start_ms: None,
                    duration_ms: 5,
                    priority: 20,
                    task_type: "map".into(),
                    memory_mb: 333,
                    vcores: 4,
                    execution_type: TraceExecutionType::Guaranteed,
                    request_delay_ms: 0,
                }],
                priority: 0,
                label_expression: None,
            }]
        );
    }

    #[test]
    fn explicit_sizes_types_and_priorities() {
        let jobs = parse(
            r#"{"yarn.sls.am.type": "stream", "am.type": "dag", "am.memory-mb": 2048, "am.vcores": "2",
                "job.user": "u", "job.queue.name": "q", "job.start.ms": "100",
                "job.tasks": [{"container.duration.ms": 7, "container.memory-mb": 4096,
                               "container.vcores": 3, "container.priority": 10,
                               "container.type": "reduce", "container.execution.type": "OPPORTUNISTIC",
                               "container.request.delay": -50, "container.allocation.id": 4}]}
               {"am.type": "dag", "job.tasks": [{"duration.ms": 9}]}"#,
        );
        let (a, b) = (&jobs[0], &jobs[1]);
        assert_eq!(
            (a.job_type.as_str(), a.am_memory_mb, a.am_vcores),
            ("stream", 2048, 2)
        );
        assert_eq!(
            (a.user.as_str(), a.queue.as_str(), a.start_ms),
            ("u", "q", 100)
        );
        let t = &a.tasks[0];
        assert_eq!(
            (t.memory_mb, t.vcores, t.priority, t.task_type.as_str()),
            (4096, 3, 10, "reduce")
        );
        assert_eq!(
            (t.execution_type, t.request_delay_ms),
            (TraceExecutionType::Opportunistic, 0)
        );
        // The documented `am.type` is honoured when `yarn.sls.am.type` is absent.
        assert_eq!(b.job_type, "dag");
        assert_eq!(b.tasks[0].duration_ms, 9);
    }

    #[test]
    fn duration_sources_in_sls_order() {
        let d =
            |task: &str| parse(&format!(r#"{{"job.tasks": [{task}]}}"#))[0].tasks[0].duration_ms;
        // container.duration.ms wins over duration.ms and start/end.
        assert_eq!(
            d(
                r#"{"container.duration.ms": 5, "duration.ms": 6, "container.start.ms": 0, "container.end.ms": 7}"#
            ),
            5
        );
        assert_eq!(
            d(r#"{"duration.ms": 6, "container.start.ms": 0, "container.end.ms": 7}"#),
            6
        );
        assert_eq!(d(r#"{"container.start.ms": 3, "container.end.ms": 10}"#), 7);
    }

    #[test]
    fn task_count_is_kept_as_a_count() {
        let jobs = parse(
            r#"{"job.id": "j", "job.tasks": [{"count": 4, "container.duration.ms": 5, "container.type": "map"},
                                              {"count": 0, "container.duration.ms": 5, "container.type": "reduce"}]}"#,
        );
        let types: Vec<(&str, u64)> = jobs[0]
            .tasks
            .iter()
            .map(|t| (t.task_type.as_str(), t.count))
            .collect();
        // count 0 is raised to 1, as SLS does (Math.max(count, 1)).
        assert_eq!(types, [("map", 4), ("reduce", 1)]);
    }

    /// Counts that would expand past the simulator's limits are refused while reading, before
    /// anything of that size is built, naming the key and the limit.
    #[test]
    fn absurd_counts_and_times_are_refused_up_front() {
        let e = err(r#"{"job.count": 2000000000, "job.tasks": [{"container.duration.ms": 5}]}"#);
        assert_eq!(e.key.as_deref(), Some("job.count"));
        assert!(e.message.contains("limit of 1000000 jobs"), "{e}");
        let e = err(r#"{"job.tasks": [{"count": 100000000, "container.duration.ms": 5}]}"#);
        assert!(
            e.message.contains("limit of 10000000 task containers"),
            "{e}"
        );
        let e = err(
            r#"{"job.count": 1000, "job.tasks": [{"count": 100000, "container.duration.ms": 5}]}"#,
        );
        assert!(e.message.contains("100000000 task containers"), "{e}");
        let e = err(
            r#"{"job.start.ms": 9223372036854775807, "job.tasks": [{"container.duration.ms": 5}]}"#,
        );
        assert_eq!(e.key.as_deref(), Some("job.start.ms"));
        let e = err(r#"{"job.tasks": [{"container.duration.ms": 9223372036854775807}]}"#);
        assert!(e.message.contains("beyond the simulator's limit"), "{e}");
        let e = err(
            r#"{"job.tasks": [{"container.duration.ms": 5, "container.request.delay": 9223372036854775807}]}"#,
        );
        assert_eq!(
            e.key.as_deref(),
            Some("job.tasks[0].container.request.delay")
        );
        // A week is fine.
        let jobs = parse(
            r#"{"job.start.ms": 604800000, "job.tasks": [{"container.duration.ms": 1000000000000}]}"#,
        );
        assert_eq!(jobs[0].tasks[0].duration_ms, 1_000_000_000_000);
    }

    /// `job.count` replicates the job; the copies are named by SLS's AM sequence number, which
    /// counts every AM created before them (including jobs with their own ids).
    #[test]
    fn job_count_replicates_with_am_ids() {
        let jobs = parse(
            r#"{"job.id": "first", "job.tasks": [{"container.duration.ms": 5}]}
               {"job.id": "rep", "job.count": 3, "job.queue.name": "q", "job.tasks": [{"container.duration.ms": 5}]}
               {"job.tasks": [{"container.duration.ms": 5}]}
               {"job.id": "last", "job.count": 0, "job.tasks": [{"container.duration.ms": 5}]}"#,
        );
        let ids: Vec<&str> = jobs.iter().map(|j| j.id.as_str()).collect();
        assert_eq!(ids, ["first", "1", "2", "3", "4", "last"]);
        assert!(jobs[1..4]
            .iter()
            .all(|j| j.queue == "q" && j.tasks.len() == 1));
    }

    #[test]
    fn num_nodes_values_are_not_jobs() {
        let jobs = parse(
            r#"{"num.nodes": 3, "num.racks": 1} {"job.id": "a", "job.tasks": [{"container.duration.ms": 5}]}"#,
        );
        assert_eq!(jobs.len(), 1);
        assert_eq!(jobs[0].id, "a");
    }

    #[test]
    fn malformed_sls_traces_are_errors() {
        let task = r#"{"container.duration.ms": 5}"#;
        let ok = format!(r#"{{"job.tasks": [{task}]}}"#);

        let e = err(&format!(r#"{ok} {ok} {ok} {{"job.tasks": "none"}}"#));
        assert_eq!(
            e.to_string(),
            r#"t.json: job 3: key "job.tasks": expected an array, found a string"#
        );

        let e = err(&format!("{ok}\n{{\"job.tasks\": [\n  {task},\n  {task}\n"));
        assert_eq!((e.job_index, e.key.as_deref()), (Some(1), None));
        assert!(
            e.message.starts_with("invalid JSON:") && e.message.contains("line 5 column"),
            "{e}"
        );

        let e = err(r#"{"job.tasks": []}"#);
        assert_eq!(
            (e.job_index, e.key.as_deref()),
            (Some(0), Some("job.tasks"))
        );
        let e = err(r#"{"job.id": "x"}"#);
        assert_eq!(e.key.as_deref(), Some("job.tasks"));

        let e = err(r#"{"job.tasks": [{"container.duration.ms": 5}, {"container.start.ms": 9}]}"#);
        assert_eq!(e.key.as_deref(), Some("job.tasks[1].container.duration.ms"));
        assert!(e.message.starts_with("missing"), "{e}");

        let e = err(r#"{"job.tasks": [{"container.start.ms": 9, "container.end.ms": 9}]}"#);
        assert_eq!(
            e.to_string(),
            r#"t.json: job 0: key "job.tasks[0].container.end.ms": the task's duration must be > 0 ms, found 0"#
        );
        let e = err(r#"{"job.tasks": [{"container.duration.ms": -3}]}"#);
        assert_eq!(e.key.as_deref(), Some("job.tasks[0].container.duration.ms"));

        let e = err(r#"{"job.tasks": [{"container.duration.ms": 5, "container.memory-mb": -1}]}"#);
        assert_eq!(e.key.as_deref(), Some("job.tasks[0].container.memory-mb"));
        let e = err(r#"{"am.vcores": -1, "job.tasks": [{"container.duration.ms": 5}]}"#);
        assert_eq!(e.key.as_deref(), Some("am.vcores"));
        let e = err(r#"{"job.start.ms": -10, "job.tasks": [{"container.duration.ms": 5}]}"#);
        assert_eq!(e.key.as_deref(), Some("job.start.ms"));
        let e = err(r#"{"job.start.ms": 1.5, "job.tasks": [{"container.duration.ms": 5}]}"#);
        assert_eq!(
            e.to_string(),
            r#"t.json: job 0: key "job.start.ms": expected an integer, found 1.5"#
        );

        let e = err(
            r#"{"job.tasks": [{"container.duration.ms": 5, "container.execution.type": "guaranteed"}]}"#,
        );
        assert_eq!(
            e.key.as_deref(),
            Some("job.tasks[0].container.execution.type")
        );
        assert!(e.message.contains("unknown execution type"), "{e}");

        let e = err(r#"{"job.tasks": [{"container.duration.ms": 5, "container.host": "node1"}]}"#);
        assert_eq!(e.key.as_deref(), Some("job.tasks[0].container.host"));
        let e = err(
            r#"{"job.tasks": [{"container.duration.ms": 5, "container.priority": 3000000000}]}"#,
        );
        assert_eq!(e.key.as_deref(), Some("job.tasks[0].container.priority"));
        let e = err(r#"{"job.user": 5, "job.tasks": [{"container.duration.ms": 5}]}"#);
        assert_eq!(e.key.as_deref(), Some("job.user"));
        let e = err(r#"{"job.queue.name": null, "job.tasks": [{"container.duration.ms": 5}]}"#);
        assert_eq!(e.key.as_deref(), Some("job.queue.name"));
        let e = err(r#"{"job.tasks": [5]}"#);
        assert_eq!(e.key.as_deref(), Some("job.tasks[0]"));
        let e = err(&format!("{ok} 7"));
        assert_eq!((e.job_index, e.key.as_deref()), (Some(1), None));
        let e = err(&format!("[{ok}]"));
        assert!(e.message.contains("not an array"), "{e}");
    }

    #[test]
    fn empty_trace_has_no_jobs() {
        assert!(parse("").is_empty());
        assert!(parse("\u{feff}  \n").is_empty());
    }

    /// `job.label.expression` is the job's label, for every copy of `job.count`; SLS reads it
    /// with `toString()`, so a number is its text; a null or an object is refused.
    #[test]
    fn job_label_expression_is_the_applications_label() {
        let jobs = parse(
            r#"{"job.label.expression": "gpu", "job.count": 2, "job.tasks": [{"container.duration.ms": 5}]}
               {"job.tasks": [{"container.duration.ms": 5}]}
               {"job.label.expression": 7, "job.tasks": [{"container.duration.ms": 5}]}"#,
        );
        let labels: Vec<Option<&str>> =
            jobs.iter().map(|j| j.label_expression.as_deref()).collect();
        assert_eq!(labels, [Some("gpu"), Some("gpu"), None, Some("7")]);
        let e =
            err(r#"{"job.label.expression": null, "job.tasks": [{"container.duration.ms": 5}]}"#);
        assert_eq!(e.key.as_deref(), Some("job.label.expression"));
        let e = err(r#"{"job.label.expression": {}, "job.tasks": [{"container.duration.ms": 5}]}"#);
        assert_eq!(e.key.as_deref(), Some("job.label.expression"));
    }
}
