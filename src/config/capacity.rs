//! `CapacitySchedulerConfiguration`: the queue hierarchy and every allocation key of
//! capacity-scheduler.xml, parsed, typed and validated (spec §1).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use super::acl::{AccessControlList, ALL_ACL, NOBODY_ACL};
use super::error::{ConfigError, ConfigErrors};
use super::hadoop::Configuration;
use super::java;
use super::keys::*;
use super::limits::{MAX_QUEUES, MAX_QUEUE_DEPTH, MAX_TOTAL_PATH_BYTES};
use super::opportunistic::{read_opportunistic_settings, OpportunisticSettings};
use super::queue_conf::*;
use super::reader::{global_key, queue_key, Reader};
use super::settings::{
    read_preemption_settings, read_scheduler_settings, PreemptionSettings, SchedulerSettings,
};
use super::validate;
use crate::echo::echo;
use crate::resource::{looks_absolute, Resource, ResourceTypes, MEMORY, VCORES};

/// A parsed and validated capacity-scheduler configuration. Immutable: a refresh builds a new one.
#[derive(Debug, Clone)]
pub struct CapacitySchedulerConfiguration {
    conf: Configuration,
    settings: SchedulerSettings,
    preemption: PreemptionSettings,
    opportunistic: OpportunisticSettings,
    queues: Vec<QueueConf>,
    warnings: Vec<String>,
}

impl CapacitySchedulerConfiguration {
    /// Parses and validates. Every independent problem is reported; the first is the one YARN
    /// would have stopped at.
    pub fn from_configuration(conf: Configuration) -> Result<Self, ConfigErrors> {
        let mut r = Reader::new(&conf);
        let settings = read_scheduler_settings(&mut r);
        let preemption = read_preemption_settings(&mut r);
        let opportunistic = read_opportunistic_settings(&mut r);
        let queues = read_queues(&mut r, &settings);
        if let Some(queues) = &queues {
            validate::validate_tree(&mut r, &settings, queues);
            warn_orphan_keys(&mut r, queues);
        }
        let Reader {
            errors, warnings, ..
        } = r;
        if !errors.is_empty() {
            return Err(ConfigErrors(errors));
        }
        let mut warnings = warnings;
        warnings.extend(conf.warnings().iter().cloned());
        Ok(CapacitySchedulerConfiguration {
            conf,
            settings,
            preemption,
            opportunistic,
            queues: queues.expect("no errors implies a hierarchy"),
            warnings,
        })
    }

    pub fn from_xml_str(xml: &str) -> Result<Self, ConfigErrors> {
        let mut conf = Configuration::new();
        conf.add_xml_str(xml, "capacity-scheduler.xml")
            .map_err(|e| ConfigError::new(e.to_string()))?;
        Self::from_configuration(conf)
    }

    pub fn from_properties_str(text: &str) -> Result<Self, ConfigErrors> {
        let mut conf = Configuration::new();
        conf.add_properties_str(text, "capacity-scheduler.properties")
            .map_err(|e| ConfigError::new(e.to_string()))?;
        Self::from_configuration(conf)
    }

    /// Loads a Hadoop XML file or a `key=value` properties file (detected from its content).
    pub fn from_file(path: &Path) -> Result<Self, ConfigErrors> {
        let mut conf = Configuration::new();
        conf.add_file(path)
            .map_err(|e| ConfigError::new(e.to_string()))?;
        Self::from_configuration(conf)
    }

    /// The built-in default: the configuration of the seed document (root.default 80/80,
    /// root.low 20/40, AM share 0.2, 10000 applications, node-locality-delay 40, ULF 1).
    pub fn seed_default() -> Self {
        Self::from_properties_str(SEED_PROPERTIES).expect("the built-in configuration is valid")
    }

    pub fn settings(&self) -> &SchedulerSettings {
        &self.settings
    }

    pub fn preemption(&self) -> &PreemptionSettings {
        &self.preemption
    }

    /// Opportunistic containers' keys (spec O1).
    pub fn opportunistic(&self) -> &OpportunisticSettings {
        &self.opportunistic
    }

