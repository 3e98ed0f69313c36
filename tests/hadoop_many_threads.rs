//! capsched's plug-in in a real Hadoop 3.3.6 ResourceManager under many threads at once
//! (`scripts/rm-check`, bench/rm/src's `RmBench --check`): 500 simulated NodeManagers
//! heartbeating from 16 threads and 50 AMs allocating from 16 more, against the RM's dispatchers
//! and the scheduler's own threads, for a minute of heavy churn (short tasks, applications
//! replaced as they end, one in ten killed). Then every container must be accounted for: the
//! RM's RMContainers, scheduler nodes and queue metrics, capsched's own account, and what the
//! simulated AMs and NMs were handed and ran, all agreeing; a watchdog fails the run with every
//! thread's stack on a deadlock or when nothing moves for 30 s. Runs only where `HADOOP_HOME`
//! points at a Hadoop 3.3.6 distribution (docs/HADOOP.md); elsewhere it says it is skipped.
//!
//! `CAPSCHED_ENGINE_MODE` picks the plug-in's engine (`manual`, the default, or `threaded`).
//! The seed (`CAPSCHED_SEED`, else the clock's; printed) fixes the workload and, by its parity,
//! whether the RM schedules asynchronously (odd) or on heartbeats (even);
//! `CAPSCHED_RM_ASYNC=0|1` forces that.

use std::process::Command;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

mod common;

use common::hadoop::{engine_mode, hadoop_home_or_skip};
use common::native::{lib_dir, root};

#[test]
fn many_nms_and_ams_on_one_rm_leave_every_container_accounted_for() {
    let Some(home) = hadoop_home_or_skip() else {
        return;
    };
    let mode = engine_mode();
    let seed: u64 = match std::env::var("CAPSCHED_SEED") {
        Ok(s) => s.parse().expect("CAPSCHED_SEED is a number"),
        Err(_) => {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                % 1_000_000_000
        }
    };
    let asynchronous = match std::env::var("CAPSCHED_RM_ASYNC").as_deref() {
        Ok("1") => true,
        Ok("0") => false,
        Ok(other) => panic!("CAPSCHED_RM_ASYNC is {other}: 0 or 1"),
        Err(_) => seed % 2 == 1,
    };
    let replay = format!(
        "CAPSCHED_SEED={seed} CAPSCHED_RM_ASYNC={} CAPSCHED_ENGINE_MODE={mode} replays this workload",
        asynchronous as u8
    );
    eprintln!(
        "seed {seed}: {} scheduling ({replay})",
        if asynchronous {
            "asynchronous"
        } else {
            "heartbeat"
        }
    );
    let out = std::env::temp_dir().join(format!("capsched-rm-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let started = Instant::now();
    let o = Command::new(root().join("scripts/rm-check"))
        .env("HADOOP_HOME", &home)
        .env("CAPSCHED_LIB_DIR", lib_dir())
        .env("OUT", &out)
        .env("SEED", seed.to_string())
        .env("CAPSCHED_ENGINE_MODE", &mode)
        .env("ASYNC", if asynchronous { "1" } else { "0" })
        .output()
        .expect("run scripts/rm-check");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let line = stdout.lines().rev().find(|l| l.starts_with('{'));
    assert!(
        o.status.success(),
        "the run failed ({replay}; the RM's log was {}):\n{stderr}\n{stdout}",
        out.join("rm.log").display()
    );
    let r: serde_json::Value = serde_json::from_str(line.expect("the run's outcome line"))
        .unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let n = |k: &str| r[k].as_u64().unwrap_or_else(|| panic!("{k} in {r}"));
    eprintln!(
        "{:.0} s in all: {} containers handed to AMs ({}/s), {} released, {} reported finished, {} given up \
         with {} killed applications; {} applications finished; {} containers live at the pause",
        started.elapsed().as_secs_f64(),
        n("containers_handed"),
        r["containers_per_sec"],
        n("released"),
        n("reported"),
        n("abandoned"),
        n("apps_killed"),
        n("apps_finished"),
        n("live_at_pause")
    );
    assert_eq!(r["check"], "ok", "{r}");
    assert_eq!(r["problems"].as_array().map(Vec::len), Some(0), "{r}");
    // The run was the one asked for, and it churned: the first 50 applications were replaced
    // more than once over, some were killed, and the pause found containers running.
    assert_eq!(r["scheduler"], "capsched", "{r}");
    assert_eq!(r["engine_mode"].as_str(), Some(mode.as_str()), "{r}");
    assert_eq!(r["async"].as_bool(), Some(asynchronous), "{r}");
    assert_eq!(n("nms"), 500, "{r}");
    assert_eq!(n("concurrent"), 50, "{r}");
    assert!(n("nm_threads") >= 16 && n("am_threads") >= 16, "{r}");
    assert!(n("containers_handed") >= 5_000, "{r}");
    assert!(n("apps_finished") >= 100, "{r}");
    assert!(n("apps_killed") >= 1, "{r}");
    assert!(n("live_at_pause") >= 1, "{r}");
    // Known, not failed (docs/HADOOP.md, "What differs"): capsched frees a killed container's
    // room on its node at once, where the RM keeps it until the NM reports it (YARN-4148).
    let over = n("rm_nodes_over_total");
    if over > 0 {
        eprintln!(
            "capsched placed into room the RM still held for killed containers: a scheduler node above its \
             total in {over} samples, e.g. {}",
            r["rm_nodes_over_total_examples"]
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}
