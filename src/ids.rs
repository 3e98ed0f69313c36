//! Identifiers. Hosts see generation-tagged `u64` ids (slab index + generation), so a stale id
//! is an error, never a use of whatever now lives in that slot. YARN's own string ids
//! (`application_<ts>_<seq>`, `container_e<epoch>_<ts>_<app>_<attempt>_<seq>`) are formatted
//! and parsed here, at the edge.
//!
//! Layout of the core's ids: bits 0–23 are the slab slot, bits 24–47 the slot's generation
//! (wrapping after 2^24 reuses of one slot), and bits 48–63 are always zero here. The C ABI
//! puts its engine tag in those top bits when it hands an id out and checks and strips it when
//! it takes one in (`src/ffi/ids.rs`), so an id of another engine is refused there; the core
//! never sees the tag. Any id whose top bits are not zero is unknown to every slab.

use std::fmt;

/// Bits of a core id that hold the slab slot.
pub const INDEX_BITS: u32 = 24;
/// Bits of a core id that hold the slot's generation (above the slot).
pub const GENERATION_BITS: u32 = 24;
/// Bits a core id uses; the ones above are zero (the C ABI's engine tag goes there).
pub const ID_BITS: u32 = INDEX_BITS + GENERATION_BITS;
/// Live values a slab can hold at once (one per slot).
pub const MAX_SLOTS: usize = 1 << INDEX_BITS;
const INDEX_MASK: u64 = (1 << INDEX_BITS) - 1;
const GENERATION_MASK: u32 = (1 << GENERATION_BITS) - 1;

macro_rules! tagged_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub struct $name(u64);

        impl $name {
            fn new(index: usize, generation: u32) -> Self {
                debug_assert!(index < MAX_SLOTS && generation <= GENERATION_MASK);
                $name(((generation as u64) << INDEX_BITS) | index as u64)
            }
            /// The slab slot (dense, reused after removal).
            pub fn index(self) -> usize {
                (self.0 & INDEX_MASK) as usize
            }
            /// The slot's generation (bits 24–47).
            pub fn generation(self) -> u32 {
                ((self.0 >> INDEX_BITS) as u32) & GENERATION_MASK
            }
            /// The value (bits 48–63 zero for every id a slab hands out).
            pub fn as_u64(self) -> u64 {
                self.0
            }
            /// Any value; one that no slab handed out (stale, never issued, or with the top
            /// bits set) is simply unknown to every slab.
            pub fn from_u64(v: u64) -> Self {
                $name(v)
            }
        }

        impl GenId for $name {
            fn new(index: usize, generation: u32) -> Self {
                $name::new(index, generation)
            }
            fn index(self) -> usize {
                $name::index(self)
            }
            fn generation(self) -> u32 {
                $name::generation(self)
            }
        }
    };
}

tagged_id!(
    /// A registered NodeManager.
    NodeId
);
tagged_id!(
    /// A submitted application (and its current attempt).
    AppId
);
tagged_id!(
    /// A container (allocated, reserved or recovered) until it completes.
    ContainerId
);

pub trait GenId: Copy + Eq {
    fn new(index: usize, generation: u32) -> Self;
    fn index(self) -> usize;
    fn generation(self) -> u32;
}

/// A slab whose keys carry a generation: removing and reusing a slot changes the id.
///
/// Its own slots rather than the `slab` crate's, with the same allocation of slots (a free
/// slot is reused before the vector grows, the last freed first): the crate's insertion, a
/// call, moved a value built at the call (a container, 184 bytes) once more, with a
/// `memcpy`; inlined here, the value is written into its slot.
#[derive(Debug, Clone)]
pub struct GenSlab<I: GenId, T> {
    slots: Vec<Slot<I, T>>,
    /// The first free slot: the one freed last, or `slots.len()` when none is free.
    next: usize,
    len: usize,
    _id: std::marker::PhantomData<I>,
}

#[derive(Debug, Clone)]
enum Slot<I, T> {
    /// `next`: the free slot after this one. `generation`: that of the next value stored.
    Vacant { next: usize, generation: u32 },
    /// The value's whole id is kept: a look-up compares it with the id it is given, instead
    /// of putting one together from the slot and its generation.
    Occupied { id: I, value: T },
}

impl<I: GenId, T> Default for GenSlab<I, T> {
    fn default() -> Self {
        GenSlab::with_capacity(0)
    }
}

