//! **Applications** (`scheduler::apps`): an application's life in the scheduler — this file's
//! submission, attempts, activation, removal, moves and priorities; `am` (the AM's `allocate`
//! call), `containers` (the one path every container end takes), `update` (container updates
//! in `allocate`), `app_report` (one application's and one container's report). It may use
//! the scheduler's state, `labels` for a request's label expression, `placement` for where a
//! submission goes, and the floors below (`state`, `records`, `config`, `resource`, `ids`).
//!
//! Application and attempt lifecycle (spec §3.1–§3.4): submission with YARN's rejection
//! reasons, attempts, activation under the AM limits, removal; moving and re-prioritising.

pub(super) mod am;
pub mod app_report;
pub(crate) mod containers;
pub mod update;

use super::preemption::preempt_view::view_add;
use super::{CapacityScheduler, SchedulerError};
use crate::config::QueueState;
use crate::echo::echo;
use crate::ids::{AppId, ApplicationId};
use crate::records::PendingReason;
use crate::records::SchedulerNotice;
use crate::records::{diagnostics, exit_status, Rejection, ResourceRequest, SchedulerKey};
use crate::resource::Resource;
use crate::state::app::{Attempt, AttemptState, SchedulerApp};
use crate::state::partition::{get_in, Partition, DEFAULT_PARTITION};
use crate::state::queue::{QueueId, QueueLookupError};
use crate::state::request::LocationRequest;
use smallvec::SmallVec;

/// YARN's `QueueACL`: the two rights a queue grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueAcl {
    SubmitApplications,
    AdministerQueue,
}

/// A new application (APP_ADDED).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppSubmission {
    /// Full queue path or unique short leaf name.
    pub queue: String,
    pub user: String,
    /// The user's groups, for queue ACLs (`yarn.acl.enable`).
    pub groups: Vec<String>,
    /// Application priority; `None` ⇒ the leaf's default.
    pub priority: Option<i32>,
    /// The RM's own `ApplicationId` (`ClientRMService.getNewApplication`); `None` ⇒ the
    /// scheduler mints the next one with its cluster timestamp.
    pub application_id: Option<ApplicationId>,
    /// Work-preserving RM restart (`CapacityScheduler.addApplicationOnRecovery`): the
    /// application was accepted before the restart, so the submission checks (the system cap,
    /// ACLs, the leaf's limits and states) do not apply; a STOPPED leaf and its STOPPED
    /// ancestors drain instead. Only a queue that no longer exists, or is no longer a leaf,
    /// refuses it, with YARN's "killed on recovery" words.
    pub recovering: bool,
    /// The application's name (`ApplicationSubmissionContext.getApplicationName`), for the
    /// app-name placement rule; `None` ⇒ YARN's "N/A".
    pub app_name: Option<String>,
    /// The lifetime the application asks for, in seconds (its `LIFETIME` timeout); `None` or
    /// ≤ 0 ⇒ none: the leaf's default applies, and a positive one is capped at the leaf's
    /// maximum (docs/SEMANTICS.md, "Application lifetimes").
    pub lifetime_s: Option<i64>,
    /// The application's node-label expression (`ApplicationSubmissionContext.
    /// getNodeLabelExpression`): its asks' label when they name none.
    pub node_label_expression: Option<String>,
    /// The AM container request's own label expression; `None` takes the application's,
    /// then the queue's default.
    pub am_node_label_expression: Option<String>,
}

impl AppSubmission {
    pub fn new(queue: &str, user: &str) -> Self {
        AppSubmission {
            queue: queue.to_string(),
            user: user.to_string(),
            groups: Vec::new(),
            priority: None,
            application_id: None,
            recovering: false,
            app_name: None,
            lifetime_s: None,
            node_label_expression: None,
            am_node_label_expression: None,
        }
    }
}

/// A new attempt (APP_ATTEMPT_ADDED).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AttemptSubmission {
    /// The AM container's size (normalised here).
    pub am_resource: Resource,
    /// An unmanaged AM runs outside the cluster: no AM container is asked for.
    pub unmanaged: bool,
    /// Work-preserving AM restart: take over the previous attempt's running containers.
    pub keep_containers: bool,
    /// Work-preserving RM restart: the attempt was running before the restart, so its AM
    /// container runs already and comes back with its NodeManager's report (YARN's recovered
    /// attempt never re-enters ScheduleTransition). No AM container is asked for.
    pub recovering: bool,
}

impl AttemptSubmission {
    pub fn with_am(am_resource: Resource) -> Self {
        AttemptSubmission {
            am_resource,
            unmanaged: false,
            keep_containers: false,
            recovering: false,
        }
    }
}

/// `UserGroupInformation.createRemoteUser`'s message for a null or empty user name
/// (`IllegalArgumentException`).
pub const EMPTY_USER: &str = "Null user";

fn access_denied(message: String) -> Rejection {
    Rejection {
        message: format!("org.apache.hadoop.security.AccessControlException: {message}"),
    }
}

impl CapacityScheduler {
    pub(crate) fn app_or_err(&self, app: AppId) -> Result<&SchedulerApp, SchedulerError> {
        self.apps.get(app).ok_or_else(|| {
            SchedulerError::UnknownApplication(format!("unknown application id {}", app.as_u64()))
        })
    }

