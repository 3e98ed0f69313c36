//! The runner: builds each vector's scenario, drives [`PreemptionPolicy`] exactly as the Java
//! test does, and compares what it dispatches with the expectations (`meta.what_is_counted`).
//!
//! * An expectation `appX: N` is the number of `MarkForPreemption` events for that app in
//!   one `edit_schedule` at clock 0 on a fresh policy; `no_ContainerPreemptEvent_of_any_type`
//!   means no event at all. Only the apps listed are checked (Mockito `verify` per app).
//! * `phases`: each phase is a fresh `setup()` — new settings with the phase's overrides, a
//!   new snapshot (app ids restart), a new policy.
//! * `timeline`: one policy, `edit_schedule` at each stated clock; the prose expectations
//!   are read by [`parse_timeline_expect`] and are cumulative over the timeline where they say
//!   so. The phase expectation applies to the first call.
//! * `steps` (configuration refresh): the first step checks the policy as built; a step with
//!   an `action` hands the policy a new configuration — the current settings with the step's
//!   `expect` values applied — through `set_settings`, runs one `edit_schedule`, and checks
//!   `settings()`.
//! * `expect_ideal_assigned_after_run` and `intermediate_asserts` (Java's
//!   `policy.getQueuePartitions()` after the run) are read from the default partition of
//!   [`PreemptionPolicy::select`]'s `Round::temps`; a figure the harness cannot map to a
//!   `TempQueue` field is reported as "not checked" and does not decide the outcome.
//! * Every event must name a container of its app in the snapshot.
//! * A panic inside the policy is caught and reported as a failure of that vector.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use serde_json::Value;

use super::matrix::{self, MatrixInput};
use super::scenario::{count_events, Scenario};
use super::setup::{
    apply_setting, calculator_named, configure, read_setting, same_value, Overrides,
};
use super::string::{self, StringInput};
use super::vectors::{
    AppExpectation, HarnessFlags, Phase, QueueNodeExpectation, RefreshStep, Section, TimelineStep,
    Vector, VectorFile,
};
use crate::config::PreemptionSettings;
use crate::preempt::ideal::TempQueue;
use crate::preempt::order::victim_cmp;
use crate::preempt::policy::{PreemptionEvent, PreemptionEventKind, PreemptionPolicy};
use crate::preempt::snapshot::ContainerSnap;
use crate::resource::{Resource, ResourceCalculator};

#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Pass,
    /// `expected … got …` (or `harness error: …` when the vector could not be run).
    Fail(String),
    Skip(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct VectorResult {
    pub id: String,
    pub outcome: Outcome,
    /// `not checked: …` (assertions the policy gives no access to) and `not represented: …`
    /// (input the snapshot types cannot carry); they do not change the outcome.
    pub notes: Vec<String>,
}

impl fmt::Display for VectorResult {
    /// `PASS id`, `FAIL id: expected … got …`, `SKIP id: reason`, then any notes in
    /// parentheses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Outcome::Pass => write!(f, "PASS {}", self.id)?,
            Outcome::Fail(msg) => write!(f, "FAIL {}: {msg}", self.id)?,
            Outcome::Skip(reason) => write!(f, "SKIP {}: {reason}", self.id)?,
        }
        if !self.notes.is_empty() {
            write!(f, " ({})", self.notes.join("; "))?;
        }
        Ok(())
    }
}

/// Totals over results.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Summary {
    pub fn of(results: &[VectorResult]) -> Summary {
        let mut s = Summary::default();
        for r in results {
            match r.outcome {
                Outcome::Pass => s.passed += 1,
                Outcome::Fail(_) => s.failed += 1,
                Outcome::Skip(_) => s.skipped += 1,
            }
        }
        s
    }

    pub fn add(&mut self, other: Summary) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.skipped += other.skipped;
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )
    }
}

/// Loads `path` and runs every vector in it, in file order.
pub fn run_file(path: &Path) -> Result<Vec<VectorResult>, String> {
    let file = VectorFile::load(path)?;
    // Issue 36.13: a file without vectors (`{}`, an SLS trace) is not "0 passed".
    if file.vectors().next().is_none() {
        return Err(format!(
            "{}: no test vectors in this file (a vector file lists them under \"vectors\", \
             \"matrix_and_unit_vectors\", \"string_vectors\", \"opportunistic_vectors\" or \
             \"extra_vectors_fair_ordering\")",
            path.display()
        ));
    }
    Ok(file.vectors().map(run_vector).collect())
}

