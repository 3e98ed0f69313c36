//! Queue paths of the JSON mapping rules against a hierarchy, as YARN 3.4 checks them: the
//! rules' check when the scheduler starts or refreshes (`MappingRuleValidationContextImpl`,
//! which refuses the configuration), and the helpers the placement itself shares with it
//! (`MappingRuleValidationHelper`: a path's first part resolved as a queue, and whether the
//! target exists or may be created). Java's `String.split` and `QueuePath` quirks are kept,
//! since they decide which paths pass.

use std::collections::HashMap;

use super::mapping_rules::{Action, MappingRule, DEFAULT, SPECIFIED};
use super::variables::{CURRENT_APPLICATION, CURRENT_USER, PRIMARY_GROUP, SECONDARY_GROUP};
use crate::config::QueueConf;

/// The variables the placement sets and no rule may change (`CSMappingPlacementRule`).
pub const IMMUTABLE_VARIABLES: [&str; 5] = [
    CURRENT_USER,
    PRIMARY_GROUP,
    SECONDARY_GROUP,
    CURRENT_APPLICATION,
    SPECIFIED,
];

/// How the scheduler's queue manager answers for a name: `getQueue` (a full path, or a short
/// name only one queue has; root is found by its path) and `isAmbiguous` (a short name more
/// than one queue has).
pub trait QueueLookup {
    fn queue(&self, name: &str) -> Option<&QueueConf>;
    fn is_ambiguous(&self, name: &str) -> bool;
}

/// A hierarchy's queues indexed by path and short name, for checks made before any scheduler
/// exists (the configuration being read).
pub struct QueueIndex<'a> {
    queues: &'a [QueueConf],
    by_path: HashMap<&'a str, usize>,
    by_name: HashMap<&'a str, Vec<usize>>,
}

impl<'a> QueueIndex<'a> {
    pub fn new(queues: &'a [QueueConf]) -> Self {
        let mut by_path = HashMap::with_capacity(queues.len());
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::with_capacity(queues.len());
        for (i, q) in queues.iter().enumerate() {
            by_path.insert(q.path.as_str(), i);
            by_name.entry(q.name.as_str()).or_default().push(i);
        }
        QueueIndex {
            queues,
            by_path,
            by_name,
        }
    }
}

impl QueueLookup for QueueIndex<'_> {
    fn queue(&self, name: &str) -> Option<&QueueConf> {
        if let Some(&i) = self.by_path.get(name) {
            return self.queues.get(i);
        }
        match self.by_name.get(name).map(Vec::as_slice) {
            Some([i]) => self.queues.get(*i),
            _ => None,
        }
    }

    fn is_ambiguous(&self, name: &str) -> bool {
        !self.by_path.contains_key(name) && self.by_name.get(name).is_some_and(|v| v.len() > 1)
    }
}

/// A parent that creates children under the flexible (v2) rules: a static parent with
/// `auto-queue-creation-v2.enabled`, or a dynamic parent (`isEligibleForAutoQueueCreation`).
pub fn is_v2_parent(q: &QueueConf) -> bool {
    q.flexible.is_some()
}

/// A parent a mapping rule may create a leaf under: a managed parent (YARN 3.3's
/// auto-creation) or a v2 parent.
pub fn creates_children(q: &QueueConf) -> bool {
    q.managed.is_some() || is_v2_parent(q)
}

/// Java's `s.split("\\.")`: trailing empty parts dropped, so `""` is `[""]` but `"."` is `[]`.
pub fn java_split(s: &str) -> Vec<&str> {
    if s.is_empty() {
        return vec![""];
    }
    let mut parts: Vec<&str> = s.split('.').collect();
    while parts.last() == Some(&"") {
        parts.pop();
    }
    parts
}

/// YARN's `QueuePath(fullPath)`: split at the last dot, both sides trimmed (a path with no dot
/// is a leaf alone, untrimmed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuePath {
    pub parent: Option<String>,
    pub leaf: String,
}

impl QueuePath {
    pub fn new(full: &str) -> Self {
        match full.rfind('.') {
            Some(i) => QueuePath {
                parent: Some(crate::config::hadoop::java::java_trim(&full[..i]).to_string()),
                leaf: crate::config::hadoop::java::java_trim(&full[i + 1..]).to_string(),
            },
            None => QueuePath {
                parent: None,
                leaf: full.to_string(),
            },
        }
    }

    pub fn full_path(&self) -> String {
        match &self.parent {
            Some(p) => format!("{p}.{}", self.leaf),
            None => self.leaf.clone(),
        }
    }

    /// An empty leaf, or an empty part anywhere in the path.
    pub fn has_empty_part(&self) -> bool {
        self.leaf.is_empty() || java_split(&self.full_path()).contains(&"")
    }
}

