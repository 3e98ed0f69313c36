//! The event stream a host drains for logging and audit: what the engine did, in order. The
//! queue is bounded; when the host falls behind, new events are dropped and counted, so the
//! engine never blocks on a slow reader.

use std::collections::VecDeque;

use crate::ids::{AppId, ContainerId, NodeId};
use crate::sync::{AtomicU64, Mutex, Ordering};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineEvent {
    /// APP_ACCEPTED.
    Accepted { app: AppId, application: String },
    /// APP_REJECTED with YARN's message.
    Rejected {
        queue: String,
        user: String,
        reason: String,
    },
    /// A container handed to its AM.
    Allocated {
        app: AppId,
        container: ContainerId,
        node: NodeId,
        opportunistic: bool,
    },
    /// A container its AM released.
    Released { app: AppId, container: ContainerId },
    /// Marked for preemption (the AM's `PreemptionMessage` lists it).
    PreemptWarned { container: ContainerId },
    /// Killed by preemption (−102).
    Preempted { container: ContainerId },
    /// Acquired but never launched within the expiry interval.
    Expired { container: ContainerId },
    /// `-refreshQueues` took effect.
    QueueRefreshed,
    /// A node left the cluster; its containers were killed.
    NodeLost { node: NodeId },
    /// A decommissioning node is DECOMMISSIONED and removed: it ran nothing more and every
    /// application that ran there had finished, or its timeout passed (what still ran there
    /// was killed as lost).
    NodeDecommissioned { node: NodeId },
}

/// A host's event callback: called for each event instead of queueing it, on the thread
/// that produced it (the engine thread, in threaded mode).
pub type EventSink = Box<dyn Fn(&EngineEvent) + Send + Sync>;

pub struct EventQueue {
    events: Mutex<VecDeque<EngineEvent>>,
    capacity: usize,
    dropped: AtomicU64,
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

    pub fn len(&self) -> usize {
        self.events.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
