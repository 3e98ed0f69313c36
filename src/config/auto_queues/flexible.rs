//! Flexible auto queue creation, YARN 3.4's "auto-queue-creation-v2" (docs/SEMANTICS.md,
//! "Auto-created queues"): a parent with `auto-queue-creation-v2.enabled` (and every dynamic
//! parent) may get dynamic children — a parent and a leaf at most below its first static
//! ancestor by default — each configured by its parent's templates
//! (`auto-queue-creation-v2.template.*`, `leaf-template.*`, `parent-template.*`, also keyed on
//! wildcard paths such as `root.*`) as if those keys had been written for it.
//!
//! Only YARN's legacy queue mode is supported (`legacy-queue-mode.enabled`, its default): a
//! dynamic queue's capacity is a weight (1 unless a template or its own key says otherwise),
//! and a parent whose children are not all weights gets no dynamic child.

use std::collections::{BTreeMap, HashSet};

use crate::config::hadoop::Configuration;
use crate::config::keys::{ACL_ADMINISTER_QUEUE, ACL_SUBMIT_APPLICATIONS, CAPACITY, PREFIX};
use crate::config::queue_conf::FlexibleParent;
use crate::config::reader::{global_key, queue_key, Reader};

pub const AUTO_QUEUE_CREATION_V2_ENABLED: &str = "auto-queue-creation-v2.enabled";
pub const AUTO_QUEUE_CREATION_V2_MAX_QUEUES: &str = "auto-queue-creation-v2.max-queues";
pub const DEFAULT_AUTO_QUEUE_CREATION_V2_MAX_QUEUES: i32 = 1000;
/// Per queue, with a global fallback (`yarn.scheduler.capacity.auto-queue-creation-v2.…`).
pub const AUTO_QUEUE_CREATION_V2_MAX_DEPTH: &str = "auto-queue-creation-v2.maximum-queue-depth";
pub const DEFAULT_AUTO_QUEUE_CREATION_V2_MAX_DEPTH: i32 = 2;
pub const TEMPLATE: &str = "auto-queue-creation-v2.template.";
pub const LEAF_TEMPLATE: &str = "auto-queue-creation-v2.leaf-template.";
pub const PARENT_TEMPLATE: &str = "auto-queue-creation-v2.parent-template.";
/// Read on a dynamic queue's own path (normally set through a template).
pub const AUTO_REMOVAL_ENABLED: &str = "auto-queue-creation-v2.queue-auto-removal.enable";
/// Global, seconds: how long a dynamic queue stays idle before it is deleted, and the
/// deletion policy's period.
pub const QUEUE_EXPIRATION_TIME: &str = "auto-queue-creation-v2.queue-expiration-time";
pub const DEFAULT_QUEUE_EXPIRATION_TIME_S: i64 = 300;
pub const LEGACY_QUEUE_MODE: &str = "legacy-queue-mode.enabled";
/// `parseAndSetDynamicTemplates`: what a dynamic leaf gets before any template.
const DYNAMIC_LEAF_USER_LIMIT_FACTOR: &str = "-1";
const DYNAMIC_LEAF_MAXIMUM_AM_RESOURCE_PERCENT: &str = "1.0";

/// A queue a running scheduler created dynamically, in creation order (parents first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynamicQueue {
    pub path: String,
    pub is_parent: bool,
}

impl DynamicQueue {
    pub fn parent_path(&self) -> &str {
        self.path.rsplit_once('.').map(|(p, _)| p).unwrap_or("")
    }

    pub fn name(&self) -> &str {
        self.path
            .rsplit_once('.')
            .map(|(_, n)| n)
            .unwrap_or(&self.path)
    }
}

/// Whether the static queue `path` has `auto-queue-creation-v2.enabled`.
pub(crate) fn is_v2_enabled(r: &mut Reader, path: &str) -> bool {
    r.boolean(&queue_key(path, AUTO_QUEUE_CREATION_V2_ENABLED), false)
}

