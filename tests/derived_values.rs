//! Derived per-queue values (spec §2) against the worked examples of spec §7 (transcribed from
//! Hadoop's TestApplicationLimits / TestLeafQueue) and the seed configuration.

mod common;
use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::resource::Resource;
use capsched::state::queue::QueueTree;
use common::*;

const GB: i64 = 1024;

fn tree(
    conf: CapacitySchedulerConfiguration,
    nodes: i64,
    node_mb: i64,
    node_vcores: i64,
) -> QueueTree {
    let mut t = QueueTree::new(Arc::new(conf));
    t.update_cluster_resource(Resource::new(nodes * node_mb, nodes * node_vcores));
    t
}

/// E1's queues: a 10% (UL 50, ULF 5), b 90%.
fn e1_pairs() -> Vec<(&'static str, &'static str)> {
    vec![
        ("root.queues", "a,b"),
        ("root.a.capacity", "10"),
        ("root.a.minimum-user-limit-percent", "50"),
        ("root.a.user-limit-factor", "5"),
        ("root.b.capacity", "90"),
    ]
}

#[test]
fn e1_limits_computation() {
    // TestApplicationLimits.testLimitsComputation: 100 nodes × 16 GB.
    let t = tree(ok(&e1_pairs()), 100, 16 * GB, 16);
    let a = t.find("a").unwrap();
    assert_eq!(t.am_resource_limit(a).memory_mb(), 160 * GB);
    assert_eq!(t.user_am_resource_limit(a, 1, 1.0).memory_mb(), 80 * GB);
    let limits = t.queue(a).leaf.unwrap();
    assert_eq!(limits.max_applications, 1000);
    assert_eq!(limits.max_applications_per_user, 1000);

    // The cluster grows to 1920 GB.
    let mut t = t;
    t.update_cluster_resource(Resource::new(1920 * GB, 1920));
    assert_eq!(t.am_resource_limit(a).memory_mb(), 192 * GB);
    assert_eq!(t.user_am_resource_limit(a, 1, 1.0).memory_mb(), 96 * GB);

    // Per-queue AM percent 0.5 on 1600 GB.
    let mut pairs = e1_pairs();
    pairs.push(("root.a.maximum-am-resource-percent", "0.5"));
    let t = tree(ok(&pairs), 100, 16 * GB, 16);
    assert_eq!(t.am_resource_limit(a).memory_mb(), 800 * GB);
    assert_eq!(t.user_am_resource_limit(a, 1, 1.0).memory_mb(), 400 * GB);

    // a.maximum-applications = 9999 overrides both caps.
    let mut pairs = e1_pairs();
    pairs.push(("root.a.maximum-applications", "9999"));
    let t = tree(ok(&pairs), 100, 16 * GB, 16);
    let limits = t.queue(a).leaf.unwrap();
    assert_eq!(
        (limits.max_applications, limits.max_applications_per_user),
        (9999, 9999)
    );
}

#[test]
fn default_calculator_reports_one_vcore_in_limits() {
    // Spec §0.1: the default calculator builds limits with vcores = 1 (tests assert <8 GB, 1>).
    let t = tree(ok(&e1_pairs()), 10, 8 * GB, 8);
    let a = t.find("a").unwrap();
    assert_eq!(t.am_resource_limit(a), Resource::new(8 * GB, 1));
}

#[test]
fn e2_am_limits_with_active_users() {
    // TestApplicationLimits.testAMResourceLimit: cluster 80 GB, the same queue a.
    let t = tree(ok(&e1_pairs()), 10, 8 * GB, 8);
    let a = t.find("a").unwrap();
    assert_eq!(t.am_resource_limit(a).memory_mb(), 8 * GB);
    assert_eq!(t.user_am_resource_limit(a, 1, 1.0).memory_mb(), 4 * GB);
    // With two active users the user AM limit halves.
    assert_eq!(t.user_am_resource_limit(a, 2, 1.0).memory_mb(), 2 * GB);
}

