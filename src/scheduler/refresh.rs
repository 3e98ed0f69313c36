//! `yarn rmadmin -refreshQueues`: a new configuration applied to the running scheduler.
//! Refused — with the old configuration left in force — when YARN would refuse it.

use crate::state::partition::{add_in, ByPartition, DEFAULT_PARTITION};
use crate::sync::Arc;
use std::collections::HashMap;

use super::{CapacityScheduler, SchedulerError};
use crate::config::{CapacitySchedulerConfiguration, QueueState};
use crate::resource::Resource;
use crate::state::leaf::LeafRuntime;
use crate::state::queue::{QueueId, QueueTree};

impl CapacityScheduler {
    /// Applications (submitted, with or without an attempt) in the subtree of `q`.
    fn applications_under(&self, q: QueueId) -> usize {
        self.apps
            .iter()
            .filter(|(_, a)| {
                let mut at = Some(a.queue);
                while let Some(x) = at {
                    if x == q {
                        return true;
                    }
                    at = self.tree.parent(x);
                }
                false
            })
            .count()
    }

    /// Validates `new` against the running state; applies it only if every check passes.
    pub fn refresh_queues(
        &mut self,
        now_ms: i64,
        new: Arc<CapacitySchedulerConfiguration>,
    ) -> Result<(), SchedulerError> {
        // Issue 36.5: YARN sets its calculator once, at start (`initScheduler`), and a
        // refresh (`reinitialize`) never changes it; so a new `resource-calculator` is read
        // and kept in the file but does not apply until a restart. The running containers
        // were placed under the running calculator and stay consistent with it.
        let running = self.tree.settings().resource_calculator;
        let new = if new.settings().resource_calculator != running {
            Arc::new(new.with_resource_calculator(running))
        } else {
            new
        };
        // Auto-created leaves outlive a refresh while their parent still creates leaves
        // (CapacitySchedulerQueueManager.updateQueues); the others must go by the rules below.
        let new = self.with_auto_created_leaves(new)?;
        let old = &self.tree;
        let new_paths: HashMap<&str, usize> = new
            .queues()
            .iter()
            .enumerate()
            .map(|(i, q)| (q.path.as_str(), i))
            .collect();
        let refused = |message: String| Err(SchedulerError::Refused(message));
        // YARN 3.3.6's checks first, in its order, so that its refusal is the one reported:
        // CapacitySchedulerConfigValidator.validateQueueHierarchy over every queue, then each
        // leaf's reinitialize (the maximum allocation), then the managed parents' below.
        // capsched's own checks (applications still in a queue that goes or changes kind)
        // come last.
        for q in 0..old.len() {
            let path = old.path(q);
            let state = old.queue(q).state;
            let conf = old.conf(q);
            let Some(&n) = new_paths.get(path) else {
                // A dynamic queue whose parent went goes with it (YARN 3.4's updateQueues).
                if state != QueueState::Stopped && !conf.dynamic {
                    return refused(format!(
                        "{path} cannot be deleted from the capacity scheduler configuration, as the queue is not yet in stopped state. Current State : {}",
                        state.as_str()
                    ));
                }
                continue;
            };
            let new_q = &new.queues()[n];
            let (was_managed, is_managed) = (conf.managed.is_some(), new_q.managed.is_some());
            if !old.is_leaf(q) && !was_managed && is_managed {
                return refused(format!(
                    "Can not convert parent queue: {path} to auto create enabled parent queue since it could have other pre-configured queues which is not supported"
                ));
            }
            if was_managed && !is_managed {
                return refused(format!(
                    "Cannot convert auto create enabled parent queue: {path} to leaf queue. Please check  parent queue's configuration auto-create-child-queue.enabled is set to true"
                ));
            }
            if old.is_leaf(q) && !new_q.is_leaf() && state != QueueState::Stopped {
                return refused(format!(
                    "Can not convert the leaf queue: {path} to parent queue since it is not yet in stopped state. Current State : {}",
                    state.as_str()
                ));
            }
        }
        for q in 0..old.len() {
            let Some(new_q) = new_paths.get(old.path(q)).map(|&n| &new.queues()[n]) else {
                continue;
            };
            if old.is_leaf(q) && new_q.is_leaf() {
                let old_max = old.conf(q).maximum_allocation;
                let new_max = new_q.maximum_allocation;
                if !old_max.fits_in(&new_max) {
                    return refused(format!(
                        "Trying to reinitialize {} the maximum allocation size can not be decreased! Current setting: {old_max}, trying to set it to: {new_max}",
                        old.path(q)
                    ));
                }
            }
        }
        // ManagedParentQueue.reinitialize, before anything changes: with
        // fail-on-exceeding-parent-capacity, the children's capacities (relative to the
        // parent) may not add up to more than the parent's own (relative to its parent) —
        // YARN compares those two units.
        for new_q in new.queues() {
            let Some(mp) = new_q.managed.as_deref() else {
                continue;
            };
            let Ok(q) = self.tree.find(&new_q.path) else {
                continue;
            };
            if !mp.fail_on_exceeding_parent_capacity || self.tree.conf(q).managed.is_none() {
                continue;
            }
            let sum = self
                .tree
                .children(q)
                .iter()
                .map(|&c| self.tree.queue(c).capacities.capacity)
                .fold(0.0f32, |a, b| a + b);
            let cap = self.tree.queue(q).capacities.capacity;
            if cap < sum {
                return refused(format!(
                    "Total of Auto Created leaf queues guaranteed capacity : {} exceeds Parent queue's {} guaranteed capacity {}.Cannot enforce policy to auto create queues beyond parent queue's capacity",
                    crate::config::hadoop::java::float_to_string(sum),
                    new_q.path,
                    crate::config::hadoop::java::float_to_string(cap)
                ));
            }
        }
        self.check_applications_stay(&new_paths, &new)?;
        self.apply_refresh(now_ms, new);
        self.reset_queue_management(now_ms);
        Ok(())
    }

