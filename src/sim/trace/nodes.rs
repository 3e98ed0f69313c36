//! The cluster: SLS's nodes file (`--nodes`), or the nodes a trace names.

use std::collections::HashSet;

use super::json::{self, At, Fields};
use super::{SimDefaults, TraceError, TraceJob, TraceNode};
use crate::config::hadoop::java::java_trim;
use crate::sim::limits::{too_many, MAX_NODES};

/// `YarnClientUtils.ADD_LABEL_FORMAT_ERR_MSG`: a nodes file's `labels` SLS cannot read.
pub const ADD_LABEL_FORMAT_ERR: &str = "Input format for adding node-labels is not correct, it \
     should be labelName1[(exclusive=true/false)],LabelName2[] ..";

/// `YarnClientUtils.NO_LABEL_ERR_MSG`: a `labels` string naming no label.
pub const NO_LABEL_ERR: &str = "No cluster node-labels are specified";

/// `YarnClientUtils.buildNodeLabelsFromStr`, which SLS reads a node's `labels` with:
/// comma-separated `name[(exclusive=true|false)]` entries, blank ones skipped, exclusivity
/// true unless said otherwise; `(exclusive=…)` must be exactly that key with `true` or
/// `false` (spaces around either allowed), `()` or `( )` is allowed, text after `)` is
/// ignored, and unmatched parentheses are refused. A `labels` naming nothing is refused too.
/// Names are returned trimmed (YARN's label manager trims them); whether a name is a valid
/// label is the label manager's question, asked when the simulation starts.
pub fn build_node_labels_from_str(args: &str) -> Result<Vec<(String, bool)>, String> {
    let format_err = || Err(ADD_LABEL_FORMAT_ERR.to_string());
    let mut out = Vec::new();
    for p in args.split(',') {
        if java_trim(p).is_empty() {
            continue;
        }
        let mut exclusive = true;
        let (left, right) = (p.find('('), p.find(')'));
        match (left, right) {
            (None, Some(_)) | (Some(_), None) => return format_err(),
            // Java's test is `left > 0 && right > 0`: a label starting with "(" or a ")" at
            // the very start skips the property (and leaves an empty or odd name behind).
            (Some(l), Some(r)) if l > 0 && r > 0 => {
                if l > r {
                    return format_err();
                }
                let property = &p[l + 1..r];
                match property.find('=') {
                    Some(eq) => {
                        let key = java_trim(&property[..eq]);
                        let value = java_trim(&property[eq + 1..]);
                        match (key, value) {
                            ("exclusive", "true") => exclusive = true,
                            ("exclusive", "false") => exclusive = false,
                            _ => return format_err(),
                        }
                    }
                    None if !java_trim(property).is_empty() => return format_err(),
                    None => {}
                }
            }
            _ => {}
        }
        let name = match left {
            Some(l) => &p[..l],
            None => p,
        };
        out.push((java_trim(name).to_string(), exclusive));
    }
    if out.is_empty() {
        return Err(NO_LABEL_ERR.to_string());
    }
    Ok(out)
}

/// Splits an SLS host path into its network location and host name, like SLS's
/// `SLSUtils.getRackHostName` (Hadoop's `NodeBase`): `/rack1/node1` → (`/rack1`, `node1`),
/// `/coreA/torB/node1` → (`/coreA/torB`, `node1`); one trailing `/` is dropped. The path must
/// start with `/` and have a non-empty rack and host — SLS throws on anything else
/// (`NodeBase` rejects a relative path; `getRackHostName` fails on a root-level host).
pub fn split_network_path(path: &str) -> Result<(String, String), String> {
    if !path.starts_with('/') {
        return Err(format!(
            "host {path:?} is not a network path \"/rack/host\" (it must start with '/')"
        ));
    }
    let p = path.strip_suffix('/').unwrap_or(path);
    let Some(i) = p.rfind('/') else {
        return Err(format!(
            "host {path:?} is not a network path \"/rack/host\""
        ));
    };
    let (rack, host) = (&p[..i], &p[i + 1..]);
    if rack.len() <= 1 || host.is_empty() {
        return Err(format!(
            "host {path:?} is not a network path \"/rack/host\""
        ));
    }
    Ok((rack.to_string(), host.to_string()))
}

