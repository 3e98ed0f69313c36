//! Harness B: Hadoop's string mock framework (`monitor/capacity/mockframework/*`) turned into
//! a [`PreemptionSnapshot`] (spec P9; `meta.string_harness` of the vector file).
//!
//! The four strings are parsed the way the Java mocks split them (`String.split` drops
//! trailing empty items; `Boolean.valueOf` is a case-insensitive "true"):
//!
//! * **labelsConfig** `name=resource,exclusive;…` — the empty name is the default partition;
//!   the cluster is the sum of all partitions. Partition 0 of the snapshot is `""`, the others
//!   follow in written order.
//! * **nodesConfig** `host=partition[ res=resource];…` — node id `host:1`; unallocated starts
//!   at `res` (0 when absent) and loses every live container placed on the node (it may go
//!   negative, as in the mock); the last reserved container placed on a node is its
//!   reservation.
//! * **queuesConfig** `root(p=[g max used pending (reserved)],…);-a(…);--a1(…){k=v,…}` —
//!   leading dashes give the depth, the parent is the nearest earlier shallower entry; the
//!   depth-0 entry is `root` whatever its name. Per partition: effective min `g`, effective
//!   max `max`, used, pending, reserved; a partition a queue does not mention is all zeros.
//!   Absolute capacity = `g / partition + 1e-6` and absolute max = `max / partition + 1e-6`,
//!   both computed with the *default* calculator (the mock's own field, never switched to
//!   DRF); root's default-partition absolute capacity is 1.0 (`QueueCapacities(isRoot)`).
//!   Leaf pending-minus-reserved = pending − reserved, not clamped; parents' pending values
//!   are Σ children. `{priority=N}` is the queue's relative priority (parents use the
//!   priority-utilization policy in the mock); `disable_preemption` — from `{…}`, which wins,
//!   or from the configuration — applies to that queue alone (no inheritance).
//! * **appsConfig** `queue\t(priority,resource,host,label,repeat,reserved[,pending[,user]])…;…`
//!   — apps numbered 1, 2, … (`ApplicationId(0, k)`), named `app<k>`; container ids from 1
//!   per app in written order, container 1 is the AM; an empty label on a labelled node is an
//!   ignore-exclusivity container; the app's priority, user and pending (in its label's
//!   partition) are its last group's. Leaves order their apps by priority (higher first) then
//!   id. The queue is looked up by path, then by short name.
//! * **users** (`MockApplications.setupUserResourceUsagePerLabel`) — every user of a leaf gets
//!   the same limit in every partition: ceil(default-partition resource × the leaf's absolute
//!   capacity / #users), or / MULP when an app line has a third tab field (`100 / n`), unless
//!   the vector stubs it; a user's usage is the summed used of its apps whose AM is in the
//!   label the mock processes last, kept under the default partition only.
//!
//! Java's `isParent` skips same-depth entries before looking at depth, so a leaf written just
//! before a sibling with children would be mis-typed as a parent; such a queuesConfig is
//! rejected here rather than silently built differently from the mock.

use std::collections::BTreeMap;

use super::scenario::{container_id, AppMeta, Scenario};
use super::setup::Overrides;
use super::vectors::Vector;
use super::{
    MAX_VECTOR_APPS, MAX_VECTOR_CONTAINERS, MAX_VECTOR_NODES, MAX_VECTOR_PARTITIONS,
    MAX_VECTOR_QUEUES,
};
use crate::config::PreemptionSettings;
use crate::echo::echo;
use crate::preempt::snapshot::{
    AmSnap, AppSnap, ContainerSnap, NodeSnap, PartitionSnap, PreemptionSnapshot,
    QueuePartitionSnap, QueueSnap, UserSnap,
};
use crate::resource::{CalculatorKind, Resource, ResourceCalculator, MAX_RESOURCE_TYPES};

/// One partition of labelsConfig.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelSpec {
    pub name: String,
    pub resource: Resource,
    pub exclusive: bool,
}

/// One node of nodesConfig.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSpec {
    pub host: String,
    pub partition: String,
    pub resource: Resource,
}

/// `[g max used pending (reserved)]` for one partition of a queue.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueValues {
    pub guaranteed: Resource,
    pub max: Resource,
    pub used: Resource,
    pub pending: Resource,
    pub reserved: Option<Resource>,
}

