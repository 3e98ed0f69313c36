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
        "Illegal capacity of 1.1 for children of queue root. It should be either 0 or 1.0",
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
        "Illegal capacity of 0.9 for children of queue a. It should be either 0 or 1.0",
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
        "Illegal capacity of 0.0 for children of queue a. It is set to 0, but parent percent != 0, \
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
        "Illegal capacity of 1.0 for children of queue a. queue=a has zero capacity, but \
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
        "Parent queue 'root.a' and child queue 'root.a.x' should use either percentage based capacity \
         configuration or absolute resource together. Parent=root.a: When absolute minResource is used, we must \
         make sure both parent and child all use absolute minResource",
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
        "Min resource configuration <memory:4096, vCores:4> is greater than its max value:<memory:2048, vCores:4> in queue:root.a",
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
    let long = "n".repeat(255);
    let mut text = format!("yarn.scheduler.capacity.root.queues={long}\n");
    let mut path = format!("root.{long}");
    for _ in 0..400 {
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
    fn siblings(n: usize) -> String {
        let names: Vec<String> = (0..n).map(|i| format!("q{i}")).collect();
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
        text
    }
    let c = assert_linear(siblings, |text| {
        capsched::config::CapacitySchedulerConfiguration::from_properties_str(text).unwrap()
    });
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

/// `(key, value)` on top of a valid two-leaf configuration.
fn with(
    key: &str,
    value: &str,
) -> Result<capsched::config::CapacitySchedulerConfiguration, capsched::config::ConfigErrors> {
    parse(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
        (key, value),
    ])
}

#[test]
fn meaningless_numbers_are_refused_naming_the_key_and_the_value() {
    // YARN 3.3.6 accepts all of these and then misbehaves (no AM fits, every submission is
    // refused, a factor of infinity overflows the user limit…): capsched refuses them.
    let refused = [
        ("root.a.user-limit-factor", "1e309", "it must be -1 (no limit) or a number above 0 and at most 1000000"),
        ("root.a.user-limit-factor", "-2", "it must be -1"),
        ("root.a.user-limit-factor", "0", "it must be -1"),
        ("root.a.user-limit-factor", "NaN", "it must be -1"),
        ("user-limit-factor", "Infinity", "it must be -1"),
        ("root.a.maximum-am-resource-percent", "-0.1", "it must be a number from 0 to 1"),
        ("root.a.maximum-am-resource-percent", "5", "it must be a number from 0 to 1"),
        ("maximum-am-resource-percent", "1.5", "it must be a number from 0 to 1"),
        ("maximum-applications", "-2147483648", "it must be an integer from 0 up"),
        ("root.a.minimum-user-limit-percent", "0", "it must be a number above 0 and at most 100"),
        ("root.a.minimum-user-limit-percent", "101", "it must be a number above 0 and at most 100"),
        ("node-locality-delay", "-2", "it must be -1 or an integer from 0 up"),
        ("rack-locality-additional-delay", "-5", "it must be -1 or an integer from 0 up"),
        ("per-node-heartbeat.maximum-container-assignments", "-2", "it must be -1 or an integer from 0 up"),
        ("root.a.maximum-allocation-mb", "0", "it must be -1 (not set) or an integer from 1 up"),
        ("root.a.maximum-allocation-vcores", "-4", "it must be -1 (not set) or an integer from 1 up"),
        ("root.a.max-parallel-apps", "-1", "it must be an integer from 0 up"),
        ("max-parallel-apps", "-3", "it must be an integer from 0 up"),
        ("user.alice.max-parallel-apps", "-3", "it must be an integer from 0 up"),
        ("schedule-asynchronously.scheduling-interval-ms", "-1", "milliseconds from 0 to 1000000000000"),
        ("schedule-asynchronously.maximum-pending-backlogs", "-1", "it must be an integer from 0 up"),
        ("yarn.cluster.max-application-priority", "-1", "it must be an integer from 0 up"),
        ("yarn.resourcemanager.rm.container-allocation.expiry-interval-ms", "0", "it must be an integer from 1 up"),
        ("yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms", "-1", "milliseconds from 0"),
        ("yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval", "0", "milliseconds from 1"),
        ("yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill", "9223372036854775807", "milliseconds from 0 to 1000000000000"),
        ("yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round", "2", "from 0 to 1"),
        ("yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor", "-0.5", "from 0 to 1"),
        ("yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity", "Infinity", "a finite number from 0 up"),
        ("yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.minimum-threshold", "-0.5", "a finite number from 0 up"),
        ("yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.max-allowable-limit", "1.5", "from 0 to 1"),
        ("yarn.resourcemanager.opportunistic-container-allocation.nodes-used", "0", "from 1 up"),
        ("yarn.resourcemanager.nm-container-queuing.sorting-nodes-interval-ms", "0", "milliseconds from 1"),
        ("yarn.resourcemanager.nm-container-queuing.queue-limit-stdev", "NaN", "a finite number"),
        ("yarn.resourcemanager.nm-container-queuing.min-queue-length", "-1", "from 0 up"),
        ("capsched.preemption.freed-space.hold-ms", "-5", "milliseconds from 0 to 1000000000000"),
    ];
    for (key, value, expected) in refused {
        let e = match with(key, value) {
            Ok(_) => panic!("{key}={value} was accepted"),
            Err(e) => e,
        };
        let full = if common::is_full_key(key) {
            key.to_string()
        } else {
            format!("{P}{key}")
        };
        let err = e.first();
        assert_eq!(
            err.key.as_deref(),
            Some(full.as_str()),
            "{key}={value}: {e}"
        );
        assert!(
            err.message
                .starts_with(&format!("Illegal value {value} for {full}: "))
                && err.message.contains(expected),
            "{key}={value}: {}",
            err.message
        );
    }
    // Beyond an int, the allocation bounds are Java's NumberFormatException (YARN reads them
    // with getInt), not a 64-bit value.
    let e = with(
        "yarn.scheduler.maximum-allocation-mb",
        "9223372036854775807",
    )
    .unwrap_err();
    assert_eq!(
        e.first().message,
        "For input string: \"9223372036854775807\""
    );
    let e = with("root.a.maximum-allocation-mb", "9223372036854775807").unwrap_err();
    assert_eq!(
        e.first().message,
        "For input string: \"9223372036854775807\""
    );
    // min above max for the queue-limit bounds.
    let e = with(
        "yarn.resourcemanager.nm-container-queuing.min-queue-length",
        "20",
    )
    .unwrap_err();
    assert!(e.first().message.contains("it must be at most"), "{e}");
}