    /// Queues in pre-order (a parent before its children, children in `queues` list order);
    /// index 0 is root.
    pub fn queues(&self) -> &[QueueConf] {
        &self.queues
    }

    pub fn queue(&self, path: &str) -> Option<&QueueConf> {
        self.queues.iter().find(|q| q.path == path)
    }

    /// The raw key/value configuration, unknown keys included.
    pub fn configuration(&self) -> &Configuration {
        &self.conf
    }

    /// Non-fatal findings: keys for queues that are not in the hierarchy, ignored values.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

/// The seed document's capacity-scheduler configuration, as properties.
pub const SEED_PROPERTIES: &str = "\
yarn.scheduler.capacity.maximum-am-resource-percent=0.2
yarn.scheduler.capacity.maximum-applications=10000
yarn.scheduler.capacity.node-locality-delay=40
yarn.scheduler.capacity.root.acl_administer_queue=*
yarn.scheduler.capacity.root.capacity=100
yarn.scheduler.capacity.root.default.acl_administer_jobs=*
yarn.scheduler.capacity.root.default.acl_submit_applications=*
yarn.scheduler.capacity.root.default.capacity=80
yarn.scheduler.capacity.root.default.maximum-capacity=80
yarn.scheduler.capacity.root.default.state=RUNNING
yarn.scheduler.capacity.root.default.user-limit-factor=1
yarn.scheduler.capacity.root.low.acl_administer_jobs=*
yarn.scheduler.capacity.root.low.acl_submit_applications=*
yarn.scheduler.capacity.root.low.capacity=20
yarn.scheduler.capacity.root.low.maximum-capacity=40
yarn.scheduler.capacity.root.low.state=RUNNING
yarn.scheduler.capacity.root.low.user-limit-factor=1
yarn.scheduler.capacity.root.queues=default,low
";

/// Walks the hierarchy from root (iteratively: a hostile file cannot exhaust the stack) and
/// parses every queue. `None` when the hierarchy itself is unusable (no children for root, or
/// beyond one of the caps of [`super::limits`]).
fn read_queues(r: &mut Reader, settings: &SchedulerSettings) -> Option<Vec<QueueConf>> {
    let mut queues: Vec<QueueConf> = Vec::new();
    // (path, parent index, level below root); popped in pre-order because children are
    // pushed in reverse.
    let mut stack: Vec<(String, Option<QueueIndex>, usize)> = vec![(ROOT.to_string(), None, 0)];
    // Queues found so far (listed by a parent, read or not) and their paths' total length.
    let mut found = 1usize;
    let mut path_bytes = ROOT.len();
    while let Some((path, parent, level)) = stack.pop() {
        let children_key = queue_key(&path, QUEUES);
        let names = r.conf.get_trimmed_strings(&children_key);
        let names = if names.iter().all(|n| n.is_empty()) {
            Vec::new()
        } else {
            names
        };
        if parent.is_none() && names.is_empty() {
            r.error(
                Some(ROOT),
                &children_key,
                "Queue configuration missing child queue names for root",
            );
            return None;
        }
        let valid_children = child_names(r, &path, &children_key, &names);
        if !names.is_empty() {
            found += valid_children.len();
            path_bytes += valid_children
                .iter()
                .map(|n| path.len() + 1 + n.len())
                .sum::<usize>();
            if let Some(limit) = hierarchy_limit(found, level + 1, path_bytes) {
                r.error(Some(&path), &children_key, limit);
                return None;
            }
        }
        let index = queues.len();
        let parent_conf = parent.map(|p| &queues[p]);
        let mut q = read_queue(r, settings, &path, parent_conf, !names.is_empty());
        q.parent = parent;
        queues.push(q);
        if let Some(p) = parent {
            queues[p].children.push(index);
        }
        for name in valid_children.iter().rev() {
            stack.push((format!("{path}.{name}"), Some(index), level + 1));
        }
    }
    Some(queues)
}

/// The children `names` of `path` that can be queues, in order; an error for each that
/// cannot (empty, dotted, listed twice).
fn child_names<'n>(
    r: &mut Reader,
    path: &str,
    children_key: &str,
    names: &'n [String],
) -> Vec<&'n str> {
    let mut seen: HashSet<&str> = HashSet::with_capacity(names.len());
    let mut valid = Vec::with_capacity(names.len());
    for name in names {
        if name.is_empty() {
            r.error(
                Some(path),
                children_key,
                format!("Queue {path} has an empty child queue name in {children_key}"),
            );
        } else if name.contains('.') {
            r.error(
                Some(path),
                children_key,
                format!(
                    "Illegal queue name {} under queue {path}: a queue name must not contain '.'",
                    echo(name)
                ),
            );
        } else if !seen.insert(name) {
            r.error(
                Some(path),
                children_key,
                format!(
                    "Queue {path} lists child queue {} more than once in {children_key}",
                    echo(name)
                ),
            );
        } else {
            valid.push(name.as_str());
        }
    }
    valid
}

