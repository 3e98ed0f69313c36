//! **NodeManagers** (`scheduler::nodes`): a node's life in the scheduler — this file's
//! NODE_ADDED, NODE_REMOVED and NODE_UPDATE, `node_resource` (a node resized, its overcommit
//! timeout), `decommission` (graceful decommissioning and recommissioning) and `node_index`
//! (nodes by address and host over interned names, a field of the scheduler's). It may use the
//! scheduler's state, `apps` for the containers a node's end takes with it, and the floors
//! below.
//!
//! Node events (spec §3.5): NODE_ADDED (with container reports, for work-preserving recovery),
//! NODE_REMOVED, NODE_RESOURCE_UPDATE and NODE_UPDATE (the heartbeat).

pub(super) mod decommission;
pub(crate) mod node_index;
pub mod node_resource;

use super::apps::containers::Completion;
use super::preemption::preempt_view::view_add;
use super::{CapacityScheduler, SchedulerError};
use crate::echo::echo;
use crate::ids::{ApplicationAttemptId, NodeId, YarnContainerId};
use crate::records::{
    diagnostics, exit_status, ContainerReport, ContainerState, ExecutionType, NodeStatus, NodeType,
    NodeUpdateResponse,
};
use crate::resource::Resource;
use crate::state::container::{MaybeMs, RmContainer};
use crate::state::node::SchedulerNode;

/// A NodeManager registering (NODE_ADDED).
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSpec {
    pub host: String,
    pub rack: String,
    pub resource: Resource,
    /// Containers already running there (RM restart or NM re-registration).
    pub containers: Vec<ContainerReport>,
}

impl NodeSpec {
    pub fn new(host: &str, rack: &str, resource: Resource) -> Self {
        NodeSpec {
            host: host.to_string(),
            rack: rack.to_string(),
            resource,
            containers: Vec::new(),
        }
    }
}

impl CapacityScheduler {
    pub(crate) fn node_or_err(&self, node: NodeId) -> Result<&SchedulerNode, SchedulerError> {
        self.nodes.get(node).ok_or_else(|| {
            SchedulerError::UnknownNode(format!("unknown node id {}", node.as_u64()))
        })
    }

    /// NODE_ADDED: the cluster grows, every derived value is recomputed, activation re-runs,
    /// and reported containers are re-attached to their applications and queues.
    pub fn add_node(&mut self, now_ms: i64, spec: &NodeSpec) -> Result<NodeId, SchedulerError> {
        self.observe(now_ms);
        let host = crate::ids::node_address_host(&spec.host);
        if self
            .node_index
            .by_address(&self.nodes, &spec.host)
            .is_some()
        {
            return Err(SchedulerError::DuplicateNode(format!(
                "node {} is already registered",
                spec.host
            )));
        }
        if spec.resource.any_negative() {
            return Err(SchedulerError::InvalidArgument(format!(
                "node {} has a negative resource {}",
                spec.host, spec.resource
            )));
        }
        // Issue 36.6: no total may wrap. The cluster's with this node, and the node's
        // recovered containers (none negative, all of them within the node), stay within
        // capsched's limit; otherwise nothing of the registration is applied.
        let cluster = self.tree.cluster_resource();
        if cluster.checked_add_within(&spec.resource).is_none() {
            return Err(SchedulerError::InvalidArgument(format!(
                "node {}: {}",
                echo(&spec.host),
                crate::resource::over_limit(
                    &format!("the cluster's total {cluster} with this node's"),
                    &spec.resource
                )
            )));
        }
        let mut recovered = Resource::ZERO;
        for report in &spec.containers {
            let sum = recovered
                .checked_add_within(&report.resource)
                .filter(|s| s.fits_in(&spec.resource));
            match sum {
                Some(s) if !report.resource.any_negative() => recovered = s,
                _ => {
                    return Err(SchedulerError::InvalidArgument(format!(
                        "node {}: a recovered container of {} (container {}) is negative or takes \
                         the node's recovered containers past its total {}",
                        echo(&spec.host),
                        report.resource,
                        report.container_id,
                        spec.resource
                    )))
                }
            }
        }
        // ResourceTrackerService.registerNodeManager: a node that cannot hold the smallest
        // container is sent SHUTDOWN and never reaches the scheduler.
        let min = self.tree.settings().minimum_allocation;
        if spec.resource.memory_mb() < min.memory_mb() || spec.resource.vcores() < min.vcores() {
            return Err(SchedulerError::Refused(format!(
                "NodeManager from  {} doesn't satisfy minimum allocations, Sending SHUTDOWN signal \
                 to the NodeManager. Node capabilities are {}; minimums are {}mb and {} vcores",
                spec.host,
                spec.resource,
                min.memory_mb(),
                min.vcores()
            )));
        }
        let host_name = self.names.intern(host);
        let rack_name = self.names.intern(&spec.rack);
        // The names are the interned ones, shared; the address is the host's `Arc` too when
        // the node registered without a port.
        let host_arc = self.names.name(host_name).clone();
        let address = if spec.host == host {
            host_arc.clone()
        } else {
            spec.host.as_str().into()
        };
        let id = self.nodes.insert(SchedulerNode {
            host: host_arc,
            address,
            rack: self.names.name(rack_name).clone(),
            host_name,
            rack_name,
            total: spec.resource,
            allocated: Resource::ZERO,
            containers: Default::default(),
            reserved: None,
            last_heartbeat_ms: now_ms,
            partition: self.labels.partition_of(host, &spec.host),
            extras: None,
        });
        self.node_index.insert(&self.nodes, id);
        *self.rack_sizes.entry(rack_name).or_default() += 1;
        for report in &spec.containers {
            self.recover_container(now_ms, id, report);
        }
        self.node_capacity_changed(now_ms, Resource::ZERO, spec.resource);
        Ok(id)
    }