/// Runs one vector.
pub fn run_vector(v: &Vector) -> VectorResult {
    let mut ctx = Ctx::default();
    let ran = catch_unwind(AssertUnwindSafe(|| dispatch(v, &mut ctx)));
    let outcome = match ran {
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "non-string panic".to_string());
            Outcome::Fail(format!("panicked: {msg}"))
        }
        Ok(Err(e)) => Outcome::Fail(format!("harness error: {e}")),
        Ok(Ok(())) if ctx.failures.is_empty() => Outcome::Pass,
        Ok(Ok(())) => Outcome::Fail(ctx.failures.join("; ")),
    };
    VectorResult {
        id: v.id.clone(),
        outcome,
        notes: ctx.notes,
    }
}

/// What a run accumulates: mismatches and notes.
#[derive(Debug, Default)]
struct Ctx {
    failures: Vec<String>,
    notes: Vec<String>,
}

impl Ctx {
    fn note(&mut self, s: String) {
        if !self.notes.contains(&s) {
            self.notes.push(s);
        }
    }

    fn fail(&mut self, label: &str, s: String) {
        if label.is_empty() {
            self.failures.push(s);
        } else {
            self.failures.push(format!("{s} [{label}]"));
        }
    }
}

fn dispatch(v: &Vector, ctx: &mut Ctx) -> Result<(), String> {
    if v.section == Section::Opportunistic {
        for f in super::opportunistic::run(v)? {
            ctx.fail("", f);
        }
        return Ok(());
    }
    match v.harness.as_deref() {
        Some("unit") => run_unit(v, ctx),
        Some("matrix") | Some("matrix_with_resource_strings") => run_harness(v, ctx, true),
        Some("string") => run_harness(v, ctx, false),
        Some(other) => Err(format!("unknown harness {other:?}")),
        None => Err("vector has no harness".to_string()),
    }
}

/// A `TempQueuePerPartition` field named as in the Java assertions (`preemptableExtra_memory`,
/// `idealAssigned`, …), read from the policy's last selector's figures.
fn temp_field(t: &TempQueue, key: &str) -> Option<(String, Resource)> {
    let (field, unit) = match key.rsplit_once('_') {
        Some((f, u)) if u == "memory" || u == "vcores" => (f, Some(u)),
        _ => (key, None),
    };
    let r = match field {
        "preemptableExtra" => t.preemptable_extra,
        "untouchableExtra" => t.untouchable_extra,
        "idealAssigned" | "ideal" => t.ideal,
        "toBePreempted" => t.to_be_preempted,
        "actuallyToBePreempted" => t.actually_to_be_preempted,
        "guaranteed" => t.guaranteed,
        "used" => t.used,
        _ => return None,
    };
    Some(match unit {
        Some("memory") => ("memory".to_string(), Resource::new(r.memory_mb(), 0)),
        Some(_) => ("vcores".to_string(), Resource::new(0, r.vcores())),
        None => (String::new(), r),
    })
}

/// An expected figure: a number (memory), `"m:v"` (memory and vcores), or prose ending in
/// `= n` (the number after the last `=`).
fn expected_figure(v: &Value) -> Option<(i64, Option<i64>)> {
    match v {
        Value::Number(n) => n.as_i64().map(|m| (m, None)),
        Value::String(s) => {
            if let Some((_, tail)) = s.rsplit_once('=') {
                return tail.trim().parse().ok().map(|m| (m, None));
            }
            let (m, v) = s.split_once(':')?;
            Some((m.trim().parse().ok()?, Some(v.trim().parse().ok()?)))
        }
        _ => None,
    }
}

