//! Serde model of `preemption-vectors.json` (Hadoop's preemption unit tests transcribed as
//! data). Only the shape is modelled here; what the fields mean is in the file's own `meta`
//! and in the spec (P8, P9), and is applied by the harnesses that build on this model (the
//! matrix and string harnesses, and the runner).
//!
//! Unknown fields are ignored (vectors carry notes and provenance); fields the harness needs
//! must have the stated types, otherwise loading fails with serde's message.

use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Value};

/// Which list of the file a vector came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Section {
    /// `matrix_and_unit_vectors` (harness A and the `unit` vector).
    #[default]
    MatrixAndUnit,
    /// `string_vectors` (harness B).
    String,
    /// `opportunistic_vectors` (the node-queue load monitor, spec O4–O5).
    Opportunistic,
}

/// The whole file.
#[derive(Debug, Clone, Deserialize)]
pub struct VectorFile {
    #[serde(default)]
    pub meta: Value,
    #[serde(default)]
    pub matrix_and_unit_vectors: Vec<Vector>,
    #[serde(default)]
    pub string_vectors: Vec<Vector>,
    #[serde(default)]
    pub opportunistic_vectors: Vec<Vector>,
    /// `intra-queue-vectors.json`: string-harness vectors of the intra-queue tests.
    #[serde(default)]
    pub vectors: Vec<Vector>,
    /// `intra-queue-vectors.json`: the fair-ordering intra-queue tests.
    #[serde(default)]
    pub extra_vectors_fair_ordering: Vec<Vector>,
}

impl VectorFile {
    /// Parses the JSON text and tags every vector with its [`Section`].
    pub fn parse(text: &str) -> Result<VectorFile, String> {
        let mut file: VectorFile =
            serde_json::from_str(text).map_err(|e| format!("malformed vector file: {e}"))?;
        for v in &mut file.matrix_and_unit_vectors {
            v.section = Section::MatrixAndUnit;
        }
        for v in &mut file.string_vectors {
            v.section = Section::String;
        }
        for v in &mut file.opportunistic_vectors {
            v.section = Section::Opportunistic;
        }
        for v in file
            .vectors
            .iter_mut()
            .chain(&mut file.extra_vectors_fair_ordering)
        {
            v.section = Section::String;
        }
        Ok(file)
    }

    /// Reads and parses `path`.
    pub fn load(path: &Path) -> Result<VectorFile, String> {
        let text = crate::files::read_regular_file(path, 256 << 20, "a vector file")
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Self::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Every vector in file order: matrix and unit vectors, string vectors, opportunistic ones.
    pub fn vectors(&self) -> impl Iterator<Item = &Vector> {
        self.matrix_and_unit_vectors
            .iter()
            .chain(&self.string_vectors)
            .chain(&self.opportunistic_vectors)
            .chain(&self.vectors)
            .chain(&self.extra_vectors_fair_ordering)
    }
}

/// One vector. Which fields are present depends on `harness` (see the module docs of the
/// harnesses); everything but `id` is optional at this level.
#[derive(Debug, Clone, Deserialize)]
pub struct Vector {
    pub id: String,
    #[serde(skip)]
    pub section: Section,
    /// `matrix`, `matrix_with_resource_strings`, `unit`, `string`; absent for opportunistic
    /// vectors.
    #[serde(default)]
    pub harness: Option<String>,

    // ---- harness A -------------------------------------------------------------------
    #[serde(default)]
    pub matrix: Option<Matrix>,
    /// `matrix_with_resource_strings`: the integer rows.
    #[serde(default)]
    pub int_rows: Option<IntRows>,
    /// `matrix_with_resource_strings`: the `"memory:vcores"` rows.
    #[serde(default)]
    pub resource_rows: Option<ResourceRows>,
    #[serde(default)]
    pub phases: Vec<Phase>,
    #[serde(default)]
    pub timeline: Vec<TimelineStep>,
    /// Configuration-refresh steps (`testRefreshPreemptionProperties`); opportunistic vectors
    /// use the same key with another shape, hence raw JSON (see [`RefreshStep::parse`]).
    #[serde(default)]
    pub steps: Vec<Value>,
    #[serde(default)]
    pub intermediate_asserts: Option<Map<String, Value>>,
    /// The construction spelled out (checked by the tests, not used by the runner).
    #[serde(default)]
    pub derived_layout: Option<Value>,

