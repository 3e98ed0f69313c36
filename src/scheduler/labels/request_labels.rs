//! A request's node-label expression: where it comes from and what is refused, as YARN 3.3.6
//! normalises and validates it (`DefaultAMSProcessor.allocate`, `RMAppManager.
//! validateAndCreateResourceRequest`, `SchedulerUtils.normalizeAndValidateRequest`;
//! docs/SEMANTICS.md, "Node labels").
//!
//! An ANY ask without a label takes the application's label, then its queue's default
//! (`default-node-label-expression`), then the default partition; host and rack asks take
//! none (they follow their key's ANY ask). A label must be one the cluster has and the queue
//! may access, one label only, and only on ANY asks.

use crate::config::hadoop::java::{java_hash_order, java_trim};
use crate::config::node_labels::AccessibleLabels;
use crate::records::ANY;
use crate::scheduler::{CapacityScheduler, SchedulerError};
use crate::state::partition::{Partition, DEFAULT_PARTITION};
use crate::state::queue::QueueId;

impl CapacityScheduler {
    /// The label an ask at `resource_name` carries after YARN's defaulting: its own (trimmed,
    /// as `ResourceRequestPBImpl` reads it), else for ANY the application's; then for ANY
    /// `enforcePartitionExclusivity` (an enforced partition is the application's own: named
    /// by its asks only if it is the app's label, and always when it is); then for ANY the
    /// leaf's default; else the default partition (`""`).
    /// Borrowed, never built: the allocate path asks it for every ask.
    pub(crate) fn normalized_label<'a>(
        &'a self,
        leaf: QueueId,
        app_label: Option<&'a str>,
        own: Option<&'a str>,
        resource_name: &str,
    ) -> &'a str {
        let any = resource_name == ANY;
        let app_label = app_label.map(java_trim);
        let mut label = own.map(java_trim).or(app_label.filter(|_| any));
        let enforced = &self.tree.settings().exclusive_enforced_partitions;
        if any && !enforced.is_empty() {
            let app_enforced = app_label.is_some_and(|a| enforced.contains(a));
            if app_enforced || label.is_some_and(|l| enforced.contains(l)) {
                label = app_label;
            }
        }
        label
            .or_else(|| {
                any.then(|| self.tree.conf(leaf).labels.default_expression.as_deref())
                    .flatten()
            })
            .unwrap_or("")
    }

    /// `SchedulerUtils`' label checks of one normalised ask, in YARN's order and words.
    pub(crate) fn validate_label(
        &self,
        leaf: QueueId,
        resource_name: &str,
        label: &str,
    ) -> Result<(), SchedulerError> {
        let invalid = |m: String| Err(SchedulerError::InvalidResourceRequest(m));
        if label.is_empty() {
            return Ok(());
        }
        if !self.tree.settings().node_labels_enabled {
            return invalid(
                "Invalid resource request, node label not enabled but request contains label expression"
                    .to_string(),
            );
        }
        let queue = &self.tree.conf(leaf).name;
        let blank = java_trim(label).is_empty();
        if resource_name != ANY && !blank {
            return invalid(format!(
                "Invalid resource request, queue={queue} specified node label expression in a resource request has resource name = {}",
                crate::echo::echo(resource_name)
            ));
        }
        if label.contains("&&") {
            return invalid(format!(
                "Invalid resource request, queue={queue} specified more than one node label in a node label expression, node label expression = {}",
                crate::echo::echo(label)
            ));
        }
        if blank {
            return Ok(());
        }
        let accessible = &self.tree.conf(leaf).labels.accessible;
        if !crate::config::node_labels::expression_accessible(accessible, label) {
            let names = match accessible {
                AccessibleLabels::Any => vec!["*"],
                AccessibleLabels::Only(set) => {
                    java_hash_order(&set.iter().map(String::as_str).collect::<Vec<_>>())
                }
            };
            return invalid(format!(
                "Invalid resource request, queue={queue} doesn't have permission to access all labels in resource request. labelExpression of resource request={}. Queue labels={}",
                crate::echo::echo(label),
                names.join(",")
            ));
        }
        if self.labels.partition(label).is_none() {
            return invalid(format!(
                "Invalid label resource request, cluster do not contain , label= {}",
                crate::echo::echo(label)
            ));
        }
        Ok(())
    }

    /// `checkQueuePartition` (with labels enabled): every labelled partition the attempt asked
    /// for in its life must be accessible in the move's target; YARN's words (Java sets
    /// printed in their hash order).
    pub(crate) fn check_queue_partition(
        &self,
        app: crate::ids::AppId,
        dest: QueueId,
    ) -> Result<(), SchedulerError> {
        if !self.tree.settings().node_labels_enabled {
            return Ok(());
        }
        let Some(t) = self.apps[app].attempt.as_ref() else {
            return Ok(());
        };
        let accessible = &self.tree.conf(dest).labels.accessible;
        let refused: Vec<&str> = t
            .requested_partitions
            .iter()
            .filter(|&&p| p != DEFAULT_PARTITION)
            .map(|&p| &**self.labels.name(p))
            .filter(|l| !crate::config::node_labels::expression_accessible(accessible, l))
            .collect();
        if refused.is_empty() {
            return Ok(());
        }
        let names = match accessible {
            AccessibleLabels::Any => vec!["*"],
            AccessibleLabels::Only(set) => {
                java_hash_order(&set.iter().map(String::as_str).collect::<Vec<_>>())
            }
        };
        Err(SchedulerError::Refused(format!(
            "Specified queue={} can't satisfy following apps label expressions =[{}] accessible node labels =[{}]",
            self.tree.path(dest),
            java_hash_order(&refused).join(", "),
            names.join(", ")
        )))
    }

    /// The partition a validated label names. Only a recovered application's asks skip
    /// validation; a label the cluster does not have there counts as the default partition.
    pub(crate) fn partition_of_label(&self, label: &str) -> Partition {
        self.labels
            .partition(java_trim(label))
            .unwrap_or(DEFAULT_PARTITION)
    }
}
