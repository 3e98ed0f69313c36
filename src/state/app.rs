//! `SchedulerApplication` and its current attempt (`FiCaSchedulerApp`).

use crate::sync::Arc;
use std::collections::{BTreeMap, BTreeSet};

use crate::ids::{ApplicationId, ContainerId};
use crate::opportunistic::outstanding::OutstandingAsks;
use crate::preempt::snapshot::ContainerSnap;
use crate::records::SchedulerKey;
use crate::records::{AllocateResponse, ContainerStatus, ContainerUpdateType};
use crate::resource::Resource;
use crate::state::queue::QueueId;
use crate::state::request::{KeyCounters, RequestTable};

/// Where an attempt stands in its leaf (spec §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptState {
    /// Held back by max-parallel-apps.
    NonRunnable,
    /// Waiting for AM-limit room.
    Pending,
    /// Scheduled by the leaf.
    Active,
}

#[derive(Debug, Clone)]
pub struct Attempt {
    pub attempt_id: i32,
    pub state: AttemptState,
    /// Why the attempt is not active yet (`None` once active).
    pub pending_reason: Option<crate::records::PendingReason>,
    /// The AM container's size (normalised), counted against the AM limits while active.
    pub am_resource: Resource,
    /// The partition the AM asked for (its request's label expression, after defaulting):
    /// the AM limits it is checked against and where its AM usage counts.
    pub am_partition: crate::state::partition::Partition,
    /// Every partition its ANY asks named over its life (`getRequestedPartitions`): a move
    /// must go to a queue that may use them all.
    pub requested_partitions: smallvec::SmallVec<[crate::state::partition::Partition; 2]>,
    pub unmanaged_am: bool,
    pub requests: RequestTable,
    /// Allocated (not reserved) resources of live containers.
    pub used: Resource,
    pub reserved: Resource,
    /// Running (not reserved) guaranteed containers, in id order.
    pub live_containers: crate::state::container::ContainerSet,
    /// The live containers again, in the preemption policy's form, copy-on-write: a policy
    /// snapshot shares it (O(1) per app) and the scheduler copies it only if it changes while
    /// a snapshot still holds it. `RmContainer::view_pos` is each container's place here.
    /// `None` while no preemption policy reads the views (the scheduler's
    /// `preemption_views_kept`; see `preempt_view.rs`).
    pub preempt_view: Option<Arc<Vec<ContainerSnap>>>,
    pub reservations: Vec<ContainerId>,
    /// Allocated since the last allocate call, handed out by the next.
    pub newly_allocated: Vec<ContainerId>,
    /// Completed since the last allocate call.
    pub completed: Vec<ContainerStatus>,
    /// Interned host and rack names the AM blacklisted.
    pub blacklist: BTreeSet<u32>,
    pub next_container_sequence: i64,
    pub am_container: Option<ContainerId>,
    /// The RM asked for this attempt's AM container and has not allocated it yet: the next
    /// allocation at the AM's key is the AM container (whatever else the attempt holds, e.g.
    /// containers kept from the last attempt).
    pub am_pending: bool,
    /// The last allocate response, for YARN's duplicate-request rule (spec §5.1).
    pub last_response: Option<AllocateResponse>,
    /// Whether this attempt's AM usage is counted in its queue and user.
    pub am_counted: bool,
    /// OPPORTUNISTIC asks for the opportunistic allocator (never in the request table).
    pub opportunistic_asks: OutstandingAsks,
    /// The opportunistic allocator's own blacklist: it applies removals before additions,
    /// where the capacity scheduler applies additions first.
    pub opportunistic_blacklist: BTreeSet<u32>,
    /// Live opportunistic containers; not charged to the queue, the user or `used`.
    pub opportunistic_containers: BTreeSet<ContainerId>,
    pub opportunistic_used: Resource,
    /// Promotions and demotions done since the last allocate call, reported by the next.
    pub updated: Vec<(ContainerUpdateType, ContainerId)>,
    /// Delay-scheduling and re-reservation counters per scheduler key; they outlive the key's
    /// requests, as YARN's per-attempt multisets do.
    pub key_counters: BTreeMap<SchedulerKey, KeyCounters>,
    /// Containers marked for preemption, reported once in the next allocate response.
    pub to_preempt: BTreeSet<ContainerId>,
    /// Whether this attempt's outstanding asks count its user as active (`UsersManager.
    /// activateApplication` registers an app only while its user has an active app).
    pub demand_registered: bool,
}

impl Attempt {
    pub fn counters(&self, key: &SchedulerKey) -> KeyCounters {
        self.key_counters.get(key).copied().unwrap_or_default()
    }

    pub fn counters_mut(&mut self, key: SchedulerKey) -> &mut KeyCounters {
        self.key_counters.entry(key).or_default()
    }

    pub fn new(attempt_id: i32, am_resource: Resource, unmanaged_am: bool) -> Self {
        Attempt {
            attempt_id,
            state: AttemptState::Pending,
            pending_reason: None,
            am_resource,
            am_partition: crate::state::partition::DEFAULT_PARTITION,
            requested_partitions: Default::default(),
            unmanaged_am,
            requests: RequestTable::default(),
            used: Resource::ZERO,
            reserved: Resource::ZERO,
            live_containers: Default::default(),
            preempt_view: Some(Arc::default()),
            reservations: Vec::new(),
            newly_allocated: Vec::new(),
            completed: Vec::new(),
            blacklist: BTreeSet::new(),
            next_container_sequence: 1,
            am_container: None,
            am_pending: false,
            last_response: None,
            am_counted: false,
            opportunistic_asks: OutstandingAsks::default(),
            opportunistic_blacklist: BTreeSet::new(),
            opportunistic_containers: BTreeSet::new(),
            opportunistic_used: Resource::ZERO,
            updated: Vec::new(),
            key_counters: BTreeMap::new(),
            demand_registered: false,
            to_preempt: BTreeSet::new(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct SchedulerApp {
    pub application_id: ApplicationId,
    /// `application_id` as YARN prints it, made once (reports and preemption snapshots).
    pub name: Arc<str>,
    pub queue: QueueId,
    pub user: String,
    /// Application priority (higher = more important).
    pub priority: i32,
    pub attempt: Option<Attempt>,
    /// Attempts made so far (the next attempt's number is this + 1).
    pub attempts_made: i32,
    pub submit_time_ms: i64,
    /// The user's slot in its leaf's `UsersManager` while the app has an attempt there.
    pub user_slot: usize,
    /// Containers of this application preempted so far, over all its attempts, and what they
    /// held (`RMAppAttemptMetrics`' preempted counts, as the app report gives them).
    pub preempted_containers: u32,
    pub preempted_resource: Resource,
    /// When its lifetime ends (engine clock, ms): submission plus the lifetime its leaf
    /// granted (`checkAndGetApplicationLifetime`); `None` once told, or with no lifetime.
    pub lifetime_deadline_ms: Option<i64>,
    /// Its node-label expression (trimmed), for asks that name none.
    pub node_label_expression: Option<String>,
    /// The partition its AM asks for (`getAppAMNodePartitionName`).
    pub am_partition: crate::state::partition::Partition,
}
