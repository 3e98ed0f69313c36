//! How an engine call fails: the scheduler's refusal, a stopped or failed engine, a bad
//! argument; and a panic's payload as the failure's message.

use crate::scheduler::SchedulerError;

/// Why an engine call did not run, or what the core refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Scheduler(#[from] SchedulerError),
    #[error("the engine is stopped")]
    Stopped,
    #[error("the engine failed: {0}")]
    Failed(String),
    #[error("{0}")]
    InvalidArgument(String),
}

/// A panic's message, for the failure it becomes.
pub(crate) fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}
