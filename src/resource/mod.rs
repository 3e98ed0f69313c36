//! YARN's `Resource` (a small fixed vector: memory MB, vcores, room for extra countable types),
//! the two resource calculators, and the parsing of CapacityScheduler's absolute resource strings
//! (spec §0.1, §1.2, §1.7).
//!
//! Everything here copies Hadoop's *arithmetic*, not just its intent: `long` arithmetic wraps
//! (Java never traps on overflow), `(long) double` truncates toward zero and saturates, and the
//! places where YARN works in `float` rather than `double` are kept in `f32`. The reference is
//! Apache Hadoop trunk (`hadoop-yarn-common/.../util/resource/{Resources,ResourceCalculator,
//! DefaultResourceCalculator,DominantResourceCalculator}.java`); version differences are noted
//! where a method's behaviour changed between releases.
//!
//! The folder is the crate's base: it may use only `echo` (how a refused value is quoted), and
//! everything else may use it. Inside it, this file is `Resource` itself, at the bottom (it
//! uses nothing of the crate); `limit.rs` (how large a kept total may be) and `types.rs` (the
//! configured types, absolute strings) build on it, and `calculator.rs` on both.

mod calculator;
mod limit;
mod types;

pub(crate) use calculator::{divide_or_zero, divide_or_zero_inlined};
pub use calculator::{CalculatorKind, ResourceCalculator};
pub use limit::{over_limit, MAX_TOTAL};
pub use types::{looks_absolute, AbsoluteResource, NamedResource, ResourceTypes};

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

/// Index of memory (MB) in a [`Resource`].
pub const MEMORY: usize = 0;
/// Index of vcores in a [`Resource`].
pub const VCORES: usize = 1;
/// Slots in a [`Resource`]: memory, vcores and two extra countable types (e.g. `yarn.io/gpu`).
pub const MAX_RESOURCE_TYPES: usize = 4;

/// A resource vector, YARN's `org.apache.hadoop.yarn.api.records.Resource`.
///
/// Fixed-size and `Copy` so that the scheduler's hot paths never allocate. Every slot is an
/// `i64` — since Hadoop 3 YARN stores vcores as a `long` too (`LightWeightResource`) and only
/// clamps to `int` when someone calls `getVirtualCores()`; [`fmt::Display`] reproduces that clamp.
/// Slots at or beyond the configured type count are kept at 0 by everything in this module, so
/// whole-vector equality and hashing stay meaningful.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Resource {
    v: [i64; MAX_RESOURCE_TYPES],
}

/// Java's `castToIntSafely` (used by `Resource.getVirtualCores()`): clamps above `int` range but
/// wraps below it (`Long.intValue()`), exactly as YARN does.
#[inline]
pub(crate) fn java_int_safely(v: i64) -> i64 {
    if v > i32::MAX as i64 {
        i32::MAX as i64
    } else {
        v as i32 as i64
    }
}

impl Resource {
    /// `Resources.none()`.
    pub const ZERO: Resource = Resource {
        v: [0; MAX_RESOURCE_TYPES],
    };

    /// `Resource.newInstance(memory, vcores)`; extra types 0.
    pub const fn new(memory_mb: i64, vcores: i64) -> Resource {
        Resource {
            v: [memory_mb, vcores, 0, 0],
        }
    }

    /// Builds a resource from its first `values.len()` slots (memory, vcores, extras…); the rest
    /// are 0. Panics if more than [`MAX_RESOURCE_TYPES`] values are given — that is a programming
    /// error, since [`ResourceTypes`] never admits more types.
    pub fn from_values(values: &[i64]) -> Resource {
        assert!(
            values.len() <= MAX_RESOURCE_TYPES,
            "Resource::from_values: {} values but at most {MAX_RESOURCE_TYPES} resource types are supported",
            values.len()
        );
        let mut r = Resource::ZERO;
        r.v[..values.len()].copy_from_slice(values);
        r
    }

    #[inline]
    pub fn memory_mb(&self) -> i64 {
        self.v[MEMORY]
    }

    #[inline]
    pub fn vcores(&self) -> i64 {
        self.v[VCORES]
    }

    /// Value of slot `i` (panics if `i >= MAX_RESOURCE_TYPES`).
    #[inline]
    pub fn get(&self, i: usize) -> i64 {
        self.v[i]
    }

    /// Sets slot `i` (panics if `i >= MAX_RESOURCE_TYPES`).
    #[inline]
    pub fn set(&mut self, i: usize, value: i64) {
        self.v[i] = value;
    }

    #[inline]
    pub fn values(&self) -> &[i64; MAX_RESOURCE_TYPES] {
        &self.v
    }

