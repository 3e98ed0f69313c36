//! One queue's keys, read as YARN 3.3.6 reads them (`CapacitySchedulerConfiguration`,
//! `AbstractCSQueue`, `LeafQueue`), with YARN's messages where YARN checks a value, and
//! capsched's (naming the key and the value) where YARN would accept a value that means
//! nothing. The table of every key is in docs/CONFIGURATION.md.

use std::collections::BTreeMap;

use super::acl::{AccessControlList, ALL_ACL, NOBODY_ACL};
use super::hadoop::java::{self, java_trim};
use super::keys::*;
use super::queue_conf::*;
use super::reader::{queue_key, Reader};
use super::settings::{
    is_share, is_user_limit_factor, is_user_limit_percent, untrimmed_hint, SchedulerSettings,
    AT_LEAST_0, SHARE, USER_LIMIT_FACTOR_RANGE, USER_LIMIT_PERCENT,
};
use crate::echo::echo;
use crate::resource::{looks_absolute, Resource, ResourceTypes, MEMORY, VCORES};

/// YARN's `UNDEFINED`: "not set" for the per-queue maximum allocation keys.
const UNDEFINED: i32 = -1;

pub(crate) fn read_queue(
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
            &r.get(q, &queue_key(path, suffix))
                .unwrap_or_else(|| default.to_string()),
        )
    };
    let acl_submit_applications = acl(r, ACL_SUBMIT_APPLICATIONS);
    let acl_administer_queue = acl(r, ACL_ADMINISTER_QUEUE);

    // getMaxParallelAppsForQueue: Integer.parseInt(get(key)), not trimmed. A negative value
    // would let no application ever run.
    let max_parallel_apps = r.opt_untrimmed_int_where(
        q,
        &queue_key(path, MAX_PARALLEL_APPS),
        |n| n >= 0,
        AT_LEAST_0,
    );
    let maximum_allocation = read_maximum_allocation(r, settings, path, parent);
    // Any priority orders queues; negative ones included.
    let priority = r.int_where(q, &queue_key(path, PRIORITY), 0, |_| true, "");
    let disable_preemption = r.opt_bool(&queue_key(path, DISABLE_PREEMPTION));
    let intra_queue_disable_preemption =
        r.opt_bool(&queue_key(path, INTRA_QUEUE_DISABLE_PREEMPTION));
    let allow_zero_capacity_sum = r.boolean(&queue_key(path, ALLOW_ZERO_CAPACITY_SUM), false);

    let lifetimes = read_lifetimes(r, path, parent);
    let labels = super::node_labels_read::read_queue_labels(
        r,
        &settings.resource_types,
        path,
        parent,
        !has_children,
    );
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
        managed: None,
        auto_created: false,
        flexible: None,
        dynamic: false,
        auto_removal: false,
        labels,
        lifetimes,
    }
}

/// `AbstractCSQueue.setupQueueConfigs`' lifetimes (`getInheritedMaxAppLifetime`,
/// `getInheritedDefaultAppLifetime`): a negative maximum inherits the parent's (0 overrides it
/// with none); an unset default takes the parent's when some ancestor set one and it is within
/// this queue's maximum, else this queue's maximum; a default above a positive maximum is
/// refused; a default ≤ 0 becomes the maximum.
fn read_lifetimes(r: &mut Reader, path: &str, parent: Option<&QueueConf>) -> Lifetimes {
    let q = Some(path);
    let max_key = queue_key(path, MAXIMUM_APPLICATION_LIFETIME);
    let default_key = queue_key(path, DEFAULT_APPLICATION_LIFETIME);
    let configured_max = r.long_where(q, &max_key, -1, |_| true, "");
    let configured_default = r.long_where(q, &default_key, -1, |_| true, "");
    let parent_lt = parent.map(|p| p.lifetimes);
    let maximum = match parent_lt {
        Some(p) if configured_max < 0 => p.maximum,
        _ => configured_max,
    };
    let default_specified =
        configured_default >= 0 || parent_lt.is_some_and(|p| p.default_specified);
    let default = match parent_lt {
        None => configured_default,
        Some(_) if configured_default >= 0 => configured_default,
        Some(p) if default_specified && p.default <= maximum => p.default,
        Some(_) => maximum,
    };
    if maximum > 0 && default > maximum {
        r.error(
            q,
            &default_key,
            format!("Default lifetime {default} can't exceed maximum lifetime {maximum}"),
        );
    }
    Lifetimes {
        maximum,
        default: if default > 0 { default } else { maximum },
        default_specified,
    }
}

