//! The deterministic CapacityScheduler: every YARN scheduler event is a method; time comes in
//! as `now_ms`; randomness comes from a seeded PRNG held here. No threads, no clocks, no I/O.
//!
//! This file holds `CapacityScheduler` itself — the state (the tree, the slabs of nodes,
//! applications and containers, the seeded PRNG) and the bookkeeping every event shares (usage
//! up the tree, users, pending totals). The events and calls are methods on it, grouped by
//! concern in the folders below: `alloc` (the per-node allocation pass), `apps` (applications,
//! attempts, the AM's allocate, containers' ends, updates, reports), `nodes` (NodeManagers
//! joining, heartbeating, resized, decommissioned), `placement` (where a submission goes, and
//! the queues made for it), `labels` (node labels and partitions), `preemption` (the policy's
//! snapshot and its plan applied, freed space); beside them the notices to the RM, a refresh,
//! the reports and the invariant checker.
//!
//! The scheduler may use everything below it: `state` (whose types are its fields; a field's
//! type never lives in a file that implements the scheduler, or the two would import each
//! other), `records`, `config`, `preempt`, `opportunistic`, `report`, `resource`, `ids`.
//! Nothing here knows the runtime, the C ABI or the simulator.

pub mod alloc;
pub mod apps;
pub mod error;
pub mod invariants;
pub mod labels;
mod limit_audit;
pub mod nodes;
pub mod notices;
pub(crate) mod opportunistic;
pub mod placement;
pub mod preemption;
pub mod queue_status;
mod refresh;
pub mod report;

use crate::sync::Arc;
use std::collections::HashMap;

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

pub use error::SchedulerError;

use crate::config::CapacitySchedulerConfiguration;
use crate::ids::{AppId, ContainerId, GenSlab, NodeId};
use crate::resource::Resource;
use crate::state::app::SchedulerApp;
use crate::state::container::RmContainer;
use crate::state::labels::NodeLabelsManager;
use crate::state::leaf::LeafRuntime;
use crate::state::node::SchedulerNode;
use crate::state::partition::{add_in, ByPartition, Partition, DEFAULT_PARTITION};
use crate::state::queue::{QueueId, QueueTree};
use crate::state::request::PendingDelta;
use crate::state::users::{QueueLimitInputs, UsersManager};
use nodes::node_index::{Names, NodeIndex};

