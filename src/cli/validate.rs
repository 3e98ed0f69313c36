//! `capsched validate [FILE]`

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use capsched::config::{CapacitySchedulerConfiguration, CapacityValue, MaxCapacityValue};
use capsched::state::queue::QueueTree;

use super::common::{load, print_errors, source_name, write_stdout};

pub fn run(file: Option<&Path>) -> ExitCode {
    let source = source_name(file);
    let conf = match load(file) {
        Ok(c) => c,
        Err(errors) => {
            print_errors(&source, &errors);
            return ExitCode::from(1);
        }
    };
    let tree = QueueTree::new(conf.clone());
    write_stdout(|out| summary(out, &source, &conf, &tree))
}

fn summary(
    out: &mut dyn Write,
    source: &str,
    conf: &CapacitySchedulerConfiguration,
    tree: &QueueTree,
) -> io::Result<()> {
    let s = conf.settings();
    let leaves = tree.leaves().count();
    writeln!(
        out,
        "{source}: valid ({} queues, {leaves} leaves)",
        tree.len()
    )?;
    writeln!(
        out,
        "resource-calculator {}; allocation min {} max {}",
        s.resource_calculator
            .class_name()
            .rsplit('.')
            .next()
            .unwrap_or_default(),
        s.minimum_allocation,
        s.maximum_allocation
    )?;
    writeln!(
        out,
        "maximum-applications {}; maximum-am-resource-percent {}; node-locality-delay {}; asynchronous scheduling {}",
        s.maximum_applications,
        s.maximum_am_resource_percent,
        s.node_locality_delay,
        if s.async_scheduling.enabled { "on" } else { "off" }
    )?;
    writeln!(out)?;
    for id in 0..tree.len() {
        let qc = tree.conf(id);
        let depth = qc.path.matches('.').count();
        let name = format!("{}{}", "  ".repeat(depth), qc.name);
        let cap = match &qc.capacity {
            CapacityValue::Percent(p) => format!("{:.1}%", p * 100.0),
            CapacityValue::Weight(w) => format!("{w}w"),
            CapacityValue::Absolute(a) => a.resource().to_string(),
        };
        let max = match &qc.maximum_capacity {
            MaxCapacityValue::Percent(p) => format!("{:.1}%", p * 100.0),
            MaxCapacityValue::Absolute(a) => a.resource().to_string(),
        };
        let c = &tree.queue(id).capacities;
        let kind = if qc.managed.is_some() {
            "managed"
        } else if qc.flexible.is_some() {
            "dynamic"
        } else if qc.is_leaf() {
            "leaf"
        } else {
            "parent"
        };
        let mut line = format!(
            "{name:<24} {kind:<7} capacity {cap:>7}  max {max:>7}  absolute {:>6.2}%  absolute max {:>6.2}%  {}",
            c.absolute_capacity * 100.0,
            c.absolute_maximum_capacity * 100.0,
            qc.state.as_str()
        );
        if let Some(leaf) = &qc.leaf {
            line.push_str(&format!(
                "  user-limit {}%  user-limit-factor {}",
                leaf.user_limit_percent, leaf.user_limit_factor
            ));
            let l = qc.lifetimes;
            if l.maximum > 0 || l.default > 0 {
                line.push_str(&format!(
                    "  lifetime default {}  max {}",
                    seconds(l.default),
                    seconds(l.maximum)
                ));
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    super::describe::node_labels(out, tree)?;
    super::describe::auto_creation(out, tree)?;
    super::describe::placement_rules(out, conf)?;
    if !conf.warnings().is_empty() {
        writeln!(out)?;
        for w in conf.warnings() {
            writeln!(out, "warning: {w}")?;
        }
    }
    Ok(())
}

/// A lifetime for people: "60s", or "none".
fn seconds(s: i64) -> String {
    if s > 0 {
        format!("{s}s")
    } else {
        "none".to_string()
    }
}
