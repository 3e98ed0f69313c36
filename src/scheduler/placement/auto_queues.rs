//! Auto-created leaf queues at run time (YARN 3.3's `ManagedParentQueue`,
//! `AutoCreatedLeafQueue` and `GuaranteedOrZeroCapacityOverTimePolicy`; docs/SEMANTICS.md,
//! "Auto-created queues").
//!
//! A submission placed under a managed parent whose leaf does not exist makes that leaf
//! (`CapacityScheduler.autoCreateLeafQueue`). The policy gives each leaf all of the template's
//! capacity or none: a new leaf is activated while the parent's guarantee has room for the
//! template's absolute capacity; otherwise it starts at zero (its maximum is the template's
//! either way, so it can still run on idle resources). The policy runs again at every refresh
//! (from a clean state) and, when `QueueManagementDynamicEditPolicy` is one of the monitor's
//! policies, periodically: active leaves without applications give their share back, and
//! inactive leaves with applications take it in submission order. Leaves are never deleted
//! in 3.3.
//!
//! Leaves and their entitlements live in the configuration (`AutoCreatedLeaf`), so the tree is
//! always built from one immutable configuration; a change builds the next one.

use std::collections::{BTreeSet, HashMap};

use crate::config::auto_queues::auto_create::AutoCreatedLeaf;
use crate::config::CapacitySchedulerConfiguration;
use crate::ids::ApplicationId;
use crate::records::Rejection;
use crate::scheduler::apps::AppSubmission;
use crate::scheduler::{CapacityScheduler, SchedulerError};
use crate::state::dynamic_queues::QueueManagementState;
use crate::state::queue::QueueId;
use crate::sync::Arc;

/// `CSQueueUtils.EPSILON`.
const EPSILON: f32 = 0.0001;

/// The partitions a managed parent's policy entitles leaves on (`leafQueueTemplateNodeLabels`):
/// the default one and each label the template has capacity keys for.
fn managed_labels(mp: &crate::config::ManagedParent) -> Vec<String> {
    std::iter::once(String::new())
        .chain(mp.template_labels().map(str::to_string))
        .collect()
}

impl CapacityScheduler {
    /// `autoCreateLeafQueue` + `ManagedParentQueue.addChildQueue`: the leaf `name` under the
    /// managed parent `parent`, with the entitlement the policy gives it
    /// (`getInitialLeafQueueConfiguration`). The error is YARN's `SchedulerDynamicEditException`
    /// message.
    pub(crate) fn auto_create_leaf(
        &mut self,
        now_ms: i64,
        parent: QueueId,
        name: &str,
    ) -> Result<QueueId, String> {
        let conf = self.tree.configuration().clone();
        let parent_path = self.tree.path(parent).to_string();
        let leaf_path = format!("{parent_path}.{name}");
        let mp = conf.queues()[parent]
            .managed
            .as_deref()
            .expect("a managed parent");
        if let Some(e) = mp.creation_errors.first() {
            // The leaf's constructor reads the template's keys as its own.
            let template_path = format!(
                "{parent_path}.{}",
                crate::config::auto_queues::auto_create::LEAF_QUEUE_TEMPLATE
            );
            return Err(e.replace(&template_path, &leaf_path));
        }
        let children = self.tree.children(parent).len();
        if children as i64 >= mp.max_child_queues as i64 {
            return Err(format!(
                "Cannot auto create leaf queue {leaf_path}.Max Child Queue limit exceeded which is configured as : {} and number of child queues is : {children}",
                mp.max_child_queues
            ));
        }
        let parent_abs = self.tree.queue(parent).capacities.absolute_capacity;
        let template_abs = mp.template_capacity() * parent_abs;
        let labels = managed_labels(mp);
        if mp.fail_on_exceeding_parent_capacity {
            let sum: f32 = self
                .tree
                .children(parent)
                .iter()
                .map(|&c| self.tree.queue(c).capacities.absolute_capacity)
                .fold(0.0, |a, b| a + b);
            if template_abs + sum > parent_abs {
                return Err(format!(
                    "Cannot auto create leaf queue {leaf_path}. Child queues capacities have reached parent queue : {parent_path}'s guaranteed capacity"
                ));
            }
        }
        // getInitialLeafQueueConfiguration: on each partition, the template's capacity while
        // the parent's guarantee there has room for it.
        let mut granted: Vec<(String, f32)> = Vec::new();
        for label in &labels {
            let (parent_abs, template_abs) = self.template_share(parent, mp, label);
            let activated = self.activated_capacity(&parent_path, label);
            if parent_abs - activated + EPSILON >= template_abs {
                granted.push((label.clone(), template_abs));
            }
        }
        let next = conf
            .with_created_leaf(AutoCreatedLeaf {
                parent: parent_path.clone(),
                name: name.to_string(),
                active: granted.iter().any(|(l, _)| l.is_empty()),
                active_labels: granted
                    .iter()
                    .filter(|(l, _)| !l.is_empty())
                    .map(|(l, _)| l.clone())
                    .collect(),
            })
            .map_err(|e| e.to_string())?;
        for (label, share) in granted {
            *self
                .queue_management
                .activated
                .entry((parent_path.clone(), label))
                .or_insert(0.0) += share;
        }
        self.apply_refresh(now_ms, Arc::new(next));
        self.tree
            .find(&leaf_path)
            .map_err(|e| format!("Could not auto-create leaf queue {leaf_path}: {e}"))
    }

