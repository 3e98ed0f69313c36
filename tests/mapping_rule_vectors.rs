//! YARN 3.4's mapping rules against Hadoop's own tests: the vectors of
//! tests/data/conformance/mapping-rule-vectors.json (see its `meta`), each replayed on
//! capsched's JSON mapping-rule engine.
//!
//! - `placement`/`submit`: twice. Through the engine alone (rules parsed, placed against the
//!   hierarchy, every rule's reason for not placing compared with the vector's `trace`), as the
//!   tests drive `CSMappingPlacementRule` with rules its initialisation only logged; and through
//!   a whole configuration (`mapping-rule-format=json`) and the scheduler: rules that fail the
//!   load-time check must refuse the configuration with those reasons, as YARN does in
//!   production (`failOnConfigError`), the others must place (or submit) as the test says.
//!   Rules the tests give as legacy strings run as their JSON equivalent (`json_equivalent`):
//!   capsched keeps YARN 3.3's engine for the legacy strings.
//! - the rest: the engine's parts (JSON rules, matchers, substitutions, path validation).
//!
//! A Java `null` value becomes `""`, which every part of the engine treats the same way.
//! A vector capsched cannot follow yet is listed in `NOT_YET` with the reason; it still runs and
//! must still differ.

use std::sync::Arc;

use capsched::config::placement::mapping_rule_validation::{
    validate_rules, QueueIndex, ValidationContext,
};
use capsched::config::placement::mapping_rules::{
    parse_json_rules, Action, Fallback, MappingRule, Matcher,
};
use capsched::config::CapacitySchedulerConfiguration;
use capsched::ids::ApplicationId;
use capsched::scheduler::apps::AppSubmission;
use capsched::scheduler::placement::mapping_rule_variables::VariableContext;
use capsched::scheduler::placement::mapping_rules::{
    evaluate, fallback_result, matches, place, RuleNote, RuleResult, Submitted,
};
use capsched::scheduler::CapacityScheduler;
use capsched::state::queue::QueueTree;
use serde_json::{json, Map, Value};

/// Vectors capsched does not follow yet, each with the reason.
const NOT_YET: &[(&str, &str)] = &[];

fn data() -> Value {
    let path = format!(
        "{}/tests/data/conformance/mapping-rule-vectors.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn xml_escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A hierarchy's keys plus `extra`, as a configuration.
fn configuration(
    d: &Value,
    hierarchy: Option<&str>,
    extra: &[(String, String)],
) -> Result<CapacitySchedulerConfiguration, Vec<String>> {
    let mut props: Vec<(String, String)> = match hierarchy {
        Some(h) => d["hierarchies"][h]["cs_keys"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), s(v)))
            .collect(),
        None => vec![
            (
                "yarn.scheduler.capacity.root.queues".into(),
                "default".into(),
            ),
            (
                "yarn.scheduler.capacity.root.default.capacity".into(),
                "100".into(),
            ),
        ],
    };
    props.extend(extra.iter().cloned());
    let body: String = props
        .iter()
        .map(|(k, x)| {
            format!(
                "<property><name>{}</name><value>{}</value></property>",
                xml_escape(k),
                xml_escape(x)
            )
        })
        .collect();
    CapacitySchedulerConfiguration::from_xml_str(&format!("<configuration>{body}</configuration>"))
        .map_err(|e| e.iter().map(|e| e.message.clone()).collect())
}

/// The vector's rules as JSON text, when they can be written so.
fn rules_json(rules: &Value) -> Option<String> {
    match rules["format"].as_str() {
        Some("json") => Some(s(&rules["yarn.scheduler.capacity.mapping-rule-json"])),
        _ => rules
            .get("json_equivalent")
            .filter(|j| !j.is_null())
            .map(Value::to_string),
    }
}

