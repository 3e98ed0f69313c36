//! YARN 3.4's queue mapping rules in JSON (`yarn.scheduler.capacity.mapping-rule-format=json`):
//! the rules of `mapping-rule-json`, or of the file `mapping-rule-json-file`, read as
//! `CapacitySchedulerConfiguration.getMappingRules` and `MappingRuleCreator` read them, into
//! typed rules (a matcher, an action, a fallback). Checking the rules against the hierarchy is
//! `mapping_rule_validation`; evaluating them at submission is `scheduler::mapping_rules`
//! (docs/SEMANTICS.md, "Queue placement", "JSON mapping rules").
//!
//! YARN deserialises the JSON with Jackson into generated classes, so capsched accepts what
//! Jackson accepts there: unknown keys are ignored (a misspelt key is silently dropped, as in
//! YARN), a number or boolean where a string is expected is taken as its text, `create` may also
//! be `"true"`/`"false"` or an integer, only the first JSON value of the text is read, and the
//! enumerations (`type`, `policy`, `fallbackResult`) are exact and case-sensitive.

use std::fmt;
use std::path::Path;

use serde::Deserialize as _;
use serde_json::{Map, Value};

use super::variables::{CURRENT_APPLICATION, CURRENT_USER, PRIMARY_GROUP, SECONDARY_GROUP};
use crate::config::error::ConfigError;
use crate::config::hadoop::java::java_trim;
use crate::config::hadoop::Configuration;
use crate::echo::echo;

pub const MAPPING_RULE_FORMAT: &str = "yarn.scheduler.capacity.mapping-rule-format";
pub const MAPPING_RULE_JSON: &str = "yarn.scheduler.capacity.mapping-rule-json";
pub const MAPPING_RULE_JSON_FILE: &str = "yarn.scheduler.capacity.mapping-rule-json-file";
pub const FORMAT_LEGACY: &str = "legacy";
pub const FORMAT_JSON: &str = "json";

/// The queue the submission named, `""` when it named `default`.
pub const SPECIFIED: &str = "%specified";
/// The queue `placeDefault` and `defaultQueue` use: `root.default` unless a `setDefaultQueue`
/// rule changed it for this submission.
pub const DEFAULT: &str = "%default";
/// YARN's default value of `%default`.
pub const ROOT_DEFAULT: &str = "root.default";

/// The largest mapping-rule JSON file read. YARN reads any size; a rule is a few hundred
/// bytes, so this is far beyond any real rule list and keeps a mistaken path (a log file, a
/// disk image) from costing more than that.
pub const MAX_JSON_FILE_BYTES: u64 = 16 << 20;

/// Which rules the configuration asks for (`mapping-rule-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleFormat {
    /// YARN 3.3's `queue-mappings` and app-name mappings (read by the placement settings).
    Legacy,
    Json,
}

/// `getMappingRules`: the format is read with `get` and compared exactly (no trimming, case
/// sensitive).
pub(crate) fn rule_format(conf: &Configuration) -> Result<RuleFormat, ConfigError> {
    let value = conf
        .get(MAPPING_RULE_FORMAT)
        .unwrap_or_else(|| FORMAT_LEGACY.to_string());
    match value.as_str() {
        FORMAT_LEGACY => Ok(RuleFormat::Legacy),
        FORMAT_JSON => Ok(RuleFormat::Json),
        other => Err(ConfigError::new(format!(
            "Illegal queue mapping format '{}' please use '{FORMAT_LEGACY}' or '{FORMAT_JSON}'",
            echo(other)
        ))
        .with_key(MAPPING_RULE_FORMAT)),
    }
}

/// What a rule looks at (`MappingRuleMatcher`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Matcher {
    /// Every submission (`"type": "user", "matches": "*"`).
    All,
    /// The variable's value equals `value` once the variables in `value` are replaced: the
    /// `user` type is `%user`, the `application` type `%application`. For a user whose name
    /// has dots the original name is compared, not the `_dot_` one.
    Variable { variable: String, value: String },
    /// The user is in this group (any of its groups, raw names), after substitution.
    Group(String),
}

