//! Typed reads from a Hadoop [`Configuration`] that collect errors instead of stopping.
//!
//! Values are read as Hadoop reads them: `get` (expanded, not trimmed) or `getTrimmed`, then
//! Java's number parsing, so a bad number carries Java's `For input string: "…"` text and a
//! blank one Java's error too. A value YARN would accept but that means nothing (a negative
//! share, an infinite factor) is refused by the `*_where` reads, which name the key and the
//! value. A bad value is recorded with its key and queue, and the default stands in so that
//! the rest of the file is still checked.
//!
//! `${var}` substitution errors, which Hadoop's `get` throws, are recorded for the key that
//! has them (the key then reads as unset). The substitution a whole read may do is bounded by
//! [`MAX_EXPANDED_BYTES_TOTAL`].

use super::error::ConfigError;
use super::hadoop::java::{self, java_trim};
use super::hadoop::Configuration;
use super::keys::PREFIX;
use super::limits::MAX_EXPANDED_BYTES_TOTAL;
use crate::echo::echo;

pub(crate) struct Reader<'a> {
    pub conf: &'a Configuration,
    pub errors: Vec<ConfigError>,
    pub warnings: Vec<String>,
    /// Bytes `${var}` substitution has added to the values read so far.
    expanded: usize,
}

/// A value that could not be read; its error is recorded.
pub(crate) struct Failed;

impl<'a> Reader<'a> {
    pub fn new(conf: &'a Configuration) -> Self {
        Reader {
            conf,
            errors: Vec::new(),
            warnings: Vec::new(),
            expanded: 0,
        }
    }

    pub fn error(&mut self, queue: Option<&str>, key: &str, message: impl Into<String>) {
        let mut e = ConfigError::new(message).with_key(key);
        if let Some(q) = queue {
            e = e.with_queue(q);
        }
        self.errors.push(e);
    }

    /// Hadoop's `get`: the value with `${var}` expanded, not trimmed; `Ok(None)` when unset.
    /// A substitution Hadoop would throw on is recorded as an error of `key`.
    pub fn expanded(&mut self, queue: Option<&str>, key: &str) -> Result<Option<String>, Failed> {
        let Some(raw) = self.conf.get_raw(key) else {
            return Ok(None);
        };
        if self.expanded > MAX_EXPANDED_BYTES_TOTAL {
            // The budget is spent (and reported): no more expansion work.
            return Ok(Some(raw.to_string()));
        }
        match self.conf.try_get(key) {
            Ok(value) => {
                let value = value.unwrap_or_default();
                self.expanded += value.len().saturating_sub(raw.len());
                if self.expanded > MAX_EXPANDED_BYTES_TOTAL {
                    self.error(
                        queue,
                        key,
                        format!(
                            "Variable substitution expands the configuration's values by more than {} MiB in all (capsched's limit)",
                            MAX_EXPANDED_BYTES_TOTAL >> 20
                        ),
                    );
                    return Err(Failed);
                }
                Ok(Some(value))
            }
            Err(e) => {
                let message = match e {
                    super::hadoop::ConfError::SubstitutionDepth { message, .. } => message,
                    other => other.to_string(),
                };
                self.error(queue, key, message);
                Err(Failed)
            }
        }
    }

    /// [`Reader::expanded`], with a failure read as unset (its error is recorded).
    pub fn get(&mut self, queue: Option<&str>, key: &str) -> Option<String> {
        self.expanded(queue, key).ok().flatten()
    }

    /// Hadoop's `getTrimmed` (Java `String.trim`); a blank value is `Some("")`.
    pub fn trimmed(&mut self, queue: Option<&str>, key: &str) -> Option<String> {
        self.get(queue, key).map(|v| java_trim(&v).to_string())
    }

    /// Records that `raw`, the value of `key`, is outside what the key accepts.
    fn out_of_range(&mut self, queue: Option<&str>, key: &str, raw: &str, expected: &str) {
        self.error(
            queue,
            key,
            format!("Illegal value {} for {key}: {expected}", echo(raw)),
        );
    }

    /// Parses a set value with `parse` (Java's rules and messages; a blank value is Java's
    /// error too), then keeps it only if `ok` accepts it. Returns the value and its text.
    fn parsed<T: Copy>(
        &mut self,
        queue: Option<&str>,
        key: &str,
        parse: impl Fn(&str) -> Result<T, java::NumberFormatError>,
        ok: impl Fn(T) -> bool,
        expected: &str,
    ) -> Option<T> {
        let v = self.trimmed(queue, key)?;
        match parse(&v) {
            Ok(x) if ok(x) => Some(x),
            Ok(_) => {
                self.out_of_range(queue, key, &v, expected);
                None
            }
            Err(e) => {
                self.error(queue, key, e.to_string());
                None
            }
        }
    }

