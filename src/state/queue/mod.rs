//! The queue tree: an arena of parent and leaf queues in pre-order (root = 0), with every
//! value YARN derives from the configuration and the cluster size (spec §2).
//!
//! Usage (`used`) is kept per queue so that the limits that depend on it — the limit a parent
//! hands to a child, the AM limit, used capacity — are computed exactly as YARN computes them;
//! the scheduler core updates it as containers come and go.
//!
//! The folder may use the configuration (a queue's types, the scheduler-wide settings, and
//! the capacities `config::derived` derives for a cluster size), the resource arithmetic and
//! the partitions' resources (`state::partition`); the scheduler core builds on it. This file
//! is its bottom — the tree, its lookups and its derived capacities — and `limits` (what YARN
//! derives per leaf: application caps, the limit a parent hands down, AM limits) builds on it.

mod limits;

use crate::sync::Arc;
use std::collections::HashMap;

use smallvec::SmallVec;

pub use capacities::QueueCapacities;

use crate::config::derived::{capacities, partitions};
use crate::config::{CapacitySchedulerConfiguration, QueueConf, QueueState, SchedulerSettings};
use crate::resource::{divide_or_zero, divide_or_zero_inlined, Resource};

/// Index of a queue in its [`QueueTree`] (the same index as in the configuration).
pub type QueueId = usize;

#[derive(Debug, Clone)]
pub struct Queue {
    pub id: QueueId,
    /// Derived capacities for the current cluster size.
    pub capacities: QueueCapacities,
    /// Run-time state: starts as configured, may become DRAINING on refresh.
    pub state: QueueState,
    /// Allocated plus reserved resources of the whole subtree, in the default partition.
    pub used: Resource,
    /// The same in the labelled partitions.
    pub labelled_used: crate::state::partition::ByPartition,
    /// The limit the parent hands down (`getResourceLimitsOfChild`), recomputed with the
    /// cluster resource and usage; root's is the cluster.
    pub limit_from_parent: Resource,
    /// Leaf-only derived limits.
    pub leaf: Option<LeafLimits>,
}

/// Leaf-only limits that depend on configuration and cluster size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafLimits {
    pub max_applications: i32,
    pub max_applications_per_user: i32,
}

/// Why a queue name did not resolve (spec §1.1: short names only when unique).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueueLookupError {
    Unknown(String),
    Ambiguous(String),
}

impl std::fmt::Display for QueueLookupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueueLookupError::Unknown(q) => write!(f, "unknown queue: {}", crate::echo::echo(q)),
            QueueLookupError::Ambiguous(q) => write!(
                f,
                "ambiguous queue: {} please use full queue path instead.",
                crate::echo::echo(q)
            ),
        }
    }
}

impl std::error::Error for QueueLookupError {}

#[derive(Debug, Clone)]
pub struct QueueTree {
    conf: Arc<CapacitySchedulerConfiguration>,
    queues: Vec<Queue>,
    /// Each queue's capacities on the labels it has keys for (`partitions`).
    partitions: Vec<std::collections::BTreeMap<String, partitions::PartitionCapacities>>,
    /// The resource of each labelled partition (the running nodes carrying the label); a
    /// label no node carries has none.
    partition_resources: std::collections::BTreeMap<String, Resource>,
    by_path: HashMap<String, QueueId>,
    by_name: HashMap<String, SmallVec<[QueueId; 1]>>,
    cluster: Resource,
    /// The default partition's resource (the running unlabelled nodes): what the plain
    /// capacities, limits and used capacities are taken of. The cluster's when no node has
    /// a label.
    default_partition: Resource,
    /// Changes whenever a derived value other than usage may have changed (cluster or
    /// partition resources, configuration): what caches of values derived from capacities
    /// (the children's order, `alloc::ordering`) are keyed by. Counted per scheduler, never
    /// per process: a refreshed tree starts after the one it replaces (`new_following`), so
    /// within one scheduler generations only grow and a cache never mistakes a refreshed tree
    /// for the one it was built on, while two engines in one process never share a counter.
    generation: u64,
    /// Each queue's place in its parent's `queues` list (root: 0).
    position_in_parent: Vec<u32>,
}

impl QueueTree {
    /// A tree for an empty cluster (no node registered yet).
    pub fn new(conf: Arc<CapacitySchedulerConfiguration>) -> Self {
        Self::starting_at(conf, 1)
    }

    /// The tree that replaces `previous` (a refresh): its generations go on from the
    /// previous tree's, so none repeats one a cache may have been keyed by.
    pub fn new_following(conf: Arc<CapacitySchedulerConfiguration>, previous: &QueueTree) -> Self {
        Self::starting_at(conf, previous.generation + 1)
    }

