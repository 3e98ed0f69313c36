//! Flexible auto queue creation (YARN 3.4's auto-queue-creation-v2, docs/SEMANTICS.md
//! "Auto-created queues"), ported from Hadoop's TestCapacitySchedulerNewQueueAutoCreation and
//! TestAutoCreatedQueueDeletionPolicy: dynamic queues made at submission as weights among their
//! siblings, YARN's refusals, templates (wildcards included), refreshes, and deletion of idle
//! queues.

use std::sync::Arc;

use capsched::config::{CapacitySchedulerConfiguration, CapacityValue};
use capsched::ids::AppId;
use capsched::resource::Resource;
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;
use capsched::scheduler::CapacityScheduler;

const TS: i64 = 1410901177871;
const GB: i64 = 1024;

/// Hadoop's fixture: root.a (leaf a1) and root.b, all 1w; v2 on root, root.a and root.e (which
/// is not in the hierarchy: it applies once a queue of that path is made); one NodeManager of
/// 1200 GB.
fn fixture(extra: &str) -> String {
    format!(
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=1w
yarn.scheduler.capacity.root.b.capacity=1w
yarn.scheduler.capacity.root.a.queues=a1
yarn.scheduler.capacity.root.a.a1.capacity=1w
yarn.scheduler.capacity.root.auto-queue-creation-v2.enabled=true
yarn.scheduler.capacity.root.a.auto-queue-creation-v2.enabled=true
yarn.scheduler.capacity.root.e.auto-queue-creation-v2.enabled=true
yarn.scheduler.capacity.auto-queue-creation-v2.queue-expiration-time=1
{extra}"
    )
}

fn conf(text: &str) -> Arc<CapacitySchedulerConfiguration> {
    Arc::new(
        CapacitySchedulerConfiguration::from_properties_str(text).unwrap_or_else(|e| panic!("{e}")),
    )
}

fn scheduler(extra: &str) -> CapacityScheduler {
    let mut cs = CapacityScheduler::new(conf(&fixture(extra)), TS, 1);
    cs.add_node(
        0,
        &NodeSpec::new("h1", "/r1", Resource::new(1200 * GB, 1200)),
    )
    .unwrap();
    cs
}

fn submit_at(
    cs: &mut CapacityScheduler,
    now: i64,
    queue: &str,
    user: &str,
) -> Result<AppId, String> {
    let app = cs
        .submit_application(now, &AppSubmission::new(queue, user))
        .map_err(|r| r.message)?;
    cs.add_attempt(now, app, AttemptSubmission::with_am(Resource::new(1024, 1)))
        .unwrap();
    Ok(app)
}

fn submit(cs: &mut CapacityScheduler, queue: &str) -> Result<AppId, String> {
    submit_at(cs, 0, queue, "user_0")
}