    /// capsched's own refusals, where YARN would lose applications: a queue that goes, or
    /// changes from leaf to parent or back, while applications are still in it (YARN 3.3.6
    /// deletes or converts a STOPPED queue without looking; a queue with applications is not
    /// STOPPED there, but a leaf an application was recovered into may be).
    fn check_applications_stay(
        &self,
        new_paths: &HashMap<&str, usize>,
        new: &CapacitySchedulerConfiguration,
    ) -> Result<(), SchedulerError> {
        let old = &self.tree;
        for q in 0..old.len() {
            let path = old.path(q);
            let new_q = new_paths.get(path).map(|&n| &new.queues()[n]);
            let changes_kind = new_q.is_some_and(|n| old.is_leaf(q) != n.is_leaf());
            if new_q.is_some() && !changes_kind {
                continue;
            }
            let apps = self.applications_under(q);
            if apps == 0 {
                continue;
            }
            return Err(SchedulerError::Refused(match new_q {
                None => format!(
                    "{path} cannot be deleted from the capacity scheduler configuration, as it still has {apps} applications"
                ),
                Some(_) if old.is_leaf(q) => format!(
                    "Can not convert the leaf queue: {path} to parent queue since it still has applications"
                ),
                Some(_) => format!(
                    "Can not convert the parent queue: {path} to leaf queue since it still has applications"
                ),
            }));
        }
        Ok(())
    }

