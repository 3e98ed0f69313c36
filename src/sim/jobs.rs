//! A job's life in the simulator: submission (refused with YARN's message, or accepted with
//! its AM's attempt), the AM's heartbeats (asks, allocations launched on their NodeManagers,
//! completions, promotions, surplus released), an attempt restarted when its AM container is
//! lost, and the job's end — finished, rejected or failed — which removes its application.

use std::time::Instant;

use super::am::AmState;
use super::state::{schedule_ends, Periodic, Sim};
use crate::ids::AppId;
use crate::records::{AllocateRequest, AllocateResponse, ExecutionType, UpdateContainerRequest};
use crate::scheduler::apps::{AppSubmission, AttemptSubmission};

pub(super) fn start_job(sim: &mut Sim, now: i64, j: usize) {
    sim.active(now);
    let (queue, user) = (sim.ams[j].job.queue.clone(), sim.ams[j].job.user.clone());
    let mut sub = AppSubmission::new(&queue, &user);
    sub.priority = Some(sim.ams[j].job.priority);
    // SLS's `job.label.expression` is the submission context's label: the AM and every task
    // ask without one take it; a label YARN refuses rejects the job with YARN's message.
    sub.node_label_expression = sim.ams[j].job.label_expression.clone();
    sim.ams[j].submit_ms = now;
    let app = match sim.cs.submit_application(now, &sub) {
        Ok(app) => app,
        Err(rejection) => return end_job(sim, now, j, AmState::Rejected(rejection.message)),
    };
    // RMAppManager validates the AM's request before the application reaches the scheduler:
    // one no container may be is refused at submission, with YARN's message.
    let am = sim.ams[j].am_resource();
    let leaf = sim.cs.application(app).map(|a| a.queue);
    sim.ams[j].leaf = leaf.map(|q| sim.cs.queue_tree().path(q).to_string());
    let attempt = leaf
        .map(|q| sim.cs.queue_max_allocation_settled(q))
        .ok_or_else(|| "the application vanished".to_string())
        .and_then(|max| {
            sim.cs
                .check_capability(&am, &max)
                .map_err(|e| e.to_string())
        })
        .and_then(|()| {
            sim.cs
                .add_attempt(now, app, AttemptSubmission::with_am(am))
                .map_err(|e| e.to_string())
        });
    sim.ams[j].app = Some(app);
    if let Err(message) = attempt {
        return end_job(sim, now, j, AmState::Rejected(message));
    }
    sim.ams[j].state = AmState::Submitted;
    sim.push_periodic(now.saturating_add(sim.periods.am), Periodic::AmHeartbeat(j));
}

/// The RM kills the job whose application's lifetime ended (RMAppLifetimeMonitor).
pub(super) fn kill_job(sim: &mut Sim, now: i64, app: AppId) {
    if let Some(j) = sim.ams.iter().position(|a| a.app == Some(app)) {
        let message = crate::records::LIFETIME_EXPIRED.to_string();
        end_job(sim, now, j, AmState::Killed(message));
    }
}

/// The job ends — finished, rejected, failed or killed: its application leaves the scheduler
/// (its containers are killed on their nodes) and it stops heartbeating.
fn end_job(sim: &mut Sim, now: i64, j: usize, state: AmState) {
    if let Some(app) = sim.ams[j].app {
        // Removing what is there: an attempt (if one runs), then the application.
        let _ = sim.cs.remove_attempt(now, app, false);
        let _ = sim.cs.remove_application(now, app);
    }
    let a = &mut sim.ams[j];
    if state == AmState::Finished {
        a.finish_ms = Some(now);
        sim.series.job_finished(now);
    }
    a.state = state;
    a.distributed = None;
    sim.unfinished -= 1;
    sim.active(now);
}