/// What a matching rule does (`MappingRuleAction`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// The queue path pattern, its variables replaced part by part; `create` lets the target be
    /// a queue that does not exist yet under a parent that may create it.
    Place {
        queue: String,
        create: bool,
    },
    Reject,
    /// Sets a variable for the rules after this one (`setDefaultQueue` sets `%default`); the
    /// rule's result is always "skip".
    SetVariable {
        variable: String,
        value: String,
    },
}

/// What happens when a rule's target cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// On to the next rule (JSON's default).
    Skip,
    /// The submission is rejected.
    Reject,
    /// The application goes to `%default`, which must exist (it is never created).
    PlaceDefault,
}

impl Fallback {
    /// The JSON spelling.
    pub fn name(self) -> &'static str {
        match self {
            Fallback::Skip => "skip",
            Fallback::Reject => "reject",
            Fallback::PlaceDefault => "placeDefault",
        }
    }
}

/// The JSON `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleType {
    User,
    Group,
    Application,
}

const TYPES: &[(&str, RuleType)] = &[
    ("user", RuleType::User),
    ("group", RuleType::Group),
    ("application", RuleType::Application),
];

/// The JSON `policy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    Specified,
    Reject,
    DefaultQueue,
    User,
    PrimaryGroup,
    SecondaryGroup,
    PrimaryGroupUser,
    SecondaryGroupUser,
    ApplicationName,
    SetDefaultQueue,
    Custom,
}

const POLICIES: &[(&str, Policy)] = &[
    ("specified", Policy::Specified),
    ("reject", Policy::Reject),
    ("defaultQueue", Policy::DefaultQueue),
    ("user", Policy::User),
    ("primaryGroup", Policy::PrimaryGroup),
    ("secondaryGroup", Policy::SecondaryGroup),
    ("primaryGroupUser", Policy::PrimaryGroupUser),
    ("secondaryGroupUser", Policy::SecondaryGroupUser),
    ("applicationName", Policy::ApplicationName),
    ("setDefaultQueue", Policy::SetDefaultQueue),
    ("custom", Policy::Custom),
];

const FALLBACKS: &[(&str, Fallback)] = &[
    ("skip", Fallback::Skip),
    ("reject", Fallback::Reject),
    ("placeDefault", Fallback::PlaceDefault),
];

impl Policy {
    /// The JSON spelling.
    pub fn name(self) -> &'static str {
        POLICIES
            .iter()
            .find(|(_, p)| *p == self)
            .map(|(n, _)| *n)
            .unwrap_or("custom")
    }
}

/// One rule (`MappingRule`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MappingRule {
    pub matcher: Matcher,
    pub action: Action,
    pub fallback: Fallback,
    /// The JSON policy the rule was made from, for display; `None` for a rule built directly.
    pub policy: Option<Policy>,
}

impl fmt::Display for MappingRule {
    /// `user bob: custom → root.%primary_group (create, fallback skip)`, `user *: reject`,
    /// `group ops: setDefaultQueue %default := root.ops`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.matcher {
            Matcher::All => f.write_str("user *")?,
            Matcher::Variable { variable, value } if variable == CURRENT_USER => {
                write!(f, "user {value}")?
            }
            Matcher::Variable { variable, value } if variable == CURRENT_APPLICATION => {
                write!(f, "application {value}")?
            }
            Matcher::Variable { variable, value } => write!(f, "{variable} = {value}")?,
            Matcher::Group(g) => write!(f, "group {g}")?,
        }
        f.write_str(": ")?;
        let policy = |default: &'static str| self.policy.map(Policy::name).unwrap_or(default);
        match &self.action {
            Action::Place { queue, create } => write!(
                f,
                "{} → {queue} ({}, fallback {})",
                policy("place"),
                if *create { "create" } else { "no create" },
                self.fallback.name()
            ),
            Action::Reject => f.write_str("reject"),
            Action::SetVariable { variable, value } => {
                write!(f, "{} {variable} := {value}", policy("set"))
            }
        }
    }
}

/// Where the JSON came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonSource {
    /// `mapping-rule-json`.
    Inline,
    /// `mapping-rule-json-file`, the path as configured (trimmed).
    File(String),
    /// Neither key is set: YARN starts with no mapping rules (and logs a warning).
    None,
}

