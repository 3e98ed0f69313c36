//! The Java bindings (bindings/java), built as scripts/build-java builds them — the JNI glue
//! compiled `-Werror -pedantic` against include/capsched.h and linked with libcapsched.a, the
//! classes compiled `--release 8`, the jar carrying the native library — then their JUnit 4
//! tests run on this JDK, loading the library from the jar. JUnit comes from Debian's junit4
//! package (.ci/run installs it); without it, or without a JDK, the test skips unless
//! `CAPSCHED_REQUIRE_TOOLS=1` makes that a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::native::{lib_dir, root, run_ok as sh, tool_available};

const JUNIT: &str = "/usr/share/java/junit4.jar";
const HAMCREST: &str = "/usr/share/java/hamcrest-core.jar";

fn junit_available() -> bool {
    let found = Path::new(JUNIT).exists() && Path::new(HAMCREST).exists();
    if !found {
        assert!(
            std::env::var_os("CAPSCHED_REQUIRE_TOOLS").is_none(),
            "{JUNIT} is required (CAPSCHED_REQUIRE_TOOLS is set): apt-get install junit4"
        );
        eprintln!("junit4 not installed: skipped");
    }
    found
}

/// Builds the jar once into a fresh directory; returns the directory.
fn build() -> PathBuf {
    let out = std::env::temp_dir().join(format!("capsched-java-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    sh(Command::new(root().join("scripts/build-java"))
        .arg(&out)
        .arg(lib_dir()));
    out
}

#[test]
fn the_java_bindings_pass_their_junit_tests_loading_the_library_from_the_jar() {
    if !tool_available("javac") || !junit_available() {
        return;
    }
    let out = build();
    let jar = out.join("capsched.jar");
    // The jar carries the native library, and the classes run on Java 8 (class file 52).
    let listing = sh(Command::new("jar").arg("tf").arg(&jar));
    let platform = format!("linux-{}", std::env::consts::ARCH);
    assert!(
        listing.contains(&format!(
            "org/capsched/native/{platform}/libcapsched_jni.so"
        )),
        "{listing}"
    );
    let class = std::fs::read(out.join("classes/org/capsched/Engine.class")).unwrap();
    assert_eq!(u16::from_be_bytes([class[6], class[7]]), 52, "Java 8");
    // The glue exports JNI's entry points and keeps Rust's symbols to itself.
    let so = out.join(format!(
        "classes/org/capsched/native/{platform}/libcapsched_jni.so"
    ));
    if tool_available("nm") {
        let symbols = sh(Command::new("nm").args(["-D", "--defined-only"]).arg(&so));
        assert!(symbols.contains("JNI_OnLoad"), "{symbols}");
        assert!(
            symbols.contains("Java_org_capsched_Native_allocate"),
            "{symbols}"
        );
        assert!(!symbols.contains("rust_begin_unwind"), "{symbols}");
    }

    let tests = out.join("test-classes");
    let sources: Vec<PathBuf> =
        std::fs::read_dir(root().join("bindings/java/src/test/java/org/capsched"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
    let cp = format!("{}:{JUNIT}:{HAMCREST}", jar.display());
    sh(Command::new("javac")
        .args([
            "--release",
            "8",
            "-Xlint:all,-options",
            "-Werror",
            "-cp",
            &cp,
            "-d",
        ])
        .arg(&tests)
        .args(&sources));
    // java.library.path points nowhere useful: the library must come from the jar. With
    // -Xcheck:jni the JVM checks every JNI call the glue makes (exceptions checked, local
    // references within capacity, arrays released) and says so on a WARNING line.
    let run = sh(Command::new("java")
        .args(["-Xcheck:jni", "-Djava.library.path=/nonexistent"])
        .arg("-cp")
        .arg(format!("{}:{cp}", tests.display()))
        .args(["org.junit.runner.JUnitCore", "org.capsched.EngineTest"]));
    assert!(run.contains("OK ("), "{run}");
    assert!(!run.contains("WARNING"), "-Xcheck:jni: {run}");

    // The call benchmark builds and runs (its figures are in docs/PERFORMANCE.md, never
    // asserted here).
    let bench = out.join("bench-classes");
    sh(Command::new("javac")
        .args(["--release", "8", "-Werror", "-cp"])
        .arg(&jar)
        .arg("-d")
        .arg(&bench)
        .arg(root().join("bindings/java/src/bench/java/org/capsched/CallBench.java")));
    let figures = sh(Command::new("java")
        .arg("-cp")
        .arg(format!("{}:{}", jar.display(), bench.display()))
        .args(["org.capsched.CallBench", "200"]));
    assert!(figures.contains("Java host call latency"), "{figures}");
    let _ = std::fs::remove_dir_all(&out);
}
