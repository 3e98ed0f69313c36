//! One queue's configuration as written in capacity-scheduler.xml, typed but not yet derived
//! (derived values live in `derived` — absolute capacities, effective resources — and in
//! `state::queue` — limits), with the settings it embeds for a parent that creates queues
//! (`ManagedParent`, `FlexibleParent`).

use std::collections::{BTreeMap, BTreeSet};

use super::acl::AccessControlList;
use crate::resource::{AbsoluteResource, Resource};

/// Index of a queue in the whole configuration's queue list (pre-order, root = 0).
pub type QueueIndex = usize;

/// `yarn.scheduler.capacity.<q>.capacity`, in one of YARN's three forms (spec §1.2).
#[derive(Debug, Clone, PartialEq)]
pub enum CapacityValue {
    /// A percentage of the parent, stored as YARN stores it: a fraction (`12.5` ⇒ 0.125).
    Percent(f32),
    /// `2.0w`: a weight among siblings ([3.4+]).
    Weight(f32),
    /// `[memory=10240,vcores=12]`: a guaranteed absolute resource.
    Absolute(AbsoluteResource),
}

impl CapacityValue {
    /// The capacity mode, as YARN's `QueueCapacityType` decides it for the children check:
    /// a percentage of 0 counts as "not set", so it mixes with anything.
    pub fn mode(&self) -> Option<CapacityMode> {
        match self {
            CapacityValue::Percent(p) if *p > 0.0 => Some(CapacityMode::Percent),
            CapacityValue::Percent(_) => None,
            CapacityValue::Weight(_) => Some(CapacityMode::Weight),
            CapacityValue::Absolute(_) => Some(CapacityMode::Absolute),
        }
    }

    /// The fraction the percentage code sees: 0 for weight and absolute forms.
    pub fn percent_fraction(&self) -> f32 {
        match self {
            CapacityValue::Percent(p) => *p,
            _ => 0.0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapacityMode {
    Percent,
    Weight,
    Absolute,
}

impl CapacityMode {
    pub fn describe(self) -> &'static str {
        match self {
            CapacityMode::Percent => "percentage",
            CapacityMode::Weight => "weight",
            CapacityMode::Absolute => "absolute",
        }
    }
}

/// `yarn.scheduler.capacity.<q>.maximum-capacity`: a percentage (fraction) or absolute.
#[derive(Debug, Clone, PartialEq)]
pub enum MaxCapacityValue {
    Percent(f32),
    Absolute(AbsoluteResource),
}

/// YARN's `QueueState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueState {
    Running,
    Stopped,
    /// Only ever reached at run time: a RUNNING queue stopped while it still has applications.
    Draining,
}

impl QueueState {
    pub fn as_str(self) -> &'static str {
        match self {
            QueueState::Running => "RUNNING",
            QueueState::Stopped => "STOPPED",
            QueueState::Draining => "DRAINING",
        }
    }
}

/// How a leaf orders its applications (`<leaf>.ordering-policy`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppOrderingPolicy {
    Fifo,
    Fair { size_based_weight: bool },
    FifoWithPartitions,
    FifoForPendingApps,
}

impl AppOrderingPolicy {
    pub fn name(&self) -> &'static str {
        match self {
            AppOrderingPolicy::Fifo => "fifo",
            AppOrderingPolicy::Fair { .. } => "fair",
            AppOrderingPolicy::FifoWithPartitions => "fifo-with-partitions",
            AppOrderingPolicy::FifoForPendingApps => "fifo-for-pending-apps",
        }
    }
}

/// How a parent orders its children (`<parent>.ordering-policy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueOrderingPolicy {
    Utilization,
    PriorityUtilization,
}

impl QueueOrderingPolicy {
    pub fn name(self) -> &'static str {
        match self {
            QueueOrderingPolicy::Utilization => "utilization",
            QueueOrderingPolicy::PriorityUtilization => "priority-utilization",
        }
    }
}

