//! A simulated NodeManager. Its `ContainerScheduler` is the real component of spec O6
//! ([`NodeContainerScheduler`]): guaranteed containers start at once (killing newer
//! opportunistic ones if needed), opportunistic ones start if they fit or wait in the node's
//! queue. Containers end at their exact time and queued ones start right then, between
//! heartbeats — the NodeManager does not wait for the RM — which is what opportunistic
//! containers exist for. Launches, completions and the queue's state go to the RM on the
//! heartbeat; the RM's kills and queue limit come back in its response.

use std::collections::HashMap;

use crate::ids::{ContainerId, NodeId};
use crate::opportunistic::node_queue::{KillCause, NodeContainerScheduler, NodeEvent, QueuePolicy};
use crate::records::{exit_status, CompletedContainer, ExecutionType, NodeStatus};
use crate::resource::Resource;

/// A container that runs until its AM finishes (the AM container itself).
pub const UNTIL_KILLED: i64 = i64::MAX;

/// A container that started now and when it will end (the engine schedules the end).
pub type Started = (ContainerId, i64);

/// A container the NodeManager holds but is not running: how long it still has to run, when
/// it arrived, and how it was sent.
#[derive(Debug, Clone, Copy)]
struct Waiting {
    remaining_ms: i64,
    arrived_ms: i64,
    execution: ExecutionType,
    /// Paused before: its queueing delay was already counted.
    resumed: bool,
}

/// What one NodeManager's container scheduler did over a run (docs/SIMULATOR.md,
/// "Opportunistic containers").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NmStats {
    /// Running opportunistic containers killed to make room for a guaranteed one.
    pub killed_for_guaranteed: u64,
    /// Opportunistic containers rejected on arrival: no room to start, the queue full.
    pub rejected_queue_full: u64,
    /// Queued opportunistic containers shed to meet the RM's queue limit.
    pub dequeued: u64,
    /// Running opportunistic containers paused for a guaranteed one (pause-for-preemption),
    /// and paused ones resumed.
    pub paused: u64,
    pub resumed: u64,
    /// For every container's first start: ms from its arrival at the NodeManager, by
    /// execution type (guaranteed ones wait only for kills or pauses to land, or behind
    /// guaranteed work).
    pub queue_delay_opportunistic_ms: Vec<u32>,
    pub queue_delay_guaranteed_ms: Vec<u32>,
}

impl NmStats {
    /// Adds another NodeManager's figures.
    pub fn add(&mut self, other: NmStats) {
        self.killed_for_guaranteed += other.killed_for_guaranteed;
        self.rejected_queue_full += other.rejected_queue_full;
        self.dequeued += other.dequeued;
        self.paused += other.paused;
        self.resumed += other.resumed;
        self.queue_delay_opportunistic_ms
            .extend(other.queue_delay_opportunistic_ms);
        self.queue_delay_guaranteed_ms
            .extend(other.queue_delay_guaranteed_ms);
    }
}

/// One step of a container's life at its NodeManager, for the per-container timeline
/// (`--container-log`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NmStep {
    /// Arrived and waits in the queue.
    Queued,
    Started,
    Resumed,
    Paused {
        for_container: ContainerId,
    },
    Killed(KillCause<ContainerId>),
    /// Ran to its end.
    Finished,
    /// The ResourceManager ended it (preempted, released, its application gone).
    KilledByRm,
}

#[derive(Debug)]
pub struct NmSim {
    pub id: NodeId,
    /// The node's size, as it registered.
    capability: Resource,
    queue: NodeContainerScheduler<ContainerId>,
    /// Containers not running (queued, or paused), and what they still need.
    waiting: HashMap<ContainerId, Waiting>,
    /// Running containers and when they end.
    running: HashMap<ContainerId, i64>,
    /// Accepted (started or queued) since the last heartbeat: RUNNING for the RM.
    launched: Vec<ContainerId>,
    /// Ended since the last heartbeat, with the NM's exit status.
    completed: Vec<CompletedContainer>,
    /// Containers this NM killed or rejected itself (−108).
    pub killed_by_container_scheduler: u64,
    pub stats: NmStats,
    /// Every step of every container here, when the run keeps a container log.
    pub log: Option<Vec<(i64, ContainerId, NmStep)>>,
    /// Where the scheduler's node for this NodeManager lies in memory (address, bytes), to
    /// fetch it ahead of the heartbeat ([`prefetch`]; a hint only, 0 when unknown).
    pub node_mem: (usize, usize),
}

