//! `RMContainer`: one container from reservation or allocation until it completes.

use crate::ids::{AppId, ContainerId, NodeId, YarnContainerId};
use crate::records::{ContainerState, ExecutionType, NodeType, SchedulerKey};
use crate::resource::Resource;
use crate::state::request::Satisfied;

/// A scheduler time that may not have come yet, in 8 bytes where `Option<i64>` takes 16
/// (issue 18: every container has two): `i64::MIN`, a time no event carries, is "not yet".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaybeMs(i64);

impl MaybeMs {
    pub const NONE: MaybeMs = MaybeMs(i64::MIN);

    pub const fn at(ms: i64) -> Self {
        MaybeMs(ms)
    }

    pub const fn get(self) -> Option<i64> {
        if self.0 == i64::MIN {
            None
        } else {
            Some(self.0)
        }
    }
}

/// Kept small (issue 18: at most 300 bytes per running container with its indexes).
#[derive(Debug, Clone)]
pub struct RmContainer {
    pub yarn_id: YarnContainerId,
    pub app: AppId,
    pub node: NodeId,
    pub resource: Resource,
    pub key: SchedulerKey,
    pub state: ContainerState,
    pub execution_type: ExecutionType,
    pub node_type: NodeType,
    pub is_am: bool,
    /// When the container was allocated (or reserved), scheduler time.
    pub created_ms: i64,
    /// When the AM pulled it (ALLOCATED → ACQUIRED): the allocation-expiry clock starts here.
    pub acquired_ms: MaybeMs,
    /// When its NodeManager first reported it launched (RUNNING), or it was recovered.
    pub launched_ms: MaybeMs,
    /// The request entries this allocation satisfied, re-added if it is rescheduled.
    pub satisfied: Satisfied,
    /// Index in its attempt's `preempt_view` while running (not reserved).
    pub view_pos: u32,
    /// The container token's version (spec O8): bumped by each promotion or demotion.
    pub version: i32,
    /// Placed by a node's `DistributedScheduler` (spec O7), not by the RM.
    pub remotely_allocated: bool,
    /// Lazy preemption: the monitor's wait is over and the container may be killed as soon as
    /// a queue below its guarantee needs its room on this node (YARN's killable containers);
    /// it runs on until then, or until it finishes by itself.
    pub killable: bool,
    /// The partition its resource is booked to: its node's (a relabelled node moves it).
    pub partition: crate::state::partition::Partition,
    /// Asked for the default partition and placed on a labelled node lending its room
    /// (`IGNORE_PARTITION_EXCLUSIVITY`): the preemption policy takes these first there.
    pub ignore_exclusivity: bool,
    /// The partition its ask was for (`RMContainer.getNodeLabelExpression`): where the ask
    /// goes back to if the container is lost before it runs.
    pub requested_partition: crate::state::partition::Partition,
}

impl RmContainer {
    pub fn is_reserved(&self) -> bool {
        self.state == ContainerState::Reserved
    }

    pub fn is_opportunistic(&self) -> bool {
        self.execution_type == ExecutionType::Opportunistic
    }
}

/// A set of containers in id order (as a `BTreeSet` iterates them): a sorted vector, 8 bytes
/// and its spare capacity per container instead of a B-tree's ~23 (issue 18). A node's
/// containers and an attempt's live ones: adding one is a binary search and, while new ids
/// come in ascending order, a push (no node allocated, nothing split: a B-tree insert cost
/// ~270 instructions on the allocation path); removing one shifts the ids after it, short
/// for the tens to thousands of containers a node or an attempt runs. Readers iterate in id
/// order, so what they do is what they did over the `BTreeSet`.
///
/// The oldest container usually ends first, and removing it shifted every other id (a
/// `memmove` per node and per attempt at each completion): it is dropped by moving `head`,
/// the first live slot, past it instead; the dead slots before `head` are reused when a push
/// finds the vector full, before it would grow.
#[derive(Debug, Clone, Default)]
pub struct ContainerSet {
    ids: Vec<ContainerId>,
    /// `ids[..head]` are ended containers not yet shifted out.
    head: u32,
}

impl PartialEq for ContainerSet {
    fn eq(&self, other: &Self) -> bool {
        self.live() == other.live()
    }
}

impl Eq for ContainerSet {}

/// The most elements `reserve_when_full` adds at once to an empty vector: the hint of a huge
/// ask must not turn into a large allocation for containers that may never come (an
/// attempt's preemption view takes 88 bytes a container).
pub const MAX_PRESIZE: usize = 64;

/// When `v` is full, makes room for the `expected` elements still to come in one step,
/// instead of doubling from empty through 4, 8, 16, ...: each step is a reallocation and a
/// copy on the allocation path (with the frees, ~100 instructions per allocated container on
/// 2,000 / 2,000 / 50, where an application gets 20 containers; issue 18). The step is at
/// most `MAX_PRESIZE` or three times what the vector holds, whichever is larger: an
/// application that got 64 containers of an ask of 200 takes the other 136 in one step
/// (one copy of 64 entries, where doubling made two, of 64 and 128, and ended at 256), while
/// room never runs past the ask nor past four times what is held. Only when full, so a
/// shrinking hint never reallocates early, and growth stays at least doubling
/// (`Vec::reserve`).
#[inline]
pub fn reserve_when_full<T>(v: &mut Vec<T>, expected: usize) {
    if v.len() == v.capacity() {
        v.reserve(expected.clamp(1, MAX_PRESIZE.max(3 * v.len())));
    }
}