/// The JSON rules in force (`mapping-rule-format=json`), in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MappingRules {
    pub rules: Vec<MappingRule>,
    pub source: JsonSource,
}

impl MappingRules {
    /// The key the rules came from, for messages.
    pub fn key(&self) -> &'static str {
        match self.source {
            JsonSource::File(_) => MAPPING_RULE_JSON_FILE,
            _ => MAPPING_RULE_JSON,
        }
    }
}

/// Why a rule list could not be built: the text is not the document YARN expects (Jackson's
/// failure, `rule` is `None`), or a rule breaks one of `MappingRuleCreator`'s checks (its
/// `IllegalArgumentException`, 1-based `rule`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub rule: Option<usize>,
    pub message: String,
}

/// `parseJSONMappingRules`: the inline JSON if it is not empty, else the file if one is
/// named, else no rules. Errors carry YARN's words and the key.
pub(crate) fn read_json_rules(conf: &Configuration) -> Result<MappingRules, Vec<ConfigError>> {
    let inline = conf.get(MAPPING_RULE_JSON).unwrap_or_default();
    if !inline.is_empty() {
        let rules = parse_json_rules(&inline).map_err(|errors| {
            errors
                .into_iter()
                .map(|e| {
                    rule_config_error(
                        e,
                        "Error parsing mapping rule inline JSON: ",
                        MAPPING_RULE_JSON,
                    )
                })
                .collect::<Vec<_>>()
        })?;
        return Ok(MappingRules {
            rules,
            source: JsonSource::Inline,
        });
    }
    let file = conf.get(MAPPING_RULE_JSON_FILE).unwrap_or_default();
    if file.is_empty() {
        return Ok(MappingRules {
            rules: Vec::new(),
            source: JsonSource::None,
        });
    }
    // YARN reads `value.trim()` (Files.readAllBytes); a relative path is relative to the
    // process's working directory, as in YARN.
    let path = java_trim(&file).to_string();
    let prefix = format!(
        "Error reading or parsing mapping rule JSON file '{}': ",
        echo(&file)
    );
    let text = crate::files::read_regular_file(
        Path::new(&path),
        MAX_JSON_FILE_BYTES,
        "a mapping rule JSON file",
    )
    .map_err(|e| vec![ConfigError::new(format!("{prefix}{e}")).with_key(MAPPING_RULE_JSON_FILE)])?;
    let rules = parse_json_rules(&text).map_err(|errors| {
        errors
            .into_iter()
            .map(|e| rule_config_error(e, &prefix, MAPPING_RULE_JSON_FILE))
            .collect::<Vec<_>>()
    })?;
    Ok(MappingRules {
        rules,
        source: JsonSource::File(path),
    })
}

/// A document error is prefixed with YARN's log line for it; a rule's check is YARN's
/// exception message (which escapes the scheduler's initialisation unwrapped), with the rule's
/// number, since YARN's message does not say which rule.
fn rule_config_error(e: RuleError, prefix: &str, key: &str) -> ConfigError {
    let message = match e.rule {
        None => format!("{prefix}{}", e.message),
        Some(n) => format!("{} (rule {n})", e.message),
    };
    ConfigError::new(message).with_key(key)
}

/// `MappingRuleCreator.getMappingRulesFromString`: the document, then each rule in order.
/// A document Jackson would refuse gives one error; otherwise every rule that breaks a check
/// gives one (the first is the one YARN stops at).
pub fn parse_json_rules(text: &str) -> Result<Vec<MappingRule>, Vec<RuleError>> {
    let document = |message: String| {
        vec![RuleError {
            rule: None,
            message,
        }]
    };
    // Jackson reads the first value and ignores whatever follows it.
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Value::deserialize(&mut de).map_err(|e| document(e.to_string()))?;
    let raw = raw_rules(&value).map_err(document)?;
    let mut rules = Vec::with_capacity(raw.len());
    let mut errors = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        match build_rule(r) {
            Ok(rule) => rules.push(rule),
            Err(message) => errors.push(RuleError {
                rule: Some(i + 1),
                message,
            }),
        }
    }
    if errors.is_empty() {
        Ok(rules)
    } else {
        Err(errors)
    }
}

