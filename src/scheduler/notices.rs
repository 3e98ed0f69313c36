//! What the scheduler tells the ResourceManager around it, as it happens: a container placed
//! outside a node update's answer, an AM container to launch, a container finished, an
//! application activated or left pending (and why). YARN's scheduler raises these as RM
//! events (`RMAppAttemptEvent`s, `RMContainerEvent`s); the core records them in order for the
//! runtime to hand to the host, only when asked to (the simulator drives the core directly and
//! does not).

use super::CapacityScheduler;
use crate::ids::{AppId, ContainerId};
use crate::records::SchedulerNotice;

impl CapacityScheduler {
    /// RMAppLifetimeMonitor: the applications whose lifetime has ended by `now_ms`, each
    /// told once (a notice too); the host kills them, as the RM does.
    pub fn expire_lifetimes(&mut self, now_ms: i64) -> Vec<AppId> {
        let mut due = Vec::new();
        while let Some(&(deadline, app)) = self.lifetime_deadlines.first() {
            if deadline > now_ms {
                break;
            }
            self.lifetime_deadlines.pop_first();
            if let Some(a) = self.apps.get_mut(app) {
                a.lifetime_deadline_ms = None;
                due.push(app);
                self.notice(SchedulerNotice::AppLifetimeExpired { app });
            }
        }
        due
    }

    /// The earliest application deadline still to come (a simulator skipping idle time must
    /// not jump past it).
    pub fn next_lifetime_deadline(&self) -> Option<i64> {
        self.lifetime_deadlines.first().map(|&(d, _)| d)
    }

    /// Records notices from now on (`true`), or stops and drops them.
    pub fn record_notices(&mut self, on: bool) {
        self.notices = on.then(Vec::new);
    }

    /// The notices recorded since the last call, oldest first.
    pub fn take_notices(&mut self) -> Vec<SchedulerNotice> {
        self.notices
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// A container placed outside a node update's answer: its notice, with what it was placed
    /// as (built only while notices are recorded).
    pub(crate) fn notice_placed(&mut self, app: AppId, id: ContainerId) {
        if self.notices.is_none() {
            return;
        }
        if let Some(container) = self.allocated_container(id) {
            self.notice(SchedulerNotice::ContainerPlaced {
                app,
                container: Box::new(container),
            });
        }
    }

    pub(crate) fn notice(&mut self, n: SchedulerNotice) {
        if let Some(v) = self.notices.as_mut() {
            v.push(n);
        }
    }
}
