//! Queue placement as YARN 3.3's CapacityScheduler configures it: the rules named by
//! `yarn.scheduler.queue-placement-rules` (`user-group`, `app-name`), the user and group
//! mappings of `yarn.scheduler.capacity.queue-mappings`, the application-name mappings of
//! `yarn.scheduler.queue-placement-rules.app-name`, and
//! `yarn.scheduler.capacity.queue-mappings-override.enable`. Parsed as
//! `CapacitySchedulerConfiguration.getQueueMappings`/`getQueueMappingEntity` parse them, and
//! checked against the hierarchy as the rules' `initialize` checks them (a bad mapping fails the
//! configuration, as it fails YARN's scheduler start or refresh). Placement itself is
//! `scheduler::placement`. `mapping-rule-format=json` (YARN 3.4) replaces all of it with the
//! JSON mapping rules of `mapping_rules`, read here and checked against the hierarchy with
//! `mapping_rule_validation`. The top of the folder.

use super::mapping_rule_validation::{validate_rules, QueueIndex};
use super::mapping_rules::{read_json_rules, rule_format, JsonSource, MappingRules, RuleFormat};
use super::variables::{CURRENT_USER, PRIMARY_GROUP, SECONDARY_GROUP};
use crate::config::error::ConfigError;
use crate::config::hadoop::Configuration;
use crate::config::queue_conf::QueueConf;

pub const QUEUE_MAPPINGS: &str = "yarn.scheduler.capacity.queue-mappings";
pub const QUEUE_MAPPINGS_OVERRIDE: &str = "yarn.scheduler.capacity.queue-mappings-override.enable";
pub const QUEUE_PLACEMENT_RULES: &str = "yarn.scheduler.queue-placement-rules";
pub const APP_NAME_MAPPINGS: &str = "yarn.scheduler.queue-placement-rules.app-name";
/// Hadoop's static user-to-groups table, which its `Groups` service answers before any group
/// mapping: `user=group1,group2;user2=;…`.
pub const STATIC_GROUPS: &str = "hadoop.user.group.static.mapping.overrides";

/// Which of a mapping's forms: `u:`, `g:`, or an application-name mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MappingKind {
    User,
    Group,
    Application,
}

/// One mapping: `source` to the queue `parent.queue` (YARN's `QueueMapping`: the target split
/// at its last dot).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueMapping {
    pub kind: MappingKind,
    pub source: String,
    pub parent: Option<String>,
    pub queue: String,
}

impl QueueMapping {
    /// `parent.queue`, or `queue` alone.
    pub fn full_path(&self) -> String {
        match &self.parent {
            Some(p) => format!("{p}.{}", self.queue),
            None => self.queue.clone(),
        }
    }

    /// Names no `%user`/`%primary_group`/`%secondary_group` in its target
    /// (`QueuePlacementRuleUtils.isStaticQueueMapping`).
    fn is_static(&self) -> bool {
        ![CURRENT_USER, PRIMARY_GROUP, SECONDARY_GROUP]
            .iter()
            .any(|m| self.queue.contains(m))
    }
}

/// A rule of `yarn.scheduler.queue-placement-rules`, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlacementRuleKind {
    UserGroup,
    AppName,
}

/// The placement rules in force. A rule with no mappings is not installed (YARN's
/// `initialize` returns false for it), so an empty `rules` means submissions go to the queue
/// they name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlacementSettings {
    pub rules: Vec<PlacementRuleKind>,
    pub user_group: Vec<QueueMapping>,
    pub app_name: Vec<QueueMapping>,
    /// `queue-mappings-override.enable`: a mapping wins over a queue the submission names
    /// (otherwise only over `default`, or a queue equal to the mapped one).
    pub override_mappings: bool,
    /// `hadoop.user.group.static.mapping.overrides`: these users' groups, whatever the host
    /// says (Hadoop's `Groups` gives them precedence over its mapping service).
    pub static_groups: Vec<(String, Vec<String>)>,
    /// `mapping-rule-format=json`: YARN 3.4's mapping rules, one engine in place of both
    /// rules above (`rules` and the mappings stay empty; docs/SEMANTICS.md, "JSON mapping
    /// rules").
    pub mapping_rules: Option<MappingRules>,
}

impl PlacementSettings {
    /// A user's groups from the static table, if it lists the user.
    pub fn static_groups_of(&self, user: &str) -> Option<&[String]> {
        self.static_groups
            .iter()
            .find(|(u, _)| u == user)
            .map(|(_, g)| g.as_slice())
    }
}

