//! Opportunistic containers (spec part O). So far: the RM's node-queue load monitor and the
//! queue limit it sends to NodeManagers; allocation comes with the opportunistic issue.

pub mod load_monitor;
pub mod queue_limit;