impl<I: GenId, T> GenSlab<I, T> {
    /// What one slot costs in memory (with a value that has a spare bit pattern, as a
    /// container has, the value and its whole id, no more: `state::container`'s tests).
    pub const SLOT_BYTES: usize = std::mem::size_of::<Slot<I, T>>();

    pub fn with_capacity(n: usize) -> Self {
        GenSlab {
            slots: Vec::with_capacity(n),
            next: 0,
            len: 0,
            _id: std::marker::PhantomData,
        }
    }

    #[inline]
    pub fn insert(&mut self, value: T) -> I {
        let index = self.next;
        // 16.7 million live nodes, applications or containers at once: far beyond any
        // cluster, and beyond the id layout.
        assert!(
            index < MAX_SLOTS,
            "more than {MAX_SLOTS} live values of one kind: the id space is exhausted"
        );
        let id = if index == self.slots.len() {
            let id = I::new(index, 0);
            self.slots.push(Slot::Occupied { id, value });
            self.next = index + 1;
            id
        } else {
            let slot = &mut self.slots[index];
            let Slot::Vacant { next, generation } = *slot else {
                unreachable!("the free list holds free slots only")
            };
            let id = I::new(index, generation);
            self.next = next;
            *slot = Slot::Occupied { id, value };
            id
        };
        self.len += 1;
        id
    }

    /// The live value `id` names: its slot holds a value of exactly that generation (and
    /// the id has no other bits set).
    pub fn get(&self, id: I) -> Option<&T> {
        match self.slots.get(id.index()) {
            Some(Slot::Occupied { id: held, value }) if *held == id => Some(value),
            _ => None,
        }
    }

    pub fn get_mut(&mut self, id: I) -> Option<&mut T> {
        match self.slots.get_mut(id.index()) {
            Some(Slot::Occupied { id: held, value }) if *held == id => Some(value),
            _ => None,
        }
    }

    pub fn contains(&self, id: I) -> bool {
        self.get(id).is_some()
    }

    /// Removes the value `id` names without handing it back; false if `id` names none.
    /// Inlined, so the value is never moved out of its slot: the slab skips the copy of a
    /// value nobody reads (a container is 184 bytes: moving it out of line cost two `memcpy`
    /// calls per completed container).
    #[inline]
    pub fn discard(&mut self, id: I) -> bool {
        self.take(id, |_| ()).is_some()
    }

    pub fn remove(&mut self, id: I) -> Option<T> {
        self.take(id, |v| v)
    }

    /// Frees `id`'s slot (the next one reused), its value given to `f`.
    #[inline(always)]
    fn take<R>(&mut self, id: I, f: impl FnOnce(T) -> R) -> Option<R> {
        if !self.contains(id) {
            return None;
        }
        let index = id.index();
        let vacant = Slot::Vacant {
            next: self.next,
            generation: id.generation().wrapping_add(1) & GENERATION_MASK,
        };
        let Slot::Occupied { value, .. } = std::mem::replace(&mut self.slots[index], vacant) else {
            unreachable!("checked above")
        };
        self.next = index;
        self.len -= 1;
        Some(f(value))
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = (I, &T)> {
        self.slots.iter().filter_map(|s| match s {
            Slot::Occupied { id, value } => Some((*id, value)),
            Slot::Vacant { .. } => None,
        })
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (I, &mut T)> {
        self.slots.iter_mut().filter_map(|s| match s {
            Slot::Occupied { id, value } => Some((*id, value)),
            Slot::Vacant { .. } => None,
        })
    }
}

impl<I: GenId, T> std::ops::Index<I> for GenSlab<I, T> {
    type Output = T;
    // Inlined: the allocation path indexes the same few slabs a dozen times per container,
    // and out of line each cost a call around a bounds and generation check.
    #[inline]
    fn index(&self, id: I) -> &T {
        self.get(id).expect("live id")
    }
}

impl<I: GenId, T> std::ops::IndexMut<I> for GenSlab<I, T> {
    #[inline]
    fn index_mut(&mut self, id: I) -> &mut T {
        self.get_mut(id).expect("live id")
    }
}

/// The host part of a NodeManager's address: `host:port` (YARN's `NodeId`) gives `host`, a
/// bare host itself. A suffix that is not a port number is part of the host.
pub fn node_address_host(address: &str) -> &str {
    match address.rsplit_once(':') {
        Some((host, port))
            if !host.is_empty() && !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) =>
        {
            host
        }
        _ => address,
    }
}

/// YARN's `ApplicationId`: the RM's start time and a sequence number.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ApplicationId {
    pub cluster_timestamp: i64,
    pub id: i32,
}

