//! The watchdog's second half (issue 36.7): a run can be busy and still go nowhere — every
//! opportunistic container rejected by a NodeManager and asked for again, queues deadlocked
//! at their head, containers preempted and re-placed in turn. Silence (`idle`) never comes,
//! so this looks for work that repeats without progress: more containers allocated since a
//! task last finished than the outstanding work could need (each outstanding task and AM
//! once, with [`SLACK`] for preemption and faults). The run then stops with what repeated.

use super::error::SimError;
use super::state::{ProgressMark, Sim};

/// Allocations past the outstanding work's own before a run that finishes nothing is a
/// livelock: far more than preemption or injected faults re-place between two completions.
pub(super) const SLACK: u64 = 100_000;

fn mark_now(sim: &Sim, now: i64) -> ProgressMark {
    let (mut rejected, mut dequeued, mut killed) = (0, 0, 0);
    for n in &sim.nms {
        rejected += n.stats.rejected_queue_full;
        dequeued += n.stats.dequeued;
        killed += n.stats.killed_for_guaranteed;
    }
    ProgressMark {
        at_ms: now,
        tasks_completed: sim.tasks_completed,
        unfinished: sim.unfinished,
        // Central and distributed opportunistic allocations are counted apart.
        containers_allocated: sim.containers_allocated + sim.opportunistic_allocated,
        rejected,
        dequeued,
        killed,
        marked: sim.containers_marked,
    }
}

/// At a tracking sample: moves the mark on when something finished since, else fails the run
/// once the work since the mark can only be repetition.
pub(super) fn check(sim: &mut Sim, now: i64) -> Result<(), SimError> {
    let m = sim.progress;
    if sim.tasks_completed != m.tasks_completed || sim.unfinished != m.unfinished {
        sim.progress = mark_now(sim, now);
        return Ok(());
    }
    if sim.unfinished == 0 {
        return Ok(());
    }
    let outstanding = sim.tasks_total.saturating_sub(sim.tasks_completed) + sim.unfinished as u64;
    let allocated = (sim.containers_allocated + sim.opportunistic_allocated)
        .saturating_sub(m.containers_allocated);
    if allocated <= outstanding.saturating_add(SLACK) {
        return Ok(());
    }
    let n = mark_now(sim, now);
    let mut causes = Vec::new();
    for (count, what) in [
        (
            n.rejected - m.rejected,
            "opportunistic containers rejected by NodeManagers whose queue was full (yarn.nodemanager.opportunistic-containers-max-queue-length)",
        ),
        (
            n.dequeued - m.dequeued,
            "queued opportunistic containers shed to the ResourceManager's queue limit (yarn.resourcemanager.nm-container-queuing.*)",
        ),
        (
            n.killed - m.killed,
            "opportunistic containers killed for guaranteed ones",
        ),
        (n.marked - m.marked, "containers marked for preemption"),
    ] {
        if count > 0 {
            causes.push(format!("{count} {what}"));
        }
    }
    let causes = if causes.is_empty() {
        "no NodeManager rejection, shedding, kill or preemption explains it".to_string()
    } else {
        causes.join("; ")
    };
    Err(SimError::Stalled(format!(
        "the simulation is livelocked at {:.1} s of simulated time: {allocated} containers were \
         allocated since a task last finished (at {:.1} s), more than the {outstanding} \
         outstanding tasks and AMs could use, and {} job(s) cannot finish — the work repeats \
         without progress. Since then: {causes}.",
        now as f64 / 1000.0,
        m.at_ms as f64 / 1000.0,
        sim.unfinished
    )))
}
