//! The simulator on inputs that used to hang it, crash it or exhaust memory: each gets a clear
//! error up front or a bounded, correct run (docs/RELIABILITY.md).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::sim::trace::{self, SimDefaults, TraceJob, TraceNode, TraceTask};
use capsched::sim::{simulate, SimError, SimulationInput, SimulationOptions, SimulationResult};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/sls")
        .join(name)
}

fn sls_xml() -> String {
    std::fs::read_to_string(data("capacity-scheduler.xml")).unwrap()
}

/// The SLS sample's capacity-scheduler.xml with extra properties.
fn sls_conf_with(extra: &[(&str, &str)]) -> Arc<CapacitySchedulerConfiguration> {
    let props: String = extra
        .iter()
        .map(|(k, v)| format!("<property><name>{k}</name><value>{v}</value></property>"))
        .collect();
    let xml = sls_xml().replace("</configuration>", &format!("{props}</configuration>"));
    Arc::new(CapacitySchedulerConfiguration::from_xml_str(&xml).unwrap())
}

fn conf(properties: &str) -> Arc<CapacitySchedulerConfiguration> {
    Arc::new(CapacitySchedulerConfiguration::from_properties_str(properties).unwrap())
}

fn sls_sample() -> (Vec<TraceNode>, Vec<TraceJob>) {
    let d = SimDefaults::default();
    let text = std::fs::read_to_string(data("inputsls.json")).unwrap();
    let nodes = trace::parse_nodes(
        &std::fs::read_to_string(data("nodes.json")).unwrap(),
        "nodes.json",
        &d,
    )
    .unwrap();
    (
        nodes,
        trace::parse_sls_jobs(&text, "inputsls.json", &d).unwrap(),
    )
}

fn checked() -> SimulationOptions {
    SimulationOptions {
        check_invariants: true,
        ..SimulationOptions::default()
    }
}

fn task(count: u64, duration_ms: i64, memory_mb: i64) -> TraceTask {
    TraceTask {
        count,
        ..TraceTask::map(duration_ms, memory_mb, 1)
    }
}

fn job(id: &str, queue: &str, start_ms: i64, am_memory_mb: i64, tasks: Vec<TraceTask>) -> TraceJob {
    TraceJob {
        am_memory_mb,
        ..TraceJob::mapreduce(id, queue, "u", start_ms, tasks)
    }
}

fn nodes(n: usize, memory_mb: i64) -> Vec<TraceNode> {
    (0..n)
        .map(|i| TraceNode {
            host: format!("node{i}"),
            rack: format!("/rack{}", i % 4),
            memory_mb,
            vcores: 8,
            labels: Vec::new(),
        })
        .collect()
}

fn run(
    conf: Arc<CapacitySchedulerConfiguration>,
    nodes: Vec<TraceNode>,
    jobs: Vec<TraceJob>,
    opts: SimulationOptions,
) -> Result<SimulationResult, SimError> {
    simulate(SimulationInput { conf, nodes, jobs }, opts)
}

/// Hadoop's SLS sample with opportunistic maps: with every NodeManager's queue at its default
/// length 0, YARN's RM (QUEUE_LENGTH comparator) never places one, so the run is refused up
/// front with what to change; with queues of 10 the node-local opportunistic asks are placed
/// and the run finishes.
#[test]
fn opportunistic_maps_on_the_sls_sample_are_refused_with_queue_length_zero_and_run_with_queues() {
    let (n, j) = sls_sample();
    let opts = SimulationOptions {
        opportunistic_percent: 50,
        ..checked()
    };
    let enabled = (
        "yarn.resourcemanager.opportunistic-container-allocation.enabled",
        "true",
    );
    let e = run(
        sls_conf_with(&[enabled]),
        n.clone(),
        j.clone(),
        opts.clone(),
    )
    .expect_err("queue length 0 can never place an opportunistic container");
    let message = e.to_string();
    assert!(matches!(e, SimError::Input(_)), "{message}");
    assert!(
        message.contains("yarn.nodemanager.opportunistic-containers-max-queue-length is 0"),
        "{message}"
    );
    let queues = (
        "yarn.nodemanager.opportunistic-containers-max-queue-length",
        "10",
    );
    let r = run(sls_conf_with(&[enabled, queues]), n, j, opts).unwrap();
    assert!(r.jobs.iter().all(|j| j.finish_ms.is_some()), "{:?}", r.jobs);
    assert!(r.opportunistic_allocated > 0);
    assert_eq!(r.tasks_completed, 5);
}