impl ApplicationId {
    /// Parses `application_<ts>_<seq>` (YARN's `ApplicationId.fromString`).
    pub fn parse(s: &str) -> Option<Self> {
        let (ts, id) = s.strip_prefix("application_")?.split_once('_')?;
        Some(ApplicationId {
            cluster_timestamp: parse_number(ts)?,
            id: parse_number(id)?,
        })
    }
}

/// A decimal number as YARN's ids write them: digits only (no sign, no spaces).
fn parse_number<T: std::str::FromStr>(s: &str) -> Option<T> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl fmt::Display for ApplicationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "application_{}_{:04}", self.cluster_timestamp, self.id)
    }
}

/// YARN's `ApplicationAttemptId`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ApplicationAttemptId {
    pub application: ApplicationId,
    pub attempt: i32,
}

impl ApplicationAttemptId {
    /// Parses `appattempt_<ts>_<seq>_<attempt>` (YARN's `ApplicationAttemptId.fromString`).
    pub fn parse(s: &str) -> Option<Self> {
        let rest = s.strip_prefix("appattempt_")?;
        let (app, attempt) = rest.rsplit_once('_')?;
        Some(ApplicationAttemptId {
            application: ApplicationId::parse(&format!("application_{app}"))?,
            attempt: parse_number(attempt)?,
        })
    }
}

impl fmt::Display for ApplicationAttemptId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = &self.application;
        write!(
            f,
            "appattempt_{}_{:04}_{:06}",
            a.cluster_timestamp, a.id, self.attempt
        )
    }
}

/// YARN's `ContainerId`: the attempt plus a 64-bit number whose top 24 bits are the RM epoch.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct YarnContainerId {
    pub attempt: ApplicationAttemptId,
    pub container_id: i64,
}

impl YarnContainerId {
    const EPOCH_SHIFT: u32 = 40;
    const SEQUENCE_MASK: i64 = (1 << Self::EPOCH_SHIFT) - 1;

    pub fn new(attempt: ApplicationAttemptId, epoch: i64, sequence: i64) -> Self {
        YarnContainerId {
            attempt,
            container_id: (epoch << Self::EPOCH_SHIFT) | (sequence & Self::SEQUENCE_MASK),
        }
    }
    pub fn epoch(&self) -> i64 {
        self.container_id >> Self::EPOCH_SHIFT
    }
    pub fn sequence(&self) -> i64 {
        self.container_id & Self::SEQUENCE_MASK
    }

    /// Parses `container_[e<epoch>_]<ts>_<app>_<attempt>_<seq>` (YARN's
    /// `ContainerId.fromString`): digits only, an epoch below 2^24 and a sequence below 2^40.
    pub fn parse(s: &str) -> Option<Self> {
        let rest = s.strip_prefix("container_")?;
        let mut parts: Vec<&str> = rest.split('_').collect();
        let epoch = match parts.first() {
            Some(p) if p.starts_with('e') => {
                let e: i64 = parse_number(&p[1..])?;
                parts.remove(0);
                e
            }
            _ => 0,
        };
        let [ts, app, attempt, seq] = parts.as_slice() else {
            return None;
        };
        let application = ApplicationId {
            cluster_timestamp: parse_number(ts)?,
            id: parse_number(app)?,
        };
        let attempt = ApplicationAttemptId {
            application,
            attempt: parse_number(attempt)?,
        };
        let seq: i64 = parse_number(seq)?;
        if epoch >= 1 << 23 || seq > Self::SEQUENCE_MASK {
            return None;
        }
        Some(YarnContainerId::new(attempt, epoch, seq))
    }
}

