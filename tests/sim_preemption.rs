//! The preemption seed's timeline, replayed in the simulator: two 50% queues, App1 fills the
//! cluster, App2 arrives a minute later. With the preemption monitor on App2 finishes earlier
//! (T3' < T3) and both queues converge to their 50% guarantee; without it App2 waits for App1's
//! tasks to end. The invariant checker runs after every event.

mod common;

use capsched::sim::default_workload::{self, PREEMPTION_PROPERTIES};
use capsched::sim::metrics::JobRecord;
use capsched::sim::trace::SimDefaults;
use capsched::sim::SimulationResult;
use common::sim::run_checked;

fn run(properties: &str, preemption: Option<bool>) -> SimulationResult {
    run_checked(
        properties,
        default_workload::nodes(&SimDefaults::default()),
        default_workload::preemption_jobs(),
        preemption,
    )
}

fn job<'a>(r: &'a SimulationResult, id: &str) -> &'a JobRecord {
    r.jobs.iter().find(|j| j.id == id).unwrap()
}

/// (q1, q2) allocated memory in GB at each sample.
fn shares(r: &SimulationResult) -> Vec<(i64, i64, i64)> {
    r.samples
        .iter()
        .map(|s| {
            (
                s.time_ms,
                s.queues[0].allocated_memory / 1024,
                s.queues[1].allocated_memory / 1024,
            )
        })
        .collect()
}

#[test]
fn preemption_brings_app2_its_guarantee_and_finishes_it_sooner() {
    let off = run(PREEMPTION_PROPERTIES, Some(false));
    let on = run(PREEMPTION_PROPERTIES, None); // the scenario's configuration enables it
    assert!(!off.preemption_enabled && on.preemption_enabled);
    assert_eq!(r_leaves(&on), ["root.q1", "root.q2"]);

    // Without preemption App2 gets nothing until App1's first wave ends at 300 s.
    for (t, q1, q2) in shares(&off) {
        if (30_000..300_000).contains(&t) {
            assert_eq!((q1, q2), (100, 0), "at {t} ms without preemption");
        }
    }
    assert_eq!(off.containers_preempted, 0);

    // With it, App1's containers are taken back until both queues hold exactly their 50 %
    // (the scenario ignores no overshoot), and that holds while App2 still has work.
    let converged: Vec<i64> = shares(&on)
        .into_iter()
        .filter(|&(_, q1, q2)| q1 == 50 && q2 == 50)
        .map(|(t, _, _)| t)
        .collect();
    let first = *converged.first().expect("the queues reach 50/50");
    assert!(first <= 150_000, "converged at {first} ms");
    assert!(
        converged.len() >= 20,
        "held for {} samples",
        converged.len()
    );
    // Never below App1's guarantee while App2 is being served.
    let app2_done = job(&on, "app2").finish_ms.unwrap();
    for (t, q1, _) in shares(&on) {
        if (20_000..app2_done).contains(&t) {
            assert!(
                q1 >= 50,
                "q1 preempted below its guarantee at {t} ms: {q1} GB"
            );
        }
    }

    let (t3, t3p) = (
        job(&off, "app2").finish_ms.unwrap(),
        job(&on, "app2").finish_ms.unwrap(),
    );
    assert!(t3p < t3, "T3' = {t3p} ms should be before T3 = {t3} ms");
    // Only App1 (the queue over its guarantee) lost containers, and never its AM.
    assert_eq!(job(&on, "app2").preempted, 0);
    assert_eq!(job(&on, "app1").preempted, on.containers_preempted);
    assert_eq!(on.containers_preempted, 50, "exactly the 50 GB q2 was owed");
    assert_eq!(on.am_restarts, 0);
}

fn r_leaves(r: &SimulationResult) -> Vec<&str> {
    r.leaves.iter().map(|l| l.path.as_str()).collect()
}

#[test]
fn yarns_default_pace_is_slower_but_still_helps() {
    // The same queues with every preemption key at YARN's default: about 2 % of the cluster
    // per 15 s wait, so App2 is still earlier than without preemption, though later than with
    // the scenario's faster settings.
    let base: String = PREEMPTION_PROPERTIES
        .lines()
        .filter(|l| !l.contains(".monitor.capacity.preemption."))
        .map(|l| format!("{l}\n"))
        .collect();
    let off = run(&base, Some(false));
    let on = run(&base, Some(true));
    let fast = run(PREEMPTION_PROPERTIES, Some(true));
    let t3 = job(&off, "app2").finish_ms.unwrap();
    let t3_default = job(&on, "app2").finish_ms.unwrap();
    let t3_fast = job(&fast, "app2").finish_ms.unwrap();
    assert!(
        t3_fast < t3_default && t3_default < t3,
        "{t3_fast} < {t3_default} < {t3}"
    );
    assert!(on.containers_preempted > 0);
    // Two containers' worth per wait: well short of the 50 owed by the time App1's first
    // wave would have ended anyway.
    let q2_at_200s = shares(&on)
        .into_iter()
        .find(|&(t, _, _)| t == 200_000)
        .map(|(_, _, q2)| q2)
        .unwrap();
    assert!(
        (5..=25).contains(&q2_at_200s),
        "q2 held {q2_at_200s} GB at 200 s"
    );
}

/// The operator's view: `capsched simulate --scenario preemption --preemption on|off`.
#[test]
fn the_cli_runs_the_scenario_both_ways() {
    let dir = std::env::temp_dir().join(format!("capsched-sim-pre-{}", std::process::id()));
    let run = |mode: &str| {
        let out = dir.join(mode);
        let r = std::process::Command::new(env!("CARGO_BIN_EXE_capsched"))
            .args(["simulate", "--scenario", "preemption", "--preemption", mode])
            .arg("--output")
            .arg(&out)
            .output()
            .unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        // jobruntime.csv: JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time
        let runtime = std::fs::read_to_string(out.join("jobruntime.csv")).unwrap();
        let app2_end: i64 = runtime
            .lines()
            .find(|l| l.starts_with("app2,"))
            .and_then(|l| l.rsplit(',').next())
            .and_then(|v| v.parse().ok())
            .expect("app2 finished");
        (
            String::from_utf8_lossy(&r.stdout).to_string(),
            summary,
            app2_end,
        )
    };
    let (text_on, on, t3_on) = run("on");
    let (text_off, off, t3_off) = run("off");
    assert_eq!(on["preemption"]["enabled"], true);
    assert_eq!(on["preemption"]["containers_preempted"], 50);
    assert!(
        text_on.contains("preemption: ")
            && text_on.contains("50 preempted, 0 wasted, 0 AM restarts")
            && text_on.contains("preemption ran: ProportionalCapacityPreemptionPolicy"),
        "{text_on}"
    );
    // Per queue: what was taken from q1, and how long q2 waited for its guarantee.
    let q1 = &on["preemption"]["queues"]["root.q1"];
    assert_eq!(
        (
            &q1["containers_marked"],
            &q1["containers_killed"],
            &q1["containers_wasted"]
        ),
        (&50.into(), &50.into(), &0.into())
    );
    let q2 = &on["preemption"]["queues"]["root.q2"];
    assert_eq!(q2["starved"][0]["from_ms"], 60_000, "from App2's arrival");
    assert_eq!(q2["starved"][0]["reached"], "guarantee");
    assert_eq!(off["preemption"]["enabled"], false);
    assert!(!text_off.contains("preemption: "), "{text_off}");
    assert!(t3_on < t3_off, "T3' = {t3_on} ms, T3 = {t3_off} ms");
    std::fs::remove_dir_all(&dir).ok();
}
