//! What the engine thread owns: the deterministic `CapacityScheduler`, plus the few things the
//! runtime adds around each call — the event stream, the asynchronous pass and expiry on each
//! tick, and the snapshot it publishes for readers. Every method runs on whichever thread holds
//! the core (the engine thread, or the host's in manual-step mode); none of them blocks.

use super::events::{EngineEvent, EventQueue};
use super::snapshot::EngineSnapshot;
use crate::config::CapacitySchedulerConfiguration;
use crate::ids::{AppId, ApplicationAttemptId, ContainerId, NodeId, YarnContainerId};
use crate::preempt::policy::PreemptionEvent;
use crate::records::SchedulerNotice;
use crate::records::{
    AllocateRequest, AllocateResponse, ExecutionType, NodeStatus, NodeUpdateResponse, Rejection,
};
use crate::resource::Resource;
use crate::scheduler::apps::AppSubmission;
use crate::scheduler::nodes::NodeSpec;
use crate::scheduler::preemption::PreemptionOutcome;
use crate::scheduler::{CapacityScheduler, SchedulerError};
use crate::sync::Arc;
use std::collections::HashMap;

/// Why a container ended, when an event says so before its completion.
#[derive(Clone, Copy)]
enum Ended {
    Preempted,
    Expired,
}

pub struct EngineCore {
    pub cs: CapacityScheduler,
    events: Arc<EventQueue>,
    /// Whether the asynchronous scheduling pass runs on ticks and after work arrives.
    pub async_scheduling: bool,
    /// When expiry last looked (it looks at most once a second: the interval is minutes).
    last_expiry_ms: Option<i64>,
    /// When the queue-management policy last ran.
    last_queue_management_ms: Option<i64>,
    /// When the dynamic-queue deletion policy last ran.
    last_queue_deletion_ms: Option<i64>,
    /// Snapshots made so far (each is numbered).
    snapshots: std::cell::Cell<u64>,
    /// The host's preemption option when it overrides the configuration: applied to every
    /// refreshed configuration too, so a refresh cannot switch the monitor back.
    pub preemption_override: Option<bool>,
}

impl EngineCore {
    pub fn new(mut cs: CapacityScheduler, events: Arc<EventQueue>, async_scheduling: bool) -> Self {
        cs.set_asynchronous(async_scheduling);
        cs.record_notices(true);
        events.publish_figures_version(cs.figures_version());
        EngineCore {
            cs,
            events,
            async_scheduling,
            last_expiry_ms: None,
            last_queue_management_ms: None,
            last_queue_deletion_ms: None,
            snapshots: std::cell::Cell::new(0),
            preemption_override: None,
        }
    }

    pub fn submit(&mut self, now_ms: i64, sub: &AppSubmission) -> Result<AppId, Rejection> {
        let r = self.cs.submit_application(now_ms, sub);
        self.events.push(match &r {
            Ok(app) => EngineEvent::Accepted {
                app: *app,
                application: self.cs.apps[*app].application_id,
            },
            Err(rej) => EngineEvent::Rejected {
                queue: sub.queue.clone(),
                user: sub.user.clone(),
                reason: rej.message.clone(),
            },
        });
        r
    }

    pub fn allocate(
        &mut self,
        now_ms: i64,
        app: AppId,
        req: &AllocateRequest,
    ) -> Result<AllocateResponse, SchedulerError> {
        // A repeat of the last call gets the last answer again and changes nothing: no events.
        let replay = self
            .cs
            .application(app)
            .and_then(|a| a.attempt.as_ref())
            .and_then(|t| t.last_response.as_ref())
            .is_some_and(|last| {
                (req.response_id.wrapping_add(1)) & 0x7fff_ffff == last.response_id
            });
        // Releases the core will act on: live containers of this application.
        let releasing: Vec<(ContainerId, YarnContainerId)> = req
            .releases
            .iter()
            .filter_map(|id| {
                let c = self.cs.container(*id).filter(|c| c.app == app)?;
                Some((*id, c.yarn_id))
            })
            .collect();
        let r = self.cs.allocate(now_ms, app, req)?;
        if replay {
            return Ok(r);
        }
        for (id, yarn_id) in releasing {
            if self.cs.container(id).is_none() {
                self.events.push(EngineEvent::Released {
                    app,
                    container: id,
                    yarn_id,
                });
            }
        }
        // Containers this call placed (central opportunistic allocation) are told placed
        // before they are told handed over.
        self.push_placed_now();
        for c in &r.allocated {
            self.events.push(EngineEvent::Allocated {
                app,
                container: c.id,
                yarn_id: c.yarn_id,
                node: c.node,
                opportunistic: c.execution_type == ExecutionType::Opportunistic,
            });
        }
        Ok(r)
    }

    pub fn add_node(&mut self, now_ms: i64, spec: &NodeSpec) -> Result<NodeId, SchedulerError> {
        self.cs.add_node(now_ms, spec)
    }

