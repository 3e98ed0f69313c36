//! Property names and defaults, as YARN spells them (`CapacitySchedulerConfiguration`,
//! `YarnConfiguration`, `ProportionalCapacityPreemptionPolicy`). Spec §1 and P1.

/// `yarn.scheduler.capacity.`: every CapacityScheduler key starts with it.
pub const PREFIX: &str = "yarn.scheduler.capacity.";
pub const ROOT: &str = "root";

// ---- per-queue suffixes: `yarn.scheduler.capacity.<queue-path>.<suffix>` ----
pub const QUEUES: &str = "queues";
pub const CAPACITY: &str = "capacity";
pub const MAXIMUM_CAPACITY: &str = "maximum-capacity";
pub const STATE: &str = "state";
pub const ACL_SUBMIT_APPLICATIONS: &str = "acl_submit_applications";
pub const ACL_ADMINISTER_QUEUE: &str = "acl_administer_queue";
pub const MAXIMUM_APPLICATIONS: &str = "maximum-applications";
pub const MAXIMUM_AM_RESOURCE_PERCENT: &str = "maximum-am-resource-percent";
pub const MINIMUM_USER_LIMIT_PERCENT: &str = "minimum-user-limit-percent";
pub const USER_LIMIT_FACTOR: &str = "user-limit-factor";
pub const USER_SETTINGS: &str = "user-settings";
pub const USER_WEIGHT: &str = "weight";
pub const MAX_PARALLEL_APPS: &str = "max-parallel-apps";
pub const MAXIMUM_ALLOCATION: &str = "maximum-allocation";
pub const MAXIMUM_ALLOCATION_MB: &str = "maximum-allocation-mb";
pub const MAXIMUM_ALLOCATION_VCORES: &str = "maximum-allocation-vcores";
pub const ORDERING_POLICY: &str = "ordering-policy";
pub const FAIR_SIZE_BASED_WEIGHT: &str = "ordering-policy.fair.enable-size-based-weight";
pub const PRIORITY: &str = "priority";
pub const MAXIMUM_APPLICATION_LIFETIME: &str = "maximum-application-lifetime";
pub const DEFAULT_APPLICATION_LIFETIME: &str = "default-application-lifetime";
pub const DEFAULT_APPLICATION_PRIORITY: &str = "default-application-priority";
pub const DISABLE_PREEMPTION: &str = "disable_preemption";
pub const INTRA_QUEUE_DISABLE_PREEMPTION: &str = "intra-queue-preemption.disable_preemption";
pub const ALLOW_ZERO_CAPACITY_SUM: &str = "allow-zero-capacity-sum";

// ---- global CapacityScheduler keys (after PREFIX) and their defaults ----
pub const RESOURCE_CALCULATOR: &str = "resource-calculator";
pub const DEFAULT_RESOURCE_CALCULATOR: &str =
    "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator";