    /// All slots 0 (`Resources.isNone`).
    // Slot by slot: an array comparison reads the value in 16-byte halves, and a value just
    // written in other pieces (a callee's answer, the allocation path's) cannot be forwarded
    // from the stores to such a read, which then waits for them to reach the cache.
    #[inline]
    pub fn is_zero(&self) -> bool {
        let v = &self.v;
        (v[0] | v[1] | v[2] | v[3]) == 0
    }

    /// Any slot below 0 (usage bookkeeping gone wrong, or a deliberately negative delta).
    #[inline]
    pub fn any_negative(&self) -> bool {
        self.v.iter().any(|&x| x < 0)
    }

    /// Any slot above 0 (a delta that adds something).
    #[inline]
    pub fn any_positive(&self) -> bool {
        self.v.iter().any(|&x| x > 0)
    }

    /// Every slot clamped at 0 from below (`Resources.componentwiseMax(r, none())`).
    ///
    /// Not the same as YARN's `subtractFromNonNegative`, which clamps only memory and vcores:
    /// use [`Resource::sub_non_negative`] for that.
    #[inline]
    pub fn non_negative(&self) -> Resource {
        let mut r = *self;
        for x in &mut r.v {
            *x = (*x).max(0);
        }
        r
    }

    /// `Resources.subtractNonNegative(self, rhs)`: subtract, then reset a negative memory or
    /// vcores to 0. YARN leaves negative *extra* types alone, and tests vcores through
    /// `getVirtualCores()` (an `int` view), so we do the same.
    #[inline]
    pub fn sub_non_negative(&self, rhs: &Resource) -> Resource {
        let mut r = *self - *rhs;
        if r.v[MEMORY] < 0 {
            r.v[MEMORY] = 0;
        }
        if java_int_safely(r.v[VCORES]) < 0 {
            r.v[VCORES] = 0;
        }
        r
    }

    /// `Resources.componentwiseMin`. By value (the type is `Copy`), so both
    /// `Resource::component_min(a, b)` and `a.component_min(b)` read naturally.
    #[inline]
    pub fn component_min(self, other: Resource) -> Resource {
        let mut r = self;
        for (x, &o) in r.v.iter_mut().zip(other.v.iter()) {
            *x = (*x).min(o);
        }
        r
    }

    /// `Resources.componentwiseMax`.
    #[inline]
    pub fn component_max(self, other: Resource) -> Resource {
        let mut r = self;
        for (x, &o) in r.v.iter_mut().zip(other.v.iter()) {
            *x = (*x).max(o);
        }
        r
    }

    /// `Resources.fitsIn(smaller, bigger)` — every component ≤, whatever the calculator.
    /// (The calculator's own `fitsIn`, memory-only under the default calculator, is
    /// [`ResourceCalculator::fits_in`].)
    #[inline]
    pub fn fits_in(&self, bigger: &Resource) -> bool {
        self.v.iter().zip(bigger.v.iter()).all(|(s, b)| s <= b)
    }

    /// `Resources.multiply(r, by)`: each component `(long) (v * by)` — the product is a `double`
    /// and the cast truncates toward zero (saturating, NaN → 0, as Java's `d2l`).
    #[inline]
    /// `self × count` per component (a request's total: capability × number of containers).
    pub fn multiply_count(&self, count: i32) -> Resource {
        let mut r = *self;
        for v in r.v.iter_mut() {
            *v = v.wrapping_mul(count as i64);
        }
        r
    }

    pub fn multiply(&self, by: f64) -> Resource {
        let mut r = *self;
        for x in &mut r.v {
            *x = (*x as f64 * by) as i64;
        }
        r
    }

    /// `Resources.multiplyAndRoundDown(r, by)`: identical arithmetic to [`Resource::multiply`]
    /// (YARN keeps both names; callers use them interchangeably).
    #[inline]
    pub fn multiply_and_round_down(&self, by: f64) -> Resource {
        self.multiply(by)
    }

    /// `Resources.multiplyAndRoundUp(r, by)`: each component `(long) Math.ceil(v * by)`.
    #[inline]
    pub fn multiply_and_round_up(&self, by: f64) -> Resource {
        let mut r = *self;
        for x in &mut r.v {
            *x = ceil_as_i64(*x as f64 * by);
        }
        r
    }
}

/// `(long) Math.ceil(x)`: `x.ceil() as i64`, bit for bit (NaN gives 0, the rest saturates),
/// without the library call `ceil` is on x86-64 without SSE4.1 (the user limit makes four per
/// allocated container). Below 2^63 in magnitude the truncation is exact, and a value past
/// 2^53 is already an integer, so `t < x` is exactly "x had a fraction above t".
#[inline]
pub(crate) fn ceil_as_i64(x: f64) -> i64 {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if x.is_nan() {
        0
    } else if x >= TWO_63 {
        i64::MAX
    } else if x <= -TWO_63 {
        i64::MIN
    } else {
        let t = x as i64;
        if (t as f64) < x {
            t + 1
        } else {
            t
        }
    }
}

