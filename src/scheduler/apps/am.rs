//! The AM heartbeat (`allocate`, spec §5): YARN's response-id rule, request validation with
//! YARN's messages (the whole call fails on any bad part, nothing applied), releases,
//! blacklist changes, asks, and the response.

use crate::echo::echo;
use crate::ids::{AppId, ApplicationAttemptId, ContainerId};
use crate::records::{
    diagnostics, exit_status, AllocateRequest, AllocateResponse, AllocatedContainer,
    ContainerState, ExecutionType, UpdatedContainer, ANY,
};
use crate::resource::Resource;
use crate::scheduler::apps::containers::Completion;
use crate::scheduler::{CapacityScheduler, SchedulerError};
use crate::state::container::MaybeMs;
use crate::state::queue::QueueId;

impl CapacityScheduler {
    /// `ClusterNodeTracker.getMaxAllowedAllocation` (spec §5.2): the configured maximum while no
    /// node is registered and during the first `work-preserving-recovery.scheduling-wait-ms`
    /// (counted from the first event this scheduler saw); afterwards capped, per component, by
    /// the largest registered node.
    pub fn cluster_max_allocation(&self, now_ms: i64) -> Resource {
        let s = self.tree.settings();
        let waiting = self
            .started_ms
            .is_none_or(|t| now_ms - t <= s.work_preserving_recovery_scheduling_wait_ms);
        if self.nodes.is_empty() || waiting {
            return s.maximum_allocation;
        }
        Resource::component_min(s.maximum_allocation, self.largest_node)
    }

    /// The largest container `queue` may ask for: its maximum allocation within the cluster's.
    pub fn queue_max_allocation(&self, queue: QueueId, now_ms: i64) -> Resource {
        Resource::component_min(
            self.tree.conf(queue).maximum_allocation,
            self.cluster_max_allocation(now_ms),
        )
    }

    /// `SchedulerUtils.validateResourceRequest`: no component below 0 or above `max`.
    pub(crate) fn validate_capability(
        &self,
        capability: &Resource,
        max: &Resource,
    ) -> Result<(), SchedulerError> {
        let types = &self.tree.settings().resource_types;
        let configured_max = self.tree.settings().maximum_allocation;
        for i in 0..types.count() {
            let v = capability.get(i);
            if v < 0 {
                return Err(SchedulerError::InvalidResourceRequest(format!(
                    "Invalid resource request! Cannot allocate containers as requested resource is less than 0! \
                     Requested resource type=[{}], Requested resource={capability}",
                    types.name(i)
                )));
            }
            if v > max.get(i) {
                return Err(SchedulerError::InvalidResourceRequest(format!(
                    "Invalid resource request! Cannot allocate containers as requested resource is greater than \
                     maximum allowed allocation. Requested resource type=[{}], Requested resource={capability}, \
                     maximum allowed allocation={max}, please note that maximum allowed allocation is calculated \
                     by scheduler based on maximum resource of registered NodeManagers, which might be less than \
                     configured maximum allocation={configured_max}",
                    types.name(i)
                )));
            }
        }
        Ok(())
    }