/// `normalizeQueuePathRoot`: the path's first part resolved as a queue and replaced by that
/// queue's full path; the other parts are kept as written.
pub fn normalize_root(queues: &dyn QueueLookup, full_path: &str) -> Result<String, String> {
    let mut parts = java_split(full_path);
    let Some(&root) = parts.first() else {
        // Java's ArrayList.get(0) on "." (which split makes empty): an unchecked exception.
        return Err(
            "java.lang.IndexOutOfBoundsException: Index 0 out of bounds for length 0".into(),
        );
    };
    let Some(q) = queues.queue(root) else {
        return Err(if queues.is_ambiguous(root) {
            format!("Path root '{root}' is ambiguous. Path '{full_path}' is invalid")
        } else {
            format!("Path root '{root}' does not exist. Path '{full_path}' is invalid")
        });
    };
    parts[0] = &q.path;
    Ok(parts.join("."))
}

/// `MappingRuleValidationHelper.ValidationResult`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathValidity {
    EmptyPath,
    QueueExists,
    AmbiguousQueue,
    AmbiguousParent,
    NoParentProvided,
    NoDynamicParent,
    Creatable,
}

/// `validateQueuePathAutoCreation` on a normalised path: the target exists, or its parent (a
/// managed or v2 parent) may create it, or its parent is missing and its grandparent is a v2
/// parent that may create both.
pub fn classify(queues: &dyn QueueLookup, path: &str) -> PathValidity {
    if path.is_empty() {
        return PathValidity::EmptyPath;
    }
    if queues.queue(path).is_some() {
        return PathValidity::QueueExists;
    }
    if queues.is_ambiguous(path) {
        return PathValidity::AmbiguousQueue;
    }
    let mut parts = java_split(path);
    parts.pop();
    let parent = parts.join(".");
    parts.pop();
    let grandparent = parts.join(".");
    if parent.is_empty() {
        return PathValidity::NoParentProvided;
    }
    if queues.is_ambiguous(&parent) {
        return PathValidity::AmbiguousParent;
    }
    let Some(pq) = queues.queue(&parent) else {
        if grandparent.is_empty() {
            return PathValidity::NoParentProvided;
        }
        if queues.is_ambiguous(&grandparent) {
            return PathValidity::AmbiguousParent;
        }
        // A managed parent is no AbstractParentQueue here (YARN-11079): it only ever makes
        // its own leaves.
        return match queues.queue(&grandparent) {
            Some(g) if is_v2_parent(g) => PathValidity::Creatable,
            _ => PathValidity::NoDynamicParent,
        };
    };
    if creates_children(pq) {
        PathValidity::Creatable
    } else {
        PathValidity::NoDynamicParent
    }
}

/// `MappingRuleValidationContextImpl`: the variables known so far (a path part that is one of
/// them makes the path dynamic) and the queues to check static parts against.
pub struct ValidationContext<'a> {
    queues: &'a dyn QueueLookup,
    known: Vec<String>,
    immutable: Vec<String>,
}

impl<'a> ValidationContext<'a> {
    /// A context with no variables.
    pub fn new(queues: &'a dyn QueueLookup) -> Self {
        ValidationContext {
            queues,
            known: Vec::new(),
            immutable: Vec::new(),
        }
    }

    /// The placement's context (`buildValidationContext`): the immutable variables, then
    /// `%default`.
    pub fn for_placement(queues: &'a dyn QueueLookup) -> Self {
        let mut ctx = Self::new(queues);
        for v in IMMUTABLE_VARIABLES {
            ctx.known.push(v.to_string());
            ctx.immutable.push(v.to_string());
        }
        ctx.known.push(DEFAULT.to_string());
        ctx
    }

    /// The variables known so far, each once.
    pub fn known_variables(&self) -> &[String] {
        &self.known
    }

    pub fn add_variable(&mut self, variable: &str) -> Result<(), String> {
        if self.immutable.iter().any(|v| v == variable) {
            return Err(format!(
                "Variable '{variable}' is immutable cannot add to the modified variable list."
            ));
        }
        if !self.known.iter().any(|v| v == variable) {
            self.known.push(variable.to_string());
        }
        Ok(())
    }

    pub fn add_immutable_variable(&mut self, variable: &str) -> Result<(), String> {
        let known = self.known.iter().any(|v| v == variable);
        let immutable = self.immutable.iter().any(|v| v == variable);
        if known && !immutable {
            return Err(format!(
                "Variable '{variable}' already added as a mutable variable cannot set it to immutable."
            ));
        }
        if !known {
            self.known.push(variable.to_string());
        }
        if !immutable {
            self.immutable.push(variable.to_string());
        }
        Ok(())
    }

