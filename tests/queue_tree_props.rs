//! Property tests: random valid queue trees keep the invariants of spec §2 — children's
//! absolute capacities sum to their parent's, absolute maximum ≥ absolute capacity, effective
//! minimum ≤ effective maximum, per-user caps ≤ queue caps — and the XML and properties forms
//! of a tree agree. Failing cases are printed by proptest with the seed that rebuilds them.

mod common;
use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::resource::Resource;
use capsched::state::queue::QueueTree;
use proptest::prelude::*;

use common::rng::SplitMix as Gen;

/// Splits 100 into `n` positive integer percentages (so the sum is exact in every form).
fn split_100(g: &mut Gen, n: usize) -> Vec<u32> {
    let mut cuts: Vec<u32> = (0..n - 1).map(|_| 1 + g.below(99) as u32).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut parts = Vec::new();
    let mut prev = 0;
    for c in cuts {
        parts.push(c - prev);
        prev = c;
    }
    parts.push(100 - prev);
    parts
}

fn random_tree(seed: u64) -> Vec<(String, String)> {
    let mut g = Gen(seed);
    let mut pairs = Vec::new();
    let mut frontier = vec![("root".to_string(), 0usize)];
    let mut counter = 0;
    while let Some((path, depth)) = frontier.pop() {
        let make_parent = path == "root" || (depth < 3 && g.below(3) == 0);
        if !make_parent {
            let ulf = 1 + g.below(5);
            let ul = 10 * (1 + g.below(10));
            pairs.push((
                format!("yarn.scheduler.capacity.{path}.user-limit-factor"),
                ulf.to_string(),
            ));
            pairs.push((
                format!("yarn.scheduler.capacity.{path}.minimum-user-limit-percent"),
                ul.to_string(),
            ));
            continue;
        }
        let n = 1 + g.below(4) as usize;
        let caps = split_100(&mut g, n);
        let names: Vec<String> = caps
            .iter()
            .map(|_| {
                counter += 1;
                format!("q{counter}")
            })
            .collect();
        pairs.push((
            format!("yarn.scheduler.capacity.{path}.queues"),
            names.join(","),
        ));
        for (name, cap) in names.iter().zip(&caps) {
            let child = format!("{path}.{name}");
            let max = *cap as u64 + g.below(101 - *cap as u64);
            pairs.push((
                format!("yarn.scheduler.capacity.{child}.capacity"),
                cap.to_string(),
            ));
            pairs.push((
                format!("yarn.scheduler.capacity.{child}.maximum-capacity"),
                max.to_string(),
            ));
            frontier.push((child, depth + 1));
        }
    }
    pairs
}

fn as_properties(pairs: &[(String, String)]) -> String {
    pairs.iter().map(|(k, v)| format!("{k}={v}\n")).collect()
}

fn as_xml(pairs: &[(String, String)]) -> String {
    let body: String = pairs
        .iter()
        .map(|(k, v)| format!("<property><name>{k}</name><value>{v}</value></property>\n"))
        .collect();
    format!("<configuration>\n{body}</configuration>\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_valid_trees_keep_the_invariants(seed in any::<u64>(), nodes in 1i64..2000, node_gb in 1i64..256) {
        let pairs = random_tree(seed);
        let conf = CapacitySchedulerConfiguration::from_properties_str(&as_properties(&pairs))
            .map_err(|e| TestCaseError::fail(format!("seed {seed}: generated tree rejected: {e}")))?;
        let conf = Arc::new(conf);
        let mut tree = QueueTree::new(conf.clone());
        let cluster = Resource::new(nodes * node_gb * 1024, nodes * 8);
        tree.update_cluster_resource(cluster);

        for id in 0..tree.len() {
            let c = &tree.queue(id).capacities;
            prop_assert!(c.absolute_maximum_capacity + 1e-6 >= c.absolute_capacity,
                "seed {seed}: {} abs max {} < abs {}", tree.path(id), c.absolute_maximum_capacity, c.absolute_capacity);
            prop_assert!(c.effective_min.memory_mb() <= c.effective_max.memory_mb(), "seed {seed}: {}", tree.path(id));
            prop_assert!(c.effective_max.memory_mb() <= cluster.memory_mb());
            let children = tree.children(id);
            if !children.is_empty() {
                let sum: f32 = children.iter().map(|&k| tree.queue(k).capacities.absolute_capacity).sum();
                prop_assert!((sum - c.absolute_capacity).abs() <= 1e-5 * c.absolute_capacity.max(1.0),
                    "seed {seed}: children of {} sum to {sum}, parent {}", tree.path(id), c.absolute_capacity);
                let min_sum: i64 = children.iter().map(|&k| tree.queue(k).capacities.effective_min.memory_mb()).sum();
                // YARN derives each guarantee independently as trunc(cluster × f32 absolute
                // capacity); f32 rounding of the products may give children a few MB more than
                // their parent on a huge cluster, never more than float error allows.
                let slack = (cluster.memory_mb() as f64 * 4.0 * f32::EPSILON as f64).ceil() as i64 * children.len() as i64;
                prop_assert!(min_sum <= c.effective_min.memory_mb() + slack,
                    "seed {seed}: children of {} guaranteed {min_sum} > parent {} + {slack}", tree.path(id), c.effective_min.memory_mb());
            }
            if let Some(l) = tree.queue(id).leaf {
                prop_assert!(l.max_applications_per_user <= l.max_applications);
                prop_assert!(l.max_applications >= 0);
                let am = tree.am_resource_limit(id);
                let user_am = tree.user_am_resource_limit(id, 1, 1.0);
                prop_assert!(user_am.memory_mb() <= am.memory_mb());
                // The AM limit is a share of what the queue may use, rounded up to one container.
                let cap = tree.queue_current_limit(id).memory_mb().max(c.effective_min.memory_mb());
                prop_assert!(am.memory_mb() <= cap + 1024, "seed {seed}: {} am {am} cap {cap}", tree.path(id));
            }
        }

        let from_xml = CapacitySchedulerConfiguration::from_xml_str(&as_xml(&pairs)).unwrap();
        prop_assert_eq!(from_xml.queues(), conf.queues());
    }

    #[test]
    fn breaking_the_sum_is_always_caught(seed in any::<u64>(), extra in 1u32..50) {
        let mut pairs = random_tree(seed);
        // Inflate the first capacity: its siblings no longer sum to 100.
        let i = pairs.iter().position(|(k, _)| k.ends_with(".capacity")).unwrap();
        let v: u32 = pairs[i].1.parse().unwrap();
        pairs[i].1 = (v + extra).min(100).to_string();
        let changed = v + extra <= 100;
        let result = CapacitySchedulerConfiguration::from_properties_str(&as_properties(&pairs));
        if changed {
            let err = result.expect_err("an over-full level must be rejected");
            prop_assert!(err.iter().any(|e| e.message.starts_with("Illegal capacity of ")), "seed {seed}: {err}");
        }
    }
}
