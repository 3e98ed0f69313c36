//! A run's input made ready: the limits checked on a hand-built input, a job's trace entries
//! turned into the AM's task groups (with MapReduce's opportunistic share), and the
//! opportunistic configuration checked for a workload that asks for such containers.

use super::am::TaskGroup;
use super::error::SimError;
use super::limits;
use super::trace::{TraceJob, TraceNode};
use crate::config::CapacitySchedulerConfiguration;
use crate::opportunistic::load_monitor::LoadComparator;
use crate::opportunistic::node_queue::QueuePolicy;
use crate::records::ExecutionType;
use crate::resource::Resource;
use crate::scheduler::CapacityScheduler;
use crate::sync::Arc;

/// A hand-built input within the simulator's limits (the trace readers check while reading).
pub(super) fn check_input(nodes: &[TraceNode], jobs: &[TraceJob]) -> Result<(), SimError> {
    let input_err = |m: String| SimError::Input(m);
    if nodes.len() > limits::MAX_NODES {
        return Err(input_err(limits::too_many(
            "nodes",
            nodes.len(),
            limits::MAX_NODES,
        )));
    }
    let mut tally = limits::Tally::default();
    for job in jobs {
        let tasks = job
            .tasks
            .iter()
            .fold(0u64, |n, t| n.saturating_add(t.count.max(1)));
        tally
            .add(1, tasks)
            .map_err(|m| input_err(format!("job {}: {m}", job.id)))?;
        limits::check_time("the job's start", job.start_ms)
            .map_err(|m| input_err(format!("job {}: {m}", job.id)))?;
        for t in &job.tasks {
            limits::check_time("a task's duration", t.duration_ms)
                .and_then(|()| limits::check_time("a task's request delay", t.request_delay_ms))
                .map_err(|m| input_err(format!("job {}: {m}", job.id)))?;
        }
    }
    Ok(())
}

/// A job's task entries as the AM's groups: MapReduce makes the first ⌊maps × percent / 100⌋
/// maps opportunistic (a group straddling that boundary is split); with opportunistic
/// allocation off the RM schedules opportunistic asks as guaranteed, so the AM treats them so.
pub(super) fn task_groups(
    tasks: &[super::trace::TraceTask],
    percent: u64,
    opportunistic_enabled: bool,
    as_guaranteed: &mut u64,
) -> Vec<TaskGroup> {
    let maps: u64 = tasks
        .iter()
        .filter(|t| t.task_type != "reduce")
        .map(|t| t.count.max(1))
        .sum();
    let mut opportunistic_maps = maps * percent / 100;
    let mut groups = Vec::with_capacity(tasks.len());
    for t in tasks {
        let reduce = t.task_type == "reduce";
        let (rack_from_host, host) = match &t.host {
            Some(h) => {
                let (r, h) = split_rack_host(h);
                (r, Some(h))
            }
            None => (None, None),
        };
        let rack = t.rack.clone().or(rack_from_host).map(|r| rack_name(&r));
        let mut count = t.count.max(1);
        let mut group = |count: u64, by_percent: bool| {
            let mut execution: ExecutionType = t.execution_type.into();
            if by_percent {
                execution = ExecutionType::Opportunistic;
            }
            if execution == ExecutionType::Opportunistic && !opportunistic_enabled {
                *as_guaranteed += count;
                execution = ExecutionType::Guaranteed;
            }
            // MapReduce asks for its opportunistic maps at ANY only, without the split's hosts
            // and racks, and hands them containers without host matching
            // (RMContainerAllocator.ScheduledRequests.addMap); a trace's own OPPORTUNISTIC
            // tasks keep their locality, as SLS's AM simulators ask.
            let local = !by_percent;
            groups.push(TaskGroup {
                host: host.clone().filter(|_| local),
                rack: rack.clone().filter(|_| local),
                duration_ms: t.duration_ms.max(0),
                resource: Resource::new(t.memory_mb, t.vcores),
                reduce,
                execution,
                request_delay_ms: t.request_delay_ms.max(0),
                total: count,
                pending: count,
                done: 0,
            });
        };
        if !reduce && opportunistic_maps > 0 {
            let by_percent = count.min(opportunistic_maps);
            opportunistic_maps -= by_percent;
            count -= by_percent;
            group(by_percent, true);
        }
        if count > 0 {
            group(count, false);
        }
    }
    groups
}

