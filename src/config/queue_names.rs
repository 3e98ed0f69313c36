//! Child queue names: how `<queue>.queues` is split, and which names capsched refuses.
//!
//! YARN 3.3.6 (`CapacitySchedulerConfiguration.getQueues`) splits the value on `,` with
//! `StringTokenizer` (empty tokens dropped) and trims each name; it checks nothing else. A
//! name it accepts can still break later: `a.b` becomes two levels, `root` below root is
//! shadowed by the real root (`CSQueueStore` always resolves `root` to it), `a b` or `a:b`
//! cannot be written as a key of the properties form, `*` and `?` make the queue's JMX
//! metrics name invalid, `%user` reads as a placement-rule variable, and an unexpanded
//! `${x}` becomes a queue literally named `${x}`. capsched refuses those names, each with a
//! message saying why (docs/CONFIGURATION.md, "Queue names").

use std::collections::HashSet;

use super::hadoop::java::java_trim;
use super::keys::ROOT;
use super::limits::MAX_QUEUE_NAME_BYTES;
use super::reader::Reader;
use crate::echo::echo;

/// Characters a queue name may not contain besides white space, control characters and `.`
/// (the path separator), with the reason.
const RESERVED: &[(char, &str)] = &[
    ('*', "a wildcard in ACLs and JMX names"),
    ('?', "a wildcard in JMX names"),
    (
        '%',
        "placement rules' variable marker (%user, %primary_group)",
    ),
    ('/', "a path separator in REST URLs"),
    ('\\', "the escape character of the properties form"),
    (
        '#',
        "a URL fragment marker and the properties form's comment",
    ),
    (
        ':',
        "a key separator in the properties form and in JMX names",
    ),
    (
        '=',
        "a key separator in the properties form and in JMX names",
    ),
    ('$', "the start of a ${var} substitution"),
    ('{', "part of a ${var} substitution"),
    ('}', "part of a ${var} substitution"),
];

/// The names a `<queue>.queues` value lists, as YARN splits them (`,`, each name trimmed),
/// except that empty names are kept (and then refused) unless they end the list: `a,b,` is a
/// trailing comma, `a,,b` is a missing name.
pub(crate) fn split_queue_names(value: Option<&str>) -> Vec<String> {
    let Some(value) = value else {
        return Vec::new();
    };
    let mut names: Vec<String> = value.split(',').map(|n| java_trim(n).to_string()).collect();
    while names.last().is_some_and(String::is_empty) {
        names.pop();
    }
    names
}

/// Why capsched refuses `name` as a queue name, if it does.
fn refused(name: &str) -> Option<String> {
    if name.contains('.') {
        return Some("a queue name must not contain '.'".to_string());
    }
    if name == ROOT {
        return Some(
            "root is the root queue's name (YARN resolves the name root to the root queue)"
                .to_string(),
        );
    }
    if name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some("a queue name must not contain white space or control characters".to_string());
    }
    if let Some((c, why)) = RESERVED.iter().find(|(c, _)| name.contains(*c)) {
        return Some(format!("a queue name must not contain '{c}' ({why})"));
    }
    if name.len() > MAX_QUEUE_NAME_BYTES {
        return Some(format!(
            "a queue name may have at most {MAX_QUEUE_NAME_BYTES} bytes (capsched's limit)"
        ));
    }
    None
}

/// The children `names` of `path` that can be queues, in order; an error for each that
/// cannot (empty, refused, listed twice).
pub(crate) fn child_names<'n>(
    r: &mut Reader,
    path: &str,
    children_key: &str,
    names: &'n [String],
) -> Vec<&'n str> {
    let mut seen: HashSet<&str> = HashSet::with_capacity(names.len());
    let mut valid = Vec::with_capacity(names.len());
    for name in names {
        if name.is_empty() {
            r.error(
                Some(path),
                children_key,
                format!("Queue {path} has an empty child queue name in {children_key}"),
            );
        } else if let Some(reason) = refused(name) {
            r.error(
                Some(path),
                children_key,
                format!(
                    "Illegal queue name {} under queue {path}: {reason}",
                    echo(name)
                ),
            );
        } else if !seen.insert(name) {
            r.error(
                Some(path),
                children_key,
                format!("Queue {path} lists child queue {name} more than once in {children_key}"),
            );
        } else {
            valid.push(name.as_str());
        }
    }
    valid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_yarn_and_keeps_inner_empty_names() {
        let s = |v: &str| split_queue_names(Some(v));
        assert_eq!(s("a, b ,c"), ["a", "b", "c"]);
        assert_eq!(s("\n  a,\n  b\n"), ["a", "b"]);
        assert_eq!(s("a,b,"), ["a", "b"]);
        assert_eq!(s("a,,b"), ["a", "", "b"]);
        assert_eq!(s(",a"), ["", "a"]);
        assert_eq!(s("a\nb"), ["a\nb"]); // one name, as in YARN (then refused)
        assert!(s(",").is_empty() && s(" ").is_empty() && split_queue_names(None).is_empty());
    }

    #[test]
    fn refuses_names_that_break_later() {
        for ok in ["default", "a-b_c", "Q1", "é", "team@corp", "a+b"] {
            assert_eq!(refused(ok), None, "{ok}");
        }
        for bad in [
            "a b", "a\tb", "*", "#a", "%", "a/b", "root", "${x}", "a:b", "a=b", "a.b",
        ] {
            assert!(refused(bad).is_some(), "{bad}");
        }
        assert!(refused(&"n".repeat(256)).unwrap().contains("255 bytes"));
        assert_eq!(refused(&"n".repeat(255)), None);
    }
}
