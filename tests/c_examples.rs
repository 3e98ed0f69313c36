//! The C and C++ examples, built as a host builds them: `-std=c11` / `-std=c++17` with
//! `-Wall -Wextra -Werror -pedantic` against include/capsched.h (and bindings/cpp), linked with
//! the static and the shared library, run, and their output checked. With `CAPSCHED_VALGRIND=1`
//! (scripts/test sets it when valgrind is installed) each also runs under memcheck: no leaks,
//! no invalid accesses. The install path is exercised too: pkg-config and CMake's
//! `find_package(capsched)` against a prefix laid out by scripts/install. Where pkg-config or
//! cmake is missing those two tests skip, unless `CAPSCHED_REQUIRE_TOOLS=1` (set by .ci/run,
//! which installs both) makes a missing tool a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::native::{lib_dir, root, tool_available};

/// The shared library's SONAME: it carries the ABI version.
fn soname() -> String {
    format!("libcapsched.so.{}", capsched::ABI_VERSION)
}

/// Where the examples are built: under cargo's target directory, the same each run, so runs
/// do not pile statically linked executables (with debug info, ~2 GB a run) up in /tmp.
fn out_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c-examples");
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
        for name in [soname().as_str(), "libcapsched.so"] {
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

/// The program linked statically and against the shared library.
fn both(source: &str) -> [PathBuf; 2] {
    [build(source, false), build(source, true)]
}

/// Runs the program, natively and (with `CAPSCHED_VALGRIND`) under memcheck.
fn run(exe: &Path, args: &[&str]) -> String {
    let stdout = run_native(exe, args);
    if std::env::var_os("CAPSCHED_VALGRIND").is_some() {
        memcheck(exe, args);
    }
    stdout
}

fn run_native(exe: &Path, args: &[&str]) -> String {
    let out = Command::new(exe).args(args).output().expect("run example");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{} failed ({}):\n{stdout}\n{}",
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn memcheck(exe: &Path, args: &[&str]) {
    let v = Command::new("valgrind")
        // Static data still reachable at exit is not a leak; anything lost is. Valgrind runs
        // one thread at a time; its fair lock hands the CPU between host threads and the
        // engine thread in turn (the multithreaded example: 36 s with the default, 7 s fair).
        .args([
            "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect,possible",
            "--error-exitcode=97",
            "--fair-sched=yes",
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

#[test]
fn the_minimal_c_host_runs_the_scheduler_through_the_header_alone() {
    for exe in both("examples/c/minimal.c") {
        let out = run(&exe, &[]);
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
    for exe in both("examples/cpp/minimal.cpp") {
        let out = run(&exe, &[]);
        assert!(
            out.contains("rejected: CAPSCHED_ERR_REJECTED: Application"),
            "{out}"
        );
        assert!(out.contains("unknown queue: no-such-queue"), "{out}");
        assert!(
            out.contains("another engine's id: CAPSCHED_ERR_UNKNOWN_ID: application id 0x"),
            "{out}"
        );
        assert!(out.contains("was not issued by this engine"), "{out}");
        assert!(out.contains("containers: 4"), "{out}");
        assert!(out.contains("json ok: 1"), "{out}");
        assert!(out.contains("after stop: CAPSCHED_ERR_STOPPED"), "{out}");
    }
}

#[test]
fn the_cpp_wrapper_makes_the_rms_own_calls() {
    for exe in both("examples/cpp/rm_calls.cpp") {
        let out = run(&exe, &[]);
        assert!(out.contains("alice on a: 1, bob on a: 0"), "{out}");
        assert!(
            out.contains("bob rejected: CAPSCHED_ERR_REJECTED: User bob does not have permission to submit application_"),
            "{out}"
        );
        assert!(out.contains("running on h1: 6"), "{out}");
        assert!(out.contains("killed by the shrink: 2, NM told: 2"), "{out}");
        assert!(
            out.contains("decommissioned while the app runs: 0"),
            "{out}"
        );
        assert!(out.contains("decommissioned after: 1"), "{out}");
        assert!(out.contains("nodes: 1, decommission events: 1"), "{out}");
        assert!(
            out.contains("placed: alice root.b, bob root.a, etl b, other nowhere"),
            "{out}"
        );
        assert!(out.contains("etl runs in root.b"), "{out}");
        assert!(out.contains("recovered in root.a, pending 0 MB"), "{out}");
        assert!(out.contains("lifetime ended: 1"), "{out}");
    }
}

#[test]
fn a_c_host_labels_a_node_and_an_applications_label_sends_its_containers_there() {
    for exe in both("examples/c/node_labels.c") {
        let out = run(&exe, &[]);
        assert!(out.contains("cluster label: gpu (exclusive)\n"), "{out}");
        assert!(out.contains("host1: gpu\nhost2: <default>\n"), "{out}");
        assert!(
            out.contains("refused: CAPSCHED_ERR_REFUSED: Exclusivity cannot be modified for an existing label with : <gpu:exclusivity=false>"),
            "{out}"
        );
        // The AM and both unlabelled 2 GB asks on the gpu node; the "" ask on the other.
        assert!(out.contains("AM container: 1024 MB on host1\n"), "{out}");
        assert_eq!(
            out.matches("container: 2048 MB on host1\n").count(),
            2,
            "{out}"
        );
        assert_eq!(
            out.matches("container: 1024 MB on host2\n").count(),
            1,
            "{out}"
        );
        assert!(
            out.contains(
                "ml in gpu: 5120 MB used, AM 1024 MB\nml in <default>: 1024 MB used, AM 0 MB\n"
            ),
            "{out}"
        );
        assert!(
            out.contains("after relabelling host1:\nml in gpu: 0 MB used, AM 0 MB\nml in <default>: 6144 MB used, AM 1024 MB\n"),
            "{out}"
        );
        assert!(out.trim_end().ends_with("done"), "{out}");
    }
}

#[test]
fn the_cpp_wrapper_makes_the_label_managers_calls_and_labels_asks() {
    for exe in both("examples/cpp/node_labels.cpp") {
        let out = run(&exe, &[]);
        assert!(
            out.contains("refused: CAPSCHED_ERR_REFUSED: label name should only contains {0-9, a-z, A-Z, -, _} and should not started with {-,_}, now it is= -gpu\n"),
            "{out}"
        );
        assert!(
            out.contains("label gpu exclusive\nlabel spare shared\n"),
            "{out}"
        );
        assert!(out.contains("h1 in 'gpu', h2 in ''\n"), "{out}");
        assert!(
            out.contains("ml may use gpu, no default label\netl may use *, no default label\n"),
            "{out}"
        );
        assert!(out.contains("AM in gpu: 1024 MB\n"), "{out}");
        assert!(
            out.contains("mismatched labels: CAPSCHED_ERR_INVALID_ARGUMENT: ask_label_count is 1 but ask_count is 2"),
            "{out}"
        );
        assert!(
            out.contains("container on h1:8041\ncontainer on h2:8041\n"),
            "{out}"
        );
        assert!(
            out.contains("ml in gpu: 3072 MB, default: 2048 MB\n"),
            "{out}"
        );
        assert!(
            out.contains("refused: CAPSCHED_ERR_REFUSED: Cannot remove label=gpu, because queue=root.ml is using this label."),
            "{out}"
        );
        assert!(out.contains("h2 back in '', labels left: 1\n"), "{out}");
        assert!(out.trim_end().ends_with("done"), "{out}");
    }
}

#[test]
fn several_host_threads_share_one_engine() {
    for exe in both("examples/c/multithreaded.c") {
        let out = run(&exe, &[]);
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
}

#[test]
fn a_manual_step_host_moves_time_and_passes_itself() {
    for exe in both("examples/c/manual_step.c") {
        let out = run(&exe, &[]);
        assert!(
            out.contains("heartbeat allocated 0\ntick allocated 1\n"),
            "{out}"
        );
        assert!(out.contains("AM container: yes"), "{out}");
        assert!(out.contains("tick back in time: CAPSCHED_ERR_INVALID_ARGUMENT (time goes backwards: 500 ms is before 1100 ms)"), "{out}");
        assert!(out.contains("expired: 1"), "{out}");
    }
}

#[test]
fn the_queue_table_host_loads_a_capacity_scheduler_xml() {
    for exe in both("examples/c/queue_table.c") {
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
}

#[test]
fn several_cpp_threads_share_one_engine_and_a_callback_counts_its_events() {
    for exe in both("examples/cpp/multithreaded.cpp") {
        let out = run(&exe, &[]);
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
        // Four AM containers and 24 task containers, each reported once.
        assert!(
            out.contains("accepted events: 4, allocated events: 28"),
            "{out}"
        );
    }
}

#[test]
fn a_cpp_manual_step_host_moves_time_and_recovers_a_node() {
    for exe in both("examples/cpp/manual_step.cpp") {
        let out = run(&exe, &[]);
        assert!(
            out.contains("heartbeat allocated 0\ntick allocated 1\nstep allocated 0\n"),
            "{out}"
        );
        assert!(out.contains("AM container: yes"), "{out}");
        assert!(
            out.contains("tick back in time: CAPSCHED_ERR_INVALID_ARGUMENT: time goes backwards: 500 ms is before 1100 ms"),
            "{out}"
        );
        // The AM (1024 MB) and the recovered container (2048 MB) are both charged to root.a.
        assert!(
            out.contains("root used 3072 MB\nroot.a used 3072 MB\nroot.b used 0 MB\n"),
            "{out}"
        );
        assert!(out.contains("expired: 1\nnodes: 1\ndone"), "{out}");
    }
}

#[test]
fn the_cpp_queue_table_host_refreshes_queues_and_keeps_the_running_ones_on_rejection() {
    for exe in both("examples/cpp/queue_table.cpp") {
        let sample = root().join("tests/data/sls/capacity-scheduler.xml");
        let sample = sample.to_str().unwrap();
        let out = run(&exe, &[sample]);
        assert!(
            out.contains("root.sls_queue_1                      25.0%     100.0%"),
            "{out}"
        );
        let conf = |props: &[(&str, &str)]| {
            let body: String = props
                .iter()
                .map(|(k, v)| format!("<property><name>{k}</name><value>{v}</value></property>"))
                .collect();
            format!("<configuration>{body}</configuration>")
        };
        let good = out_dir().join("refresh-good.xml");
        std::fs::write(
            &good,
            conf(&[
                (
                    "yarn.scheduler.capacity.root.queues",
                    "sls_queue_1,sls_queue_2,sls_queue_3",
                ),
                ("yarn.scheduler.capacity.root.sls_queue_1.capacity", "40"),
                ("yarn.scheduler.capacity.root.sls_queue_2.capacity", "40"),
                ("yarn.scheduler.capacity.root.sls_queue_3.capacity", "20"),
                (
                    "yarn.scheduler.capacity.root.sls_queue_3.maximum-capacity",
                    "50",
                ),
            ]),
        )
        .unwrap();
        let out = run(&exe, &[sample, good.to_str().unwrap()]);
        assert!(out.contains("refreshed\n"), "{out}");
        assert!(
            out.contains("root.sls_queue_3                      20.0%      50.0%"),
            "{out}"
        );
        // Removing a queue that is not STOPPED is refused with YARN's message; the running
        // queues stay in force.
        let bad = out_dir().join("refresh-bad.xml");
        std::fs::write(
            &bad,
            conf(&[
                ("yarn.scheduler.capacity.root.queues", "sls_queue_1"),
                ("yarn.scheduler.capacity.root.sls_queue_1.capacity", "100"),
            ]),
        )
        .unwrap();
        let out = run(&exe, &[sample, bad.to_str().unwrap()]);
        assert!(
            out.contains("refresh refused: CAPSCHED_ERR_REFUSED: root.sls_queue_2 cannot be deleted from the capacity scheduler configuration, as the queue is not yet in stopped state. Current State : RUNNING"),
            "{out}"
        );
        let after = out.split("refresh refused").nth(1).unwrap();
        assert!(
            after.contains("root.sls_queue_3                      50.0%     100.0%"),
            "{out}"
        );
        // A file YARN rejects at load: the status and YARN's message, exit 1.
        let invalid = out_dir().join("invalid.xml");
        std::fs::write(
            &invalid,
            conf(&[
                ("yarn.scheduler.capacity.root.queues", "a"),
                ("yarn.scheduler.capacity.root.a.capacity", "50"),
            ]),
        )
        .unwrap();
        let o = Command::new(&exe).arg(&invalid).output().unwrap();
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with("CAPSCHED_ERR_CONFIG: "), "{err}");
    }
}

/// Lays out an install under a fresh prefix with scripts/install.
fn install_prefix(name: &str) -> PathBuf {
    let prefix = out_dir().join(name);
    let st = Command::new(root().join("scripts/install"))
        .arg(&prefix)
        .arg("--from")
        .arg(lib_dir())
        .status()
        .expect("run scripts/install");
    assert!(st.success());
    prefix
}

/// A C/C++ project finds the installed library with `find_package(capsched 0.1)`:
/// examples/CMakeLists.txt builds every example against the prefix, with the shared library
/// and with the static one, and they run.
#[test]
fn an_installed_library_is_found_through_cmake_find_package() {
    if !tool_available("cmake") {
        return;
    }
    let prefix = install_prefix("prefix-cmake");
    for (variant, static_) in [("shared", "OFF"), ("static", "ON")] {
        let build_dir = out_dir().join(format!("cmake-{variant}"));
        let configure = Command::new("cmake")
            .arg("-S")
            .arg(root().join("examples"))
            .arg("-B")
            .arg(&build_dir)
            .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display()))
            .arg(format!("-DCAPSCHED_STATIC={static_}"))
            .output()
            .expect("cmake");
        assert!(
            configure.status.success(),
            "{}{}",
            String::from_utf8_lossy(&configure.stdout),
            String::from_utf8_lossy(&configure.stderr)
        );
        let b = Command::new("cmake")
            .arg("--build")
            .arg(&build_dir)
            .args(["-j", "2"])
            .output()
            .expect("cmake --build");
        assert!(
            b.status.success(),
            "{}{}",
            String::from_utf8_lossy(&b.stdout),
            String::from_utf8_lossy(&b.stderr)
        );
        let out = run_native(&build_dir.join("c_minimal"), &[]);
        assert!(out.trim_end().ends_with("done"), "{out}");
        let out = run_native(&build_dir.join("cpp_minimal"), &[]);
        assert!(out.contains("containers: 4"), "{out}");
        let sample = root().join("tests/data/sls/capacity-scheduler.xml");
        let out = run_native(
            &build_dir.join("cpp_queue_table"),
            &[sample.to_str().unwrap()],
        );
        assert!(out.contains("root.sls_queue_3"), "{out}");
        // The shared build loads the installed library under its SONAME.
        let ldd = Command::new("ldd")
            .arg(build_dir.join("cpp_minimal"))
            .output()
            .expect("ldd");
        let ldd = String::from_utf8_lossy(&ldd.stdout).to_string();
        assert_eq!(
            ldd.contains(&format!(
                "{} => {}",
                soname(),
                prefix.join("lib").join(soname()).display()
            )),
            variant == "shared",
            "{ldd}"
        );
    }
    // A newer version than the installed one is not accepted.
    let probe = out_dir().join("cmake-version-probe");
    std::fs::create_dir_all(&probe).unwrap();
    std::fs::write(
        probe.join("CMakeLists.txt"),
        "cmake_minimum_required(VERSION 3.16)\nproject(p LANGUAGES C)\nfind_package(capsched 9.0 CONFIG REQUIRED)\n",
    )
    .unwrap();
    let o = Command::new("cmake")
        .arg("-S")
        .arg(&probe)
        .arg("-B")
        .arg(probe.join("build"))
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display()))
        .output()
        .expect("cmake");
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("version: 0.1.0"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// scripts/install lays out the libraries, headers, pkg-config and CMake files; a host built
/// with `pkg-config --cflags --libs capsched` against that prefix runs.
#[test]
fn an_installed_library_is_found_through_pkg_config() {
    if !tool_available("pkg-config") {
        return;
    }
    let prefix = install_prefix("prefix");
    for f in [
        &format!("lib/{}", soname()),
        "lib/libcapsched.so",
        "lib/libcapsched.a",
        "include/capsched.h",
        "include/capsched.hpp",
        "lib/cmake/capsched/capschedConfig.cmake",
        "lib/cmake/capsched/capschedConfigVersion.cmake",
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
    for exe in both("tests/c/bad_input.c") {
        let out = run(&exe, &[]);
        assert!(out.contains("all 49 checks passed"), "{out}");
    }
}

#[test]
fn the_cpp_wrapper_keeps_the_rms_ids() {
    for exe in both("examples/cpp/rm_ids.cpp") {
        let out = run(&exe, &[]);
        assert!(
            out.contains("activated: appattempt_1410901177871_0001_000001"),
            "{out}"
        );
        assert!(
            out.contains("launch AM container_e17_1410901177871_0001_01_000001 on node nm1"),
            "{out}"
        );
        assert!(out.contains("found: app 1, container state 3"), "{out}");
        assert!(
            out.contains(
                "report: appattempt_1410901177871_0001_000001 in root.default, state 2, AM 1024 MB"
            ),
            "{out}"
        );
        assert!(
            out.contains("duplicate: CAPSCHED_ERR_REJECTED: Application with id application_1410901177871_0001 is already present! Cannot add a duplicate!"),
            "{out}"
        );
    }
}

#[test]
fn a_c_host_plays_a_resourcemanager_with_yarns_ids() {
    for exe in both("tests/c/rm_host.c") {
        let out = run(&exe, &[]);
        assert!(
            out.contains("rm host: all") && out.contains("checks passed"),
            "{out}"
        );
    }
}

#[test]
fn a_c_host_hears_of_each_asynchronously_placed_container_at_placement() {
    for exe in both("tests/c/placed_host.c") {
        let out = run(&exe, &[]);
        assert!(
            out.contains("placed host: all") && out.contains("checks passed (36 placed)"),
            "{out}"
        );
    }
}

#[test]
fn the_c_call_benchmark_builds_and_runs() {
    // Numbers are printed, never asserted (docs/PERFORMANCE.md has them); a few calls here.
    // Natively only: under memcheck a call back-to-back with the next costs ~0.3 s (the
    // caller and the engine thread take turns by valgrind's time slices), and the same calls
    // run under memcheck in the other examples.
    let out = run_native(&build("examples/c/bench_calls.c", false), &["200"]);
    assert!(out.contains("C host call latency"), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.trim_start().starts_with(['1', '8']))
            .count(),
        2,
        "{out}"
    );
}