pub(super) fn am_heartbeat(sim: &mut Sim, now: i64, j: usize) {
    let Some(app) = sim.ams[j].app else { return };
    if !matches!(sim.ams[j].state, AmState::Submitted | AmState::Running) {
        return;
    }
    if sim.ams[j].state == AmState::Running && sim.ams[j].registered_ms.is_none() {
        sim.ams[j].registered_ms = Some(now);
        sim.active(now);
        // The MapReduce AM checks its tasks against the largest container the cluster gives
        // and kills the job when one cannot be had; the simulator fails it with the message
        // the ResourceManager's allocate would have returned.
        if let Err(message) = check_task_sizes(sim, j, app) {
            return end_job(sim, now, j, AmState::Failed(message));
        }
    }
    let asks = if sim.ams[j].state == AmState::Running {
        sim.ams[j].asks(now)
    } else {
        Vec::new()
    };
    if !asks.is_empty() {
        sim.active(now);
    }
    let update_requests = std::mem::take(&mut sim.ams[j].to_promote)
        .into_iter()
        .map(|(c, version)| UpdateContainerRequest::promote(c, version))
        .collect();
    let mut req = AllocateRequest {
        response_id: sim.ams[j].response_id,
        asks,
        update_requests,
        ..Default::default()
    };
    let t = Instant::now();
    // With distributed scheduling the AM talks to its node's AMRMProxy: opportunistic asks are
    // placed there and only the rest, with those placements, goes on to the RM.
    if sim.distributed && sim.ams[j].state == AmState::Running {
        if sim.ams[j].distributed.is_none() {
            match sim.cs.register_distributed(now, app) {
                Ok(ds) => sim.ams[j].distributed = Some(ds),
                Err(e) => return end_job(sim, now, j, AmState::Failed(e.to_string())),
            }
        }
        if let Some(ds) = sim.ams[j].distributed.as_mut() {
            req = ds.allocate(req);
        }
    }
    let response = match sim.cs.allocate(now, app, &req) {
        Ok(r) => r,
        Err(e) => return end_job(sim, now, j, AmState::Failed(e.to_string())),
    };
    if let Some(ds) = sim.ams[j].distributed.as_mut() {
        ds.update_nodes(response.opportunistic_nodes.clone());
    }
    sim.al_ns += t.elapsed().as_nanos();
    sim.al_calls += 1;
    sim.allocate_calls += 1;
    sim.ams[j].response_id = response.response_id;
    if take_completions(sim, now, j, &response) {
        restart_attempt(sim, now, j, app, false);
        return next_heartbeat(sim, now, j);
    }
    let rack_of_host = &sim.rack_of_host;
    let rack_of = |host: &str| rack_of_host.get(host).cloned().unwrap_or_default();
    let (launch, surplus) = sim.ams[j].take_allocations(now, &response, rack_of);
    if !response.allocated.is_empty() || !response.updated.is_empty() {
        sim.active(now);
    }
    sim.opportunistic_allocated += response
        .allocated
        .iter()
        .filter(|c| c.execution_type == ExecutionType::Opportunistic)
        .count() as u64;
    for (container, duration) in launch {
        let Some(c) = sim.cs.container(container) else {
            continue;
        };
        let (node, resource, execution) = (c.node, c.resource, c.execution_type);
        let is_am = Some(container) == sim.ams[j].am_container;
        if let Some(log) = sim.container_log.as_mut() {
            let host = sim
                .cs
                .node(node)
                .map(|n| n.host.to_string())
                .unwrap_or_default();
            log.launched(
                now,
                container,
                c.yarn_id.to_string(),
                j,
                execution,
                host,
                c.created_ms,
            );
        }
        // A launch the AM loses (injected): the container is never started and expires.
        if !is_am && sim.chaos.as_mut().is_some_and(|c| c.lose_launch()) {
            continue;
        }
        if let Some(&i) = sim.nm_by_node.get(&node) {
            let started = sim.nms[i].launch(now, container, resource, execution, duration);
            schedule_ends(sim, i, started);
        }
        if Some(container) == sim.ams[j].am_container {
            sim.ams[j].state = AmState::Running;
        }
    }
    // Promoted containers: the AM hands the new token to their NodeManager.
    for u in &response.updated {
        if let Some(&i) = sim.nm_by_node.get(&u.container.node) {
            sim.promotions += 1;
            let started =
                sim.nms[i].update_execution_type(now, u.container.id, u.container.execution_type);
            schedule_ends(sim, i, started);
        }
    }
    if !surplus.is_empty() {
        let release = AllocateRequest {
            response_id: sim.ams[j].response_id,
            releases: surplus,
            ..Default::default()
        };
        let r = match sim.cs.allocate(now, app, &release) {
            Ok(r) => r,
            Err(e) => return end_job(sim, now, j, AmState::Failed(e.to_string())),
        };
        sim.ams[j].response_id = r.response_id;
        if take_completions(sim, now, j, &r) {
            restart_attempt(sim, now, j, app, false);
            return next_heartbeat(sim, now, j);
        }
    }
    let a = &sim.ams[j];
    if a.state == AmState::Running && a.registered_ms.is_some() && a.all_done() {
        // Unregister: the attempt ends (its AM container is killed on its node), the app leaves.
        return end_job(sim, now, j, AmState::Finished);
    }
    sim.push_periodic(now.saturating_add(sim.periods.am), Periodic::AmHeartbeat(j));
}

