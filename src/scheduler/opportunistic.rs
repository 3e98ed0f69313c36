//! The RM's side of opportunistic containers (spec O3–O5, O7): the node-queue load monitor fed
//! by node heartbeats and re-sorted every sorting interval, the queue limit every heartbeat
//! response carries, central allocation in `allocate`, and the recording of containers a
//! node's `DistributedScheduler` placed. Opportunistic containers are never charged to a queue,
//! a user or a node's unallocated resource; they live in their own sets on the node and the
//! attempt, and end through the one completion path like every other container.

use std::collections::{BTreeMap, BTreeSet};

use super::CapacityScheduler;
use crate::config::OpportunisticSettings;
use crate::ids::{AppId, ApplicationAttemptId, ContainerId, NodeId, YarnContainerId};
use crate::opportunistic::load_monitor::NodeQueueStatus;
use crate::opportunistic::node_queue::NodeQueueReport;
use crate::records::ContainerQueuingLimit;
use crate::records::SchedulerKey;
use crate::records::{ContainerState, ExecutionType, NodeType, RemoteAllocation, RemoteNode, ANY};
use crate::resource::{CalculatorKind, Resource, ResourceCalculator};
use crate::state::container::{MaybeMs, RmContainer};

/// Opportunistic containers are normalised with the dominant calculator whatever the
/// scheduler's (`OpportunisticContainerAllocator.RESOURCE_CALCULATOR`).
fn opportunistic_calculator(types: usize) -> ResourceCalculator {
    ResourceCalculator::new(CalculatorKind::Dominant, types)
}

impl CapacityScheduler {
    pub fn opportunistic_settings(&self) -> &OpportunisticSettings {
        self.tree.configuration().opportunistic()
    }

    /// The monitor's periodic work: the re-sort and the queue-limit statistics, once per
    /// `sorting-nodes-interval-ms`, on the first event at or after it is due.
    pub(crate) fn opportunistic_tick(&mut self, now_ms: i64) {
        let interval = self.opportunistic_settings().sorting_interval_ms;
        if self
            .opportunistic
            .last_sort_ms
            .is_none_or(|t| now_ms - t >= interval)
        {
            let cluster = self.tree.cluster_resource();
            self.opportunistic.monitor.sort(cluster);
            self.opportunistic.last_sort_ms = Some(now_ms);
        }
    }

    /// A node heartbeat's queue status into the monitor (spec O4). The record's allocation is
    /// the node's guaranteed allocation plus its running opportunistic containers.
    pub(crate) fn record_node_queue(&mut self, node: NodeId, report: &NodeQueueReport) {
        let n = &self.nodes[node];
        let status = NodeQueueStatus {
            wait_queue_length: report.wait_queue_length,
            // The NodeManager never fills in the estimate, so it reads as 0 (spec O10).
            estimated_wait_ms: 0,
            queue_capacity: report.queue_capacity,
            capability: n.total,
            allocated: n.allocated + report.opportunistic_resource,
            decommissioning: n.is_decommissioning(),
        };
        self.opportunistic.monitor.update_node(&node, &status);
    }

    /// The `ContainerQueuingLimit` for node heartbeat responses; `None` while opportunistic
    /// allocation is off (YARN sends it only then).
    pub fn container_queuing_limit(&self) -> Option<ContainerQueuingLimit> {
        self.opportunistic_settings()
            .enabled
            .then(|| self.opportunistic.monitor.queuing_limit())
    }

    /// The least-loaded nodes (at most `nodes-used`), as handed to distributed schedulers:
    /// recomputed from the monitor's last sort when more than one sorting interval has passed
    /// since the last non-empty refresh; nodes the scheduler no longer knows are left out.
    pub fn least_loaded_nodes(&mut self, now_ms: i64) -> Vec<RemoteNode> {
        let s = self.opportunistic_settings();
        let (k, interval) = (s.nodes_used.max(0) as usize, s.sorting_interval_ms);
        if !s.enabled {
            return Vec::new();
        }
        self.opportunistic_tick(now_ms);
        let stale = self
            .opportunistic
            .cached_ms
            .is_none_or(|t| now_ms - t > interval);
        if stale {
            let fresh: Vec<NodeId> = self
                .opportunistic
                .monitor
                .least_loaded(k)
                .iter()
                .copied()
                .filter(|n| self.nodes.contains(*n))
                .collect();
            if !fresh.is_empty() {
                self.opportunistic.cached_ms = Some(now_ms);
            }
            self.opportunistic.cached_nodes = fresh;
        }
        self.opportunistic
            .cached_nodes
            .iter()
            .filter_map(|&id| {
                let n = self.nodes.get(id)?;
                Some(RemoteNode {
                    node: id,
                    host: n.host.clone(),
                    rack: n.rack.to_string(),
                })
            })
            .collect()
    }