/// YARN's CapacityScheduler as a deterministic state machine.
#[derive(Debug, Clone)]
pub struct CapacityScheduler {
    pub(crate) tree: QueueTree,
    /// Run-time state of each leaf, by queue id (None for parents).
    pub(crate) leaves: Vec<Option<LeafRuntime>>,
    /// Applications counted per queue (root counts submissions, leaves count attempts).
    pub(crate) num_applications: Vec<i32>,
    /// Outstanding asks per queue subtree.
    pub(crate) queue_pending: Vec<Resource>,
    /// Reserved resources per queue subtree (also included in `Queue::used`).
    pub(crate) queue_reserved: Vec<Resource>,
    /// Reservations per queue subtree in the default partition (`QueueMetrics.reservedContainers`).
    pub(crate) queue_reserved_containers: Vec<i64>,
    /// The same two in the labelled partitions (the plain ones are the default partition's).
    pub(crate) queue_labelled_pending: Vec<ByPartition>,
    pub(crate) queue_labelled_reserved: Vec<ByPartition>,
    /// The cluster's node labels and which node carries which.
    pub(crate) labels: NodeLabelsManager,
    /// Queues that a move, a refresh or a shrinking cluster left above their maximum capacity
    /// (YARN allows all three; an allocation never does it). Such a queue may stay above its
    /// maximum until its usage falls back under it; the invariant checker allows exactly that.
    pub(crate) over_max_by_event: Vec<bool>,
    /// Killable containers (lazy preemption) per queue subtree; included in `Queue::used`.
    pub(crate) queue_killable: Vec<Resource>,
    /// Containers killed with −102 during the current node update or scheduling pass (lazy
    /// preemption making room; an overcommitted node past its timeout), cleared when the next
    /// one starts: for the node's response and the host's events.
    pub(crate) killed_for_room: Vec<ContainerId>,
    /// Guaranteed containers allocated during the current node update or scheduling pass
    /// (cleared when the next one starts), for the node's response.
    pub(crate) allocated_now: Vec<ContainerId>,
    /// Set while a node update allocates: its containers go back in the node's answer, so no
    /// `ContainerPlaced` notice is recorded for them.
    pub(crate) in_heartbeat: bool,
    /// What the RM around the core is told as it happens, when recorded (`notices.rs`).
    pub(crate) notices: Option<Vec<crate::records::SchedulerNotice>>,
    /// Applications with a lifetime, by deadline (`expire_lifetimes` pops from the front).
    pub(crate) lifetime_deadlines: std::collections::BTreeSet<(i64, AppId)>,
    /// The auto-created leaves' management policy's memory (`auto_queues`).
    pub(crate) queue_management: crate::state::dynamic_queues::QueueManagementState,
    /// Dynamic queues' activity and the deletion policy's marks (`flexible_queues`).
    pub(crate) dynamic_queues: crate::state::dynamic_queues::DynamicQueueState,
    pub(crate) nodes: GenSlab<NodeId, SchedulerNode>,
    /// Nodes by their NodeId as registered (`host:port`, or the host) and by host.
    pub(crate) node_index: NodeIndex,
    /// Registered nodes per interned rack name.
    pub(crate) rack_sizes: HashMap<u32, u32>,
    pub(crate) apps: GenSlab<AppId, SchedulerApp>,
    pub(crate) containers: GenSlab<ContainerId, RmContainer>,
    pub(crate) names: Names,
    pub(crate) cluster_timestamp: i64,
    pub(crate) next_application_id: i32,
    /// The RM's epoch (its restarts, from the RM state store): the top bits of every
    /// container id this scheduler mints, as YARN's `ContainerId` carries it.
    pub(crate) rm_epoch: i64,
    /// Applications by YARN id, for hosts that hold the RM's ids (O(1) both ways).
    pub(crate) app_by_yarn_id: HashMap<crate::ids::ApplicationId, AppId>,
    pub(crate) rng: Xoshiro256PlusPlus,
    /// Used by the per-pass user-limit cache: bumps whenever usage changes.
    pub(crate) usage_epoch: u64,
    /// Running containers kept across attempts (work-preserving AM restart), by application,
    /// until the next attempt adopts them.
    pub(crate) kept_containers: HashMap<AppId, Vec<ContainerId>>,
    /// The first time an event reached the scheduler: the start of the scheduling wait.
    pub(crate) started_ms: Option<i64>,
    /// The per-component largest registered node (maximum allocation), kept with the cluster.
    pub(crate) largest_node: Resource,
    /// Opportunistic allocation: the node-queue monitor, the handed-out node list, and the
    /// container updates waiting for room.
    pub(crate) opportunistic: crate::state::opportunistic::OpportunisticState,
    /// Whether node heartbeats leave allocation to the asynchronous pass
    /// (`schedule-asynchronously.enable`, read once at start as YARN does).
    pub(crate) asynchronous: bool,
    /// Each parent's children in allocation order, kept between assignments (by parent id;
    /// `alloc::ordering`).
    pub(crate) child_orders: Vec<crate::scheduler::alloc::ChildOrder>,
    /// Bumped whenever a leaf's active list or an application's asks change: with the usage
    /// epoch and the tree's generation, what a visit depends on before it tries an
    /// application (`alloc::found_nothing`).
    pub(crate) demand_version: u64,
    /// Bumped whenever an application or attempt is counted in or out of a queue
    /// (`figures_version`, with the usage epoch and the demand version).
    pub(crate) attempts_epoch: u64,
    /// How many times an application was tried on a node (`assign_app`): a visit that did not
    /// move it tried none.
    pub(crate) apps_tried: u64,
    /// The last default-partition descent from root that tried no application, with what it
    /// depended on (`alloc::found_nothing`).
    pub(crate) root_found_nothing: Option<crate::state::leaf::NothingFound>,
    /// Whether each attempt keeps its preemption view (`preempt_view`): while the
    /// configuration runs `ProportionalCapacityPreemptionPolicy`, whose rounds read them.
    pub(crate) preemption_views_kept: bool,
}

