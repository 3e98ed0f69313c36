//! The preemption monitor (YARN's `SchedulingMonitor` running
//! `ProportionalCapacityPreemptionPolicy`): every `monitoring_interval` it takes the core's
//! immutable preemption snapshot (O(apps + nodes): the attempts' views are shared), computes
//! the plan on its own thread, and sends the plan back. The engine re-checks every event
//! against the state at that moment, so a container released in between is skipped as stale —
//! never killed or counted twice — and a plan is never half-applied.

use super::error::EngineError;
use super::shared::Shared;
use crate::preempt::policy::PreemptionPolicy;
use crate::scheduler::preemption::PreemptionOutcome;

/// A round with its panics contained: a panic in the policy marks the engine failed, as a
/// panic on the engine thread does, instead of killing the monitor silently.
pub(crate) fn guarded_round(
    policy: &mut PreemptionPolicy,
    shared: &Shared,
    now_ms: i64,
) -> Result<PreemptionOutcome, EngineError> {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    match catch_unwind(AssertUnwindSafe(|| round(policy, shared, now_ms))) {
        Ok(r) => r,
        Err(p) => {
            shared.fail(format!(
                "preemption monitor: {}",
                super::error::panic_message(&*p)
            ));
            Err(shared.error_now())
        }
    }
}

/// One round: propose on a snapshot, then commit through the core.
pub(crate) fn round(
    policy: &mut PreemptionPolicy,
    shared: &Shared,
    now_ms: i64,
) -> Result<PreemptionOutcome, EngineError> {
    // The settings are read with the snapshot, so a refreshed configuration takes effect from
    // the next round (YARN's `updateConfigIfNeeded`) and the snapshot always carries what the
    // settings' selectors need.
    let (snapshot, settings) = shared.call(false, |c| {
        (
            c.cs.preemption_snapshot(),
            c.cs.configuration().preemption().clone(),
        )
    })?;
    if *policy.settings() != settings {
        policy.set_settings(settings);
    }
    let plan = policy.edit_schedule(&snapshot, now_ms);
    shared.call(true, move |c| c.apply_preemption(now_ms, &plan))
}

#[cfg(not(loom))]
pub(crate) fn run(
    mut policy: PreemptionPolicy,
    shared: crate::sync::Arc<Shared>,
    stop: crate::sync::Receiver<()>,
    interval_ms: i64,
) {
    use crate::sync::Recv;
    let interval = std::time::Duration::from_millis(interval_ms.max(1) as u64);
    loop {
        match stop.recv_timeout(interval) {
            Recv::Timeout => {}
            Recv::Got(()) | Recv::Disconnected => return,
        }
        let now = shared.clock.now_ms();
        if guarded_round(&mut policy, &shared, now).is_err() {
            return; // stopped or failed: nothing left to monitor
        }
    }
}
