//! Configurations from C: a capacity-scheduler.xml (as a string or a file) or key/value pairs,
//! parsed and validated with YARN's messages. A `capsched_config` is immutable; engines share
//! it and `capsched_config_free` may come before the engine's.

use super::status::{capsched_status, guard, FfiError, FfiResult};
use super::types::{capsched_str, need_out, read_slice, read_str, write_out};
use crate::config::{CapacitySchedulerConfiguration, ConfigErrors, Configuration};
use crate::echo::echo;
use crate::sync::Arc;

/// A validated configuration (opaque).
pub struct capsched_config {
    pub(crate) inner: Arc<CapacitySchedulerConfiguration>,
}

fn config_error(e: ConfigErrors) -> FfiError {
    FfiError(capsched_status::CAPSCHED_ERR_CONFIG, e.to_string())
}

fn give(out: *mut *mut capsched_config, c: CapacitySchedulerConfiguration) -> FfiResult {
    let handle = Box::into_raw(Box::new(capsched_config { inner: Arc::new(c) }));
    // SAFETY: `out` was checked non-NULL by the caller before any work.
    unsafe { write_out(out, handle, "out") }
}

/// Parses and validates a Hadoop XML configuration. On success `*out` is a new handle
/// (free it with `capsched_config_free`); on failure the status is CAPSCHED_ERR_CONFIG and
/// `capsched_last_error` gives YARN's message(s), one per line.
///
/// # Safety
/// `xml` must be a valid `capsched_str`; `out` must be valid for writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn capsched_config_from_xml(
    xml: capsched_str,
    out: *mut *mut capsched_config,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let text = read_str(xml, "xml")?;
        give(
            out,
            CapacitySchedulerConfiguration::from_xml_str(text).map_err(config_error)?,
        )
    })
}

/// Reads and validates a capacity-scheduler.xml (or key=value properties) file.
///
/// # Safety
/// As `capsched_config_from_xml`.
#[no_mangle]
pub unsafe extern "C" fn capsched_config_from_file(
    path: capsched_str,
    out: *mut *mut capsched_config,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let p = read_str(path, "path")?;
        // Issue 36.19: a path that exists but is a directory, FIFO or device is "not a
        // regular file" (docs/CONFIGURATION.md), as the reader says; only a missing one is
        // "no such file". Neither is opened here (a FIFO would block).
        let path_ref = std::path::Path::new(p);
        let why = match std::fs::metadata(path_ref) {
            Err(_) => Some("no such file"),
            Ok(m) if !m.is_file() => Some(
                "not a regular file (a directory, FIFO or device cannot be a configuration file)",
            ),
            Ok(_) => None,
        };
        if let Some(why) = why {
            return Err(FfiError(
                capsched_status::CAPSCHED_ERR_IO,
                format!("{}: {why}", echo(p)),
            ));
        }
        give(
            out,
            CapacitySchedulerConfiguration::from_file(std::path::Path::new(p))
                .map_err(config_error)?,
        )
    })
}

/// Builds a configuration from `count` key/value pairs (as `<property>` entries).
///
/// # Safety
/// `keys` and `values` must point to `count` valid `capsched_str`s each.
#[no_mangle]
pub unsafe extern "C" fn capsched_config_from_pairs(
    keys: *const capsched_str,
    values: *const capsched_str,
    count: usize,
    out: *mut *mut capsched_config,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let keys = read_slice(keys, count, "keys")?;
        let values = read_slice(values, count, "values")?;
        let mut conf = Configuration::new();
        for (i, (k, v)) in keys.iter().zip(values).enumerate() {
            let k = read_str(*k, &format!("keys[{i}]"))?;
            let v = read_str(*v, &format!("values[{i}]"))?;
            conf.set(k, v);
        }
        give(
            out,
            CapacitySchedulerConfiguration::from_configuration(conf).map_err(config_error)?,
        )
    })
}

/// Frees a configuration; NULL is fine. Engines built from it keep their own reference.
///
/// # Safety
/// `config` must be NULL or a handle from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn capsched_config_free(config: *mut capsched_config) {
    if !config.is_null() {
        drop(Box::from_raw(config));
    }
}
