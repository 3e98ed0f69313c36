//! Node labels in the simulator (docs/SIMULATOR.md, "Node labels"): the nodes file's labels
//! become the cluster's and each node's, SLS's `job.label.expression` is the application's
//! label; a labelled job runs on its partition only (its AM too), unlabelled jobs stay off
//! exclusive partitions and take a non-exclusive one's idle room; the invariant checker runs
//! after every event; labels YARN would refuse stop the run with YARN's words, and a job whose
//! label YARN refuses is rejected with them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::sim::trace::{self, SimDefaults, TraceJob, TraceNode, TraceTask};
use capsched::sim::{
    check_node_labels, simulate, simulate_with, SimError, SimObserver, SimulationInput,
    SimulationOptions, SimulationResult,
};
use serde_json::Value;

fn data(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir)
        .join(name)
}

fn read(dir: &str, name: &str) -> String {
    std::fs::read_to_string(data(dir, name)).unwrap()
}

/// The sample's configuration: labels on; prod (gpu, shared), batch (default partition only).
fn sample_conf() -> Arc<CapacitySchedulerConfiguration> {
    Arc::new(
        CapacitySchedulerConfiguration::from_file(&data("sls-labels", "capacity-scheduler.xml"))
            .unwrap(),
    )
}

fn sample_nodes() -> Vec<TraceNode> {
    trace::parse_nodes(
        &read("sls-labels", "nodes.json"),
        "nodes.json",
        &SimDefaults::default(),
    )
    .unwrap()
}

fn sample_jobs() -> Vec<TraceJob> {
    trace::parse_sls_jobs(
        &read("sls-labels", "trace.json"),
        "trace.json",
        &SimDefaults::default(),
    )
    .unwrap()
}

fn checked() -> SimulationOptions {
    SimulationOptions {
        check_invariants: true,
        ..SimulationOptions::default()
    }
}

/// Keeps every REST document the run hands over.
#[derive(Default)]
struct Documents(Vec<(i64, Value)>);

impl SimObserver for Documents {
    fn rest_document(&mut self, time_ms: i64, json: &str) -> std::io::Result<()> {
        self.0.push((time_ms, serde_json::from_str(json).unwrap()));
        Ok(())
    }
}

/// A leaf's object by name, and one of its users'.
fn leaf<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["scheduler"]["schedulerInfo"]["queues"]["queue"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["queueName"] == name)
        .unwrap()
}

fn user<'a>(queue: &'a Value, name: &str) -> Option<&'a Value> {
    queue["users"]["user"]
        .as_array()?
        .iter()
        .find(|u| u["username"] == name)
}

/// Memory used in `partition` by a queue or user object (0 when the partition is not listed).
fn used_in(v: &Value, partition: &str) -> i64 {
    v["resources"]["resourceUsagesByPartition"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["partitionName"] == partition)
        .map(|e| e["used"]["memory"].as_i64().unwrap())
        .unwrap_or(0)
}

const MISFILED: &str = "Invalid resource request, queue=batch doesn't have permission to access \
     all labels in resource request. labelExpression of resource request=gpu. Queue labels=";

