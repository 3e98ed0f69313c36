//! **Node labels and partitions** (`scheduler::labels`): this file's label manager calls and
//! relabelled nodes, `request_labels` (a request's label expression defaulted and checked, the
//! partition it names) and `partition_report` (the per-partition figures reports read). It
//! may use the scheduler's state, `state::labels` (the label manager itself) and the floors
//! below.
//!
//! Node labels at run time: the cluster's labels and the node mapping changed through the
//! scheduler (the RM's label manager calls, `NODE_LABELS_UPDATE`), and a relabelled node's
//! running containers moved to its new partition as `CapacityScheduler.updateLabelsOnNode`
//! moves them (docs/SEMANTICS.md, "Node labels").

pub mod partition_report;
pub(super) mod request_labels;

use super::apps::containers::Completion;
use super::{CapacityScheduler, SchedulerError};
use crate::config::node_labels::AccessibleLabels;
use crate::ids::NodeId;
use crate::records::{diagnostics, exit_status};
use crate::resource::Resource;
use crate::state::partition::{get_in, Partition};
use crate::state::queue::QueueId;

/// A queue's figures in one partition.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PartitionUsage {
    pub used: Resource,
    pub reserved: Resource,
    pub pending: Resource,
    pub am_used: Resource,
}

impl CapacityScheduler {
    /// `addToCluserNodeLabels`: `(name, exclusive)` pairs; YARN's words when refused.
    pub fn add_cluster_node_labels(
        &mut self,
        labels: &[(String, bool)],
    ) -> Result<(), SchedulerError> {
        let enabled = self.tree.settings().node_labels_enabled;
        self.labels
            .add_cluster_labels(enabled, labels)
            .map_err(SchedulerError::NodeLabels)
    }

    /// `removeFromClusterNodeLabels`: refused while a queue lists a label (the first such
    /// queue in the hierarchy's order is named); nodes carrying one fall back to the default
    /// partition, their containers' usage with them.
    pub fn remove_cluster_node_labels(
        &mut self,
        now_ms: i64,
        names: &[String],
    ) -> Result<(), SchedulerError> {
        let enabled = self.tree.settings().node_labels_enabled;
        let tree = &self.tree;
        let queue_using = |label: &str| {
            (0..tree.len())
                .find(|&q| match &tree.conf(q).labels.accessible {
                    AccessibleLabels::Only(set) => set.contains(label),
                    AccessibleLabels::Any => false,
                })
                .map(|q| tree.path(q).to_string())
        };
        self.labels
            .remove_cluster_labels(enabled, names, queue_using)
            .map_err(SchedulerError::NodeLabels)?;
        self.node_partitions_changed(now_ms);
        Ok(())
    }

    /// `replaceLabelsOnNode`: `(node, labels)` pairs, a node being a host (`h1`, `h1:0`) or
    /// one NodeManager (`h1:1234`), labels at most one (none: unlabelled). Nodes not yet
    /// registered keep the mapping for when they do.
    pub fn replace_labels_on_nodes(
        &mut self,
        now_ms: i64,
        mapping: &[(String, Vec<String>)],
    ) -> Result<(), SchedulerError> {
        let enabled = self.tree.settings().node_labels_enabled;
        self.labels
            .replace_labels_on_nodes(enabled, mapping)
            .map_err(SchedulerError::NodeLabels)?;
        self.node_partitions_changed(now_ms);
        Ok(())
    }

    /// The cluster's labels: `(name, exclusive)`, in the order they were added.
    pub fn cluster_node_labels(&self) -> Vec<(String, bool)> {
        self.labels
            .cluster_labels()
            .map(|(_, l)| (l.name.to_string(), l.exclusive))
            .collect()
    }