/// Appends the node at `path` unless a node with that path is already there (SLS keeps its
/// nodes in a `HashSet` keyed by the path; the first occurrence wins). A node beyond
/// [`MAX_NODES`] is refused.
fn add_node(
    out: &mut Vec<TraceNode>,
    seen: &mut HashSet<String>,
    path: &str,
    memory_mb: i64,
    vcores: i64,
    labels: Vec<(String, bool)>,
) -> Result<(), String> {
    let (rack, host) = split_network_path(path)?;
    let key = format!("{rack}/{host}");
    if !seen.contains(&key) && out.len() >= MAX_NODES {
        return Err(format!(
            "more than {MAX_NODES} nodes, the simulator's limit (docs/SIMULATOR.md)"
        ));
    }
    if seen.insert(key) {
        out.push(TraceNode {
            host,
            rack,
            memory_mb,
            vcores,
            labels,
        });
    }
    Ok(())
}

/// Reads an SLS nodes file: a stream of `{"rack": "...", "nodes": [{"node": "...",
/// "memory-mb"?: .., "vcores"?: .., "labels"?: ".."}]}` objects (`SLSUtils.parseNodesFromNodeFile`).
///
/// * The node's path is `"/" + rack + "/" + node`, split by [`split_network_path`], so a rack
///   may itself be a path (`"coreA/torB"`).
/// * A missing `rack` becomes the text `null`, as Java's string concatenation makes it. An
///   entry without a `node` name is skipped with a warning: SLS would register a host named
///   `null` (its own sample `nodes.json` has such an empty `{}` entry on `/rack5`), and two of
///   them on different racks would be one host twice. Any other non-string is an error.
/// * `memory-mb` / `vcores` (`Integer.parseInt`) default to the defaults' node size; negative
///   sizes are errors.
/// * `labels`, a string, is read by [`build_node_labels_from_str`] (its errors are YARN's);
///   a node may list several labels here, but the simulation refuses more than one per node
///   when it starts, as YARN's label manager does.
/// * Duplicate paths keep the first entry. The result is in file order (SLS's set has none).
///   An empty file gives no nodes (SLS's `NMRunner` then stops with "No node!").
pub fn parse_nodes(
    text: &str,
    file: &str,
    defaults: &SimDefaults,
) -> Result<Vec<TraceNode>, TraceError> {
    parse_nodes_file(text, file, defaults).map(|n| n.nodes)
}

/// A nodes file's nodes, and what was skipped in it.
#[derive(Debug, Clone, PartialEq)]
pub struct NodesFile {
    pub nodes: Vec<TraceNode>,
    /// One line per entry skipped (no `node` name).
    pub warnings: Vec<String>,
}

/// [`parse_nodes`], with the warnings. Its errors name the file's entries (racks), not jobs.
pub fn parse_nodes_file(
    text: &str,
    file: &str,
    defaults: &SimDefaults,
) -> Result<NodesFile, TraceError> {
    read_nodes_file(text, file, defaults).map_err(|e| TraceError { item: "entry", ..e })
}

fn read_nodes_file(
    text: &str,
    file: &str,
    defaults: &SimDefaults,
) -> Result<NodesFile, TraceError> {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    let mut seen = HashSet::new();
    for item in json::read_stream(text, file) {
        let (index, value) = item?;
        let value = &value;
        let at = At {
            file,
            job: Some(index),
        };
        let f = Fields::new(json::expect_object(value, &at)?, at, "");
        let rack = f.text("rack")?.unwrap_or_else(|| "null".to_string());
        let Some(nodes) = f.array("nodes")? else {
            return Err(f.err("nodes", "missing: a rack needs a \"nodes\" array"));
        };
        for (i, v) in nodes.iter().enumerate() {
            let n = f.element("nodes", i, v)?;
            let Some(name) = n.text("node")? else {
                warnings.push(format!(
                    "{file}: rack {rack:?}: entry nodes[{i}] has no \"node\" name and is skipped \
                     (SLS would register a host named \"null\")"
                ));
                continue;
            };
            let memory_mb = match n.int("memory-mb")? {
                Some(m) if m < 0 => {
                    return Err(n.err("memory-mb", format!("must not be negative, found {m}")))
                }
                Some(m) => i64::from(m),
                None => defaults.node_memory_mb,
            };
            let vcores = match n.int("vcores")? {
                Some(c) if c < 0 => {
                    return Err(n.err("vcores", format!("must not be negative, found {c}")))
                }
                Some(c) => i64::from(c),
                None => defaults.node_vcores,
            };
            let labels = match n.string("labels")? {
                Some(text) => build_node_labels_from_str(&text).map_err(|m| n.err("labels", m))?,
                None => Vec::new(),
            };
            add_node(
                &mut out,
                &mut seen,
                &format!("/{rack}/{name}"),
                memory_mb,
                vcores,
                labels,
            )
            .map_err(|m| n.err("node", m))?;
        }
    }
    Ok(NodesFile {
        nodes: out,
        warnings,
    })
}

