//! The ResourceManager REST API's scheduler document (`GET /ws/v1/cluster/scheduler`) for the
//! capacity scheduler, in Hadoop 3.4's shape: the same keys in the same order, leaves before
//! parents within a level (YARN-4785), capacities as percentages printed as Java floats, leaf
//! entries tagged `"type":"capacitySchedulerLeafQueueInfo"`, empty lists as `{}`.

use std::io::{self, Write};

use serde_json::{json, Map, Value};

use super::json::{JsonStyle, JsonWriter};

use crate::config::{AccessControlList, CapacityValue, QueueConf};
use crate::resource::{Resource, ResourceTypes};
use crate::scheduler::labels::partition_report::LivePartition;
use crate::scheduler::report::{LiveQueue, LiveUser};
use crate::state::queue::{QueueId, QueueTree};

/// `Integer.MAX_VALUE`: YARN's "no max-parallel-apps limit".
const UNLIMITED_PARALLEL_APPS: i64 = i32::MAX as i64;

/// The whole `{"scheduler":{"schedulerInfo":{…}}}` document as a value. Built without
/// recursion, but a value nests as deeply as the hierarchy and serde_json prints and drops
/// values recursively: for output, [`write_scheduler_info`] streams the same document.
pub fn scheduler_info_json(tree: &QueueTree) -> Value {
    scheduler_info_json_live(tree, &[])
}

/// The document with the live figures of a running scheduler
/// ([`crate::scheduler::CapacityScheduler::live_queues`], indexed by queue id); an empty
/// `live` shows the configuration alone (no applications, no containers).
pub fn scheduler_info_json_live(tree: &QueueTree, live: &[LiveQueue]) -> Value {
    // Children before parents: in pre-order every child's index is larger than its parent's.
    let mut built: Vec<Option<Value>> = vec![None; tree.len()];
    for id in (1..tree.len()).rev() {
        let children = (!tree.is_leaf(id)).then(|| children_value(tree, id, &mut built));
        built[id] = Some(queue_value(queue_fields(tree, live, id), children));
    }
    let (before, after) = root_fields(tree, live.first());
    let info = queue_value((before, after), Some(children_value(tree, 0, &mut built)));
    json!({ "scheduler": { "schedulerInfo": info } })
}

/// The same document as [`scheduler_info_json`], written to `out` as it is produced: memory
/// for one queue per level of the hierarchy, no recursion, output linear in the document
/// (pretty indentation is capped, see [`super::json`]).
pub fn write_scheduler_info<W: Write>(tree: &QueueTree, out: W, style: JsonStyle) -> io::Result<W> {
    write_scheduler_info_live(tree, &[], out, style)
}

/// [`write_scheduler_info`] with a running scheduler's live figures (see
/// [`scheduler_info_json_live`]).
pub fn write_scheduler_info_live<W: Write>(
    tree: &QueueTree,
    live: &[LiveQueue],
    out: W,
    style: JsonStyle,
) -> io::Result<W> {
    let mut w = JsonWriter::new(out, style);
    w.begin_object()?;
    w.key("scheduler")?;
    w.begin_object()?;
    w.key("schedulerInfo")?;
    let (before, after) = root_fields(tree, live.first());
    w.begin_object()?;
    w.fields(&before)?;
    let mut steps = vec![Step::EndQueue(after)];
    open_children(&mut w, &mut steps, tree, 0)?;
    while let Some(step) = steps.pop() {
        match step {
            Step::Queue(id) => {
                let (before, after) = queue_fields(tree, live, id);
                w.begin_object()?;
                w.fields(&before)?;
                steps.push(Step::EndQueue(after));
                if !tree.is_leaf(id) {
                    open_children(&mut w, &mut steps, tree, id)?;
                }
            }
            Step::EndList => {
                w.end_array()?;
                w.end_object()?;
            }
            Step::EndQueue(after) => {
                w.fields(&after)?;
                w.end_object()?;
            }
        }
    }
    w.end_object()?;
    w.end_object()?;
    Ok(w.into_inner())
}

/// What [`write_scheduler_info`] has left to write, innermost last.
enum Step {
    /// A queue, its subtree included.
    Queue(QueueId),
    /// The end of a `"queues":{"queue":[…]}` list.
    EndList,
    /// A queue's fields after its children, and the end of its object.
    EndQueue(Map<String, Value>),
}

