//! Capacities per node label (partition) other than the default one, as YARN 3.3.6 derives
//! them (`CSQueueUtils.updateAbsoluteCapacitiesByNodeLabels`,
//! `ParentQueue.calculateEffectiveResourcesAndCapacity` per label): a queue has values for
//! the labels it has keys for; absolute values multiply down the tree (a missing parent value
//! reads 0, so a label root has no key for is usable by nobody); effective resources are the
//! partition's resource times them, truncated.

use std::collections::BTreeMap;

use crate::config::QueueConf;
use crate::resource::Resource;

/// One queue's values for one label.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PartitionCapacities {
    pub capacity: f32,
    pub maximum_capacity: f32,
    pub absolute_capacity: f32,
    pub absolute_maximum_capacity: f32,
    pub effective_min: Resource,
    pub effective_max: Resource,
}

/// Every queue's values for the labels it has keys for; `resource_of(label)` is the
/// partition's resource (0 for a label no running node has).
pub fn derive_partition_capacities(
    queues: &[QueueConf],
    resource_of: impl Fn(&str) -> Resource,
) -> Vec<BTreeMap<String, PartitionCapacities>> {
    let mut out: Vec<BTreeMap<String, PartitionCapacities>> = vec![BTreeMap::new(); queues.len()];
    // Pre-order: a parent's values exist before its children's.
    for (i, q) in queues.iter().enumerate() {
        for (label, lc) in &q.labels.capacities {
            let (parent_abs, parent_abs_max) = match q.parent {
                None => (1.0, 1.0),
                Some(p) => out[p]
                    .get(label)
                    .map(|c| (c.absolute_capacity, c.absolute_maximum_capacity))
                    .unwrap_or((0.0, 0.0)),
            };
            let mut c = PartitionCapacities {
                capacity: lc.capacity,
                maximum_capacity: lc.maximum_capacity,
                ..Default::default()
            };
            if q.parent.is_none() {
                c.absolute_capacity = 1.0;
                c.absolute_maximum_capacity = 1.0;
            } else {
                if lc.capacity > 0.0 {
                    c.absolute_capacity = lc.capacity * parent_abs;
                }
                if lc.maximum_capacity > 0.0 {
                    c.absolute_maximum_capacity = lc.maximum_capacity * parent_abs_max;
                }
            }
            let partition = resource_of(label);
            // Only where the parent configures the label are a child's resources computed.
            let computed = q
                .parent
                .is_none_or(|p| queues[p].labels.capacities.contains_key(label));
            if computed {
                c.effective_min = partition.multiply(c.absolute_capacity as f64);
                c.effective_max = partition.multiply(c.absolute_maximum_capacity as f64);
            }
            out[i].insert(label.clone(), c);
        }
    }
    out
}
