//! A simulated MapReduce ApplicationMaster (SLS's `MRAMSimulator`): once its AM container runs
//! it asks for the map containers (host, rack and `*` asks from the trace's hosts), runs each task
//! for its duration, asks for the reduces when every map is done, re-requests tasks whose
//! containers were preempted or lost, and unregisters when every task has finished.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::trace::{TraceExecutionType, TraceJob};
use crate::ids::{AppId, ContainerId};
use crate::records::{exit_status, AllocateResponse, ExecutionType, ResourceRequest, ANY};
use crate::resource::Resource;

/// MRAMSimulator's priorities: reduces 10, maps 20 (a lower number is more important);
/// MapReduce asks for its opportunistic maps at 19 (`RMContainerAllocator.
/// PRIORITY_OPPORTUNISTIC_MAP`).
pub const PRIORITY_MAP: i32 = 20;
pub const PRIORITY_OPPORTUNISTIC_MAP: i32 = 19;
pub const PRIORITY_REDUCE: i32 = 10;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AmState {
    /// Before `job.start.ms`.
    Waiting,
    /// Submitted; waiting for the AM container.
    Submitted,
    /// AM container allocated and launched; asks and runs tasks.
    Running,
    Finished,
    /// Refused at submission, with YARN's message.
    Rejected(String),
    /// Submitted, then failed (YARN's message): the application was removed.
    Failed(String),
    /// Killed by the ResourceManager (its lifetime ended: RMAppLifetimeMonitor's message).
    Killed(String),
}

/// A group of identical tasks: one trace task entry with its `count`, or the part of one that
/// MapReduce runs as opportunistic. Tasks of a group are interchangeable, so the AM keeps
/// counts, not one record per task: its memory follows the trace's entries, and every step
/// (an allocation, a completion, a heartbeat's asks) costs the same whatever a job's size.
#[derive(Debug, Clone)]
pub struct TaskGroup {
    pub host: Option<String>,
    pub rack: Option<String>,
    pub duration_ms: i64,
    pub resource: Resource,
    pub reduce: bool,
    pub execution: ExecutionType,
    pub request_delay_ms: i64,
    pub total: u64,
    /// Neither running nor done: waiting for a container (again, after a failure).
    pub pending: u64,
    pub done: u64,
}

impl TaskGroup {
    /// The priority the group's tasks are asked at.
    fn priority(&self) -> i32 {
        match (self.reduce, self.execution) {
            (true, _) => PRIORITY_REDUCE,
            (false, ExecutionType::Opportunistic) => PRIORITY_OPPORTUNISTIC_MAP,
            (false, ExecutionType::Guaranteed) => PRIORITY_MAP,
        }
    }

    fn kind(&self) -> Kind {
        (self.reduce, self.execution == ExecutionType::Opportunistic)
    }
}

/// A container fits a task of the same phase and execution type: (reduce, opportunistic).
type Kind = (bool, bool);

/// An entry of the AM's ask table: (priority, opportunistic, resource name). Guaranteed and
/// opportunistic asks go to different tables in the RM (the opportunistic allocator takes its
/// own), so a trace that marks some reduces OPPORTUNISTIC and others not asks for both at the
/// same priority without one replacing the other.
type AskKey = (i32, bool, String);

/// What the AM wants at one ask key: the count over released, pending tasks.
#[derive(Debug, Clone, Copy)]
struct Want {
    count: i64,
    resource: Resource,
    execution: ExecutionType,
}