    /// Re-attaches a container an NM reports on registration. Containers of unknown or
    /// finished applications are orphans: the node is told to kill them.
    fn recover_container(&mut self, now_ms: i64, node: NodeId, report: &ContainerReport) {
        let live = self
            .apps
            .get(report.app)
            .and_then(|a| a.attempt.as_ref())
            .is_some();
        if !live {
            self.nodes[node].extras_mut().orphans.push(report.clone());
            return;
        }
        let app = &self.apps[report.app];
        let attempt = app.attempt.as_ref().expect("checked above");

        let yarn_id = YarnContainerId {
            attempt: ApplicationAttemptId {
                application: app.application_id,
                attempt: attempt.attempt_id,
            },
            container_id: report.container_id,
        };

        let id = self.containers.insert(RmContainer {
            yarn_id,
            app: report.app,
            node,
            resource: report.resource,
            key: report.key,
            state: ContainerState::Running,
            execution_type: ExecutionType::Guaranteed,
            node_type: NodeType::OffSwitch,
            is_am: report.is_am,
            created_ms: now_ms,
            acquired_ms: MaybeMs::NONE,
            launched_ms: MaybeMs::at(now_ms),
            satisfied: Default::default(),
            view_pos: 0,
            version: 0,
            remotely_allocated: false,
            killable: false,
            partition: self.nodes[node].partition,
            ignore_exclusivity: false,
            requested_partition: self.nodes[node].partition,
        });
        let n = &mut self.nodes[node];
        n.allocated += report.resource;
        n.containers.insert(id);
        let t = self.apps[report.app]
            .attempt
            .as_mut()
            .expect("checked above");
        t.live_containers.insert(id);
        view_add(t, id, &mut self.containers[id]);
        t.used += report.resource;
        // Containers minted from now on must not take a recovered one's id (YARN moves the
        // epoch on at each RM restart; a host that keeps it gets the sequence moved past).
        if yarn_id.epoch() == self.rm_epoch {
            t.next_container_sequence = t.next_container_sequence.max(yarn_id.sequence() + 1);
        }
        if report.is_am {
            t.am_container = Some(id);
            t.am_pending = false;
            // The AM is running: the RM no longer needs to ask for it.
            let delta = t.requests.update(
                Self::AM_KEY,
                None,
                crate::state::request::LocationRequest {
                    count: 0,
                    capability: report.resource,
                    relax_locality: true,
                },
                crate::state::partition::DEFAULT_PARTITION,
            );
            self.apply_pending_delta(report.app, delta);
        }
        let partition = self.containers[id].partition;
        self.add_app_used(report.app, partition, report.resource);
    }

    /// NODE_REMOVED: every container there is killed (ABORTED, "lost node"), its reservation
    /// dropped, and the cluster shrinks.
    pub fn remove_node(&mut self, now_ms: i64, node: NodeId) -> Result<(), SchedulerError> {
        self.node_or_err(node)?;
        let (containers, reserved): (Vec<_>, _) = {
            let n = &self.nodes[node];
            let all = n.containers.iter().chain(n.opportunistic());
            (all.copied().collect(), n.reserved)
        };
        let mut containers = containers;
        containers.sort();
        for c in containers.into_iter().chain(reserved) {
            self.complete_container(
                now_ms,
                c,
                exit_status::ABORTED,
                diagnostics::LOST_NODE,
                Completion::Killed,
            );
        }
        self.opportunistic.monitor.remove_node(&node);
        self.node_index.remove(&self.nodes, node);
        let n = self.nodes.remove(node).expect("checked above");
        if let Some(size) = self.rack_sizes.get_mut(&n.rack_name) {
            *size -= 1;
            if *size == 0 {
                self.rack_sizes.remove(&n.rack_name);
            }
        }
        self.node_capacity_changed(now_ms, n.total, Resource::ZERO);
        Ok(())
    }

