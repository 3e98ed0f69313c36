//! Every validation rule of spec §1 with a bad configuration: YARN's message, the queue path
//! and the key to fix; and the configuration is an error value, never a panic.

mod common;
use common::*;

fn two_leaves(a: &str, b: &str) -> Vec<(&'static str, String)> {
    vec![
        ("root.queues", "a,b".into()),
        ("root.a.capacity", a.into()),
        ("root.b.capacity", b.into()),
    ]
}

fn refs<'a>(v: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    v.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

#[test]
fn children_summing_to_110_is_rejected_with_yarns_message() {
    let e = errors(&refs(&two_leaves("60", "50")));
    assert_error(
        &e,
        "Illegal capacity sum of 1.1 for children of queue root for label=. It should be either 0 or 1.0",
        Some("root"),
        Some("yarn.scheduler.capacity.root.queues"),
    );
    assert_eq!(e.len(), 1);
}

#[test]
fn children_sum_checked_at_every_level_with_the_short_name() {
    let e = errors(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
        ("root.a.queues", "x,y"),
        ("root.a.x.capacity", "40"),
        ("root.a.y.capacity", "50"),
    ]);
    assert_error(
        &e,
        "Illegal capacity sum of 0.9 for children of queue a for label=. It should be either 0 or 1.0",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.queues"),
    );
}

#[test]
fn sum_within_yarns_precision_is_accepted() {
    ok(&[
        ("root.queues", "a,b,c"),
        ("root.a.capacity", "33.33"),
        ("root.b.capacity", "33.33"),
        ("root.c.capacity", "33.34"),
    ]);
    ok(&refs(&two_leaves("49.98", "50")));
}

#[test]
fn zero_sum_needs_zero_parent_or_allow_zero_capacity_sum() {
    let pairs = [
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
        ("root.a.queues", "x,y"),
        ("root.a.x.capacity", "0"),
        ("root.a.y.capacity", "0"),
    ];
    let e = errors(&pairs);
    assert_error(
        &e,
        "Illegal capacity sum of 0.0 for children of queue a for label=. It is set to 0, but parent percent != 0, \
         and doesn't allow children capacity to set to 0",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.queues"),
    );
    let mut allowed = pairs.to_vec();
    allowed.push(("root.a.allow-zero-capacity-sum", "true"));
    ok(&allowed);
}

#[test]
fn zero_capacity_parent_with_positive_children_is_rejected() {
    let e = errors(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "0"),
        ("root.b.capacity", "100"),
        ("root.a.queues", "x"),
        ("root.a.x.capacity", "100"),
    ]);
    assert_error(
        &e,
        "Illegal capacity sum of 1.0 for children of queue a for label=. queue=a has zero capacity, but \
         childqueues have positive capacities",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.queues"),
    );
}

#[test]
fn capacity_outside_0_to_100_is_rejected() {
    let e = errors(&refs(&two_leaves("-10", "110")));
    assert_error(
        &e,
        "Illegal capacity of -10.0 for queue root.a",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.capacity"),
    );
    assert_error(
        &e,
        "Illegal capacity of 110.0 for queue root.b",
        Some("root.b"),
        Some("yarn.scheduler.capacity.root.b.capacity"),
    );
}

#[test]
fn maximum_capacity_outside_0_to_100_is_rejected() {
    let mut pairs = two_leaves("50", "50");
    pairs.push(("root.a.maximum-capacity", "150".into()));
    pairs.push(("root.b.maximum-capacity", "-5".into()));
    let e = errors(&refs(&pairs));
    assert_error(
        &e,
        "Illegal value  of maximumCapacity 1.5 used in call to setMaxCapacity for queue root.a",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.maximum-capacity"),
    );
    assert_error(
        &e,
        "Illegal value  of maximumCapacity -0.05 used in call to setMaxCapacity for queue root.b",
        Some("root.b"),
        Some("yarn.scheduler.capacity.root.b.maximum-capacity"),
    );
}

#[test]
fn maximum_capacity_minus_one_means_unset() {
    let mut pairs = two_leaves("50", "50");
    pairs.push(("root.a.maximum-capacity", "-1".into()));
    let c = ok(&refs(&pairs));
    assert_eq!(
        c.queue("root.a").unwrap().maximum_capacity,
        capsched::config::MaxCapacityValue::Percent(1.0)
    );
}

