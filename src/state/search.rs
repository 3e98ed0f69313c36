//! The galloping search the user limit's kept thresholds are found with (`users`' steady
//! limit and `capped_limit`'s cap counts): the last point a monotone predicate holds, from an
//! estimate, in a few calls when the estimate is good.

/// The largest `x` in `bounds` with `fits(x)`, for a `fits` that holds up to some point of
/// `bounds` and not after it (`None` if it holds nowhere), searched from `estimate`: doubling
/// steps away from it, then halving, so a good estimate costs a few calls.
pub(crate) fn last_fitting(
    estimate: i64,
    bounds: (i64, i64),
    fits: impl Fn(i64) -> bool,
) -> Option<i64> {
    let (min, max) = (bounds.0 as i128, bounds.1 as i128);
    let estimate = (estimate as i128).clamp(min, max);
    // `fits(lo)` (or lo = min − 1) and not `fits(hi)` (or hi = max + 1).
    let (mut lo, mut hi);
    let mut step = 1i128;
    if fits(estimate as i64) {
        lo = estimate;
        loop {
            let probe = lo + step;
            if probe > max {
                hi = max + 1;
                break;
            }
            if fits(probe as i64) {
                lo = probe;
                step *= 2;
            } else {
                hi = probe;
                break;
            }
        }
    } else {
        hi = estimate;
        loop {
            let probe = hi - step;
            if probe < min {
                lo = min - 1;
                break;
            }
            if fits(probe as i64) {
                lo = probe;
                break;
            }
            hi = probe;
            step *= 2;
        }
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid as i64) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo >= min).then_some(lo as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*, seeded: the cases are the same on every run.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    /// `last_fitting` finds the last point of every prefix-shaped predicate from any estimate.
    #[test]
    fn last_fitting_finds_the_boundary() {
        let mut rng = Rng(42);
        for _ in 0..20_000 {
            let bound = match rng.next() % 4 {
                0 => i64::MIN,
                1 => i64::MAX,
                2 => 0,
                _ => rng.next() as i64,
            };
            let bounds = match rng.next() % 3 {
                0 => (i64::MIN, i64::MAX),
                1 => (0, 1 << 30),
                _ => (-100, 100),
            };
            let estimate = match rng.next() % 3 {
                0 => bound,
                1 => bound.wrapping_add((rng.next() % 7) as i64 - 3),
                _ => rng.next() as i64,
            };
            let expected = if bound < bounds.0 {
                None
            } else {
                Some(bound.min(bounds.1))
            };
            assert_eq!(last_fitting(estimate, bounds, |x| x <= bound), expected);
        }
    }
}
