//! Refusal messages that begin with Hadoop 3.3.6's sentence (docs/CONFIGURATION.md, "Refusal
//! messages"): each function here returns 3.3.6's words exactly — Java's float and resource
//! printing included — and what capsched adds follows them. A message raised in several places
//! is built here once.

use super::hadoop::java::float_to_string;
use crate::resource::Resource;

/// `sentence`, then `context` as a sentence of its own.
pub(crate) fn then(sentence: &str, context: &str) -> String {
    let stop = if sentence.ends_with('.') { " " } else { ". " };
    format!("{sentence}{stop}{context}")
}

/// Why a children's capacity sum is refused, in YARN 3.4's words (which say it; 3.3.6's do
/// not).
#[derive(Debug, Clone, Copy)]
pub(crate) enum ChildrenSum<'a> {
    /// The sum is neither 0 nor 1.
    EitherZeroOrOne,
    /// The sum is 0 under a parent with a capacity, and the parent does not allow it.
    ZeroUnderNonZeroParent,
    /// The sum is positive under the parent `name`, whose capacity is 0.
    PositiveUnderZeroParent(&'a str),
}

/// `ParentQueue.setChildQueues` (3.3.6): `Illegal capacity of S for children of queue Q`, `Q`
/// the parent's short name, with ` for label=L` on a label.
pub(crate) fn children_capacity_sentence(sum: f32, queue: &str, label: Option<&str>) -> String {
    let mut yarn = format!(
        "Illegal capacity of {} for children of queue {queue}",
        float_to_string(sum)
    );
    if let Some(label) = label {
        yarn.push_str(&format!(" for label={label}"));
    }
    yarn
}

/// [`children_capacity_sentence`], then 3.4's reason.
pub(crate) fn children_capacity(
    sum: f32,
    queue: &str,
    label: Option<&str>,
    why: ChildrenSum<'_>,
) -> String {
    let yarn = children_capacity_sentence(sum, queue, label);
    let reason = match why {
        ChildrenSum::EitherZeroOrOne => "It should be either 0 or 1.0".to_string(),
        ChildrenSum::ZeroUnderNonZeroParent => "It is set to 0, but parent percent != 0, and \
                                                doesn't allow children capacity to set to 0"
            .to_string(),
        ChildrenSum::PositiveUnderZeroParent(name) => {
            format!("queue={name} has zero capacity, but childqueues have positive capacities")
        }
    };
    then(&yarn, &reason)
}

/// `ParentQueue.setChildQueues` (3.3.6): a non-root parent with a percentage capacity and a
/// child with an absolute one.
pub(crate) fn parent_and_child_modes(parent: &str, child: &str) -> String {
    format!(
        "Parent queue '{parent}' and child queue '{child}' should use either percentage based \
         capacity configuration or absolute resource together."
    )
}

/// `ParentQueue.setChildQueues` (3.3.6), per partition: a non-root parent and a child of
/// different capacity types (YARN's words lack the space in "capacityconfiguration"; the
/// default partition's label is empty).
pub(crate) fn parent_and_child_modes_on_label(parent: &str, child: &str, label: &str) -> String {
    format!(
        "Parent queue '{parent}' and child queue '{child}' should use either percentage based \
         capacityconfiguration or absolute resource together for label:{label}"
    )
}

/// `ParentQueue.setChildQueues`: the parent's absolute minimum below its children's sum
/// (`queue` is the parent's short name).
pub(crate) fn parent_below_children(
    parent_min: &Resource,
    children: &Resource,
    queue: &str,
) -> String {
    format!("Parent Queues capacity: {parent_min} is less than to its children:{children} for queue:{queue}")
}

/// `AbstractCSQueue.updateConfigurableResourceRequirement`: a queue's absolute minimum above
/// its absolute maximum (`queue` is the full path).
pub(crate) fn min_above_max(min: &Resource, max: &Resource, queue: &str) -> String {
    format!("Min resource configuration {min} is greater than its max value:{max} in queue:{queue}")
}

/// `AbstractCSQueue.updateConfigurableResourceRequirement`: a queue's absolute maximum above
/// its parent's (`queue` is the child's full path).
pub(crate) fn max_above_parent_max(max: &Resource, parent_max: &Resource, queue: &str) -> String {
    format!(
        "Max resource configuration {max} is greater than parents max value:{parent_max} in queue:{queue}"
    )
}

/// `AbstractCSQueue.validateAbsoluteVsPercentageCapacityConfig`: one queue, two capacity types.
pub(crate) fn percentage_or_absolute(queue: &str) -> String {
    format!(
        "Queue '{queue}' should use either percentage based capacity configuration or absolute resource."
    )
}

/// `CSQueueUtils.capacitiesSanityCheck`: absolute capacity above absolute maximum capacity
/// (`label` empty for the default partition).
pub(crate) fn capacity_above_maximum(abs: f32, abs_max: f32, queue: &str, label: &str) -> String {
    format!(
        "Illegal queue capacity setting (abs-capacity={}) > (abs-maximum-capacity={}) for queue=[{queue}],label=[{label}]",
        float_to_string(abs),
        float_to_string(abs_max)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yarns_sentence_comes_first() {
        assert_eq!(
            children_capacity(1.2, "root", None, ChildrenSum::EitherZeroOrOne),
            "Illegal capacity of 1.2 for children of queue root. It should be either 0 or 1.0"
        );
        assert_eq!(
            children_capacity(0.5, "a", Some("x"), ChildrenSum::EitherZeroOrOne),
            "Illegal capacity of 0.5 for children of queue a for label=x. It should be either 0 or 1.0"
        );
        assert_eq!(then("A.", "B"), "A. B");
        assert_eq!(then("A", "B"), "A. B");
    }
}