impl CapacityScheduler {
    /// A scheduler for `conf`, with YARN application ids stamped `cluster_timestamp` and the
    /// PRNG seeded with `seed` (async start nodes, tie-breaks).
    pub fn new(
        conf: Arc<CapacitySchedulerConfiguration>,
        cluster_timestamp: i64,
        seed: u64,
    ) -> Self {
        let opportunistic =
            crate::state::opportunistic::OpportunisticState::new(conf.opportunistic());
        let asynchronous = conf.settings().async_scheduling.enabled;
        let preemption_views_kept = conf.preemption().proportional_policy_enabled();
        let tree = QueueTree::new(conf);
        let n = tree.len();
        let leaves = (0..n)
            .map(|id| tree.is_leaf(id).then(LeafRuntime::default))
            .collect();
        CapacityScheduler {
            tree,
            leaves,
            num_applications: vec![0; n],
            over_max_by_event: vec![false; n],
            queue_killable: vec![Resource::ZERO; n],
            killed_for_room: Vec::new(),
            allocated_now: Vec::new(),
            in_heartbeat: false,
            notices: None,
            lifetime_deadlines: Default::default(),
            queue_management: Default::default(),
            dynamic_queues: Default::default(),
            queue_pending: vec![Resource::ZERO; n],
            queue_reserved: vec![Resource::ZERO; n],
            queue_reserved_containers: vec![0; n],
            queue_labelled_pending: vec![ByPartition::default(); n],
            queue_labelled_reserved: vec![ByPartition::default(); n],
            labels: NodeLabelsManager::default(),
            nodes: GenSlab::default(),
            node_index: NodeIndex::default(),
            rack_sizes: HashMap::new(),
            apps: GenSlab::default(),
            containers: GenSlab::default(),
            names: Names::default(),
            cluster_timestamp,
            next_application_id: 1,
            rm_epoch: 0,
            app_by_yarn_id: HashMap::new(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            usage_epoch: 0,
            kept_containers: HashMap::new(),
            started_ms: None,
            largest_node: Resource::ZERO,
            opportunistic,
            asynchronous,
            child_orders: Vec::new(),
            demand_version: 0,
            attempts_epoch: 0,
            apps_tried: 0,
            root_found_nothing: None,
            preemption_views_kept,
        }
    }

    /// Whether allocation happens in the asynchronous pass (`schedule_pass`) instead of on
    /// node heartbeats. A runtime that runs the pass may turn it on whatever the configuration.
    pub fn set_asynchronous(&mut self, on: bool) {
        self.asynchronous = on;
    }

    /// The RM's epoch, put in the top bits of the container ids minted from now on (YARN's
    /// `ContainerId.newContainerId(attempt, epoch << 40 | sequence)`); 0 to 2^23 - 1.
    pub fn set_rm_epoch(&mut self, epoch: i64) {
        self.rm_epoch = epoch & ((1 << 24) - 1);
    }

    pub fn rm_epoch(&self) -> i64 {
        self.rm_epoch
    }

    /// The cluster timestamp of the application ids this scheduler mints.
    pub fn cluster_timestamp(&self) -> i64 {
        self.cluster_timestamp
    }

    /// The application with this YARN id, if it is still known.
    pub fn application_by_yarn_id(&self, id: crate::ids::ApplicationId) -> Option<AppId> {
        self.app_by_yarn_id.get(&id).copied()
    }

    /// The live (or reserved) container with this YARN id: its application by YARN id, then
    /// its containers.
    pub fn container_by_yarn_id(&self, id: crate::ids::YarnContainerId) -> Option<ContainerId> {
        let app = self.application_by_yarn_id(id.attempt.application)?;
        let t = self.apps.get(app)?.attempt.as_ref()?;
        // Containers kept across attempts keep their first attempt's id.
        let kept = self.kept_containers.get(&app).into_iter().flatten();
        t.live_containers
            .iter()
            .chain(&t.opportunistic_containers)
            .chain(&t.reservations)
            .chain(kept)
            .copied()
            .find(|c| self.containers.get(*c).is_some_and(|c| c.yarn_id == id))
    }

    pub fn is_asynchronous(&self) -> bool {
        self.asynchronous
    }

    /// Notes the time of the first event (the RM's start, for the scheduling wait).
    pub(crate) fn observe(&mut self, now_ms: i64) {
        self.started_ms.get_or_insert(now_ms);
    }

    pub fn configuration(&self) -> &Arc<CapacitySchedulerConfiguration> {
        self.tree.configuration()
    }

    pub fn queue_tree(&self) -> &QueueTree {
        &self.tree
    }

    pub fn cluster_resource(&self) -> Resource {
        self.tree.cluster_resource()
    }

    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Containers tracked (reserved, allocated, running; guaranteed and opportunistic).
    pub fn num_containers(&self) -> usize {
        self.containers.len()
    }

    pub fn num_applications_total(&self) -> usize {
        self.apps.len()
    }

    pub fn node(&self, id: NodeId) -> Option<&SchedulerNode> {
        self.nodes.get(id)
    }

    /// The node registered as `address` (`host:port`, or a bare host), or the one node on
    /// host `address` when it registered with a port; `None` when several share that host.
    pub fn node_id(&self, address: &str) -> Option<NodeId> {
        if let Some(id) = self.node_index.by_address(&self.nodes, address) {
            return Some(id);
        }
        match self.node_index.on_host(&self.nodes, address).as_slice() {
            [only] => Some(*only),
            _ => None,
        }
    }

    pub fn nodes(&self) -> impl Iterator<Item = (NodeId, &SchedulerNode)> {
        self.nodes.iter()
    }

    pub fn application(&self, id: AppId) -> Option<&SchedulerApp> {
        self.apps.get(id)
    }

    pub fn applications(&self) -> impl Iterator<Item = (AppId, &SchedulerApp)> {
        self.apps.iter()
    }

    pub fn container(&self, id: ContainerId) -> Option<&RmContainer> {
        self.containers.get(id)
    }

    pub fn containers(&self) -> impl Iterator<Item = (ContainerId, &RmContainer)> {
        self.containers.iter()
    }

    pub fn leaf(&self, q: QueueId) -> Option<&LeafRuntime> {
        self.leaves.get(q).and_then(Option::as_ref)
    }

    /// YARN's `getNumApplications`: a leaf's attempts (pending, active, or held back by
    /// max-parallel-apps); a parent's applications submitted beneath it (root: every one);
    /// 0 for unknown ids.
    pub fn num_applications(&self, q: QueueId) -> i32 {
        match self.leaf(q) {
            Some(lr) => lr.num_attempts() as i32,
            None => self.num_applications.get(q).copied().unwrap_or(0),
        }
    }

    /// Outstanding asks under a queue; zero for unknown ids.
    pub fn queue_pending(&self, q: QueueId) -> Resource {
        self.queue_pending.get(q).copied().unwrap_or_default()
    }

    /// Reserved resources under a queue; zero for unknown ids.
    pub fn queue_reserved(&self, q: QueueId) -> Resource {
        self.queue_reserved.get(q).copied().unwrap_or_default()
    }

    /// Whether heartbeats with nothing to report would change nothing: no application asks
    /// for a container (guaranteed or opportunistic, its AM's included) or waits for an
    /// update, none holds a reservation, nothing waits for an AM to pull it (allocated,
    /// completed, updated, marked for preemption), and no node has a kill or an orphan to
    /// deliver. A host driving the scheduler in virtual time (the simulator) may skip
    /// heartbeats while this holds and nothing else happens; O(applications + nodes).
    pub fn quiescent(&self) -> bool {
        let apps_idle = self.apps.iter().all(|(_, a)| {
            a.attempt.as_ref().is_none_or(|t| {
                !t.requests.has_pending()
                    && t.opportunistic_asks.is_empty()
                    && t.reservations.is_empty()
                    && t.newly_allocated.is_empty()
                    && t.completed.is_empty()
                    && t.updated.is_empty()
                    && t.to_preempt.is_empty()
            })
        });
        apps_idle
            && self.opportunistic.pending_increases.is_empty()
            && self.nodes.iter().all(|(_, n)| {
                n.to_kill().is_empty() && n.orphans().is_empty() && n.reserved.is_none()
            })
    }

    /// The largest container `queue` may be given once every NodeManager has registered: its
    /// maximum allocation within the largest node, what [`CapacityScheduler::
    /// queue_max_allocation`] gives after the scheduling wait. A host that replays a workload
    /// on a cluster it starts at once (the simulator) checks asks against this, as a long-
    /// running ResourceManager would.
    pub fn queue_max_allocation_settled(&self, queue: QueueId) -> Resource {
        Resource::component_min(
            self.tree.conf(queue).maximum_allocation,
            Resource::component_min(self.tree.settings().maximum_allocation, self.largest_node),
        )
    }

    /// YARN's `SchedulerUtils.validateResourceRequest` of `capability` against `max`, with
    /// its `InvalidResourceRequestException` message.
    pub fn check_capability(
        &self,
        capability: &Resource,
        max: &Resource,
    ) -> Result<(), SchedulerError> {
        self.validate_capability(capability, max)
    }

    pub(crate) fn leaf_mut(&mut self, q: QueueId) -> &mut LeafRuntime {
        self.leaves[q].as_mut().expect("a leaf queue")
    }

    /// Adds `delta` (may be negative) to the used resource in `partition` of the app's leaf,
    /// its ancestors and its user. Reservations count as used (spec §8.3).
    pub(crate) fn add_app_used(&mut self, app: AppId, partition: Partition, delta: Resource) {
        let a = &self.apps[app];
        let (leaf, slot) = (a.queue, a.user_slot);
        if partition == DEFAULT_PARTITION {
            self.add_default_used_up_from(leaf, delta);
        } else {
            let mut at = Some(leaf);
            while let Some(q) = at {
                let queue = self.tree.queue_mut(q);
                add_in(&mut queue.used, &mut queue.labelled_used, partition, delta);
                at = self.tree.parent(q);
            }
        }
        let (rc, default_total) = (
            self.tree.settings().resource_calculator,
            self.tree.default_partition_resource(),
        );
        self.leaf_mut(leaf)
            .users
            .add_used(slot, partition, delta, rc, default_total);
        self.usage_epoch += 1;
    }

    /// `add_app_used` in the default partition, the usual one, for `leaf` and its ancestors:
    /// each parent's kept order of its children re-keys the child, and a queue an event left
    /// above its maximum is noted once back within it.
    fn add_default_used_up_from(&mut self, leaf: QueueId, delta: Resource) {
        let mut q = leaf;
        loop {
            let queue = self.tree.queue_mut(q);
            queue.used += delta;
            if self.over_max_by_event[q] && queue.used.fits_in(&queue.capacities.effective_max) {
                self.over_max_by_event[q] = false;
            }
            let Some(parent) = self.tree.parent(q) else {
                return;
            };
            if let Some(order) = self.child_orders.get_mut(parent) {
                order.moved(self.tree.position_in_parent(q));
            }
            q = parent;
        }
    }

    /// Adds `delta` to the AM resource of `leaf` and of its `user` in `partition`.
    pub(crate) fn add_am_used(
        &mut self,
        leaf: QueueId,
        user: &str,
        partition: Partition,
        delta: Resource,
    ) {
        let lr = self.leaf_mut(leaf);
        add_in(&mut lr.am_used, &mut lr.labelled_am_used, partition, delta);
        if let Some(u) = lr.users.get_mut(user) {
            add_in(&mut u.am_used, &mut u.labelled_am_used, partition, delta);
        }
    }

    /// `leaf`'s AM limit in `partition`.
    pub(crate) fn am_limit_in(&self, leaf: QueueId, partition: Partition) -> Resource {
        if partition == DEFAULT_PARTITION {
            self.tree.am_resource_limit(leaf)
        } else {
            self.tree
                .am_resource_limit_in(leaf, self.labels.name(partition))
        }
    }

    /// `leaf`'s per-user AM limit in `partition`.
    pub(crate) fn user_am_limit_in(
        &self,
        leaf: QueueId,
        partition: Partition,
        active_users: u32,
        weight: f32,
    ) -> Resource {
        if partition == DEFAULT_PARTITION {
            self.tree.user_am_resource_limit(leaf, active_users, weight)
        } else {
            self.tree.user_am_resource_limit_in(
                leaf,
                self.labels.name(partition),
                active_users,
                weight,
            )
        }
    }

    /// What an application holds per partition — (partition, used with reservations,
    /// reserved, reservations) — from its containers, those kept across attempts included.
    pub(crate) fn app_usage_by_partition(
        &self,
        app: AppId,
    ) -> smallvec::SmallVec<[(Partition, Resource, Resource, i64); 1]> {
        let mut out: smallvec::SmallVec<[(Partition, Resource, Resource, i64); 1]> =
            smallvec::SmallVec::new();
        let t = self.apps[app].attempt.as_ref();
        let ids = t
            .into_iter()
            .flat_map(|t| t.live_containers.iter().chain(&t.reservations))
            .chain(self.kept_containers.get(&app).into_iter().flatten());
        for c in ids.filter_map(|c| self.containers.get(*c)) {
            let (reserved, count) = if c.is_reserved() {
                (c.resource, 1)
            } else {
                (Resource::ZERO, 0)
            };
            match out.iter_mut().find(|(p, _, _, _)| *p == c.partition) {
                Some(e) => {
                    e.1 += c.resource;
                    e.2 += reserved;
                    e.3 += count;
                }
                None => out.push((c.partition, c.resource, reserved, count)),
            }
        }
        out
    }

    /// Adds `delta` (the resource of `count` reservations, both negative for a release) to
    /// `leaf`'s and its ancestors' reserved figures in `partition`.
    pub(crate) fn add_queue_reserved(
        &mut self,
        leaf: QueueId,
        partition: Partition,
        delta: Resource,
        count: i64,
    ) {
        let default = partition == DEFAULT_PARTITION;
        let mut at = Some(leaf);
        while let Some(q) = at {
            add_in(
                &mut self.queue_reserved[q],
                &mut self.queue_labelled_reserved[q],
                partition,
                delta,
            );
            if default {
                self.queue_reserved_containers[q] += count;
            }
            at = self.tree.parent(q);
        }
    }

    /// Reservations in the default partition beneath `q` (`QueueMetrics.reservedContainers`).
    pub fn queue_reserved_containers(&self, q: QueueId) -> i64 {
        self.queue_reserved_containers
            .get(q)
            .copied()
            .unwrap_or_default()
    }

    /// Applies a change of an attempt's outstanding asks to the queue totals and to its user's
    /// active state. As YARN's `UsersManager.activateApplication`, an app's asks make its user
    /// active only if the user has an active app at the moment the asks appear (spec §4.6).
    pub(crate) fn apply_pending_delta(&mut self, app: AppId, delta: PendingDelta) {
        let (leaf, slot) = (self.apps[app].queue, self.apps[app].user_slot);
        // More asked: an attempt the leaf's visits passed over may ask now.
        if delta.default.any_positive() {
            self.leaf_mut(leaf).asking_nothing = 0;
        }
        // The default partition's change, the usual one, added directly (adding zero changes
        // nothing); then the labelled partitions', usually none (out of line).
        if !delta.default.is_zero() {
            let mut at = Some(leaf);
            while let Some(q) = at {
                self.queue_pending[q] += delta.default;
                at = self.tree.parent(q);
            }
            self.leaf_mut(leaf).pending_resource += delta.default;
        }
        if !delta.labelled.is_empty() {
            self.apply_labelled_pending(leaf, &delta.labelled);
        }
        self.demand_version += 1;
        let (had, has) = (delta.had_demand, delta.has_demand);
        if had == has {
            return;
        }
        let registered = self.apps[app]
            .attempt
            .as_ref()
            .is_some_and(|t| t.demand_registered);
        let user_has_active_app = self
            .leaf(leaf)
            .and_then(|l| l.users.by_slot(slot))
            .is_some_and(|u| u.active_apps > 0);
        let register = match (has, registered) {
            (true, false) if user_has_active_app => true,
            (false, true) => false,
            _ => return,
        };
        self.leaf_mut(leaf).users.set_app_demand(slot, register);
        if let Some(t) = self.apps[app].attempt.as_mut() {
            t.demand_registered = register;
        }
        self.usage_epoch += 1;
    }

    /// `apply_pending_delta`'s labelled partitions' changes.
    #[inline(never)]
    fn apply_labelled_pending(&mut self, leaf: QueueId, labelled: &[(Partition, Resource)]) {
        if labelled.iter().any(|(_, r)| r.any_positive()) {
            self.leaf_mut(leaf).asking_nothing = 0;
        }
        for &(p, change) in labelled {
            let mut at = Some(leaf);
            while let Some(q) = at {
                self.queue_labelled_pending[q].add(p, change);
                at = self.tree.parent(q);
            }
            self.leaf_mut(leaf).labelled_pending.add(p, change);
        }
    }

    /// The inputs of the user-limit formula for a leaf, in the default partition.
    pub(crate) fn limit_inputs(&self, leaf: QueueId) -> QueueLimitInputs {
        self.limit_inputs_in(leaf, DEFAULT_PARTITION, false)
    }

    /// The same for partition `p`, respecting its exclusivity or not.
    pub(crate) fn limit_inputs_in(
        &self,
        leaf: QueueId,
        p: Partition,
        ignore_exclusivity: bool,
    ) -> QueueLimitInputs {
        let s = self.tree.settings();
        let lc = self.tree.conf(leaf).leaf.as_ref().expect("a leaf queue");
        let (partition_total, effective_min, effective_max) = if p == DEFAULT_PARTITION {
            let c = &self.tree.queue(leaf).capacities;
            (
                self.tree.default_partition_resource(),
                c.effective_min,
                c.effective_max,
            )
        } else {
            let label = self.labels.name(p);
            let c = self.tree.partition_capacity(leaf, label);
            (
                self.tree.partition_resource(label),
                c.effective_min,
                c.effective_max,
            )
        };
        QueueLimitInputs {
            rc: s.resource_calculator,
            partition_total,
            effective_min,
            effective_max,
            minimum_allocation: s.minimum_allocation,
            user_limit_percent: lc.user_limit_percent,
            user_limit_factor: lc.user_limit_factor,
            partition: p,
            ignore_exclusivity,
        }
    }

    /// The resource of partition `p` (`getResourceByLabel`).
    pub(crate) fn partition_resource(&self, p: Partition) -> Resource {
        if p == DEFAULT_PARTITION {
            self.tree.default_partition_resource()
        } else {
            self.tree.partition_resource(self.labels.name(p))
        }
    }

    /// `q`'s used resource (reservations included) in partition `p`.
    pub(crate) fn queue_used_in(&self, q: QueueId, p: Partition) -> Resource {
        let queue = self.tree.queue(q);
        crate::state::partition::get_in(queue.used, &queue.labelled_used, p)
    }

    /// `q`'s effective maximum in partition `p`.
    pub(crate) fn effective_max_in(&self, q: QueueId, p: Partition) -> Resource {
        if p == DEFAULT_PARTITION {
            self.tree.queue(q).capacities.effective_max
        } else {
            self.tree
                .partition_capacity(q, self.labels.name(p))
                .effective_max
        }
    }

    /// The queue-wide user limit of `leaf` now, from the leaf's cache when usage has not
    /// changed since it was computed.
    pub(crate) fn queue_user_limit(&self, leaf: QueueId) -> Resource {
        let lr = self.leaf(leaf).expect("a leaf queue");
        match lr.user_limit_cache {
            Some((epoch, limit)) if epoch == self.usage_epoch => limit,
            _ => lr.users.compute_queue_user_limit(&self.limit_inputs(leaf)),
        }
    }

    /// Refreshes the leaf's user-limit cache and returns the limit; `inputs` are the leaf's
    /// (`limit_inputs`).
    pub(crate) fn cached_queue_user_limit(
        &mut self,
        leaf: QueueId,
        inputs: &QueueLimitInputs,
    ) -> Resource {
        debug_assert_eq!(*inputs, self.limit_inputs(leaf));
        let (epoch, generation) = (self.usage_epoch, self.tree.generation());
        let lr = self.leaves[leaf].as_mut().expect("a leaf queue");
        let limit = match lr.user_limit_cache {
            Some((at, limit)) if at == epoch => limit,
            _ => lr.users.compute_queue_user_limit_kept(inputs, generation),
        };
        lr.user_limit_cache = Some((epoch, limit));
        limit
    }

    /// `user`'s limit in `leaf` now (spec §4.6).
    /// `None` when `leaf` is not a leaf queue.
    pub fn user_limit(&self, leaf: QueueId, user: &str) -> Option<Resource> {
        let lr = self.leaf(leaf)?;
        let inputs = self.limit_inputs(leaf);
        let queue_limit = self.queue_user_limit(leaf);
        let weight = lr
            .users
            .get(user)
            .map(|u| u.weight)
            .unwrap_or_else(|| self.user_weight(leaf, user));
        Some(UsersManager::user_limit(&inputs, queue_limit, weight))
    }

    /// The headroom reported to an AM of `user` in `leaf` (`LeafQueue.getHeadroom`, spec §4.6).
    /// `None` when `leaf` is not a leaf queue.
    pub fn headroom(&self, leaf: QueueId, user: &str) -> Option<Resource> {
        let mut h = self.headroom_in(leaf, user, DEFAULT_PARTITION)?;
        if h.memory_mb() < 0 {
            h.set(crate::resource::MEMORY, 0);
        }
        Some(h)
    }

    /// The headroom an application's AM is told (`CapacityHeadroomProvider`): the default
    /// partition's when it asked for no other, else the sum over every partition it asked for.
    pub(crate) fn app_headroom(&self, app: AppId) -> Resource {
        let a = &self.apps[app];
        let partitions = a
            .attempt
            .as_ref()
            .map(|t| t.requested_partitions.as_slice())
            .unwrap_or(&[]);
        if partitions.iter().all(|&p| p == DEFAULT_PARTITION) {
            return self.headroom(a.queue, &a.user).unwrap_or_default();
        }
        let mut h: Resource = partitions
            .iter()
            .filter_map(|&p| self.headroom_in(a.queue, &a.user, p))
            .sum();
        if h.memory_mb() < 0 {
            h.set(crate::resource::MEMORY, 0);
        }
        h
    }

    /// `LeafQueue.getHeadroom` for partition `p`: the user's room under its limit and the
    /// queue's under its current limit (the default partition) or maximum (a labelled one),
    /// rounded down, within what the partition has free.
    fn headroom_in(&self, leaf: QueueId, user: &str, p: Partition) -> Option<Resource> {
        let lr = self.leaf(leaf)?;
        let s = self.tree.settings();
        let rc = s.resource_calculator;
        let inputs = self.limit_inputs_in(leaf, p, false);
        let queue_limit = if p == DEFAULT_PARTITION {
            self.queue_user_limit(leaf)
        } else {
            lr.users.compute_queue_user_limit(&inputs)
        };
        let u = lr.users.get(user);
        let weight = u
            .map(|u| u.weight)
            .unwrap_or_else(|| self.user_weight(leaf, user));
        let user_limit = UsersManager::user_limit(&inputs, queue_limit, weight);
        let user_used = u.map(|u| u.used_in(p)).unwrap_or(Resource::ZERO);
        let user_room = (user_limit - user_used).non_negative();
        let current_limit = if p == DEFAULT_PARTITION {
            self.tree.queue_current_limit(leaf)
        } else {
            self.effective_max_in(leaf, p)
        };
        let queue_room = (current_limit - self.queue_used_in(leaf, p)).non_negative();
        let h = rc.round_down(
            &Resource::component_min(user_room, queue_room),
            &s.minimum_allocation,
        );
        let partition = self.partition_resource(p);
        let free = partition - self.queue_used_in(0, p);
        // Resources.min(rc, partition, free, headroom): a tie returns the free room.
        Some(rc.min(&partition, &free, &h))
    }

    /// A user's configured weight in `leaf` (`user-settings.<user>.weight`, default 1).
    pub(crate) fn user_weight(&self, leaf: QueueId, user: &str) -> f32 {
        self.tree
            .conf(leaf)
            .leaf
            .as_ref()
            .and_then(|l| l.user_weights.get(user).copied())
            .unwrap_or(1.0)
    }

    /// Recomputes everything derived from the cluster size and re-runs activation.
    pub(crate) fn cluster_resource_changed(&mut self, now_ms: i64) {
        let total: Resource = self.nodes.iter().map(|(_, n)| n.total).sum();
        self.largest_node = self.largest_registered_node();
        self.cluster_derived_values(now_ms, total);
    }

    /// A node of `removed` became one of `added` (a node joining is ZERO → its size, one
    /// leaving the reverse): the cluster total moves by the difference and the largest node is
    /// rescanned only if a largest one shrank, so registering N nodes costs O(N), not O(N²).
    pub(crate) fn node_capacity_changed(
        &mut self,
        now_ms: i64,
        removed: Resource,
        added: Resource,
    ) {
        let total = self.tree.cluster_resource() - removed + added;
        let largest = Resource::component_max(self.largest_node, added);
        self.largest_node = if (0..crate::resource::MAX_RESOURCE_TYPES)
            .any(|i| removed.get(i) > added.get(i) && removed.get(i) >= self.largest_node.get(i))
        {
            self.largest_registered_node()
        } else {
            largest
        };
        self.cluster_derived_values(now_ms, total);
    }

    fn largest_registered_node(&self) -> Resource {
        self.nodes.iter().fold(Resource::ZERO, |m, (_, n)| {
            Resource::component_max(m, n.total)
        })
    }

    fn cluster_derived_values(&mut self, now_ms: i64, total: Resource) {
        self.usage_epoch += 1;
        if self.labels.has_labels() {
            // Every node's total to its partition: O(nodes), paid only with labels.
            let mut default = Resource::ZERO;
            let mut labelled: std::collections::BTreeMap<String, Resource> = self
                .labels
                .cluster_labels()
                .map(|(_, l)| (l.name.to_string(), Resource::ZERO))
                .collect();
            for (_, n) in self.nodes.iter() {
                if n.partition == DEFAULT_PARTITION {
                    default += n.total;
                } else if let Some(r) = labelled.get_mut(&**self.labels.name(n.partition)) {
                    *r += n.total;
                }
            }
            self.tree
                .update_partition_resources(total, default, labelled);
        } else {
            self.tree.update_cluster_resource(total);
        }
        self.note_queues_over_max();
        let leaves: Vec<QueueId> = self.tree.leaves().collect();
        for q in leaves {
            self.activate_applications(q, now_ms);
        }
    }

    /// After an event that may leave queues above their maximum capacity without an
    /// allocation (a move, a refresh, the cluster shrinking): flags them (`over_max_by_event`).
    pub(crate) fn note_queues_over_max(&mut self) {
        self.over_max_by_event.resize(self.tree.len(), false);
        for q in 0..self.tree.len() {
            let queue = self.tree.queue(q);
            if !queue.used.fits_in(&queue.capacities.effective_max) {
                self.over_max_by_event[q] = true;
            }
        }
    }
}
