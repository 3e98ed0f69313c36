//! Checks over the whole hierarchy, in YARN's words (`ParentQueue.setChildQueues`,
//! `AbstractCSQueue`, `CSQueueUtils`): capacity modes among siblings, children's capacity sums,
//! absolute-resource bounds, and capacity against maximum capacity. Spec §1.2. Each message
//! begins with YARN 3.3.6's sentence where 3.3.6 refuses the configuration, and goes on with
//! 3.4's where it says more (`super::messages`).

use std::collections::HashSet;

use super::derived::capacities::derive_capacities;
use super::keys::{CAPACITY, MAXIMUM_CAPACITY, QUEUES};
use super::messages::{self, ChildrenSum};
use super::queue_conf::{CapacityMode, CapacityValue, MaxCapacityValue, QueueConf};
use super::reader::{queue_key, Reader};
use super::settings::SchedulerSettings;
use crate::resource::Resource;

/// YARN's `ParentQueue.PRECISION`: children's percentages must sum to 1 within 0.05%.
const PRECISION: f32 = 0.0005;
/// `CSQueueUtils.EPSILON`, the slack allowed in absolute capacity vs absolute maximum.
const EPSILON: f32 = 0.0001;

pub(crate) fn validate_tree(r: &mut Reader, settings: &SchedulerSettings, queues: &[QueueConf]) {
    // The keys that already have an error, looked up per queue below: a scan of the error
    // list per child was quadratic with 10^5 siblings that each have an error.
    let failed: HashSet<String> = r.errors.iter().filter_map(|e| e.key.clone()).collect();
    for parent in queues.iter().filter(|q| !q.is_leaf()) {
        if parent.managed.is_some() {
            // A managed parent's auto-created leaves hold entitlements the management policy
            // keeps within the parent; only static children are checked (setChildQueues runs
            // for them alone), and a managed parent without any is not checked at all.
            let mut statics = parent.clone();
            statics.children.retain(|&c| !queues[c].auto_created);
            if !statics.children.is_empty() {
                check_children(r, settings, queues, &statics, &failed);
            }
            continue;
        }
        check_children(r, settings, queues, parent, &failed);
    }
    for q in queues {
        check_own_modes(r, q);
    }
    check_capacity_within_maximum(r, settings, queues);
    check_label_capacities(r, settings, queues);
}

/// Node labels (YARN 3.3.6's checks and words, 3.4's reason after them as for the default
/// partition): for each label a parent has a key for, its children's capacities sum to 1 (or
/// to 0 under a parent with none); and a queue's absolute capacity on a label is within its
/// absolute maximum (`CSQueueUtils.capacitiesSanityCheck`, a strict comparison as in YARN).
fn check_label_capacities(r: &mut Reader, settings: &SchedulerSettings, queues: &[QueueConf]) {
    for parent in queues.iter().filter(|q| !q.is_leaf()) {
        // Queues the scheduler created hold what their parent's policy entitles them to; as
        // for the default partition, only configured children are summed, and a parent with
        // none is not checked.
        let configured: Vec<usize> = parent
            .children
            .iter()
            .copied()
            .filter(|&c| !queues[c].auto_created && !queues[c].dynamic)
            .collect();
        if configured.is_empty() {
            continue;
        }
        // With absolute children (their default-partition minimum set), YARN skips the
        // "sums to 1" half of the label check (it tests `minResDefaultLabel`).
        let absolute_children = configured
            .iter()
            .any(|&c| configured_min(&queues[c]).is_some_and(|m| !m.is_zero()));
        for (label, lc) in &parent.labels.capacities {
            let sum: f32 = configured
                .iter()
                .map(|&c| queues[c].labels.capacity(label).capacity)
                .fold(0.0, |a, b| a + b);
            let bad = if lc.capacity > 0.0 {
                !absolute_children && (1.0 - sum).abs() > PRECISION
            } else {
                sum > 0.0
            };
            // parent.min-resource ≥ Σ child.min-resource on the label (cluster-free, as for
            // the default partition).
            if let Some(parent_min) = lc.minimum_resource.map(|a| a.resource()) {
                let children: Resource = configured
                    .iter()
                    .filter_map(|&c| queues[c].labels.capacity(label).minimum_resource)
                    .map(|a| a.resource())
                    .fold(Resource::ZERO, |a, b| a + b);
                if !parent_min.is_zero()
                    && !settings.resource_calculator.fits_in(&children, &parent_min)
                {
                    r.error(
                        Some(&parent.path),
                        &label_key(&parent.path, label, CAPACITY),
                        messages::parent_below_children(&parent_min, &children, &parent.name),
                    );
                }
            }
            if bad {
                r.error(
                    Some(&parent.path),
                    &queue_key(&parent.path, QUEUES),
                    messages::children_capacity(
                        sum,
                        &parent.name,
                        Some(label),
                        ChildrenSum::EitherZeroOrOne,
                    ),
                );
            }
        }
    }
    for (i, q) in queues.iter().enumerate().skip(1) {
        check_label_modes(r, queues, i, q);
    }
    let caps = super::derived::partitions::derive_partition_capacities(queues, settings, |_| {
        Resource::ZERO
    });
    for (q, by_label) in queues.iter().zip(&caps) {
        for (label, c) in by_label {
            if c.absolute_capacity > c.absolute_maximum_capacity {
                r.error(
                    Some(&q.path),
                    &queue_key(
                        &format!(
                            "{}.{}.{label}",
                            q.path,
                            crate::config::node_labels::ACCESSIBLE_NODE_LABELS
                        ),
                        MAXIMUM_CAPACITY,
                    ),
                    messages::capacity_above_maximum(
                        c.absolute_capacity,
                        c.absolute_maximum_capacity,
                        &q.path,
                        label,
                    ),
                );
            }
        }
    }
}