#[test]
fn capacity_above_maximum_capacity_is_rejected() {
    let mut pairs = two_leaves("50", "50");
    pairs.push(("root.a.maximum-capacity", "40".into()));
    let e = errors(&refs(&pairs));
    assert_error(
        &e,
        "Illegal queue capacity setting (abs-capacity=0.5) > (abs-maximum-capacity=0.4) for queue=[root.a],label=[]",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.maximum-capacity"),
    );
}

#[test]
fn capacity_above_maximum_is_judged_on_absolute_values() {
    // root.a.x has 100% of a (abs 0.5) but only 40% of a's 100% maximum (abs 0.4).
    let e = errors(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
        ("root.a.queues", "x"),
        ("root.a.x.capacity", "100"),
        ("root.a.x.maximum-capacity", "40"),
    ]);
    assert_error(
        &e,
        "Illegal queue capacity setting (abs-capacity=0.5) > (abs-maximum-capacity=0.4) for queue=[root.a.x],label=[]",
        Some("root.a.x"),
        Some("yarn.scheduler.capacity.root.a.x.maximum-capacity"),
    );
}

#[test]
fn unparseable_numbers_carry_javas_message_and_the_key() {
    let mut pairs = two_leaves("half", "50");
    pairs.push(("root.b.user-limit-factor", "two".into()));
    pairs.push(("maximum-applications", "1e4".into()));
    let e = errors(&refs(&pairs));
    assert_error(
        &e,
        "For input string: \"half\"",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.capacity"),
    );
    assert_error(
        &e,
        "For input string: \"two\"",
        Some("root.b"),
        Some("yarn.scheduler.capacity.root.b.user-limit-factor"),
    );
    assert_error(
        &e,
        "For input string: \"1e4\"",
        None,
        Some("yarn.scheduler.capacity.maximum-applications"),
    );
}

#[test]
fn duplicate_queue_names_at_one_level_are_rejected() {
    let e = errors(&[
        ("root.queues", "a,b,a"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
    ]);
    assert_error(
        &e,
        "Queue root lists child queue a more than once in yarn.scheduler.capacity.root.queues",
        Some("root"),
        Some("yarn.scheduler.capacity.root.queues"),
    );
}

#[test]
fn same_short_name_under_different_parents_is_allowed() {
    let c = ok(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
        ("root.a.queues", "x"),
        ("root.b.queues", "x"),
        ("root.a.x.capacity", "100"),
        ("root.b.x.capacity", "100"),
    ]);
    let tree = capsched::state::queue::QueueTree::new(std::sync::Arc::new(c));
    assert!(matches!(
        tree.find("x"),
        Err(capsched::state::queue::QueueLookupError::Ambiguous(_))
    ));
    assert_eq!(tree.path(tree.find("root.b.x").unwrap()), "root.b.x");
}

#[test]
fn root_without_children_is_rejected() {
    let e = errors(&[("maximum-applications", "100")]);
    assert_error(
        &e,
        "Queue configuration missing child queue names for root",
        Some("root"),
        Some("yarn.scheduler.capacity.root.queues"),
    );
}

#[test]
fn queue_names_must_be_non_empty_and_dot_free() {
    let e = errors(&[
        ("root.queues", "a,,b"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
    ]);
    assert_error(
        &e,
        "Queue root has an empty child queue name in yarn.scheduler.capacity.root.queues",
        Some("root"),
        Some("yarn.scheduler.capacity.root.queues"),
    );
    let e = errors(&[("root.queues", "a.b"), ("root.a.capacity", "100")]);
    assert_error(
        &e,
        "Illegal queue name a.b under queue root: a queue name must not contain '.'",
        Some("root"),
        Some("yarn.scheduler.capacity.root.queues"),
    );
}

#[test]
fn leaf_and_parent_policies_are_not_interchangeable() {
    // A parent orders queues, a leaf orders applications: each rejects the other's policy.
    let e = errors(&[
        ("root.queues", "p,l"),
        ("root.p.capacity", "50"),
        ("root.l.capacity", "50"),
        ("root.p.queues", "x"),
        ("root.p.x.capacity", "100"),
        ("root.p.ordering-policy", "fifo"),
        ("root.l.ordering-policy", "utilization"),
    ]);
    assert_error(
        &e,
        "Unable to construct queue ordering policy=fifo queue=root.p",
        Some("root.p"),
        Some("yarn.scheduler.capacity.root.p.ordering-policy"),
    );
    assert_error(
        &e,
        "Unable to construct ordering policy for: utilization, utilization",
        Some("root.l"),
        Some("yarn.scheduler.capacity.root.l.ordering-policy"),
    );
}

#[test]
fn mixing_capacity_modes_among_siblings_is_rejected() {
    let e = errors(&refs(&two_leaves("50", "2w")));
    assert_eq!(e.len(), 1);
    let err = e.first();
    assert!(
        err.message.starts_with(
            "Parent queue 'root' have children queue used mixed of  weight mode, percentage and absolute mode, it is not allowed, please double check, details:"
        ),
        "{}",
        err.message
    );
    assert_eq!(
        err.key.as_deref(),
        Some("yarn.scheduler.capacity.root.queues")
    );
}

#[test]
fn absolute_children_need_an_absolute_parent() {
    let e = errors(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
        ("root.a.queues", "x"),
        ("root.a.x.capacity", "[memory=1024,vcores=1]"),
    ]);
    assert_error(
        &e,
        "Parent=root.a: When absolute minResource is used, we must make sure both parent and child all use absolute minResource",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.queues"),
    );
}

