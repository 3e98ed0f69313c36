//! The yarn-site keys of opportunistic containers (spec O1): central and distributed
//! allocation in the RM, the node-queue load monitor and queue limit, and the NodeManager's
//! queue. Read from the same `Configuration` as the scheduler's keys, as the RM reads them from
//! its merged configuration.

use super::hadoop::java::java_trim;
use super::limits::MAX_DURATION_MS;
use super::reader::Reader;
use super::settings::{untrimmed_hint, AT_LEAST_0, AT_LEAST_1};
use crate::echo::echo;
use crate::opportunistic::load_monitor::LoadComparator;
use crate::opportunistic::node_queue::QueuePolicy;

pub const OPPORTUNISTIC_ALLOCATION_ENABLED: &str =
    "yarn.resourcemanager.opportunistic-container-allocation.enabled";
pub const DIST_SCHEDULING_ENABLED: &str = "yarn.nodemanager.distributed-scheduling.enabled";
pub const NODES_USED: &str = "yarn.resourcemanager.opportunistic-container-allocation.nodes-used";
pub const SORTING_NODES_INTERVAL_MS: &str =
    "yarn.resourcemanager.nm-container-queuing.sorting-nodes-interval-ms";
pub const LOAD_COMPARATOR: &str = "yarn.resourcemanager.nm-container-queuing.load-comparator";
pub const QUEUE_LIMIT_STDEV: &str = "yarn.resourcemanager.nm-container-queuing.queue-limit-stdev";
pub const MIN_QUEUE_LENGTH: &str = "yarn.resourcemanager.nm-container-queuing.min-queue-length";
pub const MAX_QUEUE_LENGTH: &str = "yarn.resourcemanager.nm-container-queuing.max-queue-length";
pub const MIN_QUEUE_WAIT_MS: &str =
    "yarn.resourcemanager.nm-container-queuing.min-queue-wait-time-ms";
pub const MAX_QUEUE_WAIT_MS: &str =
    "yarn.resourcemanager.nm-container-queuing.max-queue-wait-time-ms";
pub const MAX_ALLOCATIONS_PER_AM_HEARTBEAT: &str =
    "yarn.resourcemanager.opportunistic.max.container-allocation.per.am.heartbeat";
pub const NM_MAX_QUEUE_LENGTH: &str = "yarn.nodemanager.opportunistic-containers-max-queue-length";
pub const NM_QUEUE_POLICY: &str = "yarn.nodemanager.opportunistic-containers-queue-policy";
/// capsched's own, on by default with opportunistic allocation (false: YARN's behaviour):
/// central opportunistic allocation serves a leaf's applications in the leaf's order
/// (docs/SEMANTICS.md, "Opportunistic containers on a busy cluster").
pub const FOLLOW_QUEUE_ORDER: &str = "capsched.opportunistic.allocation.follow-queue-order";
/// capsched's own, on by default with opportunistic allocation (false: YARN's behaviour):
/// guaranteed containers are not placed in the room a node's opportunistic containers take
/// while the cluster has room free of them elsewhere.
pub const GUARANTEED_AVOIDS_OPPORTUNISTIC: &str =
    "capsched.opportunistic.guaranteed-avoids-opportunistic";
pub const NM_PAUSE_FOR_PREEMPTION: &str =
    "yarn.nodemanager.opportunistic-containers-use-pause-for-preemption";

/// YARN's refusal to start the RM with distributed scheduling but no opportunistic allocation.
pub const DIST_WITHOUT_OPPORTUNISTIC: &str = "Invalid parameters: opportunistic container allocation has to be enabled when distributed scheduling is enabled.";