    pub fn remove_node(&mut self, now_ms: i64, node: NodeId) -> Result<(), SchedulerError> {
        self.cs.remove_node(now_ms, node)?;
        self.events.push(EngineEvent::NodeLost { node });
        Ok(())
    }

    pub fn node_update(
        &mut self,
        now_ms: i64,
        node: NodeId,
        status: &NodeStatus,
    ) -> Result<NodeUpdateResponse, SchedulerError> {
        let r = self.cs.node_update(now_ms, node, status)?;
        self.push_ended(r.preempted.iter().copied(), Ended::Preempted);
        if r.decommissioned {
            self.events.push(EngineEvent::NodeDecommissioned { node });
        }
        Ok(r)
    }

    /// NODE_RESOURCE_UPDATE; containers beyond the new total are told or killed as the
    /// overcommit timeout says, and the host hears of each.
    pub fn update_node_resource(
        &mut self,
        now_ms: i64,
        node: NodeId,
        resource: Resource,
        overcommit_timeout_ms: Option<i64>,
    ) -> Result<(), SchedulerError> {
        let signals =
            self.cs
                .update_node_resource(now_ms, node, resource, overcommit_timeout_ms)?;
        for id in signals.marked {
            self.push_warned(id);
        }
        self.push_ended(signals.killed, Ended::Preempted);
        Ok(())
    }

    pub fn refresh_queues(
        &mut self,
        now_ms: i64,
        conf: Arc<CapacitySchedulerConfiguration>,
    ) -> Result<(), SchedulerError> {
        let conf = match self.preemption_override {
            Some(on) => Arc::new(conf.with_preemption_monitor(on)),
            None => conf,
        };
        self.cs.refresh_queues(now_ms, conf)?;
        self.events.push(EngineEvent::QueueRefreshed);
        Ok(())
    }

    pub fn container_expired(
        &mut self,
        now_ms: i64,
        id: ContainerId,
    ) -> Result<(), SchedulerError> {
        let live = self.cs.container(id).is_some();
        self.cs.container_expired(now_ms, id)?;
        if live && self.cs.container(id).is_none() {
            self.push_ended([id], Ended::Expired);
        }
        Ok(())
    }

    /// Commits a preemption plan made on an earlier snapshot: each event is re-checked
    /// against the current state (a container released meanwhile is skipped as stale, never
    /// killed or counted twice).
    pub fn apply_preemption(&mut self, now_ms: i64, plan: &[PreemptionEvent]) -> PreemptionOutcome {
        let out = self.cs.apply_preemption(now_ms, plan);
        for id in &out.marked_ids {
            self.push_warned(*id);
        }
        self.push_ended(out.killed_ids.iter().copied(), Ended::Preempted);
        out
    }

    /// One asynchronous scheduling pass (the async thread's loop body), if enabled.
    pub fn schedule(&mut self, now_ms: i64) -> u32 {
        if self.async_scheduling {
            let n = self.cs.schedule_pass(now_ms);
            let killed = self.cs.take_killed_for_room();
            self.push_ended(killed, Ended::Preempted);
            n
        } else {
            0
        }
    }

    /// The periodic work of a tick: allocations that were never launched expire, and the
    /// asynchronous pass runs.
    pub fn tick(&mut self, now_ms: i64) -> u32 {
        if self.last_expiry_ms.is_none_or(|t| now_ms - t >= 1000) {
            self.last_expiry_ms = Some(now_ms);
            let expired = self.cs.expire_containers(now_ms);
            self.push_ended(expired, Ended::Expired);
            // RMAppLifetimeMonitor: applications past their lifetime, for the host to kill.
            self.cs.expire_lifetimes(now_ms);
            // The RM's DecommissioningNodesWatcher poll: decommissioning nodes past their
            // timeout leave, heartbeating or not.
            for node in self.cs.decommission_timeouts(now_ms) {
                self.events.push(EngineEvent::NodeDecommissioned { node });
            }
        }
        // QueueManagementDynamicEditPolicy, when the monitor runs it: auto-created leaves'
        // entitlements follow their applications.
        let preemption = self.cs.queue_tree().configuration().preemption();
        if preemption.queue_management_policy_enabled()
            && self
                .last_queue_management_ms
                .is_none_or(|t| now_ms - t >= preemption.queue_management_interval_ms)
        {
            self.last_queue_management_ms = Some(now_ms);
            self.cs.run_queue_management(now_ms);
        }
        // AutoCreatedQueueDeletionPolicy, when the monitor runs it: idle dynamic queues go.
        let preemption = self.cs.queue_tree().configuration().preemption();
        if preemption.queue_deletion_policy_enabled() {
            let period_ms = self
                .cs
                .dynamic_queue_expiration_s()
                .saturating_mul(1000)
                .max(1);
            if self
                .last_queue_deletion_ms
                .is_none_or(|t| now_ms - t >= period_ms)
            {
                self.last_queue_deletion_ms = Some(now_ms);
                self.cs.run_queue_deletion(now_ms);
            }
        }
        self.schedule(now_ms)
    }

