//! The cluster's node labels and which node carries which (YARN's `RMNodeLabelsManager`, as
//! the CapacityScheduler meets it): labels with their exclusivity, a label per host and per
//! NodeManager, and the checks and words of `CommonNodeLabelsManager` (docs/SEMANTICS.md,
//! "Node labels").
//!
//! A node's partition is its one label, or the default partition. Partitions are small ids
//! (`Partition`); the default partition is 0 and a removed label's id is never reused, so
//! usage kept by id can never be mistaken for another label's.

use std::collections::HashMap;

use crate::echo::echo;
use crate::sync::Arc;

pub use super::partition::{Partition, DEFAULT_PARTITION};

/// `CommonNodeLabelsManager.NODE_LABELS_NOT_ENABLED_ERR`.
pub const NODE_LABELS_NOT_ENABLED: &str =
    "Node-label-based scheduling is disabled. Please check yarn.node-labels.enabled";

/// YARN's `NodeLabelUtil.MAX_LABEL_LENGTH`.
const MAX_LABEL_LENGTH: usize = 255;

#[derive(Debug, Clone)]
pub struct ClusterLabel {
    pub name: Arc<str>,
    /// Exclusive partitions serve only asks that name them; a non-exclusive one lends its idle
    /// room to default-partition asks (`IGNORE_PARTITION_EXCLUSIVITY`).
    pub exclusive: bool,
    /// Removed from the cluster: the id stays taken.
    pub removed: bool,
}

/// A node as the label manager names it: a whole host (`h1`, `h1:0`) or one NodeManager
/// (`h1:1234`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelledNode {
    pub host: String,
    /// `None`: the host (YARN's wildcard port 0).
    pub address: Option<String>,
}

impl LabelledNode {
    /// `h1`, `h1:0` (the host) or `h1:1234` (that NodeManager), as `NodeId.fromString` and the
    /// admin CLI's `host[:port]` read them.
    pub fn parse(node: &str) -> Result<LabelledNode, String> {
        let node = node.trim();
        let (host, port) = match node.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (node, None),
        };
        if host.is_empty() {
            return Err(format!("Invalid node: {}", echo(node)));
        }
        let address = match port {
            None => None,
            Some(p) => match p.parse::<u32>() {
                Ok(0) => None,
                Ok(n) if n <= 65535 => Some(format!("{host}:{n}")),
                _ => return Err(format!("Invalid port: {}", echo(node))),
            },
        };
        Ok(LabelledNode {
            host: host.to_string(),
            address,
        })
    }
}

#[derive(Debug, Clone)]
pub struct NodeLabelsManager {
    /// By partition id; `[0]` is the default partition (exclusive, as YARN's NO_LABEL entry).
    labels: Vec<ClusterLabel>,
    by_name: HashMap<String, Partition>,
    /// Host-level labels (`h1`, `h1:0`).
    host_labels: HashMap<String, Partition>,
    /// NodeManager-level labels by host, then `host:port`: they win over the host's.
    nm_labels: HashMap<String, HashMap<String, Partition>>,
    /// Whether some cluster label is non-exclusive, kept as labels come and go: the
    /// allocation path asks at every key it visits.
    lending: bool,
}

impl Default for NodeLabelsManager {
    fn default() -> Self {
        NodeLabelsManager {
            labels: vec![ClusterLabel {
                name: Arc::from(""),
                exclusive: true,
                removed: false,
            }],
            by_name: HashMap::new(),
            host_labels: HashMap::new(),
            nm_labels: HashMap::new(),
            lending: false,
        }
    }
}

/// `NodeLabelUtil.checkAndThrowLabelName`.
fn check_label_name(name: &str) -> Result<(), String> {
    // Java's length counts UTF-16 units.
    if name.is_empty() || name.encode_utf16().count() > MAX_LABEL_LENGTH {
        return Err(format!(
            "label added is empty or exceeds {MAX_LABEL_LENGTH} character(s)"
        ));
    }
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphanumeric());
    if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(format!(
            "label name should only contains {{0-9, a-z, A-Z, -, _}} and should not started with {{-,_}}, now it is= {}",
            echo(name)
        ));
    }
    Ok(())
}

impl NodeLabelsManager {
    /// The partition named `name` (`""`: the default one), if the cluster has it.
    pub fn partition(&self, name: &str) -> Option<Partition> {
        if name.is_empty() {
            return Some(DEFAULT_PARTITION);
        }
        self.by_name.get(name).copied()
    }

    /// A partition's label name (`""` for the default partition).
    pub fn name(&self, p: Partition) -> &Arc<str> {
        &self.labels[p as usize].name
    }

    /// Whether `p` lends idle room to default-partition asks; unknown and default: no.
    pub fn is_exclusive(&self, p: Partition) -> bool {
        self.labels.get(p as usize).is_none_or(|l| l.exclusive)
    }