/// A rule the Java test built directly.
fn internal_rule(r: &Value) -> MappingRule {
    let m = &r["matcher"];
    let value = s(&m["value"]);
    let matcher = match m["kind"].as_str().unwrap() {
        "all" => Matcher::All,
        "user" => Matcher::Variable {
            variable: "%user".into(),
            value,
        },
        "application" => Matcher::Variable {
            variable: "%application".into(),
            value,
        },
        "variable" => Matcher::Variable {
            variable: s(&m["variable"]),
            value,
        },
        "group" => Matcher::Group(value),
        other => panic!("matcher {other}"),
    };
    let a = &r["action"];
    let action = match a["kind"].as_str().unwrap() {
        "place" => Action::Place {
            queue: s(&a["queue"]),
            create: a["create"].as_bool().unwrap_or(true),
        },
        "reject" => Action::Reject,
        "set_variable" => Action::SetVariable {
            variable: s(&a["variable"]),
            value: s(&a["value"]),
        },
        other => panic!("action {other}"),
    };
    let fallback = match r["fallback"].as_str().unwrap_or("reject") {
        "skip" => Fallback::Skip,
        "placeDefault" => Fallback::PlaceDefault,
        _ => Fallback::Reject,
    };
    MappingRule {
        matcher,
        action,
        fallback,
        policy: None,
    }
}

/// Variables as the test set them (`null` as `""`).
fn context(vars: &Value, groups: &Value, immutables: &[&str]) -> VariableContext {
    let mut c = VariableContext::new();
    if let Some(o) = vars.as_object() {
        for (k, v) in o {
            c.put(k, &s(v)).unwrap();
        }
    }
    if let Some(g) = groups.as_array() {
        c.put_groups(g.iter().map(s).collect());
    }
    if !immutables.is_empty() {
        c.set_immutables(immutables).unwrap();
    }
    c
}

fn result_name(r: &RuleResult) -> &'static str {
    match r {
        RuleResult::Place { .. } => "PLACE",
        RuleResult::Reject => "REJECT",
        RuleResult::Skip => "SKIP",
        RuleResult::PlaceDefault => "PLACE_TO_DEFAULT",
    }
}

fn vars_of(c: &VariableContext, names: &Map<String, Value>) -> Value {
    Value::Object(names.keys().map(|k| (k.clone(), json!(c.get(k)))).collect())
}