#[derive(Debug)]
pub struct AmSim {
    pub job: TraceJob,
    pub state: AmState,
    pub app: Option<AppId>,
    pub response_id: i32,
    pub groups: Vec<TaskGroup>,
    pub am_container: Option<ContainerId>,
    pub submit_ms: i64,
    /// The leaf the scheduler placed the application in (its queue mappings may have sent it
    /// elsewhere than the trace's queue).
    pub leaf: Option<String>,
    pub am_started_ms: Option<i64>,
    pub first_task_ms: Option<i64>,
    pub finish_ms: Option<i64>,
    pub registered_ms: Option<i64>,
    /// Running task containers and the group of each.
    running: HashMap<ContainerId, usize>,
    /// Tasks (maps) not done yet.
    tasks_left: u64,
    maps_left: u64,
    /// Groups in the order they are asked for: maps by request delay, then reduces by request
    /// delay; `released` of them (a prefix) have been asked for in this attempt.
    release_order: Vec<usize>,
    released: usize,
    is_released: Vec<bool>,
    /// Groups with pending tasks, by kind and by the host and rack they prefer (lowest index
    /// first: a container goes to the first pending task of the job that it suits).
    pending_any: BTreeMap<Kind, BTreeSet<usize>>,
    pending_host: HashMap<(Kind, String), BTreeSet<usize>>,
    pending_rack: HashMap<(Kind, String), BTreeSet<usize>>,
    /// The ask table the AM wants now, the table last sent, and the keys where they may
    /// differ (an ask replaces its entry, so only changed entries are sent; a name no longer
    /// wanted is sent as 0). Opportunistic maps have their own priority, so guaranteed and
    /// opportunistic asks never share an entry.
    want: BTreeMap<AskKey, Want>,
    sent: BTreeMap<AskKey, (i32, ExecutionType)>,
    dirty: BTreeSet<AskKey>,
    /// Opportunistic containers to promote in the next allocate (the distributed shell's
    /// `-promote_opportunistic_after_start`), with the version the AM holds.
    pub to_promote: Vec<(ContainerId, i32)>,
    pub promote_after_start: bool,
    /// Containers the NodeManager killed or rejected (−108) whose task ran again.
    pub killed_by_nm: u64,
    /// Opportunistic containers the job's tasks were given (the job "used opportunistic
    /// containers" when this is not 0).
    pub opportunistic_containers: u64,
    /// The AMRMProxy's `DistributedScheduler` for this attempt, with distributed scheduling.
    pub distributed: Option<crate::opportunistic::distributed::DistributedScheduler>,
    pub containers_completed: u64,
    pub preempted: u64,
    /// Attempts started after the first (the AM container was preempted or lost).
    pub am_restarts: u32,
}

impl AmSim {
    pub fn new(job: TraceJob, groups: Vec<TaskGroup>) -> Self {
        let tasks_left = groups.iter().map(|g| g.total).sum();
        let maps_left = groups.iter().filter(|g| !g.reduce).map(|g| g.total).sum();
        let mut release_order: Vec<usize> = (0..groups.len()).collect();
        release_order.sort_by_key(|&g| (groups[g].reduce, groups[g].request_delay_ms, g));
        let mut am = AmSim {
            job,
            state: AmState::Waiting,
            app: None,
            response_id: 0,
            is_released: vec![false; groups.len()],
            groups: Vec::new(),
            am_container: None,
            submit_ms: 0,
            leaf: None,
            am_started_ms: None,
            first_task_ms: None,
            finish_ms: None,
            registered_ms: None,
            running: HashMap::new(),
            tasks_left,
            maps_left,
            release_order,
            released: 0,
            pending_any: BTreeMap::new(),
            pending_host: HashMap::new(),
            pending_rack: HashMap::new(),
            want: BTreeMap::new(),
            sent: BTreeMap::new(),
            dirty: BTreeSet::new(),
            containers_completed: 0,
            preempted: 0,
            am_restarts: 0,
            to_promote: Vec::new(),
            promote_after_start: false,
            killed_by_nm: 0,
            opportunistic_containers: 0,
            distributed: None,
        };
        for (i, g) in groups.into_iter().enumerate() {
            let pending = g.pending;
            am.groups.push(TaskGroup { pending: 0, ..g });
            am.set_pending(i, pending);
        }
        am
    }

    pub fn am_resource(&self) -> Resource {
        Resource::new(self.job.am_memory_mb, self.job.am_vcores)
    }

