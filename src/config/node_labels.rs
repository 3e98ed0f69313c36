//! A queue's node-label (partition) settings as the configuration holds them
//! (docs/SEMANTICS.md, "Node labels"): the labels it may access (`accessible-node-labels`),
//! the capacities of every label it has a key for (`accessible-node-labels.<L>.capacity`,
//! `.maximum-capacity`, `.maximum-am-resource-percent`), and its
//! `default-node-label-expression`; and whether an expression is accessible. Reading them, as
//! YARN 3.3.6 reads them, is `node_labels_read`.
//!
//! Which labels a queue has capacities for is decided by its keys, not by the labels it may
//! access: the two are independent in YARN, and both are kept.

use std::collections::{BTreeMap, BTreeSet};

use super::hadoop::java::java_trim;
use crate::resource::AbsoluteResource;

pub const ACCESSIBLE_NODE_LABELS: &str = "accessible-node-labels";
pub const DEFAULT_NODE_LABEL_EXPRESSION: &str = "default-node-label-expression";
/// `RMNodeLabelsManager.ANY`.
pub const ANY: &str = "*";

/// The partitions a queue may use besides the default one, which every queue may.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum AccessibleLabels {
    /// `*`: every label.
    #[default]
    Any,
    /// These labels (empty: the default partition only).
    Only(BTreeSet<String>),
}

impl AccessibleLabels {
    /// `accessibleToPartition`: the default partition always, a label when listed or `*`.
    pub fn can_access(&self, partition: &str) -> bool {
        match self {
            AccessibleLabels::Any => true,
            AccessibleLabels::Only(set) => partition.is_empty() || set.contains(partition),
        }
    }

    /// The set as YARN holds it (`{"*"}` for any), sorted.
    pub fn names(&self) -> Vec<&str> {
        match self {
            AccessibleLabels::Any => vec![ANY],
            AccessibleLabels::Only(set) => set.iter().map(String::as_str).collect(),
        }
    }

    /// `Set.containsAll`, with `*` an ordinary member as in YARN's sets.
    pub(super) fn contains_all(&self, other: &AccessibleLabels) -> bool {
        let mine = self.names();
        other.names().iter().all(|n| mine.contains(n))
    }
}

/// A label's configured capacities, as fractions (`…capacity=30` ⇒ 0.3); an absolute value
/// (`[memory=…,vcores=…]`) reads 0 as a percentage, as YARN's `internalGetLabeledQueueCapacity`
/// reads it, and is kept beside it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelCapacity {
    pub capacity: f32,
    pub maximum_capacity: f32,
    /// The capacity as an absolute resource, when configured so.
    pub minimum_resource: Option<AbsoluteResource>,
    /// The maximum capacity as an absolute resource, when configured so.
    pub maximum_resource: Option<AbsoluteResource>,
    /// `accessible-node-labels.<L>.maximum-am-resource-percent`; `None`: the queue's own.
    pub maximum_am_resource_percent: Option<f32>,
}

/// A queue's node-label settings.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QueueLabels {
    pub accessible: AccessibleLabels,
    /// Every label this queue has a key for (`getConfiguredNodeLabels`), the default
    /// partition excepted.
    pub capacities: BTreeMap<String, LabelCapacity>,
    /// The trimmed expression, set or inherited; `Some("")` means the default partition.
    pub default_expression: Option<String>,
}

impl QueueLabels {
    /// The capacities of `label` (all 0 when the queue has no key for it, as YARN's
    /// `LABEL_DOESNT_EXIST_CAP` reads).
    pub fn capacity(&self, label: &str) -> LabelCapacity {
        self.capacities
            .get(label)
            .copied()
            .unwrap_or(LabelCapacity {
                capacity: 0.0,
                maximum_capacity: 0.0,
                minimum_resource: None,
                maximum_resource: None,
                maximum_am_resource_percent: None,
            })
    }
}

/// `SchedulerUtils.checkQueueLabelExpression`: every non-blank `&&` piece of `expression`
/// is accessible (or the queue may access `*`).
pub fn expression_accessible(accessible: &AccessibleLabels, expression: &str) -> bool {
    expression
        .split("&&")
        .map(java_trim)
        .filter(|p| !p.is_empty())
        .all(|p| match accessible {
            AccessibleLabels::Any => true,
            AccessibleLabels::Only(set) => set.contains(p),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_partition_is_always_accessible() {
        let none = AccessibleLabels::Only(BTreeSet::new());
        assert!(none.can_access(""));
        assert!(!none.can_access("x"));
        assert!(AccessibleLabels::Any.can_access("x"));
        assert!(expression_accessible(&none, " "));
        assert!(!expression_accessible(&none, "x"));
        let x = AccessibleLabels::Only(["x".to_string()].into());
        assert!(expression_accessible(&x, " x "));
        assert!(!expression_accessible(&x, "x&&y"));
    }
}
