//! capsched inside a real Hadoop ResourceManager: `org.capsched.yarn.CapschedResourceScheduler`
//! (bindings/java/src/yarn) under Hadoop's own MockRM/MockNM/MockAM, the same scenarios run on
//! the stock CapacityScheduler and on capsched with the same outcomes (node labels among them:
//! the RM's label manager labelling nodes, labelled asks and submissions), and YARN's distributed
//! shell run to success on a MiniYARNCluster (two NodeManagers launching real processes)
//! scheduled by capsched (bindings/java/src/yarn-test). Hadoop's jars come from no registry, so this runs only where
//! `HADOOP_HOME` points at a Hadoop 3.3.6 distribution prepared as docs/HADOOP.md says (MockRM
//! is compiled from the distribution's own test-sources jars); elsewhere it says it is skipped.
//! Mockito, JUnit and BouncyCastle come from Debian's packages. It runs with the plug-in's
//! manual engine (`capsched.engine.mode`, the default); `CAPSCHED_ENGINE_MODE=threaded` runs it
//! all with the threaded one.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::hadoop::{
    build_yarn_plugin, distribution_jars, engine_mode, engine_mode_property, hadoop_home_or_skip,
    join, OPENS,
};
use common::native::{root, run_ok as run};

/// What the RM-side test needs from Debian (`apt-get install junit4 libmockito-java`).
const TEST_JARS: &[&str] = &[
    "/usr/share/java/junit4.jar",
    "/usr/share/java/hamcrest-core.jar",
    "/usr/share/java/mockito-core.jar",
    "/usr/share/java/byte-buddy.jar",
    "/usr/share/java/byte-buddy-agent.jar",
    "/usr/share/java/objenesis.jar",
];

