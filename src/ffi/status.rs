//! What every export returns and how failures reach C: `capsched_status`, the per-thread
//! last error (`capsched_last_error`), the panic guard every export runs inside, and the
//! library's version calls. The bottom of the C ABI: every other file of it uses this one.

use std::cell::RefCell;
use std::ffi::CString;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::runtime::EngineError;
use crate::scheduler::SchedulerError;

/// What every fallible call returns. The numbers are stable and never reused.
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum capsched_status {
    CAPSCHED_OK = 0,
    /// A required pointer argument was NULL.
    CAPSCHED_ERR_NULL_ARGUMENT = 1,
    /// An argument is out of range or malformed (see `capsched_last_error`).
    CAPSCHED_ERR_INVALID_ARGUMENT = 2,
    /// A string argument is not UTF-8.
    CAPSCHED_ERR_INVALID_UTF8 = 3,
    /// An input struct's `struct_size` is smaller than this library's first version of it.
    CAPSCHED_ERR_STRUCT_SIZE = 4,
    /// The configuration is invalid; the message is YARN's.
    CAPSCHED_ERR_CONFIG = 5,
    /// A node, application or container id the engine does not know (or no longer knows):
    /// stale, never issued, 0, or issued by another engine (see "Ids" in the preamble).
    CAPSCHED_ERR_UNKNOWN_ID = 6,
    /// The scheduler refused the request (YARN's exception message in `capsched_last_error`),
    /// the node-label manager's refusals included.
    CAPSCHED_ERR_REFUSED = 7,
    /// The application was rejected at submission (YARN's reason in `capsched_last_error`).
    CAPSCHED_ERR_REJECTED = 8,
    /// The engine is stopped.
    CAPSCHED_ERR_STOPPED = 9,
    /// An engine thread panicked earlier; the engine is unusable (the panic's message given).
    CAPSCHED_ERR_ENGINE_FAILED = 10,
    /// This call panicked inside the library (a bug); the message says where.
    CAPSCHED_ERR_PANIC = 11,
    /// Reading a file failed.
    CAPSCHED_ERR_IO = 12,
    /// The scheduler's state broke one of its invariants (`capsched_engine_check_invariants`;
    /// a bug — the message lists what).
    CAPSCHED_ERR_INVARIANT = 13,
}

use capsched_status::*;

/// A failure on its way to C: a status and the message for `capsched_last_error`.
pub(crate) struct FfiError(pub capsched_status, pub String);

pub(crate) type FfiResult<T = ()> = Result<T, FfiError>;

impl FfiError {
    pub fn null(what: &str) -> Self {
        FfiError(CAPSCHED_ERR_NULL_ARGUMENT, format!("{what} is NULL"))
    }
    pub fn invalid(message: impl Into<String>) -> Self {
        FfiError(CAPSCHED_ERR_INVALID_ARGUMENT, message.into())
    }
}

impl From<SchedulerError> for FfiError {
    fn from(e: SchedulerError) -> Self {
        let status = match e {
            SchedulerError::UnknownNode(_)
            | SchedulerError::UnknownApplication(_)
            | SchedulerError::UnknownContainer(_)
            | SchedulerError::NoAttempt(_) => CAPSCHED_ERR_UNKNOWN_ID,
            SchedulerError::InvalidArgument(_) | SchedulerError::DuplicateNode(_) => {
                CAPSCHED_ERR_INVALID_ARGUMENT
            }
            // The label manager's IOException (labels disabled, a bad or unknown label, a
            // label a queue still uses, a malformed node): YARN refuses the admin call with
            // its words, as it refuses a move or a refresh.
            SchedulerError::NodeLabels(_) => CAPSCHED_ERR_REFUSED,
            _ => CAPSCHED_ERR_REFUSED,
        };
        FfiError(status, e.to_string())
    }
}

impl From<EngineError> for FfiError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::Scheduler(s) => s.into(),
            EngineError::Stopped => FfiError(CAPSCHED_ERR_STOPPED, e.to_string()),
            EngineError::Failed(_) => FfiError(CAPSCHED_ERR_ENGINE_FAILED, e.to_string()),
            EngineError::InvalidArgument(m) => FfiError(CAPSCHED_ERR_INVALID_ARGUMENT, m),
        }
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// The most a message may hold (issue 36.17): each value a message repeats is cut to 64
/// characters where it is quoted (`crate::echo`); this bounds what is left — a configuration
/// with many problems lists them all up to here, then says how long the whole was.
const MAX_MESSAGE_BYTES: usize = 64 * 1024;

