//! YARN 3.4's JSON mapping rules end to end (docs/SEMANTICS.md, "JSON mapping rules"): the
//! configuration keys and their errors, and submissions placed — and their queues created —
//! through `submit_application`.

use std::sync::Arc;

use capsched::config::placement::mapping_rules::JsonSource;
use capsched::config::CapacitySchedulerConfiguration;
use capsched::scheduler::apps::AppSubmission;
use capsched::scheduler::placement::mapping_rules::REJECTED_BY_MAPPING_RULE;
use capsched::scheduler::CapacityScheduler;

const TS: i64 = 1410901177871;

/// root.default, root.users (v2 auto-creation, no children yet), root.groups (v2, one weight
/// child `eng`), root.man (a managed parent), root.fixed (a static parent with leaf `a`).
const HIERARCHY: &str = "yarn.scheduler.capacity.root.queues=default,users,groups,man,fixed
yarn.scheduler.capacity.root.default.capacity=20
yarn.scheduler.capacity.root.users.capacity=20
yarn.scheduler.capacity.root.groups.capacity=20
yarn.scheduler.capacity.root.man.capacity=20
yarn.scheduler.capacity.root.fixed.capacity=20
yarn.scheduler.capacity.root.users.auto-queue-creation-v2.enabled=true
yarn.scheduler.capacity.root.groups.auto-queue-creation-v2.enabled=true
yarn.scheduler.capacity.root.groups.queues=eng
yarn.scheduler.capacity.root.groups.eng.capacity=1w
yarn.scheduler.capacity.root.man.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.man.leaf-queue-template.capacity=10
yarn.scheduler.capacity.root.fixed.queues=a
yarn.scheduler.capacity.root.fixed.a.capacity=100
yarn.scheduler.capacity.mapping-rule-format=json
";

fn conf(extra: &str) -> Result<CapacitySchedulerConfiguration, Vec<String>> {
    CapacitySchedulerConfiguration::from_properties_str(&format!("{HIERARCHY}{extra}"))
        .map_err(|e| e.iter().map(|e| e.to_string()).collect())
}

/// The rules as one property line.
fn json_rules(rules: &str) -> String {
    let rules = rules.replace('\n', " ");
    format!("yarn.scheduler.capacity.mapping-rule-json={{\"rules\":[{rules}]}}\n")
}

fn scheduler(extra: &str) -> CapacityScheduler {
    let c = conf(extra).unwrap_or_else(|e| panic!("{e:?}"));
    CapacityScheduler::new(Arc::new(c), TS, 1)
}

/// The queue a submission lands in, or the rejection's message.
fn submit(
    cs: &mut CapacityScheduler,
    queue: &str,
    user: &str,
    groups: &[&str],
) -> Result<String, String> {
    let mut sub = AppSubmission::new(queue, user);
    sub.groups = groups.iter().map(|g| g.to_string()).collect();
    match cs.submit_application(0, &sub) {
        Ok(app) => Ok(cs.app_report(app).expect("submitted").queue),
        Err(r) => Err(r.message),
    }
}

#[test]
fn a_users_queue_is_created_under_a_v2_parent() {
    let mut cs = scheduler(&json_rules(
        r#"{"type":"user","matches":"*","policy":"user","parentQueue":"root.users"}"#,
    ));
    assert_eq!(
        submit(&mut cs, "default", "alice", &["eng"]).unwrap(),
        "root.users.alice"
    );
    assert!(
        cs.configuration()
            .queue("root.users.alice")
            .unwrap()
            .dynamic
    );
    // The queue exists now: the second submission goes to it, the next user gets their own.
    assert_eq!(
        submit(&mut cs, "default", "alice", &["eng"]).unwrap(),
        "root.users.alice"
    );
    assert_eq!(
        submit(&mut cs, "default", "bob", &["eng"]).unwrap(),
        "root.users.bob"
    );
    // A dotted user name is one level: `_dot_`.
    assert_eq!(
        submit(&mut cs, "default", "j.doe", &["eng"]).unwrap(),
        "root.users.j_dot_doe"
    );
    // A submission naming a queue, with no override, is not the rules' to place.
    assert_eq!(
        submit(&mut cs, "root.fixed.a", "carol", &["eng"]).unwrap(),
        "root.fixed.a"
    );
}