#[derive(Debug, Clone, PartialEq)]
pub struct OpportunisticSettings {
    /// Central allocation in the RM.
    pub enabled: bool,
    /// Allocation by a per-node `DistributedScheduler` (requires `enabled`).
    pub distributed_enabled: bool,
    /// k: least-loaded nodes used and handed out.
    pub nodes_used: i32,
    pub sorting_interval_ms: i64,
    pub load_comparator: LoadComparator,
    pub queue_limit_stdev: f32,
    pub min_queue_length: i32,
    pub max_queue_length: i32,
    pub min_queue_wait_ms: i32,
    pub max_queue_wait_ms: i32,
    /// Cap on opportunistic allocations per allocate call; ≤ 0 ⇒ none.
    pub max_allocations_per_am_heartbeat: i32,
    /// The NodeManager's opportunistic queue capacity (0: no queuing, every opportunistic
    /// container is rejected).
    pub nm_max_queue_length: i32,
    pub nm_queue_policy: QueuePolicy,
    /// Pause running opportunistic containers to make room for guaranteed ones instead of
    /// killing them (the NodeManager's executor must be able to pause: none of YARN 3.3.6's
    /// can, so a stock NodeManager kills them with −102 instead; docs/SEMANTICS.md).
    pub nm_pause_for_preemption: bool,
    /// An application gets no central opportunistic containers while one ahead of it in its
    /// leaf's order still waits for some (`capsched.opportunistic.allocation.
    /// follow-queue-order`, by default on with opportunistic allocation; false = YARN, which
    /// serves every AM heartbeat as it comes).
    pub follow_queue_order: bool,
    /// Guaranteed placement leaves a node's opportunistic room alone — it neither allocates
    /// nor reserves there — while the cluster has as much room free of opportunistic
    /// containers as the container needs (`capsched.opportunistic.
    /// guaranteed-avoids-opportunistic`, by default on with opportunistic allocation; false =
    /// YARN, whose scheduler does not see them).
    pub guaranteed_avoids_opportunistic: bool,
}

impl Default for OpportunisticSettings {
    fn default() -> Self {
        OpportunisticSettings {
            enabled: false,
            distributed_enabled: false,
            nodes_used: 10,
            sorting_interval_ms: 1000,
            load_comparator: LoadComparator::QueueLength,
            queue_limit_stdev: 1.0,
            min_queue_length: 5,
            max_queue_length: 15,
            min_queue_wait_ms: 10,
            max_queue_wait_ms: 100,
            max_allocations_per_am_heartbeat: -1,
            nm_max_queue_length: 0,
            nm_queue_policy: QueuePolicy::ByQueueLength,
            nm_pause_for_preemption: false,
            follow_queue_order: false,
            guaranteed_avoids_opportunistic: false,
        }
    }
}

impl OpportunisticSettings {
    /// The queue-limit calculator the comparator calls for: lengths or wait times, clamped.
    pub fn queue_limit_calculator(
        &self,
    ) -> crate::opportunistic::queue_limit::QueueLimitCalculator {
        use crate::opportunistic::queue_limit::QueueLimitCalculator;
        match self.load_comparator {
            LoadComparator::QueueWaitTime => QueueLimitCalculator::new(
                self.queue_limit_stdev,
                self.min_queue_wait_ms,
                self.max_queue_wait_ms,
            ),
            _ => QueueLimitCalculator::new(
                self.queue_limit_stdev,
                self.min_queue_length,
                self.max_queue_length,
            ),
        }
    }
}

