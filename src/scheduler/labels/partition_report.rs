//! What reports read per labelled partition (YARN's `ResourceUsage` and `QueueCapacities` by
//! partition, as the RM REST document's `resourceUsagesByPartition` and
//! `queueCapacitiesByPartition` show them): the partitions a queue or a user has touched, its
//! figures in each, and totals over every partition for hosts that count a queue's work
//! wherever it runs (the simulator). Made only when a report is asked for.
//!
//! Which partitions a queue lists, as YARN 3.3.6 fills its `ResourceUsage` (an entry, once
//! made, stays, at zero too):
//! * those it has used, reserved or asked for (usage is booked to the node's partition,
//!   pending to the request's), up the queue chain;
//! * a leaf's AM partitions (`incAMUsed`), and, once the cluster has resources, every partition
//!   `activateApplications` sets an AM limit for (`getNodeLabelsForQueue`: its accessible
//!   labels; for `*`, the labels it has capacities for or has touched).
//!
//! A user lists the partitions it has used or run an AM in.

use crate::config::node_labels::AccessibleLabels;
use crate::resource::Resource;
use crate::scheduler::CapacityScheduler;
use crate::state::partition::{ByPartition, Partition, DEFAULT_PARTITION};
use crate::state::queue::QueueId;
use crate::state::users::User;

/// One labelled partition's figures of a queue or a user (`PartitionResourcesInfo`, and for a
/// queue its used capacities from `QueueCapacities`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LivePartition {
    /// The label (never `""`: the default partition's figures are the plain ones).
    pub label: String,
    /// Reservations included, as YARN's `ResourceUsage.getUsed`.
    pub used: Resource,
    /// Queues only (users' stay zero, as YARN's `User` books no reservation or ask).
    pub reserved: Resource,
    pub pending: Resource,
    /// Leaves and users only from here on.
    pub am_used: Resource,
    /// The AM limit set for this partition: the leaf's, or the user's at its activations;
    /// zero where YARN never sets one (a partition the leaf may not use).
    pub am_limit: Resource,
    /// The leaf's per-user AM limit before the user's weight, set where an application with
    /// its AM in this partition was activated (computed with the active users now; YARN shows
    /// the last one it computed); zero for users, as YARN's.
    pub user_am_limit: Resource,
    /// Queues only: `usedCapacity` (used over the guarantee here, at least one minimum
    /// allocation; not capped) and `absoluteUsedCapacity` (used over the partition), 0 while
    /// the partition has no resource (`CSQueueUtils.updateUsedCapacity`).
    pub used_capacity: f32,
    pub absolute_used_capacity: f32,
}

/// Whether `bp` has an entry for `p` (made once, kept at zero).
fn touched(bp: &ByPartition, p: Partition) -> bool {
    bp.iter().any(|(q, _)| q == p)
}