/// The mode a set of queues uses (`getCapacityConfigurationTypeForQueues`), or the mixing error.
fn children_mode(queues: &[QueueConf], parent: &QueueConf) -> Result<CapacityMode, String> {
    let mut modes: Vec<(CapacityMode, &str)> = Vec::new();
    for &c in &parent.children {
        if let Some(m) = queues[c].capacity.mode() {
            modes.push((m, &queues[c].path));
        }
    }
    let has = |m: CapacityMode| modes.iter().any(|(x, _)| *x == m);
    let distinct = [
        CapacityMode::Percent,
        CapacityMode::Weight,
        CapacityMode::Absolute,
    ]
    .iter()
    .filter(|m| has(**m))
    .count();
    if distinct > 1 {
        // YARN lists every child; past a few dozen the list only makes the message huge.
        const LISTED: usize = 32;
        let mut details: String = modes
            .iter()
            .take(LISTED)
            .map(|(m, path)| format!("{{Queue={path}, label= uses {} mode}}. ", m.describe()))
            .collect();
        if modes.len() > LISTED {
            details.push_str(&format!("…({} more children)", modes.len() - LISTED));
        }
        return Err(format!(
            "Parent queue '{}' have children queue used mixed of  weight mode, percentage and absolute mode, \
             it is not allowed, please double check, details:{details}",
            parent.path
        ));
    }
    Ok(if has(CapacityMode::Weight) || parent.children.is_empty() {
        CapacityMode::Weight
    } else if has(CapacityMode::Absolute) {
        CapacityMode::Absolute
    } else {
        CapacityMode::Percent
    })
}

/// The parent's own mode as YARN computes it for the children check.
fn own_mode(q: &QueueConf) -> CapacityMode {
    match &q.capacity {
        CapacityValue::Weight(_) => CapacityMode::Weight,
        CapacityValue::Absolute(_) => CapacityMode::Absolute,
        CapacityValue::Percent(_) => CapacityMode::Percent,
    }
}

fn check_children(
    r: &mut Reader,
    settings: &SchedulerSettings,
    queues: &[QueueConf],
    parent: &QueueConf,
    failed: &HashSet<String>,
) {
    let queues_key = queue_key(&parent.path, QUEUES);
    // A capacity that failed to parse stands in as 0; judging the level with it would add a
    // second, misleading error. Its own error already points at the key to fix.
    let unparsed = |path: &str| failed.contains(&queue_key(path, CAPACITY));
    if unparsed(&parent.path) || parent.children.iter().any(|&c| unparsed(&queues[c].path)) {
        return;
    }
    // YARN 3.4's refusal of the level's capacity modes, after 3.3.6's where it has one.
    let modes_error = |r: &mut Reader, message: String| {
        let message = match yarn336_modes_refusal(queues, parent) {
            Some(yarn) => messages::then(&yarn, &message),
            None => message,
        };
        r.error(Some(&parent.path), &queues_key, message);
    };
    let children_mode = match children_mode(queues, parent) {
        Ok(m) => m,
        Err(msg) => {
            modes_error(r, msg);
            return;
        }
    };
    let parent_mode = own_mode(parent);
    let is_root = parent.parent.is_none();

    if children_mode == CapacityMode::Absolute || parent_mode == CapacityMode::Absolute {
        if children_mode != parent_mode && !is_root {
            modes_error(
                r,
                format!(
                    "Parent={}: When absolute minResource is used, we must make sure both parent and child all use absolute minResource",
                    parent.path
                ),
            );
            return;
        }
        check_absolute_children(r, settings, queues, parent);
    }

    if children_mode == CapacityMode::Percent {
        let sum = percent_sum(queues, parent);
        let parent_capacity = parent.capacity.percent_fraction();
        let why = if (1.0 - sum).abs() > PRECISION {
            if sum.abs() > PRECISION {
                Some(ChildrenSum::EitherZeroOrOne)
            } else {
                (parent_mode == CapacityMode::Percent
                    && parent_capacity.abs() > PRECISION
                    && !parent.allow_zero_capacity_sum)
                    .then_some(ChildrenSum::ZeroUnderNonZeroParent)
            }
        } else {
            (parent_mode == CapacityMode::Percent
                && parent_capacity.abs() <= 0.0
                && !parent.allow_zero_capacity_sum)
                .then_some(ChildrenSum::PositiveUnderZeroParent(&parent.name))
        };
        if let Some(why) = why {
            r.error(
                Some(&parent.path),
                &queues_key,
                messages::children_capacity(sum, &parent.name, None, why),
            );
        }
    }
}