/// Writes a parent's `"queues"` key and opens its list; the children are left as steps.
fn open_children<W: Write>(
    w: &mut JsonWriter<W>,
    steps: &mut Vec<Step>,
    tree: &QueueTree,
    id: QueueId,
) -> io::Result<()> {
    w.key("queues")?;
    let children = ordered_children(tree, id);
    if children.is_empty() {
        return w.value(&json!({}));
    }
    w.begin_object()?;
    w.key("queue")?;
    w.begin_array()?;
    steps.push(Step::EndList);
    steps.extend(children.into_iter().rev().map(Step::Queue));
    Ok(())
}

/// The compact document as a string (what the REST API serves), streamed.
pub fn scheduler_info_string(tree: &QueueTree) -> String {
    scheduler_info_string_live(tree, &[])
}

/// The compact document of a running scheduler (see [`scheduler_info_json_live`]).
pub fn scheduler_info_string_live(tree: &QueueTree, live: &[LiveQueue]) -> String {
    let bytes = write_scheduler_info_live(tree, live, Vec::new(), JsonStyle::Compact)
        .expect("writing to memory cannot fail");
    String::from_utf8(bytes).expect("serde_json writes UTF-8")
}

/// A queue's fields before and after its `"queues"` entry (which parents have between them).
type Fields = (Map<String, Value>, Map<String, Value>);

/// A queue object from its fields and, for a parent, its `"queues"` value.
fn queue_value((mut before, after): Fields, children: Option<Value>) -> Value {
    if let Some(children) = children {
        before.insert("queues".into(), children);
    }
    before.extend(after);
    Value::Object(before)
}

/// `"queues":{"queue":[…]}` from the children's built values (taken out of `built`).
fn children_value(tree: &QueueTree, id: QueueId, built: &mut [Option<Value>]) -> Value {
    let children = ordered_children(tree, id);
    if children.is_empty() {
        return json!({});
    }
    let list: Vec<Value> = children
        .into_iter()
        .map(|c| built[c].take().unwrap_or(Value::Null))
        .collect();
    json!({ "queue": list })
}

/// Children as the REST document lists them: leaves first, then parents, each in
/// configuration order.
fn ordered_children(tree: &QueueTree, id: QueueId) -> Vec<QueueId> {
    let children = tree.children(id);
    let leaves = children.iter().filter(|&&c| tree.is_leaf(c));
    let parents = children.iter().filter(|&&c| !tree.is_leaf(c));
    leaves.chain(parents).copied().collect()
}

/// `schedulerInfo`'s own fields (root's); `live` is root's live figures, if any.
fn root_fields(tree: &QueueTree, live: Option<&LiveQueue>) -> Fields {
    let root = 0;
    let c = &tree.queue(root).capacities;
    let mut info = Map::new();
    info.insert("type".into(), json!("capacityScheduler"));
    info.insert("capacity".into(), pct(c.capacity));
    info.insert("usedCapacity".into(), pct(tree.used_capacity(root)));
    info.insert("maxCapacity".into(), pct(clamp_max(c.maximum_capacity)));
    info.insert("weight".into(), jfloat(c.weight));
    info.insert("normalizedWeight".into(), jfloat(c.normalized_weight));
    info.insert(
        "queueCapacityVectorInfo".into(),
        capacity_vector(tree, root),
    );
    info.insert("queueName".into(), json!("root"));
    info.insert("queuePath".into(), json!("root"));
    info.insert(
        "maxParallelApps".into(),
        json!(max_parallel_apps(tree, root)),
    );
    info.insert("isAbsoluteResource".into(), json!(false));
    let mut after = Map::new();
    after.insert("capacities".into(), capacities_json(tree, root, live));
    after.insert("health".into(), health_json(tree));
    after.insert(
        "maximumAllocation".into(),
        resource(tree, tree.conf(root).maximum_allocation),
    );
    after.insert("queueAcls".into(), acls_json(tree.conf(root)));
    after.insert("queuePriority".into(), json!(tree.conf(root).priority));
    after.insert(
        "orderingPolicyInfo".into(),
        json!(ordering_policy(tree.conf(root))),
    );
    after.insert("mode".into(), json!(mode(tree.conf(root))));
    after.insert("queueType".into(), json!("parent"));
    creation_fields(&mut after, tree.conf(root));
    (info, after)
}

