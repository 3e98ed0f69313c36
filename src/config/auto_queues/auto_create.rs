//! Auto-created leaf queues in YARN 3.3's form (docs/SEMANTICS.md, "Auto-created queues"): a
//! queue with `auto-create-child-queue.enabled` is a `ManagedParentQueue`, a parent even with
//! no children of its own, whose leaves are made at submission when a placement rule names
//! one under it. Every such leaf starts from the parent's `leaf-queue-template.*` keys, read
//! as that leaf's own keys (`ManagedParentQueue.getLeafQueueConfigs`), and the
//! GuaranteedOrZeroCapacityOverTimePolicy gives it either the template's capacity or none.
//!
//! The configuration stays immutable: the leaves a running scheduler made are listed in
//! [`AutoCreatedLeaf`]s, and a configuration with them is built anew when one is added or its
//! entitlement changes (`CapacitySchedulerConfiguration::with_auto_created_leaves`).

use crate::config::keys::{
    DEFAULT_MAXIMUM_AM_RESOURCE_PERCENT, DEFAULT_USER_LIMIT_FACTOR, DEFAULT_USER_LIMIT_PERCENT,
    PREFIX,
};
use crate::config::queue_conf::{CapacityValue, ManagedParent, QueueConf};
use crate::config::queue_read::read_queue;
use crate::config::reader::{queue_key, Reader};
use crate::config::settings::SchedulerSettings;
use crate::echo::echo;
use std::collections::BTreeSet;

pub const AUTO_CREATE_CHILD_QUEUE_ENABLED: &str = "auto-create-child-queue.enabled";
pub const AUTO_CREATE_QUEUE_MAX_QUEUES: &str = "auto-create-child-queue.max-queues";
pub const DEFAULT_AUTO_CREATE_QUEUE_MAX_QUEUES: i32 = 1000;
pub const FAIL_AUTO_CREATION_ON_EXCEEDING_CAPACITY: &str =
    "auto-create-child-queue.fail-on-exceeding-parent-capacity";
pub const AUTO_CREATED_QUEUE_MANAGEMENT_POLICY: &str = "auto-create-child-queue.management-policy";
pub const DEFAULT_AUTO_CREATED_QUEUE_MANAGEMENT_POLICY: &str =
    "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.queuemanagement.GuaranteedOrZeroCapacityOverTimePolicy";
/// `AUTO_CREATED_LEAF_QUEUE_TEMPLATE_PREFIX`: `<parent>.leaf-queue-template.<key>`.
pub const LEAF_QUEUE_TEMPLATE: &str = "leaf-queue-template";

/// A leaf a running scheduler auto-created, and whether the management policy gives it its
/// template capacity now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoCreatedLeaf {
    /// The managed parent's full path.
    pub parent: String,
    pub name: String,
    /// Holds the template's capacity on the default partition.
    pub active: bool,
    /// The template's labels on which it holds the template's capacity.
    pub active_labels: BTreeSet<String>,
}

impl AutoCreatedLeaf {
    pub fn path(&self) -> String {
        format!("{}.{}", self.parent, self.name)
    }
}

/// Whether `path` has `auto-create-child-queue.enabled` (`isAutoCreateChildQueueEnabled`).
pub(crate) fn is_auto_create_enabled(r: &mut Reader, path: &str) -> bool {
    r.boolean(&queue_key(path, AUTO_CREATE_CHILD_QUEUE_ENABLED), false)
}

/// A managed parent's settings; `parent` is the managed parent's own configuration, already
/// read (the template's leaf inherits from it as its children do).
pub(crate) fn read_managed_parent(
    r: &mut Reader,
    settings: &SchedulerSettings,
    parent: &QueueConf,
) -> ManagedParent {
    let path = parent.path.as_str();
    let q = Some(path);
    let policy_key = queue_key(path, AUTO_CREATED_QUEUE_MANAGEMENT_POLICY);
    if let Some(policy) = r.get(q, &policy_key) {
        // getClassByName: only YARN's one policy exists here.
        let known = policy == DEFAULT_AUTO_CREATED_QUEUE_MANAGEMENT_POLICY
            || policy == "GuaranteedOrZeroCapacityOverTimePolicy";
        if !known {
            r.error(
                q,
                &policy_key,
                format!(
                    "Could not instantiate AutoCreatedQueueManagementPolicy: {} for queue: {path}",
                    echo(&policy)
                ),
            );
        }
    }
    let fail_on_exceeding_parent_capacity = r.boolean(
        &queue_key(path, FAIL_AUTO_CREATION_ON_EXCEEDING_CAPACITY),
        false,
    );
    let max_child_queues = r.int_where(
        q,
        &queue_key(path, AUTO_CREATE_QUEUE_MAX_QUEUES),
        DEFAULT_AUTO_CREATE_QUEUE_MAX_QUEUES,
        |_| true,
        "",
    );
    let template_path = format!("{path}.{LEAF_QUEUE_TEMPLATE}");
    // The leaf is built from a configuration holding the template's keys alone
    // (`initializeLeafQueueConfigs`), so the per-queue values that fall back to a global key
    // (AM share, user limit, user-limit factor) fall back to YARN's defaults, not to the
    // global keys of capacity-scheduler.xml.
    let template_settings = SchedulerSettings {
        maximum_am_resource_percent: DEFAULT_MAXIMUM_AM_RESOURCE_PERCENT,
        minimum_user_limit_percent: DEFAULT_USER_LIMIT_PERCENT,
        user_limit_factor: DEFAULT_USER_LIMIT_FACTOR,
        ..settings.clone()
    };
    // Only the template's capacities are read when the parent is made
    // (`loadUpdateAndCheckCapacities`); its other keys are read by the leaf's constructor, so
    // a problem there fails each creation, not the configuration.
    let mut own = Reader::new(r.conf);
    let mut template = read_queue(
        &mut own,
        &template_settings,
        &template_path,
        Some(parent),
        false,
    );
    let capacity_keys = [
        queue_key(&template_path, crate::config::keys::CAPACITY),
        queue_key(&template_path, crate::config::keys::MAXIMUM_CAPACITY),
    ];
    let (load, creation): (Vec<_>, Vec<_>) = own
        .errors
        .into_iter()
        .partition(|e| e.key.as_ref().is_some_and(|k| capacity_keys.contains(k)));
    r.errors.extend(load);
    r.warnings.extend(own.warnings);
    // The template's capacity is a percentage (CSQueueUtils.loadUpdateAndCheckCapacities).
    if !matches!(template.capacity, CapacityValue::Percent(_)) {
        r.error(
            Some(&template_path),
            &queue_key(&template_path, crate::config::keys::CAPACITY),
            format!(
                "Only a percentage capacity is supported for the leaf queue template of {path}"
            ),
        );
        template.capacity = CapacityValue::Percent(0.0);
    }
    let prefix = format!("{PREFIX}{template_path}.");
    let mut template_properties: Vec<(String, String)> = r
        .conf
        .keys_with_prefix(&prefix)
        .map(|k| {
            let name = &k[PREFIX.len() + path.len() + 1..];
            (
                name.to_string(),
                r.conf.get_raw(k).unwrap_or_default().to_string(),
            )
        })
        .collect();
    template_properties.sort();
    ManagedParent {
        template: Box::new(template),
        creation_errors: creation.into_iter().map(|e| e.message).collect(),
        template_properties,
        fail_on_exceeding_parent_capacity,
        max_child_queues,
    }
}