/// A rule's fields as Jackson deserialises them (every field may be absent).
#[derive(Debug, Default)]
struct RawRule {
    rule_type: Option<RuleType>,
    matches: Option<String>,
    policy: Option<Policy>,
    parent_queue: Option<String>,
    fallback: Option<Fallback>,
    create: Option<bool>,
    value: Option<String>,
    custom_placement: Option<String>,
}

/// `MappingRulesDescription`: `{"rules": [...]}`, `rules` defaulting to none. Where YARN
/// would fail with a NullPointerException (a `null` document, `rules` or rule), capsched
/// says what is null.
fn raw_rules(value: &Value) -> Result<Vec<RawRule>, String> {
    let doc = match value {
        Value::Object(o) => o,
        Value::Null => return Err("the document is null".into()),
        other => {
            return Err(format!(
                "a JSON object with \"rules\" expected, not {}",
                kind(other)
            ))
        }
    };
    let list = match doc.get("rules") {
        None => return Ok(Vec::new()),
        Some(Value::Array(a)) => a,
        Some(Value::Null) => return Err("\"rules\" is null".into()),
        Some(other) => return Err(format!("\"rules\" must be an array, not {}", kind(other))),
    };
    list.iter()
        .enumerate()
        .map(|(i, r)| match r {
            Value::Object(o) => raw_rule(o).map_err(|e| format!("rule {}: {e}", i + 1)),
            Value::Null => Err(format!("rule {} is null", i + 1)),
            other => Err(format!(
                "rule {} must be an object, not {}",
                i + 1,
                kind(other)
            )),
        })
        .collect()
}

fn raw_rule(o: &Map<String, Value>) -> Result<RawRule, String> {
    Ok(RawRule {
        rule_type: enum_field(o, "type", TYPES)?,
        matches: string_field(o, "matches")?,
        policy: enum_field(o, "policy", POLICIES)?,
        parent_queue: string_field(o, "parentQueue")?,
        fallback: enum_field(o, "fallbackResult", FALLBACKS)?,
        create: boolean_field(o, "create")?,
        value: string_field(o, "value")?,
        custom_placement: string_field(o, "customPlacement")?,
    })
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A `String` field: Jackson takes a number or a boolean as its text.
fn string_field(o: &Map<String, Value>, name: &str) -> Result<Option<String>, String> {
    match o.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(Value::Bool(b)) => Ok(Some(b.to_string())),
        Some(other) => Err(format!(
            "\"{name}\": a string expected, not {}",
            kind(other)
        )),
    }
}

/// An enumeration: the exact, case-sensitive value (the generated `fromValue`).
fn enum_field<T: Copy>(
    o: &Map<String, Value>,
    name: &str,
    values: &[(&str, T)],
) -> Result<Option<T>, String> {
    let text = match o.get(name) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(other) => {
            return Err(format!(
                "\"{name}\": a string expected, not {}",
                kind(other)
            ))
        }
    };
    values
        .iter()
        .find(|(n, _)| *n == text)
        .map(|(_, v)| Some(*v))
        .ok_or_else(|| {
            let names: Vec<&str> = values.iter().map(|(n, _)| *n).collect();
            format!(
                "\"{name}\": '{}' is not one of {}",
                echo(&text),
                names.join(", ")
            )
        })
}

/// The `Boolean` field `create`, with Jackson's default coercions: the strings `true`/`false`
/// (also capitalised or upper case, trimmed), an empty string or `"null"` as unset, and an
/// integer (0 is false).
fn boolean_field(o: &Map<String, Value>, name: &str) -> Result<Option<bool>, String> {
    match o.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => {
            Ok(Some(n.as_i64().is_none_or(|v| v != 0)))
        }
        Some(Value::String(s)) => match java_trim(s) {
            "true" | "True" | "TRUE" => Ok(Some(true)),
            "false" | "False" | "FALSE" => Ok(Some(false)),
            "" | "null" => Ok(None),
            other => Err(format!("\"{name}\": '{}' is not a boolean", echo(other))),
        },
        Some(other) => Err(format!(
            "\"{name}\": a boolean expected, not {}",
            kind(other)
        )),
    }
}