/// `expect_ideal_assigned_after_run` and `intermediate_asserts`: the per-queue figures of the
/// default partition after the run (Java's `policy.getQueuePartitions()`), which the policy
/// exposes through [`PreemptionPolicy::select`]'s `Round::temps` (the last selector's ideal
/// computation; `select` is pure, so recomputing it reproduces the run's figures).
fn check_internal(
    v: &Vector,
    scn: &Scenario,
    policy: &PreemptionPolicy,
    label: &str,
    ctx: &mut Ctx,
) -> Result<(), String> {
    let mut wanted: Vec<(String, String, Value)> = Vec::new();
    if let Some(m) = &v.expect_ideal_assigned_after_run {
        for (q, val) in m {
            wanted.push((q.clone(), "idealAssigned".to_string(), val.clone()));
        }
    }
    if let Some(m) = &v.intermediate_asserts {
        for (q, inner) in m {
            let o = inner
                .as_object()
                .ok_or_else(|| format!("intermediate_asserts.{q}: expected an object"))?;
            for (k, val) in o {
                wanted.push((q.clone(), k.clone(), val.clone()));
            }
        }
    }
    if wanted.is_empty() {
        return Ok(());
    }
    let round = policy.select(&scn.snapshot, 0);
    let temps = round
        .temps
        .first()
        .ok_or_else(|| "the policy returned no per-partition figures".to_string())?;
    for (q, key, val) in wanted {
        let what = format!("{q}.{key}");
        let Some(t) = scn.queue_index(&q).and_then(|i| temps.get(i)) else {
            return Err(format!("expectation names unknown queue {q:?}"));
        };
        let (Some((unit, got)), Some((m, vc))) = (temp_field(t, &key), expected_figure(&val))
        else {
            ctx.note(format!("not checked: {what}={val}"));
            continue;
        };
        let ok = match (unit.as_str(), vc) {
            ("vcores", _) => got.vcores() == m,
            (_, Some(vc)) => got.memory_mb() == m && got.vcores() == vc,
            _ => got.memory_mb() == m,
        };
        if !ok {
            let shown = match (unit.as_str(), vc) {
                ("vcores", _) => got.vcores().to_string(),
                (_, Some(_)) => format!("{}:{}", got.memory_mb(), got.vcores()),
                _ => got.memory_mb().to_string(),
            };
            let want = match val {
                Value::String(s) => s,
                other => other.to_string(),
            };
            ctx.fail(label, format!("expected {what}={want} got {what}={shown}"));
        }
    }
    Ok(())
}

/// The phases a vector runs: its own list, or one phase made of its top-level fields.
fn phases_of(v: &Vector) -> Vec<Phase> {
    if !v.phases.is_empty() {
        return v.phases.clone();
    }
    vec![Phase {
        config_overrides: v.config_overrides.clone().unwrap_or_default(),
        harness_flags: HarnessFlags::default(),
        expect_mark_for_preemption_events_per_app: v
            .expect_mark_for_preemption_events_per_app
            .clone(),
    }]
}

/// Settings and scenario for one phase of a harness-A (`matrix`) or harness-B vector.
fn build_phase(
    v: &Vector,
    phase: &Phase,
    is_matrix: bool,
) -> Result<(PreemptionSettings, Scenario), String> {
    let (settings, mut overrides) = configure(&phase.config_overrides)?;
    apply_queue_settings(v, &mut overrides)?;
    if let Some(name) = &v.resource_calculator {
        if !phase.config_overrides.contains_key("resource_calculator") {
            overrides.calculator = calculator_named(name)?;
        }
    }
    if !v.extra_resource_types.is_empty() {
        let types = 2 + v.extra_resource_types.len();
        if types > crate::resource::MAX_RESOURCE_TYPES {
            return Err(format!(
                "{types} resource types: at most {} are supported",
                crate::resource::MAX_RESOURCE_TYPES
            ));
        }
        overrides.calculator = ResourceCalculator::new(overrides.calculator.kind(), types);
    }
    let scenario = if is_matrix {
        matrix::build(
            &MatrixInput::from_vector(v)?,
            &phase.harness_flags,
            &overrides,
            &settings,
        )?
    } else {
        string::build(&StringInput::from_vector(v)?, &overrides, &settings)?
    };
    Ok((settings, scenario))
}