    // ---- unit ------------------------------------------------------------------------
    #[serde(default)]
    pub input_containers_in_list_order: Vec<UnitContainer>,
    #[serde(default)]
    pub expected_sorted_order: Vec<String>,

    // ---- harness B -------------------------------------------------------------------
    #[serde(default, rename = "labelsConfig")]
    pub labels_config: Option<String>,
    #[serde(default, rename = "nodesConfig")]
    pub nodes_config: Option<String>,
    #[serde(default, rename = "queuesConfig")]
    pub queues_config: Option<String>,
    #[serde(default, rename = "appsConfig")]
    pub apps_config: Option<String>,

    // ---- shared by single-run vectors (harness B puts them at the top level) ----------
    #[serde(default)]
    pub config_overrides: Option<Map<String, Value>>,
    /// Per-queue settings the test makes outside the strings, by queue path (`*` for all):
    /// `disable_preemption`, `ordering-policy`, and the mock's own stubs
    /// (`mock_getResourceLimitForAllUsers_any_user_any_partition`; the informational
    /// `mock_minimum_user_limit_percent_from_appsConfig`).
    #[serde(default)]
    pub queue_settings: Option<Map<String, Value>>,
    /// Resource types registered beyond memory and vcores (`ResourceUtils`): every resource
    /// the strings give has them at 0.
    #[serde(default)]
    pub extra_resource_types: Vec<Value>,
    #[serde(default)]
    pub expect_mark_for_preemption_events_per_app: Option<Map<String, Value>>,
    /// `"app1@root.a@n1": 5`: MARK events for that app whose container carries that queue
    /// name (as written in appsConfig) and sits on that host.
    #[serde(default)]
    pub expect_mark_events_per_app_queue_node: Option<Map<String, Value>>,
    #[serde(default)]
    pub expect_ideal_assigned_after_run: Option<Map<String, Value>>,
    /// Some vectors repeat the calculator at the top level.
    #[serde(default)]
    pub resource_calculator: Option<String>,
    #[serde(default)]
    pub note: Option<String>,

    // ---- opportunistic (NodeQueueLoadMonitor) -----------------------------------------
    /// `QUEUE_LENGTH`, `QUEUE_WAIT_TIME`, `QUEUE_LENGTH_THEN_RESOURCES`.
    #[serde(default)]
    pub comparator: Option<String>,
    /// The opportunistic queue capacity every node reports.
    #[serde(default)]
    pub node_queue_capacity_default: Option<i32>,
    /// The estimated wait time every node reports.
    #[serde(default)]
    pub wait_time_reported: Option<i32>,
}

/// Harness A's integer matrix: `row[column]`, column 0 is root, then depth-first pre-order.
#[derive(Debug, Clone, Deserialize)]
pub struct Matrix {
    pub abs_guaranteed: Vec<i64>,
    pub max_capacity: Vec<i64>,
    pub used: Vec<i64>,
    pub pending: Vec<i64>,
    pub reserved: Vec<i64>,
    pub apps: Vec<i64>,
    pub request_granularity: Vec<i64>,
    pub subqueues: Vec<i64>,
}

/// `matrix_with_resource_strings`: the rows that stay integers.
#[derive(Debug, Clone, Deserialize)]
pub struct IntRows {
    pub max_capacity: Vec<i64>,
    pub apps: Vec<i64>,
    pub subqueues: Vec<i64>,
}

/// `matrix_with_resource_strings`: the rows written as resources.
#[derive(Debug, Clone, Deserialize)]
pub struct ResourceRows {
    pub abs_guaranteed: Vec<String>,
    pub used: Vec<String>,
    pub pending: Vec<String>,
    pub reserved: Vec<String>,
    pub request_granularity: Vec<String>,
}

/// One `setup()` … `editSchedule()` run of a harness-A test.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Phase {
    #[serde(default)]
    pub config_overrides: Map<String, Value>,
    #[serde(default)]
    pub harness_flags: HarnessFlags,
    #[serde(default)]
    pub expect_mark_for_preemption_events_per_app: Option<Map<String, Value>>,
}

