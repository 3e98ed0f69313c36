//! Capacities derived from the configuration and the cluster size (spec §2): relative and
//! absolute capacities, normalised weights, and the effective (guaranteed and maximum)
//! resources — percentage, weight and absolute-resource modes alike.
//!
//! Arithmetic follows YARN's types: capacities are Java `float` (f32), `Resources.multiply`
//! widens the float to double and truncates, the absolute-mode scaling ratio stays a float.

use crate::config::{CapacityValue, MaxCapacityValue, QueueConf, SchedulerSettings};
use crate::resource::{divide_or_zero, Resource, ResourceCalculator};

/// YARN's `QueueCapacities` for the default partition, plus the effective resources.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct QueueCapacities {
    /// Fraction of the parent (0 in weight mode, as YARN keeps it).
    pub capacity: f32,
    /// Fraction of the parent's maximum.
    pub maximum_capacity: f32,
    pub absolute_capacity: f32,
    pub absolute_maximum_capacity: f32,
    /// The configured weight, −1 when the queue is not in weight mode.
    pub weight: f32,
    /// weight / Σ siblings' weights (weight mode), else 0.
    pub normalized_weight: f32,
    /// The guaranteed resource (`effectiveMinResource`).
    pub effective_min: Resource,
    /// The hard cap (`effectiveMaxResource`).
    pub effective_max: Resource,
}

/// Derives every queue's capacities for a cluster of `cluster`, top-down over the pre-order
/// queue list (parents before children). Never panics on any valid configuration.
pub fn derive_capacities(
    queues: &[QueueConf],
    settings: &SchedulerSettings,
    cluster: Resource,
) -> Vec<QueueCapacities> {
    derive_capacities_by(
        queues,
        settings,
        cluster,
        |q| queues[q].capacity.clone(),
        |q| queues[q].maximum_capacity.clone(),
    )
}

/// The same derivation over other configured values — a node label's (`partitions`): each
/// queue's capacity and maximum by index, on a partition of resource `cluster`.
pub fn derive_capacities_by(
    queues: &[QueueConf],
    settings: &SchedulerSettings,
    cluster: Resource,
    capacity_of: impl Fn(usize) -> CapacityValue,
    maximum_of: impl Fn(usize) -> MaxCapacityValue,
) -> Vec<QueueCapacities> {
    let rc = settings.resource_calculator;
    let mut out = vec![QueueCapacities::default(); queues.len()];
    if queues.is_empty() {
        return out;
    }
    out[0] = QueueCapacities {
        capacity: 1.0,
        maximum_capacity: 1.0,
        absolute_capacity: 1.0,
        absolute_maximum_capacity: 1.0,
        weight: -1.0,
        normalized_weight: 0.0,
        effective_min: cluster,
        effective_max: cluster,
    };
    for (p, parent) in queues.iter().enumerate() {
        if parent.children.is_empty() {
            continue;
        }
        let parent_caps = out[p];
        let weight_sum: f32 = parent
            .children
            .iter()
            .filter_map(|&c| match capacity_of(c) {
                CapacityValue::Weight(w) => Some(w.max(0.0)),
                _ => None,
            })
            .fold(0.0, |a, b| a + b);
        let min_ratio = absolute_min_ratio(
            rc,
            cluster,
            parent.children.iter().map(|&c| capacity_of(c)),
            parent_caps.effective_min,
        );
        let parent_configured_max = match maximum_of(p) {
            MaxCapacityValue::Absolute(a) => a.resource(),
            MaxCapacityValue::Percent(_) => parent_caps.effective_max,
        };
        for &c in &parent.children {
            out[c] = derive_child(
                rc,
                cluster,
                (capacity_of(c), maximum_of(c)),
                &parent_caps,
                weight_sum,
                &min_ratio,
                parent_configured_max,
            );
        }
    }
    out
}

/// `ParentQueue` absolute mode: when the parent's effective minimum is smaller than what the
/// children ask for in total, each resource type of every child is scaled down by
/// parent/Σchildren (a float, as YARN keeps it). `None` for a type means "not scaled".
fn absolute_min_ratio(
    rc: ResourceCalculator,
    cluster: Resource,
    children: impl Iterator<Item = CapacityValue>,
    parent_effective_min: Resource,
) -> Vec<Option<f32>> {
    let types = rc.types();
    let sum = children
        .filter_map(|c| match c {
            CapacityValue::Absolute(a) => Some(a.resource()),
            _ => None,
        })
        .fold(Resource::ZERO, |a, b| a + b);
    if sum.is_zero() || !rc.less_than(&cluster, &parent_effective_min, &sum) {
        return vec![None; types];
    }
    (0..types)
        .map(|i| (sum.get(i) != 0).then(|| parent_effective_min.get(i) as f32 / sum.get(i) as f32))
        .collect()
}

fn derive_child(
    rc: ResourceCalculator,
    cluster: Resource,
    (capacity, maximum): (CapacityValue, MaxCapacityValue),
    parent: &QueueCapacities,
    weight_sum: f32,
    min_ratio: &[Option<f32>],
    parent_configured_max: Resource,
) -> QueueCapacities {
    let mut caps = QueueCapacities {
        weight: -1.0,
        ..Default::default()
    };

    // Maximum first: absolute-mode capacity needs the effective maximum of the parent only,
    // but percentage maxima are needed for every mode.
    match &maximum {
        MaxCapacityValue::Percent(m) => {
            caps.maximum_capacity = *m;
            caps.absolute_maximum_capacity = m * parent.absolute_maximum_capacity;
            caps.effective_max = cluster.multiply(caps.absolute_maximum_capacity as f64);
        }
        MaxCapacityValue::Absolute(a) => {
            // effMax = min(cluster, configured max, parent max), per component.
            let configured = a.resource();
            caps.effective_max = Resource::component_min(
                Resource::component_min(cluster, configured),
                parent_configured_max,
            );
            caps.maximum_capacity =
                divide_or_zero(rc, cluster, caps.effective_max, parent.effective_max);
            caps.absolute_maximum_capacity =
                caps.maximum_capacity * parent.absolute_maximum_capacity;
        }
    }

    match &capacity {
        CapacityValue::Percent(p) => {
            caps.capacity = *p;
            caps.absolute_capacity = p * parent.absolute_capacity;
            caps.effective_min = cluster.multiply(caps.absolute_capacity as f64);
        }
        CapacityValue::Weight(w) => {
            caps.weight = *w;
            caps.normalized_weight = if weight_sum > 1e-6 {
                w.max(0.0) / weight_sum
            } else {
                0.0
            };
            caps.absolute_capacity = caps.normalized_weight * parent.absolute_capacity;
            caps.effective_min = cluster.multiply(caps.absolute_capacity as f64);
        }
        CapacityValue::Absolute(a) => {
            let configured = a.resource();
            let mut min = configured;
            for (i, ratio) in min_ratio.iter().enumerate() {
                if let Some(r) = ratio {
                    // Java: (long) (longValue * floatRatio), evaluated in float.
                    min.set(i, (configured.get(i) as f32 * r) as i64);
                }
            }
            caps.effective_min = min;
            caps.capacity = divide_or_zero(rc, cluster, min, parent.effective_min);
            caps.absolute_capacity = caps.capacity * parent.absolute_capacity;
        }
    }
    caps
}
