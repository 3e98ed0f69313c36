//! YARN 3.4's mapping-rule placement (`CSMappingPlacementRule.getPlacementForApp`), used when
//! `mapping-rule-format` is `json`: the rules top to bottom over one submission's variables;
//! a matching rule's target is checked against the live hierarchy (it must be a leaf that
//! exists, or one its parent may create when the rule allows creation) and, when it cannot be
//! used, the rule's fallback decides (skip, reject, or `%default`). The answer is a full queue
//! path; `submit_application` then creates it if it does not exist yet (docs/SEMANTICS.md,
//! "Queue placement", "JSON mapping rules").

use crate::config::placement::mapping_rule_validation::{
    classify, normalize_root, PathValidity, QueueLookup, QueuePath, IMMUTABLE_VARIABLES,
};
use crate::config::placement::mapping_rules::{
    Action, Fallback, MappingRule, Matcher, DEFAULT, ROOT_DEFAULT, SPECIFIED,
};
use crate::config::placement::{CURRENT_APPLICATION, CURRENT_USER, PRIMARY_GROUP, SECONDARY_GROUP};
use crate::config::QueueConf;
use crate::records::Rejection;
use crate::scheduler::apps::AppSubmission;
use crate::scheduler::placement::mapping_rule_variables::VariableContext;
use crate::scheduler::placement::{Placement, DEFAULT_APPLICATION_NAME, DEFAULT_QUEUE};
use crate::scheduler::CapacityScheduler;
use crate::state::queue::{QueueLookupError, QueueTree};

/// What the client is told when a rule rejects the submission, or its fallback to the default
/// queue fails: YARN leaves the reason out on purpose (it is only logged).
pub const REJECTED_BY_MAPPING_RULE: &str =
    "Application submission have been rejected by a mapping rule. Please see the logs for details";

/// What the rules see of a submission.
#[derive(Debug, Clone, Copy)]
pub struct Submitted<'a> {
    pub user: &'a str,
    /// The user's groups, first the primary; `None` when the group lookup failed (Hadoop's
    /// "No groups found"), which YARN logs and goes on without group variables.
    pub groups: Option<&'a [String]>,
    /// The queue the submission names (`default` when it names none).
    pub queue: &'a str,
    pub app_name: &'a str,
    /// A recovered application: the rules apply whatever queue it names, and their answer
    /// counts only if it is the leaf it ran in.
    pub recovering: bool,
}

/// A rule's result (`MappingRuleResult`) before its target is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleResult {
    Place { queue: String, create: bool },
    Reject,
    Skip,
    PlaceDefault,
}

/// Why a rule did not place, as YARN logs it; collected only when asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleNote {
    /// The submission named a queue other than `default`, with no override: the rules do not
    /// apply.
    NoJurisdiction,
    /// Rule `rule` (0-based) matched but its target cannot be used; its fallback applied.
    CannotPlace {
        rule: usize,
        reason: String,
        fallback: Fallback,
    },
    /// The fallback to `%default` failed: the submission is rejected.
    DefaultFailed { rule: usize, reason: String },
    /// Rule `rule` (or its fallback) rejected the submission.
    Rejected { rule: usize },
}

/// `_dot_` for every dot: user and group names become single path parts.
pub fn clean_name(name: &str) -> String {
    name.replace('.', "_dot_")
}

/// `createVariableContext`: the submission's variables, the group ones only when the lookup
/// worked and gave groups.
pub fn variable_context(s: &Submitted) -> VariableContext {
    let mut c = VariableContext::new();
    // The context is fresh, so no put below can fail.
    let put = |c: &mut VariableContext, k: &str, v: &str| {
        let _ = c.put(k, v);
    };
    let user = clean_name(s.user);
    if user != s.user {
        c.put_original(CURRENT_USER, s.user);
    }
    put(&mut c, CURRENT_USER, &user);
    // Only the literal `default` means "no queue named"; `root.default` is a queue named.
    let specified = if s.queue == DEFAULT_QUEUE {
        ""
    } else {
        s.queue
    };
    put(&mut c, SPECIFIED, specified);
    put(&mut c, CURRENT_APPLICATION, s.app_name);
    put(&mut c, DEFAULT, ROOT_DEFAULT);
    match s.groups {
        // Hadoop's `Groups` threw: logged, and no group variable nor dataset is set, so a
        // `%primary_group` in a path stays as written.
        None => {}
        Some([]) => c.put_groups(Vec::new()),
        Some(groups) => {
            // `getGroupsSet` is a set: a group listed twice counts once.
            let mut raw: Vec<String> = Vec::with_capacity(groups.len());
            for g in groups {
                if !raw.contains(g) {
                    raw.push(g.clone());
                }
            }
            let secondary: Vec<String> = raw[1..].iter().map(|g| clean_name(g)).collect();
            if secondary.is_empty() {
                put(&mut c, SECONDARY_GROUP, "");
            } else {
                c.put_secondary_group_candidates(secondary);
            }
            put(&mut c, PRIMARY_GROUP, &clean_name(&raw[0]));
            c.put_groups(raw);
        }
    }
    let _ = c.set_immutables(&IMMUTABLE_VARIABLES);
    c
}

