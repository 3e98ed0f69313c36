//! What the subcommands share: the configuration they are given (or the built-in default), its
//! problems printed with YARN's messages, and output that ends quietly when its reader goes.

use capsched::sync::Arc;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use capsched::config::{CapacitySchedulerConfiguration, ConfigErrors};

/// Loads FILE, or the built-in default configuration when none is given.
pub(super) fn load(
    file: Option<&Path>,
) -> Result<Arc<CapacitySchedulerConfiguration>, ConfigErrors> {
    match file {
        Some(path) => CapacitySchedulerConfiguration::from_file(path).map(Arc::new),
        None => Ok(Arc::new(CapacitySchedulerConfiguration::seed_default())),
    }
}

/// Prints every error as YARN's message followed by where to look. Written through a buffer
/// and stopped quietly if standard error goes away (`capsched validate bad.xml 2>&1 | head`).
pub(super) fn print_errors(source: &str, errors: &ConfigErrors) {
    let stderr = io::stderr();
    let mut out = BufWriter::new(stderr.lock());
    let _ = write_errors(&mut out, source, errors).and_then(|()| out.flush());
}

fn write_errors(out: &mut dyn Write, source: &str, errors: &ConfigErrors) -> io::Result<()> {
    writeln!(
        out,
        "{source}: invalid configuration ({} problem{})",
        errors.len(),
        if errors.len() == 1 { "" } else { "s" }
    )?;
    for e in errors.iter() {
        writeln!(out, "error: {}", e.message)?;
        if let Some(q) = &e.queue {
            writeln!(out, "  queue: {q}")?;
        }
        if let Some(k) = &e.key {
            writeln!(out, "  key:   {k}")?;
        }
    }
    Ok(())
}

pub(super) fn source_name(file: Option<&Path>) -> String {
    file.map(|p| p.display().to_string())
        .unwrap_or_else(|| "built-in default".to_string())
}

/// Runs `write` against buffered standard output. A reader that goes away early
/// (`capsched validate big.xml | head`) ends the command quietly: `println!` would panic.
pub(super) fn write_stdout(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> ExitCode {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write the output: {e}");
            ExitCode::from(1)
        }
    }
}