/// (absolute capacity, weight, guaranteed memory in MB) of `path`.
fn caps(cs: &CapacityScheduler, path: &str) -> (f32, f32, i64) {
    let t = cs.queue_tree();
    let q = t.find(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let c = &t.queue(q).capacities;
    (c.absolute_capacity, c.weight, c.effective_min.memory_mb())
}

fn assert_caps(cs: &CapacityScheduler, path: &str, abs: f32, weight: f32, min_gb: f64) {
    let (a, w, m) = caps(cs, path);
    assert!(
        (a - abs).abs() < 1e-6,
        "{path}: absolute {a}, expected {abs}"
    );
    assert_eq!(w, weight, "{path}: weight");
    assert!(
        ((m as f64) - min_gb * GB as f64).abs() <= 1.0,
        "{path}: guaranteed {m} MB, expected {min_gb} GB"
    );
}

fn is_dynamic(cs: &CapacityScheduler, path: &str) -> bool {
    let t = cs.queue_tree();
    t.conf(t.find(path).unwrap()).dynamic
}

fn invariants(cs: &CapacityScheduler) {
    if let Err(e) = cs.check_invariants() {
        panic!("invariants: {e:?}");
    }
}

/// `createBasicQueueStructureAndValidate`.
fn basic(cs: &mut CapacityScheduler) {
    submit(cs, "root.c-auto").unwrap();
    assert_caps(cs, "root.c-auto", 1.0 / 3.0, 1.0, 400.0);
    let t = cs.queue_tree();
    let leaf = t.conf(t.find("root.c-auto").unwrap()).leaf.clone().unwrap();
    assert_eq!(leaf.user_limit_factor, -1.0);
    assert_eq!(leaf.maximum_am_resource_percent, 1.0);
    submit(cs, "root.d-auto").unwrap();
    assert_caps(cs, "root.d-auto", 0.25, 1.0, 300.0);
    assert_caps(cs, "root.c-auto", 0.25, 1.0, 300.0);
    submit(cs, "root.a.a2-auto").unwrap();
    assert_caps(cs, "root.a.a2-auto", 1.0 / 8.0, 1.0, 150.0);
    submit(cs, "root.e-auto.e1-auto").unwrap();
    assert_caps(cs, "root.e-auto", 0.2, 1.0, 240.0);
    assert_caps(cs, "root.e-auto.e1-auto", 0.2, 1.0, 240.0);
    assert!(is_dynamic(cs, "root.e-auto") && is_dynamic(cs, "root.e-auto.e1-auto"));
    invariants(cs);
}

#[test]
fn dynamic_queues_are_weights_among_their_siblings() {
    let mut cs = scheduler("");
    basic(&mut cs);
}

#[test]
fn a_parent_whose_children_are_not_weights_gets_no_dynamic_child() {
    let mut cs = scheduler("");
    let text = fixture("")
        .replace("root.a.capacity=1w", "root.a.capacity=50")
        .replace("root.b.capacity=1w", "root.b.capacity=50")
        .replace("root.a.a1.capacity=1w", "root.a.a1.capacity=100");
    cs.refresh_queues(0, conf(&text)).unwrap();
    let err = cs
        .submit_application(0, &AppSubmission::new("root.a.a2-auto", "u"))
        .unwrap_err()
        .message;
    // No placement rule named the queue: YARN logs why and calls it unknown.
    assert_eq!(
        err,
        "Application application_1410901177871_0001 submitted by user u to unknown queue: root.a.a2-auto"
    );
    assert!(cs.queue_tree().find("root.a.a2-auto").is_err());
}

#[test]
fn creation_stops_at_the_depth_limit_below_the_first_static_parent() {
    // Two levels below root.a by default: a parent and a leaf; not three.
    let mut cs = scheduler("");
    submit(&mut cs, "root.a.a3-auto.a4-auto").unwrap();
    assert!(submit(&mut cs, "root.a.x-auto.y-auto.z-auto").is_err());
    assert!(cs.queue_tree().find("root.a.x-auto").is_err());
    // Raised on root.a: three levels.
    let mut cs =
        scheduler("yarn.scheduler.capacity.root.a.auto-queue-creation-v2.maximum-queue-depth=3");
    submit(&mut cs, "root.a.a3-auto.a4-auto.a5-auto").unwrap();
    assert!(is_dynamic(&cs, "root.a.a3-auto.a4-auto"));
    // A depth set on a dynamic queue counts for nothing: root.a's limit applies.
    let mut cs = scheduler(
        "yarn.scheduler.capacity.auto-queue-creation-v2.maximum-queue-depth=3
yarn.scheduler.capacity.root.a.a6-auto.a7-auto.a8-auto.auto-queue-creation-v2.maximum-queue-depth=10",
    );
    submit(&mut cs, "root.a.a6-auto.a7-auto.a8-auto").unwrap();
    assert!(submit(&mut cs, "root.a.a6-auto.a7-auto.a8-auto.a9-auto.a10-auto").is_err());
    // Under a placement, the submitter reads why (depth 1 on root.a: the user's queue under
    // a new parent is two levels down).
    let mut cs = scheduler(
        "yarn.scheduler.capacity.root.a.auto-queue-creation-v2.maximum-queue-depth=1
yarn.scheduler.capacity.queue-mappings=u:%user:root.a.team.%user",
    );
    let err = submit_at(&mut cs, 0, "default", "alice").unwrap_err();
    assert_eq!(
        err,
        "Application application_1410901177871_0001 submission by user : alice to  queue : alice failed : \
         Could not auto create queue root.a.team.alice. The distance of the LeafQueue from the first static \
         ParentQueue is 2, which is above the limit."
    );
}

#[test]
fn a_queue_that_cannot_be_created_is_unknown_to_a_direct_submission() {
    let mut cs = scheduler("");
    // a1 is a static leaf; b creates no children; nothing above `x.y` exists.
    for q in ["root.a.a1.x", "root.b.x", "x.y"] {
        let err = submit(&mut cs, q).unwrap_err();
        assert!(
            err.ends_with(&format!("submitted by user user_0 to unknown queue: {q}")),
            "{err}"
        );
    }
    assert_eq!(cs.queue_tree().len(), 4);
    // root.e does not exist yet: it is made (a dynamic parent under root) with its leaf.
    submit(&mut cs, "root.e.x").unwrap();
    assert!(is_dynamic(&cs, "root.e") && is_dynamic(&cs, "root.e.x"));
}

#[test]
fn max_queues_counts_every_child() {
    let mut cs = scheduler("yarn.scheduler.capacity.root.e.auto-queue-creation-v2.max-queues=5");
    for i in 0..5 {
        submit(&mut cs, &format!("root.e.q_{i}")).unwrap();
    }
    // root.e was made a dynamic parent by the first; its limit is read on its own path.
    let mut cs2 = scheduler(
        "yarn.scheduler.capacity.root.e.auto-queue-creation-v2.max-queues=5
yarn.scheduler.capacity.queue-mappings=u:u6:root.e.q_6",
    );
    for i in 0..5 {
        submit(&mut cs2, &format!("root.e.q_{i}")).unwrap();
    }
    let err = submit_at(&mut cs2, 0, "default", "u6").unwrap_err();
    assert!(
        err.ends_with("Cannot auto create queue root.e.q_6. Max Child Queue limit exceeded which is configured as: 5 and number of child queues is: 5"),
        "{err}"
    );
    assert!(submit(&mut cs, "root.e.q_6").is_err());
}

#[test]
fn templates_configure_dynamic_queues_most_explicit_path_first() {
    let mut cs =
        scheduler("yarn.scheduler.capacity.root.a.*.auto-queue-creation-v2.template.capacity=6w");
    submit(&mut cs, "root.a.a-auto.a2").unwrap();
    let t = cs.queue_tree();
    let a2 = t.conf(t.find("root.a.a-auto.a2").unwrap());
    assert_eq!(a2.capacity, CapacityValue::Weight(6.0));
    assert_eq!(a2.leaf.as_ref().unwrap().user_limit_factor, -1.0);
    assert_eq!(a2.leaf.as_ref().unwrap().maximum_am_resource_percent, 1.0);
    // Templates apply again at a refresh.
    let more = "yarn.scheduler.capacity.root.a.*.auto-queue-creation-v2.template.capacity=6w
yarn.scheduler.capacity.root.a.*.auto-queue-creation-v2.template.user-limit-factor=10
yarn.scheduler.capacity.root.a.*.auto-queue-creation-v2.template.maximum-am-resource-percent=0.8";
    cs.refresh_queues(1, conf(&fixture(more))).unwrap();
    let t = cs.queue_tree();
    let a2 = t.conf(t.find("root.a.a-auto.a2").unwrap());
    assert_eq!(a2.capacity, CapacityValue::Weight(6.0));
    assert_eq!(a2.leaf.as_ref().unwrap().user_limit_factor, 10.0);
    assert_eq!(a2.leaf.as_ref().unwrap().maximum_am_resource_percent, 0.8);
    // The queue's own key beats every template.
    let own = format!("{more}\nyarn.scheduler.capacity.root.a.a-auto.a2.capacity=4w");
    cs.refresh_queues(2, conf(&fixture(&own))).unwrap();
    let t = cs.queue_tree();
    assert_eq!(
        t.conf(t.find("root.a.a-auto.a2").unwrap()).capacity,
        CapacityValue::Weight(4.0)
    );
    assert!(is_dynamic(&cs, "root.a.a-auto.a2"));
    invariants(&cs);
}

#[test]
fn a_refresh_keeps_dynamic_queues_and_a_listed_one_becomes_static() {
    let mut cs = scheduler("");
    basic(&mut cs);
    cs.refresh_queues(1, conf(&fixture(""))).unwrap();
    let root = cs.queue_tree().find("root").unwrap();
    assert_eq!(cs.queue_tree().children(root).len(), 5);
    // root.a at 6w: 6 of 10.
    let text = fixture("").replace("root.a.capacity=1w", "root.a.capacity=6w");
    cs.refresh_queues(2, conf(&text)).unwrap();
    assert_caps(&cs, "root.a", 0.6, 6.0, 720.0);
    // c-auto listed in root's queues: static now, with its own weight.
    let text = text.replace("root.queues=a,b", "root.queues=a,b,c-auto")
        + "\nyarn.scheduler.capacity.root.c-auto.capacity=6w";
    cs.refresh_queues(3, conf(&text)).unwrap();
    assert_caps(&cs, "root.c-auto", 6.0 / 15.0, 6.0, 480.0);
    assert!(!is_dynamic(&cs, "root.c-auto"));
    invariants(&cs);
}

#[test]
fn idle_dynamic_queues_are_deleted_leaves_first_when_the_monitor_runs_the_policy() {
    let policy = "yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.scheduler.monitor.policies=org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AutoCreatedQueueDeletionPolicy";
    let mut cs = scheduler(policy);
    let app = submit_at(&mut cs, 1_000, "root.a.a1-auto.a2-auto", "user_0").unwrap();
    assert_eq!(cs.dynamic_queue_expiration_s(), 1);
    // Running: nothing goes, however long.
    for t in [3_000, 5_000, 7_000] {
        assert!(cs.run_queue_deletion(t).is_empty());
    }
    cs.remove_application(8_000, app).unwrap();
    // Eligible in two rounds in a row, and idle for more than a second: the leaf goes.
    assert!(cs.run_queue_deletion(9_000).is_empty());
    assert_eq!(
        cs.run_queue_deletion(10_000),
        vec!["root.a.a1-auto.a2-auto"]
    );
    invariants(&cs);
    // Then its parent, childless now, two rounds later.
    assert!(cs.run_queue_deletion(11_000).is_empty());
    assert_eq!(cs.run_queue_deletion(12_000), vec!["root.a.a1-auto"]);
    assert!(cs.queue_tree().find("root.a.a1-auto").is_err());
    // The siblings take the room back: a1 alone under root.a.
    assert_caps(&cs, "root.a.a1", 0.5, 1.0, 600.0);
    invariants(&cs);
}

#[test]
fn a_template_can_keep_dynamic_queues_from_being_deleted() {
    let mut cs = scheduler(
        "yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.scheduler.monitor.policies=AutoCreatedQueueDeletionPolicy
yarn.scheduler.capacity.root.a.auto-queue-creation-v2.template.auto-queue-creation-v2.queue-auto-removal.enable=false",
    );
    let app = submit_at(&mut cs, 0, "root.a.a3", "user_0").unwrap();
    cs.remove_application(0, app).unwrap();
    for t in [10_000, 20_000, 30_000] {
        assert!(cs.run_queue_deletion(t).is_empty());
    }
    assert!(cs.queue_tree().find("root.a.a3").is_ok());
}

#[test]
fn a_user_mapping_under_a_flexible_parent_creates_the_users_queue() {
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=u:%user:root.a.%user");
    let app = submit_at(&mut cs, 0, "default", "alice").unwrap();
    assert_eq!(cs.app_report(app).unwrap().queue, "root.a.alice");
    assert!(is_dynamic(&cs, "root.a.alice"));
    assert_caps(&cs, "root.a.alice", 0.25, 1.0, 300.0);
    // A mapping under a parent that creates nothing is refused when it is loaded.
    let err = CapacitySchedulerConfiguration::from_properties_str(&fixture(
        "yarn.scheduler.capacity.queue-mappings=u:%user:root.b.%user",
    ))
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("does not have auto creation of leaf queues enabled [root.b]"),
        "{err}"
    );
}

