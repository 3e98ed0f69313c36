//! Refusal messages begin with Hadoop 3.3.6's sentence (the ResourceManager capsched runs in),
//! and capsched's context follows: YARN 3.4's fuller sentence where it says more, then the
//! queue and the key (docs/CONFIGURATION.md, "Refusal messages").

mod common;
use std::sync::Arc;

use capsched::config::{CapacitySchedulerConfiguration, ConfigError};
use common::cluster::*;
use common::*;

/// The first error's message, which must begin with `yarn336`; returns the error.
fn first_begins_with(pairs: &[(&str, &str)], yarn336: &str) -> ConfigError {
    let e = errors(pairs);
    let first = e.first().clone();
    assert!(
        first.message.starts_with(yarn336),
        "expected {yarn336:?} first, got:\n{e}"
    );
    first
}

#[test]
fn a_children_sum_of_120_is_yarns_illegal_capacity_of_1_2() {
    let e = first_begins_with(
        &[
            ("root.queues", "a,b"),
            ("root.a.capacity", "60"),
            ("root.b.capacity", "60"),
        ],
        "Illegal capacity of 1.2 for children of queue root",
    );
    assert_eq!(
        e.to_string(),
        "Illegal capacity of 1.2 for children of queue root. It should be either 0 or 1.0 \
         (queue root, key yarn.scheduler.capacity.root.queues)"
    );
}

#[test]
fn the_zero_sum_refusals_begin_with_yarns_sentence_too() {
    // A parent with a capacity, children with none (3.3.6 has no allow-zero-capacity-sum).
    let e = first_begins_with(
        &[
            ("root.queues", "a,b"),
            ("root.a.capacity", "50"),
            ("root.b.capacity", "50"),
            ("root.a.queues", "x"),
            ("root.a.x.capacity", "0"),
        ],
        "Illegal capacity of 0.0 for children of queue a",
    );
    assert!(
        e.message
            .ends_with("doesn't allow children capacity to set to 0"),
        "{e}"
    );
    // A parent with none, children with some.
    first_begins_with(
        &[
            ("root.queues", "a,b"),
            ("root.a.capacity", "0"),
            ("root.b.capacity", "100"),
            ("root.a.queues", "x"),
            ("root.a.x.capacity", "100"),
        ],
        "Illegal capacity of 1.0 for children of queue a",
    );
}

#[test]
fn a_label_sum_is_yarns_illegal_capacity_for_label() {
    let e = first_begins_with(
        &[
            ("root.queues", "a,b"),
            ("root.accessible-node-labels", "x"),
            ("root.accessible-node-labels.x.capacity", "100"),
            ("root.a.capacity", "50"),
            ("root.b.capacity", "50"),
            ("root.a.accessible-node-labels", "x"),
            ("root.b.accessible-node-labels", "x"),
            ("root.a.accessible-node-labels.x.capacity", "60"),
            ("root.b.accessible-node-labels.x.capacity", "60"),
        ],
        "Illegal capacity of 1.2 for children of queue root for label=x",
    );
    assert_eq!(
        e.message,
        "Illegal capacity of 1.2 for children of queue root for label=x. It should be either 0 or 1.0"
    );
}

#[test]
fn a_capacity_out_of_range_is_yarns_illegal_capacity_for_queue() {
    first_begins_with(
        &[
            ("root.queues", "a,b"),
            ("root.a.capacity", "120"),
            ("root.b.capacity", "0"),
        ],
        "Illegal capacity of 120.0 for queue root.a",
    );
    let e = errors(&[
        ("root.queues", "a"),
        ("root.a.capacity", "100"),
        ("root.a.accessible-node-labels.x.capacity", "101"),
    ]);
    assert!(
        e.iter().any(|e| e.message.starts_with(
            "Illegal capacity of 101.0 for node-label=x in queue=root.a, valid capacity should in range of [0, 100]."
        )),
        "{e}"
    );
}

