//! The immutable view the preemption policy computes on (`TempQueuePerPartition` /
//! `TempAppPerPartition`): queues per partition, applications with their containers, nodes.
//! Built from the scheduler by `CapacityScheduler::preemption_snapshot`, or by the conformance
//! harness from Hadoop's test vectors. The policy never sees the live scheduler.

use crate::sync::Arc;

use smallvec::SmallVec;

use crate::resource::{Resource, ResourceCalculator};

/// One figure per partition, inline for a cluster without labels (no allocation per user or
/// application in a snapshot).
pub type PerPartition = SmallVec<[Resource; 1]>;

/// `f(p)` for each of `partitions` partitions.
pub fn per_partition(partitions: usize, f: impl Fn(usize) -> Resource) -> PerPartition {
    if partitions == 1 {
        PerPartition::from_buf([f(0)])
    } else {
        (0..partitions).map(f).collect()
    }
}

/// A node partition (label). Index 0 is the default partition `""`.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionSnap {
    pub name: String,
    pub resource: Resource,
    pub exclusive: bool,
}

/// One queue's figures in one partition.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueuePartitionSnap {
    /// Effective minimum (guaranteed) resource; zero when unknown (then derived from
    /// `absolute_capacity`).
    pub guaranteed: Resource,
    /// Effective maximum; zero when unknown (then derived from `absolute_max_capacity`).
    pub max: Resource,
    /// Allocated plus reserved.
    pub used: Resource,
    pub reserved: Resource,
    /// Killable (lazy preemption).
    pub killable: Resource,
    /// Outstanding demand within user limits, reserved included (leaves; parents: Σ children).
    pub pending: Resource,
    /// The same, with reserved deducted (the default selectors' demand).
    pub pending_deduct_reserved: Resource,
    pub absolute_capacity: f32,
    pub absolute_max_capacity: f32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct QueueSnap {
    pub path: String,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// Indexed by partition.
    pub partitions: Vec<QueuePartitionSnap>,
    /// Effective cross-queue `disable_preemption` (inheritance already resolved).
    pub preemption_disabled: bool,
    pub intra_queue_preemption_disabled: bool,
    /// The queue's priority when its parent orders by priority-utilization, else 0.
    pub relative_priority: i32,
    /// Leaf: applications in scheduling order (preemption walks it in reverse).
    pub apps: Vec<usize>,
    /// Leaf: `maximum-am-resource-percent` and the effective capacity it applies to (the AM
    /// pass's budget, spec P5.2 step 3).
    pub max_am_resource_percent: f32,
    pub effective_capacity: Resource,
    /// Leaf: its users, for the intra-queue selector (spec P6.3).
    pub users: Vec<UserSnap>,
    /// Leaf: applications submitted but not activated (held by the AM limit), which the
    /// intra-queue selector counts among the leaf's apps (`getAllApplications`); never victims.
    pub inactive_apps: Vec<usize>,
    /// Leaf with the fair ordering policy: its apps in the policy's order (the comparator
    /// the intra-queue selector applies to apps of one user). `None` for FIFO.
    pub fair_order: Option<Vec<usize>>,
}

/// An application's AM as YARN records it: `getAMResource(partition)` (set when the attempt is
/// created, for unmanaged AMs too) and `isWaitingForAMContainer` (a managed AM not yet placed).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AmSnap {
    pub resource: Resource,
    pub partition: usize,
    pub waiting: bool,
}

impl AmSnap {
    /// `getAMResource(partition)`.
    pub fn resource_in(&self, partition: usize) -> Resource {
        if self.partition == partition {
            self.resource
        } else {
            Resource::ZERO
        }
    }
}

/// A user of a leaf queue (`User` / `TempUserPerPartition`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UserSnap {
    pub name: Arc<str>,
    /// Used by the user's containers in the queue, AMs included, by partition.
    pub used: PerPartition,
    /// `getResourceLimitForAllUsers` (every user of the queue counted, weight applied), by
    /// partition.
    pub limit: PerPartition,
}

impl QueueSnap {
    pub fn is_leaf(&self) -> bool {
        self.children.is_empty()
    }
}