/// The nodes a parsed trace names (SLS without `--nodes`: `SLSUtils.parseNodesFromSLSTrace` /
/// `parseNodesFromRumenTrace`, every task's host, sized by the defaults), in order of first
/// appearance. Tasks without a host name no node; SYNTH jobs name none — use the SYNTH
/// reader's `parse_synth_nodes` for them. The readers have already checked
/// every host, so a host that is not a `/rack/host` path cannot occur; one in a hand-built job
/// is skipped.
pub fn nodes_from_jobs(
    jobs: &[TraceJob],
    defaults: &SimDefaults,
) -> Result<Vec<TraceNode>, String> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for host in jobs
        .iter()
        .flat_map(|j| &j.tasks)
        .filter_map(|t| t.host.as_deref())
    {
        match add_node(
            &mut out,
            &mut seen,
            host,
            defaults.node_memory_mb,
            defaults.node_vcores,
            Vec::new(),
        ) {
            Err(m) if out.len() >= MAX_NODES => return Err(m),
            _ => {}
        }
    }
    Ok(out)
}

/// [`MAX_NODES`] against a declared cluster size (`num.nodes`, `num_nodes`) before any node
/// is generated; `already` nodes are there before.
pub(super) fn check_declared_nodes(declared: i64, already: usize) -> Result<(), String> {
    let total = (already as i64).saturating_add(declared);
    if total > MAX_NODES as i64 {
        return Err(too_many("nodes", total, MAX_NODES));
    }
    Ok(())
}

/// `SLSUtils.generateNodes`: `num_nodes` nodes `/rack<i % racks>/node<i>`, with the number of
/// racks clamped to `1..=num_nodes`, sized by the defaults.
pub fn generate_nodes(
    num_nodes: usize,
    num_racks: usize,
    defaults: &SimDefaults,
) -> Vec<TraceNode> {
    let racks = num_racks.max(1).min(num_nodes.max(1));
    (0..num_nodes)
        .map(|i| TraceNode {
            host: format!("node{i}"),
            rack: format!("/rack{}", i % racks),
            memory_mb: defaults.node_memory_mb,
            vcores: defaults.node_vcores,
            labels: Vec::new(),
        })
        .collect()
}