#[test]
fn a_group_level_is_created_with_the_users_leaf_under_a_v2_grandparent() {
    let mut cs = scheduler(&json_rules(
        r#"{"type":"user","matches":"*","policy":"primaryGroupUser","parentQueue":"root.groups"}"#,
    ));
    // root.groups.eng exists (a static leaf): it cannot hold a child, so the rule's fallback
    // (skip) leaves the application on `default`.
    assert_eq!(
        submit(&mut cs, "default", "alice", &["eng"]).unwrap(),
        "root.default"
    );
    // root.groups.ops does not exist: its parent root.groups creates both levels.
    assert_eq!(
        submit(&mut cs, "default", "bob", &["ops"]).unwrap(),
        "root.groups.ops.bob"
    );
    let ops = cs.configuration().queue("root.groups.ops").unwrap();
    assert!(ops.dynamic && !ops.is_leaf());
}

#[test]
fn a_managed_parent_auto_creates_the_leaf() {
    let mut cs = scheduler(&json_rules(
        r#"{"type":"group","matches":"eng","policy":"user","parentQueue":"man"}"#,
    ));
    // The short parent name is resolved (`man` → root.man).
    assert_eq!(
        submit(&mut cs, "default", "alice", &["eng"]).unwrap(),
        "root.man.alice"
    );
    assert!(
        cs.configuration()
            .queue("root.man.alice")
            .unwrap()
            .auto_created
    );
    // Not in the group: no rule places it.
    assert_eq!(
        submit(&mut cs, "default", "bob", &["ops"]).unwrap(),
        "root.default"
    );
}

#[test]
fn create_false_and_fallbacks_behave_as_in_yarn() {
    // No creation allowed: the fallback (placeDefault) sends it to root.default.
    let mut cs = scheduler(&json_rules(
        r#"{"type":"user","matches":"*","policy":"user","parentQueue":"root.users","create":false,"fallbackResult":"placeDefault"}"#,
    ));
    assert_eq!(
        submit(&mut cs, "default", "alice", &["eng"]).unwrap(),
        "root.default"
    );
    assert!(cs.configuration().queue("root.users.alice").is_none());
    // A reject fallback: the client sees YARN's words and nothing else.
    let mut cs = scheduler(&json_rules(
        r#"{"type":"user","matches":"*","policy":"user","parentQueue":"root.users","create":false,"fallbackResult":"reject"}"#,
    ));
    assert_eq!(
        submit(&mut cs, "default", "alice", &["eng"]).unwrap_err(),
        REJECTED_BY_MAPPING_RULE
    );
    // setDefaultQueue changes where placeDefault goes, for the rules after it; a default
    // queue that cannot be used rejects.
    let mut cs = scheduler(&json_rules(
        r#"{"type":"user","matches":"*","policy":"setDefaultQueue","value":"root.fixed.a"},
           {"type":"user","matches":"alice","policy":"defaultQueue"},
           {"type":"user","matches":"bob","policy":"setDefaultQueue","value":"root.fixed"},
           {"type":"user","matches":"bob","policy":"reject","fallbackResult":"placeDefault"},
           {"type":"user","matches":"*","policy":"reject"}"#,
    ));
    assert_eq!(
        submit(&mut cs, "default", "alice", &["eng"]).unwrap(),
        "root.fixed.a"
    );
    assert_eq!(
        submit(&mut cs, "default", "bob", &["eng"]).unwrap_err(),
        REJECTED_BY_MAPPING_RULE
    );
    assert_eq!(
        submit(&mut cs, "default", "carol", &["eng"]).unwrap_err(),
        REJECTED_BY_MAPPING_RULE
    );
}

