//! capsched inside a real Hadoop ResourceManager: `org.capsched.yarn.CapschedResourceScheduler`
//! (bindings/java/src/yarn) under Hadoop's own MockRM/MockNM/MockAM, the same scenarios run on
//! the stock CapacityScheduler and on capsched with the same outcomes, and YARN's distributed
//! shell run to success on a MiniYARNCluster (two NodeManagers launching real processes)
//! scheduled by capsched (bindings/java/src/yarn-test). Hadoop's jars come from no registry, so this runs only where
//! `HADOOP_HOME` points at a Hadoop 3.3.6 distribution prepared as docs/HADOOP.md says (MockRM
//! is compiled from the distribution's own test-sources jars); elsewhere it says it is skipped.
//! Mockito, JUnit and BouncyCastle come from Debian's packages.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::native::{lib_dir, root, run_ok as run};

/// What the RM-side test needs from Debian (`apt-get install junit4 libmockito-java`).
const TEST_JARS: &[&str] = &[
    "/usr/share/java/junit4.jar",
    "/usr/share/java/hamcrest-core.jar",
    "/usr/share/java/mockito-core.jar",
    "/usr/share/java/byte-buddy.jar",
    "/usr/share/java/byte-buddy-agent.jar",
    "/usr/share/java/objenesis.jar",
];

/// Java 17 opens what Hadoop 3.3 reflects into.
const OPENS: &[&str] = &[
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-opens=java.base/java.net=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-exports=java.base/sun.net.dns=ALL-UNNAMED",
    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
];

fn hadoop_home() -> Option<PathBuf> {
    let home = PathBuf::from(std::env::var_os("HADOOP_HOME")?);
    let rm = home.join("share/hadoop/yarn/hadoop-yarn-server-resourcemanager-3.3.6.jar");
    let common = home.join("share/hadoop/common/hadoop-common-3.3.6.jar");
    (rm.exists() && common.exists()).then_some(home)
}

fn jars(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.retain(|p| {
        let n = p.file_name().unwrap().to_string_lossy().to_string();
        n.ends_with(".jar") && !n.ends_with("-tests.jar") && !n.ends_with("-sources.jar")
    });
    v.sort();
    v
}

fn join(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

#[test]
fn capsched_in_a_mock_rm_gives_the_stock_schedulers_outcomes() {
    let Some(home) = hadoop_home() else {
        eprintln!(
            "skipped: HADOOP_HOME does not point at a Hadoop 3.3.6 distribution \
             (docs/HADOOP.md says how to prepare one)"
        );
        return;
    };
    if let Some(missing) = TEST_JARS.iter().find(|j| !Path::new(j).exists()) {
        eprintln!("skipped: {missing} is missing (apt-get install junit4 libmockito-java)");
        return;
    }
    let out = std::env::temp_dir().join(format!("capsched-hadoop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    run(Command::new(root().join("scripts/build-yarn-plugin"))
        .env("HADOOP_HOME", &home)
        .arg(&out)
        .arg(lib_dir()));
    let h = home.join("share/hadoop");
    // First on the classpath: where the distributed shell test writes the mini cluster's
    // yarn-site.xml for its AM (which runs with this classpath) to find the RM.
    let conf_dir = out.join("conf");
    std::fs::create_dir_all(&conf_dir).unwrap();
    let mut cp = vec![conf_dir.clone(), home.join("etc/hadoop")];
    for d in [
        "common",
        "common/lib",
        "hdfs",
        "yarn",
        "yarn/lib",
        "mapreduce",
    ] {
        cp.extend(jars(&h.join(d)));
    }
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
        .arg("-cp")
        .arg(join(&cp))
        .args([
            "org.junit.runner.JUnitCore",
            "org.capsched.yarn.SameOutcomesTest",
            "org.capsched.yarn.WebTest",
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
    let _ = std::fs::remove_dir_all(&out);
}
