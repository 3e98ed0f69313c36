//! `capsched conformance FILE…`: runs Hadoop's preemption vectors against the policy.
//!
//! One line per vector — `PASS id`, `FAIL id: expected … got …`, `SKIP id: reason`, with
//! "not checked" / "not represented" notes in parentheses — then
//! `N passed, M failed, K skipped`. Exit 0 only when nothing failed and every file loaded.

use std::path::PathBuf;
use std::process::ExitCode;

use capsched::conformance::{run_file, Summary};

pub fn run(files: &[PathBuf]) -> ExitCode {
    let mut total = Summary::default();
    let mut load_errors = 0;
    for path in files {
        match run_file(path) {
            Ok(results) => {
                for r in &results {
                    println!("{r}");
                }
                total.add(Summary::of(&results));
            }
            Err(e) => {
                eprintln!("error: {e}");
                load_errors += 1;
            }
        }
    }
    println!("{total}");
    if total.failed == 0 && load_errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
