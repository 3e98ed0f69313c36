//! `NodeQueueLoadMonitor` (spec O4): the RM's view of every NodeManager's opportunistic
//! queue, sorted every interval into the least-loaded nodes that central and distributed
//! opportunistic allocation place on, with the queue limit of O5 recomputed at each sort.
//! Deterministic: the caller drives updates and sorts; ties go to the most recent update,
//! counted by an update sequence instead of a clock.

use crate::records::ContainerQueuingLimit;
use std::collections::BTreeMap;

use super::queue_limit::QueueLimitCalculator;
use crate::resource::{Resource, ResourceCalculator};

/// `yarn.resourcemanager.nm-container-queuing.load-comparator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadComparator {
    QueueLength,
    QueueWaitTime,
    QueueLengthThenResources,
}

impl LoadComparator {
    /// The configuration value (`QUEUE_LENGTH`, …); `None` for anything else.
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim() {
            "QUEUE_LENGTH" => Some(LoadComparator::QueueLength),
            "QUEUE_WAIT_TIME" => Some(LoadComparator::QueueWaitTime),
            "QUEUE_LENGTH_THEN_RESOURCES" => Some(LoadComparator::QueueLengthThenResources),
            _ => None,
        }
    }

    fn is_wait_time(self) -> bool {
        self == LoadComparator::QueueWaitTime
    }
}

/// What an NM heartbeat reports about its queue (`OpportunisticContainersStatus`) and the
/// node's resources.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeQueueStatus {
    /// Queued guaranteed plus queued opportunistic containers.
    pub wait_queue_length: i32,
    /// Estimated queue wait; −1 when unknown.
    pub estimated_wait_ms: i32,
    /// The NM's opportunistic queue capacity (kept from the first report only).
    pub queue_capacity: i32,
    pub capability: Resource,
    pub allocated: Resource,
    /// DECOMMISSIONING nodes leave the monitor.
    pub decommissioning: bool,
}

/// `ClusterNode`: one node's record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClusterNode {
    pub queue_length: i32,
    pub wait_ms: i32,
    pub queue_capacity: i32,
    pub capability: Resource,
    pub allocated: Resource,
    /// Update sequence of the last report (the most recent wins ties).
    updated: u64,
}

#[derive(Debug, Clone)]
pub struct NodeQueueLoadMonitor<K: Ord + Clone> {
    comparator: LoadComparator,
    records: BTreeMap<K, ClusterNode>,
    /// The last sort's result: non-full nodes, least loaded first.
    sorted: Vec<K>,
    limit: QueueLimitCalculator,
    sequence: u64,
}

impl<K: Ord + Clone> NodeQueueLoadMonitor<K> {
    pub fn new(comparator: LoadComparator, limit: QueueLimitCalculator) -> Self {
        NodeQueueLoadMonitor {
            comparator,
            records: BTreeMap::new(),
            sorted: Vec::new(),
            limit,
            sequence: 0,
        }
    }

    /// `initThresholdCalculator`: a new limit calculator (statistics back to 0).
    pub fn init_threshold_calculator(&mut self, limit: QueueLimitCalculator) {
        self.limit = limit;
    }

    pub fn comparator(&self) -> LoadComparator {
        self.comparator
    }

    pub fn record(&self, node: &K) -> Option<&ClusterNode> {
        self.records.get(node)
    }

    /// A node heartbeat with its queue status. A record is created on the first report (its
    /// queue capacity is fixed then); a decommissioning node, or one with an unknown wait time
    /// under the wait-time comparator, is removed (or never added).
    pub fn update_node(&mut self, node: &K, status: &NodeQueueStatus) {
        let excluded = status.decommissioning
            || (self.comparator.is_wait_time() && status.estimated_wait_ms == -1);
        if excluded {
            self.records.remove(node);
            return;
        }
        self.sequence += 1;
        let updated = self.sequence;
        self.records
            .entry(node.clone())
            .and_modify(|r| {
                r.queue_length = status.wait_queue_length;
                r.wait_ms = status.estimated_wait_ms;
                r.capability = status.capability;
                r.allocated = status.allocated;
                r.updated = updated;
            })
            .or_insert(ClusterNode {
                queue_length: status.wait_queue_length,
                wait_ms: status.estimated_wait_ms,
                queue_capacity: status.queue_capacity,
                capability: status.capability,
                allocated: status.allocated,
                updated,
            });
    }

    /// NODE_REMOVED.
    pub fn remove_node(&mut self, node: &K) {
        self.records.remove(node);
        self.sorted.retain(|n| n != node);
    }

