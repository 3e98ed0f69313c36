//! Intra-queue preemption in the simulator (`--scenario priority-inversion`): a low-priority
//! batch job fills the one queue, an urgent priority-10 job of the same user arrives a minute
//! later. With intra-queue preemption (`priority_first`) the urgent job starts within seconds
//! of the monitor's rounds and finishes long before the batch job's first wave ends; without
//! the monitor it waits for that wave. The invariant checker runs after every event.

mod common;

use capsched::sim::default_workload::{self, PRIORITY_INVERSION_PROPERTIES};
use capsched::sim::metrics::JobRecord;
use capsched::sim::trace::SimDefaults;
use capsched::sim::SimulationResult;
use common::sim::run_checked;

fn run(preemption: bool) -> SimulationResult {
    run_checked(
        PRIORITY_INVERSION_PROPERTIES,
        default_workload::nodes(&SimDefaults::default()),
        default_workload::priority_inversion_jobs(),
        Some(preemption),
    )
}

fn job<'a>(r: &'a SimulationResult, id: &str) -> &'a JobRecord {
    r.jobs.iter().find(|j| j.id == id).unwrap()
}

#[test]
fn intra_queue_preemption_lets_the_urgent_job_overtake_the_batch_job() {
    let on = run(true);
    let off = run(false);
    let (u_on, u_off) = (job(&on, "urgent"), job(&off, "urgent"));

    // Without the monitor the urgent job waits for the batch job's first five-minute wave.
    let wait_off = u_off.wait_ms().unwrap();
    assert!(
        wait_off >= 240_000,
        "waited {wait_off} ms without preemption"
    );
    assert_eq!(off.containers_preempted, 0);

    // With it, its AM and tasks come from the batch job's containers within a minute.
    let wait_on = u_on.wait_ms().unwrap();
    assert!(
        wait_on <= 60_000,
        "waited {wait_on} ms with intra-queue preemption"
    );
    let run_on = u_on.finish_ms.unwrap() - u_on.submit_ms;
    let run_off = u_off.finish_ms.unwrap() - u_off.submit_ms;
    assert!(
        run_on * 2 < run_off,
        "urgent ran {run_on} ms vs {run_off} ms"
    );

    // Only the batch job gives, never its AM, and no more than the urgent job needs (its AM
    // and 40 tasks).
    assert_eq!(u_on.preempted, 0);
    let b = job(&on, "batch");
    assert_eq!(b.preempted, on.containers_preempted);
    assert!(on.containers_preempted > 0 && on.containers_preempted <= 41);
    assert_eq!(on.am_restarts, 0);
}
