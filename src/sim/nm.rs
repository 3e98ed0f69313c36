//! A simulated NodeManager: runs the containers its AMs launch for their durations, reports
//! launches and completions on its heartbeat, and drops what the scheduler tells it to kill.

use std::collections::BTreeMap;

use crate::ids::{ContainerId, NodeId};
use crate::scheduler::types::{exit_status, CompletedContainer, NodeStatus};

/// A container that runs until its AM finishes (the AM container itself).
pub const UNTIL_KILLED: i64 = i64::MAX;

#[derive(Debug)]
pub struct NmSim {
    pub id: NodeId,
    /// Running containers and when they finish.
    running: BTreeMap<ContainerId, i64>,
    /// Launched since the last heartbeat (ACQUIRED → RUNNING on the next one).
    launched: Vec<ContainerId>,
}

impl NmSim {
    pub fn new(id: NodeId) -> Self {
        NmSim {
            id,
            running: BTreeMap::new(),
            launched: Vec::new(),
        }
    }

    pub fn launch(&mut self, container: ContainerId, end_ms: i64) {
        self.running.insert(container, end_ms);
        self.launched.push(container);
    }

    /// What this heartbeat reports: launches since the last one, and containers finished by now.
    pub fn status(&mut self, now_ms: i64) -> NodeStatus {
        let done: Vec<ContainerId> = self
            .running
            .iter()
            .filter(|(_, end)| **end <= now_ms)
            .map(|(id, _)| *id)
            .collect();
        let mut completed = Vec::with_capacity(done.len());
        for id in done {
            self.running.remove(&id);
            completed.push(CompletedContainer {
                id,
                exit_status: exit_status::SUCCESS,
                diagnostics: String::new(),
            });
        }
        NodeStatus {
            launched: std::mem::take(&mut self.launched),
            completed,
            opportunistic: None,
        }
    }

    /// The scheduler killed these (preempted, released, lost…): they stop running here.
    pub fn kill(&mut self, containers: &[ContainerId]) {
        for c in containers {
            self.running.remove(c);
            self.launched.retain(|l| l != c);
        }
    }
}
