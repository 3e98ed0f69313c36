//! CapacityScheduler preemption: `ProportionalCapacityPreemptionPolicy` as a pure computation
//! over an immutable snapshot (spec part P), and its mark-then-kill bookkeeping.

pub mod fifo;
pub mod ideal;
pub mod idset;
pub mod intra_queue;
pub mod order;
pub mod policy;
pub mod queue_priority;
pub mod reserved;
pub mod snapshot;
