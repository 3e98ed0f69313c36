//! A run's state while it goes: the scheduler, the simulated NodeManagers and AMs, the two
//! event queues, and the figures gathered on the way. Every step of the run (jobs.rs,
//! idle.rs, sampling.rs, faults.rs, engine.rs) works on it.

use std::collections::HashMap;

use super::am::AmSim;
use super::chaos::ChaosState;
use super::metrics::{Sample, SeriesStats};
use super::nm::NmSim;
use super::options::SimulationOptions;
use super::queue::EventQueue;
use crate::ids::{ContainerId, NodeId};
use crate::preempt::policy::PreemptionPolicy;
use crate::scheduler::CapacityScheduler;
use crate::state::queue::QueueId;

/// A heartbeat, sample or monitor round: repeats at its period while jobs remain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Periodic {
    Track,
    NodeHeartbeat(usize),
    AmHeartbeat(usize),
    /// The preemption monitor's round (SchedulingMonitor, every `monitoring_interval`).
    PreemptionRound,
    /// The QueueManagementDynamicEditPolicy's round (auto-created leaves' entitlements).
    QueueManagement,
    /// The AutoCreatedQueueDeletionPolicy's round (idle dynamic queues removed).
    QueueDeletion,
    /// The asynchronous scheduling thread's pass (`schedule-asynchronously.enable`), every
    /// `scheduling-interval-ms`: with it on, node heartbeats allocate nothing (issue 36.2).
    AsyncPass,
}

/// What makes something happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Work {
    JobStart(usize),
    /// The fault injector's next fault.
    Fault,
    /// A lost NodeManager registers again.
    NodeBack(usize),
    /// A container on NodeManager `usize` reaches its end time.
    ContainerEnd(usize, ContainerId),
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Event {
    Periodic(Periodic),
    Work(Work),
}

/// What the run had done when it last made progress (a task or job finished): work since
/// then that repeats without any finishing is a livelock (issue 36.7).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ProgressMark {
    pub(super) at_ms: i64,
    pub(super) tasks_completed: u64,
    pub(super) unfinished: usize,
    pub(super) containers_allocated: u64,
    /// The NodeManagers' rejections, sheddings and kills of opportunistic containers, and the
    /// scheduler's preemption marks, then.
    pub(super) rejected: u64,
    pub(super) dequeued: u64,
    pub(super) killed: u64,
    pub(super) marked: u64,
}

/// The periodic events' periods, ms (each at least 1).
#[derive(Debug, Clone, Copy)]
pub(super) struct Periods {
    pub(super) nm: i64,
    pub(super) am: i64,
    pub(super) track: i64,
    pub(super) monitor: i64,
    pub(super) queue_management: i64,
    pub(super) queue_deletion: i64,
    pub(super) async_pass: i64,
}

impl Periods {
    pub(super) fn of(&self, e: Periodic) -> i64 {
        match e {
            Periodic::Track => self.track,
            Periodic::NodeHeartbeat(_) => self.nm,
            Periodic::AmHeartbeat(_) => self.am,
            Periodic::PreemptionRound => self.monitor,
            Periodic::QueueManagement => self.queue_management,
            Periodic::QueueDeletion => self.queue_deletion,
            Periodic::AsyncPass => self.async_pass,
        }
    }
}

