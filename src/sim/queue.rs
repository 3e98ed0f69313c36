//! The event queue: events in (time, insertion) order, as a binary heap orders them, at a cost
//! that does not grow with the number of events waiting.
//!
//! With 10^5 NodeManagers heartbeating every second, a binary heap holds 10^5 heartbeats and
//! every pop walks its 17 levels (cache misses at each, the largest cost of a run at that size).
//! Here events due within the next [`WINDOW`] ms wait in a ring of per-millisecond buckets —
//! each a FIFO, and insertion numbers only grow, so a bucket is in insertion order by
//! construction — and later ones in a heap. A bitmap finds the next non-empty bucket. The two
//! are merged on (time, insertion number), so the order is exactly the heap's whatever the
//! split: an event is never moved between them.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Events of type `E` by (time, insertion number); the caller numbers them, increasing.
/// Events due less than `WINDOW` ms (a power of two) after the last one popped go to the ring.
pub(super) struct EventQueue<E, const WINDOW: usize> {
    /// The ring covers [base, base + WINDOW): no event in it is earlier than `base`.
    base: i64,
    /// Bucket `t % WINDOW` holds the events at time `t` (one time per bucket within the window),
    /// with the index of its first one not yet popped.
    buckets: Vec<Vec<(u64, E)>>,
    heads: Vec<u32>,
    /// Which buckets have events, and the time of the first that has.
    occupied: Vec<u64>,
    first: Option<i64>,
    in_ring: usize,
    /// Events outside the window when they were pushed.
    far: BinaryHeap<Reverse<(i64, u64, E)>>,
}

impl<E: Copy + Ord, const WINDOW: usize> EventQueue<E, WINDOW> {
    const MASK: i64 = {
        assert!(WINDOW.is_power_of_two() && WINDOW >= 64);
        WINDOW as i64 - 1
    };

