//! Harness A: `TestProportionalCapacityPreemptionPolicy`'s integer matrix turned into a
//! [`PreemptionSnapshot`] (spec P8; `meta.matrix_harness` of the vector file).
//!
//! Mirrors the Java mocks: `mockNested`, `mockLeafQueue`, `mockApp`, `mockContainer`.
//!
//! * Columns are queues in depth-first pre-order, column 0 root; the tree comes from a LIFO
//!   stack (push root `subqueues[0]` times; each column pops its parent and pushes itself
//!   `subqueues[i]` times). Column i is `queue<A+i−1>`, path = parent path + "." + name, so the
//!   snapshot's queue index equals the column.
//! * Resources: an integer n is `<n, n>`; in `matrix_with_resource_strings` rows a string is
//!   `m:v`, or `m` meaning `<m, 0>`. Max capacity is always `<n, n>` from the integer row.
//! * Cluster = Σ abs over columns with no subqueues. Guaranteed (effective min) = abs, max
//!   (effective max) = `<max, max>`, absolute capacity = `divide(calc, cluster, abs, cluster)`
//!   except root in the default partition, where `QueueCapacities(isRoot)` answers 1.0;
//!   absolute max = max / cluster memory (float).
//! * Leaf pending = the pending column, pending-minus-reserved = max(pending − reserved, 0);
//!   a parent's pending values are the sums over its children (what the policy computes from
//!   its children; the root column's pending is not used).
//! * `disable_preemption` is inherited: each queue takes its explicit value if any, else its
//!   parent's effective value (root: false).
//! * Apps: one counter over all leaves in column order, app k = `ApplicationId(TS, k)`,
//!   named `appA`…`appE` for k = 0…4 (`appF` is an alias of `appE`, the Java constant bug),
//!   `app#k` beyond. Per app: used, pending, reserved = `divideAndCeil(calc, column, apps)`.
//! * Containers, ids from 0 per app: first the reserved ones, one `gran`-sized container
//!   while Σ < reserved (calculator `lessThan` against the cluster), priority 1; then the live
//!   ones the same way against used, priority 1, except that with `setAMContainer` the first
//!   live container is the AM (priority 0).
//! * One node in the default partition holds every live container; it holds no reservation
//!   (the Java mock node returns none) and its unallocated resource is cluster − Σ live,
//!   floored at 0 (the mock returns null; only the reserved selector reads it, and no matrix
//!   vector enables that selector).
//! * Leaves' AM budget: `maxAMResourcePerQueuePercent` from the harness flags (0 unless
//!   set) of the leaf's effective capacity = abs.

use std::collections::BTreeMap;

use super::scenario::{container_id, AppMeta, Scenario};
use super::setup::Overrides;
use super::vectors::{HarnessFlags, Vector};
use super::{MAX_VECTOR_APPS, MAX_VECTOR_CONTAINERS, MAX_VECTOR_QUEUES};
use crate::config::PreemptionSettings;
use crate::echo::echo;
use crate::preempt::snapshot::{
    AmSnap, AppSnap, ContainerSnap, NodeSnap, PartitionSnap, PreemptionSnapshot,
    QueuePartitionSnap, QueueSnap,
};
use crate::resource::{Resource, ResourceCalculator};

/// Harness A's input with every row as resources (both vector shapes reduce to this).
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixInput {
    pub abs: Vec<Resource>,
    pub max_cap: Vec<i64>,
    pub used: Vec<Resource>,
    pub pending: Vec<Resource>,
    pub reserved: Vec<Resource>,
    pub apps: Vec<i64>,
    pub gran: Vec<Resource>,
    pub subqueues: Vec<i64>,
}

/// `parseResourceDetails`: `"m:v"`, or `"m"` meaning `<m, 0>` (note: not the string
/// harness's rule, where a lone m gets 1 vcore).
pub fn parse_matrix_resource(s: &str) -> Result<Resource, String> {
    let parts: Vec<&str> = s.trim().split(':').collect();
    let num = |p: &str| {
        p.trim()
            .parse::<i32>()
            .map(i64::from)
            .map_err(|e| format!("bad resource \"{}\": {e}", echo(s)))
    };
    match parts.as_slice() {
        [m] => Ok(Resource::new(num(m)?, 0)),
        [m, v, ..] => Ok(Resource::new(num(m)?, num(v)?)),
        [] => Err(format!("bad resource \"{}\"", echo(s))),
    }
}

