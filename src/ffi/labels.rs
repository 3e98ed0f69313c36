//! Node labels (partitions) from C: the RM's label-manager calls — the cluster's labels added
//! and removed, nodes relabelled (`NODE_LABELS_UPDATE`) — and what a host reads back: the
//! cluster's labels, a node's partition, a queue's figures in one partition. Label
//! expressions on asks and submissions are read with the allocate request and the submission
//! (`apps.rs`, `rm.rs`). Every refusal of the label manager is CAPSCHED_ERR_REFUSED with its
//! words, nothing applied.

use std::ffi::CString;

use super::engine_handle::{capsched_engine, engine_ref, handle};
use super::ids::Kind;
use super::status::{capsched_status, guard, FfiResult};
use super::types::*;
use crate::runtime::EngineError;
use crate::scheduler::SchedulerError;

/// A cluster node label: its name and whether its partition is exclusive (non-zero: only asks
/// that name it get its nodes; zero: its idle room is lent to default-partition asks). YARN's
/// `NodeLabel`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_node_label {
    pub name: capsched_str,
    pub exclusive: i32,
}

/// One node's new label for `capsched_node_labels_replace`. `node` is a host (`h1`, or
/// `h1:0`: every NodeManager on it) or one NodeManager (`h1:1234`); `label` the one label it
/// carries (YARN allows one per node), or empty for none.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_node_label_mapping {
    pub node: capsched_str,
    pub label: capsched_str,
}

/// Reads `what[i]` of an array of strings.
unsafe fn strings(p: *const capsched_str, n: usize, what: &str) -> FfiResult<Vec<String>> {
    read_slice(p, n, what)?
        .iter()
        .enumerate()
        .map(|(i, s)| read_str(*s, &format!("{what}[{i}]")).map(str::to_string))
        .collect()
}

/// Adds labels to the cluster (`addToCluserNodeLabels`). A label the cluster has is kept as it
/// is, but its exclusivity may not change. CAPSCHED_ERR_REFUSED with the label manager's words
/// when node labels are disabled (`yarn.node-labels.enabled`), a name is empty, too long or
/// has characters other than letters, digits, `-` and `_` (or starts with `-` or `_`), or an
/// existing label would change exclusivity; then nothing is added.
///
/// # Safety
/// `engine` live; `labels` valid for `n` entries (NULL only with 0) with their strings.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_labels_add(
    engine: *const capsched_engine,
    labels: *const capsched_node_label,
    n: usize,
) -> capsched_status {
    guard(|| {
        let e = engine_ref(engine)?;
        let labels = read_slice(labels, n, "labels")?
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let name = read_str(l.name, &format!("labels[{i}].name"))?;
                Ok((name.to_string(), l.exclusive != 0))
            })
            .collect::<FfiResult<Vec<_>>>()?;
        Ok(e.add_cluster_node_labels(labels)?)
    })
}

/// Removes labels from the cluster (`removeFromClusterNodeLabels`): nodes that carried one go
/// back to the default partition, their running containers' usage with them (a reservation on
/// such a node is dropped). CAPSCHED_ERR_REFUSED with the label manager's words while a queue
/// lists a label in its accessible labels, when labels are disabled, or a label is not the
/// cluster's; then nothing is removed.
///
/// # Safety
/// `engine` live; `names` valid for `n` entries (NULL only with 0).
#[no_mangle]
pub unsafe extern "C" fn capsched_node_labels_remove(
    engine: *const capsched_engine,
    names: *const capsched_str,
    n: usize,
) -> capsched_status {
    guard(|| {
        let e = engine_ref(engine)?;
        let names = strings(names, n, "names")?;
        Ok(e.remove_cluster_node_labels(names)?)
    })
}