/// The children's percentages summed in float, in list order, exactly as YARN sums them (so
/// the printed sum is YARN's); weight and absolute children count 0.
fn percent_sum(queues: &[QueueConf], parent: &QueueConf) -> f32 {
    parent
        .children
        .iter()
        .map(|&c| queues[c].capacity.percent_fraction())
        .fold(0.0, |a, b| a + b)
}

/// The sentence YARN 3.3.6's `ParentQueue.setChildQueues` refuses a level's capacity types
/// with, in its order, when it refuses them (3.3.6 has no weights, and exempts root from its
/// type checks): a parent with a percentage capacity and an absolute child; a parent without a
/// percentage (absolute, or 0) under children with one; on the default partition, a parent
/// and a child of different types (a child with no capacity is of the percentage type).
fn yarn336_modes_refusal(queues: &[QueueConf], parent: &QueueConf) -> Option<String> {
    let children = || parent.children.iter().map(|&c| &queues[c]);
    let weight = |q: &QueueConf| matches!(q.capacity, CapacityValue::Weight(_));
    if weight(parent) || children().any(weight) {
        return None;
    }
    let absolute = |q: &QueueConf| configured_min(q).is_some_and(|m| !m.is_zero());
    let is_root = parent.parent.is_none();
    let parent_capacity = parent.capacity.percent_fraction();
    if !is_root && parent_capacity != 0.0 {
        if let Some(child) = children().find(|c| absolute(c)) {
            return Some(messages::parent_and_child_modes(&parent.path, &child.path));
        }
    }
    let sum = percent_sum(queues, parent);
    if (!children().any(absolute) && parent_capacity > 0.0 && (1.0 - sum).abs() > PRECISION)
        || (parent_capacity == 0.0 && sum > 0.0)
    {
        return Some(messages::children_capacity_sentence(
            sum,
            &parent.name,
            None,
        ));
    }
    if is_root {
        return None;
    }
    children()
        .find(|c| absolute(c) != absolute(parent))
        .map(|child| messages::parent_and_child_modes_on_label(&parent.path, &child.path, ""))
}

/// `<queue>.accessible-node-labels.<label>.<suffix>`.
fn label_key(path: &str, label: &str, suffix: &str) -> String {
    queue_key(
        &format!(
            "{path}.{}.{label}",
            crate::config::node_labels::ACCESSIBLE_NODE_LABELS
        ),
        suffix,
    )
}

/// `updateConfigurableResourceRequirement` per label: a queue uses one mode (percentage or
/// absolute) on every partition it configures, the default one included; on each label its
/// absolute minimum is within its absolute maximum, and that maximum within its parent's.
fn check_label_modes(r: &mut Reader, queues: &[QueueConf], i: usize, q: &QueueConf) {
    let absolute = configured_min(q).is_some_and(|m| !m.is_zero());
    for (label, lc) in &q.labels.capacities {
        let label_absolute = lc.minimum_resource.is_some_and(|m| !m.resource().is_zero());
        if label_absolute != absolute {
            r.error(
                Some(&q.path),
                &label_key(&q.path, label, CAPACITY),
                messages::percentage_or_absolute(&q.path),
            );
            return;
        }
        let min = lc.minimum_resource.map(|a| a.resource());
        let max = lc.maximum_resource.map(|a| a.resource());
        if let (Some(min), Some(max)) = (min, max) {
            if !min.fits_in(&max) {
                r.error(
                    Some(&q.path),
                    &label_key(&q.path, label, CAPACITY),
                    messages::min_above_max(&min, &max, &q.path),
                );
            }
        }
        let parent_max = q
            .parent
            .filter(|&p| p != i)
            .and_then(|p| queues[p].labels.capacities.get(label))
            .and_then(|p| p.maximum_resource)
            .map(|a| a.resource());
        if let (Some(max), Some(parent_max)) = (max, parent_max) {
            if !parent_max.is_zero() && !max.fits_in(&parent_max) {
                r.error(
                    Some(&q.path),
                    &label_key(&q.path, label, MAXIMUM_CAPACITY),
                    messages::max_above_parent_max(&max, &parent_max, &q.path),
                );
            }
        }
    }
}

