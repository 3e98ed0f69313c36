//! Where the runtime's time comes from. The core never reads a clock; the engine reads one of
//! these and passes `now_ms` in.

use crate::sync::{AtomicI64, Ordering};

pub trait Clock: Send + Sync + 'static {
    /// Milliseconds, monotonic for the engine's purposes.
    fn now_ms(&self) -> i64;
}

/// Wall-clock milliseconds since the Unix epoch at start, advanced by a monotonic timer (so
/// a system clock step never makes scheduler time go backwards).
#[derive(Debug)]
pub struct SystemClock {
    origin: std::time::Instant,
    base_ms: i64,
}

impl SystemClock {
    pub fn new() -> Self {
        let base_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        SystemClock {
            origin: std::time::Instant::now(),
            base_ms,
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        self.base_ms + self.origin.elapsed().as_millis() as i64
    }
}

/// A clock the host (or a test) sets: time moves only when told.
#[derive(Debug, Default)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(start_ms: i64) -> Self {
        ManualClock(AtomicI64::new(start_ms))
    }

    pub fn set(&self, now_ms: i64) {
        self.0.store(now_ms, Ordering::SeqCst);
    }

    /// Moves the clock to `now_ms` unless that is in its past; `Err(current)` then. Atomic:
    /// concurrent callers can never leave the clock behind one that succeeded.
    pub fn advance_to(&self, now_ms: i64) -> Result<(), i64> {
        let mut current = self.0.load(Ordering::SeqCst);
        loop {
            if now_ms < current {
                return Err(current);
            }
            match self
                .0
                .compare_exchange(current, now_ms, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => return Ok(()),
                Err(seen) => current = seen,
            }
        }
    }

    pub fn advance(&self, ms: i64) -> i64 {
        self.0.fetch_add(ms, Ordering::SeqCst) + ms
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}