impl fmt::Display for YarnContainerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = &self.attempt.application;
        f.write_str("container_")?;
        if self.epoch() > 0 {
            write!(f, "e{:02}_", self.epoch())?;
        }
        write!(
            f,
            "{}_{:04}_{:02}_{:06}",
            a.cluster_timestamp,
            a.id,
            self.attempt.attempt,
            self.sequence()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_ids_are_rejected_after_reuse() {
        let mut s: GenSlab<NodeId, &str> = GenSlab::default();
        let a = s.insert("a");
        assert_eq!(s.remove(a), Some("a"));
        let b = s.insert("b");
        assert_eq!(a.index(), b.index());
        assert_ne!(a, b);
        assert_eq!(s.get(a), None);
        assert_eq!(s.get(b), Some(&"b"));
        assert_eq!(s.remove(a), None);
    }

    #[test]
    fn discarding_retires_the_id_as_removing_does() {
        let mut s: GenSlab<ContainerId, u8> = GenSlab::default();
        let a = s.insert(1);
        assert!(s.discard(a));
        assert!(!s.discard(a));
        assert_eq!(s.get(a), None);
        let b = s.insert(2);
        assert_eq!((b.index(), b.generation()), (a.index(), a.generation() + 1));
        assert_eq!(s.remove(a), None);
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn ids_use_the_low_48_bits_and_nothing_else_is_found() {
        let mut s: GenSlab<AppId, u8> = GenSlab::default();
        let a = s.insert(1);
        s.remove(a);
        let b = s.insert(2);
        assert_eq!((b.index(), b.generation()), (0, 1));
        assert_eq!(b.as_u64(), 1 << INDEX_BITS);
        assert_eq!(b.as_u64() >> ID_BITS, 0);
        for bit in ID_BITS..64 {
            let tagged = AppId::from_u64(b.as_u64() | (1 << bit));
            assert_eq!((tagged.index(), tagged.generation()), (0, 1));
            assert_eq!(s.get(tagged), None, "bit {bit}");
            assert!(!s.contains(tagged));
        }
        assert_eq!(s.get(b), Some(&2));
    }

    #[test]
    fn generations_wrap_within_their_bits() {
        // One free slot, its next value's generation the last.
        let mut s: GenSlab<ContainerId, u8> = GenSlab {
            slots: vec![Slot::Vacant {
                next: 1,
                generation: GENERATION_MASK,
            }],
            ..GenSlab::default()
        };
        let last = s.insert(1);
        assert_eq!(last.generation(), GENERATION_MASK);
        assert_eq!(last.as_u64() >> ID_BITS, 0);
        s.remove(last);
        let wrapped = s.insert(2);
        assert_eq!((wrapped.index(), wrapped.generation()), (0, 0));
        assert_eq!(s.get(last), None);
    }

    #[test]
    fn yarn_string_ids_round_trip() {
        let app = ApplicationId {
            cluster_timestamp: 1410901177871,
            id: 1,
        };
        assert_eq!(app.to_string(), "application_1410901177871_0001");
        let attempt = ApplicationAttemptId {
            application: app,
            attempt: 1,
        };
        assert_eq!(attempt.to_string(), "appattempt_1410901177871_0001_000001");
        let c = YarnContainerId::new(attempt, 0, 5);
        assert_eq!(c.to_string(), "container_1410901177871_0001_01_000005");
        assert_eq!(YarnContainerId::parse(&c.to_string()), Some(c));
        let e = YarnContainerId::new(attempt, 17, 5);
        assert_eq!(e.to_string(), "container_e17_1410901177871_0001_01_000005");
        assert_eq!(YarnContainerId::parse(&e.to_string()), Some(e));
        assert_eq!(YarnContainerId::parse("container_x"), None);
        assert_eq!(ApplicationId::parse(&app.to_string()), Some(app));
        assert_eq!(
            ApplicationAttemptId::parse(&attempt.to_string()),
            Some(attempt)
        );
        // Ids past YARN's minimum widths, and what YARN would refuse.
        let big = ApplicationId {
            cluster_timestamp: 1,
            id: 123_456,
        };
        assert_eq!(ApplicationId::parse("application_1_123456"), Some(big));
        for bad in [
            "application_1",
            "application_-1_0001",
            "application_1_+1",
            "appattempt_1_0001",
            "container_e_1_0001_01_000001",
            "container_e16777216_1_0001_01_000001",
            "container_1_0001_01_1099511627776",
        ] {
            assert_eq!(ApplicationId::parse(bad), None, "{bad}");
            assert_eq!(ApplicationAttemptId::parse(bad), None, "{bad}");
            assert_eq!(YarnContainerId::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn node_addresses_split_into_host_and_port() {
        assert_eq!(node_address_host("h1:45454"), "h1");
        assert_eq!(node_address_host("h1"), "h1");
        assert_eq!(node_address_host("h1:"), "h1:");
        assert_eq!(node_address_host(":1"), ":1");
        assert_eq!(node_address_host("fe80::1:x"), "fe80::1:x");
    }
}