    fn activated_capacity(&self, parent_path: &str, label: &str) -> f32 {
        self.queue_management
            .activated
            .get(&(parent_path.to_string(), label.to_string()))
            .copied()
            .unwrap_or(0.0)
    }

    /// The managed parent's absolute capacity on `label` and an activated leaf's share of it
    /// there (the template's capacity times it).
    fn template_share(
        &self,
        parent: QueueId,
        mp: &crate::config::ManagedParent,
        label: &str,
    ) -> (f32, f32) {
        if label.is_empty() {
            let abs = self.tree.queue(parent).capacities.absolute_capacity;
            (abs, mp.template_capacity() * abs)
        } else {
            let abs = self
                .tree
                .partition_capacity(parent, label)
                .absolute_capacity;
            (abs, mp.template_label_capacity(label) * abs)
        }
    }

    /// One run of every managed parent's policy (`computeQueueManagementChanges` then
    /// `validateAndApplyQueueManagementChanges`): the QueueManagementDynamicEditPolicy's
    /// round, and the end of a refresh. Returns whether any entitlement changed.
    pub fn run_queue_management(&mut self, now_ms: i64) -> bool {
        let conf = self.tree.configuration().clone();
        if conf.auto_created_leaves().is_empty() {
            return false;
        }
        // Each leaf's entitlement now: (default partition, labels held), by path.
        let entitled: HashMap<String, (bool, BTreeSet<String>)> = conf
            .auto_created_leaves()
            .iter()
            .map(|l| (l.path(), (l.active, l.active_labels.clone())))
            .collect();
        let mut changed: HashMap<String, (bool, BTreeSet<String>)> = HashMap::new();
        for parent in 0..self.tree.len() {
            let Some(mp) = self.tree.conf(parent).managed.as_deref() else {
                continue;
            };
            let parent_path = self.tree.path(parent).to_string();
            let leaves: Vec<QueueId> = self
                .tree
                .children(parent)
                .iter()
                .copied()
                .filter(|&c| self.tree.conf(c).auto_created)
                .collect();
            let index: HashMap<QueueId, usize> =
                leaves.iter().enumerate().map(|(i, &l)| (l, i)).collect();
            let mut state: Vec<(bool, BTreeSet<String>)> = leaves
                .iter()
                .map(|&l| entitled.get(self.tree.path(l)).cloned().unwrap_or_default())
                .collect();
            let before = state.clone();
            // Applications with an attempt (the leaf's pending and active FiCaSchedulerApps),
            // per leaf and in submission order.
            let mut with_apps = vec![0usize; leaves.len()];
            let mut apps: Vec<(i64, crate::ids::ApplicationId, usize)> = Vec::new();
            for (_, a) in self.apps.iter().filter(|(_, a)| a.attempt.is_some()) {
                if let Some(&i) = index.get(&a.queue) {
                    with_apps[i] += 1;
                    apps.push((a.submit_time_ms, a.application_id, i));
                }
            }
            apps.sort();
            // Each partition on its own, as YARN's computeQueueManagementChanges does.
            for label in managed_labels(mp) {
                let (parent_abs, template_abs) = self.template_share(parent, mp, &label);
                let holds = |s: &(bool, BTreeSet<String>)| {
                    if label.is_empty() {
                        s.0
                    } else {
                        s.1.contains(&label)
                    }
                };
                // deactivateLeafQueuesIfInActive.
                let deactivated: BTreeSet<usize> = (0..leaves.len())
                    .filter(|&i| holds(&before[i]) && with_apps[i] == 0)
                    .collect();
                let deactivated_capacity = deactivated.iter().fold(0.0f32, |a, _| a + template_abs);
                let available = parent_abs - self.activated_capacity(&parent_path, &label)
                    + deactivated_capacity
                    + EPSILON;
                let mut picked: Vec<usize> = Vec::new();
                if available >= template_abs && !apps.is_empty() && template_abs > 0.0 {
                    let wanted = ((available / template_abs).floor() as usize).min(apps.len());
                    for &(_, _, i) in &apps {
                        if picked.len() >= wanted {
                            break;
                        }
                        if !holds(&before[i]) && !deactivated.contains(&i) && !picked.contains(&i) {
                            picked.push(i);
                        }
                    }
                }
                let set = |s: &mut (bool, BTreeSet<String>), on: bool| {
                    if label.is_empty() {
                        s.0 = on;
                    } else if on {
                        s.1.insert(label.clone());
                    } else {
                        s.1.remove(&label);
                    }
                };
                for &i in &deactivated {
                    set(&mut state[i], false);
                }
                for &i in &picked {
                    set(&mut state[i], true);
                }
                // commitQueueManagementChanges: the float moved once per change, as YARN
                // moves it.
                let entry = self
                    .queue_management
                    .activated
                    .entry((parent_path.clone(), label.clone()))
                    .or_insert(0.0);
                for _ in &deactivated {
                    *entry -= template_abs;
                }
                for _ in &picked {
                    *entry += template_abs;
                }
            }
            for (i, s) in state.into_iter().enumerate() {
                if s != before[i] {
                    changed.insert(self.tree.path(leaves[i]).to_string(), s);
                }
            }
        }
        if changed.is_empty() {
            return false;
        }
        let changes: Vec<(String, bool, BTreeSet<String>)> = changed
            .into_iter()
            .map(|(p, (on, labels))| (p, on, labels))
            .collect();
        let next = conf.with_entitlements(&changes);
        self.tree.replace_configuration(Arc::new(next));
        self.cluster_resource_changed(now_ms);
        true
    }

