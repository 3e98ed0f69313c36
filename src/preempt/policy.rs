//! `ProportionalCapacityPreemptionPolicy.editSchedule`: one round over a snapshot — ideal
//! assignment, selectors, then mark-then-kill bookkeeping (spec P2, P7).

use super::fifo::{self, Pick, RoundState};
use super::ideal::{self, IdealFlags, TempQueue, UnderServed};
use super::idset::{IdMap, IdSet};
use super::intra_queue::{self, IntraQueueScratch};
use super::queue_priority;
use super::reserved;
use super::snapshot::PreemptionSnapshot;
use crate::config::PreemptionSettings;
use crate::resource::Resource;

/// What a round asks the scheduler to do (YARN's `ContainerPreemptEvent` types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PreemptionEventKind {
    /// Tell the AM (next allocate response) that the container will be preempted.
    MarkForPreemption,
    /// The wait is over: kill it (exit status −102), or mark it killable (lazy preemption).
    MarkKillable,
    /// Release a reserved container (exit status −100).
    KillReserved,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PreemptionEvent {
    pub kind: PreemptionEventKind,
    /// Index of the application in the snapshot.
    pub app: usize,
    /// The host-visible container id.
    pub container: u64,
}

/// The policy and its memory between rounds: when each container was first marked, and the
/// buffers a round reuses.
#[derive(Debug, Clone)]
pub struct PreemptionPolicy {
    settings: PreemptionSettings,
    first_marked: IdMap<i64>,
    intra_queue_scratch: IntraQueueScratch,
}

impl PreemptionPolicy {
    pub fn new(settings: PreemptionSettings) -> Self {
        PreemptionPolicy {
            settings,
            first_marked: IdMap::default(),
            intra_queue_scratch: IntraQueueScratch::default(),
        }
    }

    pub fn settings(&self) -> &PreemptionSettings {
        &self.settings
    }

    /// A refreshed configuration takes effect from the next round (spec P2 step 1).
    pub fn set_settings(&mut self, settings: PreemptionSettings) {
        self.settings = settings;
    }

    /// Forgets when every container was first marked (YARN's `preemptionCandidates`), as a
    /// fresh policy would, keeping the buffers rounds reuse: the next round marks everything it
    /// selects again, as a first round does.
    pub fn forget_marks(&mut self) {
        self.first_marked.clear();
    }

    /// One round at `now_ms` over `snapshot`; the events to dispatch, in order.
    pub fn edit_schedule(
        &mut self,
        snapshot: &PreemptionSnapshot,
        now_ms: i64,
    ) -> Vec<PreemptionEvent> {
        let mut scratch = std::mem::take(&mut self.intra_queue_scratch);
        let round = self.select_reusing(snapshot, now_ms, &mut scratch);
        self.intra_queue_scratch = scratch;
        if self.settings.observe_only {
            return Vec::new();
        }
        let picks: usize = round.by_selector.iter().map(|(p, _)| p.len()).sum();
        let mut events: Vec<PreemptionEvent> =
            Vec::with_capacity(round.kill_reserved.len() + picks);
        events.extend(
            round
                .kill_reserved
                .iter()
                .map(|&(app, container)| PreemptionEvent {
                    kind: PreemptionEventKind::KillReserved,
                    app,
                    container,
                }),
        );
        self.first_marked.reserve(picks);
        // P7: mark first; once a container has been marked for its selector's wait, kill it.
        for (picks, kill_wait) in &round.by_selector {
            for pick in picks {
                use std::collections::hash_map::Entry;
                match self.first_marked.entry(pick.container) {
                    Entry::Occupied(first) if *first.get() + kill_wait <= now_ms => {
                        events.push(PreemptionEvent {
                            kind: PreemptionEventKind::MarkKillable,
                            app: pick.app,
                            container: pick.container,
                        });
                        first.remove();
                    }
                    Entry::Occupied(_) => {}
                    Entry::Vacant(slot) => {
                        events.push(PreemptionEvent {
                            kind: PreemptionEventKind::MarkForPreemption,
                            app: pick.app,
                            container: pick.container,
                        });
                        slot.insert(now_ms);
                    }
                }
            }
        }
        // Marks nobody acted on age out; a container selected again later starts over.
        let expiry = 2 * self.settings.max_wait_before_kill_ms;
        self.first_marked
            .retain(|_, first| *first + expiry >= now_ms);
        events
    }

