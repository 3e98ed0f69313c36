//! `cargo fuzz run sim_semantics` (see fuzz/targets/mod.rs and docs/RELIABILITY.md).
#![no_main]

#[path = "../targets/mod.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::sim_semantics(data));
