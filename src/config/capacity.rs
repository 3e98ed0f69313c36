//! `CapacitySchedulerConfiguration`: the queue hierarchy and every allocation key of
//! capacity-scheduler.xml, parsed, typed and validated (spec §1).

use std::collections::HashMap;
use std::path::Path;

use super::auto_queues::auto_create::{
    is_auto_create_enabled, read_managed_parent, AutoCreatedLeaf,
};
use super::auto_queues::flexible::{
    is_v2_enabled, read_flexible_parent, with_dynamic_queues, DynamicQueue, AUTO_REMOVAL_ENABLED,
};
use super::error::{ConfigError, ConfigErrors};
use super::hadoop::Configuration;
use super::keys::*;
use super::limits::{MAX_QUEUES, MAX_QUEUE_DEPTH, MAX_TOTAL_PATH_BYTES};
use super::opportunistic::{read_opportunistic_settings, OpportunisticSettings};
use super::placement::mapping_rules::MappingRules;
use super::placement::{read_placement, PlacementSettings};
use super::queue_conf::*;
use super::queue_names::{child_names, split_queue_names};
use super::queue_read::read_queue;
use super::reader::{global_key, queue_key, Failed, Reader};
use super::settings::{
    read_preemption_settings, read_scheduler_settings, PreemptionSettings, SchedulerSettings,
};
use super::validate;
use crate::echo::echo;

/// A parsed and validated capacity-scheduler configuration. Immutable: a refresh builds a new one.
#[derive(Debug, Clone)]
pub struct CapacitySchedulerConfiguration {
    pub(super) conf: Configuration,
    pub(super) settings: SchedulerSettings,
    preemption: PreemptionSettings,
    opportunistic: OpportunisticSettings,
    pub(super) queues: Vec<QueueConf>,
    placement: PlacementSettings,
    /// The leaves the running scheduler auto-created, in the order it made them.
    pub(super) auto_created: Vec<AutoCreatedLeaf>,
    /// The queues the running scheduler created dynamically (flexible auto queue creation),
    /// in the order it made them.
    pub(super) dynamic: Vec<DynamicQueue>,
    warnings: Vec<String>,
}

impl CapacitySchedulerConfiguration {
    /// Parses and validates. Every independent problem is reported; the first is the one YARN
    /// would have stopped at.
    pub fn from_configuration(conf: Configuration) -> Result<Self, ConfigErrors> {
        Self::parse(conf, Vec::new(), Vec::new(), None)
    }

    /// This configuration with both kinds of queues a running scheduler creates (a refresh
    /// carries them over to the file it reads).
    pub fn with_created_queues(
        &self,
        leaves: Vec<AutoCreatedLeaf>,
        dynamic: Vec<DynamicQueue>,
    ) -> Result<Self, ConfigErrors> {
        Self::parse(
            self.conf.clone(),
            leaves,
            dynamic,
            self.placement.mapping_rules.as_ref(),
        )
    }

    /// The queues this configuration holds that the scheduler created dynamically.
    pub fn dynamic_queues(&self) -> &[DynamicQueue] {
        &self.dynamic
    }

    /// The leaves this configuration holds that the scheduler auto-created.
    pub fn auto_created_leaves(&self) -> &[AutoCreatedLeaf] {
        &self.auto_created
    }