pub const DEFAULT_MAXIMUM_SYSTEM_APPLICATIONS: i32 = 10000;
pub const GLOBAL_QUEUE_MAX_APPLICATION: &str = "global-queue-max-application";
pub const DEFAULT_MAXIMUM_AM_RESOURCE_PERCENT: f32 = 0.1;
pub const DEFAULT_USER_LIMIT_PERCENT: f32 = 100.0;
pub const DEFAULT_USER_LIMIT_FACTOR: f32 = 1.0;
pub const NODE_LOCALITY_DELAY: &str = "node-locality-delay";
pub const DEFAULT_NODE_LOCALITY_DELAY: i32 = 40;
pub const RACK_LOCALITY_ADDITIONAL_DELAY: &str = "rack-locality-additional-delay";
pub const DEFAULT_RACK_LOCALITY_ADDITIONAL_DELAY: i32 = -1;
pub const RACK_LOCALITY_FULL_RESET: &str = "rack-locality-full-reset";
pub const MULTIPLE_ASSIGNMENTS_ENABLED: &str = "per-node-heartbeat.multiple-assignments-enabled";
pub const MAXIMUM_CONTAINER_ASSIGNMENTS: &str = "per-node-heartbeat.maximum-container-assignments";
pub const DEFAULT_MAXIMUM_CONTAINER_ASSIGNMENTS: i32 = 100;
pub const MAXIMUM_OFFSWITCH_ASSIGNMENTS: &str = "per-node-heartbeat.maximum-offswitch-assignments";
pub const DEFAULT_MAXIMUM_OFFSWITCH_ASSIGNMENTS: i32 = 1;
pub const RESERVE_CONT_LOOK_ALL_NODES: &str = "reservations-continue-look-all-nodes";
pub const SCHEDULE_ASYNCHRONOUSLY_ENABLE: &str = "schedule-asynchronously.enable";
pub const SCHEDULE_ASYNCHRONOUSLY_INTERVAL: &str = "schedule-asynchronously.scheduling-interval-ms";
/// YARN's own default is 5 ms; capsched's engine wakes at once when work arrives, so its idle
/// tick defaults to the 100 ms of the design (docs/CONFIGURATION.md).
pub const DEFAULT_SCHEDULE_ASYNCHRONOUSLY_INTERVAL_MS: i64 = 100;
pub const YARN_DEFAULT_SCHEDULE_ASYNCHRONOUSLY_INTERVAL_MS: i64 = 5;
pub const SCHEDULE_ASYNCHRONOUSLY_MAXIMUM_THREADS: &str = "schedule-asynchronously.maximum-threads";
pub const SCHEDULE_ASYNCHRONOUSLY_MAXIMUM_PENDING_BACKLOGS: &str =
    "schedule-asynchronously.maximum-pending-backlogs";
/// YARN's key for lazy preemption (YARN-4108) is `yarn.scheduler.capacity.lazy-preemption-enabled`.
pub const LAZY_PREEMPTION_ENABLED: &str = "lazy-preemption-enabled";
/// The same switch under the preemption monitor's prefix, the name operators look for beside
/// the monitor's other keys; YARN's own key wins when both are set.
pub const LAZY_PREEMPTION_ENABLED_MONITOR_ALIAS: &str =
    "yarn.resourcemanager.monitor.capacity.preemption.lazy-preemption-enabled";
/// capsched's own: space freed by preemption kills is held for queues below their guarantee
/// (docs/SEMANTICS.md, "Space freed by preemption"); `false` is YARN's exact behaviour.
pub const FREED_SPACE_PROTECT: &str = "capsched.preemption.freed-space.protect";
/// How long such space stays held if no queue below its guarantee takes it.
pub const FREED_SPACE_HOLD_MS: &str = "capsched.preemption.freed-space.hold-ms";
pub const UNDERUTILIZED_PREEMPTION_ENABLED: &str =
    "ordering-policy.priority-utilization.underutilized-preemption.enabled";
pub const UNDERUTILIZED_PREEMPTION_RESERVED_CONTAINER_DELAY_MS: &str =
    "ordering-policy.priority-utilization.underutilized-preemption.reserved-container-delay-ms";
pub const UNDERUTILIZED_PREEMPTION_ALLOW_MOVE_RESERVATION: &str =
    "ordering-policy.priority-utilization.underutilized-preemption.allow-move-reservation";
pub const USER_MAX_PARALLEL_APPS: &str = "user.max-parallel-apps";
pub const USER_PREFIX: &str = "user.";

// ---- app and queue ordering policy names ----
pub const FIFO_APP_ORDERING_POLICY: &str = "fifo";
pub const FAIR_APP_ORDERING_POLICY: &str = "fair";
pub const FIFO_WITH_PARTITIONS_APP_ORDERING_POLICY: &str = "fifo-with-partitions";
pub const FIFO_FOR_PENDING_APPS_ORDERING_POLICY: &str = "fifo-for-pending-apps";
pub const QUEUE_UTILIZATION_ORDERING_POLICY: &str = "utilization";
pub const QUEUE_PRIORITY_UTILIZATION_ORDERING_POLICY: &str = "priority-utilization";