/// The cap of [`super::limits`] a hierarchy of `queues` queues, children at `level` below
/// root and `path_bytes` of paths would exceed, as a message.
fn hierarchy_limit(queues: usize, level: usize, path_bytes: usize) -> Option<String> {
    if queues > MAX_QUEUES {
        Some(format!(
            "The queue hierarchy has more than {MAX_QUEUES} queues: capsched's limit"
        ))
    } else if level > MAX_QUEUE_DEPTH {
        Some(format!(
            "The queue hierarchy is more than {MAX_QUEUE_DEPTH} levels deep below root: capsched's limit"
        ))
    } else if path_bytes > MAX_TOTAL_PATH_BYTES {
        Some(format!(
            "The queue paths of the hierarchy add up to more than {} MiB: capsched's limit",
            MAX_TOTAL_PATH_BYTES >> 20
        ))
    } else {
        None
    }
}

fn read_queue(
    r: &mut Reader,
    settings: &SchedulerSettings,
    path: &str,
    parent: Option<&QueueConf>,
    has_children: bool,
) -> QueueConf {
    let q = Some(path);
    let name = path.rsplit('.').next().unwrap_or(path).to_string();
    let is_root = parent.is_none();
    let capacity = read_capacity(r, &settings.resource_types, path, is_root);
    let maximum_capacity = read_maximum_capacity(r, &settings.resource_types, path, is_root);
    let (configured_state, state) = read_state(r, path, parent);

    let acl = |r: &mut Reader, suffix: &str| {
        let default = if is_root { ALL_ACL } else { NOBODY_ACL };
        // ACL values are not trimmed: a single space means "nobody".
        AccessControlList::parse(
            &r.conf
                .get(&queue_key(path, suffix))
                .unwrap_or_else(|| default.to_string()),
        )
    };
    let acl_submit_applications = acl(r, ACL_SUBMIT_APPLICATIONS);
    let acl_administer_queue = acl(r, ACL_ADMINISTER_QUEUE);

    let max_parallel_apps = r.opt_int(q, &queue_key(path, MAX_PARALLEL_APPS));
    let maximum_allocation = read_maximum_allocation(r, settings, path, parent);
    let priority = r.int(q, &queue_key(path, PRIORITY), 0);
    let disable_preemption = r.opt_bool(&queue_key(path, DISABLE_PREEMPTION));
    let intra_queue_disable_preemption =
        r.opt_bool(&queue_key(path, INTRA_QUEUE_DISABLE_PREEMPTION));
    let allow_zero_capacity_sum = r.boolean(&queue_key(path, ALLOW_ZERO_CAPACITY_SUM), false);

    let (leaf, queue_ordering_policy) = if has_children {
        let inherited = parent
            .and_then(|p| p.queue_ordering_policy)
            .unwrap_or(QueueOrderingPolicy::Utilization);
        (None, Some(read_queue_ordering_policy(r, path, inherited)))
    } else {
        (Some(read_leaf(r, settings, path)), None)
    };

    QueueConf {
        path: path.to_string(),
        name,
        parent: None,
        children: Vec::new(),
        capacity,
        maximum_capacity,
        configured_state,
        state,
        acl_submit_applications,
        acl_administer_queue,
        max_parallel_apps,
        maximum_allocation,
        priority,
        disable_preemption,
        intra_queue_disable_preemption,
        allow_zero_capacity_sum,
        leaf,
        queue_ordering_policy,
    }
}

