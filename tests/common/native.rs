//! For the tests that build programs against the library (C, C++, Java): where the library is,
//! the project root, and whether a build tool is there.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where cargo put libcapsched.{a,so}: the directory above this test's `deps/`. `cargo test`
/// builds only the rlib, so the C libraries are built here if missing (scripts/test builds
/// them first anyway).
pub fn lib_dir() -> PathBuf {
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
            let mut args = vec!["build", "--lib"];
            if dir.ends_with("release") {
                args.push("--release");
            }
            let st = Command::new(cargo)
                .args(&args)
                .current_dir(root())
                .status()
                .expect("run cargo build --lib");
            assert!(st.success(), "cargo build --lib failed");
        }
    });
    dir
}

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A missing build tool skips a test on a developer's machine, but fails it in CI, where
/// .ci/run installs the tool and sets `CAPSCHED_REQUIRE_TOOLS=1`.
pub fn tool_available(tool: &str) -> bool {
    let found = Command::new(tool).arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CAPSCHED_REQUIRE_TOOLS").is_none(),
            "{tool} is required (CAPSCHED_REQUIRE_TOOLS is set) but not installed"
        );
        eprintln!("{tool} not installed: skipped");
    }
    found
}

/// Runs `cmd`, fails the test with its output unless it succeeds, and returns its output
/// (stdout then stderr).
pub fn run_ok(cmd: &mut Command) -> String {
    let o = cmd.output().expect("run");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{cmd:?} failed:\n{text}");
    text
}
