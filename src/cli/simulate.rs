//! `capsched simulate`: replay a trace (or the built-in workload) and write SLS-shaped outputs.

use capsched::sync::Arc;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use capsched::config::CapacitySchedulerConfiguration;
use capsched::sim::metrics::Sample;
use capsched::sim::output::{self, OutputDir, TrackWriter};
use capsched::sim::trace::{self, SimDefaults};
use capsched::sim::{
    default_workload, simulate_with, LeafInfo, Progress, SimObserver, SimulationInput,
    SimulationOptions,
};

use super::common::print_errors;

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
    /// and 100) or `short-jobs` (a stream of small jobs of 0.8–3 s tasks on ten 8 GB nodes;
    /// compare --opportunistic-percent 0 and 50) or `priority-inversion` (a batch job fills
    /// the one queue, an urgent
    /// higher-priority job arrives; intra-queue preemption, compare --preemption on and off).
    #[arg(long, value_enum, default_value = "elasticity")]
    scenario: Scenario,
    #[arg(long = "trace-type", value_enum, default_value = "sls")]
    trace_type: TraceType,
    /// SLS nodes file (default: nodes named by the trace, or the built-in cluster).
    #[arg(long)]
    nodes: Option<PathBuf>,
    /// Where the outputs go: a new or empty directory, or this run's earlier outputs (another run's with --force).
    #[arg(long, default_value = "capsched-out")]
    output: PathBuf,
    /// Replace the outputs of an earlier run in the output directory.
    #[arg(long)]
    force: bool,
    /// Stop at this simulated time (ms) even if jobs remain (default: 30 days after the
    /// trace's last submission, request delay and task).
    /// From 1 ms to the simulator's limit of 10^15 ms (issue 36.12: -1 used to "simulate 0 ms").
    #[arg(long = "max-time-ms", value_parser = clap::value_parser!(i64).range(1..=capsched::sim::limits::MAX_TIME_MS))]
    max_time_ms: Option<i64>,
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
    /// Write the RM REST scheduler document (GET /ws/v1/cluster/scheduler) as the simulated
    /// RM would answer at each of these simulated times (ms, comma-separated) to
    /// <output>/scheduler-<MS>.json. At most 100 times, each up to 10^15 ms.
    #[arg(long = "rest-at", value_delimiter = ',', value_parser = clap::value_parser!(i64).range(0..=capsched::sim::limits::MAX_TIME_MS))]
    rest_at: Vec<i64>,
    /// Write every container's steps (allocated, launched, queued at its NodeManager,
    /// started, paused, resumed, killed and for which guaranteed container, finished, told to
    /// its AM) to <output>/containers.csv.
    #[arg(long)]
    container_log: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Scenario {
    Elasticity,
    Preemption,
    ShortTasks,
    ShortJobs,
    PriorityInversion,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

fn read(path: &Path) -> Result<String, String> {
    trace::read_input_file(path)
}

/// Shows progress on stderr: a bar over task containers on a terminal, otherwise a line every
/// ten seconds of wall time (so a long run in CI or under `nohup` says it is alive).
struct Reporter {
    bar: Option<indicatif::ProgressBar>,
    started: Instant,
    last_line: Instant,
    /// Between progress lines: 10 s, or `CAPSCHED_PROGRESS_SECS`.
    every: Duration,
}

impl Reporter {
    fn new() -> Self {
        let bar = io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:40}] {pos}/{len} tasks {msg}",
                )
                .expect("static template")
                .progress_chars("=> "),
            );
            bar
        });
        let every = std::env::var("CAPSCHED_PROGRESS_SECS")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map_or(Duration::from_secs(10), Duration::from_secs_f64);
        Reporter {
            bar,
            started: Instant::now(),
            last_line: Instant::now(),
            every,
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// What the run shows as it goes: every sample to the streamed outputs, progress to stderr,
/// the REST documents asked for to their files.
struct Watch<'a> {
    track: TrackWriter,
    reporter: Reporter,
    dir: &'a OutputDir,
}

impl SimObserver for Watch<'_> {
    fn rest_document(&mut self, time_ms: i64, json: &str) -> io::Result<()> {
        use std::io::Write;
        let mut f = self.dir.create(&output::rest_document_name(time_ms))?;
        f.write_all(json.as_bytes())?;
        f.write_all(b"\n")
    }

    fn start(&mut self, leaves: &[LeafInfo]) -> io::Result<()> {
        self.track.start(leaves)
    }

    fn sample(&mut self, sample: &Sample) -> io::Result<()> {
        self.track.sample(sample)
    }

    fn progress(&mut self, p: &Progress) {
        let r = &mut self.reporter;
        let msg = format!(
            "jobs {}/{}, {:.0} s simulated",
            p.jobs_done,
            p.jobs,
            p.sim_ms as f64 / 1000.0
        );
        match &r.bar {
            Some(bar) => {
                bar.set_length(p.tasks);
                bar.set_position(p.tasks_done);
                bar.set_message(msg);
            }
            None if r.last_line.elapsed() >= r.every => {
                r.last_line = Instant::now();
                eprintln!(
                    "progress: {}/{} tasks, {msg}, {:.0} s of wall time",
                    p.tasks_done,
                    p.tasks,
                    r.started.elapsed().as_secs_f64()
                );
            }
            None => {}
        }
    }
}

/// `--rest-at` times one run may write a document for (issue 36.12: each document is the
/// whole queue tree; 5,000 of them wrote 349 MB).
pub const MAX_REST_AT: usize = 100;

