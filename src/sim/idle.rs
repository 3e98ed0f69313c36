//! Cost that follows work, not simulated time: at each tracking sample, when nothing can
//! happen before the next piece of work (or nothing has happened for long although something
//! is asked for: a fixed point), the periodic events jump there in phase. When nothing can ever
//! happen again and jobs remain, the watchdog stops the run with what the stuck jobs ask for.

use super::am::{AmSim, AmState};
use super::error::SimError;
use super::state::{Periodic, Sim};
use crate::echo::echo;
use crate::records::ExecutionType;
use crate::resource::Resource;

/// At a tracking sample: when nothing can happen before the next piece of work, jump the
/// periodic events there (keeping each one's phase) and return true (the Track event is then
/// already rescheduled). When nothing can ever happen again, the watchdog's error.
pub(super) fn skip_if_idle(sim: &mut Sim, now: i64) -> Result<bool, SimError> {
    if sim.unfinished == 0 {
        return Ok(false);
    }
    let exact = idle(sim);
    let fixed_point = !exact && now.saturating_sub(sim.last_activity_ms) >= sim.fixed_point_ms;
    if !exact && !fixed_point {
        return Ok(false);
    }
    let next_work = sim.work.peek().map(|(t, _)| t);
    let next_release = sim
        .ams
        .iter()
        .filter(|a| a.state == AmState::Running)
        .filter_map(AmSim::next_release_ms)
        .min();
    // An application's lifetime ending is work too (its job is killed then).
    let next_deadline = sim.cs.next_lifetime_deadline();
    // So is the deletion policy's next round while a dynamic queue could go.
    let next_deletion = sim
        .cs
        .has_deletable_dynamic_queues()
        .then(|| {
            sim.periodic
                .iter()
                .filter(|&(_, e)| e == Periodic::QueueDeletion)
                .map(|(t, _)| t)
                .min()
        })
        .flatten();
    let wake = match [next_work, next_release, next_deadline, next_deletion]
        .into_iter()
        .flatten()
        .min()
    {
        Some(t) => t,
        None => return Err(SimError::Stalled(stall_report(sim, now))),
    };
    // Worth it only past the next sample.
    if !sim.opts.skip_idle || wake <= now.saturating_add(sim.periods.track) {
        return Ok(false);
    }
    // Each event moves to its first occurrence at or after `wake`, in its own phase. Events
    // landing in the same millisecond are pushed (so ordered) as a run stepping through the gap
    // would have pushed them: each occurrence is pushed when the one a period before it fires,
    // so an occurrence already queued now comes first, then those whose previous occurrence
    // fired earlier (a longer period), then, for one period, those fewer periods away, then
    // their order now. This sample's next one was pushed just now.
    let mut events: Vec<(i64, u64, Periodic)> = sim.periodic.drain(now);
    events.push((
        now.saturating_add(sim.periods.track),
        u64::MAX,
        Periodic::Track,
    ));
    let mut events: Vec<(StepOrder, Periodic)> = events
        .into_iter()
        .map(|(t, seq, e)| {
            let p = sim.periods.of(e);
            let steps = if t < wake { (wake - t + p - 1) / p } else { 0 };
            let at = t.saturating_add(steps.saturating_mul(p));
            if steps == 0 {
                ((at, 0, 0, 0, seq), e)
            } else {
                ((at, 1, -p, steps, seq), e)
            }
        })
        .collect();
    events.sort_unstable_by_key(|&(key, _)| key);
    for ((t, ..), e) in events {
        sim.push_periodic(t, e);
    }
    sim.skipped_ms = sim.skipped_ms.saturating_add(wake - now);
    sim.skipped = true;
    // The stretch up to the wake-up counts as quiet, not as time without activity.
    sim.last_activity_ms = wake;
    Ok(true)
}

/// Where a re-queued periodic event goes (see `skip_if_idle`): its new time, whether it was
/// already queued for then (0) or is a later occurrence (1), minus its period, the periods
/// it moved, its insertion number.
type StepOrder = (i64, u8, i64, i64, u64);

/// Nothing would change until the next piece of work: the scheduler is quiescent, every AM
/// has nothing to send or pull (and is not about to register or unregister), and no
/// NodeManager has anything to report or waiting in its queue.
fn idle(sim: &Sim) -> bool {
    sim.ams.iter().all(|a| match a.state {
        AmState::Waiting
        | AmState::Finished
        | AmState::Rejected(_)
        | AmState::Failed(_)
        | AmState::Killed(_) => true,
        AmState::Submitted => false,
        AmState::Running => a.registered_ms.is_some() && !a.all_done() && !a.has_news(),
    }) && sim.nms.iter().all(|n| !n.has_news())
        && sim.cs.quiescent()
}

