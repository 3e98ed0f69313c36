//! The simulator: Hadoop's SLS sample traces replay to completion with the invariant checker
//! clean after every event; queues stay within their maximum and reach their guarantee; a run is
//! reproducible; malformed input is a clear error and nothing is half-written.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::sim::trace::{self, SimDefaults};
use capsched::sim::{
    default_workload, simulate, SimulationInput, SimulationOptions, SimulationResult,
};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/sls")
        .join(name)
}

fn sls_conf() -> Arc<CapacitySchedulerConfiguration> {
    Arc::new(CapacitySchedulerConfiguration::from_file(&data("capacity-scheduler.xml")).unwrap())
}

fn checked() -> SimulationOptions {
    SimulationOptions {
        check_invariants: true,
        ..SimulationOptions::default()
    }
}

fn assert_all_finished(r: &SimulationResult, expected_jobs: usize) {
    assert_eq!(r.jobs.len(), expected_jobs);
    for j in &r.jobs {
        assert!(
            j.finish_ms.is_some(),
            "job {} did not finish (rejected: {:?})",
            j.id,
            j.rejected
        );
    }
    assert!(!r.timed_out);
}

#[test]
fn sls_json_trace_replays_to_completion() {
    let d = SimDefaults::default();
    let text = std::fs::read_to_string(data("inputsls.json")).unwrap();
    let jobs = trace::parse_sls_jobs(&text, "inputsls.json", &d).unwrap();
    let nodes = trace::nodes_from_sls_trace(&text, "inputsls.json", &d).unwrap();
    let r = simulate(
        SimulationInput {
            conf: sls_conf(),
            nodes,
            jobs,
        },
        checked(),
    )
    .unwrap();
    assert_all_finished(&r, 2);
    // Every task ran: the AM containers plus 5 tasks.
    assert_eq!(r.containers_allocated, 7);
}

#[test]
fn sls_trace_with_a_nodes_file_and_a_dag_trace_replay() {
    let d = SimDefaults::default();
    let nodes = trace::parse_nodes(
        &std::fs::read_to_string(data("nodes.json")).unwrap(),
        "nodes.json",
        &d,
    )
    .unwrap();
    let jobs = trace::parse_sls_jobs(
        &std::fs::read_to_string(data("inputsls.json")).unwrap(),
        "inputsls.json",
        &d,
    )
    .unwrap();
    let r = simulate(
        SimulationInput {
            conf: sls_conf(),
            nodes: nodes.clone(),
            jobs,
        },
        checked(),
    )
    .unwrap();
    assert_all_finished(&r, 2);
    let dag = trace::parse_sls_jobs(
        &std::fs::read_to_string(data("sls_dag.json")).unwrap(),
        "sls_dag.json",
        &d,
    )
    .unwrap();
    let r = simulate(
        SimulationInput {
            conf: sls_conf(),
            nodes,
            jobs: dag,
        },
        checked(),
    )
    .unwrap();
    assert_all_finished(&r, 2);
}

#[test]
fn rumen_trace_replays_to_completion() {
    let d = SimDefaults::default();
    let text = std::fs::read_to_string(data("2jobs2min-rumen-jh.json")).unwrap();
    let jobs = trace::parse_rumen(&text, "rumen", &d).unwrap();
    let nodes = trace::nodes_from_jobs(&jobs, &d).unwrap();
    let r = simulate(
        SimulationInput {
            conf: sls_conf(),
            nodes,
            jobs,
        },
        checked(),
    )
    .unwrap();
    assert_all_finished(&r, 2);
    assert_eq!(r.jobs.iter().map(|j| j.tasks).sum::<u64>(), 192);
}

#[test]
fn synth_workloads_replay_to_completion() {
    let d = SimDefaults::default();
    for (file, jobs) in [
        ("syn.json", 10),
        ("syn_generic.json", 10),
        ("syn_stream.json", 5),
    ] {
        let text = std::fs::read_to_string(data(file)).unwrap();
        let mut js = trace::parse_synth(&text, file, 7, &d).unwrap();
        let nodes = trace::parse_synth_nodes(&text, file, &d).unwrap();
        trace::assign_synth_hosts(&mut js, &nodes, 7);
        let r = simulate(
            SimulationInput {
                conf: sls_conf(),
                nodes,
                jobs: js,
            },
            checked(),
        )
        .unwrap();
        assert_all_finished(&r, jobs);
    }
}