pub(super) struct Sim {
    pub(super) cs: CapacityScheduler,
    /// The node heartbeats' response, reused (`node_update_into`).
    pub(super) node_response: crate::records::NodeUpdateResponse,
    /// Heartbeats and samples are due within a few seconds; work (a container's end) within
    /// minutes.
    pub(super) periodic: EventQueue<Periodic, 4096>,
    pub(super) work: EventQueue<Work, 65536>,
    pub(super) seq: u64,
    pub(super) periods: Periods,
    pub(super) nms: Vec<NmSim>,
    pub(super) nm_by_node: HashMap<NodeId, usize>,
    /// Each NodeManager's host and rack (to register it again after a fault).
    pub(super) hosts: Vec<(String, String)>,
    pub(super) chaos: Option<ChaosState>,
    pub(super) rack_of_host: HashMap<String, String>,
    pub(super) ams: Vec<AmSim>,
    /// The per-queue rows every sample and the result describe: the configured leaves, and each
    /// managed parent standing for the leaves it auto-creates (which are made as the run goes).
    pub(super) leaves: Vec<QueueId>,
    /// The rows' paths, to find their ids again when an auto-created leaf renumbers the tree.
    pub(super) leaf_paths: Vec<String>,
    /// Rows whose queue a refresh removed (they count nothing from then on).
    pub(super) row_missing: Vec<bool>,
    pub(super) opts: SimulationOptions,
    pub(super) samples: Vec<Sample>,
    /// Samples taken since the last one kept, and how many a kept one stands for.
    pub(super) since_kept: usize,
    /// Per leaf: kills in samples left out of the kept series, carried into the next kept one
    /// so that the chart still marks them.
    pub(super) killed_unkept: Vec<u64>,
    pub(super) stride: usize,
    pub(super) series: SeriesStats,
    pub(super) unfinished: usize,
    pub(super) tasks_total: u64,
    pub(super) tasks_completed: u64,
    pub(super) containers_allocated: u64,
    pub(super) node_updates: u64,
    pub(super) allocate_calls: u64,
    /// Wall time and call counts since the last sample.
    pub(super) nu_ns: u128,
    pub(super) nu_calls: u64,
    pub(super) al_ns: u128,
    pub(super) al_calls: u64,
    pub(super) opportunistic_as_guaranteed: u64,
    pub(super) opportunistic_allocated: u64,
    pub(super) promotions: u64,
    /// AMs go through a `DistributedScheduler` (yarn.nodemanager.distributed-scheduling.enabled).
    pub(super) distributed: bool,
    pub(super) policy: Option<PreemptionPolicy>,
    pub(super) preemption_rounds: u64,
    pub(super) containers_marked: u64,
    pub(super) am_restarts: u64,
    pub(super) preemption_ns: u128,
    /// The livelock watchdog's mark: what had been done when a task last finished
    /// (`livelock.rs` reads and moves it).
    pub(super) progress: ProgressMark,
    /// When something last changed (an allocation, an ask, a container's start or end, a job's,
    /// a preemption mark or kill): the watchdog's measure.
    pub(super) last_activity_ms: i64,
    /// How long nothing may happen, with something asked for, before the state is taken as a
    /// fixed point.
    pub(super) fixed_point_ms: i64,
    pub(super) skipped_ms: i64,
    /// A skip just happened: the next sample first repeats the last one just before it, so a
    /// kept series shows the flat stretch as flat.
    pub(super) skipped: bool,
    /// The last sample, not yet shown to the observer.
    pub(super) unsent: Option<Sample>,
    pub(super) warnings: Vec<String>,
    /// The per-container timeline, when the run keeps one.
    pub(super) container_log: Option<super::timeline::ContainerLog>,
    /// Per leaf (in `leaves` order): kills counted at the last sample, since when it has been
    /// starved (pending demand, below its guarantee), and its finished starvations.
    pub(super) killed_at_sample: Vec<u64>,
    pub(super) starving_since: Vec<Option<i64>>,
    pub(super) starved: Vec<Vec<super::metrics::Starvation>>,
}

/// Where node `id` lies in the scheduler's memory, from a little before it (the slab's tag).
pub(super) fn node_mem(cs: &CapacityScheduler, id: NodeId) -> (usize, usize) {
    cs.node(id).map_or((0, 0), |n| {
        let addr = n as *const _ as usize;
        (addr.saturating_sub(16), std::mem::size_of_val(n) + 16)
    })
}

impl Sim {
    /// Fetches ahead the memory heartbeats touch first, in two steps so that no read waits:
    /// the NodeManager six heartbeats ahead, then, three ahead, the scheduler's node (whose
    /// address the NodeManager holds).
    pub(super) fn prefetch_heartbeats_ahead(&self) {
        if let Some(Periodic::NodeHeartbeat(j)) = self.periodic.ahead(5) {
            let nm = &self.nms[j];
            super::nm::prefetch(nm as *const NmSim as usize, std::mem::size_of::<NmSim>());
        }
        if let Some(Periodic::NodeHeartbeat(j)) = self.periodic.ahead(2) {
            let (addr, len) = self.nms[j].node_mem;
            super::nm::prefetch(addr, len);
        }
    }