/// One `;`-item of queuesConfig.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueSpec {
    /// Number of leading dashes (root: 0).
    pub depth: usize,
    pub name: String,
    /// (partition name, values), in written order.
    pub partitions: Vec<(String, QueueValues)>,
    /// The `{key=value,…}` settings, in written order.
    pub options: Vec<(String, String)>,
}

/// One `(…)` group of appsConfig: `repeat` containers alike.
#[derive(Debug, Clone, PartialEq)]
pub struct ContainerGroup {
    pub priority: i32,
    pub resource: Resource,
    pub host: String,
    pub label: String,
    pub repeat: u32,
    pub reserved: bool,
    pub pending: Option<Resource>,
    pub user: Option<String>,
}

/// One `;`-item of appsConfig: an application.
#[derive(Debug, Clone, PartialEq)]
pub struct AppSpec {
    /// The queue exactly as written (`a` or `root.a`).
    pub queue: String,
    pub groups: Vec<ContainerGroup>,
    /// The optional third tab-separated field (user-limit divisor n).
    pub user_limit_divisor: Option<i32>,
}

/// Java's `String.split` for a one-character separator: no match gives the whole string;
/// trailing empty items are dropped.
pub fn java_split(s: &str, sep: char) -> Vec<&str> {
    if !s.contains(sep) {
        return vec![s];
    }
    let mut v: Vec<&str> = s.split(sep).collect();
    while v.last() == Some(&"") {
        v.pop();
    }
    v
}

fn java_bool(s: &str) -> bool {
    s.trim().eq_ignore_ascii_case("true")
}

fn java_int(what: &str, s: &str) -> Result<i32, String> {
    s.trim()
        .parse::<i32>()
        .map_err(|e| format!("{what}: \"{}\" is not an integer ({e})", echo(s)))
}

/// `parseResourceFromString`: `m` is `<m, 1>` (`<0, 0>` for 0), `m:v` is `<m, v>`, further
/// `:x` values fill the extra resource types in order.
pub fn parse_resource(s: &str) -> Result<Resource, String> {
    let parts = java_split(s.trim(), ':');
    if parts.len() > MAX_RESOURCE_TYPES {
        return Err(format!(
            "resource {s:?}: more than {MAX_RESOURCE_TYPES} resource types"
        ));
    }
    let mut values = Vec::with_capacity(parts.len());
    for p in &parts {
        values.push(i64::from(java_int("resource", p)?));
    }
    if values.len() == 1 {
        let m = values[0];
        return Ok(Resource::new(m, if m > 0 { 1 } else { 0 }));
    }
    Ok(Resource::from_values(&values))
}

fn find(s: &str, ch: char, what: &str) -> Result<usize, String> {
    s.find(ch)
        .ok_or_else(|| format!("{what} \"{}\": missing '{ch}'", echo(s)))
}

/// labelsConfig: `name=resource,exclusive;…`.
pub fn parse_labels(config: &str) -> Result<Vec<LabelSpec>, String> {
    java_split(config, ';')
        .into_iter()
        .map(|p| {
            let eq = find(p, '=', "partition")?;
            let comma = find(p, ',', "partition")?;
            if comma < eq {
                return Err(format!("partition \"{}\": ',' before '='", echo(p)));
            }
            Ok(LabelSpec {
                name: p[..eq].to_string(),
                resource: parse_resource(&p[eq + 1..comma])?,
                exclusive: java_bool(&p[comma + 1..]),
            })
        })
        .collect()
}

/// nodesConfig: `host=partition[ res=resource];…`.
pub fn parse_nodes(config: &str) -> Result<Vec<NodeSpec>, String> {
    java_split(config, ';')
        .into_iter()
        .map(|p| {
            let arr = java_split(p, ' ');
            let first = arr[0];
            let eq = find(first, '=', "node")?;
            let mut resource = Resource::ZERO;
            if let Some(res) = arr.get(1) {
                if let Some(at) = res.find("res=") {
                    resource = parse_resource(&res[at + "res=".len()..])?;
                }
            }
            Ok(NodeSpec {
                host: first[..eq].to_string(),
                partition: first[eq + 1..].to_string(),
                resource,
            })
        })
        .collect()
}

