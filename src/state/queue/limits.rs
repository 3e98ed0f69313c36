//! Limits derived per leaf (spec §2): application caps, the limit a parent hands a child, the
//! AM resource limit and the per-user AM resource limit.

use super::{LeafLimits, QueueId, QueueTree};
use crate::config::SchedulerSettings;
use crate::resource::Resource;

/// YARN 3.3 `LeafQueue.setupQueueConfigs`: per-queue value, else the global per-queue value,
/// else `(int)(maximum-applications × absoluteCapacity)` evaluated in float.
fn max_applications(settings: &SchedulerSettings, configured: i32, absolute_capacity: f32) -> i32 {
    if configured >= 0 {
        configured
    } else if settings.global_queue_max_applications > 0 {
        settings.global_queue_max_applications
    } else {
        (settings.maximum_applications as f32 * absolute_capacity) as i32
    }
}

/// `min(maxApps, (int)(maxApps × UL%/100 × ULF))`; ULF −1 (disabled) ⇒ maxApps.
fn max_applications_per_user(
    max_apps: i32,
    user_limit_percent: f32,
    user_limit_factor: f32,
) -> i32 {
    if user_limit_factor == -1.0 {
        return max_apps;
    }
    let per_user = (max_apps as f32 * (user_limit_percent / 100.0) * user_limit_factor) as i32;
    max_apps.min(per_user)
}

/// Recomputes every queue's `limit_from_parent` top-down and every leaf's limits.
pub(super) fn recompute(tree: &mut QueueTree) {
    let conf = tree.conf.clone();
    let settings = conf.settings();
    let rc = settings.resource_calculator;
    let step = settings.minimum_allocation;
    let cluster = tree.cluster;
    tree.queues[0].limit_from_parent = tree.default_partition;
    for id in 0..tree.queues.len() {
        let qc = &conf.queues()[id];
        if let Some(leaf) = &qc.leaf {
            // An auto-created leaf sizes its cap when it is made, from the template's absolute
            // capacity; its entitlement (often 0) does not move it.
            let template = qc.parent.filter(|_| qc.auto_created).and_then(|p| {
                let mp = conf.queues()[p].managed.as_deref()?;
                Some(mp.template_capacity() * tree.queues[p].capacities.absolute_capacity)
            });
            let absolute_capacity =
                template.unwrap_or(tree.queues[id].capacities.absolute_capacity);
            let q = &mut tree.queues[id];
            let max_apps = max_applications(settings, leaf.maximum_applications, absolute_capacity);
            q.leaf = Some(LeafLimits {
                max_applications: max_apps,
                max_applications_per_user: max_applications_per_user(
                    max_apps,
                    leaf.user_limit_percent,
                    leaf.user_limit_factor,
                ),
            });
            continue;
        }
        // ParentQueue.getResourceLimitsOfChild, outside allocation (no blocked headroom):
        // childLimit = roundDown(min(parentLimit, parent.effectiveMax) − parent.used + child.used)
        let parent = &tree.queues[id];
        let l = rc.min(
            &cluster,
            &parent.limit_from_parent,
            &parent.capacities.effective_max,
        );
        let parent_used = parent.used;
        for &c in &qc.children {
            let child = &mut tree.queues[c];
            child.limit_from_parent = rc.round_down(&(l - parent_used + child.used), &step);
        }
    }
}

impl QueueTree {
    /// Recomputes the parent-to-child limits and leaf limits (after a usage change).
    pub fn recompute_limits(&mut self) {
        recompute(self);
    }

    /// `queueCurrentLimit = min(roundDown(effectiveMax), limitFromParent)`: the most this queue
    /// may hold now (YARN's cachedResourceLimitsForHeadroom).
    pub fn queue_current_limit(&self, id: QueueId) -> Resource {
        let s = self.settings();
        let rc = s.resource_calculator;
        let q = &self.queues[id];
        let max = rc.round_down(&q.capacities.effective_max, &s.minimum_allocation);
        rc.min(&self.cluster, &max, &q.limit_from_parent)
    }

    /// The leaf's AM resource limit (`calculateAndGetAMResourceLimitPerPartition`, with
    /// YARN-10935): `amPercent ×` the current limit if the guarantee fits in it, else the
    /// guarantee, normalised up to the minimum allocation.
    pub fn am_resource_limit(&self, id: QueueId) -> Resource {
        let s = self.settings();
        let rc = s.resource_calculator;
        let Some(leaf) = &self.conf(id).leaf else {
            return Resource::ZERO;
        };
        let current = self.queue_current_limit(id);
        let effective_min = self.queues[id].capacities.effective_min;
        let usable = if rc.fits_in(&effective_min, &current) {
            current
        } else {
            effective_min
        };
        rc.multiply_and_normalize_up(
            &usable,
            leaf.maximum_am_resource_percent as f64,
            &s.minimum_allocation,
        )
    }