    /// The periodic re-sort: every record in the comparator's order, full nodes dropped, then
    /// the queue-limit statistics over what is left. `cluster` weighs free resources under
    /// `QUEUE_LENGTH_THEN_RESOURCES`.
    pub fn sort(&mut self, cluster: Resource) {
        let comparator = self.comparator;
        let mut nodes: Vec<(&K, &ClusterNode)> = self
            .records
            .iter()
            .filter(|(_, r)| available(comparator, r))
            .collect();
        nodes.sort_by(|(_, a), (_, b)| {
            let by_load = match comparator {
                LoadComparator::QueueLength => a.queue_length.cmp(&b.queue_length),
                LoadComparator::QueueWaitTime => a.wait_ms.cmp(&b.wait_ms),
                LoadComparator::QueueLengthThenResources => {
                    a.queue_length.cmp(&b.queue_length).then_with(|| {
                        // More free resource first.
                        let (fa, fb) = (a.capability - a.allocated, b.capability - b.allocated);
                        let share = |f: &Resource| min_share(f, &cluster);
                        share(&fb)
                            .total_cmp(&share(&fa))
                            .then(fb.vcores().cmp(&fa.vcores()))
                            .then(fb.memory_mb().cmp(&fa.memory_mb()))
                    })
                }
            };
            by_load.then(b.updated.cmp(&a.updated))
        });
        let metrics: Vec<i32> = nodes
            .iter()
            .map(|(_, r)| {
                if comparator.is_wait_time() {
                    r.wait_ms
                } else {
                    r.queue_length
                }
            })
            .collect();
        self.limit.update(&metrics);
        self.sorted = nodes.into_iter().map(|(k, _)| k.clone()).collect();
    }

    /// The last sort's nodes, least loaded first.
    pub fn sorted(&self) -> &[K] {
        &self.sorted
    }

    /// `selectLeastLoadedNodes(k)`: the first `k` of the last sort.
    pub fn least_loaded(&self, k: usize) -> &[K] {
        &self.sorted[..k.min(self.sorted.len())]
    }

    /// The limit every NM heartbeat response carries.
    pub fn queuing_limit(&self) -> ContainerQueuingLimit {
        let limit = self.limit.limit();
        if self.comparator.is_wait_time() {
            ContainerQueuingLimit {
                max_queue_length: -1,
                max_queue_wait_ms: limit,
            }
        } else {
            ContainerQueuingLimit {
                max_queue_length: limit,
                max_queue_wait_ms: -1,
            }
        }
    }

    /// Whether an opportunistic container of `request` may go to `node` now, counting it if so
    /// (spec O4 compare-and-increment).
    pub fn compare_and_increment(
        &mut self,
        node: &K,
        request: Resource,
        rc: ResourceCalculator,
    ) -> bool {
        let Some(r) = self.records.get_mut(node) else {
            return false;
        };
        let by_length = |r: &mut ClusterNode| {
            if r.queue_length < r.queue_capacity {
                r.queue_length += 1;
                true
            } else {
                false
            }
        };
        match self.comparator {
            LoadComparator::QueueWaitTime => true,
            LoadComparator::QueueLength => by_length(r),
            LoadComparator::QueueLengthThenResources => {
                if rc.fits_in(&request, &(r.capability - r.allocated)) {
                    r.allocated += request;
                    true
                } else if !rc.fits_in(&request, &r.capability) {
                    false
                } else {
                    by_length(r)
                }
            }
        }
    }
}

/// Whether a node can take more (full nodes are dropped after the sort).
fn available(comparator: LoadComparator, r: &ClusterNode) -> bool {
    if r.queue_capacity > 0 {
        r.queue_length < r.queue_capacity
    } else {
        comparator != LoadComparator::QueueLengthThenResources || r.queue_length <= 0
    }
}

/// The smallest share of the cluster among the free resource's components (DRF's view).
fn min_share(free: &Resource, cluster: &Resource) -> f64 {
    let m = |f: i64, c: i64| if c > 0 { f as f64 / c as f64 } else { 0.0 };
    m(free.memory_mb(), cluster.memory_mb()).min(m(free.vcores(), cluster.vcores()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::CalculatorKind;

    fn status(len: i32, cap: i32) -> NodeQueueStatus {
        NodeQueueStatus {
            wait_queue_length: len,
            estimated_wait_ms: -1,
            queue_capacity: cap,
            capability: Resource::new(8192, 8),
            allocated: Resource::ZERO,
            decommissioning: false,
        }
    }

    #[test]
    fn ties_go_to_the_most_recent_report_and_full_nodes_drop_out() {
        let mut m = NodeQueueLoadMonitor::new(
            LoadComparator::QueueLength,
            QueueLimitCalculator::new(1.0, 5, 15),
        );
        m.update_node(&"a", &status(3, 10));
        m.update_node(&"b", &status(3, 10));
        m.update_node(&"c", &status(10, 10));
        m.sort(Resource::new(24576, 24));
        assert_eq!(m.sorted(), ["b", "a"]);
        assert_eq!(m.least_loaded(1), ["b"]);
    }

    #[test]
    fn compare_and_increment_respects_the_queue_capacity() {
        let rc = ResourceCalculator::new(CalculatorKind::Default, 2);
        let mut m = NodeQueueLoadMonitor::new(
            LoadComparator::QueueLength,
            QueueLimitCalculator::new(1.0, 5, 15),
        );
        m.update_node(&"a", &status(1, 2));
        let one = Resource::new(1024, 1);
        assert!(m.compare_and_increment(&"a", one, rc));
        assert!(!m.compare_and_increment(&"a", one, rc), "2 of 2 queued");
        // Wait-time comparator: always accepts.
        let mut w = NodeQueueLoadMonitor::new(
            LoadComparator::QueueWaitTime,
            QueueLimitCalculator::new(1.0, 10, 100),
        );
        let mut s = status(5, 1);
        s.estimated_wait_ms = 40;
        w.update_node(&"a", &s);
        assert!(w.compare_and_increment(&"a", one, rc));
        // Unknown wait time under the wait-time comparator: the node leaves.
        s.estimated_wait_ms = -1;
        w.update_node(&"a", &s);
        assert!(w.record(&"a").is_none());
    }
}