#[test]
fn specified_queues_and_the_override() {
    let rules = json_rules(
        r#"{"type":"user","matches":"*","policy":"specified","create":true},
           {"type":"user","matches":"*","policy":"user","parentQueue":"root.users"}"#,
    );
    let mut cs = scheduler(&format!(
        "{rules}yarn.scheduler.capacity.queue-mappings-override.enable=true\n"
    ));
    // The short name is resolved; the placement hands the full path on.
    assert_eq!(submit(&mut cs, "a", "alice", &[]).unwrap(), "root.fixed.a");
    // A queue that may be created where the submission names it.
    assert_eq!(
        submit(&mut cs, "root.users.team", "alice", &[]).unwrap(),
        "root.users.team"
    );
    // `default` is "nothing named": the next rule decides (groups unknown: no error).
    assert_eq!(
        submit(&mut cs, "default", "bob", &[]).unwrap(),
        "root.users.bob"
    );
    // A static parent creates nothing: the specified rule skips, the user rule places.
    assert_eq!(
        submit(&mut cs, "root.fixed.b", "carol", &[]).unwrap(),
        "root.users.carol"
    );
}

#[test]
fn the_rules_are_read_from_a_file_once() {
    let path = std::env::temp_dir().join(format!("capsched-rules-{}.json", std::process::id()));
    std::fs::write(
        &path,
        r#"{ "rules": [ { "type": "user", "matches": "*", "policy": "user", "parentQueue": "root.users" } ] }"#,
    )
    .unwrap();
    // The path is trimmed, as YARN trims it.
    let c = conf(&format!(
        "yarn.scheduler.capacity.mapping-rule-json-file=  {}  \n",
        path.display()
    ))
    .unwrap();
    let rules = c.placement().mapping_rules.as_ref().unwrap();
    assert_eq!(rules.rules.len(), 1);
    assert_eq!(rules.source, JsonSource::File(path.display().to_string()));
    let mut cs = CapacityScheduler::new(Arc::new(c), TS, 1);
    // Creating a queue builds the configuration again; the file is not read again (YARN reads
    // it when the scheduler starts or refreshes).
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        submit(&mut cs, "default", "alice", &[]).unwrap(),
        "root.users.alice"
    );
    assert_eq!(
        submit(&mut cs, "default", "bob", &[]).unwrap(),
        "root.users.bob"
    );
    // A file that is missing (or not a regular file) fails the configuration.
    let e = conf(&format!(
        "yarn.scheduler.capacity.mapping-rule-json-file={}\n",
        path.display()
    ))
    .unwrap_err();
    assert!(
        e[0].starts_with(&format!(
            "Error reading or parsing mapping rule JSON file '{}': ",
            path.display()
        )),
        "{e:?}"
    );
    assert!(e[0].ends_with("(key yarn.scheduler.capacity.mapping-rule-json-file)"));
    let e = conf("yarn.scheduler.capacity.mapping-rule-json-file=/dev/null\n").unwrap_err();
    assert!(e[0].contains("not a regular file"), "{e:?}");
    // The inline JSON wins over the file.
    let c = conf(&format!(
        "{}yarn.scheduler.capacity.mapping-rule-json-file=/nonexistent\n",
        json_rules("")
    ))
    .unwrap();
    assert_eq!(
        c.placement().mapping_rules.as_ref().unwrap().source,
        JsonSource::Inline
    );
}

