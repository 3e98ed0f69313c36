//! `RMContainer`: one container from reservation or allocation until it completes.

use crate::ids::{AppId, ContainerId, NodeId, YarnContainerId};
use crate::resource::Resource;
use crate::scheduler::types::{ContainerState, ExecutionType, NodeType, SchedulerKey};
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerSet(Vec<ContainerId>);

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
    /// Makes room for `expected` more containers when the set is full (`reserve_when_full`).
    #[inline]
    pub fn reserve_when_full(&mut self, expected: usize) {
        reserve_when_full(&mut self.0, expected);
    }

    /// Adds `id`; false if it was there already.
    // Inlined: a new id is usually the largest (a push), twice per allocated container; the
    // search for an older id's place stays out of line.
    #[inline]
    pub fn insert(&mut self, id: ContainerId) -> bool {
        if self.0.last().is_none_or(|last| *last < id) {
            self.0.push(id);
            return true;
        }
        self.insert_in_order(id)
    }

    /// `insert` of an id smaller than the largest.
    #[inline(never)]
    fn insert_in_order(&mut self, id: ContainerId) -> bool {
        match self.0.binary_search(&id) {
            Ok(_) => false,
            Err(at) => {
                self.0.insert(at, id);
                true
            }
        }
    }

    /// Removes `id`; false if it was not there.
    pub fn remove(&mut self, id: &ContainerId) -> bool {
        match self.0.binary_search(id) {
            Ok(at) => {
                self.0.remove(at);
                true
            }
            Err(_) => false,
        }
    }

    pub fn contains(&self, id: &ContainerId) -> bool {
        self.0.binary_search(id).is_ok()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, ContainerId> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> IntoIterator for &'a ContainerSet {
    type Item = &'a ContainerId;
    type IntoIter = std::slice::Iter<'a, ContainerId>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