    /// `allocate`: validates everything first; then releases, updates asks and the blacklist,
    /// and returns what was allocated and completed since the last call.
    pub fn allocate(
        &mut self,
        now_ms: i64,
        app: AppId,
        req: &AllocateRequest,
    ) -> Result<AllocateResponse, SchedulerError> {
        let a = self.apps.get(app).ok_or_else(|| {
            SchedulerError::UnknownApplication(format!("unknown application id {}", app.as_u64()))
        })?;
        let attempt = a.attempt.as_ref().ok_or_else(|| {
            SchedulerError::NoAttempt(format!(
                "Application {} has no running attempt",
                a.application_id
            ))
        })?;
        let attempt_id = ApplicationAttemptId {
            application: a.application_id,
            attempt: attempt.attempt_id,
        };
        let leaf = a.queue;

        // 1. Response ids (ApplicationMasterService): a repeat of the last call gets the last
        //    answer again; anything else out of step is an error.
        let last_id = attempt
            .last_response
            .as_ref()
            .map(|r| r.response_id)
            .unwrap_or(0);
        if let Some(last) = &attempt.last_response {
            if (req.response_id.wrapping_add(1)) & 0x7fff_ffff == last.response_id {
                return Ok(last.clone());
            }
        }
        if req.response_id != last_id {
            return Err(SchedulerError::InvalidResponseId(format!(
                "Invalid responseId in AllocateRequest from application attempt: {attempt_id} expect responseId to be {last_id} but get {}",
                req.response_id
            )));
        }

        // 2. Asks against the queue's maximum allocation (SchedulerUtils.validateResourceRequest).
        let max = self.queue_max_allocation(leaf, now_ms);
        for ask in &req.asks {
            if ask.num_containers < 0 {
                return Err(SchedulerError::InvalidResourceRequest(format!(
                    "Invalid resource request, requested number of containers {} is negative for {}",
                    ask.num_containers, ask.resource_name
                )));
            }
            // The opportunistic processor takes its asks before this check and normalises
            // them to the maximum instead (OpportunisticContainerAllocatorAMService).
            let opportunistic = ask.execution_type == ExecutionType::Opportunistic
                && self.opportunistic_settings().enabled;
            if !opportunistic {
                self.validate_capability(&ask.capability, &max)?;
                // DefaultAMSProcessor: an ANY ask without a label takes the application's,
                // then normalizeAndValidateRequest the queue's default; then its checks.
                let label = self.normalized_label(
                    leaf,
                    a.node_label_expression.as_deref(),
                    ask.node_label_expression.as_deref(),
                    &ask.resource_name,
                );
                self.validate_label(leaf, &ask.resource_name, label)?;
            }
        }
        // Issue 36.6: what the asks add to what is pending may not wrap — each ask's total
        // (its capability, as normalised at most to the largest node, × its count) and
        // their sum with the cluster's pending demand stay within capsched's limit. Replaced
        // asks only lower the figure, so this bound is safe.
        let mut asked = self.queue_pending[0];
        let step = self.tree.settings().minimum_allocation;
        for ask in &req.asks {
            // Normalisation rounds up to a multiple of the minimum: at most one step more.
            let total = (ask.capability.component_max(step) + step)
                .checked_multiply_count(ask.num_containers)
                .and_then(|t| asked.checked_add_within(&t));
            match total {
                Some(t) => asked = t,
                None => {
                    return Err(SchedulerError::InvalidResourceRequest(format!(
                    "Invalid resource request! {} containers of {} at {} would take the pending \
                         demand past capsched's limit of 2^62 per resource type",
                    ask.num_containers,
                    ask.capability,
                    echo(&ask.resource_name)
                )))
                }
            }
        }
        // 3. Blacklist and releases: a container of another attempt may not be released
        //    (RMServerUtils.validateContainerReleaseRequest); unknown or finished ones are
        //    ignored, as the scheduler's releaseContainers does.
        if req.blacklist_additions.iter().any(|b| b == ANY) {
            return Err(SchedulerError::InvalidBlacklist(
                "Cannot add * to the blacklist!".to_string(),
            ));
        }
        for id in &req.releases {
            if let Some(c) = self.containers.get(*id) {
                // Containers adopted from an earlier attempt (kept across attempts) are ours.
                let adopted = self.apps[app].attempt.as_ref().is_some_and(|t| {
                    t.live_containers.contains(id) || t.opportunistic_containers.contains(id)
                });
                if c.app != app || (c.yarn_id.attempt != attempt_id && !adopted) {
                    return Err(SchedulerError::InvalidContainerRelease(format!(
                        "Cannot release container : {} not belonging to this application attempt : {attempt_id}",
                        c.yarn_id
                    )));
                }
            }
        }

        // Everything is valid: apply.
        self.observe(now_ms);
        for id in &req.releases {
            if self.containers.contains(*id) {
                self.complete_container(
                    now_ms,
                    *id,
                    exit_status::ABORTED,
                    diagnostics::RELEASED_BY_APPLICATION,
                    Completion::Released,
                );
            }
        }
        // Asks are normalised against the cluster's maximum (CapacityScheduler.allocate's
        // normalizeResourceRequests), having been validated against the queue's. Opportunistic
        // asks go to the opportunistic allocator, as they come (it normalises each container);
        // with opportunistic allocation off, the capacity scheduler gets them like any other.
        let max = self.cluster_max_allocation(now_ms);
        let s = self.tree.settings();
        let (rc, min) = (s.resource_calculator, s.minimum_allocation);
        let opportunistic_on = self.opportunistic_settings().enabled;
        let distributed = self.opportunistic_settings().distributed_enabled;
        let mut asks = Vec::with_capacity(req.asks.len());
        let mut opportunistic = Vec::new();
        for ask in &req.asks {
            let mut ask = ask.clone();
            if ask.execution_type == ExecutionType::Opportunistic && opportunistic_on {
                opportunistic.push(ask);
            } else {
                ask.capability = rc.normalize(&ask.capability, &min, &max, &min);
                asks.push(ask);
            }
        }
        self.update_asks(app, &asks);
        let additions: Vec<u32> = req
            .blacklist_additions
            .iter()
            .map(|b| self.names.intern(b))
            .collect();
        let removals: Vec<u32> = req
            .blacklist_removals
            .iter()
            .filter_map(|b| self.names.lookup(b))
            .collect();
        let t = self.apps[app].attempt.as_mut().expect("checked above");
        // The capacity scheduler adds, then removes (AppSchedulingInfo); the opportunistic
        // allocator removes, then adds (OpportunisticContainerAllocator.updateBlacklist).
        t.blacklist.extend(additions.iter().copied());
        for r in &removals {
            t.blacklist.remove(r);
            t.opportunistic_blacklist.remove(r);
        }
        t.opportunistic_blacklist.extend(additions);
        t.opportunistic_asks.merge(&opportunistic);

        // Containers a node's DistributedScheduler placed, updates, then central allocation.
        let mut fresh = if opportunistic_on {
            self.record_remote_allocations(now_ms, app, &req.remotely_allocated)
        } else {
            Vec::new()
        };
        let update_errors = self.handle_update_requests(now_ms, app, &req.update_requests);
        if opportunistic_on {
            // Placed by the engine here, not by a node update: the host hears of each at
            // placement (a notice) before this answer hands them over. (Remote ones the host
            // reported itself.)
            let central = self.allocate_opportunistic(now_ms, app);
            for &id in &central {
                self.notice_placed(app, id);
            }
            fresh.extend(central);
        }
        let opportunistic_nodes = if distributed {
            self.least_loaded_nodes(now_ms)
        } else {
            Vec::new()
        };
        let headroom = self.app_headroom(app);
        let num_cluster_nodes = self.nodes.len() as u32;

        let t = self.apps[app].attempt.as_mut().expect("checked above");
        let mut newly = std::mem::take(&mut t.newly_allocated);
        let completed = std::mem::take(&mut t.completed);
        // The response takes the completed list; the next is likely as long, so it gets that
        // room at once rather than growing by doublings in the heartbeats until the next call.
        t.completed = Vec::with_capacity(completed.len());
        let updates = std::mem::take(&mut t.updated);
        let mut allocated = Vec::with_capacity(newly.len() + fresh.len());
        for &id in &newly {
            let Some(c) = self.containers.get_mut(id) else {
                continue;
            };
            if c.state == ContainerState::Allocated {
                c.state = ContainerState::Acquired;
                c.acquired_ms = MaybeMs::at(now_ms);
            }
            allocated.extend(self.allocated_container(id));
        }
        // The list's buffer goes back to the attempt for the allocations to come.
        newly.clear();
        if let Some(t) = self.apps[app].attempt.as_mut() {
            if t.newly_allocated.is_empty() {
                t.newly_allocated = newly;
            }
        }
        allocated.extend(
            fresh
                .into_iter()
                .filter_map(|id| self.allocated_container(id)),
        );
        // Pulling an update is what versions it (a new token), and ends it being outstanding.
        let updated = updates
            .into_iter()
            .filter_map(|(update_type, id)| {
                self.opportunistic.outstanding_updates.remove(&id);
                self.containers.get_mut(id)?.version += 1;
                Some(UpdatedContainer {
                    update_type,
                    container: self.allocated_container(id)?,
                })
            })
            .collect();
        let response = AllocateResponse {
            response_id: (last_id.wrapping_add(1)) & 0x7fff_ffff,
            allocated,
            completed,
            headroom,
            num_cluster_nodes,
            preemption: self.take_preemption_message(app),
            updated,
            update_errors,
            opportunistic_nodes,
        };
        let t = self.apps[app].attempt.as_mut().expect("checked above");
        t.last_response = Some(response.clone());
        Ok(response)
    }

