//! Partitions (node labels) as the scheduler's bookkeeping sees them: small ids, and the
//! resources of the labelled partitions kept beside the default partition's plain field.
//!
//! YARN keeps a `ResourceUsage` per partition for every queue, user and attempt; its plain
//! getters read the default partition. capsched keeps that default value where it always
//! was (`Queue::used`, `User::used`, …), so a cluster without labels pays nothing, and the
//! labelled partitions' values sparsely beside it (`ByPartition`).

use smallvec::SmallVec;

use crate::resource::Resource;

/// A partition: 0 is the default one (no label); others index the cluster's labels
/// (`NodeLabelsManager`), never reused.
pub type Partition = u32;
pub const DEFAULT_PARTITION: Partition = 0;

/// Resources by labelled partition. An entry, once made, stays (at zero too), as a partition
/// once touched stays in YARN's `ResourceUsage` and so in its REST document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ByPartition(SmallVec<[(Partition, Resource); 1]>);

impl ByPartition {
    pub fn get(&self, p: Partition) -> Resource {
        self.0
            .iter()
            .find(|(q, _)| *q == p)
            .map(|(_, r)| *r)
            .unwrap_or(Resource::ZERO)
    }

    pub fn add(&mut self, p: Partition, delta: Resource) {
        debug_assert_ne!(p, DEFAULT_PARTITION, "the default partition is kept apart");
        match self.0.iter_mut().find(|(q, _)| *q == p) {
            Some((_, r)) => *r += delta,
            None => self.0.push((p, delta)),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (Partition, Resource)> + '_ {
        self.0.iter().copied()
    }

    /// Every labelled partition's value together.
    pub fn sum(&self) -> Resource {
        self.0.iter().map(|(_, r)| *r).sum()
    }

    pub fn all_zero(&self) -> bool {
        self.0.iter().all(|(_, r)| r.is_zero())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The one place that picks the default field or the labelled map.
pub fn add_in(default: &mut Resource, labelled: &mut ByPartition, p: Partition, delta: Resource) {
    if p == DEFAULT_PARTITION {
        *default += delta;
    } else {
        labelled.add(p, delta);
    }
}

pub fn get_in(default: Resource, labelled: &ByPartition, p: Partition) -> Resource {
    if p == DEFAULT_PARTITION {
        default
    } else {
        labelled.get(p)
    }
}
