//! Typed reads from a Hadoop [`Configuration`] that collect errors instead of stopping.
//!
//! Values are read as Hadoop reads them (`getTrimmed`, then Java's number parsing, so a bad
//! number carries Java's `For input string: "…"` text); a bad value is recorded with its key
//! and queue, and the default stands in so that the rest of the file is still checked.

use super::error::ConfigError;
use super::hadoop::Configuration;
use super::java;
use super::keys::PREFIX;
use crate::echo::echo;

pub(crate) struct Reader<'a> {
    pub conf: &'a Configuration,
    pub errors: Vec<ConfigError>,
    pub warnings: Vec<String>,
}

impl<'a> Reader<'a> {
    pub fn new(conf: &'a Configuration) -> Self {
        Reader {
            conf,
            errors: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The trimmed value with `${var}` substituted, as Hadoop's `getTrimmed`.
    pub fn trimmed(&self, key: &str) -> Option<String> {
        self.conf.get_trimmed(key).filter(|v| !v.is_empty())
    }

    pub fn error(&mut self, queue: Option<&str>, key: &str, message: impl Into<String>) {
        let mut e = ConfigError::new(message).with_key(key);
        if let Some(q) = queue {
            e = e.with_queue(q);
        }
        self.errors.push(e);
    }

    pub fn float(&mut self, queue: Option<&str>, key: &str, default: f32) -> f32 {
        self.parsed(queue, key, java::parse_float, f32::is_nan)
            .unwrap_or(default)
    }

    pub fn double(&mut self, queue: Option<&str>, key: &str, default: f64) -> f64 {
        self.parsed(queue, key, java::parse_double, f64::is_nan)
            .unwrap_or(default)
    }

    /// Parses a present value with `parse`, recording Java's error text, or a NaN (which Java
    /// accepts but no range check of YARN catches) as an error of its own.
    fn parsed<T: Copy>(
        &mut self,
        queue: Option<&str>,
        key: &str,
        parse: impl Fn(&str) -> Result<T, java::NumberFormatError>,
        is_nan: impl Fn(T) -> bool,
    ) -> Option<T> {
        let v = self.trimmed(key)?;
        match parse(&v) {
            Ok(f) if is_nan(f) => {
                self.error(queue, key, format!("Illegal value NaN for {key}"));
                None
            }
            Ok(f) => Some(f),
            Err(e) => {
                self.error(queue, key, e.to_string());
                None
            }
        }
    }

    /// Hadoop's `getInt`: trimmed, `0x`/`-0x` hexadecimal accepted, else `Integer.parseInt`.
    pub fn int(&mut self, queue: Option<&str>, key: &str, default: i32) -> i32 {
        self.opt_int(queue, key).unwrap_or(default)
    }

    pub fn opt_int(&mut self, queue: Option<&str>, key: &str) -> Option<i32> {
        let v = self.trimmed(key)?;
        let parsed = match hex_digits(&v) {
            Some((neg, digits)) => i64::from_str_radix(digits, 16)
                .ok()
                .map(|x| if neg { -x } else { x })
                .and_then(|x| i32::try_from(x).ok())
                .ok_or_else(|| java::NumberFormatError::for_input_string(digits, 16).to_string()),
            None => java::parse_int(&v).map_err(|e| e.to_string()),
        };
        match parsed {
            Ok(x) => Some(x),
            Err(msg) => {
                self.error(queue, key, msg);
                None
            }
        }
    }

    pub fn long(&mut self, queue: Option<&str>, key: &str, default: i64) -> i64 {
        let Some(v) = self.trimmed(key) else {
            return default;
        };
        let parsed = match hex_digits(&v) {
            Some((neg, digits)) => i64::from_str_radix(digits, 16)
                .map(|x| if neg { -x } else { x })
                .map_err(|_| java::NumberFormatError::for_input_string(digits, 16).to_string()),
            None => java::parse_long(&v).map_err(|e| e.to_string()),
        };
        parsed.unwrap_or_else(|msg| {
            self.error(queue, key, msg);
            default
        })
    }

    /// Hadoop's `getBoolean`: "true"/"false" in any case; anything else is the default.
    pub fn boolean(&mut self, key: &str, default: bool) -> bool {
        self.opt_bool(key).unwrap_or(default)
    }

    pub fn opt_bool(&mut self, key: &str) -> Option<bool> {
        let v = self.trimmed(key)?;
        if v.eq_ignore_ascii_case("true") {
            Some(true)
        } else if v.eq_ignore_ascii_case("false") {
            Some(false)
        } else {
            self.warnings.push(format!(
                "{key}={} is not a boolean; the default is used",
                echo(&v)
            ));
            None
        }
    }
}

/// Hadoop's `getHexDigits`: the digits after a `0x`/`-0x` prefix, and whether it was negative.
fn hex_digits(v: &str) -> Option<(bool, &str)> {
    let lower = v.get(..3).map(str::to_ascii_lowercase);
    if let Some(rest) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        return Some((false, rest));
    }
    if lower.as_deref() == Some("-0x") {
        return Some((true, &v[3..]));
    }
    None
}

/// `yarn.scheduler.capacity.<queue>.<suffix>`
pub(crate) fn queue_key(queue: &str, suffix: &str) -> String {
    let mut k = String::with_capacity(PREFIX.len() + queue.len() + 1 + suffix.len());
    k.push_str(PREFIX);
    k.push_str(queue);
    k.push('.');
    k.push_str(suffix);
    k
}

/// `yarn.scheduler.capacity.<suffix>`
pub(crate) fn global_key(suffix: &str) -> String {
    format!("{PREFIX}{suffix}")
}
