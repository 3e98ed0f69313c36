//! The ResourceManager REST API's scheduler document (`GET /ws/v1/cluster/scheduler`) for the
//! capacity scheduler, in Hadoop 3.4's shape: the same keys in the same order, leaves before
//! parents within a level (YARN-4785), capacities as percentages printed as Java floats, leaf
//! entries tagged `"type":"capacitySchedulerLeafQueueInfo"`, empty lists as `{}`.

use serde_json::{json, Map, Value};

use crate::config::{AccessControlList, CapacityValue, MaxCapacityValue, QueueConf};
use crate::resource::{Resource, ResourceTypes};
use crate::state::queue::{QueueId, QueueTree};

/// `Integer.MAX_VALUE`: YARN's "no max-parallel-apps limit".
const UNLIMITED_PARALLEL_APPS: i64 = i32::MAX as i64;

/// The whole `{"scheduler":{"schedulerInfo":{…}}}` document.
pub fn scheduler_info_json(tree: &QueueTree) -> Value {
    let mut info = Map::new();
    info.insert("type".into(), json!("capacityScheduler"));
    let root = 0;
    let c = &tree.queue(root).capacities;
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
    info.insert("queues".into(), children_json(tree, root));
    info.insert("capacities".into(), capacities_json(tree, root));
    info.insert("health".into(), health_json(tree));
    info.insert(
        "maximumAllocation".into(),
        resource(tree, tree.conf(root).maximum_allocation),
    );
    info.insert("queueAcls".into(), acls_json(tree.conf(root)));
    info.insert("queuePriority".into(), json!(tree.conf(root).priority));
    info.insert(
        "orderingPolicyInfo".into(),
        json!(ordering_policy(tree.conf(root))),
    );
    info.insert("mode".into(), json!(mode(tree.conf(root))));
    info.insert("queueType".into(), json!("parent"));
    info.insert("creationMethod".into(), json!("static"));
    info.insert("autoCreationEligibility".into(), json!("off"));
    for k in [
        "autoQueueTemplateProperties",
        "autoQueueParentTemplateProperties",
        "autoQueueLeafTemplateProperties",
    ] {
        info.insert(k.into(), json!({}));
    }
    json!({ "scheduler": { "schedulerInfo": Value::Object(info) } })
}

/// `"queues":{"queue":[…]}`, leaves first, then parents, each in configuration order.
fn children_json(tree: &QueueTree, id: QueueId) -> Value {
    let children = tree.children(id);
    if children.is_empty() {
        return json!({});
    }
    let leaves = children.iter().filter(|&&c| tree.is_leaf(c));
    let parents = children.iter().filter(|&&c| !tree.is_leaf(c));
    let list: Vec<Value> = leaves
        .chain(parents)
        .map(|&c| queue_json(tree, c))
        .collect();
    json!({ "queue": list })
}