/// One queuesConfig entry: `--name(p=[g max used pending (reserved)],…){k=v,…}`.
pub fn parse_queue_entry(q: &str) -> Result<QueueSpec, String> {
    let depth = q.chars().take_while(|&c| c == '-').count();
    if depth == q.len() {
        return Err(format!("illegal queue entry \"{}\"", echo(q)));
    }
    let open = find(q, '(', "queue")?;
    if open < depth {
        return Err(format!("queue \"{}\": '(' inside the dashes", echo(q)));
    }
    let name = &q[depth..open];
    if name.is_empty() {
        return Err(format!("queue name shouldn't be empty: \"{}\"", echo(q)));
    }
    if name.contains('.') {
        return Err(format!(
            "queue name shouldn't contain '.': \"{}\"",
            echo(name)
        ));
    }
    let close = find(q, ')', "queue")?;
    if close < open {
        return Err(format!("queue \"{}\": ')' before '('", echo(q)));
    }
    let mut partitions = Vec::new();
    for s in java_split(&q[open + 1..close], ',') {
        let eq = find(s, '=', "queue capacity")?;
        let lb = find(s, '[', "queue capacity")?;
        let rb = find(s, ']', "queue capacity")?;
        if rb < lb || lb < eq {
            return Err(format!("queue capacity \"{}\": expected name=[…]", echo(s)));
        }
        let raw = java_split(&s[lb + 1..rb], ' ');
        if raw.len() != 4 && raw.len() != 5 {
            return Err(format!(
                "queue {name}: partition {:?} needs [guaranteed max used pending (reserved)], got {} values",
                &s[..eq],
                raw.len()
            ));
        }
        let values = raw
            .iter()
            .map(|v| parse_resource(v))
            .collect::<Result<Vec<_>, _>>()?;
        partitions.push((
            s[..eq].to_string(),
            QueueValues {
                guaranteed: values[0],
                max: values[1],
                used: values[2],
                pending: values[3],
                reserved: values.get(4).copied(),
            },
        ));
    }
    let mut options = Vec::new();
    if let (Some(left), Some(right)) = (q.find('{'), q.find('}')) {
        if right > left {
            for kv in java_split(&q[left + 1..right], ',') {
                if let Some(eq) = kv.find('=') {
                    options.push((kv[..eq].to_string(), kv[eq + 1..].to_string()));
                }
            }
        }
    }
    Ok(QueueSpec {
        depth,
        name: name.to_string(),
        partitions,
        options,
    })
}

/// queuesConfig: `;`-separated entries.
pub fn parse_queues(config: &str) -> Result<Vec<QueueSpec>, String> {
    java_split(config, ';')
        .into_iter()
        .map(parse_queue_entry)
        .collect()
}

/// The container groups of one app (`MockContainers.init`).
pub fn parse_container_groups(config: &str) -> Result<Vec<ContainerGroup>, String> {
    let b = config.as_bytes();
    let mut start = config.find('=').map(|i| i + 1).unwrap_or(0);
    let mut groups = Vec::new();
    while start < b.len() {
        while start < b.len() && b[start] != b'(' {
            start += 1;
        }
        if start >= b.len() {
            return Err(format!(
                "Error in containers specification, line={}",
                echo(config)
            ));
        }
        let mut end = start + 1;
        while end < b.len() && b[end] != b')' {
            end += 1;
        }
        if end >= b.len() {
            return Err(format!(
                "Error in containers specification, line={}",
                echo(config)
            ));
        }
        let values = java_split(&config[start + 1..end], ',');
        if values.len() < 6 || values.len() > 8 {
            return Err(format!(
                "container group \"{}\": expected (priority,resource,host,label,repeat,reserved[,pending[,user]])",
                echo(&config[start..=end])
            ));
        }
        let repeat = java_int("repeat", values[4])?;
        if repeat < 0 {
            return Err(format!("container group repeat {repeat} < 0"));
        }
        groups.push(ContainerGroup {
            priority: java_int("priority", values[0])?,
            resource: parse_resource(values[1])?,
            host: values[2].to_string(),
            label: values[3].to_string(),
            repeat: repeat as u32,
            reserved: java_bool(values[5]),
            pending: values.get(6).map(|p| parse_resource(p)).transpose()?,
            user: values.get(7).map(|u| u.to_string()),
        });
        start = end + 1;
    }
    Ok(groups)
}