pub fn run(args: SimulateArgs) -> ExitCode {
    if args.rest_at.len() > MAX_REST_AT {
        eprintln!(
            "error: --rest-at: {} times is more than the {MAX_REST_AT} documents one run may write",
            args.rest_at.len()
        );
        return ExitCode::from(1);
    }
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
        None if matches!(args.scenario, Scenario::ShortTasks | Scenario::ShortJobs)
            && args.trace.is_none() =>
        {
            Arc::new(default_workload::short_tasks_configuration())
        }
        None if args.scenario == Scenario::PriorityInversion && args.trace.is_none() => {
            Arc::new(default_workload::priority_inversion_configuration())
        }
        None => Arc::new(CapacitySchedulerConfiguration::seed_default()),
    };
    let defaults = SimDefaults::default();
    let mut reader_warnings = Vec::new();
    let loaded = load_workload(&args, &defaults, &mut reader_warnings);
    let (nodes, jobs) = match loaded {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    // Labels the ResourceManager would refuse are bad input: said before anything is written.
    if let Err(e) = capsched::sim::check_node_labels(&conf, &nodes) {
        let file = args
            .nodes
            .as_ref()
            .map(|p| format!("{}: ", p.display()))
            .unwrap_or_default();
        eprintln!("error: {file}{e}");
        return ExitCode::from(1);
    }
    let opts = SimulationOptions {
        seed: args.seed,
        defaults,
        check_invariants: args.check_invariants,
        max_time_ms: args.max_time_ms,
        preemption: args.preemption.map(|p| matches!(p, OnOff::On)),
        opportunistic_percent: args.opportunistic_percent,
        promote_opportunistic_after_start: args.promote_opportunistic_after_start,
        rest_at: args.rest_at.clone(),
        container_log: args.container_log,
        ..SimulationOptions::default()
    };
    // The output directory is checked (and claimed) before the run, not after it.
    let dir = match OutputDir::prepare(&args.output, &run_id(&args), args.force) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let fail = |what: String| {
        eprintln!("error: {what}");
        ExitCode::from(1)
    };
    let track = match TrackWriter::create(&dir) {
        Ok(t) => t,
        Err(e) => return fail(format!("writing {}: {e}", dir.path().display())),
    };
    let mut watch = Watch {
        track,
        reporter: Reporter::new(),
        dir: &dir,
    };
    let run = simulate_with(SimulationInput { conf, nodes, jobs }, opts, &mut watch);
    watch.reporter.finish();
    let mut result = match run {
        Ok(r) => r,
        // Issue 36.16: what was streamed before the error stays a complete, valid file
        // (realtimetrack.json gets its closing `]`, the CSVs are flushed).
        Err(e) => {
            let closed = watch.track.finish();
            let code = fail(e.to_string());
            if let Err(w) = closed {
                eprintln!("error: writing {}: {w}", dir.path().display());
            }
            return code;
        }
    };
    reader_warnings.append(&mut result.warnings);
    result.warnings = reader_warnings;
    let written = watch
        .track
        .finish()
        .and_then(|()| output::write_all(&dir, &result));
    match written {
        Ok(summary) => {
            // Rejections, failures and warnings also go to stderr, where scripts look for them.
            let problems = output::problems_text(&result);
            for line in problems.lines().take(20) {
                eprintln!("{line}");
            }
            if problems.lines().count() > 20 {
                eprintln!("… see {}", dir.path().join("problems.txt").display());
            }
            print!("{}", output::summary_text(&result, &summary));
            println!("outputs in {}", args.output.display());
            ExitCode::SUCCESS
        }
        Err(e) => fail(format!("writing {}: {e}", dir.path().display())),
    }
}

/// What identifies a run in its output directory: the command line that asked for it, so the
/// same run may replace its own outputs but never mix with another's (without `--force`).
fn run_id(args: &SimulateArgs) -> String {
    format!(
        "simulate config={:?} trace={:?} trace-type={:?} nodes={:?} scenario={:?} seed={} \
         preemption={:?} opportunistic-percent={} promote={} max-time-ms={:?} rest-at={:?} container-log={}",
        args.config,
        args.trace,
        args.trace_type,
        args.nodes,
        args.scenario,
        args.seed,
        args.preemption,
        args.opportunistic_percent,
        args.promote_opportunistic_after_start,
        args.max_time_ms,
        args.rest_at,
        args.container_log
    )
}

type Workload = (Vec<trace::TraceNode>, Vec<trace::TraceJob>);

/// The workload, and what reading it skipped (one warning per line).
fn load_workload(
    args: &SimulateArgs,
    defaults: &SimDefaults,
    warnings: &mut Vec<String>,
) -> Result<Workload, String> {
    let explicit_nodes = match &args.nodes {
        Some(path) => {
            let file = trace::parse_nodes_file(&read(path)?, &path.display().to_string(), defaults)
                .map_err(|e| e.to_string())?;
            warnings.extend(file.warnings);
            Some(file.nodes)
        }
        None => None,
    };
    let Some(path) = &args.trace else {
        let nodes = explicit_nodes.unwrap_or_else(|| match args.scenario {
            Scenario::ShortJobs => default_workload::short_jobs_nodes(),
            _ => default_workload::nodes(defaults),
        });
        let jobs = match args.scenario {
            Scenario::Elasticity => default_workload::jobs(),
            Scenario::Preemption => default_workload::preemption_jobs(),
            Scenario::ShortTasks => default_workload::short_tasks_jobs(),
            Scenario::ShortJobs => default_workload::short_jobs_jobs(),
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
            let nodes = match explicit_nodes {
                Some(n) => n,
                None => {
                    trace::nodes_from_jobs(&jobs, defaults).map_err(|m| format!("{name}: {m}"))?
                }
            };
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