/// 3.4's names for how a queue came to be and whether it creates children, and the templates
/// of a parent that creates dynamic children (`autoQueue*TemplateProperties`, resolved, as
/// `{"property":[{"name","value"}…]}`; `{}` otherwise).
fn creation_fields(m: &mut Map<String, Value>, qc: &QueueConf) {
    let method = if qc.auto_created {
        "dynamicLegacy"
    } else if qc.dynamic {
        "dynamicFlexible"
    } else {
        "static"
    };
    let eligibility = if qc.managed.is_some() {
        "legacy"
    } else if qc.flexible.is_some() {
        "flexible"
    } else {
        "off"
    };
    m.insert("creationMethod".into(), json!(method));
    m.insert("autoCreationEligibility".into(), json!(eligibility));
    let empty = Default::default();
    let f = qc.flexible.as_deref();
    for (k, map) in [
        ("autoQueueTemplateProperties", f.map(|f| &f.template)),
        (
            "autoQueueParentTemplateProperties",
            f.map(|f| &f.parent_template),
        ),
        (
            "autoQueueLeafTemplateProperties",
            f.map(|f| &f.leaf_template),
        ),
    ] {
        let map: &std::collections::BTreeMap<String, String> = map.unwrap_or(&empty);
        let v = if map.is_empty() {
            json!({})
        } else {
            json!({ "property": map
                .iter()
                .map(|(name, value)| json!({ "name": name, "value": value }))
                .collect::<Vec<_>>() })
        };
        m.insert(k.into(), v);
    }
}

/// `LeafQueueTemplateInfo`: a managed parent's `leaf-queue-template.*` keys as name/value
/// items; `{}` for any other queue (an empty list is left out, as JAXB leaves it).
fn leaf_queue_template(qc: &QueueConf) -> Value {
    match qc.managed.as_deref() {
        Some(mp) if !mp.template_properties.is_empty() => json!({
            "property": mp
                .template_properties
                .iter()
                .map(|(name, value)| json!({ "name": name, "value": value }))
                .collect::<Vec<_>>()
        }),
        _ => json!({}),
    }
}