#[test]
fn absolute_children_may_not_exceed_the_parent() {
    let e = errors(&[
        ("root.queues", "a"),
        ("root.a.capacity", "[memory=4096,vcores=4]"),
        ("root.a.queues", "x,y"),
        ("root.a.x.capacity", "[memory=3072,vcores=2]"),
        ("root.a.y.capacity", "[memory=2048,vcores=2]"),
    ]);
    assert_error(
        &e,
        "Parent Queues capacity: <memory:4096, vCores:4> is less than to its children:<memory:5120, vCores:4> for queue:a",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.capacity"),
    );
}

#[test]
fn absolute_min_above_max_is_rejected() {
    let e = errors(&[
        ("root.queues", "a"),
        ("root.a.capacity", "[memory=4096,vcores=4]"),
        ("root.a.maximum-capacity", "[memory=2048,vcores=4]"),
    ]);
    assert_error(
        &e,
        "Min resource configuration <memory:4096, vCores:4> is greater than its max value:<memory:2048, vCores:4> in queue:a",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.capacity"),
    );
}

#[test]
fn weights_outside_range_are_rejected() {
    let e = errors(&refs(&two_leaves("2w", "20000w")));
    assert_error(
        &e,
        "Illegal weight=20000.0 for queue=root.b label=. Acceptable values: [0, 10000], -1 is same as not set",
        Some("root.b"),
        Some("yarn.scheduler.capacity.root.b.capacity"),
    );
}

#[test]
fn queue_states_follow_yarns_rules() {
    let mut pairs = two_leaves("50", "50");
    pairs.push(("root.a.state", "DRAINING".into()));
    pairs.push(("root.b.state", "PAUSED".into()));
    let e = errors(&refs(&pairs));
    assert_error(
        &e,
        "Invalid queue state configuration. We can only use RUNNING or STOPPED.",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.state"),
    );
    assert_error(
        &e,
        "No enum constant org.apache.hadoop.yarn.api.records.QueueState.PAUSED",
        Some("root.b"),
        Some("yarn.scheduler.capacity.root.b.state"),
    );

    let e = errors(&[
        ("root.queues", "a"),
        ("root.a.capacity", "100"),
        ("root.a.state", "STOPPED"),
        ("root.a.queues", "x"),
        ("root.a.x.capacity", "100"),
        ("root.a.x.state", "RUNNING"),
    ]);
    assert_error(
        &e,
        "The parent queue:root.a cannot be STOPPED as the child queue:root.a.x is in RUNNING state.",
        Some("root.a.x"),
        Some("yarn.scheduler.capacity.root.a.x.state"),
    );
}

#[test]
fn unset_state_is_inherited_from_the_parent() {
    let c = ok(&[
        ("root.queues", "a"),
        ("root.a.capacity", "100"),
        ("root.a.state", "STOPPED"),
        ("root.a.queues", "x"),
        ("root.a.x.capacity", "100"),
    ]);
    assert_eq!(
        c.queue("root.a.x").unwrap().state,
        capsched::config::QueueState::Stopped
    );
}

