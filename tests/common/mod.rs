//! Helpers shared by the integration tests.
#![allow(dead_code)]

use capsched::config::{CapacitySchedulerConfiguration, ConfigErrors};

pub const P: &str = "yarn.scheduler.capacity.";

/// Builds a configuration from `(key, value)` pairs; keys without a dot-prefixed namespace
/// (`root.a.capacity`, `maximum-applications`) get `yarn.scheduler.capacity.` in front.
pub fn props(pairs: &[(&str, &str)]) -> String {
    let mut s = String::new();
    for (k, v) in pairs {
        if is_full_key(k) {
            s.push_str(&format!("{k}={v}\n"));
        } else {
            s.push_str(&format!("{P}{k}={v}\n"));
        }
    }
    s
}

/// A key given whole (YARN's other prefixes, capsched's own), not under `yarn.scheduler.capacity.`.
pub fn is_full_key(key: &str) -> bool {
    key.starts_with("yarn.") || key.starts_with("capsched.")
}

/// The same pairs as Hadoop configuration XML.
pub fn xml(pairs: &[(&str, &str)]) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (k, v) in pairs {
        let key = if is_full_key(k) {
            k.to_string()
        } else {
            format!("{P}{k}")
        };
        s.push_str(&format!(
            "  <property>\n    <name>{key}</name>\n    <value>{v}</value>\n  </property>\n"
        ));
    }
    s.push_str("</configuration>\n");
    s
}

pub fn parse(pairs: &[(&str, &str)]) -> Result<CapacitySchedulerConfiguration, ConfigErrors> {
    CapacitySchedulerConfiguration::from_properties_str(&props(pairs))
}

pub fn ok(pairs: &[(&str, &str)]) -> CapacitySchedulerConfiguration {
    match parse(pairs) {
        Ok(c) => c,
        Err(e) => panic!("expected a valid configuration, got:\n{e}"),
    }
}

/// Parses, expects failure, and returns the errors.
pub fn errors(pairs: &[(&str, &str)]) -> ConfigErrors {
    match parse(pairs) {
        Ok(_) => panic!("expected the configuration to be rejected: {pairs:?}"),
        Err(e) => e,
    }
}

/// Asserts that one of the errors has exactly this message, queue and key.
pub fn assert_error(errors: &ConfigErrors, message: &str, queue: Option<&str>, key: Option<&str>) {
    let found = errors
        .iter()
        .any(|e| e.message == message && e.queue.as_deref() == queue && e.key.as_deref() == key);
    assert!(
        found,
        "no error {message:?} (queue {queue:?}, key {key:?}) among:\n{}",
        errors
            .iter()
            .map(|e| format!("  {:?} queue={:?} key={:?}", e.message, e.queue, e.key))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
pub mod cluster;
pub mod ffi;
pub mod hadoop;
pub mod native;
pub mod rng;
pub mod sim;