    /// Runs every configured selector in YARN's order over one snapshot taken at `now_ms`.
    pub fn select(&self, snap: &PreemptionSnapshot, now_ms: i64) -> Round {
        self.select_reusing(snap, now_ms, &mut IntraQueueScratch::default())
    }

    /// `select` with the buffers of earlier rounds.
    fn select_reusing(
        &self,
        snap: &PreemptionSnapshot,
        now_ms: i64,
        scratch: &mut IntraQueueScratch,
    ) -> Round {
        let s = &self.settings;
        let rc = snap.calculator;
        let mut state = RoundState {
            selected: IdSet::default(),
            allowed: snap.cluster.multiply(s.total_preemption_per_round as f64),
            kill_reserved: Vec::new(),
        };
        let mut by_selector = Vec::new();
        // The round's under-served queues per partition, over every ideal computation (YARN
        // keeps one insertion-ordered set per round).
        let mut under_served = vec![UnderServed::default(); snap.partitions.len()];
        // The queue-priority selector first, on the round's fresh queue figures.
        if s.underutilized_preemption_enabled {
            let temps: Vec<Vec<TempQueue>> = (0..snap.partitions.len())
                .map(|p| ideal::temp_queues(snap, p))
                .collect();
            let picks = queue_priority::select(snap, &temps, s, &mut state, now_ms);
            by_selector.push((picks, s.max_wait_before_kill_ms));
        }
        // The reserved-container selector: its own ideal (reserved demand counted, no natural
        // termination), nothing deducted before it.
        if s.select_based_on_reserved_containers {
            let flags = IdealFlags {
                counts_reserved: true,
                allow_balance: false,
            };
            let temps = self.ideal(snap, flags, state.allowed, &mut under_served);
            let picks = reserved::select(snap, &temps, rc, &mut state);
            by_selector.push((picks, s.max_wait_before_kill_ms));
        }
        // The FIFO selector (with reserved demand counted only if configured so).
        let fifo_flags = IdealFlags {
            counts_reserved: s.additional_res_balance_based_on_reserved_containers,
            allow_balance: false,
        };
        let mut temps = self.ideal(snap, fifo_flags, state.allowed, &mut under_served);
        fifo::deduct_selected(snap, &mut temps, rc, snap.cluster, &state.selected);
        let picks = fifo::select(snap, &temps, rc, &mut state, s.conservative_drf);
        by_selector.push((picks, s.max_wait_before_kill_ms));
        let mut last_temps = temps;
        // Preempt-to-balance: the same selector without the leaf cap, with its own wait.
        if s.preemption_to_balance_enabled {
            let flags = IdealFlags {
                counts_reserved: false,
                allow_balance: true,
            };
            let mut temps = self.ideal(snap, flags, state.allowed, &mut under_served);
            fifo::deduct_selected(snap, &mut temps, rc, snap.cluster, &state.selected);
            let picks = fifo::select(snap, &temps, rc, &mut state, s.conservative_drf);
            by_selector.push((picks, s.preemption_to_balance_max_wait_before_kill_ms));
            last_temps = temps;
        }
        // The intra-queue selector works on the last computation's figures.
        if s.intra_queue_enabled {
            let earlier: Vec<Pick> = by_selector
                .iter()
                .flat_map(|(picks, _): &(Vec<Pick>, i64)| picks.iter().copied())
                .collect();
            let picks = intra_queue::select(
                snap,
                &last_temps,
                &under_served,
                s,
                &mut state,
                &earlier,
                scratch,
            );
            by_selector.push((picks, s.max_wait_before_kill_ms));
        }
        Round {
            by_selector,
            kill_reserved: state.kill_reserved,
            temps: last_temps,
            under_served,
        }
    }