// ---- yarn-site keys the scheduler reads ----
pub const RM_SCHEDULER_MINIMUM_ALLOCATION_MB: &str = "yarn.scheduler.minimum-allocation-mb";
pub const RM_SCHEDULER_MINIMUM_ALLOCATION_VCORES: &str = "yarn.scheduler.minimum-allocation-vcores";
pub const RM_SCHEDULER_MAXIMUM_ALLOCATION_MB: &str = "yarn.scheduler.maximum-allocation-mb";
pub const RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES: &str = "yarn.scheduler.maximum-allocation-vcores";
pub const DEFAULT_MINIMUM_ALLOCATION_MB: i64 = 1024;
pub const DEFAULT_MINIMUM_ALLOCATION_VCORES: i64 = 1;
pub const DEFAULT_MAXIMUM_ALLOCATION_MB: i64 = 8192;
pub const DEFAULT_MAXIMUM_ALLOCATION_VCORES: i64 = 4;
pub const RESOURCE_TYPES: &str = "yarn.resource-types";
pub const YARN_ACL_ENABLE: &str = "yarn.acl.enable";
/// `YarnConfiguration.NODE_LABELS_ENABLED` (default false): without it the label manager
/// refuses every change, and requests may name no label.
pub const NODE_LABELS_ENABLED: &str = "yarn.node-labels.enabled";
/// `YarnConfiguration.EXCLUSIVE_ENFORCED_PARTITIONS`: partitions only their own
/// applications' asks may name, and whose applications' asks always name them.
pub const EXCLUSIVE_ENFORCED_PARTITIONS: &str = "yarn.node-labels.exclusive-enforced-partitions";
pub const YARN_ADMIN_ACL: &str = "yarn.admin.acl";
pub const MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY: &str = "yarn.cluster.max-application-priority";
pub const RM_NM_HEARTBEAT_INTERVAL_MS: &str =
    "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms";
pub const DEFAULT_RM_NM_HEARTBEAT_INTERVAL_MS: i64 = 1000;
pub const RM_CONTAINER_ALLOC_EXPIRY_INTERVAL_MS: &str =
    "yarn.resourcemanager.rm.container-allocation.expiry-interval-ms";
pub const DEFAULT_RM_CONTAINER_ALLOC_EXPIRY_INTERVAL_MS: i64 = 600_000;
pub const RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS: &str =
    "yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms";
pub const DEFAULT_RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS: i64 = 10_000;

// ---- the preemption monitor (yarn-site, read from the scheduler's configuration) ----
pub const RM_SCHEDULER_ENABLE_MONITORS: &str = "yarn.resourcemanager.scheduler.monitor.enable";
pub const RM_SCHEDULER_MONITOR_POLICIES: &str = "yarn.resourcemanager.scheduler.monitor.policies";
pub const DEFAULT_RM_SCHEDULER_MONITOR_POLICIES: &str =
    "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy";
pub const PREEMPTION_PREFIX: &str = "yarn.resourcemanager.monitor.capacity.preemption.";

// ---- the monitor's policies for auto-created and dynamic queues, read with its other
// settings (the queues' own keys are in `auto_queues`) ----
/// The QueueManagementDynamicEditPolicy's period (a yarn-site key, read from the scheduler's
/// configuration as YARN reads it).
pub const QUEUE_MANAGEMENT_MONITORING_INTERVAL: &str =
    "yarn.resourcemanager.monitor.capacity.queue-management.monitoring-interval";
pub const DEFAULT_QUEUE_MANAGEMENT_MONITORING_INTERVAL_MS: i64 = 1500;
/// The monitor policy that re-runs the management policy periodically; without it (YARN's
/// default) entitlements change only when a leaf is made and at a refresh.
pub const QUEUE_MANAGEMENT_DYNAMIC_EDIT_POLICY: &str = "QueueManagementDynamicEditPolicy";
/// The monitor policy that deletes expired dynamic queues (never on by default).
pub const AUTO_CREATED_QUEUE_DELETION_POLICY: &str = "AutoCreatedQueueDeletionPolicy";