pub(crate) fn read_opportunistic_settings(r: &mut Reader) -> OpportunisticSettings {
    let d = OpportunisticSettings::default();
    let enabled = r.boolean(OPPORTUNISTIC_ALLOCATION_ENABLED, d.enabled);
    let distributed_enabled = r.boolean(DIST_SCHEDULING_ENABLED, d.distributed_enabled);
    if distributed_enabled && !enabled {
        r.error(None, DIST_SCHEDULING_ENABLED, DIST_WITHOUT_OPPORTUNISTIC);
    }
    // Both enums are read with valueOf(get(key)): exact, not trimmed.
    let load_comparator = match r.get(None, LOAD_COMPARATOR) {
        None => d.load_comparator,
        Some(s) => LoadComparator::parse(&s)
            .filter(|_| java_trim(&s) == s)
            .unwrap_or_else(|| {
                r.error(
                    None,
                    LOAD_COMPARATOR,
                    format!(
                        "No enum constant org.apache.hadoop.yarn.server.resourcemanager.scheduler.distributed.NodeQueueLoadMonitor.LoadComparator.{}{}",
                        echo(&s),
                        untrimmed_hint(&s)
                    ),
                );
                d.load_comparator
            }),
    };
    let nm_queue_policy = match r.get(None, NM_QUEUE_POLICY) {
        None => d.nm_queue_policy,
        Some(s) if s == "BY_QUEUE_LEN" => QueuePolicy::ByQueueLength,
        Some(s) if s == "BY_RESOURCES" => QueuePolicy::ByResources,
        Some(s) => {
            r.error(
                None,
                NM_QUEUE_POLICY,
                format!(
                    "No enum constant org.apache.hadoop.yarn.server.nodemanager.containermanager.scheduler.OpportunisticContainersQueuePolicy.{}{}",
                    echo(&s),
                    untrimmed_hint(&s)
                ),
            );
            d.nm_queue_policy
        }
    };
    // The queue limit's bounds: counts or milliseconds, from 0, minimum at most maximum.
    let mut bounds = |min_key: &str, max_key: &str, min_default: i32, max_default: i32| {
        let min = r.int_where(None, min_key, min_default, |n| n >= 0, AT_LEAST_0);
        let max = r.int_where(None, max_key, max_default, |n| n >= 0, AT_LEAST_0);
        if min > max {
            r.error(
                None,
                min_key,
                format!("Illegal value {min} for {min_key}: it must be at most {max_key} ({max})"),
            );
            return (min_default.min(max), max);
        }
        (min, max)
    };
    let (min_queue_length, max_queue_length) = bounds(
        MIN_QUEUE_LENGTH,
        MAX_QUEUE_LENGTH,
        d.min_queue_length,
        d.max_queue_length,
    );
    let (min_queue_wait_ms, max_queue_wait_ms) = bounds(
        MIN_QUEUE_WAIT_MS,
        MAX_QUEUE_WAIT_MS,
        d.min_queue_wait_ms,
        d.max_queue_wait_ms,
    );
    OpportunisticSettings {
        enabled,
        distributed_enabled,
        // selectLeastLoadedNodes(k) with k < 1 offers no node (a negative k throws).
        nodes_used: r.int_where(None, NODES_USED, d.nodes_used, |n| n >= 1, AT_LEAST_1),
        // scheduleAtFixedRate refuses a period of 0 or less.
        sorting_interval_ms: r.long_where(
            None,
            SORTING_NODES_INTERVAL_MS,
            d.sorting_interval_ms,
            |ms| (1..=MAX_DURATION_MS).contains(&ms),
            &format!("it must be a number of milliseconds from 1 to {MAX_DURATION_MS}"),
        ),
        load_comparator,
        queue_limit_stdev: r.float_where(
            None,
            QUEUE_LIMIT_STDEV,
            d.queue_limit_stdev,
            f32::is_finite,
            "it must be a finite number",
        ),
        min_queue_length,
        max_queue_length,
        min_queue_wait_ms,
        max_queue_wait_ms,
        // 0 or less: no cap (CentralizedOpportunisticContainerAllocator).
        max_allocations_per_am_heartbeat: r.int_where(
            None,
            MAX_ALLOCATIONS_PER_AM_HEARTBEAT,
            d.max_allocations_per_am_heartbeat,
            |_| true,
            "",
        ),
        // ContainerScheduler: 0 or less is no queue.
        nm_max_queue_length: r
            .int_where(
                None,
                NM_MAX_QUEUE_LENGTH,
                d.nm_max_queue_length,
                |_| true,
                "",
            )
            .max(0),
        nm_queue_policy,
        nm_pause_for_preemption: r.boolean(NM_PAUSE_FOR_PREEMPTION, d.nm_pause_for_preemption),
        // Issue 36.24: capsched's behaviour is the default whenever opportunistic allocation
        // is on (a busy short-job trace's p99 goes from 9 to 13 s without it); each key set
        // to false gives YARN's exact behaviour, as `capsched.preemption.freed-space.protect`.
        follow_queue_order: r.boolean(FOLLOW_QUEUE_ORDER, enabled),
        guaranteed_avoids_opportunistic: r.boolean(GUARANTEED_AVOIDS_OPPORTUNISTIC, enabled),
    }
}
