//! The runtime: a thin threaded shell that owns the deterministic core.
//!
//! An [`Engine`] is `Send + Sync`; hosts call it from any number of threads. In
//! [`Mode::Threaded`] one engine thread owns the core: every call becomes a command on a
//! channel, and calls that need an answer wait for it on a one-slot reply channel. The engine
//! thread wakes when a command arrives or when its tick is due (the asynchronous scheduling
//! interval), runs the asynchronous pass when enabled, expires unlaunched allocations, and
//! publishes a snapshot that read-only queries are served from. A second thread runs the
//! preemption monitor: it asks for the core's immutable preemption snapshot, computes the
//! policy's plan off the engine thread, and sends the plan back to be re-checked and applied
//! (propose, then commit).
//!
//! A threaded engine on a host's manual clock ([`EngineOptions::with_manual_clock`]) keeps the
//! engine thread but takes all its time from that clock: the thread ticks only when
//! [`Engine::tick_at`] moves the clock, and the preemption round runs there when its interval
//! has passed on that clock, not on wall time.
//!
//! In [`Mode::Manual`] there are no threads: calls run on the caller's thread under a mutex, and
//! the host advances time with [`Engine::tick`] and [`Engine::step`].
//!
//! Locks: the command channel's sender (held only to send), the published snapshot's slot
//! (held only to swap or clone an `Arc`), the event queue (held only to push or drain), the
//! failure message, and — in manual mode only — the core itself. Nothing but the engine thread
//! touches the core in threaded mode, so no lock is held across a scheduling pass by anyone
//! else. A panic on an engine thread marks the engine failed: every later call returns
//! [`EngineError::Failed`] with the panic's message, and nothing waits forever.

pub mod clock;
pub mod core;
pub mod events;
mod labels;
mod monitor;
pub mod snapshot;
mod worker;

use std::panic::{catch_unwind, AssertUnwindSafe};

use self::clock::Clock;
use self::core::EngineCore;
use self::events::{EngineEvent, EventQueue};
use self::snapshot::EngineSnapshot;
use crate::config::CapacitySchedulerConfiguration;
use crate::ids::{AppId, ApplicationId, ContainerId, NodeId, YarnContainerId};
use crate::preempt::policy::PreemptionPolicy;
use crate::resource::Resource;
use crate::scheduler::app_report::{AppReport, ContainerInfo};
use crate::scheduler::apps::{AppSubmission, AttemptSubmission, QueueAcl};
use crate::scheduler::nodes::NodeSpec;
use crate::scheduler::placement::Placement;
use crate::scheduler::preemption::PreemptionOutcome;
use crate::records::{
    AllocateRequest, AllocateResponse, AllocatedContainer, NodeStatus, NodeUpdateResponse,
    Rejection,
};
use crate::scheduler::{CapacityScheduler, SchedulerError};
use crate::sync::{oneshot, thread, Arc, AtomicBool, AtomicU64, Mutex, Ordering, Sender};

/// How the engine runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// An engine thread (and a preemption monitor thread when preemption is on, unless the
    /// host brings a manual clock: then its `tick_at` runs the rounds).
    Threaded,
    /// No threads: the host drives time with `tick` and `step`.
    Manual,
}

/// How to build an engine.
pub struct EngineOptions {
    pub mode: Mode,
    /// Seeds the core's PRNG (asynchronous pass start node, opportunistic placement).
    pub seed: u64,
    /// The RM's start time in YARN's application ids.
    pub cluster_timestamp: i64,
    /// The RM's epoch in the container ids the engine mints (YARN's RM state store counts
    /// restarts; 0 for an RM without one).
    pub rm_epoch: i64,
    pub clock: Arc<dyn Clock>,
    /// `None`: as `yarn.scheduler.capacity.schedule-asynchronously.enable` says.
    pub async_scheduling: Option<bool>,
    /// `None`: as `yarn.resourcemanager.scheduler.monitor.enable` (with the proportional
    /// policy) says.
    pub preemption: Option<bool>,
    /// Events kept for the host before new ones are dropped (and counted).
    pub event_capacity: usize,
    /// Set when the clock is a [`clock::ManualClock`] the host moves with [`Engine::tick_at`].
    pub manual_clock: Option<Arc<clock::ManualClock>>,
}