    /// The AM resource limit in a labelled partition (`calculateAndGetAMResourceLimitPerPartition`
    /// for a label): its AM share (the label's `maximum-am-resource-percent`, else the queue's)
    /// of the queue's guarantee there, normalised up.
    pub fn am_resource_limit_in(&self, id: QueueId, label: &str) -> Resource {
        let s = self.settings();
        let Some((percent, effective_min)) = self.label_am_inputs(id, label) else {
            return Resource::ZERO;
        };
        s.resource_calculator.multiply_and_normalize_up(
            &effective_min,
            percent as f64,
            &s.minimum_allocation,
        )
    }

    /// The per-user AM limit in a labelled partition (`getUserAMResourceLimitPerPartition`).
    pub fn user_am_resource_limit_in(
        &self,
        id: QueueId,
        label: &str,
        active_users: u32,
        user_weight: f32,
    ) -> Resource {
        let s = self.settings();
        let rc = s.resource_calculator;
        let (Some(leaf), Some((percent, effective_min))) =
            (&self.conf(id).leaf, self.label_am_inputs(id, label))
        else {
            return Resource::ZERO;
        };
        let am_limit = self.am_resource_limit_in(id, label);
        let effective_user_limit =
            (leaf.user_limit_percent / 100.0).max(1.0 / active_users.max(1) as f32);
        let weighted = (effective_user_limit * user_weight).min(1.0);
        let factor = if leaf.user_limit_factor == -1.0 {
            percent
        } else {
            percent * weighted * leaf.user_limit_factor
        };
        let user_am =
            rc.multiply_and_normalize_up(&effective_min, factor as f64, &s.minimum_allocation);
        rc.min(&self.cluster, &user_am, &am_limit)
    }

    /// A leaf's AM share and guarantee in a labelled partition.
    fn label_am_inputs(&self, id: QueueId, label: &str) -> Option<(f32, Resource)> {
        let leaf = self.conf(id).leaf.as_ref()?;
        let percent = self
            .conf(id)
            .labels
            .capacities
            .get(label)
            .and_then(|c| c.maximum_am_resource_percent)
            .unwrap_or(leaf.maximum_am_resource_percent);
        let effective_min = self
            .partition_capacities(id)
            .get(label)
            .map(|c| c.effective_min)
            .unwrap_or(Resource::ZERO);
        Some((percent, effective_min))
    }

    /// The per-user AM limit (`getUserAMResourceLimitPerPartition`) for a user of weight
    /// `user_weight` when `active_users` users are active in the leaf.
    pub fn user_am_resource_limit(
        &self,
        id: QueueId,
        active_users: u32,
        user_weight: f32,
    ) -> Resource {
        let s = self.settings();
        let rc = s.resource_calculator;
        let Some(leaf) = &self.conf(id).leaf else {
            return Resource::ZERO;
        };
        let am_limit = self.am_resource_limit(id);
        let effective_min = self.queues[id].capacities.effective_min;
        let effective_user_limit =
            (leaf.user_limit_percent / 100.0).max(1.0 / active_users.max(1) as f32);
        let weighted = (effective_user_limit * user_weight).min(1.0);
        let factor = if leaf.user_limit_factor == -1.0 {
            leaf.maximum_am_resource_percent
        } else {
            leaf.maximum_am_resource_percent * weighted * leaf.user_limit_factor
        };
        let user_am =
            rc.multiply_and_normalize_up(&effective_min, factor as f64, &s.minimum_allocation);
        rc.min(&self.cluster, &user_am, &am_limit)
    }

    /// `minimumAllocationFactor = ratio(maxAlloc(queue) − minAlloc, maxAlloc(queue))` (§4.9).
    pub fn minimum_allocation_factor(&self, id: QueueId) -> f32 {
        let s = self.settings();
        let max = self.conf(id).maximum_allocation;
        s.resource_calculator
            .ratio(&(max - s.minimum_allocation), &max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_user_cap_is_evaluated_in_float() {
        // E1: (int)(1000 × 0.5 × 5) = 2500, capped at 1000.
        assert_eq!(max_applications_per_user(1000, 50.0, 5.0), 1000);
        assert_eq!(max_applications_per_user(9999, 50.0, 5.0), 9999);
        assert_eq!(max_applications_per_user(8000, 100.0, 1.0), 8000);
        assert_eq!(max_applications_per_user(1000, 25.0, 1.0), 250);
        assert_eq!(max_applications_per_user(1000, 25.0, -1.0), 1000);
    }
}
