//! `capsched queues [FILE] --nodes N --node-memory MB --node-vcores V [--json]`

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use capsched::report::json::JsonStyle;
use capsched::report::rest::write_scheduler_info;
use capsched::resource::Resource;
use capsched::state::queue::QueueTree;

use super::common::{load, print_errors, source_name, write_stdout};

pub fn run(
    file: Option<&Path>,
    nodes: u32,
    node_memory: i64,
    node_vcores: i64,
    json: bool,
) -> ExitCode {
    if node_memory < 0 || node_vcores < 0 {
        eprintln!("error: --node-memory and --node-vcores must not be negative");
        return ExitCode::from(2);
    }
    let conf = match load(file) {
        Ok(c) => c,
        Err(errors) => {
            print_errors(&source_name(file), &errors);
            return ExitCode::from(1);
        }
    };
    let mut tree = QueueTree::new(conf.clone());
    let n = i64::from(nodes);
    let cluster = Resource::new(node_memory.saturating_mul(n), node_vcores.saturating_mul(n));
    tree.update_cluster_resource(cluster);

    if json {
        // Streamed: the document nests as deeply as the hierarchy.
        return write_stdout(|out| {
            let out = write_scheduler_info(&tree, out, JsonStyle::Pretty)?;
            writeln!(out)
        });
    }
    write_stdout(|out| {
        writeln!(
            out,
            "cluster: {nodes} nodes × <memory:{node_memory}, vCores:{node_vcores}> = {cluster}"
        )?;
        table(out, &tree)?;
        super::describe::node_labels(out, &tree)?;
        super::describe::auto_creation(out, &tree)?;
        super::describe::placement_rules(out, &conf)
    })
}

/// One row per queue: derived capacities, resources and leaf limits.
fn table(out: &mut dyn Write, tree: &QueueTree) -> io::Result<()> {
    let header = [
        "queue",
        "capacity",
        "abs-cap",
        "max-cap",
        "abs-max",
        "guaranteed",
        "maximum",
        "max-apps",
        "apps/user",
        "AM-limit",
        "user-AM-limit",
        "UL%",
        "ULF",
        "max-life",
        "def-life",
        "state",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for id in 0..tree.len() {
        let qc = tree.conf(id);
        let q = tree.queue(id);
        let c = &q.capacities;
        let pct = |f: f32| format!("{:.2}%", f * 100.0);
        let res = |r: Resource| format!("{}MB/{}vc", r.memory_mb(), r.vcores());
        let depth = qc.path.matches('.').count();
        let mut row = vec![
            format!("{}{}", "  ".repeat(depth), qc.path),
            pct(c.capacity),
            pct(c.absolute_capacity),
            pct(c.maximum_capacity),
            pct(c.absolute_maximum_capacity),
            res(c.effective_min),
            res(c.effective_max),
        ];
        match (&qc.leaf, &q.leaf) {
            (Some(lc), Some(l)) => row.extend([
                l.max_applications.to_string(),
                l.max_applications_per_user.to_string(),
                res(tree.am_resource_limit(id)),
                res(tree.user_am_resource_limit(id, 0, 1.0)),
                format!("{}", lc.user_limit_percent),
                format!("{}", lc.user_limit_factor),
                lifetime(qc.lifetimes.maximum),
                lifetime(qc.lifetimes.default),
            ]),
            _ => row.extend(std::iter::repeat_n("-".to_string(), 8)),
        }
        row.push(q.state.as_str().to_string());
        rows.push(row);
    }
    print_table(out, &rows)
}

/// An application lifetime in seconds, "-" for none.
fn lifetime(s: i64) -> String {
    if s > 0 {
        format!("{s}s")
    } else {
        "-".to_string()
    }
}

/// Columns are padded to at most this width: one very long queue path must not pad every
/// other row of a large hierarchy to its length (rows × width is quadratic).
const MAX_COLUMN_WIDTH: usize = 100;

/// Left-aligns the first column, right-aligns the rest, two spaces between columns.
fn print_table(out: &mut dyn Write, rows: &[Vec<String>]) -> io::Result<()> {
    let cols = rows[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
                .min(MAX_COLUMN_WIDTH)
        })
        .collect();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c == 0 {
                line.push_str(&format!("{cell:<w$}", w = widths[c]));
            } else {
                line.push_str(&format!("  {cell:>w$}", w = widths[c]));
            }
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}
