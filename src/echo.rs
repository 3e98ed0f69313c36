//! How error messages quote what they were given: every message that repeats a value from a
//! configuration, a vector file or a command line goes through [`echo`], so that a 20 kB (or
//! 20 MB) value cannot make a 20 kB message, and a tab or a newline in it stays visible.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Characters of a value a message repeats; the rest is summarised by its length.
pub const ECHO_CHARS: usize = 64;

/// `value` as a message quotes it: control characters escaped (`\t`, `\n`, `\u{1b}`), and
/// beyond [`ECHO_CHARS`] characters cut, followed by `…(N bytes)` giving the whole length.
/// Values that need neither come back borrowed and unchanged.
pub fn echo(value: &str) -> Cow<'_, str> {
    let long = value.chars().nth(ECHO_CHARS).is_some();
    if !long && !value.chars().any(char::is_control) {
        return Cow::Borrowed(value);
    }
    let mut out = String::new();
    for c in value.chars().take(ECHO_CHARS) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if long {
        let _ = write!(out, "…({} bytes)", value.len());
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_are_kept_long_ones_cut_controls_escaped() {
        assert!(matches!(echo("fifo"), Cow::Borrowed("fifo")));
        assert_eq!(echo("a\tb\n"), "a\\tb\\n");
        assert_eq!(echo("\u{1b}"), "\\u{1b}");
        let exact = "x".repeat(ECHO_CHARS);
        assert_eq!(echo(&exact), exact.as_str());
        let long = "é".repeat(20_000);
        assert_eq!(
            echo(&long),
            format!("{}…(40000 bytes)", "é".repeat(ECHO_CHARS))
        );
    }
}
