//! The `opportunistic_vectors` of the file (`TestNodeQueueLoadMonitor`): node queue reports,
//! the periodic sort, and the queue limit, replayed through `NodeQueueLoadMonitor` step by
//! step as the Java test does.

use serde_json::Value;

use super::vectors::Vector;
use crate::opportunistic::load_monitor::{LoadComparator, NodeQueueLoadMonitor, NodeQueueStatus};
use crate::opportunistic::queue_limit::QueueLimitCalculator;
use crate::resource::Resource;

/// Runs one vector; returns its mismatches (empty when it passes).
pub fn run(v: &Vector) -> Result<Vec<String>, String> {
    let name = v.comparator.as_deref().unwrap_or("QUEUE_LENGTH");
    let comparator =
        LoadComparator::parse(name).ok_or_else(|| format!("unknown comparator {name:?}"))?;
    let capacity = v.node_queue_capacity_default.unwrap_or(0);
    let wait = v.wait_time_reported.unwrap_or(-1);
    // YARN's defaults for the limit until a step sets its own (`initThresholdCalculator`).
    let mut monitor: NodeQueueLoadMonitor<String> =
        NodeQueueLoadMonitor::new(comparator, QueueLimitCalculator::new(1.0, 5, 15));
    let cluster = Resource::new(1 << 20, 1 << 10);
    if v.steps.is_empty() {
        return Err("opportunistic vector without steps".to_string());
    }
    let mut failures = Vec::new();
    for (i, step) in v.steps.iter().enumerate() {
        let step = step
            .as_object()
            .ok_or_else(|| format!("step {i} is not an object"))?;
        if let Some(t) = step.get("init_threshold_calculator") {
            let k = t["k_sigma"].as_f64().ok_or("k_sigma")? as f32;
            let min = t["min"].as_i64().ok_or("min")? as i32;
            let max = t["max"].as_i64().ok_or("max")? as i32;
            monitor.init_threshold_calculator(QueueLimitCalculator::new(k, min, max));
        }
        let states = step.get("node_state").and_then(Value::as_object);
        for key in ["nodes_queue_length", "update"] {
            let Some(updates) = step.get(key).and_then(Value::as_object) else {
                continue;
            };
            for (node, len) in updates {
                let len = len
                    .as_i64()
                    .ok_or_else(|| format!("step {i}: {node}: length"))?;
                let state = states
                    .and_then(|s| s.get(node))
                    .and_then(Value::as_str)
                    .unwrap_or("RUNNING");
                let status = NodeQueueStatus {
                    wait_queue_length: len as i32,
                    estimated_wait_ms: wait,
                    queue_capacity: capacity,
                    capability: Resource::new(8192, 8),
                    allocated: Resource::ZERO,
                    decommissioning: state == "DECOMMISSIONING",
                };
                monitor.update_node(node, &status);
            }
        }
        // The sort vectors re-sort after every update; the limit vector says when.
        let sort = step
            .get("recompute")
            .and_then(Value::as_bool)
            .unwrap_or(step.contains_key("expect_sorted"));
        if sort {
            monitor.sort(cluster);
        }
        if let Some(want) = step.get("expect_sorted").and_then(Value::as_array) {
            let want: Vec<&str> = want.iter().filter_map(Value::as_str).collect();
            let got: Vec<&str> = monitor.sorted().iter().map(String::as_str).collect();
            if got != want {
                failures.push(format!("step {i}: expected sorted {want:?} got {got:?}"));
            }
        }
        if let Some(want) = step.get("expect").and_then(Value::as_object) {
            let limit = monitor.queuing_limit();
            for (field, got) in [
                ("maxQueueLength", limit.max_queue_length),
                ("maxQueueWaitTimeInMs", limit.max_queue_wait_ms),
            ] {
                if let Some(w) = want.get(field).and_then(Value::as_i64) {
                    if w != got as i64 {
                        failures.push(format!("step {i}: expected {field} {w} got {got}"));
                    }
                }
            }
        }
    }
    Ok(failures)
}