impl CapacityScheduler {
    /// The labelled partitions `q` lists (see the module documentation), by label in the
    /// order the cluster's labels were added (then labels the cluster does not have, which a
    /// leaf may list as accessible), each with its figures.
    pub fn queue_partitions(&self, q: QueueId) -> Vec<LivePartition> {
        let tree = &self.tree;
        let queue = tree.queue(q);
        let leaf = self.leaf(q);
        let mut ids: Vec<Partition> = queue
            .labelled_used
            .iter()
            .chain(self.queue_labelled_reserved[q].iter())
            .chain(self.queue_labelled_pending[q].iter())
            .chain(leaf.into_iter().flat_map(|l| l.labelled_am_used.iter()))
            .map(|(p, _)| p)
            .filter(|&p| p != DEFAULT_PARTITION)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let mut labels: Vec<String> = Vec::new();
        for &p in &ids {
            let name = self.labels.name(p);
            if !labels.iter().any(|l| **l == **name) {
                labels.push(name.to_string());
            }
        }
        // The partitions a leaf's AM limits are set for (`getNodeLabelsForQueue`), once the
        // cluster has resources (`activateApplications` runs at every cluster update).
        let mut am_limited: Vec<String> = Vec::new();
        if leaf.is_some() && !tree.cluster_resource().is_zero() {
            let qc = tree.conf(q);
            am_limited = match &qc.labels.accessible {
                AccessibleLabels::Only(set) => set.iter().cloned().collect(),
                AccessibleLabels::Any => tree
                    .partition_capacities(q)
                    .keys()
                    .cloned()
                    .chain(labels.iter().cloned())
                    .collect(),
            };
            for l in &am_limited {
                if !labels.contains(l) {
                    labels.push(l.clone());
                }
            }
        }
        let active_users = leaf
            .map(|l| l.users.active_users_for_am_limit())
            .unwrap_or(0);
        labels
            .into_iter()
            .map(|label| {
                // A label removed and added again has a new id: both count.
                let same: Vec<Partition> = ids
                    .iter()
                    .copied()
                    .filter(|&p| **self.labels.name(p) == *label)
                    .collect();
                let sum = |bp: &ByPartition| -> Resource { same.iter().map(|&p| bp.get(p)).sum() };
                let am_used = leaf.map(|l| sum(&l.labelled_am_used)).unwrap_or_default();
                let am_touched =
                    leaf.is_some_and(|l| same.iter().any(|&p| touched(&l.labelled_am_used, p)));
                let used = sum(&queue.labelled_used);
                let (used_capacity, absolute_used_capacity) =
                    self.tree.used_capacities_in(q, &label, used);
                LivePartition {
                    used,
                    reserved: sum(&self.queue_labelled_reserved[q]),
                    pending: sum(&self.queue_labelled_pending[q]),
                    am_used,
                    am_limit: if am_limited.contains(&label) {
                        tree.am_resource_limit_in(q, &label)
                    } else {
                        Resource::ZERO
                    },
                    user_am_limit: if am_touched {
                        tree.user_am_resource_limit_in(q, &label, active_users, 1.0)
                    } else {
                        Resource::ZERO
                    },
                    used_capacity,
                    absolute_used_capacity,
                    label,
                }
            })
            .collect()
    }

    /// The labelled partitions a user of leaf `q` lists: those it has used or had AMs in, with
    /// its use, its AM use and, where it ran an AM, its AM limit there (weighted, with the
    /// leaf's active users now).
    pub(crate) fn user_partitions(&self, q: QueueId, user: &User) -> Vec<LivePartition> {
        let active_users = self
            .leaf(q)
            .map(|l| l.users.active_users_for_am_limit())
            .unwrap_or(0);
        let mut ids: Vec<Partition> = user
            .labelled_used
            .iter()
            .chain(user.labelled_am_used.iter())
            .map(|(p, _)| p)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let mut out: Vec<LivePartition> = Vec::new();
        for p in ids {
            let label = self.labels.name(p).to_string();
            let am_limit = if touched(&user.labelled_am_used, p) {
                self.tree
                    .user_am_resource_limit_in(q, &label, active_users, user.weight)
            } else {
                Resource::ZERO
            };
            let used = user.labelled_used.get(p);
            let am_used = user.labelled_am_used.get(p);
            match out.iter_mut().find(|e| e.label == label) {
                Some(e) => {
                    e.used += used;
                    e.am_used += am_used;
                    e.am_limit = Resource::component_max(e.am_limit, am_limit);
                }
                None => out.push(LivePartition {
                    label,
                    used,
                    am_used,
                    am_limit,
                    ..LivePartition::default()
                }),
            }
        }
        out
    }

    /// What `q` uses in every partition together (reservations included): what it holds
    /// wherever its containers run.
    pub fn queue_used_all_partitions(&self, q: QueueId) -> Resource {
        let queue = self.tree.queue(q);
        queue.used + queue.labelled_used.sum()
    }

    /// What `q` has reserved in every partition together.
    pub fn queue_reserved_all_partitions(&self, q: QueueId) -> Resource {
        self.queue_reserved[q] + self.queue_labelled_reserved[q].sum()
    }

    /// What `q` asks for in every partition together.
    pub fn queue_pending_all_partitions(&self, q: QueueId) -> Resource {
        self.queue_pending[q] + self.queue_labelled_pending[q].sum()
    }

    /// Whether the cluster has node labels (a host's per-partition reporting is then needed).
    pub fn has_node_labels(&self) -> bool {
        self.labels.has_labels()
    }
}
