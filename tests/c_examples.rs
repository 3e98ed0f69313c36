//! The C examples, built as a C host builds them: `-std=c11 -Wall -Wextra -Werror -pedantic`
//! against include/capsched.h, linked once with the static and once with the shared library,
//! run, and their output checked. With `CAPSCHED_VALGRIND=1` (scripts/test sets it when
//! valgrind is installed) each also runs under memcheck: no leaks, no invalid accesses.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where cargo put libcapsched.{a,so}: the directory above this test's `deps/`.
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>")
        .to_path_buf()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn out_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("capsched-c-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Compiles `source` and links it statically or dynamically; returns the executable.
fn build(source: &str, shared: bool) -> PathBuf {
    let lib = lib_dir();
    let name = Path::new(source)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .to_string();
    let exe = out_dir().join(format!(
        "{name}-{}",
        if shared { "shared" } else { "static" }
    ));
    let mut cc = Command::new("cc");
    cc.args([
        "-std=c11",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-O1",
        "-g",
    ])
    .arg("-I")
    .arg(root().join("include"))
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