fn default_run(seed: u64) -> SimulationResult {
    let d = SimDefaults::default();
    let input = SimulationInput {
        conf: Arc::new(CapacitySchedulerConfiguration::seed_default()),
        nodes: default_workload::nodes(&d),
        jobs: default_workload::jobs(),
    };
    simulate(
        input,
        SimulationOptions {
            seed,
            check_invariants: true,
            ..SimulationOptions::default()
        },
    )
    .unwrap()
}

#[test]
fn queues_stay_within_maximum_and_reach_their_guarantee() {
    let r = default_run(1);
    assert_all_finished(&r, default_workload::jobs().len());
    let total = r.cluster.memory_mb() as f64;
    let container = 1024.0 / total;
    for (i, leaf) in r.leaves.iter().enumerate() {
        let shares: Vec<f64> = r
            .samples
            .iter()
            .map(|s| s.queues[i].allocated_memory as f64 / total)
            .collect();
        let peak = shares.iter().copied().fold(0.0, f64::max);
        assert!(
            peak <= leaf.max_share + container + 1e-9,
            "{} peaked at {peak} over its maximum {}",
            leaf.path,
            leaf.max_share
        );
        assert!(
            peak + container >= leaf.guaranteed_share,
            "{} never reached its guarantee {} (peak {peak})",
            leaf.path,
            leaf.guaranteed_share
        );
    }
    // Elasticity: while `default` is idle, `low` borrows up to its 40% maximum.
    let low = r.leaves.iter().position(|l| l.path == "root.low").unwrap();
    let early_peak = r
        .samples
        .iter()
        .filter(|s| s.time_ms < 60_000)
        .map(|s| s.queues[low].allocated_memory)
        .max()
        .unwrap();
    assert!(
        early_peak as f64 / total > 0.35,
        "low borrowed only {early_peak} MB"
    );
}

/// Every output file, with the wall-clock measurements (the only physical measurements of the
/// process) masked.
fn outputs_without_wall_clock(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&p).unwrap();
            let masked: String = text
                .lines()
                .filter(|l| {
                    !(l.contains("timecost") || l.contains("\"wall_") || l.contains("of wall time"))
                })
                .map(|l| format!("{l}\n"))
                .collect();
            (name, masked)
        })
        .collect()
}