/// The nodes of an SLS JSON trace read straight from its text, exactly as
/// `SLSUtils.parseNodesFromSLSTrace` does: besides every task's `container.host`, a value with
/// `num.nodes` (and optionally `num.racks`, default 1) adds [`generate_nodes`]' nodes — the
/// documented way for an SLS trace to declare its cluster, which [`nodes_from_jobs`] cannot see
/// because the SLS reader (`parse_sls_jobs`) skips such values.
pub fn nodes_from_sls_trace(
    text: &str,
    file: &str,
    defaults: &SimDefaults,
) -> Result<Vec<TraceNode>, TraceError> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for item in json::read_stream(text, file) {
        let (index, value) = item?;
        let value = &value;
        let at = At {
            file,
            job: Some(index),
        };
        let f = Fields::new(json::expect_object(value, &at)?, at, "");
        if let Some(n) = f.int("num.nodes")? {
            check_declared_nodes(i64::from(n), out.len()).map_err(|m| f.err("num.nodes", m))?;
            let racks = f.int("num.racks")?.unwrap_or(1);
            let n = usize::try_from(n).unwrap_or(0);
            let racks = usize::try_from(racks).unwrap_or(0);
            for node in generate_nodes(n, racks, defaults) {
                let path = format!("{}/{}", node.rack, node.host);
                // Generated paths are always well formed.
                let _ = add_node(
                    &mut out,
                    &mut seen,
                    &path,
                    node.memory_mb,
                    node.vcores,
                    Vec::new(),
                );
            }
        }
        if let Some(tasks) = f.array("job.tasks")? {
            for (i, v) in tasks.iter().enumerate() {
                let t = f.element("job.tasks", i, v)?;
                if let Some(host) = t.string("container.host")? {
                    add_node(
                        &mut out,
                        &mut seen,
                        &host,
                        defaults.node_memory_mb,
                        defaults.node_vcores,
                        Vec::new(),
                    )
                    .map_err(|m| t.err("container.host", m))?;
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NODES: &str = include_str!("../../../tests/data/sls/nodes.json");
    const NODES_RES: &str = include_str!("../../../tests/data/sls/nodes-with-resources.json");

    fn node<'a>(nodes: &'a [TraceNode], rack: &str, host: &str) -> &'a TraceNode {
        nodes
            .iter()
            .find(|n| n.rack == rack && n.host == host)
            .unwrap_or_else(|| panic!("no node {rack}/{host}"))
    }

    #[test]
    fn split_network_path_follows_get_rack_host_name() {
        let ok = |p: &str| split_network_path(p).unwrap();
        assert_eq!(ok("/rack1/node1"), ("/rack1".into(), "node1".into()));
        assert_eq!(
            ok("/rackA/rackB/node1"),
            ("/rackA/rackB".into(), "node1".into())
        );
        assert_eq!(
            ok("/default-rack/a2118.smile.com/"),
            ("/default-rack".into(), "a2118.smile.com".into())
        );
        for bad in ["node1", "/node1", "//node1", "/rack1/", "", "/"] {
            assert!(split_network_path(bad).is_err(), "{bad:?}");
        }
    }

    /// nodes.json: 5 racks × 4 entries, the last entry `{}` having no name: SLS registers it as
    /// host `null` (its TestSLSUtils expects 20 nodes); here it is skipped with a warning.
    #[test]
    fn nodes_json_has_19_named_nodes_on_5_racks() {
        let d = SimDefaults::default();
        let file = parse_nodes_file(NODES, "nodes.json", &d).unwrap();
        assert_eq!(file.warnings.len(), 1);
        assert!(
            file.warnings[0].contains("rack \"rack5\""),
            "{:?}",
            file.warnings
        );
        let nodes = file.nodes;
        assert_eq!(nodes.len(), 19);
        let racks: HashSet<&str> = nodes.iter().map(|n| n.rack.as_str()).collect();
        assert_eq!(racks.len(), 5);
        assert_eq!(
            nodes[0],
            TraceNode {
                host: "node1".into(),
                rack: "/rack1".into(),
                memory_mb: 10240,
                vcores: 10,
                labels: vec![],
            }
        );
        assert_eq!(node(&nodes, "/rack4", "node16").vcores, 10);
        assert!(nodes.iter().all(|n| n.host != "null"));
        assert!(nodes.iter().all(|n| n.memory_mb == 10240 && n.vcores == 10));
    }

    /// nodes-with-resources.json: 4 nodes on /rack1; node1 2048 MB / 6 vcores, node4 6144 / 12,
    /// the others the defaults (SLS's test uses 1024 / 2 as the defaults).
    #[test]
    fn nodes_with_resources_overrides_sizes() {
        let d = SimDefaults {
            node_memory_mb: 1024,
            node_vcores: 2,
            ..SimDefaults::default()
        };
        let nodes = parse_nodes(NODES_RES, "nodes-with-resources.json", &d).unwrap();
        assert_eq!(nodes.len(), 4);
        assert!(nodes.iter().all(|n| n.rack == "/rack1"));
        let size = |h: &str| {
            let n = node(&nodes, "/rack1", h);
            (n.memory_mb, n.vcores)
        };
        assert_eq!(size("node1"), (2048, 6));
        assert_eq!(size("node2"), (1024, 2));
        assert_eq!(size("node3"), (1024, 2));
        assert_eq!(size("node4"), (6144, 12));
        // "label1, label2(exclusive=false)": both kept here; the simulation refuses a node
        // with two labels when it starts (YARN's label manager allows one).
        let labels = |h: &str| node(&nodes, "/rack1", h).labels.clone();
        assert!(labels("node1").is_empty());
        assert_eq!(
            labels("node4"),
            vec![("label1".to_string(), true), ("label2".to_string(), false)]
        );
    }

    /// `YarnClientUtils.buildNodeLabelsFromStr`, case by case as its Java reads them.
    #[test]
    fn node_labels_are_read_as_yarn_client_utils_reads_them() {
        let ok = |s: &str| build_node_labels_from_str(s).unwrap();
        let l = |v: &[(&str, bool)]| {
            v.iter()
                .map(|(n, e)| (n.to_string(), *e))
                .collect::<Vec<_>>()
        };
        assert_eq!(ok("x"), l(&[("x", true)]));
        assert_eq!(
            ok(" x , y(exclusive=false),, z( exclusive = true )"),
            l(&[("x", true), ("y", false), ("z", true)])
        );
        assert_eq!(ok("x()"), l(&[("x", true)]), "an empty property is allowed");
        assert_eq!(ok("x(  )"), l(&[("x", true)]));
        assert_eq!(
            ok("x(exclusive=false)tail"),
            l(&[("x", false)]),
            "text after ')' is ignored"
        );
        // Java tests `left > 0 && right > 0`: a leading "(" skips the property and leaves an
        // empty name, which the label manager refuses later.
        assert_eq!(ok("(exclusive=false)"), l(&[("", true)]));
        for bad in [
            "x(exclusive=false",
            "xexclusive=false)",
            "x)(",
            "x(exclusive)",
            "x(exclusive=TRUE)",
            "x(exclusive=yes)",
            "x(shared=true)",
            "a, b(exclusive=maybe)",
        ] {
            assert_eq!(
                build_node_labels_from_str(bad),
                Err(ADD_LABEL_FORMAT_ERR.to_string()),
                "{bad:?}"
            );
        }
        assert_eq!(
            ADD_LABEL_FORMAT_ERR,
            "Input format for adding node-labels is not correct, it should be \
             labelName1[(exclusive=true/false)],LabelName2[] .."
        );
        for empty in ["", " ", ",", " , ,"] {
            assert_eq!(
                build_node_labels_from_str(empty),
                Err("No cluster node-labels are specified".to_string()),
                "{empty:?}"
            );
        }
    }

    #[test]
    fn bad_labels_in_a_nodes_file_name_the_node_entry() {
        let d = SimDefaults::default();
        let e = parse_nodes(
            r#"{"rack":"r","nodes":[{"node":"a","labels":"x"},{"node":"b","labels":"y(exclusive=no)"}]}"#,
            "n.json",
            &d,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("n.json: entry 0: key \"nodes[1].labels\": {ADD_LABEL_FORMAT_ERR}")
        );
        let e = parse_nodes(
            r#"{"rack":"r","nodes":[{"node":"a","labels":""}]}"#,
            "n.json",
            &d,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "n.json: entry 0: key \"nodes[0].labels\": No cluster node-labels are specified"
        );
        let e = parse_nodes(
            r#"{"rack":"r","nodes":[{"node":"a","labels":["x"]}]}"#,
            "n.json",
            &d,
        )
        .unwrap_err();
        assert_eq!(e.key.as_deref(), Some("nodes[0].labels"));
        // A null is no labels, as SLS's `get("labels") != null` reads it.
        let nodes = parse_nodes(
            r#"{"rack":"r","nodes":[{"node":"a","labels":null}]}"#,
            "n.json",
            &d,
        )
        .unwrap();
        assert!(nodes[0].labels.is_empty());
    }

    #[test]
    fn duplicate_nodes_keep_the_first() {
        let text = r#"{"rack":"r","nodes":[{"node":"a","vcores":3},{"node":"a","vcores":5}]}
                      {"rack":"r","nodes":[{"node":"a"}]}"#;
        let nodes = parse_nodes(text, "n.json", &SimDefaults::default()).unwrap();
        assert_eq!(nodes.len(), 1);
        assert_eq!(nodes[0].vcores, 3);
    }

    #[test]
    fn malformed_nodes_files_are_errors() {
        let d = SimDefaults::default();
        let err = |text: &str| parse_nodes(text, "n.json", &d).unwrap_err();

        let e = err("{\"rack\": \"r\", \"nodes\": [\n {\"node\": \"a\"},\n {\"node\" \"b\"}]}");
        assert_eq!((e.job_index, e.key.as_deref()), (Some(0), None));
        assert!(
            e.to_string().starts_with("n.json: entry 0: invalid JSON:"),
            "{e}"
        );
        assert!(e.message.contains("line 3 column"), "{e}");

        let e = err(r#"{"rack":"r","nodes":[{"node":"a"}]} {"rack":"r2","nodes":{"node":"b"}}"#);
        assert_eq!(
            e.to_string(),
            r#"n.json: entry 1: key "nodes": expected an array, found an object"#
        );

        let e = err(r#"{"rack":"r"}"#);
        assert_eq!((e.job_index, e.key.as_deref()), (Some(0), Some("nodes")));

        let e = err(r#"{"rack":"r","nodes":[{"node":"a"},{"node":"b","memory-mb":-5}]}"#);
        assert_eq!(
            e.to_string(),
            r#"n.json: entry 0: key "nodes[1].memory-mb": must not be negative, found -5"#
        );

        let e = err(r#"{"rack":"r","nodes":[{"node":"a","vcores":2.5}]}"#);
        assert_eq!(e.key.as_deref(), Some("nodes[0].vcores"));

        let e = err(r#"{"rack":"r","nodes":[{"node":["a"]}]}"#);
        assert_eq!(e.key.as_deref(), Some("nodes[0].node"));

        let e = err(r#"{"rack":"r","nodes":["a"]}"#);
        assert_eq!(e.key.as_deref(), Some("nodes[0]"));

        let e = err(r#"[{"rack":"r","nodes":[]}]"#);
        assert!(e.message.contains("not an array"), "{e}");
    }

    #[test]
    fn generate_nodes_clamps_racks() {
        let d = SimDefaults::default();
        let racks = |n, r| {
            let nodes = generate_nodes(n, r, &d);
            assert_eq!(nodes.len(), n);
            nodes
                .iter()
                .map(|n| n.rack.clone())
                .collect::<HashSet<_>>()
                .len()
        };
        assert_eq!(racks(3, 3), 3);
        assert_eq!(racks(3, 1), 1);
        assert_eq!(racks(3, 4), 3);
        assert_eq!(racks(3, 0), 1);
        assert_eq!(racks(0, 2), 0);
        let nodes = generate_nodes(5, 2, &d);
        assert_eq!(
            (nodes[3].rack.as_str(), nodes[3].host.as_str()),
            ("/rack1", "node3")
        );
    }

    #[test]
    fn sls_trace_num_nodes_entries_add_generated_nodes() {
        let text = r#"{"num.nodes": 3, "num.racks": 2}
            {"job.tasks": [{"container.host": "/rack0/node0", "container.duration.ms": 5},
                           {"container.host": "/r9/extra", "container.duration.ms": 5}]}"#;
        let d = SimDefaults::default();
        let nodes = nodes_from_sls_trace(text, "t.json", &d).unwrap();
        let paths: Vec<String> = nodes
            .iter()
            .map(|n| format!("{}/{}", n.rack, n.host))
            .collect();
        assert_eq!(
            paths,
            ["/rack0/node0", "/rack1/node1", "/rack0/node2", "/r9/extra"]
        );
        let e = nodes_from_sls_trace(
            r#"{"job.tasks": [{"container.host": "bare"}]}"#,
            "t.json",
            &d,
        )
        .unwrap_err();
        assert_eq!(e.key.as_deref(), Some("job.tasks[0].container.host"));
    }
}
