//! The per-container timeline (`capsched simulate --container-log`): every container's
//! life, step by step — allocated, handed to its NodeManager, queued there, started, paused,
//! resumed, killed (and by which guaranteed container), finished — and when its AM learned
//! how it ended (a task whose container did not succeed is asked for again at that
//! heartbeat). This is the evidence for what opportunistic containers do on a workload
//! (docs/SEMANTICS.md, "Opportunistic containers on a busy cluster of short jobs"). Kept only
//! when asked for: a row per step of every container.

use std::collections::HashMap;

use super::nm::NmStep;
use crate::ids::ContainerId;
use crate::opportunistic::node_queue::KillCause;
use crate::records::ExecutionType;

/// What the log knows of a container from its launch on.
#[derive(Debug, Clone)]
struct Meta {
    yarn_id: String,
    job: usize,
    execution: ExecutionType,
    host: String,
    /// Launch order.
    seq: usize,
}

/// One step of one container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineRow {
    pub time_ms: i64,
    /// YARN's container id.
    pub container: String,
    /// The job's index in the trace and its id.
    pub job_index: usize,
    pub job: String,
    pub execution: &'static str,
    pub host: String,
    pub step: &'static str,
    /// The killing guaranteed container, the kill's diagnostics, or the exit status the AM
    /// was told.
    pub detail: String,
}

#[derive(Debug, Default)]
pub struct ContainerLog {
    meta: HashMap<ContainerId, Meta>,
    rows: Vec<(ContainerId, i64, &'static str, String)>,
}

fn execution_name(e: ExecutionType) -> &'static str {
    match e {
        ExecutionType::Guaranteed => "GUARANTEED",
        ExecutionType::Opportunistic => "OPPORTUNISTIC",
    }
}

impl ContainerLog {
    /// The AM launches a container it was given (its own, or a task's): when the RM
    /// allocated it, and now.
    #[allow(clippy::too_many_arguments)]
    pub fn launched(
        &mut self,
        now_ms: i64,
        container: ContainerId,
        yarn_id: String,
        job: usize,
        execution: ExecutionType,
        host: String,
        allocated_ms: i64,
    ) {
        let seq = self.meta.len();
        self.meta.insert(
            container,
            Meta {
                yarn_id,
                job,
                execution,
                host,
                seq,
            },
        );
        self.rows
            .push((container, allocated_ms, "allocated", String::new()));
        self.rows
            .push((container, now_ms, "launched", String::new()));
    }

    /// The AM heard the container ended, with this exit status; a task that did not
    /// succeed is asked for again now.
    pub fn am_told(&mut self, now_ms: i64, container: ContainerId, exit_status: i32) {
        if self.meta.contains_key(&container) {
            let step = if exit_status == 0 {
                "am_told_done"
            } else {
                "am_told_reasked"
            };
            self.rows.push((
                container,
                now_ms,
                step,
                format!("exit status {exit_status}"),
            ));
        }
    }

    /// Adds a NodeManager's steps.
    pub fn add_nm_steps(&mut self, steps: &[(i64, ContainerId, NmStep)]) {
        let yarn_id = |c: ContainerId| self.yarn_id(c);
        let mut rows = Vec::with_capacity(steps.len());
        for &(t, c, step) in steps {
            if !self.meta.contains_key(&c) {
                continue;
            }
            let (name, detail) = match step {
                NmStep::Queued => ("queued", String::new()),
                NmStep::Started => ("started", String::new()),
                NmStep::Resumed => ("resumed", String::new()),
                NmStep::Paused { for_container } => ("paused", yarn_id(for_container)),
                NmStep::Killed(cause) => match cause {
                    KillCause::MakeRoom { for_container } => {
                        ("killed_for_guaranteed", yarn_id(for_container))
                    }
                    KillCause::QueueFull => ("rejected_queue_full", String::new()),
                    KillCause::Dequeued => ("dequeued_by_queue_limit", String::new()),
                },
                NmStep::Finished => ("finished", String::new()),
                NmStep::KilledByRm => ("killed_by_rm", String::new()),
            };
            rows.push((c, t, name, detail));
        }
        self.rows.extend(rows);
    }

    /// The YARN id of a container launched here (`""` for one the log never saw).
    pub fn yarn_id(&self, c: ContainerId) -> String {
        self.meta
            .get(&c)
            .map(|m| m.yarn_id.clone())
            .unwrap_or_default()
    }

    /// Every row, by job, then container (in allocation order), then time; `job_ids` names
    /// the jobs by index.
    pub fn into_rows(self, job_ids: &[String]) -> Vec<TimelineRow> {
        let meta = self.meta;
        let mut keyed: Vec<((usize, usize, i64, usize), TimelineRow)> = self
            .rows
            .into_iter()
            .enumerate()
            .filter_map(|(seq, (c, t, step, detail))| {
                let m = meta.get(&c)?;
                let row = TimelineRow {
                    time_ms: t,
                    container: m.yarn_id.clone(),
                    job_index: m.job,
                    job: job_ids.get(m.job).cloned().unwrap_or_default(),
                    execution: execution_name(m.execution),
                    host: m.host.clone(),
                    step,
                    detail,
                };
                Some(((m.job, m.seq, t, seq), row))
            })
            .collect();
        keyed.sort_by_key(|(k, _)| *k);
        keyed.into_iter().map(|(_, r)| r).collect()
    }
}
