//! Queue placement (YARN 3.3's user-group and app-name rules, docs/SEMANTICS.md "Queue
//! placement"): which queue a submission lands in, the rejections with YARN's words, and the
//! configuration checks the rules make when they are installed.

use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::scheduler::apps::AppSubmission;
use capsched::scheduler::CapacityScheduler;

const TS: i64 = 1410901177871;

/// root.a (leaves a1, a2), root.b (leaves b1, alice), root.eng (leaves alice, carol): `alice`
/// is ambiguous as a short name.
fn conf(extra: &str) -> Result<CapacitySchedulerConfiguration, String> {
    let text = format!(
        "yarn.scheduler.capacity.root.queues=a,b,eng
yarn.scheduler.capacity.root.a.capacity=40
yarn.scheduler.capacity.root.b.capacity=40
yarn.scheduler.capacity.root.eng.capacity=20
yarn.scheduler.capacity.root.a.queues=a1,a2
yarn.scheduler.capacity.root.a.a1.capacity=50
yarn.scheduler.capacity.root.a.a2.capacity=50
yarn.scheduler.capacity.root.b.queues=b1,alice
yarn.scheduler.capacity.root.b.b1.capacity=50
yarn.scheduler.capacity.root.b.alice.capacity=50
yarn.scheduler.capacity.root.eng.queues=alice,carol
yarn.scheduler.capacity.root.eng.alice.capacity=50
yarn.scheduler.capacity.root.eng.carol.capacity=50
{extra}"
    );
    CapacitySchedulerConfiguration::from_properties_str(&text).map_err(|e| e.to_string())
}

fn scheduler(extra: &str) -> CapacityScheduler {
    let c = conf(extra).unwrap_or_else(|e| panic!("{e}"));
    CapacityScheduler::new(Arc::new(c), TS, 1)
}

/// The leaf a submission lands in, or the rejection's message.
fn submit(
    cs: &mut CapacityScheduler,
    queue: &str,
    user: &str,
    groups: &[&str],
    app_name: Option<&str>,
) -> Result<String, String> {
    let mut sub = AppSubmission::new(queue, user);
    sub.groups = groups.iter().map(|g| g.to_string()).collect();
    sub.app_name = app_name.map(str::to_string);
    match cs.submit_application(0, &sub) {
        Ok(app) => Ok(cs.app_report(app).expect("submitted").queue),
        Err(r) => Err(r.message),
    }
}

#[test]
fn a_user_mapping_sends_default_submissions_to_the_mapped_queue() {
    // The example: with u:alice:b1 alice's submission to default (a queue that does
    // not exist here) lands in b1.
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=u:alice:b1");
    assert_eq!(
        submit(&mut cs, "default", "alice", &[], None).unwrap(),
        "root.b.b1"
    );
    // Another user is not mapped: default does not exist.
    assert_eq!(
        submit(&mut cs, "default", "bob", &[], None).unwrap_err(),
        "Application application_1410901177871_0002 submitted by user bob to unknown queue: default"
    );
    // A queue named in the submission wins without the override…
    assert_eq!(
        submit(&mut cs, "a1", "alice", &[], None).unwrap(),
        "root.a.a1"
    );
    // …and a submission naming the mapped queue itself is placed there.
    assert_eq!(
        submit(&mut cs, "b1", "alice", &[], None).unwrap(),
        "root.b.b1"
    );
}

#[test]
fn with_the_override_a_mapping_wins_over_the_queue_the_submission_names() {
    let mut cs = scheduler(
        "yarn.scheduler.capacity.queue-mappings=u:alice:b1
yarn.scheduler.capacity.queue-mappings-override.enable=true",
    );
    assert_eq!(
        submit(&mut cs, "a1", "alice", &[], None).unwrap(),
        "root.b.b1"
    );
    assert_eq!(
        submit(&mut cs, "a1", "bob", &[], None).unwrap(),
        "root.a.a1"
    );
}

#[test]
fn the_first_mapping_that_concerns_the_user_decides() {
    // u:%user:%user answers for every user, even with none (carol has a queue, dave not);
    // the group mapping after it is never reached.
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=u:%user:%user,g:eng:a2");
    assert_eq!(
        submit(&mut cs, "default", "carol", &["eng"], None).unwrap(),
        "root.eng.carol"
    );
    assert_eq!(
        submit(&mut cs, "default", "dave", &["eng"], None).unwrap_err(),
        "Application application_1410901177871_0002 submitted by user dave to unknown queue: default"
    );
    // A user mapping for someone else is skipped; a group mapping then applies.
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=u:zoe:a1,g:eng:a2");
    assert_eq!(
        submit(&mut cs, "default", "dave", &["staff", "eng"], None).unwrap(),
        "root.a.a2"
    );
}