#[test]
fn bad_rules_fail_the_configuration_with_yarns_words() {
    let e =
        conf("yarn.scheduler.capacity.mapping-rule-json=I'm a bad JSON, since I'm not a JSON.\n")
            .unwrap_err();
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with(
            "Error parsing mapping rule inline JSON: expected value at line 1 column 1"
        ),
        "{e:?}"
    );
    assert!(e[0].ends_with("(key yarn.scheduler.capacity.mapping-rule-json)"));
    // Every rule breaking a check is reported, the first being YARN's.
    let e = conf(&json_rules(
        r#"{"type":"user","matches":"*"},{"type":"group","matches":"*","policy":"user"}"#,
    ))
    .unwrap_err();
    assert_eq!(
        e,
        vec![
            "Rule policy is undefined (rule 1) (key yarn.scheduler.capacity.mapping-rule-json)",
            "Cannot match '*' for groups (rule 2) (key yarn.scheduler.capacity.mapping-rule-json)"
        ]
    );
    // A rule whose target can never be used refuses the configuration (YARN fails to start or
    // refresh), as does an unknown format.
    let e = conf(&json_rules(
        r#"{"type":"user","matches":"*","policy":"custom","customPlacement":"nope"},
           {"type":"user","matches":"*","policy":"user","parentQueue":"root.fixed.a"},
           {"type":"user","matches":"*","policy":"user","parentQueue":"root.fixed"}"#,
    ))
    .unwrap_err();
    assert_eq!(
        e,
        vec![
            "Error initializing queue mappings, rule 1 has encountered a validation error: Path root 'nope' does not exist. Path 'nope' is invalid (key yarn.scheduler.capacity.mapping-rule-json)",
            "Error initializing queue mappings, rule 2 has encountered a validation error: Queue path 'root.fixed.a.%user' is invalid because 'root.fixed.a' is a leaf queue, which can have no other queues under it. (key yarn.scheduler.capacity.mapping-rule-json)",
        ]
    );
    let e = CapacitySchedulerConfiguration::from_properties_str(
        &HIERARCHY.replace("mapping-rule-format=json", "mapping-rule-format=JSON"),
    )
    .unwrap_err();
    assert_eq!(
        e.first().to_string(),
        "Illegal queue mapping format 'JSON' please use 'legacy' or 'json' (key yarn.scheduler.capacity.mapping-rule-format)"
    );
    // With the JSON format the legacy keys are not read, and 3.3's rule classes are gone.
    assert!(conf("yarn.scheduler.capacity.queue-mappings=u:bad\n").is_ok());
    let e = conf("yarn.scheduler.queue-placement-rules=user-group,org.apache.hadoop.yarn.server.resourcemanager.placement.UserGroupMappingPlacementRule\n").unwrap_err();
    assert!(e[0].starts_with("java.lang.ClassNotFoundException: org.apache.hadoop.yarn.server.resourcemanager.placement.UserGroupMappingPlacementRule"), "{e:?}");
    assert!(conf("yarn.scheduler.queue-placement-rules=org.apache.hadoop.yarn.server.resourcemanager.placement.CSMappingPlacementRule\n").is_ok());
    // No JSON at all: no rules (YARN warns and starts).
    let c = conf("").unwrap();
    assert_eq!(
        c.placement().mapping_rules.as_ref().unwrap().source,
        JsonSource::None
    );
}

#[test]
fn a_refresh_reads_the_rules_again() {
    let mut cs = scheduler(&json_rules(
        r#"{"type":"user","matches":"*","policy":"custom","customPlacement":"root.fixed.a"}"#,
    ));
    assert_eq!(
        submit(&mut cs, "default", "alice", &[]).unwrap(),
        "root.fixed.a"
    );
    let next = conf(&json_rules(
        r#"{"type":"user","matches":"*","policy":"user","parentQueue":"root.users"}"#,
    ))
    .unwrap();
    cs.refresh_queues(0, Arc::new(next)).unwrap();
    assert_eq!(
        submit(&mut cs, "default", "alice", &[]).unwrap(),
        "root.users.alice"
    );
}

#[test]
fn a_recovered_application_gets_its_created_queue_again() {
    let rules = json_rules(r#"{"type":"user","matches":"*","policy":"user","parentQueue":"man"}"#);
    let mut cs = scheduler(&rules);
    let mut sub = AppSubmission::new("alice", "alice");
    sub.recovering = true;
    let app = cs.submit_application(0, &sub).unwrap();
    assert_eq!(cs.app_report(app).unwrap().queue, "root.man.alice");
    // The rules' answer counts only when its leaf is the queue the application ran in.
    let mut cs = scheduler(&rules);
    let mut sub = AppSubmission::new("someone", "alice");
    sub.recovering = true;
    assert_eq!(
        cs.submit_application(0, &sub).unwrap_err().message,
        "Application killed on recovery as it was submitted to queue someone which no longer exists after restart."
    );
}