/// Settings only a leaf uses. YARN reads them for parents too and ignores them there.
#[derive(Debug, Clone, PartialEq)]
pub struct LeafConf {
    /// Per-queue `maximum-applications`; negative ⇒ unset (derived from capacity).
    pub maximum_applications: i32,
    pub maximum_am_resource_percent: f32,
    /// `minimum-user-limit-percent` (UL%), 0–100.
    pub user_limit_percent: f32,
    /// `user-limit-factor`; −1 ⇒ disabled ([3.4+]).
    pub user_limit_factor: f32,
    /// `user-settings.<user>.weight`.
    pub user_weights: BTreeMap<String, f32>,
    pub ordering_policy: AppOrderingPolicy,
    pub default_application_priority: i32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct QueueConf {
    /// Full path (`root.a.b`).
    pub path: String,
    /// Last path component (`b`).
    pub name: String,
    pub parent: Option<QueueIndex>,
    pub children: Vec<QueueIndex>,
    pub capacity: CapacityValue,
    pub maximum_capacity: MaxCapacityValue,
    /// The configured state; `None` ⇒ inherit the parent's at load.
    pub configured_state: Option<QueueState>,
    /// The effective state at load (configured, or inherited: spec §1.3).
    pub state: QueueState,
    pub acl_submit_applications: AccessControlList,
    pub acl_administer_queue: AccessControlList,
    /// Per-queue `max-parallel-apps`; `None` ⇒ the global default (unlimited when unset).
    pub max_parallel_apps: Option<i32>,
    /// Per-component maximum allocation: configured values, else the parent's, else the
    /// cluster setting.
    pub maximum_allocation: Resource,
    /// `priority`, used by the `priority-utilization` ordering of the parent.
    pub priority: i32,
    /// `disable_preemption` as configured (inheritance is resolved by the preemption policy).
    pub disable_preemption: Option<bool>,
    pub intra_queue_disable_preemption: Option<bool>,
    pub allow_zero_capacity_sum: bool,
    /// Present for leaves only.
    pub leaf: Option<LeafConf>,
    /// Present for parents only.
    pub queue_ordering_policy: Option<QueueOrderingPolicy>,
    /// `auto-create-child-queue.enabled`: a `ManagedParentQueue`, a parent even without
    /// children of its own (docs/SEMANTICS.md, "Auto-created queues").
    pub managed: Option<Box<ManagedParent>>,
    /// An `AutoCreatedLeafQueue`: made by the running scheduler from its parent's template.
    pub auto_created: bool,
    /// A parent that may get dynamic children (`auto-queue-creation-v2.enabled`, or a dynamic
    /// parent), with its templates; a parent even without children.
    pub flexible: Option<Box<FlexibleParent>>,
    /// A queue the running scheduler created through flexible auto queue creation.
    pub dynamic: bool,
    /// `auto-queue-creation-v2.queue-auto-removal.enable` of a dynamic queue.
    pub auto_removal: bool,
    /// Node labels: the partitions it may use, its capacities per label, its default
    /// label expression.
    pub labels: super::node_labels::QueueLabels,
    /// Application lifetimes in seconds (`maximum-application-lifetime`,
    /// `default-application-lifetime`), as AbstractCSQueue derives them: inherited down the
    /// hierarchy, the default at most the maximum, and the maximum when no default applies;
    /// ≤ 0 ⇒ none.
    pub lifetimes: Lifetimes,
}

/// A queue's application lifetimes (seconds; ≤ 0 ⇒ unlimited).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetimes {
    pub maximum: i64,
    pub default: i64,
    /// `defaultAppLifetimeWasSpecifiedInConfig`: this queue or an ancestor set a default.
    pub default_specified: bool,
}

impl Default for Lifetimes {
    fn default() -> Self {
        Lifetimes {
            maximum: -1,
            default: -1,
            default_specified: false,
        }
    }
}

impl Lifetimes {
    /// `CapacityScheduler.checkAndGetApplicationLifetime`: the lifetime an application asking
    /// for `requested` seconds (≤ 0: none) gets in this leaf.
    pub fn granted(&self, requested: i64) -> i64 {
        if self.maximum <= 0 {
            return if requested <= 0 {
                self.default
            } else {
                requested
            };
        }
        if requested <= 0 {
            self.default
        } else {
            requested.min(self.maximum)
        }
    }
}

