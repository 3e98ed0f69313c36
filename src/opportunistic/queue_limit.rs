//! `QueueLimitCalculator` (spec O5): the NM queue limit the RM sends in every heartbeat
//! response, mean + k·stdev of the least-loaded nodes' metric, clamped.

/// The statistics and the clamp. Both statistics start at 0 and keep their last value when a
/// recomputation sees no node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueueLimitCalculator {
    /// `yarn.resourcemanager.nm-container-queuing.queue-limit-stdev` (a Java `float`).
    pub k_sigma: f32,
    pub min: i32,
    pub max: i32,
    mean: i32,
    stdev: i32,
}

impl QueueLimitCalculator {
    pub fn new(k_sigma: f32, min: i32, max: i32) -> Self {
        QueueLimitCalculator {
            k_sigma,
            min,
            max,
            mean: 0,
            stdev: 0,
        }
    }

    /// Recomputes over the metrics of the sorted, non-full nodes, exactly as YARN does: an
    /// integer mean, the squared deviations summed as an integer, `sqrt` of a 32-bit float
    /// division, rounded half up.
    pub fn update(&mut self, metrics: &[i32]) {
        if metrics.is_empty() {
            return;
        }
        let n = metrics.len() as i64;
        let mean = metrics.iter().map(|&m| m as i64).sum::<i64>() / n;
        let squares: i64 = metrics
            .iter()
            .map(|&m| {
                let d = m as i64 - mean;
                d * d
            })
            .sum();
        let variance = squares as f32 / n as f32;
        self.mean = mean as i32;
        self.stdev = java_round((variance as f64).sqrt()) as i32;
    }

    pub fn mean(&self) -> i32 {
        self.mean
    }

    pub fn stdev(&self) -> i32 {
        self.stdev
    }

    /// `min(max, max(min, (int)(mean + k·stdev)))`: float arithmetic, truncated toward zero.
    pub fn limit(&self) -> i32 {
        let raw = (self.mean as f32 + self.k_sigma * self.stdev as f32) as i32;
        self.max.min(self.min.max(raw))
    }
}

/// Java's `Math.round(double)`: half up (toward positive infinity).
fn java_round(x: f64) -> i64 {
    (x + 0.5).floor() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_division_before_the_square_root() {
        // S = 5 over N = 2: 2.5 → sqrt 1.58 → 2 (integer division would give 1).
        let mut q = QueueLimitCalculator::new(1.0, 0, 100);
        q.update(&[1, 4]);
        assert_eq!((q.mean(), q.stdev()), (2, 2));
        assert_eq!(q.limit(), 4);
    }

    #[test]
    fn clamped_and_kept_when_nothing_is_seen() {
        let mut q = QueueLimitCalculator::new(0.0, 6, 100);
        assert_eq!(q.limit(), 6, "before any computation");
        q.update(&[15, 5, 10]);
        assert_eq!(q.limit(), 10);
        q.update(&[]);
        assert_eq!(q.limit(), 10, "an empty list keeps the last values");
        q.update(&[110, 120, 130, 140, 150, 160]);
        assert_eq!(q.limit(), 100);
    }
}