/// The sample (tests/data/sls-labels): nodes node1, node2 unlabelled, gpu1, gpu2 on the
/// exclusive gpu, shared1 on the non-exclusive shared, 10 GB each. train (prod, label gpu),
/// etl (batch, no label, 40 GB of 2 GB tasks), report (prod, no label), adhoc (prod, label
/// shared), misfiled (batch, label gpu, which batch may not use). The REST document every
/// half second shows where each user's containers are.
#[test]
fn labelled_jobs_run_on_their_partition_and_unlabelled_ones_off_exclusive_ones() {
    let input = SimulationInput {
        conf: sample_conf(),
        nodes: sample_nodes(),
        jobs: sample_jobs(),
    };
    let opts = SimulationOptions {
        rest_at: (0..=200).map(|i| i * 500).collect(),
        ..checked()
    };
    let mut docs = Documents::default();
    let r = simulate_with(input, opts, &mut docs).unwrap();
    assert!(!r.timed_out);
    let job = |id: &str| r.jobs.iter().find(|j| j.id == id).unwrap();
    for id in ["train", "etl", "report", "adhoc"] {
        assert!(job(id).finish_ms.is_some(), "{id} finishes");
    }
    assert_eq!(job("misfiled").rejected.as_deref(), Some(MISFILED));
    assert_eq!(r.jobs.iter().filter(|j| j.rejected.is_some()).count(), 1);
    // 50 GB in all: 20 unlabelled, 20 gpu, 10 shared.
    assert_eq!(r.cluster.memory_mb(), 50 * 1024);

    let (mut train_on_gpu, mut adhoc_on_shared, mut etl_lent_shared) = (false, false, false);
    assert!(docs.0.len() > 100);
    for (t, d) in &docs.0 {
        let (prod, batch) = (leaf(d, "prod"), leaf(d, "batch"));
        if let Some(alice) = user(prod, "alice") {
            // train (gpu): AM and tasks on gpu, nothing anywhere else.
            assert_eq!(used_in(alice, ""), 0, "train off gpu at {t} ms");
            assert_eq!(used_in(alice, "shared"), 0, "train off gpu at {t} ms");
            train_on_gpu |= used_in(alice, "gpu") > 0;
        }
        if let Some(dave) = user(prod, "dave") {
            // adhoc (shared): on shared only.
            assert_eq!(used_in(dave, ""), 0, "adhoc off shared at {t} ms");
            assert_eq!(used_in(dave, "gpu"), 0, "adhoc off shared at {t} ms");
            adhoc_on_shared |= used_in(dave, "shared") > 0;
        }
        // Unlabelled work never reaches the exclusive gpu nodes.
        if let Some(carol) = user(prod, "carol") {
            assert_eq!(used_in(carol, "gpu"), 0, "report on gpu at {t} ms");
        }
        assert_eq!(used_in(batch, "gpu"), 0, "batch on gpu at {t} ms");
        // etl may take shared's idle room, which batch has no capacity on.
        etl_lent_shared |= user(batch, "bob").is_some_and(|b| used_in(b, "shared") > 0);
    }
    assert!(train_on_gpu && adhoc_on_shared && etl_lent_shared);

    // The per-queue samples count every partition: before report starts (10 s) prod runs
    // only train, all of it on gpu.
    let prod_row = r.leaves.iter().position(|l| l.path == "root.prod").unwrap();
    let early = r
        .samples
        .iter()
        .filter(|s| s.time_ms < 10_000)
        .map(|s| s.queues[prod_row].allocated_memory)
        .max()
        .unwrap();
    assert!(early >= 2 * 1024, "train's containers counted: {early}");
    // Shares of the whole cluster's 50 GB: prod is guaranteed half the 20 unlabelled GB and
    // every labelled one (40 GB), batch half the unlabelled (10 GB), up to all of it.
    let share = |path: &str| {
        let l = r.leaves.iter().find(|l| l.path == path).unwrap();
        (l.guaranteed_share, l.max_share)
    };
    assert_eq!(share("root.prod"), (0.8, 1.0));
    assert_eq!(share("root.batch"), (0.2, 0.4));
}

/// The same run twice gives the same decisions.
#[test]
fn a_labelled_run_replays_exactly() {
    let run = || {
        simulate(
            SimulationInput {
                conf: sample_conf(),
                nodes: sample_nodes(),
                jobs: sample_jobs(),
            },
            SimulationOptions::default(),
        )
        .unwrap()
    };
    let (a, b): (SimulationResult, SimulationResult) = (run(), run());
    let times = |r: &SimulationResult| {
        r.jobs
            .iter()
            .map(|j| (j.id.clone(), j.first_task_ms, j.finish_ms))
            .collect::<Vec<_>>()
    };
    assert_eq!(times(&a), times(&b));
    assert_eq!(a.containers_allocated, b.containers_allocated);
}

fn node(host: &str, labels: &[(&str, bool)]) -> TraceNode {
    TraceNode {
        host: host.into(),
        rack: "/r".into(),
        memory_mb: 8192,
        vcores: 8,
        labels: labels.iter().map(|(n, e)| (n.to_string(), *e)).collect(),
    }
}

fn one_job() -> Vec<TraceJob> {
    vec![TraceJob::mapreduce(
        "j",
        "prod",
        "u",
        0,
        vec![TraceTask::map(1000, 1024, 1)],
    )]
}