/// `MappingRuleMatcher.match`.
pub fn matches(m: &Matcher, c: &VariableContext) -> bool {
    match m {
        Matcher::All => true,
        Matcher::Variable { variable, value } => {
            let substituted = c.replace_variables(value);
            match c.original(variable) {
                Some(original) => substituted == original,
                None => substituted == c.get(variable),
            }
        }
        Matcher::Group(group) => c
            .groups()
            .is_some_and(|gs| gs.contains(&c.replace_variables(group))),
    }
}

/// `MappingRule.evaluate`: skip when the matcher does not match, else the action's result. A
/// variable update fails only on an immutable variable (YARN's IllegalStateException), which
/// no JSON rule can name.
pub fn evaluate(
    rule: &MappingRule,
    c: &mut VariableContext,
    queues: &dyn QueueLookup,
) -> Result<RuleResult, String> {
    if !matches(&rule.matcher, c) {
        return Ok(RuleResult::Skip);
    }
    Ok(match &rule.action {
        Action::Place { queue, create } => RuleResult::Place {
            queue: c.replace_path_variables(queue, queues),
            create: *create,
        },
        Action::Reject => RuleResult::Reject,
        Action::SetVariable { variable, value } => {
            let value = c.replace_variables(value);
            c.put(variable, &value)?;
            RuleResult::Skip
        }
    })
}

/// The rule's fallback as a result.
pub fn fallback_result(rule: &MappingRule) -> RuleResult {
    match rule.fallback {
        Fallback::Skip => RuleResult::Skip,
        Fallback::Reject => RuleResult::Reject,
        Fallback::PlaceDefault => RuleResult::PlaceDefault,
    }
}

/// `validateAndNormalizeQueue`: the substituted target as a full path the application can go
/// to now, or YARN's reason why not. Only the first part is resolved as a short name
/// (`managed.bob` → `root.man.bob`); a target that does not exist is accepted only under a
/// parent that creates it, and only if the rule allows creation.
pub fn normalize_target(
    queues: &dyn QueueLookup,
    queue_name: &str,
    allow_create: bool,
) -> Result<String, String> {
    let path = QueuePath::new(queue_name);
    if path.has_empty_part() {
        return Err(format!("Invalid path returned by rule: '{queue_name}'"));
    }
    let normalized = match &path.parent {
        Some(parent) => {
            let leaf = &path.leaf;
            let normalized = normalize_root(queues, &format!("{parent}.{leaf}"))?;
            match classify(queues, &normalized) {
                PathValidity::AmbiguousParent => {
                    return Err(format!(
                        "Mapping rule specified a parent queue '{parent}', but it is ambiguous."
                    ))
                }
                PathValidity::AmbiguousQueue => {
                    return Err(format!(
                        "Mapping rule specified a target queue '{normalized}', but it is ambiguous."
                    ))
                }
                PathValidity::EmptyPath => {
                    return Err("Mapping rule did not specify a target queue.".into())
                }
                PathValidity::NoParentProvided => {
                    return Err("Mapping rule did not specify an existing queue nor a dynamic parent queue.".into())
                }
                PathValidity::NoDynamicParent => {
                    return Err(format!(
                        "Mapping rule specified a parent queue '{parent}', but it is not a dynamic parent queue, and no queue exists with name '{leaf}' under it."
                    ))
                }
                PathValidity::Creatable if !allow_create => {
                    return Err(format!(
                        "Mapping rule doesn't allow auto-creation of the queue '{normalized}'."
                    ))
                }
                PathValidity::Creatable | PathValidity::QueueExists => normalized,
            }
        }
        None => match queues.queue(&path.leaf) {
            Some(q) => q.path.clone(),
            None if queues.is_ambiguous(&path.leaf) => {
                return Err(format!(
                    "Queue '{}' specified in mapping rule is ambiguous",
                    path.leaf
                ))
            }
            None => {
                return Err(format!(
                    "Queue '{}' specified in mapping rule does not exist.",
                    path.leaf
                ))
            }
        },
    };
    // `getQueueByFullName`: a parent (root, a managed parent, a group's queue) takes no
    // application.
    if full_name_is_parent(queues, &normalized) {
        return Err(format!(
            "Mapping rule returned a non-leaf queue '{normalized}', cannot place application in it."
        ));
    }
    Ok(normalized)
}

