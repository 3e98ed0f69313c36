//! What `capsched validate` and `capsched queues` both print after their queue tables: the
//! placement rules, and each managed parent's template for the leaves it auto-creates.

use std::io::{self, Write};

use capsched::config::placement::mapping_rules::{JsonSource, MappingRules};
use capsched::config::placement::{MappingKind, PlacementRuleKind};
use capsched::config::CapacitySchedulerConfiguration;
use capsched::state::queue::QueueTree;

/// One line per installed placement rule, its mappings in order; or YARN 3.4's JSON mapping
/// rules, one line each.
pub fn placement_rules(
    out: &mut dyn Write,
    conf: &CapacitySchedulerConfiguration,
) -> io::Result<()> {
    let p = conf.placement();
    if let Some(rules) = &p.mapping_rules {
        return json_mapping_rules(out, rules, p.override_mappings);
    }
    if p.rules.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    for rule in &p.rules {
        let (name, mappings) = match rule {
            PlacementRuleKind::UserGroup => ("user-group", &p.user_group),
            PlacementRuleKind::AppName => ("app-name", &p.app_name),
        };
        let list: Vec<String> = mappings
            .iter()
            .map(|m| {
                let kind = match m.kind {
                    MappingKind::User => "u:",
                    MappingKind::Group => "g:",
                    MappingKind::Application => "",
                };
                format!("{kind}{}:{}", m.source, m.full_path())
            })
            .collect();
        writeln!(
            out,
            "placement rule {name}: {}{}",
            list.join(", "),
            if p.override_mappings {
                " (override)"
            } else {
                ""
            }
        )?;
    }
    Ok(())
}

/// The JSON mapping rules in order, numbered as the configuration's messages number them.
fn json_mapping_rules(
    out: &mut dyn Write,
    rules: &MappingRules,
    override_mappings: bool,
) -> io::Result<()> {
    writeln!(out)?;
    let from = match &rules.source {
        JsonSource::Inline => "mapping-rule-json".to_string(),
        JsonSource::File(path) => format!("mapping-rule-json-file {path}"),
        JsonSource::None => {
            return writeln!(
                out,
                "mapping rules (json): none, neither mapping-rule-json nor mapping-rule-json-file is set"
            );
        }
    };
    writeln!(
        out,
        "mapping rules (json, from {from}): {} rule{}{}",
        rules.rules.len(),
        if rules.rules.len() == 1 { "" } else { "s" },
        if override_mappings { " (override)" } else { "" }
    )?;
    for (i, rule) in rules.rules.iter().enumerate() {
        writeln!(out, "  {}. {rule}", i + 1)?;
    }
    Ok(())
}

/// One paragraph per parent that creates queues: for a managed parent (YARN 3.3), what a leaf
/// it creates gets (capacity, maximum, absolute values for the tree's cluster, user limits, AM
/// share), its limits and the template's keys; for a parent with flexible auto queue creation
/// (YARN 3.4), its limits and its resolved templates.
pub fn auto_creation(out: &mut dyn Write, tree: &QueueTree) -> io::Result<()> {
    for id in 0..tree.len() {
        let qc = tree.conf(id);
        if let Some(f) = qc.flexible.as_deref() {
            let dynamic = tree
                .children(id)
                .iter()
                .filter(|&&c| tree.conf(c).dynamic)
                .count();
            writeln!(out)?;
            writeln!(
                out,
                "{}{} creates queues dynamically ({dynamic} children so far, at most {} children, {} levels below its first static ancestor): each a weight among its siblings (1w unless a template says otherwise)",
                qc.path,
                if qc.dynamic { " (dynamic)" } else { "" },
                f.max_queues,
                f.max_depth,
            )?;
            for (kind, map) in [
                ("template", &f.template),
                ("leaf-template", &f.leaf_template),
                ("parent-template", &f.parent_template),
            ] {
                for (key, value) in map {
                    writeln!(out, "  {kind}: {key}={value}")?;
                }
            }
            continue;
        }
        let Some(mp) = qc.managed.as_deref() else {
            continue;
        };
        let parent_abs = tree.queue(id).capacities.absolute_capacity;
        let parent_abs_max = tree.queue(id).capacities.absolute_maximum_capacity;
        let t = &mp.template;
        let leaves = tree
            .children(id)
            .iter()
            .filter(|&&c| tree.conf(c).auto_created)
            .count();
        writeln!(out)?;
        writeln!(
            out,
            "{} auto-creates leaves ({leaves} so far, at most {}{}): each gets capacity {:.1}% (absolute {:.2}%) while the parent's guarantee has room, else 0%; max {:.1}% (absolute {:.2}%)",
            qc.path,
            mp.max_child_queues,
            if mp.fail_on_exceeding_parent_capacity {
                ", none beyond the parent's guarantee"
            } else {
                ""
            },
            mp.template_capacity() * 100.0,
            mp.template_capacity() * parent_abs * 100.0,
            mp.template_maximum_capacity() * 100.0,
            mp.template_maximum_capacity() * parent_abs_max * 100.0,
        )?;
        if let Some(l) = &t.leaf {
            writeln!(
                out,
                "  template: user-limit {}%  user-limit-factor {}  maximum-am-resource-percent {}  ordering-policy {}  state {}",
                l.user_limit_percent,
                l.user_limit_factor,
                l.maximum_am_resource_percent,
                l.ordering_policy.name(),
                t.state.as_str()
            )?;
        }
        for (key, value) in &mp.template_properties {
            writeln!(out, "  {key}={value}")?;
        }
        for e in &mp.creation_errors {
            writeln!(out, "  creation fails: {e}")?;
        }
    }
    Ok(())
}

/// One row per queue and label it has capacities for: the label's capacities and, for the
/// tree's cluster, its guaranteed and maximum resources; then each queue's accessible labels
/// and default label expression where they are not just inherited `*`.
pub fn node_labels(out: &mut dyn Write, tree: &QueueTree) -> io::Result<()> {
    let any_label = (0..tree.len()).any(|q| {
        let l = &tree.conf(q).labels;
        !tree.partition_capacities(q).is_empty()
            || l.default_expression.is_some()
            || l.accessible != capsched::config::node_labels::AccessibleLabels::Any
    });
    if !any_label {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "node labels:")?;
    for q in 0..tree.len() {
        let qc = tree.conf(q);
        let mut line = format!(
            "  {:<24} accessible {}",
            qc.path,
            match qc.labels.accessible.names() {
                names if names.is_empty() => "(default partition only)".to_string(),
                names => names.join(","),
            }
        );
        if let Some(e) = &qc.labels.default_expression {
            line.push_str(&format!("  default-node-label-expression {:?}", e));
        }
        writeln!(out, "{line}")?;
        for (label, c) in tree.partition_capacities(q) {
            writeln!(
                out,
                "    {label}: capacity {:.1}%  max {:.1}%  absolute {:.2}%  absolute max {:.2}%  guaranteed {}  maximum {}",
                c.capacity * 100.0,
                c.maximum_capacity * 100.0,
                c.absolute_capacity * 100.0,
                c.absolute_maximum_capacity * 100.0,
                c.effective_min,
                c.effective_max
            )?;
        }
    }
    Ok(())
}