    pub(super) fn push_periodic(&mut self, at: i64, e: Periodic) {
        self.seq += 1;
        self.periodic.push(at, self.seq, e);
    }

    pub(super) fn push_work(&mut self, at: i64, e: Work) {
        self.seq += 1;
        self.work.push(at, self.seq, e);
    }

    /// The next event in time (then insertion) order over both queues.
    pub(super) fn pop(&mut self) -> Option<(i64, Event)> {
        match (self.periodic.peek(), self.work.peek()) {
            (None, None) => None,
            (Some(p), Some(w)) if w < p => self.pop_work(),
            (Some(_), _) => {
                let (t, e) = self.periodic.pop()?;
                Some((t, Event::Periodic(e)))
            }
            (None, Some(_)) => self.pop_work(),
        }
    }

    fn pop_work(&mut self) -> Option<(i64, Event)> {
        let (t, e) = self.work.pop()?;
        Some((t, Event::Work(e)))
    }

    pub(super) fn active(&mut self, now: i64) {
        self.last_activity_ms = now;
    }
}

/// Schedules the end of each container that started on NodeManager `i`.
pub(super) fn schedule_ends(sim: &mut Sim, i: usize, started: Vec<super::nm::Started>) {
    for (c, end) in started {
        if end != super::nm::UNTIL_KILLED {
            sim.push_work(end, Work::ContainerEnd(i, c));
        }
    }
}

/// The queues a run reports on (`Sim::leaves`): configured leaves, and the parents that
/// create queues — managed parents for their auto-created leaves, parents with flexible auto
/// queue creation for their dynamic ones —, in pre-order.
pub(super) fn report_rows(cs: &CapacityScheduler) -> Vec<QueueId> {
    let tree = cs.queue_tree();
    (0..tree.len())
        .filter(|&q| {
            let c = tree.conf(q);
            let created = c.auto_created || c.dynamic;
            (tree.is_leaf(q) && !created)
                || c.managed.is_some()
                || (c.flexible.is_some() && !created)
        })
        .collect()
}

impl Sim {
    /// Resolves the rows again after the tree changed (a queue created or deleted, a refresh):
    /// by path, as ids move. A row whose queue a refresh removed stands for nothing from then
    /// on.
    pub(super) fn sync_leaves(&mut self) {
        let tree = self.cs.queue_tree();
        let current = self
            .leaves
            .iter()
            .zip(&self.leaf_paths)
            .zip(&self.row_missing)
            .all(|((&q, p), &gone)| gone || (q < tree.len() && tree.path(q) == p));
        if current {
            return;
        }
        for (i, p) in self.leaf_paths.iter().enumerate() {
            match tree.find(p) {
                Ok(q) if tree.path(q) == p => self.leaves[i] = q,
                _ => {
                    self.leaves[i] = 0;
                    self.row_missing[i] = true;
                }
            }
        }
    }

    /// The leaves row `i` stands for: its leaf, or the leaves made under a parent that creates
    /// them (a managed parent's auto-created leaves, a flexible parent's dynamic leaves at any
    /// depth); none once a refresh removed its queue.
    pub(super) fn row_members(&self, i: usize) -> Vec<QueueId> {
        if self.row_missing[i] {
            return Vec::new();
        }
        let row = self.leaves[i];
        let tree = self.cs.queue_tree();
        if tree.is_leaf(row) {
            return vec![row];
        }
        let mut out = Vec::new();
        let mut stack = vec![row];
        while let Some(q) = stack.pop() {
            for &c in tree.children(q) {
                let cc = tree.conf(c);
                if !(cc.auto_created || cc.dynamic) {
                    continue;
                }
                if tree.is_leaf(c) {
                    out.push(c);
                } else {
                    stack.push(c);
                }
            }
        }
        out
    }
}
