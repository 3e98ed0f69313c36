//! The end of a container, whatever ends it (spec §3.6): NM completion, AM release, scheduler
//! kill, expiry, unreservation. One path, so the accounting cannot drift.

use crate::ids::{AppId, ContainerId};
use crate::records::{ContainerState, ContainerStatus};
use crate::scheduler::preemption::preempt_view::view_remove;
use crate::scheduler::{CapacityScheduler, SchedulerError};
use crate::state::container::RmContainer;

/// Who ended the container; decides its final state and whether the NM must kill it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Completion {
    /// The NodeManager reported it finished.
    Finished,
    /// The AM released it.
    Released,
    /// The scheduler or RM killed it (attempt end, lost node, unreservation, preemption).
    Killed,
    /// Allocated but never launched within the expiry interval.
    Expired,
}

/// What completing a guaranteed container reads of it, copied out of the container slab so
/// the container itself is dropped where it lies: moving the whole container (184 bytes) out
/// cost two `memcpy` calls per completion, about 120 instructions of a churning heartbeat.
#[derive(Clone, Copy)]
struct Ending {
    yarn_id: crate::ids::YarnContainerId,
    app: AppId,
    node: crate::ids::NodeId,
    resource: crate::resource::Resource,
    key: crate::records::SchedulerKey,
    state: ContainerState,
    is_am: bool,
    satisfied: crate::state::request::Satisfied,
    view_pos: u32,
    partition: crate::state::partition::Partition,
    requested_partition: crate::state::partition::Partition,
}

impl Ending {
    #[inline]
    fn of(c: &RmContainer) -> Self {
        Ending {
            yarn_id: c.yarn_id,
            app: c.app,
            node: c.node,
            resource: c.resource,
            key: c.key,
            state: c.state,
            is_am: c.is_am,
            satisfied: c.satisfied,
            view_pos: c.view_pos,
            partition: c.partition,
            requested_partition: c.requested_partition,
        }
    }
}

impl CapacityScheduler {
    /// Completes a live or reserved container: frees the node, the app, the queue and user
    /// usage; reports the status to the attempt; re-adds the ask of a container the AM never
    /// acquired; tells the NM to kill a container the scheduler ended while it runs.
    pub(crate) fn complete_container(
        &mut self,
        _now_ms: i64,
        id: ContainerId,
        exit_status: i32,
        diagnostics: &str,
        how: Completion,
    ) -> bool {
        let Some(whole) = self.containers.get(id) else {
            return false;
        };
        let c = Ending::of(whole);
        // Lazy preemption's marks and opportunistic containers, rare, read the whole container.
        let rare = (whole.killable || whole.is_opportunistic()).then(|| whole.clone());
        self.containers.discard(id);
        let app = c.app;
        if c.state != ContainerState::Reserved {
            self.notice(crate::records::SchedulerNotice::ContainerCompleted {
                app,
                container: id,
                yarn_id: c.yarn_id,
                exit_status,
            });
            if exit_status == crate::records::exit_status::PREEMPTED {
                if let Some(a) = self.apps.get_mut(app) {
                    a.preempted_containers += 1;
                    a.preempted_resource += c.resource;
                }
            }
        }
        self.forget_update(id, c.node);
        let Some(leaf) = self.apps.get(app).map(|a| a.queue) else {
            return true;
        };
        if let Some(whole) = rare {
            self.forget_killable(id, &whole, leaf);
            if whole.is_opportunistic() {
                self.complete_opportunistic(id, &whole, exit_status, diagnostics, how);
                return true;
            }
        }
        let reserved = c.state == ContainerState::Reserved;
        // The node's names, for the request entries a rescheduled container gives back (its
        // node is always there: a node's containers end before it goes).
        let mut names = None;
        if let Some(node) = self.nodes.get_mut(c.node) {
            names = Some((node.host_name, node.rack_name));
            if reserved {
                if node.reserved == Some(id) {
                    node.reserved = None;
                }
            } else {
                node.allocated -= c.resource;
                node.containers.remove(&id);
                let ran_there =
                    matches!(c.state, ContainerState::Acquired | ContainerState::Running);
                if ran_there
                    && matches!(
                        how,
                        Completion::Released | Completion::Killed | Completion::Expired
                    )
                {
                    node.extras_mut().to_kill.push(id);
                }
            }
        }
        self.add_app_used(app, c.partition, -c.resource);
        if reserved {
            self.add_queue_reserved(leaf, c.partition, -c.resource, -1);
        }
        let mut restore = None;
        if let Some(t) = self.apps[app].attempt.as_mut() {
            if reserved {
                t.reserved -= c.resource;
                t.reservations.retain(|r| *r != id);
                t.counters_mut(c.key).re_reservations = 0;
            } else if t.live_containers.remove(&id) {
                if let Some(moved) = view_remove(t, c.view_pos) {
                    if let Some(m) = self.containers.get_mut(moved) {
                        m.view_pos = c.view_pos;
                    }
                }
                t.used -= c.resource;
                t.newly_allocated.retain(|n| *n != id);
                t.updated.retain(|(_, u)| *u != id);
                if t.am_container == Some(id) {
                    t.am_container = None;
                }
                t.completed.push(ContainerStatus {
                    id,
                    yarn_id: c.yarn_id,
                    exit_status,
                    diagnostics: diagnostics.to_string(),
                });
                // Killed before the AM acquired it (ContainerRescheduledTransition): put back
                // every entry it satisfied, so the AM need not re-ask. An expiry is a plain
                // finish in YARN and reschedules nothing.
                if c.state == ContainerState::Allocated && how == Completion::Killed {
                    restore = Some((c.key, c.resource));
                    // The AM container put back: the next allocation for it is the AM's.
                    if c.is_am {
                        t.am_pending = true;
                    }
                }
            }
        } else if let Some(kept) = self.kept_containers.get_mut(&app) {
            kept.retain(|k| *k != id);
        }
        if let (Some((key, capability)), Some(names)) = (restore, names) {
            let delta = self.apps[app]
                .attempt
                .as_mut()
                .expect("attempt")
                .requests
                .restore(key, capability, c.satisfied, names, c.requested_partition);
            self.apply_pending_delta(app, delta);
        }
        true
    }