fn configured_min(q: &QueueConf) -> Option<Resource> {
    match &q.capacity {
        CapacityValue::Absolute(a) => Some(a.resource()),
        _ => None,
    }
}

fn configured_max(q: &QueueConf) -> Option<Resource> {
    match &q.maximum_capacity {
        MaxCapacityValue::Absolute(a) => Some(a.resource()),
        _ => None,
    }
}

/// Σ children's configured minimum ≤ the parent's; each child's configured maximum ≤ the
/// parent's configured maximum.
fn check_absolute_children(
    r: &mut Reader,
    settings: &SchedulerSettings,
    queues: &[QueueConf],
    parent: &QueueConf,
) {
    let rc = settings.resource_calculator;
    let sum = parent
        .children
        .iter()
        .filter_map(|&c| configured_min(&queues[c]))
        .fold(Resource::ZERO, |a, b| a + b);
    if let Some(parent_min) = configured_min(parent) {
        // YARN compares against the partition's resource, which is unknown (often zero) when a
        // file is validated; "the children's sum fits in the parent" is the cluster-free form
        // (memory only under the default calculator, every type under DRF).
        if !parent_min.is_zero() && !rc.fits_in(&sum, &parent_min) {
            r.error(
                Some(&parent.path),
                &queue_key(&parent.path, CAPACITY),
                messages::parent_below_children(&parent_min, &sum, &parent.name),
            );
        }
    }
    if let Some(parent_max) = configured_max(parent) {
        for &c in &parent.children {
            let child = &queues[c];
            if let Some(child_max) = configured_max(child) {
                if !child_max.fits_in(&parent_max) {
                    r.error(
                        Some(&child.path),
                        &queue_key(&child.path, MAXIMUM_CAPACITY),
                        messages::max_above_parent_max(&child_max, &parent_max, &child.path),
                    );
                }
            }
        }
    }
}

/// A queue's own minimum against its own maximum (absolute), and weight with an absolute max.
fn check_own_modes(r: &mut Reader, q: &QueueConf) {
    if let (Some(min), Some(max)) = (configured_min(q), configured_max(q)) {
        if !min.fits_in(&max) {
            r.error(
                Some(&q.path),
                &queue_key(&q.path, CAPACITY),
                messages::min_above_max(&min, &max, &q.path),
            );
        }
    }
    // Issue 36.14: a percentage guarantee grows with the cluster and an absolute maximum does
    // not, so on a large enough cluster the guarantee is above the maximum — the contradiction
    // the percentage form is refused for. YARN 3.3.6 reads such a maximum as 100 % (it
    // applies an absolute maximum only to absolute queues); capsched refuses the pair, in
    // YARN's words for mixed modes. A 0 % guarantee with an absolute maximum stays valid.
    let percent_above_zero = matches!(q.capacity, CapacityValue::Percent(p) if p > 0.0);
    if (percent_above_zero || matches!(q.capacity, CapacityValue::Weight(_)))
        && configured_max(q).is_some()
    {
        r.error(
            Some(&q.path),
            &queue_key(&q.path, MAXIMUM_CAPACITY),
            messages::percentage_or_absolute(&q.path),
        );
    }
}

/// [3.2/3.3.x] `CSQueueUtils.checkAbsoluteCapacity`: absolute capacity may not exceed absolute
/// maximum capacity. Trunk disabled the check with the weight refactor; we keep it (spec §1.2).
fn check_capacity_within_maximum(
    r: &mut Reader,
    settings: &SchedulerSettings,
    queues: &[QueueConf],
) {
    // Percentage and weight capacities do not depend on the cluster size.
    let caps = derive_capacities(queues, settings, Resource::ZERO);
    for (q, c) in queues.iter().zip(&caps) {
        let absolute_somewhere =
            matches!(q.capacity, CapacityValue::Absolute(_)) || configured_max(q).is_some();
        if absolute_somewhere {
            continue;
        }
        if c.absolute_maximum_capacity < c.absolute_capacity - EPSILON {
            r.error(
                Some(&q.path),
                &queue_key(&q.path, MAXIMUM_CAPACITY),
                messages::capacity_above_maximum(
                    c.absolute_capacity,
                    c.absolute_maximum_capacity,
                    &q.path,
                    "",
                ),
            );
        }
    }
}
