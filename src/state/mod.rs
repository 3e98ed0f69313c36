//! The scheduler's state: pure data, no threads, no clocks.

pub mod app;
pub(crate) mod capped_limit;
pub mod container;
pub(crate) mod dynamic_queues;
pub mod labels;
pub mod leaf;
pub mod node;
pub(crate) mod opportunistic;
pub mod partition;
pub mod queue;
pub mod request;
pub(crate) mod search;
pub mod users;
pub mod walk_marks;