    /// Central allocation for one allocate call (spec O3 step 4–7): the attempt's outstanding
    /// opportunistic asks, keys walked in reverse order; each container node-local, else
    /// rack-local, else on one of the least-loaded nodes from a random start. Returns the new
    /// containers, already ACQUIRED.
    pub(crate) fn allocate_opportunistic(&mut self, now_ms: i64, app: AppId) -> Vec<ContainerId> {
        let entries = match self.apps[app].attempt.as_ref() {
            Some(t) if !t.opportunistic_asks.is_empty() => {
                t.opportunistic_asks.in_allocation_order()
            }
            _ => return Vec::new(),
        };
        self.opportunistic_tick(now_ms);
        let s = self.opportunistic_settings();
        if s.follow_queue_order && self.earlier_app_waits_for_opportunistic(app) {
            return Vec::new();
        }
        let k = s.nodes_used.max(0) as usize;
        let cap =
            (s.max_allocations_per_am_heartbeat > 0).then_some(s.max_allocations_per_am_heartbeat);
        let settings = self.tree.settings();
        let drf = opportunistic_calculator(settings.resource_types.count());
        let (min, max) = (settings.minimum_allocation, settings.maximum_allocation);
        let blacklist = self.apps[app]
            .attempt
            .as_ref()
            .map(|t| t.opportunistic_blacklist.clone())
            .unwrap_or_default();
        let mut allocated = Vec::new();
        for e in entries {
            let mut want = e.count;
            if let Some(cap) = cap {
                want = want.min(cap - allocated.len() as i32);
            }
            let resource = drf.normalize(&e.capability, &min, &max, &min);
            // Each host (rack) takes at most its own count; the rest goes further out.
            let (mut hosts, mut racks) = (e.hosts.clone(), e.racks.clone());
            while want > 0 {
                let placed = self
                    .place_local(&mut hosts, resource, drf, &blacklist, false)
                    .or_else(|| self.place_local(&mut racks, resource, drf, &blacklist, true))
                    .or_else(|| self.place_any(k, resource, drf, &blacklist));
                let Some((node, location, node_type)) = placed else {
                    break;
                };
                let yarn_id = self.next_sequence_id(app);
                let id = self.insert_opportunistic(
                    now_ms, app, node, e.key, resource, yarn_id, node_type, false,
                );
                let t = self.apps[app].attempt.as_mut().expect("checked above");
                t.opportunistic_asks.matched(e.key, e.capability, &location);
                allocated.push(id);
                want -= 1;
            }
        }
        allocated
    }

    /// With `guaranteed-avoids-opportunistic`: the room on this node that its opportunistic
    /// containers take (theirs, at most the node's unallocated room: they run in it or wait
    /// for it), which a guaranteed container of `capability` leaves alone — as it does room
    /// held for another queue — while the cluster has at least that much room free of
    /// opportunistic containers: the guaranteed container then lands on another node within
    /// a round of heartbeats instead of killing work here. A cluster without that room gets
    /// YARN's behaviour (the NodeManager kills or pauses to make room), so guaranteed
    /// containers never wait on opportunistic ones for long. Without node labels only (the
    /// room free of them is counted for the whole cluster).
    pub(crate) fn opportunistic_room_spared(
        &self,
        ctx: &crate::scheduler::alloc::NodeCtx,
        capability: &Resource,
    ) -> Resource {
        let s = self.opportunistic_settings();
        if !s.enabled || !s.guaranteed_avoids_opportunistic || self.has_node_labels() {
            return Resource::ZERO;
        }
        let here = self.nodes[ctx.node].opportunistic_allocated();
        if here.is_zero() {
            return Resource::ZERO;
        }
        let taken = here.component_min(ctx.unallocated.non_negative());
        let tree = &self.tree;
        let free_of_opportunistic =
            (tree.cluster_resource() - tree.root().used - self.opportunistic.allocated_total)
                .non_negative();
        if capability.fits_in(&free_of_opportunistic) {
            taken
        } else {
            Resource::ZERO
        }
    }

