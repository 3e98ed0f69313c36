//! Each queue's figures as a ResourceManager publishes them outside the scheduler: YARN's
//! `QueueInfo` (`yarn queue -status`), the `QueueMetrics`/`CSQueueMetrics` beans (JMX, the
//! cluster metrics REST answer, dashboards). The RM plug-in keeps YARN's own bookkeeping
//! (applications by state, allocated and pending resources) and takes from here what only the
//! scheduler knows: guarantees, availability, reservations, AM figures, capacities, limits,
//! states and preemption settings. Every figure is O(1) per queue, so a host may read them after
//! each event, as the stock scheduler updates its metrics at each allocation.

use super::CapacityScheduler;
use crate::config::QueueState;
use crate::resource::Resource;
use crate::state::queue::QueueId;

/// One queue's figures in the default partition (YARN's plain figures are that partition's).
#[derive(Debug, Clone, PartialEq)]
pub struct QueueStatus {
    pub path: String,
    /// The parent's index in the list (pre-order: always before the child); `None` for root.
    pub parent: Option<usize>,
    pub is_leaf: bool,
    /// RUNNING, STOPPED or DRAINING, as `getState()` has it now.
    pub state: QueueState,
    /// Fractions (0–1): of the parent, and of the cluster.
    pub capacity: f32,
    pub maximum_capacity: f32,
    pub absolute_capacity: f32,
    pub absolute_maximum_capacity: f32,
    /// `QueueCapacities` used capacity: used over the guarantee (at least the minimum
    /// allocation); and used over the partition.
    pub used_capacity: f32,
    pub absolute_used_capacity: f32,
    /// `getEffectiveCapacity` / `getEffectiveMaxCapacity`: the guaranteed and maximum
    /// resources for the current cluster.
    pub guaranteed: Resource,
    pub maximum: Resource,
    /// An absolute queue's configured minimum and maximum resources, root's the default
    /// partition's; none otherwise.
    pub configured_minimum: Resource,
    pub configured_maximum: Resource,
    /// The subtree's containers, reservations included (YARN's `ResourceUsage` used).
    pub used: Resource,
    pub reserved: Resource,
    /// Reservations beneath (`reservedContainers`).
    pub reserved_containers: i64,
    /// What the subtree's attempts still ask for.
    pub pending: Resource,
    /// The configured maximum allocation (`maximum-allocation-mb`/`-vcores`, else the
    /// scheduler's): the RM's `getMaximumResourceCapability(queue)` is its component-wise
    /// minimum with the cluster's node-aware maximum.
    pub maximum_allocation: Resource,
    /// YARN's `getNumApplications` (a leaf's attempts; a parent's applications beneath).
    pub num_applications: i32,
    /// Leaves only from here on (zero, or the defaults, for a parent).
    pub num_active_applications: i32,
    pub num_pending_applications: i32,
    /// The leaf's AM resource limit and the AM containers' resource now.
    pub am_limit: Resource,
    pub am_used: Resource,
    /// `maximum-am-resource-percent` as a fraction (a parent: the scheduler-wide value).
    pub maximum_am_resource_percent: f32,
    pub max_applications: i32,
    pub max_applications_per_user: i32,
    /// `minimum-user-limit-percent` (0–100) and `user-limit-factor`.
    pub user_limit_percent: f32,
    pub user_limit_factor: f32,
    pub default_application_priority: i32,
    /// `getPreemptionDisabled()` and `getIntraQueuePreemptionDisabled()` (every queue: with
    /// the monitor off both are true, as YARN's are).
    pub preemption_disabled: bool,
    pub intra_queue_preemption_disabled: bool,
}

impl CapacityScheduler {
    /// Every queue's figures, in pre-order (root first).
    pub fn queue_statuses(&self) -> Vec<QueueStatus> {
        (0..self.tree.len()).map(|q| self.queue_status(q)).collect()
    }