    /// APP_ADDED: accepts the application or rejects it with YARN's message (spec §3.1).
    pub fn submit_application(
        &mut self,
        now_ms: i64,
        sub: &AppSubmission,
    ) -> Result<AppId, Rejection> {
        let application_id = sub.application_id.unwrap_or(ApplicationId {
            cluster_timestamp: self.cluster_timestamp,
            id: self.next_application_id,
        });
        // RMAppManager.createAndPopulateNewRMApp: an id the RM already holds is refused.
        if self.app_by_yarn_id.contains_key(&application_id) {
            return Err(Rejection {
                message: format!(
                    "Application with id {application_id} is already present! Cannot add a duplicate!"
                ),
            });
        }
        if application_id.id <= 0 {
            return Err(Rejection {
                message: format!(
                    "Invalid ApplicationId {application_id}: the sequence number must be positive"
                ),
            });
        }
        // 0. The RM makes the submitter's UserGroupInformation before the scheduler hears of
        //    the application, and `UserGroupInformation.createRemoteUser` refuses an empty name.
        if sub.user.is_empty() {
            return Err(Rejection {
                message: EMPTY_USER.to_string(),
            });
        }
        // 1. The system-wide cap counts submissions at root.
        if !sub.recovering && self.num_applications[0] >= self.tree.settings().maximum_applications
        {
            return Err(Rejection {
                message: format!(
                    "Maximum system application limit reached,cannot accept submission of application: {application_id}"
                ),
            });
        }
        let sub = &*self.with_static_groups(sub);
        // Placement (RMAppManager.placeApplication, before the scheduler hears of the
        // application): the rules may send it elsewhere; a recovered application keeps the
        // queue it ran in.
        let placement = if !sub.recovering {
            self.place_application(sub, application_id)?
        } else if self.tree.find(&sub.queue).is_err() {
            // A recovered application's auto-created queue is made again from the placement
            // the RM runs at recovery (`addApplicationOnRecovery` with its placement context);
            // a rule that fails leaves the queue missing, and the application is killed below.
            self.place_application(sub, application_id)
                .ok()
                .flatten()
                .filter(|p| p.queue == sub.queue)
        } else {
            None
        };
        // RMAppManager.placeApplication then refuses a submission that names no queue, placed
        // or not (its condition binds `|| queue.isEmpty()` outside the null check).
        if !sub.recovering && sub.queue.is_empty() {
            return Err(Rejection {
                message: format!(
                    "Failed to place application {application_id} in a queue and submit context queue is null or empty"
                ),
            });
        }
        // Copied only when a rule moved it (submission is a hot call).
        let placed_sub;
        let sub = match placement.as_ref().and_then(|p| p.submitted_queue(sub)) {
            None => sub,
            Some(queue) => {
                placed_sub = AppSubmission {
                    queue,
                    ..sub.clone()
                };
                &placed_sub
            }
        };
        // 2–3. The queue must exist and be a leaf. A placed queue is looked up by its leaf
        //    name (RMAppManager copies only that); one that is not found under the parent the
        //    rule named is auto-created there if that parent is a managed one.
        let leaf = match self.tree.find(&sub.queue) {
            Ok(q) => q,
            Err(_) if placement.as_ref().is_some_and(|p| p.parent.is_some()) => {
                let p = placement.as_ref().expect("checked");
                let parent = p.parent.as_deref().expect("checked");
                self.auto_create_for(now_ms, sub, application_id, parent, &p.queue)?
            }
            // YARN 3.4: a submission naming a queue that does not exist under a parent that may
            // create children creates it; if it cannot, the queue is unknown.
            Err(QueueLookupError::Unknown(_))
                if !sub.recovering && sub.queue.contains('.') && self.has_flexible_parents() =>
            {
                match self.create_queue(now_ms, &sub.queue) {
                    Ok(q) => q,
                    Err(_) => {
                        return Err(Rejection {
                            message: format!(
                                "Application {application_id} submitted by user {} to unknown queue: {}",
                                echo(&sub.user), echo(&sub.queue)
                            ),
                        })
                    }
                }
            }
            Err(_) if sub.recovering => {
                return Err(Rejection {
                    message: format!(
                        "Application killed on recovery as it was submitted to queue {} which no longer exists after restart.",
                        echo(&sub.queue)
                    ),
                })
            }
            Err(QueueLookupError::Unknown(q)) => {
                return Err(Rejection {
                    message: format!("Application {application_id} submitted by user {} to unknown queue: {}", echo(&sub.user), echo(&q)),
                })
            }
            Err(QueueLookupError::Ambiguous(q)) => {
                return Err(Rejection {
                    message: format!(
                        "Application {application_id} submitted by user {} to ambiguous queue: {} please use full queue path instead.",
                        echo(&sub.user), echo(&q)
                    ),
                })
            }
        };
        if !self.tree.is_leaf(leaf) && sub.recovering {
            return Err(Rejection {
                message: format!(
                    "Application killed on recovery as it was submitted to queue {} which is no longer a leaf queue after restart.",
                    echo(&sub.queue)
                ),
            });
        }
        if !self.tree.is_leaf(leaf) {
            return Err(Rejection {
                message: format!(
                    "Application {application_id} submitted by user : {} to non-leaf queue : {}",
                    echo(&sub.user),
                    echo(&sub.queue)
                ),
            });
        }
        // ACLs are the RM's check (ClientRMService/RMAppManager), enforced only with yarn.acl.enable.
        if !sub.recovering
            && self.tree.settings().acl_enabled
            && !self.can_submit(leaf, &sub.user, &sub.groups)
        {
            return Err(Rejection {
                message: format!(
                    "User {} does not have permission to submit {application_id} to queue {}",
                    echo(&sub.user),
                    self.tree.path(leaf)
                ),
            });
        }
        // CapacityScheduler.addApplication: an auto-created leaf is reached only through a
        // placement under its own parent.
        if !sub.recovering && self.tree.conf(leaf).auto_created {
            let parent = self
                .tree
                .parent(leaf)
                .expect("an auto-created leaf has a parent");
            match placement.as_ref() {
                None => {
                    return Err(Rejection {
                        message: format!(
                            "Application {application_id} submission by user : {} to specified queue : {}  is prohibited. \
                             Verify automatic queue mapping for user exists in yarn.scheduler.capacity.queue-mappings",
                            echo(&sub.user), echo(&sub.queue)
                        ),
                    })
                }
                Some(p) => {
                    let named = p.parent.as_deref().unwrap_or("");
                    if named != self.tree.conf(parent).name && named != self.tree.path(parent) {
                        return Err(Rejection {
                            message: format!(
                                "Auto created Leaf queue {} already exists under queue : {}. But Queue mapping configuration \
                                 yarn.scheduler.capacity.queue-mappings has been updated to a different parent queue : {named} \
                                 for the specified user : {}",
                                p.queue,
                                self.tree.conf(parent).name,
                                echo(&sub.user)
                            ),
                        });
                    }
                }
            }
        }
        // The AM request's label (RMAppManager.validateAndCreateResourceRequest): its own, else
        // the application's, else the queue's default; checked unless recovering.
        let am_label = self.normalized_label(
            leaf,
            sub.node_label_expression.as_deref(),
            sub.am_node_label_expression.as_deref(),
            crate::records::ANY,
        );
        if !sub.recovering {
            self.validate_label(leaf, crate::records::ANY, am_label)
                .map_err(|e| Rejection {
                    message: e.to_string(),
                })?;
        }
        let am_partition = self.partition_of_label(am_label);
        // 4. The leaf's own checks, then every ancestor's state; a recovered application was
        //    running, so a STOPPED queue above it was DRAINING (LeafQueue.recoverDrainingState).
        if sub.recovering {
            let mut at = Some(leaf);
            while let Some(q) = at.filter(|&q| self.tree.queue(q).state == QueueState::Stopped) {
                self.tree.queue_mut(q).state = QueueState::Draining;
                at = self.tree.parent(q);
            }
        } else {
            self.validate_submit_to_leaf(leaf, &sub.user, &application_id.to_string())?;
        }

        let max_priority = self.tree.settings().max_cluster_application_priority;
        let default_priority = self
            .tree
            .conf(leaf)
            .leaf
            .as_ref()
            .map(|l| l.default_application_priority)
            .unwrap_or(0);
        let priority = sub.priority.unwrap_or(default_priority).min(max_priority);
        if application_id.cluster_timestamp == self.cluster_timestamp {
            // Ids the host gives and ids minted here never collide.
            self.next_application_id = self.next_application_id.max(application_id.id + 1);
        }
        let mut at = self.tree.parent(leaf);
        while let Some(q) = at {
            self.num_applications[q] += 1;
            at = self.tree.parent(q);
        }
        self.attempts_epoch += 1;
        // RMAppImpl registers the application with its lifetime monitor at submission: the
        // leaf's answer to what it asked for, counted from now. A recovered application's
        // deadline is the host's (it knows the original submission time).
        let granted = if sub.recovering {
            -1
        } else {
            self.tree
                .conf(leaf)
                .lifetimes
                .granted(sub.lifetime_s.unwrap_or(-1))
        };
        let lifetime_deadline =
            (granted > 0).then(|| now_ms.saturating_add(granted.saturating_mul(1000)));
        self.note_dynamic_submission(now_ms, leaf);
        let id = self.apps.insert(SchedulerApp {
            name: application_id.to_string().into(),
            application_id,
            queue: leaf,
            user: sub.user.clone(),
            priority,
            attempt: None,
            attempts_made: 0,
            submit_time_ms: now_ms,
            user_slot: usize::MAX,
            preempted_containers: 0,
            preempted_resource: Resource::ZERO,
            lifetime_deadline_ms: lifetime_deadline,
            node_label_expression: sub
                .node_label_expression
                .as_deref()
                .map(|l| crate::config::hadoop::java::java_trim(l).to_string()),
            am_partition,
        });
        self.app_by_yarn_id.insert(application_id, id);
        if let Some(d) = lifetime_deadline {
            self.lifetime_deadlines.insert((d, id));
        }
        Ok(id)
    }