#[test]
fn e2_initialize_queue_am_limits() {
    // TestLeafQueue.testInitializeQueue: cluster 50 GB.
    let t = tree(
        ok(&[
            ("root.queues", "a,b"),
            ("root.a.capacity", "8.5"),
            ("root.a.maximum-capacity", "20"),
            ("root.b.capacity", "91.5"),
        ]),
        1,
        50 * GB,
        50,
    );
    assert_eq!(t.am_resource_limit(t.find("a").unwrap()).memory_mb(), GB);

    let t = tree(
        ok(&[
            ("root.queues", "a,b"),
            ("root.a.capacity", "80"),
            ("root.a.maximum-capacity", "99"),
            ("root.b.capacity", "20"),
        ]),
        1,
        50 * GB,
        50,
    );
    // roundUp(0.1 × roundDown(50688 MB) = 50176) = 5 GB
    assert_eq!(
        t.am_resource_limit(t.find("a").unwrap()).memory_mb(),
        5 * GB
    );
}

#[test]
fn e3_guaranteed_capacity_is_float_truncated() {
    // TestLeafQueue.testUserLimits: 8.5% of 16 GB = trunc(16384 × 0.085f) = 1392 MB.
    let t = tree(
        ok(&[
            ("root.queues", "a,b"),
            ("root.a.capacity", "8.5"),
            ("root.b.capacity", "91.5"),
        ]),
        2,
        8 * GB,
        16,
    );
    assert_eq!(
        t.queue(t.find("a").unwrap())
            .capacities
            .effective_min
            .memory_mb(),
        1392
    );
}

#[test]
fn seed_configuration_on_100_gb() {
    // Spec §2's seed example: cluster 100 GB.
    let t = tree(
        CapacitySchedulerConfiguration::seed_default(),
        10,
        10 * GB,
        10,
    );
    let d = t.find("root.default").unwrap();
    let l = t.find("root.low").unwrap();
    assert_eq!(t.queue(d).leaf.unwrap().max_applications, 8000);
    assert_eq!(t.queue(d).leaf.unwrap().max_applications_per_user, 8000);
    assert_eq!(t.queue(l).leaf.unwrap().max_applications, 2000);
    assert_eq!(t.queue(l).leaf.unwrap().max_applications_per_user, 2000);
    assert_eq!(t.am_resource_limit(d).memory_mb(), 16 * GB);
    assert_eq!(t.user_am_resource_limit(d, 1, 1.0).memory_mb(), 16 * GB);
    assert_eq!(t.am_resource_limit(l).memory_mb(), 8 * GB);
    assert_eq!(t.user_am_resource_limit(l, 1, 1.0).memory_mb(), 4 * GB);
    let c = &t.queue(l).capacities;
    assert_eq!(
        (
            c.capacity,
            c.absolute_capacity,
            c.maximum_capacity,
            c.absolute_maximum_capacity
        ),
        (0.2, 0.2, 0.4, 0.4)
    );
    assert_eq!(c.effective_min.memory_mb(), 20 * GB);
    assert_eq!(c.effective_max.memory_mb(), 40 * GB);
}

#[test]
fn nested_absolute_capacities_multiply_down_the_tree() {
    let t = tree(
        ok(&[
            ("root.queues", "a,b"),
            ("root.a.capacity", "40"),
            ("root.a.maximum-capacity", "60"),
            ("root.b.capacity", "60"),
            ("root.a.queues", "x,y"),
            ("root.a.x.capacity", "25"),
            ("root.a.x.maximum-capacity", "50"),
            ("root.a.y.capacity", "75"),
        ]),
        10,
        10 * GB,
        10,
    );
    let x = &t.queue(t.find("x").unwrap()).capacities;
    assert_eq!(x.absolute_capacity, 0.25f32 * 0.4f32);
    assert_eq!(x.absolute_maximum_capacity, 0.5f32 * 0.6f32);
    // A child's limit from its parent is the parent's maximum on an idle cluster.
    let xid = t.find("x").unwrap();
    assert_eq!(
        t.queue(xid).limit_from_parent.memory_mb(),
        (102400.0f64 * 0.6f32 as f64) as i64 / 1024 * 1024
    );
    assert_eq!(
        t.queue_current_limit(xid).memory_mb(),
        (102400.0f64 * (0.5f32 * 0.6f32) as f64) as i64 / 1024 * 1024
    );
}