/// Completed statuses to the AM, counting successful tasks. True when its own container ended.
fn take_completions(sim: &mut Sim, now: i64, j: usize, response: &AllocateResponse) -> bool {
    if response.completed.is_empty() {
        return false;
    }
    sim.active(now);
    if let Some(log) = sim.container_log.as_mut() {
        for s in &response.completed {
            log.am_told(now, s.id, s.exit_status);
        }
    }
    let before = sim.ams[j].containers_completed;
    let am_lost = sim.ams[j].take_completions(response);
    sim.tasks_completed += sim.ams[j].containers_completed - before;
    am_lost
}

/// Every guaranteed task size of job `j` against the largest container its queue can be given.
fn check_task_sizes(sim: &Sim, j: usize, app: AppId) -> Result<(), String> {
    let Some(queue) = sim.cs.application(app).map(|a| a.queue) else {
        return Ok(());
    };
    let max = sim.cs.queue_max_allocation_settled(queue);
    for g in &sim.ams[j].groups {
        // Opportunistic asks are normalised to the maximum instead of refused.
        if g.execution == ExecutionType::Guaranteed {
            sim.cs
                .check_capability(&g.resource, &max)
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// The AM container ended under a running attempt (preempted, lost, expired, crashed): the RM
/// ends the attempt and starts a new one, which adopts the running containers when `keep`
/// (`keep-containers-across-application-attempts`) and otherwise has them killed. A preempted
/// AM does not count against `yarn.resourcemanager.am.max-attempts`, so the restart is
/// unconditional. The AM's heartbeats go on as they were.
pub(super) fn restart_attempt(sim: &mut Sim, now: i64, j: usize, app: AppId, keep: bool) {
    let _ = sim.cs.remove_attempt(now, app, keep);
    let am = sim.ams[j].am_resource();
    let attempt = AttemptSubmission {
        keep_containers: keep,
        ..AttemptSubmission::with_am(am)
    };
    if let Err(e) = sim.cs.add_attempt(now, app, attempt) {
        return end_job(sim, now, j, AmState::Failed(e.to_string()));
    }
    sim.ams[j].restart();
    sim.am_restarts += 1;
    sim.active(now);
}

/// The AM's next heartbeat, while its job lives.
fn next_heartbeat(sim: &mut Sim, now: i64, j: usize) {
    if matches!(sim.ams[j].state, AmState::Submitted | AmState::Running) {
        sim.push_periodic(now.saturating_add(sim.periods.am), Periodic::AmHeartbeat(j));
    }
}