/// One queue's fields (a parent's `"queues"` goes between the two maps).
fn queue_fields(tree: &QueueTree, live: &[LiveQueue], id: QueueId) -> Fields {
    let none = LiveQueue::default();
    let l = live.get(id).unwrap_or(&none);
    // With no live figures the document shows the configuration alone.
    let live_q = live.get(id);
    let qc = tree.conf(id);
    let q = tree.queue(id);
    let c = &q.capacities;
    let leaf = qc.leaf.is_some();
    let mut m = Map::new();
    if leaf {
        m.insert("type".into(), json!("capacitySchedulerLeafQueueInfo"));
    }
    m.insert("queuePath".into(), json!(qc.path));
    m.insert("capacity".into(), pct(c.capacity));
    m.insert("usedCapacity".into(), pct(tree.used_capacity(id)));
    m.insert("maxCapacity".into(), pct(clamp_max(c.maximum_capacity)));
    m.insert(
        "absoluteCapacity".into(),
        pct(c.absolute_capacity.clamp(0.0, 1.0)),
    );
    m.insert(
        "absoluteMaxCapacity".into(),
        pct(c.absolute_maximum_capacity.clamp(0.0, 1.0)),
    );
    m.insert(
        "absoluteUsedCapacity".into(),
        pct(tree.absolute_used_capacity(id).clamp(0.0, 1.0)),
    );
    m.insert("weight".into(), jfloat(c.weight));
    m.insert("normalizedWeight".into(), jfloat(c.normalized_weight));
    m.insert("numApplications".into(), json!(l.num_applications));
    m.insert("maxParallelApps".into(), json!(max_parallel_apps(tree, id)));
    m.insert("queueName".into(), json!(qc.name));
    m.insert(
        "isAbsoluteResource".into(),
        json!(matches!(qc.capacity, CapacityValue::Absolute(_))),
    );
    m.insert("state".into(), json!(q.state.as_str()));
    let before = std::mem::take(&mut m);
    m.insert("resourcesUsed".into(), resource(tree, q.used));
    m.insert("hideReservationQueues".into(), json!(false));
    // The accessible labels, sorted; left out when the queue may use the default partition
    // only (JAXB omits an empty list).
    let labels = qc.labels.accessible.names();
    if !labels.is_empty() {
        m.insert("nodeLabels".into(), json!(labels));
    }
    m.insert("allocatedContainers".into(), json!(l.allocated_containers));
    m.insert("reservedContainers".into(), json!(l.reserved_containers));
    m.insert("pendingContainers".into(), json!(l.pending_containers));
    m.insert("capacities".into(), capacities_json(tree, id, live_q));
    m.insert(
        "resources".into(),
        resources_json(tree, l, live_q.is_some(), id),
    );
    m.insert(
        "minEffectiveCapacity".into(),
        resource(tree, c.effective_min),
    );
    m.insert(
        "maxEffectiveCapacity".into(),
        resource(tree, c.effective_max),
    );
    m.insert(
        "maximumAllocation".into(),
        resource(tree, qc.maximum_allocation),
    );
    m.insert("queueAcls".into(), acls_json(qc));
    m.insert("queuePriority".into(), json!(qc.priority));
    m.insert("orderingPolicyInfo".into(), json!(ordering_policy(qc)));
    m.insert(
        "autoCreateChildQueueEnabled".into(),
        json!(qc.managed.is_some()),
    );
    m.insert("leafQueueTemplate".into(), leaf_queue_template(qc));
    m.insert("mode".into(), json!(mode(qc)));
    m.insert(
        "queueType".into(),
        json!(if leaf { "leaf" } else { "parent" }),
    );
    creation_fields(&mut m, qc);
    if let (Some(lc), Some(limits)) = (&qc.leaf, q.leaf) {
        let am_limit = tree.am_resource_limit(id);
        m.insert(
            "numActiveApplications".into(),
            json!(l.num_active_applications),
        );
        m.insert(
            "numPendingApplications".into(),
            json!(l.num_pending_applications),
        );
        m.insert("numContainers".into(), json!(l.num_containers));
        m.insert("maxApplications".into(), json!(limits.max_applications));
        m.insert(
            "maxApplicationsPerUser".into(),
            json!(limits.max_applications_per_user),
        );
        m.insert("userLimit".into(), jfloat(lc.user_limit_percent));
        m.insert("users".into(), users_json(tree, &l.users));
        m.insert("userLimitFactor".into(), jfloat(lc.user_limit_factor));
        m.insert(
            "configuredMaxAMResourceLimit".into(),
            jfloat(lc.maximum_am_resource_percent),
        );
        m.insert("AMResourceLimit".into(), resource(tree, am_limit));
        m.insert("usedAMResource".into(), resource(tree, l.am_used));
        // With no users YARN shows the queue's AM limit here, else its first user's.
        let user_am_limit = l.users.first().map(|u| u.am_limit).unwrap_or(am_limit);
        m.insert("userAMResourceLimit".into(), resource(tree, user_am_limit));
        m.insert(
            "preemptionDisabled".into(),
            json!(tree.preemption_disabled(id)),
        );
        m.insert(
            "intraQueuePreemptionDisabled".into(),
            json!(tree.intra_queue_preemption_disabled(id)),
        );
        if let Some(expr) = &qc.labels.default_expression {
            m.insert("defaultNodeLabelExpression".into(), json!(expr));
        }
        m.insert(
            "defaultPriority".into(),
            json!(lc.default_application_priority),
        );
        m.insert("isAutoCreatedLeafQueue".into(), json!(qc.auto_created));
        let lifetimes = tree.conf(id).lifetimes;
        m.insert("maxApplicationLifetime".into(), json!(lifetimes.maximum));
        m.insert(
            "defaultApplicationLifetime".into(),
            json!(lifetimes.default),
        );
    }
    (before, m)
}