fn ints(row: &[i64]) -> Vec<Resource> {
    row.iter().map(|&x| Resource::new(x, x)).collect()
}

fn strs(name: &str, row: &[String]) -> Result<Vec<Resource>, String> {
    row.iter()
        .map(|s| parse_matrix_resource(s).map_err(|e| format!("{name}: {e}")))
        .collect()
}

impl MatrixInput {
    /// From a `matrix` or a `matrix_with_resource_strings` vector.
    pub fn from_vector(v: &Vector) -> Result<MatrixInput, String> {
        let input = if let Some(m) = &v.matrix {
            MatrixInput {
                abs: ints(&m.abs_guaranteed),
                max_cap: m.max_capacity.clone(),
                used: ints(&m.used),
                pending: ints(&m.pending),
                reserved: ints(&m.reserved),
                apps: m.apps.clone(),
                gran: ints(&m.request_granularity),
                subqueues: m.subqueues.clone(),
            }
        } else if let (Some(i), Some(r)) = (&v.int_rows, &v.resource_rows) {
            MatrixInput {
                abs: strs("abs_guaranteed", &r.abs_guaranteed)?,
                max_cap: i.max_capacity.clone(),
                used: strs("used", &r.used)?,
                pending: strs("pending", &r.pending)?,
                reserved: strs("reserved", &r.reserved)?,
                apps: i.apps.clone(),
                gran: strs("request_granularity", &r.request_granularity)?,
                subqueues: i.subqueues.clone(),
            }
        } else {
            return Err("matrix vector without `matrix` (or `int_rows` + `resource_rows`)".into());
        };
        input.check()?;
        Ok(input)
    }

    fn columns(&self) -> usize {
        self.abs.len()
    }

    fn check(&self) -> Result<(), String> {
        let n = self.columns();
        let lens = [
            ("max_capacity", self.max_cap.len()),
            ("used", self.used.len()),
            ("pending", self.pending.len()),
            ("reserved", self.reserved.len()),
            ("apps", self.apps.len()),
            ("request_granularity", self.gran.len()),
            ("subqueues", self.subqueues.len()),
        ];
        if n == 0 {
            return Err("matrix has no columns".into());
        }
        for (name, len) in lens {
            if len != n {
                return Err(format!(
                    "matrix row {name} has {len} columns, abs_guaranteed has {n}"
                ));
            }
        }
        if self.apps.iter().chain(&self.subqueues).any(|&x| x < 0) {
            return Err("matrix apps/subqueues must not be negative".into());
        }
        // Bounded before anything is built from them (a subqueues cell of 10^9 was a 8 GB
        // stack): a tree of n columns has n − 1 children in all.
        if n > MAX_VECTOR_QUEUES {
            return Err(format!(
                "matrix has {n} columns: at most {MAX_VECTOR_QUEUES} queues per vector"
            ));
        }
        let children: u128 = self.subqueues.iter().map(|&x| x as u128).sum();
        if children > (n - 1) as u128 {
            return Err(format!(
                "subqueues row announces {children} queue(s) below root and its descendants, but there are {} columns after root",
                n - 1
            ));
        }
        let apps: u128 = self.apps.iter().map(|&x| x as u128).sum();
        if apps > MAX_VECTOR_APPS as u128 {
            return Err(format!(
                "apps row asks for {apps} applications: at most {MAX_VECTOR_APPS} per vector"
            ));
        }
        Ok(())
    }
}

/// `"queue" + (char)('A' + i - 1)`.
pub fn queue_name(column: usize) -> String {
    let c = (b'A' as u32 + column as u32 - 1) as u8 as char;
    format!("queue{c}")
}

/// The test's named attempt constants: appA … appE for ids 0 … 4 (appF = appE).
pub fn app_name(k: usize) -> String {
    match k {
        0..=4 => format!("app{}", (b'A' + k as u8) as char),
        _ => format!("app#{k}"),
    }
}