#[test]
fn the_same_inputs_and_seed_give_identical_outputs() {
    let dir = std::env::temp_dir().join(format!("capsched-sim-repro-{}", std::process::id()));
    let run = |sub: &str, seed: &str| {
        let out = dir.join(sub);
        let status = Command::new(env!("CARGO_BIN_EXE_capsched"))
            .args([
                "simulate",
                "--seed",
                seed,
                "--output",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(
            status.status.success(),
            "{}",
            String::from_utf8_lossy(&status.stderr)
        );
        outputs_without_wall_clock(&out)
    };
    let a = run("a", "5");
    let b = run("b", "5");
    assert_eq!(
        a.len(),
        11,
        "{:?}",
        a.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert_eq!(x, y, "{name} differs between two runs with the same seed");
    }
    let c = run("c", "6");
    assert_ne!(
        a, c,
        "a different seed changes node heartbeat phases, hence the run"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn malformed_input_is_a_clear_error_and_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("capsched-sim-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"job.start.ms": 0, "job.queue.name": "default", "job.tasks": "oops"}"#,
    )
    .unwrap();
    let out = dir.join("out");
    let r = Command::new(env!("CARGO_BIN_EXE_capsched"))
        .args([
            "simulate",
            "--trace",
            bad.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("bad.json") && err.contains("job 0") && err.contains("job.tasks"),
        "{err}"
    );
    assert!(
        !out.exists(),
        "no output may be written for a malformed trace"
    );
    let r = Command::new(env!("CARGO_BIN_EXE_capsched"))
        .args([
            "simulate",
            "--trace",
            "/nonexistent.json",
            "--output",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn queue_mappings_place_simulated_jobs_with_the_static_group_table() {
    // alice's job names `default` (no such queue) and is mapped to b; bob's group comes from
    // Hadoop's static table (the simulator has no other group source) and maps him to a;
    // carol is in no table and has no group service: YARN's Groups fails for her, and so
    // does her submission.
    let conf = CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.queue-mappings=u:alice:b,g:eng:a
hadoop.user.group.static.mapping.overrides=bob=eng",
    )
    .unwrap();
    let job = |id: &str, user: &str| {
        format!(
            r#"{{"am.type":"mapreduce","job.start.ms":0,"job.end.ms":5000,"job.queue.name":"default","job.id":"{id}","job.user":"{user}","job.tasks":[{{"container.host":"/r/n1","container.start.ms":100,"container.end.ms":2000,"container.priority":20,"container.type":"map"}}]}}"#
        )
    };
    let text = [job("j1", "alice"), job("j2", "bob"), job("j3", "carol")].join("\n");
    let d = SimDefaults::default();
    let jobs = trace::parse_sls_jobs(&text, "inline.json", &d).unwrap();
    let nodes = trace::nodes_from_sls_trace(&text, "inline.json", &d).unwrap();
    let r = simulate(
        SimulationInput {
            conf: Arc::new(conf),
            nodes,
            jobs,
        },
        checked(),
    )
    .unwrap();
    let leaf = |id: &str| r.jobs.iter().find(|j| j.id == id).unwrap();
    assert_eq!(leaf("j1").leaf.as_deref(), Some("root.b"));
    assert!(leaf("j1").finish_ms.is_some());
    assert_eq!(leaf("j2").leaf.as_deref(), Some("root.a"));
    let j3 = leaf("j3");
    assert_eq!(j3.leaf, None);
    assert!(
        j3.rejected
            .as_deref()
            .is_some_and(|m| m.ends_with("reason: No groups found for user carol")),
        "{:?}",
        j3.rejected
    );
}

#[test]
fn a_job_past_its_queues_lifetime_is_killed_and_counted() {
    // b's applications live at most 10 s; a's are unlimited. Both jobs run 60 s of tasks.
    let conf = CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.b.maximum-application-lifetime=10",
    )
    .unwrap();
    let job = |id: &str, queue: &str| {
        format!(
            r#"{{"am.type":"mapreduce","job.start.ms":0,"job.end.ms":70000,"job.queue.name":"{queue}","job.id":"{id}","job.user":"u","job.tasks":[{{"container.host":"/r/n1","container.start.ms":100,"container.end.ms":60100,"container.priority":20,"container.type":"map"}}]}}"#
        )
    };
    let text = [job("short", "b"), job("long", "a")].join("\n");
    let d = SimDefaults::default();
    let r = simulate(
        SimulationInput {
            conf: Arc::new(conf),
            nodes: trace::nodes_from_sls_trace(&text, "inline.json", &d).unwrap(),
            jobs: trace::parse_sls_jobs(&text, "inline.json", &d).unwrap(),
        },
        checked(),
    )
    .unwrap();
    let job = |id: &str| r.jobs.iter().find(|j| j.id == id).unwrap();
    assert_eq!(
        job("short").killed.as_deref(),
        Some("Application is killed by ResourceManager as it has exceeded the lifetime period.")
    );
    assert_eq!(job("short").finish_ms, None);

    assert!(job("long").finish_ms.is_some() && job("long").killed.is_none());
    let summary = capsched::sim::output::summary(&r);
    assert_eq!(summary["jobs_killed"], 1);
}

#[test]
fn idle_time_is_not_skipped_past_a_lifetime_deadline() {
    // One job alone, a 600 s task, in a queue whose applications live 10 s: the run skips
    // the idle stretch but stops at the deadline, where the job is killed.
    let conf = CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=b
yarn.scheduler.capacity.root.b.capacity=100
yarn.scheduler.capacity.root.b.maximum-application-lifetime=10",
    )
    .unwrap();
    let text = r#"{"am.type":"mapreduce","job.start.ms":0,"job.end.ms":700000,"job.queue.name":"b","job.id":"j","job.user":"u","job.tasks":[{"container.host":"/r/n1","container.start.ms":100,"container.end.ms":600100,"container.priority":20,"container.type":"map"}]}"#;
    let d = SimDefaults::default();
    let r = simulate(
        SimulationInput {
            conf: Arc::new(conf),
            nodes: trace::nodes_from_sls_trace(text, "inline.json", &d).unwrap(),
            jobs: trace::parse_sls_jobs(text, "inline.json", &d).unwrap(),
        },
        SimulationOptions {
            skip_idle: true,
            ..checked()
        },
    )
    .unwrap();
    assert!(r.jobs[0].killed.is_some());
    // Without the deadline as a wake-up the run would have skipped to the task's end, 600 s.
    assert!(
        r.skipped_ms < 15_000,
        "skipped {} ms: past the 10 s deadline",
        r.skipped_ms
    );
}

#[test]
fn simulated_users_get_auto_created_leaves_reported_under_their_managed_parent() {
    // Each user's job names `default` and is mapped to a leaf of its own under root.m, made
    // at submission. Three 20% leaves fit m's 50%... the fourth waits at zero capacity but
    // still runs on m's idle room (its maximum is the template's 100%).
    let conf = CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=a,m
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.m.capacity=50
yarn.scheduler.capacity.root.m.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.m.leaf-queue-template.capacity=30
yarn.scheduler.capacity.root.m.leaf-queue-template.maximum-capacity=100
yarn.scheduler.capacity.root.m.leaf-queue-template.maximum-am-resource-percent=1
yarn.scheduler.capacity.queue-mappings=u:%user:m.%user
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.scheduler.monitor.policies=org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.QueueManagementDynamicEditPolicy",
    )
    .unwrap();
    let job = |id: &str, user: &str, start: i64| {
        format!(
            r#"{{"am.type":"mapreduce","job.start.ms":{start},"job.end.ms":{},"job.queue.name":"default","job.id":"{id}","job.user":"{user}","job.tasks":[{{"container.host":"/r/n1","container.start.ms":{},"container.end.ms":{},"container.priority":20,"container.type":"map"}}]}}"#,
            start + 20000,
            start + 100,
            start + 10000
        )
    };
    let text = [
        job("j1", "u1", 0),
        job("j2", "u2", 0),
        job("j3", "u3", 0),
        job("j4", "u4", 0),
        job("j5", "u1", 30000),
    ]
    .join("\n");
    let d = SimDefaults::default();
    let jobs = trace::parse_sls_jobs(&text, "inline.json", &d).unwrap();
    let nodes = trace::nodes_from_sls_trace(&text, "inline.json", &d).unwrap();
    let r = simulate(
        SimulationInput {
            conf: Arc::new(conf),
            nodes,
            jobs,
        },
        checked(),
    )
    .unwrap();
    assert_all_finished(&r, 5);
    for (id, leaf) in [
        ("j1", "root.m.u1"),
        ("j2", "root.m.u2"),
        ("j3", "root.m.u3"),
        ("j4", "root.m.u4"),
        ("j5", "root.m.u1"),
    ] {
        let j = r.jobs.iter().find(|j| j.id == id).unwrap();
        assert_eq!(j.leaf.as_deref(), Some(leaf), "{id}");
    }
    // The rows: the configured leaf, and the managed parent for its leaves, which did run.
    let rows: Vec<&str> = r.leaves.iter().map(|l| l.path.as_str()).collect();
    assert_eq!(rows, vec!["root.a", "root.m"]);
    assert!(r.samples.iter().any(|s| s.queues[1].allocated_memory > 0));
}

#[test]
fn simulated_users_get_dynamic_queues_that_go_when_idle() {
    // YARN 3.4's flexible creation: each user's job lands in a dynamic leaf under root.d; the
    // deletion policy (every queue-expiration-time, 5 s) removes a leaf idle for longer than
    // that, and a later job of the same user makes it again.
    let conf = CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=a,d
yarn.scheduler.capacity.root.a.capacity=1w
yarn.scheduler.capacity.root.d.capacity=1w
yarn.scheduler.capacity.root.d.auto-queue-creation-v2.enabled=true
yarn.scheduler.capacity.root.d.auto-queue-creation-v2.leaf-template.maximum-am-resource-percent=1
yarn.scheduler.capacity.auto-queue-creation-v2.queue-expiration-time=5
yarn.scheduler.capacity.queue-mappings=u:%user:root.d.%user
yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.scheduler.monitor.policies=org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AutoCreatedQueueDeletionPolicy",
    )
    .unwrap();
    let job = |id: &str, user: &str, start: i64| {
        format!(
            r#"{{"am.type":"mapreduce","job.start.ms":{start},"job.end.ms":{},"job.queue.name":"default","job.id":"{id}","job.user":"{user}","job.tasks":[{{"container.host":"/r/n1","container.start.ms":{},"container.end.ms":{},"container.priority":20,"container.type":"map"}}]}}"#,
            start + 10000,
            start + 100,
            start + 5000
        )
    };
    let text = [
        job("j1", "u1", 0),
        job("j2", "u2", 0),
        job("j3", "u1", 60000),
    ]
    .join("\n");
    let d = SimDefaults::default();
    let jobs = trace::parse_sls_jobs(&text, "inline.json", &d).unwrap();
    let nodes = trace::nodes_from_sls_trace(&text, "inline.json", &d).unwrap();
    // The REST documents at 8 s (both users' leaves, jobs running), 40 s (both idle past the
    // expiration: gone) and 62 s (u1's made again).
    struct Docs(Vec<(i64, String)>);
    impl capsched::sim::SimObserver for Docs {
        fn rest_document(&mut self, time_ms: i64, json: &str) -> std::io::Result<()> {
            self.0.push((time_ms, json.to_string()));
            Ok(())
        }
    }
    let mut docs = Docs(Vec::new());
    let r = capsched::sim::simulate_with(
        SimulationInput {
            conf: Arc::new(conf),
            nodes,
            jobs,
        },
        SimulationOptions {
            rest_at: vec![8_000, 40_000, 62_000],
            ..checked()
        },
        &mut docs,
    )
    .unwrap();
    assert_all_finished(&r, 3);
    let has = |t: i64, path: &str| {
        let (_, doc) = docs.0.iter().find(|(at, _)| *at == t).expect("a document");
        doc.contains(&format!("\"queuePath\":\"{path}\""))
            || doc.contains(&format!("\"queuePath\": \"{path}\""))
    };
    assert!(has(8_000, "root.d.u1") && has(8_000, "root.d.u2"));
    assert!(!has(40_000, "root.d.u1") && !has(40_000, "root.d.u2"));
    assert!(has(62_000, "root.d.u1") && !has(62_000, "root.d.u2"));
    for (id, leaf) in [
        ("j1", "root.d.u1"),
        ("j2", "root.d.u2"),
        ("j3", "root.d.u1"),
    ] {
        let j = r.jobs.iter().find(|j| j.id == id).unwrap();
        assert_eq!(j.leaf.as_deref(), Some(leaf), "{id}");
    }
    // The configured leaf and the parent that creates queues are the rows.
    let rows: Vec<&str> = r.leaves.iter().map(|l| l.path.as_str()).collect();
    assert_eq!(rows, vec!["root.a", "root.d"]);
}

#[test]
fn a_refresh_that_removes_a_reported_queue_leaves_its_row_empty() {
    // b is STOPPED and empty, and the variant drops it: refreshes between the two remove and
    // restore it while jobs run in a; b's row counts nothing while it is gone.
    let base = "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.a.maximum-capacity=100
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.b.state=STOPPED";
    let variant = "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100";
    let job = |id: &str, start: i64| {
        format!(
            r#"{{"am.type":"mapreduce","job.start.ms":{start},"job.end.ms":{},"job.queue.name":"a","job.id":"{id}","job.user":"u","job.tasks":[{{"container.host":"/r/n1","container.start.ms":{},"container.end.ms":{},"container.priority":20,"container.type":"map"}}]}}"#,
            start + 60000,
            start + 100,
            start + 50000
        )
    };
    let text = (0..6)
        .map(|i| job(&format!("j{i}"), i * 30_000))
        .collect::<Vec<_>>()
        .join("\n");
    let d = SimDefaults::default();
    let jobs = trace::parse_sls_jobs(&text, "inline.json", &d).unwrap();
    let nodes = trace::nodes_from_sls_trace(&text, "inline.json", &d).unwrap();
    let chaos = capsched::sim::chaos::Chaos {
        faults_per_minute: 6.0,
        node_loss: 0,
        am_crash: 0,
        refresh: 1,
        move_app: 0,
        lost_launch_percent: 0,
        alternate: Some(Arc::new(
            CapacitySchedulerConfiguration::from_properties_str(variant).unwrap(),
        )),
        ..capsched::sim::chaos::Chaos::everything(7)
    };
    let r = simulate(
        SimulationInput {
            conf: Arc::new(CapacitySchedulerConfiguration::from_properties_str(base).unwrap()),
            nodes,
            jobs,
        },
        SimulationOptions {
            chaos: Some(chaos),
            ..checked()
        },
    )
    .unwrap();
    assert_all_finished(&r, 6);
    assert!(r.faults.refreshes > 0);
    let rows: Vec<&str> = r.leaves.iter().map(|l| l.path.as_str()).collect();
    assert_eq!(rows, vec!["root.a", "root.b"]);
    assert!(r.samples.iter().all(|s| s.queues[1].allocated_memory == 0));
}
