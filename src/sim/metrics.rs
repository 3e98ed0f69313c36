//! What the simulator records: one sample per tracking interval (SLS's `realtimetrack.json`
//! keys), per-job times (`jobruntime.csv`), and the summary computed from them.

use serde::Serialize;

/// A leaf queue as reported: path and its guaranteed and maximum shares of the cluster.
#[derive(Debug, Clone)]
pub struct LeafInfo {
    pub path: String,
    pub guaranteed_share: f64,
    pub max_share: f64,
}

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
    /// This leaf's containers the preemption monitor killed since the previous sample.
    pub killed: u64,
}

/// A stretch when a leaf had pending demand while using less than its guarantee, and how it
/// ended: it reached its guarantee, its demand was met, or the run ended first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Starvation {
    pub from_ms: i64,
    pub to_ms: i64,
    pub reached: Reached,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reached {
    Guarantee,
    Demand,
    EndOfRun,
}

/// What preemption did for and to one leaf over a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueuePreemption {
    pub stats: crate::state::leaf::PreemptionStats,
    pub starved: Vec<Starvation>,
}

/// One job's times (simulated and, from the trace, "real").
#[derive(Debug, Clone, Serialize)]
pub struct JobRecord {
    pub id: String,
    /// The queue the trace names.
    pub queue: String,
    /// The leaf it ran in (full path), after the queue mappings; none if it was rejected.
    pub leaf: Option<String>,
    pub user: String,
    pub trace_start_ms: i64,
    pub trace_end_ms: Option<i64>,
    pub submit_ms: i64,
    pub am_start_ms: Option<i64>,
    pub first_task_ms: Option<i64>,
    pub finish_ms: Option<i64>,
    /// Task containers of the job (its trace entries' counts).
    pub tasks: u64,
    /// Refused at submission (unknown queue, ACL, limits, an AM larger than any container
    /// may be), with YARN's message.
    pub rejected: Option<String>,
    /// Submitted, then failed (a task larger than any container may be), with YARN's message.
    pub failed: Option<String>,
    /// Killed by the ResourceManager when its lifetime ended, with YARN's message.
    pub killed: Option<String>,
    pub preempted: u64,
    /// Opportunistic containers its tasks ran in (0: the job ran on guaranteed ones only).
    pub opportunistic_containers: u64,
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

/// The time integrals of the series the summary averages, fed every sample in order (each
/// value holds until the next sample, as [`time_average`] reads a series), so that averages
/// and peaks stay exact however few samples are kept in memory.
#[derive(Debug, Clone, Default)]
pub struct SeriesStats {
    first_ms: Option<i64>,
    last_ms: i64,
    last: Vec<f64>,
    area: Vec<f64>,
    pub peak: Vec<f64>,
    /// The integrals up to the last job finish (the summary's end), and when that was.
    at_finish: Option<(i64, Vec<f64>)>,
}

impl SeriesStats {
    /// One sample: `values` at `time_ms` (not before the previous sample).
    pub fn add(&mut self, time_ms: i64, values: &[f64]) {
        if self.first_ms.is_none() {
            self.first_ms = Some(time_ms);
            self.area = vec![0.0; values.len()];
            self.peak = vec![f64::MIN; values.len()];
        } else {
            self.area = self.area_at(time_ms);
        }
        for (p, v) in self.peak.iter_mut().zip(values) {
            *p = p.max(*v);
        }
        self.last_ms = time_ms;
        self.last = values.to_vec();
    }

    /// The integrals from the first sample to `time_ms` (not before the last sample).
    fn area_at(&self, time_ms: i64) -> Vec<f64> {
        let dt = (time_ms - self.last_ms).max(0) as f64;
        self.area
            .iter()
            .zip(&self.last)
            .map(|(a, v)| a + v * dt)
            .collect()
    }

    /// A job finished at `time_ms`: the summary's averages end here if no job finishes later.
    pub fn job_finished(&mut self, time_ms: i64) {
        if self.first_ms.is_some() {
            self.at_finish = Some((time_ms, self.area_at(time_ms)));
        }
    }

    /// Time-weighted means from the first sample to the last job finish (to the last sample
    /// when no job finished), one per series.
    pub fn averages(&self) -> Vec<f64> {
        let Some(first) = self.first_ms else {
            return Vec::new();
        };
        let (end, area) = match &self.at_finish {
            Some((t, a)) => (*t, a.clone()),
            None => (self.last_ms, self.area.clone()),
        };
        let span = (end - first) as f64;
        area.iter()
            .map(|a| if span > 0.0 { a / span } else { 0.0 })
            .collect()
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

    /// The incremental integrals give what `time_average` gives over the whole series, ending
    /// at the last job finish, and the peak over every sample.
    #[test]
    fn series_stats_match_the_time_average_of_every_sample() {
        let times = [0, 1000, 2000, 5000, 9000];
        let values = [0.0, 2.0, 1.0, 4.0, 0.5];
        let mut s = SeriesStats::default();
        for (t, v) in times.iter().zip(values) {
            s.add(*t, &[v]);
            if *t == 5000 {
                s.job_finished(7000);
            }
        }
        assert_eq!(s.averages(), vec![time_average(&times, &values, 7000)]);
        assert_eq!(s.peak, vec![4.0]);
        let mut none = SeriesStats::default();
        none.add(0, &[1.0]);
        none.add(4000, &[3.0]);
        assert_eq!(
            none.averages(),
            vec![1.0],
            "no finish: up to the last sample"
        );
    }
}