/// An AM larger than any container may be is refused at submission, a task larger than the
/// maximum allocation or than every node fails its job — each with YARN's message — and the
/// other jobs run.
#[test]
fn oversized_ams_and_tasks_are_rejected_or_failed_and_the_run_goes_on() {
    let c = conf(
        "yarn.scheduler.capacity.root.queues=default\n\
         yarn.scheduler.capacity.root.default.capacity=100\n\
         yarn.scheduler.maximum-allocation-mb=16384\n",
    );
    let jobs = vec![
        job("big_am", "default", 0, 50_000, vec![task(1, 1000, 1024)]),
        job("over_max", "default", 0, 1024, vec![task(3, 1000, 20_000)]),
        // Within the configured maximum, larger than every (8 GB) node.
        job(
            "over_nodes",
            "default",
            0,
            1024,
            vec![task(1, 1000, 12_000)],
        ),
        job("fine", "default", 0, 1024, vec![task(4, 1000, 1024)]),
    ];
    let r = run(c, nodes(4, 8192), jobs, checked()).unwrap();
    let by_id = |id: &str| r.jobs.iter().find(|j| j.id == id).unwrap();
    let rejected = by_id("big_am").rejected.as_deref().unwrap();
    assert!(
        rejected.starts_with("Invalid resource request! Cannot allocate containers as requested resource is greater than maximum allowed allocation.")
            && rejected.contains("Requested resource=<memory:50000, vCores:1>")
            && rejected.contains("maximum allowed allocation=<memory:8192, vCores:4>"),
        "{rejected}"
    );
    for id in ["over_max", "over_nodes"] {
        let failed = by_id(id)
            .failed
            .as_deref()
            .unwrap_or_else(|| panic!("{id} failed"));
        assert!(
            failed.contains("greater than maximum allowed allocation"),
            "{failed}"
        );
    }
    assert!(by_id("fine").finish_ms.is_some());
    assert_eq!(r.tasks_completed, 4);
    let s = capsched::sim::output::summary(&r);
    assert_eq!(
        (s["jobs_rejected"].as_u64(), s["jobs_failed"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(s["problems"].as_array().unwrap().len(), 3);
}

/// A week-long trace of 100 short jobs, a job 11.6 days in, a task of 10^12 ms and a request
/// delay of 10^12 ms: the idle stretches are skipped, so the work (heartbeats, samples) follows
/// the jobs, not the simulated time, and the results are those of a run that waited through
/// every second.
#[test]
fn long_idle_simulated_time_costs_nothing() {
    let week = 7 * 24 * 3600 * 1000i64;
    let mut jobs: Vec<TraceJob> = (0..100)
        .map(|i| {
            job(
                &format!("j{i}"),
                "default",
                i * (week / 100),
                1024,
                vec![task(2, 5000, 1024)],
            )
        })
        .collect();
    jobs.push(job(
        "late",
        "default",
        1_000_000_000,
        1024,
        vec![task(1, 1000, 1024)],
    ));
    jobs.push(job(
        "long",
        "default",
        0,
        1024,
        vec![task(1, 1_000_000_000_000, 1024)],
    ));
    let mut delayed = task(1, 1000, 1024);
    delayed.request_delay_ms = 1_000_000_000_000;
    jobs.push(job("delayed", "default", 0, 1024, vec![delayed]));
    let c = conf(capsched::config::SEED_PROPERTIES);
    let r = run(c, nodes(4, 8192), jobs, SimulationOptions::default()).unwrap();
    assert!(
        r.jobs.iter().all(|j| j.finish_ms.is_some()),
        "every job finishes"
    );
    assert!(!r.timed_out);
    let long = r.jobs.iter().find(|j| j.id == "long").unwrap();
    assert!(long.run_ms().unwrap() >= 1_000_000_000_000);
    let delayed = r.jobs.iter().find(|j| j.id == "delayed").unwrap();
    assert!(delayed.first_task_ms.unwrap() >= 1_000_000_000_000);
    let late = r.jobs.iter().find(|j| j.id == "late").unwrap();
    assert_eq!(late.submit_ms, 1_000_000_000);
    // Each job needs tens of heartbeats per node; a run stepping through every second of
    // 10^12 ms would need 4·10^9.
    assert!(
        r.node_updates < 100_000,
        "{} node heartbeats",
        r.node_updates
    );
    assert!(r.samples.len() < 50_000, "{} samples kept", r.samples.len());
    assert!(
        r.skipped_ms > 999_000_000_000,
        "{} ms skipped",
        r.skipped_ms
    );
    // Flat stretches keep their value in the kept series: before each wake-up, a sample
    // repeats the state that held.
    let s = capsched::sim::output::summary(&r);
    assert!(s["utilization_memory"].as_f64().unwrap() > 0.0);
}

/// Skipping idle stretches changes no decision: the built-in elasticity workload with its last
/// job moved an hour later gives the same job times and summary with and without skipping.
/// A job's submission, AM start, first task and finish.
type JobTimes = (i64, Option<i64>, Option<i64>, Option<i64>);

/// Each job's times.
fn job_times(r: &SimulationResult) -> Vec<JobTimes> {
    r.jobs
        .iter()
        .map(|j| (j.submit_ms, j.am_start_ms, j.first_task_ms, j.finish_ms))
        .collect()
}

/// The summary without what depends on how the run stepped (calls, skipped time, wall time,
/// the preemption block's wall figures): what two runs with the same decisions share.
fn decisions_summary(r: &SimulationResult) -> serde_json::Value {
    let mut s = capsched::sim::output::summary(r);
    for k in [
        "node_updates",
        "allocate_calls",
        "skipped_idle_ms",
        "wall_ms",
        "wall_allocations_per_sec",
        "preemption",
    ] {
        s.as_object_mut().unwrap().remove(k);
    }
    s
}

#[test]
fn skipping_an_idle_gap_changes_no_decision() {
    let mut jobs = capsched::sim::default_workload::jobs();
    let last = jobs.len() - 1;
    jobs[last].start_ms += 3_600_000;
    let c = Arc::new(CapacitySchedulerConfiguration::seed_default());
    let d = SimDefaults::default();
    let go = |skip_idle: bool| {
        let opts = SimulationOptions {
            skip_idle,
            ..SimulationOptions::default()
        };
        run(
            c.clone(),
            capsched::sim::default_workload::nodes(&d),
            jobs.clone(),
            opts,
        )
        .unwrap()
    };
    let (skipping, stepping) = (go(true), go(false));
    assert_eq!(job_times(&skipping), job_times(&stepping));
    assert!(skipping.skipped_ms > 3_000_000 && stepping.skipped_ms == 0);
    assert!(skipping.node_updates * 2 < stepping.node_updates);
    assert_eq!(decisions_summary(&skipping), decisions_summary(&stepping));
}

/// The same with heartbeats that share a millisecond: 300 NodeManagers (their random phases
/// collide) and bursts of jobs on whole seconds (their AMs heartbeat in the sample's
/// millisecond), idle stretches between the bursts. After a skip, the periodic events of one
/// millisecond keep the order a run stepping through the gap gives them, so every decision is
/// the same.
#[test]
fn skipping_keeps_the_order_of_events_in_one_millisecond() {
    let jobs: Vec<TraceJob> = (0..48)
        .map(|j| {
            let tasks = (0..30)
                .map(|t| TraceTask {
                    host: (t % 2 == 0).then(|| format!("/rack{}/node{}", t % 4, (j * 7 + t) % 300)),
                    ..TraceTask::map(5_000 + 700 * t as i64, 1024, 1)
                })
                .collect();
            TraceJob {
                user: format!("u{}", j % 5),
                ..TraceJob::mapreduce(
                    &format!("job_{j}"),
                    if j % 3 == 0 { "low" } else { "default" },
                    "u",
                    (j / 6) as i64 * 300_000,
                    tasks,
                )
            }
        })
        .collect();
    let nodes: Vec<TraceNode> = (0..300)
        .map(|i| TraceNode {
            host: format!("node{i}"),
            rack: format!("/rack{}", i % 4),
            memory_mb: 10_240,
            vcores: 10,
            labels: Vec::new(),
        })
        .collect();
    let c = Arc::new(CapacitySchedulerConfiguration::seed_default());
    let go = |skip_idle: bool| {
        let opts = SimulationOptions {
            skip_idle,
            seed: 3,
            ..SimulationOptions::default()
        };
        run(c.clone(), nodes.clone(), jobs.clone(), opts).unwrap()
    };
    let (skipping, stepping) = (go(true), go(false));
    assert!(skipping.skipped_ms > 1_000_000 && stepping.skipped_ms == 0);
    assert_eq!(job_times(&skipping), job_times(&stepping));
    assert_eq!(decisions_summary(&skipping), decisions_summary(&stepping));
    // Each sample of the skipping run is the stepping run's at that time.
    let at: std::collections::HashMap<i64, String> = stepping
        .samples
        .iter()
        .map(|s| {
            (
                s.time_ms,
                format!(
                    "{:?}",
                    (s.allocated_memory, s.pending_containers, &s.queues)
                ),
            )
        })
        .collect();
    for s in &skipping.samples {
        let mine = format!(
            "{:?}",
            (s.allocated_memory, s.pending_containers, &s.queues)
        );
        assert_eq!(
            Some(&mine),
            at.get(&s.time_ms),
            "sample at {} ms",
            s.time_ms
        );
    }
}

/// When nothing can ever happen again and a job remains — here a task larger than its queue
/// may ever hold — the run stops with an error naming the job and what it asks for, after a
/// bounded stretch of simulated time, instead of spinning to the time limit.
#[test]
fn the_watchdog_names_a_job_that_can_never_finish() {
    let c = conf(
        "yarn.scheduler.capacity.root.queues=a,b\n\
         yarn.scheduler.capacity.root.a.capacity=100\n\
         yarn.scheduler.capacity.root.b.capacity=0\n\
         yarn.scheduler.capacity.root.b.maximum-capacity=10\n\
         yarn.scheduler.capacity.root.b.maximum-applications=10\n",
    );
    let jobs = vec![
        job("stuck", "b", 0, 1024, vec![task(1, 1000, 4096)]),
        job("fine", "a", 0, 1024, vec![task(2, 60_000, 1024)]),
    ];
    let e = run(c, nodes(4, 8192), jobs, checked()).unwrap_err();
    let message = e.to_string();
    assert!(matches!(e, SimError::Stalled(_)), "{message}");
    assert!(
        message.contains("job stuck (queue b, user u)")
            && message.contains("1 GUARANTEED map container(s) of <memory:4096, vCores:1>")
            && message.contains("larger than queue root.b's maximum capacity"),
        "{message}"
    );
    assert!(!message.contains("job fine"), "{message}");
    // Stopped within minutes of simulated time, not at the 30-day limit.
    let at: f64 = message
        .split("stuck at ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    assert!(at < 600.0, "stopped at {at} s");
}

/// The ResourceManager refuses a NodeManager below the minimum allocation (0 MB or 0 vcores):
/// the run goes on without it and says so; with no node left, the run is refused.
#[test]
fn nodes_below_the_minimum_allocation_are_refused() {
    let c = conf(capsched::config::SEED_PROPERTIES);
    let mut ns = nodes(2, 8192);
    ns.push(TraceNode {
        host: "empty".into(),
        rack: "/r".into(),
        memory_mb: 0,
        vcores: 8,
        labels: Vec::new(),
    });
    ns.push(TraceNode {
        host: "coreless".into(),
        rack: "/r".into(),
        memory_mb: 8192,
        vcores: 0,
        labels: Vec::new(),
    });
    let jobs = vec![job("j", "default", 0, 1024, vec![task(2, 1000, 1024)])];
    let r = run(c.clone(), ns, jobs.clone(), checked()).unwrap();
    assert_eq!(r.cluster.memory_mb(), 16384);
    assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
    assert!(
        r.warnings[0].contains("NodeManager from  empty doesn't satisfy minimum allocations"),
        "{:?}",
        r.warnings
    );
    assert!(r.jobs[0].finish_ms.is_some());
    let e = run(
        c,
        vec![TraceNode {
            host: "z".into(),
            rack: "/r".into(),
            memory_mb: 0,
            vcores: 0,
            labels: Vec::new(),
        }],
        jobs,
        checked(),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("no nodes the ResourceManager accepts"),
        "{e}"
    );
}

/// Sizes the simulator cannot take are refused while reading, naming the key, the size and the
/// limit, before anything of that size is built; a hand-built input is checked the same way.
#[test]
fn absurd_sizes_are_refused_up_front() {
    let d = SimDefaults::default();
    let sls = |text: &str| {
        trace::parse_sls_jobs(text, "t.json", &d)
            .unwrap_err()
            .to_string()
    };
    assert!(
        sls(r#"{"job.tasks": [{"count": 100000000, "container.duration.ms": 5}]}"#)
            .contains("100000000 task containers is more than the simulator's limit of 10000000")
    );
    assert!(
        sls(r#"{"job.count": 1000000000, "job.tasks": [{"container.duration.ms": 5}]}"#)
            .contains("limit of 1000000 jobs")
    );
    let e = trace::nodes_from_sls_trace(r#"{"num.nodes": 1000000000}"#, "t.json", &d).unwrap_err();
    assert!(e.to_string().contains("limit of 100000 nodes"), "{e}");
    let many: String = format!(
        r#"{{"rack": "r", "nodes": [{}]}}"#,
        (0..=100_000)
            .map(|i| format!(r#"{{"node": "n{i}"}}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    let e = trace::parse_nodes(&many, "n.json", &d).unwrap_err();
    assert!(
        e.to_string()
            .contains("more than 100000 nodes, the simulator's limit"),
        "{e}"
    );
    let synth = |header: &str| {
        format!(
            r#"{{{header}, "workloads": [{{"workload_name": "w", "workload_weight": 1, "queue_name": "default",
                "job_classes": [{{"class_name": "c", "user_name": "u", "class_weight": 1,
                 "mtasks_avg": 1, "mtasks_stddev": 0, "rtasks_avg": 1, "rtasks_stddev": 0,
                 "dur_avg": 10, "dur_stddev": 0, "mtime_avg": 5, "mtime_stddev": 0, "rtime_avg": 5, "rtime_stddev": 0,
                 "map_max_memory_avg": 1024, "map_max_memory_stddev": 0, "reduce_max_memory_avg": 1024, "reduce_max_memory_stddev": 0,
                 "map_max_vcores_avg": 1, "map_max_vcores_stddev": 0, "reduce_max_vcores_avg": 1, "reduce_max_vcores_stddev": 0,
                 "chance_of_reservation": 0, "deadline_factor_avg": 1, "deadline_factor_stddev": 0}}],
                "time_distribution": [{{"time": 1, "weight": 1}}]}}]}}"#
        )
    };
    let e = trace::parse_synth(
        &synth(r#""num_nodes": 10, "num_jobs": 2000000000"#),
        "s.json",
        1,
        &d,
    )
    .unwrap_err();
    assert!(e.to_string().contains("limit of 1000000 jobs"), "{e}");
    let e = trace::parse_synth_nodes(
        &synth(r#""num_nodes": 1000000000, "num_jobs": 1"#),
        "s.json",
        &d,
    )
    .unwrap_err();
    assert!(e.to_string().contains("limit of 100000 nodes"), "{e}");
    // A hand-built input past a limit.
    let e = run(
        conf(capsched::config::SEED_PROPERTIES),
        nodes(1, 8192),
        vec![job(
            "j",
            "default",
            0,
            1024,
            vec![task(20_000_000, 1, 1024)],
        )],
        SimulationOptions::default(),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("limit of 10000000 task containers"),
        "{e}"
    );
}

/// One job of 10^5 one-millisecond tasks (one trace entry): the AM keeps counts, not one record
/// per task, so the run is linear in its containers (docs/PERFORMANCE.md has the 10^6 figure).
#[test]
fn a_job_of_a_hundred_thousand_tasks_runs_to_completion() {
    let c = conf(capsched::config::SEED_PROPERTIES);
    let jobs = vec![job(
        "huge",
        "default",
        0,
        1024,
        vec![task(100_000, 1, 1024)],
    )];
    let r = run(c, nodes(50, 8192), jobs, SimulationOptions::default()).unwrap();
    assert_eq!(r.tasks_completed, 100_000);
    assert!(r.jobs[0].finish_ms.is_some());
}

fn capsched_cli(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_capsched"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("capsched-rel-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The output directory is checked before the run: an earlier run is replaced only with
/// --force, a foreign non-empty directory (or `/`) never, and a link planted inside is not
/// followed. Problems (a rejected job, a skipped node entry) reach stderr and summary.json.
#[test]
fn outputs_are_checked_before_the_run_and_never_written_through_links() {
    let dir = temp_dir("out");
    let out = dir.join("run");
    let out_s = out.to_str().unwrap();
    let trace_file = dir.join("t.json");
    std::fs::write(
        &trace_file,
        r#"{"job.id": "ok", "job.queue.name": "sls_queue_1", "job.tasks": [{"container.host": "/rack1/node1", "container.duration.ms": 1000}]}
           {"job.id": "nowhere", "job.queue.name": "no_such_queue", "job.tasks": [{"container.duration.ms": 1000}]}"#,
    )
    .unwrap();
    let conf_path = data("capacity-scheduler.xml");
    let nodes_path = data("nodes.json");
    let args = |force: bool| {
        let mut a = vec![
            "simulate",
            "--config",
            conf_path.to_str().unwrap(),
            "--trace",
            trace_file.to_str().unwrap(),
            "--nodes",
            nodes_path.to_str().unwrap(),
            "--output",
            out_s,
        ];
        if force {
            a.push("--force");
        }
        a
    };
    let (code, stdout, stderr) = capsched_cli(&args(false), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("1 rejected"), "{stdout}");
    assert!(
        stderr.contains("job nowhere (queue no_such_queue) rejected"),
        "{stderr}"
    );
    assert!(
        stderr.contains("has no \"node\" name and is skipped"),
        "{stderr}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["problems"][0]["job"], "nowhere");
    assert_eq!(summary["warnings"].as_array().unwrap().len(), 1);
    let track: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("realtimetrack.json")).unwrap())
            .unwrap();
    assert!(!track.as_array().unwrap().is_empty());

    // The same run again replaces its own outputs; another run is refused at once, before
    // simulating, unless --force.
    let (code, _, stderr) = capsched_cli(&args(false), &[]);
    assert_eq!(code, 0, "{stderr}");
    let mut other = args(false);
    other.extend(["--seed", "2"]);
    let (code, stdout, stderr) = capsched_cli(&other, &[]);
    assert_eq!(code, 1);
    assert!(stderr.contains("--force") && stdout.is_empty(), "{stderr}");
    // A link planted among the outputs is replaced, its target untouched.
    let victim = dir.join("precious.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let link = out.join("jobruntime.csv");
    std::fs::remove_file(&link).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let (code, _, stderr) = capsched_cli(&args(true), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(std::fs::read_to_string(&link)
        .unwrap()
        .starts_with("JobID,"));
    // Never into a directory of other things.
    let (code, _, stderr) = capsched_cli(&["simulate", "--output", "/", "--force"], &[]);
    assert_eq!(code, 1);
    assert!(stderr.contains("not empty"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Off a terminal, progress comes as lines that count task containers (a bar over jobs read
/// 0/1 for one huge job); a FIFO given as a trace is refused instead of blocking.
#[test]
fn progress_lines_count_tasks_and_fifos_are_refused() {
    let dir = temp_dir("progress");
    let t = dir.join("t.json");
    std::fs::write(
        &t,
        r#"{"job.queue.name": "sls_queue_1", "job.tasks": [{"count": 20000, "container.duration.ms": 1}]}"#,
    )
    .unwrap();
    let out = dir.join("out");
    let conf_path = data("capacity-scheduler.xml");
    let nodes_path = data("nodes.json");
    let (code, _, stderr) = capsched_cli(
        &[
            "simulate",
            "--config",
            conf_path.to_str().unwrap(),
            "--nodes",
            nodes_path.to_str().unwrap(),
            "--trace",
            t.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ],
        &[("CAPSCHED_PROGRESS_SECS", "0")],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("progress: ") && l.contains("/20000 tasks")),
        "{stderr}"
    );
    #[cfg(unix)]
    {
        let fifo = dir.join("fifo.json");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let (code, _, stderr) = capsched_cli(
            &[
                "simulate",
                "--trace",
                fifo.to_str().unwrap(),
                "--output",
                dir.join("o2").to_str().unwrap(),
            ],
            &[],
        );
        assert_eq!(code, 1);
        assert!(stderr.contains("not a regular file"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 36.2: with `schedule-asynchronously.enable=true` node heartbeats allocate nothing
/// (YARN's `nodeUpdate` leaves it to the scheduling thread) and the simulator never ran the
/// asynchronous pass, so nothing was allocated until the watchdog stopped the run. The
/// simulated RM runs the pass every `scheduling-interval-ms`; the SLS sample finishes, with
/// the invariant checker after every event, as it does with the pass off.
#[test]
fn asynchronous_scheduling_runs_its_pass_in_the_simulator() {
    let (nodes, jobs) = sls_sample();
    let n = jobs.len();
    for interval in ["5", "100"] {
        let conf = sls_conf_with(&[
            (
                "yarn.scheduler.capacity.schedule-asynchronously.enable",
                "true",
            ),
            (
                "yarn.scheduler.capacity.schedule-asynchronously.scheduling-interval-ms",
                interval,
            ),
        ]);
        let r = run(conf, nodes.clone(), jobs.clone(), checked()).unwrap();
        assert!(!r.timed_out, "interval {interval}");
        assert_eq!(
            r.jobs.iter().filter(|j| j.finish_ms.is_some()).count(),
            n,
            "interval {interval}: every job finishes"
        );
    }
}

/// Issue 36.16: the watchdog said "asking for nothing … the scheduler allocates nothing to
/// them" of a job whose last container was allocated and sat queued at a NodeManager (here an
/// opportunistic task queued behind its own AM on the only node: it can never start, and the
/// AM never ends). It now says the containers wait at the NodeManagers, and names the keys.
#[test]
fn the_watchdog_says_when_allocated_containers_wait_at_the_nodemanagers() {
    let c = conf(
        "yarn.scheduler.capacity.root.queues=a\n\
         yarn.scheduler.capacity.root.a.capacity=100\n\
         yarn.scheduler.capacity.maximum-am-resource-percent=1\n\
         yarn.resourcemanager.opportunistic-container-allocation.enabled=true\n\
         yarn.nodemanager.opportunistic-containers-max-queue-length=10\n",
    );
    let jobs = vec![job("queued", "a", 0, 1024, vec![task(1, 1000, 2048)])];
    let opts = SimulationOptions {
        opportunistic_percent: 100,
        ..checked()
    };
    let e = run(c, nodes(1, 2048), jobs, opts).unwrap_err();
    let message = e.to_string();
    assert!(matches!(e, SimError::Stalled(_)), "{message}");
    assert!(
        message.contains("all allocated: they wait at the NodeManagers")
            && message.contains("wait in NodeManager queues and never start")
            && !message.contains("The scheduler allocates nothing"),
        "{message}"
    );
}

/// Issue 36.16: with max-parallel-apps=0 the watchdog said only that the AM was never
/// allocated; it names the keys. Through the CLI, the files streamed before the error are
/// complete (realtimetrack.json is a whole JSON array), and a nodes file's errors name its
/// entries, not "job 1".
#[test]
fn a_stuck_run_names_max_parallel_apps_and_leaves_valid_files() {
    let dir = temp_dir("stuck");
    let config = dir.join("cs.properties");
    std::fs::write(
        &config,
        "yarn.scheduler.capacity.root.queues=default\n\
         yarn.scheduler.capacity.root.default.capacity=100\n\
         yarn.scheduler.capacity.root.default.max-parallel-apps=0\n",
    )
    .unwrap();
    let out = dir.join("run");
    let (code, _, err) = capsched_cli(
        &[
            "simulate",
            "--config",
            config.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("waits for a max-parallel-apps slot")
            && err.contains("yarn.scheduler.capacity.default.max-parallel-apps")
            && !err.contains("The scheduler allocates nothing"),
        "{err}"
    );
    let track = std::fs::read_to_string(out.join("realtimetrack.json")).unwrap();
    let parsed: Result<serde_json::Value, _> = serde_json::from_str(&track);
    assert!(parsed.is_ok_and(|v| v.is_array()), "{track}");
    // A nodes file's second entry is bad: "entry 1", not "job 1".
    let nodes = dir.join("nodes.json");
    std::fs::write(
        &nodes,
        r#"{"rack": "r1", "nodes": [{"node": "n1"}]} {"rack": "r2", "nodes": 7}"#,
    )
    .unwrap();
    let (code, _, err) = capsched_cli(
        &[
            "simulate",
            "--nodes",
            nodes.to_str().unwrap(),
            "--output",
            dir.join("run2").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("entry 1") && !err.contains("job 1"), "{err}");
}

/// Issue 36.7: opportunistic tasks with NodeManager queues of 0 under the QUEUE_WAIT_TIME
/// comparator (which, unlike QUEUE_LENGTH, places them anyway): every container was rejected
/// and asked for again for 30 simulated days, and the run "stopped at the time limit" with
/// exit 0. The watchdog sees the livelock — far more allocations than the outstanding work
/// could use, none finishing — and names what repeated.
#[test]
fn the_watchdog_stops_a_livelock_and_names_its_cause() {
    for comparator in ["QUEUE_WAIT_TIME", "QUEUE_LENGTH_THEN_RESOURCES"] {
        let c = conf(&format!(
            "yarn.scheduler.capacity.root.queues=a\n\
             yarn.scheduler.capacity.root.a.capacity=100\n\
             yarn.resourcemanager.opportunistic-container-allocation.enabled=true\n\
             yarn.resourcemanager.nm-container-queuing.load-comparator={comparator}\n"
        ));
        let jobs = vec![
            job("j1", "a", 0, 1024, vec![task(50, 1000, 1024)]),
            job("j2", "a", 0, 1024, vec![task(50, 1000, 1024)]),
        ];
        let opts = SimulationOptions {
            opportunistic_percent: 100,
            ..SimulationOptions::default()
        };
        let started = std::time::Instant::now();
        let e = run(c, nodes(4, 8192), jobs, opts).unwrap_err();
        let message = e.to_string();
        assert!(matches!(e, SimError::Stalled(_)), "{comparator}: {message}");
        assert!(
            message.contains("livelocked")
                && message.contains("rejected by NodeManagers whose queue was full"),
            "{comparator}: {message}"
        );
        assert!(
            started.elapsed().as_secs() < 60,
            "{comparator}: stopped early"
        );
    }
}