/// Fields of the Java test class that change how the matrix is mocked.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct HarnessFlags {
    /// The first live container of every app is its AM container (priority 0).
    #[serde(default, rename = "setAMContainer")]
    pub set_am_container: bool,
    /// `LeafQueue.getMaxAMResourcePerQueuePercent()`; 0 when not set.
    #[serde(default, rename = "maxAMResourcePerQueuePercent")]
    pub max_am_resource_per_queue_percent: f32,
}

/// One `editSchedule()` of a timeline on a single policy.
#[derive(Debug, Clone, Deserialize)]
pub struct TimelineStep {
    pub clock_ms: i64,
    #[serde(default)]
    pub action: Option<String>,
    /// Prose; the runner recognises the phrasings used by the file (see `run.rs`).
    pub expect: String,
}

/// One step of a configuration-refresh vector.
#[derive(Debug, Clone, Deserialize)]
pub struct RefreshStep {
    /// Absent for the first step (the policy as built); present when the scheduler hands the
    /// policy a new configuration before one `editSchedule()`.
    #[serde(default)]
    pub action: Option<String>,
    pub expect: Map<String, Value>,
}

impl RefreshStep {
    pub fn parse(v: &Value) -> Result<RefreshStep, String> {
        serde_json::from_value(v.clone()).map_err(|e| format!("malformed refresh step: {e}"))
    }
}

/// An input of the `unit` vector `testContainerOrdering`.
#[derive(Debug, Clone, Deserialize)]
pub struct UnitContainer {
    pub name: String,
    pub container_id: i64,
    pub priority: i32,
}

/// What one run must dispatch, from an `expect_mark_for_preemption_events_per_app` map.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AppExpectation {
    /// `no_ContainerPreemptEvent_of_any_type: true` — no event of any kind (Mockito
    /// `never()` on `isA(ContainerPreemptEvent.class)`).
    pub no_events_at_all: bool,
    /// (app key as written, number of MARK_CONTAINER_FOR_PREEMPTION events), in file order.
    pub per_app: Vec<(String, u64)>,
}

impl AppExpectation {
    pub fn from_map(m: &Map<String, Value>) -> Result<AppExpectation, String> {
        let mut e = AppExpectation::default();
        for (k, v) in m {
            if k == "no_ContainerPreemptEvent_of_any_type" {
                e.no_events_at_all = v
                    .as_bool()
                    .ok_or_else(|| format!("expectation {k}: expected a boolean, got {v}"))?;
            } else {
                let n = v
                    .as_u64()
                    .ok_or_else(|| format!("expectation {k}: expected a count, got {v}"))?;
                e.per_app.push((k.clone(), n));
            }
        }
        Ok(e)
    }
}

/// One `"app@queue@host": n` entry of `expect_mark_events_per_app_queue_node`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueNodeExpectation {
    pub app: String,
    /// The container's queue name exactly as written in appsConfig (`a` or `root.a`).
    pub queue: String,
    pub host: String,
    pub count: u64,
}

impl QueueNodeExpectation {
    pub fn from_map(m: &Map<String, Value>) -> Result<Vec<QueueNodeExpectation>, String> {
        m.iter()
            .map(|(k, v)| {
                let parts: Vec<&str> = k.split('@').collect();
                if parts.len() != 3 || parts.iter().any(|p| p.is_empty()) {
                    return Err(format!("expectation key {k:?}: expected app@queue@host"));
                }
                let count = v
                    .as_u64()
                    .ok_or_else(|| format!("expectation {k}: expected a count, got {v}"))?;
                Ok(QueueNodeExpectation {
                    app: parts[0].to_string(),
                    queue: parts[1].to_string(),
                    host: parts[2].to_string(),
                    count,
                })
            })
            .collect()
    }
}
