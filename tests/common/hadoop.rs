//! For the tests that run a real Hadoop 3.3.6 (tests/hadoop_rm.rs, tests/hadoop_cluster.rs,
//! tests/hadoop_many_threads.rs): where the distribution is, its jars, the JDK 17 flags Hadoop
//! needs, and the plug-in jar.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::native::{lib_dir, root, run_ok};

/// Java 17 opens what Hadoop 3.3 reflects into.
pub const OPENS: &[&str] = &[
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-opens=java.base/java.net=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-exports=java.base/sun.net.dns=ALL-UNNAMED",
    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
];

/// The plug-in's engine mode for the RM JVMs these tests start: `CAPSCHED_ENGINE_MODE`
/// (`manual`, the default, or `threaded`), passed as the JVM system property
/// `capsched.engine.mode`, which the plug-in reads when the RM's configuration sets none
/// (docs/HADOOP.md, "The engine's mode").
pub fn engine_mode_property() -> String {
    format!("-Dcapsched.engine.mode={}", engine_mode())
}

/// `CAPSCHED_ENGINE_MODE`: `manual` (unset) or `threaded`, said once where a test reads it.
pub fn engine_mode() -> String {
    let mode = std::env::var("CAPSCHED_ENGINE_MODE").unwrap_or_else(|_| "manual".to_string());
    assert!(
        mode == "threaded" || mode == "manual",
        "CAPSCHED_ENGINE_MODE is {mode}: threaded or manual"
    );
    eprintln!("capsched's engine in the RM: {mode} (CAPSCHED_ENGINE_MODE)");
    mode
}

/// `HADOOP_HOME` when it holds Hadoop 3.3.6's ResourceManager and common jars.
pub fn hadoop_home() -> Option<PathBuf> {
    let home = PathBuf::from(std::env::var_os("HADOOP_HOME")?);
    let rm = home.join("share/hadoop/yarn/hadoop-yarn-server-resourcemanager-3.3.6.jar");
    let common = home.join("share/hadoop/common/hadoop-common-3.3.6.jar");
    (rm.exists() && common.exists()).then_some(home)
}

/// [`hadoop_home`], or `None` after saying that the test is skipped.
pub fn hadoop_home_or_skip() -> Option<PathBuf> {
    let home = hadoop_home();
    if home.is_none() {
        eprintln!(
            "skipped: HADOOP_HOME does not point at a Hadoop 3.3.6 distribution \
             (docs/HADOOP.md says how to prepare one)"
        );
    }
    home
}

/// The jars of `dir`, without test and source jars, sorted.
pub fn jars(dir: &Path) -> Vec<PathBuf> {
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

/// The jars of each of `dirs` (under share/hadoop), in that order.
pub fn share_jars(share: &Path, dirs: &[&str]) -> Vec<PathBuf> {
    dirs.iter().flat_map(|d| jars(&share.join(d))).collect()
}

/// The distribution's common, HDFS and YARN jars, then those of `extra` (under share/hadoop).
pub fn distribution_jars(share: &Path, extra: &str) -> Vec<PathBuf> {
    share_jars(
        share,
        &["common", "common/lib", "hdfs", "yarn", "yarn/lib", extra],
    )
}

/// A classpath.
pub fn join(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

/// Builds `capsched-yarn.jar` into `out` (scripts/build-yarn-plugin against `home`, with this
/// build's native library) and returns its path.
pub fn build_yarn_plugin(home: &Path, out: &Path) -> PathBuf {
    run_ok(
        Command::new(root().join("scripts/build-yarn-plugin"))
            .env("HADOOP_HOME", home)
            .arg(out)
            .arg(lib_dir()),
    );
    out.join("capsched-yarn.jar")
}
