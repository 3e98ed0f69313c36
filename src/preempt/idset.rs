//! Sets and maps keyed by container id for one round's bookkeeping (what was selected, when a
//! container was first marked), and the round's small maps by user name. Only lookups are ever
//! asked of them — nothing iterates them in an order that matters — so they hash with a folded
//! 128-bit multiply instead of SipHash: the keys come from the scheduler, not from an
//! adversary.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for one `u64` key: the two halves of `key × K` (K from the golden ratio) folded
/// together, so every bit of the id reaches both the low bits (the bucket) and the high ones
/// (the control byte).
#[derive(Debug, Default, Clone, Copy)]
pub struct IdHasher(u64);

const K: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Strings and anything else: eight bytes at a time.
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }

    fn write_u64(&mut self, x: u64) {
        let m = u128::from(self.0 ^ x) * u128::from(K);
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

pub type IdBuild = BuildHasherDefault<IdHasher>;
/// The same hasher for the round's small maps with other keys (user names, index pairs).
pub type FastBuild = IdBuild;
pub type IdSet = HashSet<u64, IdBuild>;
pub type IdMap<V> = HashMap<u64, V, IdBuild>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_spread_over_low_and_high_bits() {
        use std::hash::BuildHasher;
        let b = IdBuild::default();
        // Scheduler ids differ in their low slot bits, conformance ids in the high half.
        let low: HashSet<u64> = (0..1024u64).map(|i| b.hash_one(i) & 1023).collect();
        let high: HashSet<u64> = (0..1024u64).map(|i| b.hash_one(i << 32) >> 57).collect();
        assert!(low.len() > 600, "{}", low.len());
        assert_eq!(high.len(), 128);
        let mut s = IdSet::default();
        assert!(s.insert(7) && !s.insert(7) && s.contains(&7));
    }
}
