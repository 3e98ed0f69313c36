//! The tracking samples: what the cluster, the NodeManagers and each leaf hold at each
//! interval, fed to the summary's integrals and the observer always, and to a bounded kept
//! series.

use super::am::AmState;
use super::error::SimError;
use super::limits;
use super::metrics::{QueueSample, Sample};
use super::observer::SimObserver;
use super::state::Sim;
use crate::resource::Resource;
use crate::scheduler::types::ContainerState;

pub(super) fn sample(
    sim: &mut Sim,
    now: i64,
    last: bool,
    observer: &mut dyn SimObserver,
) -> Result<(), SimError> {
    if sim.skipped {
        // The state held from the skip until the work that ended it: the sample just before.
        sim.skipped = false;
        if let Some(last) = sim
            .samples
            .last()
            .filter(|s| s.time_ms < now - sim.periods.track)
        {
            let mut flat = last.clone();
            flat.time_ms = now - sim.periods.track;
            flat.node_update_ms = 0.0;
            flat.allocate_ms = 0.0;
            record(sim, flat, false, observer)?;
        }
    }
    let cluster = sim.cs.cluster_resource();
    let allocated: Resource = sim.cs.nodes().map(|(_, n)| n.allocated).sum();
    let running_containers = sim
        .cs
        .containers()
        .filter(|(_, c)| {
            !c.is_opportunistic()
                && matches!(
                    c.state,
                    ContainerState::Running | ContainerState::Acquired | ContainerState::Allocated
                )
        })
        .count() as u64;
    let opportunistic_containers: u64 = sim
        .cs
        .nodes()
        .map(|(_, n)| n.opportunistic.len() as u64)
        .sum();
    let nm_used: Resource = sim.nms.iter().map(|n| n.in_use()).sum();
    let queued_containers: u64 = sim.nms.iter().map(|n| n.queued().max(0) as u64).sum();
    let running_applications = sim
        .ams
        .iter()
        .filter(|a| matches!(a.state, AmState::Submitted | AmState::Running))
        .count() as u64;
    let tree = sim.cs.queue_tree();
    // Outstanding containers per leaf, one pass over the applications.
    let mut pending_by_queue = vec![0u64; tree.len()];
    for (_, a) in sim.cs.applications() {
        if let Some(t) = a.attempt.as_ref() {
            pending_by_queue[a.queue] += t
                .requests
                .keys()
                .map(|(_, k)| k.outstanding().max(0) as u64)
                .sum::<u64>();
        }
    }
    let pending_total = sim.leaves.iter().map(|&q| pending_by_queue[q]).sum();
    let queues = sim
        .leaves
        .iter()
        .map(|&q| {
            let used = tree.queue(q).used - sim.cs.queue_reserved(q);
            let pending = sim.cs.queue_pending(q);
            QueueSample {
                allocated_memory: used.memory_mb(),
                allocated_vcores: used.vcores(),
                pending_memory: pending.memory_mb(),
                pending_containers: pending_by_queue[q],
            }
        })
        .collect();
    let per_call = |ns: u128, calls: u64| {
        if calls == 0 {
            0.0
        } else {
            ns as f64 / calls as f64 / 1e6
        }
    };
    let s = Sample {
        time_ms: now,
        running_applications,
        running_containers,
        allocated_memory: allocated.memory_mb(),
        allocated_vcores: allocated.vcores(),
        available_memory: cluster.memory_mb() - allocated.memory_mb(),
        available_vcores: cluster.vcores() - allocated.vcores(),
        pending_containers: pending_total,
        nm_used_memory: nm_used.memory_mb(),
        nm_used_vcores: nm_used.vcores(),
        queued_containers,
        opportunistic_containers,
        tasks_completed: sim.tasks_completed,
        queues,
        node_update_ms: per_call(sim.nu_ns, sim.nu_calls),
        allocate_ms: per_call(sim.al_ns, sim.al_calls),
    };
    sim.nu_ns = 0;
    sim.nu_calls = 0;
    sim.al_ns = 0;
    sim.al_calls = 0;
    record(sim, s, last, observer)
}

/// One sample: to the summary's integrals and (one sample late, so that a second sample at the
/// same time replaces the first, as at the very end) to the observer always; to the kept series
/// while it is short, then every `stride`-th, halving the kept series whenever it fills up.
fn record(
    sim: &mut Sim,
    s: Sample,
    last: bool,
    observer: &mut dyn SimObserver,
) -> Result<(), SimError> {
    let mut values = vec![
        s.allocated_memory as f64,
        s.allocated_vcores as f64,
        s.nm_used_memory as f64,
        s.nm_used_vcores as f64,
    ];
    values.extend(s.queues.iter().map(|q| q.allocated_memory as f64));
    sim.series.add(s.time_ms, &values);
    match sim.unsent.take() {
        Some(prev) if prev.time_ms != s.time_ms => observer.sample(&prev)?,
        _ => {}
    }
    sim.unsent = Some(s.clone());
    if last {
        if let Some(s) = sim.unsent.take() {
            observer.sample(&s)?;
        }
    }
    if sim.samples.last().is_some_and(|l| l.time_ms == s.time_ms) {
        sim.samples.pop();
    } else {
        sim.since_kept += 1;
        if sim.since_kept < sim.stride && !last {
            return Ok(());
        }
    }
    sim.since_kept = 0;
    sim.samples.push(s);
    if sim.samples.len() >= limits::MAX_KEPT_SAMPLES {
        let mut i = 0;
        sim.samples.retain(|_| {
            i += 1;
            i % 2 == 1
        });
        sim.stride *= 2;
    }
    Ok(())
}