#[test]
fn an_ambiguous_user_queue_is_refused_with_yarns_reason() {
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=u:%user:%user");
    assert_eq!(
        submit(&mut cs, "default", "alice", &[], None).unwrap_err(),
        "Failed to submit application application_1410901177871_0001 submitted by user alice \
         reason: mapping contains ambiguous leaf queue reference alice"
    );
    // Qualified by its parent the mapping is valid, but YARN 3.3 copies only the leaf name into
    // the submission and looks it up by that name: still ambiguous, so the scheduler tries to
    // create it under the parent, which does not create leaves. (A dynamic target under a
    // named parent, `u:%user:root.eng.%user`, needs such a parent to be valid at all.)
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=u:alice:root.eng.alice");
    assert_eq!(
        submit(&mut cs, "default", "alice", &[], None).unwrap_err(),
        "Application application_1410901177871_0001 submission by user : alice to  queue : alice \
         failed : Could not auto-create leaf queue for alice. Queue mapping specifies an invalid \
         parent queue which does not exist root.eng"
    );
    // A unique leaf under its parent is placed.
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=u:alice:root.eng.carol");
    assert_eq!(
        submit(&mut cs, "default", "alice", &[], None).unwrap(),
        "root.eng.carol"
    );
}

#[test]
fn group_mappings_use_the_hosts_groups() {
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=g:eng:b1");
    assert_eq!(
        submit(&mut cs, "default", "dave", &["staff", "eng"], None).unwrap(),
        "root.b.b1"
    );
    // Groups.getGroups fails for a user with none, and the submission with it.
    assert_eq!(
        submit(&mut cs, "default", "dave", &[], None).unwrap_err(),
        "Failed to submit application application_1410901177871_0002 submitted by user dave \
         reason: No groups found for user dave"
    );
    // g:…:%user: the user's own queue.
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=g:eng:%user");
    assert_eq!(
        submit(&mut cs, "default", "carol", &["eng"], None).unwrap(),
        "root.eng.carol"
    );
}

#[test]
fn primary_and_secondary_group_mappings() {
    // %primary_group: the first group's queue.
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=u:%user:%primary_group");
    assert_eq!(
        submit(&mut cs, "default", "dave", &["b1", "a1"], None).unwrap(),
        "root.b.b1"
    );
    // %secondary_group: the first other group that names a queue.
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=u:%user:%secondary_group");
    assert_eq!(
        submit(
            &mut cs,
            "default",
            "dave",
            &["staff", "nope", "a2", "a1"],
            None
        )
        .unwrap(),
        "root.a.a2"
    );
    // None names a queue: no placement.
    assert!(submit(&mut cs, "default", "dave", &["staff", "nope"], None)
        .unwrap_err()
        .ends_with("to unknown queue: default"));
    // u:%user:%primary_group.%user: the user's leaf under the primary group's queue.
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=u:%user:%primary_group.%user");
    assert_eq!(
        submit(&mut cs, "default", "carol", &["eng"], None).unwrap(),
        "root.eng.carol"
    );
    // Without that leaf (and with no parent that creates leaves) the rule fails the submission.
    assert_eq!(
        submit(&mut cs, "default", "dave", &["eng"], None).unwrap_err(),
        "Failed to submit application application_1410901177871_0002 submitted by user dave \
         reason: mapping contains invalid or non-leaf queue  and no managed parent is found: root.eng.dave"
    );
    // A group with no queue: no placement.
    assert!(submit(&mut cs, "default", "carol", &["staff"], None)
        .unwrap_err()
        .ends_with("to unknown queue: default"));
}

#[test]
fn application_name_mappings_follow_the_rule_order() {
    let both = "yarn.scheduler.queue-placement-rules.app-name=etl:b1
yarn.scheduler.capacity.queue-mappings=u:alice:a1";
    // user-group alone is the default rule: the app-name mappings are not consulted.
    let mut cs = scheduler(both);
    assert_eq!(
        submit(&mut cs, "default", "alice", &[], Some("etl")).unwrap(),
        "root.a.a1"
    );
    // app-name first: etl goes to b1, any other name falls through to alice's mapping.
    let mut cs = scheduler(&format!(
        "{both}\nyarn.scheduler.queue-placement-rules=app-name,user-group"
    ));
    assert_eq!(
        submit(&mut cs, "default", "alice", &[], Some("etl")).unwrap(),
        "root.b.b1"
    );
    assert_eq!(
        submit(&mut cs, "default", "alice", &[], Some("other")).unwrap(),
        "root.a.a1"
    );
    // With no name the application is YARN's "N/A".
    let mut cs = scheduler(
        "yarn.scheduler.queue-placement-rules=app-name
yarn.scheduler.queue-placement-rules.app-name=N/A:a2",
    );
    assert_eq!(
        submit(&mut cs, "default", "bob", &[], None).unwrap(),
        "root.a.a2"
    );
}