    /// Whether `user` (with `groups`) may submit to `queue`: RMAppManager refuses only when
    /// both SUBMIT_APPLICATIONS and ADMINISTER_QUEUE are denied.
    pub fn can_submit(&self, queue: QueueId, user: &str, groups: &[String]) -> bool {
        self.has_access(queue, QueueAcl::SubmitApplications, user, groups)
            || self.has_access(queue, QueueAcl::AdministerQueue, user, groups)
    }

    /// `CapacityScheduler.checkAccess(user, acl, queueName)`: the queue by full path or short
    /// name — a `root.` path that does not exist is checked at its nearest existing ancestor —
    /// and then `ConfiguredYarnAuthorizer`: allowed by the queue's ACL of that kind or by any
    /// ancestor's (root's default is `*`, every other queue's nobody). An unknown queue is
    /// denied. Like YARN's, this does not look at `yarn.acl.enable`: the RM's callers do
    /// (submission here does).
    pub fn check_access(&self, user: &str, groups: &[String], acl: QueueAcl, queue: &str) -> bool {
        let mut name = queue;
        let found = loop {
            match self.tree.find(name) {
                Ok(q) => break Some(q),
                Err(_) if name.starts_with("root.") => {
                    name = &name[..name.rfind('.').expect("has a dot")];
                }
                Err(_) => break None,
            }
        };
        found.is_some_and(|q| self.has_access(q, acl, user, groups))
    }