#[test]
fn capsched_in_a_mock_rm_gives_the_stock_schedulers_outcomes() {
    let Some(home) = hadoop_home_or_skip() else {
        return;
    };
    if let Some(missing) = TEST_JARS.iter().find(|j| !Path::new(j).exists()) {
        eprintln!("skipped: {missing} is missing (apt-get install junit4 libmockito-java)");
        return;
    }
    let out = std::env::temp_dir().join(format!("capsched-hadoop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    build_yarn_plugin(&home, &out);
    let h = home.join("share/hadoop");
    // First on the classpath: where the distributed shell test writes the mini cluster's
    // yarn-site.xml for its AM (which runs with this classpath) to find the RM.
    let conf_dir = out.join("conf");
    std::fs::create_dir_all(&conf_dir).unwrap();
    let mut cp = vec![conf_dir.clone(), home.join("etc/hadoop")];
    cp.extend(distribution_jars(&h, "mapreduce"));
    cp.push(h.join("common/hadoop-common-3.3.6-tests.jar"));
    cp.push(h.join("yarn/test/hadoop-yarn-server-tests-3.3.6-tests.jar")); // MiniYARNCluster
    cp.extend(TEST_JARS.iter().map(PathBuf::from));
    cp.push(out.join("capsched-yarn.jar"));

    // MockRM and its helpers, from the distribution's own test sources.
    let sources = out.join("hadoop-test-sources");
    std::fs::create_dir_all(&sources).unwrap();
    for jar in [
        "hadoop-yarn-server-resourcemanager-3.3.6-test-sources.jar",
        "hadoop-yarn-server-common-3.3.6-test-sources.jar",
        "hadoop-yarn-common-3.3.6-test-sources.jar",
    ] {
        run(Command::new("jar")
            .current_dir(&sources)
            .arg("xf")
            .arg(h.join("yarn/sources").join(jar)));
    }
    let mock = sources.join("org/apache/hadoop/yarn/server/resourcemanager");
    let mock_classes = out.join("mock-classes");
    run(Command::new("javac")
        .args([
            "-nowarn",
            "-proc:none",
            "-source",
            "8",
            "-target",
            "8",
            "-cp",
        ])
        .arg(join(&cp))
        .arg("-sourcepath")
        .arg(&sources)
        .arg("-d")
        .arg(&mock_classes)
        .args(
            [
                "MockRM",
                "MockNM",
                "MockAM",
                "MockRMAppSubmitter",
                "MockRMAppSubmissionData",
                "MockNodes",
            ]
            .map(|c| mock.join(format!("{c}.java"))),
        ));
    cp.push(mock_classes);

    let tests = out.join("test-classes");
    let test_sources: Vec<PathBuf> =
        std::fs::read_dir(root().join("bindings/java/src/yarn-test/java/org/capsched/yarn"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
    run(Command::new("javac")
        .args(["--release", "8", "-nowarn", "-cp"])
        .arg(join(&cp))
        .arg("-d")
        .arg(&tests)
        .args(&test_sources));
    cp.insert(1, tests);
    // JAVA_TOOL_OPTIONS reaches the containers' JVMs too (the test whitelists it).
    let text = run(Command::new("java")
        .current_dir(&out)
        .env("JAVA_TOOL_OPTIONS", OPENS.join(" "))
        .arg(format!("-Dcapsched.conf.dir={}", conf_dir.display()))
        .arg(engine_mode_property())
        .arg("-cp")
        .arg(join(&cp))
        .args([
            "org.junit.runner.JUnitCore",
            "org.capsched.yarn.SameOutcomesTest",
            "org.capsched.yarn.QueueMaximumAllocationTest",
            "org.capsched.yarn.MetricsParityTest",
            "org.capsched.yarn.RefusalsTest",
            "org.capsched.yarn.NodeLabelsTest",
            "org.capsched.yarn.WebTest",
            "org.capsched.yarn.RequestTableTest",
            "org.capsched.yarn.ConcurrentReadersTest",
            // Last: its MiniYARNCluster leaves a yarn-site.xml that marks later RMs as its own.
            "org.capsched.yarn.DistributedShellTest",
        ]));
    let tests_run =
        std::fs::read_dir(root().join("bindings/java/src/yarn-test/java/org/capsched/yarn"))
            .unwrap()
            .map(|e| {
                std::fs::read_to_string(e.unwrap().path())
                    .unwrap()
                    .matches("@Test")
                    .count()
            })
            .sum::<usize>();
    assert!(text.contains(&format!("OK ({tests_run} tests)")), "{text}");
    // The plug-in ran the engine the mode asked for (its start line says which).
    let mode = engine_mode();
    assert!(
        text.contains(&format!(
            "schedules this ResourceManager, epoch 0, {mode} engine"
        )),
        "the plug-in's engine was not {mode}"
    );
    // The distributed shell's commands ran in real containers on both NodeManagers.
    let mut said = 0;
    let mut stack = vec![out.join("target")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "stdout")
                && std::fs::read_to_string(&p).unwrap_or_default() == "hello from capsched\n"
            {
                said += 1;
            }
        }
    }
    assert_eq!(said, 2, "two shell containers said hello");

    // Hadoop's Scheduler Load Simulator: the same trace on a real ResourceManager under
    // SLSCapacityScheduler and under capsched (org.capsched.yarn.sls.SLSCapschedScheduler).
    if h.join("tools/lib/hadoop-sls-3.3.6.jar").exists() {
        let mut sls_cp = distribution_jars(&h, "tools/lib");
        sls_cp.push(h.join("tools/sls")); // the SLS web page's templates
        sls_cp.push(out.join("capsched-yarn.jar"));
        let stock = run_sls(
            &out.join("sls-stock"),
            "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler",
            &sls_cp,
        );
        let ours = run_sls(
            &out.join("sls-capsched"),
            "org.capsched.yarn.sls.SLSCapschedScheduler",
            &sls_cp,
        );
        assert_eq!(stock.jobs.len(), 4, "{stock:?}");
        assert_eq!(ours.jobs, stock.jobs, "the same jobs ran to their end");
        eprintln!(
            "SLS, 4 jobs: the stock CapacityScheduler {:.1} s, allocate {:.3} ms, NODE_UPDATE {:.3} ms; \
             capsched {:.1} s, allocate {:.3} ms, NODE_UPDATE {:.3} ms (mean per call, SLS's own timers)",
            stock.seconds,
            stock.allocate_ms,
            stock.node_update_ms,
            ours.seconds,
            ours.allocate_ms,
            ours.node_update_ms
        );
    } else {
        eprintln!("skipped the SLS run: the distribution has no share/hadoop/tools/lib/hadoop-sls-3.3.6.jar");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// What an SLS run left: the jobs that ran to their end (by sequence number, with their trace
/// start and end), its wall time, and SLS's mean time per allocate and per NODE_UPDATE.
#[derive(Debug)]
struct SlsRun {
    jobs: std::collections::BTreeSet<(String, String, String)>,
    seconds: f64,
    allocate_ms: f64,
    node_update_ms: f64,
}

/// Runs SLSRunner on tests/data/sls-rm (2 NodeManagers, 4 MapReduce jobs in two queues) with
/// `scheduler` as the RM's scheduler class; SLS exits once every application has ended.
fn run_sls(dir: &Path, scheduler: &str, cp: &[PathBuf]) -> SlsRun {
    let data = root().join("tests/data/sls-rm");
    let conf = dir.join("conf");
    let output = dir.join("output");
    std::fs::create_dir_all(&conf).unwrap();
    std::fs::create_dir_all(&output).unwrap();
    for f in [
        "capacity-scheduler.xml",
        "sls-runner.xml",
        "log4j.properties",
    ] {
        std::fs::copy(data.join(f), conf.join(f)).unwrap();
    }
    let site = std::fs::read_to_string(data.join("yarn-site.xml.in"))
        .unwrap()
        .replace("@SCHEDULER@", scheduler);
    std::fs::write(conf.join("yarn-site.xml"), site).unwrap();
    let mut full = vec![conf];
    full.extend_from_slice(cp);
    let started = std::time::Instant::now();
    run(Command::new("java")
        .current_dir(dir)
        .env("JAVA_TOOL_OPTIONS", OPENS.join(" "))
        .arg(engine_mode_property())
        .arg("-cp")
        .arg(join(&full))
        .arg("org.apache.hadoop.yarn.sls.SLSRunner")
        .arg("-tracetype")
        .arg("SLS")
        .arg("-tracelocation")
        .arg(data.join("trace.json"))
        .arg("-output")
        .arg(&output));
    let seconds = started.elapsed().as_secs_f64();
    // SLS writes some jobs' line twice; the set keeps one.
    let csv = std::fs::read_to_string(output.join("jobruntime.csv")).unwrap();
    let jobs = csv
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let seq = f[0].rsplit('_').next().unwrap().to_string();
            (seq, f[1].to_string(), f[2].to_string())
        })
        .collect();
    // realtimetrack.json: a sample a second, one a line (",{…}"); SLS exits without closing
    // the array, so the samples are read line by line. The last has the run's means.
    let track = std::fs::read_to_string(output.join("realtimetrack.json")).unwrap();
    let last: serde_json::Value = track
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l.trim_start_matches(['[', ','])).ok())
        .unwrap_or_else(|| panic!("SLS sampled the run: {track}"));
    let ms = |k: &str| last[k].as_f64().unwrap_or_else(|| panic!("{k} in {last}"));
    SlsRun {
        jobs,
        seconds,
        allocate_ms: ms("scheduler.allocate.timecost"),
        node_update_ms: ms("scheduler.handle-NODE_UPDATE.timecost"),
    }
}