/// `QueueCapacitiesInfo`: the default partition, then each labelled partition the queue has
/// capacities for or (with live figures) has touched — YARN's `QueueCapacities` gains an entry
/// for a partition its queue uses even without a capacity key (ignore-exclusivity use of a
/// non-exclusive partition), and for every partition its `ResourceUsage` lists at the next
/// cluster update, which capsched shows at once — in Java's HashMap order.
fn capacities_json(tree: &QueueTree, id: QueueId, live: Option<&LiveQueue>) -> Value {
    let qc = tree.conf(id);
    let c = &tree.queue(id).capacities;
    // Root's configured resources are the default partition's (the whole cluster without
    // labels), set at every cluster update (`ParentQueue.calculateEffectiveResourcesAndCapacity`
    // with `getResourceByLabel("")`).
    let (configured_min, configured_max) = if id == 0 {
        let p = tree.default_partition_resource();
        (p, p)
    } else {
        qc.configured_resources()
    };
    let mut m = Map::new();
    m.insert("partitionName".into(), json!(""));
    m.insert("queueCapacityVectorInfo".into(), capacity_vector(tree, id));
    m.insert("capacity".into(), pct(c.capacity));
    m.insert("usedCapacity".into(), pct(tree.used_capacity(id)));
    m.insert("maxCapacity".into(), pct(clamp_max(c.maximum_capacity)));
    m.insert("absoluteCapacity".into(), pct(c.absolute_capacity));
    m.insert(
        "absoluteUsedCapacity".into(),
        pct(tree.absolute_used_capacity(id)),
    );
    m.insert(
        "absoluteMaxCapacity".into(),
        pct(c.absolute_maximum_capacity),
    );
    m.insert(
        "maxAMLimitPercentage".into(),
        pct(qc
            .leaf
            .as_ref()
            .map(|l| l.maximum_am_resource_percent)
            .unwrap_or(0.0)),
    );
    m.insert("weight".into(), jfloat(c.weight));
    m.insert("normalizedWeight".into(), jfloat(c.normalized_weight));
    m.insert(
        "configuredMinResource".into(),
        configured_resource(tree, configured_min),
    );
    m.insert(
        "configuredMaxResource".into(),
        configured_resource(tree, configured_max),
    );
    m.insert(
        "effectiveMinResource".into(),
        resource(tree, c.effective_min),
    );
    m.insert(
        "effectiveMaxResource".into(),
        resource(tree, c.effective_max),
    );
    let mut entries = vec![Value::Object(m)];
    let by_label = tree.partition_capacities(id);
    let live_parts: &[LivePartition] = live.map(|l| l.partitions.as_slice()).unwrap_or(&[]);
    let mut labels: Vec<&str> = by_label.keys().map(String::as_str).collect();
    for p in live_parts {
        if !by_label.contains_key(&p.label) {
            labels.push(&p.label);
        }
    }
    for label in crate::config::hadoop::java::java_hash_order(&labels) {
        // A partition only used, not configured: YARN's entry has nothing but the used
        // capacities (a missing capacity reads 0, its maximum AM share too).
        let configured = by_label.get(label);
        let pc = configured.copied().unwrap_or_default();
        let am_percent = match (&qc.leaf, configured) {
            (Some(l), Some(_)) => qc
                .labels
                .capacity(label)
                .maximum_am_resource_percent
                .unwrap_or(l.maximum_am_resource_percent),
            _ => 0.0,
        };
        let partition = tree.partition_resource(label);
        let (used_capacity, absolute_used_capacity) = live_parts
            .iter()
            .find(|p| p.label == label)
            .map(|p| (p.used_capacity, p.absolute_used_capacity))
            .unwrap_or((0.0, 0.0));
        let mut e = Map::new();
        e.insert("partitionName".into(), json!(label));
        e.insert(
            "queueCapacityVectorInfo".into(),
            capacity_vector_of(tree, |_| format!("{}%", java_float(pc.capacity * 100.0))),
        );
        e.insert("capacity".into(), pct(pc.capacity));
        // Not capped: a queue using a partition it has no guarantee in shows far above 100.
        e.insert("usedCapacity".into(), pct(used_capacity));
        e.insert("maxCapacity".into(), pct(clamp_max(pc.maximum_capacity)));
        e.insert(
            "absoluteCapacity".into(),
            pct(pc.absolute_capacity.clamp(0.0, 1.0)),
        );
        e.insert(
            "absoluteUsedCapacity".into(),
            pct(absolute_used_capacity.clamp(0.0, 1.0)),
        );
        e.insert(
            "absoluteMaxCapacity".into(),
            pct(pc.absolute_maximum_capacity.clamp(0.0, 1.0)),
        );
        e.insert("maxAMLimitPercentage".into(), pct(am_percent));
        e.insert("weight".into(), jfloat(-1.0));
        e.insert("normalizedWeight".into(), jfloat(0.0));
        // Root's configured resources are the partition's (PQ:943-949), for the labels it
        // has keys for; another queue's are its absolute values on the label, if any.
        let (configured_min, configured_max) = if id == 0 && configured.is_some() {
            (partition, partition)
        } else {
            let lc = qc.labels.capacity(label);
            (
                lc.minimum_resource
                    .map(|a| a.resource())
                    .unwrap_or(Resource::ZERO),
                lc.maximum_resource
                    .map(|a| a.resource())
                    .unwrap_or(Resource::ZERO),
            )
        };
        e.insert(
            "configuredMinResource".into(),
            configured_resource(tree, configured_min),
        );
        e.insert(
            "configuredMaxResource".into(),
            configured_resource(tree, configured_max),
        );
        e.insert(
            "effectiveMinResource".into(),
            resource(tree, pc.effective_min),
        );
        e.insert(
            "effectiveMaxResource".into(),
            resource(tree, pc.effective_max),
        );
        entries.push(Value::Object(e));
    }
    json!({ "queueCapacitiesByPartition": entries })
}

