//! Graceful decommissioning (`rmadmin -refreshNodes -g [timeout]`, YARN-914): the node takes
//! no new containers while the ones it runs finish, its capacity shrinks to what it still runs
//! (`AbstractYarnScheduler.nodeUpdate` sends that resource update on every heartbeat), and it
//! leaves the cluster — DECOMMISSIONED, then NODE_REMOVED — once it runs nothing and every
//! application that ran there has finished (`DecommissioningNodesWatcher`: READY), or when its
//! timeout has passed (TIMEOUT: what still runs there is lost). Recommissioning gives the node
//! its capacity back.

use std::collections::BTreeSet;

use crate::ids::NodeId;
use crate::scheduler::{CapacityScheduler, SchedulerError};
use crate::state::node::Decommissioning;

impl CapacityScheduler {
    /// The node starts DECOMMISSIONING, for at most `timeout_ms` (`None`: no timeout; YARN's
    /// `yarn.resourcemanager.nodemanager-graceful-decommission-timeout-secs` is the host's
    /// default to pass). On a node already decommissioning only the timeout changes, counted
    /// from the start, as `DecommissioningNodeContext.updateTimeout` does.
    pub fn decommission_node(
        &mut self,
        now_ms: i64,
        node: NodeId,
        timeout_ms: Option<i64>,
    ) -> Result<(), SchedulerError> {
        self.node_or_err(node)?;
        if timeout_ms.is_some_and(|t| t < 0) {
            return Err(SchedulerError::InvalidArgument(format!(
                "negative decommissioning timeout {} ms",
                timeout_ms.unwrap_or_default()
            )));
        }
        let n = &mut self.nodes[node];
        if let Some(d) = n
            .extras
            .as_deref_mut()
            .and_then(|e| e.decommissioning.as_mut())
        {
            d.timeout_ms = timeout_ms;
            return Ok(());
        }
        let apps: BTreeSet<_> = n
            .containers
            .iter()
            .chain(n.opportunistic())
            .filter_map(|c| self.containers.get(*c).map(|c| c.app))
            .collect();
        let original_total = n.total;
        n.extras_mut().decommissioning = Some(Decommissioning {
            original_total,
            started_ms: now_ms,
            timeout_ms,
            apps,
        });
        if let Some(reserved) = n.reserved {
            self.unreserve(now_ms, reserved);
        }
        self.shrink_to_running(now_ms, node);
        Ok(())
    }

    /// RECOMMISSION: a decommissioning node is back in service with its capacity. A node that
    /// is not decommissioning is left as it is.
    pub fn recommission_node(&mut self, now_ms: i64, node: NodeId) -> Result<(), SchedulerError> {
        self.node_or_err(node)?;
        let n = &mut self.nodes[node];
        if let Some(d) = n
            .extras
            .as_deref_mut()
            .and_then(|e| e.decommissioning.take())
        {
            n.release_extras_if_empty();
            let old = std::mem::replace(&mut self.nodes[node].total, d.original_total);
            self.node_capacity_changed(now_ms, old, d.original_total);
        }
        Ok(())
    }

    pub fn is_decommissioning(&self, node: NodeId) -> bool {
        self.nodes.get(node).is_some_and(|n| n.is_decommissioning())
    }

    /// A decommissioning node's total becomes what its containers use, so nothing is left to
    /// schedule and the cluster shrinks as they finish.
    pub(crate) fn shrink_to_running(&mut self, now_ms: i64, node: NodeId) {
        let n = &mut self.nodes[node];
        if !n.is_decommissioning() || n.total == n.allocated {
            return;
        }
        let old = std::mem::replace(&mut n.total, n.allocated);
        let new = n.total;
        self.node_capacity_changed(now_ms, old, new);
    }

    /// Whether a decommissioning node is done: READY (nothing runs there and every application
    /// that ran there has finished) when `heartbeat` (the watcher learns of containers from
    /// the node's status), or TIMEOUT at any time. A node that is not decommissioning is not.
    pub(crate) fn decommissioning_done(
        &mut self,
        now_ms: i64,
        node: NodeId,
        heartbeat: bool,
    ) -> bool {
        let Some(n) = self.nodes.get_mut(node) else {
            return false;
        };
        let busy = !n.containers.is_empty() || !n.opportunistic().is_empty();
        let Some(d) = n
            .extras
            .as_deref_mut()
            .and_then(|e| e.decommissioning.as_mut())
        else {
            return false;
        };
        let timed_out = d.timeout_ms.is_some_and(|t| now_ms - d.started_ms >= t);
        if timed_out || !heartbeat {
            return timed_out;
        }
        if busy {
            return false;
        }
        let apps = &self.apps;
        d.apps.retain(|a| apps.get(*a).is_some());
        d.apps.is_empty()
    }

    /// Nodes whose decommissioning timed out, removed (DECOMMISSIONED): what still ran there is
    /// lost. The RM's poll timer does this for nodes that no longer heartbeat.
    pub fn decommission_timeouts(&mut self, now_ms: i64) -> Vec<NodeId> {
        let due: Vec<NodeId> = self
            .nodes
            .iter()
            .filter(|(_, n)| n.is_decommissioning())
            .map(|(id, _)| id)
            .collect();
        let mut gone = Vec::new();
        for node in due {
            if self.decommissioning_done(now_ms, node, false) {
                // Checked above: the node is live.
                let _ = self.remove_node(now_ms, node);
                gone.push(node);
            }
        }
        gone
    }
}
