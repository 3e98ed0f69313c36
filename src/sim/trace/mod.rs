//! Readers for the input files of Hadoop's Scheduler Load Simulator (SLS,
//! `hadoop-tools/hadoop-sls`), producing a format-independent list of jobs and nodes that the
//! discrete-event simulator replays.
//!
//! | format | reader | SLS code followed |
//! | --- | --- | --- |
//! | SLS JSON jobs (`--tracetype=SLS`) | [`parse_sls_jobs`] | `AMRunner.startAMFromSLSTrace`, `AMDefinitionFactory.createFromSlsTrace`, `AMDefinitionSLS`, `TaskContainerDefinition` |
//! | Rumen job history (`--tracetype=RUMEN`) | [`parse_rumen`] | `AMRunner.startAMFromRumenTrace`, `AMDefinitionRumen` |
//! | SYNTH workloads (`--tracetype=SYNTH`) | [`parse_synth`] | `SynthTraceJobProducer`, `SynthJob`, `SynthUtils`, `AMDefinitionSynth` |
//! | nodes file (`--nodes`) | [`parse_nodes`] | `SLSUtils.parseNodesFromNodeFile` |
//! | nodes named by a trace | [`nodes_from_jobs`], [`nodes_from_sls_trace`], [`parse_synth_nodes`] | `NMRunner.startNM`, `SLSUtils.parseNodesFromSLSTrace` / `parseNodesFromRumenTrace` / `generateNodes` |
//!
//! Conventions shared by every reader:
//!
//! * Files are streams of JSON values, read the way SLS's Jackson `ObjectMapper.readValues`
//!   reads them: concatenated objects, not an array. A leading UTF-8 byte-order mark is skipped.
//! * Numbers SLS reads with `Long.parseLong(value.toString())` / `Integer.parseInt(…)` accept a
//!   JSON integer or a string holding one (`"job.start.ms": "100"`); anything else is an error.
//! * Every malformed input gives a [`TraceError`] naming the file, the 0-based index of the JSON
//!   value (job) it is in, and the key (a path such as `job.tasks[2].container.end.ms`) — where
//!   SLS would have logged "Failed to create an AM" and skipped the job, or crashed, these
//!   readers refuse the file instead. Nothing panics on bad input.
//! * Host names keep SLS's network-path form, `/rack/host`. Racks are network locations with
//!   their leading slash (`/default-rack`), which is the name the ResourceManager sees: SLS
//!   writes a table mapping `host → /rack` for the RM's rack resolver and its AMs ask for
//!   `"/" + rack`.
//!
//! The folder may use the simulator's limits (`sim::limits`), Java's string handling
//! (`config::hadoop::java`) and the crate's bounded file reader (`files`); nothing of the
//! scheduler or of the simulator's engine, which use it. This file is its bottom — the
//! format-independent types every reader produces (`TraceJob`, `TraceNode`, `TraceError`,
//! `SimDefaults`) — and its facade. `json` (the readers' shared JSON helpers) comes next, then
//! `nodes` (the cluster, and the host paths every trace reader splits), then the trace readers
//! `sls`, `rumen` and `synth`, and `cross_reader_tests` on top.

#[cfg(test)]
mod cross_reader_tests;
mod json;
mod nodes;
mod rumen;
mod sls;
mod synth;

use std::fmt;

pub use nodes::{
    build_node_labels_from_str, generate_nodes, nodes_from_jobs, nodes_from_sls_trace, parse_nodes,
    parse_nodes_file, split_network_path, NodesFile, ADD_LABEL_FORMAT_ERR, NO_LABEL_ERR,
};
pub use rumen::parse_rumen;
pub use sls::parse_sls_jobs;
pub use synth::{
    assign_synth_hosts, parse_synth, parse_synth_header, parse_synth_nodes, synth_nodes,
    SynthHeader,
};

