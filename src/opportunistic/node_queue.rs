//! The NodeManager's `ContainerScheduler` (spec O6) as a reusable, deterministic component:
//! what a node does with the containers the RM sends it. A guaranteed container starts as
//! soon as it fits, killing (or, with pause-for-preemption, pausing) running opportunistic
//! containers newest-first to make room; an opportunistic one starts if it fits, else waits in
//! a FIFO queue up to the queue capacity, else is rejected. Kills and pauses are two-phase, as
//! on a real node: a container being killed or paused keeps its resources until the host
//! reports it gone ([`NodeContainerScheduler::completed`]) or paused
//! ([`NodeContainerScheduler::paused`]); a paused one waits at the back of the opportunistic
//! queue and resumes, with the work it had done, when it fits again.

use std::collections::VecDeque;

use crate::records::ExecutionType;
pub use crate::records::NodeQueueReport;
use crate::resource::Resource;

/// `ContainerExitStatus.KILLED_BY_CONTAINER_SCHEDULER`.
pub const KILLED_BY_CONTAINER_SCHEDULER: i32 = -108;
pub const DIAG_QUEUE_FULL: &str = "Opportunistic container queue is full";
pub const DIAG_MAKE_ROOM: &str = "Container Killed to make room for Guaranteed Container";
pub const DIAG_PAUSE: &str = "Container Paused to make room for Guaranteed Container";
pub const DIAG_DEQUEUED: &str = "Container De-queued to meet NM queuing limits";

/// `yarn.nodemanager.opportunistic-containers-queue-policy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QueuePolicy {
    #[default]
    ByQueueLength,
    ByResources,
}

/// Why the node ended an opportunistic container (all with [`KILLED_BY_CONTAINER_SCHEDULER`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KillCause<C> {
    /// Running, and killed to make room for this guaranteed container.
    MakeRoom { for_container: C },
    /// Arrived with no room to start and no room in the queue.
    QueueFull,
    /// Queued beyond the RM's queue limit (O5), shed.
    Dequeued,
}

impl<C> KillCause<C> {
    /// The diagnostics the NodeManager reports with the container's exit status.
    pub fn diagnostics(&self) -> &'static str {
        match self {
            KillCause::MakeRoom { .. } => DIAG_MAKE_ROOM,
            KillCause::QueueFull => DIAG_QUEUE_FULL,
            KillCause::Dequeued => DIAG_DEQUEUED,
        }
    }
}

/// What the node did; the host acts on each (start the process, kill it, tell the AM).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeEvent<C> {
    Started(C),
    /// Kill (or reject) with [`KILLED_BY_CONTAINER_SCHEDULER`]. A running container keeps its
    /// resources until [`NodeContainerScheduler::completed`]; a queued or rejected one never
    /// had any.
    Killed {
        id: C,
        cause: KillCause<C>,
    },
    /// Pause a running opportunistic container to make room for `for_container`
    /// (`opportunistic-containers-use-pause-for-preemption`); it keeps its resources until
    /// [`NodeContainerScheduler::paused`].
    Paused {
        id: C,
        for_container: C,
    },
    /// A paused container fits again: resume it where it stopped.
    Resumed(C),
}

#[derive(Debug, Clone, Copy)]
struct Entry<C> {
    id: C,
    resource: Resource,
    execution: ExecutionType,
    /// Being killed or paused: its resources are on their way back.
    reclaiming: bool,
    /// Paused earlier: starting it again is a resume.
    paused: bool,
}

#[derive(Debug, Clone)]
pub struct NodeContainerScheduler<C: Copy + PartialEq> {
    /// The node's resources for containers.
    capability: Resource,
    /// `yarn.nodemanager.opportunistic-containers-max-queue-length`.
    queue_capacity: i32,
    policy: QueuePolicy,
    /// `yarn.nodemanager.opportunistic-containers-use-pause-for-preemption`.
    pause_for_preemption: bool,
    queued_guaranteed: VecDeque<Entry<C>>,
    queued_opportunistic: VecDeque<Entry<C>>,
    /// In start order.
    running: Vec<Entry<C>>,
    /// Resources of the running containers (those being killed included).
    allocated: Resource,
}

