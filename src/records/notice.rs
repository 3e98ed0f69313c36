//! What the scheduler tells the ResourceManager around it, as it happens (YARN raises these as
//! RM events: `RMAppAttemptEvent`s, `RMContainerEvent`s): a container placed outside a node
//! update's answer, an AM container to launch, a container ended with its exit status, an
//! attempt activated or left pending and why, an application past its lifetime.

use super::app::PendingReason;
use super::container::AllocatedContainer;
use crate::ids::{AppId, ContainerId, YarnContainerId};

/// One thing the scheduler tells the RM, in the order it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchedulerNotice {
    /// A container placed outside a node update's own answer (the asynchronous pass, central
    /// opportunistic allocation in an AM's allocate): the RM creates its `RMContainer` now
    /// (YARN's RMContainer START → ALLOCATED), as the stock scheduler does at its commit.
    /// What it was placed as, read at placement (it is the first notice of the container).
    ContainerPlaced {
        app: AppId,
        container: Box<AllocatedContainer>,
    },
    /// The attempt's AM container was allocated: the RM launches it (`AMContainerAllocated`).
    AmContainerAllocated { app: AppId, container: ContainerId },
    /// A container ended, however (its NodeManager reported it finished, its AM released it,
    /// the scheduler or the RM killed it, it expired, its node was lost), with its exit
    /// status. Reservations are not containers here.
    ContainerCompleted {
        app: AppId,
        container: ContainerId,
        /// Its YARN id (the container is gone once completed).
        yarn_id: YarnContainerId,
        exit_status: i32,
    },
    /// The attempt became active: the leaf schedules it from now on.
    AppActivated { app: AppId },
    /// The attempt was added but waits, and why.
    AppPending { app: AppId, reason: PendingReason },
    /// The application's lifetime has ended: the RM kills it ("Application is killed by
    /// ResourceManager as it has exceeded the lifetime period.", RMAppLifetimeMonitor).
    AppLifetimeExpired { app: AppId },
}

/// RMAppLifetimeMonitor's diagnostics for an application it kills.
pub const LIFETIME_EXPIRED: &str =
    "Application is killed by ResourceManager as it has exceeded the lifetime period.";
