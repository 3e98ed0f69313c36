//! Why a run stopped without a result.

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("{0}")]
    Input(String),
    #[error("invariant violated at {time_ms} ms after {event}: {violations}")]
    Invariant {
        time_ms: i64,
        event: String,
        violations: String,
    },
    /// Nothing can ever happen again and jobs remain: which, and what they wait for.
    #[error("{0}")]
    Stalled(String),
    /// The observer failed to take a sample (writing the outputs).
    #[error("writing the outputs: {0}")]
    Output(#[from] std::io::Error),
}