/// A vector's `queue_settings` (by queue path) applied to the harness overrides.
fn apply_queue_settings(v: &Vector, overrides: &mut Overrides) -> Result<(), String> {
    let Some(m) = &v.queue_settings else {
        return Ok(());
    };
    for (path, settings) in m {
        let settings = settings
            .as_object()
            .ok_or_else(|| format!("queue_settings.{path}: expected an object"))?;
        for (key, val) in settings {
            let text = val
                .as_str()
                .ok_or_else(|| format!("queue_settings.{path}.{key}: expected a string"))?;
            match key.as_str() {
                "disable_preemption" => {
                    overrides
                        .disable_preemption
                        .insert(path.clone(), text.trim().eq_ignore_ascii_case("true"));
                }
                "mock_getResourceLimitForAllUsers_any_user_any_partition" => {
                    overrides
                        .user_limit
                        .insert(path.clone(), string::parse_resource(text)?);
                }
                // Informational: the divisor comes from appsConfig's third field.
                "mock_minimum_user_limit_percent_from_appsConfig" => {}
                "ordering-policy" if text == "fifo" => {
                    overrides.fair_ordering.remove(path);
                }
                "ordering-policy" if text == "fair" => {
                    overrides.fair_ordering.insert(path.clone());
                }
                other => return Err(format!("unsupported queue setting {other:?} for {path}")),
            }
        }
    }
    Ok(())
}

fn run_harness(v: &Vector, ctx: &mut Ctx, is_matrix: bool) -> Result<(), String> {
    // Each phase builds a snapshot and each step runs a round: bounded like the sizes.
    for (what, n, max) in [
        ("phases", v.phases.len(), super::MAX_VECTOR_PHASES),
        ("timeline steps", v.timeline.len(), super::MAX_VECTOR_STEPS),
        ("refresh steps", v.steps.len(), super::MAX_VECTOR_STEPS),
    ] {
        if n > max {
            return Err(format!("{n} {what}: at most {max} per vector"));
        }
    }
    if !v.steps.is_empty() {
        return run_refresh(v, ctx, is_matrix);
    }
    let phases = phases_of(v);
    if !v.timeline.is_empty() && phases.len() != 1 {
        return Err("a timeline needs exactly one phase".into());
    }
    let node_exp = match &v.expect_mark_events_per_app_queue_node {
        Some(m) => QueueNodeExpectation::from_map(m)?,
        None => Vec::new(),
    };
    let total = phases.len();
    for (pi, phase) in phases.iter().enumerate() {
        let label = if total > 1 {
            format!("phase {}/{total}", pi + 1)
        } else {
            String::new()
        };
        let (settings, scn) = build_phase(v, phase, is_matrix)?;
        for n in &scn.notes {
            ctx.note(format!("not represented: {n}"));
        }
        let app_exp = phase
            .expect_mark_for_preemption_events_per_app
            .as_ref()
            .map(AppExpectation::from_map)
            .transpose()?;
        let mut policy = PreemptionPolicy::new(settings);
        if v.timeline.is_empty() {
            let events = policy.edit_schedule(&scn.snapshot, 0);
            check_events(&scn, app_exp.as_ref(), &node_exp, &events, &label, ctx)?;
        } else {
            let mut all: Vec<PreemptionEvent> = Vec::new();
            for (si, step) in v.timeline.iter().enumerate() {
                if let Some(a) = &step.action {
                    if a != "editSchedule" {
                        return Err(format!("unsupported timeline action {a:?}"));
                    }
                }
                let events = policy.edit_schedule(&scn.snapshot, step.clock_ms);
                if si == 0 {
                    check_events(&scn, app_exp.as_ref(), &node_exp, &events, &label, ctx)?;
                } else {
                    check_containers_known(&scn, &events, &label, ctx);
                }
                all.extend_from_slice(&events);
                check_timeline_step(&scn, step, &events, &all, ctx)?;
            }
        }
        if pi + 1 == total {
            check_internal(v, &scn, &policy, &label, ctx)?;
        }
    }
    Ok(())
}

/// Every event must name a container of its app.
fn check_containers_known(scn: &Scenario, events: &[PreemptionEvent], label: &str, ctx: &mut Ctx) {
    let unknown: Vec<String> = events
        .iter()
        .filter(|e| scn.container(e).is_none())
        .map(|e| format!("{:?}(app {}, container {})", e.kind, e.app, e.container))
        .collect();
    if !unknown.is_empty() {
        ctx.fail(
            label,
            format!(
                "expected events for containers of the snapshot got {} naming unknown ones: {}",
                unknown.len(),
                unknown.join(", ")
            ),
        );
    }
}