    /// No part of the path is exactly a known variable. The walk stops at the first dynamic
    /// part, so an empty part after it (`%user..x`) passes here.
    pub fn is_path_static(&self, path: &str) -> Result<bool, String> {
        for part in java_split(path) {
            if part.is_empty() {
                return Err(format!("Path segment cannot be empty '{path}'."));
            }
            if self.known.iter().any(|v| v == part) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `validateQueuePath`: whether the path can name a queue to place in, for some values of
    /// its variables.
    pub fn validate_queue_path(&self, queue_path: &str) -> Result<(), String> {
        if queue_path.is_empty() {
            return Err("Queue path is empty.".into());
        }
        let path = QueuePath::new(queue_path);
        if self.is_path_static(queue_path)? {
            self.validate_static(&path)
        } else {
            self.validate_dynamic(&path)
        }
    }

    /// A path with no variables: its target must exist as a leaf or be creatable (the rule's
    /// `create` flag is not consulted here).
    fn validate_static(&self, path: &QueuePath) -> Result<(), String> {
        let full = path.full_path();
        let parent = path.parent.as_deref().unwrap_or("null");
        let normalized = normalize_root(self.queues, &full)?;
        match classify(self.queues, &normalized) {
            PathValidity::AmbiguousParent => Err(format!(
                "Target queue path '{full}' contains an ambiguous parent queue '{parent}' reference."
            )),
            PathValidity::AmbiguousQueue => {
                Err(format!("Target queue is an ambiguous leaf queue '{full}'."))
            }
            PathValidity::EmptyPath => Err("Mapping rule did not specify a target queue.".into()),
            PathValidity::NoParentProvided => Err(format!(
                "Target queue does not exist and has no parent defined '{full}'."
            )),
            PathValidity::NoDynamicParent => Err(format!(
                "Mapping rule specified a parent queue '{parent}', but it is not a dynamic parent queue, and no queue exists with name '{}' under it.",
                path.leaf
            )),
            PathValidity::QueueExists => match self.queues.queue(&normalized) {
                Some(q) if q.is_leaf() => Ok(()),
                _ => Err(format!("Target queue '{full}' but it's not a leaf queue.")),
            },
            PathValidity::Creatable => Ok(()),
        }
    }

    /// A path with variables: only its leading static parts can be checked. They must name a
    /// parent (not a leaf), or a queue a parent that creates children could make.
    fn validate_dynamic(&self, path: &QueuePath) -> Result<(), String> {
        let full = path.full_path();
        let parts = java_split(&full);
        let Some((first, rest)) = parts.split_first() else {
            return Err(format!("Empty queue path provided '{full}'"));
        };
        if !self.is_path_static(first)? {
            return Ok(());
        }
        let mut static_part = first.to_string();
        let mut static_parent: Option<String> = None;
        for next in rest {
            if !self.is_path_static(next)? {
                break;
            }
            static_parent = Some(static_part.clone());
            static_part = format!("{static_part}.{next}");
        }
        let normalized = normalize_root(self.queues, &static_part)?;
        if let Some(q) = self.queues.queue(&normalized) {
            if q.is_leaf() {
                return Err(format!(
                    "Queue path '{full}' is invalid because '{normalized}' is a leaf queue, which can have no other queues under it."
                ));
            }
            return Ok(());
        }
        if let Some(parent) = static_parent {
            let normalized_parent = normalize_root(self.queues, &parent)?;
            if self
                .queues
                .queue(&normalized_parent)
                .is_some_and(creates_children)
            {
                return Ok(());
            }
        }
        Err(format!("No eligible parent found on path '{full}'."))
    }

    /// `MappingRule.validate`: a placement's path is checked, a variable update makes its
    /// variable known to the rules after it; matchers are never checked.
    pub fn validate_rule(&mut self, rule: &MappingRule) -> Result<(), String> {
        match &rule.action {
            Action::Place { queue, .. } => self.validate_queue_path(queue),
            Action::SetVariable { variable, .. } => self.add_variable(variable),
            Action::Reject => Ok(()),
        }
    }
}

/// `CSMappingPlacementRule.initialize`: each rule checked in order against the hierarchy;
/// every failing rule's reason, with its 1-based number (YARN fails on the first).
pub fn validate_rules(queues: &dyn QueueLookup, rules: &[MappingRule]) -> Vec<(usize, String)> {
    let mut ctx = ValidationContext::for_placement(queues);
    rules
        .iter()
        .enumerate()
        .filter_map(|(i, r)| ctx.validate_rule(r).err().map(|e| (i + 1, e)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_queue_path_follow_java() {
        assert_eq!(java_split(""), vec![""]);
        assert_eq!(java_split("."), Vec::<&str>::new());
        assert_eq!(java_split("a.b."), vec!["a", "b"]);
        assert_eq!(java_split(".a"), vec!["", "a"]);
        assert_eq!(java_split("a..b"), vec!["a", "", "b"]);
        let p = QueuePath::new("root.a . b ");
        assert_eq!(p.parent.as_deref(), Some("root.a"));
        assert_eq!(p.leaf, "b");
        assert!(QueuePath::new("root.x.").has_empty_part());
        assert!(QueuePath::new(".x").has_empty_part());
        assert!(QueuePath::new("root..x").has_empty_part());
        assert!(!QueuePath::new(" x ").has_empty_part());
    }
}