/// `getNonLabeledQueueCapacity`: `get` (not trimmed) is matched against the absolute form;
/// otherwise `Float.parseFloat` (which trims), so a blank value is Java's `empty String`.
fn read_capacity(
    r: &mut Reader,
    types: &ResourceTypes,
    path: &str,
    is_root: bool,
) -> CapacityValue {
    let key = queue_key(path, CAPACITY);
    let q = Some(path);
    let Some(raw) = r.get(q, &key) else {
        return CapacityValue::Percent(if is_root { 1.0 } else { 0.0 });
    };
    if is_root {
        // Root always has all of the cluster; a value other than 100 means the author expected
        // something YARN will not do, so say so rather than silently ignore it.
        match java::parse_float(&raw) {
            Ok(100.0) => {}
            _ if java_trim(&raw).is_empty() => {}
            _ => r.error(q, &key, format!("Illegal capacity of {} for queue root: the root queue's capacity is always 100", echo(java_trim(&raw)))),
        }
        return CapacityValue::Percent(1.0);
    }
    if looks_absolute(&raw) {
        return match types.parse_absolute(&raw) {
            Ok(abs) => CapacityValue::Absolute(abs),
            Err(msg) => {
                r.error(q, &key, msg);
                CapacityValue::Percent(0.0)
            }
        };
    }
    if let Some(w) = java_trim(&raw).strip_suffix('w') {
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
    match java::parse_float(&raw) {
        Ok(p) if (0.0..=100.0).contains(&p) => CapacityValue::Percent(p / 100.0),
        // YARN's range check lets NaN through (every comparison with it is false); nothing
        // downstream can use it.
        Ok(p) if p.is_nan() => {
            r.error(q, &key, nan(&key));
            CapacityValue::Percent(0.0)
        }
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

/// capsched's refusal of a NaN capacity, which YARN's range checks let through.
fn nan(key: &str) -> String {
    format!("Illegal value NaN for {key}")
}

/// `getNonLabeledQueueMaximumCapacity` (as [`read_capacity`]; -1 means 100), then
/// `CSQueueUtils.checkMaxCapacity`.
fn read_maximum_capacity(
    r: &mut Reader,
    types: &ResourceTypes,
    path: &str,
    is_root: bool,
) -> MaxCapacityValue {
    let key = queue_key(path, MAXIMUM_CAPACITY);
    let q = Some(path);
    let Some(raw) = r.get(q, &key) else {
        return MaxCapacityValue::Percent(1.0);
    };
    if looks_absolute(&raw) && !is_root {
        return match types.parse_absolute(&raw) {
            // "Memory has to be configured always": YARN reads a vector without memory (or
            // with memory=0) as `Resources.none()`, a maximum not configured — the parent's.
            Ok(abs) if abs.is_none() => MaxCapacityValue::Percent(1.0),
            Ok(abs) => MaxCapacityValue::Absolute(abs),
            Err(msg) => {
                r.error(q, &key, msg);
                MaxCapacityValue::Percent(1.0)
            }
        };
    }
    match java::parse_float(&raw) {
        // -1 is YARN's "unset" (DEFAULT_MAXIMUM_CAPACITY_VALUE).
        Ok(m) if m == -1.0 || m == 100.0 => MaxCapacityValue::Percent(1.0),
        Ok(_) if is_root => {
            r.error(q, &key, format!("Illegal maximum-capacity of {} for queue root: the root queue's maximum capacity is always 100", echo(java_trim(&raw))));
            MaxCapacityValue::Percent(1.0)
        }
        Ok(m) if m.is_nan() => {
            r.error(q, &key, nan(&key));
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
/// `getConfiguredState`: `QueueState.valueOf(toUpperCase(get(key)))`, not trimmed.
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
    let configured = match r.get(Some(path), &key) {
        None => None,
        Some(raw) => match raw.to_uppercase().as_str() {
            "RUNNING" => Some(QueueState::Running),
            "STOPPED" => Some(QueueState::Stopped),
            "DRAINING" => {
                r.error(
                    Some(path),
                    &key,
                    "Invalid queue state configuration. We can only use RUNNING or STOPPED.",
                );
                None
            }
            upper => {
                let message = format!(
                    "No enum constant org.apache.hadoop.yarn.api.records.QueueState.{}{}",
                    echo(upper),
                    untrimmed_hint(&raw)
                );
                r.error(Some(path), &key, message);
                None
            }
        },
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
/// (root: the cluster setting). Above the cluster setting is YARN's error; a maximum no
/// container fits in (0 or negative, other than YARN's -1 for "unset") is capsched's.
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
    // getQueueMaximumAllocation: an empty value is "not set".
    let resource_string = r.get(q, &res_key).filter(|v| !v.is_empty());
    if let Some(v) = &resource_string {
        match parse_resource_string(&settings.resource_types, v) {
            Ok(given) => {
                for (i, value) in given {
                    max.set(i, value);
                }
                configured = true;
            }
            Err(msg) => r.error(q, &res_key, msg),
        }
    }
    let component = |r: &mut Reader, suffix: &str| {
        r.opt_int_where(
            q,
            &queue_key(path, suffix),
            |n| n == UNDEFINED || n >= 1,
            "it must be -1 (not set) or an integer from 1 up",
        )
        .filter(|&n| n != UNDEFINED)
    };
    if let Some(mb) = component(r, MAXIMUM_ALLOCATION_MB) {
        max.set(MEMORY, i64::from(mb));
        configured = true;
    }
    if let Some(vc) = component(r, MAXIMUM_ALLOCATION_VCORES) {
        max.set(VCORES, i64::from(vc));
        configured = true;
    }
    if configured && (0..settings.resource_types.count()).any(|i| max.get(i) > cluster_max.get(i)) {
        let key = if resource_string.is_some() {
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
/// Memory and vcores must be at least 1 (no container fits in less), other types at least 0.
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
        let least = if index == MEMORY || index == VCORES {
            1
        } else {
            0
        };
        if n < least {
            return Err(format!(
                "Illegal value {} for {name} in \"{}\": it must be at least {least}",
                echo(value),
                echo(text)
            ));
        }
        out.push((index, n.saturating_mul(scale)));
    }
    Ok(out)
}

/// `getQueueOrderingPolicy`: `get(key, parent's).trim()`, one of the two names (a class name
/// would have to be instantiable without arguments, which YARN's own policy is not).
fn read_queue_ordering_policy(
    r: &mut Reader,
    path: &str,
    inherited: QueueOrderingPolicy,
) -> QueueOrderingPolicy {
    let key = queue_key(path, ORDERING_POLICY);
    let Some(raw) = r.get(Some(path), &key) else {
        return inherited;
    };
    match java_trim(&raw) {
        QUEUE_UTILIZATION_ORDERING_POLICY => QueueOrderingPolicy::Utilization,
        QUEUE_PRIORITY_UTILIZATION_ORDERING_POLICY => QueueOrderingPolicy::PriorityUtilization,
        other => {
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

/// `getAppOrderingPolicy`: the short names are compared trimmed; anything else goes to
/// `Class.forName` as written (so a padded class name fails, as in YARN).
fn read_app_ordering_policy(r: &mut Reader, path: &str) -> AppOrderingPolicy {
    const POLICY_PACKAGE: &str = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.";
    let key = queue_key(path, ORDERING_POLICY);
    let Some(raw) = r.get(Some(path), &key) else {
        return AppOrderingPolicy::Fifo;
    };
    let class = match java_trim(&raw) {
        FIFO_APP_ORDERING_POLICY => "FifoOrderingPolicy",
        FAIR_APP_ORDERING_POLICY => "FairOrderingPolicy",
        FIFO_WITH_PARTITIONS_APP_ORDERING_POLICY => "FifoOrderingPolicyWithExclusivePartitions",
        FIFO_FOR_PENDING_APPS_ORDERING_POLICY => "FifoOrderingPolicyForPendingApps",
        _ => raw.strip_prefix(POLICY_PACKAGE).unwrap_or(""),
    };
    match class {
        "FifoOrderingPolicy" => AppOrderingPolicy::Fifo,
        "FairOrderingPolicy" => AppOrderingPolicy::Fair {
            // FairOrderingPolicy.configure: Boolean.parseBoolean of the value as written.
            size_based_weight: r
                .get(Some(path), &queue_key(path, FAIR_SIZE_BASED_WEIGHT))
                .is_some_and(|v| v.eq_ignore_ascii_case("true")),
        },
        "FifoOrderingPolicyWithExclusivePartitions" => AppOrderingPolicy::FifoWithPartitions,
        "FifoOrderingPolicyForPendingApps" => AppOrderingPolicy::FifoForPendingApps,
        _ => {
            // LeafQueue: Class.forName(policyType) fails; the message repeats the class name.
            let other = echo(&raw);
            r.error(
                Some(path),
                &key,
                format!("Unable to construct ordering policy for: {other}, {other}"),
            );
            AppOrderingPolicy::Fifo
        }
    }
}

fn read_leaf(r: &mut Reader, settings: &SchedulerSettings, path: &str) -> LeafConf {
    let q = Some(path);
    let ordering_policy = read_app_ordering_policy(r, path);
    // 0 would leave every user a limit of no application at all.
    let user_limit_percent = r.float_where(
        q,
        &queue_key(path, MINIMUM_USER_LIMIT_PERCENT),
        settings.minimum_user_limit_percent,
        is_user_limit_percent,
        USER_LIMIT_PERCENT,
    );
    let user_weights = read_user_weights(r, path, user_limit_percent);
    LeafConf {
        // LeafQueue: any negative value means "not set" (derived from the capacity).
        maximum_applications: r.int_where(
            q,
            &queue_key(path, MAXIMUM_APPLICATIONS),
            -1,
            |_| true,
            "",
        ),
        maximum_am_resource_percent: r.float_where(
            q,
            &queue_key(path, MAXIMUM_AM_RESOURCE_PERCENT),
            settings.maximum_am_resource_percent,
            is_share,
            SHARE,
        ),
        user_limit_percent,
        user_limit_factor: r.float_where(
            q,
            &queue_key(path, USER_LIMIT_FACTOR),
            settings.user_limit_factor,
            is_user_limit_factor,
            USER_LIMIT_FACTOR_RANGE,
        ),
        user_weights,
        ordering_policy,
        default_application_priority: r.int_where(
            q,
            &queue_key(path, DEFAULT_APPLICATION_PRIORITY),
            0,
            |_| true,
            "",
        ),
    }
}

/// `<leaf>.user-settings.<user>.weight`, each in [0, 100 / min(100, UL%)] (`UserWeights`).
/// YARN finds them with the pattern `user-settings\.\w+\.weight`: other user names are not
/// weights.
fn read_user_weights(r: &mut Reader, path: &str, user_limit_percent: f32) -> BTreeMap<String, f32> {
    let prefix = queue_key(path, USER_SETTINGS) + ".";
    let suffix = format!(".{USER_WEIGHT}");
    let is_word =
        |u: &str| !u.is_empty() && u.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let keys: Vec<String> = r
        .conf
        .keys_with_prefix(&prefix)
        .filter(|k| {
            k.len() > prefix.len() + suffix.len()
                && k.ends_with(&suffix)
                && is_word(&k[prefix.len()..k.len() - suffix.len()])
        })
        .map(str::to_string)
        .collect();
    let mut weights = BTreeMap::new();
    let ul = user_limit_percent.min(100.0);
    let max_weight = if ul > 0.0 { 100.0 / ul } else { f32::INFINITY };
    for key in keys {
        let user = key[prefix.len()..key.len() - suffix.len()].to_string();
        let w = r.float_where(
            Some(path),
            &key,
            f32::NAN,
            |w| !w.is_nan(),
            "it must be a number",
        );
        if w.is_nan() {
            continue; // refused above
        }
        if !(0.0..=max_weight).contains(&w) {
            // LeafQueue (3.3.6) prints the user limit as the int it reads; 3.4 reads a float,
            // which is printed as one when it has a fraction.
            let ul_text = if ul.fract() == 0.0 {
                format!("{}", ul as i32)
            } else {
                java::float_to_string(ul)
            };
            r.error(
                Some(path),
                &key,
                format!(
                    "Weight ({}) for user \"{user}\" must be between 0 and 100 / {ul_text} (= {}, the number of concurrent active users in {path})",
                    java::float_to_string(w),
                    java::float_to_string(max_weight)
                ),
            );
            continue;
        }
        weights.insert(user, w);
    }
    weights
}
