//! `capsched simulate`: replay a trace (or the built-in workload) and write SLS-shaped outputs.

use capsched::sync::Arc;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use capsched::config::CapacitySchedulerConfiguration;
use capsched::sim::trace::{self, SimDefaults};
use capsched::sim::{default_workload, output, simulate, SimulationInput, SimulationOptions};

use super::print_errors;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum TraceType {
    Sls,
    Synth,
    Rumen,
}

#[derive(Args)]
pub struct SimulateArgs {
    /// capacity-scheduler.xml (default: the built-in seed configuration).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Job trace (default: the built-in workload named by --scenario).
    #[arg(long)]
    trace: Option<PathBuf>,
    /// The built-in workload used without --trace (and its configuration, without --config):
    /// `elasticity` (the seed queues borrowing and returning capacity), `preemption` (two 50%
    /// queues, App1 fills the cluster, App2 arrives later; compare --preemption on and off) or
    /// `short-tasks` (many 1–5 s tasks on a busy cluster; compare --opportunistic-percent 0
    /// and 100) or `priority-inversion` (a batch job fills the one queue, an urgent
    /// higher-priority job arrives; intra-queue preemption, compare --preemption on and off).
    #[arg(long, value_enum, default_value = "elasticity")]
    scenario: Scenario,
    #[arg(long = "trace-type", value_enum, default_value = "sls")]
    trace_type: TraceType,
    /// SLS nodes file (default: nodes named by the trace, or the built-in cluster).
    #[arg(long)]
    nodes: Option<PathBuf>,
    /// Where the outputs go.
    #[arg(long, default_value = "capsched-out")]
    output: PathBuf,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run the invariant checker after every event (slow on big traces).
    #[arg(long)]
    check_invariants: bool,
    /// Run the preemption monitor (ProportionalCapacityPreemptionPolicy) every
    /// monitoring_interval. Default: as the configuration says
    /// (yarn.resourcemanager.scheduler.monitor.enable).
    #[arg(long, value_enum)]
    preemption: Option<OnOff>,
    /// Ask for this percentage of each job's maps as OPPORTUNISTIC containers (as
    /// mapreduce.job.num-opportunistic-maps-percent). Needs
    /// yarn.resourcemanager.opportunistic-container-allocation.enabled in the configuration;
    /// without it the RM schedules them as guaranteed.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    opportunistic_percent: u32,
    /// AMs promote each opportunistic container to guaranteed once started (the distributed
    /// shell's -promote_opportunistic_after_start).
    #[arg(long)]
    promote_opportunistic_after_start: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Scenario {
    Elasticity,
    Preemption,
    ShortTasks,
    PriorityInversion,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn run(args: SimulateArgs) -> ExitCode {
    let conf = match &args.config {
        Some(path) => match CapacitySchedulerConfiguration::from_file(path) {
            Ok(c) => Arc::new(c),
            Err(e) => {
                print_errors(&path.display().to_string(), &e);
                return ExitCode::from(1);
            }
        },
        None if args.scenario == Scenario::Preemption && args.trace.is_none() => {
            Arc::new(default_workload::preemption_configuration())
        }
        None if args.scenario == Scenario::ShortTasks && args.trace.is_none() => {
            Arc::new(default_workload::short_tasks_configuration())
        }
        None if args.scenario == Scenario::PriorityInversion && args.trace.is_none() => {
            Arc::new(default_workload::priority_inversion_configuration())
        }
        None => Arc::new(CapacitySchedulerConfiguration::seed_default()),
    };
    let defaults = SimDefaults::default();
    let loaded = load_workload(&args, &defaults);
    let (nodes, jobs) = match loaded {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let opts = SimulationOptions {
        seed: args.seed,
        defaults,
        check_invariants: args.check_invariants,
        progress: true,
        preemption: args.preemption.map(|p| matches!(p, OnOff::On)),
        opportunistic_percent: args.opportunistic_percent,
        promote_opportunistic_after_start: args.promote_opportunistic_after_start,
        ..SimulationOptions::default()
    };
    let result = match simulate(SimulationInput { conf, nodes, jobs }, opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    match output::write_all(&args.output, &result) {
        Ok(summary) => {
            print!("{}", output::summary_text(&result, &summary));
            println!("outputs in {}", args.output.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: writing {}: {e}", args.output.display());
            ExitCode::from(1)
        }
    }
}

type Workload = (Vec<trace::TraceNode>, Vec<trace::TraceJob>);

fn load_workload(args: &SimulateArgs, defaults: &SimDefaults) -> Result<Workload, String> {
    let explicit_nodes = match &args.nodes {
        Some(path) => Some(
            trace::parse_nodes(&read(path)?, &path.display().to_string(), defaults)
                .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    let Some(path) = &args.trace else {
        let nodes = explicit_nodes.unwrap_or_else(|| default_workload::nodes(defaults));
        let jobs = match args.scenario {
            Scenario::Elasticity => default_workload::jobs(),
            Scenario::Preemption => default_workload::preemption_jobs(),
            Scenario::ShortTasks => default_workload::short_tasks_jobs(),
            Scenario::PriorityInversion => default_workload::priority_inversion_jobs(),
        };
        return Ok((nodes, jobs));
    };
    let text = read(path)?;
    let name = path.display().to_string();
    let e = |e: trace::TraceError| e.to_string();
    // Without a nodes file, the cluster comes from the trace as SLS derives it.
    match args.trace_type {
        TraceType::Sls => {
            let jobs = trace::parse_sls_jobs(&text, &name, defaults).map_err(e)?;
            let nodes = match explicit_nodes {
                Some(n) => n,
                None => trace::nodes_from_sls_trace(&text, &name, defaults).map_err(e)?,
            };
            Ok((nodes, jobs))
        }
        TraceType::Rumen => {
            let jobs = trace::parse_rumen(&text, &name, defaults).map_err(e)?;
            let nodes = explicit_nodes.unwrap_or_else(|| trace::nodes_from_jobs(&jobs, defaults));
            Ok((nodes, jobs))
        }
        TraceType::Synth => {
            let mut jobs = trace::parse_synth(&text, &name, args.seed, defaults).map_err(e)?;
            let nodes = match explicit_nodes {
                Some(n) => n,
                None => trace::parse_synth_nodes(&text, &name, defaults).map_err(e)?,
            };
            // SLS places synthetic tasks on random nodes of the cluster.
            trace::assign_synth_hosts(&mut jobs, &nodes, args.seed);
            Ok((nodes, jobs))
        }
    }
}