/// The largest trace or nodes file read (its text is held in memory while it is parsed).
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads a trace or nodes file: a regular file of at most [`MAX_INPUT_BYTES`], as UTF-8 text
/// ([`crate::files::read_regular_file`]).
pub fn read_input_file(path: &std::path::Path) -> Result<String, String> {
    crate::files::read_regular_file(path, MAX_INPUT_BYTES, "a trace or nodes file")
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// SLS's simulator-wide defaults (`SLSConfiguration`'s `*_DEFAULT` constants; `sls-runner.xml`
/// may override them, see [`SimDefaults::set_property`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimDefaults {
    /// `yarn.sls.am.container.memory` (1024): the AM container of every job, unless an SLS job
    /// sets `am.memory-mb`.
    pub am_memory_mb: i64,
    /// `yarn.sls.am.container.vcores` (1), or the SLS job's `am.vcores`.
    pub am_vcores: i64,
    /// `yarn.sls.container.memory.mb` (1024): a task container, unless an SLS task sets
    /// `container.memory-mb`. Rumen tasks always use it.
    pub container_memory_mb: i64,
    /// `yarn.sls.container.vcores` (1), or the SLS task's `container.vcores`.
    pub container_vcores: i64,
    /// `yarn.sls.nm.memory.mb` (10240): a node, unless the nodes file sets `memory-mb`.
    pub node_memory_mb: i64,
    /// `yarn.sls.nm.vcores` (10), or the nodes file's `vcores`.
    pub node_vcores: i64,
    /// `yarn.sls.nm.heartbeat.interval.ms` (1000).
    pub nm_heartbeat_ms: i64,
    /// `yarn.sls.am.heartbeat.interval.ms` (1000).
    pub am_heartbeat_ms: i64,
}

impl Default for SimDefaults {
    fn default() -> Self {
        SimDefaults {
            am_memory_mb: 1024,
            am_vcores: 1,
            container_memory_mb: 1024,
            container_vcores: 1,
            node_memory_mb: 10240,
            node_vcores: 10,
            nm_heartbeat_ms: 1000,
            am_heartbeat_ms: 1000,
        }
    }
}

impl SimDefaults {
    /// Applies one `sls-runner.xml` property (read with the crate's Hadoop configuration
    /// reader). Returns `Ok(false)` for a name that is not one of these defaults, and an error
    /// for a value that is not a non-negative integer (Hadoop's `Configuration.getInt` /
    /// `getLong` on a trimmed value; `0x` hexadecimal is accepted as Hadoop does).
    pub fn set_property(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let slot = match name {
            "yarn.sls.am.container.memory" => &mut self.am_memory_mb,
            "yarn.sls.am.container.vcores" => &mut self.am_vcores,
            "yarn.sls.container.memory.mb" => &mut self.container_memory_mb,
            "yarn.sls.container.vcores" => &mut self.container_vcores,
            "yarn.sls.nm.memory.mb" => &mut self.node_memory_mb,
            "yarn.sls.nm.vcores" => &mut self.node_vcores,
            "yarn.sls.nm.heartbeat.interval.ms" => &mut self.nm_heartbeat_ms,
            "yarn.sls.am.heartbeat.interval.ms" => &mut self.am_heartbeat_ms,
            _ => return Ok(false),
        };
        let v = value.trim();
        let parsed = match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
            Some(hex) => i64::from_str_radix(hex, 16).ok(),
            None => v.parse::<i64>().ok(),
        };
        match parsed {
            Some(n) if n >= 0 => {
                *slot = n;
                Ok(true)
            }
            Some(_) => Err(format!("{name}: {value:?} must not be negative")),
            None => Err(format!("{name}: {value:?} is not an integer")),
        }
    }
}

/// A NodeManager to simulate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceNode {
    /// Host name without its rack (`node1`).
    pub host: String,
    /// Network location with its leading slash (`/rack1`, `/coreA/torB`).
    pub rack: String,
    pub memory_mb: i64,
    pub vcores: i64,
    /// The nodes file's `labels`, as `(name, exclusive)` in the order written (SLS's
    /// `YarnClientUtils.buildNodeLabelsFromStr`); empty for an unlabelled node. The simulator
    /// makes them cluster labels and maps the node to them (docs/SIMULATOR.md, "Node labels"):
    /// a node may carry one label at most, as YARN's label manager allows.
    pub labels: Vec<(String, bool)>,
}

