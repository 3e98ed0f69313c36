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
mod error;
pub mod events;
mod labels;
mod monitor;
mod options;
mod shared;
pub mod snapshot;
mod worker;

use self::core::EngineCore;
pub(crate) use self::error::panic_message;
pub use self::error::EngineError;
use self::events::{EngineEvent, EventQueue};
pub use self::options::{EngineOptions, Mode};
use self::shared::{inside_engine, reentrant, Command, Shared};
use self::snapshot::EngineSnapshot;
use crate::config::CapacitySchedulerConfiguration;
use crate::ids::{AppId, ApplicationId, ContainerId, NodeId, YarnContainerId};
use crate::preempt::policy::PreemptionPolicy;
use crate::records::{
    AllocateRequest, AllocateResponse, AllocatedContainer, NodeStatus, NodeUpdateResponse,
    Rejection,
};
use crate::resource::Resource;
use crate::scheduler::apps::app_report::{AppReport, ContainerInfo};
use crate::scheduler::apps::{AppSubmission, AttemptSubmission, QueueAcl};
use crate::scheduler::nodes::NodeSpec;
use crate::scheduler::placement::Placement;
use crate::scheduler::preemption::PreemptionOutcome;
use crate::scheduler::CapacityScheduler;
use crate::sync::{thread, Arc, AtomicBool, AtomicU64, Mutex, Ordering, Sender};

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
                // Named, so a host's profiler (top -H, /proc, JFR's native samples) tells them apart.
                let mut threads = vec![spawn_named("capsched-engine", move || {
                    worker::run(core, rx, s, tick_ms)
                })];
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
                    threads.push(spawn_named("capsched-policy", move || {
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

/// A named engine thread. A thread that cannot be started leaves the engine unable to run
/// at all, as `thread::spawn` would.
fn spawn_named(name: &str, f: impl FnOnce() + Send + 'static) -> thread::JoinHandle<()> {
    thread::Builder::new()
        .name(name.to_string())
        .spawn(f)
        .unwrap_or_else(|e| panic!("capsched could not start its {name} thread: {e}"))
}
