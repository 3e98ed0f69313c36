//! Flexible auto queue creation at run time (YARN 3.4's `CapacitySchedulerQueueManager.
//! createQueue`, `ParentQueue.addDynamicChildQueue` and the `AutoCreatedQueueDeletionPolicy`;
//! docs/SEMANTICS.md, "Auto-created queues").
//!
//! A submission to a queue that does not exist, under a parent that may create children,
//! creates the missing levels: at most `maximum-queue-depth` (2) below the first static
//! ancestor, the last always a leaf, each a weight among its siblings. Dynamic queues outlive
//! refreshes; the deletion policy, when the monitor runs it, removes those idle past
//! `queue-expiration-time`: a queue eligible in two consecutive rounds is sent for deletion and
//! removed if it has been idle long enough by then.

use std::collections::BTreeSet;

use crate::config::auto_queues::flexible::{DynamicQueue, DEFAULT_QUEUE_EXPIRATION_TIME_S};
use crate::config::CapacityValue;
use crate::ids::ApplicationId;
use crate::records::Rejection;
use crate::scheduler::apps::AppSubmission;
use crate::scheduler::CapacityScheduler;
use crate::state::queue::{QueueId, QueueLookupError};
use crate::sync::Arc;

impl CapacityScheduler {
    /// Whether some queue may create dynamic children: the 3.4 creation rules apply only then,
    /// so that a 3.3 configuration keeps 3.3's behaviour and words.
    pub(crate) fn has_flexible_parents(&self) -> bool {
        let t = &self.tree;
        (0..t.len()).any(|q| t.conf(q).flexible.is_some())
    }

    /// `CapacitySchedulerQueueManager.createQueue(path)`: a managed parent's leaf (YARN 3.3's
    /// auto-created leaves), else the missing levels of `path` created dynamically. The error
    /// is YARN's `SchedulerDynamicEditException` message.
    pub(crate) fn create_queue(&mut self, now_ms: i64, path: &str) -> Result<QueueId, String> {
        let Some((parent_name, leaf)) = path.rsplit_once('.') else {
            return Err(format!(
                "Could not auto-create leaf queue for {path}. Queue mapping does not specify which parent queue it needs to be created under."
            ));
        };
        match self.tree.find(parent_name) {
            Ok(p) if self.tree.conf(p).managed.is_some() => {
                return self.auto_create_leaf(now_ms, p, leaf)
            }
            Err(QueueLookupError::Ambiguous(_)) => {
                return Err(format!(
                    "Could not auto-create queue {path} due to ParentQueue {parent_name} being ambiguous."
                ))
            }
            _ => {}
        }
        // determineMissingParents: up from the parent while levels are missing or dynamic.
        let mut missing: Vec<&str> = Vec::new();
        let mut distance = 1;
        let mut candidate = parent_name;
        let mut nearest: Option<QueueId> = None;
        let first_static = loop {
            match self.tree.find(candidate) {
                Ok(q) if !self.tree.conf(q).dynamic => {
                    nearest.get_or_insert(q);
                    break q;
                }
                Ok(q) => {
                    nearest.get_or_insert(q);
                    distance += 1;
                }
                Err(_) => {
                    missing.push(candidate.rsplit('.').next().unwrap_or(candidate));
                    distance += 1;
                }
            }
            match candidate.rsplit_once('.') {
                Some((up, _)) => candidate = up,
                None => {
                    return Err(format!(
                        "Could not auto-create queue {path} parent queue does not exist."
                    ))
                }
            }
        };
        let limit = crate::config::auto_queues::flexible::max_depth(
            self.configuration().configuration(),
            self.tree.path(first_static),
        );
        if distance > limit {
            return Err(format!(
                "Could not auto create queue {path}. The distance of the LeafQueue from the first static ParentQueue is {distance}, which is above the limit."
            ));
        }
        let nearest = nearest.expect("the first static ancestor exists");
        if self.tree.is_leaf(nearest) {
            return Err(format!(
                "Could not auto create hierarchy of {path}. Queue {parent_name} is not a ParentQueue."
            ));
        }
        if self.tree.conf(nearest).flexible.is_none() {
            return Err(format!(
                "Auto creation of queue {path} is not enabled under parent {}",
                self.tree.path(nearest)
            ));
        }
        missing.reverse();
        let mut at = nearest;
        for name in missing {
            at = self.add_dynamic_child(now_ms, at, name, true)?;
        }
        self.add_dynamic_child(now_ms, at, leaf, false)
    }