// Componentwise arithmetic. Java's `long` arithmetic wraps on overflow (e.g. subtracting from
// `Resources.unbounded()`), and a panic in the scheduler would be worse than YARN's behaviour, so
// the operators wrap too.
impl Add for Resource {
    type Output = Resource;
    #[inline]
    fn add(mut self, rhs: Resource) -> Resource {
        self += rhs;
        self
    }
}

impl Sub for Resource {
    type Output = Resource;
    #[inline]
    fn sub(mut self, rhs: Resource) -> Resource {
        self -= rhs;
        self
    }
}

impl AddAssign for Resource {
    #[inline]
    fn add_assign(&mut self, rhs: Resource) {
        for (x, &o) in self.v.iter_mut().zip(rhs.v.iter()) {
            *x = x.wrapping_add(o);
        }
    }
}

impl SubAssign for Resource {
    #[inline]
    fn sub_assign(&mut self, rhs: Resource) {
        for (x, &o) in self.v.iter_mut().zip(rhs.v.iter()) {
            *x = x.wrapping_sub(o);
        }
    }
}

impl Neg for Resource {
    type Output = Resource;
    /// `Resources.negate` (= `none() - r`).
    #[inline]
    fn neg(self) -> Resource {
        Resource::ZERO - self
    }
}

impl Sum for Resource {
    fn sum<I: Iterator<Item = Resource>>(iter: I) -> Resource {
        iter.fold(Resource::ZERO, |a, b| a + b)
    }
}

impl<'a> Sum<&'a Resource> for Resource {
    fn sum<I: Iterator<Item = &'a Resource>>(iter: I) -> Resource {
        iter.fold(Resource::ZERO, |a, b| a + *b)
    }
}

/// Writes YARN's `Resource.toString()`: `<memory:M, vCores:V` then `, name: value` for every
/// *non-zero* extra type, then `>`. `names(i)` supplies the extra types' names.
pub(crate) fn write_yarn_resource(
    f: &mut fmt::Formatter<'_>,
    r: &Resource,
    mut name: impl FnMut(usize) -> Option<String>,
) -> fmt::Result {
    // vCores goes through getVirtualCores(), i.e. the int clamp.
    write!(
        f,
        "<memory:{}, vCores:{}",
        r.v[MEMORY],
        java_int_safely(r.v[VCORES])
    )?;
    for i in 2..MAX_RESOURCE_TYPES {
        if r.v[i] == 0 {
            continue;
        }
        // YARN appends the type's units after the value; we only model unit-less extra types.
        match name(i) {
            Some(n) => write!(f, ", {n}: {}", r.v[i])?,
            None => write!(f, ", res{i}: {}", r.v[i])?,
        }
    }
    f.write_str(">")
}

/// YARN's `Resource.toString()`, e.g. `<memory:1024, vCores:1>`.
///
/// A bare `Resource` does not know its extra types' names, so non-zero extra slots print with a
/// generic name, `, res2: 2`; use [`ResourceTypes::display`] to get YARN's real text
/// (`, yarn.io/gpu: 2`).
impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_yarn_resource(f, self, |_| None)
    }
}

