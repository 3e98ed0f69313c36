//! How large a resource figure capsched keeps (issue 36.6). Every total the scheduler holds —
//! the cluster's, a node's, what runs and what is asked for — stays within [`MAX_TOTAL`] per
//! resource type, so the sum of any two such figures still fits in an `i64` and no comparison
//! is ever made on a wrapped value. Whatever would pass it is refused where it enters (a node,
//! a resize, a recovered container, an ask) with [`over_limit`]'s words; the invariant
//! checker reports any figure outside `[0, MAX_TOTAL]`.

use super::Resource;

/// 2^62 of each resource type (4.6·10^18 MB of memory): far above any cluster, and twice it
/// still fits in an `i64`.
pub const MAX_TOTAL: i64 = 1 << 62;

impl Resource {
    /// Every component within `[0, MAX_TOTAL]`.
    #[inline]
    pub fn within_limit(&self) -> bool {
        self.v.iter().all(|&x| (0..=MAX_TOTAL).contains(&x))
    }

    /// `self + rhs` when both and the sum are within [`MAX_TOTAL`] in every component.
    #[inline]
    pub fn checked_add_within(&self, rhs: &Resource) -> Option<Resource> {
        if !self.within_limit() || !rhs.within_limit() {
            return None;
        }
        let sum = *self + *rhs;
        sum.within_limit().then_some(sum)
    }

    /// `self × count` when the product is within [`MAX_TOTAL`] in every component.
    #[inline]
    pub fn checked_multiply_count(&self, count: i32) -> Option<Resource> {
        let mut r = *self;
        for v in r.v.iter_mut() {
            *v = v.checked_mul(count.max(0) as i64)?;
        }
        r.within_limit().then_some(r)
    }
}

/// "the cluster's total <…> with <…> is more than capsched's limit …", one wording everywhere.
pub fn over_limit(what: &str, resource: &Resource) -> String {
    format!(
        "{what} {resource} is more than capsched's limit of {MAX_TOTAL} (2^62) per resource type, or negative"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_past_the_limit_are_refused() {
        let big = Resource::new(MAX_TOTAL, 1);
        assert_eq!(big.checked_add_within(&Resource::ZERO), Some(big));
        assert_eq!(big.checked_add_within(&Resource::new(1, 0)), None);
        assert_eq!(
            Resource::new(i64::MAX, 1).checked_add_within(&Resource::ZERO),
            None
        );
        assert_eq!(
            Resource::new(-1, 1).checked_add_within(&Resource::ZERO),
            None
        );
        assert_eq!(
            Resource::new(1 << 40, 1).checked_multiply_count(1 << 22),
            Some(Resource::new(MAX_TOTAL, 1 << 22))
        );
        assert_eq!(
            Resource::new(1 << 41, 1).checked_multiply_count(1 << 22),
            None
        );
        assert_eq!(
            Resource::new(i64::MAX, 1).checked_multiply_count(i32::MAX),
            None
        );
    }
}