/// `Groups.parseStaticMapping`: `;`-separated `user=groups` entries (tokenised, not trimmed;
/// Hadoop's default `dr.who=;`), each user with none or a comma-separated list.
fn read_static_groups(conf: &Configuration) -> Result<Vec<(String, Vec<String>)>, ConfigError> {
    let value = conf
        .get(STATIC_GROUPS)
        .unwrap_or_else(|| "dr.who=;".to_string());
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for entry in value.split(';').filter(|t| !t.is_empty()) {
        let parts: Vec<&str> = entry.split('=').filter(|t| !t.is_empty()).collect();
        if parts.is_empty() || parts.len() > 2 {
            return Err(
                ConfigError::new(format!("Configuration {STATIC_GROUPS} is invalid"))
                    .with_key(STATIC_GROUPS),
            );
        }
        let groups = parts
            .get(1)
            .map(|g| {
                g.split(',')
                    .filter(|t| !t.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        // A later entry for the same user replaces the earlier (Hadoop's map).
        out.retain(|(u, _)| u != parts[0]);
        out.push((parts[0].to_string(), groups));
    }
    Ok(out)
}

/// `StringUtils.getTrimmedStringCollection(value)`: split on commas and newlines, trimmed,
/// empty values and repeats dropped, order kept.
fn trimmed_collection(conf: &Configuration, key: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in conf.get_trimmed_strings(key) {
        if !v.is_empty() && !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// `StringUtils.getTrimmedStringCollection(value, ":")`: `StringTokenizer` on ':' (empty
/// tokens skipped), each trimmed, blank ones skipped.
fn colon_fields(value: &str) -> Vec<&str> {
    value
        .split(':')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// `QueueMappingBuilder.parsePathString`: the target split at its last dot.
fn split_target(target: &str) -> (Option<String>, String) {
    match target.rfind('.') {
        Some(i) => (
            Some(target[..i].trim().to_string()),
            target[i + 1..].trim().to_string(),
        ),
        None => (None, target.to_string()),
    }
}

/// The JSON rules in force: `rules_read` when this configuration already read them (it is
/// being built again with the queues the scheduler created), else read now and checked against
/// `queues` as `CSMappingPlacementRule.initialize` checks them — every failing rule reported.
pub(crate) fn read_checked_json_rules(
    conf: &Configuration,
    queues: &[QueueConf],
    rules_read: Option<&MappingRules>,
) -> (MappingRules, Vec<ConfigError>) {
    if let Some(rules) = rules_read {
        return (rules.clone(), Vec::new());
    }
    let rules = match read_json_rules(conf) {
        Ok(rules) => rules,
        Err(errors) => {
            let none = MappingRules {
                rules: Vec::new(),
                source: JsonSource::None,
            };
            return (none, errors);
        }
    };
    let index = QueueIndex::new(queues);
    let errors = validate_rules(&index, &rules.rules)
        .into_iter()
        .map(|(n, message)| {
            ConfigError::new(format!(
                "Error initializing queue mappings, rule {n} has encountered a validation error: {message}"
            ))
            .with_key(rules.key())
        })
        .collect();
    (rules, errors)
}

/// The mappings and rules, parsed and checked against `queues`; every problem is reported,
/// each with YARN's words and the key to fix. `rules_read`: JSON mapping rules already read
/// from this configuration (taken as they are).
pub(crate) fn read_placement(
    conf: &Configuration,
    queues: &[QueueConf],
    rules_read: Option<&MappingRules>,
) -> (PlacementSettings, Vec<ConfigError>) {
    let mut errors = Vec::new();
    let mut p = PlacementSettings {
        override_mappings: conf.get_boolean(QUEUE_MAPPINGS_OVERRIDE, false),
        ..Default::default()
    };
    match read_static_groups(conf) {
        Ok(g) => p.static_groups = g,
        Err(e) => errors.push(e),
    }
    // CapacityScheduler.updatePlacementRules: the rules in order, `user-group` when none is
    // named; names are taken as given (getStringCollection does not trim). Each rule reads
    // and checks its mappings when it is installed, so a rule not named is not read.
    let mut names: Vec<String> = Vec::new();
    let listed = conf
        .get(QUEUE_PLACEMENT_RULES)
        .map(|v| {
            v.split(',')
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    for name in listed {
        if names.contains(&name) {
            errors.push(
                ConfigError::new(
                    "Invalid PlacementRule inputs which contains duplicate rule strings",
                )
                .with_key(QUEUE_PLACEMENT_RULES),
            );
            continue;
        }
        names.push(name);
    }
    if names.is_empty() {
        names.push("user-group".into());
    }
    // YARN 3.4's `mapping-rule-format`: with `json` (or a format it refuses), `user-group` and
    // `app-name` name one engine over the JSON rules and the legacy keys are not read; 3.3's
    // rule classes no longer exist there.
    let format = rule_format(conf);
    if format != Ok(RuleFormat::Legacy) {
        for name in names
            .iter()
            .filter(|n| !MAPPING_RULE_ENGINE_NAMES.contains(&n.as_str()))
        {
            errors.push(unknown_rule(name));
        }
        match format {
            Ok(_) => {
                let (rules, e) = read_checked_json_rules(conf, queues, rules_read);
                errors.extend(e);
                p.mapping_rules = Some(rules);
            }
            Err(e) => errors.push(e),
        }
        return (p, errors);
    }
    for name in names {
        let (kind, key, mappings) = match name.as_str() {
            // The rules' class names load the same rules (PlacementFactory).
            "user-group" | "org.apache.hadoop.yarn.server.resourcemanager.placement.UserGroupMappingPlacementRule" => (
                PlacementRuleKind::UserGroup,
                QUEUE_MAPPINGS,
                user_group_mappings(conf, &mut errors),
            ),
            "app-name" | "org.apache.hadoop.yarn.server.resourcemanager.placement.AppNameMappingPlacementRule" => (
                PlacementRuleKind::AppName,
                APP_NAME_MAPPINGS,
                app_name_mappings(conf, &mut errors),
            ),
            other => {
                errors.push(unknown_rule(other));
                continue;
            }
        };
        for m in &mappings {
            if let Err(message) = check_mapping(m, queues) {
                errors.push(ConfigError::new(message).with_key(key));
            }
        }
        // A rule with no mappings is not installed (its initialize returns false); a rule
        // named twice (by its name and its class) is one rule.
        if !mappings.is_empty() && !p.rules.contains(&kind) {
            p.rules.push(kind);
            match kind {
                PlacementRuleKind::UserGroup => p.user_group = mappings,
                PlacementRuleKind::AppName => p.app_name = mappings,
            }
        }
    }
    (p, errors)
}

/// The names of `queue-placement-rules` that mean YARN 3.4's mapping-rule engine.
const MAPPING_RULE_ENGINE_NAMES: [&str; 3] = [
    "user-group",
    "app-name",
    "org.apache.hadoop.yarn.server.resourcemanager.placement.CSMappingPlacementRule",
];

/// YARN loads any other rule name as a PlacementRule class; capsched has none.
fn unknown_rule(name: &str) -> ConfigError {
    ConfigError::new(format!(
        "java.lang.ClassNotFoundException: {name} (capsched's placement rules are user-group and \
         app-name)"
    ))
    .with_key(QUEUE_PLACEMENT_RULES)
}

/// `CapacitySchedulerConfiguration.getQueueMappings`: `u:` or `g:`, a source, a target.
fn user_group_mappings(conf: &Configuration, errors: &mut Vec<ConfigError>) -> Vec<QueueMapping> {
    let mut out = Vec::new();
    for value in trimmed_collection(conf, QUEUE_MAPPINGS) {
        let f = colon_fields(&value);
        let kind = match f.first() {
            Some(&"u") => Some(MappingKind::User),
            Some(&"g") => Some(MappingKind::Group),
            _ => None,
        };
        match (f.len(), kind) {
            (3, Some(kind)) => {
                let (parent, queue) = split_target(f[2]);
                out.push(QueueMapping {
                    kind,
                    source: f[1].to_string(),
                    parent,
                    queue,
                });
            }
            _ => errors.push(
                ConfigError::new(format!("Illegal queue mapping {value}")).with_key(QUEUE_MAPPINGS),
            ),
        }
    }
    out
}

/// `getQueueMappingEntity("app-name")`: an application name (or `%application`), a target.
fn app_name_mappings(conf: &Configuration, errors: &mut Vec<ConfigError>) -> Vec<QueueMapping> {
    let mut out = Vec::new();
    for value in trimmed_collection(conf, APP_NAME_MAPPINGS) {
        let f = colon_fields(&value);
        if f.len() != 2 {
            errors.push(
                ConfigError::new(format!("Illegal queue mapping {value}"))
                    .with_key(APP_NAME_MAPPINGS),
            );
            continue;
        }
        let (parent, queue) = split_target(f[1]);
        out.push(QueueMapping {
            kind: MappingKind::Application,
            source: f[0].to_string(),
            parent,
            queue,
        });
    }
    out
}

/// YARN 3.4's `validateQueuePathAutoCreation` for a parent that does not exist: its own parent
/// exists and may create children, so both levels can be made.
pub(crate) fn creatable_under_missing_parent(queues: &[QueueConf], parent: &str) -> bool {
    parent.rsplit_once('.').is_some_and(
        |(grand, _)| matches!(lookup(queues, grand), Lookup::Found(g) if g.flexible.is_some()),
    )
}

/// How the hierarchy answers `CapacitySchedulerQueueManager.getQueue(name)`: by full path, or
/// by a short name no other queue has.
pub(crate) enum Lookup<'a> {
    Found(&'a QueueConf),
    Ambiguous,
    Missing,
}

pub(crate) fn lookup<'a>(queues: &'a [QueueConf], name: &str) -> Lookup<'a> {
    if let Some(q) = queues.iter().find(|q| q.path == name) {
        return Lookup::Found(q);
    }
    let mut named = queues.iter().filter(|q| q.name == name);
    match (named.next(), named.next()) {
        (Some(q), None) => Lookup::Found(q),
        (Some(_), Some(_)) => Lookup::Ambiguous,
        _ => Lookup::Missing,
    }
}

/// The rules' `initialize` check of one mapping. A static target must be a leaf that exists,
/// or be named under a managed parent (which creates it); a dynamic target under a named
/// parent needs a managed parent too. Dynamic targets under groups, or with no parent, are
/// checked at submission.
fn check_mapping(m: &QueueMapping, queues: &[QueueConf]) -> Result<(), String> {
    // Only the user-group rule takes a group as the parent; the app-name rule (through
    // QueuePlacementRuleUtils) checks any parent as a real one, and names the full target
    // where the user-group rule names the leaf.
    let dynamic_parent = m.kind != MappingKind::Application
        && matches!(m.parent.as_deref(), Some(PRIMARY_GROUP | SECONDARY_GROUP));
    let named = if m.kind == MappingKind::Application {
        m.full_path()
    } else {
        m.queue.clone()
    };
    let under_parent = || -> Result<(), String> {
        let leaf = named.as_str();
        // validateAndGetAutoCreatedQueueMapping → validateQueueMappingUnderParentQueue.
        let parent = m.parent.as_deref().expect("a parent");
        match lookup(queues, parent) {
            Lookup::Found(q) if q.managed.is_some() || q.flexible.is_some() => Ok(()),
            // YARN 3.4: one missing parent under a parent that creates children.
            Lookup::Missing if creatable_under_missing_parent(queues, parent) => Ok(()),
            Lookup::Found(_) => Err(format!(
                "mapping contains leaf queue [{leaf}] and invalid parent queue which does not have \
                 auto creation of leaf queues enabled [{parent}]"
            )),
            _ => Err(format!(
                "mapping contains invalid or non-leaf queue [{leaf}] and invalid parent queue [{parent}]"
            )),
        }
    };
    if m.is_static() {
        match lookup(queues, &m.full_path()) {
            // An auto-created leaf is reached only through its managed parent.
            Lookup::Found(q) if q.auto_created => match m.parent.as_deref() {
                Some(_) if !dynamic_parent => under_parent(),
                _ => Err(format!(
                    "mapping contains invalid or non-leaf queue {}",
                    m.full_path()
                )),
            },
            Lookup::Found(q) if q.is_leaf() => Ok(()),
            Lookup::Found(_) => Err(format!(
                "mapping contains invalid or non-leaf queue : {}",
                m.full_path()
            )),
            Lookup::Ambiguous => Err(format!(
                "mapping contains ambiguous leaf queue reference {}",
                m.full_path()
            )),
            Lookup::Missing if m.parent.is_some() && !dynamic_parent => under_parent(),
            Lookup::Missing if dynamic_parent => Ok(()),
            Lookup::Missing => Err(format!(
                "mapping contains invalid or non-leaf queue {}",
                m.queue
            )),
        }
    } else if m.parent.is_some() && !dynamic_parent {
        under_parent()
    } else {
        Ok(())
    }
}