    pub fn all_done(&self) -> bool {
        self.tasks_left == 0
    }

    /// Every task of the job, and those not done yet.
    pub fn total_tasks(&self) -> u64 {
        self.groups.iter().map(|g| g.total).sum()
    }

    pub fn tasks_left(&self) -> u64 {
        self.tasks_left
    }

    /// Task containers running now.
    #[cfg(test)]
    fn running_tasks(&self) -> usize {
        self.running.len()
    }

    /// Whether the next heartbeat has something to send: asks that changed, or promotions.
    pub fn has_news(&self) -> bool {
        !self.dirty.is_empty() || !self.to_promote.is_empty()
    }

    /// When the next group's request delay runs out (not before the maps are done, for a
    /// reduce): the heartbeat at or after it asks for new tasks.
    pub fn next_release_ms(&self) -> Option<i64> {
        let registered = self.registered_ms?;
        let &g = self.release_order.get(self.released)?;
        let g = &self.groups[g];
        if g.reduce && self.maps_left > 0 {
            return None;
        }
        Some(registered.saturating_add(g.request_delay_ms))
    }

    /// The ask keys of group `g`: `*`, its host and its rack.
    fn keys(&self, g: usize) -> impl Iterator<Item = AskKey> + '_ {
        let t = &self.groups[g];
        let (p, opportunistic) = (t.priority(), t.execution == ExecutionType::Opportunistic);
        std::iter::once(ANY)
            .chain(t.host.as_deref())
            .chain(t.rack.as_deref())
            .map(move |name| (p, opportunistic, name.to_string()))
    }

    /// `delta` tasks of group `g` more (or fewer) wanted at each of its keys.
    fn want_add(&mut self, g: usize, delta: i64) {
        let (resource, execution) = (self.groups[g].resource, self.groups[g].execution);
        let keys: Vec<AskKey> = self.keys(g).collect();
        for key in keys {
            let w = self.want.entry(key.clone()).or_insert(Want {
                count: 0,
                resource,
                execution,
            });
            w.count += delta;
            if w.count == 0 {
                self.want.remove(&key);
            }
            self.dirty.insert(key);
        }
    }

    /// Sets group `g`'s pending count, keeping the pending indexes and, once the group has been
    /// asked for, the wanted table.
    fn set_pending(&mut self, g: usize, pending: u64) {
        let old = self.groups[g].pending;
        if old == pending {
            return;
        }
        self.groups[g].pending = pending;
        if self.is_released[g] {
            self.want_add(g, pending as i64 - old as i64);
        }
        let t = &self.groups[g];
        let kind = t.kind();
        let host = t.host.clone().map(|h| (kind, h));
        let rack = t.rack.clone().map(|r| (kind, r));
        if old == 0 {
            self.pending_any.entry(kind).or_default().insert(g);
            if let Some(h) = host {
                self.pending_host.entry(h).or_default().insert(g);
            }
            if let Some(r) = rack {
                self.pending_rack.entry(r).or_default().insert(g);
            }
        } else if pending == 0 {
            fn drop_from<K: std::hash::Hash + Eq>(
                m: &mut HashMap<K, BTreeSet<usize>>,
                k: K,
                g: usize,
            ) {
                if let Some(set) = m.get_mut(&k) {
                    set.remove(&g);
                    if set.is_empty() {
                        m.remove(&k);
                    }
                }
            }
            if let Some(set) = self.pending_any.get_mut(&kind) {
                set.remove(&g);
            }
            if let Some(h) = host {
                drop_from(&mut self.pending_host, h, g);
            }
            if let Some(r) = rack {
                drop_from(&mut self.pending_rack, r, g);
            }
        }
    }

    /// Asks for the groups whose request delay has run out since registration, in order (the
    /// reduces once every map is done).
    fn release(&mut self, now_ms: i64) {
        while self.next_release_ms().is_some_and(|t| t <= now_ms) {
            let g = self.release_order[self.released];
            self.released += 1;
            self.is_released[g] = true;
            let pending = self.groups[g].pending;
            if pending > 0 {
                self.want_add(g, pending as i64);
            }
        }
    }

    /// The asks to send now: every entry of the table that changed since the last call, a name
    /// no longer wanted as 0.
    pub fn asks(&mut self, now_ms: i64) -> Vec<ResourceRequest> {
        self.release(now_ms);
        let mut asks = Vec::new();
        for key in std::mem::take(&mut self.dirty) {
            match self.want.get(&key) {
                Some(w) => {
                    let count = w.count.clamp(0, i32::MAX as i64) as i32;
                    if self.sent.get(&key).map(|s| s.0) != Some(count) {
                        let mut r = ResourceRequest::at(key.0, &key.2, w.resource, count);
                        r.execution_type = w.execution;
                        asks.push(r);
                    }
                    self.sent.insert(key, (count, w.execution));
                }
                None => {
                    if let Some((_, execution)) = self.sent.remove(&key) {
                        let resource = self
                            .groups
                            .first()
                            .map(|t| t.resource)
                            .unwrap_or(Resource::new(1024, 1));
                        let mut r = ResourceRequest::at(key.0, &key.2, resource, 0);
                        r.execution_type = execution;
                        asks.push(r);
                    }
                }
            }
        }
        asks
    }

    /// The first pending group of `kind` that prefers `host`, else `rack`, else any.
    fn pick(&self, kind: Kind, host: &str, rack: &str) -> Option<usize> {
        let first = |set: Option<&BTreeSet<usize>>| set.and_then(|s| s.first().copied());
        first(self.pending_host.get(&(kind, host.to_string())))
            .or_else(|| first(self.pending_rack.get(&(kind, rack.to_string()))))
            .or_else(|| first(self.pending_any.get(&kind)))
    }

    /// Hands newly allocated containers to pending tasks of the same kind and execution type
    /// (node-local first, then rack-local, then any). Returns (container, how long it runs)
    /// to launch, and containers it cannot use.
    pub fn take_allocations(
        &mut self,
        now_ms: i64,
        response: &AllocateResponse,
        rack_of: impl Fn(&str) -> String,
    ) -> (Vec<(ContainerId, i64)>, Vec<ContainerId>) {
        let mut launch = Vec::new();
        let mut surplus = Vec::new();
        for c in &response.allocated {
            if c.is_am {
                self.am_container = Some(c.id);
                self.am_started_ms = Some(now_ms);
                launch.push((c.id, super::nm::UNTIL_KILLED));
                continue;
            }
            let reduce = c.key.priority == PRIORITY_REDUCE;
            let rack = rack_of(&c.host);
            // The RM took one container off the ask's ANY count (and off the host's and rack's
            // entries it matched): the table sent is no longer what the RM holds. As
            // AMRMClient decrements its table on assignment, so do we; the host and rack
            // entries are resent with their current counts on the next heartbeat.
            let p = c.key.priority;
            let opportunistic = c.execution_type == ExecutionType::Opportunistic;
            let any = (p, opportunistic, ANY.to_string());
            if let Some(s) = self.sent.get_mut(&any) {
                s.0 -= 1;
            }
            self.dirty.insert(any);
            for name in [c.host.to_string(), rack.clone()] {
                self.sent.remove(&(p, opportunistic, name.clone()));
                self.dirty.insert((p, opportunistic, name));
            }
            let kind = (reduce, c.execution_type == ExecutionType::Opportunistic);
            match self.pick(kind, &c.host, &rack) {
                Some(g) => {
                    if c.execution_type == ExecutionType::Opportunistic {
                        self.opportunistic_containers += 1;
                    }
                    self.set_pending(g, self.groups[g].pending - 1);
                    self.running.insert(c.id, g);
                    self.first_task_ms.get_or_insert(now_ms);
                    launch.push((c.id, self.groups[g].duration_ms));
                    if self.promote_after_start && c.execution_type == ExecutionType::Opportunistic
                    {
                        self.to_promote.push((c.id, c.version));
                    }
                }
                None => surplus.push(c.id),
            }
        }
        (launch, surplus)
    }

    /// Completed statuses: a task whose container succeeded is done; one whose container was
    /// preempted, lost or expired is pending again (the MapReduce AM re-requests it).
    ///
    /// Returns true when the AM's own container ended (preempted, lost, expired): the attempt
    /// is over and the RM starts another.
    pub fn take_completions(&mut self, response: &AllocateResponse) -> bool {
        let mut am_lost = false;
        for s in &response.completed {
            if Some(s.id) == self.am_container {
                am_lost = true;
                continue;
            }
            let Some(g) = self.running.remove(&s.id) else {
                continue;
            };
            if s.exit_status == exit_status::SUCCESS {
                self.groups[g].done += 1;
                self.tasks_left -= 1;
                if !self.groups[g].reduce {
                    self.maps_left -= 1;
                }
                self.containers_completed += 1;
            } else {
                match s.exit_status {
                    exit_status::PREEMPTED => self.preempted += 1,
                    exit_status::KILLED_BY_CONTAINER_SCHEDULER => self.killed_by_nm += 1,
                    _ => {}
                }
                self.set_pending(g, self.groups[g].pending + 1);
            }
            if !self.to_promote.is_empty() {
                self.to_promote.retain(|(c, _)| *c != s.id);
            }
        }
        am_lost
    }

    /// A new attempt after the AM container was lost (keep-containers-across-attempts is off
    /// for MapReduce): running tasks died with the attempt and are pending again; finished
    /// tasks stay done (the MR AM recovers them from the job history).
    pub fn restart(&mut self) {
        self.state = AmState::Submitted;
        self.am_container = None;
        self.registered_ms = None;
        self.response_id = 0;
        self.to_promote.clear();
        self.distributed = None;
        self.am_restarts += 1;
        let mut lost: Vec<usize> = self.running.drain().map(|(_, g)| g).collect();
        lost.sort_unstable();
        for g in lost {
            self.set_pending(g, self.groups[g].pending + 1);
        }
        // The new attempt asks afresh once it registers.
        self.is_released.iter_mut().for_each(|r| *r = false);
        self.released = 0;
        self.want.clear();
        self.sent.clear();
        self.dirty.clear();
    }
}

