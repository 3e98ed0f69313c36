//! What the scheduler says of an application as a whole: why a submission was rejected
//! (APP_REJECTED), and why an added attempt is not yet active (its AM diagnostics).

/// Why an attempt is not yet active (the RM's diagnostics for an ACCEPTED application).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PendingReason {
    /// The leaf's AM resource limit is used up (`maximum-am-resource-percent`).
    AmLimit,
    /// The user's share of the leaf's AM resource limit is used up.
    UserAmLimit,
    /// Held back by max-parallel-apps (the user's, the leaf's or an ancestor's).
    MaxParallelApps,
    /// No NodeManager has registered yet.
    ClusterResourceEmpty,
}

impl PendingReason {
    /// The attempt's AM diagnostics as YARN words them (`AMState.INACTIVATED` and
    /// `CSAMContainerLaunchDiagnosticsConstants`, without the time stamp YARN puts first).
    /// YARN gives no reason for max-parallel-apps; capsched's words say which limit.
    pub fn diagnostics(self) -> &'static str {
        match self {
            PendingReason::AmLimit => {
                "Application is added to the scheduler and is not yet activated. \
                 Queue's AM resource limit exceeded. "
            }
            PendingReason::UserAmLimit => {
                "Application is added to the scheduler and is not yet activated. \
                 User's AM resource limit exceeded. "
            }
            PendingReason::MaxParallelApps => {
                "Application is added to the scheduler and is not yet activated. \
                 The max-parallel-apps limit of its user, its queue or a parent queue is \
                 reached. "
            }
            PendingReason::ClusterResourceEmpty => {
                "Application is added to the scheduler and is not yet activated. \
                 Skipping AM assignment as cluster resource is empty. "
            }
        }
    }
}

/// Why an application was rejected at submission (APP_REJECTED).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub message: String,
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rejection {}
