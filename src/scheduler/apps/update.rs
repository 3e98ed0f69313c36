//! Container updates in `allocate` (spec O8): promotion (OPPORTUNISTIC → GUARANTEED),
//! demotion, and resource increase or decrease, validated as `RMServerUtils` validates them.
//!
//! Decreases and demotions take effect in the call that asks for them: they only give
//! resources back. Increases and promotions need room: they wait, at most one per container,
//! until the container's node has it and the queue and user limits allow the charge — the
//! check YARN's CapacityScheduler makes when it allocates the temporary container of a
//! promotion on that node — and are tried first on every allocation visit of the node. The
//! container keeps its id. An update stays outstanding (a second one is refused) until the AM
//! pulls it in an allocate response; pulling is what bumps the version, as YARN issues the new
//! token then.

use crate::ids::{AppId, ContainerId, NodeId};
use crate::records::{
    ContainerUpdateType, ExecutionType, UpdateContainerError, UpdateContainerRequest,
};
use crate::resource::Resource;
use crate::scheduler::preemption::preempt_view::{view_add, view_remove};
use crate::scheduler::CapacityScheduler;
use crate::state::opportunistic::PendingIncrease;

pub const INVALID_CONTAINER_ID: &str = "INVALID_CONTAINER_ID";
pub const INCORRECT_CONTAINER_VERSION_ERROR: &str = "INCORRECT_CONTAINER_VERSION_ERROR";
pub const UPDATE_OUTSTANDING_ERROR: &str = "UPDATE_OUTSTANDING_ERROR";
pub const RESOURCE_OUTSIDE_ALLOWED_RANGE: &str = "RESOURCE_OUTSIDE_ALLOWED_RANGE";

impl CapacityScheduler {
    /// Validates and applies (or queues) an allocate call's update requests; returns the
    /// refused ones with YARN's reason and the container's current version.
    pub(crate) fn handle_update_requests(
        &mut self,
        now_ms: i64,
        app: AppId,
        requests: &[UpdateContainerRequest],
    ) -> Vec<UpdateContainerError> {
        let mut errors = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        let (min, max) = {
            let s = self.tree.settings();
            (
                s.minimum_allocation,
                self.queue_max_allocation(self.apps[app].queue, now_ms),
            )
        };
        for req in requests {
            let refuse = |reason: &str, version: i32| UpdateContainerError {
                reason: reason.to_string(),
                current_version: version,
                request: req.clone(),
            };
            let Some(c) = self
                .containers
                .get(req.container)
                .filter(|c| c.app == app && !c.is_reserved())
            else {
                errors.push(refuse(INVALID_CONTAINER_ID, -1));
                continue;
            };
            let version = c.version;
            // RMServerUtils: the container, then its version, then an update already accepted
            // for it (in this request, or outstanding from an earlier one).
            if req.version != version {
                errors.push(refuse(INCORRECT_CONTAINER_VERSION_ERROR, version));
                continue;
            }
            if seen.contains(&req.container)
                || self
                    .opportunistic
                    .outstanding_updates
                    .contains(&req.container)
            {
                errors.push(refuse(UPDATE_OUTSTANDING_ERROR, version));
                continue;
            }
            let (current_type, current, node) = (c.execution_type, c.resource, c.node);
            match req.update_type {
                ContainerUpdateType::PromoteExecutionType
                | ContainerUpdateType::DemoteExecutionType => {
                    let promote = req.update_type == ContainerUpdateType::PromoteExecutionType;
                    let (from, to) = if promote {
                        (ExecutionType::Opportunistic, ExecutionType::Guaranteed)
                    } else {
                        (ExecutionType::Guaranteed, ExecutionType::Opportunistic)
                    };
                    // Asking for the type it already has, or the wrong direction: ignored.
                    if current_type != from || req.execution_type != to {
                        continue;
                    }
                    seen.insert(req.container);
                    if promote {
                        self.queue_increase(node, req.container, current, true);
                    } else {
                        self.demote(req.container);
                    }
                }
                ContainerUpdateType::IncreaseResource | ContainerUpdateType::DecreaseResource => {
                    let Some(target) = req.capability else {
                        errors.push(refuse(RESOURCE_OUTSIDE_ALLOWED_RANGE, version));
                        continue;
                    };
                    let increase = req.update_type == ContainerUpdateType::IncreaseResource;
                    let in_range = target.fits_in(&max)
                        && min.fits_in(&target)
                        && if increase {
                            current.fits_in(&target)
                        } else {
                            target.fits_in(&current)
                        };
                    if !in_range {
                        errors.push(refuse(RESOURCE_OUTSIDE_ALLOWED_RANGE, version));
                        continue;
                    }
                    if target == current {
                        continue;
                    }
                    seen.insert(req.container);
                    if increase && current_type == ExecutionType::Guaranteed {
                        self.queue_increase(node, req.container, target - current, false);
                    } else {
                        self.resize(req.container, target, req.update_type);
                    }
                }
            }
        }
        errors
    }

    fn queue_increase(
        &mut self,
        node: NodeId,
        container: ContainerId,
        delta: Resource,
        promote: bool,
    ) {
        self.opportunistic.outstanding_updates.insert(container);
        self.opportunistic
            .pending_increases
            .entry(node)
            .or_default()
            .push(PendingIncrease {
                container,
                delta,
                promote,
            });
    }