/// Containers of size `gran` while their sum is `lessThan` `total` (`mockApp`'s loops), at
/// most `limit` (what is left of the vector's container budget).
fn container_count(
    calc: &ResourceCalculator,
    cluster: &Resource,
    total: &Resource,
    gran: &Resource,
    limit: usize,
) -> Result<usize, String> {
    let mut acc = Resource::ZERO;
    let mut n = 0;
    while calc.less_than(cluster, &acc, total) {
        acc += *gran;
        n += 1;
        if n > limit {
            return Err(format!(
                "granularity {gran} needs more than {limit} containers to reach {total}: at most {MAX_VECTOR_CONTAINERS} per vector"
            ));
        }
    }
    Ok(n)
}

/// Builds harness A's snapshot for one phase.
pub fn build(
    input: &MatrixInput,
    flags: &HarnessFlags,
    overrides: &Overrides,
    settings: &PreemptionSettings,
) -> Result<Scenario, String> {
    input.check()?;
    let calc = overrides.calculator;
    let n = input.columns();

    // Cluster: Σ abs of the columns without subqueues (leafAbsCapacities).
    let cluster: Resource = (0..n)
        .filter(|&i| input.subqueues[i] == 0)
        .map(|i| input.abs[i])
        .sum();

    // Tree (mockNested's Deque: add + removeLast).
    let mut parents: Vec<Option<usize>> = vec![None; n];
    let mut stack: Vec<usize> = vec![0; input.subqueues[0] as usize];
    for (i, parent) in parents.iter_mut().enumerate().skip(1) {
        let p = stack
            .pop()
            .ok_or_else(|| format!("column {i} has no parent left on the stack (subqueues row)"))?;
        *parent = Some(p);
        for _ in 0..input.subqueues[i] {
            stack.push(i);
        }
    }
    if !stack.is_empty() {
        return Err(format!(
            "subqueues row announces {} more queue(s) than there are columns",
            stack.len()
        ));
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, p) in parents.iter().enumerate() {
        if let Some(p) = p {
            children[*p].push(i);
        }
    }
    let mut paths: Vec<String> = Vec::with_capacity(n);
    for (i, parent) in parents.iter().enumerate() {
        let path = match parent {
            None => "root".to_string(),
            Some(p) => format!("{}.{}", paths[*p], queue_name(i)),
        };
        paths.push(path);
    }
    // mockPreemptionStatus: each path component takes its explicit value, else inherits.
    let mut disabled = vec![false; n];
    for i in 0..n {
        let inherited = parents[i].map(|p| disabled[p]).unwrap_or(false);
        disabled[i] = overrides
            .disable_preemption
            .get(&paths[i])
            .copied()
            .unwrap_or(inherited);
    }

    let tot_mem = cluster.memory_mb() as f32;
    let mut queues: Vec<QueueSnap> = (0..n)
        .map(|i| {
            let leaf = children[i].is_empty() && i != 0;
            let (pending, pending_deduct_reserved) = if leaf {
                (
                    input.pending[i],
                    (input.pending[i] - input.reserved[i]).non_negative(),
                )
            } else {
                (Resource::ZERO, Resource::ZERO)
            };
            let absolute_capacity = if i == 0 {
                1.0
            } else {
                calc.divide(&cluster, &input.abs[i], &cluster)
            };
            QueueSnap {
                path: paths[i].clone(),
                parent: parents[i],
                children: children[i].clone(),
                partitions: vec![QueuePartitionSnap {
                    guaranteed: input.abs[i],
                    max: Resource::new(input.max_cap[i], input.max_cap[i]),
                    used: input.used[i],
                    reserved: input.reserved[i],
                    killable: Resource::ZERO,
                    pending,
                    pending_deduct_reserved,
                    absolute_capacity,
                    absolute_max_capacity: input.max_cap[i] as f32 / tot_mem,
                }],
                preemption_disabled: disabled[i],
                intra_queue_preemption_disabled: !settings.intra_queue_enabled || disabled[i],
                relative_priority: 0,
                apps: Vec::new(),
                max_am_resource_percent: if leaf {
                    flags.max_am_resource_per_queue_percent
                } else {
                    0.0
                },
                effective_capacity: input.abs[i],
                users: Vec::new(),
                inactive_apps: Vec::new(),
                fair_order: None,
            }
        })
        .collect();
    // Parents' pending: Σ children, bottom-up (pre-order reversed visits children first).
    for i in (0..n).rev() {
        if let Some(p) = parents[i] {
            let (pend, pdr) = (
                queues[i].partitions[0].pending,
                queues[i].partitions[0].pending_deduct_reserved,
            );
            queues[p].partitions[0].pending += pend;
            queues[p].partitions[0].pending_deduct_reserved += pdr;
        }
    }

    // Apps and containers.
    let mut apps: Vec<AppSnap> = Vec::new();
    let mut metas: Vec<AppMeta> = Vec::new();
    let mut budget = MAX_VECTOR_CONTAINERS;
    let mut node = NodeSnap {
        name: "mock-node:0".into(),
        partition: 0,
        unallocated: Resource::ZERO,
        killable: Resource::ZERO,
        reservation: None,
    };
    for (i, queue) in queues.iter_mut().enumerate() {
        if !queue.is_leaf() || i == 0 || input.apps[i] == 0 {
            continue;
        }
        let count = input.apps[i];
        let a_used = calc.divide_and_ceil_long(&input.used[i], count);
        let a_pending = calc.divide_and_ceil_long(&input.pending[i], count);
        let a_reserved = calc.divide_and_ceil_long(&input.reserved[i], count);
        let gran = input.gran[i];
        let n_reserved = container_count(&calc, &cluster, &a_reserved, &gran, budget)?;
        let n_live = container_count(&calc, &cluster, &a_used, &gran, budget)?;
        let wanted = (count as u128) * (n_reserved + n_live) as u128;
        if wanted > budget as u128 {
            return Err(format!(
                "column {i} asks for {wanted} containers: at most {MAX_VECTOR_CONTAINERS} per vector"
            ));
        }
        budget -= wanted as usize;
        for _ in 0..count {
            let k = apps.len();
            let mut seq: i64 = 0;
            let mut make = |is_am: bool| {
                let c = ContainerSnap {
                    id: container_id(k, seq),
                    sequence: seq,
                    resource: gran,
                    priority: if is_am { 0 } else { 1 },
                    allocation_request_id: 0,
                    is_am,
                    node: 0,
                    partition: 0,
                    ignore_exclusivity: false,
                    created_ms: 0,
                    killable: false,
                };
                seq += 1;
                c
            };
            let reserved: Vec<ContainerSnap> = (0..n_reserved).map(|_| make(false)).collect();
            let live: Vec<ContainerSnap> = (0..n_live)
                .map(|j| make(flags.set_am_container && j == 0))
                .collect();
            queue.apps.push(k);
            apps.push(AppSnap {
                id: k as u64,
                name: app_name(k).into(),
                queue: i,
                user: "user".into(),
                user_index: None,
                priority: 0,
                application_seq: k as u64,
                pending: vec![a_pending].into(),
                am: AmSnap {
                    resource: if flags.set_am_container {
                        live.first().map(|c| c.resource).unwrap_or_default()
                    } else {
                        Resource::ZERO
                    },
                    partition: 0,
                    waiting: false,
                },
                live: crate::sync::Arc::new(live),
                live_used: None,
                reserved,
            });
            metas.push(AppMeta {
                queue_as_written: paths[i].clone(),
                pending: a_pending,
                used: a_used,
                reserved: a_reserved,
            });
        }
    }
    let live_total: Resource = apps
        .iter()
        .flat_map(|a| a.live.iter().map(|c| c.resource))
        .sum();
    node.unallocated = (cluster - live_total).non_negative();

    let mut aliases = BTreeMap::new();
    if apps.len() > 4 {
        aliases.insert("appF".to_string(), 4);
        aliases.insert("appE(=appF)".to_string(), 4);
    }

    Ok(Scenario {
        snapshot: PreemptionSnapshot {
            calculator: calc,
            cluster,
            minimum_allocation: Resource::new(1, 1),
            partitions: vec![PartitionSnap {
                name: String::new(),
                resource: cluster,
                exclusive: true,
            }],
            queues,
            apps,
            nodes: vec![node],
        },
        apps: metas,
        aliases,
        hosts: vec!["mock-node".to_string()],
        notes: Vec::new(),
    })
}