    /// `rules_read`: the JSON mapping rules this configuration already read, when it is built
    /// again with the queues the scheduler created: YARN reads (and checks) them only when the
    /// scheduler starts or refreshes, so the file is not read again.
    fn parse(
        conf: Configuration,
        leaves: Vec<AutoCreatedLeaf>,
        dynamic: Vec<DynamicQueue>,
        rules_read: Option<&MappingRules>,
    ) -> Result<Self, ConfigErrors> {
        // Dynamic queues are read with the keys their templates give them; the file's own
        // keys stay the configuration (a later build applies the templates afresh).
        let effective = (!dynamic.is_empty()).then(|| with_dynamic_queues(&conf, &dynamic));
        let mut r = Reader::new(effective.as_ref().unwrap_or(&conf));
        let settings = read_scheduler_settings(&mut r);
        let preemption = read_preemption_settings(&mut r);
        let opportunistic = read_opportunistic_settings(&mut r);
        let mut auto_created = Vec::new();
        let mut kept_dynamic = Vec::new();
        let queues = read_queues(
            &mut r,
            &conf,
            &settings,
            (&leaves, &mut auto_created),
            (&dynamic, &mut kept_dynamic),
        );
        let mut placement = PlacementSettings::default();
        if let Some(queues) = &queues {
            validate::validate_tree(&mut r, &settings, queues);
            warn_orphan_keys(&mut r, queues);
            let (p, errors) = read_placement(&conf, queues, rules_read);
            placement = p;
            r.errors.extend(errors);
        }
        // The created queues kept, in the order they were made (the walk finds them in tree
        // order).
        let kept: std::collections::HashSet<String> = auto_created
            .iter()
            .map(AutoCreatedLeaf::path)
            .chain(kept_dynamic.iter().map(|d| d.path.clone()))
            .collect();
        let auto_created: Vec<AutoCreatedLeaf> = leaves
            .into_iter()
            .filter(|l| kept.contains(&l.path()))
            .collect();
        let kept_dynamic: Vec<DynamicQueue> = dynamic
            .into_iter()
            .filter(|d| kept.contains(&d.path))
            .collect();
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
            placement,
            auto_created,
            dynamic: kept_dynamic,
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

    /// This configuration with the preemption monitor forced on or off, whatever the file says
    /// (`capsched simulate --preemption`, the engine's and the C ABI's preemption option).
    /// On: `yarn.resourcemanager.scheduler.monitor.enable` true and
    /// `ProportionalCapacityPreemptionPolicy` among the monitor's policies — which is also what
    /// makes queues preemptable (YARN treats every queue as non-preemptable while the monitor
    /// is off). Off: the monitor disabled. Everything else stays as configured.
    pub fn with_preemption_monitor(&self, on: bool) -> CapacitySchedulerConfiguration {
        let mut c = self.clone();
        c.preemption.monitor_enabled = on;
        if on && !c.preemption.proportional_policy_enabled() {
            c.preemption
                .monitor_policies
                .push(crate::config::keys::DEFAULT_RM_SCHEDULER_MONITOR_POLICIES.to_string());
        }
        c
    }

    /// The same configuration under another resource calculator: what a refresh applies,
    /// since YARN reads `resource-calculator` once, when the scheduler starts
    /// (`CapacityScheduler.initScheduler`; `reinitialize` never sets it again).
    pub fn with_resource_calculator(
        &self,
        rc: crate::resource::ResourceCalculator,
    ) -> CapacitySchedulerConfiguration {
        let mut c = self.clone();
        c.settings.resource_calculator = rc;
        c
    }

    /// Opportunistic containers' keys (spec O1).
    pub fn opportunistic(&self) -> &OpportunisticSettings {
        &self.opportunistic
    }

    /// Queue placement: the rules and their mappings (docs/SEMANTICS.md, "Queue placement").
    pub fn placement(&self) -> &PlacementSettings {
        &self.placement
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
/// parses every queue; a managed parent's auto-created leaves (those of `leaves` under it)
/// follow its static children, and the ones kept are listed in `kept`. `None` when the
/// hierarchy itself is unusable (no children for root, or beyond one of the caps of
/// [`super::limits`]).
fn read_queues(
    r: &mut Reader,
    file: &Configuration,
    settings: &SchedulerSettings,
    (leaves, kept): (&[AutoCreatedLeaf], &mut Vec<AutoCreatedLeaf>),
    (dynamic, kept_dynamic): (&[DynamicQueue], &mut Vec<DynamicQueue>),
) -> Option<Vec<QueueConf>> {
    // Dynamic queues by parent path, in creation order.
    let mut dynamic_children: HashMap<&str, Vec<&DynamicQueue>> = HashMap::new();
    for d in dynamic {
        dynamic_children.entry(d.parent_path()).or_default().push(d);
    }
    let mut queues: Vec<QueueConf> = Vec::new();
    // (path, parent index, level below root); popped in pre-order because children are
    // pushed in reverse.
    let mut stack: Vec<(String, Option<QueueIndex>, usize)> = vec![(ROOT.to_string(), None, 0)];
    // Auto-created leaves wait here until their parent is read; each is then placed right
    // after its parent's static subtree (a sentinel entry with an empty path).
    let mut pending_auto: Vec<(QueueIndex, QueueConf, AutoCreatedLeaf)> = Vec::new();
    // Queues found so far (listed by a parent, read or not) and their paths' total length.
    let mut found = 1usize;
    let mut path_bytes = ROOT.len();
    while let Some((path, parent, level)) = stack.pop() {
        let children_key = queue_key(&path, QUEUES);
        let mut names = match r.expanded(Some(&path), &children_key) {
            Ok(value) => split_queue_names(value.as_deref()),
            // A `${var}` that cannot be expanded (recorded): no children, rather than a
            // queue named after the unexpanded text.
            Err(Failed) if parent.is_none() => return None,
            Err(Failed) => Vec::new(),
        };
        if parent.is_none() && names.is_empty() {
            r.error(
                Some(ROOT),
                &children_key,
                "Queue configuration missing child queue names for root",
            );
            return None;
        }
        // Dynamic children follow the static ones; one the file now lists is static again.
        // (A dynamic queue is kept when its parent, read before it, did not list it.)
        let this_dynamic = kept_dynamic.iter().find(|d| d.path == path).cloned();
        let this_dynamic = this_dynamic.as_ref();
        let mut dynamic_names: Vec<String> = Vec::new();
        for d in dynamic_children.get(path.as_str()).into_iter().flatten() {
            if !names.iter().any(|n| n == d.name()) {
                dynamic_names.push(d.name().to_string());
                kept_dynamic.push((*d).clone());
            }
        }
        let mut valid_children: Vec<String> = child_names(r, &path, &children_key, &names)
            .into_iter()
            .map(str::to_string)
            .collect();
        // Their names were checked when they were made.
        valid_children.extend(dynamic_names.iter().cloned());
        names.extend(dynamic_names);
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
        if path.is_empty() {
            // The sentinel: the auto-created leaves of the parent whose subtree just ended.
            let p = parent.expect("a sentinel names its parent");
            let (mine, rest): (Vec<_>, Vec<_>) =
                pending_auto.drain(..).partition(|(of, ..)| *of == p);
            pending_auto = rest;
            for (_, mut q, leaf) in mine {
                let index = queues.len();
                q.parent = Some(p);
                queues.push(q);
                queues[p].children.push(index);
                kept.push(leaf);
            }
            continue;
        }
        let index = queues.len();
        let parent_conf = parent.map(|p| &queues[p]);
        // parseQueue: a queue without children that auto-creates them is a managed parent; one
        // that may get dynamic children (v2, or a dynamic parent) is a parent too.
        let managed = parent.is_some() && is_auto_create_enabled(r, &path);
        let flexible = !managed
            && (this_dynamic.is_some_and(|d| d.is_parent)
                || (this_dynamic.is_none() && is_v2_enabled(r, &path)));
        let mut q = read_queue(
            r,
            settings,
            &path,
            parent_conf,
            !names.is_empty() || managed || flexible,
        );
        q.parent = parent;
        if flexible {
            q.flexible = Some(Box::new(read_flexible_parent(file, &path)));
        }
        if this_dynamic.is_some() {
            q.dynamic = true;
            q.auto_removal = r.boolean(&queue_key(&path, AUTO_REMOVAL_ENABLED), true);
        }
        if managed {
            let mp = read_managed_parent(r, settings, &q);
            let ours = leaves
                .iter()
                .filter(|l| l.parent == path && !valid_children.iter().any(|c| **c == l.name));
            let mut made = 0usize;
            for leaf in ours {
                made += 1;
                if let Some(limit) = hierarchy_limit(
                    found + made,
                    level + 1,
                    path_bytes + path.len() + 1 + leaf.name.len(),
                ) {
                    r.error(Some(&path), &queue_key(&path, QUEUES), limit);
                    return None;
                }
                pending_auto.push((
                    index,
                    mp.leaf_conf(&path, &leaf.name, leaf.active, &leaf.active_labels),
                    leaf.clone(),
                ));
            }
            found += made;
            q.managed = Some(Box::new(mp));
            // After the static children (pushed next, so popped first).
            stack.push((String::new(), Some(index), level + 1));
        }
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

/// The cap of [`super::limits`] a hierarchy of `queues` queues, children at `level` below
/// root and `path_bytes` of paths would exceed, as a message.
pub(super) fn hierarchy_limit(queues: usize, level: usize, path_bytes: usize) -> Option<String> {
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
                // A wildcard template key (`root.*.auto-queue-creation-v2.template.…`).
                None => break component == "*",
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
