//! Node labels through the engine: the RM's label-manager calls (`addToCluserNodeLabels`,
//! `removeFromClusterNodeLabels`, `replaceLabelsOnNode`, which reach YARN's scheduler as
//! `NODE_LABELS_UPDATE`) and what a host reads back. The changes run on the core like every
//! other scheduler event: a relabelled node moves its containers' usage and loses its
//! reservation, and partitions changing size may activate attempts, so what the core records
//! becomes events after the call, as for any other call (`Shared::call` flushes the notices).

use super::{Engine, EngineError};
use crate::ids::NodeId;
use crate::scheduler::labels::PartitionUsage;

impl Engine {
    /// `addToCluserNodeLabels`: `(name, exclusive)` pairs; the label manager's words when
    /// refused (labels disabled, a bad name, a changed exclusivity), nothing added then.
    pub fn add_cluster_node_labels(&self, labels: Vec<(String, bool)>) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, _| c.cs.add_cluster_node_labels(&labels))??)
    }

    /// `removeFromClusterNodeLabels`: refused while a queue lists a label; nodes carrying one
    /// fall back to the default partition, their usage with them.
    pub fn remove_cluster_node_labels(&self, names: Vec<String>) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| c.cs.remove_cluster_node_labels(now, &names))??)
    }

    /// `replaceLabelsOnNode`: `(node, labels)` with a node a host (`h1`, `h1:0`) or one
    /// NodeManager (`h1:1234`) and at most one label (none: unlabelled). All checked before
    /// any applies.
    pub fn replace_labels_on_nodes(
        &self,
        mapping: Vec<(String, Vec<String>)>,
    ) -> Result<(), EngineError> {
        Ok(self.with_core(move |c, now| c.cs.replace_labels_on_nodes(now, &mapping))??)
    }

    /// The cluster's labels, `(name, exclusive)`, in the order they were added.
    pub fn cluster_node_labels(&self) -> Result<Vec<(String, bool)>, EngineError> {
        self.read_core(|c, _| c.cs.cluster_node_labels())
    }

    /// A registered node's partition (`""`: the default one); `None` for an unknown node.
    pub fn node_partition(&self, node: NodeId) -> Result<Option<String>, EngineError> {
        self.read_core(move |c, _| c.cs.node_partition(node).map(str::to_string))
    }

    /// `queue`'s (full path or unique short name) node-label settings as YARN's `QueueInfo`
    /// states them, for an RM that checks label expressions itself before the scheduler sees
    /// them (`SchedulerUtils.normalizeAndValidateRequest`): its accessible labels as YARN holds
    /// the set (`["*"]` for any, sorted names, none: the default partition only) and its
    /// `default-node-label-expression`, set or inherited (`None`: unset; `""`: the default
    /// partition).
    pub fn queue_node_labels(
        &self,
        queue: String,
    ) -> Result<(Vec<String>, Option<String>), EngineError> {
        self.read_core(move |c, _| {
            let tree = c.cs.queue_tree();
            let q = tree
                .find(&queue)
                .map_err(|e| EngineError::InvalidArgument(e.to_string()))?;
            let labels = &tree.conf(q).labels;
            let accessible = labels
                .accessible
                .names()
                .into_iter()
                .map(str::to_string)
                .collect();
            Ok((accessible, labels.default_expression.clone()))
        })?
    }

    /// What `queue` (full path or unique short name) uses, has reserved, asks for and gives
    /// its AMs in the partition `label` (`""`: the default one; zero for a label the cluster
    /// does not have).
    pub fn queue_partition_usage(
        &self,
        queue: String,
        label: String,
    ) -> Result<PartitionUsage, EngineError> {
        self.read_core(move |c, _| {
            let q =
                c.cs.queue_tree()
                    .find(&queue)
                    .map_err(|e| EngineError::InvalidArgument(e.to_string()))?;
            Ok(c.cs.queue_partition_usage(q, &label))
        })?
    }
}
