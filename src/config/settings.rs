//! Scheduler-wide settings: the global `yarn.scheduler.capacity.*` keys, the yarn-site keys the
//! scheduler reads, and the preemption monitor's keys (kept here for the preemption policy).

use std::collections::BTreeMap;

use super::acl::AccessControlList;
use super::hadoop::java::java_trim;
use super::hadoop::trimmed_strings;
use super::keys::*;
use super::limits::{MAX_DURATION_MS, MAX_USER_LIMIT_FACTOR};
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
    /// `yarn.node-labels.enabled`.
    pub node_labels_enabled: bool,
    /// `yarn.node-labels.exclusive-enforced-partitions` (`getStrings`: split on commas, not
    /// trimmed, as YARN reads it).
    pub exclusive_enforced_partitions: std::collections::BTreeSet<String>,
    /// capsched's protection of space freed by preemption for the queues it was freed for
    /// (`capsched.preemption.freed-space.protect`, default true; false = YARN exactly).
    pub freed_space_protect: bool,
    /// `capsched.preemption.freed-space.hold-ms` (default 30 s).
    pub freed_space_hold_ms: i64,
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
    /// `yarn.resourcemanager.monitor.capacity.queue-management.monitoring-interval`: the
    /// QueueManagementDynamicEditPolicy's period (auto-created leaves' entitlements).
    pub queue_management_interval_ms: i64,
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
    /// What a round runs, for reports: the policy, its selectors in YARN's order, and how a
    /// container whose wait is over is taken (killed, or made killable with lazy preemption).
    pub fn describe(&self, lazy: bool) -> Vec<String> {
        let mut out = vec!["ProportionalCapacityPreemptionPolicy".to_string()];
        if self.underutilized_preemption_enabled {
            out.push("queue-priority (underutilized-preemption)".into());
        }
        if self.select_based_on_reserved_containers {
            out.push("reserved-container".into());
        }
        out.push("FIFO candidates".into());
        if self.preemption_to_balance_enabled {
            out.push("preempt-to-balance".into());
        }
        if self.intra_queue_enabled {
            out.push(format!(
                "intra-queue ({})",
                match self.intra_queue_order {
                    IntraQueuePreemptionOrder::PriorityFirst => "priority_first",
                    IntraQueuePreemptionOrder::UserLimitFirst => "userlimit_first",
                }
            ));
        }
        if self.observe_only {
            out.push("observe-only".into());
        }
        out.push(
            if lazy {
                "lazy (killable)"
            } else {
                "kill after max_wait_before_kill"
            }
            .into(),
        );
        out
    }

    /// Whether the monitor runs `QueueManagementDynamicEditPolicy` (auto-created leaves'
    /// entitlements revisited every `queue_management_interval_ms`).
    pub fn queue_management_policy_enabled(&self) -> bool {
        self.monitor_enabled
            && self.monitor_policies.iter().any(|p| {
                p.rsplit('.').next()
                    == Some(crate::config::keys::QUEUE_MANAGEMENT_DYNAMIC_EDIT_POLICY)
            })
    }

    /// Whether the monitor runs `AutoCreatedQueueDeletionPolicy` (dynamic queues idle past
    /// `queue-expiration-time` removed, every that many seconds).
    pub fn queue_deletion_policy_enabled(&self) -> bool {
        self.monitor_enabled
            && self.monitor_policies.iter().any(|p| {
                p.rsplit('.').next()
                    == Some(crate::config::keys::AUTO_CREATED_QUEUE_DELETION_POLICY)
            })
    }

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
        .get(None, types_key)
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
    // Configuration.getClass: trimmed; a blank value is a class name too (an empty one).
    let calc_name = r
        .trimmed(None, &calc_key)
        .unwrap_or_else(|| DEFAULT_RESOURCE_CALCULATOR.to_string());
    let resource_calculator =
        match ResourceCalculator::from_class_name(&calc_name, resource_types.count()) {
            Some(c) => c,
            None => {
                let hint = if calc_name.is_empty() {
                    " (the value is empty)"
                } else {
                    ""
                };
                r.error(
                    None,
                    &calc_key,
                    format!(
                        "java.lang.ClassNotFoundException: Class {} not found{hint}",
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

    // CapacitySchedulerConfigValidator reads the allocation bounds with getInt: beyond an int
    // they are Java's NumberFormatException there.
    let int = |r: &mut Reader, key: &str, default: i64| {
        i64::from(r.int_where(None, key, default as i32, |_| true, ""))
    };
    let min_mb = int(
        r,
        RM_SCHEDULER_MINIMUM_ALLOCATION_MB,
        DEFAULT_MINIMUM_ALLOCATION_MB,
    );
    let max_mb = int(
        r,
        RM_SCHEDULER_MAXIMUM_ALLOCATION_MB,
        DEFAULT_MAXIMUM_ALLOCATION_MB,
    );
    let min_vc = int(
        r,
        RM_SCHEDULER_MINIMUM_ALLOCATION_VCORES,
        DEFAULT_MINIMUM_ALLOCATION_VCORES,
    );
    let max_vc = int(
        r,
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
        // getMaxParallelAppsForUser: Integer.parseInt(get(key)), untrimmed.
        if let Some(n) = r.opt_untrimmed_int_where(None, &key, |n| n >= 0, AT_LEAST_0) {
            user_max_parallel_apps_by_user.insert(user.to_string(), n);
        }
    }

    let heartbeat_interval_ms = read_heartbeat_interval(r);
    SchedulerSettings {
        resource_types,
        resource_calculator,
        minimum_allocation: Resource::new(min_mb, min_vc),
        maximum_allocation: Resource::new(max_mb, max_vc),
        // Negative: every submission refused (YARN accepts it and refuses them all).
        maximum_applications: r.int_where(
            None,
            &global_key(MAXIMUM_APPLICATIONS),
            DEFAULT_MAXIMUM_SYSTEM_APPLICATIONS,
            |n| n >= 0,
            AT_LEAST_0,
        ),
        // LeafQueue: only a value above 0 is used; anything else means "not set".
        global_queue_max_applications: r.int_where(
            None,
            &global_key(GLOBAL_QUEUE_MAX_APPLICATION),
            -1,
            |_| true,
            "",
        ),
        maximum_am_resource_percent: r.float_where(
            None,
            &global_key(MAXIMUM_AM_RESOURCE_PERCENT),
            DEFAULT_MAXIMUM_AM_RESOURCE_PERCENT,
            is_share,
            SHARE,
        ),
        minimum_user_limit_percent: r.float_where(
            None,
            &global_key(MINIMUM_USER_LIMIT_PERCENT),
            DEFAULT_USER_LIMIT_PERCENT,
            is_user_limit_percent,
            USER_LIMIT_PERCENT,
        ),
        user_limit_factor: r.float_where(
            None,
            &global_key(USER_LIMIT_FACTOR),
            DEFAULT_USER_LIMIT_FACTOR,
            is_user_limit_factor,
            USER_LIMIT_FACTOR_RANGE,
        ),
        // -1 is the documented "no delay"; YARN treats every negative so, but only -1 is
        // meant.
        node_locality_delay: r.int_where(
            None,
            &global_key(NODE_LOCALITY_DELAY),
            DEFAULT_NODE_LOCALITY_DELAY,
            |n| n >= -1,
            MINUS_1_OR_AT_LEAST_0,
        ),
        rack_locality_additional_delay: r.int_where(
            None,
            &global_key(RACK_LOCALITY_ADDITIONAL_DELAY),
            DEFAULT_RACK_LOCALITY_ADDITIONAL_DELAY,
            |n| n >= -1,
            MINUS_1_OR_AT_LEAST_0,
        ),
        rack_locality_full_reset: r.boolean(&global_key(RACK_LOCALITY_FULL_RESET), true),
        multiple_assignments_enabled: r.boolean(&global_key(MULTIPLE_ASSIGNMENTS_ENABLED), true),
        // canAllocateMore: -1 is unlimited; another negative would stop at the first.
        maximum_container_assignments: r.int_where(
            None,
            &global_key(MAXIMUM_CONTAINER_ASSIGNMENTS),
            DEFAULT_MAXIMUM_CONTAINER_ASSIGNMENTS,
            |n| n >= -1,
            MINUS_1_OR_AT_LEAST_0,
        ),
        maximum_offswitch_assignments: read_offswitch_limit(r),
        reservations_continue_look_all_nodes: r
            .boolean(&global_key(RESERVE_CONT_LOOK_ALL_NODES), true),
        async_scheduling: AsyncSchedulingSettings {
            enabled: r.boolean(&global_key(SCHEDULE_ASYNCHRONOUSLY_ENABLE), false),
            // Thread.sleep(negative) kills YARN's scheduling thread.
            interval_ms: duration(
                r,
                &global_key(SCHEDULE_ASYNCHRONOUSLY_INTERVAL),
                DEFAULT_SCHEDULE_ASYNCHRONOUSLY_INTERVAL_MS,
                0,
            ),
            // CapacityScheduler: Math.max(threads, 1).
            maximum_threads: r
                .int_where(
                    None,
                    &global_key(SCHEDULE_ASYNCHRONOUSLY_MAXIMUM_THREADS),
                    1,
                    |_| true,
                    "",
                )
                .max(1),
            // Negative: YARN's scheduling thread would wait for ever.
            maximum_pending_backlogs: r.int_where(
                None,
                &global_key(SCHEDULE_ASYNCHRONOUSLY_MAXIMUM_PENDING_BACKLOGS),
                100,
                |n| n >= 0,
                AT_LEAST_0,
            ),
        },
        acl_enabled: r.boolean(YARN_ACL_ENABLE, false),
        admin_acl: AccessControlList::parse(
            &r.get(None, YARN_ADMIN_ACL)
                .unwrap_or_else(|| "*".to_string()),
        ),
        max_cluster_application_priority: r.int_where(
            None,
            MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY,
            0,
            |n| n >= 0,
            AT_LEAST_0,
        ),
        max_parallel_apps: r.opt_int_where(
            None,
            &global_key(MAX_PARALLEL_APPS),
            |n| n >= 0,
            AT_LEAST_0,
        ),
        user_max_parallel_apps: r.opt_int_where(
            None,
            &global_key(USER_MAX_PARALLEL_APPS),
            |n| n >= 0,
            AT_LEAST_0,
        ),
        user_max_parallel_apps_by_user,
        node_heartbeat_interval_ms: heartbeat_interval_ms,
        // ContainerAllocationExpirer reads it with getInt; 0 or less stops its monitor.
        container_allocation_expiry_interval_ms: i64::from(r.int_where(
            None,
            RM_CONTAINER_ALLOC_EXPIRY_INTERVAL_MS,
            DEFAULT_RM_CONTAINER_ALLOC_EXPIRY_INTERVAL_MS as i32,
            |n| n >= 1,
            AT_LEAST_1,
        )),
        work_preserving_recovery_scheduling_wait_ms: duration(
            r,
            RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS,
            DEFAULT_RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS,
            0,
        ),
        node_labels_enabled: r.opt_bool(NODE_LABELS_ENABLED).unwrap_or(false),
        exclusive_enforced_partitions: r
            .get(None, EXCLUSIVE_ENFORCED_PARTITIONS)
            .map(|v| {
                v.split(',')
                    .filter(|t| !t.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default(),
        lazy_preemption_enabled: r
            .opt_bool(&global_key(LAZY_PREEMPTION_ENABLED))
            .or_else(|| r.opt_bool(LAZY_PREEMPTION_ENABLED_MONITOR_ALIAS))
            .unwrap_or(false),
        freed_space_protect: r.boolean(FREED_SPACE_PROTECT, true),
        freed_space_hold_ms: duration(r, FREED_SPACE_HOLD_MS, 30_000, 0),
    }
}

// What the range checks accept, as their messages say it.
pub(crate) const AT_LEAST_0: &str = "it must be an integer from 0 up";
pub(crate) const AT_LEAST_1: &str = "it must be an integer from 1 up";
pub(crate) const MINUS_1_OR_AT_LEAST_0: &str = "it must be -1 or an integer from 0 up";
pub(crate) const SHARE: &str = "it must be a number from 0 to 1";
pub(crate) const USER_LIMIT_PERCENT: &str = "it must be a number above 0 and at most 100";
pub(crate) const USER_LIMIT_FACTOR_RANGE: &str =
    "it must be -1 (no limit) or a number above 0 and at most 1000000";

/// A fraction of something (AM share, per-round preemption, thresholds): `[0, 1]`.
pub(crate) fn is_share(f: f32) -> bool {
    (0.0..=1.0).contains(&f)
}

/// `minimum-user-limit-percent`: 0 would give every user a limit of no application at all.
pub(crate) fn is_user_limit_percent(f: f32) -> bool {
    f > 0.0 && f <= 100.0
}

/// `user-limit-factor`: YARN's `-1` (no per-user limit, [3.4+]) or a positive factor.
pub(crate) fn is_user_limit_factor(f: f32) -> bool {
    f == -1.0 || (f > 0.0 && f <= MAX_USER_LIMIT_FACTOR)
}

/// A millisecond key: from `min` to [`MAX_DURATION_MS`].
fn duration(r: &mut Reader, key: &str, default: i64, min: i64) -> i64 {
    let expected = format!("it must be a number of milliseconds from {min} to {MAX_DURATION_MS}");
    r.long_where(
        None,
        key,
        default,
        |ms| (min..=MAX_DURATION_MS).contains(&ms),
        &expected,
    )
}

/// ResourceTrackerService: an interval of 0 or less is replaced by the default, with a warning.
fn read_heartbeat_interval(r: &mut Reader) -> i64 {
    let expected = format!("it must be at most {MAX_DURATION_MS} milliseconds");
    let ms = r.long_where(
        None,
        RM_NM_HEARTBEAT_INTERVAL_MS,
        DEFAULT_RM_NM_HEARTBEAT_INTERVAL_MS,
        |ms| ms <= MAX_DURATION_MS,
        &expected,
    );
    if ms > 0 {
        return ms;
    }
    r.warnings.push(format!(
        "HeartBeat interval: {ms} must be greater than 0, using default."
    ));
    DEFAULT_RM_NM_HEARTBEAT_INTERVAL_MS
}

/// `getOffSwitchPerHeartbeatLimit`: values below 1 become 1, with YARN's warning.
fn read_offswitch_limit(r: &mut Reader) -> i32 {
    let key = global_key(MAXIMUM_OFFSWITCH_ASSIGNMENTS);
    let limit = r.int_where(
        None,
        &key,
        DEFAULT_MAXIMUM_OFFSWITCH_ASSIGNMENTS,
        |_| true,
        "",
    );
    if limit >= 1 {
        return limit;
    }
    r.warnings.push(format!("{key}({limit}) < 1. Using 1."));
    1
}

pub(crate) fn read_preemption_settings(r: &mut Reader) -> PreemptionSettings {
    let p = |s: &str| format!("{PREEMPTION_PREFIX}{s}");
    let order_key = p("intra-queue-preemption.preemption-order-policy");
    // IntraQueuePreemptionOrderPolicy.valueOf(get(key).toUpperCase()): not trimmed.
    let intra_queue_order = match r.get(None, &order_key).map(|s| s.to_uppercase()) {
        None => IntraQueuePreemptionOrder::UserLimitFirst,
        Some(s) if s == "USERLIMIT_FIRST" => IntraQueuePreemptionOrder::UserLimitFirst,
        Some(s) if s == "PRIORITY_FIRST" => IntraQueuePreemptionOrder::PriorityFirst,
        Some(s) => {
            r.error(
                None,
                &order_key,
                format!(
                    "No enum constant org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.IntraQueuePreemptionOrderPolicy.{}{}",
                    crate::echo::echo(&s),
                    untrimmed_hint(&s)
                ),
            );
            IntraQueuePreemptionOrder::UserLimitFirst
        }
    };
    let policies = r
        .get(None, RM_SCHEDULER_MONITOR_POLICIES)
        .map(|v| trimmed_strings(Some(&v)))
        .unwrap_or_default();
    PreemptionSettings {
        monitor_enabled: r.boolean(RM_SCHEDULER_ENABLE_MONITORS, false),
        monitor_policies: if policies.is_empty() {
            vec![DEFAULT_RM_SCHEDULER_MONITOR_POLICIES.to_string()]
        } else {
            policies
        },
        observe_only: r.boolean(&p("observe_only"), false),
        // SchedulingMonitor's scheduleAtFixedRate refuses a period of 0 or less.
        monitoring_interval_ms: duration(r, &p("monitoring_interval"), 3000, 1),
        queue_management_interval_ms: duration(
            r,
            crate::config::keys::QUEUE_MANAGEMENT_MONITORING_INTERVAL,
            crate::config::keys::DEFAULT_QUEUE_MANAGEMENT_MONITORING_INTERVAL_MS,
            1,
        ),
        max_wait_before_kill_ms: duration(r, &p("max_wait_before_kill"), 15000, 0),
        total_preemption_per_round: r.float_where(
            None,
            &p("total_preemption_per_round"),
            0.1,
            is_share,
            SHARE,
        ),
        max_ignored_over_capacity: r.double_where(
            None,
            &p("max_ignored_over_capacity"),
            0.1,
            |d| d >= 0.0 && d.is_finite(),
            "it must be a finite number from 0 up",
        ),
        natural_termination_factor: r.double_where(
            None,
            &p("natural_termination_factor"),
            0.2,
            |d| (0.0..=1.0).contains(&d),
            SHARE,
        ),
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
        preemption_to_balance_max_wait_before_kill_ms: duration(
            r,
            &p("preemption-to-balance-queue-after-satisfied.max-wait-before-kill"),
            300_000,
            0,
        ),
        conservative_drf: r.boolean(&p("conservative-drf"), false),
        intra_queue_enabled: r.boolean(&p("intra-queue-preemption.enabled"), false),
        // Compared with a used capacity, which exceeds 1 above the guarantee: only
        // negative or non-finite thresholds mean nothing.
        intra_queue_minimum_threshold: r.float_where(
            None,
            &p("intra-queue-preemption.minimum-threshold"),
            0.5,
            |t| t >= 0.0 && t.is_finite(),
            "it must be a finite number from 0 up",
        ),
        intra_queue_max_allowable_limit: r.float_where(
            None,
            &p("intra-queue-preemption.max-allowable-limit"),
            0.2,
            is_share,
            SHARE,
        ),
        intra_queue_order,
        intra_queue_conservative_drf: r
            .boolean(&p("intra-queue-preemption.conservative-drf"), true),
        underutilized_preemption_enabled: r
            .boolean(&global_key(UNDERUTILIZED_PREEMPTION_ENABLED), false),
        underutilized_preemption_reserved_container_delay_ms: duration(
            r,
            &global_key(UNDERUTILIZED_PREEMPTION_RESERVED_CONTAINER_DELAY_MS),
            60_000,
            0,
        ),
        underutilized_preemption_allow_move_reservation: r.boolean(
            &global_key(UNDERUTILIZED_PREEMPTION_ALLOW_MOVE_RESERVATION),
            false,
        ),
    }
}

/// For YARN messages about an enum value it does not trim: a note when white space around
/// the value is what made it unknown (YARN's message alone shows nothing wrong).
pub(crate) fn untrimmed_hint(value: &str) -> &'static str {
    if !value.is_empty() && java_trim(value) != value {
        " (the value has white space around it, which YARN does not trim here)"
    } else if value.is_empty() {
        " (the value is empty)"
    } else {
        ""
    }
}
