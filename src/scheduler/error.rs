//! Errors of the scheduler's API, each with YARN's message where YARN has one.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchedulerError {
    UnknownNode(String),
    DuplicateNode(String),
    UnknownApplication(String),
    UnknownContainer(String),
    /// `InvalidResourceRequestException`.
    InvalidResourceRequest(String),
    /// `InvalidContainerReleaseException`.
    InvalidContainerRelease(String),
    /// `InvalidResourceBlacklistRequestException`.
    InvalidBlacklist(String),
    /// `InvalidApplicationMasterRequestException` (response id out of step).
    InvalidResponseId(String),
    /// The application has no live attempt.
    NoAttempt(String),
    /// A move, priority change or refresh that YARN would refuse.
    Refused(String),
    InvalidArgument(String),
    /// The label manager's `IOException`: a label or node mapping refused.
    NodeLabels(String),
}

impl fmt::Display for SchedulerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchedulerError::UnknownNode(m)
            | SchedulerError::DuplicateNode(m)
            | SchedulerError::UnknownApplication(m)
            | SchedulerError::UnknownContainer(m)
            | SchedulerError::InvalidResourceRequest(m)
            | SchedulerError::InvalidContainerRelease(m)
            | SchedulerError::InvalidBlacklist(m)
            | SchedulerError::InvalidResponseId(m)
            | SchedulerError::NoAttempt(m)
            | SchedulerError::Refused(m)
            | SchedulerError::InvalidArgument(m)
            | SchedulerError::NodeLabels(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SchedulerError {}