    fn starting_at(conf: Arc<CapacitySchedulerConfiguration>, generation: u64) -> Self {
        let mut by_path = HashMap::new();
        let mut by_name: HashMap<String, SmallVec<[QueueId; 1]>> = HashMap::new();
        let queues = conf
            .queues()
            .iter()
            .enumerate()
            .map(|(id, qc)| {
                by_path.insert(qc.path.clone(), id);
                by_name.entry(qc.name.clone()).or_default().push(id);
                Queue {
                    id,
                    capacities: QueueCapacities::default(),
                    state: qc.state,
                    used: Resource::ZERO,
                    labelled_used: Default::default(),
                    limit_from_parent: Resource::ZERO,
                    leaf: None,
                }
            })
            .collect();
        let mut tree = QueueTree {
            conf,
            queues,
            partitions: Vec::new(),
            partition_resources: Default::default(),
            by_path,
            by_name,
            cluster: Resource::ZERO,
            default_partition: Resource::ZERO,
            generation,
            position_in_parent: Vec::new(),
        };
        let mut position_in_parent = vec![0; tree.queues.len()];
        for q in tree.conf.queues() {
            for (pos, &child) in q.children.iter().enumerate() {
                position_in_parent[child] = pos as u32;
            }
        }
        tree.position_in_parent = position_in_parent;
        tree.update_cluster_resource(Resource::ZERO);
        tree
    }

    pub fn configuration(&self) -> &Arc<CapacitySchedulerConfiguration> {
        &self.conf
    }

    pub fn settings(&self) -> &SchedulerSettings {
        self.conf.settings()
    }

