//! A simulated MapReduce ApplicationMaster (SLS's `MRAMSimulator`): once its AM container runs
//! it asks for the map containers (host, rack and `*` asks from the trace's hosts), runs each task
//! for its duration, asks for the reduces when every map is done, re-requests tasks whose
//! containers were preempted or lost, and unregisters when every task has finished.

use std::collections::BTreeMap;

use super::trace::{TraceExecutionType, TraceJob};
use crate::ids::{AppId, ContainerId};
use crate::resource::Resource;
use crate::scheduler::types::{exit_status, AllocateResponse, ExecutionType, ResourceRequest, ANY};

/// MRAMSimulator's priorities: reduces 10, maps 20 (a lower number is more important);
/// MapReduce asks for its opportunistic maps at 19 (`RMContainerAllocator.
/// PRIORITY_OPPORTUNISTIC_MAP`).
pub const PRIORITY_MAP: i32 = 20;
pub const PRIORITY_OPPORTUNISTIC_MAP: i32 = 19;
pub const PRIORITY_REDUCE: i32 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmState {
    /// Before `job.start.ms`.
    Waiting,
    /// Submitted; waiting for the AM container.
    Submitted,
    /// AM container allocated and launched; asks and runs tasks.
    Running,
    Finished,
    Rejected,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskState {
    Pending,
    Running(ContainerId),
    Done,
}

/// A task resolved against the cluster: where it would like to run.
#[derive(Debug, Clone)]
pub struct SimTask {
    pub host: Option<String>,
    pub rack: Option<String>,
    pub duration_ms: i64,
    pub resource: Resource,
    pub reduce: bool,
    pub execution: ExecutionType,
    pub request_delay_ms: i64,
    pub state: TaskState,
    pub attempts: u32,
}

#[derive(Debug)]
pub struct AmSim {
    pub job: TraceJob,
    pub state: AmState,
    pub app: Option<AppId>,
    pub response_id: i32,
    pub tasks: Vec<SimTask>,
    pub am_container: Option<ContainerId>,
    pub submit_ms: i64,
    pub am_started_ms: Option<i64>,
    pub first_task_ms: Option<i64>,
    pub finish_ms: Option<i64>,
    pub registered_ms: Option<i64>,
    /// The ask table last sent: (priority, resource name) → count. Opportunistic maps have
    /// their own priority, so guaranteed and opportunistic asks never share an entry.
    sent: BTreeMap<(i32, String), (i32, ExecutionType)>,
    /// Opportunistic containers to promote in the next allocate (the distributed shell's
    /// `-promote_opportunistic_after_start`), with the version the AM holds.
    pub to_promote: Vec<(ContainerId, i32)>,
    pub promote_after_start: bool,
    /// Containers the NodeManager killed or rejected (−108) whose task ran again.
    pub killed_by_nm: u64,
    /// The AMRMProxy's `DistributedScheduler` for this attempt, with distributed scheduling.
    pub distributed: Option<crate::opportunistic::distributed::DistributedScheduler>,
    pub containers_completed: u64,
    pub preempted: u64,
    /// Attempts started after the first (the AM container was preempted or lost).
    pub am_restarts: u32,
}

impl AmSim {
    pub fn new(job: TraceJob, tasks: Vec<SimTask>) -> Self {
        AmSim {
            job,
            state: AmState::Waiting,
            app: None,
            response_id: 0,
            tasks,
            am_container: None,
            submit_ms: 0,
            am_started_ms: None,
            first_task_ms: None,
            finish_ms: None,
            registered_ms: None,
            sent: BTreeMap::new(),
            containers_completed: 0,
            preempted: 0,
            am_restarts: 0,
            to_promote: Vec::new(),
            promote_after_start: false,
            killed_by_nm: 0,
            distributed: None,
        }
    }

    pub fn am_resource(&self) -> Resource {
        Resource::new(self.job.am_memory_mb, self.job.am_vcores)
    }

    fn maps_done(&self) -> bool {
        self.tasks
            .iter()
            .filter(|t| !t.reduce)
            .all(|t| t.state == TaskState::Done)
    }

    pub fn all_done(&self) -> bool {
        self.tasks.iter().all(|t| t.state == TaskState::Done)
    }

    /// The phase whose tasks are requested now: maps, then reduces once every map is done.
    fn requestable(&self, now_ms: i64) -> impl Iterator<Item = &SimTask> + '_ {
        let maps_done = self.maps_done();
        let registered = self.registered_ms.unwrap_or(i64::MAX);
        self.tasks.iter().filter(move |t| {
            t.state == TaskState::Pending
                && (t.reduce == maps_done)
                && registered.saturating_add(t.request_delay_ms) <= now_ms
        })
    }

    /// The priority a task is asked at.
    fn priority(t: &SimTask) -> i32 {
        match (t.reduce, t.execution) {
            (true, _) => PRIORITY_REDUCE,
            (false, ExecutionType::Opportunistic) => PRIORITY_OPPORTUNISTIC_MAP,
            (false, ExecutionType::Guaranteed) => PRIORITY_MAP,
        }
    }

    /// The asks to send now: the full table for pending tasks, with zeros for names no longer
    /// wanted (an ask replaces the entry, so a vanished name must be set to 0).
    pub fn asks(&mut self, now_ms: i64) -> Vec<ResourceRequest> {
        let mut table: BTreeMap<(i32, String), (i32, Resource, ExecutionType)> = BTreeMap::new();
        for t in self.requestable(now_ms) {
            let p = Self::priority(t);
            let mut add = |name: &str| {
                let e = table
                    .entry((p, name.to_string()))
                    .or_insert((0, t.resource, t.execution));
                e.0 += 1;
            };
            add(ANY);
            if let Some(h) = &t.host {
                add(h);
            }
            if let Some(r) = &t.rack {
                add(r);
            }
        }
        let mut asks = Vec::new();
        let wanted: BTreeMap<(i32, String), (i32, ExecutionType)> =
            table.iter().map(|(k, v)| (k.clone(), (v.0, v.2))).collect();
        for ((p, name), (count, resource, execution)) in &table {
            if self.sent.get(&(*p, name.clone())).map(|s| s.0) != Some(*count) {
                let mut r = ResourceRequest::at(*p, name, *resource, *count);
                r.execution_type = *execution;
                asks.push(r);
            }
        }
        for ((p, name), (_, execution)) in
            self.sent.iter().filter(|(k, _)| !wanted.contains_key(*k))
        {
            let resource = self
                .tasks
                .first()
                .map(|t| t.resource)
                .unwrap_or(Resource::new(1024, 1));
            let mut r = ResourceRequest::at(*p, name, resource, 0);
            r.execution_type = *execution;
            asks.push(r);
        }
        self.sent = wanted;
        asks
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
            if let Some(any) = self.sent.get_mut(&(p, ANY.to_string())) {
                any.0 -= 1;
            }
            self.sent.remove(&(p, c.host.clone()));
            self.sent.remove(&(p, rack.clone()));
            let pick = |want: &dyn Fn(&SimTask) -> bool| {
                self.tasks.iter().position(|t| {
                    t.state == TaskState::Pending
                        && t.reduce == reduce
                        && t.execution == c.execution_type
                        && want(t)
                })
            };
            let chosen = pick(&|t| t.host.as_deref() == Some(c.host.as_str()))
                .or_else(|| pick(&|t| t.rack.as_deref() == Some(rack.as_str())))
                .or_else(|| pick(&|_| true));
            match chosen {
                Some(i) => {
                    let t = &mut self.tasks[i];
                    t.state = TaskState::Running(c.id);
                    t.attempts += 1;
                    self.first_task_ms.get_or_insert(now_ms);
                    launch.push((c.id, t.duration_ms));
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
            let Some(t) = self
                .tasks
                .iter_mut()
                .find(|t| t.state == TaskState::Running(s.id))
            else {
                continue;
            };
            if s.exit_status == exit_status::SUCCESS {
                t.state = TaskState::Done;
                self.containers_completed += 1;
            } else {
                match s.exit_status {
                    exit_status::PREEMPTED => self.preempted += 1,
                    exit_status::KILLED_BY_CONTAINER_SCHEDULER => self.killed_by_nm += 1,
                    _ => {}
                }
                t.state = TaskState::Pending;
            }
            self.to_promote.retain(|(c, _)| *c != s.id);
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
        self.sent.clear();
        self.to_promote.clear();
        self.distributed = None;
        self.am_restarts += 1;
        for t in &mut self.tasks {
            if matches!(t.state, TaskState::Running(_)) {
                t.state = TaskState::Pending;
            }
        }
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
    use crate::scheduler::types::ContainerStatus;

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
        }
    }

    fn task(reduce: bool) -> SimTask {
        SimTask {
            host: Some("h1".into()),
            rack: Some("/r1".into()),
            duration_ms: 1000,
            resource: Resource::new(1024, 1),
            reduce,
            execution: ExecutionType::Guaranteed,
            request_delay_ms: 0,
            state: TaskState::Pending,
            attempts: 0,
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

    #[test]
    fn maps_first_then_reduces_and_preempted_tasks_are_asked_again() {
        let mut am = AmSim::new(job(), vec![task(false), task(true)]);
        am.state = AmState::Running;
        am.registered_ms = Some(0);
        let asks = am.asks(0);
        assert!(
            asks.iter().all(|a| a.key.priority == PRIORITY_MAP),
            "reduces wait for the maps"
        );
        assert_eq!(asks.len(), 3, "host, rack and ANY");
        // The map's container is preempted: the task is pending again and asked for again.
        let c = ContainerId::from_u64(7);
        am.tasks[0].state = TaskState::Running(c);
        assert!(
            am.asks(0).iter().all(|a| a.num_containers == 0),
            "nothing pending while it runs"
        );
        am.take_completions(&AllocateResponse {
            completed: vec![status(c, exit_status::PREEMPTED)],
            ..Default::default()
        });
        assert_eq!(am.tasks[0].state, TaskState::Pending);
        assert_eq!(am.preempted, 1);
        assert!(am
            .asks(0)
            .iter()
            .any(|a| a.key.priority == PRIORITY_MAP && a.num_containers == 1));
        // Done this time: the reduce is asked for next.
        am.tasks[0].state = TaskState::Running(c);
        am.take_completions(&AllocateResponse {
            completed: vec![status(c, exit_status::SUCCESS)],
            ..Default::default()
        });
        assert!(am
            .asks(0)
            .iter()
            .any(|a| a.key.priority == PRIORITY_REDUCE && a.num_containers == 1));
    }
}
