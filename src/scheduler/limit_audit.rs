//! The invariant checker's part that catches wrapped arithmetic (issue 36.6): every figure the
//! scheduler keeps lies within `[0, MAX_TOTAL]` (`crate::resource::MAX_TOTAL`), and the nodes'
//! totals, summed without wrapping, do too. A total that wrapped once equals the wrapped sum of
//! its parts, so the checker's sums alone would pass it.

use super::CapacityScheduler;
use crate::resource::{Resource, MAX_RESOURCE_TYPES, MAX_TOTAL};

impl CapacityScheduler {
    /// Appends a violation for every figure outside the limit.
    pub(crate) fn check_limits(&self, v: &mut Vec<String>) {
        // The name is made only for a violation: the audit visits every container, and a
        // string for each would be most of its cost.
        let mut bad = |what: &dyn Fn() -> String, r: &Resource| {
            if !r.within_limit() {
                v.push(format!(
                    "{} {r} is outside [0, {MAX_TOTAL}]: a sum wrapped",
                    what()
                ));
            }
        };
        bad(
            &|| "the cluster's total".into(),
            &self.tree.cluster_resource(),
        );
        let mut sum = [0i128; MAX_RESOURCE_TYPES];
        for (_, n) in self.nodes.iter() {
            bad(&|| format!("node {}: total", n.host), &n.total);
            bad(&|| format!("node {}: allocated", n.host), &n.allocated);
            for (i, s) in sum.iter_mut().enumerate() {
                *s += n.total.get(i) as i128;
            }
        }
        for (_, c) in self.containers.iter() {
            bad(&|| format!("container {}", c.yarn_id), &c.resource);
        }
        for q in self.tree.queues() {
            bad(&|| format!("queue {}: used", self.tree.path(q.id)), &q.used);
            bad(
                &|| format!("queue {}: pending", self.tree.path(q.id)),
                &self.queue_pending[q.id],
            );
        }
        if sum.iter().any(|&s| s > MAX_TOTAL as i128) {
            v.push(format!(
                "the nodes' totals sum to {sum:?}, more than {MAX_TOTAL} in a resource type"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::CapacitySchedulerConfiguration;
    use crate::resource::Resource;
    use crate::scheduler::nodes::NodeSpec;
    use crate::scheduler::CapacityScheduler;
    use crate::sync::Arc;

    /// A wrapped total equals the wrapped sum of its parts; the audit still sees it.
    #[test]
    fn a_wrapped_total_is_a_violation() {
        let conf = CapacitySchedulerConfiguration::from_properties_str(
            "yarn.scheduler.capacity.root.queues=default\nyarn.scheduler.capacity.root.default.capacity=100",
        )
        .unwrap();
        let mut cs = CapacityScheduler::new(Arc::new(conf), 0, 1);
        let id = cs
            .add_node(0, &NodeSpec::new("h", "/r", Resource::new(4096, 4)))
            .unwrap();
        assert!(cs.check_invariants().is_ok());
        cs.nodes[id].total = Resource::new(i64::MIN + 5, 4);
        let v = cs.check_invariants().unwrap_err();
        assert!(v.iter().any(|m| m.contains("a sum wrapped")), "{v:?}");
    }
}
