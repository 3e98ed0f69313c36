//! What a host watches while a simulation runs: every tracking sample as it is taken (so the
//! full series can be streamed to disk while memory keeps a bounded one), and progress.

use std::io;

use super::metrics::{LeafInfo, Sample};

/// How far a run has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Simulated time reached, ms.
    pub sim_ms: i64,
    /// Jobs finished, rejected or failed, of all.
    pub jobs_done: usize,
    pub jobs: usize,
    /// Task containers completed successfully, of all.
    pub tasks_done: u64,
    pub tasks: u64,
}

/// Called by the simulation loop on its own thread. Every method has a do-nothing default.
pub trait SimObserver {
    /// Before the first sample: the leaves each sample's `queues` describes, in order.
    fn start(&mut self, _leaves: &[LeafInfo]) -> io::Result<()> {
        Ok(())
    }

    /// Every sample, in time order, including those the run does not keep in memory. An
    /// error stops the run ([`SimError::Output`](super::SimError::Output)).
    fn sample(&mut self, _sample: &Sample) -> io::Result<()> {
        Ok(())
    }

    /// Every few thousand events; cheap to ignore.
    fn progress(&mut self, _progress: &Progress) {}

    /// The RM REST scheduler document (pretty JSON) at one of the run's `rest_at` times, as
    /// the simulated RM would answer then: the state after every event before `time_ms`.
    fn rest_document(&mut self, _time_ms: i64, _json: &str) -> io::Result<()> {
        Ok(())
    }
}

/// Watches nothing.
pub struct NoObserver;

impl SimObserver for NoObserver {}
