//! One application's and one container's figures as the RM reports them (`yarn application
//! -status`, the RM REST `apps/{id}` and `appattempts/{id}/containers/{id}`): read from the
//! live state on request, O(containers of the application).

use crate::ids::{
    AppId, ApplicationAttemptId, ApplicationId, ContainerId, NodeId, YarnContainerId,
};
use crate::records::PendingReason;
use crate::records::{ContainerState, ExecutionType, NodeType, SchedulerKey};
use crate::resource::Resource;
use crate::scheduler::CapacityScheduler;
use crate::state::app::AttemptState;

/// Where an application stands in the scheduler (the scheduler's part of YARN's
/// `YarnApplicationState`: ACCEPTED until its attempt is active, then RUNNING).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppState {
    /// Submitted, no attempt yet.
    Submitted,
    /// Its attempt waits for activation (see `pending_reason`).
    Accepted,
    /// Its attempt is active.
    Running,
    /// Between attempts (the last one was removed, the next not yet added).
    BetweenAttempts,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AppReport {
    pub application_id: ApplicationId,
    /// The current attempt (`None` before the first and between attempts).
    pub attempt: Option<ApplicationAttemptId>,
    /// The leaf's full path.
    pub queue: String,
    pub user: String,
    pub priority: i32,
    pub state: AppState,
    /// Why the attempt is not active yet.
    pub pending_reason: Option<PendingReason>,
    /// Guaranteed containers' resources (reservations excluded), AM included.
    pub used: Resource,
    /// What the attempt still asks for (its ANY requests).
    pub pending: Resource,
    pub am_used: Resource,
    pub reserved: Resource,
    pub live_containers: u32,
    pub reserved_containers: u32,
    pub opportunistic_containers: u32,
    /// Preempted so far over all attempts, and what those containers held.
    pub preempted_containers: u32,
    pub preempted_resource: Resource,
    /// The AM container while it lives.
    pub am_container: Option<ContainerId>,
    pub submit_time_ms: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ContainerInfo {
    pub id: ContainerId,
    pub yarn_id: YarnContainerId,
    pub app: AppId,
    pub node: NodeId,
    /// The node's `NodeId` as it registered.
    pub node_address: String,
    pub state: ContainerState,
    pub resource: Resource,
    pub key: SchedulerKey,
    pub execution_type: ExecutionType,
    pub node_type: NodeType,
    pub is_am: bool,
    pub version: i32,
    /// Allocated (or reserved), acquired by its AM, reported running by its NodeManager.
    pub created_ms: i64,
    pub acquired_ms: Option<i64>,
    pub launched_ms: Option<i64>,
    /// Selected by the preemption monitor (its AM has been told).
    pub marked_for_preemption: bool,
}

impl CapacityScheduler {
    pub fn app_report(&self, app: AppId) -> Option<AppReport> {
        let a = self.apps.get(app)?;
        let t = a.attempt.as_ref();
        let state = match t {
            None if a.attempts_made == 0 => AppState::Submitted,
            None => AppState::BetweenAttempts,
            Some(t) if t.state == AttemptState::Active => AppState::Running,
            Some(_) => AppState::Accepted,
        };
        let mut r = AppReport {
            application_id: a.application_id,
            attempt: t.map(|t| ApplicationAttemptId {
                application: a.application_id,
                attempt: t.attempt_id,
            }),
            queue: self.tree.path(a.queue).to_string(),
            user: a.user.clone(),
            priority: a.priority,
            state,
            pending_reason: t.and_then(|t| t.pending_reason),
            used: Resource::ZERO,
            pending: Resource::ZERO,
            am_used: Resource::ZERO,
            reserved: Resource::ZERO,
            live_containers: 0,
            reserved_containers: 0,
            opportunistic_containers: 0,
            preempted_containers: a.preempted_containers,
            preempted_resource: a.preempted_resource,
            am_container: None,
            submit_time_ms: a.submit_time_ms,
        };
        let Some(t) = t else {
            return Some(r);
        };
        r.used = t.used;
        r.reserved = t.reserved;
        r.pending = t.requests.pending_total();
        r.live_containers = t.live_containers.len() as u32;
        r.reserved_containers = t.reservations.len() as u32;
        r.opportunistic_containers = t.opportunistic_containers.len() as u32;
        r.am_container = t.am_container.filter(|c| self.containers.get(*c).is_some());
        if let Some(c) = r.am_container.and_then(|c| self.containers.get(c)) {
            r.am_used = c.resource;
        }
        Some(r)
    }

    pub fn container_info(&self, id: ContainerId) -> Option<ContainerInfo> {
        let c = self.containers.get(id)?;
        let marked = self
            .apps
            .get(c.app)
            .and_then(|a| a.attempt.as_ref())
            .is_some_and(|t| t.to_preempt.contains(&id));
        Some(ContainerInfo {
            id,
            yarn_id: c.yarn_id,
            app: c.app,
            node: c.node,
            node_address: self
                .nodes
                .get(c.node)
                .map(|n| n.address.to_string())
                .unwrap_or_default(),
            state: c.state,
            resource: c.resource,
            key: c.key,
            execution_type: c.execution_type,
            node_type: c.node_type,
            is_am: c.is_am,
            version: c.version,
            created_ms: c.created_ms,
            acquired_ms: c.acquired_ms.get(),
            launched_ms: c.launched_ms.get(),
            marked_for_preemption: marked,
        })
    }
}