    /// The ACL of kind `acl` on `queue` or any ancestor allows `user`.
    fn has_access(&self, queue: QueueId, acl: QueueAcl, user: &str, groups: &[String]) -> bool {
        let groups: Vec<&str> = groups.iter().map(String::as_str).collect();
        let mut at = Some(queue);
        while let Some(q) = at {
            let c = self.tree.conf(q);
            let list = match acl {
                QueueAcl::SubmitApplications => &c.acl_submit_applications,
                QueueAcl::AdministerQueue => &c.acl_administer_queue,
            };
            if list.is_user_allowed(user, &groups) {
                return true;
            }
            at = self.tree.parent(q);
        }
        false
    }

    /// `LeafQueue.validateSubmitApplication` and the ancestors' state checks.
    fn validate_submit_to_leaf(
        &self,
        leaf: QueueId,
        user: &str,
        app: &str,
    ) -> Result<(), Rejection> {
        let path = self.tree.path(leaf);
        if self.tree.queue(leaf).state != QueueState::Running {
            return Err(access_denied(format!(
                "Queue {path} is STOPPED. Cannot accept submission of application: {app}"
            )));
        }
        let lr = self.leaf(leaf).expect("a leaf");
        let limits = self.tree.queue(leaf).leaf.expect("leaf limits");
        let n = lr.num_attempts() as i32;
        if n >= limits.max_applications {
            return Err(access_denied(format!(
                "Queue {path} already has {n} applications, cannot accept submission of application: {app}"
            )));
        }
        let user_apps = lr
            .users
            .get(user)
            .map(|u| (u.pending_apps + u.active_apps) as i32)
            .unwrap_or(0);
        if user_apps >= limits.max_applications_per_user {
            return Err(access_denied(format!(
                "Queue {path} already has {user_apps} applications from user {user} cannot accept submission of application: {app}"
            )));
        }
        let mut at = self.tree.parent(leaf);
        while let Some(q) = at {
            if self.tree.queue(q).state != QueueState::Running {
                return Err(access_denied(format!(
                    "Queue {} is STOPPED. Cannot accept submission of application: {app}",
                    self.tree.path(q)
                )));
            }
            at = self.tree.parent(q);
        }
        Ok(())
    }