#[test]
fn a_recovered_application_keeps_its_queue() {
    let mut cs = scheduler(
        "yarn.scheduler.capacity.queue-mappings=u:alice:b1
yarn.scheduler.capacity.queue-mappings-override.enable=true",
    );
    let mut sub = AppSubmission::new("a1", "alice");
    sub.recovering = true;
    let app = cs.submit_application(0, &sub).unwrap();
    assert_eq!(cs.app_report(app).unwrap().queue, "root.a.a1");
}

#[test]
fn mappings_are_checked_when_the_configuration_is_read() {
    let err = |extra: &str| conf(extra).unwrap_err();
    assert!(err("yarn.scheduler.capacity.queue-mappings=u:alice")
        .contains("Illegal queue mapping u:alice"));
    assert!(err("yarn.scheduler.capacity.queue-mappings=x:alice:b1")
        .contains("Illegal queue mapping x:alice:b1"));
    assert!(
        err("yarn.scheduler.capacity.queue-mappings=u::b1").contains("Illegal queue mapping u::b1")
    );
    assert!(err("yarn.scheduler.capacity.queue-mappings=u:alice:nope")
        .contains("mapping contains invalid or non-leaf queue nope"));
    assert!(err("yarn.scheduler.capacity.queue-mappings=u:alice:root.a")
        .contains("mapping contains invalid or non-leaf queue : root.a"));
    assert!(err("yarn.scheduler.capacity.queue-mappings=u:bob:alice")
        .contains("mapping contains ambiguous leaf queue reference alice"));
    // A leaf under a parent that does not create leaves.
    assert!(err("yarn.scheduler.capacity.queue-mappings=u:%user:root.a.%user").contains(
        "mapping contains leaf queue [%user] and invalid parent queue which does not have auto \
         creation of leaf queues enabled [root.a]"
    ));
    assert!(
        err("yarn.scheduler.capacity.queue-mappings=u:bob:root.nope.x").contains(
            "mapping contains invalid or non-leaf queue [x] and invalid parent queue [root.nope]"
        )
    );
    assert!(
        err("yarn.scheduler.queue-placement-rules=user-group,user-group")
            .contains("Invalid PlacementRule inputs which contains duplicate rule strings")
    );
    assert!(
        err("yarn.scheduler.queue-placement-rules=com.example.MyRule")
            .contains("java.lang.ClassNotFoundException: com.example.MyRule")
    );
    assert!(err("yarn.scheduler.queue-placement-rules=app-name
yarn.scheduler.queue-placement-rules.app-name=etl")
    .contains("Illegal queue mapping etl"));
    // Only the rules in force are checked: a bad app-name mapping is ignored while only
    // user-group is named (YARN never initialises the app-name rule then).
    assert!(conf("yarn.scheduler.queue-placement-rules.app-name=etl:nope").is_ok());
    // Group-qualified and %user targets are checked at submission, not here.
    assert!(conf(
        "yarn.scheduler.capacity.queue-mappings=u:%user:%primary_group.%user,g:eng:%user"
    )
    .is_ok());
}

#[test]
fn hadoops_static_group_table_answers_before_the_hosts_groups() {
    // hadoop.user.group.static.mapping.overrides: dave is in eng whatever the host says, erin
    // in no group; others keep the host's groups.
    let mut cs = scheduler(
        "yarn.scheduler.capacity.queue-mappings=g:eng:b1,g:staff:a1
hadoop.user.group.static.mapping.overrides=dave=eng;erin=",
    );
    assert_eq!(
        submit(&mut cs, "default", "dave", &["staff"], None).unwrap(),
        "root.b.b1"
    );
    // A user the table lists with no group has none, which is no error (unlike the mapping
    // service's empty answer): no group mapping applies…
    assert!(submit(&mut cs, "default", "erin", &["staff"], None)
        .unwrap_err()
        .ends_with("to unknown queue: default"));
    assert_eq!(
        submit(&mut cs, "default", "frank", &["staff"], None).unwrap(),
        "root.a.a1"
    );
    // …but %primary_group fails as Java's list does.
    let mut cs = scheduler(
        "yarn.scheduler.capacity.queue-mappings=u:%user:%primary_group
hadoop.user.group.static.mapping.overrides=erin=",
    );
    assert_eq!(
        submit(&mut cs, "default", "erin", &["staff"], None).unwrap_err(),
        "java.lang.IndexOutOfBoundsException: Index: 0"
    );
    // The table's syntax is Hadoop's.
    assert!(conf("hadoop.user.group.static.mapping.overrides=a=b=c")
        .unwrap_err()
        .contains("Configuration hadoop.user.group.static.mapping.overrides is invalid"));
}

#[test]
fn a_submission_naming_no_queue_is_refused_even_when_a_mapping_places_it() {
    // RMAppManager's check binds `|| queue.isEmpty()` outside its null test.
    let mut cs = scheduler("yarn.scheduler.capacity.queue-mappings=u:alice:b1");
    assert_eq!(
        submit(&mut cs, "", "alice", &[], None).unwrap_err(),
        "Failed to place application application_1410901177871_0001 in a queue and submit context queue is null or empty"
    );
}