/// `MappingRuleCreator.getMappingRules` for one rule: `checkMandatoryParameters`,
/// `createMatcher`, `createAction`, `setFallbackToAction`, with YARN's messages.
fn build_rule(r: &RawRule) -> Result<MappingRule, String> {
    let Some(policy) = r.policy else {
        return Err("Rule policy is undefined".into());
    };
    let Some(rule_type) = r.rule_type else {
        return Err("Rule type is undefined".into());
    };
    let Some(matches) = r.matches.as_deref() else {
        return Err("Match string is undefined".into());
    };
    if matches.is_empty() {
        return Err("Match string is empty".into());
    }
    let matcher = match rule_type {
        RuleType::User if matches == "*" => Matcher::All,
        RuleType::User => Matcher::Variable {
            variable: CURRENT_USER.into(),
            value: matches.into(),
        },
        RuleType::Group if matches == "*" => return Err("Cannot match '*' for groups".into()),
        RuleType::Group => Matcher::Group(matches.into()),
        // No wildcard: "*" matches an application named "*"; "%application" matches all.
        RuleType::Application => Matcher::Variable {
            variable: CURRENT_APPLICATION.into(),
            value: matches.into(),
        },
    };
    let create = r.create.unwrap_or(true);
    // `parentQueue` is prefixed as written (no trimming, no check: an empty one gives a
    // path that starts with a dot, which the validation refuses).
    let under = |placeholder: &str| match &r.parent_queue {
        Some(p) => format!("{p}.{placeholder}"),
        None => placeholder.to_string(),
    };
    let place = |queue: String| Action::Place { queue, create };
    let action = match policy {
        // Never creates, whatever `create` says.
        Policy::DefaultQueue => Action::Place {
            queue: DEFAULT.into(),
            create: false,
        },
        Policy::Reject => Action::Reject,
        Policy::PrimaryGroup => place(under(PRIMARY_GROUP)),
        Policy::SecondaryGroup => place(under(SECONDARY_GROUP)),
        Policy::PrimaryGroupUser => place(under(&format!("{PRIMARY_GROUP}.{CURRENT_USER}"))),
        Policy::SecondaryGroupUser => place(under(&format!("{SECONDARY_GROUP}.{CURRENT_USER}"))),
        // `parentQueue` is ignored by these two.
        Policy::Specified => place(SPECIFIED.into()),
        Policy::Custom => match &r.custom_placement {
            Some(c) => place(c.clone()),
            None => return Err("custom queue is undefined".into()),
        },
        Policy::User => place(under(CURRENT_USER)),
        Policy::ApplicationName => place(under(CURRENT_APPLICATION)),
        Policy::SetDefaultQueue => match &r.value {
            Some(v) => Action::SetVariable {
                variable: DEFAULT.into(),
                value: v.clone(),
            },
            None => return Err("default queue is undefined".into()),
        },
    };
    Ok(MappingRule {
        matcher,
        action,
        // JSON's default is skip (the Java action's own default would be reject).
        fallback: r.fallback.unwrap_or(Fallback::Skip),
        policy: Some(policy),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(json: &str) -> Result<MappingRule, String> {
        parse_json_rules(json)
            .map(|mut r| r.remove(0))
            .map_err(|e| e[0].message.clone())
    }

    #[test]
    fn policies_make_yarns_queue_patterns() {
        let r = one(r#"{"rules":[{"type":"user","matches":"*","policy":"primaryGroupUser","parentQueue":"root.g"}]}"#).unwrap();
        assert_eq!(r.matcher, Matcher::All);
        assert_eq!(
            r.action,
            Action::Place {
                queue: "root.g.%primary_group.%user".into(),
                create: true
            }
        );
        assert_eq!(r.fallback, Fallback::Skip);
        let r = one(r#"{"rules":[{"type":"application","matches":"x","policy":"defaultQueue","create":true,"fallbackResult":"placeDefault"}]}"#).unwrap();
        assert_eq!(
            r.action,
            Action::Place {
                queue: "%default".into(),
                create: false
            }
        );
        assert_eq!(r.fallback, Fallback::PlaceDefault);
        // parentQueue is ignored by `specified`.
        let r = one(r#"{"rules":[{"type":"user","matches":"a","policy":"specified","parentQueue":"root.x","create":"false"}]}"#).unwrap();
        assert_eq!(
            r.action,
            Action::Place {
                queue: "%specified".into(),
                create: false
            }
        );
    }

    #[test]
    fn checks_come_in_yarns_order_with_its_words() {
        assert_eq!(
            one(r#"{"rules":[{}]}"#).unwrap_err(),
            "Rule policy is undefined"
        );
        assert_eq!(
            one(r#"{"rules":[{"policy":"user"}]}"#).unwrap_err(),
            "Rule type is undefined"
        );
        assert_eq!(
            one(r#"{"rules":[{"policy":"user","type":"user"}]}"#).unwrap_err(),
            "Match string is undefined"
        );
        assert_eq!(
            one(r#"{"rules":[{"policy":"user","type":"user","matches":""}]}"#).unwrap_err(),
            "Match string is empty"
        );
        assert_eq!(
            one(r#"{"rules":[{"policy":"user","type":"group","matches":"*"}]}"#).unwrap_err(),
            "Cannot match '*' for groups"
        );
        assert_eq!(
            one(r#"{"rules":[{"policy":"custom","type":"user","matches":"a"}]}"#).unwrap_err(),
            "custom queue is undefined"
        );
        assert_eq!(
            one(r#"{"rules":[{"policy":"setDefaultQueue","type":"user","matches":"a"}]}"#)
                .unwrap_err(),
            "default queue is undefined"
        );
    }

    #[test]
    fn jackson_leniency_is_kept() {
        // Unknown keys ignored, trailing text ignored, numbers taken as text.
        let r = parse_json_rules(
            r#"{"rules":[{"type":"user","matches":42,"policy":"user","polcy":"x"}],"x":1} trailing"#,
        )
        .unwrap();
        assert_eq!(
            r[0].matcher,
            Matcher::Variable {
                variable: "%user".into(),
                value: "42".into()
            }
        );
        assert_eq!(parse_json_rules("{}").unwrap(), vec![]);
        // Enumerations are exact.
        let e = parse_json_rules(r#"{"rules":[{"type":"User","matches":"a","policy":"user"}]}"#)
            .unwrap_err();
        assert_eq!(e[0].rule, None);
        assert!(e[0]
            .message
            .contains("'User' is not one of user, group, application"));
        assert!(parse_json_rules(r#"{"rules":null}"#).is_err());
        assert!(parse_json_rules(r#"[]"#).is_err());
        assert!(parse_json_rules("  ").is_err());
    }

    #[test]
    fn deep_or_odd_documents_are_errors_not_panics() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse_json_rules(&deep).is_err());
        let deep_field = format!(
            r#"{{"rules":[{{"type":"user","matches":"a","policy":"user","x":{}1{}}}]}}"#,
            "[".repeat(10_000),
            "]".repeat(10_000)
        );
        assert!(parse_json_rules(&deep_field).is_err());
        for odd in [
            "",
            "null",
            "1",
            r#"{"rules":[null]}"#,
            r#"{"rules":[1]}"#,
            r#"{"rules":{}}"#,
            r#"{"rules":[{"type":"user","matches":{},"policy":"user"}]}"#,
            r#"{"rules":[{"type":"user","matches":"a","policy":"user","create":"maybe"}]}"#,
            r#"{"rules":[{"type":"user","matches":"a","policy":"user","create":1.5}]}"#,
        ] {
            assert!(parse_json_rules(odd).is_err(), "{odd}");
        }
        let r = parse_json_rules(
            r#"{"rules":[{"type":"user","matches":"a","policy":"user","create":0}]}"#,
        )
        .unwrap();
        assert_eq!(
            r[0].action,
            Action::Place {
                queue: "%user".into(),
                create: false
            }
        );
    }

    #[test]
    fn every_broken_rule_is_reported() {
        let e = parse_json_rules(
            r#"{"rules":[{"type":"user"},{"type":"user","matches":"a","policy":"user"},{"policy":"reject"}]}"#,
        )
        .unwrap_err();
        assert_eq!(
            e,
            vec![
                RuleError {
                    rule: Some(1),
                    message: "Rule policy is undefined".into()
                },
                RuleError {
                    rule: Some(3),
                    message: "Rule type is undefined".into()
                }
            ]
        );
    }
}
