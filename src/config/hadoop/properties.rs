//! `key=value` resources in the syntax of Java's `Properties.load` (the rules are in the
//! [module documentation](super)).

use super::error::ConfError;
use super::item::Item;
use super::limits::{Budget, MAX_PROPERTIES};

/// `Properties.load`'s white space.
fn is_prop_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{0C}')
}

/// Splits `text` into logical lines as `Properties.LineReader` does: comments and blank
/// lines dropped, continuation lines joined. Returns `(first natural line number, line)`;
/// stops after `limit + 1` lines (the caller refuses that many).
fn logical_lines(text: &str, limit: usize) -> Vec<(usize, String)> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut out = Vec::new();
    let mut line = String::new();
    let mut line_no = 1usize; // current natural line
    let mut start_line = 1usize;
    let mut skip_white = true;
    let mut appended_line_begin = false;
    let mut is_new_line = true;
    let mut is_comment = false;
    let mut preceding_backslash = false;
    let mut skip_lf = false;
    for c in text.chars() {
        if skip_lf {
            skip_lf = false;
            if c == '\n' {
                continue;
            }
        }
        if skip_white {
            if is_prop_space(c) {
                continue;
            }
            if !appended_line_begin && (c == '\r' || c == '\n') {
                if c == '\r' {
                    skip_lf = true;
                }
                line_no += 1;
                continue;
            }
            skip_white = false;
            appended_line_begin = false;
        }
        if is_new_line {
            is_new_line = false;
            start_line = line_no;
            if c == '#' || c == '!' {
                is_comment = true;
            }
        }
        if c != '\n' && c != '\r' {
            if !is_comment {
                line.push(c);
            }
            if c == '\\' {
                preceding_backslash = !preceding_backslash;
            } else {
                preceding_backslash = false;
            }
            continue;
        }
        // A line terminator.
        if c == '\r' {
            skip_lf = true;
        }
        line_no += 1;
        if is_comment || line.is_empty() {
            is_comment = false;
            is_new_line = true;
            skip_white = true;
            preceding_backslash = false;
            line.clear();
            continue;
        }
        if preceding_backslash {
            line.pop();
            skip_white = true;
            appended_line_begin = true;
            preceding_backslash = false;
        } else {
            out.push((start_line, std::mem::take(&mut line)));
            if out.len() > limit {
                return out;
            }
            is_new_line = true;
            skip_white = true;
        }
    }
    if !is_comment && !line.is_empty() {
        if preceding_backslash {
            line.pop();
        }
        out.push((start_line, line));
    }
    out
}

/// `Properties.loadConvert`: resolves escapes.
fn load_convert(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut units: Vec<u16> = Vec::new(); // pending \uXXXX code units (surrogate pairs)
    let flush = |units: &mut Vec<u16>, out: &mut String| {
        out.extend(char::decode_utf16(units.drain(..)).map(|r| r.unwrap_or('\u{FFFD}')));
    };
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            flush(&mut units, &mut out);
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else { break };
        if e == 'u' {
            let hex: String = chars.by_ref().take(4).collect();
            let value = (hex.len() == 4)
                .then(|| u16::from_str_radix(&hex, 16).ok())
                .flatten()
                .filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()))
                .ok_or_else(|| "Malformed \\uxxxx encoding.".to_string())?;
            units.push(value);
            continue;
        }
        flush(&mut units, &mut out);
        out.push(match e {
            't' => '\t',
            'r' => '\r',
            'n' => '\n',
            'f' => '\u{0C}',
            other => other,
        });
    }
    flush(&mut units, &mut out);
    Ok(out)
}

pub(super) fn parse_properties(text: &str, source: &str) -> Result<Vec<Item>, ConfError> {
    let mut budget = Budget::default();
    budget.take_bytes(text.len(), source)?;
    let mut items = Vec::new();
    for (line_no, line) in logical_lines(text, MAX_PROPERTIES) {
        budget.take_property(source)?;
        let chars: Vec<char> = line.chars().collect();
        let limit = chars.len();
        let mut key_len = 0;
        let mut value_start = limit;
        let mut has_sep = false;
        let mut preceding_backslash = false;
        while key_len < limit {
            let c = chars[key_len];
            if (c == '=' || c == ':') && !preceding_backslash {
                value_start = key_len + 1;
                has_sep = true;
                break;
            } else if is_prop_space(c) && !preceding_backslash {
                value_start = key_len + 1;
                break;
            }
            preceding_backslash = c == '\\' && !preceding_backslash;
            key_len += 1;
        }
        while value_start < limit {
            let c = chars[value_start];
            if !is_prop_space(c) {
                if !has_sep && (c == '=' || c == ':') {
                    has_sep = true;
                } else {
                    break;
                }
            }
            value_start += 1;
        }
        let err = |message: String| ConfError::Properties {
            resource: source.to_string(),
            line: line_no,
            message,
        };
        let key: String = chars[..key_len].iter().collect();
        let value: String = chars[value_start.min(limit)..].iter().collect();
        let key = load_convert(&key).map_err(err)?;
        let value = load_convert(&value).map_err(err)?;
        items.push(Item {
            key,
            value: Some(value),
            is_final: false,
        });
    }
    Ok(items)
}
