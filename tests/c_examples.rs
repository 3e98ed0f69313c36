//! The C examples, built as a C host builds them: `-std=c11 -Wall -Wextra -Werror -pedantic`
//! against include/capsched.h, linked once with the static and once with the shared library,
//! run, and their output checked. With `CAPSCHED_VALGRIND=1` (scripts/test sets it when
//! valgrind is installed) each also runs under memcheck: no leaks, no invalid accesses.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where cargo put libcapsched.{a,so}: the directory above this test's `deps/`. `cargo test`
/// builds only the rlib, so the C libraries are built here if missing (scripts/test builds
/// them first anyway).
fn lib_dir() -> PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    let exe = std::env::current_exe().expect("test executable");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>")
        .to_path_buf();
    BUILT.call_once(|| {
        if !dir.join("libcapsched.a").exists() || !dir.join("libcapsched.so").exists() {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let st = Command::new(cargo)
                .args(["build", "--lib"])
                .current_dir(root())
                .status()
                .expect("run cargo build --lib");
            assert!(st.success(), "cargo build --lib failed");
        }
    });
    dir
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn out_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("capsched-c-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Compiles `source` (C11, or C++17 for `.cpp`) and links it statically or dynamically;
/// returns the executable.
fn build(source: &str, shared: bool) -> PathBuf {
    let lib = lib_dir();
    let name = Path::new(source)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .to_string();
    let cpp = source.ends_with(".cpp");
    let exe = out_dir().join(format!(
        "{name}-{}{}",
        if cpp { "cpp-" } else { "" },
        if shared { "shared" } else { "static" }
    ));
    let mut cc = Command::new(if cpp { "c++" } else { "cc" });
    let std = if cpp { "-std=c++17" } else { "-std=c11" };
    cc.args([
        std,
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-O1",
        "-g",
        "-pthread",
    ])
    .arg("-I")
    .arg(root().join("include"))
    .arg("-I")
    .arg(root().join("bindings/cpp"))
    .arg(root().join(source))
    .arg("-o")
    .arg(&exe);
    if shared {
        // As an install lays it out: the real file under its SONAME, and the linker's name.
        let dir = out_dir().join("lib");
        std::fs::create_dir_all(&dir).expect("lib dir");
        for name in ["libcapsched.so.1", "libcapsched.so"] {
            let link = dir.join(name);
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(lib.join("libcapsched.so"), &link).expect("symlink");
        }
        cc.arg("-L")
            .arg(&dir)
            .arg("-lcapsched")
            .arg(format!("-Wl,-rpath,{}", dir.display()));
    } else {
        cc.arg(lib.join("libcapsched.a"))
            .args(["-lpthread", "-ldl", "-lm"]);
    }
    let out = cc.output().expect("run cc");
    assert!(
        out.status.success(),
        "cc {source} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn run(exe: &Path, args: &[&str]) -> String {
    let out = Command::new(exe).args(args).output().expect("run example");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{} failed ({}):\n{stdout}\n{}",
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    if std::env::var_os("CAPSCHED_VALGRIND").is_some() {
        let v = Command::new("valgrind")
            // Static data still reachable at exit is not a leak; anything lost is.
            .args([
                "--leak-check=full",
                "--errors-for-leak-kinds=definite,indirect,possible",
                "--error-exitcode=97",
            ])
            .arg(format!(
                "--suppressions={}",
                root().join("tests/valgrind.supp").display()
            ))
            .arg(exe)
            .args(args)
            .output()
            .expect("run valgrind");
        assert!(
            v.status.success(),
            "valgrind found errors in {}:\n{}",
            exe.display(),
            String::from_utf8_lossy(&v.stderr)
        );
    }
    stdout
}

#[test]
fn the_minimal_c_host_runs_the_scheduler_through_the_header_alone() {
    for shared in [false, true] {
        let out = run(&build("examples/c/minimal.c", shared), &[]);
        assert!(out.starts_with("capsched "), "{out}");
        assert!(out.contains("AM container on host"), "{out}");
        assert_eq!(out.matches("container ").count() - 1, 3, "{out}");
        assert!(
            out.contains("completed: exit -100 (Container released by application)"),
            "{out}"
        );
        assert!(out.trim_end().ends_with("done"), "{out}");
    }
}

#[test]
fn the_cpp_wrapper_runs_the_minimal_host_with_raii_and_exceptions() {
    for shared in [false, true] {
        let out = run(&build("examples/cpp/minimal.cpp", shared), &[]);
        assert!(
            out.contains("rejected: CAPSCHED_ERR_REJECTED: Application"),
            "{out}"
        );
        assert!(out.contains("unknown queue: no-such-queue"), "{out}");
        assert!(out.contains("containers: 4"), "{out}");
        assert!(out.contains("json ok: 1"), "{out}");
        assert!(out.contains("after stop: CAPSCHED_ERR_STOPPED"), "{out}");
    }
}

#[test]
fn several_host_threads_share_one_engine() {
    let out = run(&build("examples/c/multithreaded.c", false), &[]);
    for am in 0..4 {
        assert!(
            out.contains(&format!("am {am}: 6 containers received, 6 finished")),
            "{out}"
        );
    }
    assert!(
        out.contains("applications left: 0, containers left: 0"),
        "{out}"
    );
}

#[test]
fn a_manual_step_host_moves_time_and_passes_itself() {
    let out = run(&build("examples/c/manual_step.c", true), &[]);
    assert!(
        out.contains("heartbeat allocated 0\ntick allocated 1\n"),
        "{out}"
    );
    assert!(out.contains("AM container: yes"), "{out}");
    assert!(out.contains("tick back in time: CAPSCHED_ERR_INVALID_ARGUMENT (time goes backwards: 500 ms is before 1100 ms)"), "{out}");
    assert!(out.contains("expired: 1"), "{out}");
}

#[test]
fn the_queue_table_host_loads_a_capacity_scheduler_xml() {
    let exe = build("examples/c/queue_table.c", false);
    let sample = root().join("tests/data/sls/capacity-scheduler.xml");
    let out = run(&exe, &[sample.to_str().unwrap()]);
    assert!(
        out.contains("root.sls_queue_3                      50.0%     100.0%"),
        "{out}"
    );
    // A configuration YARN rejects: the example prints the status and YARN's message.
    let bad = out_dir().join("bad.xml");
    std::fs::write(&bad, "<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>\
        <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property></configuration>").unwrap();
    let o = Command::new(&exe).arg(&bad).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("CAPSCHED_ERR_CONFIG: "), "{err}");
}

/// scripts/install lays out the libraries, headers, pkg-config and CMake files; a host built
/// with `pkg-config --cflags --libs capsched` against that prefix runs.
#[test]
fn an_installed_library_is_found_through_pkg_config() {
    if Command::new("pkg-config")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("pkg-config not installed: skipped");
        return;
    }
    let prefix = out_dir().join("prefix");
    let st = Command::new(root().join("scripts/install"))
        .arg(&prefix)
        .arg("--from")
        .arg(lib_dir())
        .status()
        .expect("run scripts/install");
    assert!(st.success());
    for f in [
        "lib/libcapsched.so.1",
        "lib/libcapsched.so",
        "lib/libcapsched.a",
        "include/capsched.h",
        "include/capsched.hpp",
        "lib/cmake/capsched/capschedConfig.cmake",
    ] {
        assert!(prefix.join(f).exists(), "{f} missing");
    }
    let flags = Command::new("pkg-config")
        .args(["--cflags", "--libs", "capsched"])
        .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
        .output()
        .expect("pkg-config");
    assert!(
        flags.status.success(),
        "{}",
        String::from_utf8_lossy(&flags.stderr)
    );
    let flags = String::from_utf8_lossy(&flags.stdout).to_string();
    let exe = out_dir().join("minimal-installed");
    let out = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .arg(root().join("examples/c/minimal.c"))
        .args(flags.split_whitespace())
        .arg(format!("-Wl,-rpath,{}", prefix.join("lib").display()))
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("cc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().expect("run");
    assert!(run.status.success());
    assert!(String::from_utf8_lossy(&run.stdout).contains("done"));
}

#[test]
fn bad_input_from_c_gets_the_right_status_and_message() {
    for shared in [false, true] {
        let out = run(&build("tests/c/bad_input.c", shared), &[]);
        assert!(out.contains("all 28 checks passed"), "{out}");
    }
}

#[test]
fn the_c_call_benchmark_builds_and_runs() {
    // Numbers are printed, never asserted (docs/PERFORMANCE.md has them); a few calls here.
    let out = run(&build("examples/c/bench_calls.c", false), &["200"]);
    assert!(out.contains("C host call latency"), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.trim_start().starts_with(['1', '8']))
            .count(),
        2,
        "{out}"
    );
}