fn set_last_error(message: &str) {
    let message = if message.len() > MAX_MESSAGE_BYTES {
        let mut cut = MAX_MESSAGE_BYTES;
        while !message.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}…({} bytes in all)", &message[..cut], message.len())
    } else {
        message.to_string()
    };
    let c = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs an export's body: panics are caught, errors recorded for `capsched_last_error`, and
/// the status returned. On success the calling thread's last error is cleared.
pub(crate) fn guard(body: impl FnOnce() -> FfiResult) -> capsched_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => {
            set_last_error("");
            CAPSCHED_OK
        }
        Ok(Err(FfiError(status, message))) => {
            set_last_error(&message);
            status
        }
        Err(p) => {
            set_last_error(&format!(
                "internal panic: {}",
                crate::runtime::panic_message(&*p)
            ));
            CAPSCHED_ERR_PANIC
        }
    }
}

/// The calling thread's message for its last failed call (empty after a success), as a
/// NUL-terminated UTF-8 string owned by the library and valid until this thread's next call.
#[no_mangle]
pub extern "C" fn capsched_last_error() -> *const std::ffi::c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// The library's version, "MAJOR.MINOR.PATCH", NUL-terminated, static.
#[no_mangle]
pub extern "C" fn capsched_version() -> *const std::ffi::c_char {
    crate::VERSION_NUL.as_ptr().cast()
}

/// The C ABI version this library implements (`CAPSCHED_ABI_VERSION` in the header it was
/// built with). Bindings compare the two at load.
#[no_mangle]
pub extern "C" fn capsched_abi_version() -> u32 {
    crate::ABI_VERSION
}

/// The name of a status, e.g. "CAPSCHED_ERR_NULL_ARGUMENT"; "CAPSCHED_UNKNOWN_STATUS" for a
/// number that is not one; static.
#[no_mangle]
pub extern "C" fn capsched_status_name(status: i32) -> *const std::ffi::c_char {
    let s: &'static [u8] = match status {
        x if x == CAPSCHED_OK as i32 => b"CAPSCHED_OK\0",
        x if x == CAPSCHED_ERR_NULL_ARGUMENT as i32 => b"CAPSCHED_ERR_NULL_ARGUMENT\0",
        x if x == CAPSCHED_ERR_INVALID_ARGUMENT as i32 => b"CAPSCHED_ERR_INVALID_ARGUMENT\0",
        x if x == CAPSCHED_ERR_INVALID_UTF8 as i32 => b"CAPSCHED_ERR_INVALID_UTF8\0",
        x if x == CAPSCHED_ERR_STRUCT_SIZE as i32 => b"CAPSCHED_ERR_STRUCT_SIZE\0",
        x if x == CAPSCHED_ERR_CONFIG as i32 => b"CAPSCHED_ERR_CONFIG\0",
        x if x == CAPSCHED_ERR_UNKNOWN_ID as i32 => b"CAPSCHED_ERR_UNKNOWN_ID\0",
        x if x == CAPSCHED_ERR_REFUSED as i32 => b"CAPSCHED_ERR_REFUSED\0",
        x if x == CAPSCHED_ERR_REJECTED as i32 => b"CAPSCHED_ERR_REJECTED\0",
        x if x == CAPSCHED_ERR_STOPPED as i32 => b"CAPSCHED_ERR_STOPPED\0",
        x if x == CAPSCHED_ERR_ENGINE_FAILED as i32 => b"CAPSCHED_ERR_ENGINE_FAILED\0",
        x if x == CAPSCHED_ERR_PANIC as i32 => b"CAPSCHED_ERR_PANIC\0",
        x if x == CAPSCHED_ERR_IO as i32 => b"CAPSCHED_ERR_IO\0",
        x if x == CAPSCHED_ERR_INVARIANT as i32 => b"CAPSCHED_ERR_INVARIANT\0",
        _ => b"CAPSCHED_UNKNOWN_STATUS\0",
    };
    s.as_ptr().cast()
}