#[test]
fn values_yarn_gives_a_meaning_keep_it() {
    // YARN's "not set" and "unlimited" values, and its silent clamps.
    let ok = [
        ("root.a.user-limit-factor", "-1"),
        ("root.a.maximum-applications", "-2147483648"), // any negative: derived from capacity
        ("global-queue-max-application", "-5"),         // ≤ 0: not set
        ("node-locality-delay", "-1"),
        ("per-node-heartbeat.maximum-container-assignments", "-1"),
        ("root.a.maximum-allocation-mb", "-1"),
        ("root.a.maximum-capacity", "-1"),
        ("root.a.ordering-policy", "fifo "), // YARN compares the short names trimmed
        ("root.a.ordering-policy", " fair\n"),
        (
            "yarn.resourcemanager.opportunistic.max.container-allocation.per.am.heartbeat",
            "-7",
        ),
        (
            "yarn.nodemanager.opportunistic-containers-max-queue-length",
            "-3",
        ),
        ("schedule-asynchronously.maximum-threads", "0"),
    ];
    for (key, value) in ok {
        if let Err(e) = with(key, value) {
            panic!("{key}={value}: {e}");
        }
    }
    let c = with("root.a.maximum-applications", "-2147483648").unwrap();
    assert_eq!(
        c.queue("root.a")
            .unwrap()
            .leaf
            .as_ref()
            .unwrap()
            .maximum_applications,
        i32::MIN
    );
    let c = with(
        "yarn.nodemanager.opportunistic-containers-max-queue-length",
        "-3",
    )
    .unwrap();
    assert_eq!(c.opportunistic().nm_max_queue_length, 0);
    // Clamped with YARN's warnings.
    let c = with("per-node-heartbeat.maximum-offswitch-assignments", "0").unwrap();
    assert_eq!(c.settings().maximum_offswitch_assignments, 1);
    assert!(c.warnings().iter().any(|w| w
        == "yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments(0) < 1. Using 1."));
    let c = with(
        "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms",
        "0",
    )
    .unwrap();
    assert_eq!(c.settings().node_heartbeat_interval_ms, 1000);
    assert!(c
        .warnings()
        .iter()
        .any(|w| w == "HeartBeat interval: 0 must be greater than 0, using default."));
}