/// Relabels nodes (`replaceLabelsOnNode`, the scheduler's NODE_LABELS_UPDATE): each entry's
/// node takes its label, or none. A host's mapping replaces what its NodeManagers had of their
/// own; a NodeManager's wins over its host's. Nodes not registered yet keep the mapping for
/// when they register. A registered node that changes partition keeps its containers: their
/// usage (application, user, queues, AM) moves to the new partition, and its reservation is
/// dropped, as YARN's `updateLabelsOnNode` does. Entries apply in order (a node listed twice
/// takes its last). CAPSCHED_ERR_REFUSED with the label manager's words when labels are
/// disabled, a node is malformed or a label is not the cluster's; every entry is checked
/// before any applies.
///
/// # Safety
/// `engine` live; `mappings` valid for `n` entries (NULL only with 0) with their strings.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_labels_replace(
    engine: *const capsched_engine,
    mappings: *const capsched_node_label_mapping,
    n: usize,
) -> capsched_status {
    guard(|| {
        let e = engine_ref(engine)?;
        let mapping = read_slice(mappings, n, "mappings")?
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let node = read_str(m.node, &format!("mappings[{i}].node"))?;
                let label = read_str(m.label, &format!("mappings[{i}].label"))?;
                let labels = if label.is_empty() {
                    Vec::new()
                } else {
                    vec![label.to_string()]
                };
                Ok((node.to_string(), labels))
            })
            .collect::<FfiResult<Vec<_>>>()?;
        Ok(e.replace_labels_on_nodes(mapping)?)
    })
}

/// The cluster's labels (library-owned; free with `capsched_node_label_list_free`).
#[repr(C)]
#[derive(Debug)]
pub struct capsched_node_label_list {
    /// In the order they were added; the names are owned by the list.
    pub labels: *mut capsched_node_label,
    pub count: usize,
}

/// The list and the names its entries point into, freed together.
#[repr(C)]
struct LabelListOwner {
    public: capsched_node_label_list,
    names: Vec<CString>,
}

/// The cluster's labels now, into `*out` (an empty list when there are none). Free it with
/// `capsched_node_label_list_free`.
///
/// # Safety
/// `engine` live; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_labels_get(
    engine: *const capsched_engine,
    out: *mut *mut capsched_node_label_list,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let labels = engine_ref(engine)?.cluster_node_labels()?;
        let mut names = Vec::with_capacity(labels.len());
        let entries: Vec<capsched_node_label> = labels
            .iter()
            .map(|(name, exclusive)| capsched_node_label {
                name: super::apps::keep(&mut names, name),
                exclusive: i32::from(*exclusive),
            })
            .collect();
        let (labels, count) = give_array(entries);
        let owner = Box::new(LabelListOwner {
            public: capsched_node_label_list { labels, count },
            names,
        });
        write_out(out, Box::into_raw(owner).cast(), "out")
    })
}

/// Frees a label list; NULL is fine.
///
/// # Safety
/// `list` NULL or from `capsched_node_labels_get`, not freed before.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_label_list_free(list: *mut capsched_node_label_list) {
    if list.is_null() {
        return;
    }
    let owner = Box::from_raw(list.cast::<LabelListOwner>());
    free_array(owner.public.labels, owner.public.count);
}

/// The partition `node` is in now (YARN's `SchedulerNode.getPartition()`): its label, or the
/// empty string for the default partition, into `*out` (free with `capsched_string_free`).
///
/// # Safety
/// `engine` live; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_node_partition(
    engine: *const capsched_engine,
    node: u64,
    out: *mut capsched_owned_str,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let h = handle(engine)?;
        let id = h.ids().take_node(node)?;
        let unknown = || {
            let e = EngineError::Scheduler(SchedulerError::UnknownNode(String::new()));
            h.ids().error(e, Kind::Node, node)
        };
        let partition = h
            .engine
            .node_partition(id)
            .map_err(|e| h.ids().error(e, Kind::Node, node))?
            .ok_or_else(unknown)?;
        write_out(out, give_string(&partition), "out")
    })
}

/// A queue's figures in one partition.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct capsched_partition_usage {
    /// Containers on the partition's nodes, reservations included.
    pub used: capsched_resource,
    pub reserved: capsched_resource,
    /// What the queue's applications still ask for with this partition's label.
    pub pending: capsched_resource,
    /// A leaf's AM containers there (0 for a parent).
    pub am_used: capsched_resource,
}

