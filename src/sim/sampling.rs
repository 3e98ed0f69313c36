//! The tracking samples: what the cluster, the NodeManagers and each leaf hold at each
//! interval, fed to the summary's integrals and the observer always, and to a bounded kept
//! series.

use super::am::AmState;
use super::error::SimError;
use super::limits;
use super::metrics::{QueueSample, Reached, Sample, Starvation};
use super::observer::SimObserver;
use super::state::Sim;
use crate::records::ContainerState;
use crate::resource::Resource;

/// A leaf whose demand was met and comes back within this long is still in the same
/// starvation (docs/SIMULATOR.md, "Preemption in the summary").
const STARVATION_PAUSE_MS: i64 = 10_000;

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
    // One pass over the scheduler's nodes and one over the NodeManagers (10^5 of each at
    // scale, every second).
    let (mut allocated, mut opportunistic_containers) = (Resource::ZERO, 0u64);
    for (_, n) in sim.cs.nodes() {
        allocated += n.allocated;
        opportunistic_containers += n.opportunistic().len() as u64;
    }
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
    let (mut nm_used, mut queued_containers) = (Resource::ZERO, 0u64);
    for n in &sim.nms {
        nm_used += n.in_use();
        queued_containers += n.queued().max(0) as u64;
    }
    let running_applications = sim
        .ams
        .iter()
        .filter(|a| matches!(a.state, AmState::Submitted | AmState::Running))
        .count() as u64;
    sim.sync_leaves();
    let tree = sim.cs.queue_tree();
    // Outstanding containers per leaf, one pass over the applications.
    let mut pending_by_queue = vec![0u64; tree.len()];
    for (_, a) in sim.cs.applications() {
        if let Some(t) = a.attempt.as_ref() {
            let outstanding = t
                .requests
                .keys()
                .map(|(_, k)| k.outstanding().max(0) as u64)
                .sum::<u64>();
            pending_by_queue[a.queue] += outstanding;
        }
    }
    let mut queues = Vec::with_capacity(sim.leaves.len());
    let mut pending_total = 0;
    for (i, &q) in sim.leaves.iter().enumerate() {
        // A row for the queues made under a parent sums them.
        let members = sim.row_members(i);
        // What the queue holds wherever it runs: with node labels, in every partition (SLS
        // counts a queue's containers from its AMs' allocations, whatever their node).
        let used: Resource = members
            .iter()
            .map(|&m| sim.cs.queue_used_all_partitions(m) - sim.cs.queue_reserved_all_partitions(m))
            .sum();
        let pending_all: Resource = members
            .iter()
            .map(|&m| sim.cs.queue_pending_all_partitions(m))
            .sum();
        // Starvation is judged in the default partition, where guarantees and usage are the
        // plain ones (`below_guarantee`).
        let pending: Resource = members.iter().map(|&m| sim.cs.queue_pending(m)).sum();
        let pending_containers: u64 = members.iter().map(|&m| pending_by_queue[m]).sum();
        pending_total += pending_containers;
        let killed: u64 = members
            .iter()
            .map(|&m| sim.cs.preemption_stats(m).killed)
            .sum();
        queues.push(QueueSample {
            allocated_memory: used.memory_mb(),
            allocated_vcores: used.vcores(),
            pending_memory: pending_all.memory_mb(),
            pending_containers,
            killed: killed.saturating_sub(sim.killed_at_sample[i]),
        });
        sim.killed_at_sample[i] = killed;
        // A starvation: pending demand while below the guarantee; it ends when the leaf
        // reaches its guarantee or its demand is met.
        let starving = !pending.is_zero() && sim.cs.below_guarantee(q);
        match (sim.starving_since[i], starving) {
            (None, true) => {
                // Demand that pauses briefly (an AM between its container and its first asks,
                // or between two waves of tasks) is one wait, not two.
                let from_ms = match sim.starved[i].last() {
                    Some(s)
                        if s.reached == Reached::Demand && now - s.to_ms <= STARVATION_PAUSE_MS =>
                    {
                        let from_ms = s.from_ms;
                        sim.starved[i].pop();
                        from_ms
                    }
                    _ => now,
                };
                sim.starving_since[i] = Some(from_ms);
            }
            (Some(from_ms), false) => {
                let reached = if pending.is_zero() && sim.cs.below_guarantee(q) {
                    Reached::Demand
                } else {
                    Reached::Guarantee
                };
                sim.starved[i].push(Starvation {
                    from_ms,
                    to_ms: now,
                    reached,
                });
                sim.starving_since[i] = None;
            }
            _ => {}
        }
    }
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
    let mut s = s;
    if sim.samples.last().is_some_and(|l| l.time_ms == s.time_ms) {
        let replaced = sim.samples.pop().expect("a last sample");
        add_killed(
            &mut s,
            &replaced.queues.iter().map(|q| q.killed).collect::<Vec<_>>(),
        );
    } else {
        sim.since_kept += 1;
        if sim.since_kept < sim.stride && !last {
            for (acc, q) in sim.killed_unkept.iter_mut().zip(&s.queues) {
                *acc += q.killed;
            }
            return Ok(());
        }
    }
    sim.since_kept = 0;
    add_killed(&mut s, &sim.killed_unkept);
    sim.killed_unkept.iter_mut().for_each(|k| *k = 0);
    sim.samples.push(s);
    if sim.samples.len() >= limits::MAX_KEPT_SAMPLES {
        halve(&mut sim.samples);
        sim.stride *= 2;
    }
    Ok(())
}