impl QueueConf {
    pub fn is_leaf(&self) -> bool {
        self.children.is_empty() && self.managed.is_none() && self.flexible.is_none()
    }

    /// The configured minimum and maximum resources of an absolute queue (YARN's
    /// `getConfiguredMinResource`/`getConfiguredMaxResource`); none for a percentage or weight.
    pub fn configured_resources(&self) -> (Resource, Resource) {
        let min = match &self.capacity {
            CapacityValue::Absolute(a) => a.resource(),
            _ => Resource::ZERO,
        };
        let max = match &self.maximum_capacity {
            MaxCapacityValue::Absolute(a) => a.resource(),
            _ => Resource::ZERO,
        };
        (min, max)
    }
}

/// A `ManagedParentQueue`'s settings.
#[derive(Debug, Clone, PartialEq)]
pub struct ManagedParent {
    /// Every auto-created leaf's configuration before its entitlement: the template's keys
    /// read as the keys of a leaf of this parent (its path is `<parent>.leaf-queue-template`).
    pub template: Box<QueueConf>,
    /// The template's keys as REST's `leafQueueTemplate` lists them
    /// (`leaf-queue-template.capacity` → `10`), in key order.
    pub template_properties: Vec<(String, String)>,
    /// What the leaf's constructor would throw for the template's other keys (the maximum
    /// allocation above the cluster's, an unknown ordering policy…): each creation fails with
    /// the first.
    pub creation_errors: Vec<String>,
    /// `auto-create-child-queue.fail-on-exceeding-parent-capacity`.
    pub fail_on_exceeding_parent_capacity: bool,
    /// `auto-create-child-queue.max-queues`.
    pub max_child_queues: i32,
}

impl ManagedParent {
    /// The template's capacity as a fraction of the parent (what an activated leaf gets).
    pub fn template_capacity(&self) -> f32 {
        self.template.capacity.percent_fraction()
    }

    /// The template's maximum capacity as a fraction of the parent's.
    pub fn template_maximum_capacity(&self) -> f32 {
        match &self.template.maximum_capacity {
            MaxCapacityValue::Percent(m) => *m,
            MaxCapacityValue::Absolute(_) => 1.0,
        }
    }

    /// The labels the template has capacity keys for, which the management policy entitles
    /// each leaf on separately (`leafQueueTemplateNodeLabels`, the default partition aside).
    pub fn template_labels(&self) -> impl Iterator<Item = &str> {
        self.template.labels.capacities.keys().map(String::as_str)
    }

    /// The template's capacity on `label` as a fraction of the parent's there.
    pub fn template_label_capacity(&self, label: &str) -> f32 {
        self.template.labels.capacity(label).capacity
    }

    /// The leaf `name` of this parent as the template makes it, with the capacities its
    /// entitlement gives (`AutoCreatedLeafQueue.reinitializeFromTemplate`): on the default
    /// partition the template's when `active`, on each template label the template's when
    /// listed in `active_labels`, 0 otherwise; the maxima are the template's either way.
    pub fn leaf_conf(
        &self,
        parent_path: &str,
        name: &str,
        active: bool,
        active_labels: &BTreeSet<String>,
    ) -> QueueConf {
        let mut q = (*self.template).clone();
        q.path = format!("{parent_path}.{name}");
        q.name = name.to_string();
        q.parent = None;
        q.children.clear();
        q.capacity = CapacityValue::Percent(if active {
            self.template_capacity()
        } else {
            0.0
        });
        for (label, c) in q.labels.capacities.iter_mut() {
            if !active_labels.contains(label) {
                c.capacity = 0.0;
            }
        }
        q.auto_created = true;
        q
    }
}

/// A parent that creates dynamic children: its limits and its resolved templates
/// (`AutoCreatedQueueTemplate`, most explicit path first).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FlexibleParent {
    /// `auto-queue-creation-v2.max-queues`: children of every kind.
    pub max_queues: i32,
    /// `auto-queue-creation-v2.maximum-queue-depth` (this queue's, else the global one).
    pub max_depth: i32,
    pub template: BTreeMap<String, String>,
    pub leaf_template: BTreeMap<String, String>,
    pub parent_template: BTreeMap<String, String>,
}