impl EngineOptions {
    pub fn new(mode: Mode, clock: Arc<dyn Clock>) -> Self {
        EngineOptions {
            mode,
            seed: 1,
            cluster_timestamp: clock.now_ms(),
            rm_epoch: 0,
            clock,
            async_scheduling: None,
            preemption: None,
            event_capacity: 65_536,
            manual_clock: None,
        }
    }

    /// Options for a host that brings its own time: a manual clock starting at `start_ms`,
    /// moved by [`Engine::tick_at`].
    pub fn with_manual_clock(mode: Mode, start_ms: i64) -> Self {
        let clock = Arc::new(clock::ManualClock::new(start_ms));
        let mut opts = Self::new(mode, clock.clone());
        opts.manual_clock = Some(clock);
        opts
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Scheduler(#[from] SchedulerError),
    #[error("the engine is stopped")]
    Stopped,
    #[error("the engine failed: {0}")]
    Failed(String),
    #[error("{0}")]
    InvalidArgument(String),
}

type Call = Box<dyn FnOnce(&mut EngineCore) + Send>;

// Loom's `thread_local!` takes no `const` initialiser; std's would prefer one.
#[allow(clippy::missing_const_for_thread_local)]
mod inside {
    crate::sync::thread_local! {
        /// Set while this thread runs a call on the core: a call from inside one would wait on
    /// itself, so it is refused instead.
        pub(super) static INSIDE_ENGINE: std::cell::Cell<bool> = std::cell::Cell::new(false);
    }
}
use inside::INSIDE_ENGINE;

fn inside_engine() -> bool {
    INSIDE_ENGINE.with(|f| f.get())
}

/// Runs `f` with the re-entrancy flag set.
pub(crate) fn as_engine<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            INSIDE_ENGINE.with(|f| f.set(self.0));
        }
    }
    let _reset = Reset(INSIDE_ENGINE.with(|f| f.replace(true)));
    f()
}

fn reentrant() -> EngineError {
    EngineError::InvalidArgument(
        "the engine was called from inside one of its own calls; that would wait on itself"
            .to_string(),
    )
}

/// How long a caller polls for its reply before parking: most calls take a few microseconds
/// on the engine thread, far less than waking a parked thread costs.
const REPLY_SPIN: std::time::Duration = std::time::Duration::from_micros(50);

pub(crate) enum Command {
    /// A call, and whether it may bring work for the asynchronous pass (reads do not).
    Call(Call, bool),
    /// An explicit tick (manual clocks, and loom models that cannot wait with a timeout).
    Tick,
    Shutdown,
}

pub(crate) struct Shared {
    mode: Mode,
    clock: Arc<dyn Clock>,
    events: Arc<EventQueue>,
    snapshot: Mutex<Arc<EngineSnapshot>>,
    failed: Mutex<Option<String>>,
    stopped: AtomicBool,
    /// Callers waiting for a reply right now (only the first polls).
    spinners: AtomicU64,
    /// Threaded mode: the engine thread's command queue.
    commands: Mutex<Option<Sender<Command>>>,
    /// Manual mode: the core itself.
    manual: Mutex<Option<EngineCore>>,
    /// The preemption policy and when it last ran, when the host runs rounds (manual mode, a
    /// manual clock, and loom models); the monitor thread owns its own otherwise.
    manual_policy: Mutex<Option<(PreemptionPolicy, i64)>>,
    monitor_interval_ms: i64,
    manual_clock: Option<Arc<clock::ManualClock>>,
}

impl Shared {
    fn fail(&self, message: String) {
        let mut f = self.failed.lock();
        if f.is_none() {
            *f = Some(message);
        }
    }

    fn error_now(&self) -> EngineError {
        match self.failed.lock().clone() {
            Some(m) => EngineError::Failed(m),
            None => EngineError::Stopped,
        }
    }