/// A Java null in a map of expected values, as capsched keeps it.
fn nulls_as_empty(v: &Value) -> Value {
    match v {
        Value::Null => json!(""),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), nulls_as_empty(x)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn trace_line(n: &RuleNote) -> String {
    match n {
        RuleNote::NoJurisdiction => "no jurisdiction".into(),
        RuleNote::CannotPlace {
            rule,
            reason,
            fallback,
        } => format!("rule {rule}: {reason} -> fallback {}", fallback.name()),
        RuleNote::DefaultFailed { rule, reason } => {
            format!("rule {rule}: default placement failed: {reason}")
        }
        RuleNote::Rejected { rule } => format!("rule {rule}: REJECT"),
    }
}

/// `got` must agree with every key of `want` (a `note` aside).
fn agree(got: &Value, want: &Value, what: &str, diffs: &mut Vec<String>) {
    for (k, w) in want.as_object().into_iter().flatten() {
        if k == "note" || k == "internal_rule" {
            continue;
        }
        if &got[k] != w {
            diffs.push(format!("{what} {k}: capsched {}, expected {w}", got[k]));
        }
    }
}

fn placement_outcome(r: Result<Option<String>, String>) -> Value {
    match r {
        Ok(Some(q)) => json!({ "result": "place", "queue": q }),
        Ok(None) => json!({ "result": "null" }),
        Err(m) => json!({ "result": "reject", "message": m }),
    }
}

/// A placement or submission vector, through the engine and through the scheduler.
fn run_placement(d: &Value, v: &Value, diffs: &mut Vec<String>) {
    let Some(text) = rules_json(&v["rules"]) else {
        diffs.push("rules not expressible in JSON".into());
        return;
    };
    let hierarchy = v["hierarchy"].as_str();
    let override_on = v["override"].as_bool() == Some(true);
    let user = s(&v["user"]);
    let lookup_ok = v["groups_lookup"] == "ok";
    let groups: Vec<String> = v["groups"]
        .as_array()
        .map(|g| g.iter().map(s).collect())
        .unwrap_or_default();
    let queue = s(&v["submitted_queue"]);
    let app = s(&v["app_name"]);
    let derived = &v["derived"];
    let expect = &v["expect"];

    // 1. The engine alone, on the hierarchy.
    let plain = configuration(d, hierarchy, &[]).expect("the hierarchy loads");
    let tree = QueueTree::new(Arc::new(plain));
    let rules = parse_json_rules(&text).expect("the rules parse");
    let mut notes = Vec::new();
    let sub = Submitted {
        user: &user,
        groups: lookup_ok.then_some(groups.as_slice()),
        queue: &queue,
        app_name: &app,
        recovering: false,
    };
    let got = placement_outcome(place(&rules, override_on, &tree, &sub, Some(&mut notes)));
    if v["kind"] == "placement" {
        agree(&got, expect, "engine", diffs);
    }
    agree(
        &got,
        &json!({ "result": derived["result"], "queue": derived["queue"], "message": derived["message"] }),
        "engine (derived)",
        diffs,
    );
    let trace: Vec<String> = notes.iter().map(trace_line).collect();
    if json!(trace) != derived["trace"] {
        diffs.push(format!(
            "trace: capsched {trace:?}, expected {}",
            derived["trace"]
        ));
    }

    // 2. A whole configuration, and the scheduler.
    let mut extra = vec![
        (
            "yarn.scheduler.capacity.mapping-rule-format".to_string(),
            "json".to_string(),
        ),
        ("yarn.scheduler.capacity.mapping-rule-json".into(), text),
    ];
    if override_on {
        extra.push((
            "yarn.scheduler.capacity.queue-mappings-override.enable".into(),
            "true".into(),
        ));
    }
    if lookup_ok && groups.is_empty() {
        // Hadoop's static table is how a user with no groups (and no failed lookup) is said.
        extra.push((
            "hadoop.user.group.static.mapping.overrides".into(),
            format!("{user}=;"),
        ));
    }
    let logged = derived["init_validation_errors_logged"].as_array();
    let conf = match (configuration(d, hierarchy, &extra), logged) {
        (Ok(_), Some(l)) => {
            diffs.push(format!("configuration loaded; YARN refuses it: {l:?}"));
            return;
        }
        (Err(errors), Some(l)) => {
            let want: Vec<String> = l.iter().map(s).collect();
            let agrees = errors.len() == want.len()
                && errors
                    .iter()
                    .zip(&want)
                    .all(|(e, w)| e.ends_with(&format!(": {w}")));
            if !agrees {
                diffs.push(format!("load errors: capsched {errors:?}, YARN {want:?}"));
            }
            return;
        }
        (Err(errors), None) => {
            diffs.push(format!("configuration refused: {errors:?}"));
            return;
        }
        (Ok(c), None) => c,
    };
    let mut cs = CapacityScheduler::new(Arc::new(conf), 1, 1);
    let mut sub = AppSubmission::new(&queue, &user);
    sub.groups = groups;
    sub.app_name = v["app_name"].as_str().map(str::to_string);
    sub.application_id = Some(ApplicationId {
        cluster_timestamp: 1,
        id: 1,
    });
    if v["kind"] == "submit" {
        let got = match cs.submit_application(0, &sub) {
            Ok(app) => json!({
                "rm_app_state": "ACCEPTED",
                "queue": cs.app_report(app).unwrap().queue,
            }),
            Err(r) => json!({ "rm_app_state": "FAILED", "rejection": r.message }),
        };
        let mut want = json!({ "rm_app_state": expect["rm_app_state"] });
        if let Some(q) = expect["queue"].as_str() {
            want["queue"] = json!(q);
        }
        if let Some(r) = expect["rejection"].as_str() {
            want["rejection"] = json!(r
                .replace("<appId>", "application_1_0001")
                .replace("<user>", &user));
        }
        agree(&got, &want, "submission", diffs);
        return;
    }
    let got = placement_outcome(match cs.place_submission(&sub) {
        Ok(p) => Ok(p.map(|p| match p.parent {
            Some(parent) => format!("{parent}.{}", p.queue),
            None => p.queue,
        })),
        Err(r) => Err(r.message),
    });
    agree(&got, expect, "scheduler", diffs);
}

fn run_init(d: &Value, v: &Value, diffs: &mut Vec<String>) {
    let expect_ok = v["expect"]["result"] == "ok";
    let got_errors: Vec<String> = match rules_json(&v["rules"]) {
        Some(text) => {
            let extra = [
                (
                    "yarn.scheduler.capacity.mapping-rule-format".to_string(),
                    "json".to_string(),
                ),
                ("yarn.scheduler.capacity.mapping-rule-json".into(), text),
            ];
            match configuration(d, v["hierarchy"].as_str(), &extra) {
                Ok(_) => Vec::new(),
                Err(e) => e,
            }
        }
        // Rules only Java can build: checked against the hierarchy directly.
        None => {
            let conf = configuration(d, v["hierarchy"].as_str(), &[]).unwrap();
            let rules: Vec<MappingRule> = v["rules"]["internal"]
                .as_array()
                .unwrap()
                .iter()
                .map(internal_rule)
                .collect();
            validate_rules(&QueueIndex::new(conf.queues()), &rules)
                .into_iter()
                .map(|(_, m)| m)
                .collect()
        }
    };
    match (expect_ok, got_errors.first()) {
        (true, None) => {}
        (false, Some(e)) if e.ends_with(&s(&v["derived"]["message"])) => {}
        _ => diffs.push(format!(
            "load: capsched {got_errors:?}, expected {}",
            v["derived"]
        )),
    }
}

fn run_parse(d: &Value, v: &Value, diffs: &mut Vec<String>) {
    let mut extra: Vec<(String, String)> = Vec::new();
    let mut _file = None;
    for (k, x) in v["conf"].as_object().unwrap() {
        let mut x = s(x);
        if x.starts_with("<file containing: ") {
            // The test writes its JSON to a temporary file.
            let content = x
                .trim_start_matches("<file containing: ")
                .trim_end_matches('>')
                .to_string();
            let path = std::env::temp_dir().join(format!(
                "capsched-mapping-rules-{}.json",
                std::process::id()
            ));
            std::fs::write(&path, content).unwrap();
            x = path.display().to_string();
            _file = Some(TempFile(path));
        }
        extra.push((k.clone(), x));
    }
    let got = match configuration(d, None, &extra) {
        Ok(c) => {
            let p = c.placement();
            let count = match &p.mapping_rules {
                Some(r) => r.rules.len(),
                None => p.user_group.len() + p.app_name.len(),
            };
            json!({ "result": "ok", "rule_count": count })
        }
        Err(e) => json!({ "result": "IOException", "errors": e }),
    };
    agree(&got, &v["expect"], "parse", diffs);
}

struct TempFile(std::path::PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// One rule evaluated over fixed variables (no target check).
fn run_rule(v: &Value, rule: &MappingRule, c: &mut VariableContext, diffs: &mut Vec<String>) {
    let none = QueueIndex::new(&[]);
    let result = evaluate(rule, c, &none).unwrap();
    let mut got = json!({
        "result": result_name(&result),
        "fallback": result_name(&fallback_result(rule)),
        "create": true,
        "%default_after": c.get("%default"),
    });
    if let RuleResult::Place { queue, create } = &result {
        got["queue"] = json!(queue);
        got["create"] = json!(create);
    }
    if let Some(vars) = v["derived"]["variables_after"].as_object() {
        got["variables_after"] = vars_of(c, vars);
    }
    agree(&got, &v["expect"], "rule", diffs);
    agree(
        &got,
        &nulls_as_empty(&v["derived"]),
        "rule (derived)",
        diffs,
    );
}

fn run_vector(d: &Value, v: &Value, diffs: &mut Vec<String>) {
    let none = QueueIndex::new(&[]);
    match v["kind"].as_str().unwrap() {
        "placement" | "submit" => run_placement(d, v, diffs),
        "init" => run_init(d, v, diffs),
        "parse" => run_parse(d, v, diffs),
        "rule_eval" => {
            let imm: Vec<&str> = if v["variables"].get("%immutable").is_some() {
                vec!["%immutable"]
            } else {
                vec![]
            };
            let mut c = context(&v["variables"], &v["groups_dataset"], &imm);
            run_rule(v, &internal_rule(&v["rule"]), &mut c, diffs);
        }
        "json_rule" => {
            let text = v["json"].to_string();
            match parse_json_rules(&text) {
                Err(e) => {
                    let got =
                        json!({ "result": "IllegalArgumentException", "message": e[0].message });
                    agree(&got, &v["expect"], "json rule", diffs);
                }
                Ok(rules) => {
                    let mut c = context(&v["variables"], &v["groups_dataset"], &[]);
                    run_rule(v, &rules[0], &mut c, diffs);
                }
            }
        }
        "variable_update_sequence" => {
            let mut c = context(&v["initial_variables"], &Value::Null, &["%immutable"]);
            let mut values = Map::new();
            let mut error = Value::Null;
            for step in v["steps"].as_array().unwrap() {
                let rule = MappingRule {
                    matcher: Matcher::All,
                    action: Action::SetVariable {
                        variable: s(&step["variable"]),
                        value: s(&step["value"]),
                    },
                    fallback: Fallback::Reject,
                    policy: None,
                };
                match evaluate(&rule, &mut c, &none) {
                    Ok(_) => {
                        let name = s(&step["variable"]);
                        values.insert(name.clone(), json!(c.get(&name)));
                    }
                    Err(e) => error = json!(format!("IllegalStateException: {e}")),
                }
            }
            let got = json!({ "values": values, "error": error });
            agree(&got, &v["derived"], "updates", diffs);
        }
        "matcher" => {
            let c = context(&v["context"]["variables"], &v["context"]["groups"], &[]);
            let rule = internal_rule(&json!({
                "matcher": v["matcher"], "action": { "kind": "reject" }, "fallback": "reject"
            }));
            let got = json!({ "match": matches(&rule.matcher, &c) });
            agree(&got, &v["expect"], "matcher", diffs);
        }
        "replace_path" | "replace_vars" => {
            let c = context(&v["variables"], &Value::Null, &[]);
            let input = s(&v["input"]);
            let output = if v["kind"] == "replace_path" {
                c.replace_path_variables(&input, &none)
            } else {
                c.replace_variables(&input)
            };
            agree(&json!({ "output": output }), &v["expect"], "replace", diffs);
        }
        "variable_context" => {
            // testImmutableVariableProtection.
            let mut c = VariableContext::new();
            c.set_immutables(&["%user", "%primary_group", "%secondary_group"])
                .unwrap();
            c.put("%user", "bob").unwrap();
            let got = match c.put("%user", "bob") {
                Ok(()) => json!({ "error": null }),
                Err(e) => json!({ "error": format!("IllegalStateException: {e}") }),
            };
            agree(&got, &v["derived"], "immutables", diffs);
        }
        "validate_path" => {
            let conf = configuration(d, v["hierarchy"].as_str(), &[]).unwrap();
            let index = QueueIndex::new(conf.queues());
            let mut ctx = ValidationContext::new(&index);
            for var in v["known_variables"].as_array().unwrap() {
                ctx.add_variable(&s(var)).unwrap();
            }
            let got = match ctx.validate_queue_path(&s(&v["path"])) {
                Ok(()) => json!({ "valid": true }),
                Err(m) => json!({ "valid": false, "message": m }),
            };
            agree(&got, &v["expect"], "path", diffs);
            agree(&got, &v["derived"], "path (derived)", diffs);
        }
        "validation_variables" => {
            // testContextVariables and testImmutableVariablesInContext.
            let mut ctx = ValidationContext::new(&none);
            let mut got = Map::new();
            let mut put = |k: &str, x: Value| {
                got.insert(k.to_string(), x);
            };
            let stat = |ctx: &ValidationContext, p: &str| json!(ctx.is_path_static(p).unwrap());
            put(
                "isPathStatic('root.%user') with no known variables",
                stat(&ctx, "root.%user"),
            );
            ctx.add_variable("%user").unwrap();
            ctx.add_variable("%user").unwrap();
            put(
                "after addVariable(%user) twice: variable count",
                json!(ctx.known_variables().len()),
            );
            put("isPathStatic('root.%user')", stat(&ctx, "root.%user"));
            ctx.add_variable("%primary_group").unwrap();
            ctx.add_variable("%default").unwrap();
            put(
                "after adding %primary_group,%default: count",
                json!(ctx.known_variables().len()),
            );
            for p in [
                "root.%primary_group.something",
                "root.something.%default",
                "root.static",
                "root.static.%nothing",
                "root",
            ] {
                put(&format!("isPathStatic('{p}')"), stat(&ctx, p));
            }
            let outcome = |r: Result<(), String>| match r {
                Ok(()) => json!("ok"),
                Err(e) => json!(format!("YarnException: {e}")),
            };
            let twice = ctx
                .add_variable("mutable")
                .and_then(|_| ctx.add_variable("mutable"));
            put("addVariable('mutable') twice", outcome(twice));
            put(
                "addImmutableVariable('mutable') after mutable",
                outcome(ctx.add_immutable_variable("mutable")),
            );
            let twice = ctx
                .add_immutable_variable("immutable")
                .and_then(|_| ctx.add_immutable_variable("immutable"));
            put("addImmutableVariable('immutable') twice", outcome(twice));
            put(
                "addVariable('immutable') after immutable",
                outcome(ctx.add_variable("immutable")),
            );
            agree(&Value::Object(got), &v["expect"], "variables", diffs);
        }
        other => diffs.push(format!("unknown kind {other}")),
    }
}

#[test]
fn mapping_rules_follow_hadoop_3_4_on_its_vectors() {
    let d = data();
    let vectors = d["vectors"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut waiting = Vec::new();
    let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
    for v in vectors {
        let id = s(&v["id"]);
        *kinds.entry(s(&v["kind"])).or_default() += 1;
        let mut diffs = Vec::new();
        run_vector(&d, v, &mut diffs);
        match NOT_YET.iter().find(|(n, _)| *n == id) {
            Some(_) if diffs.is_empty() => {
                failures.push(format!("{id} now agrees with YARN: take it out of NOT_YET"))
            }
            Some((_, why)) => waiting.push(format!("{id}: {why}")),
            None if diffs.is_empty() => {}
            None => failures.push(format!(
                "{id} ({}):\n  {}",
                s(&v["source"]),
                diffs.join("\n  ")
            )),
        }
    }
    eprintln!(
        "mapping-rule vectors: {} run ({kinds:?}), {} agree, {} not yet: {waiting:?}",
        vectors.len(),
        vectors.len() - waiting.len() - failures.len(),
        waiting.len()
    );
    assert_eq!(
        waiting.len(),
        NOT_YET.len(),
        "NOT_YET names a vector that is not there"
    );
    assert!(vectors.len() >= 290, "only {} vectors", vectors.len());
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
