//! What the simulator accepts. Its memory grows with nodes, jobs and task entries and its time
//! with events (heartbeats, containers), never with simulated time alone (idle stretches are
//! skipped). Inputs beyond these limits are refused before anything is built — by the trace
//! readers while they read, and by the engine on a hand-built input — with a message that
//! names what, how much and the limit (docs/SIMULATOR.md, docs/RELIABILITY.md).

/// NodeManagers. Each heartbeats every interval, so a run's cost grows with nodes × simulated
/// busy time; 10^5 nodes run a job to completion in seconds (docs/PERFORMANCE.md).
pub const MAX_NODES: usize = 100_000;

/// Jobs (ApplicationMasters), after SLS's `job.count` copies.
pub const MAX_JOBS: usize = 1_000_000;

/// Task containers over the whole trace, after SLS's task `count`s and `job.count` copies.
pub const MAX_TASKS: u64 = 10_000_000;

/// Times: job starts, task durations and request delays, in ms (10^15 ms is about 31,700
/// years; larger values are typos or overflow bait, and every sum of two stays far from
/// `i64::MAX`).
pub const MAX_TIME_MS: i64 = 1_000_000_000_000_000;

/// The number of tracking samples kept in memory for charts: beyond it the kept series is
/// thinned (every other sample dropped, the kept interval doubled). The summary's averages
/// are integrated over every sample, and a sample sink sees every sample.
pub const MAX_KEPT_SAMPLES: usize = 65_536;

/// "N jobs is more than the simulator's limit of M" in one wording everywhere.
pub fn too_many(what: &str, n: impl std::fmt::Display, limit: impl std::fmt::Display) -> String {
    format!("{n} {what} is more than the simulator's limit of {limit} {what} (docs/SIMULATOR.md)")
}

/// A time beyond [`MAX_TIME_MS`], named.
pub fn check_time(what: &str, ms: i64) -> Result<(), String> {
    if ms > MAX_TIME_MS {
        Err(format!(
            "{what} {ms} ms is beyond the simulator's limit of {MAX_TIME_MS} ms (about 31,700 years)"
        ))
    } else {
        Ok(())
    }
}

/// A running count of jobs and task containers, for readers that expand `count`s.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    pub jobs: usize,
    pub tasks: u64,
}

impl Tally {
    /// Adds `copies` jobs of `tasks_each` task containers, or says which limit that breaks.
    pub fn add(&mut self, copies: u64, tasks_each: u64) -> Result<(), String> {
        let jobs = (self.jobs as u64).saturating_add(copies);
        if jobs > MAX_JOBS as u64 {
            return Err(too_many("jobs", jobs, MAX_JOBS));
        }
        let tasks = self.tasks.saturating_add(copies.saturating_mul(tasks_each));
        if tasks > MAX_TASKS {
            return Err(too_many("task containers", tasks, MAX_TASKS));
        }
        self.jobs = jobs as usize;
        self.tasks = tasks;
        Ok(())
    }

    /// Adds `tasks` task containers to a job already counted (a reader that samples a job's
    /// task classes one by one), or says that it breaks the task limit. `add(0, n)` would add
    /// nothing: no copies of n tasks.
    pub fn add_tasks(&mut self, tasks: u64) -> Result<(), String> {
        let total = self.tasks.saturating_add(tasks);
        if total > MAX_TASKS {
            return Err(too_many("task containers", total, MAX_TASKS));
        }
        self.tasks = total;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_added_to_a_counted_job_count_against_the_task_limit() {
        let mut t = Tally::default();
        t.add(1, 0).unwrap();
        t.add_tasks(MAX_TASKS - 1).unwrap();
        let e = t.add_tasks(2).unwrap_err();
        assert!(e.contains("limit of 10000000 task containers"), "{e}");
        assert_eq!((t.jobs, t.tasks), (1, MAX_TASKS - 1));
        t.add_tasks(1).unwrap();
        assert!(t.add_tasks(u64::MAX).is_err());
    }

    #[test]
    fn tally_refuses_past_either_limit_and_keeps_its_count() {
        let mut t = Tally::default();
        t.add(2, 5).unwrap();
        assert_eq!((t.jobs, t.tasks), (2, 10));
        let e = t.add(1_000_000_000, 1).unwrap_err();
        assert!(
            e.contains("1000000002 jobs") && e.contains("limit of 1000000 jobs"),
            "{e}"
        );
        let e = t.add(1, u64::MAX).unwrap_err();
        assert!(e.contains("task containers"), "{e}");
        assert_eq!((t.jobs, t.tasks), (2, 10), "a refused add changes nothing");
        assert!(check_time("job.start.ms", MAX_TIME_MS).is_ok());
        assert!(check_time("job.start.ms", i64::MAX).is_err());
    }
}