/// A container's execution type (`container.execution.type`, YARN's `ExecutionType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TraceExecutionType {
    #[default]
    Guaranteed,
    Opportunistic,
}

impl TraceExecutionType {
    /// `ExecutionType.valueOf`: the exact, case-sensitive constant names.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "GUARANTEED" => Some(TraceExecutionType::Guaranteed),
            "OPPORTUNISTIC" => Some(TraceExecutionType::Opportunistic),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TraceExecutionType::Guaranteed => "GUARANTEED",
            TraceExecutionType::Opportunistic => "OPPORTUNISTIC",
        }
    }
}

/// One job (one AM) of a trace.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceJob {
    /// The trace's job id; SLS's AM sequence number when the trace has none (or `job.count > 1`).
    pub id: String,
    pub queue: String,
    pub user: String,
    /// When the job is submitted, in ms from the start of the simulation.
    pub start_ms: i64,
    /// The trace's finish time (SLS only logs it), same time base as `start_ms`.
    pub end_ms: Option<i64>,
    /// The AM type: `"mapreduce"`, `"stream"`, `"dag"`, … (SLS's `yarn.sls.am.type.<type>`).
    pub job_type: String,
    pub am_memory_mb: i64,
    pub am_vcores: i64,
    /// One entry per container (SLS's `count` already expanded).
    pub tasks: Vec<TraceTask>,
    /// The application priority (SLS submits every application at priority 0).
    pub priority: i32,
    /// The application's node-label expression (SLS's `job.label.expression`): its AM and
    /// every task ask take it. `None`: no label (the queue's default label applies).
    pub label_expression: Option<String>,
}

/// One task entry of a job: `count` identical containers (SLS's task `count`, kept as a count
/// rather than expanded, so a trace's size in memory follows its entries, not its containers).
#[derive(Debug, Clone, PartialEq)]
pub struct TraceTask {
    /// How many identical containers this entry stands for (at least 1).
    pub count: u64,
    /// The host the container asks for, as in the trace (`/default-rack/node1`).
    pub host: Option<String>,
    /// That host's network location (`/default-rack`).
    pub rack: Option<String>,
    /// The trace's start time of the container, informational (SLS does not use it).
    pub start_ms: Option<i64>,
    /// How long the container runs once launched (always > 0).
    pub duration_ms: i64,
    /// The request priority (20 maps, 10 reduces by default).
    pub priority: i32,
    /// `"map"`, `"reduce"`, `"stream"`, …
    pub task_type: String,
    pub memory_mb: i64,
    pub vcores: i64,
    pub execution_type: TraceExecutionType,
    /// How long after the AM registers the container is requested (`container.request.delay`).
    pub request_delay_ms: i64,
}

impl TraceJob {
    /// A MapReduce job as SLS submits it by default: a 1 GB / 1 vcore AM, priority 0.
    pub fn mapreduce(
        id: &str,
        queue: &str,
        user: &str,
        start_ms: i64,
        tasks: Vec<TraceTask>,
    ) -> Self {
        TraceJob {
            id: id.to_string(),
            queue: queue.to_string(),
            user: user.to_string(),
            start_ms,
            end_ms: None,
            job_type: "mapreduce".to_string(),
            am_memory_mb: 1024,
            am_vcores: 1,
            tasks,
            priority: 0,
            label_expression: None,
        }
    }
}

impl TraceTask {
    /// One guaranteed map container (priority 20, asked as soon as the AM registers) of
    /// `memory_mb` and `vcores`, lasting `duration_ms`, with no preferred host.
    pub fn map(duration_ms: i64, memory_mb: i64, vcores: i64) -> Self {
        TraceTask {
            count: 1,
            host: None,
            rack: None,
            start_ms: None,
            duration_ms,
            priority: 20,
            task_type: "map".to_string(),
            memory_mb,
            vcores,
            execution_type: TraceExecutionType::Guaranteed,
            request_delay_ms: 0,
        }
    }
}

/// A malformed input: which file, which job (0-based index of the JSON value in the file), which
/// key, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceError {
    pub file: String,
    /// What the file's top-level values are, as the message names them: "job" in a trace,
    /// "entry" in a nodes file (issue 36.16: its errors said "job 1").
    pub item: &'static str,
    pub job_index: Option<usize>,
    pub key: Option<String>,
    pub message: String,
}