fn read_capacity(
    r: &mut Reader,
    types: &ResourceTypes,
    path: &str,
    is_root: bool,
) -> CapacityValue {
    let key = queue_key(path, CAPACITY);
    let q = Some(path);
    let Some(v) = r.trimmed(&key) else {
        return CapacityValue::Percent(if is_root { 1.0 } else { 0.0 });
    };
    if is_root {
        // Root always has all of the cluster; a value other than 100 means the author expected
        // something YARN will not do, so say so rather than silently ignore it.
        match java::parse_float(&v) {
            Ok(100.0) => {}
            _ => r.error(q, &key, format!("Illegal capacity of {} for queue root: the root queue's capacity is always 100", echo(&v))),
        }
        return CapacityValue::Percent(1.0);
    }
    if looks_absolute(&v) {
        return match types.parse_absolute(&v) {
            Ok(abs) => CapacityValue::Absolute(abs),
            Err(msg) => {
                r.error(q, &key, msg);
                CapacityValue::Percent(0.0)
            }
        };
    }
    if let Some(w) = v.strip_suffix('w') {
        return match java::parse_float(w) {
            Ok(-1.0) => CapacityValue::Percent(0.0),
            Ok(w) if (0.0..=10000.0).contains(&w) => CapacityValue::Weight(w),
            Ok(w) => {
                r.error(
                    q,
                    &key,
                    format!(
                        "Illegal weight={} for queue={path} label=. Acceptable values: [0, 10000], -1 is same as not set",
                        java::float_to_string(w)
                    ),
                );
                CapacityValue::Percent(0.0)
            }
            Err(e) => {
                r.error(q, &key, e.to_string());
                CapacityValue::Percent(0.0)
            }
        };
    }
    match java::parse_float(&v) {
        Ok(p) if (0.0..=100.0).contains(&p) => CapacityValue::Percent(p / 100.0),
        Ok(p) => {
            r.error(
                q,
                &key,
                format!(
                    "Illegal capacity of {} for queue {path}",
                    java::float_to_string(p)
                ),
            );
            CapacityValue::Percent(0.0)
        }
        Err(e) => {
            r.error(q, &key, e.to_string());
            CapacityValue::Percent(0.0)
        }
    }
}

fn read_maximum_capacity(
    r: &mut Reader,
    types: &ResourceTypes,
    path: &str,
    is_root: bool,
) -> MaxCapacityValue {
    let key = queue_key(path, MAXIMUM_CAPACITY);
    let q = Some(path);
    let Some(v) = r.trimmed(&key) else {
        return MaxCapacityValue::Percent(1.0);
    };
    if looks_absolute(&v) && !is_root {
        return match types.parse_absolute(&v) {
            Ok(abs) => MaxCapacityValue::Absolute(abs),
            Err(msg) => {
                r.error(q, &key, msg);
                MaxCapacityValue::Percent(1.0)
            }
        };
    }
    match java::parse_float(&v) {
        // -1 is YARN's "unset" (DEFAULT_MAXIMUM_CAPACITY_VALUE).
        Ok(m) if m == -1.0 || m == 100.0 => MaxCapacityValue::Percent(1.0),
        Ok(_) if is_root => {
            r.error(q, &key, format!("Illegal maximum-capacity of {} for queue root: the root queue's maximum capacity is always 100", echo(&v)));
            MaxCapacityValue::Percent(1.0)
        }
        Ok(m) => {
            let fraction = m / 100.0;
            if (0.0..=1.0).contains(&fraction) {
                MaxCapacityValue::Percent(fraction)
            } else {
                // CSQueueUtils.checkMaxCapacity (the double space is YARN's).
                r.error(
                    q,
                    &key,
                    format!(
                        "Illegal value  of maximumCapacity {} used in call to setMaxCapacity for queue {path}",
                        java::float_to_string(fraction)
                    ),
                );
                MaxCapacityValue::Percent(1.0)
            }
        }
        Err(e) => {
            r.error(q, &key, e.to_string());
            MaxCapacityValue::Percent(1.0)
        }
    }
}

