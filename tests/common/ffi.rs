//! Helpers for tests that call the C ABI exactly as C does.
#![allow(dead_code)]

use std::ffi::CStr;

use capsched::ffi::capsched_status::CAPSCHED_OK;
use capsched::ffi::{
    capsched_cluster_info, capsched_engine, capsched_engine_check_invariants,
    capsched_engine_cluster_info, capsched_engine_scheduler_json, capsched_last_error,
    capsched_owned_str, capsched_str, capsched_string_free,
};

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

/// Everything an engine shows a host — its cluster counts and the REST document — after
/// checking its invariants: equal strings mean an unchanged engine.
///
/// # Safety
/// `e` must be a live engine.
pub unsafe fn engine_state(e: *mut capsched_engine) -> String {
    assert_eq!(
        capsched_engine_check_invariants(e),
        CAPSCHED_OK,
        "{}",
        last_error()
    );
    let mut info = std::mem::zeroed::<capsched_cluster_info>();
    assert_eq!(capsched_engine_cluster_info(e, &mut info), CAPSCHED_OK);
    let mut json = std::mem::zeroed::<capsched_owned_str>();
    assert_eq!(capsched_engine_scheduler_json(e, &mut json), CAPSCHED_OK);
    let text = CStr::from_ptr(json.ptr).to_string_lossy().into_owned();
    capsched_string_free(json);
    format!(
        "{} nodes, {} applications, {} containers: {text}",
        info.num_nodes, info.num_applications, info.num_containers
    )
}