impl TraceError {
    pub fn new(
        file: &str,
        job_index: Option<usize>,
        key: Option<&str>,
        message: impl Into<String>,
    ) -> Self {
        TraceError {
            file: file.to_string(),
            item: "job",
            job_index,
            key: key.map(str::to_string),
            message: message.into(),
        }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.file)?;
        if let Some(i) = self.job_index {
            write!(f, "{} {i}: ", self.item)?;
        }
        if let Some(k) = &self.key {
            write!(f, "key {k:?}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for TraceError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_display_names_file_job_and_key() {
        let e = TraceError::new(
            "inputsls.json",
            Some(3),
            Some("job.tasks"),
            "expected an array",
        );
        assert_eq!(
            e.to_string(),
            r#"inputsls.json: job 3: key "job.tasks": expected an array"#
        );
        let e = TraceError::new("a.json", None, None, "empty");
        assert_eq!(e.to_string(), "a.json: empty");
    }

    #[test]
    fn defaults_are_sls_configuration_defaults() {
        let d = SimDefaults::default();
        assert_eq!((d.am_memory_mb, d.am_vcores), (1024, 1));
        assert_eq!((d.container_memory_mb, d.container_vcores), (1024, 1));
        assert_eq!((d.node_memory_mb, d.node_vcores), (10240, 10));
        assert_eq!((d.nm_heartbeat_ms, d.am_heartbeat_ms), (1000, 1000));
    }

    /// The `<name>`/`<value>` pairs of a flat Hadoop configuration file (enough for the sample).
    fn properties(xml: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut rest = xml;
        while let Some(p) = rest.find("<name>") {
            let after = &rest[p + 6..];
            let name_end = after.find("</name>").unwrap();
            let name = after[..name_end].trim().to_string();
            let v = after.find("<value>").unwrap() + 7;
            let value_end = after[v..].find("</value>").unwrap() + v;
            out.push((name, after[v..value_end].to_string()));
            rest = &after[value_end..];
        }
        out
    }

    #[test]
    fn sls_runner_xml_overrides_defaults() {
        let xml = include_str!("../../../tests/data/sls/sls-runner.xml");
        let mut d = SimDefaults::default();
        let mut applied = 0;
        for (name, value) in properties(xml) {
            if d.set_property(&name, &value).unwrap() {
                applied += 1;
            }
        }
        // nm.memory.mb, nm.vcores, nm/am heartbeat, container memory/vcores.
        assert_eq!(applied, 6);
        assert_eq!((d.node_memory_mb, d.node_vcores), (100240, 100));
        assert_eq!((d.container_memory_mb, d.container_vcores), (1024, 1));
        assert_eq!((d.nm_heartbeat_ms, d.am_heartbeat_ms), (1000, 1000));
        // The sample does not set the AM container size: SLSConfiguration's defaults stay.
        assert_eq!((d.am_memory_mb, d.am_vcores), (1024, 1));
    }

    #[test]
    fn bad_property_values_are_errors() {
        let mut d = SimDefaults::default();
        assert_eq!(d.set_property("yarn.sls.runner.pool.size", "x"), Ok(false));
        assert!(d.set_property("yarn.sls.nm.vcores", "ten").is_err());
        assert!(d.set_property("yarn.sls.nm.vcores", "-1").is_err());
        assert_eq!(d.set_property("yarn.sls.nm.vcores", " 0x10 "), Ok(true));
        assert_eq!(d.node_vcores, 16);
    }

    #[test]
    fn execution_types_are_case_sensitive() {
        assert_eq!(
            TraceExecutionType::parse("GUARANTEED"),
            Some(TraceExecutionType::Guaranteed)
        );
        assert_eq!(
            TraceExecutionType::parse("OPPORTUNISTIC"),
            Some(TraceExecutionType::Opportunistic)
        );
        assert_eq!(TraceExecutionType::parse("guaranteed"), None);
        assert_eq!(TraceExecutionType::Opportunistic.as_str(), "OPPORTUNISTIC");
    }
}