    /// APP_ATTEMPT_ADDED (spec §3.2): the attempt becomes pending (or non-runnable under
    /// max-parallel-apps), asks for its AM container, and activation runs.
    pub fn add_attempt(
        &mut self,
        now_ms: i64,
        app: AppId,
        attempt: AttemptSubmission,
    ) -> Result<(), SchedulerError> {
        let a = self.app_or_err(app)?;
        if a.attempt.is_some() {
            return Err(SchedulerError::Refused(format!(
                "application {} already has a live attempt",
                a.application_id
            )));
        }
        let (leaf, user) = (a.queue, a.user.clone());
        self.observe(now_ms);
        let s = self.tree.settings();
        let min = s.minimum_allocation;
        let am_resource = if attempt.unmanaged {
            min
        } else {
            // RMAppManager validates the AM's request against the queue's maximum first.
            self.validate_capability(
                &attempt.am_resource,
                &self.queue_max_allocation(leaf, now_ms),
            )?;
            s.resource_calculator.normalize(
                &attempt.am_resource,
                &min,
                &self.cluster_max_allocation(now_ms),
                &min,
            )
        };
        let weight = self.user_weight(leaf, &user);
        let runnable = self.is_runnable(leaf, &user);
        {
            let a = &mut self.apps[app];
            a.attempts_made += 1;
            let mut at = Attempt::new(a.attempts_made, am_resource, attempt.unmanaged);
            if !self.preemption_views_kept {
                at.preempt_view = None;
            }
            at.am_partition = a.am_partition;
            at.state = if runnable {
                AttemptState::Pending
            } else {
                AttemptState::NonRunnable
            };
            a.attempt = Some(at);
        }
        // Work-preserving AM restart: the new attempt adopts the running containers kept from
        // the last one; otherwise they are killed.
        for c in self.kept_containers_take(app) {
            if attempt.keep_containers {
                let r = self.containers[c].resource;
                let t = self.apps[app].attempt.as_mut().expect("just created");
                t.live_containers.insert(c);
                view_add(t, c, &mut self.containers[c]);
                t.used += r;
            } else {
                self.complete_container(
                    now_ms,
                    c,
                    exit_status::ABORTED,
                    diagnostics::COMPLETED_APPLICATION,
                    self::containers::Completion::Killed,
                );
            }
        }
        let entry = (self.apps[app].priority, self.apps[app].application_id, app);
        let lr = self.leaf_mut(leaf);
        let slot = lr.users.entry_slot(&user, weight);
        let u = lr.users.entry(&user, weight);
        if runnable {
            u.pending_apps += 1;
            lr.insert_pending(entry);
        } else {
            u.non_runnable_apps += 1;
            lr.non_runnable.push(app);
        }
        self.apps[app].user_slot = slot;
        self.attempts_epoch += 1;
        if !runnable {
            self.set_pending_reason(app, PendingReason::MaxParallelApps);
        } else if self.tree.cluster_resource().is_zero() {
            self.set_pending_reason(app, PendingReason::ClusterResourceEmpty);
        } else {
            self.activate_applications(leaf, now_ms);
        }
        if let Some(reason) = self.apps[app]
            .attempt
            .as_ref()
            .and_then(|t| t.pending_reason)
        {
            self.notice(SchedulerNotice::AppPending { app, reason });
        }
        if !attempt.unmanaged && !attempt.recovering {
            // The RM asks for the AM container on the attempt's behalf (priority 0, ANY, one)
            // once APP_ATTEMPT_ADDED — activation included — is done.
            let am_label = self.labels.name(self.apps[app].am_partition).to_string();
            let ask = ResourceRequest::any(0, am_resource, 1).with_label(&am_label);
            if let Some(t) = self.apps[app].attempt.as_mut() {
                t.am_pending = true;
            }
            self.update_asks(app, std::slice::from_ref(&ask));
        }
        Ok(())
    }

    /// Max-parallel-apps: the user and the leaf and every ancestor must have room.
    fn is_runnable(&self, leaf: QueueId, user: &str) -> bool {
        let s = self.tree.settings();
        let user_cap = s
            .user_max_parallel_apps_by_user
            .get(user)
            .copied()
            .or(s.user_max_parallel_apps);
        if let Some(cap) = user_cap {
            let running = self
                .apps
                .iter()
                .filter(|(_, a)| {
                    a.user == user
                        && a.attempt
                            .as_ref()
                            .is_some_and(|t| t.state != AttemptState::NonRunnable)
                })
                .count() as i32;
            if running >= cap {
                return false;
            }
        }
        let mut at = Some(leaf);
        while let Some(q) = at {
            if let Some(cap) = self.tree.conf(q).max_parallel_apps.or(s.max_parallel_apps) {
                if self.runnable_in_subtree(q) >= cap {
                    return false;
                }
            }
            at = self.tree.parent(q);
        }
        true
    }

    fn runnable_in_subtree(&self, q: QueueId) -> i32 {
        self.apps
            .iter()
            .filter(|(_, a)| {
                a.attempt
                    .as_ref()
                    .is_some_and(|t| t.state != AttemptState::NonRunnable)
                    && self.tree.is_ancestor_or_self(q, a.queue)
            })
            .count() as i32
    }

    /// `LeafQueue.activateApplications` (spec §3.2): pending attempts become active while the
    /// queue and user AM limits allow, skipping (not stopping at) those that do not fit.
    pub(crate) fn activate_applications(&mut self, leaf: QueueId, _now_ms: i64) {
        let rc = self.tree.settings().resource_calculator;
        let pending: Vec<(i32, ApplicationId, AppId)> = self
            .leaf(leaf)
            .map(|l| l.pending.clone())
            .unwrap_or_default();
        if pending.is_empty() {
            return;
        }
        let active_users = self
            .leaf(leaf)
            .map(|l| l.users.active_users_for_am_limit())
            .unwrap_or(0);
        // Limits per AM partition. YARN computes the user AM limit once per pass and
        // partition, lazily: with the weight of the first candidate that passes the queue's AM
        // check there.
        let mut am_limits: SmallVec<[(Partition, Resource); 1]> = SmallVec::new();
        let mut user_am_limits: SmallVec<[(Partition, Resource); 1]> = SmallVec::new();
        for (priority, application_id, app) in pending {
            let (user, am, partition) = {
                let a = &self.apps[app];
                let t = a.attempt.as_ref();
                (
                    a.user.clone(),
                    t.map(|t| t.am_resource).unwrap_or(Resource::ZERO),
                    t.map(|t| t.am_partition).unwrap_or(DEFAULT_PARTITION),
                )
            };
            let am_limit = match am_limits.iter().find(|(p, _)| *p == partition) {
                Some((_, l)) => *l,
                None => {
                    let l = self.am_limit_in(leaf, partition);
                    am_limits.push((partition, l));
                    l
                }
            };
            let lr = self.leaf(leaf).expect("a leaf");
            let queue_am_used = get_in(lr.am_used, &lr.labelled_am_used, partition);
            let exempt = lr.active.is_empty() || queue_am_used.is_zero();
            if !rc.fits_in(&(queue_am_used + am), &am_limit) && !exempt {
                self.set_pending_reason(app, PendingReason::AmLimit);
                continue;
            }
            let user_limit = match user_am_limits.iter().find(|(p, _)| *p == partition) {
                Some((_, l)) => *l,
                None => {
                    let weight = self.user_weight(leaf, &user);
                    let l = self.user_am_limit_in(leaf, partition, active_users, weight);
                    user_am_limits.push((partition, l));
                    l
                }
            };
            let lr = self.leaf(leaf).expect("a leaf");
            let user_am_used = lr
                .users
                .get(&user)
                .map(|u| get_in(u.am_used, &u.labelled_am_used, partition))
                .unwrap_or(Resource::ZERO);
            if !rc.fits_in(&(user_am_used + am), &user_limit) && !exempt {
                self.set_pending_reason(app, PendingReason::UserAmLimit);
                continue;
            }
            self.demand_version += 1;
            let lr = self.leaf_mut(leaf);
            lr.pending.retain(|e| e.2 != app);
            lr.insert_active((priority, application_id, app));
            if let Some(u) = lr.users.get_mut(&user) {
                u.pending_apps -= 1;
                u.active_apps += 1;
            }
            self.add_am_used(leaf, &user, partition, am);
            if let Some(t) = self.apps[app].attempt.as_mut() {
                t.state = AttemptState::Active;
                t.am_counted = true;
                t.pending_reason = None;
            }
            self.notice(SchedulerNotice::AppActivated { app });
        }
    }

