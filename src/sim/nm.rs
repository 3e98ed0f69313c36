//! A simulated NodeManager. Its `ContainerScheduler` is the real component of spec O6
//! ([`NodeContainerScheduler`]): guaranteed containers start at once (killing newer
//! opportunistic ones if needed), opportunistic ones start if they fit or wait in the node's
//! queue. Containers end at their exact time and queued ones start right then, between
//! heartbeats — the NodeManager does not wait for the RM — which is what opportunistic
//! containers exist for. Launches, completions and the queue's state go to the RM on the
//! heartbeat; the RM's kills and queue limit come back in its response.

use std::collections::HashMap;

use crate::ids::{ContainerId, NodeId};
use crate::opportunistic::node_queue::{NodeContainerScheduler, NodeEvent, QueuePolicy};
use crate::resource::Resource;
use crate::scheduler::types::{exit_status, CompletedContainer, ExecutionType, NodeStatus};

/// A container that runs until its AM finishes (the AM container itself).
pub const UNTIL_KILLED: i64 = i64::MAX;

/// A container that started now and when it will end (the engine schedules the end).
pub type Started = (ContainerId, i64);

#[derive(Debug)]
pub struct NmSim {
    pub id: NodeId,
    /// The node's size, as it registered.
    capability: Resource,
    queue: NodeContainerScheduler<ContainerId>,
    /// How long each container not yet started will run once it starts.
    waiting: HashMap<ContainerId, i64>,
    /// Running containers and when they end.
    running: HashMap<ContainerId, i64>,
    /// Accepted (started or queued) since the last heartbeat: RUNNING for the RM.
    launched: Vec<ContainerId>,
    /// Ended since the last heartbeat, with the NM's exit status.
    completed: Vec<CompletedContainer>,
    /// Containers this NM killed or rejected itself (−108).
    pub killed_by_container_scheduler: u64,
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
            node_mem: (0, 0),
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
        self.waiting.insert(container, duration_ms);
        self.launched.push(container);
        let events = self.queue.schedule(container, resource, execution);
        self.apply(now_ms, events)
    }

    /// A running container reached its end time: it completes, and queued ones may start.
    /// `end_ms` guards against an end scheduled for a container since killed.
    pub fn container_end(&mut self, now_ms: i64, container: ContainerId) -> Vec<Started> {
        if self.running.get(&container) != Some(&now_ms) {
            return Vec::new();
        }
        self.running.remove(&container);
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
            self.running.remove(c);
            self.waiting.remove(c);
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

    /// Acts on what the container scheduler decided: a start begins the container's run; a
    /// kill ends it at once with −108 (the simulated process dies immediately, so its
    /// resources come back and queued containers may start).
    fn apply(&mut self, now_ms: i64, events: Vec<NodeEvent<ContainerId>>) -> Vec<Started> {
        let mut started = Vec::new();
        let mut todo = std::collections::VecDeque::from(events);
        while let Some(e) = todo.pop_front() {
            match e {
                NodeEvent::Started(c) => {
                    let duration = self.waiting.remove(&c).unwrap_or(0);
                    let end = now_ms.saturating_add(duration);
                    self.running.insert(c, end);
                    started.push((c, end));
                }
                NodeEvent::Killed { id, diagnostics } => {
                    self.waiting.remove(&id);
                    self.running.remove(&id);
                    self.killed_by_container_scheduler += 1;
                    self.completed.push(CompletedContainer {
                        id,
                        exit_status: exit_status::KILLED_BY_CONTAINER_SCHEDULER,
                        diagnostics: diagnostics.to_string(),
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