#[test]
fn allocation_bounds_are_checked() {
    let mut pairs = two_leaves("50", "50");
    pairs.push(("yarn.scheduler.minimum-allocation-mb", "4096".into()));
    pairs.push(("yarn.scheduler.maximum-allocation-mb", "2048".into()));
    let e = errors(&refs(&pairs));
    assert_error(
        &e,
        "Invalid resource scheduler memory allocation configuration, yarn.scheduler.minimum-allocation-mb=4096, \
         yarn.scheduler.maximum-allocation-mb=2048, min and max should be greater than 0, max should be no smaller than min.",
        None,
        Some("yarn.scheduler.minimum-allocation-mb"),
    );
}

#[test]
fn queue_maximum_allocation_may_not_exceed_the_cluster_setting() {
    let mut pairs = two_leaves("50", "50");
    pairs.push(("root.a.maximum-allocation-mb", "16384".into()));
    let e = errors(&refs(&pairs));
    assert_error(
        &e,
        "Queue maximum allocation cannot be larger than the cluster setting for queue root.a max allocation per queue: \
         <memory:16384, vCores:4> cluster setting: <memory:8192, vCores:4>",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.maximum-allocation-mb"),
    );
}

#[test]
fn every_independent_error_is_reported_not_only_the_first() {
    let mut pairs = two_leaves("half", "50");
    pairs.push(("root.b.state", "DRAINING".into()));
    pairs.push(("root.b.maximum-capacity", "200".into()));
    let e = errors(&refs(&pairs));
    assert_eq!(e.len(), 3, "{e}");
}

#[test]
fn unknown_keys_are_kept_not_fatal() {
    let mut pairs = two_leaves("50", "50");
    pairs.push(("some.future.key", "x".into()));
    pairs.push(("root.a.some-plugin-setting", "y".into()));
    pairs.push(("root.ghost.capacity", "5".into()));
    let c = ok(&refs(&pairs));
    assert_eq!(
        c.configuration()
            .get_raw("yarn.scheduler.capacity.some.future.key"),
        Some("x")
    );
    assert!(
        c.warnings()
            .iter()
            .any(|w| w.contains("root.ghost.capacity")),
        "{:?}",
        c.warnings()
    );
}

#[test]
fn hostile_input_never_panics() {
    // Deep nesting, huge numbers, junk: always an error value or a tree, never a panic.
    // 2001 levels below root are beyond capsched's depth limit (an error, not a panic);
    // 1024 are deep but valid.
    let e = capsched::config::CapacitySchedulerConfiguration::from_properties_str(&chain(2001))
        .unwrap_err();
    assert!(e.first().message.contains("levels deep"), "{e}");
    let c = capsched::config::CapacitySchedulerConfiguration::from_properties_str(&chain(1024))
        .expect("deep but valid");
    assert_eq!(c.queues().len(), 1025);
    for junk in [
        "",
        "=",
        "root.queues=",
        "\u{0}\u{1}",
        "yarn.scheduler.capacity.root.queues=a\nyarn.scheduler.capacity.root.a.capacity=1e40",
    ] {
        let _ = capsched::config::CapacitySchedulerConfiguration::from_properties_str(junk);
    }
    for junk in [
        "<configuration>",
        "<configuration><property><name>x</name></property></configuration>",
        "<a><b></a>",
    ] {
        let _ = capsched::config::CapacitySchedulerConfiguration::from_xml_str(junk);
    }
}

/// `root.queues=q`, then `q` under `q` down to `levels` levels below root.
fn chain(levels: usize) -> String {
    let mut text = String::from("yarn.scheduler.capacity.root.queues=q\n");
    let mut path = String::from("root.q");
    for _ in 1..levels {
        text.push_str(&format!("yarn.scheduler.capacity.{path}.capacity=100\n"));
        text.push_str(&format!("yarn.scheduler.capacity.{path}.queues=q\n"));
        path.push_str(".q");
    }
    text.push_str(&format!("yarn.scheduler.capacity.{path}.capacity=100\n"));
    text
}