    /// A container as the AM sees it in a response.
    /// The RM takes the attempt's AM container to launch it (`RMAppAttemptImpl`'s
    /// `AMContainerAllocatedTransition` pulls it through the scheduler's allocate): the
    /// container becomes ACQUIRED, and the AM's own allocate responses never list it. `None`
    /// while it is not allocated yet, once taken, and for an unmanaged AM.
    pub fn take_am_container(
        &mut self,
        now_ms: i64,
        app: AppId,
    ) -> Result<Option<AllocatedContainer>, SchedulerError> {
        self.app_or_err(app)?;
        let Some(t) = self.apps[app].attempt.as_mut() else {
            return Ok(None);
        };
        let Some(id) = t.am_container.filter(|id| t.newly_allocated.contains(id)) else {
            return Ok(None);
        };
        t.newly_allocated.retain(|n| *n != id);
        if let Some(c) = self.containers.get_mut(id) {
            if c.state == ContainerState::Allocated {
                c.state = ContainerState::Acquired;
                c.acquired_ms = MaybeMs::at(now_ms);
            }
        }
        Ok(self.allocated_container(id))
    }

    pub(crate) fn allocated_container(&self, id: ContainerId) -> Option<AllocatedContainer> {
        let c = self.containers.get(id)?;
        let host = self
            .nodes
            .get(c.node)
            .map(|n| crate::sync::Arc::clone(&n.address))
            .unwrap_or_else(|| crate::sync::Arc::from(""));
        Some(AllocatedContainer {
            id,
            yarn_id: c.yarn_id,
            node: c.node,
            host,
            resource: c.resource,
            key: c.key,
            execution_type: c.execution_type,
            is_am: c.is_am,
            version: c.version,
            remotely_allocated: c.remotely_allocated,
            node_type: c.node_type,
        })
    }
}
