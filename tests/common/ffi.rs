//! Helpers for tests that call the C ABI exactly as C does.
#![allow(dead_code)]

use std::ffi::CStr;

use capsched::ffi::capsched_status::CAPSCHED_OK;
use capsched::ffi::{
    capsched_cluster_info, capsched_config_free, capsched_config_from_xml, capsched_engine,
    capsched_engine_check_invariants, capsched_engine_cluster_info, capsched_engine_new,
    capsched_engine_options_default, capsched_engine_scheduler_json, capsched_last_error,
    capsched_owned_str, capsched_str, capsched_string_free, CAPSCHED_MODE_MANUAL,
};

/// A borrowed Rust string as the ABI's pointer + length.
pub fn s(text: &str) -> capsched_str {
    capsched_str {
        ptr: text.as_ptr().cast(),
        len: text.len(),
    }
}

/// A manual engine with preemption and a manual clock at 0, on the configuration `xml`.
///
/// # Safety
/// The caller frees the engine with `capsched_engine_free`.
pub unsafe fn manual_engine(xml: &str) -> *mut capsched_engine {
    let mut cfg = std::ptr::null_mut();
    assert_eq!(capsched_config_from_xml(s(xml), &mut cfg), CAPSCHED_OK);
    let mut opts = std::mem::zeroed();
    assert_eq!(capsched_engine_options_default(&mut opts), CAPSCHED_OK);
    opts.mode = CAPSCHED_MODE_MANUAL;
    opts.preemption = 1;
    opts.manual_clock = 1;
    opts.clock_start_ms = 0;
    let mut e = std::ptr::null_mut();
    assert_eq!(capsched_engine_new(cfg, &opts, &mut e), CAPSCHED_OK);
    capsched_config_free(cfg);
    e
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
