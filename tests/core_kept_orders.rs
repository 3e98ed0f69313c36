//! The allocation path keeps each parent's children sorted between assignments and each leaf's
//! users' usage ratios and active usage between user-limit computations (issue 18: YARN's
//! order of work, computed incrementally). These seeded random workloads on random
//! hierarchies (priorities, both queue ordering policies, zero-capacity queues, nodes joining
//! and leaving, refreshes) check after every step that the kept orders equal YARN's sort done
//! afresh and that the kept sums equal the users' usage (`check_invariants` does both), so the
//! kept state can never change a decision.

mod common;

use capsched::ids::{AppId, ContainerId, NodeId};
use common::cluster::{Cluster, GB};
use common::rng::SplitMix;

/// A random two-level hierarchy under root: parents with leaves, capacities summing to 100 at
/// each level (some 0), random priorities and ordering policies. Returns the properties and
/// the leaves' names.
fn random_hierarchy(rng: &mut SplitMix) -> (String, Vec<String>) {
    fn split(rng: &mut SplitMix, n: usize) -> Vec<u64> {
        // n shares of 100, one of them possibly 0.
        let mut cuts: Vec<u64> = (0..n - 1).map(|_| rng.below(101)).collect();
        cuts.sort();
        let mut shares = Vec::new();
        let mut last = 0;
        for c in cuts {
            shares.push(c - last);
            last = c;
        }
        shares.push(100 - last);
        shares
    }
    let policy = |rng: &mut SplitMix| {
        if rng.chance(50) {
            "priority-utilization"
        } else {
            "utilization"
        }
    };
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut leaves = Vec::new();
    let parents = 2 + rng.below(4) as usize;
    let names: Vec<String> = (0..parents).map(|i| format!("p{i}")).collect();
    pairs.push(("root.queues".into(), names.join(",")));
    pairs.push(("root.ordering-policy".into(), policy(rng).into()));
    for (p, share) in names.iter().zip(split(rng, parents)) {
        let path = format!("root.{p}");
        pairs.push((format!("{path}.capacity"), share.to_string()));
        pairs.push((format!("{path}.priority"), rng.below(3).to_string()));
        pairs.push((format!("{path}.ordering-policy"), policy(rng).into()));
        let n = 2 + rng.below(4) as usize;
        let kids: Vec<String> = (0..n).map(|i| format!("{p}l{i}")).collect();
        pairs.push((format!("{path}.queues"), kids.join(",")));
        // A 0 % parent's children are all 0 % (YARN's rule).
        let shares: Vec<u64> = if share == 0 {
            vec![0; n]
        } else {
            split(rng, n)
        };
        for (l, share) in kids.iter().zip(shares) {
            let lp = format!("{path}.{l}");
            pairs.push((format!("{lp}.capacity"), share.to_string()));
            pairs.push((format!("{lp}.priority"), rng.below(3).to_string()));
            pairs.push((format!("{lp}.user-limit-factor"), "100".into()));
            // Even a 0 % leaf takes applications (its own limit, as an operator may set).
            pairs.push((format!("{lp}.maximum-applications"), "1000".into()));
            pairs.push((format!("{lp}.maximum-am-resource-percent"), "1.0".into()));
            leaves.push(l.clone());
        }
    }
    let refs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    (common::props(&refs), leaves)
}

fn run(seed: u64) {
    let mut rng = SplitMix(seed);
    let (props, leaves) = random_hierarchy(&mut rng);
    let mut c = Cluster::new(&props);
    let mut nodes: Vec<NodeId> = Vec::new();
    for i in 0..4 {
        nodes.push(c.node(&format!("h{i}"), "/r", 16 * GB, 16));
    }
    let mut apps: Vec<AppId> = Vec::new();
    let mut running: Vec<(AppId, ContainerId)> = Vec::new();
    for step in 0..400 {
        match rng.below(10) {
            // A new app in a random leaf, by one of a few users, asking for a few containers.
            0 => {
                let leaf = &leaves[rng.below(leaves.len() as u64) as usize];
                let user = format!("u{}", rng.below(4));
                let app = c.unmanaged_app(leaf, &user);
                let mb = GB * (1 + rng.below(2) as i64);
                c.ask(app, 1, mb, 1 + rng.below(8) as i32);
                apps.push(app);
            }
            // More asks for a running app.
            1 if !apps.is_empty() => {
                let app = apps[rng.below(apps.len() as u64) as usize];
                c.ask(app, 1 + rng.below(2) as i32, GB, 1 + rng.below(4) as i32);
            }
            // An app releases one of its containers.
            2 | 3 if !running.is_empty() => {
                let (app, id) = running.swap_remove(rng.below(running.len() as u64) as usize);
                c.allocate(app, vec![], vec![id]);
            }
            // A node joins or leaves (the cluster resource, so every key, changes).
            4 if rng.chance(20) => {
                if nodes.len() > 2 && rng.chance(50) {
                    let n = nodes.swap_remove(rng.below(nodes.len() as u64) as usize);
                    c.cs.remove_node(c.now, n).unwrap();
                    c.check();
                    running.retain(|(_, id)| c.cs.container(*id).is_some());
                } else {
                    let gb = 8 + 8 * rng.below(3) as i64;
                    nodes.push(c.node(&format!("n{step}"), "/r", gb * GB, gb));
                }
            }
            // A node heartbeats; the AMs pull what they got.
            _ if !nodes.is_empty() => {
                let n = nodes[rng.below(nodes.len() as u64) as usize];
                c.heartbeat(n);
                for &app in &apps {
                    for a in c.allocate(app, vec![], vec![]).allocated {
                        running.push((app, a.id));
                    }
                }
            }
            _ => {}
        }
    }
    // Something was allocated, or the test proved nothing.
    assert!(
        c.cs.queue_tree().root().used.memory_mb() > 0 || !running.is_empty(),
        "seed {seed}: nothing was ever allocated"
    );
}

#[test]
fn kept_child_orders_and_user_sums_equal_yarns_computation_on_random_hierarchies() {
    for seed in 1..=40u64 {
        let result = std::panic::catch_unwind(|| run(seed));
        if let Err(e) = result {
            eprintln!("failing seed: {seed}");
            std::panic::resume_unwind(e);
        }
    }
}