/// Spec §1.3: configured state, or the parent's (a DRAINING parent hands down STOPPED).
fn read_state(
    r: &mut Reader,
    path: &str,
    parent: Option<&QueueConf>,
) -> (Option<QueueState>, QueueState) {
    let key = queue_key(path, STATE);
    let inherited = match parent.map(|p| p.state) {
        None | Some(QueueState::Running) => QueueState::Running,
        Some(_) => QueueState::Stopped,
    };
    let configured = match r.trimmed(&key).map(|s| s.to_ascii_uppercase()) {
        None => None,
        Some(s) if s == "RUNNING" => Some(QueueState::Running),
        Some(s) if s == "STOPPED" => Some(QueueState::Stopped),
        Some(s) if s == "DRAINING" => {
            r.error(
                Some(path),
                &key,
                "Invalid queue state configuration. We can only use RUNNING or STOPPED.",
            );
            None
        }
        Some(s) => {
            r.error(
                Some(path),
                &key,
                format!(
                    "No enum constant org.apache.hadoop.yarn.api.records.QueueState.{}",
                    echo(&s)
                ),
            );
            None
        }
    };
    if let (Some(QueueState::Running), Some(p)) = (configured, parent) {
        if p.state != QueueState::Running {
            r.error(
                Some(path),
                &key,
                format!("The parent queue:{} cannot be STOPPED as the child queue:{path} is in RUNNING state.", p.path),
            );
        }
    }
    (configured, configured.unwrap_or(inherited))
}

/// Per-queue maximum allocation: `maximum-allocation` (a resource string), overridden per
/// component by `maximum-allocation-mb` / `-vcores`; unset components come from the parent
/// (root: the cluster setting). Above the cluster setting is an error.
fn read_maximum_allocation(
    r: &mut Reader,
    settings: &SchedulerSettings,
    path: &str,
    parent: Option<&QueueConf>,
) -> Resource {
    let q = Some(path);
    let cluster_max = settings.maximum_allocation;
    let mut max = parent.map(|p| p.maximum_allocation).unwrap_or(cluster_max);
    let mut configured = false;
    let res_key = queue_key(path, MAXIMUM_ALLOCATION);
    if let Some(v) = r.trimmed(&res_key) {
        match parse_resource_string(&settings.resource_types, &v) {
            Ok(given) => {
                for (i, value) in given {
                    max.set(i, value);
                }
                configured = true;
            }
            Err(msg) => r.error(q, &res_key, msg),
        }
    }
    if let Some(mb) = r
        .opt_int(q, &queue_key(path, MAXIMUM_ALLOCATION_MB))
        .filter(|v| *v >= 0)
    {
        max.set(MEMORY, mb as i64);
        configured = true;
    }
    if let Some(vc) = r
        .opt_int(q, &queue_key(path, MAXIMUM_ALLOCATION_VCORES))
        .filter(|v| *v >= 0)
    {
        max.set(VCORES, vc as i64);
        configured = true;
    }
    if configured && (0..settings.resource_types.count()).any(|i| max.get(i) > cluster_max.get(i)) {
        let key = if r.trimmed(&res_key).is_some() {
            res_key
        } else {
            queue_key(path, MAXIMUM_ALLOCATION_MB)
        };
        r.error(
            q,
            &key,
            format!(
                "Queue maximum allocation cannot be larger than the cluster setting for queue {path} max allocation per queue: {max} cluster setting: {cluster_max}"
            ),
        );
    }
    max
}