    pub(super) fn new() -> Self {
        EventQueue {
            base: 0,
            buckets: (0..WINDOW).map(|_| Vec::new()).collect(),
            heads: vec![0; WINDOW],
            occupied: vec![0; WINDOW / 64],
            first: None,
            in_ring: 0,
            far: BinaryHeap::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.in_ring + self.far.len()
    }

    /// Adds `e` at time `at` with insertion number `seq` (greater than any before).
    pub(super) fn push(&mut self, at: i64, seq: u64, e: E) {
        if at >= self.base && at - self.base < WINDOW as i64 {
            let b = (at & Self::MASK) as usize;
            self.buckets[b].push((seq, e));
            self.occupied[b / 64] |= 1 << (b % 64);
            self.in_ring += 1;
            if self.first.is_none_or(|f| at < f) {
                self.first = Some(at);
            }
        } else {
            self.far.push(Reverse((at, seq, e)));
        }
    }

    /// The time of the ring's first bucket with events at or after `from` (within the window).
    fn scan_from(&self, from: i64) -> Option<i64> {
        if self.in_ring == 0 {
            return None;
        }
        let end = self.base + WINDOW as i64;
        let mut t = from;
        while t < end {
            let b = (t & Self::MASK) as usize;
            let bits = self.occupied[b / 64] >> (b % 64);
            if bits != 0 {
                let at = t + bits.trailing_zeros() as i64;
                return (at < end).then_some(at);
            }
            // On to the next word's first bucket.
            t += 64 - (b % 64) as i64;
        }
        None
    }

    fn ring_head(&self) -> Option<(i64, u64)> {
        self.first.map(|t| {
            let b = (t & Self::MASK) as usize;
            (t, self.buckets[b][self.heads[b] as usize].0)
        })
    }

    /// The event `k` places after the next one, when both are due in the same millisecond
    /// and in the ring (what is about to run, to fetch its memory ahead).
    pub(super) fn ahead(&self, k: usize) -> Option<E> {
        let t = self.first?;
        let b = (t & Self::MASK) as usize;
        self.buckets[b]
            .get(self.heads[b] as usize + k)
            .map(|&(_, e)| e)
    }

    /// The next event's (time, insertion number).
    pub(super) fn peek(&self) -> Option<(i64, u64)> {
        let far = self.far.peek().map(|Reverse((t, s, _))| (*t, *s));
        match (self.ring_head(), far) {
            (Some(r), Some(f)) => Some(r.min(f)),
            (r, f) => r.or(f),
        }
    }

    /// Takes the next event. Events pushed later must not be earlier than it (the simulation's
    /// clock only goes forward), so the window moves up to it.
    pub(super) fn pop(&mut self) -> Option<(i64, E)> {
        let far = self.far.peek().map(|Reverse((t, s, _))| (*t, *s));
        let ring = self.ring_head();
        let from_ring = match (ring, far) {
            (Some(r), Some(f)) => r < f,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return None,
        };
        let (t, e) = if from_ring {
            let t = ring.expect("checked").0;
            let b = (t & Self::MASK) as usize;
            let e = self.buckets[b][self.heads[b] as usize].1;
            self.heads[b] += 1;
            self.in_ring -= 1;
            if self.heads[b] as usize == self.buckets[b].len() {
                self.buckets[b].clear();
                self.heads[b] = 0;
                self.occupied[b / 64] &= !(1 << (b % 64));
                self.first = self.scan_from(t + 1);
            }
            (t, e)
        } else {
            let Reverse((t, _, e)) = self.far.pop().expect("peeked");
            (t, e)
        };
        // Every event left in the ring is at or after `t`: none changes bucket.
        if t > self.base {
            self.base = t;
        }
        Some((t, e))
    }

    /// Every event, in (time, insertion number) order, leaving the queue empty with its
    /// window starting at `now` (nothing earlier will be pushed).
    pub(super) fn drain(&mut self, now: i64) -> Vec<(i64, u64, E)> {
        let mut out = Vec::with_capacity(self.len());
        while let Some((t, s)) = self.peek() {
            let (_, e) = self.pop().expect("peeked");
            out.push((t, s, e));
        }
        self.base = now;
        out
    }

    /// Every event (time and event), in no particular order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (i64, E)> + '_ {
        let base = self.base;
        let ring = self.buckets.iter().enumerate().flat_map(move |(b, v)| {
            let t = base + ((b as i64 - (base & Self::MASK)) & Self::MASK);
            v[self.heads[b] as usize..]
                .iter()
                .map(move |&(_, e)| (t, e))
        });
        ring.chain(self.far.iter().map(|Reverse((t, _, e))| (*t, *e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a binary heap of (time, insertion number): the same order, whatever mix of
    /// near, far, equal and out-of-window times, with pushes between pops.
    #[test]
    fn pops_in_a_heaps_order() {
        use rand_core::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut q: EventQueue<u32, 4096> = EventQueue::new();
        let mut heap: BinaryHeap<Reverse<(i64, u64, u32)>> = BinaryHeap::new();
        let mut seq = 0;
        let mut now = 0;
        for round in 0..200_000u32 {
            let pushes = rng.next_u64() % 3;
            for _ in 0..pushes {
                let ahead = match rng.next_u64() % 4 {
                    0 => 0,
                    1 => (rng.next_u64() % 1000) as i64,
                    2 => (rng.next_u64() % 10_000) as i64,
                    _ => (rng.next_u64() % 10_000_000) as i64,
                };
                seq += 1;
                q.push(now + ahead, seq, round);
                heap.push(Reverse((now + ahead, seq, round)));
            }
            assert_eq!(q.len(), heap.len());
            assert_eq!(q.peek(), heap.peek().map(|Reverse((t, s, _))| (*t, *s)));
            if rng.next_u64() % 2 == 0 {
                let got = q.pop();
                let want = heap.pop().map(|Reverse((t, _, e))| (t, e));
                assert_eq!(got, want);
                if let Some((t, _)) = got {
                    now = t;
                }
            }
        }
        let mut rest: Vec<_> = heap.into_sorted_vec();
        rest.reverse();
        let rest: Vec<(i64, u64, u32)> = rest.into_iter().map(|Reverse(x)| x).collect();
        let mut all: Vec<(i64, u32)> = q.iter().collect();
        all.sort_unstable();
        let mut want: Vec<(i64, u32)> = rest.iter().map(|&(t, _, e)| (t, e)).collect();
        want.sort_unstable();
        assert_eq!(all, want);
        assert_eq!(q.drain(now), rest);
        assert_eq!(q.len(), 0);
    }
}