/// `ResourcesInfo`: the default partition, then every partition the queue's `ResourceUsage`
/// lists (with live figures: those it has touched, see
/// [`crate::scheduler::CapacityScheduler::queue_partitions`]), in Java's HashMap order; seven
/// keys on a leaf, four on a parent (YARN builds parents' without the AM figures).
fn resources_json(tree: &QueueTree, l: &LiveQueue, has_live: bool, id: QueueId) -> Value {
    let q = tree.queue(id);
    let leaf = tree.is_leaf(id);
    let mut m = Map::new();
    m.insert("partitionName".into(), json!(""));
    m.insert("used".into(), resource(tree, q.used));
    m.insert("reserved".into(), resource(tree, l.reserved));
    m.insert("pending".into(), resource(tree, l.pending));
    if leaf {
        m.insert("amUsed".into(), resource(tree, l.am_used));
        m.insert("amLimit".into(), resource(tree, tree.am_resource_limit(id)));
        // The queue's stored user AM limit (one user of weight 1 when none is active).
        let user_am_limit = l.users.first().map(|u| u.am_limit).unwrap_or_default();
        m.insert("userAmLimit".into(), resource(tree, user_am_limit));
    }
    let mut entries = vec![Value::Object(m)];
    if has_live {
        entries.extend(partition_usages(tree, &l.partitions, leaf));
        return json!({ "resourceUsagesByPartition": entries });
    }
    // The configuration alone: a leaf's AM limit is set for each partition it may use
    // (`getNodeLabelsForQueue`: its accessible labels, or for `*` the labels it has capacities
    // for) once the cluster has resources, which makes those partitions appear, with nothing
    // used.
    if leaf && !tree.cluster_resource().is_zero() {
        let qc = tree.conf(id);
        let labels: Vec<&str> = match &qc.labels.accessible {
            crate::config::node_labels::AccessibleLabels::Only(set) => {
                set.iter().map(String::as_str).collect()
            }
            crate::config::node_labels::AccessibleLabels::Any => {
                qc.labels.capacities.keys().map(String::as_str).collect()
            }
        };
        let parts: Vec<LivePartition> = labels
            .into_iter()
            .map(|label| LivePartition {
                label: label.to_string(),
                ..LivePartition::default()
            })
            .collect();
        entries.extend(partition_usages(tree, &parts, true));
    }
    json!({ "resourceUsagesByPartition": entries })
}