    /// Runs `f` on the core and returns its result: through the engine thread, or here.
    /// `work`: whether the call may give the asynchronous pass something to do.
    fn call<R: Send + 'static>(
        &self,
        work: bool,
        f: impl FnOnce(&mut EngineCore) -> R + Send + 'static,
    ) -> Result<R, EngineError> {
        if inside_engine() {
            return Err(reentrant());
        }
        if let Some(m) = self.failed.lock().clone() {
            return Err(EngineError::Failed(m));
        }
        match self.mode {
            Mode::Manual => {
                let mut core = self.manual.lock();
                // A panic on another thread may have retired the core meanwhile.
                let c = core.as_mut().ok_or_else(|| self.error_now())?;
                let run = || {
                    let r = f(c);
                    c.flush_notices();
                    r
                };
                match catch_unwind(AssertUnwindSafe(|| as_engine(run))) {
                    Ok(r) => Ok(r),
                    Err(p) => {
                        // The core may be half-changed: it is not used again.
                        *core = None;
                        self.fail(panic_message(&*p));
                        Err(self.error_now())
                    }
                }
            }
            Mode::Threaded => {
                let (tx, rx) = oneshot::<Result<R, String>>();
                let call: Call = Box::new(move |core| {
                    let run = || {
                        let r = f(core);
                        core.flush_notices();
                        r
                    };
                    match catch_unwind(AssertUnwindSafe(|| as_engine(run))) {
                        Ok(r) => {
                            let _ = tx.send(Ok(r));
                        }
                        Err(p) => {
                            // Tell the caller why, then let the engine thread die with it.
                            let _ = tx.send(Err(panic_message(&*p)));
                            std::panic::resume_unwind(p);
                        }
                    }
                });
                {
                    let commands = self.commands.lock();
                    let sender = commands.as_ref().ok_or(EngineError::Stopped)?;
                    if sender.send(Command::Call(call, work)).is_err() {
                        return Err(self.error_now());
                    }
                }
                // The reply sender is dropped unanswered only if the engine thread died or
                // stopped before running the call.
                // One caller at a time polls; the others park, so spinning never starves the
                // engine thread of a core (hosts run many more threads than cores).
                let spin = self.spinners.fetch_add(1, Ordering::SeqCst) == 0;
                let reply = if spin {
                    rx.recv_spinning(REPLY_SPIN)
                } else {
                    rx.recv()
                };
                self.spinners.fetch_sub(1, Ordering::SeqCst);
                match reply {
                    Some(Ok(r)) => Ok(r),
                    Some(Err(message)) => {
                        self.fail(message);
                        Err(self.error_now())
                    }
                    None => Err(self.error_now()),
                }
            }
        }
    }

    /// Publishes `snapshot` unless a newer one is already out (snapshots are numbered in the
    /// order the core made them), and returns what is published now.
    fn publish(&self, snapshot: EngineSnapshot) -> Arc<EngineSnapshot> {
        let mut slot = self.snapshot.lock();
        if snapshot.sequence >= slot.sequence {
            *slot = Arc::new(snapshot);
        }
        slot.clone()
    }
}

pub(crate) fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

/// The scheduler as a service. `Send + Sync`: share it (`&Engine`, `Arc<Engine>`) between host
/// threads. Dropping it stops it.
pub struct Engine {
    shared: Arc<Shared>,
    threads: Mutex<Vec<thread::JoinHandle<()>>>,
    monitor_stop: Mutex<Option<Sender<()>>>,
    /// Held for the whole of `stop`, so a concurrent `stop` returns only once it is done.
    stopping: Mutex<()>,
}