    /// Records why `app`'s attempt is still waiting.
    fn set_pending_reason(&mut self, app: AppId, reason: PendingReason) {
        if let Some(t) = self.apps[app].attempt.as_mut() {
            t.pending_reason = Some(reason);
        }
    }

    /// APP_ATTEMPT_REMOVED (spec §3.3).
    pub fn remove_attempt(
        &mut self,
        now_ms: i64,
        app: AppId,
        keep_containers: bool,
    ) -> Result<(), SchedulerError> {
        let a = self.app_or_err(app)?;
        let Some(attempt) = a.attempt.as_ref() else {
            return Err(SchedulerError::NoAttempt(format!(
                "application {} has no attempt",
                a.application_id
            )));
        };
        let (leaf, user) = (a.queue, a.user.clone());
        let state = attempt.state;
        // Opportunistic containers end with the attempt; only guaranteed ones may be kept.
        let opportunistic: Vec<_> = attempt.opportunistic_containers.iter().copied().collect();
        // Container updates belong to the attempt (YARN's ContainerUpdateContext): a kept
        // container does not carry one into the next attempt.
        let updating: Vec<_> = attempt
            .live_containers
            .iter()
            .chain(&opportunistic)
            .filter(|c| self.opportunistic.outstanding_updates.contains(c))
            .filter_map(|c| self.containers.get(*c).map(|rc| (*c, rc.node)))
            .collect();
        let containers: Vec<_> = attempt
            .live_containers
            .iter()
            .chain(attempt.reservations.iter())
            .copied()
            .collect();
        let kept: Vec<_> = containers
            .iter()
            .copied()
            .filter(|c| {
                keep_containers
                    && self
                        .containers
                        .get(*c)
                        .is_some_and(|c| c.state == crate::records::ContainerState::Running)
            })
            .collect();
        for (c, node) in updating {
            self.forget_update(c, node);
        }
        for c in opportunistic {
            self.complete_container(
                now_ms,
                c,
                exit_status::ABORTED,
                diagnostics::COMPLETED_APPLICATION,
                self::containers::Completion::Killed,
            );
        }
        for c in containers.iter().copied().filter(|c| !kept.contains(c)) {
            let reserved = self.containers.get(c).is_some_and(|c| c.is_reserved());
            let diag = if reserved {
                diagnostics::APPLICATION_COMPLETE
            } else {
                diagnostics::COMPLETED_APPLICATION
            };
            self.complete_container(
                now_ms,
                c,
                exit_status::ABORTED,
                diag,
                self::containers::Completion::Killed,
            );
        }
        let delta = self.apps[app]
            .attempt
            .as_mut()
            .expect("attempt")
            .requests
            .clear();
        self.apply_pending_delta(app, delta);
        let attempt = self.apps[app].attempt.take().expect("attempt");
        // Containers kept across attempts stay charged to the app; the next attempt adopts them.
        if !kept.is_empty() {
            self.apps[app].attempt = None;
            self.kept_containers_insert(app, kept);
        }
        if attempt.am_counted {
            self.add_am_used(leaf, &user, attempt.am_partition, -attempt.am_resource);
        }
        self.demand_version += 1;
        let lr = self.leaf_mut(leaf);
        lr.remove(app);
        if let Some(u) = lr.users.get_mut(&user) {
            match state {
                AttemptState::Active => u.active_apps -= 1,
                AttemptState::Pending => u.pending_apps -= 1,
                AttemptState::NonRunnable => u.non_runnable_apps -= 1,
            }
        }
        lr.users.remove_if_empty(&user);
        self.promote_non_runnable(now_ms);
        self.activate_applications(leaf, now_ms);
        Ok(())
    }