    /// The end of an opportunistic container: only the node's and the attempt's opportunistic
    /// sets change, since nothing else was charged for it.
    fn complete_opportunistic(
        &mut self,
        id: ContainerId,
        c: &RmContainer,
        exit_status: i32,
        diagnostics: &str,
        how: Completion,
    ) {
        self.forget_update(id, c.node);
        if let Some(node) = self.nodes.get_mut(c.node) {
            if let Some(e) = node.extras.as_deref_mut() {
                if e.opportunistic.remove(&id) {
                    e.opportunistic_allocated -= c.resource;
                    self.opportunistic.allocated_total -= c.resource;
                }
            }
            let sent = matches!(c.state, ContainerState::Acquired | ContainerState::Running);
            if sent && how != Completion::Finished {
                node.extras_mut().to_kill.push(id);
            }
        }
        if let Some(t) = self.apps.get_mut(c.app).and_then(|a| a.attempt.as_mut()) {
            if t.opportunistic_containers.remove(&id) {
                t.opportunistic_used -= c.resource;
                t.completed.push(ContainerStatus {
                    id,
                    yarn_id: c.yarn_id,
                    exit_status,
                    diagnostics: diagnostics.to_string(),
                });
            }
            t.updated.retain(|(_, u)| *u != id);
        }
    }

    /// The RM kills a container (`ResourceScheduler.killContainer`; the RM's own reasons, an
    /// admin's request): it completes with the exit status and diagnostics the RM gives — the
    /// CapacityScheduler's own `killContainer` gives PREEMPTED (−102) and "Container preempted
    /// by scheduler", the other schedulers KILLED_BY_RESOURCEMANAGER (−106) — its AM hears of
    /// it, and the NM is told to kill it if it runs. A reservation is simply released.
    pub fn kill_container(
        &mut self,
        now_ms: i64,
        id: ContainerId,
        exit_status: i32,
        diagnostics: &str,
    ) -> Result<(), SchedulerError> {
        if self.containers.get(id).is_none() {
            return Err(SchedulerError::UnknownContainer(format!(
                "unknown container id {}",
                id.as_u64()
            )));
        }
        self.complete_container(now_ms, id, exit_status, diagnostics, Completion::Killed);
        Ok(())
    }

    /// CONTAINER_EXPIRED: allocated (or acquired) but never launched within
    /// `yarn.resourcemanager.rm.container-allocation.expiry-interval-ms`.
    pub fn container_expired(
        &mut self,
        now_ms: i64,
        id: ContainerId,
    ) -> Result<(), SchedulerError> {
        let state = self.containers.get(id).map(|c| c.state).ok_or_else(|| {
            SchedulerError::UnknownContainer(format!("unknown container id {}", id.as_u64()))
        })?;
        if !matches!(state, ContainerState::Allocated | ContainerState::Acquired) {
            // Terminal states and launched containers ignore the event, as RMContainerImpl does.
            return Ok(());
        }
        self.expire(now_ms, id);
        Ok(())
    }

    fn expire(&mut self, now_ms: i64, id: ContainerId) {
        self.complete_container(
            now_ms,
            id,
            crate::records::exit_status::ABORTED,
            crate::records::diagnostics::EXPIRED,
            Completion::Expired,
        );
    }

    /// YARN's `ContainerAllocationExpirer`: every container acquired by its AM but not launched
    /// within `yarn.resourcemanager.rm.container-allocation.expiry-interval-ms` expires now.
    /// Returns the expired containers, oldest first.
    pub fn expire_containers(&mut self, now_ms: i64) -> Vec<ContainerId> {
        let interval = self.tree.settings().container_allocation_expiry_interval_ms;
        let mut due: Vec<(i64, ContainerId)> = self
            .containers
            .iter()
            .filter(|(_, c)| c.state == ContainerState::Acquired)
            .filter_map(|(id, c)| {
                c.acquired_ms
                    .get()
                    .filter(|t| now_ms - t >= interval)
                    .map(|t| (t, id))
            })
            .collect();
        due.sort();
        for &(_, id) in &due {
            self.expire(now_ms, id);
        }
        due.into_iter().map(|(_, id)| id).collect()
    }

    pub(crate) fn kept_containers_insert(&mut self, app: AppId, containers: Vec<ContainerId>) {
        self.kept_containers
            .entry(app)
            .or_default()
            .extend(containers);
    }

    pub(crate) fn kept_containers_take(&mut self, app: AppId) -> Vec<ContainerId> {
        self.kept_containers.remove(&app).unwrap_or_default()
    }
}