/// `getMaximumAutoCreatedQueueDepth(path)`: the queue's own value, else the global one.
pub(crate) fn max_depth(conf: &Configuration, path: &str) -> i32 {
    let global = conf
        .get_int(
            &global_key(AUTO_QUEUE_CREATION_V2_MAX_DEPTH),
            DEFAULT_AUTO_QUEUE_CREATION_V2_MAX_DEPTH,
        )
        .unwrap_or(DEFAULT_AUTO_QUEUE_CREATION_V2_MAX_DEPTH);
    conf.get_int(&queue_key(path, AUTO_QUEUE_CREATION_V2_MAX_DEPTH), global)
        .unwrap_or(global)
}

/// `QueuePath.getWildcardedQueuePaths(maxDepth)`: the path itself, then with its last 1, 2…
/// components replaced by `*` (root never is), up to `max_depth` of them.
fn wildcarded_paths(path: &str, max_depth: i32) -> Vec<String> {
    let parts: Vec<&str> = path.split('.').collect();
    let mut out = vec![path.to_string()];
    if parts.len() < 2 {
        return out;
    }
    let levels = (parts.len() - 1).min(max_depth.max(0) as usize);
    for k in 1..=levels {
        let kept = &parts[..parts.len() - k];
        out.push(format!("{}{}", kept.join("."), ".*".repeat(k)));
    }
    out
}

/// The templates `path` (a parent that may create children) hands to them, from the
/// configuration as loaded (templates set at run time on a dynamic parent do not count, as
/// YARN reads them from its file snapshot).
pub(crate) fn read_flexible_parent(conf: &Configuration, path: &str) -> FlexibleParent {
    let depth = max_depth(conf, path);
    let mut p = FlexibleParent {
        max_queues: conf
            .get_int(
                &queue_key(path, AUTO_QUEUE_CREATION_V2_MAX_QUEUES),
                DEFAULT_AUTO_QUEUE_CREATION_V2_MAX_QUEUES,
            )
            .unwrap_or(DEFAULT_AUTO_QUEUE_CREATION_V2_MAX_QUEUES),
        max_depth: depth,
        ..Default::default()
    };
    // A one-component path that is not root has no template (QueuePath.isInvalid).
    if !path.contains('.') && path != crate::config::keys::ROOT {
        return p;
    }
    for candidate in wildcarded_paths(path, depth) {
        let prefix = format!("{PREFIX}{candidate}.");
        for key in conf.keys_with_prefix(&prefix) {
            let rest = &key[prefix.len()..];
            let Some(value) = conf.get_raw(key) else {
                continue;
            };
            for (kind, map) in [
                (TEMPLATE, &mut p.template),
                (LEAF_TEMPLATE, &mut p.leaf_template),
                (PARENT_TEMPLATE, &mut p.parent_template),
            ] {
                if let Some(prop) = rest.strip_prefix(kind) {
                    map.entry(prop.to_string())
                        .or_insert_with(|| value.to_string());
                }
            }
        }
    }
    p
}