#[test]
fn the_rest_document_says_how_each_queue_was_made_and_what_it_creates() {
    let mut cs = scheduler(
        "yarn.scheduler.capacity.root.a.auto-queue-creation-v2.leaf-template.capacity=3w
yarn.scheduler.capacity.root.a.auto-queue-creation-v2.template.maximum-capacity=50",
    );
    submit(&mut cs, "root.a.x").unwrap();
    let doc = capsched::report::rest::scheduler_info_json(cs.queue_tree());
    let doc = &doc["scheduler"]["schedulerInfo"];
    let find = |path: &str| -> serde_json::Value {
        let mut stack = vec![doc.clone()];
        while let Some(v) = stack.pop() {
            if v["queuePath"] == path {
                return v;
            }
            if let Some(qs) = v["queues"]["queue"].as_array() {
                stack.extend(qs.iter().cloned());
            }
        }
        panic!("{path} not in {doc}");
    };
    let a = find("root.a");
    assert_eq!(a["creationMethod"], "static");
    assert_eq!(a["autoCreationEligibility"], "flexible");
    assert_eq!(
        a["autoQueueLeafTemplateProperties"],
        serde_json::json!({"property": [{"name": "capacity", "value": "3w"}]})
    );
    assert_eq!(
        a["autoQueueTemplateProperties"],
        serde_json::json!({"property": [{"name": "maximum-capacity", "value": "50"}]})
    );
    let x = find("root.a.x");
    assert_eq!(x["creationMethod"], "dynamicFlexible");
    assert_eq!(x["autoCreationEligibility"], "off");
    assert_eq!(x["isAutoCreatedLeafQueue"], false);
    assert_eq!(x["weight"], 3.0);
    assert_eq!(x["maxCapacity"], 50.0);
    assert_eq!(find("root.b")["autoCreationEligibility"], "off");
}

