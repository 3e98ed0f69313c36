//! Scheduler-wide settings: the global `yarn.scheduler.capacity.*` keys, the yarn-site keys the
//! scheduler reads, and the preemption monitor's keys (kept here for the preemption policy).

use std::collections::BTreeMap;

use super::acl::AccessControlList;
use super::keys::*;
use super::reader::{global_key, Reader};
use crate::resource::{CalculatorKind, Resource, ResourceCalculator, ResourceTypes};

/// `schedule-asynchronously.*` (spec §6).
#[derive(Debug, Clone, PartialEq)]
pub struct AsyncSchedulingSettings {
    pub enabled: bool,
    pub interval_ms: i64,
    pub maximum_threads: i32,
    pub maximum_pending_backlogs: i32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SchedulerSettings {
    pub resource_types: ResourceTypes,
    pub resource_calculator: ResourceCalculator,
    /// `yarn.scheduler.minimum-allocation-*`: the smallest container and the rounding step.
    pub minimum_allocation: Resource,
    /// `yarn.scheduler.maximum-allocation-*`: the configured cluster maximum container.
    pub maximum_allocation: Resource,
    /// System-wide cap on applications (`maximum-applications`).
    pub maximum_applications: i32,
    /// `global-queue-max-application`; negative ⇒ unset.
    pub global_queue_max_applications: i32,
    pub maximum_am_resource_percent: f32,
    /// Global defaults for the per-queue user settings ([3.4+] keys).
    pub minimum_user_limit_percent: f32,
    pub user_limit_factor: f32,
    pub node_locality_delay: i32,
    pub rack_locality_additional_delay: i32,
    pub rack_locality_full_reset: bool,
    pub multiple_assignments_enabled: bool,
    /// −1 ⇒ unlimited.
    pub maximum_container_assignments: i32,
    /// Always ≥ 1 (YARN raises smaller values to 1).
    pub maximum_offswitch_assignments: i32,
    pub reservations_continue_look_all_nodes: bool,
    pub async_scheduling: AsyncSchedulingSettings,
    pub acl_enabled: bool,
    pub admin_acl: AccessControlList,
    pub max_cluster_application_priority: i32,
    /// `max-parallel-apps` default for every queue; `None` ⇒ unlimited.
    pub max_parallel_apps: Option<i32>,
    /// `user.max-parallel-apps`; `None` ⇒ unlimited.
    pub user_max_parallel_apps: Option<i32>,
    /// `user.<name>.max-parallel-apps`.
    pub user_max_parallel_apps_by_user: BTreeMap<String, i32>,
    pub node_heartbeat_interval_ms: i64,
    pub container_allocation_expiry_interval_ms: i64,
    pub work_preserving_recovery_scheduling_wait_ms: i64,
    pub lazy_preemption_enabled: bool,
}

/// `intra-queue-preemption.preemption-order-policy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntraQueuePreemptionOrder {
    UserLimitFirst,
    PriorityFirst,
}

/// The preemption monitor's settings (spec P1), parsed now, used by the preemption policy.
#[derive(Debug, Clone, PartialEq)]
pub struct PreemptionSettings {
    /// `yarn.resourcemanager.scheduler.monitor.enable`.
    pub monitor_enabled: bool,
    pub monitor_policies: Vec<String>,
    pub observe_only: bool,
    pub monitoring_interval_ms: i64,
    pub max_wait_before_kill_ms: i64,
    /// Read with `getFloat` by YARN.
    pub total_preemption_per_round: f32,
    /// Read with `getDouble` by YARN.
    pub max_ignored_over_capacity: f64,
    pub natural_termination_factor: f64,
    pub select_based_on_reserved_containers: bool,
    pub additional_res_balance_based_on_reserved_containers: bool,
    pub preemption_to_balance_enabled: bool,
    pub preemption_to_balance_max_wait_before_kill_ms: i64,
    pub conservative_drf: bool,
    pub intra_queue_enabled: bool,
    pub intra_queue_minimum_threshold: f32,
    pub intra_queue_max_allowable_limit: f32,
    pub intra_queue_order: IntraQueuePreemptionOrder,
    pub intra_queue_conservative_drf: bool,
    pub underutilized_preemption_enabled: bool,
    pub underutilized_preemption_reserved_container_delay_ms: i64,
    pub underutilized_preemption_allow_move_reservation: bool,
}