    /// Drops a container's outstanding update (it completed).
    pub(crate) fn forget_update(&mut self, container: ContainerId, node: NodeId) {
        // Most completions find no update waiting: skip hashing the id then.
        let updates = &mut self.opportunistic.outstanding_updates;
        if updates.is_empty() || !updates.remove(&container) {
            return;
        }
        if let Some(v) = self.opportunistic.pending_increases.get_mut(&node) {
            v.retain(|p| p.container != container);
            if v.is_empty() {
                self.opportunistic.pending_increases.remove(&node);
            }
        }
    }

    /// Tries the node's waiting increases in arrival order; each that fits now is charged and
    /// takes effect. Returns how many did.
    pub(crate) fn apply_pending_increases(&mut self, node: NodeId) -> u32 {
        let Some(pending) = self.opportunistic.pending_increases.remove(&node) else {
            return 0;
        };
        let mut waiting = Vec::new();
        let mut done = 0;
        for p in pending {
            let app = self.containers[p.container].app;
            if !self.accept_charge(app, node, p.delta) {
                waiting.push(p);
                continue;
            }
            // Still outstanding until the AM pulls it (`allocate`).
            if p.promote {
                self.promote(p.container);
            } else {
                let target = self.containers[p.container].resource + p.delta;
                self.resize(p.container, target, ContainerUpdateType::IncreaseResource);
            }
            done += 1;
        }
        if !waiting.is_empty() {
            self.opportunistic.pending_increases.insert(node, waiting);
        }
        done
    }

    /// The opportunistic container becomes guaranteed: charged to its node, app, queue and
    /// user, and entered in the preemption view.
    fn promote(&mut self, id: ContainerId) {
        let (app, node, r) = {
            let c = &mut self.containers[id];
            c.execution_type = ExecutionType::Guaranteed;
            (c.app, c.node, c.resource)
        };
        let n = &mut self.nodes[node];
        let e = n.extras_mut();
        e.opportunistic.remove(&id);
        e.opportunistic_allocated -= r;
        self.opportunistic.allocated_total -= r;
        n.release_extras_if_empty();
        n.allocated += r;
        n.containers.insert(id);
        self.add_app_used(app, self.containers[id].partition, r);
        let t = self.apps[app].attempt.as_mut().expect("live container");
        t.opportunistic_containers.remove(&id);
        t.opportunistic_used -= r;
        t.live_containers.insert(id);
        view_add(t, id, &mut self.containers[id]);
        t.used += r;
        t.updated
            .push((ContainerUpdateType::PromoteExecutionType, id));
    }

    /// The guaranteed container becomes opportunistic: its charge is released at once.
    fn demote(&mut self, id: ContainerId) {
        self.opportunistic.outstanding_updates.insert(id);
        let (app, node, r, pos) = {
            let c = &mut self.containers[id];
            c.execution_type = ExecutionType::Opportunistic;
            (c.app, c.node, c.resource, c.view_pos)
        };
        let n = &mut self.nodes[node];
        n.containers.remove(&id);
        n.allocated -= r;
        let e = n.extras_mut();
        e.opportunistic.insert(id);
        e.opportunistic_allocated += r;
        self.opportunistic.allocated_total += r;
        self.add_app_used(app, self.containers[id].partition, -r);
        let t = self.apps[app].attempt.as_mut().expect("live container");
        t.live_containers.remove(&id);
        let moved = view_remove(t, pos);
        t.used -= r;
        t.opportunistic_containers.insert(id);
        t.opportunistic_used += r;
        t.updated
            .push((ContainerUpdateType::DemoteExecutionType, id));
        if t.am_container == Some(id) {
            t.am_container = None;
        }
        if let Some(m) = moved {
            self.containers[m].view_pos = pos;
        }
    }

    /// A container takes a new size; a guaranteed one's charge follows it.
    fn resize(&mut self, id: ContainerId, target: Resource, how: ContainerUpdateType) {
        self.opportunistic.outstanding_updates.insert(id);
        let (app, node, old, guaranteed) = {
            let c = &self.containers[id];
            (c.app, c.node, c.resource, !c.is_opportunistic())
        };
        let delta = target - old;
        if guaranteed {
            self.nodes[node].allocated += delta;
            self.add_app_used(app, self.containers[id].partition, delta);
            let pos = self.containers[id].view_pos;
            let t = self.apps[app].attempt.as_mut().expect("live container");
            t.used += delta;
            // The view holds the size: take the entry out and put it back resized.
            if let Some(m) = view_remove(t, pos) {
                self.containers[m].view_pos = pos;
            }
            self.containers[id].resource = target;
            let t = self.apps[app].attempt.as_mut().expect("live container");
            view_add(t, id, &mut self.containers[id]);
        } else {
            self.nodes[node].extras_mut().opportunistic_allocated += delta;
            self.opportunistic.allocated_total += delta;
            self.containers[id].resource = target;
            let t = self.apps[app].attempt.as_mut().expect("live container");
            t.opportunistic_used += delta;
        }
        let t = self.apps[app].attempt.as_mut().expect("live container");
        t.updated.push((how, id));
    }
}
