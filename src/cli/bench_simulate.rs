//! `bench simulate`: the simulator at scale on a synthetic MapReduce workload, and the same
//! workload written as an SLS trace and nodes file (`--write-sls`) for `capsched simulate`.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::sim::trace::{SimDefaults, TraceJob, TraceNode, TraceTask};
use capsched::sim::{simulate, SimulationInput, SimulationOptions};
use capsched::sync::Arc;
use serde_json::json;

/// `nodes` SLS-default nodes (10 GB / 10 vcores) in racks of 40, and `jobs` jobs of
/// `containers / jobs` one-GB maps lasting 10–60 s, submitted over ten minutes to the built-in
/// queues, half of the tasks with a preferred host.
fn workload(nodes: usize, containers: usize, jobs: usize) -> (Vec<TraceNode>, Vec<TraceJob>) {
    let d = SimDefaults::default();
    let trace_nodes: Vec<TraceNode> = (0..nodes)
        .map(|i| TraceNode {
            host: format!("node{i}"),
            rack: format!("/rack{}", i / 40),
            memory_mb: d.node_memory_mb,
            vcores: d.node_vcores,
            labels: Vec::new(),
        })
        .collect();
    let per_job = containers / jobs.max(1);
    let trace_jobs: Vec<TraceJob> = (0..jobs)
        .map(|j| TraceJob {
            id: format!("job_{j}"),
            queue: if j % 5 == 0 { "low" } else { "default" }.to_string(),
            user: format!("user{}", j % 50),
            // Submissions spread over the first ten minutes.
            start_ms: (j as i64 * 600_000) / jobs as i64,
            end_ms: None,
            job_type: "mapreduce".to_string(),
            am_memory_mb: d.am_memory_mb,
            am_vcores: d.am_vcores,
            priority: 0,
            label_expression: None,
            tasks: (0..per_job)
                .map(|t| {
                    let node = (j * 131 + t * 17) % nodes;
                    let duration_ms = 10_000 + ((j * 7919 + t * 104_729) % 50_001) as i64;
                    TraceTask {
                        host: (t % 2 == 0).then(|| format!("/rack{}/node{node}", node / 40)),
                        ..TraceTask::map(duration_ms, d.container_memory_mb, d.container_vcores)
                    }
                })
                .collect(),
        })
        .collect();
    (trace_nodes, trace_jobs)
}

/// The workload as `capsched simulate` reads it: `dir/nodes.json` (one rack object per rack)
/// and `dir/trace.json` (SLS JSON jobs), giving the same nodes and jobs as the bench.
fn write_sls(dir: &Path, nodes: &[TraceNode], jobs: &[TraceJob]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(dir.join("nodes.json"))?);
    for rack in nodes.chunk_by(|a, b| a.rack == b.rack) {
        let entries: Vec<_> = rack.iter().map(|n| json!({"node": n.host})).collect();
        let name = rack[0].rack.trim_start_matches('/');
        writeln!(out, "{}", json!({"rack": name, "nodes": entries}))?;
    }
    out.flush()?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(dir.join("trace.json"))?);
    for j in jobs {
        let tasks: Vec<_> = j
            .tasks
            .iter()
            .map(|t| match &t.host {
                Some(h) => json!({"container.host": h, "container.duration.ms": t.duration_ms}),
                None => json!({"container.duration.ms": t.duration_ms}),
            })
            .collect();
        let job = json!({
            "am.type": j.job_type, "job.start.ms": j.start_ms, "job.queue.name": j.queue,
            "job.id": j.id, "job.user": j.user, "job.tasks": tasks,
        });
        writeln!(out, "{job}")?;
    }
    out.flush()
}

pub(super) fn run(
    nodes: usize,
    containers: usize,
    jobs: usize,
    write_sls_to: Option<&Path>,
    json: bool,
) -> std::process::ExitCode {
    let (trace_nodes, trace_jobs) = workload(nodes, containers, jobs);
    if let Some(dir) = write_sls_to {
        if let Err(e) = write_sls(dir, &trace_nodes, &trace_jobs) {
            eprintln!("bench simulate: writing {}: {e}", dir.display());
            return std::process::ExitCode::FAILURE;
        }
        println!(
            "wrote {} and {}: {nodes} nodes, {jobs} jobs, {} tasks",
            dir.join("nodes.json").display(),
            dir.join("trace.json").display(),
            trace_jobs.iter().map(|j| j.tasks.len()).sum::<usize>()
        );
        return std::process::ExitCode::SUCCESS;
    }
    let input = SimulationInput {
        conf: Arc::new(CapacitySchedulerConfiguration::seed_default()),
        nodes: trace_nodes,
        jobs: trace_jobs,
    };
    let started = Instant::now();
    let r = simulate(
        input,
        SimulationOptions {
            seed: 1,
            ..SimulationOptions::default()
        },
    )
    .expect("simulation");
    let wall = started.elapsed().as_secs_f64();
    let s = capsched::sim::output::summary(&r);
    if json {
        println!(
            "{}",
            json!({"bench": "simulate", "nodes": nodes, "jobs": jobs, "containers": r.containers_allocated,
                   "simulated_ms": s["makespan_ms"], "wall_seconds": wall, "node_updates": r.node_updates,
                   "jobs_completed": s["jobs_completed"]})
        );
    } else {
        println!(
            "bench simulate: {nodes} nodes, {jobs} jobs, {} containers allocated",
            r.containers_allocated
        );
        println!(
            "  simulated time      {:.0} s",
            s["makespan_ms"].as_f64().unwrap_or(0.0) / 1000.0
        );
        println!("  node updates        {}", r.node_updates);
        println!("  jobs completed      {}", s["jobs_completed"]);
        println!("  wall time           {:.2} s (one core)", wall);
    }
    std::process::ExitCode::SUCCESS
}
