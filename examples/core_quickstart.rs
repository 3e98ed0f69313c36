//! Drives the deterministic core directly, as a host that brings its own threads would:
//! configuration, two NodeManagers, one application, its AM container, task asks, heartbeats
//! until the containers arrive, their completion, and the application's end.
//!
//! Run: `cargo run --example core_quickstart`

use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::records::{AllocateRequest, CompletedContainer, NodeStatus, ResourceRequest};
use capsched::resource::Resource;
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;
use capsched::scheduler::CapacityScheduler;

fn main() {
    // The seed configuration: root.default 80%/80%, root.low 20%/40%.
    let conf = Arc::new(CapacitySchedulerConfiguration::seed_default());
    let mut cs = CapacityScheduler::new(conf, 1_700_000_000_000, 42);
    let mut now = 0;

    let nodes: Vec<_> = ["node1", "node2"]
        .iter()
        .map(|h| {
            cs.add_node(now, &NodeSpec::new(h, "/rack1", Resource::new(8192, 8)))
                .expect("node")
        })
        .collect();

    let app = cs
        .submit_application(now, &AppSubmission::new("default", "alice"))
        .expect("accepted");
    cs.add_attempt(now, app, AttemptSubmission::with_am(Resource::new(1024, 1)))
        .expect("attempt");
    println!("submitted {}", cs.application(app).unwrap().application_id);

    // Heartbeats until the AM container is placed; the AM then asks for four task containers.
    let mut response_id = 0;
    let mut tasks = Vec::new();
    let mut asked = false;
    while tasks.len() < 4 {
        now += 1000;
        for &n in &nodes {
            cs.node_update(now, n, &NodeStatus::default())
                .expect("heartbeat");
        }
        let asks = if asked {
            vec![]
        } else {
            vec![ResourceRequest::any(1, Resource::new(2048, 1), 4)]
        };
        asked = true;
        let r = cs
            .allocate(
                now,
                app,
                &AllocateRequest {
                    response_id,
                    asks,
                    ..Default::default()
                },
            )
            .expect("allocate");
        response_id = r.response_id;
        for c in r.allocated {
            println!(
                "t={now:>5} ms  {} on {} ({}{})",
                c.yarn_id,
                c.host,
                c.resource,
                if c.is_am { ", AM" } else { "" }
            );
            if !c.is_am {
                tasks.push((c.id, c.node));
            }
        }
        println!("           headroom {}", r.headroom);
    }

    // The NodeManagers report the tasks finished; the AM sees them and unregisters.
    now += 1000;
    for &n in &nodes {
        let completed = tasks
            .iter()
            .filter(|(_, node)| *node == n)
            .map(|(id, _)| CompletedContainer {
                id: *id,
                exit_status: 0,
                diagnostics: String::new(),
            })
            .collect();
        cs.node_update(
            now,
            n,
            &NodeStatus {
                launched: vec![],
                completed,
                ..Default::default()
            },
        )
        .expect("heartbeat");
    }
    let r = cs
        .allocate(
            now,
            app,
            &AllocateRequest {
                response_id,
                ..Default::default()
            },
        )
        .expect("allocate");
    println!("t={now:>5} ms  {} containers completed", r.completed.len());
    cs.remove_attempt(now, app, false).expect("unregister");
    cs.remove_application(now, app).expect("finish");
    cs.check_invariants()
        .expect("every container accounted for");
    println!(
        "queue root.default now uses {}",
        cs.queue_tree()
            .queue(cs.queue_tree().find("default").unwrap())
            .used
    );
}