impl NmSim {
    pub fn new(id: NodeId, capability: Resource, queue_capacity: i32, policy: QueuePolicy) -> Self {
        NmSim {
            id,
            capability,
            queue: NodeContainerScheduler::new(capability, queue_capacity, policy),
            waiting: HashMap::new(),
            running: HashMap::new(),
            launched: Vec::new(),
            completed: Vec::new(),
            killed_by_container_scheduler: 0,
            stats: NmStats::default(),
            log: None,
            node_mem: (0, 0),
        }
    }

    /// `yarn.nodemanager.opportunistic-containers-use-pause-for-preemption`.
    pub fn with_pause_for_preemption(mut self, pause: bool) -> Self {
        self.queue = self.queue.with_pause_for_preemption(pause);
        self
    }

    /// Keep every container's steps here (the run's `--container-log`).
    pub fn with_log(mut self, keep: bool) -> Self {
        self.log = keep.then(Vec::new);
        self
    }

    fn note(&mut self, now_ms: i64, container: ContainerId, step: NmStep) {
        if let Some(log) = self.log.as_mut() {
            log.push((now_ms, container, step));
        }
    }

    /// The node's size, as it registered.
    pub fn capability(&self) -> Resource {
        self.capability
    }

    /// Resources of the containers running here now (what the node is really using).
    pub fn in_use(&self) -> Resource {
        self.queue.allocated()
    }

    pub fn queued(&self) -> i32 {
        self.queue.queued() as i32
    }

    /// Whether the next heartbeat has something to tell the RM (launches, completions), or
    /// containers wait in the queue (the RM's queue limit could shed them).
    pub fn has_news(&self) -> bool {
        !self.launched.is_empty() || !self.completed.is_empty() || self.queued() > 0
    }

    /// The AM starts a container here (`startContainers`). Returns what started now.
    pub fn launch(
        &mut self,
        now_ms: i64,
        container: ContainerId,
        resource: Resource,
        execution: ExecutionType,
        duration_ms: i64,
    ) -> Vec<Started> {
        self.waiting.insert(
            container,
            Waiting {
                remaining_ms: duration_ms,
                arrived_ms: now_ms,
                execution,
                resumed: false,
            },
        );
        self.launched.push(container);
        let events = self.queue.schedule(container, resource, execution);
        let started = self.apply(now_ms, events);
        if self.waiting.contains_key(&container) {
            self.note(now_ms, container, NmStep::Queued);
        }
        started
    }

    /// A running container reached its end time: it completes, and queued ones may start.
    /// `end_ms` guards against an end scheduled for a container since killed.
    pub fn container_end(&mut self, now_ms: i64, container: ContainerId) -> Vec<Started> {
        if self.running.get(&container) != Some(&now_ms) {
            return Vec::new();
        }
        self.running.remove(&container);
        self.note(now_ms, container, NmStep::Finished);
        self.completed.push(CompletedContainer {
            id: container,
            exit_status: exit_status::SUCCESS,
            diagnostics: String::new(),
        });
        let events = self.queue.completed(container);
        self.apply(now_ms, events)
    }

    /// The heartbeat's report: launches and completions since the last one, and the queue's
    /// state when the RM reads it (opportunistic allocation on: `opportunistic`).
    pub fn status(&mut self, opportunistic: bool) -> NodeStatus {
        NodeStatus {
            launched: std::mem::take(&mut self.launched),
            completed: std::mem::take(&mut self.completed),
            opportunistic: opportunistic.then(|| self.queue.report()),
        }
    }

    /// The scheduler ended these (preempted, released, lost…): they stop here. The RM already
    /// counts them complete, so nothing is reported back.
    pub fn kill(&mut self, now_ms: i64, containers: &[ContainerId]) -> Vec<Started> {
        let mut started = Vec::new();
        for c in containers {
            // `|`, not `||`: the container leaves both maps.
            let held = self.running.remove(c).is_some() | self.waiting.remove(c).is_some();
            if held {
                self.note(now_ms, *c, NmStep::KilledByRm);
            }
            self.launched.retain(|l| l != c);
            let events = self.queue.completed(*c);
            started.extend(self.apply(now_ms, events));
        }
        started
    }