/// `PartitionResourcesInfo` of each labelled partition, in Java's HashMap order (after the
/// default partition's): all seven keys with `am`, the first four without.
fn partition_usages(tree: &QueueTree, parts: &[LivePartition], am: bool) -> Vec<Value> {
    let labels: Vec<&str> = parts.iter().map(|p| p.label.as_str()).collect();
    crate::config::hadoop::java::java_hash_order(&labels)
        .into_iter()
        .filter_map(|label| parts.iter().find(|p| p.label == label))
        .map(|p| {
            let mut e = Map::new();
            e.insert("partitionName".into(), json!(p.label));
            e.insert("used".into(), resource(tree, p.used));
            e.insert("reserved".into(), resource(tree, p.reserved));
            e.insert("pending".into(), resource(tree, p.pending));
            if am {
                e.insert("amUsed".into(), resource(tree, p.am_used));
                e.insert("amLimit".into(), resource(tree, p.am_limit));
                e.insert("userAmLimit".into(), resource(tree, p.user_am_limit));
            }
            Value::Object(e)
        })
        .collect()
}

/// `UsersInfo`: `{"user":[…]}` in `UserInfo`'s key order (YARN lists them in hash order;
/// capsched by name), `{}` with none.
fn users_json(tree: &QueueTree, users: &[LiveUser]) -> Value {
    if users.is_empty() {
        return json!({});
    }
    let list: Vec<Value> = users
        .iter()
        .map(|u| {
            let mut m = Map::new();
            m.insert("username".into(), json!(u.name));
            // `getAllUsed`: every partition's.
            m.insert("resourcesUsed".into(), resource(tree, u.all_used()));
            m.insert(
                "numPendingApplications".into(),
                json!(u.num_pending_applications),
            );
            m.insert(
                "numActiveApplications".into(),
                json!(u.num_active_applications),
            );
            m.insert("AMResourceUsed".into(), resource(tree, u.am_used));
            m.insert("userResourceLimit".into(), resource(tree, u.user_limit));
            let mut r = Map::new();
            r.insert("partitionName".into(), json!(""));
            r.insert("used".into(), resource(tree, u.used));
            r.insert("reserved".into(), resource(tree, Resource::ZERO));
            r.insert("pending".into(), resource(tree, Resource::ZERO));
            r.insert("amUsed".into(), resource(tree, u.am_used));
            r.insert("amLimit".into(), resource(tree, u.am_limit));
            r.insert("userAmLimit".into(), resource(tree, Resource::ZERO));
            let mut parts = vec![Value::Object(r)];
            parts.extend(partition_usages(tree, &u.partitions, true));
            m.insert(
                "resources".into(),
                json!({ "resourceUsagesByPartition": parts }),
            );
            m.insert("userWeight".into(), jfloat(u.weight));
            m.insert("isActive".into(), json!(u.active));
            Value::Object(m)
        })
        .collect();
    json!({ "user": list })
}

fn health_json(tree: &QueueTree) -> Value {
    let op = |name: &str| json!({"operation": name, "nodeId": "N/A", "containerId": "N/A", "queue": "N/A"});
    let run = |name: &str| json!({"operation": name, "count": 0, "resources": resource(tree, Resource::ZERO)});
    json!({
        "lastrun": 0,
        "operationsInfo": [op("last-allocation"), op("last-release"), op("last-preemption"), op("last-reservation")],
        "lastRunDetails": [run("releases"), run("allocations"), run("reservations")],
    })
}

/// Sorted by access type, as YARN 3.4 lists them.
fn acls_json(qc: &QueueConf) -> Value {
    let acl = |kind: &str, list: &AccessControlList| json!({"accessType": kind, "accessControlList": list.to_string()});
    json!({ "queueAcl": [
        acl("ADMINISTER_QUEUE", &qc.acl_administer_queue),
        acl("APPLICATION_MAX_PRIORITY", &AccessControlList::everyone()),
        acl("SUBMIT_APP", &qc.acl_submit_applications),
    ]})
}

/// `[memory-mb=12.5%,vcores=12.5%]`, `[memory-mb=2.0w,vcores=2.0w]` or `[memory-mb=1024,vcores=1]`.
fn capacity_vector(tree: &QueueTree, id: QueueId) -> Value {
    let qc = tree.conf(id);
    capacity_vector_of(tree, |i| match &qc.capacity {
        CapacityValue::Percent(p) => format!("{}%", java_float(p * 100.0)),
        CapacityValue::Weight(w) => format!("{}w", java_float(*w)),
        CapacityValue::Absolute(a) => a.resource().get(i).to_string(),
    })
}