/// appsConfig: `queue\t(…)(…)[\tn];…`.
pub fn parse_apps(config: &str) -> Result<Vec<AppSpec>, String> {
    java_split(config, ';')
        .into_iter()
        .map(|app| {
            let comps = java_split(app, '\t');
            let containers = comps
                .get(1)
                .ok_or_else(|| format!("app \"{}\": expected queue<TAB>containers", echo(app)))?;
            Ok(AppSpec {
                queue: comps[0].to_string(),
                groups: parse_container_groups(containers)?,
                user_limit_divisor: comps
                    .get(2)
                    .map(|n| java_int("user-limit field", n))
                    .transpose()?,
            })
        })
        .collect()
}

/// The four strings, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct StringInput {
    pub labels: Vec<LabelSpec>,
    pub nodes: Vec<NodeSpec>,
    pub queues: Vec<QueueSpec>,
    pub apps: Vec<AppSpec>,
}

impl StringInput {
    pub fn parse(labels: &str, nodes: &str, queues: &str, apps: &str) -> Result<Self, String> {
        Ok(StringInput {
            labels: parse_labels(labels).map_err(|e| format!("labelsConfig: {e}"))?,
            nodes: parse_nodes(nodes).map_err(|e| format!("nodesConfig: {e}"))?,
            queues: parse_queues(queues).map_err(|e| format!("queuesConfig: {e}"))?,
            apps: parse_apps(apps).map_err(|e| format!("appsConfig: {e}"))?,
        })
    }

    pub fn from_vector(v: &Vector) -> Result<Self, String> {
        let get = |name: &str, s: &Option<String>| {
            s.clone()
                .ok_or_else(|| format!("string vector without {name}"))
        };
        Self::parse(
            &get("labelsConfig", &v.labels_config)?,
            &get("nodesConfig", &v.nodes_config)?,
            &get("queuesConfig", &v.queues_config)?,
            &get("appsConfig", &v.apps_config)?,
        )
    }
}

/// `MockQueueHierarchy.isParent`: skips the following entries of the same depth, then looks
/// whether the next one is deeper.
fn java_is_parent(queues: &[QueueSpec], idx: usize) -> bool {
    let my = queues[idx].depth;
    let mut j = idx + 1;
    while j < queues.len() && queues[j].depth == my {
        j += 1;
    }
    !(j >= queues.len() || queues[j].depth < my)
}

impl StringInput {
    /// The sizes the strings ask for, within the vector limits, before anything is built.
    fn check_sizes(&self) -> Result<(), String> {
        let counts = [
            (
                "labelsConfig",
                "partitions",
                self.labels.len(),
                MAX_VECTOR_PARTITIONS,
            ),
            ("nodesConfig", "nodes", self.nodes.len(), MAX_VECTOR_NODES),
            (
                "queuesConfig",
                "queues",
                self.queues.len(),
                MAX_VECTOR_QUEUES,
            ),
            (
                "appsConfig",
                "applications",
                self.apps.len(),
                MAX_VECTOR_APPS,
            ),
        ];
        for (config, what, n, max) in counts {
            if n > max {
                return Err(format!("{config}: {n} {what}: at most {max} per vector"));
            }
        }
        let containers: u64 = self
            .apps
            .iter()
            .flat_map(|a| &a.groups)
            .map(|g| u64::from(g.repeat))
            .sum();
        if containers > MAX_VECTOR_CONTAINERS as u64 {
            return Err(format!(
                "appsConfig: {containers} containers: at most {MAX_VECTOR_CONTAINERS} per vector"
            ));
        }
        Ok(())
    }
}

