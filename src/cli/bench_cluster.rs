//! The benchmarks' clusters, shared by the synchronous (bench.rs) and runtime
//! (bench_runtime.rs) benchmarks: equal queues, nodes over racks, applications with unmanaged
//! AMs.

use capsched::config::CapacitySchedulerConfiguration;
use capsched::ids::{AppId, NodeId};
use capsched::resource::Resource;
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;
use capsched::scheduler::CapacityScheduler;
use capsched::sync::Arc;

pub(super) const GB: i64 = 1024;

/// Q equal leaves under root, DRF, user-limit-factor 100, AM share 1 (so every app runs).
pub(super) fn equal_queues_conf(
    queues: usize,
    offswitch: usize,
    extra: &str,
) -> Arc<CapacitySchedulerConfiguration> {
    let names: Vec<String> = (0..queues).map(|i| format!("q{i}")).collect();
    let mut text = format!(
        "yarn.scheduler.capacity.root.queues={}\n\
         yarn.scheduler.capacity.resource-calculator=org.apache.hadoop.yarn.util.resource.DominantResourceCalculator\n\
         yarn.scheduler.capacity.maximum-am-resource-percent=1\n\
         yarn.scheduler.capacity.maximum-applications=1000000\n\
         yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments={offswitch}\n{extra}",
        names.join(",")
    );
    let share = 100.0 / queues as f64;
    for (i, n) in names.iter().enumerate() {
        let cap = if i + 1 == queues {
            100.0 - share * (queues - 1) as f64
        } else {
            share
        };
        text.push_str(&format!(
            "yarn.scheduler.capacity.root.{n}.capacity={cap}\n\
             yarn.scheduler.capacity.root.{n}.user-limit-factor=100\n"
        ));
    }
    Arc::new(
        CapacitySchedulerConfiguration::from_properties_str(&text).expect("bench configuration"),
    )
}

/// `nodes` nodes of `per_node` GB and vcores each, spread over `racks` racks.
pub(super) fn add_nodes(
    cs: &mut CapacityScheduler,
    nodes: usize,
    per_node: i64,
    racks: usize,
) -> Vec<NodeId> {
    (0..nodes)
        .map(|i| {
            let spec = NodeSpec::new(
                &format!("node{i}"),
                &format!("/rack{}", i % racks),
                Resource::new(per_node * GB, per_node),
            );
            cs.add_node(0, &spec).expect("node")
        })
        .collect()
}

pub(super) fn submit_unmanaged(cs: &mut CapacityScheduler, queue: &str, user: &str) -> AppId {
    submit_unmanaged_at(cs, AppSubmission::new(queue, user))
}

/// An application with an unmanaged AM (nothing to place for it), as submitted.
pub(super) fn submit_unmanaged_at(cs: &mut CapacityScheduler, sub: AppSubmission) -> AppId {
    let app = cs.submit_application(0, &sub).expect("accepted");
    let attempt = AttemptSubmission {
        am_resource: Resource::new(GB, 1),
        unmanaged: true,
        keep_containers: false,
        recovering: false,
    };
    cs.add_attempt(0, app, attempt).expect("attempt");
    app
}
