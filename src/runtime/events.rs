//! The event stream a host drains for logging and audit: what the engine did, in order. The
//! queue is bounded; when the host falls behind, new events are dropped and counted, so the
//! engine never blocks on a slow reader.

use std::collections::VecDeque;

use crate::ids::{
    AppId, ApplicationAttemptId, ApplicationId, ContainerId, NodeId, YarnContainerId,
};
use crate::records::{AllocatedContainer, PendingReason};
use crate::sync::{AtomicU64, Mutex, Ordering};

/// One thing the engine did. Every event about a container carries its application and its
/// YARN `ContainerId` (which names the attempt), so a host can act on it without asking back
/// (the container may be gone by the time the event is read). A container placed outside a
/// node update's answer is told first by `ContainerPlaced`. For each container that ends
/// there is exactly one `ContainerCompleted`, after the event that says why when there is one
/// (`Released`, `Preempted`, `Expired`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineEvent {
    /// APP_ACCEPTED, with the application's YARN id.
    Accepted {
        app: AppId,
        application: ApplicationId,
    },
    /// APP_REJECTED with YARN's message.
    Rejected {
        queue: String,
        user: String,
        reason: String,
    },
    /// A container the engine placed outside a node update's answer — by the asynchronous
    /// pass (the engine thread's, `tick`, `step`), or by central opportunistic allocation in
    /// an AM's allocate — with what it was placed as: the RM creates its `RMContainer` now
    /// (RMContainer START → ALLOCATED), as the stock scheduler does at its commit. It comes
    /// before every other event about the container. Containers a node update placed are in
    /// its answer (`NodeUpdateResponse::allocated_containers`) instead, and have none.
    ContainerPlaced {
        app: AppId,
        placed: Box<AllocatedContainer>,
    },
    /// A container handed to its AM (its allocate's answer lists it: RMContainer ACQUIRED).
    Allocated {
        app: AppId,
        container: ContainerId,
        yarn_id: YarnContainerId,
        node: NodeId,
        opportunistic: bool,
    },
    /// A container its AM released.
    Released {
        app: AppId,
        container: ContainerId,
        yarn_id: YarnContainerId,
    },
    /// Marked for preemption (the AM's `PreemptionMessage` lists it).
    PreemptWarned {
        app: AppId,
        container: ContainerId,
        yarn_id: YarnContainerId,
    },
    /// Killed by preemption (−102).
    Preempted {
        app: AppId,
        container: ContainerId,
        yarn_id: YarnContainerId,
    },
    /// Acquired but never launched within the expiry interval.
    Expired {
        app: AppId,
        container: ContainerId,
        yarn_id: YarnContainerId,
    },
    /// `-refreshQueues` took effect.
    QueueRefreshed,
    /// A node left the cluster; its containers were killed.
    NodeLost { node: NodeId },
    /// A decommissioning node is DECOMMISSIONED and removed: it ran nothing more and every
    /// application that ran there had finished, or its timeout passed (what still ran there
    /// was killed as lost).
    NodeDecommissioned { node: NodeId },
    /// The attempt's AM container is allocated: the RM takes it
    /// (`Engine::take_am_container`) and launches it (YARN's `CONTAINER_ALLOCATED` to the
    /// attempt).
    AmContainerAllocated {
        app: AppId,
        container: ContainerId,
        yarn_id: YarnContainerId,
        node: NodeId,
    },
    /// A container ended, however it ended, with its exit status (the RM's `RMContainer`
    /// FINISHED). Reservations are not containers here.
    ContainerCompleted {
        app: AppId,
        container: ContainerId,
        yarn_id: YarnContainerId,
        exit_status: i32,
    },
    /// The attempt became active in its leaf (the scheduler allocates to it from now on).
    AppActivated {
        app: AppId,
        attempt: ApplicationAttemptId,
    },
    /// The application's lifetime has ended: the RM kills it with
    /// `records::LIFETIME_EXPIRED` as its diagnostics (RMAppLifetimeMonitor).
    AppLifetimeExpired {
        app: AppId,
        application: ApplicationId,
    },
    /// The attempt was added but is not active yet, and why (its AM diagnostics).
    AppPending {
        app: AppId,
        attempt: ApplicationAttemptId,
        reason: PendingReason,
    },
}

/// A host's event callback: called for each event instead of queueing it, on the thread
/// that produced it (the engine thread, in threaded mode).
pub type EventSink = Box<dyn Fn(&EngineEvent) + Send + Sync>;

pub struct EventQueue {
    events: Mutex<VecDeque<EngineEvent>>,
    capacity: usize,
    dropped: AtomicU64,
    /// The core's `figures_version` as of its last finished call or pass.
    figures: AtomicU64,
    sink: Mutex<Option<crate::sync::Arc<EventSink>>>,
}

impl std::fmt::Debug for EventQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventQueue")
            .field("capacity", &self.capacity)
            .field("dropped", &self.dropped())
            .finish()
    }
}

impl EventQueue {
    pub fn new(capacity: usize) -> Self {
        EventQueue {
            events: Mutex::new(VecDeque::new()),
            capacity,
            dropped: AtomicU64::new(0),
            figures: AtomicU64::new(0),
            sink: Mutex::new(None),
        }
    }

    /// Delivers events to `sink` from now on instead of queueing them (`None`: queue again).
    /// The previous sink is dropped once no delivery is using it.
    pub fn set_sink(&self, sink: Option<EventSink>) {
        *self.sink.lock() = sink.map(crate::sync::Arc::new);
    }

    /// Queues an event (or hands it to the sink), or counts it dropped when the queue is full.
    pub fn push(&self, e: EngineEvent) {
        // The sink runs outside every lock: it may take its time, or drain the queue.
        let sink = self.sink.lock().clone();
        if let Some(sink) = sink {
            sink(&e);
            return;
        }
        let mut q = self.events.lock();
        if q.len() >= self.capacity {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        } else {
            q.push_back(e);
        }
    }

    /// Takes up to `max` events, oldest first.
    pub fn drain(&self, max: usize) -> Vec<EngineEvent> {
        let mut q = self.events.lock();
        let n = max.min(q.len());
        q.drain(..n).collect()
    }

    /// Events dropped because the queue was full, since the engine started.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Publishes the core's queue figures version (after each call and pass, with its
    /// events): a host mirroring the figures sees that they moved without a call.
    pub fn publish_figures_version(&self, v: u64) {
        self.figures.store(v, Ordering::Release);
    }

    /// The queue figures version last published ([`Self::publish_figures_version`]).
    pub fn figures_version(&self) -> u64 {
        self.figures.load(Ordering::Acquire)
    }

    pub fn len(&self) -> usize {
        self.events.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
