//! A queue's node-label keys, read as YARN 3.3.6 reads them (docs/SEMANTICS.md, "Node
//! labels"): `accessible-node-labels` (inherited when unset, root always `*`), the capacities
//! of every label the queue has a key for, and `default-node-label-expression` (inherited
//! when the queue can access everything its parent can), with YARN's checks and words. One of
//! the readers of a queue (`queue_read` calls it), over the settings' types in `node_labels`.

use std::collections::{BTreeMap, BTreeSet};

use super::hadoop::java::{self, java_trim};
use super::keys::{CAPACITY, MAXIMUM_AM_RESOURCE_PERCENT, MAXIMUM_CAPACITY, PREFIX, ROOT};
use super::node_labels::{
    expression_accessible, AccessibleLabels, LabelCapacity, QueueLabels, ACCESSIBLE_NODE_LABELS,
    ANY, DEFAULT_NODE_LABEL_EXPRESSION,
};
use super::queue_conf::QueueConf;
use super::reader::{queue_key, Reader};
use crate::echo::echo;
use crate::resource::{AbsoluteResource, ResourceTypes};

/// One queue's label settings; `parent` is its parent's configuration (already read).
pub(crate) fn read_queue_labels(
    r: &mut Reader,
    types: &ResourceTypes,
    path: &str,
    parent: Option<&QueueConf>,
    is_leaf: bool,
) -> QueueLabels {
    let q = Some(path);
    let accessible = read_accessible(r, path, parent);
    let capacities = read_label_capacities(r, types, path);
    let key = queue_key(path, DEFAULT_NODE_LABEL_EXPRESSION);
    let default_expression = match r.get(q, &key) {
        Some(v) => Some(java_trim(&v).to_string()),
        // Inherited only by a queue that may access all its parent may (ACQ:375-380).
        None => parent
            .filter(|p| accessible.contains_all(&p.labels.accessible))
            .and_then(|p| p.labels.default_expression.clone()),
    };
    // LeafQueue.setupQueueConfigs: a leaf's default must be accessible.
    if is_leaf {
        if let Some(expr) = default_expression.as_deref() {
            if !expression_accessible(&accessible, expr) {
                r.error(
                    q,
                    &key,
                    format!(
                        "Invalid default label expression of  queue={path} doesn't have permission to access all labels in default label expression. labelExpression of resource request={}. Queue labels={}",
                        echo(expr),
                        accessible.names().join(",")
                    ),
                );
            }
        }
    }
    QueueLabels {
        accessible,
        capacities,
        default_expression,
    }
}

/// `getAccessibleNodeLabels` and the parent checks of `setupQueueConfigs`.
fn read_accessible(r: &mut Reader, path: &str, parent: Option<&QueueConf>) -> AccessibleLabels {
    let q = Some(path);
    let key = queue_key(path, ACCESSIBLE_NODE_LABELS);
    let raw = r.get(q, &key);
    let Some(parent) = parent else {
        if raw.is_some() {
            r.warnings.push(format!(
                "Accessible node labels for root queue will be ignored, it will be automatically set to \"*\" ({key})"
            ));
        }
        return AccessibleLabels::Any;
    };
    let Some(raw) = raw else {
        return parent.labels.accessible.clone();
    };
    let set: BTreeSet<String> = raw
        .split(',')
        .map(java_trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let mine = if set.contains(ANY) {
        AccessibleLabels::Any
    } else {
        AccessibleLabels::Only(set)
    };
    // Only under a parent other than root that does not take every label.
    if parent.path != ROOT {
        if let AccessibleLabels::Only(parents) = &parent.labels.accessible {
            match &mine {
                AccessibleLabels::Any => r.error(
                    q,
                    &key,
                    "Parent's accessible queue is not ANY(*), but child's accessible queue is *",
                ),
                AccessibleLabels::Only(own) => {
                    let extra: Vec<&str> = own
                        .iter()
                        .filter(|l| !parents.contains(*l))
                        .map(String::as_str)
                        .collect();
                    if !extra.is_empty() {
                        r.error(
                            q,
                            &key,
                            format!(
                                "Some labels of child queue is not a subset of parent queue, these labels=[{}]",
                                extra.join(",")
                            ),
                        );
                    }
                }
            }
        }
    }
    mine
}

/// The labels `path` has keys for (`getConfiguredNodeLabels`) and their capacities
/// (`internalGetLabeledQueueCapacity`): 0 and 100 when unset, root always 100, each within
/// [0, 100].
fn read_label_capacities(
    r: &mut Reader,
    types: &ResourceTypes,
    path: &str,
) -> BTreeMap<String, LabelCapacity> {
    let q = Some(path);
    let prefix = format!("{PREFIX}{path}.{ACCESSIBLE_NODE_LABELS}.");
    let mut labels: BTreeSet<String> = BTreeSet::new();
    let mut bad_keys = Vec::new();
    for key in r.conf.keys_with_prefix(&prefix) {
        match key[prefix.len()..].split_once('.') {
            Some((label, _)) => {
                labels.insert(label.to_string());
            }
            None => bad_keys.push(key.to_string()),
        }
    }
    for key in bad_keys {
        // YARN's substring would throw; the key names a label but no property.
        r.error(
            q,
            &key,
            format!(
                "{} names a node label but no property: expected {ACCESSIBLE_NODE_LABELS}.<label>.<property>",
                echo(&key)
            ),
        );
    }
    let is_root = path == ROOT;
    let mut out = BTreeMap::new();
    for label in labels {
        let lprefix = format!("{path}.{ACCESSIBLE_NODE_LABELS}.{label}");
        // (percentage, absolute resource when configured so)
        let mut read = |suffix: &str, default: f32| -> (f32, Option<AbsoluteResource>) {
            let key = queue_key(&lprefix, suffix);
            let raw = r.get(q, &key);
            if is_root {
                return (100.0, None);
            }
            if let Some(raw) = raw
                .as_deref()
                .filter(|v| crate::resource::looks_absolute(v))
            {
                return match types.parse_absolute(raw) {
                    // A maximum without memory is not configured (as the default partition's).
                    Ok(abs) if abs.is_none() && suffix == MAXIMUM_CAPACITY => (default, None),
                    Ok(abs) => (0.0, Some(abs)),
                    Err(msg) => {
                        r.error(q, &key, msg);
                        (default, None)
                    }
                };
            }
            let v = r.float_where(q, &key, default, |_| true, "");
            if !(0.0..=100.0).contains(&v) {
                r.error(
                    q,
                    &key,
                    format!(
                        "Illegal capacity of {} for node-label={label} in queue={path}, valid capacity should in range of [0, 100].",
                        java::float_to_string(v)
                    ),
                );
                return (default, None);
            }
            (v, None)
        };
        let (capacity, minimum_resource) = read(CAPACITY, 0.0);
        let (maximum_capacity, maximum_resource) = read(MAXIMUM_CAPACITY, 100.0);
        let (capacity, maximum_capacity) = (capacity / 100.0, maximum_capacity / 100.0);
        let am_key = queue_key(&lprefix, MAXIMUM_AM_RESOURCE_PERCENT);
        let maximum_am_resource_percent = r.conf.get_raw(&am_key).is_some().then(|| {
            r.float_where(
                q,
                &am_key,
                0.1,
                |f| (0.0..=1.0).contains(&f),
                "a share from 0 to 1",
            )
        });
        out.insert(
            label,
            LabelCapacity {
                capacity,
                maximum_capacity,
                minimum_resource,
                maximum_resource,
                maximum_am_resource_percent,
            },
        );
    }
    out
}