#[test]
fn a_maximum_below_the_capacity_is_yarns_illegal_queue_capacity_setting() {
    first_begins_with(
        &[
            ("root.queues", "a,b"),
            ("root.a.capacity", "50"),
            ("root.b.capacity", "50"),
            ("root.a.maximum-capacity", "40"),
        ],
        "Illegal queue capacity setting (abs-capacity=0.5) > (abs-maximum-capacity=0.4) for queue=[root.a],label=[]",
    );
}

#[test]
fn absolute_and_percentage_mixes_begin_with_yarns_sentence() {
    // A parent with a percentage and an absolute child (3.3.6's first check), here beside a
    // percentage sibling: YARN 3.4's mixed-modes message follows.
    let e = first_begins_with(
        &[
            ("root.queues", "p,q"),
            ("root.p.capacity", "50"),
            ("root.q.capacity", "50"),
            ("root.p.queues", "x,y"),
            ("root.p.x.capacity", "[memory=1024,vcores=1]"),
            ("root.p.y.capacity", "50"),
        ],
        "Parent queue 'root.p' and child queue 'root.p.x' should use either percentage based capacity \
         configuration or absolute resource together. Parent queue 'root.p' have children queue used mixed of",
    );
    assert_eq!(
        e.key.as_deref(),
        Some("yarn.scheduler.capacity.root.p.queues")
    );
    // An absolute parent (a percentage of 0 to 3.3.6) with percentage children: 3.3.6's sum check.
    first_begins_with(
        &[
            ("root.queues", "p"),
            ("root.p.capacity", "[memory=4096,vcores=4]"),
            ("root.p.queues", "x,y"),
            ("root.p.x.capacity", "50"),
            ("root.p.y.capacity", "50"),
        ],
        "Illegal capacity of 1.0 for children of queue p. Parent=root.p: When absolute minResource is used",
    );
    // An absolute parent with children of no capacity, and a parent of no capacity with an
    // absolute child: 3.3.6's per-partition type check (its words lack a space).
    first_begins_with(
        &[
            ("root.queues", "p"),
            ("root.p.capacity", "[memory=4096,vcores=4]"),
            ("root.p.queues", "x"),
        ],
        "Parent queue 'root.p' and child queue 'root.p.x' should use either percentage based \
         capacityconfiguration or absolute resource together for label:. Parent=root.p:",
    );
    first_begins_with(
        &[
            ("root.queues", "p,q"),
            ("root.q.capacity", "100"),
            ("root.p.queues", "x"),
            ("root.p.x.capacity", "[memory=1024,vcores=1]"),
        ],
        "Parent queue 'root.p' and child queue 'root.p.x' should use either percentage based \
         capacityconfiguration or absolute resource together for label:. Parent=root.p:",
    );
    // 3.3.6 refuses this too (to it a child with no capacity is of the percentage type);
    // capsched lets such a child take any mode (docs/CONFIGURATION.md, "Refusal messages").
    ok(&[
        ("root.queues", "p"),
        ("root.p.capacity", "[memory=4096,vcores=4]"),
        ("root.p.queues", "x,y"),
        ("root.p.x.capacity", "[memory=1024,vcores=1]"),
    ]);
    // Under root 3.3.6 has no such check (it accepts the mix): YARN 3.4's words alone.
    first_begins_with(
        &[
            ("root.queues", "a,b"),
            ("root.a.capacity", "50"),
            ("root.b.capacity", "[memory=1024,vcores=1]"),
        ],
        "Parent queue 'root' have children queue used mixed of  weight mode, percentage and absolute mode",
    );
}

