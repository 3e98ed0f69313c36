//! YARN's two resource calculators, `DefaultResourceCalculator` and
//! `DominantResourceCalculator` (spec §0.1, §1.7), as one small `Copy` value so the hot paths
//! pay for a match, not a virtual call.
//!
//! Semantics follow Apache Hadoop trunk (`hadoop-yarn-common/.../util/resource/`); where trunk
//! differs from older releases the doc comment says so. Conventions copied from Java:
//!
//! * `long` arithmetic wraps (`ResourceCalculator.roundUp(Long.MAX_VALUE, 1024)` is negative).
//! * `(long) x` of a floating value truncates toward zero and saturates, NaN → 0 (Rust's `as`).
//! * `ratio`, `divide` and `divideAndCeil(…, float)` are `float` (f32) computations; shares and
//!   products are `double` (f64) — each method below says which.
//! * Integer division by zero throws `ArithmeticException` in Java. The few places YARN can do
//!   that (Default calculator with a zero memory step or zero memory requirement) cannot happen
//!   with a validated configuration (minimum allocation > 0); we return a documented value
//!   instead of panicking.
//!
//! The *default* calculator looks at memory only and builds every result with
//! `Resources.createResource(memory)`, i.e. `vcores = memory > 0 ? 1 : 0`, extra types 0.
//! The *dominant* calculator works per component over the configured countable types; slots at
//! or beyond `types` are ignored (left as they are in copies, which is 0 by invariant).

use std::cmp::Ordering;

use super::{Resource, MAX_RESOURCE_TYPES, MEMORY};

const DEFAULT_CLASS: &str = "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator";
const DOMINANT_CLASS: &str = "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator";

/// Which of YARN's calculators (`yarn.scheduler.capacity.resource-calculator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CalculatorKind {
    Default,
    Dominant,
}

/// A resource calculator bound to the number of configured countable resource types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceCalculator {
    kind: CalculatorKind,
    types: u8,
}

impl Default for ResourceCalculator {
    /// YARN's default: `DefaultResourceCalculator`, memory and vcores.
    fn default() -> Self {
        ResourceCalculator::new(CalculatorKind::Default, 2)
    }
}

/// `Resources.createResource(long memory)`: what every default-calculator result is built from.
#[inline]
fn create_resource(memory: i64) -> Resource {
    Resource::new(memory, if memory > 0 { 1 } else { 0 })
}

/// `ResourceCalculator.divideAndCeil(long a, long b)`: 0 for `b == 0`, else `(a + (b - 1)) / b`
/// in wrapping `long` arithmetic (not a true ceiling for negative `a`, exactly like Java).
#[inline]
fn div_ceil_long(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    a.wrapping_add(b.wrapping_sub(1)).wrapping_div(b)
}

/// `ResourceCalculator.divideAndCeil(long a, float b)`: 0 for `b == 0` (NaN is not 0), else
/// `(long) Math.ceil(a / b)` where `a / b` is a **float** division (`a` rounded to f32 first).
#[inline]
fn div_ceil_float(a: i64, b: f32) -> i64 {
    if b == 0.0 {
        return 0;
    }
    super::ceil_as_i64(((a as f32) / b) as f64)
}

/// `ResourceCalculator.roundUp(long a, long b)` = `divideAndCeil(a, b) * b`; hence 0 when
/// `b == 0` (the default calculator does reach this; the dominant one guards `b != 0` itself).
#[inline]
fn round_up_long(a: i64, b: i64) -> i64 {
    div_ceil_long(a, b).wrapping_mul(b)
}

/// `ResourceCalculator.roundDown(long a, long b)` = `(a / b) * b`. Java throws on `b == 0`;
/// callers here only pass `b != 0` (see the module comment for what they do instead).
#[inline]
fn round_down_long(a: i64, b: i64) -> i64 {
    a.wrapping_div(b).wrapping_mul(b)
}

/// `ResourceCalculator.divideSafelyAsFloat`: `0/0` is 0 (not NaN), otherwise a float division
/// (so `x/0` is ±∞).
#[inline]
fn divide_safely_as_float(lhs: i64, rhs: i64) -> f32 {
    if lhs == 0 && rhs == 0 {
        0.0
    } else {
        lhs as f32 / rhs as f32
    }
}

/// `DominantResourceCalculator.calculateShare` (trunk): `+∞` when the cluster has none of the
/// type (such types are then skipped), else `value / cluster` in double.
#[inline]
fn share(cluster: i64, value: i64) -> f64 {
    if cluster == 0 {
        f64::INFINITY
    } else {
        value as f64 / cluster as f64
    }
}

/// `(int) Math.signum(diff)` as an ordering (NaN → equal, like the Java cast).
#[inline]
fn signum(diff: f64) -> Ordering {
    if diff > 0.0 {
        Ordering::Greater
    } else if diff < 0.0 {
        Ordering::Less
    } else {
        Ordering::Equal
    }
}

/// Runs `f` for each of the first `n` resource types: unrolled for the usual two (memory and
/// vcores), so the dominant calculator's per-type loops, inlined where the allocation path
/// calls them, cost no loop (the order of the types, and so every result, is the loop's).
#[inline(always)]
fn each_type(n: usize, mut f: impl FnMut(usize)) {
    if n == 2 {
        f(0);
        f(1);
    } else {
        for i in 0..n {
            f(i);
        }
    }
}

impl ResourceCalculator {
    /// `types` is the number of configured countable types ([`super::ResourceTypes::count`]);
    /// it is clamped to `2..=MAX_RESOURCE_TYPES` because memory and vcores always exist and a
    /// [`Resource`] has no more slots.
    pub const fn new(kind: CalculatorKind, types: usize) -> Self {
        let types = if types < 2 {
            2
        } else if types > MAX_RESOURCE_TYPES {
            MAX_RESOURCE_TYPES
        } else {
            types
        };
        ResourceCalculator {
            kind,
            types: types as u8,
        }
    }

    #[inline]
    pub const fn kind(&self) -> CalculatorKind {
        self.kind
    }

    /// Number of countable types this calculator looks at (the dominant one; the default one
    /// only ever looks at memory).
    #[inline]
    pub const fn types(&self) -> usize {
        self.types as usize
    }

    /// The calculator named by `yarn.scheduler.capacity.resource-calculator` (YARN reads it with
    /// `getClass`, i.e. trimmed). `None` for any other class name (YARN: `ClassNotFoundException`
    /// or "not a ResourceCalculator").
    pub fn from_class_name(name: &str, types: usize) -> Option<Self> {
        match name.trim() {
            DEFAULT_CLASS => Some(Self::new(CalculatorKind::Default, types)),
            DOMINANT_CLASS => Some(Self::new(CalculatorKind::Dominant, types)),
            _ => None,
        }
    }