    /// A refresh's configuration with the queues this scheduler created: auto-created leaves
    /// kept under their parent while it still creates leaves, given no capacity until the
    /// policy runs again (`AutoCreatedLeafQueue.reinitialize` zeroes it, and the policy's
    /// state is cleared); dynamic queues kept while their parent exists.
    pub(crate) fn with_auto_created_leaves(
        &self,
        new: Arc<CapacitySchedulerConfiguration>,
    ) -> Result<Arc<CapacitySchedulerConfiguration>, SchedulerError> {
        let old = self.tree.configuration();
        if old.auto_created_leaves().is_empty() && old.dynamic_queues().is_empty() {
            return Ok(new);
        }
        let leaves = old
            .auto_created_leaves()
            .iter()
            .map(|l| AutoCreatedLeaf {
                active: false,
                active_labels: Default::default(),
                ..l.clone()
            })
            .collect();
        // Dynamic queues stay too (YARN 3.4); one whose parent is gone goes with it.
        new.with_created_queues(leaves, old.dynamic_queues().to_vec())
            .map(Arc::new)
            .map_err(|e| SchedulerError::Refused(e.to_string()))
    }

    /// After a refresh: the policy starts from nothing and runs once.
    pub(crate) fn reset_queue_management(&mut self, now_ms: i64) {
        self.queue_management = QueueManagementState::default();
        self.run_queue_management(now_ms);
    }
}

impl CapacityScheduler {
    /// `getOrCreateQueueFromPlacementContext`: the placed leaf `leaf` made under the
    /// managed parent the rule named, after RMAppManager's ACL check on that parent (the leaf
    /// does not exist yet); any failure is the submission's rejection in YARN's words, which
    /// name the queue as the submission now does (`sub.queue`: 3.3's leaf name, 3.4's full
    /// path).
    pub(crate) fn auto_create_for(
        &mut self,
        now_ms: i64,
        sub: &AppSubmission,
        application_id: ApplicationId,
        parent: &str,
        leaf: &str,
    ) -> Result<QueueId, Rejection> {
        let failed = |reason: String| Rejection {
            message: if sub.recovering {
                format!(
                    "Application killed on recovery as it was submitted to queue {} which could not be auto-created",
                    sub.queue
                )
            } else {
                format!(
                    "Application {application_id} submission by user : {} to  queue : {} failed : {reason}",
                    sub.user, sub.queue
                )
            },
        };
        let managed = self
            .tree
            .find(parent)
            .ok()
            .filter(|&p| self.tree.conf(p).managed.is_some());
        let Some(parent_id) = managed else {
            // YARN 3.4 creates the path dynamically where some parent may (flexible auto queue
            // creation); YARN 3.3 knew managed parents only.
            if self.has_flexible_parents() {
                if !sub.recovering && self.tree.settings().acl_enabled {
                    self.check_dynamic_acl(sub, application_id, parent)?;
                }
                let path = format!("{parent}.{leaf}");
                return self.create_queue(now_ms, &path).map_err(failed);
            }
            return Err(failed(format!(
                "Could not auto-create leaf queue for {leaf}. Queue mapping specifies an invalid parent queue which does not exist {parent}"
            )));
        };
        if !sub.recovering
            && self.tree.settings().acl_enabled
            && !self.can_submit(parent_id, &sub.user, &sub.groups)
        {
            return Err(Rejection {
                message: format!(
                    "User {} does not have permission to submit {application_id} to queue {}",
                    sub.user, sub.queue
                ),
            });
        }
        self.auto_create_leaf(now_ms, parent_id, leaf)
            .map_err(failed)
    }
}