impl From<TraceExecutionType> for ExecutionType {
    fn from(t: TraceExecutionType) -> Self {
        match t {
            TraceExecutionType::Guaranteed => ExecutionType::Guaranteed,
            TraceExecutionType::Opportunistic => ExecutionType::Opportunistic,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{ApplicationAttemptId, ApplicationId, YarnContainerId};
    use crate::records::ContainerStatus;

    fn job() -> TraceJob {
        TraceJob {
            id: "j".into(),
            queue: "default".into(),
            user: "u".into(),
            start_ms: 0,
            end_ms: None,
            job_type: "mapreduce".into(),
            am_memory_mb: 1024,
            am_vcores: 1,
            tasks: vec![],
            priority: 0,
            label_expression: None,
        }
    }

    fn group(reduce: bool, total: u64) -> TaskGroup {
        TaskGroup {
            host: Some("h1".into()),
            rack: Some("/r1".into()),
            duration_ms: 1000,
            resource: Resource::new(1024, 1),
            reduce,
            execution: ExecutionType::Guaranteed,
            request_delay_ms: 0,
            total,
            pending: total,
            done: 0,
        }
    }

    fn status(id: ContainerId, exit_status: i32) -> ContainerStatus {
        let attempt = ApplicationAttemptId {
            application: ApplicationId {
                cluster_timestamp: 1,
                id: 1,
            },
            attempt: 1,
        };
        ContainerStatus {
            id,
            yarn_id: YarnContainerId::new(attempt, 0, 1),
            exit_status,
            diagnostics: String::new(),
        }
    }

    fn allocated(id: u64, priority: i32) -> AllocateResponse {
        AllocateResponse {
            allocated: vec![crate::records::AllocatedContainer {
                id: ContainerId::from_u64(id),
                yarn_id: YarnContainerId::new(
                    ApplicationAttemptId {
                        application: ApplicationId {
                            cluster_timestamp: 1,
                            id: 1,
                        },
                        attempt: 1,
                    },
                    0,
                    id as i64,
                ),
                node: crate::ids::NodeId::from_u64(0),
                host: "h1".into(),
                resource: Resource::new(1024, 1),
                key: crate::records::SchedulerKey {
                    priority,
                    allocation_request_id: 0,
                },
                execution_type: ExecutionType::Guaranteed,
                is_am: false,
                version: 0,
                remotely_allocated: false,
                node_type: crate::records::NodeType::OffSwitch,
            }],
            ..Default::default()
        }
    }

    #[test]
    fn maps_first_then_reduces_and_preempted_tasks_are_asked_again() {
        let mut am = AmSim::new(job(), vec![group(false, 1), group(true, 1)]);
        am.state = AmState::Running;
        am.registered_ms = Some(0);
        let asks = am.asks(0);
        assert!(
            asks.iter().all(|a| a.key.priority == PRIORITY_MAP),
            "reduces wait for the maps"
        );
        assert_eq!(asks.len(), 3, "host, rack and ANY");
        // The map gets a container: nothing pending while it runs.
        let c = ContainerId::from_u64(7);
        let (launch, surplus) =
            am.take_allocations(0, &allocated(7, PRIORITY_MAP), |_| "/r1".into());
        assert_eq!((launch, surplus), (vec![(c, 1000)], vec![]));
        assert!(
            am.asks(0).iter().all(|a| a.num_containers == 0),
            "nothing pending while it runs"
        );
        // Preempted: the task is pending again and asked for again.
        am.take_completions(&AllocateResponse {
            completed: vec![status(c, exit_status::PREEMPTED)],
            ..Default::default()
        });
        assert_eq!((am.groups[0].pending, am.preempted), (1, 1));
        assert!(am
            .asks(0)
            .iter()
            .any(|a| a.key.priority == PRIORITY_MAP && a.num_containers == 1));
        // Done this time: the reduce is asked for next.
        am.take_allocations(0, &allocated(8, PRIORITY_MAP), |_| "/r1".into());
        am.take_completions(&AllocateResponse {
            completed: vec![status(ContainerId::from_u64(8), exit_status::SUCCESS)],
            ..Default::default()
        });
        assert!(am
            .asks(0)
            .iter()
            .any(|a| a.key.priority == PRIORITY_REDUCE && a.num_containers == 1));
        assert!(!am.all_done());
    }

    /// A group of a million tasks is one entry: asks carry its count, and each allocation and
    /// completion is a constant-time step.
    #[test]
    fn a_huge_group_is_asked_for_by_count() {
        let mut am = AmSim::new(job(), vec![group(false, 1_000_000)]);
        am.state = AmState::Running;
        am.registered_ms = Some(0);
        let any = am
            .asks(0)
            .into_iter()
            .find(|a| a.resource_name == ANY)
            .unwrap();
        assert_eq!(any.num_containers, 1_000_000);
        for id in 1..=1000u64 {
            am.take_allocations(0, &allocated(id, PRIORITY_MAP), |_| "/r1".into());
        }
        // The RM already took 1000 off its ANY entry, as the AM did: only the host and rack
        // entries (dropped on assignment, as AMRMClient does) are sent again.
        let asks = am.asks(0);
        assert!(asks.iter().all(|a| a.resource_name != ANY), "{asks:?}");
        assert!(asks.iter().all(|a| a.num_containers == 999_000), "{asks:?}");
        assert_eq!(asks.len(), 2);
        assert_eq!(am.running_tasks(), 1000);
    }
}
