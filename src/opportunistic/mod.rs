//! Opportunistic containers (spec part O). So far: the RM's node-queue load monitor and the
//! queue limit it sends to NodeManagers (O4–O5), and the NodeManager's container queue (O6)
//! as a component hosts and the simulator can run per node. Allocation comes next.

pub mod distributed;
pub mod load_monitor;
pub mod node_queue;
pub mod outstanding;
pub mod queue_limit;