    /// The fully-qualified Java class name.
    pub const fn class_name(&self) -> &'static str {
        match self.kind {
            CalculatorKind::Default => DEFAULT_CLASS,
            CalculatorKind::Dominant => DOMINANT_CLASS,
        }
    }

    #[inline]
    fn n(&self) -> usize {
        self.types as usize
    }

    #[inline]
    fn is_default(&self) -> bool {
        matches!(self.kind, CalculatorKind::Default)
    }

    // ---------------------------------------------------------------------------------------
    // Comparison
    // ---------------------------------------------------------------------------------------

    /// `compare(clusterResource, lhs, rhs)` (with `singleType = false`).
    ///
    /// Default: `Long.compare` of memory.
    ///
    /// Dominant (trunk):
    /// 1. equal vectors → `Equal`;
    /// 2. cluster all-zero (`isAllInvalidDivisor`) → plain componentwise comparison: `Greater`
    ///    if some component of `lhs` is larger and none smaller, `Less` symmetrically, else
    ///    `Equal`;
    /// 3. two types: compare the dominant shares (`value / cluster`, double), ties broken by the
    ///    other share. A type the cluster has none of has share `+∞` for both sides;
    /// 4. more types: sort each side's shares and compare from the largest down, **skipping**
    ///    positions where a share is `+∞` (types the cluster lacks).
    ///
    /// Older releases (3.1/3.2) used `isInvalidDivisor` in step 2, i.e. fell back to the
    /// componentwise comparison as soon as *any* cluster component was 0, and had no `+∞`
    /// shares; trunk's `TestResourceCalculator#testCompareDominantZeroValueResource` pins the
    /// behaviour implemented here.
    ///
    /// The two cheap cases (the default calculator, two types one of which dominates) are
    /// inlined where a comparison is made — a dozen times per allocated container — and the
    /// rest is a call.
    #[inline]
    pub fn compare(&self, cluster: &Resource, lhs: &Resource, rhs: &Resource) -> Ordering {
        if self.is_default() {
            return lhs.memory_mb().cmp(&rhs.memory_mb());
        }
        if self.n() == 2 {
            if let Some(o) = compare_two_without_dividing(&cluster.v, &lhs.v, &rhs.v) {
                return o;
            }
        }
        self.compare_dominant(cluster, lhs, rhs)
    }

    /// `compare` for the dominant calculator past its cheap cases.
    #[inline(never)]
    fn compare_dominant(&self, cluster: &Resource, lhs: &Resource, rhs: &Resource) -> Ordering {
        let n = self.n();
        let (l, r, c) = (&lhs.v[..n], &rhs.v[..n], &cluster.v[..n]);
        if l == r {
            return Ordering::Equal;
        }
        if c.iter().all(|&x| x == 0) {
            let lhs_greater = l.iter().zip(r).any(|(a, b)| a > b);
            let rhs_greater = l.iter().zip(r).any(|(a, b)| a < b);
            return match (lhs_greater, rhs_greater) {
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                _ => Ordering::Equal,
            };
        }
        // When the cluster has every type, shares grow with each component, so a vector that
        // dominates another componentwise has the larger sorted share vector: decided without
        // dividing (exact for values below 2^52, i.e. any real cluster).
        if c.iter().all(|&x| x > 0) {
            let le = l.iter().zip(r).all(|(a, b)| a <= b);
            if le {
                return Ordering::Less;
            }
            if l.iter().zip(r).all(|(a, b)| a >= b) {
                return Ordering::Greater;
            }
        }
        if n == 2 {
            // calculateSharesForTwoMandatoryResources: +∞ shares are *not* skipped here.
            let (l0, l1) = (share(c[0], l[0]), share(c[1], l[1]));
            let (r0, r1) = (share(c[0], r[0]), share(c[1], r[1]));
            let (l_dom, l_sub) = if l1 > l0 { (l1, l0) } else { (l0, l1) };
            let (r_dom, r_sub) = if r1 > r0 { (r1, r0) } else { (r0, r1) };
            return if l_dom > r_dom {
                Ordering::Greater
            } else if l_dom < r_dom {
                Ordering::Less
            } else if l_sub > r_sub {
                Ordering::Greater
            } else if l_sub < r_sub {
                Ordering::Less
            } else {
                Ordering::Equal
            };
        }
        let mut ls = [0f64; MAX_RESOURCE_TYPES];
        let mut rs = [0f64; MAX_RESOURCE_TYPES];
        for i in 0..n {
            ls[i] = share(c[i], l[i]);
            rs[i] = share(c[i], r[i]);
        }
        // Arrays.sort(double[]) orders like Double.compare, which total_cmp reproduces.
        ls[..n].sort_unstable_by(f64::total_cmp);
        rs[..n].sort_unstable_by(f64::total_cmp);
        let mut diff = 0.0;
        for i in (0..n).rev() {
            if ls[i] == f64::INFINITY || rs[i] == f64::INFINITY {
                continue;
            }
            diff = ls[i] - rs[i];
            if diff != 0.0 {
                break;
            }
        }
        signum(diff)
    }

    /// `Resources.lessThan`.
    #[inline]
    pub fn less_than(&self, cluster: &Resource, a: &Resource, b: &Resource) -> bool {
        self.compare(cluster, a, b) == Ordering::Less
    }

    /// `Resources.lessThanOrEqual`.
    #[inline]
    pub fn less_than_or_equal(&self, cluster: &Resource, a: &Resource, b: &Resource) -> bool {
        self.compare(cluster, a, b) != Ordering::Greater
    }

    /// `Resources.greaterThan`.
    #[inline]
    pub fn greater_than(&self, cluster: &Resource, a: &Resource, b: &Resource) -> bool {
        self.compare(cluster, a, b) == Ordering::Greater
    }

    /// `Resources.greaterThanOrEqual`.
    #[inline]
    pub fn greater_than_or_equal(&self, cluster: &Resource, a: &Resource, b: &Resource) -> bool {
        self.compare(cluster, a, b) != Ordering::Less
    }

    /// `Resources.min`: the whole vector that compares smaller; on a tie, **`a`** (the left one).
    #[inline]
    pub fn min(&self, cluster: &Resource, a: &Resource, b: &Resource) -> Resource {
        if self.compare(cluster, a, b) != Ordering::Greater {
            *a
        } else {
            *b
        }
    }

    /// `Resources.max`: the whole vector that compares larger; on a tie, **`a`** (the left one).
    #[inline]
    pub fn max(&self, cluster: &Resource, a: &Resource, b: &Resource) -> Resource {
        if self.compare(cluster, a, b) != Ordering::Less {
            *a
        } else {
            *b
        }
    }

    /// The calculator's `fitsIn(smaller, bigger)`: memory only (Default) or every configured
    /// component (Dominant). Compare [`Resource::fits_in`], which is always componentwise.
    #[inline]
    pub fn fits_in(&self, smaller: &Resource, bigger: &Resource) -> bool {
        if self.is_default() {
            return smaller.memory_mb() <= bigger.memory_mb();
        }
        // (Two types, the usual case, without the slices' loop: a dozen fits per container.)
        if self.n() == 2 {
            return smaller.v[0] <= bigger.v[0] && smaller.v[1] <= bigger.v[1];
        }
        let n = self.n();
        smaller.v[..n]
            .iter()
            .zip(&bigger.v[..n])
            .all(|(s, b)| s <= b)
    }

    // ---------------------------------------------------------------------------------------
    // Ratios and divisions
    // ---------------------------------------------------------------------------------------

    /// `ratio(a, b)`, in **f32**. Default: `memory(a) / memory(b)`; Dominant: the largest
    /// per-component ratio. Each ratio is `divideSafelyAsFloat` (trunk): `0/0` → 0, `x/0` → ±∞.
    /// (Older releases divided directly, so `0/0` was NaN.) The dominant maximum is Java's
    /// `ratio = ratio > tmp ? ratio : tmp`, NaN handling included.
    #[inline]
    pub fn ratio(&self, a: &Resource, b: &Resource) -> f32 {
        if self.is_default() {
            return divide_safely_as_float(a.memory_mb(), b.memory_mb());
        }
        let mut ratio = 0.0f32;
        each_type(self.n(), |i| {
            let tmp = divide_safely_as_float(a.v[i], b.v[i]);
            ratio = if ratio > tmp { ratio } else { tmp };
        });
        ratio
    }

    /// `divide(cluster, numerator, denominator)` → f32.
    ///
    /// Default: [`Self::ratio`] of memories (the cluster is ignored).
    /// Dominant: `(float) (maxShare(numerator) / maxShare(denominator))`, shares in double
    /// against `cluster`, maxima starting at 0 and skipping types the cluster has none of. So a
    /// zero denominator share gives ∞ (or NaN for 0/0) — callers guard with
    /// [`Self::is_invalid_divisor`] as YARN's do.
    #[inline]
    pub fn divide(&self, cluster: &Resource, numerator: &Resource, denominator: &Resource) -> f32 {
        if self.is_default() {
            return self.ratio(numerator, denominator);
        }
        let (mut max_n, mut max_d) = (0.0f64, 0.0f64);
        each_type(self.n(), |i| {
            let c = cluster.v[i];
            if c == 0 {
                return; // both shares are +∞: skipped
            }
            let sn = numerator.v[i] as f64 / c as f64;
            let sd = denominator.v[i] as f64 / c as f64;
            if sn > max_n {
                max_n = sn;
            }
            if sd > max_d {
                max_d = sd;
            }
        });
        (max_n / max_d) as f32
    }

    /// `isInvalidDivisor(r)`: memory is 0 (Default) / any configured component is 0 (Dominant).
    #[inline]
    pub fn is_invalid_divisor(&self, r: &Resource) -> bool {
        if self.is_default() {
            return r.memory_mb() == 0;
        }
        if self.n() == 2 {
            return r.v[0] == 0 || r.v[1] == 0;
        }
        r.v[..self.n()].contains(&0)
    }

    /// `divideAndCeil(r, float by)`: per component `(long) Math.ceil((float) v / by)`, and
    /// **0 when `by == 0`**. Default: memory only, result `createResource(memory)`.
    #[inline]
    pub fn divide_and_ceil(&self, r: &Resource, by: f32) -> Resource {
        if self.is_default() {
            return create_resource(div_ceil_float(r.memory_mb(), by));
        }
        let mut out = *r;
        each_type(self.n(), |i| out.v[i] = div_ceil_float(r.v[i], by));
        out
    }

    /// `divideAndCeil(r, int by)` (e.g. UsersManager's `divideAndCeil(…, 100)`): per component
    /// `(v + (by - 1)) / by` in `long` arithmetic, **0 when `by == 0`**. Default: memory only,
    /// result `createResource(memory)`.
    pub fn divide_and_ceil_long(&self, r: &Resource, by: i64) -> Resource {
        if self.is_default() {
            return create_resource(div_ceil_long(r.memory_mb(), by));
        }
        let mut out = *r;
        for i in 0..self.n() {
            out.v[i] = div_ceil_long(r.v[i], by);
        }
        out
    }

    /// `computeAvailableContainers(available, required)`: how many `required` fit in
    /// `available`.
    ///
    /// Default: `memory(available) / memory(required)` (`long`, uncapped). A zero memory
    /// requirement throws `ArithmeticException` in YARN; we return `Integer.MAX_VALUE`, the
    /// dominant calculator's answer for "nothing required".
    /// Dominant: the minimum of `available_i / required_i` over components with
    /// `required_i != 0` (`Long.MAX_VALUE` if none), then capped to `Integer.MAX_VALUE` and
    /// cast to `int` (which wraps negative values below `int` range, as Java does).
    #[inline]
    pub fn compute_available_containers(&self, available: &Resource, required: &Resource) -> i64 {
        if self.is_default() {
            let req = required.memory_mb();
            if req == 0 {
                return i32::MAX as i64;
            }
            return available.memory_mb().wrapping_div(req);
        }
        let mut min = i64::MAX;
        each_type(self.n(), |i| {
            let req = required.v[i];
            if req != 0 {
                let tmp = available.v[i].wrapping_div(req);
                min = min.min(tmp);
            }
        });
        if min > i32::MAX as i64 {
            i32::MAX as i64
        } else {
            min as i32 as i64
        }
    }

    /// `computeAvailableContainers(available, required)` for callers that only compare it
    /// with 0: 1 without dividing when `available` holds `required` in every component it
    /// asks for (each quotient is then at least 1, so their minimum, capped to
    /// `Integer.MAX_VALUE`, is at least 1 too), else the count itself.
    #[inline]
    pub fn available_containers_or_one(&self, available: &Resource, required: &Resource) -> i64 {
        if !self.is_default() && self.n() == 2 {
            let (a, r) = (&available.v, &required.v);
            let holds = |i: usize| r[i] == 0 || (r[i] > 0 && a[i] >= r[i]);
            if holds(0) && holds(1) {
                return 1;
            }
        }
        self.compute_available_containers(available, required)
    }

    /// `computeAvailableContainers(available, required) != 0`.
    #[inline]
    pub fn has_room_for(&self, available: &Resource, required: &Resource) -> bool {
        self.available_containers_or_one(available, required) != 0
    }

    // ---------------------------------------------------------------------------------------
    // Rounding and normalisation
    // ---------------------------------------------------------------------------------------

    /// `roundUp(r, stepFactor)`: `ceil(v / step) * step` per component, in wrapping `long`
    /// arithmetic. Default: memory only → `createResource`; a zero memory step gives memory 0
    /// (`ResourceCalculator.roundUp(a, 0) == 0`). Dominant: a zero step leaves the component
    /// unchanged.
    #[inline]
    pub fn round_up(&self, r: &Resource, step: &Resource) -> Resource {
        if self.is_default() {
            return create_resource(round_up_long(r.memory_mb(), step.memory_mb()));
        }
        let mut out = *r;
        each_type(self.n(), |i| {
            if step.v[i] != 0 {
                out.v[i] = round_up_long(r.v[i], step.v[i]);
            }
        });
        out
    }

    /// `roundDown(r, stepFactor)`: `(v / step) * step` per component (truncating division, so
    /// negative values round toward zero, as in Java). Dominant: a zero step leaves the
    /// component unchanged. Default: memory only → `createResource`; a zero memory step throws
    /// `ArithmeticException` in YARN — here it leaves memory unchanged.
    // Always inlined: a parent's visit rounds each child's limit with it at every
    // assignment, where the call cost as much as the rounding (five callers).
    #[inline(always)]
    pub fn round_down(&self, r: &Resource, step: &Resource) -> Resource {
        if self.is_default() {
            let s = step.memory_mb();
            let m = r.memory_mb();
            return create_resource(if s == 0 { m } else { round_down_long(m, s) });
        }
        let mut out = *r;
        each_type(self.n(), |i| {
            if step.v[i] != 0 {
                out.v[i] = round_down_long(r.v[i], step.v[i]);
            }
        });
        out
    }

    /// `normalizeDown(r, stepFactor)`: same arithmetic as [`Self::round_down`] in both
    /// calculators (YARN keeps both entry points).
    #[inline]
    pub fn normalize_down(&self, r: &Resource, step: &Resource) -> Resource {
        self.round_down(r, step)
    }

    /// `multiplyAndNormalizeUp(r, by, stepFactor)`.
    ///
    /// Default: `roundUp((long) (memory * by + 0.5), step)` — a double product, rounded half up
    /// by the `+ 0.5`, then `createResource`; zero step → memory 0 (see [`Self::round_up`]).
    /// Dominant (trunk): per component
    /// `roundUp((long) Math.ceil((float) (v * by)), step)`, i.e. the double product is
    /// **rounded to f32** and then ceiled (so 16777217 × 1.0 → 16777216); zero step → no
    /// rounding. Early 3.x releases used `Math.ceil(v * by)` in double and had no zero-step guard.
    #[inline]
    pub fn multiply_and_normalize_up(&self, r: &Resource, by: f64, step: &Resource) -> Resource {
        if self.is_default() {
            let m = (r.memory_mb() as f64 * by + 0.5) as i64;
            return create_resource(round_up_long(m, step.memory_mb()));
        }
        let mut out = *r;
        each_type(self.n(), |i| {
            let value = super::ceil_as_i64((r.v[i] as f64 * by) as f32 as f64);
            out.v[i] = if step.v[i] != 0 {
                round_up_long(value, step.v[i])
            } else {
                value
            };
        });
        out
    }

    /// `multiplyAndNormalizeDown(r, by, stepFactor)`: per component
    /// `roundDown((long) (v * by), step)` (double product, truncated). Dominant: zero step → no
    /// rounding. Default: memory only → `createResource`; a zero step throws in YARN — here it
    /// skips the rounding.
    pub fn multiply_and_normalize_down(&self, r: &Resource, by: f64, step: &Resource) -> Resource {
        if self.is_default() {
            let m = (r.memory_mb() as f64 * by) as i64;
            let s = step.memory_mb();
            return create_resource(if s == 0 { m } else { round_down_long(m, s) });
        }
        let mut out = *r;
        for i in 0..self.n() {
            let value = (r.v[i] as f64 * by) as i64;
            out.v[i] = if step.v[i] != 0 {
                round_down_long(value, step.v[i])
            } else {
                value
            };
        }
        out
    }

    /// `normalize(r, minimumResource, maximumResource, stepFactor)` (spec §1.7):
    /// `min(roundUp(max(ask, min), step), max)`.
    ///
    /// Default: memory only, result `createResource` (so a normalised ask always carries 1
    /// vcore); a zero memory step is replaced by the minimum (YARN logs "Memory cannot be
    /// allocated in increments of zero…"). Dominant: per component; a zero step means no
    /// rounding. If `max` is not a multiple of the step the result can be `max` itself.
    pub fn normalize(
        &self,
        r: &Resource,
        min: &Resource,
        max: &Resource,
        step: &Resource,
    ) -> Resource {
        if self.is_default() {
            let s = if step.memory_mb() == 0 {
                min.memory_mb()
            } else {
                step.memory_mb()
            };
            let m = round_up_long(r.memory_mb().max(min.memory_mb()), s).min(max.memory_mb());
            return create_resource(m);
        }
        let mut out = *r;
        for i in 0..self.n() {
            let mut value = r.v[i].max(min.v[i]);
            if step.v[i] != 0 {
                value = round_up_long(value, step.v[i]);
            }
            out.v[i] = value.min(max.v[i]);
        }
        out
    }

    /// `isAnyMajorResourceZeroOrNegative(r)`: memory ≤ 0 (Default) / any configured component
    /// ≤ 0 (Dominant).
    #[inline]
    pub fn is_any_major_resource_zero_or_negative(&self, r: &Resource) -> bool {
        if self.is_default() {
            return r.memory_mb() <= 0;
        }
        r.v[..self.n()].iter().any(|&x| x <= 0)
    }

    /// `isAnyMajorResourceAboveZero(r)`: memory > 0 (Default) / any configured component > 0
    /// (Dominant).
    #[inline]
    pub fn is_any_major_resource_above_zero(&self, r: &Resource) -> bool {
        if self.is_default() {
            return r.v[MEMORY] > 0;
        }
        if self.n() == 2 {
            return r.v[0] > 0 || r.v[1] > 0;
        }
        r.v[..self.n()].iter().any(|&x| x > 0)
    }
}