impl<C: Copy + PartialEq> NodeContainerScheduler<C> {
    pub fn new(capability: Resource, queue_capacity: i32, policy: QueuePolicy) -> Self {
        NodeContainerScheduler {
            capability,
            queue_capacity,
            policy,
            pause_for_preemption: false,
            queued_guaranteed: VecDeque::new(),
            queued_opportunistic: VecDeque::new(),
            running: Vec::new(),
            allocated: Resource::ZERO,
        }
    }

    /// Pause running opportunistic containers to make room instead of killing them.
    pub fn with_pause_for_preemption(mut self, pause: bool) -> Self {
        self.pause_for_preemption = pause;
        self
    }

    pub fn allocated(&self) -> Resource {
        self.allocated
    }

    /// Containers waiting to start (the report's `wait_queue_length`), without building a
    /// report.
    pub fn queued(&self) -> usize {
        self.queued_guaranteed.len() + self.queued_opportunistic.len()
    }

    /// The queue capacity reported to the RM: `BY_RESOURCES` reports 0.
    fn reported_capacity(&self) -> i32 {
        match self.policy {
            QueuePolicy::ByQueueLength => self.queue_capacity,
            QueuePolicy::ByResources => 0,
        }
    }

    /// A container the RM allocated here arrives.
    pub fn schedule(
        &mut self,
        id: C,
        resource: Resource,
        execution: ExecutionType,
    ) -> Vec<NodeEvent<C>> {
        let mut events = Vec::new();
        let entry = Entry {
            id,
            resource,
            execution,
            reclaiming: false,
            paused: false,
        };
        match execution {
            ExecutionType::Guaranteed => {
                self.queued_guaranteed.push_back(entry);
                self.start_pending(&mut events);
                if self.queued_guaranteed.iter().any(|e| e.id == id) {
                    self.reclaim_for(id, &mut events);
                }
            }
            ExecutionType::Opportunistic => {
                self.start_pending(&mut events);
                if self.may_queue(&resource) {
                    self.queued_opportunistic.push_back(entry);
                } else {
                    events.push(NodeEvent::Killed {
                        id,
                        cause: KillCause::QueueFull,
                    });
                }
                self.start_pending(&mut events);
            }
        }
        events
    }

    /// A container ended (finished, or killed and now gone): its resources come back and
    /// queued containers start. Unknown ids are ignored.
    pub fn completed(&mut self, id: C) -> Vec<NodeEvent<C>> {
        let mut events = Vec::new();
        self.queued_guaranteed.retain(|e| e.id != id);
        self.queued_opportunistic.retain(|e| e.id != id);
        if let Some(i) = self.running.iter().position(|e| e.id == id) {
            let e = self.running.remove(i);
            self.allocated -= e.resource;
            self.start_pending(&mut events);
        }
        events
    }

    /// `updateContainer` for an execution-type change (spec O8, NM side). A queued container
    /// moves to the other queue: a promoted one then starts if it fits, else reclaims room
    /// from newer running opportunistic containers as an arriving guaranteed one does. A
    /// running container only changes type, which decides future kills. Unknown ids (already
    /// gone) are ignored.
    pub fn update_execution_type(&mut self, id: C, execution: ExecutionType) -> Vec<NodeEvent<C>> {
        let mut events = Vec::new();
        if let Some(e) = self.running.iter_mut().find(|e| e.id == id) {
            e.execution = execution;
            return events;
        }
        let (from, to) = match execution {
            ExecutionType::Guaranteed => {
                (&mut self.queued_opportunistic, &mut self.queued_guaranteed)
            }
            ExecutionType::Opportunistic => {
                (&mut self.queued_guaranteed, &mut self.queued_opportunistic)
            }
        };
        let Some(i) = from.iter().position(|e| e.id == id) else {
            return events;
        };
        let mut e = from.remove(i).expect("found above");
        e.execution = execution;
        to.push_back(e);
        self.start_pending(&mut events);
        if execution == ExecutionType::Guaranteed
            && self.queued_guaranteed.iter().any(|q| q.id == id)
        {
            self.reclaim_for(id, &mut events);
        }
        events
    }