#[test]
fn enums_and_blank_values_read_as_yarn_reads_them() {
    // Queue states are not trimmed (QueueState.valueOf): YARN's message, and a note.
    let e = with("root.a.state", "RUNNING ").unwrap_err();
    assert_eq!(
        e.first().message,
        "No enum constant org.apache.hadoop.yarn.api.records.QueueState.RUNNING  (the value has white space around it, which YARN does not trim here)"
    );
    assert!(with("root.a.state", "stopped").is_ok()); // toUpperCase
    let e = with(
        "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.preemption-order-policy",
        "priority_first ",
    )
    .unwrap_err();
    assert!(e.first().message.starts_with("No enum constant org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.IntraQueuePreemptionOrderPolicy.PRIORITY_FIRST  (the value"), "{e}");
    let e = with(
        "yarn.resourcemanager.nm-container-queuing.load-comparator",
        "QUEUE_LENGTH ",
    )
    .unwrap_err();
    assert!(
        e.first().message.contains("LoadComparator.QUEUE_LENGTH "),
        "{e}"
    );
    // A padded class name is not a class (Class.forName gets it as written).
    let e = with(
        "root.a.ordering-policy",
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FairOrderingPolicy ",
    )
    .unwrap_err();
    assert!(
        e.first()
            .message
            .starts_with("Unable to construct ordering policy for: org."),
        "{e}"
    );
    // max-parallel-apps: Integer.parseInt(get(key)), untrimmed.
    let e = with("root.a.max-parallel-apps", "5 ").unwrap_err();
    assert_eq!(e.first().message, "For input string: \"5 \"");
    // Blank numbers are Java's errors, not the default.
    let e = with("root.a.capacity", "").unwrap_err();
    assert_eq!(e.first().message, "empty String");
    let e = with("root.a.maximum-applications", "").unwrap_err();
    assert_eq!(e.first().message, "For input string: \"\"");
    // An empty resource calculator is a class that is not found.
    let e = with("resource-calculator", "").unwrap_err();
    assert_eq!(
        e.first().message,
        "java.lang.ClassNotFoundException: Class  not found (the value is empty)"
    );
    // Blank booleans are the default, as in Hadoop.
    assert!(with("root.a.disable_preemption", "").is_ok());
}

#[test]
fn substitution_errors_are_reported_for_the_key_that_has_them() {
    // A ${var} cycle: Hadoop's get throws "Variable substitution depth too large"; the
    // non-failing read used to hand the unexpanded text on, reported as a bad number.
    let e = errors(&[
        ("root.queues", "a"),
        ("root.a.capacity", "${yarn.x}"),
        ("yarn.x", "${yarn.y}"),
        ("yarn.y", "${yarn.x}"),
    ]);
    assert_error(
        &e,
        "Variable substitution depth too large: 20 ${yarn.x}",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.capacity"),
    );
    assert!(
        !e.iter().any(|err| err.message.contains("For input string")),
        "{e}"
    );
    // In root.queues: that error alone, and no queue named ${yarn.x}.
    let e = errors(&[
        ("root.queues", "${yarn.x}"),
        ("yarn.x", "${yarn.y}"),
        ("yarn.y", "${yarn.x}"),
    ]);
    assert_eq!(e.len(), 1, "{e}");
    assert_error(
        &e,
        "Variable substitution depth too large: 20 ${yarn.x}",
        Some("root"),
        Some("yarn.scheduler.capacity.root.queues"),
    );
    // Hadoop returns a self-reference (x=${x}) unexpanded, without an error: the name is
    // then `${x}`, which capsched refuses as a queue name.
    let e = capsched::config::CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=${x}\nx=${x}\n",
    )
    .unwrap_err();
    assert_error(
        &e,
        "Illegal queue name ${x} under queue root: a queue name must not contain '$' (the start of a ${var} substitution)",
        Some("root"),
        Some("yarn.scheduler.capacity.root.queues"),
    );
    // A self-reference elsewhere stays Hadoop's: the raw text, then Java's parse error.
    let e = errors(&[
        ("root.queues", "a"),
        ("root.a.capacity", "${yarn.z}"),
        ("yarn.z", "${yarn.z}"),
    ]);
    assert_eq!(e.first().message, "For input string: \"${yarn.z}\"");
}