fn check_events(
    scn: &Scenario,
    app_exp: Option<&AppExpectation>,
    node_exp: &[QueueNodeExpectation],
    events: &[PreemptionEvent],
    label: &str,
    ctx: &mut Ctx,
) -> Result<(), String> {
    check_containers_known(scn, events, label, ctx);
    if let Some(exp) = app_exp {
        if exp.no_events_at_all && !events.is_empty() {
            ctx.fail(
                label,
                format!(
                    "expected no ContainerPreemptEvent got {} ({})",
                    events.len(),
                    scn.describe_events(events)
                ),
            );
        }
        let mut want = Vec::new();
        let mut got = Vec::new();
        let mut mismatch = false;
        for (key, n) in &exp.per_app {
            let idx = scn
                .app_index(key)
                .ok_or_else(|| format!("expectation names unknown app {key:?}"))?;
            let g = count_events(events, PreemptionEventKind::MarkForPreemption, idx) as u64;
            mismatch |= g != *n;
            want.push(format!("{key}={n}"));
            got.push(format!("{key}={g}"));
        }
        if mismatch {
            ctx.fail(
                label,
                format!("expected MARK {} got {}", want.join(" "), got.join(" ")),
            );
        }
    }
    if !node_exp.is_empty() {
        let mut want = Vec::new();
        let mut got = Vec::new();
        let mut mismatch = false;
        for e in node_exp {
            let idx = scn
                .app_index(&e.app)
                .ok_or_else(|| format!("expectation names unknown app {:?}", e.app))?;
            let queue_matches = scn.apps[idx].queue_as_written == e.queue;
            let g = events
                .iter()
                .filter(|ev| ev.kind == PreemptionEventKind::MarkForPreemption && ev.app == idx)
                .filter(|ev| {
                    queue_matches
                        && scn
                            .container(ev)
                            .is_some_and(|c| scn.hosts.get(c.node) == Some(&e.host))
                })
                .count() as u64;
            mismatch |= g != e.count;
            let key = format!("{}@{}@{}", e.app, e.queue, e.host);
            want.push(format!("{key}={}", e.count));
            got.push(format!("{key}={g}"));
        }
        if mismatch {
            ctx.fail(
                label,
                format!("expected MARK {} got {}", want.join(" "), got.join(" ")),
            );
        }
    }
    Ok(())
}

/// A check the timeline prose asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimelineCheck {
    /// Cumulative `MarkForPreemption` events for the app since the first call.
    CumulativeMarks { app: String, count: u64 },
    /// Cumulative events of every kind since the first call.
    CumulativeAll { count: u64 },
    /// Events of this call that are `MarkKillable` for the app.
    NewKillable { app: String, count: u64 },
}

