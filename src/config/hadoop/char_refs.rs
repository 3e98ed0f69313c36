//! Character references (`&#…;`, `&#x…;`) checked as Woodstox checks them, before the tree
//! parser (which turns a reference to no XML character into U+FFFD): a surrogate
//! (`&#xD800;`), U+FFFE, U+FFFF, a control character other than tab, newline and carriage
//! return, NUL, or a value past U+10FFFF (`&#1114112;`) is an error, as Hadoop's parser refuses
//! it (issue 36.15). Comments, CDATA sections and processing instructions hold no references.

/// The first bad reference: its byte offset and the parser's message.
pub(super) fn check_char_refs(text: &str) -> Result<(), (usize, String)> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let skip_to = |end: &[u8]| {
            rest.windows(end.len())
                .position(|w| w == end)
                .map_or(b.len(), |p| i + p + end.len())
        };
        if rest.starts_with(b"<!--") {
            i = skip_to(b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = skip_to(b"]]>");
        } else if rest.starts_with(b"<?") {
            i = skip_to(b"?>");
        } else if rest.starts_with(b"&#") {
            let (hex, digits_at) = match rest.get(2) {
                Some(b'x') => (true, 3),
                _ => (false, 2),
            };
            let digits = rest[digits_at..]
                .iter()
                .take_while(|c| c.is_ascii_hexdigit())
                .count();
            // Malformed references are left to the parser's own message.
            if digits > 0 && rest.get(digits_at + digits) == Some(&b';') {
                let s = std::str::from_utf8(&rest[digits_at..digits_at + digits]).unwrap_or("");
                let value = if hex {
                    u64::from_str_radix(s, 16).ok()
                } else if s.bytes().all(|c| c.is_ascii_digit()) {
                    s.parse::<u64>().ok()
                } else {
                    Some(0)
                };
                if let Some(message) = refused(value) {
                    return Err((i, message));
                }
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// Woodstox's words (`StreamScanner.validateChar`) for a value that is no XML 1.0 character;
/// `None` (too many digits for a `u64`) is past U+10FFFF.
fn refused(value: Option<u64>) -> Option<String> {
    let Some(v) = value else {
        return Some(
            "Illegal character entity: expansion character out of range (past U+10FFFF)".into(),
        );
    };
    let ok = matches!(v, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x1_0000..=0x10_FFFF);
    if ok {
        None
    } else if v == 0 {
        Some("Invalid character reference: null character not allowed in XML content.".into())
    } else if v > 0x10_FFFF {
        Some(format!(
            "Illegal character entity: expansion character (code 0x{v:x}) out of range (past U+10FFFF)"
        ))
    } else {
        Some(format!(
            "Illegal character entity: expansion character (code 0x{v:x}) not a valid XML character"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::check_char_refs;

    #[test]
    fn references_to_no_xml_character_are_refused() {
        for bad in [
            "&#xD800;",
            "&#1114112;",
            "&#0;",
            "&#x1;",
            "&#xFFFE;",
            "&#99999999999999999999999;",
            "&#x110000;",
        ] {
            let text = format!("<a>x{bad}</a>");
            let (at, message) = check_char_refs(&text).unwrap_err();
            assert_eq!(at, 4, "{bad}");
            assert!(message.starts_with("I"), "{bad}: {message}");
        }
        for good in [
            "&#65;",
            "&#x41;",
            "&#x9;",
            "&#x10FFFF;",
            "&#xE000;",
            "&amp;",
            "&#xZZ;",
        ] {
            assert!(check_char_refs(&format!("<a>{good}</a>")).is_ok(), "{good}");
        }
        for quoted in ["<!-- &#xD800; -->", "<![CDATA[&#xD800;]]>", "<?pi &#0; ?>"] {
            assert!(
                check_char_refs(&format!("<a>{quoted}</a>")).is_ok(),
                "{quoted}"
            );
        }
    }
}