#[test]
fn queues_made_one_by_one_give_the_configuration_a_full_read_gives() {
    let mut cs = scheduler(
        "yarn.scheduler.capacity.root.a.*.auto-queue-creation-v2.template.capacity=6w
yarn.scheduler.capacity.root.auto-queue-creation-v2.leaf-template.maximum-capacity=50",
    );
    for q in [
        "root.c-auto",
        "root.a.a2-auto",
        "root.e-auto.e1-auto",
        "root.d-auto",
        "root.e-auto.e2-auto",
        "root.a.x.y",
    ] {
        submit(&mut cs, q).unwrap();
        let conf = cs.configuration();
        let full = conf
            .with_created_queues(
                conf.auto_created_leaves().to_vec(),
                conf.dynamic_queues().to_vec(),
            )
            .unwrap();
        assert_eq!(conf.queues(), full.queues(), "after {q}");
        assert_eq!(conf.dynamic_queues(), full.dynamic_queues());
    }
    invariants(&cs);
}

#[test]
fn application_caps_follow_each_dynamic_queues_capacity_as_in_test_max_app_update() {
    // testAutoQueueCreationMaxAppUpdate: (int)(10000 × abs) each; the global per-queue cap
    // replaces it; a queue's own key wins.
    let mut cs = scheduler("");
    submit(&mut cs, "root.e").unwrap();
    let apps = |cs: &CapacityScheduler, p: &str| {
        let t = cs.queue_tree();
        let q = t.find(p).unwrap();
        (
            t.queue(q).leaf.unwrap().max_applications,
            t.queue(q).capacities.absolute_capacity,
        )
    };
    for p in ["root.e", "root.a.a1", "root.b"] {
        let (n, abs) = apps(&cs, p);
        assert!(
            (n - (10000.0 * abs) as i32).abs() <= 1,
            "{p}: {n} for {abs}"
        );
    }
    // root.e is a dynamic leaf (root.e's v2 key notwithstanding: the last level is a leaf).
    assert!(cs
        .queue_tree()
        .is_leaf(cs.queue_tree().find("root.e").unwrap()));
    cs.refresh_queues(
        1,
        conf(&fixture(
            "yarn.scheduler.capacity.global-queue-max-application=1000",
        )),
    )
    .unwrap();
    for p in ["root.e", "root.a.a1", "root.b"] {
        assert_eq!(apps(&cs, p).0, 1000, "{p}");
    }
    let own = "yarn.scheduler.capacity.global-queue-max-application=1000
yarn.scheduler.capacity.root.e1.maximum-applications=50";
    cs.refresh_queues(2, conf(&fixture(own))).unwrap();
    submit(&mut cs, "root.e1").unwrap();
    assert_eq!(apps(&cs, "root.e1").0, 50);
}