/// Builds harness B's snapshot.
pub fn build(
    input: &StringInput,
    overrides: &Overrides,
    settings: &PreemptionSettings,
) -> Result<Scenario, String> {
    input.check_sizes()?;
    // The mock computes absolute capacities with its own DefaultResourceCalculator field.
    let mock_calc = ResourceCalculator::new(CalculatorKind::Default, 2);

    // Partitions: "" first, then the labels in written order.
    let mut partitions: Vec<PartitionSnap> = Vec::new();
    let default = input.labels.iter().find(|l| l.name.is_empty());
    partitions.push(PartitionSnap {
        name: String::new(),
        resource: default.map(|l| l.resource).unwrap_or(Resource::ZERO),
        exclusive: default.map(|l| l.exclusive).unwrap_or(true),
    });
    for l in &input.labels {
        if l.name.is_empty() {
            continue;
        }
        if partitions.iter().any(|p| p.name == l.name) {
            return Err(format!("labelsConfig: partition {:?} listed twice", l.name));
        }
        partitions.push(PartitionSnap {
            name: l.name.clone(),
            resource: l.resource,
            exclusive: l.exclusive,
        });
    }
    if input.labels.iter().filter(|l| l.name.is_empty()).count() > 1 {
        return Err("labelsConfig: the default partition is listed twice".into());
    }
    let partition_index = |name: &str| partitions.iter().position(|p| p.name == name);
    let cluster: Resource = input.labels.iter().map(|l| l.resource).sum();
    let np = partitions.len();

    // Nodes.
    let mut nodes: Vec<NodeSnap> = Vec::new();
    let mut hosts: Vec<String> = Vec::new();
    for n in &input.nodes {
        if hosts.contains(&n.host) {
            return Err(format!("nodesConfig: host {:?} listed twice", n.host));
        }
        let partition = partition_index(&n.partition).ok_or_else(|| {
            format!(
                "nodesConfig: node {:?} is in unknown partition {:?}",
                n.host, n.partition
            )
        })?;
        nodes.push(NodeSnap {
            name: format!("{}:1", n.host).into(),
            partition,
            unallocated: n.resource,
            killable: Resource::ZERO,
            reservation: None,
        });
        hosts.push(n.host.clone());
    }

    // Queues.
    let qs = &input.queues;
    if qs.is_empty() || qs[0].depth != 0 {
        return Err("queuesConfig: the first entry must be root (no dashes)".into());
    }
    if qs.iter().skip(1).any(|q| q.depth == 0) {
        return Err("queuesConfig: more than one entry without dashes".into());
    }
    let n = qs.len();
    let mut parents: Vec<Option<usize>> = vec![None; n];
    for i in 1..n {
        parents[i] = (0..i).rev().find(|&j| qs[j].depth < qs[i].depth);
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, p) in parents.iter().enumerate() {
        if let Some(p) = p {
            children[*p].push(i);
        }
    }
    for i in 0..n {
        if java_is_parent(qs, i) == children[i].is_empty() {
            return Err(format!(
                "queuesConfig: the Hadoop mock would type queue {:?} as a {} (it skips \
                 same-depth entries before looking at depth); this shape cannot be reproduced",
                qs[i].name,
                if java_is_parent(qs, i) {
                    "parent"
                } else {
                    "leaf"
                }
            ));
        }
    }
    let mut paths: Vec<String> = Vec::with_capacity(n);
    for i in 0..n {
        let path = match parents[i] {
            None => "root".to_string(),
            Some(p) => format!("{}.{}", paths[p], qs[i].name),
        };
        if paths.contains(&path) {
            return Err(format!("queuesConfig: queue {path} listed twice"));
        }
        paths.push(path);
    }

    let mut queues: Vec<QueueSnap> = Vec::with_capacity(n);
    for i in 0..n {
        let spec = &qs[i];
        let leaf = children[i].is_empty();
        let mut parts = vec![QueuePartitionSnap::default(); np];
        let mut seen = vec![false; np];
        for (pname, v) in &spec.partitions {
            let p = partition_index(pname).ok_or_else(|| {
                format!(
                    "queuesConfig: queue {} names unknown partition {pname:?}",
                    paths[i]
                )
            })?;
            if seen[p] {
                return Err(format!(
                    "queuesConfig: queue {} lists partition {pname:?} twice",
                    paths[i]
                ));
            }
            seen[p] = true;
            let total = partitions[p].resource;
            let reserved = v.reserved.unwrap_or(Resource::ZERO);
            parts[p] = QueuePartitionSnap {
                guaranteed: v.guaranteed,
                max: v.max,
                used: v.used,
                reserved,
                killable: Resource::ZERO,
                pending: if leaf { v.pending } else { Resource::ZERO },
                pending_deduct_reserved: if leaf {
                    v.pending - reserved
                } else {
                    Resource::ZERO
                },
                absolute_capacity: mock_calc.divide(&total, &v.guaranteed, &total) + 1e-6,
                absolute_max_capacity: mock_calc.divide(&total, &v.max, &total) + 1e-6,
            };
        }
        if i == 0 {
            parts[0].absolute_capacity = 1.0;
        }
        let option = |key: &str| {
            spec.options
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        let mut disabled = overrides
            .disable_preemption
            .get(&paths[i])
            .copied()
            .unwrap_or(false);
        if let Some(v) = option("disable_preemption") {
            disabled = java_bool(v);
        }
        let relative_priority = match option("priority") {
            Some(v) => java_int("queue priority", v)?,
            None => 0,
        };
        queues.push(QueueSnap {
            path: paths[i].clone(),
            parent: parents[i],
            children: children[i].clone(),
            effective_capacity: parts[0].guaranteed,
            partitions: parts,
            preemption_disabled: disabled,
            // The mock never stubs `getIntraQueuePreemptionDisabled` (always false): only the
            // global switch decides.
            intra_queue_preemption_disabled: !settings.intra_queue_enabled,
            relative_priority,
            apps: Vec::new(),
            max_am_resource_percent: 0.0,
            users: Vec::new(),
            inactive_apps: Vec::new(),
            fair_order: None,
        });
    }
    for i in (1..n).rev() {
        let p = parents[i].expect("non-root queues have a parent");
        for part in 0..np {
            let (pend, pdr) = (
                queues[i].partitions[part].pending,
                queues[i].partitions[part].pending_deduct_reserved,
            );
            queues[p].partitions[part].pending += pend;
            queues[p].partitions[part].pending_deduct_reserved += pdr;
        }
    }

    // Apps.
    let mut apps: Vec<AppSnap> = Vec::new();
    let mut metas: Vec<AppMeta> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut mulp: i32 = -1;
    // Per app: the partition of its AM (container 1's label) and its used there.
    let mut am_usage: Vec<(usize, Resource)> = Vec::new();
    for (idx, spec) in input.apps.iter().enumerate() {
        let k = idx + 1;
        let leaf = paths
            .iter()
            .position(|p| *p == spec.queue)
            .or_else(|| (0..n).rev().find(|&i| i != 0 && qs[i].name == spec.queue))
            .ok_or_else(|| format!("appsConfig: app{k}: unknown queue {:?}", spec.queue))?;
        if !children[leaf].is_empty() {
            return Err(format!(
                "appsConfig: app{k}: queue {} is not a leaf",
                paths[leaf]
            ));
        }
        if let (true, Some(d)) = (mulp <= 0, spec.user_limit_divisor) {
            if d == 0 {
                return Err(format!("appsConfig: app{k}: user-limit field 0"));
            }
            mulp = 100 / d;
        }
        let last = spec
            .groups
            .last()
            .ok_or_else(|| format!("appsConfig: app{k}: no container group"))?;
        let mut app = AppSnap {
            id: k as u64,
            name: format!("app{k}").into(),
            queue: leaf,
            user: last.user.as_deref().unwrap_or("user").into(),
            user_index: None,
            priority: last.priority,
            application_seq: k as u64,
            // `getTotalPendingRequestsPerPartition` = {last group's label: its pending}.
            pending: {
                let mut by_partition = vec![Resource::ZERO; np];
                let p = partition_index(&last.label)
                    .ok_or_else(|| format!("appsConfig: app{k}: unknown label {:?}", last.label))?;
                by_partition[p] = last.pending.unwrap_or(Resource::ZERO);
                by_partition.into()
            },
            // Set below, from container 1.
            am: AmSnap::default(),
            live: Default::default(),
            live_used: None,
            reserved: Vec::new(),
        };
        let mut seq: i64 = 1;
        for g in &spec.groups {
            let node = hosts
                .iter()
                .position(|h| *h == g.host)
                .ok_or_else(|| format!("appsConfig: app{k}: unknown host {:?}", g.host))?;
            let partition = nodes[node].partition;
            for _ in 0..g.repeat {
                let c = ContainerSnap {
                    id: container_id(idx, seq),
                    sequence: seq,
                    resource: g.resource,
                    priority: g.priority,
                    allocation_request_id: 0,
                    is_am: seq == 1,
                    node,
                    partition,
                    ignore_exclusivity: g.label.is_empty()
                        && !partitions[partition].name.is_empty(),
                    // The mock never stubs creation times.
                    created_ms: 0,
                    killable: false,
                };
                if g.reserved {
                    app.reserved.push(c);
                    nodes[node].reservation = Some((idx, app.reserved.len() - 1));
                } else {
                    nodes[node].unallocated -= c.resource;
                    crate::sync::Arc::make_mut(&mut app.live).push(c);
                }
                seq += 1;
            }
        }
        // `getAppAMNodePartitionName`: container 1's label (the last group's when the app
        // has no container); the app's used there is the last group's with that label.
        let am_group = spec.groups.iter().find(|g| g.repeat > 0).unwrap_or(last);
        let am_partition = partition_index(&am_group.label).unwrap_or(0);
        let am_used = spec
            .groups
            .iter()
            .rev()
            .find(|g| g.label == am_group.label)
            .map(|g| g.resource.multiply(g.repeat as f64))
            .unwrap_or(Resource::ZERO);
        am_usage.push((am_partition, am_used));
        // `getAMResource(label)`: container 1's size in its label's partition (none without
        // containers); the mock never waits for an AM.
        app.am = AmSnap {
            resource: if am_group.repeat > 0 {
                am_group.resource
            } else {
                Resource::ZERO
            },
            partition: am_partition,
            waiting: false,
        };
        metas.push(AppMeta {
            queue_as_written: spec.queue.clone(),
            pending: last.pending.unwrap_or(Resource::ZERO),
            used: app.live.iter().map(|c| c.resource).sum(),
            reserved: app.reserved.iter().map(|c| c.resource).sum(),
        });
        apps.push(app);
    }
    for (q, queue) in queues.iter_mut().enumerate() {
        let mut mine: Vec<usize> = (0..apps.len()).filter(|&a| apps[a].queue == q).collect();
        mine.sort_by(|&a, &b| {
            apps[b]
                .priority
                .cmp(&apps[a].priority)
                .then(apps[a].id.cmp(&apps[b].id))
        });
        queue.apps = mine;
    }
    // Users (`MockApplications.setupUserResourceUsagePerLabel`). Every user of a leaf gets
    // the same limit: ceil(default-partition capacity / #users), or / MULP when appsConfig
    // gives one, unless the vector stubs it. A user's usage, apps' used summed over the apps
    // whose AM is in the label the mock processes last ("" first, then the others as written;
    // a leaf without apps there gets none), is kept under the default partition only.
    // Leaves with the fair policy: the mock's FairComparator orders apps by used memory (start
    // times and demands are all zero); ties, which the mock leaves at 0, go by app id here.
    for (q, queue) in queues.iter_mut().enumerate() {
        if overrides.fair_ordering.contains(&paths[q]) {
            let mut order: Vec<usize> = (0..apps.len()).filter(|&a| apps[a].queue == q).collect();
            order.sort_by_key(|&a| (am_usage[a].1.memory_mb(), a));
            queue.fair_order = Some(order);
        }
    }
    let last_label = (0..np)
        .rev()
        .find(|&p| am_usage.iter().any(|(ap, _)| *ap == p));
    let rc = overrides.calculator;
    for (q, queue) in queues.iter_mut().enumerate() {
        let mut names: Vec<crate::sync::Arc<str>> = Vec::new();
        for a in apps.iter().filter(|a| a.queue == q) {
            if !names.contains(&a.user) {
                names.push(a.user.clone());
            }
        }
        if names.is_empty() {
            continue;
        }
        let capacity = partitions[0]
            .resource
            .multiply(queue.partitions[0].absolute_capacity as f64);
        let divisor = if mulp > 0 {
            mulp as i64
        } else {
            names.len() as i64
        };
        let limit = overrides
            .user_limit
            .get(&paths[q])
            .copied()
            .unwrap_or_else(|| rc.divide_and_ceil_long(&capacity, divisor));
        queue.users = names
            .into_iter()
            .map(|name| {
                let used: Resource = apps
                    .iter()
                    .zip(&am_usage)
                    .filter(|(a, (p, _))| a.queue == q && a.user == name && Some(*p) == last_label)
                    .map(|(_, (_, u))| *u)
                    .sum();
                let mut by_partition = vec![Resource::ZERO; np];
                by_partition[0] = used;
                UserSnap {
                    name,
                    used: by_partition.into(),
                    limit: vec![limit; np].into(),
                }
            })
            .collect();
    }
    if settings.select_based_on_reserved_containers
        && metas
            .iter()
            .zip(&apps)
            .any(|(m, a)| m.queue_as_written != paths[a.queue])
    {
        notes.push(
            "the reserved-container selector's quota lookup by the queue name as written \
             (the mock's apps in \"a\" never match \"root.a\"): the snapshot ties containers to \
             queue indices, not names"
                .to_string(),
        );
    }

    Ok(Scenario {
        snapshot: PreemptionSnapshot {
            calculator: overrides.calculator,
            cluster,
            minimum_allocation: Resource::new(1, 1),
            partitions,
            queues,
            apps,
            nodes,
        },
        apps: metas,
        aliases: BTreeMap::new(),
        hosts,
        notes,
    })
}
