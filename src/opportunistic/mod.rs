//! Opportunistic containers (spec part O): the pure components. The RM's node-queue load
//! monitor and the queue limit it sends to NodeManagers (O4–O5); the outstanding-ask table
//! both allocators share (O3); the NodeManager's container queue (O6) and the AMRMProxy's
//! `DistributedScheduler` (O7), which hosts and the simulator run beside each node. The RM's
//! use of them — central allocation, updates — is in `crate::scheduler::{opportunistic,
//! update}`.

pub mod distributed;
pub mod load_monitor;
pub mod node_queue;
pub mod outstanding;
pub mod queue_limit;