    /// What `q` uses (reservations included), has reserved, asks for and, for a leaf, gives
    /// its AMs in the partition named `label` (`""`: the default one); zero for a label the
    /// cluster does not have.
    pub fn queue_partition_usage(&self, q: QueueId, label: &str) -> PartitionUsage {
        let Some(p) = self.labels.partition(label) else {
            return PartitionUsage::default();
        };
        let am_used = self
            .leaf(q)
            .map(|l| get_in(l.am_used, &l.labelled_am_used, p))
            .unwrap_or_default();
        PartitionUsage {
            used: self.queue_used_in(q, p),
            reserved: get_in(self.queue_reserved[q], &self.queue_labelled_reserved[q], p),
            pending: get_in(self.queue_pending[q], &self.queue_labelled_pending[q], p),
            am_used,
        }
    }

    /// What `user` uses in leaf `q` in the partition named `label`: (used, AM used).
    pub fn user_partition_usage(
        &self,
        q: QueueId,
        user: &str,
        label: &str,
    ) -> (Resource, Resource) {
        let (Some(p), Some(u)) = (
            self.labels.partition(label),
            self.leaf(q).and_then(|l| l.users.get(user)),
        ) else {
            return (Resource::ZERO, Resource::ZERO);
        };
        (u.used_in(p), get_in(u.am_used, &u.labelled_am_used, p))
    }

    /// A node's partition name (`""`: the default partition).
    pub fn node_partition(&self, node: NodeId) -> Option<&str> {
        self.nodes
            .get(node)
            .map(|n| &**self.labels.name(n.partition))
    }

    /// Each registered node takes its mapping's partition; those that changed move their
    /// containers, then every derived value follows the partitions' new sizes.
    fn node_partitions_changed(&mut self, now_ms: i64) {
        let changed: Vec<(NodeId, Partition)> = self
            .nodes
            .iter()
            .filter_map(|(id, n)| {
                let p = self.labels.partition_of(&n.host, &n.address);
                (p != n.partition).then_some((id, p))
            })
            .collect();
        if changed.is_empty() {
            return;
        }
        for (node, to) in changed {
            self.relabel_node(now_ms, node, to);
        }
        self.cluster_resource_changed(now_ms);
    }

    /// `updateLabelsOnNode`: the node's reservation is killed; every guaranteed container's
    /// usage (application, user, queues, and the AM's) moves to the new partition; nothing
    /// is killed or preempted.
    fn relabel_node(&mut self, now_ms: i64, node: NodeId, to: Partition) {
        if let Some(r) = self.nodes[node].reserved {
            self.complete_container(
                now_ms,
                r,
                exit_status::ABORTED,
                diagnostics::UNRESERVED,
                Completion::Killed,
            );
        }
        let from = self.nodes[node].partition;
        let ids: Vec<_> = self.nodes[node]
            .containers
            .iter()
            .chain(self.nodes[node].opportunistic())
            .copied()
            .collect();
        for id in ids {
            let (app, resource, guaranteed, is_am, pos) = {
                let c = &mut self.containers[id];
                c.partition = to;
                (
                    c.app,
                    c.resource,
                    !c.is_opportunistic(),
                    c.is_am,
                    c.view_pos,
                )
            };
            if !guaranteed || !self.apps.contains(app) {
                continue;
            }
            // The preemption view charges the container to its node's partition too.
            if let Some(t) = self.apps[app].attempt.as_mut() {
                if t.live_containers.contains(&id) {
                    if let Some(v) = super::preemption::preempt_view::view_entry_mut(t, pos) {
                        v.partition = to as usize;
                    }
                }
            }
            self.add_app_used(app, from, -resource);
            self.add_app_used(app, to, resource);
            // FiCaSchedulerApp.nodePartitionUpdated: the AM's partition follows its node.
            let am = self.apps[app]
                .attempt
                .as_ref()
                .filter(|t| is_am && t.am_container == Some(id))
                .map(|t| (t.am_partition, t.am_resource, t.am_counted));
            if let Some((am_from, am_resource, counted)) = am {
                let (leaf, user) = (self.apps[app].queue, self.apps[app].user.clone());
                if counted {
                    self.add_am_used(leaf, &user, am_from, -am_resource);
                    self.add_am_used(leaf, &user, to, am_resource);
                }
                if let Some(t) = self.apps[app].attempt.as_mut() {
                    t.am_partition = to;
                }
            }
        }
        self.nodes[node].partition = to;
    }
}