    /// The cluster's labels (not the default partition), in the order they were added.
    pub fn cluster_labels(&self) -> impl Iterator<Item = (Partition, &ClusterLabel)> {
        self.labels
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, l)| !l.removed)
            .map(|(i, l)| (i as Partition, l))
    }

    /// How many partition ids exist (the default one, every label ever added): snapshots
    /// index partitions by id.
    pub fn num_partitions(&self) -> usize {
        self.labels.len()
    }

    /// Whether some label lends its idle room (only then is an IGNORE pass ever made).
    pub fn has_non_exclusive(&self) -> bool {
        self.lending
    }

    fn labels_changed(&mut self) {
        let lending = self.cluster_labels().any(|(_, l)| !l.exclusive);
        self.lending = lending;
    }

    /// Whether the cluster has any label at all (every partition-aware path is skipped when
    /// it has none).
    pub fn has_labels(&self) -> bool {
        !self.by_name.is_empty()
    }

    /// The partition of the NodeManager `address` on `host`: its own label, else its host's.
    pub fn partition_of(&self, host: &str, address: &str) -> Partition {
        if let Some(p) = self.nm_labels.get(host).and_then(|m| m.get(address)) {
            return *p;
        }
        self.host_labels
            .get(host)
            .copied()
            .unwrap_or(DEFAULT_PARTITION)
    }

    /// `addToCluserNodeLabels`: names trimmed; an existing label is kept as it is, but its
    /// exclusivity may not change; nothing is added if any label is refused.
    pub fn add_cluster_labels(
        &mut self,
        enabled: bool,
        labels: &[(String, bool)],
    ) -> Result<(), String> {
        if !enabled {
            return Err(NODE_LABELS_NOT_ENABLED.to_string());
        }
        let labels: Vec<(String, bool)> = labels
            .iter()
            .map(|(n, e)| (crate::config::hadoop::java::java_trim(n).to_string(), *e))
            .collect();
        let mismatched: Vec<String> = labels
            .iter()
            .filter(|(n, e)| {
                self.by_name
                    .get(n)
                    .is_some_and(|&p| self.labels[p as usize].exclusive != *e)
            })
            .map(|(n, e)| format!("<{}:exclusivity={e}>", echo(n)))
            .collect();
        if !mismatched.is_empty() {
            return Err(format!(
                "Exclusivity cannot be modified for an existing label with : {}",
                mismatched.join(",")
            ));
        }
        for (n, _) in &labels {
            check_label_name(n)?;
        }
        for (n, e) in labels {
            if self.by_name.contains_key(&n) {
                continue;
            }
            let p = self.labels.len() as Partition;
            self.labels.push(ClusterLabel {
                name: Arc::from(n.as_str()),
                exclusive: e,
                removed: false,
            });
            self.by_name.insert(n, p);
        }
        self.labels_changed();
        Ok(())
    }

    /// `removeFromClusterNodeLabels`: refused while a queue (not `*`) lists a label —
    /// `queue_using(label)` names the first such queue —, then YARN's checks; the labels leave
    /// every host and NodeManager, whose nodes fall back to the default partition.
    pub fn remove_cluster_labels(
        &mut self,
        enabled: bool,
        names: &[String],
        queue_using: impl Fn(&str) -> Option<String>,
    ) -> Result<(), String> {
        let names: Vec<String> = names
            .iter()
            .map(|n| crate::config::hadoop::java::java_trim(n).to_string())
            .collect();
        for n in &names {
            if let Some(q) = queue_using(n) {
                return Err(format!(
                    "Cannot remove label={}, because queue={q} is using this label. Please remove label on queue before remove the label",
                    echo(n)
                ));
            }
        }
        if !enabled {
            return Err(NODE_LABELS_NOT_ENABLED.to_string());
        }
        for n in &names {
            if n.is_empty() {
                return Err("Label to be removed is null or empty".to_string());
            }
            if !self.by_name.contains_key(n) {
                return Err(format!(
                    "Node label={} to be removed doesn't existed in cluster node labels collection.",
                    echo(n)
                ));
            }
        }
        for n in &names {
            if let Some(p) = self.by_name.remove(n) {
                self.labels[p as usize].removed = true;
                self.host_labels.retain(|_, l| *l != p);
                for m in self.nm_labels.values_mut() {
                    m.retain(|_, l| *l != p);
                }
            }
        }
        self.labels_changed();
        Ok(())
    }

    /// `replaceLabelsOnNode`: each node gets at most one label, which the cluster must have
    /// (none: the node's labels are cleared). A host's mapping replaces its NodeManagers' own
    /// ones. All entries are checked before any applies.
    pub fn replace_labels_on_nodes(
        &mut self,
        enabled: bool,
        mapping: &[(String, Vec<String>)],
    ) -> Result<(), String> {
        if !enabled {
            return Err(NODE_LABELS_NOT_ENABLED.to_string());
        }
        let mut parsed = Vec::with_capacity(mapping.len());
        for (node, labels) in mapping {
            let node = LabelledNode::parse(node)?;
            let mut labels: Vec<String> = labels
                .iter()
                .map(|l| crate::config::hadoop::java::java_trim(l).to_string())
                .collect();
            labels.sort();
            labels.dedup();
            if labels.len() > 1 {
                return Err(format!(
                    "{} labels specified on host={}, please note that we do not support specifying multiple labels on a single host for now.",
                    labels.len(),
                    echo(&node.host)
                ));
            }
            let partition = match labels.first() {
                None => DEFAULT_PARTITION,
                Some(l) => match self.by_name.get(l) {
                    Some(p) => *p,
                    // YARN's known-label set holds NO_LABEL too, so "" is accepted.
                    None if l.is_empty() => DEFAULT_PARTITION,
                    None => {
                        return Err(format!(
                            "Not all labels being replaced contained by known label collections, please check, new labels=[{}]",
                            echo(l)
                        ))
                    }
                },
            };
            parsed.push((node, partition));
        }
        for (node, p) in parsed {
            match node.address {
                None => {
                    if p == DEFAULT_PARTITION {
                        self.host_labels.remove(&node.host);
                    } else {
                        self.host_labels.insert(node.host.clone(), p);
                    }
                    self.nm_labels.remove(&node.host);
                }
                Some(address) => {
                    // An explicit empty set on a NodeManager is its own mapping (no label),
                    // winning over its host's.
                    self.nm_labels
                        .entry(node.host)
                        .or_default()
                        .insert(address, p);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn label_names_and_exclusivity_follow_yarn() {
        let mut m = NodeLabelsManager::default();
        assert_eq!(
            m.add_cluster_labels(false, &[("x".into(), true)]),
            Err(NODE_LABELS_NOT_ENABLED.into())
        );
        m.add_cluster_labels(true, &[(" x ".into(), true), ("y".into(), false)])
            .unwrap();
        assert_eq!(m.partition("x"), Some(1));
        assert!(!m.is_exclusive(2));
        assert_eq!(
            m.add_cluster_labels(true, &[("x".into(), false)]),
            Err(
                "Exclusivity cannot be modified for an existing label with : <x:exclusivity=false>"
                    .into()
            )
        );
        assert_eq!(
            m.add_cluster_labels(true, &[("-bad".into(), true)]),
            Err("label name should only contains {0-9, a-z, A-Z, -, _} and should not started with {-,_}, now it is= -bad".into())
        );
        assert_eq!(
            m.add_cluster_labels(true, &[("".into(), true)]),
            Err("label added is empty or exceeds 255 character(s)".into())
        );
    }

    #[test]
    fn nodes_take_one_known_label_and_nm_mappings_win_until_the_host_is_replaced() {
        let mut m = NodeLabelsManager::default();
        m.add_cluster_labels(true, &[("x".into(), true), ("y".into(), true)])
            .unwrap();
        assert_eq!(
            m.replace_labels_on_nodes(true, &[("h9".into(), s(&["x", "y"]))]),
            Err("2 labels specified on host=h9, please note that we do not support specifying multiple labels on a single host for now.".into())
        );
        assert_eq!(
            m.replace_labels_on_nodes(true, &[("h1".into(), s(&["nope"]))]),
            Err("Not all labels being replaced contained by known label collections, please check, new labels=[nope]".into())
        );
        m.replace_labels_on_nodes(true, &[("h1:0".into(), s(&["x"]))])
            .unwrap();
        m.replace_labels_on_nodes(true, &[("h1:2".into(), s(&["y"]))])
            .unwrap();
        assert_eq!(m.partition_of("h1", "h1:1"), 1);
        assert_eq!(m.partition_of("h1", "h1:2"), 2);
        m.replace_labels_on_nodes(true, &[("h1".into(), s(&["x"]))])
            .unwrap();
        assert_eq!(m.partition_of("h1", "h1:2"), 1);
        assert_eq!(
            m.remove_cluster_labels(true, &s(&["x"]), |_| Some("root.a".into())),
            Err("Cannot remove label=x, because queue=root.a is using this label. Please remove label on queue before remove the label".into())
        );
        assert_eq!(
            m.remove_cluster_labels(true, &s(&["nope"]), |_| None),
            Err(
                "Node label=nope to be removed doesn't existed in cluster node labels collection."
                    .into()
            )
        );
        m.remove_cluster_labels(true, &s(&["x"]), |_| None).unwrap();
        assert_eq!(m.partition_of("h1", "h1:1"), DEFAULT_PARTITION);
        assert_eq!(m.partition("x"), None);
        m.add_cluster_labels(true, &[("x".into(), true)]).unwrap();
        assert_eq!(
            m.partition("x"),
            Some(3),
            "a removed label's id is not reused"
        );
    }
}