/// Both the run and the check a host makes first refuse the nodes with `message`.
fn refused(conf: Arc<CapacitySchedulerConfiguration>, nodes: Vec<TraceNode>, message: &str) {
    match check_node_labels(&conf, &nodes) {
        Err(SimError::Input(m)) => assert_eq!(m, message),
        other => panic!("check_node_labels: {other:?}"),
    }
    match simulate(
        SimulationInput {
            conf,
            nodes,
            jobs: one_job(),
        },
        checked(),
    ) {
        Err(SimError::Input(m)) => assert_eq!(m, message),
        Ok(_) => panic!("the run went ahead"),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn labels_yarn_refuses_stop_the_run_with_yarns_words() {
    // SLS's own sample gives node3 and node4 two labels each: a real RM refuses that.
    let two = trace::parse_nodes(
        &read("sls", "nodes-with-resources.json"),
        "nodes-with-resources.json",
        &SimDefaults::default(),
    )
    .unwrap();
    refused(
        sample_conf(),
        two.clone(),
        "node /rack1/node3 (labels label1,label2): 2 labels specified on host=node3, please \
         note that we do not support specifying multiple labels on a single host for now.",
    );
    // Labels need yarn.node-labels.enabled in the simulated configuration.
    let disabled = Arc::new(
        CapacitySchedulerConfiguration::from_file(&data("sls", "capacity-scheduler.xml")).unwrap(),
    );
    refused(
        disabled.clone(),
        two,
        "node /rack1/node3 (labels label1,label2): Node-label-based scheduling is disabled. \
         Please check yarn.node-labels.enabled",
    );
    // One label, two exclusivities.
    refused(
        sample_conf(),
        vec![node("a", &[("gpu", true)]), node("b", &[("gpu", false)])],
        "node /r/b (labels gpu): Exclusivity cannot be modified for an existing label with : \
         <gpu:exclusivity=false>",
    );
    // A name the label manager refuses.
    refused(
        sample_conf(),
        vec![node("a", &[("-gpu", true)])],
        "node /r/a (labels -gpu): label name should only contains {0-9, a-z, A-Z, -, _} and \
         should not started with {-,_}, now it is= -gpu",
    );
    // The same label twice is one label.
    check_node_labels(
        &sample_conf(),
        &[node("a", &[("gpu", true), ("gpu", true)])],
    )
    .unwrap();
    // Without labels nothing is asked of the configuration.
    check_node_labels(&disabled, &[node("a", &[])]).unwrap();
}

/// A job whose label YARN refuses is rejected with YARN's message and counted; the others run.
#[test]
fn jobs_with_labels_yarn_refuses_are_rejected() {
    let labelled = |id: &str, queue: &str, label: &str| TraceJob {
        label_expression: Some(label.into()),
        ..TraceJob::mapreduce(id, queue, "u", 0, vec![TraceTask::map(1000, 1024, 1)])
    };
    let run = |conf: Arc<CapacitySchedulerConfiguration>, nodes: Vec<TraceNode>| {
        simulate(
            SimulationInput {
                conf,
                nodes,
                jobs: vec![
                    labelled("nope", "prod", "nope"),
                    labelled("blank", "prod", " "),
                    TraceJob::mapreduce(
                        "plain",
                        "prod",
                        "u",
                        0,
                        vec![TraceTask::map(1000, 1024, 1)],
                    ),
                ],
            },
            checked(),
        )
        .unwrap()
    };
    let rejected = |r: &SimulationResult, id: &str| {
        r.jobs.iter().find(|j| j.id == id).unwrap().rejected.clone()
    };
    // A label the cluster does not have, in a queue that may use any (`*`, root's).
    let any = "yarn.node-labels.enabled=true\n\
               yarn.scheduler.capacity.root.queues=prod\n\
               yarn.scheduler.capacity.root.prod.capacity=100\n";
    let r = run(
        Arc::new(CapacitySchedulerConfiguration::from_properties_str(any).unwrap()),
        vec![node("n1", &[]), node("g1", &[("gpu", true)])],
    );
    assert_eq!(
        rejected(&r, "nope").as_deref(),
        Some("Invalid label resource request, cluster do not contain , label= nope")
    );
    // A blank label is the default partition's.
    assert_eq!(rejected(&r, "blank"), None);
    assert!(r
        .jobs
        .iter()
        .filter(|j| j.id != "nope")
        .all(|j| j.finish_ms.is_some()));
    // Labels off: any label is refused.
    let props = "yarn.scheduler.capacity.root.queues=prod\nyarn.scheduler.capacity.root.prod.capacity=100\n";
    let r = run(
        Arc::new(CapacitySchedulerConfiguration::from_properties_str(props).unwrap()),
        vec![node("n1", &[])],
    );
    assert_eq!(
        rejected(&r, "nope").as_deref(),
        Some("Invalid resource request, node label not enabled but request contains label expression")
    );
}

/// Rumen job histories and SYNTH workloads carry no labels.
#[test]
fn rumen_and_synth_jobs_have_no_label() {
    let d = SimDefaults::default();
    let rumen = trace::parse_rumen(&read("sls", "2jobs2min-rumen-jh.json"), "rumen", &d).unwrap();
    let synth = trace::parse_synth(&read("sls", "syn.json"), "syn.json", 7, &d).unwrap();
    assert!(rumen
        .iter()
        .chain(&synth)
        .all(|j| j.label_expression.is_none()));
}

fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The sample through the command line, and a nodes file YARN would refuse: an error before
/// anything is written.
#[test]
fn the_command_line_runs_the_sample_and_refuses_two_labels_per_node() {
    let out = out_dir("sim-labels-sample");
    let run = |nodes: &Path, out: &Path| {
        Command::new(env!("CARGO_BIN_EXE_capsched"))
            .args(["simulate", "--config"])
            .arg(data("sls-labels", "capacity-scheduler.xml"))
            .arg("--trace")
            .arg(data("sls-labels", "trace.json"))
            .arg("--nodes")
            .arg(nodes)
            .arg("--output")
            .arg(out)
            .arg("--check-invariants")
            .output()
            .unwrap()
    };
    let o = run(&data("sls-labels", "nodes.json"), &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["jobs_completed"], 4);
    assert_eq!(summary["jobs_rejected"], 1);
    let problems = std::fs::read_to_string(out.join("problems.txt")).unwrap();
    assert!(problems.contains(MISFILED), "{problems}");

    let refused = out_dir("sim-labels-refused");
    let nodes = data("sls", "nodes-with-resources.json");
    let o = run(&nodes, &refused);
    assert_eq!(o.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(&format!(
            "error: {}: node /rack1/node3 (labels label1,label2): 2 labels specified on host=node3",
            nodes.display()
        )),
        "{stderr}"
    );
    assert!(!refused.exists(), "nothing written");
}