/// With the QUEUE_LENGTH load comparator the RM places an opportunistic container only on a
/// node whose queue has room (`NodeQueueLoadMonitor.compareAndIncrement`), and a NodeManager
/// reports a queue capacity of 0 with `yarn.nodemanager.opportunistic-containers-max-queue-
/// length` 0 (its default) or the BY_RESOURCES policy: then no opportunistic container is ever
/// placed, in YARN as here, and every job asking for one would wait forever. Said up front.
pub(super) fn check_opportunistic_can_be_placed(
    opp: &crate::config::OpportunisticSettings,
) -> Result<(), SimError> {
    let capacity = match opp.nm_queue_policy {
        QueuePolicy::ByResources => 0,
        QueuePolicy::ByQueueLength => opp.nm_max_queue_length,
    };
    if opp.enabled
        && !opp.distributed_enabled
        && opp.load_comparator == LoadComparator::QueueLength
        && capacity <= 0
    {
        let why = if opp.nm_queue_policy == QueuePolicy::ByResources {
            "yarn.nodemanager.opportunistic-containers-queue-policy is BY_RESOURCES, which reports a \
             queue capacity of 0"
                .to_string()
        } else {
            format!(
                "yarn.nodemanager.opportunistic-containers-max-queue-length is {} (0 is YARN's default)",
                opp.nm_max_queue_length
            )
        };
        return Err(SimError::Input(format!(
            "the workload asks for OPPORTUNISTIC containers, but no NodeManager can take one: {why}, \
             and with the QUEUE_LENGTH load comparator YARN's ResourceManager places an opportunistic \
             container only on a node whose queue has room (NodeQueueLoadMonitor), so those jobs would \
             wait forever, as they would in YARN. Set yarn.nodemanager.opportunistic-containers-max-\
             queue-length to a positive length (e.g. 10), or run without opportunistic tasks \
             (--opportunistic-percent 0)"
        )));
    }
    Ok(())
}

/// The nodes' labels made the cluster's, as an administrator would before the NodeManagers
/// register (`yarn rmadmin -addToClusterNodeLabels`, then `-replaceLabelsOnNode`): each
/// distinct label added with its exclusivity, in the order the nodes name them, one at a time
/// (so a label given two exclusivities is refused with the label manager's words), then each
/// node mapped — by host — to its labels, where more than one is refused as YARN refuses it.
/// Nothing is asked of the scheduler when no node has a label; with labels,
/// `yarn.node-labels.enabled` must be on (else YARN's "Node-label-based scheduling is
/// disabled…"). Errors name the node. See docs/SIMULATOR.md, "Node labels".
pub(super) fn apply_node_labels(
    cs: &mut CapacityScheduler,
    nodes: &[TraceNode],
) -> Result<(), SimError> {
    let node_err = |n: &TraceNode, e: &dyn std::fmt::Display| {
        let names: Vec<&str> = n.labels.iter().map(|(l, _)| l.as_str()).collect();
        SimError::Input(format!(
            "node {} (labels {}): {e}",
            crate::echo::echo(&format!("{}/{}", rack_name(&n.rack), n.host)),
            crate::echo::echo(&names.join(","))
        ))
    };
    let mut added: std::collections::HashSet<(&str, bool)> = Default::default();
    for n in nodes {
        for (name, exclusive) in &n.labels {
            if added.insert((name.as_str(), *exclusive)) {
                cs.add_cluster_node_labels(&[(name.clone(), *exclusive)])
                    .map_err(|e| node_err(n, &e))?;
            }
        }
    }
    for n in nodes.iter().filter(|n| !n.labels.is_empty()) {
        let names = n.labels.iter().map(|(l, _)| l.clone()).collect();
        cs.replace_labels_on_nodes(0, &[(n.host.clone(), names)])
            .map_err(|e| node_err(n, &e))?;
    }
    Ok(())
}

/// Whether the nodes' labels can be applied under `conf` ([`apply_node_labels`] on a scheduler
/// of its own): a host checks a workload with this before it prepares anything for the run.
pub fn check_node_labels(
    conf: &Arc<CapacitySchedulerConfiguration>,
    nodes: &[TraceNode],
) -> Result<(), SimError> {
    if nodes.iter().all(|n| n.labels.is_empty()) {
        return Ok(());
    }
    let mut cs = CapacityScheduler::new(conf.clone(), 0, 0);
    apply_node_labels(&mut cs, nodes)
}

/// Splits SLS's `/rack/host` names; a bare name has no rack.
pub fn split_rack_host(name: &str) -> (Option<String>, String) {
    match name.rfind('/') {
        Some(i) if i > 0 => (Some(name[..i].to_string()), name[i + 1..].to_string()),
        Some(_) => (None, name[1..].to_string()),
        None => (None, name.to_string()),
    }
}

pub(super) fn rack_name(rack: &str) -> String {
    if rack.starts_with('/') {
        rack.to_string()
    } else {
        format!("/{rack}")
    }
}