impl Engine {
    /// Builds and starts an engine over `conf`.
    pub fn start(conf: Arc<CapacitySchedulerConfiguration>, opts: EngineOptions) -> Engine {
        let async_scheduling = opts
            .async_scheduling
            .unwrap_or(conf.settings().async_scheduling.enabled);
        // An explicit preemption option overrides the configuration, fully: the monitor runs
        // (or not) and queues are preemptable (or not) as it says.
        let conf = match opts.preemption {
            Some(on) => Arc::new(conf.with_preemption_monitor(on)),
            None => conf,
        };
        let preemption = conf.preemption().proportional_policy_enabled();
        let tick_ms = conf.settings().async_scheduling.interval_ms.max(1);
        let monitor_interval_ms = conf.preemption().monitoring_interval_ms.max(1);
        let policy = preemption.then(|| PreemptionPolicy::new(conf.preemption().clone()));
        let events = Arc::new(EventQueue::new(opts.event_capacity.max(1)));
        let mut cs = CapacityScheduler::new(conf, opts.cluster_timestamp, opts.seed);
        cs.set_rm_epoch(opts.rm_epoch);
        let now = opts.clock.now_ms();
        let mut core = EngineCore::new(cs, events.clone(), async_scheduling);
        core.preemption_override = opts.preemption;
        let first = core.snapshot(now, 0);
        let shared = Arc::new(Shared {
            mode: opts.mode,
            clock: opts.clock,
            events,
            snapshot: Mutex::new(Arc::new(first)),
            failed: Mutex::new(None),
            stopped: AtomicBool::new(false),
            spinners: AtomicU64::new(0),
            commands: Mutex::new(None),
            manual: Mutex::new(None),
            manual_policy: Mutex::new(None),
            monitor_interval_ms,
            manual_clock: opts.manual_clock,
        });
        let engine = Engine {
            shared: shared.clone(),
            threads: Mutex::new(Vec::new()),
            monitor_stop: Mutex::new(None),
            stopping: Mutex::new(()),
        };
        match opts.mode {
            Mode::Manual => {
                *shared.manual.lock() = Some(core);
                *shared.manual_policy.lock() = policy.map(|p| (p, now));
            }
            Mode::Threaded => {
                let (tx, rx) = crate::sync::channel();
                *shared.commands.lock() = Some(tx);
                let s = shared.clone();
                #[cfg_attr(loom, allow(unused_mut))]
                let mut threads = vec![thread::spawn(move || worker::run(core, rx, s, tick_ms))];
                // Loom cannot wait with a timeout, and a host's manual clock moves only when
                // it ticks: there the host runs rounds (`tick_at` when due, or
                // `preemption_round`), on the same propose-then-commit path.
                #[cfg(not(loom))]
                if shared.manual_clock.is_some() {
                    *shared.manual_policy.lock() = policy.map(|p| (p, now));
                } else if let Some(policy) = policy {
                    let (stop_tx, stop_rx) = crate::sync::channel();
                    *engine.monitor_stop.lock() = Some(stop_tx);
                    let s = shared.clone();
                    threads.push(thread::spawn(move || {
                        monitor::run(policy, s, stop_rx, monitor_interval_ms)
                    }));
                }
                #[cfg(loom)]
                {
                    *shared.manual_policy.lock() = policy.map(|p| (p, now));
                }
                *engine.threads.lock() = threads;
            }
        }
        engine
    }

    pub fn mode(&self) -> Mode {
        self.shared.mode
    }

    pub fn now_ms(&self) -> i64 {
        self.shared.clock.now_ms()
    }