    fn queue_status(&self, q: QueueId) -> QueueStatus {
        let tree = &self.tree;
        let queue = tree.queue(q);
        let conf = tree.conf(q);
        let c = &queue.capacities;
        let leaf_conf = conf.leaf.as_ref();
        let lr = self.leaf(q);
        // Root's configured resources are the default partition's, set at every cluster
        // update (as the REST document states them).
        let (configured_minimum, configured_maximum) = if q == 0 {
            let p = tree.default_partition_resource();
            (p, p)
        } else {
            conf.configured_resources()
        };
        QueueStatus {
            path: conf.path.clone(),
            parent: tree.parent(q),
            is_leaf: tree.is_leaf(q),
            state: queue.state,
            capacity: c.capacity,
            maximum_capacity: c.maximum_capacity,
            absolute_capacity: c.absolute_capacity,
            absolute_maximum_capacity: c.absolute_maximum_capacity,
            used_capacity: tree.used_capacity(q),
            absolute_used_capacity: tree.absolute_used_capacity(q),
            guaranteed: c.effective_min,
            maximum: c.effective_max,
            configured_minimum,
            configured_maximum,
            used: queue.used,
            reserved: self.queue_reserved(q),
            reserved_containers: self.queue_reserved_containers(q),
            pending: self.queue_pending(q),
            maximum_allocation: conf.maximum_allocation,
            num_applications: self.num_applications(q),
            num_active_applications: lr.map_or(0, |l| l.active.len() as i32),
            num_pending_applications: lr.map_or(0, |l| l.pending.len() as i32),
            am_limit: if lr.is_some() {
                tree.am_resource_limit(q)
            } else {
                Resource::ZERO
            },
            am_used: lr.map_or(Resource::ZERO, |l| l.am_used),
            // A parent's is the scheduler-wide value (YARN's `QueueCapacities` keeps one for
            // every queue).
            maximum_am_resource_percent: leaf_conf
                .map_or(tree.settings().maximum_am_resource_percent, |l| {
                    l.maximum_am_resource_percent
                }),
            max_applications: queue.leaf.map_or(0, |l| l.max_applications),
            max_applications_per_user: queue.leaf.map_or(0, |l| l.max_applications_per_user),
            user_limit_percent: leaf_conf.map_or(100.0, |l| l.user_limit_percent),
            user_limit_factor: leaf_conf.map_or(1.0, |l| l.user_limit_factor),
            default_application_priority: leaf_conf.map_or(0, |l| l.default_application_priority),
            preemption_disabled: tree.preemption_disabled(q),
            intra_queue_preemption_disabled: tree.intra_queue_preemption_disabled(q),
        }
    }

    /// Moves on whenever a figure of [`Self::queue_statuses`] may have changed (usage,
    /// reservations, asks, activations, the cluster or the configuration), so a host that
    /// mirrors them reads them again only then. Every counter it sums only grows.
    pub fn figures_version(&self) -> u64 {
        self.usage_epoch
            .wrapping_add(self.demand_version)
            .wrapping_add(self.tree.generation())
            .wrapping_add(self.attempts_epoch)
    }
}

/// One user of a leaf, in the default partition: what per-user queue metrics
/// (`yarn.scheduler.capacity.user-metrics.enable`) take from the scheduler.
#[derive(Debug, Clone, PartialEq)]
pub struct UserStatus {
    pub name: String,
    /// Allocated plus reserved.
    pub used: Resource,
    pub am_used: Resource,
    /// The user's AM limit with the leaf's active users now (`getUserAMResourceLimitPerPartition`).
    pub am_limit: Resource,
    /// The user's limit now, and the headroom an AM of the user is told (`LeafQueue.getHeadroom`).
    pub user_limit: Resource,
    pub headroom: Resource,
    pub weight: f32,
    pub active_applications: u32,
    pub pending_applications: u32,
}

impl CapacityScheduler {
    /// The users of `leaf`, in the order the leaf keeps them; `None` when `leaf` is not a leaf.
    pub fn queue_users(&self, leaf: QueueId) -> Option<Vec<UserStatus>> {
        let lr = self.leaf(leaf)?;
        Some(
            lr.users
                .users()
                .filter_map(|(name, _)| self.queue_user(leaf, name))
                .collect(),
        )
    }

    /// One user of `leaf`, or what the leaf's figures would be for a user it does not have
    /// (nothing used, the configured weight): LeafQueue computes a user's headroom as its last
    /// container goes. `None` when `leaf` is not a leaf.
    pub fn queue_user(&self, leaf: QueueId, name: &str) -> Option<UserStatus> {
        let lr = self.leaf(leaf)?;
        let active = lr.users.active_users_for_am_limit();
        let u = lr.users.get(name);
        let weight = u.map_or_else(|| self.user_weight(leaf, name), |u| u.weight);
        Some(UserStatus {
            name: name.to_string(),
            used: u.map_or(Resource::ZERO, |u| u.used),
            am_used: u.map_or(Resource::ZERO, |u| u.am_used),
            am_limit: self.tree.user_am_resource_limit(leaf, active, weight),
            user_limit: self.user_limit(leaf, name).unwrap_or_default(),
            headroom: self.headroom(leaf, name).unwrap_or_default(),
            weight,
            active_applications: u.map_or(0, |u| u.active_apps),
            pending_applications: u.map_or(0, |u| u.pending_apps),
        })
    }
}
