//! **Placement and the queues made for it** (`scheduler::placement`): where a submission goes
//! and the queues created to take it — this file's 3.3 rules (user-group and app-name
//! mappings), `mapping_rules` with `mapping_rule_variables` (YARN 3.4's JSON rules and one
//! submission's variables), `auto_queues` (3.3's auto-created leaves under managed parents and
//! their capacity policy), `flexible_queues` (3.4's dynamic queues and their deletion policy).
//! It may use the scheduler's state, `config`'s placement and auto-queue settings, and the
//! floors below; the memory it keeps between events lives in `state::dynamic_queues`.
//!
//! Queue placement at submission: YARN 3.3's PlacementManager running the CapacityScheduler's
//! rules in their configured order (`UserGroupMappingPlacementRule`,
//! `AppNameMappingPlacementRule`), then `RMAppManager` copying the placed queue into the
//! submission. The first rule with an answer wins; a mapped queue replaces the one the
//! submission names only when that is `default`, the mapped queue itself, or
//! `queue-mappings-override.enable` is set. The placed queue is then looked up by its leaf name,
//! as the CapacityScheduler's `addApplication` looks it up (docs/SEMANTICS.md, "Queue
//! placement"). With `mapping-rule-format=json`, YARN 3.4's mapping rules answer instead
//! (`scheduler::mapping_rules`).

pub(super) mod auto_queues;
pub(super) mod flexible_queues;
pub mod mapping_rule_variables;
pub mod mapping_rules;

use std::borrow::Cow;

use super::apps::AppSubmission;
use super::CapacityScheduler;
use crate::config::placement::{
    MappingKind, PlacementRuleKind, QueueMapping, CURRENT_APPLICATION, CURRENT_USER, PRIMARY_GROUP,
    SECONDARY_GROUP,
};
use crate::ids::ApplicationId;
use crate::records::Rejection;
use crate::state::queue::QueueLookupError;

/// YARN's `YarnConfiguration.DEFAULT_QUEUE_NAME`.
pub const DEFAULT_QUEUE: &str = "default";
/// `ApplicationSubmissionContext`'s application name when the client sets none.
pub const DEFAULT_APPLICATION_NAME: &str = "N/A";

/// A rule's answer (`ApplicationPlacementContext`): the leaf, and its parent when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub queue: String,
    pub parent: Option<String>,
    /// Made by YARN 3.4's mapping rules (`mapping-rule-format=json`): `parent.queue` is a
    /// normalised full path, which the RM hands to the scheduler (and the scheduler creates if
    /// it is missing); YARN 3.3's rules hand over the leaf name alone.
    pub full_path: bool,
}

impl Placement {
    /// The queue the submission goes on with, when the placement changes it
    /// (`copyPlacementQueueToSubmissionContext`): 3.3's leaf name, or 3.4's full path. A
    /// recovered application keeps the name it ran under.
    pub(crate) fn submitted_queue(&self, sub: &AppSubmission) -> Option<String> {
        if !self.full_path {
            return (self.queue != sub.queue).then(|| self.queue.clone());
        }
        if sub.recovering {
            return None;
        }
        let full = match &self.parent {
            Some(p) => format!("{p}.{}", self.queue),
            None => self.queue.clone(),
        };
        (full != sub.queue).then_some(full)
    }
}

/// Why a rule could not answer: YARN's IOException inside a rule (the rule wraps it in its
/// "Failed to submit application …" words), or an unchecked exception that reaches the
/// client as it is.
enum RuleError {
    Io(String),
    Unchecked(String),
}

#[allow(non_snake_case)]
fn RuleError(message: String) -> RuleError {
    RuleError::Io(message)
}