impl ContainerSet {
    /// The containers in the set, in id order.
    #[inline]
    fn live(&self) -> &[ContainerId] {
        &self.ids[self.head as usize..]
    }

    /// Shifts the live ids to the front, reusing the ended ones' slots.
    #[cold]
    fn compact(&mut self) {
        self.ids.drain(..self.head as usize);
        self.head = 0;
    }

    /// Before adding to a full vector: the ended ids' slots, if any, instead of growing.
    #[inline]
    fn make_room(&mut self) {
        if self.head > 0 && self.ids.len() == self.ids.capacity() {
            self.compact();
        }
    }

    /// Makes room for `expected` more containers when the set is full (`reserve_when_full`):
    /// the ended containers' slots first.
    #[inline]
    pub fn reserve_when_full(&mut self, expected: usize) {
        if self.ids.len() == self.ids.capacity() {
            if self.head > 0 {
                self.compact();
            } else {
                reserve_when_full(&mut self.ids, expected);
            }
        }
    }

    /// Adds `id`; false if it was there already. Inlined: a new id is usually the largest,
    /// a push, on the allocation path.
    #[inline]
    pub fn insert(&mut self, id: ContainerId) -> bool {
        // `ids` holds a live id whenever it holds any (`remove` empties it with the last).
        if self.ids.last().is_none_or(|last| *last < id) {
            self.make_room();
            self.ids.push(id);
            return true;
        }
        self.insert_within(id)
    }

    /// `insert` of an id below the largest: found by a binary search, the later ids shifted.
    #[inline(never)]
    fn insert_within(&mut self, id: ContainerId) -> bool {
        match self.live().binary_search(&id) {
            Ok(_) => false,
            Err(at) => {
                self.make_room();
                self.ids.insert(self.head as usize + at, id);
                true
            }
        }
    }

    /// Removes `id`; false if it was not there.
    pub fn remove(&mut self, id: &ContainerId) -> bool {
        let live = self.live();
        let at = if live.first() == Some(id) {
            Ok(0)
        } else {
            live.binary_search(id)
        };
        match at {
            // The oldest: the set starts after it.
            Ok(0) => {
                self.head += 1;
                if self.head as usize == self.ids.len() {
                    self.ids.clear();
                    self.head = 0;
                }
                true
            }
            Ok(at) => {
                self.ids.remove(self.head as usize + at);
                true
            }
            Err(_) => false,
        }
    }

    pub fn contains(&self, id: &ContainerId) -> bool {
        self.live().binary_search(id).is_ok()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, ContainerId> {
        self.live().iter()
    }

    pub fn len(&self) -> usize {
        self.live().len()
    }

    pub fn is_empty(&self) -> bool {
        self.live().is_empty()
    }
}

impl<'a> IntoIterator for &'a ContainerSet {
    type Item = &'a ContainerId;
    type IntoIter = std::slice::Iter<'a, ContainerId>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{GenId, GenSlab};

    /// A container's slot takes its id and the container, no more than the `slab` crate's
    /// took with the generation (the slot's tag sits in a spare value of the container's).
    #[test]
    fn a_container_slot_is_its_id_and_the_container() {
        let slot = GenSlab::<ContainerId, RmContainer>::SLOT_BYTES;
        assert_eq!(slot, 8 + std::mem::size_of::<RmContainer>());
    }

    fn id(i: usize) -> ContainerId {
        ContainerId::new(i, 0)
    }

    fn ids(s: &ContainerSet) -> Vec<usize> {
        s.iter().map(|c| c.index()).collect()
    }

    /// Ended oldest containers leave slots before `head`; whatever the order of removals and
    /// insertions, the set reads as the sorted set of its live ids, and pushes reuse the slots.
    #[test]
    fn a_set_dropping_its_oldest_reads_as_the_ids_it_holds() {
        let mut s = ContainerSet::default();
        let mut model = std::collections::BTreeSet::new();
        let mut next = 0;
        for round in 0..200 {
            // Mostly the churn of a node: the oldest ends, a new one comes.
            let oldest = model.iter().next().copied();
            if let Some(o) = oldest.filter(|_| round % 3 != 0) {
                assert!(s.remove(&id(o)));
                model.remove(&o);
            }
            if round % 7 == 3 {
                let middle = model.iter().nth(model.len() / 2).copied();
                if let Some(m) = middle {
                    assert!(s.remove(&id(m)));
                    model.remove(&m);
                }
            }
            assert!(!s.remove(&id(next + 1000)));
            assert!(s.insert(id(next)));
            model.insert(next);
            next += 1;
            if round % 11 == 5 {
                // An id below the newest (a slab slot reused).
                let low = next + 500;
                assert!(s.insert(id(low)));
                assert!(!s.insert(id(low)));
                model.insert(low);
            }
            assert_eq!(ids(&s), model.iter().copied().collect::<Vec<_>>());
            assert_eq!(s.len(), model.len());
            assert!(model.iter().all(|&m| s.contains(&id(m))));
            assert!(
                s.ids.capacity() <= 4 * model.len().max(8),
                "the dead slots are reused"
            );
        }
        let mut same = ContainerSet::default();
        for &m in &model {
            same.insert(id(m));
        }
        assert_eq!(s, same);
        for &m in &model {
            assert!(s.remove(&id(m)));
        }
        assert!(s.is_empty());
        assert_eq!((s.ids.len(), s.head), (0, 0));
    }
}