/// `ResourceUtils`-style resource strings (`memory-mb=8192,vcores=4`, optionally bracketed):
/// each entry names a configured type; unlike capacity strings, any subset may be given.
fn parse_resource_string(types: &ResourceTypes, text: &str) -> Result<Vec<(usize, i64)>, String> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    let mut out = Vec::new();
    for entry in inner.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let Some((name, value)) = entry.split_once('=') else {
            return Err(format!(
                "Invalid resource value \"{}\": expected name=value",
                echo(entry)
            ));
        };
        let name = name.trim();
        let index = match name {
            "memory" | "memory-mb" => Some(MEMORY),
            _ => types.index_of(name),
        };
        let Some(index) = index else {
            return Err(format!(
                "Unknown resource type {} in \"{}\"",
                echo(name),
                echo(text)
            ));
        };
        let value = value.trim();
        let (digits, scale) = match value.strip_suffix("Gi") {
            Some(d) => (d, 1024),
            None => (value.strip_suffix("Mi").unwrap_or(value), 1),
        };
        let n = java::parse_long(digits).map_err(|e| e.to_string())?;
        out.push((index, n.saturating_mul(scale)));
    }
    Ok(out)
}

fn read_queue_ordering_policy(
    r: &mut Reader,
    path: &str,
    inherited: QueueOrderingPolicy,
) -> QueueOrderingPolicy {
    let key = queue_key(path, ORDERING_POLICY);
    match r.trimmed(&key).as_deref() {
        None => inherited,
        Some(QUEUE_UTILIZATION_ORDERING_POLICY) => QueueOrderingPolicy::Utilization,
        Some(QUEUE_PRIORITY_UTILIZATION_ORDERING_POLICY) => {
            QueueOrderingPolicy::PriorityUtilization
        }
        Some(other) => {
            r.error(
                Some(path),
                &key,
                format!(
                    "Unable to construct queue ordering policy={} queue={path}",
                    echo(other)
                ),
            );
            inherited
        }
    }
}

fn read_leaf(r: &mut Reader, settings: &SchedulerSettings, path: &str) -> LeafConf {
    let q = Some(path);
    let ordering_key = queue_key(path, ORDERING_POLICY);
    let ordering_policy = match r.trimmed(&ordering_key) {
        None => AppOrderingPolicy::Fifo,
        Some(p) => match p.as_str() {
            FIFO_APP_ORDERING_POLICY | "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FifoOrderingPolicy" => {
                AppOrderingPolicy::Fifo
            }
            FAIR_APP_ORDERING_POLICY | "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FairOrderingPolicy" => {
                AppOrderingPolicy::Fair {
                    size_based_weight: r.boolean(&queue_key(path, FAIR_SIZE_BASED_WEIGHT), false),
                }
            }
            FIFO_WITH_PARTITIONS_APP_ORDERING_POLICY
            | "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FifoOrderingPolicyWithExclusivePartitions" => {
                AppOrderingPolicy::FifoWithPartitions
            }
            FIFO_FOR_PENDING_APPS_ORDERING_POLICY
            | "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FifoOrderingPolicyForPendingApps" => {
                AppOrderingPolicy::FifoForPendingApps
            }
            other => {
                // LeafQueue: Class.forName(policyType) fails; the message repeats the class name.
                let other = echo(other);
                r.error(q, &ordering_key, format!("Unable to construct ordering policy for: {other}, {other}"));
                AppOrderingPolicy::Fifo
            }
        },
    };

    let user_limit_percent = r.float(
        q,
        &queue_key(path, MINIMUM_USER_LIMIT_PERCENT),
        settings.minimum_user_limit_percent,
    );
    if !(0.0..=100.0).contains(&user_limit_percent) {
        r.error(
            q,
            &queue_key(path, MINIMUM_USER_LIMIT_PERCENT),
            format!(
                "Illegal minimum-user-limit-percent of {} for queue {path}",
                java::float_to_string(user_limit_percent)
            ),
        );
    }
    let user_weights = read_user_weights(r, path, user_limit_percent);
    LeafConf {
        maximum_applications: r.int(q, &queue_key(path, MAXIMUM_APPLICATIONS), -1),
        maximum_am_resource_percent: r.float(
            q,
            &queue_key(path, MAXIMUM_AM_RESOURCE_PERCENT),
            settings.maximum_am_resource_percent,
        ),
        user_limit_percent,
        user_limit_factor: r.float(
            q,
            &queue_key(path, USER_LIMIT_FACTOR),
            settings.user_limit_factor,
        ),
        user_weights,
        ordering_policy,
        default_application_priority: r.int(q, &queue_key(path, DEFAULT_APPLICATION_PRIORITY), 0),
    }
}