    /// `ParentQueue.addDynamicChildQueue`: `name` under `parent`, or the queue already there.
    fn add_dynamic_child(
        &mut self,
        now_ms: i64,
        parent: QueueId,
        name: &str,
        is_parent: bool,
    ) -> Result<QueueId, String> {
        let parent_path = self.tree.path(parent).to_string();
        let path = format!("{parent_path}.{name}");
        if let Ok(q) = self.tree.find(&path) {
            return Ok(q);
        }
        let conf = self.tree.configuration().clone();
        let max = conf.queues()[parent]
            .flexible
            .as_ref()
            .map(|f| f.max_queues)
            .unwrap_or(
                crate::config::auto_queues::flexible::DEFAULT_AUTO_QUEUE_CREATION_V2_MAX_QUEUES,
            );
        let children = self.tree.children(parent);
        if children.len() as i64 >= max as i64 {
            return Err(format!(
                "Cannot auto create queue {path}. Max Child Queue limit exceeded which is configured as: {max} and number of child queues is: {}",
                children.len()
            ));
        }
        // Legacy queue mode: the new queue is a weight, so its siblings must be weights.
        if !children
            .iter()
            .all(|&c| matches!(self.tree.conf(c).capacity, CapacityValue::Weight(_)))
        {
            return Err(format!(
                "Trying to create new queue={path} but not all the queues under parent={parent_path} are using weight-based capacity. Failed to created queue"
            ));
        }
        let next = conf
            .with_created_dynamic_queue(DynamicQueue {
                path: path.clone(),
                is_parent,
            })
            .map_err(|e| format!("java.io.IOException: {}", e.first().message))?;
        self.apply_refresh(now_ms, Arc::new(next));
        // The parent's activity is its newest child.
        self.dynamic_queues
            .last_activity_ms
            .insert(parent_path, now_ms);
        self.tree
            .find(&path)
            .map_err(|e| format!("Could not auto create queue {path}: {e}"))
    }

    /// A submission reached the dynamic leaf `leaf` (`updateLastSubmittedTimeStamp`).
    pub(crate) fn note_dynamic_submission(&mut self, now_ms: i64, leaf: QueueId) {
        if self.tree.conf(leaf).dynamic {
            self.dynamic_queues
                .last_activity_ms
                .insert(self.tree.path(leaf).to_string(), now_ms);
        }
    }

    /// `queue-expiration-time`, seconds (the deletion policy's period too).
    pub fn dynamic_queue_expiration_s(&self) -> i64 {
        self.configuration()
            .configuration()
            .get_long(
                &format!(
                    "{}{}",
                    crate::config::keys::PREFIX,
                    crate::config::auto_queues::flexible::QUEUE_EXPIRATION_TIME
                ),
                DEFAULT_QUEUE_EXPIRATION_TIME_S,
            )
            .unwrap_or(DEFAULT_QUEUE_EXPIRATION_TIME_S)
    }

    /// Whether `q` could go (`isEligibleForAutoDeletion`): dynamic, its removal not switched
    /// off, and empty — a leaf without applications (capsched counts submitted ones too, so
    /// that no application outlives its queue), a parent without children.
    fn eligible_for_deletion(&self, q: QueueId) -> bool {
        let c = self.tree.conf(q);
        if !c.dynamic || !c.auto_removal {
            return false;
        }
        if self.tree.is_leaf(q) {
            !self.apps.iter().any(|(_, a)| a.queue == q)
        } else {
            self.tree.children(q).is_empty()
        }
    }

    /// Whether a deletion round could remove a queue now or after more rounds: some dynamic
    /// queue is eligible (a host skipping idle time stops at the next round then).
    pub fn has_deletable_dynamic_queues(&self) -> bool {
        !self.configuration().dynamic_queues().is_empty()
            && (0..self.tree.len()).any(|q| self.eligible_for_deletion(q))
    }