    /// Hadoop's `getFloat`, then `ok`; `expected` says what `ok` accepts, for the message.
    pub fn float_where(
        &mut self,
        queue: Option<&str>,
        key: &str,
        default: f32,
        ok: impl Fn(f32) -> bool,
        expected: &str,
    ) -> f32 {
        self.parsed(queue, key, java::parse_float, ok, expected)
            .unwrap_or(default)
    }

    /// Hadoop's `getDouble`, then `ok`.
    pub fn double_where(
        &mut self,
        queue: Option<&str>,
        key: &str,
        default: f64,
        ok: impl Fn(f64) -> bool,
        expected: &str,
    ) -> f64 {
        self.parsed(queue, key, java::parse_double, ok, expected)
            .unwrap_or(default)
    }

    /// Hadoop's `getInt` (trimmed; `0x`/`-0x` hexadecimal, else `Integer.parseInt`), then
    /// `ok`; `None` when unset or refused.
    pub fn opt_int_where(
        &mut self,
        queue: Option<&str>,
        key: &str,
        ok: impl Fn(i32) -> bool,
        expected: &str,
    ) -> Option<i32> {
        self.parsed(queue, key, parse_int, ok, expected)
    }

    pub fn int_where(
        &mut self,
        queue: Option<&str>,
        key: &str,
        default: i32,
        ok: impl Fn(i32) -> bool,
        expected: &str,
    ) -> i32 {
        self.opt_int_where(queue, key, ok, expected)
            .unwrap_or(default)
    }

    /// Hadoop's `getLong`, then `ok`.
    pub fn long_where(
        &mut self,
        queue: Option<&str>,
        key: &str,
        default: i64,
        ok: impl Fn(i64) -> bool,
        expected: &str,
    ) -> i64 {
        self.parsed(queue, key, parse_long, ok, expected)
            .unwrap_or(default)
    }

    /// `Integer.parseInt(get(key))`: no trimming, no hexadecimal (YARN's reading of
    /// `max-parallel-apps`), then `ok`.
    pub fn opt_untrimmed_int_where(
        &mut self,
        queue: Option<&str>,
        key: &str,
        ok: impl Fn(i32) -> bool,
        expected: &str,
    ) -> Option<i32> {
        let v = self.get(queue, key)?;
        match java::parse_int(&v) {
            Ok(x) if ok(x) => Some(x),
            Ok(_) => {
                self.out_of_range(queue, key, &v, expected);
                None
            }
            Err(e) => {
                self.error(queue, key, e.to_string());
                None
            }
        }
    }

    /// Hadoop's `getBoolean`: "true"/"false" in any case; unset or blank is the default, and
    /// so is anything else (with a warning: Hadoop silently takes the default).
    pub fn boolean(&mut self, key: &str, default: bool) -> bool {
        self.opt_bool(key).unwrap_or(default)
    }

    pub fn opt_bool(&mut self, key: &str) -> Option<bool> {
        let v = self.trimmed(None, key).filter(|v| !v.is_empty())?;
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

/// Hadoop's `getInt` on a trimmed value.
fn parse_int(v: &str) -> Result<i32, java::NumberFormatError> {
    match hex_digits(v) {
        Some((neg, digits)) => java::parse_int_radix(&signed(neg, digits), 16),
        None => java::parse_int(v),
    }
}

/// Hadoop's `getLong` on a trimmed value.
fn parse_long(v: &str) -> Result<i64, java::NumberFormatError> {
    match hex_digits(v) {
        Some((neg, digits)) => java::parse_long_radix(&signed(neg, digits), 16),
        None => java::parse_long(v),
    }
}

fn signed(negative: bool, digits: &str) -> String {
    if negative {
        format!("-{digits}")
    } else {
        digits.to_string()
    }
}

/// Hadoop's `getHexDigits`: the digits after a `0x`/`-0x` prefix, and whether it was negative.
fn hex_digits(v: &str) -> Option<(bool, &str)> {
    if let Some(rest) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        return Some((false, rest));
    }
    v.strip_prefix("-0x")
        .or_else(|| v.strip_prefix("-0X"))
        .map(|rest| (true, rest))
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