    /// See the field: equal generations mean equal capacities, resources and configuration.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn cluster_resource(&self) -> Resource {
        self.cluster
    }

    /// Recomputes every derived value top-down for a new cluster size (node added, removed or
    /// resized), as YARN's `updateClusterResource` does.
    pub fn update_cluster_resource(&mut self, cluster: Resource) {
        self.update_partition_resources(cluster, cluster, Default::default());
    }

    /// The same with nodes labelled: the whole cluster, the default partition's resource and
    /// each labelled partition's (by label name), as `RMNodeLabelsManager.getResourceByLabel`
    /// gives them to `updateClusterResource`.
    pub fn update_partition_resources(
        &mut self,
        cluster: Resource,
        default_partition: Resource,
        labelled: std::collections::BTreeMap<String, Resource>,
    ) {
        self.generation += 1;
        self.cluster = cluster;
        self.default_partition = default_partition;
        self.partition_resources = labelled;
        let caps = capacities::derive_capacities(
            self.conf.queues(),
            self.conf.settings(),
            default_partition,
        );
        for (q, c) in self.queues.iter_mut().zip(caps) {
            q.capacities = c;
        }
        self.derive_partitions();
        self.recompute_limits();
    }

    fn derive_partitions(&mut self) {
        let resources = &self.partition_resources;
        self.partitions = partitions::derive_partition_capacities(
            self.conf.queues(),
            self.conf.settings(),
            |l| resources.get(l).copied().unwrap_or(Resource::ZERO),
        );
    }

    /// `q`'s capacities on the labels it has keys for.
    pub fn partition_capacities(
        &self,
        q: QueueId,
    ) -> &std::collections::BTreeMap<String, partitions::PartitionCapacities> {
        &self.partitions[q]
    }

    /// The default partition's resource.
    pub fn default_partition_resource(&self) -> Resource {
        self.default_partition
    }

    /// A labelled partition's resource (0 when no running node carries the label).
    pub fn partition_resource(&self, label: &str) -> Resource {
        self.partition_resources
            .get(label)
            .copied()
            .unwrap_or(Resource::ZERO)
    }

    /// The same hierarchy under a configuration that differs only in values (auto-created
    /// leaves' entitlements): queue ids and run-time state stay; the caller recomputes the
    /// derived values for the cluster.
    pub(crate) fn replace_configuration(&mut self, conf: Arc<CapacitySchedulerConfiguration>) {
        debug_assert!(conf
            .queues()
            .iter()
            .zip(self.conf.queues())
            .all(|(a, b)| a.path == b.path));
        debug_assert_eq!(conf.queues().len(), self.conf.queues().len());
        self.generation += 1;
        self.conf = conf;
    }

    pub fn len(&self) -> usize {
        self.queues.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queues.is_empty()
    }

    pub fn root(&self) -> &Queue {
        &self.queues[0]
    }

    pub fn queue(&self, id: QueueId) -> &Queue {
        &self.queues[id]
    }

    pub fn queue_mut(&mut self, id: QueueId) -> &mut Queue {
        &mut self.queues[id]
    }

    pub fn queues(&self) -> &[Queue] {
        &self.queues
    }

    pub fn conf(&self, id: QueueId) -> &QueueConf {
        &self.conf.queues()[id]
    }

    pub fn path(&self, id: QueueId) -> &str {
        &self.conf(id).path
    }

    pub fn parent(&self, id: QueueId) -> Option<QueueId> {
        self.conf(id).parent
    }

    /// Whether `q` is `ancestor` or lies under it.
    pub fn is_ancestor_or_self(&self, ancestor: QueueId, mut q: QueueId) -> bool {
        loop {
            if q == ancestor {
                return true;
            }
            match self.parent(q) {
                Some(p) => q = p,
                None => return false,
            }
        }
    }

    /// `id`'s place in its parent's `queues` list.
    pub fn position_in_parent(&self, id: QueueId) -> u32 {
        self.position_in_parent[id]
    }

    pub fn children(&self, id: QueueId) -> &[QueueId] {
        &self.conf(id).children
    }

    pub fn is_leaf(&self, id: QueueId) -> bool {
        self.conf(id).is_leaf()
    }

    /// Resolves a full path (`root.a.b`) or a unique short name (`b`).
    pub fn find(&self, name: &str) -> Result<QueueId, QueueLookupError> {
        if let Some(&id) = self.by_path.get(name) {
            return Ok(id);
        }
        match self.by_name.get(name).map(|v| v.as_slice()) {
            Some([id]) => Ok(*id),
            Some([_, _, ..]) => Err(QueueLookupError::Ambiguous(name.to_string())),
            _ => Err(QueueLookupError::Unknown(name.to_string())),
        }
    }

    /// Leaves in pre-order.
    pub fn leaves(&self) -> impl Iterator<Item = QueueId> + '_ {
        (0..self.queues.len()).filter(move |&id| self.is_leaf(id))
    }

    /// Spec P1.3: with the monitor off every queue is non-preemptable; otherwise a queue's own
    /// `disable_preemption`, else its parent's effective value (root: false).
    pub fn preemption_disabled(&self, id: QueueId) -> bool {
        if !self.conf.preemption().monitor_enabled {
            return true;
        }
        self.inherited_flag(id, |q| q.disable_preemption)
    }

    /// Intra-queue preemption is off when globally off, when the inherited intra-queue flag is
    /// set, or when cross-queue preemption is disabled for the queue.
    pub fn intra_queue_preemption_disabled(&self, id: QueueId) -> bool {
        !self.conf.preemption().intra_queue_enabled
            || self.preemption_disabled(id)
            || self.inherited_flag(id, |q| q.intra_queue_disable_preemption)
    }

    /// The nearest explicit setting walking up from `id`, false when none is set.
    fn inherited_flag(&self, id: QueueId, flag: impl Fn(&QueueConf) -> Option<bool>) -> bool {
        let mut at = Some(id);
        while let Some(q) = at {
            if let Some(v) = flag(self.conf(q)) {
                return v;
            }
            at = self.parent(q);
        }
        false
    }

    /// `usedCapacity = divide(used, max(effectiveMin, minAlloc))` (spec §2).
    pub fn used_capacity(&self, id: QueueId) -> f32 {
        self.used_capacity_over(self.queues[id].used, self.used_capacity_base(id))
    }

    /// What `id`'s used capacity divides by: `max(effectiveMin, minimumAllocation)`. It
    /// changes only with the tree's generation.
    pub fn used_capacity_base(&self, id: QueueId) -> Resource {
        self.settings().resource_calculator.max(
            &self.cluster,
            &self.queues[id].capacities.effective_min,
            &self.settings().minimum_allocation,
        )
    }

    /// The used capacity of a queue using `used` whose base is `base`.
    // Always inlined, with the division: the kept children's order re-keys a child with it
    // at every assignment (`#[inline]` alone left `divide_or_zero` a call).
    #[inline(always)]
    pub fn used_capacity_over(&self, used: Resource, base: Resource) -> f32 {
        divide_or_zero_inlined(
            self.settings().resource_calculator,
            self.cluster,
            used,
            base,
        )
    }

    /// `q`'s capacities on `label` (all zero when it has no key for it).
    pub fn partition_capacity(&self, q: QueueId, label: &str) -> partitions::PartitionCapacities {
        self.partitions[q].get(label).copied().unwrap_or_default()
    }

    /// `usedCapacity` and `absoluteUsedCapacity` of `id` on a labelled partition for `used`
    /// there (`CSQueueUtils.updateUsedCapacity`): `used / max(effectiveMin(label), minAlloc)`
    /// and `used / resourceByLabel(label)`, the partition's resource as the calculator's
    /// cluster; both 0 while the partition has no resource.
    pub fn used_capacities_in(&self, id: QueueId, label: &str, used: Resource) -> (f32, f32) {
        let s = self.settings();
        let rc = s.resource_calculator;
        let total = self.partition_resource(label);
        if !rc.greater_than(&total, &total, &Resource::ZERO) {
            return (0.0, 0.0);
        }
        let guaranteed = rc.max(
            &total,
            &self.partition_capacity(id, label).effective_min,
            &s.minimum_allocation,
        );
        (
            divide_or_zero(rc, total, used, guaranteed),
            divide_or_zero(rc, total, used, total),
        )
    }

    /// `absoluteUsedCapacity = divide(used, cluster)`.
    pub fn absolute_used_capacity(&self, id: QueueId) -> f32 {
        let rc = self.settings().resource_calculator;
        divide_or_zero(
            rc,
            self.cluster,
            self.queues[id].used,
            self.default_partition,
        )
    }
}