    /// Sheds queued opportunistic containers above the RM's `maxQueueLength` (O5): the first
    /// `limit` stay (the oldest work survives), the rest are killed. −1 means no limit.
    /// Paused containers are neither shed nor counted (`shedQueuedOpportunisticContainers`
    /// skips them).
    pub fn shed_to(&mut self, limit: i32) -> Vec<NodeEvent<C>> {
        if limit < 0 || self.queued_opportunistic.len() <= limit as usize {
            return Vec::new();
        }
        let mut kept = 0;
        let mut events = Vec::new();
        self.queued_opportunistic.retain(|e| {
            if e.paused || kept < limit {
                kept += i32::from(!e.paused);
                return true;
            }
            events.push(NodeEvent::Killed {
                id: e.id,
                cause: KillCause::Dequeued,
            });
            false
        });
        events
    }

    pub fn report(&self) -> NodeQueueReport {
        let running_opp = self
            .running
            .iter()
            .filter(|e| e.execution == ExecutionType::Opportunistic);
        NodeQueueReport {
            queued_opportunistic: self.queued_opportunistic.len() as i32,
            wait_queue_length: (self.queued_guaranteed.len() + self.queued_opportunistic.len())
                as i32,
            running_opportunistic: running_opp.clone().count() as i32,
            opportunistic_resource: running_opp.map(|e| e.resource).sum(),
            queue_capacity: self.reported_capacity(),
        }
    }

    /// Whether an opportunistic container may wait here.
    fn may_queue(&self, resource: &Resource) -> bool {
        match self.policy {
            QueuePolicy::ByQueueLength => {
                self.queue_capacity > 0
                    && (self.queued_opportunistic.len() as i64) < self.queue_capacity as i64
            }
            QueuePolicy::ByResources => {
                let queued: Resource = self
                    .queued_guaranteed
                    .iter()
                    .chain(&self.queued_opportunistic)
                    .map(|e| e.resource)
                    .sum();
                fits(&(self.allocated + queued + *resource), &self.capability)
            }
        }
    }

    /// Guaranteed containers in FIFO order while they fit; only when none is left waiting,
    /// opportunistic ones the same way. Head-of-line: the first that does not fit stops it.
    fn start_pending(&mut self, events: &mut Vec<NodeEvent<C>>) {
        // With no opportunistic queue (BY_QUEUE_LEN, capacity ≤ 0) guaranteed containers
        // start without a resource check, as the NM does.
        let force = self.policy == QueuePolicy::ByQueueLength && self.queue_capacity <= 0;
        while let Some(e) = self.queued_guaranteed.front().copied() {
            if !force && !fits(&(self.allocated + e.resource), &self.capability) {
                return;
            }
            self.queued_guaranteed.pop_front();
            self.start(e, events);
        }
        while let Some(e) = self.queued_opportunistic.front().copied() {
            if !fits(&(self.allocated + e.resource), &self.capability) {
                return;
            }
            self.queued_opportunistic.pop_front();
            self.start(e, events);
        }
    }

    fn start(&mut self, e: Entry<C>, events: &mut Vec<NodeEvent<C>>) {
        self.allocated += e.resource;
        self.running.push(Entry { paused: false, ..e });
        events.push(if e.paused {
            NodeEvent::Resumed(e.id)
        } else {
            NodeEvent::Started(e.id)
        });
    }

    /// A container being paused has stopped: its resources come back, and it waits at the
    /// back of the opportunistic queue (ContainerScheduler re-queues a PAUSED container when
    /// its resources are reclaimed), where it counts as queued. Unknown ids are ignored.
    pub fn paused(&mut self, id: C) -> Vec<NodeEvent<C>> {
        let mut events = Vec::new();
        if let Some(i) = self.running.iter().position(|e| e.id == id) {
            let e = self.running.remove(i);
            self.allocated -= e.resource;
            self.queued_opportunistic.push_back(Entry {
                reclaiming: false,
                paused: true,
                ..e
            });
            self.start_pending(&mut events);
        }
        events
    }

    /// Room for the queued guaranteed container `id`: what it and every guaranteed container
    /// queued before it need beyond the node, less what is already being killed, is taken
    /// from running opportunistic containers, newest first.
    fn reclaim_for(&mut self, id: C, events: &mut Vec<NodeEvent<C>>) {
        let mut needed = self.allocated - self.capability;
        for e in &self.queued_guaranteed {
            needed += e.resource;
            if e.id == id {
                break;
            }
        }
        for e in self.running.iter().filter(|e| e.reclaiming) {
            needed -= e.resource;
        }
        let pause = self.pause_for_preemption;
        for e in self.running.iter_mut().rev() {
            if !(needed.memory_mb() > 0 || needed.vcores() > 0) {
                break;
            }
            if e.execution != ExecutionType::Opportunistic || e.reclaiming {
                continue;
            }
            e.reclaiming = true;
            needed -= e.resource;
            events.push(if pause {
                NodeEvent::Paused {
                    id: e.id,
                    for_container: id,
                }
            } else {
                NodeEvent::Killed {
                    id: e.id,
                    cause: KillCause::MakeRoom { for_container: id },
                }
            });
        }
    }
}

