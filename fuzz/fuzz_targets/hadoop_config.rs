//! `cargo fuzz run hadoop_config` (see fuzz/targets/mod.rs and docs/RELIABILITY.md).
#![no_main]

#[path = "../targets/mod.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::hadoop_config(data));