    /// The ideal assignment and targets for every partition (P3, P4).
    fn ideal(
        &self,
        snap: &PreemptionSnapshot,
        flags: IdealFlags,
        allowed: Resource,
        under_served: &mut [UnderServed],
    ) -> Vec<Vec<TempQueue>> {
        let rc = snap.calculator;
        (0..snap.partitions.len())
            .map(|p| {
                let mut temps = ideal::temp_queues(snap, p);
                ideal::compute_extras(snap, &mut temps, rc, snap.cluster);
                ideal::compute_ideal(snap, &mut temps, rc, allowed, flags, &mut under_served[p]);
                ideal::dead_zone(&mut temps, rc, snap.cluster, &self.settings, flags);
                temps
            })
            .collect()
    }
}

/// What one round selected.
#[derive(Debug, Clone)]
pub struct Round {
    /// Each selector's picks with the wait before its containers are killed.
    pub by_selector: Vec<(Vec<Pick>, i64)>,
    pub kill_reserved: Vec<(usize, u64)>,
    /// The last selector's per-partition queue figures (ideal, targets), for inspection.
    pub temps: Vec<Vec<TempQueue>>,
    /// The round's under-served queues per partition, in YARN's order.
    pub under_served: Vec<UnderServed>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CapacitySchedulerConfiguration;
    use crate::preempt::snapshot::*;
    use crate::resource::{CalculatorKind, ResourceCalculator};

    fn r(x: i64) -> Resource {
        Resource::new(x, x)
    }

    /// One partition, root + leaves; each leaf one app with `used` unit containers.
    fn flat(guaranteed: &[i64], used: &[i64], pending: &[i64]) -> PreemptionSnapshot {
        let total: i64 = guaranteed.iter().sum();
        let mut queues = vec![QueueSnap {
            path: "root".into(),
            parent: None,
            children: (1..=guaranteed.len()).collect(),
            partitions: vec![QueuePartitionSnap {
                guaranteed: r(total),
                max: r(total),
                used: r(used.iter().sum()),
                pending: r(pending.iter().sum()),
                pending_deduct_reserved: r(pending.iter().sum()),
                absolute_capacity: 1.0,
                absolute_max_capacity: 1.0,
                ..Default::default()
            }],
            preemption_disabled: false,
            intra_queue_preemption_disabled: true,
            relative_priority: 0,
            apps: vec![],
            max_am_resource_percent: 0.0,
            effective_capacity: r(total),
            users: vec![],
            inactive_apps: vec![],
            fair_order: None,
        }];
        let mut apps = Vec::new();
        for (i, ((&g, &u), &p)) in guaranteed.iter().zip(used).zip(pending).enumerate() {
            let live = (0..u)
                .map(|k| ContainerSnap {
                    id: ((i as u64) << 32) | k as u64,
                    sequence: k,
                    resource: r(1),
                    priority: 1,
                    allocation_request_id: 0,
                    is_am: false,
                    node: 0,
                    partition: 0,
                    ignore_exclusivity: false,
                    created_ms: 0,
                    killable: false,
                })
                .collect::<Vec<_>>()
                .into();
            apps.push(AppSnap {
                id: i as u64,
                name: format!("app{i}").into(),
                queue: i + 1,
                user: "u".into(),
                user_index: None,
                priority: 0,
                application_seq: i as u64,
                pending: vec![r(p)].into(),
                am: AmSnap::default(),
                live,
                live_used: None,
                reserved: vec![],
            });
            queues.push(QueueSnap {
                path: format!("root.q{i}"),
                parent: Some(0),
                children: vec![],
                partitions: vec![QueuePartitionSnap {
                    guaranteed: r(g),
                    max: r(total),
                    used: r(u),
                    pending: r(p),
                    pending_deduct_reserved: r(p),
                    absolute_capacity: g as f32 / total as f32,
                    absolute_max_capacity: 1.0,
                    ..Default::default()
                }],
                preemption_disabled: false,
                intra_queue_preemption_disabled: true,
                relative_priority: 0,
                apps: vec![i],
                max_am_resource_percent: 0.0,
                effective_capacity: r(g),
                users: vec![],
                inactive_apps: vec![],
                fair_order: None,
            });
        }
        PreemptionSnapshot {
            calculator: ResourceCalculator::new(CalculatorKind::Default, 2),
            cluster: r(total),
            minimum_allocation: r(1),
            partitions: vec![PartitionSnap {
                name: String::new(),
                resource: r(total),
                exclusive: true,
            }],
            queues,
            apps,
            nodes: vec![],
        }
    }

