//! Helpers for tests that call the C ABI exactly as C does.
#![allow(dead_code)]

use std::ffi::CStr;

use capsched::ffi::{capsched_last_error, capsched_str};

/// A borrowed Rust string as the ABI's pointer + length.
pub fn s(text: &str) -> capsched_str {
    capsched_str {
        ptr: text.as_ptr().cast(),
        len: text.len(),
    }
}

/// The calling thread's `capsched_last_error()`.
pub fn last_error() -> String {
    unsafe { CStr::from_ptr(capsched_last_error()) }
        .to_string_lossy()
        .into_owned()
}