    /// The placements the current call has recorded so far, as events now (the call's other
    /// notices wait for `flush_notices`, in their order).
    fn push_placed_now(&mut self) {
        let Some(notices) = self.cs.notices.as_mut() else {
            return;
        };
        if !notices
            .iter()
            .any(|n| matches!(n, SchedulerNotice::ContainerPlaced { .. }))
        {
            return;
        }
        let mut kept = Vec::with_capacity(notices.len());
        for n in std::mem::take(notices) {
            match n {
                SchedulerNotice::ContainerPlaced { app, container } => {
                    self.events.push(EngineEvent::ContainerPlaced {
                        app,
                        placed: container,
                    })
                }
                other => kept.push(other),
            }
        }
        *notices = kept;
    }

    /// A live container marked for preemption (or over its node's new total).
    fn push_warned(&self, id: ContainerId) {
        if let Some(c) = self.cs.container(id) {
            self.events.push(EngineEvent::PreemptWarned {
                app: c.app,
                container: id,
                yarn_id: c.yarn_id,
            });
        }
    }

    /// Containers that ended during the current call, told with why: their applications and
    /// YARN ids come from the completions the core recorded (the containers are gone), looked
    /// up through one index of this call's completions, however many ended.
    fn push_ended(&self, ids: impl IntoIterator<Item = ContainerId>, why: Ended) {
        let mut ids = ids.into_iter().peekable();
        if ids.peek().is_none() {
            return;
        }
        let ended: HashMap<ContainerId, (AppId, YarnContainerId)> = self
            .cs
            .notices
            .iter()
            .flatten()
            .filter_map(|n| match n {
                SchedulerNotice::ContainerCompleted {
                    app,
                    container,
                    yarn_id,
                    ..
                } => Some((*container, (*app, *yarn_id))),
                _ => None,
            })
            .collect();
        for id in ids {
            let Some(&(app, yarn_id)) = ended.get(&id) else {
                continue;
            };
            self.events.push(match why {
                Ended::Preempted => EngineEvent::Preempted {
                    app,
                    container: id,
                    yarn_id,
                },
                Ended::Expired => EngineEvent::Expired {
                    app,
                    container: id,
                    yarn_id,
                },
            });
        }
    }

    /// Turns what the core recorded during the last call into events, after the events that
    /// call pushed itself (so a container's "why" comes before its completion), and publishes
    /// the queue figures version as that call left it.
    pub fn flush_notices(&mut self) {
        for n in self.cs.take_notices() {
            let attempt = |cs: &CapacityScheduler, app: AppId| {
                let a = cs.application(app)?;
                Some(ApplicationAttemptId {
                    application: a.application_id,
                    attempt: a.attempt.as_ref()?.attempt_id,
                })
            };
            let e = match n {
                SchedulerNotice::ContainerPlaced { app, container } => {
                    EngineEvent::ContainerPlaced {
                        app,
                        placed: container,
                    }
                }
                SchedulerNotice::AmContainerAllocated { app, container } => {
                    let Some(c) = self.cs.container(container) else {
                        continue;
                    };
                    EngineEvent::AmContainerAllocated {
                        app,
                        container,
                        yarn_id: c.yarn_id,
                        node: c.node,
                    }
                }
                SchedulerNotice::ContainerCompleted {
                    app,
                    container,
                    yarn_id,
                    exit_status,
                } => EngineEvent::ContainerCompleted {
                    app,
                    container,
                    yarn_id,
                    exit_status,
                },
                SchedulerNotice::AppActivated { app } => {
                    let Some(attempt) = attempt(&self.cs, app) else {
                        continue;
                    };
                    EngineEvent::AppActivated { app, attempt }
                }
                SchedulerNotice::AppLifetimeExpired { app } => {
                    let Some(a) = self.cs.application(app) else {
                        continue;
                    };
                    EngineEvent::AppLifetimeExpired {
                        app,
                        application: a.application_id,
                    }
                }
                SchedulerNotice::AppPending { app, reason } => {
                    let Some(attempt) = attempt(&self.cs, app) else {
                        continue;
                    };
                    EngineEvent::AppPending {
                        app,
                        attempt,
                        reason,
                    }
                }
            };
            self.events.push(e);
        }
        self.events
            .publish_figures_version(self.cs.figures_version());
    }

    pub fn snapshot(&self, now_ms: i64, dropped_events: u64) -> EngineSnapshot {
        let n = self.snapshots.get() + 1;
        self.snapshots.set(n);
        EngineSnapshot::of(&self.cs, n, now_ms, dropped_events)
    }
}