#[test]
fn weights_are_normalised_among_siblings() {
    let t = tree(
        ok(&[
            ("root.queues", "a,b,c"),
            ("root.a.capacity", "1w"),
            ("root.b.capacity", "3w"),
            ("root.c.capacity", "4w"),
        ]),
        8,
        10 * GB,
        10,
    );
    let b = &t.queue(t.find("b").unwrap()).capacities;
    assert_eq!(b.weight, 3.0);
    assert_eq!(b.normalized_weight, 3.0 / 8.0);
    assert_eq!(b.absolute_capacity, 3.0 / 8.0);
    assert_eq!(b.capacity, 0.0, "weight mode keeps capacity 0 as YARN does");
    assert_eq!(b.effective_min.memory_mb(), 30 * GB);
}

#[test]
fn absolute_capacities_scale_down_when_the_parent_is_short() {
    // Children ask for 60 + 60 GB of a 100 GB cluster: each is scaled by 100/120.
    let t = tree(
        ok(&[
            (
                "resource-calculator",
                "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator",
            ),
            ("root.queues", "a,b"),
            ("root.a.capacity", "[memory=61440,vcores=60]"),
            ("root.b.capacity", "[memory=61440,vcores=60]"),
        ]),
        10,
        10 * GB,
        10,
    );
    let a = &t.queue(t.find("a").unwrap()).capacities;
    let ratio_mem = 102400f32 / 122880f32;
    let ratio_vc = 100f32 / 120f32;
    assert_eq!(
        a.effective_min,
        Resource::new((61440f32 * ratio_mem) as i64, (60f32 * ratio_vc) as i64)
    );
    assert!((a.capacity - 0.5).abs() < 1e-3, "{}", a.capacity);

    // Enough room: used as configured.
    let t = tree(
        ok(&[
            ("root.queues", "a,b"),
            ("root.a.capacity", "[memory=20480,vcores=20]"),
            ("root.b.capacity", "[memory=30720,vcores=30]"),
        ]),
        10,
        10 * GB,
        10,
    );
    let b = &t.queue(t.find("b").unwrap()).capacities;
    assert_eq!(b.effective_min.memory_mb(), 30 * GB);
    assert!((b.capacity - 0.3).abs() < 1e-6);
    assert_eq!(
        t.queue(t.find("b").unwrap()).leaf.unwrap().max_applications,
        (10000f32 * b.absolute_capacity) as i32
    );
}

#[test]
fn zero_capacity_leaf_gets_zero_applications_unless_configured() {
    // Spec §8.8.
    let c = ok(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "0"),
        ("root.b.capacity", "100"),
    ]);
    let t = tree(c, 1, 10 * GB, 10);
    assert_eq!(
        t.queue(t.find("a").unwrap()).leaf.unwrap().max_applications,
        0
    );
}

#[test]
fn global_queue_max_applications_applies_when_per_queue_is_unset() {
    let mut pairs = e1_pairs();
    pairs.push(("global-queue-max-application", "77"));
    pairs.push(("root.b.maximum-applications", "5"));
    let t = tree(ok(&pairs), 1, 10 * GB, 10);
    assert_eq!(
        t.queue(t.find("a").unwrap()).leaf.unwrap().max_applications,
        77
    );
    assert_eq!(
        t.queue(t.find("b").unwrap()).leaf.unwrap().max_applications,
        5
    );
}

#[test]
fn empty_cluster_gives_zero_resources_not_nan() {
    let t = QueueTree::new(Arc::new(CapacitySchedulerConfiguration::seed_default()));
    for id in 0..t.len() {
        assert_eq!(t.used_capacity(id), 0.0);
        assert_eq!(t.absolute_used_capacity(id), 0.0);
        assert!(t.queue(id).capacities.absolute_capacity.is_finite());
    }
    assert_eq!(
        t.am_resource_limit(t.find("default").unwrap()),
        Resource::ZERO
    );
}
