//! `capsched queues [FILE] --nodes N --node-memory MB --node-vcores V [--json]`

use std::path::Path;
use std::process::ExitCode;

use capsched::report::rest::scheduler_info_json;
use capsched::resource::Resource;
use capsched::state::queue::QueueTree;

use super::{load, print_errors, source_name};

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
    let mut tree = QueueTree::new(conf);
    let n = i64::from(nodes);
    let cluster = Resource::new(node_memory.saturating_mul(n), node_vcores.saturating_mul(n));
    tree.update_cluster_resource(cluster);

    if json {
        let value = scheduler_info_json(&tree);
        println!(
            "{}",
            serde_json::to_string_pretty(&value).expect("JSON values always serialise")
        );
        return ExitCode::SUCCESS;
    }

    println!("cluster: {nodes} nodes × <memory:{node_memory}, vCores:{node_vcores}> = {cluster}");
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
            ]),
            _ => row.extend(std::iter::repeat_n("-".to_string(), 6)),
        }
        row.push(q.state.as_str().to_string());
        rows.push(row);
    }
    print_table(&rows);
    ExitCode::SUCCESS
}

/// Left-aligns the first column, right-aligns the rest, two spaces between columns.
fn print_table(rows: &[Vec<String>]) {
    let cols = rows[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
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
        println!("{line}");
    }
}