/// `queueCapacityVectorInfo` with `value(i)` for resource type `i`.
fn capacity_vector_of(tree: &QueueTree, value: impl Fn(usize) -> String) -> Value {
    let types = &tree.settings().resource_types;
    let entries: Vec<Value> = (0..types.count())
        .map(|i| json!({"resourceName": types.name(i), "resourceValue": value(i)}))
        .collect();
    let text: Vec<String> = (0..types.count())
        .map(|i| format!("{}={}", types.name(i), value(i)))
        .collect();
    json!({
        "configuredCapacityVector": format!("[{}]", text.join(",")),
        "capacityVectorEntries": entries,
    })
}

fn mode(qc: &QueueConf) -> &'static str {
    match qc.capacity {
        CapacityValue::Percent(_) => "percentage",
        CapacityValue::Weight(_) => "weight",
        CapacityValue::Absolute(_) => "absolute",
    }
}

fn ordering_policy(qc: &QueueConf) -> &'static str {
    match (&qc.leaf, qc.queue_ordering_policy) {
        (Some(l), _) => l.ordering_policy.name(),
        (None, Some(p)) => p.name(),
        (None, None) => "utilization",
    }
}

fn max_parallel_apps(tree: &QueueTree, id: QueueId) -> i64 {
    tree.conf(id)
        .max_parallel_apps
        .or(tree.settings().max_parallel_apps)
        .map(i64::from)
        .unwrap_or(UNLIMITED_PARALLEL_APPS)
}

/// YARN's REST `maxCapacity`: values below 1e-8 or above 1 show as 100%.
fn clamp_max(m: f32) -> f32 {
    if !(1e-8..=1.0).contains(&m) {
        1.0
    } else {
        m
    }
}

/// A fraction as a percentage, computed in float as YARN does (`capacity * 100`).
fn pct(fraction: f32) -> Value {
    jfloat(fraction * 100.0)
}

/// A Java `float` as JSON: the shortest decimal that names the f32 (what `Float.toString`
/// prints), not the longer expansion of its f64 widening (30.000002, not 30.000001907…).
fn jfloat(f: f32) -> Value {
    if !f.is_finite() {
        return Value::Null;
    }
    let shortest: f64 = java_float(f).parse().unwrap_or(f as f64);
    json!(shortest)
}

fn java_float(f: f32) -> String {
    crate::config::hadoop::java::float_to_string(f)
}

/// `ResourceInfo`: memory, vCores and one `resourceInformation` per configured type.
fn resource(tree: &QueueTree, r: Resource) -> Value {
    resource_with_bounds(&tree.settings().resource_types, r, None)
}

/// Configured min/max resources carry the scheduler's allocation bounds in their type entries.
fn configured_resource(tree: &QueueTree, r: Resource) -> Value {
    let s = tree.settings();
    resource_with_bounds(
        &s.resource_types,
        r,
        Some((s.minimum_allocation, s.maximum_allocation)),
    )
}

fn resource_with_bounds(
    types: &ResourceTypes,
    r: Resource,
    bounds: Option<(Resource, Resource)>,
) -> Value {
    let infos: Vec<Value> = (0..types.count())
        .map(|i| {
            let (min, max) = bounds
                .map(|(lo, hi)| (lo.get(i), hi.get(i)))
                .unwrap_or((0, i64::MAX));
            let units = if i == 0 { "Mi" } else { "" };
            json!({
                "attributes": {},
                "maximumAllocation": max,
                "minimumAllocation": min,
                "name": types.name(i),
                "resourceType": "COUNTABLE",
                "units": units,
                "value": r.get(i),
            })
        })
        .collect();
    json!({
        "memory": r.memory_mb(),
        "vCores": r.vcores(),
        "resourceInformations": { "resourceInformation": infos },
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn partitions_come_in_java_hash_map_order() {
        // Buckets (table of 16): "x" 8, "y" 9, "Lx" 12, "Ly" 13, "red" 0, "blue" 4.
        assert_eq!(
            crate::config::hadoop::java::java_hash_order(&["Ly", "y", "Lx", "x", "blue", "red"]),
            vec!["red", "blue", "x", "y", "Lx", "Ly"]
        );
    }
}