    /// Whether an application ahead of `app` in its leaf's order (FIFO's active list, or the
    /// fair policy's order) still has opportunistic asks outstanding: with
    /// `follow-queue-order` it is served first, as the leaf would serve guaranteed asks, so
    /// that node queues hold the earlier jobs' work rather than every job's at once.
    fn earlier_app_waits_for_opportunistic(&self, app: AppId) -> bool {
        let q = self.apps[app].queue;
        let Some(lr) = self.leaf(q) else {
            return false;
        };
        let waits = |other: AppId| {
            self.apps
                .get(other)
                .and_then(|a| a.attempt.as_ref())
                .is_some_and(|t| t.opportunistic_asks.total() > 0)
        };
        match self.fair_application_order(q) {
            Some(order) => order.iter().take_while(|&&a| a != app).any(|&a| waits(a)),
            None => lr
                .active
                .iter()
                .take_while(|e| e.2 != app)
                .any(|e| waits(e.2)),
        }
    }

    fn blacklisted(&self, node: NodeId, blacklist: &BTreeSet<u32>) -> bool {
        blacklist.contains(&self.nodes[node].host_name)
    }

    /// `selectLocalNode` for each requested host with a count left (name order), or with
    /// `racks`, `selectRackLocalNode` for each requested rack: its nodes in id order. The
    /// location's count goes down by one when it takes a container.
    fn place_local(
        &mut self,
        wanted: &mut BTreeMap<String, i32>,
        resource: Resource,
        rc: ResourceCalculator,
        blacklist: &BTreeSet<u32>,
        racks: bool,
    ) -> Option<(NodeId, String, NodeType)> {
        let names: Vec<String> = wanted
            .iter()
            .filter(|(_, &n)| n > 0)
            .map(|(name, _)| name.clone())
            .collect();
        for name in names {
            let candidates: Vec<NodeId> = if racks {
                let Some(rack) = self.names.lookup(&name) else {
                    continue;
                };
                let mut in_rack: Vec<NodeId> = self
                    .nodes
                    .iter()
                    .filter(|(_, n)| n.rack_name == rack)
                    .map(|(id, _)| id)
                    .collect();
                in_rack.sort_by_key(|id| id.index());
                in_rack
            } else {
                // Every NodeManager on the host (MiniYARNCluster runs several on one).
                self.node_index.on_host(&self.nodes, &name).into_vec()
            };
            for node in candidates {
                if !self.blacklisted(node, blacklist)
                    && self
                        .opportunistic
                        .monitor
                        .compare_and_increment(&node, resource, rc)
                {
                    *wanted.get_mut(&name).expect("listed above") -= 1;
                    let how = if racks {
                        NodeType::RackLocal
                    } else {
                        NodeType::NodeLocal
                    };
                    return Some((node, name, how));
                }
            }
        }
        None
    }

    /// `selectAnyNode`: the top `k` of the last sort, round-robin from a random (seeded) start;
    /// the first acceptable, non-blacklisted node.
    fn place_any(
        &mut self,
        k: usize,
        resource: Resource,
        rc: ResourceCalculator,
        blacklist: &BTreeSet<u32>,
    ) -> Option<(NodeId, String, NodeType)> {
        use rand_core::Rng;
        let candidates: Vec<NodeId> = self.opportunistic.monitor.least_loaded(k).to_vec();
        if candidates.is_empty() {
            return None;
        }
        let start = (self.rng.next_u64() % candidates.len() as u64) as usize;
        for i in 0..candidates.len() {
            let node = candidates[(start + i) % candidates.len()];
            if self.nodes.contains(node)
                && !self.blacklisted(node, blacklist)
                && self
                    .opportunistic
                    .monitor
                    .compare_and_increment(&node, resource, rc)
            {
                return Some((node, ANY.to_string(), NodeType::OffSwitch));
            }
        }
        None
    }

    /// The next id from the attempt's sequence, shared by guaranteed and central opportunistic
    /// containers (spec O9).
    pub(crate) fn next_sequence_id(&mut self, app: AppId) -> YarnContainerId {
        let a = &mut self.apps[app];
        let t = a.attempt.as_mut().expect("attempt");
        let seq = t.next_container_sequence;
        t.next_container_sequence += 1;
        YarnContainerId::new(
            ApplicationAttemptId {
                application: a.application_id,
                attempt: t.attempt_id,
            },
            self.rm_epoch,
            seq,
        )
    }