#[test]
fn absolute_bounds_name_the_queue_by_its_path_as_yarn_does() {
    first_begins_with(
        &[
            ("root.queues", "a"),
            ("root.a.capacity", "[memory=4096,vcores=4]"),
            ("root.a.maximum-capacity", "[memory=2048,vcores=4]"),
        ],
        "Min resource configuration <memory:4096, vCores:4> is greater than its max value:<memory:2048, vCores:4> in queue:root.a",
    );
    first_begins_with(
        &[
            ("root.queues", "p"),
            ("root.p.capacity", "[memory=4096,vcores=4]"),
            ("root.p.maximum-capacity", "[memory=4096,vcores=4]"),
            ("root.p.queues", "x"),
            ("root.p.x.capacity", "[memory=1024,vcores=1]"),
            ("root.p.x.maximum-capacity", "[memory=8192,vcores=4]"),
        ],
        "Max resource configuration <memory:8192, vCores:4> is greater than parents max value:<memory:4096, vCores:4> in queue:root.p.x",
    );
    // Long.valueOf's words for a value that is not a whole number, then which value.
    let e = first_begins_with(
        &[("root.queues", "a"), ("root.a.capacity", "[memory=1.5Gi]")],
        "For input string: \"1.5\"",
    );
    assert_eq!(
        e.message,
        "For input string: \"1.5\" (the absolute resource value '1.5Gi' for resource 'memory' in '[memory=1.5Gi]')"
    );
}

#[test]
fn label_and_user_weight_messages_print_as_yarn_prints() {
    // StringUtils.join(diff, ","): no space between the labels.
    let e = errors(&[
        ("root.queues", "a"),
        ("root.a.capacity", "100"),
        ("root.a.accessible-node-labels", "x"),
        ("root.a.queues", "l"),
        ("root.a.l.capacity", "100"),
        ("root.a.l.accessible-node-labels", "x,y,z"),
    ]);
    assert!(
        e.iter().any(|e| e.message
            == "Some labels of child queue is not a subset of parent queue, these labels=[y,z]"),
        "{e}"
    );
    // 3.3.6 reads the user limit as an int and prints it so.
    first_begins_with(
        &[
            ("root.queues", "a"),
            ("root.a.capacity", "100"),
            ("root.a.minimum-user-limit-percent", "25"),
            ("root.a.user-settings.alice.weight", "5"),
        ],
        "Weight (5.0) for user \"alice\" must be between 0 and 100 / 25 (= 4.0, the number of \
         concurrent active users in root.a)",
    );
}

fn conf(text: &str) -> Arc<CapacitySchedulerConfiguration> {
    Arc::new(CapacitySchedulerConfiguration::from_properties_str(text).unwrap())
}

const AB: &str = "\
yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
";

#[test]
fn a_refresh_removing_a_running_queue_is_refused_in_yarns_words() {
    let mut c = Cluster::new(AB);
    let err = c
        .cs
        .refresh_queues(
            c.now,
            conf("yarn.scheduler.capacity.root.queues=a\nyarn.scheduler.capacity.root.a.capacity=100\n"),
        )
        .unwrap_err();
    assert!(
        err.to_string().starts_with(
            "root.b cannot be deleted from the capacity scheduler configuration, as the queue is not \
             yet in stopped state. Current State : RUNNING"
        ),
        "{err}"
    );
}

#[test]
fn a_refresh_reports_yarns_hierarchy_refusal_before_any_other() {
    // YARN 3.3.6 validates the hierarchy before it reinitialises a leaf: b's removal is
    // reported, not a's smaller maximum allocation.
    let mut c = Cluster::new(AB);
    let err =
        c.cs.refresh_queues(
            c.now,
            conf(
                "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.root.a.maximum-allocation-mb=4096
",
            ),
        )
        .unwrap_err();
    assert!(
        err.to_string().starts_with("root.b cannot be deleted"),
        "{err}"
    );
    // A parent made a leaf while its child has an application: 3.3.6 refuses the child's
    // removal; capsched's own refusal (applications in the parent) is not the one reported.
    let mut c = Cluster::new(
        "yarn.scheduler.capacity.root.queues=p,b
yarn.scheduler.capacity.root.p.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.p.queues=x
yarn.scheduler.capacity.root.p.x.capacity=100
",
    );
    c.node("h0", "/r", 8 * GB, 8);
    c.app("x", "alice", GB);
    let err =
        c.cs.refresh_queues(
            c.now,
            conf(AB.replace("a,b", "p,b").replace(".a.", ".p.").as_str()),
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "root.p.x cannot be deleted from the capacity scheduler configuration, as the queue is not \
         yet in stopped state. Current State : RUNNING"
    );
    c.check();
}
