//! The string handling behind the typed getters: Hadoop's hexadecimal integers
//! (`getHexDigits`), Java's `equalsIgnoreCase` (`getBoolean`) and the splitting of
//! `StringUtils.getTrimmedStrings`.

use super::java::{java_trim, NumberFormatError};

/// `getInt`/`getLong`: the hexadecimal forms of [`hex_digits`] in radix 16, anything else
/// in radix 10, read with `parse_radix` (`Integer.parseInt` / `Long.parseLong`).
pub(super) fn parse_hex_or_decimal<T>(
    value: &str,
    parse_radix: fn(&str, u32) -> Result<T, NumberFormatError>,
) -> Result<T, NumberFormatError> {
    match hex_digits(value) {
        Some(hex) => parse_radix(&hex, 16),
        None => parse_radix(value, 10),
    }
}

/// `Configuration.getHexDigits`: for `0x…`, `0X…`, `-0x…`, `-0X…` the digits after the
/// prefix (with the `-` kept), else `None`.
fn hex_digits(value: &str) -> Option<String> {
    let (negative, rest) = match value.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, value),
    };
    let digits = rest
        .strip_prefix("0x")
        .or_else(|| rest.strip_prefix("0X"))?;
    Some(if negative {
        format!("-{digits}")
    } else {
        digits.to_string()
    })
}

/// Java's `String.equalsIgnoreCase`, for an ASCII `target`: each character matches if equal
/// after upper-casing, or after upper- then lower-casing (so `ſ`, U+017F, matches `s`).
pub(super) fn java_equals_ignore_case(s: &str, target: &str) -> bool {
    fn simple_upper(c: char) -> char {
        let mut u = c.to_uppercase();
        match (u.next(), u.next()) {
            (Some(x), None) => x,
            _ => c, // Java's Character.toUpperCase(char) has no multi-character mappings
        }
    }
    fn simple_lower(c: char) -> char {
        let mut l = c.to_lowercase();
        match (l.next(), l.next()) {
            (Some(x), None) => x,
            _ => c,
        }
    }
    // Java compares UTF-16 lengths first; the targets are ASCII, so a match needs as many
    // BMP characters.
    if s.chars().count() != target.len() || s.chars().any(|c| c as u32 > 0xFFFF) {
        return false;
    }
    s.chars().zip(target.chars()).all(|(a, b)| {
        a == b || {
            let (ua, ub) = (simple_upper(a), simple_upper(b));
            ua == ub || simple_lower(ua) == simple_lower(ub)
        }
    })
}

/// `StringUtils.getTrimmedStrings`.
pub fn trimmed_strings(value: Option<&str>) -> Vec<String> {
    let Some(v) = value else { return Vec::new() };
    let v = java_trim(v);
    if v.is_empty() {
        return Vec::new();
    }
    java_split_comma_newline(v)
}

/// Java's `\s`: `[ \t\n\x0B\f\r]`.
fn is_java_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// `s.split("\\s*[,\n]\\s*")` with Java's semantics (leftmost, greedy matches; trailing
/// empty strings removed; no match → `[s]`).
fn java_split_comma_newline(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut parts: Vec<String> = Vec::new();
    let mut piece_start = 0usize;
    let mut pos = 0usize;
    while pos < b.len() {
        // Try a match starting at `pos`: a white-space run, then the last position in it
        // (or just after it) holding ',' or '\n', then another white-space run.
        let mut run_end = pos;
        while run_end < b.len() && is_java_space(b[run_end]) {
            run_end += 1;
        }
        let sep = if run_end < b.len() && b[run_end] == b',' {
            Some(run_end)
        } else {
            (pos..run_end).rev().find(|&k| b[k] == b'\n')
        };
        match sep {
            Some(k) => {
                let mut end = k + 1;
                while end < b.len() && is_java_space(b[end]) {
                    end += 1;
                }
                parts.push(s[piece_start..pos].to_string());
                piece_start = end;
                pos = end;
            }
            None => pos += 1,
        }
        // Keep `pos` on a character boundary (separators and spaces are ASCII).
        while pos < b.len() && !s.is_char_boundary(pos) {
            pos += 1;
        }
    }
    if parts.is_empty() {
        return vec![s.to_string()];
    }
    parts.push(s[piece_start..].to_string());
    while parts.last().is_some_and(String::is_empty) {
        parts.pop();
    }
    parts
}
