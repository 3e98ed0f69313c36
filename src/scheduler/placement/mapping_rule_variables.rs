//! The variables one submission's mapping rules see (YARN 3.4's `VariableContext`): plain
//! variables (`%user`, `%specified`, `%application`, `%default`, `%primary_group`), the
//! conditional `%secondary_group` (resolved against the live hierarchy where it appears in a
//! path), the user's raw groups for the group matcher, and the two substitutions YARN uses —
//! whole path parts for targets, plain substring replacement for matcher values and
//! `setDefaultQueue` values.

use crate::config::placement::mapping_rule_validation::{java_split, QueueLookup};
use crate::config::placement::SECONDARY_GROUP;

/// One submission's variables.
#[derive(Debug, Clone, Default)]
pub struct VariableContext {
    /// In the order they were set: `replace_variables` keeps that order among names of the
    /// same length (YARN's is its HashMap's; the placement's own names all differ in length).
    vars: Vec<(String, String)>,
    /// A variable's value before `_dot_` cleaning (only `%user`), which the matcher compares.
    originals: Vec<(String, String)>,
    /// `%secondary_group` as a conditional variable: the candidates, cleaned, in group order.
    secondary_candidates: Option<Vec<String>>,
    /// The "groups" extra dataset: the user's raw group names.
    groups: Option<Vec<String>>,
    immutables: Option<Vec<String>>,
}

impl VariableContext {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets (or replaces) a variable; an immutable one can be set once only, and a conditional
    /// one not at all (YARN's IllegalStateException messages).
    pub fn put(&mut self, name: &str, value: &str) -> Result<(), String> {
        let existing = self.vars.iter().position(|(n, _)| n == name);
        if existing.is_some() && self.is_immutable(name) {
            return Err(format!(
                "Variable '{name}' is immutable, cannot update it's value!"
            ));
        }
        if name == SECONDARY_GROUP && self.secondary_candidates.is_some() {
            return Err(format!(
                "Variable '{name}' is already defined as a conditional variable, cannot change it's value!"
            ));
        }
        match existing {
            Some(i) => self.vars[i].1 = value.to_string(),
            None => self.vars.push((name.to_string(), value.to_string())),
        }
        Ok(())
    }

    pub fn put_original(&mut self, name: &str, value: &str) {
        self.originals.retain(|(n, _)| n != name);
        self.originals.push((name.to_string(), value.to_string()));
    }

    /// `%secondary_group` as `SecondaryGroupVariable`: the first candidate that, under the
    /// path parts before it, names a queue.
    pub fn put_secondary_group_candidates(&mut self, candidates: Vec<String>) {
        self.secondary_candidates = Some(candidates);
    }

    /// The user's groups, as the group matcher sees them.
    pub fn put_groups(&mut self, groups: Vec<String>) {
        self.groups = Some(groups);
    }

    /// Names that `put` may set only once; given once.
    pub fn set_immutables(&mut self, names: &[&str]) -> Result<(), String> {
        if self.immutables.is_some() {
            return Err("Immutable variables are already defined, variable immutability cannot be changed once set!".into());
        }
        self.immutables = Some(names.iter().map(|n| n.to_string()).collect());
        Ok(())
    }

    fn is_immutable(&self, name: &str) -> bool {
        self.immutables
            .as_ref()
            .is_some_and(|v| v.iter().any(|n| n == name))
    }

    /// The value, `""` when unset.
    pub fn get(&self, name: &str) -> &str {
        self.value(name).unwrap_or("")
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.vars
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn original(&self, name: &str) -> Option<&str> {
        self.originals
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn groups(&self) -> Option<&[String]> {
        self.groups.as_deref()
    }

    /// Every plain variable replaced wherever it occurs, longest names first; values put in
    /// are scanned again by the shorter names after them (`%user%default` → `bobdefault.path`
    /// → …). The conditional `%secondary_group` is not a plain variable: it stays as written.
    pub fn replace_variables(&self, input: &str) -> String {
        let mut names: Vec<&(String, String)> = self.vars.iter().collect();
        // A stable sort, as Java's Arrays.sort on objects.
        names.sort_by_key(|(name, _)| std::cmp::Reverse(name.len()));
        let mut out = input.to_string();
        for (name, value) in names {
            out = out.replace(name.as_str(), value);
        }
        out
    }

    /// A queue path with every part that is exactly a variable replaced by its value (an
    /// unknown `%name` stays as written; values may add levels). Split as Java splits, so
    /// trailing dots vanish.
    pub fn replace_path_variables(&self, input: &str, queues: &dyn QueueLookup) -> String {
        let mut parts: Vec<String> = Vec::new();
        for part in java_split(input) {
            let value = match self.value(part) {
                Some(v) => v.to_string(),
                None if part == SECONDARY_GROUP => match &self.secondary_candidates {
                    Some(candidates) => secondary_group(&parts, candidates, queues),
                    None => part.to_string(),
                },
                None => part.to_string(),
            };
            parts.push(value);
        }
        parts.join(".")
    }
}

/// `SecondaryGroupVariable.evaluateInPath`: the first candidate `g` for which
/// `<parts before>.g` (or `g` alone) is a queue — any queue, a parent too; the prefix is used as
/// substituted, not normalised. `""` when none is.
fn secondary_group(before: &[String], candidates: &[String], queues: &dyn QueueLookup) -> String {
    let prefix: String = before.iter().map(|p| format!("{p}.")).collect();
    candidates
        .iter()
        .find(|g| queues.queue(&format!("{prefix}{g}")).is_some())
        .cloned()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::placement::mapping_rule_validation::QueueIndex;

    #[test]
    fn substitutions_follow_yarn() {
        let mut c = VariableContext::new();
        for (k, v) in [
            ("%user", "bob"),
            ("%userPhone", "555-3221"),
            ("%default", "default.path"),
            ("%empty", ""),
        ] {
            c.put(k, v).unwrap();
        }
        let none = QueueIndex::new(&[]);
        assert_eq!(
            c.replace_variables("%user%default.%user.%default"),
            "bobdefault.path.bob.default.path"
        );
        assert_eq!(
            c.replace_variables("userPhoneof%useris%userPhone"),
            "userPhoneofbobis555-3221"
        );
        assert_eq!(
            c.replace_path_variables("%user%default.%user.%default", &none),
            "%user%default.bob.default.path"
        );
        assert_eq!(
            c.replace_path_variables("root.%empty.path.", &none),
            "root..path"
        );
        assert_eq!(c.replace_path_variables(".", &none), "");
        assert_eq!(
            c.replace_path_variables("%secondary_group", &none),
            "%secondary_group"
        );
    }

    #[test]
    fn immutables_are_set_once() {
        let mut c = VariableContext::new();
        c.set_immutables(&["%user"]).unwrap();
        c.put("%user", "bob").unwrap();
        assert!(c.put("%user", "eve").is_err());
        assert!(c.set_immutables(&["%x"]).is_err());
        c.put_secondary_group_candidates(vec!["g".into()]);
        assert!(c.put("%secondary_group", "x").is_err());
    }
}
