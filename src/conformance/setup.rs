//! The configuration both harnesses start from (`setup()` in the Java tests) and the
//! per-vector `config_overrides`: preemption settings, the resource calculator, and the
//! explicit per-queue `disable_preemption` values (each harness resolves those itself).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::config::{
    CapacitySchedulerConfiguration, IntraQueuePreemptionOrder, PreemptionSettings,
};
use crate::resource::{CalculatorKind, Resource, ResourceCalculator};

/// What `config_overrides` says beyond [`PreemptionSettings`].
#[derive(Debug, Clone, PartialEq)]
pub struct Overrides {
    pub calculator: ResourceCalculator,
    /// Queue path → explicit `yarn.scheduler.capacity.<path>.disable_preemption`.
    pub disable_preemption: BTreeMap<String, bool>,
    /// Queue path → the mocked `getResourceLimitForAllUsers` of every user there (tests that
    /// stub it after building the mocks).
    pub user_limit: BTreeMap<String, Resource>,
    /// Leaves with `ordering-policy=fair` (the mock's `FairOrderingPolicy` spy), by path.
    pub fair_ordering: std::collections::BTreeSet<String>,
}

impl Default for Overrides {
    fn default() -> Self {
        Overrides {
            calculator: ResourceCalculator::new(CalculatorKind::Default, 2),
            disable_preemption: BTreeMap::new(),
            user_limit: BTreeMap::new(),
            fair_ordering: Default::default(),
        }
    }
}

/// YARN's defaults for every preemption key, as the configuration reader produces them.
pub fn yarn_default_settings() -> PreemptionSettings {
    CapacitySchedulerConfiguration::from_properties_str(
        "yarn.scheduler.capacity.root.queues=a\nyarn.scheduler.capacity.root.a.capacity=100\n",
    )
    .expect("a one-queue configuration is valid")
    .preemption()
    .clone()
}

/// The Java tests' `setup()` (both harnesses; P8 "Base configuration"): kill wait 10000 ms,
/// interval 3000 ms, everything preemptable in one round (1.0), natural termination 1.0, dead
/// zone 0.1, monitor enabled. Everything else keeps YARN's default.
pub fn base_settings() -> PreemptionSettings {
    PreemptionSettings {
        monitor_enabled: true,
        max_wait_before_kill_ms: 10_000,
        monitoring_interval_ms: 3_000,
        total_preemption_per_round: 1.0,
        natural_termination_factor: 1.0,
        max_ignored_over_capacity: 0.1,
        ..yarn_default_settings()
    }
}

/// A calculator named in a vector (`DominantResourceCalculator`, `DefaultResourceCalculator
/// (memory only)`, or the full class name).
pub fn calculator_named(name: &str) -> Result<ResourceCalculator, String> {
    let short = name.trim().rsplit('.').next().unwrap_or_default();
    if short.starts_with("DominantResourceCalculator") {
        Ok(ResourceCalculator::new(CalculatorKind::Dominant, 2))
    } else if short.starts_with("DefaultResourceCalculator") {
        Ok(ResourceCalculator::new(CalculatorKind::Default, 2))
    } else {
        Err(format!("unknown resource calculator {name:?}"))
    }
}

/// A boolean, or the string a test passed to `conf.set` (`Boolean.parseBoolean`).
fn as_bool(key: &str, v: &Value) -> Result<bool, String> {
    v.as_bool()
        .or_else(|| v.as_str().map(|s| s.trim().eq_ignore_ascii_case("true")))
        .ok_or_else(|| format!("{key}: expected a boolean, got {v}"))
}

/// An integer, or its decimal string.
fn as_i64(key: &str, v: &Value) -> Result<i64, String> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
        .ok_or_else(|| format!("{key}: expected an integer, got {v}"))
}

/// A number, or its decimal string.
fn as_f64(key: &str, v: &Value) -> Result<f64, String> {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
        .ok_or_else(|| format!("{key}: expected a number, got {v}"))
}