/// The configuration a tree with `dynamic` queues is read from: the file's, plus each dynamic
/// queue's keys as YARN sets them when it makes the queue (`setTemplateEntriesForChild`,
/// `parseAndSetDynamicTemplates`): a leaf's user-limit factor −1 and AM share 1.0, its
/// parent's ACLs, then the type's template and the generic one for every key the file does not
/// set for that path, and a weight of 1 when nothing gives a capacity.
pub(crate) fn with_dynamic_queues(conf: &Configuration, dynamic: &[DynamicQueue]) -> Configuration {
    let mut out = conf.clone();
    let mut parents: BTreeMap<&str, FlexibleParent> = BTreeMap::new();
    for d in dynamic {
        let parent = d.parent_path();
        let templates = parents
            .entry(parent)
            .or_insert_with(|| read_flexible_parent(conf, parent));
        let own_prefix = format!("{PREFIX}{}.", d.path);
        let explicit: HashSet<&str> = conf
            .keys_with_prefix(&own_prefix)
            .map(|k| &k[own_prefix.len()..])
            .collect();
        let specific = if d.is_parent {
            &templates.parent_template
        } else {
            &templates.leaf_template
        };
        let key = |suffix: &str| queue_key(&d.path, suffix);
        if !d.is_parent {
            out.set(
                &key(crate::config::keys::USER_LIMIT_FACTOR),
                DYNAMIC_LEAF_USER_LIMIT_FACTOR,
            );
            out.set(
                &key(crate::config::keys::MAXIMUM_AM_RESOURCE_PERCENT),
                DYNAMIC_LEAF_MAXIMUM_AM_RESOURCE_PERCENT,
            );
        }
        // The ACLs come from the templates alone, over anything written for the path.
        for acl in [ACL_SUBMIT_APPLICATIONS, ACL_ADMINISTER_QUEUE] {
            let value = specific
                .get(acl)
                .or_else(|| templates.template.get(acl))
                .map(String::as_str)
                .unwrap_or(" ");
            out.set(&key(acl), value);
        }
        for (prop, value) in specific {
            if !explicit.contains(prop.as_str()) && !is_acl(prop) {
                out.set(&key(prop), value);
            }
        }
        for (prop, value) in &templates.template {
            if !explicit.contains(prop.as_str()) && !specific.contains_key(prop) && !is_acl(prop) {
                out.set(&key(prop), value);
            }
        }
        if out.get_raw(&key(CAPACITY)).is_none() {
            out.set(&key(CAPACITY), "1w");
        }
    }
    out
}

fn is_acl(prop: &str) -> bool {
    prop == ACL_SUBMIT_APPLICATIONS || prop == ACL_ADMINISTER_QUEUE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_replace_trailing_components_but_never_root() {
        assert_eq!(
            wildcarded_paths("root.a.b", 2),
            vec!["root.a.b", "root.a.*", "root.*.*"]
        );
        assert_eq!(
            wildcarded_paths("root.a.b", 1),
            vec!["root.a.b", "root.a.*"]
        );
        assert_eq!(wildcarded_paths("root", 2), vec!["root"]);
        assert_eq!(wildcarded_paths("root.a", 5), vec!["root.a", "root.*"]);
    }

    #[test]
    fn the_most_explicit_template_path_wins_within_each_kind() {
        let mut c = Configuration::new();
        c.set(
            "yarn.scheduler.capacity.root.a.b.auto-queue-creation-v2.template.capacity",
            "6w",
        );
        c.set(
            "yarn.scheduler.capacity.root.a.*.auto-queue-creation-v2.template.capacity",
            "4w",
        );
        c.set(
            "yarn.scheduler.capacity.root.*.*.auto-queue-creation-v2.template.capacity",
            "2w",
        );
        c.set(
            "yarn.scheduler.capacity.root.*.*.auto-queue-creation-v2.template.priority",
            "3",
        );
        c.set(
            "yarn.scheduler.capacity.root.*.*.auto-queue-creation-v2.leaf-template.capacity",
            "9w",
        );
        let p = read_flexible_parent(&c, "root.a.b");
        assert_eq!(p.template["capacity"], "6w");
        assert_eq!(p.template["priority"], "3");
        assert_eq!(p.leaf_template["capacity"], "9w");
        // A leaf takes the (wildcard) leaf-template over the explicit generic template.
        let d = [DynamicQueue {
            path: "root.a.b.c".into(),
            is_parent: false,
        }];
        let o = with_dynamic_queues(&c, &d);
        assert_eq!(
            o.get_raw("yarn.scheduler.capacity.root.a.b.c.capacity"),
            Some("9w")
        );
        assert_eq!(
            o.get_raw("yarn.scheduler.capacity.root.a.b.c.user-limit-factor"),
            Some("-1")
        );
        // A parent takes the generic one.
        let d = [DynamicQueue {
            path: "root.a.b.c".into(),
            is_parent: true,
        }];
        let o = with_dynamic_queues(&c, &d);
        assert_eq!(
            o.get_raw("yarn.scheduler.capacity.root.a.b.c.capacity"),
            Some("6w")
        );
    }
}