/// `<leaf>.user-settings.<user>.weight`, each in [0, 100 / min(100, UL%)] (`UserWeights`).
fn read_user_weights(r: &mut Reader, path: &str, user_limit_percent: f32) -> BTreeMap<String, f32> {
    let prefix = queue_key(path, USER_SETTINGS) + ".";
    let suffix = format!(".{USER_WEIGHT}");
    let keys: Vec<String> = r
        .conf
        .keys_with_prefix(&prefix)
        .filter(|k| k.ends_with(&suffix))
        .map(str::to_string)
        .collect();
    let mut weights = BTreeMap::new();
    let ul = user_limit_percent.min(100.0);
    let max_weight = if ul > 0.0 { 100.0 / ul } else { f32::INFINITY };
    for key in keys {
        let user = key[prefix.len()..key.len() - suffix.len()].to_string();
        let w = r.float(Some(path), &key, 1.0);
        if !(0.0..=max_weight).contains(&w) {
            r.error(
                Some(path),
                &key,
                format!(
                    "Weight ({}) for user \"{}\" must be between 0 and 100 / {} (= {}, the number of concurrent active users in {path})",
                    java::float_to_string(w),
                    echo(&user),
                    java::float_to_string(ul),
                    java::float_to_string(max_weight)
                ),
            );
            continue;
        }
        weights.insert(user, w);
    }
    weights
}

/// Keys under `yarn.scheduler.capacity.root.` whose queue is not in the hierarchy are kept
/// (like every unknown key) but reported: they are usually a typo or a forgotten `queues` entry.
fn warn_orphan_keys(r: &mut Reader, queues: &[QueueConf]) {
    // A key belongs to the deepest queue whose path prefixes it and leaves a suffix without
    // a dot (or a known dotted one). Walking the key's components down the tree finds the
    // candidates in time linear in the key, whatever the size of the hierarchy.
    let children: HashMap<(QueueIndex, &str), QueueIndex> = queues
        .iter()
        .enumerate()
        .filter_map(|(i, q)| q.parent.map(|p| ((p, q.name.as_str()), i)))
        .collect();
    let root_prefix = global_key("root.");
    let mut orphans = Vec::new();
    for key in r.conf.keys_with_prefix(&root_prefix) {
        let rest = &key[PREFIX.len()..];
        let last_dot = rest.rfind('.').unwrap_or(0);
        let mut queue: QueueIndex = 0;
        let mut at = ROOT.len(); // `rest[at]` is the dot after the current queue's path
        let owned = loop {
            let suffix = &rest[at + 1..];
            if last_dot <= at || is_known_dotted_suffix(suffix) {
                break true;
            }
            let component = &suffix[..suffix.find('.').unwrap_or(suffix.len())];
            match children.get(&(queue, component)) {
                Some(&child) => {
                    queue = child;
                    at += 1 + component.len();
                }
                None => break false,
            }
        };
        if !owned {
            orphans.push(key.to_string());
        }
    }
    for key in orphans {
        r.warnings.push(format!(
            "{} does not belong to any queue in the hierarchy; it is kept but unused",
            echo(&key)
        ));
    }
}

/// Per-queue keys whose suffix itself contains dots.
fn is_known_dotted_suffix(suffix: &str) -> bool {
    const DOTTED: &[&str] = &[
        "ordering-policy.",
        "user-settings.",
        "accessible-node-labels",
        "intra-queue-preemption.",
        "auto-create-child-queue.",
        "leaf-queue-template.",
        "auto-queue-creation-v2.",
        "default-node-label-expression",
        "queue-mappings",
        "reservation-",
        "disable_preemption",
    ];
    DOTTED.iter().any(|p| suffix.starts_with(p))
}