fn add_killed(s: &mut Sample, killed: &[u64]) {
    for (q, k) in s.queues.iter_mut().zip(killed) {
        q.killed += k;
    }
}

/// Keeps every other sample (the first, the third…); each one left out hands its kills to the
/// next one kept (the last one, having none after it, to the one before).
fn halve(samples: &mut Vec<Sample>) {
    let mut kept: Vec<Sample> = Vec::with_capacity(samples.len() / 2 + 1);
    let mut carry: Option<Vec<u64>> = None;
    for (i, mut s) in std::mem::take(samples).into_iter().enumerate() {
        if i % 2 == 0 {
            if let Some(k) = carry.take() {
                add_killed(&mut s, &k);
            }
            kept.push(s);
        } else {
            carry = Some(s.queues.iter().map(|q| q.killed).collect());
        }
    }
    if let (Some(k), Some(last)) = (carry, kept.last_mut()) {
        add_killed(last, &k);
    }
    *samples = kept;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(time_ms: i64, killed: u64) -> Sample {
        Sample {
            time_ms,
            running_applications: 0,
            running_containers: 0,
            allocated_memory: 0,
            allocated_vcores: 0,
            available_memory: 0,
            available_vcores: 0,
            pending_containers: 0,
            nm_used_memory: 0,
            nm_used_vcores: 0,
            queued_containers: 0,
            opportunistic_containers: 0,
            tasks_completed: 0,
            queues: vec![QueueSample {
                allocated_memory: 0,
                allocated_vcores: 0,
                pending_memory: 0,
                pending_containers: 0,
                killed,
            }],
            node_update_ms: 0.0,
            allocate_ms: 0.0,
        }
    }

    #[test]
    fn halving_the_kept_samples_keeps_every_kill() {
        // Kills in samples 1, 2, 3 and 4 (of 0..5): 1's go to 2, 3's to 4, and the last
        // sample's, left out with nothing after it, to the one before.
        let mut s: Vec<Sample> = [0, 1, 2, 3, 4, 5]
            .iter()
            .map(|&i| sample(i * 1000, [0, 3, 1, 2, 0, 5][i as usize]))
            .collect();
        halve(&mut s);
        let got: Vec<(i64, u64)> = s.iter().map(|x| (x.time_ms, x.queues[0].killed)).collect();
        assert_eq!(got, [(0, 0), (2000, 4), (4000, 7)]);
    }
}