    /// The RM's queue limit (spec O5): queued opportunistic containers beyond it are shed.
    pub fn shed_to(&mut self, now_ms: i64, max_queue_length: i32) -> Vec<Started> {
        let events = self.queue.shed_to(max_queue_length);
        self.apply(now_ms, events)
    }

    /// The AM passed a promoted or demoted container's new token (`updateContainer`).
    pub fn update_execution_type(
        &mut self,
        now_ms: i64,
        container: ContainerId,
        execution: ExecutionType,
    ) -> Vec<Started> {
        let events = self.queue.update_execution_type(container, execution);
        self.apply(now_ms, events)
    }

    /// Acts on what the container scheduler decided: a start begins the container's run (a
    /// resume goes on with what was left); a kill ends it at once with −108 and a pause stops
    /// it at once (the simulated process stops immediately, so its resources come back and
    /// queued containers may start).
    fn apply(&mut self, now_ms: i64, events: Vec<NodeEvent<ContainerId>>) -> Vec<Started> {
        let mut started = Vec::new();
        let mut todo = std::collections::VecDeque::from(events);
        while let Some(e) = todo.pop_front() {
            match e {
                NodeEvent::Started(c) | NodeEvent::Resumed(c) => {
                    let w = self.waiting.remove(&c);
                    let duration = w.map_or(0, |w| w.remaining_ms);
                    if let Some(w) = w.filter(|w| !w.resumed) {
                        let delay = (now_ms - w.arrived_ms).clamp(0, u32::MAX as i64) as u32;
                        match w.execution {
                            ExecutionType::Opportunistic => {
                                self.stats.queue_delay_opportunistic_ms.push(delay)
                            }
                            ExecutionType::Guaranteed => {
                                self.stats.queue_delay_guaranteed_ms.push(delay)
                            }
                        }
                    }
                    let step = if matches!(e, NodeEvent::Resumed(_)) {
                        self.stats.resumed += 1;
                        NmStep::Resumed
                    } else {
                        NmStep::Started
                    };
                    self.note(now_ms, c, step);
                    let end = now_ms.saturating_add(duration);
                    self.running.insert(c, end);
                    started.push((c, end));
                }
                NodeEvent::Paused { id, for_container } => {
                    // The container ends later by what it had left; its old end is stale.
                    if let Some(end) = self.running.remove(&id) {
                        self.waiting.insert(
                            id,
                            Waiting {
                                remaining_ms: end.saturating_sub(now_ms).max(0),
                                arrived_ms: now_ms,
                                execution: ExecutionType::Opportunistic,
                                resumed: true,
                            },
                        );
                    }
                    self.stats.paused += 1;
                    self.note(now_ms, id, NmStep::Paused { for_container });
                    todo.extend(self.queue.paused(id));
                }
                NodeEvent::Killed { id, cause } => {
                    self.waiting.remove(&id);
                    self.running.remove(&id);
                    self.killed_by_container_scheduler += 1;
                    match cause {
                        KillCause::MakeRoom { .. } => self.stats.killed_for_guaranteed += 1,
                        KillCause::QueueFull => self.stats.rejected_queue_full += 1,
                        KillCause::Dequeued => self.stats.dequeued += 1,
                    }
                    self.note(now_ms, id, NmStep::Killed(cause));
                    self.completed.push(CompletedContainer {
                        id,
                        exit_status: exit_status::KILLED_BY_CONTAINER_SCHEDULER,
                        diagnostics: cause.diagnostics().to_string(),
                    });
                    todo.extend(self.queue.completed(id));
                }
            }
        }
        started
    }
}

/// Asks the CPU to bring `len` bytes at `addr` into its cache: a hint that changes nothing
/// else (a stale or unmapped address is ignored). A heartbeat's first touches of its
/// NodeManager and of the scheduler's node are cache misses at 10^5 nodes (the heartbeats of
/// one millisecond are for nodes scattered in memory); fetched a few heartbeats ahead they
/// are not.
pub(super) fn prefetch(addr: usize, len: usize) {
    #[cfg(target_arch = "x86_64")]
    for line in (addr & !63..addr.saturating_add(len)).step_by(64) {
        // SAFETY: a prefetch never faults and reads nothing the program sees; any address
        // may be given.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line as *const i8)
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (addr, len);
}