impl CapacityScheduler {
    /// The submission with the user's groups as Hadoop's `Groups` service gives them: the
    /// static table (`hadoop.user.group.static.mapping.overrides`) when it lists the user,
    /// else the host's.
    pub(crate) fn with_static_groups<'a>(&self, sub: &'a AppSubmission) -> Cow<'a, AppSubmission> {
        match self.configuration().placement().static_groups_of(&sub.user) {
            Some(groups) => Cow::Owned(AppSubmission {
                groups: groups.to_vec(),
                ..sub.clone()
            }),
            None => Cow::Borrowed(sub),
        }
    }

    /// Where the placement rules would send `sub` now (the RM's own placement step, asked
    /// before it submits): the id in messages is the submission's, or the one this scheduler
    /// would mint for it.
    pub fn place_submission(&self, sub: &AppSubmission) -> Result<Option<Placement>, Rejection> {
        let sub = &*self.with_static_groups(sub);
        let id = sub.application_id.unwrap_or(ApplicationId {
            cluster_timestamp: self.cluster_timestamp,
            id: self.next_application_id,
        });
        self.place_application(sub, id)
    }

    /// `PlacementManager.placeApplication`: the rules in order; the first placement wins.
    pub fn place_application(
        &self,
        sub: &AppSubmission,
        application_id: ApplicationId,
    ) -> Result<Option<Placement>, Rejection> {
        let p = self.configuration().placement();
        // YARN 3.4's JSON rules replace both 3.3 rules (one engine, CSMappingPlacementRule).
        if let Some(rules) = &p.mapping_rules {
            return self.place_by_mapping_rules(&rules.rules, sub);
        }
        for rule in &p.rules {
            let placed = match rule {
                PlacementRuleKind::UserGroup => self
                    .place_by_user(&p.user_group, sub)
                    .map_err(|e| Rejection {
                        message: match e {
                            RuleError::Io(m) => format!(
                                "Failed to submit application {application_id} submitted by user {} reason: {m}",
                                sub.user
                            ),
                            RuleError::Unchecked(m) => m,
                        },
                    })?,
                PlacementRuleKind::AppName => {
                    let name = sub.app_name.as_deref().unwrap_or(DEFAULT_APPLICATION_NAME);
                    self.place_by_app_name(&p.app_name, name)
                        .map_err(|e| Rejection {
                            message: match e {
                                RuleError::Io(m) => {
                                    format!("Failed to submit application {name} reason: {m}")
                                }
                                RuleError::Unchecked(m) => m,
                            },
                        })?
                }
            };
            // getPlacementForApp: a mapping is used only over `default`, over the mapped
            // queue itself (a recovery), or with the override on.
            if let Some(placed) = placed {
                if sub.queue == DEFAULT_QUEUE || sub.queue == placed.queue || p.override_mappings {
                    return Ok(Some(placed));
                }
            }
        }
        Ok(None)
    }

    /// `UserGroupMappingPlacementRule.getPlacementForUser`: the first mapping that concerns
    /// the user answers, even when its answer is none.
    fn place_by_user(
        &self,
        mappings: &[QueueMapping],
        sub: &AppSubmission,
    ) -> Result<Option<Placement>, RuleError> {
        let user = sub.user.as_str();
        for m in mappings {
            if m.kind == MappingKind::User {
                if m.source == CURRENT_USER {
                    let parent = m.parent.as_deref();
                    return match (parent, m.queue.as_str()) {
                        (Some(PRIMARY_GROUP), CURRENT_USER) => {
                            let g = self.primary_group(sub)?;
                            self.under_group_queue(m, user, Some(g))
                        }
                        (Some(SECONDARY_GROUP), CURRENT_USER) => {
                            let g = self.secondary_group(sub)?;
                            self.under_group_queue(m, user, g)
                        }
                        (_, CURRENT_USER) => self.context(m, user),
                        (_, PRIMARY_GROUP) => {
                            let g = self.primary_group(sub)?;
                            self.context(m, g)
                        }
                        (_, SECONDARY_GROUP) => match self.secondary_group(sub)? {
                            Some(g) => self.context(m, g),
                            None => Ok(None),
                        },
                        _ => self.context(m, &m.queue),
                    };
                }
                if user == m.source {
                    return match m.queue.as_str() {
                        PRIMARY_GROUP => {
                            let g = self.primary_group(sub)?;
                            self.context(m, g)
                        }
                        SECONDARY_GROUP => match self.secondary_group(sub)? {
                            Some(g) => self.context(m, g),
                            None => Ok(None),
                        },
                        _ => self.context(m, &m.queue),
                    };
                }
            }
            if m.kind == MappingKind::Group {
                for g in self.groups(sub)? {
                    if *g == m.source {
                        let leaf = if m.queue == CURRENT_USER {
                            user
                        } else {
                            &m.queue
                        };
                        return self.context(m, leaf);
                    }
                }
            }
        }
        Ok(None)
    }

    /// `Groups.getGroups`: a user of Hadoop's static table gets its list, even an empty one;
    /// for any other user an empty list from the mapping service is YARN's "No groups found".
    fn groups<'s>(&self, sub: &'s AppSubmission) -> Result<&'s [String], RuleError> {
        let listed = self
            .configuration()
            .placement()
            .static_groups_of(&sub.user)
            .is_some();
        if sub.groups.is_empty() && !listed {
            return Err(RuleError(format!("No groups found for user {}", sub.user)));
        }
        Ok(&sub.groups)
    }

    /// The user's groups, or `None` when Hadoop's `Groups` would find none (for the JSON
    /// rules, which log that and go on).
    pub(super) fn looked_up_groups<'s>(&self, sub: &'s AppSubmission) -> Option<&'s [String]> {
        self.groups(sub).ok()
    }

    /// `groups.getGroups(user).get(0)`: with a static table's empty list, Java's unchecked
    /// IndexOutOfBoundsException, which fails the submission as it is.
    fn primary_group<'s>(&self, sub: &'s AppSubmission) -> Result<&'s str, RuleError> {
        self.groups(sub)?
            .first()
            .map(String::as_str)
            .ok_or_else(|| {
                RuleError::Unchecked("java.lang.IndexOutOfBoundsException: Index: 0".into())
            })
    }

    /// The first of the user's other groups that names a queue.
    fn secondary_group<'s>(&self, sub: &'s AppSubmission) -> Result<Option<&'s str>, RuleError> {
        Ok(self
            .groups(sub)?
            .iter()
            .skip(1)
            .find(|g| self.tree.find(g).is_ok())
            .map(String::as_str))
    }

    /// `getContextForGroupParent` (`u:%user:%primary_group.%user` and the secondary form):
    /// the user's queue under the group's queue, which must exist as a leaf there unless the
    /// group's queue is a managed parent (which creates it).
    fn under_group_queue(
        &self,
        m: &QueueMapping,
        user: &str,
        group: Option<&str>,
    ) -> Result<Option<Placement>, RuleError> {
        let Some(parent) = group.and_then(|g| self.tree.find(g).ok()) else {
            return Ok(None);
        };
        let parent_path = self.tree.path(parent).to_string();
        let full = format!("{parent_path}.{user}");
        // validateQueueMapping.
        match self.tree.find(&full) {
            Ok(leaf) if self.tree.is_leaf(leaf) => {}
            Err(QueueLookupError::Ambiguous(_)) => {
                return Err(RuleError(format!(
                    "mapping contains ambiguous leaf queue name: {full}"
                )))
            }
            _ if self.tree.conf(parent).managed.is_some()
                || self.tree.conf(parent).flexible.is_some() => {}
            _ => {
                return Err(RuleError(format!(
                    "mapping contains invalid or non-leaf queue  and no managed parent is found: {full}"
                )))
            }
        }
        let resolved = QueueMapping {
            kind: m.kind,
            source: m.source.clone(),
            parent: Some(parent_path),
            queue: user.to_string(),
        };
        self.context(&resolved, user)
    }

    /// `getPlacementContext(mapping, leaf)` of the user-group rule: the leaf under the
    /// mapping's parent, or found by its name; none when it does not exist.
    fn context(&self, m: &QueueMapping, leaf: &str) -> Result<Option<Placement>, RuleError> {
        if m.parent.is_none() && matches!(self.tree.find(leaf), Err(QueueLookupError::Ambiguous(_)))
        {
            return Err(RuleError(format!(
                "mapping contains ambiguous leaf queue reference {leaf}"
            )));
        }
        match m.parent.as_deref().filter(|p| !p.is_empty()) {
            Some(parent) => {
                let Ok(pid) = self.tree.find(parent) else {
                    // YARN 3.4: a missing parent whose own parent creates children is made too.
                    let queues = self.configuration().queues();
                    if crate::config::placement::creatable_under_missing_parent(queues, parent) {
                        let (grand, name) = parent.rsplit_once('.').expect("checked");
                        let grand = self.tree.find(grand).expect("checked");
                        return Ok(Some(Placement {
                            queue: leaf.to_string(),
                            parent: Some(format!("{}.{name}", self.tree.path(grand))),
                            full_path: false,
                        }));
                    }
                    return Ok(None);
                };
                let parent_path = self.tree.path(pid).to_string();
                // A managed parent creates the leaf, as does (YARN 3.4) one that creates
                // children dynamically; under any other the leaf must exist.
                let creates =
                    self.tree.conf(pid).managed.is_some() || self.tree.conf(pid).flexible.is_some();
                if !creates && self.tree.find(&format!("{parent_path}.{leaf}")).is_err() {
                    return Ok(None);
                }
                Ok(Some(Placement {
                    queue: leaf.to_string(),
                    parent: Some(parent_path),
                    full_path: false,
                }))
            }
            None => {
                let Ok(q) = self.tree.find(leaf) else {
                    return Ok(None);
                };
                Ok(Some(Placement {
                    queue: leaf.to_string(),
                    parent: self.tree.parent(q).map(|p| self.tree.path(p).to_string()),
                    full_path: false,
                }))
            }
        }
    }

    /// `AppNameMappingPlacementRule.getAppPlacementContext`: the first mapping for this name
    /// (or for every name, `%application`) answers with its target as written.
    fn place_by_app_name(
        &self,
        mappings: &[QueueMapping],
        app_name: &str,
    ) -> Result<Option<Placement>, RuleError> {
        for m in mappings {
            if m.source == CURRENT_APPLICATION || m.source == app_name {
                let leaf = if m.source == CURRENT_APPLICATION && m.queue == CURRENT_APPLICATION {
                    app_name
                } else {
                    &m.queue
                };
                if m.parent.is_none()
                    && matches!(self.tree.find(leaf), Err(QueueLookupError::Ambiguous(_)))
                {
                    return Err(RuleError(format!(
                        "mapping contains ambiguous leaf queue reference {leaf}"
                    )));
                }
                return Ok(Some(Placement {
                    queue: leaf.to_string(),
                    parent: m.parent.clone().filter(|p| !p.is_empty()),
                    full_path: false,
                }));
            }
        }
        Ok(None)
    }
}