    /// Records an opportunistic container: ACQUIRED at once (the AM gets it in this response),
    /// on the node's and the attempt's opportunistic sets, charged to nothing else.
    #[allow(clippy::too_many_arguments)]
    fn insert_opportunistic(
        &mut self,
        now_ms: i64,
        app: AppId,
        node: NodeId,
        key: SchedulerKey,
        resource: Resource,
        yarn_id: YarnContainerId,
        node_type: NodeType,
        remotely_allocated: bool,
    ) -> ContainerId {
        let id = self.containers.insert(RmContainer {
            yarn_id,
            app,
            node,
            resource,
            key,
            state: ContainerState::Acquired,
            execution_type: ExecutionType::Opportunistic,
            node_type,
            is_am: false,
            created_ms: now_ms,
            acquired_ms: MaybeMs::at(now_ms),
            launched_ms: MaybeMs::NONE,
            satisfied: Default::default(),
            view_pos: 0,
            version: 0,
            remotely_allocated,
            killable: false,
            partition: self.nodes[node].partition,
            ignore_exclusivity: false,
            requested_partition: crate::state::partition::DEFAULT_PARTITION,
        });
        let n = self.nodes[node].extras_mut();
        n.opportunistic.insert(id);
        n.opportunistic_allocated += resource;
        self.opportunistic.allocated_total += resource;
        let t = self.apps[app].attempt.as_mut().expect("attempt");
        t.opportunistic_containers.insert(id);
        t.opportunistic_used += resource;
        id
    }

    /// Records the containers a `DistributedScheduler` placed for this attempt (spec O7 step
    /// 4), flagged remotely allocated and ACQUIRED. One naming an unknown node, a size beyond
    /// the cluster's maximum, or an id of another attempt is dropped: the AM never gets it.
    pub(crate) fn record_remote_allocations(
        &mut self,
        now_ms: i64,
        app: AppId,
        remote: &[RemoteAllocation],
    ) -> Vec<ContainerId> {
        let Some(a) = self.apps.get(app) else {
            return Vec::new();
        };
        let Some(t) = a.attempt.as_ref() else {
            return Vec::new();
        };
        let attempt = ApplicationAttemptId {
            application: a.application_id,
            attempt: t.attempt_id,
        };
        let max = self.tree.settings().maximum_allocation;
        // An attempt holds one container per id: a repeated allocation is dropped.
        let mut live: std::collections::HashSet<YarnContainerId> = t
            .opportunistic_containers
            .iter()
            .filter_map(|c| self.containers.get(*c).map(|c| c.yarn_id))
            .collect();
        let mut out = Vec::with_capacity(remote.len());
        for r in remote {
            let valid = self.nodes.contains(r.node)
                && live.insert(r.yarn_id)
                && r.yarn_id.attempt == attempt
                && !r.resource.any_negative()
                && r.resource.fits_in(&max);
            if valid {
                out.push(self.insert_opportunistic(
                    now_ms,
                    app,
                    r.node,
                    r.key,
                    r.resource,
                    r.yarn_id,
                    NodeType::OffSwitch,
                    true,
                ));
            }
        }
        out
    }
}

impl CapacityScheduler {
    /// The distributed-scheduling register response (spec O7) for `app`'s current attempt:
    /// what a node's `DistributedScheduler` starts from — the attempt, the allocation bounds,
    /// `containerIdStart` (this RM's epoch, 0, shifted by 40) and the least-loaded nodes.
    pub fn register_distributed(
        &mut self,
        now_ms: i64,
        app: AppId,
    ) -> Result<crate::opportunistic::distributed::DistributedScheduler, super::SchedulerError>
    {
        use crate::opportunistic::distributed::{DistributedParams, DistributedScheduler};
        let a = self.apps.get(app).ok_or_else(|| {
            super::SchedulerError::UnknownApplication(format!(
                "unknown application id {}",
                app.as_u64()
            ))
        })?;
        let t = a.attempt.as_ref().ok_or_else(|| {
            super::SchedulerError::NoAttempt(format!(
                "Application {} has no running attempt",
                a.application_id
            ))
        })?;
        let attempt = ApplicationAttemptId {
            application: a.application_id,
            attempt: t.attempt_id,
        };
        let s = self.tree.settings();
        let params = DistributedParams {
            min: s.minimum_allocation,
            max: s.maximum_allocation,
            increment: s.minimum_allocation,
            container_id_start: 0,
            resource_types: s.resource_types.count(),
            max_allocations_per_heartbeat: self
                .opportunistic_settings()
                .max_allocations_per_am_heartbeat,
        };
        let nodes = self.least_loaded_nodes(now_ms);
        Ok(DistributedScheduler::new(attempt, params, nodes))
    }
}