/// Memory and vcores each within the node (the NM's allocation-based check).
fn fits(r: &Resource, capability: &Resource) -> bool {
    r.memory_mb() <= capability.memory_mb() && r.vcores() <= capability.vcores()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ExecutionType::{Guaranteed as G, Opportunistic as O};

    #[test]
    fn a_promoted_queued_container_reclaims_room_from_newer_opportunistic_ones() {
        let mut n =
            NodeContainerScheduler::new(Resource::new(4096, 4), 10, QueuePolicy::ByQueueLength);
        let started = |ev: &[NodeEvent<u32>]| {
            ev.iter()
                .filter(|e| matches!(e, NodeEvent::Started(_)))
                .count()
        };
        assert_eq!(started(&n.schedule(1, Resource::new(2048, 1), O)), 1);
        assert_eq!(started(&n.schedule(2, Resource::new(2048, 1), O)), 1);
        assert!(
            n.schedule(3, Resource::new(2048, 1), O).is_empty(),
            "queued"
        );
        // Promote the queued one: the newest running opportunistic container (2) is killed.
        let ev = n.update_execution_type(3, G);
        assert_eq!(
            ev,
            vec![NodeEvent::Killed {
                id: 2,
                cause: KillCause::MakeRoom { for_container: 3 }
            }]
        );
        assert_eq!(n.completed(2), vec![NodeEvent::Started(3)]);
        // Running containers only change type: a later guaranteed one may not kill 3.
        assert!(n.update_execution_type(1, G).is_empty());
        let ev = n.schedule(4, Resource::new(2048, 1), G);
        assert!(
            ev.is_empty(),
            "waits: nothing opportunistic to kill, got {ev:?}"
        );
        assert_eq!(n.report().wait_queue_length, 1);
    }

    fn gb(n: i64) -> Resource {
        Resource::new(n * 1024, n)
    }

    fn started(ev: &[NodeEvent<u32>]) -> Vec<u32> {
        ev.iter()
            .filter_map(|e| match e {
                NodeEvent::Started(id) => Some(*id),
                _ => None,
            })
            .collect()
    }

    fn killed(ev: &[NodeEvent<u32>]) -> Vec<(u32, &'static str)> {
        ev.iter()
            .filter_map(|e| match e {
                NodeEvent::Killed { id, cause } => Some((*id, cause.diagnostics())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn guaranteed_kills_running_opportunistic_newest_first() {
        let mut n = NodeContainerScheduler::new(gb(4), 10, QueuePolicy::ByQueueLength);
        for id in 1..=4 {
            assert_eq!(started(&n.schedule(id, gb(1), O)), [id]);
        }
        // A 2 GB guaranteed container: the two newest opportunistic ones make room.
        let ev = n.schedule(10, gb(2), G);
        assert_eq!(killed(&ev), [(4, DIAG_MAKE_ROOM), (3, DIAG_MAKE_ROOM)]);
        assert!(
            started(&ev).is_empty(),
            "killed containers hold resources until gone"
        );
        // Another guaranteed one before the kills land: nothing more is killed for the 2 GB
        // already being freed, only for its own 1 GB.
        let ev = n.schedule(11, gb(1), G);
        assert_eq!(killed(&ev), [(2, DIAG_MAKE_ROOM)]);
        assert!(
            started(&n.completed(4)).is_empty(),
            "10 needs 2 GB, 1 is free"
        );
        assert_eq!(started(&n.completed(3)), [10]);
        assert_eq!(started(&n.completed(2)), [11]);
        assert_eq!(n.allocated(), gb(4));
    }

    #[test]
    fn pause_for_preemption_pauses_newest_first_and_resumes_at_the_back_of_the_queue() {
        let mut n = NodeContainerScheduler::new(gb(2), 10, QueuePolicy::ByQueueLength)
            .with_pause_for_preemption(true);
        assert_eq!(started(&n.schedule(1, gb(1), O)), [1]);
        assert_eq!(started(&n.schedule(2, gb(1), O)), [2]);
        assert!(n.schedule(3, gb(1), O).is_empty(), "queued");
        let ev = n.schedule(10, gb(1), G);
        assert_eq!(
            ev,
            vec![NodeEvent::Paused {
                id: 2,
                for_container: 10
            }]
        );
        assert!(killed(&ev).is_empty(), "nothing is killed");
        // Paused: its room goes to the guaranteed container; it waits behind 3.
        assert_eq!(started(&n.paused(2)), [10]);
        assert_eq!(n.report().queued_opportunistic, 2);
        assert_eq!(started(&n.completed(1)), [3]);
        assert_eq!(n.completed(10), vec![NodeEvent::Resumed(2)]);
        assert_eq!(n.allocated(), gb(2));
    }

    #[test]
    fn a_guaranteed_container_never_kills_another() {
        let mut n = NodeContainerScheduler::new(gb(2), 10, QueuePolicy::ByQueueLength);
        assert_eq!(started(&n.schedule(1, gb(2), G)), [1]);
        let ev = n.schedule(2, gb(1), G);
        assert!(
            ev.is_empty(),
            "queued behind the running guaranteed container"
        );
        assert_eq!(n.report().wait_queue_length, 1);
        assert_eq!(started(&n.completed(1)), [2]);
    }

    #[test]
    fn opportunistic_queue_is_fifo_bounded_and_head_of_line() {
        let mut n = NodeContainerScheduler::new(gb(2), 2, QueuePolicy::ByQueueLength);
        assert_eq!(started(&n.schedule(1, gb(2), O)), [1]);
        assert!(n.schedule(2, gb(2), O).is_empty(), "queued");
        assert!(
            n.schedule(3, gb(1), O).is_empty(),
            "queued behind 2 (head-of-line)"
        );
        assert_eq!(killed(&n.schedule(4, gb(1), O)), [(4, DIAG_QUEUE_FULL)]);
        let r = n.report();
        assert_eq!((r.queued_opportunistic, r.running_opportunistic), (2, 1));
        assert_eq!(r.opportunistic_resource, gb(2));
        assert_eq!(started(&n.completed(1)), [2]);
        assert_eq!(started(&n.completed(2)), [3]);
    }

    #[test]
    fn zero_capacity_rejects_opportunistic_and_forces_guaranteed() {
        let mut n = NodeContainerScheduler::new(gb(1), 0, QueuePolicy::ByQueueLength);
        assert_eq!(killed(&n.schedule(1, gb(1), O)), [(1, DIAG_QUEUE_FULL)]);
        assert_eq!(started(&n.schedule(2, gb(1), G)), [2]);
        assert_eq!(started(&n.schedule(3, gb(1), G)), [3], "no resource check");
    }

    #[test]
    fn by_resources_queues_only_what_fits_with_everything_queued() {
        let mut n = NodeContainerScheduler::new(gb(3), 0, QueuePolicy::ByResources);
        assert_eq!(started(&n.schedule(1, gb(2), O)), [1]);
        assert!(n
            .schedule(2, gb(1), O)
            .iter()
            .all(|e| matches!(e, NodeEvent::Started(2))));
        assert_eq!(killed(&n.schedule(3, gb(1), O)), [(3, DIAG_QUEUE_FULL)]);
        assert_eq!(
            n.report().queue_capacity,
            0,
            "BY_RESOURCES reports no queue"
        );
    }

    #[test]
    fn shedding_keeps_the_oldest_queued() {
        let mut n = NodeContainerScheduler::new(gb(1), 10, QueuePolicy::ByQueueLength);
        n.schedule(1, gb(1), O);
        for id in 2..=6 {
            n.schedule(id, gb(1), O);
        }
        assert_eq!(n.report().queued_opportunistic, 5);
        assert!(n.shed_to(-1).is_empty());
        let ev = n.shed_to(2);
        assert_eq!(
            killed(&ev),
            [(4, DIAG_DEQUEUED), (5, DIAG_DEQUEUED), (6, DIAG_DEQUEUED)]
        );
        assert_eq!(n.report().queued_opportunistic, 2);
        assert_eq!(started(&n.completed(1)), [2]);
    }
}