/// Same text as `Display`: log lines and test failures then read like YARN's.
impl fmt::Debug for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceil_as_i64_is_ceil_then_cast() {
        let mut cases = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            1.000_000_1,
            -1.000_000_1,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            4_503_599_627_370_495.5,
            -4_503_599_627_370_495.5,
            9_007_199_254_740_993.0,
            9_223_372_036_854_774_784.0,
            9_223_372_036_854_775_808.0,
            -9_223_372_036_854_775_808.0,
            -9_223_372_036_854_777_856.0,
            1e300,
            -1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MAX,
            f64::MIN,
        ];
        // And a spread of values around the integers, the f32 grid and the large ones.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x);
            cases.push(v);
            cases.push((x % 1_000_000) as f64 / 7.0 - 70_000.0);
            cases.push(((x % 100_000) as f32 / 3.0) as f64);
        }
        for v in cases {
            assert_eq!(ceil_as_i64(v), v.ceil() as i64, "{v:e}");
        }
    }

    #[test]
    fn constructors_and_accessors() {
        let r = Resource::new(1024, 2);
        assert_eq!(r.memory_mb(), 1024);
        assert_eq!(r.vcores(), 2);
        assert_eq!(r.get(2), 0);
        assert_eq!(Resource::from_values(&[1, 2, 3]), {
            let mut x = Resource::new(1, 2);
            x.set(2, 3);
            x
        });
        assert_eq!(Resource::from_values(&[]), Resource::ZERO);
        assert_eq!(Resource::from_values(&[5, 6, 7, 8]).values(), &[5, 6, 7, 8]);
        assert!(Resource::ZERO.is_zero());
        assert!(!Resource::new(0, 1).is_zero());
        assert_eq!(Resource::default(), Resource::ZERO);
    }

    #[test]
    #[should_panic(expected = "at most 4 resource types")]
    fn from_values_too_long_panics() {
        let _ = Resource::from_values(&[1, 2, 3, 4, 5]);
    }

    #[test]
    fn arithmetic_is_componentwise_and_wraps_like_java() {
        let a = Resource::from_values(&[1024, 2, 3]);
        let b = Resource::from_values(&[512, 5, 1]);
        assert_eq!(a + b, Resource::from_values(&[1536, 7, 4]));
        assert_eq!(a - b, Resource::from_values(&[512, -3, 2]));
        assert_eq!(-a, Resource::from_values(&[-1024, -2, -3]));
        let mut c = a;
        c += b;
        c -= b;
        assert_eq!(c, a);
        assert_eq!([a, b].iter().sum::<Resource>(), a + b);
        assert_eq!(vec![a, b].into_iter().sum::<Resource>(), a + b);
        // Java long overflow wraps (e.g. arithmetic on Resources.unbounded()).
        let big = Resource::new(i64::MAX, 0);
        assert_eq!((big + Resource::new(1, 0)).memory_mb(), i64::MIN);
    }

    #[test]
    fn negative_checks_and_clamps() {
        let r = Resource::from_values(&[-5, 3, -1]);
        assert!(r.any_negative());
        assert!(!Resource::new(0, 0).any_negative());
        assert_eq!(r.non_negative(), Resource::from_values(&[0, 3, 0]));
        // subtractNonNegative clamps memory and vcores only.
        let s =
            Resource::from_values(&[1, 1, 1]).sub_non_negative(&Resource::from_values(&[2, 2, 2]));
        assert_eq!(s, Resource::from_values(&[0, 0, -1]));
    }

    #[test]
    fn component_min_max() {
        let a = Resource::new(1024, 8);
        let b = Resource::new(2048, 2);
        assert_eq!(a.component_min(b), Resource::new(1024, 2));
        assert_eq!(Resource::component_max(a, b), Resource::new(2048, 8));
    }

    #[test]
    fn fits_in_is_every_component() {
        // Resources.fitsIn, e.g. TestResources#testFitsIn.
        assert!(Resource::new(1, 1).fits_in(&Resource::new(1, 1)));
        assert!(Resource::new(1, 1).fits_in(&Resource::new(2, 1)));
        assert!(!Resource::new(2, 1).fits_in(&Resource::new(1, 2)));
        assert!(!Resource::from_values(&[1, 1, 2]).fits_in(&Resource::from_values(&[1, 1, 1])));
    }

    #[test]
    fn multiply_truncates_toward_zero() {
        let r = Resource::new(1023, 3);
        assert_eq!(r.multiply(0.5), Resource::new(511, 1));
        assert_eq!(
            Resource::new(-1023, -3).multiply(0.5),
            Resource::new(-511, -1)
        );
        assert_eq!(r.multiply_and_round_down(0.5), Resource::new(511, 1));
        assert_eq!(r.multiply_and_round_up(0.5), Resource::new(512, 2));
        // The spec's f32 edge value, through a double product: 16384 * 0.085f.
        assert_eq!(
            Resource::new(16384, 0)
                .multiply(0.085f32 as f64)
                .memory_mb(),
            1392
        );
        // (long) NaN == 0, (long) +inf == Long.MAX_VALUE.
        assert_eq!(r.multiply(f64::NAN), Resource::ZERO);
        assert_eq!(
            Resource::new(1, 0).multiply(f64::INFINITY).memory_mb(),
            i64::MAX
        );
    }

    #[test]
    fn display_matches_yarn_to_string() {
        assert_eq!(
            Resource::new(1024, 1).to_string(),
            "<memory:1024, vCores:1>"
        );
        assert_eq!(
            format!("{:?}", Resource::new(8192, 1)),
            "<memory:8192, vCores:1>"
        );
        assert_eq!(
            Resource::from_values(&[1024, 1, 2]).to_string(),
            "<memory:1024, vCores:1, res2: 2>"
        );
        // Zero extras are skipped; vCores goes through the int clamp as getVirtualCores() does.
        assert_eq!(
            Resource::from_values(&[1, 2, 0, 3]).to_string(),
            "<memory:1, vCores:2, res3: 3>"
        );
        assert_eq!(
            Resource::new(i64::MAX, i64::MAX).to_string(),
            "<memory:9223372036854775807, vCores:2147483647>"
        );
    }
}
