//! Capacities per node label (partition) other than the default one, as YARN 3.3.6 derives
//! them (`CSQueueUtils.updateAbsoluteCapacitiesByNodeLabels`,
//! `ParentQueue.calculateEffectiveResourcesAndCapacity` per label): a queue has values for
//! the labels it has keys for; the same derivation as the default partition's runs per label
//! on the label's configured values — percentages multiply down the tree, absolute resources
//! are scaled to what the parent has and turned back into percentages — on the partition's
//! resource. A label root has no key for is usable by nobody (every value 0).

use std::collections::{BTreeMap, BTreeSet};

use super::capacities::derive_capacities_by;
use crate::config::{CapacityValue, MaxCapacityValue, QueueConf, SchedulerSettings};
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
    settings: &SchedulerSettings,
    resource_of: impl Fn(&str) -> Resource,
) -> Vec<BTreeMap<String, PartitionCapacities>> {
    let mut out: Vec<BTreeMap<String, PartitionCapacities>> = vec![BTreeMap::new(); queues.len()];
    let labels: BTreeSet<&str> = queues
        .iter()
        .flat_map(|q| q.labels.capacities.keys().map(String::as_str))
        .collect();
    for label in labels {
        let root_has_it = queues
            .first()
            .is_some_and(|r| r.labels.capacities.contains_key(label));
        let derived = root_has_it.then(|| {
            derive_capacities_by(
                queues,
                settings,
                resource_of(label),
                |q| {
                    let c = queues[q].labels.capacity(label);
                    match c.minimum_resource {
                        Some(a) => CapacityValue::Absolute(a),
                        None => CapacityValue::Percent(c.capacity),
                    }
                },
                |q| {
                    let c = queues[q].labels.capacity(label);
                    match c.maximum_resource {
                        Some(a) => MaxCapacityValue::Absolute(a),
                        None => MaxCapacityValue::Percent(c.maximum_capacity),
                    }
                },
            )
        });
        for (i, q) in queues.iter().enumerate() {
            let Some(lc) = q.labels.capacities.get(label) else {
                continue;
            };
            let c = match &derived {
                Some(d) => PartitionCapacities {
                    capacity: d[i].capacity,
                    maximum_capacity: d[i].maximum_capacity,
                    absolute_capacity: d[i].absolute_capacity,
                    absolute_maximum_capacity: d[i].absolute_maximum_capacity,
                    effective_min: d[i].effective_min,
                    effective_max: d[i].effective_max,
                },
                // Without root's key every absolute value, and so every resource, is 0.
                None => PartitionCapacities {
                    capacity: lc.capacity,
                    maximum_capacity: lc.maximum_capacity,
                    ..Default::default()
                },
            };
            out[i].insert(label.to_string(), c);
        }
    }
    out
}