/// Sets one preemption key, named as in the vectors (the key after
/// `yarn.resourcemanager.monitor.capacity.preemption.`, or the JSON's underscore spelling of
/// the dotted keys). `Ok(false)` when `key` is not a preemption setting.
pub fn apply_setting(s: &mut PreemptionSettings, key: &str, v: &Value) -> Result<bool, String> {
    let key = key
        .strip_prefix("yarn.resourcemanager.monitor.capacity.preemption.")
        .unwrap_or(key);
    match key {
        "yarn.resourcemanager.scheduler.monitor.enable" | "monitor_enable" => {
            s.monitor_enabled = as_bool(key, v)?
        }
        "observe_only" => s.observe_only = as_bool(key, v)?,
        "monitoring_interval" => s.monitoring_interval_ms = as_i64(key, v)?,
        "max_wait_before_kill" => s.max_wait_before_kill_ms = as_i64(key, v)?,
        // YARN reads it with getFloat.
        "total_preemption_per_round" => s.total_preemption_per_round = as_f64(key, v)? as f32,
        "max_ignored_over_capacity" => s.max_ignored_over_capacity = as_f64(key, v)?,
        "natural_termination_factor" => s.natural_termination_factor = as_f64(key, v)?,
        "select_based_on_reserved_containers" => {
            s.select_based_on_reserved_containers = as_bool(key, v)?
        }
        "additional_res_balance_based_on_reserved_containers" => {
            s.additional_res_balance_based_on_reserved_containers = as_bool(key, v)?
        }
        "preemption_to_balance_queue_after_satisfied_enabled"
        | "preemption-to-balance-queue-after-satisfied.enabled" => {
            s.preemption_to_balance_enabled = as_bool(key, v)?
        }
        "preemption_to_balance_queue_after_satisfied_max_wait_before_kill"
        | "preemption-to-balance-queue-after-satisfied.max-wait-before-kill" => {
            s.preemption_to_balance_max_wait_before_kill_ms = as_i64(key, v)?
        }
        "conservative_drf" | "conservative-drf" => s.conservative_drf = as_bool(key, v)?,
        "intra_queue_preemption_enabled" | "intra-queue-preemption.enabled" => {
            s.intra_queue_enabled = as_bool(key, v)?
        }
        "intra-queue-preemption.minimum-threshold" => {
            s.intra_queue_minimum_threshold = as_f64(key, v)? as f32
        }
        "intra-queue-preemption.max-allowable-limit" => {
            s.intra_queue_max_allowable_limit = as_f64(key, v)? as f32
        }
        "intra-queue-preemption.conservative-drf" => {
            s.intra_queue_conservative_drf = as_bool(key, v)?
        }
        "intra-queue-preemption.preemption-order-policy" => {
            let text = v
                .as_str()
                .ok_or_else(|| format!("{key}: expected a string, got {v}"))?;
            s.intra_queue_order = match text.trim().to_ascii_lowercase().as_str() {
                "userlimit_first" => IntraQueuePreemptionOrder::UserLimitFirst,
                "priority_first" => IntraQueuePreemptionOrder::PriorityFirst,
                other => return Err(format!("{key}: unknown order {other:?}")),
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The current value of a key [`apply_setting`] knows, as JSON (for comparisons).
pub fn read_setting(s: &PreemptionSettings, key: &str) -> Option<Value> {
    Some(match key {
        "yarn.resourcemanager.scheduler.monitor.enable" | "monitor_enable" => {
            Value::from(s.monitor_enabled)
        }
        "observe_only" => Value::from(s.observe_only),
        "monitoring_interval" => Value::from(s.monitoring_interval_ms),
        "max_wait_before_kill" => Value::from(s.max_wait_before_kill_ms),
        "total_preemption_per_round" => Value::from(s.total_preemption_per_round as f64),
        "max_ignored_over_capacity" => Value::from(s.max_ignored_over_capacity),
        "natural_termination_factor" => Value::from(s.natural_termination_factor),
        "select_based_on_reserved_containers" => Value::from(s.select_based_on_reserved_containers),
        "additional_res_balance_based_on_reserved_containers" => {
            Value::from(s.additional_res_balance_based_on_reserved_containers)
        }
        "preemption_to_balance_queue_after_satisfied_enabled"
        | "preemption-to-balance-queue-after-satisfied.enabled" => {
            Value::from(s.preemption_to_balance_enabled)
        }
        "preemption_to_balance_queue_after_satisfied_max_wait_before_kill"
        | "preemption-to-balance-queue-after-satisfied.max-wait-before-kill" => {
            Value::from(s.preemption_to_balance_max_wait_before_kill_ms)
        }
        "conservative_drf" | "conservative-drf" => Value::from(s.conservative_drf),
        "intra_queue_preemption_enabled" | "intra-queue-preemption.enabled" => {
            Value::from(s.intra_queue_enabled)
        }
        _ => return None,
    })
}

/// JSON values compared the way the vectors mean them: numbers by value (`3000` equals
/// `3000.0`; floats through f32, since YARN stores several keys as `float`), everything else
/// exactly.
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_f64(), y.as_f64()) {
                (Some(f), Some(g)) => f == g || (f as f32) == (g as f32),
                _ => false,
            },
        },
        _ => a == b,
    }
}