impl PreemptionSettings {
    /// Whether the RM would run `ProportionalCapacityPreemptionPolicy`: monitors enabled and
    /// the policy among `yarn.resourcemanager.scheduler.monitor.policies`.
    pub fn proportional_policy_enabled(&self) -> bool {
        self.monitor_enabled
            && self
                .monitor_policies
                .iter()
                .any(|p| p.rsplit('.').next() == Some("ProportionalCapacityPreemptionPolicy"))
    }
}

pub(crate) fn read_scheduler_settings(r: &mut Reader) -> SchedulerSettings {
    let types_key = RESOURCE_TYPES;
    // YARN reads this list with getStrings (untrimmed); ResourceTypes::from_config does the same.
    let resource_types = match r
        .conf
        .get(types_key)
        .map(|v| ResourceTypes::from_config(&v))
    {
        None => ResourceTypes::default(),
        Some(Ok(t)) => t,
        Some(Err(msg)) => {
            r.error(None, types_key, msg);
            ResourceTypes::default()
        }
    };

    let calc_key = global_key(RESOURCE_CALCULATOR);
    let calc_name = r
        .trimmed(&calc_key)
        .unwrap_or_else(|| DEFAULT_RESOURCE_CALCULATOR.to_string());
    let resource_calculator =
        match ResourceCalculator::from_class_name(&calc_name, resource_types.count()) {
            Some(c) => c,
            None => {
                r.error(
                    None,
                    &calc_key,
                    format!(
                        "java.lang.ClassNotFoundException: Class {} not found",
                        crate::echo::echo(&calc_name)
                    ),
                );
                ResourceCalculator::new(CalculatorKind::Default, resource_types.count())
            }
        };
    if resource_calculator.kind() == CalculatorKind::Default && resource_types.count() > 2 {
        let names: Vec<&str> = (0..resource_types.count())
            .map(|i| resource_types.name(i))
            .collect();
        r.error(
            None,
            &calc_key,
            format!(
                "RM uses DefaultResourceCalculator which used only memory as resource-type but invalid \
                 resource-types specified [{}]. Use DominantResourceCalculator instead to make effective \
                 use of these resource-types",
                crate::echo::echo(&names.join(", "))
            ),
        );
    }

    let min_mb = r.long(
        None,
        RM_SCHEDULER_MINIMUM_ALLOCATION_MB,
        DEFAULT_MINIMUM_ALLOCATION_MB,
    );
    let max_mb = r.long(
        None,
        RM_SCHEDULER_MAXIMUM_ALLOCATION_MB,
        DEFAULT_MAXIMUM_ALLOCATION_MB,
    );
    let min_vc = r.long(
        None,
        RM_SCHEDULER_MINIMUM_ALLOCATION_VCORES,
        DEFAULT_MINIMUM_ALLOCATION_VCORES,
    );
    let max_vc = r.long(
        None,
        RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES,
        DEFAULT_MAXIMUM_ALLOCATION_VCORES,
    );
    // CapacitySchedulerConfigValidator.validateMemoryAllocation / validateVCores
    if min_mb <= 0 || max_mb <= 0 || min_mb > max_mb {
        r.error(
            None,
            RM_SCHEDULER_MINIMUM_ALLOCATION_MB,
            format!(
                "Invalid resource scheduler memory allocation configuration, \
                 {RM_SCHEDULER_MINIMUM_ALLOCATION_MB}={min_mb}, {RM_SCHEDULER_MAXIMUM_ALLOCATION_MB}={max_mb}, \
                 min and max should be greater than 0, max should be no smaller than min."
            ),
        );
    }
    if min_vc <= 0 || max_vc <= 0 || min_vc > max_vc {
        r.error(
            None,
            RM_SCHEDULER_MINIMUM_ALLOCATION_VCORES,
            format!(
                "Invalid resource scheduler vcores allocation configuration, \
                 {RM_SCHEDULER_MINIMUM_ALLOCATION_VCORES}={min_vc}, {RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES}={max_vc}, \
                 min and max should be greater than 0, max should be no smaller than min."
            ),
        );
    }

    let mut user_max_parallel_apps_by_user = BTreeMap::new();
    let user_prefix = global_key(USER_PREFIX);
    let user_keys: Vec<String> = r
        .conf
        .keys_with_prefix(&user_prefix)
        .filter(|k| k.ends_with(".max-parallel-apps") && *k != global_key(USER_MAX_PARALLEL_APPS))
        .map(str::to_string)
        .collect();
    for key in user_keys {
        let user = &key[user_prefix.len()..key.len() - ".max-parallel-apps".len()];
        if let Some(n) = r.opt_int(None, &key) {
            user_max_parallel_apps_by_user.insert(user.to_string(), n);
        }
    }

    SchedulerSettings {
        resource_types,
        resource_calculator,
        minimum_allocation: Resource::new(min_mb, min_vc),
        maximum_allocation: Resource::new(max_mb, max_vc),
        maximum_applications: r.int(
            None,
            &global_key(MAXIMUM_APPLICATIONS),
            DEFAULT_MAXIMUM_SYSTEM_APPLICATIONS,
        ),
        global_queue_max_applications: r.int(None, &global_key(GLOBAL_QUEUE_MAX_APPLICATION), -1),
        maximum_am_resource_percent: r.float(
            None,
            &global_key(MAXIMUM_AM_RESOURCE_PERCENT),
            DEFAULT_MAXIMUM_AM_RESOURCE_PERCENT,
        ),
        minimum_user_limit_percent: r.float(
            None,
            &global_key(MINIMUM_USER_LIMIT_PERCENT),
            DEFAULT_USER_LIMIT_PERCENT,
        ),
        user_limit_factor: r.float(
            None,
            &global_key(USER_LIMIT_FACTOR),
            DEFAULT_USER_LIMIT_FACTOR,
        ),
        node_locality_delay: r.int(
            None,
            &global_key(NODE_LOCALITY_DELAY),
            DEFAULT_NODE_LOCALITY_DELAY,
        ),
        rack_locality_additional_delay: r.int(
            None,
            &global_key(RACK_LOCALITY_ADDITIONAL_DELAY),
            DEFAULT_RACK_LOCALITY_ADDITIONAL_DELAY,
        ),
        rack_locality_full_reset: r.boolean(&global_key(RACK_LOCALITY_FULL_RESET), true),
        multiple_assignments_enabled: r.boolean(&global_key(MULTIPLE_ASSIGNMENTS_ENABLED), true),
        maximum_container_assignments: r.int(
            None,
            &global_key(MAXIMUM_CONTAINER_ASSIGNMENTS),
            DEFAULT_MAXIMUM_CONTAINER_ASSIGNMENTS,
        ),
        // CapacitySchedulerConfiguration.getOffSwitchPerHeartbeatLimit: values < 1 become 1.
        maximum_offswitch_assignments: r
            .int(
                None,
                &global_key(MAXIMUM_OFFSWITCH_ASSIGNMENTS),
                DEFAULT_MAXIMUM_OFFSWITCH_ASSIGNMENTS,
            )
            .max(1),
        reservations_continue_look_all_nodes: r
            .boolean(&global_key(RESERVE_CONT_LOOK_ALL_NODES), true),
        async_scheduling: AsyncSchedulingSettings {
            enabled: r.boolean(&global_key(SCHEDULE_ASYNCHRONOUSLY_ENABLE), false),
            interval_ms: r.long(
                None,
                &global_key(SCHEDULE_ASYNCHRONOUSLY_INTERVAL),
                DEFAULT_SCHEDULE_ASYNCHRONOUSLY_INTERVAL_MS,
            ),
            maximum_threads: r
                .int(
                    None,
                    &global_key(SCHEDULE_ASYNCHRONOUSLY_MAXIMUM_THREADS),
                    1,
                )
                .max(1),
            maximum_pending_backlogs: r.int(
                None,
                &global_key(SCHEDULE_ASYNCHRONOUSLY_MAXIMUM_PENDING_BACKLOGS),
                100,
            ),
        },
        acl_enabled: r.boolean(YARN_ACL_ENABLE, false),
        admin_acl: AccessControlList::parse(
            &r.conf
                .get(YARN_ADMIN_ACL)
                .unwrap_or_else(|| "*".to_string()),
        ),
        max_cluster_application_priority: r.int(None, MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY, 0),
        max_parallel_apps: r.opt_int(None, &global_key(MAX_PARALLEL_APPS)),
        user_max_parallel_apps: r.opt_int(None, &global_key(USER_MAX_PARALLEL_APPS)),
        user_max_parallel_apps_by_user,
        node_heartbeat_interval_ms: r.long(
            None,
            RM_NM_HEARTBEAT_INTERVAL_MS,
            DEFAULT_RM_NM_HEARTBEAT_INTERVAL_MS,
        ),
        container_allocation_expiry_interval_ms: r.long(
            None,
            RM_CONTAINER_ALLOC_EXPIRY_INTERVAL_MS,
            DEFAULT_RM_CONTAINER_ALLOC_EXPIRY_INTERVAL_MS,
        ),
        work_preserving_recovery_scheduling_wait_ms: r.long(
            None,
            RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS,
            DEFAULT_RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS,
        ),
        lazy_preemption_enabled: r.boolean(&global_key(LAZY_PREEMPTION_ENABLED), false),
    }
}