    pub(crate) fn apply_refresh(&mut self, now_ms: i64, new: Arc<CapacitySchedulerConfiguration>) {
        let mut tree = QueueTree::new_following(new.clone(), &self.tree);
        let n = tree.len();
        let id_map: Vec<Option<QueueId>> = (0..self.tree.len())
            .map(|q| {
                tree.find(self.tree.path(q))
                    .ok()
                    .filter(|&id| tree.path(id) == self.tree.path(q))
            })
            .collect();
        let mut leaves: Vec<Option<LeafRuntime>> = (0..n)
            .map(|id| tree.is_leaf(id).then(LeafRuntime::default))
            .collect();
        // Run-time state moves by path; states follow the new configuration, except that a
        // queue being stopped while it holds applications drains first. (Counted once for every
        // queue: a creation runs this, so per-queue scans of the applications would make
        // creating N queues for N users' applications cubic.)
        let mut under = vec![0usize; self.tree.len()];
        for (_, a) in self.apps.iter() {
            let mut at = Some(a.queue);
            while let Some(x) = at {
                under[x] += 1;
                at = self.tree.parent(x);
            }
        }
        for (old_id, new_id) in id_map.iter().enumerate() {
            let Some(new_id) = *new_id else { continue };
            let apps = under[old_id];
            let configured = tree.queue(new_id).state;
            let state = match configured {
                QueueState::Stopped if apps > 0 => QueueState::Draining,
                s => s,
            };
            tree.queue_mut(new_id).state = state;
            if let (Some(old_leaf), true) = (self.leaves[old_id].take(), tree.is_leaf(new_id)) {
                leaves[new_id] = Some(old_leaf);
            }
        }
        for (_, a) in self.apps.iter_mut() {
            a.queue = id_map[a.queue].expect("a queue with applications is never removed");
        }
        // User weights may have changed.
        for (id, lr) in leaves.iter_mut().enumerate() {
            let Some(lr) = lr.as_mut() else { continue };
            let weights = tree
                .conf(id)
                .leaf
                .as_ref()
                .map(|l| l.user_weights.clone())
                .unwrap_or_default();
            lr.users
                .update_weights(|user| weights.get(user).copied().unwrap_or(1.0));
        }
        self.tree = tree;
        self.leaves = leaves;
        // Queue ids are new: flags are taken afresh (cluster_resource_changed notes them), and
        // space freed by earlier kills is released (it names queues of the old tree).
        self.over_max_by_event = vec![false; n];
        for (_, node) in self.nodes.iter_mut() {
            if let Some(e) = node.extras.as_deref_mut() {
                e.freed.clear();
            }
            node.release_extras_if_empty();
        }
        // Lazy preemption switched off: killable containers are ordinary ones again, for the
        // next rounds to select (and kill) afresh.
        if !self.tree.settings().lazy_preemption_enabled {
            self.unmark_all_killable();
        }
        // The preemption policy switched on or off: the attempts' views are built or dropped.
        let views = self
            .configuration()
            .preemption()
            .proportional_policy_enabled();
        self.keep_preemption_views(views);
        self.rebuild_queue_aggregates();
        self.cluster_resource_changed(now_ms);
        self.drain_stopped_queues();
    }

    /// Recomputes queue usage, reservations, pending totals and application counts from the
    /// applications and containers themselves.
    pub(crate) fn rebuild_queue_aggregates(&mut self) {
        let n = self.tree.len();
        let mut used = vec![Resource::ZERO; n];
        let mut reserved = vec![Resource::ZERO; n];
        let mut reservations = vec![0i64; n];
        let mut killable = vec![Resource::ZERO; n];
        let mut pending = vec![Resource::ZERO; n];
        let mut labelled_used = vec![ByPartition::default(); n];
        let mut labelled_reserved = vec![ByPartition::default(); n];
        let mut labelled_pending = vec![ByPartition::default(); n];
        let mut apps = vec![0i32; n];
        for (_, c) in self.containers.iter() {
            // Opportunistic containers are charged to no queue.
            if c.is_opportunistic() {
                continue;
            }
            let Some(a) = self.apps.get(c.app) else {
                continue;
            };
            let mut at = Some(a.queue);
            while let Some(q) = at {
                add_in(&mut used[q], &mut labelled_used[q], c.partition, c.resource);
                if c.is_reserved() {
                    add_in(
                        &mut reserved[q],
                        &mut labelled_reserved[q],
                        c.partition,
                        c.resource,
                    );
                    if c.partition == DEFAULT_PARTITION {
                        reservations[q] += 1;
                    }
                }
                if c.killable {
                    killable[q] += c.resource;
                }
                at = self.tree.parent(q);
            }
        }
        for (_, a) in self.apps.iter() {
            let t = a.attempt.as_ref();
            let p = t.map(|t| t.requests.pending()).unwrap_or_default();
            let mut at = Some(a.queue);
            while let Some(q) = at {
                pending[q] += p;
                for (lp, r) in t.iter().flat_map(|t| t.requests.labelled_pending().iter()) {
                    labelled_pending[q].add(lp, r);
                }
                if q != a.queue {
                    apps[q] += 1;
                }
                at = self.tree.parent(q);
            }
        }
        for (q, (u, l)) in used.into_iter().zip(labelled_used).enumerate() {
            let queue = self.tree.queue_mut(q);
            queue.used = u;
            queue.labelled_used = l;
        }
        self.queue_labelled_reserved = labelled_reserved;
        self.queue_labelled_pending = labelled_pending;
        self.queue_reserved = reserved;
        self.queue_reserved_containers = reservations;
        self.queue_killable = killable;
        self.queue_pending = pending;
        self.num_applications = apps;
        self.usage_epoch += 1;
    }
}