    /// Runs `f` on the core with the engine's current time: the general form of every call.
    pub fn with_core<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut EngineCore, i64) -> R + Send + 'static,
    ) -> Result<R, EngineError> {
        let clock = self.shared.clock.clone();
        self.shared.call(true, move |c| f(c, clock.now_ms()))
    }

    /// As `with_core`, for a call that only reads: it does not prompt an asynchronous pass.
    pub fn read_core<R: Send + 'static>(
        &self,
        f: impl FnOnce(&EngineCore, i64) -> R + Send + 'static,
    ) -> Result<R, EngineError> {
        let clock = self.shared.clock.clone();
        self.shared.call(false, move |c| f(c, clock.now_ms()))
    }

    pub fn add_node(&self, spec: NodeSpec) -> Result<NodeId, EngineError> {
        self.with_core(move |c, now| c.add_node(now, &spec))?
            .map_err(Into::into)
    }

    pub fn remove_node(&self, node: NodeId) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| c.remove_node(now, node))??)
    }

    /// NODE_RESOURCE_UPDATE with YARN's overcommit timeout (`None`: containers beyond the new
    /// total run on; `Some(0)`: killed now; `Some(t)`: their AMs told now, killed at the
    /// node's first heartbeat `t` ms later if still over).
    pub fn update_node_resource(
        &self,
        node: NodeId,
        resource: Resource,
        overcommit_timeout_ms: Option<i64>,
    ) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| {
            c.update_node_resource(now, node, resource, overcommit_timeout_ms)
        })??)
    }

    /// Graceful decommissioning: the node takes nothing new and leaves (an event) once it is
    /// done, or at `timeout_ms` (`None`: no timeout); again on a decommissioning node changes
    /// the timeout.
    pub fn decommission_node(
        &self,
        node: NodeId,
        timeout_ms: Option<i64>,
    ) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| c.cs.decommission_node(now, node, timeout_ms))??)
    }

    /// RECOMMISSION: a decommissioning node back in service with its capacity.
    pub fn recommission_node(&self, node: NodeId) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| c.cs.recommission_node(now, node))??)
    }

    /// The RM kills a container with its own exit status and diagnostics.
    pub fn kill_container(
        &self,
        container: ContainerId,
        exit_status: i32,
        diagnostics: String,
    ) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| {
            c.cs.kill_container(now, container, exit_status, &diagnostics)
        })??)
    }

    /// The RM takes the attempt's AM container to launch it: the container becomes ACQUIRED
    /// and the AM's allocate responses never list it. `None` until it is allocated (the
    /// `AmContainerAllocated` event says when), once taken, and for an unmanaged AM.
    pub fn take_am_container(&self, app: AppId) -> Result<Option<AllocatedContainer>, EngineError> {
        Ok(self.with_core(move |c, now| c.cs.take_am_container(now, app))??)
    }

    /// The application's report, from the live state.
    pub fn app_report(&self, app: AppId) -> Result<Option<AppReport>, EngineError> {
        self.read_core(move |c, _| c.cs.app_report(app))
    }

    /// A live (or reserved) container's report.
    pub fn container_info(&self, id: ContainerId) -> Result<Option<ContainerInfo>, EngineError> {
        self.read_core(move |c, _| c.cs.container_info(id))
    }

    /// The application known by this YARN id (O(1)).
    pub fn application_by_yarn_id(&self, id: ApplicationId) -> Result<Option<AppId>, EngineError> {
        self.read_core(move |c, _| c.cs.application_by_yarn_id(id))
    }

    /// The live container known by this YARN id.
    pub fn container_by_yarn_id(
        &self,
        id: YarnContainerId,
    ) -> Result<Option<ContainerId>, EngineError> {
        self.read_core(move |c, _| c.cs.container_by_yarn_id(id))
    }

    /// The node registered as `address` (`host:port`, or its host).
    pub fn node_by_address(&self, address: String) -> Result<Option<NodeId>, EngineError> {
        self.read_core(move |c, _| c.cs.node_id(&address))
    }

    /// `checkAccess(user, acl, queue)` with YARN's inheritance (see
    /// [`CapacityScheduler::check_access`]).
    pub fn check_access(
        &self,
        user: String,
        groups: Vec<String>,
        acl: QueueAcl,
        queue: String,
    ) -> Result<bool, EngineError> {
        self.read_core(move |c, _| c.cs.check_access(&user, &groups, acl, &queue))
    }

    /// `checkAndGetApplicationLifetime` and `getMaximumApplicationLifetime`: the lifetime an
    /// application asking for `requested_s` gets in `queue`, and the queue's maximum (seconds;
    /// ≤ 0: none); `None` for a queue that is not a leaf here (YARN then grants what is asked,
    /// with no maximum).
    pub fn application_lifetime(
        &self,
        queue: String,
        requested_s: i64,
    ) -> Result<Option<(i64, i64)>, EngineError> {
        self.read_core(move |c, _| {
            let tree = c.cs.queue_tree();
            let q = tree.find(&queue).ok().filter(|&q| tree.is_leaf(q))?;
            let l = tree.conf(q).lifetimes;
            Some((l.granted(requested_s), l.maximum))
        })
    }

    pub fn node_update(
        &self,
        node: NodeId,
        status: NodeStatus,
    ) -> Result<NodeUpdateResponse, EngineError> {
        Ok(self.with_core(move |c, now| c.node_update(now, node, &status))??)
    }

    /// Submission: accepted (the application's id) or rejected with YARN's reason.
    pub fn submit(&self, sub: AppSubmission) -> Result<Result<AppId, Rejection>, EngineError> {
        self.with_core(move |c, now| c.submit(now, &sub))
    }

    /// Where the placement rules would send `sub` (nothing is submitted): `None` when no
    /// rule places it, so it would go to the queue it names.
    pub fn place(
        &self,
        sub: AppSubmission,
    ) -> Result<Result<Option<Placement>, Rejection>, EngineError> {
        self.read_core(move |c, _| c.cs.place_submission(&sub))
    }

    pub fn add_attempt(&self, app: AppId, attempt: AttemptSubmission) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| c.cs.add_attempt(now, app, attempt))??)
    }

    pub fn remove_attempt(&self, app: AppId, keep_containers: bool) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| c.cs.remove_attempt(now, app, keep_containers))??)
    }

    pub fn remove_application(&self, app: AppId) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| c.cs.remove_application(now, app))??)
    }

    pub fn move_application(&self, app: AppId, queue: String) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| c.cs.move_application(now, app, &queue))??)
    }

    pub fn update_application_priority(
        &self,
        app: AppId,
        priority: i32,
    ) -> Result<i32, EngineError> {
        Ok(self.with_core(move |c, _| c.cs.update_application_priority(app, priority))??)
    }

    pub fn allocate(
        &self,
        app: AppId,
        req: AllocateRequest,
    ) -> Result<AllocateResponse, EngineError> {
        Ok(self.with_core(move |c, now| c.allocate(now, app, &req))??)
    }

    pub fn container_expired(&self, container: ContainerId) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| c.container_expired(now, container))??)
    }

    /// `-refreshQueues`: the new configuration, or YARN's refusal with the running one kept.
    pub fn refresh_queues(
        &self,
        conf: Arc<CapacitySchedulerConfiguration>,
    ) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| c.refresh_queues(now, conf))??)
    }

    /// `GET /ws/v1/cluster/scheduler` as the RM would answer it now, from the live state.
    pub fn scheduler_json(&self) -> Result<String, EngineError> {
        self.read_core(|c, _| {
            let live = c.cs.live_queues();
            crate::report::rest::scheduler_info_string_live(c.cs.queue_tree(), &live)
        })
    }

    /// Every queue's figures now, root first (`CapacityScheduler::queue_statuses`), and the
    /// figures version they belong to.
    pub fn queue_statuses(
        &self,
    ) -> Result<(u64, Vec<crate::scheduler::queue_status::QueueStatus>), EngineError> {
        self.read_core(|c, _| (c.cs.figures_version(), c.cs.queue_statuses()))
    }

    /// The users of the leaf `queue` (its path or unique short name) and their figures.
    pub fn queue_users(
        &self,
        queue: String,
    ) -> Result<Vec<crate::scheduler::queue_status::UserStatus>, EngineError> {
        self.read_core(move |c, _| {
            let q =
                c.cs.queue_tree()
                    .find(&queue)
                    .map_err(|e| EngineError::InvalidArgument(e.to_string()))?;
            c.cs.queue_users(q)
                .ok_or_else(|| EngineError::InvalidArgument(format!("{queue} is not a leaf queue")))
        })?
    }

    /// One user of the leaf `queue`, or the leaf's figures for a user it does not have.
    pub fn queue_user(
        &self,
        queue: String,
        user: String,
    ) -> Result<crate::scheduler::queue_status::UserStatus, EngineError> {
        self.read_core(move |c, _| {
            let q =
                c.cs.queue_tree()
                    .find(&queue)
                    .map_err(|e| EngineError::InvalidArgument(e.to_string()))?;
            c.cs.queue_user(q, &user)
                .ok_or_else(|| EngineError::InvalidArgument(format!("{queue} is not a leaf queue")))
        })?
    }

    /// The queue figures version as the last finished call or pass left it, read without a
    /// call into the engine: when it has not moved, the figures are those last read.
    pub fn figures_version(&self) -> u64 {
        self.shared.events.figures_version()
    }

    /// The invariant checker over the live core (tests and audits).
    pub fn check_invariants(&self) -> Result<Result<(), Vec<String>>, EngineError> {
        self.read_core(|c, _| c.cs.check_invariants())
    }

    /// The last published snapshot (at most one tick old; `refresh_snapshot` for a fresh one).
    pub fn snapshot(&self) -> Arc<EngineSnapshot> {
        self.shared.snapshot.lock().clone()
    }

    /// Publishes a snapshot of the core now and returns it (or a newer one published
    /// meanwhile: the published snapshot never goes back in time).
    pub fn refresh_snapshot(&self) -> Result<Arc<EngineSnapshot>, EngineError> {
        let events = self.shared.events.clone();
        let snap = self.read_core(move |c, now| c.snapshot(now, events.dropped()))?;
        Ok(self.shared.publish(snap))
    }

    /// Takes up to `max` events, oldest first.
    pub fn poll_events(&self, max: usize) -> Vec<EngineEvent> {
        self.shared.events.drain(max)
    }

    /// Delivers every later event to `sink` (on the thread that produces it) instead of the
    /// queue; `None` goes back to queueing.
    pub fn set_event_sink(&self, sink: Option<events::EventSink>) {
        self.shared.events.set_sink(sink);
    }

    /// Events dropped because the host did not drain them in time.
    pub fn dropped_events(&self) -> u64 {
        self.shared.events.dropped()
    }

    /// One tick now: expiry and, when enabled, the asynchronous pass; in manual mode, and for
    /// a threaded engine on a manual clock, also the preemption round when its interval has
    /// passed on the engine's clock. Threaded engines on the system clock tick by themselves;
    /// this asks for an extra one. Returns containers allocated (manual mode; 0 when threaded).
    pub fn tick(&self) -> Result<u32, EngineError> {
        if inside_engine() {
            return Err(reentrant());
        }
        if let Some(m) = self.failure() {
            return Err(EngineError::Failed(m));
        }
        match self.shared.mode {
            Mode::Threaded => {
                {
                    let commands = self.shared.commands.lock();
                    let sender = commands.as_ref().ok_or(EngineError::Stopped)?;
                    sender
                        .send(Command::Tick)
                        .map_err(|_| self.shared.error_now())?;
                }
                // Under a manual clock the round runs here, after the tick, when due.
                self.manual_preemption()?;
                Ok(0)
            }
            Mode::Manual => {
                let allocated = self.with_core(|c, now| c.tick(now))?;
                self.manual_preemption()?;
                self.refresh_snapshot()?;
                Ok(allocated)
            }
        }
    }

    /// Sets the engine's manual clock to `now_ms`, then ticks ([`Engine::tick`]). Time never
    /// goes backwards: an earlier `now_ms` is an error.
    pub fn tick_at(&self, now_ms: i64) -> Result<u32, EngineError> {
        let clock = self.shared.manual_clock.as_ref().ok_or_else(|| {
            EngineError::InvalidArgument(
                "tick_at needs an engine built with a manual clock".to_string(),
            )
        })?;
        clock.advance_to(now_ms).map_err(|current| {
            EngineError::InvalidArgument(format!(
                "time goes backwards: {now_ms} ms is before {current} ms"
            ))
        })?;
        self.tick()
    }

    /// `n` asynchronous scheduling passes now (manual-step hosts); returns containers
    /// allocated.
    pub fn step(&self, n: u32) -> Result<u32, EngineError> {
        self.with_core(move |c, now| (0..n).map(|_| c.schedule(now)).sum())
    }

    /// A preemption round now, whatever the interval: snapshot, policy, then the plan
    /// re-checked and applied. `None` when preemption is off, or when the monitor thread owns
    /// the policy (a threaded engine on the system clock runs rounds by itself).
    pub fn preemption_round(&self) -> Result<Option<PreemptionOutcome>, EngineError> {
        self.host_round(false)
    }

    /// A host-run round, now or only when its interval has passed; the check and the round
    /// happen under one lock, so concurrent ticks run one round.
    fn host_round(&self, only_if_due: bool) -> Result<Option<PreemptionOutcome>, EngineError> {
        if inside_engine() {
            return Err(reentrant());
        }
        let mut slot = self.shared.manual_policy.lock();
        let Some((policy, last)) = slot.as_mut() else {
            return Ok(None);
        };
        let now = self.now_ms();
        if only_if_due && now - *last < self.shared.monitor_interval_ms {
            return Ok(None);
        }
        *last = now;
        monitor::guarded_round(policy, &self.shared, now).map(Some)
    }

    fn manual_preemption(&self) -> Result<(), EngineError> {
        self.host_round(true).map(|_| ())
    }

    /// Stops the engine: commands already queued are run, the threads are joined, and later
    /// calls return `Stopped` (or `Failed`). Idempotent.
    pub fn stop(&self) {
        if inside_engine() {
            // Stopping joins the engine thread, which would be waiting on itself: refuse.
            return;
        }
        // Every caller waits until the engine has stopped, not only the first.
        let _stopping = self.stopping.lock();
        if self.shared.stopped.swap(true, Ordering::SeqCst) {
            return;
        }
        if let Some(stop) = self.monitor_stop.lock().take() {
            let _ = stop.send(());
        }
        if let Some(commands) = self.shared.commands.lock().take() {
            let _ = commands.send(Command::Shutdown);
        }
        let threads = std::mem::take(&mut *self.threads.lock());
        for t in threads {
            let _ = t.join();
        }
        *self.shared.manual.lock() = None;
    }

    /// The failure message if an engine thread panicked.
    pub fn failure(&self) -> Option<String> {
        self.shared.failed.lock().clone()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}
