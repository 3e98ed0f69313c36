//! The scheduler's state: pure data, no threads, no clocks.

pub mod queue;