#[test]
fn hierarchy_caps_are_enforced_with_a_message_naming_the_limit() {
    use capsched::config::limits::{MAX_QUEUES, MAX_QUEUE_DEPTH};
    use capsched::config::CapacitySchedulerConfiguration as Conf;
    // Depth: one level too many.
    let e = Conf::from_properties_str(&chain(MAX_QUEUE_DEPTH + 1)).unwrap_err();
    assert_eq!(e.len(), 1, "{e}");
    assert!(
        e.first()
            .message
            .starts_with("The queue hierarchy is more than 1024 levels deep below root"),
        "{e}"
    );
    assert_eq!(
        e.first().key.as_deref().map(|k| k.ends_with(".queues")),
        Some(true)
    );
    // Queues: root's children alone exceed the cap.
    let names: Vec<String> = (0..MAX_QUEUES).map(|i| format!("q{i}")).collect();
    let text = format!(
        "yarn.scheduler.capacity.root.queues={}\nyarn.scheduler.capacity.root.q0.capacity=100\n",
        names.join(",")
    );
    let e = Conf::from_properties_str(&text).unwrap_err();
    assert_error(
        &e,
        "The queue hierarchy has more than 200000 queues: capsched's limit",
        Some("root"),
        Some("yarn.scheduler.capacity.root.queues"),
    );
    // Paths: long names under a chain add up.
    let long = "n".repeat(256 << 10);
    let mut text = format!("yarn.scheduler.capacity.root.queues={long}\n");
    let mut path = format!("root.{long}");
    for _ in 0..12 {
        text.push_str(&format!("yarn.scheduler.capacity.{path}.queues={long}\n"));
        path = format!("{path}.{long}");
    }
    let e = Conf::from_properties_str(&text).unwrap_err();
    assert!(
        e.first()
            .message
            .starts_with("The queue paths of the hierarchy add up to more than 16 MiB"),
        "{e}"
    );
}

#[test]
fn a_hundred_thousand_siblings_validate_in_linear_time() {
    // The duplicate-name check and the orphan-key scan were quadratic: 54 s in a debug build.
    let names: Vec<String> = (0..100_000).map(|i| format!("q{i}")).collect();
    let mut text = format!("yarn.scheduler.capacity.root.queues={}\n", names.join(","));
    for (i, n) in names.iter().enumerate() {
        let cap = if i == 0 { "100" } else { "0" };
        text.push_str(&format!(
            "yarn.scheduler.capacity.root.{n}.capacity={cap}\n"
        ));
        text.push_str(&format!(
            "yarn.scheduler.capacity.root.{n}.user-limit-factor=2\n"
        ));
    }
    text.push_str("yarn.scheduler.capacity.root.ghost.capacity=1\n");
    let start = std::time::Instant::now();
    let c = capsched::config::CapacitySchedulerConfiguration::from_properties_str(&text).unwrap();
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(c.queues().len(), 100_001);
    assert_eq!(c.warnings().len(), 1, "{:?}", c.warnings());
}

#[test]
fn long_bad_values_are_echoed_as_a_bounded_prefix() {
    // Every message that repeats a value goes through one helper: the first 64 characters,
    // then the length. A 20 kB value used to be repeated whole.
    let junk = "x".repeat(20_000);
    let keys = [
        "root.a.capacity",
        "root.a.maximum-capacity",
        "root.a.state",
        "root.a.ordering-policy",
        "root.a.user-limit-factor",
        "root.a.maximum-applications",
        "root.a.maximum-allocation",
        "root.a.user-settings.bob.weight",
        "root.a.max-parallel-apps",
        "resource-calculator",
        "maximum-am-resource-percent",
        "node-locality-delay",
        "yarn.resource-types",
        "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.preemption-order-policy",
        "yarn.resourcemanager.nm-container-queuing.load-comparator",
        "yarn.nodemanager.opportunistic-containers-queue-policy",
    ];
    for key in keys {
        let e = errors(&[
            ("root.queues", "a"),
            ("root.a.capacity", "100"),
            (key, junk.as_str()),
        ]);
        for err in e.iter() {
            assert!(
                err.message.len() < 400,
                "{key}: {} bytes: {}",
                err.message.len(),
                &err.message[..200]
            );
        }
        assert!(
            e.iter().any(
                |err| err.message.to_lowercase().contains("xxxxxxxxxxxxxxxx…(2")
                    && err.message.contains(" bytes)")
            ),
            "{key}: {e}"
        );
    }
    let e = errors(&[
        ("root.queues", &format!("a,{junk}.b")),
        ("root.a.capacity", "100"),
    ]);
    assert!(e.first().message.contains("…(20002 bytes)"), "{e}");
    assert!(e.first().message.len() < 400);
    let digits = "9".repeat(20_000);
    let e = errors(&[
        ("root.queues", "a"),
        ("root.a.capacity", &format!("[memory={digits}]")),
    ]);
    assert!(e.first().message.len() < 600, "{}", e.first().message.len());
}
