//! What readers see without touching the core: a copy of the figures hosts query most (queue
//! usage, cluster size, counts), published by the engine after each tick. A reader takes the
//! current `Arc` and never blocks scheduling. (The RM REST document is built from the live
//! core when asked for — `Engine::scheduler_json` — not with every snapshot.)

use crate::resource::Resource;
use crate::scheduler::CapacityScheduler;

/// One queue's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueSnapshot {
    pub path: String,
    pub used: Resource,
    pub pending: Resource,
    pub reserved: Resource,
    /// Absolute guaranteed and maximum shares of the cluster (0–1).
    pub absolute_capacity: f32,
    pub absolute_maximum_capacity: f32,
    /// YARN's `getNumApplications`: a leaf's attempts, a parent's applications.
    pub num_applications: i32,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineSnapshot {
    /// The order the core made snapshots in (a reader never sees an older one replace a newer).
    pub sequence: u64,
    /// Scheduler time at publication.
    pub time_ms: i64,
    pub cluster: Resource,
    pub num_nodes: usize,
    pub num_applications: usize,
    pub num_containers: usize,
    pub queues: Vec<QueueSnapshot>,
    pub dropped_events: u64,
}

impl EngineSnapshot {
    pub fn of(cs: &CapacityScheduler, sequence: u64, now_ms: i64, dropped_events: u64) -> Self {
        let tree = cs.queue_tree();
        let queues = (0..tree.len())
            .map(|q| {
                let queue = tree.queue(q);
                QueueSnapshot {
                    path: tree.path(q).to_string(),
                    used: queue.used,
                    pending: cs.queue_pending(q),
                    reserved: cs.queue_reserved(q),
                    absolute_capacity: queue.capacities.absolute_capacity,
                    absolute_maximum_capacity: queue.capacities.absolute_maximum_capacity,
                    num_applications: cs.num_applications(q),
                }
            })
            .collect();
        EngineSnapshot {
            sequence,
            time_ms: now_ms,
            cluster: cs.cluster_resource(),
            num_nodes: cs.num_nodes(),
            num_applications: cs.num_applications_total(),
            num_containers: cs.num_containers(),
            queues,
            dropped_events,
        }
    }

    pub fn queue(&self, path: &str) -> Option<&QueueSnapshot> {
        self.queues.iter().find(|q| q.path == path)
    }
}