pub(crate) fn read_preemption_settings(r: &mut Reader) -> PreemptionSettings {
    let p = |s: &str| format!("{PREEMPTION_PREFIX}{s}");
    let order_key = p("intra-queue-preemption.preemption-order-policy");
    let intra_queue_order = match r.trimmed(&order_key).map(|s| s.to_ascii_lowercase()) {
        None => IntraQueuePreemptionOrder::UserLimitFirst,
        Some(s) if s == "userlimit_first" => IntraQueuePreemptionOrder::UserLimitFirst,
        Some(s) if s == "priority_first" => IntraQueuePreemptionOrder::PriorityFirst,
        Some(s) => {
            r.error(
                None,
                &order_key,
                format!("No enum constant org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.IntraQueuePreemptionOrderPolicy.{}", crate::echo::echo(&s.to_ascii_uppercase())),
            );
            IntraQueuePreemptionOrder::UserLimitFirst
        }
    };
    let policies = r.conf.get_trimmed_strings(RM_SCHEDULER_MONITOR_POLICIES);
    PreemptionSettings {
        monitor_enabled: r.boolean(RM_SCHEDULER_ENABLE_MONITORS, false),
        monitor_policies: if policies.is_empty() {
            vec![DEFAULT_RM_SCHEDULER_MONITOR_POLICIES.to_string()]
        } else {
            policies
        },
        observe_only: r.boolean(&p("observe_only"), false),
        monitoring_interval_ms: r.long(None, &p("monitoring_interval"), 3000),
        max_wait_before_kill_ms: r.long(None, &p("max_wait_before_kill"), 15000),
        total_preemption_per_round: r.float(None, &p("total_preemption_per_round"), 0.1),
        max_ignored_over_capacity: r.double(None, &p("max_ignored_over_capacity"), 0.1),
        natural_termination_factor: r.double(None, &p("natural_termination_factor"), 0.2),
        select_based_on_reserved_containers: r
            .boolean(&p("select_based_on_reserved_containers"), false),
        additional_res_balance_based_on_reserved_containers: r.boolean(
            &p("additional_res_balance_based_on_reserved_containers"),
            false,
        ),
        preemption_to_balance_enabled: r.boolean(
            &p("preemption-to-balance-queue-after-satisfied.enabled"),
            false,
        ),
        preemption_to_balance_max_wait_before_kill_ms: r.long(
            None,
            &p("preemption-to-balance-queue-after-satisfied.max-wait-before-kill"),
            300_000,
        ),
        conservative_drf: r.boolean(&p("conservative-drf"), false),
        intra_queue_enabled: r.boolean(&p("intra-queue-preemption.enabled"), false),
        intra_queue_minimum_threshold: r.float(
            None,
            &p("intra-queue-preemption.minimum-threshold"),
            0.5,
        ),
        intra_queue_max_allowable_limit: r.float(
            None,
            &p("intra-queue-preemption.max-allowable-limit"),
            0.2,
        ),
        intra_queue_order,
        intra_queue_conservative_drf: r
            .boolean(&p("intra-queue-preemption.conservative-drf"), true),
        underutilized_preemption_enabled: r
            .boolean(&global_key(UNDERUTILIZED_PREEMPTION_ENABLED), false),
        underutilized_preemption_reserved_container_delay_ms: r.long(
            None,
            &global_key(UNDERUTILIZED_PREEMPTION_RESERVED_CONTAINER_DELAY_MS),
            60_000,
        ),
        underutilized_preemption_allow_move_reservation: r.boolean(
            &global_key(UNDERUTILIZED_PREEMPTION_ALLOW_MOVE_RESERVATION),
            false,
        ),
    }
}