/// The watchdog's report: the jobs that cannot finish and what each still waits for.
fn stall_report(sim: &Sim, now: i64) -> String {
    let stuck: Vec<&AmSim> = sim
        .ams
        .iter()
        .filter(|a| matches!(a.state, AmState::Submitted | AmState::Running))
        .collect();
    let mut out = format!(
        "the simulation is stuck at {:.1} s of simulated time: nothing has happened for {:.0} s and \
         nothing can happen any more, but {} job(s) cannot finish:",
        now as f64 / 1000.0,
        (now - sim.last_activity_ms) as f64 / 1000.0,
        sim.unfinished
    );
    let queued_at_nms: i64 = sim.nms.iter().map(|n| n.queued() as i64).sum();
    let mut asks_something = false;
    for a in stuck.iter().take(20) {
        out.push_str(&format!(
            "\n  job {} (queue {}, user {}): ",
            a.job.id, a.job.queue, a.job.user
        ));
        if a.state == AmState::Submitted {
            out.push_str(&format!(
                "its AM container {} was never allocated",
                a.am_resource()
            ));
            // Issue 36.16: an attempt held by max-parallel-apps says so, naming the keys.
            let held = a
                .app
                .and_then(|app| sim.cs.application(app))
                .and_then(|x| x.attempt.as_ref())
                .and_then(|t| t.pending_reason)
                == Some(crate::records::PendingReason::MaxParallelApps);
            if held {
                out.push_str(&format!(
                    " — it waits for a max-parallel-apps slot that never frees (check \
                     yarn.scheduler.capacity.{}.max-parallel-apps, its parents', \
                     yarn.scheduler.capacity.user.{}.max-parallel-apps and \
                     yarn.scheduler.capacity.max-parallel-apps)",
                    echo(&a.job.queue),
                    echo(&a.job.user)
                ));
            } else {
                asks_something = true;
            }
            continue;
        }
        let waiting: Vec<String> = a
            .groups
            .iter()
            .filter(|g| g.pending > 0)
            .map(|g| {
                format!(
                    "{} {} {} container(s) of {}{}",
                    g.pending,
                    if g.execution == ExecutionType::Opportunistic {
                        "OPPORTUNISTIC"
                    } else {
                        "GUARANTEED"
                    },
                    if g.reduce { "reduce" } else { "map" },
                    g.resource,
                    g.host
                        .as_deref()
                        .map(|h| format!(" on {h}"))
                        .unwrap_or_default()
                )
            })
            .take(5)
            .collect();
        if waiting.is_empty() {
            // Issue 36.16: everything it wants was allocated; what is left waits at the
            // NodeManagers (queued opportunistic containers that never start).
            out.push_str(&format!(
                "{} of {} tasks left, all allocated: they wait at the NodeManagers \
                 ({queued_at_nms} container(s) queued there in all)",
                a.tasks_left(),
                a.total_tasks(),
            ));
            continue;
        }
        asks_something = true;
        out.push_str(&format!(
            "{} of {} tasks left, asking for {}",
            a.tasks_left(),
            a.total_tasks(),
            waiting.join(", ")
        ));
        // The commonest cause: a container larger than the queue may ever hold.
        let queue = a
            .app
            .and_then(|app| sim.cs.application(app))
            .map(|x| x.queue);
        if let Some(q) = queue {
            let tree = sim.cs.queue_tree();
            let max = tree.queue(q).capacities.effective_max;
            let too_big = a
                .groups
                .iter()
                .filter(|g| g.pending > 0)
                .any(|g| !g.resource.fits_in(&max));
            if too_big {
                out.push_str(&format!(
                    " — larger than queue {}'s maximum capacity {max}",
                    tree.path(q)
                ));
            }
        }
    }
    if stuck.len() > 20 {
        out.push_str(&format!("\n  … and {} more", stuck.len() - 20));
    }
    let largest = sim
        .nms
        .iter()
        .filter_map(|n| sim.cs.node(n.id).map(|n| n.total))
        .fold(Resource::ZERO, Resource::component_max);
    if asks_something || stuck.len() > 20 {
        out.push_str(&format!(
            "\nThe scheduler allocates nothing to them: check their queues' capacities, user and AM \
             limits, and container sizes against the nodes (the largest is {largest})."
        ));
    }
    if queued_at_nms > 0 {
        out.push_str(&format!(
            "\n{queued_at_nms} allocated container(s) wait in NodeManager queues and never start: \
             check yarn.nodemanager.opportunistic-containers-max-queue-length and the \
             opportunistic allocator's load comparator."
        ));
    }
    out
}
