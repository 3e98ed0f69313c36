//! Auto-created leaf queues (YARN 3.3's managed parents, docs/SEMANTICS.md "Auto-created
//! queues"): made at submission under a managed parent from its template, given the template's
//! capacity or none by the GuaranteedOrZeroCapacityOverTimePolicy, kept across refreshes, and
//! refused with YARN's words.

use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::resource::Resource;
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;
use capsched::scheduler::CapacityScheduler;
use capsched::ids::AppId;

const TS: i64 = 1410901177871;

/// root.a 50%, root.managed 50% creating leaves with a 20% template (10% of the cluster),
/// users mapped to their own leaf under it.
fn conf(extra: &str) -> CapacitySchedulerConfiguration {
    let text = format!(
        "yarn.scheduler.capacity.root.queues=a,managed
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.managed.capacity=50
yarn.scheduler.capacity.root.managed.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.managed.leaf-queue-template.capacity=20
yarn.scheduler.capacity.root.managed.leaf-queue-template.maximum-capacity=100
yarn.scheduler.capacity.queue-mappings=u:%user:managed.%user
{extra}"
    );
    CapacitySchedulerConfiguration::from_properties_str(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn scheduler(extra: &str) -> CapacityScheduler {
    let mut cs = CapacityScheduler::new(Arc::new(conf(extra)), TS, 1);
    cs.add_node(0, &NodeSpec::new("h1", "/r1", Resource::new(100 * 1024, 100)))
        .unwrap();
    cs
}

fn submit(cs: &mut CapacityScheduler, queue: &str, user: &str) -> Result<AppId, String> {
    let sub = AppSubmission::new(queue, user);
    let app = cs.submit_application(0, &sub).map_err(|r| r.message)?;
    cs.add_attempt(
        0,
        app,
        AttemptSubmission {
            am_resource: Resource::new(1024, 1),
            unmanaged: false,
            keep_containers: false,
            recovering: false,
        },
    )
    .unwrap();
    Ok(app)
}

/// (capacity, absolute capacity, maximum capacity) of `path`.
fn caps(cs: &CapacityScheduler, path: &str) -> (f32, f32, f32) {
    let t = cs.queue_tree();
    let q = t.find(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let c = &t.queue(q).capacities;
    (c.capacity, c.absolute_capacity, c.maximum_capacity)
}

#[test]
fn a_mapped_submission_creates_its_leaf_with_the_template_capacity() {
    let mut cs = scheduler("");
    let app = submit(&mut cs, "default", "alice").unwrap();
    assert_eq!(cs.app_report(app).unwrap().queue, "root.managed.alice");
    let (c, abs, max) = caps(&cs, "root.managed.alice");
    assert_eq!((c, max), (0.2, 1.0));
    assert!((abs - 0.1).abs() < 1e-6, "{abs}");
}

#[test]
fn leaves_beyond_the_parents_guarantee_start_with_no_capacity() {
    let mut cs = scheduler("");
    for u in ["u1", "u2", "u3", "u4", "u5", "u6"] {
        submit(&mut cs, "default", u).unwrap();
    }
    for u in ["u1", "u2", "u3", "u4", "u5"] {
        assert_eq!(caps(&cs, &format!("root.managed.{u}")).0, 0.2, "{u}");
    }
    let (c, abs, max) = caps(&cs, "root.managed.u6");
    assert_eq!((c, abs, max), (0.0, 0.0, 1.0));
}