/// Whether `path`, taken as a full path only, is a queue that is not a leaf.
fn full_name_is_parent(queues: &dyn QueueLookup, path: &str) -> bool {
    queues
        .queue(path)
        .is_some_and(|q: &QueueConf| q.path == path && !q.is_leaf())
}

/// `getPlacementForApp`: the full path the rules place the submission in, `None` when no rule
/// places it (it goes to the queue it names), or the rejection the client sees.
pub fn place(
    rules: &[MappingRule],
    override_mappings: bool,
    queues: &dyn QueueLookup,
    s: &Submitted,
    mut notes: Option<&mut Vec<RuleNote>>,
) -> Result<Option<String>, String> {
    let mut note = |n: RuleNote| {
        if let Some(v) = notes.as_deref_mut() {
            v.push(n);
        }
    };
    if s.queue != DEFAULT_QUEUE && !override_mappings && !s.recovering {
        note(RuleNote::NoJurisdiction);
        return Ok(None);
    }
    let mut c = variable_context(s);
    let mut placed = None;
    for (i, rule) in rules.iter().enumerate() {
        let mut result = evaluate(rule, &mut c, queues)?;
        if let RuleResult::Place { queue, create } = &result {
            match normalize_target(queues, queue, *create) {
                Ok(full) => {
                    placed = Some(full);
                    break;
                }
                Err(reason) => {
                    note(RuleNote::CannotPlace {
                        rule: i,
                        reason,
                        fallback: rule.fallback,
                    });
                    // The rule's create flag does not carry into its fallback.
                    result = fallback_result(rule);
                }
            }
        }
        match result {
            RuleResult::PlaceDefault => {
                let default = c.replace_path_variables(DEFAULT, queues);
                match normalize_target(queues, &default, false) {
                    Ok(full) => {
                        placed = Some(full);
                        break;
                    }
                    Err(reason) => {
                        note(RuleNote::DefaultFailed { rule: i, reason });
                        return Err(REJECTED_BY_MAPPING_RULE.into());
                    }
                }
            }
            RuleResult::Reject => {
                note(RuleNote::Rejected { rule: i });
                return Err(REJECTED_BY_MAPPING_RULE.into());
            }
            RuleResult::Skip | RuleResult::Place { .. } => {}
        }
    }
    // A recovered application keeps its queue: the answer counts only when its leaf is the
    // queue the application names.
    if s.recovering
        && placed
            .as_deref()
            .is_some_and(|p| QueuePath::new(p).leaf != s.queue)
    {
        return Ok(None);
    }
    Ok(placed)
}

/// `createPlacementContext`: the full path split at its last dot, both sides trimmed.
pub fn placement_of(full: &str) -> Placement {
    let path = QueuePath::new(full);
    Placement {
        queue: path.leaf,
        parent: path.parent,
        full_path: true,
    }
}

impl QueueLookup for QueueTree {
    fn queue(&self, name: &str) -> Option<&QueueConf> {
        self.find(name).ok().map(|q| self.conf(q))
    }

    fn is_ambiguous(&self, name: &str) -> bool {
        matches!(self.find(name), Err(QueueLookupError::Ambiguous(_)))
    }
}

impl CapacityScheduler {
    /// The JSON rules over `sub` against the live hierarchy (groups as Hadoop's `Groups`
    /// gives them: the static table for a user it lists).
    pub(crate) fn place_by_mapping_rules(
        &self,
        rules: &[MappingRule],
        sub: &AppSubmission,
    ) -> Result<Option<Placement>, Rejection> {
        let s = Submitted {
            user: &sub.user,
            groups: self.looked_up_groups(sub),
            queue: &sub.queue,
            app_name: sub.app_name.as_deref().unwrap_or(DEFAULT_APPLICATION_NAME),
            recovering: sub.recovering,
        };
        let override_mappings = self.configuration().placement().override_mappings;
        match place(rules, override_mappings, &self.tree, &s, None) {
            Ok(placed) => Ok(placed.as_deref().map(placement_of)),
            Err(message) => Err(Rejection { message }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_dots_are_cleaned() {
        assert_eq!(clean_name("test.user"), "test_dot_user");
        let groups = vec!["main.grp".to_string(), "a".into(), "a".into()];
        let s = Submitted {
            user: "test.user",
            groups: Some(&groups),
            queue: "default",
            app_name: "N/A",
            recovering: false,
        };
        let c = variable_context(&s);
        assert_eq!(c.get("%user"), "test_dot_user");
        assert_eq!(c.original("%user"), Some("test.user"));
        assert_eq!(c.get("%primary_group"), "main_dot_grp");
        assert_eq!(c.get("%specified"), "");
        assert_eq!(c.groups().map(<[String]>::len), Some(2));
        let c = variable_context(&Submitted {
            groups: None,
            queue: "root.default",
            ..s
        });
        assert_eq!(c.get("%specified"), "root.default");
        assert!(c.groups().is_none());
    }
}