#[test]
fn queue_names_yarn_would_break_on_are_refused() {
    let name_error = |queues: &str| {
        let e = errors(&[("root.queues", queues)]);
        e.iter()
            .find(|err| {
                err.message.starts_with("Illegal queue name")
                    || err.message.contains("empty child queue name")
            })
            .unwrap_or_else(|| panic!("{queues:?}: {e}"))
            .message
            .clone()
    };
    let cases = [
        ("a b", "Illegal queue name a b under queue root: a queue name must not contain white space or control characters"),
        ("a\tb", "Illegal queue name a\\tb under queue root: a queue name must not contain white space or control characters"),
        ("*", "Illegal queue name * under queue root: a queue name must not contain '*' (a wildcard in ACLs and JMX names)"),
        ("#a", "Illegal queue name #a under queue root: a queue name must not contain '#' (a URL fragment marker and the properties form's comment)"),
        ("%", "Illegal queue name % under queue root: a queue name must not contain '%' (placement rules' variable marker (%user, %primary_group))"),
        ("a/b", "Illegal queue name a/b under queue root: a queue name must not contain '/' (a path separator in REST URLs)"),
        ("root", "Illegal queue name root under queue root: root is the root queue's name (YARN resolves the name root to the root queue)"),
        ("a,,b", "Queue root has an empty child queue name in yarn.scheduler.capacity.root.queues"),
        ("a, ,b", "Queue root has an empty child queue name in yarn.scheduler.capacity.root.queues"),
    ];
    for (queues, message) in cases {
        assert_eq!(name_error(queues), message, "{queues:?}");
    }
    // `a\nb` is one name for YARN (getQueues splits on commas only): refused, not two queues.
    let e = capsched::config::CapacitySchedulerConfiguration::from_xml_str(&xml(&[(
        "root.queues",
        "a\nb",
    )]))
    .unwrap_err();
    assert!(
        e.first()
            .message
            .starts_with("Illegal queue name a\\nb under queue root"),
        "{e}"
    );
    // Names longer than 255 bytes.
    let long = "n".repeat(256);
    assert!(
        name_error(&long).ends_with("a queue name may have at most 255 bytes (capsched's limit)")
    );
    // A trailing comma and multi-line lists are fine.
    ok(&[
        ("root.queues", "a,b,"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
    ]);
    capsched::config::CapacitySchedulerConfiguration::from_xml_str(&xml(&[
        ("root.queues", "\n    a,\n    b\n  "),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
    ]))
    .unwrap();
}

#[test]
fn substitution_work_over_the_whole_configuration_is_bounded() {
    // Every key may expand the same 3 MB value; the reads stop expanding after 64 MiB.
    let big = "1".repeat(3 << 20);
    let names: Vec<String> = (0..200).map(|i| format!("q{i}")).collect();
    let mut text = format!(
        "big={big}\nyarn.scheduler.capacity.root.queues={}\n",
        names.join(",")
    );
    for n in &names {
        text.push_str(&format!(
            "yarn.scheduler.capacity.root.{n}.maximum-applications=${{big}}\n"
        ));
    }
    let start = std::time::Instant::now();
    let e =
        capsched::config::CapacitySchedulerConfiguration::from_properties_str(&text).unwrap_err();
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    assert!(
        e.iter().any(|err| err.message
            == "Variable substitution expands the configuration's values by more than 64 MiB in all (capsched's limit)"),
        "{}",
        e.first()
    );
}

#[test]
fn a_hundred_thousand_siblings_with_errors_are_checked_in_linear_time() {
    // The children check looked for an earlier capacity error by scanning every error, for
    // every child: 10^5 errors × 10^5 children.
    fn siblings(n: usize) -> String {
        let names: Vec<String> = (0..n).map(|i| format!("q{i}")).collect();
        let mut text = format!(
            "yarn.scheduler.capacity.root.queues={}\nyarn.scheduler.capacity.root.q0.capacity=100\n",
            names.join(",")
        );
        for n in &names {
            text.push_str(&format!(
                "yarn.scheduler.capacity.root.{n}.maximum-capacity=abc\n"
            ));
        }
        text
    }
    let errors = assert_linear(siblings, |text| {
        capsched::config::CapacitySchedulerConfiguration::from_properties_str(text)
            .unwrap_err()
            .len()
    });
    assert_eq!(errors, 100_000);
}

#[test]
fn the_mixed_modes_message_lists_a_bounded_number_of_children() {
    let names: Vec<String> = (0..100).map(|i| format!("q{i}")).collect();
    let mut pairs = vec![("root.queues".to_string(), names.join(","))];
    for (i, n) in names.iter().enumerate() {
        let cap = if i % 2 == 0 { "1w" } else { "1" };
        pairs.push((format!("root.{n}.capacity"), cap.to_string()));
    }
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let e = errors(&pairs);
    let m = &e.first().message;
    assert!(
        m.starts_with("Parent queue 'root' have children queue used mixed of"),
        "{m}"
    );
    assert!(m.ends_with("…(68 more children)"), "{m}");
    assert!(m.len() < 2500, "{}", m.len());
}

/// Parses `make(10^4)` and `make(10^5)` twice each and asserts the larger took under 40× as long
/// as the smaller (the faster of two runs each, so one descheduled run does not decide): linear
/// work is about 10×, the quadratic bugs these tests guard against about 100×. A ratio, not a
/// wall-clock bound, so a busy machine slows both alike. Returns the larger input's result.
fn assert_linear<T>(make: fn(usize) -> String, parse: impl Fn(&str) -> T) -> T {
    let timed = |text: &str| {
        let start = std::time::Instant::now();
        let out = parse(text);
        (start.elapsed(), out)
    };
    let (small, large) = (make(10_000), make(100_000));
    let small_time = timed(&small).0.min(timed(&small).0);
    let (first, out) = timed(&large);
    let large_time = first.min(timed(&large).0);
    let ratio = large_time.as_secs_f64() / small_time.as_secs_f64();
    assert!(
        ratio < 40.0,
        "10x the siblings took {ratio:.1}x as long ({large_time:?} vs {small_time:?})"
    );
    out
}

/// Issue 36.1: "Memory has to be configured always" — YARN reads an absolute maximum without
/// memory (or with `memory=0`) as `Resources.none()`, a maximum not configured: the queue may
/// use its parent's maximum. A percentage queue keeps 100 %, an absolute one is accepted.
#[test]
fn a_maximum_vector_without_memory_is_not_configured() {
    use capsched::config::MaxCapacityValue;
    use capsched::resource::Resource;
    use capsched::state::queue::QueueTree;
    use std::sync::Arc;
    for max in ["[vcores=5]", "[memory=0,vcores=5]", "[memory=0]"] {
        let pairs = [
            ("root.queues", "a,b"),
            ("root.a.capacity", "50"),
            ("root.b.capacity", "50"),
            ("root.a.maximum-capacity", max),
        ];
        let conf = ok(&pairs);
        let a = conf.queue("root.a").unwrap();
        assert!(
            matches!(a.maximum_capacity, MaxCapacityValue::Percent(m) if m == 1.0),
            "{max}: {:?}",
            a.maximum_capacity
        );
        let mut tree = QueueTree::new(Arc::new(conf));
        tree.update_cluster_resource(Resource::new(100 * 1024, 100));
        let c = tree.queue(tree.find("root.a").unwrap()).capacities;
        assert_eq!(c.absolute_maximum_capacity, 1.0, "{max}");
        assert_eq!(c.effective_max.memory_mb(), 100 * 1024, "{max}");
    }
    // An absolute queue with such a maximum takes its parent's (here the cluster).
    let conf = ok(&[
        ("root.queues", "a"),
        ("root.a.capacity", "[memory=4096,vcores=4]"),
        ("root.a.maximum-capacity", "[vcores=5]"),
    ]);
    let mut tree = QueueTree::new(Arc::new(conf));
    tree.update_cluster_resource(Resource::new(8192, 8));
    let c = tree.queue(tree.find("root.a").unwrap()).capacities;
    assert_eq!(c.effective_max.memory_mb(), 8192);
    // The same for a node label's maximum.
    let conf = ok(&[
        ("root.queues", "a"),
        ("root.a.capacity", "100"),
        ("root.accessible-node-labels.x.capacity", "100"),
        ("root.a.accessible-node-labels", "x"),
        ("root.a.accessible-node-labels.x.capacity", "100"),
        (
            "root.a.accessible-node-labels.x.maximum-capacity",
            "[vcores=5]",
        ),
    ]);
    let x = conf.queue("root.a").unwrap().labels.capacity("x");
    assert!(
        x.maximum_resource.is_none() && x.maximum_capacity == 1.0,
        "{x:?}"
    );
}

/// Issue 36.14: `capacity=50` beside `maximum-capacity=[memory=1024,vcores=1]` promised a
/// guarantee (51,200 MB on a 100 GB cluster) above its maximum, as the refused `capacity=50,
/// maximum-capacity=40` does. Refused in YARN's words for mixed modes; a 0 % guarantee with
/// an absolute maximum (a cap without a guarantee) stays valid.
#[test]
fn a_percentage_guarantee_beside_an_absolute_maximum_is_refused() {
    let e = errors(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
        ("root.a.maximum-capacity", "[memory=1024,vcores=1]"),
    ]);
    assert_error(
        &e,
        "Queue 'root.a' should use either percentage based capacity configuration or absolute resource.",
        Some("root.a"),
        Some("yarn.scheduler.capacity.root.a.maximum-capacity"),
    );
    ok(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "0"),
        ("root.b.capacity", "100"),
        ("root.a.maximum-capacity", "[memory=1024,vcores=1]"),
    ]);
}
