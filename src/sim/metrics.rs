//! What the simulator records: one sample per tracking interval (SLS's `realtimetrack.json`
//! keys), per-job times (`jobruntime.csv`), and the summary computed from them.

use serde::Serialize;

/// One tracking sample.
#[derive(Debug, Clone, Serialize)]
pub struct Sample {
    pub time_ms: i64,
    pub running_applications: u64,
    pub running_containers: u64,
    pub allocated_memory: i64,
    pub allocated_vcores: i64,
    pub available_memory: i64,
    pub available_vcores: i64,
    pub pending_containers: u64,
    /// What the NodeManagers are really running (guaranteed and opportunistic), and the
    /// containers waiting in their queues.
    pub nm_used_memory: i64,
    pub nm_used_vcores: i64,
    pub queued_containers: u64,
    /// Opportunistic containers the RM tracks (queued or running).
    pub opportunistic_containers: u64,
    /// Task containers completed successfully so far.
    pub tasks_completed: u64,
    /// Per leaf (in queue order): allocated memory, allocated vcores, pending containers.
    pub queues: Vec<QueueSample>,
    /// Wall-clock cost of scheduler calls during the interval (ms per call), as SLS reports.
    pub node_update_ms: f64,
    pub allocate_ms: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct QueueSample {
    pub allocated_memory: i64,
    pub allocated_vcores: i64,
    pub pending_memory: i64,
    pub pending_containers: u64,
}

/// One job's times (simulated and, from the trace, "real").
#[derive(Debug, Clone, Serialize)]
pub struct JobRecord {
    pub id: String,
    pub queue: String,
    pub user: String,
    pub trace_start_ms: i64,
    pub trace_end_ms: Option<i64>,
    pub submit_ms: i64,
    pub am_start_ms: Option<i64>,
    pub first_task_ms: Option<i64>,
    pub finish_ms: Option<i64>,
    pub tasks: usize,
    pub rejected: Option<String>,
    pub preempted: u64,
}

impl JobRecord {
    /// Submission to first task container (or AM start for task-less jobs).
    pub fn wait_ms(&self) -> Option<i64> {
        self.first_task_ms
            .or(self.am_start_ms)
            .map(|t| t - self.submit_ms)
    }

    pub fn run_ms(&self) -> Option<i64> {
        self.finish_ms.map(|f| f - self.submit_ms)
    }
}

/// Nearest-rank percentile of sorted values.
pub fn percentile(sorted: &[i64], p: f64) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Time-weighted mean of a series sampled at `times` (each value holds until the next sample).
pub fn time_average(times: &[i64], values: &[f64], end_ms: i64) -> f64 {
    let mut area = 0.0;
    let mut span = 0.0;
    for i in 0..times.len() {
        let until = times.get(i + 1).copied().unwrap_or(end_ms).min(end_ms);
        let dt = (until - times[i]).max(0) as f64;
        area += values[i] * dt;
        span += dt;
    }
    if span > 0.0 {
        area / span
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_and_time_averages() {
        let v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(percentile(&v, 50.0), 5);
        assert_eq!(percentile(&v, 90.0), 9);
        assert_eq!(percentile(&v, 100.0), 10);
        assert_eq!(percentile(&[], 50.0), 0);
        // 0.0 for 1 s, then 1.0 for 3 s: mean 0.75.
        assert_eq!(time_average(&[0, 1000], &[0.0, 1.0], 4000), 0.75);
    }
}