    fn settings() -> PreemptionSettings {
        let base = CapacitySchedulerConfiguration::from_properties_str(
            "yarn.scheduler.capacity.root.queues=a\nyarn.scheduler.capacity.root.a.capacity=100\n",
        )
        .unwrap()
        .preemption()
        .clone();
        PreemptionSettings {
            monitor_enabled: true,
            total_preemption_per_round: 1.0,
            natural_termination_factor: 1.0,
            max_wait_before_kill_ms: 10_000,
            ..base
        }
    }

    fn marks(events: &[PreemptionEvent], app: usize) -> usize {
        events
            .iter()
            .filter(|e| e.kind == PreemptionEventKind::MarkForPreemption && e.app == app)
            .count()
    }

    #[test]
    fn proportional_preemption_worked_example() {
        // testProportionalPreemption: guarantees A10 B40 C20 D30, used A30 B60 C10 D0,
        // pending A20 B5 C20 — the ideal converges to A20 B60 C20 D0: A gives back 10.
        let snap = flat(&[10, 40, 20, 30], &[30, 60, 10, 0], &[20, 5, 20, 0]);
        let mut p = PreemptionPolicy::new(settings());
        let events = p.edit_schedule(&snap, 0);
        let round = p.select(&snap, 0);
        let ideal: Vec<i64> = round.temps[0][1..]
            .iter()
            .map(|t| t.ideal.memory_mb())
            .collect();
        assert_eq!(ideal, vec![20, 60, 20, 0]);
        assert_eq!(
            (marks(&events, 0), marks(&events, 1), marks(&events, 2)),
            (10, 0, 0)
        );
    }

    #[test]
    fn marked_containers_are_killed_after_the_wait() {
        // testExpireKill: 10 marks at t=0, nothing new at 5000, 10 killable at 10001.
        let snap = flat(&[40, 40, 20], &[0, 60, 40], &[10, 0, 0]);
        let mut p = PreemptionPolicy::new(settings());
        let count = |e: &[PreemptionEvent], k| e.iter().filter(|x| x.kind == k).count();
        let e0 = p.edit_schedule(&snap, 0);
        assert_eq!(count(&e0, PreemptionEventKind::MarkForPreemption), 10);
        assert!(p.edit_schedule(&snap, 5000).is_empty());
        let e2 = p.edit_schedule(&snap, 10_001);
        assert_eq!(count(&e2, PreemptionEventKind::MarkKillable), 10);
    }

    #[test]
    fn queues_still_needy_after_the_fix_point_are_listed_most_under_served_first() {
        // Nothing is left to share (a's untouchable 20 fills the pool), so the fix-point loop
        // never runs; YARN drains its priority queue of needy queues by ideal / guaranteed:
        // c (10/20), then b (20/30), then a (70/50).
        let mut snap = flat(&[50, 30, 20], &[70, 20, 10], &[10, 10, 10]);
        snap.queues[1].preemption_disabled = true;
        let p = PreemptionPolicy::new(settings());
        let round = p.select(&snap, 0);
        assert_eq!(round.under_served[0].queues(), [3, 2, 1]);
    }

    #[test]
    fn the_dead_zone_spares_a_queue_just_over_its_guarantee() {
        // testDeadzone: guaranteed 40, used 43: the threshold is 44.
        let snap = flat(&[40, 40, 20], &[39, 43, 21], &[10, 0, 0]);
        let mut p = PreemptionPolicy::new(settings());
        assert!(p.edit_schedule(&snap, 0).is_empty());
    }
}
