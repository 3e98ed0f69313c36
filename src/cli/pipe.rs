//! A closed standard output ends a command quietly (issue 36.11). Rust ignores SIGPIPE, so a
//! `println!` to a reader that went away (`capsched simulate | head -1`) panics with "failed
//! printing to stdout: Broken pipe"; here that panic is neither printed nor a failure: it
//! unwinds (so the files being written are flushed and closed) and the command exits 0, as
//! `write_stdout` does for the commands that write through it. Any other panic is reported
//! and propagated as before.

use std::panic;
use std::process::ExitCode;

/// Whether a panic's message is the standard library's report of a closed stdout.
fn is_closed_stdout(message: &str) -> bool {
    message.contains("failed printing to stdout") && message.contains("Broken pipe")
}

fn message_of(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("")
}

/// Runs `command`; a panic from printing to a closed stdout is exit 0, silently.
pub(super) fn quiet_on_closed_stdout(command: impl FnOnce() -> ExitCode) -> ExitCode {
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if !is_closed_stdout(message_of(info.payload())) {
            default_hook(info);
        }
    }));
    match panic::catch_unwind(panic::AssertUnwindSafe(command)) {
        Ok(code) => code,
        Err(payload) if is_closed_stdout(message_of(payload.as_ref())) => ExitCode::SUCCESS,
        Err(payload) => panic::resume_unwind(payload),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_the_closed_stdout_report_is_quiet() {
        assert!(super::is_closed_stdout(
            "failed printing to stdout: Broken pipe (os error 32)"
        ));
        assert!(!super::is_closed_stdout("index out of bounds"));
    }
}