/// The two-type (memory, vcores) comparison when it needs no division: equal vectors, or — with
/// both types present in the cluster — one vector dominating the other componentwise (shares
/// grow with each component, so the dominant-share order follows; exact below 2^52).
#[inline]
fn compare_two_without_dividing(
    c: &[i64; MAX_RESOURCE_TYPES],
    l: &[i64; MAX_RESOURCE_TYPES],
    r: &[i64; MAX_RESOURCE_TYPES],
) -> Option<Ordering> {
    let (l0, l1, r0, r1) = (l[0], l[1], r[0], r[1]);
    if l0 == r0 && l1 == r1 {
        return Some(Ordering::Equal);
    }
    if c[0] > 0 && c[1] > 0 {
        if l0 <= r0 && l1 <= r1 {
            return Some(Ordering::Less);
        }
        if l0 >= r0 && l1 >= r1 {
            return Some(Ordering::Greater);
        }
    }
    None
}

/// `rc.divide(cluster, a, b)`, 0 when the divisor is empty (no nodes yet) or the result is
/// not finite: a derived capacity is never NaN.
// (`used_capacity_over`, with which the kept children's order re-keys a child at every
// assignment, always inlines the body below.)
#[inline]
pub(crate) fn divide_or_zero(
    rc: crate::resource::ResourceCalculator,
    cluster: Resource,
    a: Resource,
    b: Resource,
) -> f32 {
    divide_or_zero_inlined(rc, cluster, a, b)
}