#[test]
fn deletion_gives_the_room_back_to_the_siblings_as_in_test_auto_create_queue_after_removal() {
    // testAutoCreateQueueAfterRemoval, through the deletion policy: e1 goes (e back to 1/5),
    // then e (d back to 1/4), then d (c to 1/3), then c (b to 1/2).
    let mut cs = scheduler(
        "yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.scheduler.monitor.policies=AutoCreatedQueueDeletionPolicy",
    );
    let mut apps = Vec::new();
    for q in [
        "root.c-auto",
        "root.d-auto",
        "root.a.a2-auto",
        "root.e-auto.e1-auto",
    ] {
        apps.push(submit(&mut cs, q).unwrap());
    }
    for a in apps {
        cs.remove_application(0, a).unwrap();
    }
    let mut now = 10_000;
    let mut gone = Vec::new();
    while gone.len() < 5 && now < 100_000 {
        gone.extend(cs.run_queue_deletion(now));
        now += 1_000;
    }
    // Leaves first, parents after their children; every dynamic queue goes in the end.
    assert_eq!(gone.len(), 5, "{gone:?}");
    let e1 = gone
        .iter()
        .position(|p| p == "root.e-auto.e1-auto")
        .unwrap();
    let e = gone.iter().position(|p| p == "root.e-auto").unwrap();
    assert!(e1 < e);
    assert_caps(&cs, "root.b", 0.5, 1.0, 600.0);
    assert_caps(&cs, "root.a", 0.5, 1.0, 600.0);
    invariants(&cs);
}