    /// Non-runnable attempts that now have room become pending (max-parallel-apps).
    fn promote_non_runnable(&mut self, now_ms: i64) {
        // CSMaxRunningAppsEnforcer: candidates across all leaves, earliest start first.
        let mut waiting: Vec<(i64, ApplicationId, AppId, QueueId)> = Vec::new();
        for leaf in self.tree.leaves() {
            for &app in self
                .leaf(leaf)
                .map(|l| l.non_runnable.as_slice())
                .unwrap_or_default()
            {
                let a = &self.apps[app];
                waiting.push((a.submit_time_ms, a.application_id, app, leaf));
            }
        }
        if waiting.is_empty() {
            return;
        }
        waiting.sort();
        let mut touched: Vec<QueueId> = Vec::new();
        for (_, application_id, app, leaf) in waiting {
            let user = self.apps[app].user.clone();
            if !self.is_runnable(leaf, &user) {
                continue;
            }
            let entry = (self.apps[app].priority, application_id, app);
            if let Some(t) = self.apps[app].attempt.as_mut() {
                t.state = AttemptState::Pending;
                t.pending_reason = None;
            }
            self.attempts_epoch += 1;
            let lr = self.leaf_mut(leaf);
            lr.non_runnable.retain(|a| *a != app);
            lr.insert_pending(entry);
            if let Some(u) = lr.users.get_mut(&user) {
                u.pending_apps += 1;
                u.non_runnable_apps -= 1;
            }
            if !touched.contains(&leaf) {
                touched.push(leaf);
            }
        }
        for leaf in touched {
            self.activate_applications(leaf, now_ms);
        }
    }

    /// APP_REMOVED (spec §3.4): the ancestors' counters drop; a DRAINING queue with no
    /// applications left becomes STOPPED.
    pub fn remove_application(&mut self, now_ms: i64, app: AppId) -> Result<(), SchedulerError> {
        self.app_or_err(app)?;
        if self.apps[app].attempt.is_some() {
            self.remove_attempt(now_ms, app, false)?;
        }
        for c in self.kept_containers_take(app) {
            self.complete_container(
                now_ms,
                c,
                exit_status::ABORTED,
                diagnostics::COMPLETED_APPLICATION,
                self::containers::Completion::Killed,
            );
        }
        let a = self.apps.remove(app).expect("checked above");
        self.app_by_yarn_id.remove(&a.application_id);
        if let Some(d) = a.lifetime_deadline_ms {
            self.lifetime_deadlines.remove(&(d, app));
        }
        let leaf = a.queue;
        let mut at = self.tree.parent(leaf);
        while let Some(q) = at {
            self.num_applications[q] -= 1;
            at = self.tree.parent(q);
        }
        self.attempts_epoch += 1;
        if let Some(lr) = self.leaves[leaf].as_mut() {
            lr.users.remove_if_empty(&a.user);
        }
        self.drain_stopped_queues();
        Ok(())
    }

    /// DRAINING queues with no applications left become STOPPED, bottom-up.
    pub(crate) fn drain_stopped_queues(&mut self) {
        for q in (0..self.tree.len()).rev() {
            if self.tree.queue(q).state != QueueState::Draining {
                continue;
            }
            let apps = match self.leaf(q) {
                Some(lr) => {
                    lr.num_attempts() as i32
                        + self
                            .apps
                            .iter()
                            .filter(|(_, a)| a.queue == q && a.attempt.is_none())
                            .count() as i32
                }
                None => self.num_applications[q],
            };
            if apps == 0 {
                self.tree.queue_mut(q).state = QueueState::Stopped;
            }
        }
    }