/// `queue`'s (full path or unique short name) figures in the partition `label` (empty: the
/// default partition; a label the cluster does not have: all 0) into `*out`.
/// CAPSCHED_ERR_INVALID_ARGUMENT for an unknown or ambiguous queue.
///
/// # Safety
/// `engine` live; strings valid; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_queue_partition_usage(
    engine: *const capsched_engine,
    queue: capsched_str,
    label: capsched_str,
    out: *mut capsched_partition_usage,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let e = engine_ref(engine)?;
        let queue = read_str(queue, "queue")?.to_string();
        let label = read_str(label, "label")?.to_string();
        let u = e.queue_partition_usage(queue, label)?;
        let usage = capsched_partition_usage {
            used: u.used.into(),
            reserved: u.reserved.into(),
            pending: u.pending.into(),
            am_used: u.am_used.into(),
        };
        write_out(out, usage, "out")
    })
}

/// A queue's node-label settings as YARN's `QueueInfo` states them (library-owned; free with
/// `capsched_queue_labels_free`). An RM that checks label expressions itself
/// (`SchedulerUtils.normalizeAndValidateRequest`, before the scheduler sees an ask) reads them
/// here. The library allocates it, so later versions may add fields at its end.
#[repr(C)]
#[derive(Debug)]
pub struct capsched_queue_labels {
    /// `getAccessibleNodeLabels()`: the labels the queue may use besides the default
    /// partition (which every queue may), sorted; `"*"` alone when it may use every label;
    /// none (`accessible_count` 0, `accessible` NULL): the default partition only. The strings
    /// are owned by this struct.
    pub accessible: *mut capsched_str,
    pub accessible_count: usize,
    /// `getDefaultNodeLabelExpression()`, the queue's own or inherited: `ptr` NULL (and `len`
    /// 0) when unset, YARN's null; any other value, an empty one too (non-NULL `ptr`), is the
    /// expression, and an empty one names the default partition.
    pub default_node_label_expression: capsched_str,
}

/// The struct and the strings it points into, freed together.
#[repr(C)]
struct QueueLabelsOwner {
    public: capsched_queue_labels,
    strings: Vec<CString>,
}

/// `queue`'s (full path or unique short name) accessible labels and default label expression
/// into `*out` (free with `capsched_queue_labels_free`). They change only with the
/// configuration (`capsched_engine_refresh_queues`, a leaf created under a managed parent), so
/// a host may keep them until then. CAPSCHED_ERR_INVALID_ARGUMENT for an unknown or ambiguous
/// queue.
///
/// # Safety
/// `engine` live; `queue` valid; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn capsched_queue_node_labels(
    engine: *const capsched_engine,
    queue: capsched_str,
    out: *mut *mut capsched_queue_labels,
) -> capsched_status {
    guard(|| {
        need_out(out, "out")?;
        let e = engine_ref(engine)?;
        let queue = read_str(queue, "queue")?.to_string();
        let (accessible, default_expression) = e.queue_node_labels(queue)?;
        let mut strings = Vec::with_capacity(accessible.len() + 1);
        let names: Vec<capsched_str> = accessible
            .iter()
            .map(|n| super::apps::keep(&mut strings, n))
            .collect();
        // `keep` gives "" a non-NULL pointer, so a set empty expression stays set.
        let default_node_label_expression = match &default_expression {
            Some(expr) => super::apps::keep(&mut strings, expr),
            None => capsched_str::EMPTY,
        };
        let (accessible, accessible_count) = give_array(names);
        let owner = Box::new(QueueLabelsOwner {
            public: capsched_queue_labels {
                accessible,
                accessible_count,
                default_node_label_expression,
            },
            strings,
        });
        write_out(out, Box::into_raw(owner).cast(), "out")
    })
}

/// Frees what `capsched_queue_node_labels` gave; NULL is fine.
///
/// # Safety
/// `labels` NULL or from `capsched_queue_node_labels`, not freed before.
#[no_mangle]
pub unsafe extern "C" fn capsched_queue_labels_free(labels: *mut capsched_queue_labels) {
    if labels.is_null() {
        return;
    }
    let owner = Box::from_raw(labels.cast::<QueueLabelsOwner>());
    free_array(owner.public.accessible, owner.public.accessible_count);
}