/// `divide_or_zero`, always inlined (for `used_capacity_over`).
#[inline(always)]
pub(crate) fn divide_or_zero_inlined(
    rc: crate::resource::ResourceCalculator,
    cluster: Resource,
    a: Resource,
    b: Resource,
) -> f32 {
    if b.is_zero() || rc.is_invalid_divisor(&b) {
        return 0.0;
    }
    let v = rc.divide(&cluster, &a, &b);
    if v.is_finite() {
        v
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering::{Equal, Greater, Less};

    const DEF: ResourceCalculator = ResourceCalculator::new(CalculatorKind::Default, 2);
    const DRC: ResourceCalculator = ResourceCalculator::new(CalculatorKind::Dominant, 2);
    const DRC3: ResourceCalculator = ResourceCalculator::new(CalculatorKind::Dominant, 3);

    fn r(m: i64, v: i64) -> Resource {
        Resource::new(m, v)
    }

    fn r3(m: i64, v: i64, x: i64) -> Resource {
        Resource::from_values(&[m, v, x])
    }

    /// TestResourceCalculator#assertComparison: checks `expected`, and the reverse when not 0.
    fn assert_cmp(
        rc: ResourceCalculator,
        cluster: Resource,
        a: Resource,
        b: Resource,
        expected: Ordering,
    ) {
        assert_eq!(
            rc.compare(&cluster, &a, &b),
            expected,
            "{a:?} vs {b:?} on {cluster:?}"
        );
        assert_eq!(
            rc.compare(&cluster, &b, &a),
            expected.reverse(),
            "{b:?} vs {a:?} on {cluster:?}"
        );
    }

    #[test]
    fn construction_and_names() {
        assert_eq!(DEF.kind(), CalculatorKind::Default);
        assert_eq!(DRC3.types(), 3);
        assert_eq!(
            ResourceCalculator::new(CalculatorKind::Dominant, 9).types(),
            MAX_RESOURCE_TYPES
        );
        assert_eq!(
            ResourceCalculator::new(CalculatorKind::Dominant, 0).types(),
            2
        );
        assert_eq!(ResourceCalculator::default(), DEF);
        assert_eq!(
            ResourceCalculator::from_class_name(
                " org.apache.hadoop.yarn.util.resource.DominantResourceCalculator\n",
                3
            ),
            Some(DRC3)
        );
        assert_eq!(
            ResourceCalculator::from_class_name(DEFAULT_CLASS, 2),
            Some(DEF)
        );
        assert_eq!(
            ResourceCalculator::from_class_name("DominantResourceCalculator", 2),
            None
        );
        assert_eq!(DRC.class_name(), DOMINANT_CLASS);
        assert_eq!(DEF.class_name(), DEFAULT_CLASS);
    }

    #[test]
    fn e7_normalisation_table_both_calculators() {
        // Spec §7 E7 / TestSchedulerUtils#testNormalizeRequest: min 1024, max 8192, step = min.
        for rc in [DEF, DRC] {
            let min = r(1024, 1);
            let max = r(8192, 4);
            let norm =
                |ask: i64, max: &Resource| rc.normalize(&r(ask, 1), &min, max, &min).memory_mb();
            assert_eq!(norm(-1024, &max), 1024);
            assert_eq!(norm(0, &max), 1024);
            assert_eq!(norm(2048, &max), 2048);
            assert_eq!(norm(1034, &max), 2048);
            assert_eq!(norm(8192, &max), 8192);
            assert_eq!(norm(8182, &max), 8192);
            // max not a multiple of min: the result is max itself.
            assert_eq!(norm(8092, &r(8182, 4)), 8182);
            // ask above max: capped (the AMS would have rejected it first).
            assert_eq!(norm(8292, &max), 8192);
            // Whole vector: Default forces vcores = 1; DRC normalises vcores too.
            let out = rc.normalize(&r(1034, 3), &min, &max, &min);
            match rc.kind() {
                CalculatorKind::Default => assert_eq!(out, r(2048, 1)),
                CalculatorKind::Dominant => assert_eq!(out, r(2048, 3)),
            }
        }
        // The test's maxResource has 0 vcores: DRC caps vcores at 0, Default still says 1.
        let (min, max) = (r(1024, 1), r(8192, 0));
        assert_eq!(DRC.normalize(&r(8292, 1), &min, &max, &min), r(8192, 0));
        assert_eq!(DEF.normalize(&r(8292, 1), &min, &max, &min), r(8192, 1));
    }

    #[test]
    fn normalize_cases_from_test_resource_calculator() {
        // TestResourceCalculator#testNormalize.
        let check = |ask, min, max, inc, def: i64, drc: Resource| {
            assert_eq!(DEF.normalize(&ask, &min, &max, &inc).memory_mb(), def);
            assert_eq!(DRC.normalize(&ask, &min, &max, &inc), drc);
        };
        check(
            r(1111, 2),
            r(1024, 1),
            r(8192, 8),
            r(1024, 4),
            2048,
            r(2048, 4),
        );
        check(
            r(512, 0),
            r(2048, 2),
            r(8192, 8),
            r(1024, 1),
            2048,
            r(2048, 2),
        );
        check(
            r(9 * 1024, 9),
            r(2048, 2),
            r(8192, 8),
            r(1024, 1),
            8192,
            r(8192, 8),
        );
        // Increment 0: Default uses the minimum as the step, DRC does not round.
        check(
            r(1111, 2),
            r(2048, 2),
            r(8192, 8),
            r(0, 0),
            2048,
            r(2048, 2),
        );
        // Default with zero step *and* zero minimum: roundUp(x, 0) == 0.
        assert_eq!(
            DEF.normalize(&r(1111, 2), &r(0, 0), &r(8192, 8), &r(0, 0)),
            r(0, 0)
        );
    }

    #[test]
    fn default_builds_results_with_one_vcore() {
        let step = r(1024, 1);
        assert_eq!(DEF.round_up(&r(1000, 7), &step), r(1024, 1));
        assert_eq!(DEF.round_down(&r(3000, 7), &step), r(2048, 1));
        assert_eq!(DEF.round_down(&r(1000, 7), &step), r(0, 0));
        assert_eq!(DEF.normalize_down(&r(3000, 0), &step), r(2048, 1));
        assert_eq!(
            DEF.multiply_and_normalize_up(&r(1000, 7), 1.5, &step),
            r(2048, 1)
        );
        assert_eq!(
            DEF.multiply_and_normalize_down(&r(1000, 7), 1.5, &step),
            r(1024, 1)
        );
        assert_eq!(DEF.divide_and_ceil(&r(1000, 7), 3.0), r(334, 1));
        assert_eq!(DEF.divide_and_ceil_long(&r(1000, 7), 3), r(334, 1));
        assert_eq!(DEF.divide_and_ceil(&r(0, 7), 3.0), r(0, 0));
        // Extra types vanish too (createResource(memory)).
        assert_eq!(DEF.round_up(&r3(1000, 7, 5), &r3(1024, 1, 1)), r(1024, 1));
        // Negative memory ⇒ 0 vcores; and Java's divideAndCeil(-1024, 1024) is 0, not -1.
        assert_eq!(DEF.round_up(&r(-1024, 3), &step), r(0, 0));
        assert_eq!(DEF.round_up(&r(-2048, 3), &step), r(-1024, 0));
    }

    #[test]
    fn rounding_with_step_zero() {
        // Default: roundUp(a, 0) == divideAndCeil(a, 0) * 0 == 0.
        assert_eq!(DEF.round_up(&r(1000, 1), &r(0, 1)), r(0, 0));
        assert_eq!(
            DEF.multiply_and_normalize_up(&r(1000, 1), 1.0, &r(0, 1)),
            r(0, 0)
        );
        // Default roundDown with 0 throws in Java; here: no rounding.
        assert_eq!(DEF.round_down(&r(1000, 1), &r(0, 1)), r(1000, 1));
        assert_eq!(
            DEF.multiply_and_normalize_down(&r(1000, 1), 0.5, &r(0, 1)),
            r(500, 1)
        );
        // DRC: zero step components are left alone.
        assert_eq!(DRC.round_up(&r(1000, 3), &r(1024, 0)), r(1024, 3));
        assert_eq!(DRC.round_down(&r(1000, 3), &r(0, 2)), r(1000, 2));
        assert_eq!(
            DRC.multiply_and_normalize_up(&r(1000, 3), 0.5, &r(0, 0)),
            r(500, 2)
        );
        assert_eq!(
            DRC.multiply_and_normalize_down(&r(1000, 3), 0.5, &r(0, 0)),
            r(500, 1)
        );
    }

    #[test]
    fn dominant_rounding_is_per_component() {
        let step = r(1024, 2);
        assert_eq!(DRC.round_up(&r(1025, 3), &step), r(2048, 4));
        assert_eq!(DRC.round_down(&r(2047, 3), &step), r(1024, 2));
        assert_eq!(DRC.round_down(&r(-1025, -3), &step), r(-1024, -2));
        assert_eq!(DRC3.round_up(&r3(1, 1, 5), &r3(1, 1, 4)), r3(1, 1, 8));
        // Slots beyond the configured types are untouched.
        assert_eq!(DRC.round_up(&r3(1, 1, 5), &r3(1, 1, 4)), r3(1, 1, 5));
    }

    #[test]
    fn multiply_and_normalize_float_semantics() {
        let one = r(1, 1);
        // Default rounds half up in double.
        assert_eq!(
            DEF.multiply_and_normalize_up(&r(16_777_217, 1), 1.0, &one)
                .memory_mb(),
            16_777_217
        );
        assert_eq!(
            DEF.multiply_and_normalize_up(&r(3, 1), 0.5, &one)
                .memory_mb(),
            2
        );
        assert_eq!(
            DEF.multiply_and_normalize_up(&r(5, 1), 0.1, &one)
                .memory_mb(),
            1
        );
        // DRC ceils the product after rounding it to float.
        assert_eq!(
            DRC.multiply_and_normalize_up(&r(16_777_217, 1), 1.0, &one)
                .memory_mb(),
            16_777_216
        );
        assert_eq!(
            DRC.multiply_and_normalize_up(&r(5, 1), 0.1, &one)
                .memory_mb(),
            1
        );
        assert_eq!(
            DRC.multiply_and_normalize_up(&r(16384, 10), 0.8, &r(1024, 1)),
            r(13312, 8)
        );
        // Down: truncation in double.
        assert_eq!(
            DRC.multiply_and_normalize_down(&r(16384, 10), 0.8, &r(1024, 1)),
            r(12288, 8)
        );
        assert_eq!(
            DEF.multiply_and_normalize_down(&r(16384, 10), 0.8, &r(1024, 1)),
            r(12288, 1)
        );
    }

    #[test]
    fn divide_and_ceil_by_zero_is_zero() {
        assert_eq!(DRC.divide_and_ceil(&r(1024, 3), 0.0), Resource::ZERO);
        assert_eq!(DRC.divide_and_ceil(&r(1024, 3), -0.0), Resource::ZERO);
        assert_eq!(DEF.divide_and_ceil(&r(1024, 3), 0.0), Resource::ZERO);
        assert_eq!(DRC.divide_and_ceil_long(&r(1024, 3), 0), Resource::ZERO);
        assert_eq!(DEF.divide_and_ceil_long(&r(1024, 3), 0), Resource::ZERO);
        // Non-zero: float ceiling per component.
        assert_eq!(DRC.divide_and_ceil(&r(1392, 3), 2.0), r(696, 2));
        assert_eq!(DRC.divide_and_ceil(&r(1024, 3), 1.5), r(683, 2));
        // Float division: 16777217 is 16777216 as a float.
        assert_eq!(
            DRC.divide_and_ceil(&r(16_777_217, 0), 1.0).memory_mb(),
            16_777_216
        );
        // Long overload: (a + b - 1) / b, UsersManager's divideAndCeil(…, 100).
        assert_eq!(DRC.divide_and_ceil_long(&r(1392 * 50, 3), 100), r(696, 1));
        // Not a true ceiling for negatives: (-150 + 99) / 100 == 0 in Java.
        assert_eq!(DRC.divide_and_ceil_long(&r(-150, -200), 100), r(0, -1));
    }

    #[test]
    fn compute_available_containers() {
        assert_eq!(
            DEF.compute_available_containers(&r(8192, 1), &r(1024, 4)),
            8
        );
        assert_eq!(
            DEF.compute_available_containers(&r(8191, 1), &r(1024, 4)),
            7
        );
        assert_eq!(
            DRC.compute_available_containers(&r(8192, 1), &r(1024, 4)),
            0
        );
        assert_eq!(
            DRC.compute_available_containers(&r(8192, 8), &r(1024, 2)),
            4
        );
        // Components not required are ignored; nothing required ⇒ Integer.MAX_VALUE.
        assert_eq!(
            DRC.compute_available_containers(&r(8192, 0), &r(1024, 0)),
            8
        );
        assert_eq!(
            DRC.compute_available_containers(&r(8192, 8), &r(0, 0)),
            i32::MAX as i64
        );
        assert_eq!(
            DEF.compute_available_containers(&r(8192, 8), &r(0, 1)),
            i32::MAX as i64
        );
        // DRC caps at int; Default does not.
        let huge = r(i64::MAX, i64::MAX);
        assert_eq!(
            DRC.compute_available_containers(&huge, &r(1, 1)),
            i32::MAX as i64
        );
        assert_eq!(DEF.compute_available_containers(&huge, &r(1, 1)), i64::MAX);
        // Negative availability gives negative counts.
        assert_eq!(
            DRC.compute_available_containers(&r(-2048, 4), &r(1024, 1)),
            -2
        );
        assert_eq!(
            DRC3.compute_available_containers(&r3(8192, 8, 1), &r3(1024, 1, 1)),
            1
        );
    }

    #[test]
    fn compare_default_memory_only() {
        // TestResourceCalculator#testCompareWithOnlyMandatory / testCompareDefaultWithOnlyMandatory.
        let c = r(4, 4);
        assert_cmp(DEF, c, r(1, 1), r(1, 1), Equal);
        assert_cmp(DEF, c, r(0, 0), r(0, 0), Equal);
        assert_cmp(DEF, c, r(2, 2), r(1, 1), Greater);
        assert_cmp(DEF, c, r(2, 2), r(0, 0), Greater);
        assert_cmp(DEF, c, r(1, 2), r(1, 1), Equal);
        assert_cmp(DEF, c, r(1, 1), r(1, 0), Equal);
        assert_cmp(DEF, c, r(2, 1), r(1, 1), Greater);
        assert_cmp(DEF, c, r(2, 1), r(1, 2), Greater);
        assert_cmp(DEF, c, r(2, 1), r(1, 0), Greater);
        // testCompareDefault (three types; the third is ignored).
        let d3 = ResourceCalculator::new(CalculatorKind::Default, 3);
        let c = r3(4, 4, 4);
        assert_cmp(d3, c, r3(1, 1, 2), r3(1, 1, 1), Equal);
        assert_cmp(d3, c, r3(1, 2, 2), r3(1, 0, 0), Equal);
        assert_cmp(d3, c, r3(2, 1, 1), r3(1, 2, 2), Greater);
        assert_cmp(d3, c, r3(2, 1, 1), r3(1, 0, 0), Greater);
    }

    #[test]
    fn compare_dominant_two_types() {
        // TestResourceCalculator#testCompareWithOnlyMandatory / testCompareDominantWithOnlyMandatory.
        let c = r(4, 4);
        assert_cmp(DRC, c, r(1, 1), r(1, 1), Equal);
        assert_cmp(DRC, c, r(0, 0), r(0, 0), Equal);
        assert_cmp(DRC, c, r(2, 2), r(1, 1), Greater);
        assert_cmp(DRC, c, r(2, 2), r(0, 0), Greater);
        assert_cmp(DRC, c, r(2, 1), r(2, 1), Equal);
        assert_cmp(DRC, c, r(2, 1), r(1, 2), Equal);
        assert_cmp(DRC, c, r(2, 1), r(1, 1), Greater);
        assert_cmp(DRC, c, r(2, 2), r(2, 1), Greater);
        assert_cmp(DRC, c, r(2, 2), r(1, 2), Greater);
        assert_cmp(DRC, c, r(3, 1), r(3, 0), Greater);
    }

    #[test]
    fn compare_dominant_tie_broken_by_next_share() {
        let c = r(102_400, 10);
        // Both dominant shares 0.2; subordinate 0.04 vs 0.1.
        assert_eq!(DRC.compare(&c, &r(4096, 2), &r(20_480, 1)), Less);
        assert_eq!(DRC.compare(&c, &r(20_480, 1), &r(4096, 2)), Greater);
    }

    #[test]
    fn compare_dominant_three_types() {
        // TestResourceCalculator#testCompare / testCompareDominant.
        let c = r3(4, 4, 4);
        let cases: &[(Resource, Resource, Ordering)] = &[
            (r3(1, 1, 1), r3(1, 1, 1), Equal),
            (r3(0, 0, 0), r3(0, 0, 0), Equal),
            (r3(2, 2, 2), r3(1, 1, 1), Greater),
            (r3(2, 2, 2), r3(0, 0, 0), Greater),
            (r3(2, 1, 1), r3(2, 1, 1), Equal),
            (r3(2, 1, 1), r3(1, 2, 1), Equal),
            (r3(2, 1, 1), r3(1, 1, 2), Equal),
            (r3(2, 1, 0), r3(0, 1, 2), Equal),
            (r3(2, 2, 1), r3(1, 2, 2), Equal),
            (r3(2, 2, 1), r3(2, 1, 2), Equal),
            (r3(2, 2, 1), r3(2, 2, 1), Equal),
            (r3(2, 2, 0), r3(2, 0, 2), Equal),
            (r3(3, 2, 1), r3(3, 2, 1), Equal),
            (r3(3, 2, 1), r3(3, 1, 2), Equal),
            (r3(3, 2, 1), r3(1, 2, 3), Equal),
            (r3(3, 2, 1), r3(1, 3, 2), Equal),
            (r3(3, 2, 1), r3(2, 1, 3), Equal),
            (r3(3, 2, 1), r3(2, 3, 1), Equal),
            (r3(2, 1, 1), r3(1, 1, 1), Greater),
            (r3(2, 1, 1), r3(1, 1, 0), Greater),
            (r3(2, 2, 1), r3(2, 1, 1), Greater),
            (r3(2, 2, 1), r3(1, 2, 1), Greater),
            (r3(2, 2, 1), r3(1, 1, 2), Greater),
            (r3(2, 2, 1), r3(0, 2, 2), Greater),
            (r3(2, 2, 2), r3(2, 1, 1), Greater),
            (r3(2, 2, 2), r3(1, 2, 1), Greater),
            (r3(2, 2, 2), r3(1, 1, 2), Greater),
            (r3(2, 2, 2), r3(2, 2, 1), Greater),
            (r3(2, 2, 2), r3(2, 1, 2), Greater),
            (r3(2, 2, 2), r3(1, 2, 2), Greater),
            (r3(3, 2, 1), r3(2, 2, 2), Greater),
            (r3(3, 1, 1), r3(2, 2, 2), Greater),
            (r3(3, 1, 1), r3(3, 1, 0), Greater),
            (r3(3, 1, 1), r3(3, 0, 0), Greater),
        ];
        for &(a, b, e) in cases {
            assert_cmp(DRC3, c, a, b, e);
        }
    }

    #[test]
    fn compare_dominant_zero_cluster_components() {
        // TestResourceCalculator#testCompareDominantZeroValueResource (trunk).
        let c = r3(4, 4, 0);
        assert_cmp(DRC3, c, r3(2, 1, 1), r3(1, 1, 2), Greater);
        assert_cmp(DRC3, c, r3(2, 2, 1), r3(1, 2, 2), Greater);
        assert_cmp(DRC3, c, r3(2, 2, 1), r3(2, 2, 2), Equal);
        assert_cmp(DRC3, c, r3(0, 2, 1), r3(0, 2, 2), Equal);
        assert_cmp(DRC3, c, r3(0, 1, 2), r3(1, 1, 2), Less);
        assert_cmp(DRC3, c, r3(1, 1, 2), r3(2, 1, 2), Less);
        // Cluster all zero: componentwise.
        let c = r3(0, 0, 0);
        assert_cmp(DRC3, c, r3(2, 1, 1), r3(1, 1, 1), Greater);
        assert_cmp(DRC3, c, r3(2, 2, 2), r3(1, 1, 1), Greater);
        assert_cmp(DRC3, c, r3(2, 1, 1), r3(1, 2, 1), Equal);
        assert_cmp(DRC3, c, r3(1, 1, 1), r3(1, 1, 1), Equal);
        assert_cmp(DRC3, c, r3(1, 1, 1), r3(1, 1, 2), Less);
        assert_cmp(DRC3, c, r3(1, 1, 1), r3(1, 2, 1), Less);
        // Two types, cluster without vcores: both vcores shares are +∞, so memory decides.
        let c = r(4, 0);
        assert_cmp(DRC, c, r(2, 0), r(1, 5), Greater);
        assert_cmp(DRC, c, r(2, 7), r(2, 0), Equal);
    }

    #[test]
    fn empty_cluster_operations() {
        // TestResourceCalculator#testCompareWithEmptyCluster / assertResourcesOperations.
        let c = r(0, 0);
        let ops = |rc: ResourceCalculator, a: Resource, b: Resource| {
            (
                rc.less_than(&c, &a, &b),
                rc.less_than_or_equal(&c, &a, &b),
                rc.greater_than(&c, &a, &b),
                rc.greater_than_or_equal(&c, &a, &b),
                rc.max(&c, &a, &b),
                rc.min(&c, &a, &b),
            )
        };
        for rc in [DEF, DRC] {
            let (a, b) = (r(0, 0), r(0, 0));
            assert_eq!(ops(rc, a, b), (false, true, false, true, a, a));
            let (a, b) = (r(1, 1), r(0, 0));
            assert_eq!(ops(rc, a, b), (false, false, true, true, a, b));
            let (a, b) = (r(0, 0), r(1, 1));
            assert_eq!(ops(rc, a, b), (true, true, false, false, b, a));
        }
        let (a, b) = (r(1, 0), r(0, 1));
        assert_eq!(ops(DRC, a, b), (false, true, false, true, a, a));
        let (a, b) = (r(0, 1), r(1, 0));
        assert_eq!(ops(DRC, a, b), (false, true, false, true, a, a));
        let (a, b) = (r(1, 1), r(1, 0));
        assert_eq!(ops(DRC, a, b), (false, false, true, true, a, b));
        let (a, b) = (r(0, 1), r(1, 1));
        assert_eq!(ops(DRC, a, b), (true, true, false, false, b, a));
    }

    #[test]
    fn min_max_ties_pick_left() {
        let c = r(4, 4);
        let (a, b) = (r(2, 1), r(1, 2)); // DRC: equal dominant shares
        assert_eq!(DRC.min(&c, &a, &b), a);
        assert_eq!(DRC.max(&c, &a, &b), a);
        assert_eq!(DRC.min(&c, &b, &a), b);
        assert_eq!(DRC.max(&c, &b, &a), b);
        let (a, b) = (r(2, 1), r(2, 9)); // Default: same memory
        assert_eq!(DEF.min(&c, &a, &b), a);
        assert_eq!(DEF.max(&c, &a, &b), a);
        // Not ties: the whole vector is picked, not a componentwise mix.
        let (a, b) = (r(3, 1), r(1, 2));
        assert_eq!(DRC.max(&c, &a, &b), a);
        assert_eq!(DRC.min(&c, &a, &b), b);
    }

    #[test]
    fn fits_in_per_calculator() {
        // TestResourceCalculator#testFitsIn.
        assert!(DEF.fits_in(&r(1, 2), &r(2, 1)));
        assert!(DEF.fits_in(&r(1, 2), &r(2, 2)));
        assert!(DEF.fits_in(&r(1, 2), &r(1, 2)));
        assert!(DEF.fits_in(&r(1, 2), &r(1, 1)));
        assert!(!DEF.fits_in(&r(2, 1), &r(1, 2)));
        assert!(!DRC.fits_in(&r(1, 2), &r(2, 1)));
        assert!(DRC.fits_in(&r(1, 2), &r(2, 2)));
        assert!(DRC.fits_in(&r(1, 2), &r(1, 2)));
        assert!(!DRC.fits_in(&r(1, 2), &r(1, 1)));
        assert!(!DRC.fits_in(&r(2, 1), &r(1, 2)));
        assert!(!DRC3.fits_in(&r3(1, 1, 2), &r3(1, 1, 1)));
        assert!(DRC.fits_in(&r3(1, 1, 2), &r3(1, 1, 1))); // third slot not configured
    }

    #[test]
    fn ratio_and_divide() {
        // TestResourceCalculator#testRatioWithNoExtraResource / WithExtraResource / DivisionByZero.
        assert_eq!(DEF.ratio(&r(1, 1), &r(2, 1)), 0.5);
        assert_eq!(DRC.ratio(&r(1, 1), &r(2, 1)), 1.0);
        assert_eq!(
            ResourceCalculator::new(CalculatorKind::Default, 3).ratio(&r3(1, 1, 2), &r3(2, 1, 1)),
            0.5
        );
        assert_eq!(DRC3.ratio(&r3(1, 1, 2), &r3(2, 1, 1)), 2.0);
        for rc in [DEF, DRC] {
            assert_eq!(rc.ratio(&r(1, 1), &r(0, 0)), f32::INFINITY);
            assert_eq!(rc.ratio(&r(0, 0), &r(0, 0)), 0.0);
        }
        // Default divide ignores the cluster.
        assert_eq!(DEF.divide(&r(0, 0), &r(3, 9), &r(4, 1)), 0.75);
        // DRC divide: dominant share over dominant share.
        let c = r(100, 10);
        assert_eq!(DRC.divide(&c, &r(50, 1), &r(10, 5)), 1.0); // 0.5 / 0.5
        assert_eq!(DRC.divide(&c, &r(20, 1), &r(10, 5)), 0.4); // 0.2 / 0.5
        assert!(DRC.divide(&c, &r(20, 1), &r(0, 0)).is_infinite());
        assert!(DRC.divide(&c, &r(0, 0), &r(0, 0)).is_nan());
        // A type the cluster lacks is skipped.
        assert_eq!(DRC.divide(&r(100, 0), &r(50, 1), &r(25, 9)), 2.0);
        // E6-style share: 1 GB used of a 6 GB guarantee on a 20 GB cluster.
        let c = r(20 * 1024, 20);
        assert_eq!(
            DEF.divide(&c, &r(1024, 1), &r(6 * 1024, 6)),
            1024f32 / 6144f32
        );
    }

    #[test]
    fn invalid_divisor_and_major_resource_checks() {
        assert!(DEF.is_invalid_divisor(&r(0, 5)));
        assert!(!DEF.is_invalid_divisor(&r(5, 0)));
        assert!(DRC.is_invalid_divisor(&r(5, 0)));
        assert!(!DRC.is_invalid_divisor(&r(5, 5)));
        assert!(DRC3.is_invalid_divisor(&r3(5, 5, 0)));
        assert!(!DRC.is_invalid_divisor(&r3(5, 5, 0)));

        assert!(DEF.is_any_major_resource_zero_or_negative(&r(0, 5)));
        assert!(!DEF.is_any_major_resource_zero_or_negative(&r(5, -5)));
        assert!(DRC.is_any_major_resource_zero_or_negative(&r(5, -5)));
        assert!(!DRC.is_any_major_resource_zero_or_negative(&r(5, 5)));
        assert!(DEF.is_any_major_resource_above_zero(&r(1, 0)));
        assert!(!DEF.is_any_major_resource_above_zero(&r(0, 1)));
        assert!(DRC.is_any_major_resource_above_zero(&r(0, 1)));
        assert!(!DRC.is_any_major_resource_above_zero(&r(0, -1)));
        assert!(DRC3.is_any_major_resource_above_zero(&r3(0, 0, 1)));
    }

    #[test]
    fn java_long_overflow_does_not_panic() {
        let unbounded = r(i64::MAX, i64::MAX);
        let step = r(1024, 1);
        // (MAX + 1023) wraps negative in Java too.
        assert!(DEF.round_up(&unbounded, &step).memory_mb() < 0);
        let _ = DRC.round_up(&unbounded, &step);
        let _ = DRC.divide_and_ceil_long(&unbounded, 7);
        let _ = DRC.compute_available_containers(&r(i64::MIN, 1), &r(-1, 1));
        let _ = DEF.compute_available_containers(&r(i64::MIN, 1), &r(-1, 1));
        let _ = DRC.multiply_and_normalize_up(&unbounded, 2.0, &step);
    }

    /// `available_containers_or_one` is `compute_available_containers` or 1 where that is at
    /// least 1, and `has_room_for` is `compute_available_containers(..) != 0`, in both
    /// calculators, for every sign and size of the components.
    #[test]
    fn has_room_for_is_a_nonzero_count() {
        let vals = [
            i64::MIN,
            -(1 << 40),
            -5,
            -1,
            0,
            1,
            2,
            3,
            1023,
            1024,
            1025,
            (1 << 40) + 7,
            i64::MAX,
        ];
        for rc in [DEF, DRC, DRC3] {
            for &a0 in &vals {
                for &a1 in &vals {
                    for &r0 in &vals {
                        for &r1 in &vals {
                            let (a, q) = (r(a0, a1), r(r0, r1));
                            let (n, n_or_one) = (
                                rc.compute_available_containers(&a, &q),
                                rc.available_containers_or_one(&a, &q),
                            );
                            assert!(
                                n_or_one == n || (n_or_one == 1 && n >= 1),
                                "{rc:?} {a:?} {q:?}"
                            );
                            assert_eq!(
                                rc.has_room_for(&a, &q),
                                rc.compute_available_containers(&a, &q) != 0,
                                "{rc:?} {a:?} {q:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