    /// `yarn application -movetoqueue`: the application, its usage and asks move to another
    /// leaf, which must accept it as a new submission would (state, application limits).
    pub fn move_application(
        &mut self,
        now_ms: i64,
        app: AppId,
        target: &str,
    ) -> Result<(), SchedulerError> {
        let a = self.app_or_err(app)?;
        let (source, user, application_id) = (a.queue, a.user.clone(), a.application_id);
        let dest = self
            .tree
            .find(target)
            .map_err(|e| SchedulerError::Refused(format!("Move to queue {target} failed: {e}")))?;
        if !self.tree.is_leaf(dest) {
            return Err(SchedulerError::Refused(format!(
                "Move to queue {target} failed: {target} is not a leaf queue"
            )));
        }
        if dest == source {
            return Err(SchedulerError::Refused(format!(
                "App {application_id} is already in queue {}",
                self.tree.path(dest)
            )));
        }
        self.check_queue_partition(app, dest)?;
        self.validate_submit_to_leaf(dest, &user, &application_id.to_string())
            .map_err(|r| SchedulerError::Refused(r.message))?;

        // Detach from the source: usage, asks, AM usage and the attempt's place.
        let (state, am, am_partition, am_counted) = match self.apps[app].attempt.as_ref() {
            Some(t) => (Some(t.state), t.am_resource, t.am_partition, t.am_counted),
            None => (None, Resource::ZERO, DEFAULT_PARTITION, false),
        };
        let usage = self.app_usage_by_partition(app);
        let withdrawn = self.apps[app]
            .attempt
            .as_ref()
            .map(|t| crate::state::request::PendingDelta::whole(&t.requests, false));
        let had_demand = withdrawn.as_ref().is_some_and(|d| d.had_demand);
        // Killable containers (lazy preemption) move with the application.
        let killable: Resource = self.apps[app]
            .attempt
            .as_ref()
            .map(|t| {
                t.live_containers
                    .iter()
                    .filter_map(|c| self.containers.get(*c))
                    .filter(|c| c.killable)
                    .map(|c| c.resource)
                    .sum()
            })
            .unwrap_or_default();
        self.add_queue_killable(source, -killable);
        for &(p, used, reserved, count) in &usage {
            self.add_app_used(app, p, -used);
            self.add_queue_reserved(source, p, -reserved, -count);
        }
        if let Some(d) = withdrawn {
            self.apply_pending_delta(app, d);
        }
        let weight = self.user_weight(dest, &user);
        if am_counted {
            self.add_am_used(source, &user, am_partition, -am);
        }
        self.demand_version += 1;
        let lr = self.leaf_mut(source);
        lr.remove(app);
        if let Some(u) = lr.users.get_mut(&user) {
            match state {
                Some(AttemptState::Active) => u.active_apps -= 1,
                Some(AttemptState::Pending) => u.pending_apps -= 1,
                Some(AttemptState::NonRunnable) => u.non_runnable_apps -= 1,
                None => {}
            }
        }
        lr.users.remove_if_empty(&user);
        let mut at = self.tree.parent(source);
        while let Some(q) = at {
            self.num_applications[q] -= 1;
            at = self.tree.parent(q);
        }

        // Attach to the target as a new submission of the attempt would be
        // (`submitApplicationAttempt`): pending, then activation decides under the target's
        // AM limits; a non-runnable attempt stays non-runnable.
        self.apps[app].queue = dest;
        let mut at = self.tree.parent(dest);
        while let Some(q) = at {
            self.num_applications[q] += 1;
            at = self.tree.parent(q);
        }
        let entry = (self.apps[app].priority, application_id, app);
        let lr = self.leaf_mut(dest);
        let slot = lr.users.entry_slot(&user, weight);
        match state {
            Some(AttemptState::Active) | Some(AttemptState::Pending) => {
                lr.insert_pending(entry);
                lr.users.get_mut(&user).expect("just created").pending_apps += 1;
                if let Some(t) = self.apps[app].attempt.as_mut() {
                    t.state = AttemptState::Pending;
                    t.am_counted = false;
                }
            }
            Some(AttemptState::NonRunnable) => {
                lr.non_runnable.push(app);
                lr.users
                    .get_mut(&user)
                    .expect("just created")
                    .non_runnable_apps += 1;
            }
            None => {}
        }
        self.apps[app].user_slot = slot;
        for &(p, used, reserved, count) in &usage {
            self.add_app_used(app, p, used);
            self.add_queue_reserved(dest, p, reserved, count);
        }
        self.add_queue_killable(dest, killable);
        if had_demand {
            let arriving = self.apps[app]
                .attempt
                .as_ref()
                .map(|t| crate::state::request::PendingDelta::whole(&t.requests, true));
            if let Some(d) = arriving {
                self.apply_pending_delta(app, d);
            }
        }
        // YARN moves the containers whatever the target's capacity.
        self.note_queues_over_max();
        self.activate_applications(source, now_ms);
        self.activate_applications(dest, now_ms);
        Ok(())
    }

    /// `updateApplicationPriority`: clamps to `yarn.cluster.max-application-priority` and
    /// re-orders the leaf. Returns the priority in force.
    pub fn update_application_priority(
        &mut self,
        app: AppId,
        priority: i32,
    ) -> Result<i32, SchedulerError> {
        self.app_or_err(app)?;
        let max = self.tree.settings().max_cluster_application_priority;
        let effective = priority.min(max);
        let leaf = self.apps[app].queue;
        self.apps[app].priority = effective;
        self.leaf_mut(leaf).reprioritise(app, effective);
        self.demand_version += 1;
        Ok(effective)
    }

    /// Asks for an attempt (AM allocate or the RM's AM ask), replacing entries (spec §4.8).
    pub(crate) fn update_asks(&mut self, app: AppId, asks: &[ResourceRequest]) {
        let leaf = self.apps[app].queue;
        for ask in asks {
            let partition = if ask.resource_name == crate::records::ANY {
                let label = self.normalized_label(
                    leaf,
                    self.apps[app].node_label_expression.as_deref(),
                    ask.node_label_expression.as_deref(),
                    crate::records::ANY,
                );
                self.partition_of_label(label)
            } else {
                DEFAULT_PARTITION
            };
            let name = if ask.resource_name == crate::records::ANY {
                None
            } else {
                Some(self.names.intern(&ask.resource_name))
            };
            let req = LocationRequest {
                count: ask.num_containers,
                capability: ask.capability,
                relax_locality: ask.relax_locality,
            };
            let Some(t) = self.apps[app].attempt.as_mut() else {
                return;
            };
            if name.is_none() && !t.requested_partitions.contains(&partition) {
                t.requested_partitions.push(partition);
            }
            let delta = t.requests.update(ask.key, name, req, partition);
            self.apply_pending_delta(app, delta);
        }
    }

    /// The scheduler key of AM containers.
    pub(crate) const AM_KEY: SchedulerKey = SchedulerKey {
        priority: 0,
        allocation_request_id: 0,
    };
}
