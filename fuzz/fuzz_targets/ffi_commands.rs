//! `cargo fuzz run ffi_commands` (see fuzz/targets/mod.rs and docs/RELIABILITY.md).
#![no_main]

#[path = "../targets/mod.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::ffi_commands(data));