    /// AbstractYarnScheduler.nodeUpdate: a decommissioning node's total follows its use, and an
    /// overcommitted node past its timeout loses containers. A node without extras is neither
    /// decommissioning nor resized with a timeout nor noted as resized below its use, so
    /// nothing here applies to it: most heartbeats skip the three looks.
    fn follow_node_resource(&mut self, now_ms: i64, node: NodeId) {
        if self.nodes[node].extras.is_none() {
            return;
        }
        self.shrink_to_running(now_ms, node);
        let overcommit = self.signal_containers_if_overcommitted(now_ms, node, true);
        self.killed_for_room.extend(overcommit.killed);
        self.note_resized_below_use(node, false);
    }

    /// NODE_UPDATE (spec §3.5): launched containers become RUNNING, completed ones are
    /// finished with the NM's exit status, then — unless scheduling is asynchronous — the
    /// scheduler allocates on this node.
    pub fn node_update(
        &mut self,
        now_ms: i64,
        node: NodeId,
        status: &NodeStatus,
    ) -> Result<NodeUpdateResponse, SchedulerError> {
        let mut response = NodeUpdateResponse::default();
        self.node_update_into(now_ms, node, status, &mut response)?;
        Ok(response)
    }

    /// `node_update`, its answer written into `response` (every field replaced), whose
    /// vectors keep their room from one heartbeat to the next: a host that loops over
    /// heartbeats (the simulator, the benches) does not allocate and free a response per
    /// heartbeat, which was a twentieth of a heartbeat that completes one container and
    /// allocates one. An unknown node fails the call with `response` left as it was.
    pub fn node_update_into(
        &mut self,
        now_ms: i64,
        node: NodeId,
        status: &NodeStatus,
        response: &mut NodeUpdateResponse,
    ) -> Result<(), SchedulerError> {
        self.node_or_err(node)?;
        self.nodes[node].last_heartbeat_ms = now_ms;
        self.killed_for_room.clear();
        self.allocated_now.clear();
        for id in &status.launched {
            if let Some(c) = self.containers.get_mut(*id) {
                if c.node == node
                    && matches!(
                        c.state,
                        ContainerState::Allocated | ContainerState::Acquired
                    )
                {
                    c.state = ContainerState::Running;
                    c.launched_ms = MaybeMs::at(now_ms);
                }
            }
        }
        for done in &status.completed {
            let here = self
                .containers
                .get(done.id)
                .is_some_and(|c| c.node == node && !c.is_reserved());
            if here {
                self.complete_container(
                    now_ms,
                    done.id,
                    done.exit_status,
                    &done.diagnostics,
                    Completion::Finished,
                );
            }
        }
        self.follow_node_resource(now_ms, node);
        if self.opportunistic_settings().enabled {
            if let Some(report) = &status.opportunistic {
                self.record_node_queue(node, report);
            }
            self.opportunistic_tick(now_ms);
        }
        let allocated = if self.asynchronous {
            0
        } else {
            // What it places goes back in this answer (`allocated_containers`), not as notices.
            self.in_heartbeat = true;
            let n = self.allocate_containers_to_node(now_ms, node, true);
            self.in_heartbeat = false;
            n
        };
        let n = &mut self.nodes[node];
        // (What the node kept aside is rare: its lists are handed over whole.)
        match n.extras.as_deref_mut() {
            Some(e) => {
                response.to_kill = std::mem::take(&mut e.to_kill);
                response.orphans = std::mem::take(&mut e.orphans);
            }
            None => {
                response.to_kill.clear();
                response.orphans.clear();
            }
        }
        // Whatever else the node kept aside may have emptied since the last heartbeat.
        n.release_extras_if_empty();
        if self.opportunistic_settings().distributed_enabled {
            response.least_loaded = self.least_loaded_nodes(now_ms);
        } else {
            response.least_loaded.clear();
        }
        // The ids' buffer stays for the next heartbeat, as the response's lists do.
        response.allocated_containers.clear();
        response
            .allocated_containers
            .reserve(self.allocated_now.len());
        for &id in &self.allocated_now {
            if let Some(c) = self.allocated_container(id) {
                response.allocated_containers.push(c);
            }
        }
        self.allocated_now.clear();
        response.preempted.clear();
        response.preempted.append(&mut self.killed_for_room);
        response.allocated = allocated;
        response.queuing_limit = self.container_queuing_limit();
        response.decommissioned = self.decommissioning_done(now_ms, node, true);
        if response.decommissioned {
            self.remove_node(now_ms, node)?;
        }
        Ok(())
    }
}