fn queue_json(tree: &QueueTree, id: QueueId) -> Value {
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
    m.insert("numApplications".into(), json!(0));
    m.insert("maxParallelApps".into(), json!(max_parallel_apps(tree, id)));
    m.insert("queueName".into(), json!(qc.name));
    m.insert(
        "isAbsoluteResource".into(),
        json!(matches!(qc.capacity, CapacityValue::Absolute(_))),
    );
    m.insert("state".into(), json!(q.state.as_str()));
    if !leaf {
        m.insert("queues".into(), children_json(tree, id));
    }
    m.insert("resourcesUsed".into(), resource(tree, q.used));
    m.insert("hideReservationQueues".into(), json!(false));
    m.insert("nodeLabels".into(), json!(["*"]));
    m.insert("allocatedContainers".into(), json!(0));
    m.insert("reservedContainers".into(), json!(0));
    m.insert("pendingContainers".into(), json!(0));
    m.insert("capacities".into(), capacities_json(tree, id));
    m.insert("resources".into(), resources_json(tree, id));
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
    m.insert("autoCreateChildQueueEnabled".into(), json!(false));
    m.insert("leafQueueTemplate".into(), json!({}));
    m.insert("mode".into(), json!(mode(qc)));
    m.insert(
        "queueType".into(),
        json!(if leaf { "leaf" } else { "parent" }),
    );
    m.insert("creationMethod".into(), json!("static"));
    m.insert("autoCreationEligibility".into(), json!("off"));
    for k in [
        "autoQueueTemplateProperties",
        "autoQueueParentTemplateProperties",
        "autoQueueLeafTemplateProperties",
    ] {
        m.insert(k.into(), json!({}));
    }
    if let (Some(lc), Some(limits)) = (&qc.leaf, q.leaf) {
        let am_limit = tree.am_resource_limit(id);
        m.insert("numActiveApplications".into(), json!(0));
        m.insert("numPendingApplications".into(), json!(0));
        m.insert("numContainers".into(), json!(0));
        m.insert("maxApplications".into(), json!(limits.max_applications));
        m.insert(
            "maxApplicationsPerUser".into(),
            json!(limits.max_applications_per_user),
        );
        m.insert("userLimit".into(), jfloat(lc.user_limit_percent));
        m.insert("users".into(), json!({}));
        m.insert("userLimitFactor".into(), jfloat(lc.user_limit_factor));
        m.insert(
            "configuredMaxAMResourceLimit".into(),
            jfloat(lc.maximum_am_resource_percent),
        );
        m.insert("AMResourceLimit".into(), resource(tree, am_limit));
        m.insert("usedAMResource".into(), resource(tree, Resource::ZERO));
        // With no users yet YARN shows the queue's AM limit here.
        m.insert("userAMResourceLimit".into(), resource(tree, am_limit));
        m.insert(
            "preemptionDisabled".into(),
            json!(tree.preemption_disabled(id)),
        );
        m.insert(
            "intraQueuePreemptionDisabled".into(),
            json!(tree.intra_queue_preemption_disabled(id)),
        );
        m.insert(
            "defaultPriority".into(),
            json!(lc.default_application_priority),
        );
        m.insert("isAutoCreatedLeafQueue".into(), json!(false));
        m.insert("maxApplicationLifetime".into(), json!(-1));
        m.insert("defaultApplicationLifetime".into(), json!(-1));
    }
    Value::Object(m)
}

fn capacities_json(tree: &QueueTree, id: QueueId) -> Value {
    let qc = tree.conf(id);
    let c = &tree.queue(id).capacities;
    let (configured_min, configured_max) = configured_resources(qc);
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
    json!({ "queueCapacitiesByPartition": [Value::Object(m)] })
}

fn resources_json(tree: &QueueTree, id: QueueId) -> Value {
    let q = tree.queue(id);
    let mut m = Map::new();
    m.insert("partitionName".into(), json!(""));
    m.insert("used".into(), resource(tree, q.used));
    m.insert("reserved".into(), resource(tree, Resource::ZERO));
    m.insert("pending".into(), resource(tree, Resource::ZERO));
    if tree.is_leaf(id) {
        m.insert("amUsed".into(), resource(tree, Resource::ZERO));
        m.insert("amLimit".into(), resource(tree, tree.am_resource_limit(id)));
        m.insert("userAmLimit".into(), resource(tree, Resource::ZERO));
    }
    json!({ "resourceUsagesByPartition": [Value::Object(m)] })
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
    let types = &tree.settings().resource_types;
    let qc = tree.conf(id);
    let value = |i: usize| -> String {
        match &qc.capacity {
            CapacityValue::Percent(p) => format!("{}%", java_float(p * 100.0)),
            CapacityValue::Weight(w) => format!("{}w", java_float(*w)),
            CapacityValue::Absolute(a) => a.resource().get(i).to_string(),
        }
    };
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

fn configured_resources(qc: &QueueConf) -> (Resource, Resource) {
    let min = match &qc.capacity {
        CapacityValue::Absolute(a) => a.resource(),
        _ => Resource::ZERO,
    };
    let max = match &qc.maximum_capacity {
        MaxCapacityValue::Absolute(a) => a.resource(),
        _ => Resource::ZERO,
    };
    (min, max)
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
    crate::config::java::float_to_string(f)
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