#[test]
fn an_ambiguous_short_parent_is_refused_and_full_paths_may_repeat_names() {
    // testAutoCreateQueueWithAmbiguousNonFullPathParentName and
    // testAutoCreateQueueIfAmbiguousQueueNames.
    let mut cs = scheduler("");
    submit(&mut cs, "root.a.b.b").unwrap();
    assert!(is_dynamic(&cs, "root.a.b") && is_dynamic(&cs, "root.a.b.b"));
    let t = cs.queue_tree();
    assert!(!t.is_leaf(t.find("root.a.b").unwrap()));
    // `b` now names three queues: a short name under it cannot be a parent.
    let err = cs
        .submit_application(0, &AppSubmission::new("b.x", "u"))
        .unwrap_err()
        .message;
    assert!(err.ends_with("to unknown queue: b.x"), "{err}");
    assert!(cs.queue_tree().find("root.a.b.x").is_err());
}

#[test]
fn dynamic_queues_take_states_from_the_file_as_in_test_auto_create_queue_state() {
    let mut cs = scheduler("");
    submit(&mut cs, "root.e.e1").unwrap();
    let state = |cs: &CapacityScheduler, p: &str| {
        let t = cs.queue_tree();
        t.queue(t.find(p).unwrap()).state
    };
    let stopped = "yarn.scheduler.capacity.root.e.state=STOPPED
yarn.scheduler.capacity.root.e.e1.state=STOPPED";
    // Stopping a queue with applications drains it; e1 has one, so both drain.
    cs.refresh_queues(1, conf(&fixture(stopped))).unwrap();
    assert_eq!(
        state(&cs, "root.e.e1"),
        capsched::config::QueueState::Draining
    );
    // Running again: the file says so.
    cs.refresh_queues(2, conf(&fixture(""))).unwrap();
    assert_eq!(
        state(&cs, "root.e.e1"),
        capsched::config::QueueState::Running
    );
    assert_eq!(state(&cs, "root.e"), capsched::config::QueueState::Running);
}