    /// One round of the AutoCreatedQueueDeletionPolicy: queues eligible now and in the previous
    /// round are sent; each sent queue still eligible and idle for more than the expiration
    /// time is removed. Returns the queues removed.
    pub fn run_queue_deletion(&mut self, now_ms: i64) -> Vec<String> {
        if self.configuration().dynamic_queues().is_empty() {
            return Vec::new();
        }
        // prepareForAutoDeletion.
        let mut new_marks = BTreeSet::new();
        for q in 0..self.tree.len() {
            if self.eligible_for_deletion(q) {
                let path = self.tree.path(q).to_string();
                if self.dynamic_queues.marked.remove(&path) {
                    self.dynamic_queues.sent.insert(path);
                } else {
                    new_marks.insert(path);
                }
            }
        }
        self.dynamic_queues.marked = new_marks;
        // triggerAutoDeletionForExpiredQueues, then removeAutoCreatedQueue for each.
        let expiration = self.dynamic_queue_expiration_s();
        let sent = std::mem::take(&mut self.dynamic_queues.sent);
        let mut removed = Vec::new();
        for path in sent {
            let Ok(q) = self.tree.find(&path) else {
                continue;
            };
            let idle_s = (now_ms
                - self
                    .dynamic_queues
                    .last_activity_ms
                    .get(&path)
                    .copied()
                    .unwrap_or(0))
                / 1000;
            if self.eligible_for_deletion(q) && idle_s > expiration {
                removed.push(path);
            }
        }
        if removed.is_empty() {
            return removed;
        }
        let conf = self.tree.configuration().clone();
        let dynamic: Vec<DynamicQueue> = conf
            .dynamic_queues()
            .iter()
            .filter(|d| !removed.contains(&d.path))
            .cloned()
            .collect();
        match conf.with_created_queues(conf.auto_created_leaves().to_vec(), dynamic) {
            Ok(next) => {
                self.apply_refresh(now_ms, Arc::new(next));
                for p in &removed {
                    self.dynamic_queues.last_activity_ms.remove(p);
                }
                removed
            }
            // The same file with fewer dynamic queues cannot fail; if it did, nothing goes.
            Err(_) => Vec::new(),
        }
    }
}

impl CapacityScheduler {
    /// RMAppManager's ACL check for a queue that does not exist yet (YARN 3.4,
    /// `getPermissionsForDynamicQueue`): the leaf would take its parent's leaf-template ACLs
    /// (or the generic template's); the submission passes if those, or any existing ancestor's,
    /// let the user submit or administer.
    pub(crate) fn check_dynamic_acl(
        &self,
        sub: &AppSubmission,
        application_id: ApplicationId,
        parent: &str,
    ) -> Result<(), Rejection> {
        // The nearest existing ancestor of the leaf.
        let mut at = parent;
        let existing = loop {
            if let Ok(q) = self.tree.find(at) {
                break Some(q);
            }
            match at.rsplit_once('.') {
                Some((up, _)) => at = up,
                None => break None,
            }
        };
        let Some(existing) = existing else {
            return Ok(());
        };
        let groups: Vec<&str> = sub.groups.iter().map(String::as_str).collect();
        let allowed_by_template = self
            .tree
            .conf(existing)
            .flexible
            .as_deref()
            .is_some_and(|f| {
                [
                    crate::config::keys::ACL_SUBMIT_APPLICATIONS,
                    crate::config::keys::ACL_ADMINISTER_QUEUE,
                ]
                .iter()
                .any(|acl| {
                    f.leaf_template
                        .get(*acl)
                        .or_else(|| f.template.get(*acl))
                        .is_some_and(|v| {
                            crate::config::AccessControlList::parse(v)
                                .is_user_allowed(&sub.user, &groups)
                        })
                })
            });
        if allowed_by_template || self.can_submit(existing, &sub.user, &sub.groups) {
            return Ok(());
        }
        Err(Rejection {
            message: format!(
                "User {} does not have permission to submit {application_id} to queue {}",
                sub.user, sub.queue
            ),
        })
    }
}