fn queue_list(key: &str, v: &Value) -> Result<Vec<String>, String> {
    let list = v
        .as_array()
        .ok_or_else(|| format!("{key}: expected a list of queue paths, got {v}"))?;
    list.iter()
        .map(|q| {
            q.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("{key}: expected a queue path, got {q}"))
        })
        .collect()
}

/// Applies one vector's (or phase's) `config_overrides` to `settings` and `overrides`.
///
/// Keys: every preemption setting [`apply_setting`] knows; `resource_calculator`;
/// `disable_preemption=true` / `disable_preemption=false` (lists of queue paths);
/// `lazy_preemption_enabled` (only `false` can be represented: lazy preemption lives in the
/// scheduler, not in these settings). Anything else is an error, so a vector the harness does
/// not understand fails loudly instead of running with the wrong configuration.
pub fn apply_overrides(
    m: &Map<String, Value>,
    settings: &mut PreemptionSettings,
    overrides: &mut Overrides,
) -> Result<(), String> {
    for (key, v) in m {
        if apply_setting(settings, key, v)? {
            continue;
        }
        // `yarn.scheduler.capacity.<path>.disable_preemption`, as the tests set it.
        // A leaf's `ordering-policy` (`fifo` or `fair`), as the tests set it.
        if let Some(path) = key
            .strip_prefix("yarn.scheduler.capacity.")
            .and_then(|k| k.strip_suffix(".ordering-policy"))
        {
            match v.as_str() {
                Some("fifo") => {
                    overrides.fair_ordering.remove(path);
                }
                Some("fair") => {
                    overrides.fair_ordering.insert(path.to_string());
                }
                _ => return Err(format!("{key}: expected fifo or fair, got {v}")),
            }
            continue;
        }
        if let Some(path) = key
            .strip_prefix("yarn.scheduler.capacity.")
            .and_then(|k| k.strip_suffix(".disable_preemption"))
        {
            overrides
                .disable_preemption
                .insert(path.to_string(), as_bool(key, v)?);
            continue;
        }
        match key.as_str() {
            "resource_calculator" => {
                let name = v
                    .as_str()
                    .ok_or_else(|| format!("{key}: expected a class name, got {v}"))?;
                overrides.calculator = calculator_named(name)?;
            }
            "disable_preemption=true" | "disable_preemption=false" => {
                let value = key.ends_with("=true");
                for q in queue_list(key, v)? {
                    if let Some(old) = overrides.disable_preemption.insert(q.clone(), value) {
                        if old != value {
                            return Err(format!(
                                "disable_preemption set both true and false for {q}"
                            ));
                        }
                    }
                }
            }
            "lazy_preemption_enabled" => {
                if as_bool(key, v)? {
                    return Err(
                        "lazy_preemption_enabled=true is not supported by the harness \
                                (the snapshot carries no lazy-preemption flag)"
                            .to_string(),
                    );
                }
            }
            _ => return Err(format!("unsupported config override {key:?}")),
        }
    }
    Ok(())
}

/// [`base_settings`] and default [`Overrides`] with `m` applied (a fresh `setup()` plus the
/// test's own `conf.set…` calls).
pub fn configure(m: &Map<String, Value>) -> Result<(PreemptionSettings, Overrides), String> {
    let mut settings = base_settings();
    let mut overrides = Overrides::default();
    apply_overrides(m, &mut settings, &mut overrides)?;
    Ok((settings, overrides))
}