/// A container, live or reserved.
#[derive(Debug, Clone, PartialEq)]
pub struct ContainerSnap {
    /// The host-visible id (what the policy reports).
    pub id: u64,
    /// Order of allocation within the app ("container id"): larger is newer.
    pub sequence: i64,
    pub resource: Resource,
    pub priority: i32,
    pub allocation_request_id: i64,
    pub is_am: bool,
    pub node: usize,
    /// The partition of the node it runs on.
    pub partition: usize,
    /// Asked for the default partition but placed on a labelled node.
    pub ignore_exclusivity: bool,
    /// When it was allocated (or reserved), on the snapshot's clock.
    pub created_ms: i64,
    /// Already killable (lazy preemption): the selectors pass it by, its queue's `killable`
    /// counts it.
    pub killable: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AppSnap {
    /// The host-visible application (attempt) id.
    pub id: u64,
    /// A name for reports (`appA`, `app1`, `application_…`).
    pub name: Arc<str>,
    pub queue: usize,
    /// Its user. Only the intra-queue selector reads it: the scheduler's snapshot leaves it
    /// empty without that selector.
    pub user: Arc<str>,
    /// Where its user is in its leaf's `users`, when the builder knows it (the scheduler's
    /// snapshot does); `None`: the intra-queue selector looks the user up by name.
    pub user_index: Option<usize>,
    pub priority: i32,
    /// The sequence number of YARN's `ApplicationId`: applications of equal priority are
    /// ordered by it (older first).
    pub application_seq: u64,
    /// Outstanding demand by partition (`getTotalPendingRequestsPerPartition`); missing
    /// partitions have none.
    pub pending: PerPartition,
    /// The AM as the intra-queue selector counts it.
    pub am: AmSnap,
    /// Running containers. Shared with the scheduler, which keeps each attempt's list
    /// copy-on-write, so a snapshot costs O(apps), not O(containers).
    pub live: Arc<Vec<ContainerSnap>>,
    /// The sum of `live`'s resources when every one of them runs in the default partition
    /// and the builder knows it (the scheduler without labelled partitions: the attempt's
    /// `used`, which the invariant checker holds to its containers); `None`: the policy sums
    /// `live` when it needs it.
    pub live_used: Option<Resource>,
    pub reserved: Vec<ContainerSnap>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NodeSnap {
    pub name: Arc<str>,
    pub partition: usize,
    pub unallocated: Resource,
    pub killable: Resource,
    /// (app index, index into that app's `reserved`).
    pub reservation: Option<(usize, usize)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PreemptionSnapshot {
    pub calculator: ResourceCalculator,
    pub cluster: Resource,
    pub minimum_allocation: Resource,
    pub partitions: Vec<PartitionSnap>,
    /// Pre-order; index 0 is root.
    pub queues: Vec<QueueSnap>,
    pub apps: Vec<AppSnap>,
    /// Indexed by node (the scheduler's slab slot). Only the reserved-container and
    /// queue-priority selectors read them: the scheduler's snapshot has none unless its
    /// configuration turns one of them on.
    pub nodes: Vec<NodeSnap>,
}

impl AppSnap {
    /// The app's pending demand in `partition`.
    pub fn pending_in(&self, partition: usize) -> Resource {
        self.pending.get(partition).copied().unwrap_or_default()
    }

    /// What its running containers in `partition` hold.
    pub fn used_in(&self, partition: usize) -> Resource {
        match self.live_used {
            Some(used) if partition == 0 => used,
            Some(_) => Resource::ZERO,
            None => self
                .live
                .iter()
                .filter(|c| c.partition == partition)
                .map(|c| c.resource)
                .sum(),
        }
    }
}

impl UserSnap {
    pub fn used_in(&self, partition: usize) -> Resource {
        self.used.get(partition).copied().unwrap_or_default()
    }

    pub fn limit_in(&self, partition: usize) -> Resource {
        self.limit.get(partition).copied().unwrap_or_default()
    }
}

impl PreemptionSnapshot {
    /// Every node's running containers as (app index, index into that app's `live`), in app
    /// then list order. Built on demand: only the reserved-container selector needs it.
    pub fn containers_by_node(&self) -> Vec<Vec<(usize, usize)>> {
        let mut by_node = vec![Vec::new(); self.nodes.len()];
        for (a, app) in self.apps.iter().enumerate() {
            for (i, c) in app.live.iter().enumerate() {
                if let Some(list) = by_node.get_mut(c.node) {
                    list.push((a, i));
                }
            }
        }
        by_node
    }
}