/// Removes `( … )` remarks (nesting allowed).
fn strip_parenthesised(s: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for ch in s.chars() {
        match ch {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    out
}

fn number(s: &str) -> Option<u64> {
    s.trim().parse().ok()
}

/// Reads the timeline prose of the vector file: clauses separated by `;`, remarks in
/// parentheses ignored. Recognised:
/// `cumulative MARK_CONTAINER_FOR_PREEMPTION events for <app> = <n>`,
/// `still <n> MARK events for <app>`,
/// `cumulative ContainerPreemptEvents of all types = <n>`,
/// `the <n> new ones are MARK_CONTAINER_FOR_KILLABLE for <app>`.
/// Returns the checks and the clauses it did not recognise.
pub fn parse_timeline_expect(text: &str) -> (Vec<TimelineCheck>, Vec<String>) {
    let mut checks = Vec::new();
    let mut unknown = Vec::new();
    for clause in strip_parenthesised(text).split(';') {
        let c = clause.trim();
        if c.is_empty() {
            continue;
        }
        let words: Vec<&str> = c.split_whitespace().collect();
        let parsed = if let Some(rest) =
            c.strip_prefix("cumulative MARK_CONTAINER_FOR_PREEMPTION events for ")
        {
            rest.split_once('=').and_then(|(app, n)| {
                Some(TimelineCheck::CumulativeMarks {
                    app: app.trim().to_string(),
                    count: number(n)?,
                })
            })
        } else if let Some(rest) =
            c.strip_prefix("cumulative ContainerPreemptEvents of all types =")
        {
            number(rest).map(|count| TimelineCheck::CumulativeAll { count })
        } else if let ["still", n, "MARK", "events", "for", app] = words.as_slice() {
            number(n).map(|count| TimelineCheck::CumulativeMarks {
                app: app.to_string(),
                count,
            })
        } else if let ["the", n, "new", "ones", "are", "MARK_CONTAINER_FOR_KILLABLE", "for", app] =
            words.as_slice()
        {
            number(n).map(|count| TimelineCheck::NewKillable {
                app: app.to_string(),
                count,
            })
        } else {
            None
        };
        match parsed {
            Some(p) => checks.push(p),
            None => unknown.push(c.to_string()),
        }
    }
    (checks, unknown)
}

fn check_timeline_step(
    scn: &Scenario,
    step: &TimelineStep,
    events: &[PreemptionEvent],
    all: &[PreemptionEvent],
    ctx: &mut Ctx,
) -> Result<(), String> {
    let label = format!("t={}", step.clock_ms);
    let (checks, unknown) = parse_timeline_expect(&step.expect);
    for u in unknown {
        ctx.note(format!("not checked: {label}: {u}"));
    }
    let app = |name: &str| {
        scn.app_index(name)
            .ok_or_else(|| format!("timeline names unknown app {name:?}"))
    };
    for c in checks {
        let (what, want, got) = match &c {
            TimelineCheck::CumulativeMarks { app: a, count } => (
                format!("cumulative MARK {a}"),
                *count,
                count_events(all, PreemptionEventKind::MarkForPreemption, app(a)?),
            ),
            TimelineCheck::CumulativeAll { count } => {
                ("cumulative events".to_string(), *count, all.len())
            }
            TimelineCheck::NewKillable { app: a, count } => (
                format!("new KILLABLE {a}"),
                *count,
                count_events(events, PreemptionEventKind::MarkKillable, app(a)?),
            ),
        };
        if want != got as u64 {
            ctx.fail(
                &label,
                format!(
                    "expected {what}={want} got {what}={got} (this call: {})",
                    scn.describe_events(events)
                ),
            );
        }
    }
    Ok(())
}

fn run_refresh(v: &Vector, ctx: &mut Ctx, is_matrix: bool) -> Result<(), String> {
    let phases = phases_of(v);
    if phases.len() != 1 {
        return Err("a refresh vector needs exactly one phase".into());
    }
    let (settings, scn) = build_phase(v, &phases[0], is_matrix)?;
    let mut policy = PreemptionPolicy::new(settings);
    for (si, raw) in v.steps.iter().enumerate() {
        let step = RefreshStep::parse(raw)?;
        let label = format!("step {}", si + 1);
        if step.action.is_some() {
            let mut next = policy.settings().clone();
            for (k, val) in &step.expect {
                if !apply_setting(&mut next, k, val)? {
                    return Err(format!("refresh step sets unknown key {k:?}"));
                }
            }
            policy.set_settings(next);
            let events = policy.edit_schedule(&scn.snapshot, 0);
            check_containers_known(&scn, &events, &label, ctx);
        }
        for (k, want) in &step.expect {
            let got = read_setting(policy.settings(), k)
                .ok_or_else(|| format!("refresh step checks unknown key {k:?}"))?;
            if !same_value(&got, want) {
                ctx.fail(&label, format!("expected {k}={want} got {k}={got}"));
            }
        }
    }
    Ok(())
}

fn run_unit(v: &Vector, ctx: &mut Ctx) -> Result<(), String> {
    if v.input_containers_in_list_order.is_empty() {
        return Err("unit vector without input_containers_in_list_order".into());
    }
    let containers: Vec<ContainerSnap> = v
        .input_containers_in_list_order
        .iter()
        .enumerate()
        .map(|(i, c)| ContainerSnap {
            id: i as u64,
            sequence: c.container_id,
            resource: Resource::new(1, 1),
            priority: c.priority,
            allocation_request_id: 0,
            is_am: false,
            node: 0,
            partition: 0,
            ignore_exclusivity: false,
            created_ms: 0,
            killable: false,
        })
        .collect();
    let mut order: Vec<usize> = (0..containers.len()).collect();
    order.sort_by(|&a, &b| victim_cmp(&containers[a], &containers[b]));
    let got: Vec<&str> = order
        .iter()
        .map(|&i| v.input_containers_in_list_order[i].name.as_str())
        .collect();
    if got != v.expected_sorted_order {
        ctx.fail(
            "",
            format!(
                "expected order {} got {}",
                v.expected_sorted_order.join(" "),
                got.join(" ")
            ),
        );
    }
    Ok(())
}
