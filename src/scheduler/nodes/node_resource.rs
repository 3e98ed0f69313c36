//! NODE_RESOURCE_UPDATE (`AbstractYarnScheduler.updateNodeResource`, `rmadmin
//! -updateNodeResource`, a decommissioning node's shrink): the node's total changes, the
//! cluster and every queue's derived values follow. A node may shrink below what it runs: its
//! unallocated resource goes negative and it takes nothing new. What happens to the containers
//! beyond the new total is the update's overcommit timeout's choice
//! (`signalContainersIfOvercommitted`): none (YARN's −1) — they run on; 0 — they are killed
//! now; a positive timeout — their AMs are asked to give them back now (the preemption
//! message) and the node's first heartbeat after the deadline kills what is still over.

use crate::ids::{ContainerId, NodeId};
use crate::resource::Resource;
use crate::scheduler::{CapacityScheduler, SchedulerError};

/// What an overcommitted node's containers were told: killed (−102) or marked for their AMs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OvercommitSignals {
    pub killed: Vec<ContainerId>,
    pub marked: Vec<ContainerId>,
}

impl CapacityScheduler {
    /// Sets `node`'s total to `resource`, with YARN's overcommit timeout (`None`: no timeout).
    pub fn update_node_resource(
        &mut self,
        now_ms: i64,
        node: NodeId,
        resource: Resource,
        overcommit_timeout_ms: Option<i64>,
    ) -> Result<OvercommitSignals, SchedulerError> {
        self.node_or_err(node)?;
        if resource.any_negative() {
            return Err(SchedulerError::InvalidArgument(format!(
                "negative node resource {resource}"
            )));
        }
        if let Some(t) = overcommit_timeout_ms.filter(|t| *t < 0) {
            return Err(SchedulerError::InvalidArgument(format!(
                "negative overcommit timeout {t} ms"
            )));
        }
        // YARN only logs an update to the same resource.
        if self.nodes[node].total == resource {
            return Ok(OvercommitSignals::default());
        }
        // Issue 36.6: the cluster's total with the new size may not wrap.
        let others =
            (self.tree.cluster_resource() - self.nodes[node].total).component_max(Resource::ZERO);
        if others.checked_add_within(&resource).is_none() {
            return Err(SchedulerError::InvalidArgument(
                crate::resource::over_limit(
                    &format!("the cluster's total without this node {others} with its new size"),
                    &resource,
                ),
            ));
        }
        let old = std::mem::replace(&mut self.nodes[node].total, resource);
        let deadline = overcommit_timeout_ms.map(|t| now_ms.saturating_add(t));
        let n = &mut self.nodes[node];
        if deadline != n.overcommit_deadline_ms() {
            n.extras_mut().overcommit_deadline_ms = deadline;
            n.release_extras_if_empty();
        }
        let signals =
            self.signal_containers_if_overcommitted(now_ms, node, overcommit_timeout_ms == Some(0));
        self.note_resized_below_use(node, true);
        self.node_capacity_changed(now_ms, old, resource);
        Ok(signals)
    }

    /// Whether the node runs more than its total after a resize (for the invariant checker):
    /// set only by the resize itself (`resized`), cleared by any call once enough has ended.
    pub(crate) fn note_resized_below_use(&mut self, node: NodeId, resized: bool) {
        let rc = self.tree.settings().resource_calculator;
        let n = &mut self.nodes[node];
        let over = !rc.fits_in(&n.allocated, &n.total);
        let below = over && (resized || n.resized_below_use());
        // Written only when it changes: every heartbeat comes here.
        if below != n.resized_below_use() {
            n.extras_mut().resized_below_use = below;
            n.release_extras_if_empty();
        }
    }

    /// `signalContainersIfOvercommitted`: with a timeout set and the node over its total, its
    /// containers in `getContainersToKill` order (non-AM first, opportunistic before guaranteed,
    /// newest first) until the node is no longer over: killed (−102, `markContainerForKillable`)
    /// when `kill` and the deadline has passed, else marked for their AMs.
    pub(crate) fn signal_containers_if_overcommitted(
        &mut self,
        now_ms: i64,
        node: NodeId,
        kill: bool,
    ) -> OvercommitSignals {
        let mut out = OvercommitSignals::default();
        let Some(n) = self.nodes.get(node) else {
            return out;
        };
        let Some(deadline) = n.overcommit_deadline_ms() else {
            return out;
        };
        if kill && now_ms < deadline {
            return out;
        }
        let rc = self.tree.settings().resource_calculator;
        let mut unallocated = n.unallocated();
        if rc.fits_in(&Resource::ZERO, &unallocated) {
            return out;
        }
        // Created in the same millisecond, the later container id is the newer.
        let mut order: Vec<_> = n
            .containers
            .iter()
            .chain(n.opportunistic())
            .filter_map(|id| {
                let c = self.containers.get(*id)?;
                let newest_first = std::cmp::Reverse((c.created_ms, c.yarn_id));
                Some((c.is_am, !c.is_opportunistic(), newest_first, *id))
            })
            .collect();
        order.sort_unstable();
        let mut chosen = Vec::new();
        for (.., id) in order {
            unallocated += self.containers[id].resource;
            chosen.push(id);
            if rc.fits_in(&Resource::ZERO, &unallocated) {
                break;
            }
        }
        for id in chosen {
            if kill {
                self.kill_preempted(now_ms, id);
                out.killed.push(id);
            } else if self.mark_for_preemption(id) {
                out.marked.push(id);
            }
        }
        out
    }

    /// Tells the container's AM to give it back (`MARK_CONTAINER_FOR_PREEMPTION`), counted on
    /// its leaf as a preemption mark.
    pub(crate) fn mark_for_preemption(&mut self, id: ContainerId) -> bool {
        let Some(app) = self.containers.get(id).map(|c| c.app) else {
            return false;
        };
        let Some(a) = self.apps.get_mut(app) else {
            return false;
        };
        let leaf = a.queue;
        match a.attempt.as_mut() {
            Some(t) => {
                t.to_preempt.insert(id);
                self.count_preemption(leaf, |s| s.marked += 1);
                true
            }
            None => false,
        }
    }
}
