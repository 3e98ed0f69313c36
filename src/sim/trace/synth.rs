//! SYNTH workload descriptions (`--tracetype=SYNTH`): SLS's `SynthTraceJobProducer` /
//! `SynthJob` / `SynthUtils` generator, with its structure, distributions and parameters but
//! this crate's random numbers.
//!
//! **Random numbers.** SLS draws from `java.util.Random` (`JDKRandomGenerator`) and
//! commons-math distributions. Those exact sequences are *not* reproduced: every draw comes from
//! `Xoshiro256PlusPlus` instead, in the same places and order as SLS draws them, so a given
//! `seed` always gives the same jobs, and the jobs follow the same distributions as SLS's, but
//! not the same jobs as SLS with that seed. The generator is seeded with the `seed` argument;
//! the file's `rand_seed` (what SLS seeds with) is read into [`SynthHeader::rand_seed`] for
//! callers that want to pass it. What SLS does, step by step:
//!
//! 1. One generator (the *master*) is seeded. Every `{"val", "std"}` sample is a
//!    distribution with its own generator, seeded from the master's next 64 bits, in file order
//!    (per workload, per job class: `deadline_factor`, `duration`, `reservation`, then per task
//!    `count`, `time`, `max_memory`, `max_vcores`).
//! 2. For each of `num_jobs` jobs: a workload by `workload_weight`, a submission time (a
//!    `time_distribution` bucket by `weight`, then uniformly within `[time, next time)` seconds;
//!    the last bucket is a point), and a job class by `class_weight` — weighted picks as
//!    `SynthUtils.getWeighted`.
//! 3. Jobs are ordered by submission time (ties keep generation order), then each is built:
//!    duration (`duration`, seconds), the reservation coin and deadline factor (drawn to keep
//!    the sequence, not kept: reservations are not simulated), the master reseeded from its own
//!    next 64 bits, then per task class `count` containers of `max(max_memory, 1024)` MB and
//!    `max(max_vcores, 1)` vcores, each lasting `time` — used as milliseconds, as SLS uses it.
//!    Samples are rounded with Java's `Math.round`.
//!
//! Distributions (`SynthUtils`): `LOGNORM` (the default) with the given mean and standard
//! deviation (σ² = ln(1 + sd²/mean²), μ = ln(mean) − σ²/2), or `NORM`; a standard deviation
//! of 0 means mean/6; the mean must be > 0 (SLS has no distribution otherwise). `{"val"}` is a
//! constant, `{"discrete": [...], "weights"?: [...]}` a weighted pick (drawn from the master).
//! The old flat job-class format (`mtasks_avg`, `dur_avg`, …) is converted as
//! `SynthTraceJobProducer.validateJobDef` does: log-normal samples from each `*_avg`/`*_stddev`
//! pair, maps at priority 20 and reduces at 10, type `mapreduce`.
//!
//! Jobs: id `job_job_mock_<class>_<n:06>_<n:04>` (SLS's `JobID("job_mock_" + name, n)` with
//! name `<class>_<n:06>`, n counting jobs in submission order), the workload's `queue_name`,
//! the class's `user_name` (`"default"` when absent), the class's `type` as AM type, the
//! defaults' AM size, times relative to the first job's submission (as SLS's
//! `startAMFromSynthGenerator` did before trunk's `AMDefinitionSynth` made every job start at 0),
//! `end_ms = start + duration`. Tasks have no host: SLS gives each a random cluster node, see
//! [`assign_synth_hosts`].

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::Value;

use super::json::{self, At, Fields};
use super::nodes::{check_declared_nodes, generate_nodes};
use super::{SimDefaults, TraceError, TraceExecutionType, TraceJob, TraceNode, TraceTask};
use crate::sim::limits::{self, Tally};

/// `SynthJob.MIN_MEMORY` / `MIN_VCORES`.
const MIN_MEMORY_MB: i64 = 1024;
const MIN_VCORES: i64 = 1;
/// `SynthTraceJobProducer.DEFAULT_MAPPER_PRIORITY` / `DEFAULT_REDUCER_PRIORITY`.
const MAP_PRIORITY: i32 = 20;
const REDUCE_PRIORITY: i32 = 10;

/// The top-level fields of a SYNTH file (`SynthTraceJobProducer.Trace`); absent ones are 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynthHeader {
    pub description: Option<String>,
    /// The cluster SLS generates when there is no nodes file.
    pub num_nodes: i64,
    pub nodes_per_rack: i64,
    pub num_jobs: i64,
    /// The seed SLS uses (see the module documentation).
    pub rand_seed: i64,
}

/// A random number generator with `java.util.Random`'s operations.
#[derive(Clone)]
struct Gen {
    rng: Xoshiro256PlusPlus,
    /// `nextGaussian`'s second value.
    spare: Option<f64>,
}

impl Gen {
    fn new(seed: u64) -> Self {
        Gen {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            spare: None,
        }
    }

    fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// Uniform in [0, 1).
    fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [0, n) (`nextInt(n)`), n > 0.
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A standard normal value by the polar method, as `Random.nextGaussian`.
    fn gaussian(&mut self) -> f64 {
        if let Some(g) = self.spare.take() {
            return g;
        }
        loop {
            let v1 = 2.0 * self.next_f64() - 1.0;
            let v2 = 2.0 * self.next_f64() - 1.0;
            let s = v1 * v1 + v2 * v2;
            if s < 1.0 && s != 0.0 {
                let m = (-2.0 * s.ln() / s).sqrt();
                self.spare = Some(v2 * m);
                return v1 * m;
            }
        }
    }

    /// `rand.setSeed(rand.nextLong())`.
    fn reseed(&mut self) {
        let seed = self.next_u64();
        *self = Gen::new(seed);
    }
}

/// `SynthUtils.getWeighted` (weights validated: non-negative, positive sum).
fn weighted(weights: &[f64], g: &mut Gen) -> usize {
    let total: f64 = weights.iter().sum();
    let r = g.next_f64() * total;
    let mut cur = 0.0;
    for (i, w) in weights.iter().enumerate() {
        cur += w;
        if cur > r {
            return i;
        }
    }
    weights.len().saturating_sub(1)
}

/// Java's `Math.round(double)`.
fn java_round(x: f64) -> i64 {
    if x.is_nan() {
        0
    } else {
        (x + 0.5).floor() as i64
    }
}

enum Mode {
    Const(f64),
    LogNormal { mu: f64, sigma: f64, gen: Gen },
    Normal { mean: f64, sd: f64, gen: Gen },
    Discrete { values: Vec<f64>, weights: Vec<f64> },
}

/// `SynthTraceJobProducer.Sample`; `key` is its path in the file, for errors.
struct Sample {
    key: String,
    mode: Mode,
}

impl Sample {
    /// `Sample.init`: a distribution gets its own generator, seeded from the master.
    fn init(&mut self, master: &mut Gen) {
        if let Mode::LogNormal { gen, .. } | Mode::Normal { gen, .. } = &mut self.mode {
            *gen = Gen::new(master.next_u64());
        }
    }

    fn double(&mut self, master: &mut Gen) -> f64 {
        match &mut self.mode {
            Mode::Const(v) => *v,
            Mode::LogNormal { mu, sigma, gen } => (*mu + *sigma * gen.gaussian()).exp(),
            Mode::Normal { mean, sd, gen } => *mean + *sd * gen.gaussian(),
            Mode::Discrete { values, weights } => values[weighted(weights, master)],
        }
    }

    fn long(&mut self, master: &mut Gen) -> i64 {
        java_round(self.double(master))
    }

    /// `Sample.getInt` (`Math.toIntExact`).
    fn int(&mut self, master: &mut Gen, at: &At<'_>) -> Result<i32, TraceError> {
        let v = self.long(master);
        i32::try_from(v).map_err(|_| {
            at.err(
                &self.key,
                format!("sampled {v}, which does not fit in a 32-bit integer"),
            )
        })
    }
}

/// A distribution sample (`SynthUtils.getLogNormalDist` / `getNormalDist`).
fn distribution(
    mean: f64,
    std: f64,
    normal: bool,
    key: &str,
    at: &At<'_>,
) -> Result<Sample, TraceError> {
    if mean <= 0.0 {
        return Err(at.err(
            key,
            format!(
                "a distribution's mean must be > 0, found {mean} (SLS has no distribution for it)"
            ),
        ));
    }
    let sd = if std == 0.0 { mean / 6.0 } else { std };
    let placeholder = Gen::new(0);
    let mode = if normal {
        if sd <= 0.0 {
            return Err(at.err(
                key,
                format!("a normal distribution's std must be > 0, found {sd}"),
            ));
        }
        Mode::Normal {
            mean,
            sd,
            gen: placeholder,
        }
    } else {
        let sigma_sq = (sd * sd / (mean * mean)).ln_1p();
        let sigma = sigma_sq.sqrt();
        if !(sigma > 0.0 && sigma.is_finite()) {
            return Err(at.err(
                key,
                format!("no log-normal distribution with mean {mean} and std {sd}"),
            ));
        }
        Mode::LogNormal {
            mu: mean.ln() - 0.5 * sigma_sq,
            sigma,
            gen: placeholder,
        }
    };
    Ok(Sample {
        key: key.to_string(),
        mode,
    })
}

/// Weights for a weighted pick: finite, non-negative, not all zero.
fn check_weights(weights: &[f64], key: &str, at: &At<'_>) -> Result<(), TraceError> {
    if weights.is_empty() {
        return Err(at.err(key, "must not be empty"));
    }
    if let Some(w) = weights.iter().find(|w| **w < 0.0) {
        return Err(at.err(key, format!("weights must not be negative, found {w}")));
    }
    if weights.iter().sum::<f64>() <= 0.0 {
        return Err(at.err(key, "the weights are all 0: nothing can be picked"));
    }
    Ok(())
}

/// An absent key or `null` (Jackson leaves the field unset).
fn get<'a>(f: &Fields<'a>, key: &str) -> Option<&'a Value> {
    f.obj.get(key).filter(|v| !v.is_null())
}

/// A `{"val", "std", "dist", "discrete", "weights"}` sample (`Sample`'s JSON creator).
fn parse_sample(f: &Fields<'_>, key: &str) -> Result<Sample, TraceError> {
    let Some(obj) = f.object(key)? else {
        return Err(f.err(key, "missing"));
    };
    let path = f.path(key);
    let s = Fields::new(obj, f.at, format!("{path}."));
    let val = s.double("val")?;
    let std = s.double("std")?;
    let dist = s.string("dist")?;
    let discrete = get(&s, "discrete");
    let weights = get(&s, "weights");
    match (val, std) {
        (Some(v), None) => {
            if dist.is_some() || discrete.is_some() || weights.is_some() {
                return Err(f.err(key, "a constant (\"val\" without \"std\") takes no \"dist\", \"discrete\" or \"weights\""));
            }
            Ok(Sample {
                key: path,
                mode: Mode::Const(v),
            })
        }
        (Some(v), Some(sd)) => {
            if discrete.is_some() || weights.is_some() {
                return Err(f.err(
                    key,
                    "a distribution (\"val\" and \"std\") takes no \"discrete\" or \"weights\"",
                ));
            }
            let normal = match dist.as_deref() {
                None | Some("LOGNORM") => false,
                Some("NORM") => true,
                Some(other) => {
                    return Err(s.err(
                        "dist",
                        format!("unknown distribution {other:?} (LOGNORM or NORM)"),
                    ));
                }
            };
            distribution(v, sd, normal, &path, &f.at)
        }
        (None, _) => {
            let Some(values) = s.array("discrete")? else {
                return Err(f.err(key, "needs \"val\" or \"discrete\""));
            };
            let values = values
                .iter()
                .enumerate()
                .map(|(i, v)| json::java_double(v).map_err(|m| s.err(&format!("discrete[{i}]"), m)))
                .collect::<Result<Vec<f64>, _>>()?;
            let weights = match s.array("weights")? {
                None => vec![1.0; values.len()],
                Some(w) => w
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        json::java_double(v).map_err(|m| s.err(&format!("weights[{i}]"), m))
                    })
                    .collect::<Result<Vec<f64>, _>>()?,
            };
            if weights.len() != values.len() {
                return Err(s.err(
                    "weights",
                    format!(
                        "has {} entries for {} discrete values",
                        weights.len(),
                        values.len()
                    ),
                ));
            }
            check_weights(&weights, &s.path("discrete"), &f.at)?;
            Ok(Sample {
                key: path,
                mode: Mode::Discrete { values, weights },
            })
        }
    }
}

struct TaskClass {
    task_type: String,
    count: Sample,
    time: Sample,
    max_memory: Sample,
    max_vcores: Sample,
    priority: i32,
    execution_type: TraceExecutionType,
}

struct JobClass {
    name: String,
    user: String,
    am_type: String,
    deadline_factor: Sample,
    duration: Sample,
    reservation: Sample,
    tasks: Vec<TaskClass>,
}

struct Workload {
    queue: String,
    classes: Vec<JobClass>,
    class_weights: Vec<f64>,
    /// `time_distribution`: bucket start times (s) and weights.
    times: Vec<i64>,
    time_weights: Vec<f64>,
}

impl Workload {
    /// `Workload.generateSubmissionTime`, in seconds.
    fn submission_time(&self, g: &mut Gen) -> i64 {
        let i = weighted(&self.time_weights, g);
        let start = self.times[i];
        let end = self.times[(i + 1).min(self.times.len() - 1)];
        let range = end - start;
        start
            + if range > 0 {
                g.below(range as u64) as i64
            } else {
                0
            }
    }
}

struct Spec {
    header: SynthHeader,
    workloads: Vec<Workload>,
    workload_weights: Vec<f64>,
}

fn execution_type(f: &Fields<'_>, key: &str) -> Result<TraceExecutionType, TraceError> {
    match f.string(key)? {
        None => Ok(TraceExecutionType::Guaranteed),
        Some(name) => TraceExecutionType::parse(&name).ok_or_else(|| {
            f.err(
                key,
                format!("unknown execution type {name:?} (GUARANTEED or OPPORTUNISTIC)"),
            )
        }),
    }
}

/// A Jackson `int` field (0 when absent).
fn int_field(f: &Fields<'_>, key: &str) -> Result<i64, TraceError> {
    Ok(f.int(key)?.map(i64::from).unwrap_or(0))
}

fn parse_header(f: &Fields<'_>) -> Result<SynthHeader, TraceError> {
    Ok(SynthHeader {
        description: f.string("description")?,
        num_nodes: int_field(f, "num_nodes")?,
        nodes_per_rack: int_field(f, "nodes_per_rack")?,
        num_jobs: int_field(f, "num_jobs")?,
        rand_seed: f.long("rand_seed")?.unwrap_or(0),
    })
}

/// The old flat job-class format (`validateJobDef`): a log-normal sample from `<name>_avg` and
/// `<name>_stddev` (absent fields are 0, as Jackson leaves them).
fn old_sample(c: &Fields<'_>, avg: &str, std: &str, truncate: bool) -> Result<Sample, TraceError> {
    let mut mean = c.double(avg)?.unwrap_or(0.0);
    if truncate {
        // The `long` fields (`map_max_memory_avg`, …): Jackson truncates a fraction.
        mean = mean.trunc();
    }
    distribution(
        mean,
        c.double(std)?.unwrap_or(0.0),
        false,
        &c.path(avg),
        &c.at,
    )
}

fn parse_class(c: &Fields<'_>) -> Result<(JobClass, f64), TraceError> {
    let name = c
        .string("class_name")?
        .unwrap_or_else(|| "null".to_string());
    let user = c
        .string("user_name")?
        .unwrap_or_else(|| "default".to_string());
    let weight = c.double("class_weight")?.unwrap_or(0.0);
    let class = if let Some(list) = c.array("tasks")? {
        let Some(am_type) = c.string("type")? else {
            return Err(c.err("type", "missing: the job class's AM type"));
        };
        let deadline_factor = parse_sample(c, "deadline_factor")?;
        let duration = parse_sample(c, "duration")?;
        let reservation = parse_sample(c, "reservation")?;
        let mut tasks = Vec::new();
        for (i, v) in list.iter().enumerate() {
            let t = c.element("tasks", i, v)?;
            let Some(task_type) = t.string("type")? else {
                return Err(t.err("type", "missing: the task's container type"));
            };
            tasks.push(TaskClass {
                task_type,
                count: parse_sample(&t, "count")?,
                time: parse_sample(&t, "time")?,
                max_memory: parse_sample(&t, "max_memory")?,
                max_vcores: parse_sample(&t, "max_vcores")?,
                priority: t.int("priority")?.unwrap_or(0),
                execution_type: execution_type(&t, "execution_type")?,
            });
        }
        JobClass {
            name,
            user,
            am_type,
            deadline_factor,
            duration,
            reservation,
            tasks,
        }
    } else {
        let map = TaskClass {
            task_type: "map".to_string(),
            count: old_sample(c, "mtasks_avg", "mtasks_stddev", false)?,
            time: old_sample(c, "mtime_avg", "mtime_stddev", false)?,
            max_memory: old_sample(c, "map_max_memory_avg", "map_max_memory_stddev", true)?,
            max_vcores: old_sample(c, "map_max_vcores_avg", "map_max_vcores_stddev", true)?,
            priority: MAP_PRIORITY,
            execution_type: execution_type(c, "map_execution_type")?,
        };
        let reduce = TaskClass {
            task_type: "reduce".to_string(),
            count: old_sample(c, "rtasks_avg", "rtasks_stddev", false)?,
            time: old_sample(c, "rtime_avg", "rtime_stddev", false)?,
            max_memory: old_sample(c, "reduce_max_memory_avg", "reduce_max_memory_stddev", true)?,
            max_vcores: old_sample(c, "reduce_max_vcores_avg", "reduce_max_vcores_stddev", true)?,
            priority: REDUCE_PRIORITY,
            execution_type: execution_type(c, "reduce_execution_type")?,
        };
        JobClass {
            name,
            user,
            am_type: "mapreduce".to_string(),
            deadline_factor: old_sample(c, "deadline_factor_avg", "deadline_factor_stddev", false)?,
            duration: old_sample(c, "dur_avg", "dur_stddev", false)?,
            reservation: Sample {
                key: c.path("chance_of_reservation"),
                mode: Mode::Const(c.double("chance_of_reservation")?.unwrap_or(0.0)),
            },
            tasks: vec![map, reduce],
        }
    };
    Ok((class, weight))
}

fn parse_workload(w: &Fields<'_>) -> Result<(Workload, f64), TraceError> {
    let weight = w.double("workload_weight")?.unwrap_or(0.0);
    w.string("workload_name")?;
    let queue = w
        .string("queue_name")?
        .unwrap_or_else(|| "default".to_string());
    let Some(class_list) = w.array("job_classes")? else {
        return Err(w.err("job_classes", "missing"));
    };
    let mut classes = Vec::new();
    let mut class_weights = Vec::new();
    for (i, v) in class_list.iter().enumerate() {
        let (class, weight) = parse_class(&w.element("job_classes", i, v)?)?;
        classes.push(class);
        class_weights.push(weight);
    }
    check_weights(&class_weights, &w.path("job_classes"), &w.at)?;
    let Some(time_list) = w.array("time_distribution")? else {
        return Err(w.err("time_distribution", "missing"));
    };
    let mut times = Vec::new();
    let mut time_weights = Vec::new();
    for (i, v) in time_list.iter().enumerate() {
        let t = w.element("time_distribution", i, v)?;
        times.push(int_field(&t, "time")?);
        time_weights.push(t.double("weight")?.unwrap_or(0.0));
    }
    check_weights(&time_weights, &w.path("time_distribution"), &w.at)?;
    Ok((
        Workload {
            queue,
            classes,
            class_weights,
            times,
            time_weights,
        },
        weight,
    ))
}

fn parse_spec(text: &str, file: &str) -> Result<Spec, TraceError> {
    let value = json::read_one(text, file)?;
    let at = At { file, job: None };
    let f = Fields::new(json::expect_object(&value, &at)?, at, "");
    let header = parse_header(&f)?;
    if header.num_jobs < 0 {
        return Err(f.err(
            "num_jobs",
            format!("must not be negative, found {}", header.num_jobs),
        ));
    }
    let Some(list) = f.array("workloads")? else {
        return Err(f.err("workloads", "missing"));
    };
    let mut workloads = Vec::new();
    let mut workload_weights = Vec::new();
    for (i, v) in list.iter().enumerate() {
        let (w, weight) = parse_workload(&f.element("workloads", i, v)?)?;
        workloads.push(w);
        workload_weights.push(weight);
    }
    if header.num_jobs > 0 {
        check_weights(&workload_weights, "workloads", &at)?;
    }
    Ok(Spec {
        header,
        workloads,
        workload_weights,
    })
}

/// Reads the top-level fields of a SYNTH file.
pub fn parse_synth_header(text: &str, file: &str) -> Result<SynthHeader, TraceError> {
    let value = json::read_one(text, file)?;
    let at = At { file, job: None };
    parse_header(&Fields::new(json::expect_object(&value, &at)?, at, ""))
}

/// The cluster SLS builds for a SYNTH trace without a nodes file (`NMRunner.startNM`):
/// [`generate_nodes`]`(num_nodes, num_nodes / nodes_per_rack)`, `nodes_per_rack` at least 1.
pub fn synth_nodes(header: &SynthHeader, defaults: &SimDefaults) -> Vec<TraceNode> {
    let n = usize::try_from(header.num_nodes).unwrap_or(0);
    let per_rack = usize::try_from(header.nodes_per_rack).unwrap_or(0).max(1);
    generate_nodes(n, n / per_rack, defaults)
}

/// [`parse_synth_header`] then [`synth_nodes`].
pub fn parse_synth_nodes(
    text: &str,
    file: &str,
    defaults: &SimDefaults,
) -> Result<Vec<TraceNode>, TraceError> {
    let header = parse_synth_header(text, file)?;
    check_declared_nodes(header.num_nodes, 0)
        .map_err(|m| TraceError::new(file, None, Some("num_nodes"), m))?;
    Ok(synth_nodes(&header, defaults))
}

/// Generates the jobs of a SYNTH workload file (see the module documentation), seeded with
/// `seed`. Errors name the key (a path like `workloads[0].job_classes[1].tasks[0].time`); a
/// sampling error (a sampled task duration ≤ 0, which SLS rejects, or a count beyond 32 bits)
/// also names the job's index in the result.
pub fn parse_synth(
    text: &str,
    file: &str,
    seed: u64,
    defaults: &SimDefaults,
) -> Result<Vec<TraceJob>, TraceError> {
    let mut spec = parse_spec(text, file)?;
    let mut master = Gen::new(seed);
    for w in &mut spec.workloads {
        for c in &mut w.classes {
            c.deadline_factor.init(&mut master);
            c.duration.init(&mut master);
            c.reservation.init(&mut master);
            for t in &mut c.tasks {
                t.count.init(&mut master);
                t.time.init(&mut master);
                t.max_memory.init(&mut master);
                t.max_vcores.init(&mut master);
            }
        }
    }
    if spec.header.num_jobs > limits::MAX_JOBS as i64 {
        return Err(TraceError::new(
            file,
            None,
            Some("num_jobs"),
            limits::too_many("jobs", spec.header.num_jobs, limits::MAX_JOBS),
        ));
    }
    let mut tally = Tally::default();
    // createStory: (submission s, workload, class), then ordered by submission.
    let mut stories = Vec::new();
    for _ in 0..spec.header.num_jobs {
        let w = weighted(&spec.workload_weights, &mut master);
        let wl = &spec.workloads[w];
        let submit = wl.submission_time(&mut master);
        let c = weighted(&wl.class_weights, &mut master);
        stories.push((submit, w, c));
    }
    stories.sort_by_key(|s| s.0);
    let baseline_ms = stories.first().map_or(0, |s| s.0 * 1000);
    let mut jobs = Vec::with_capacity(stories.len());
    for (k, (submit, w, c)) in stories.into_iter().enumerate() {
        let at = At { file, job: Some(k) };
        let queue = spec.workloads[w].queue.clone();
        let class = &mut spec.workloads[w].classes[c];
        let duration_ms = i64::from(class.duration.int(&mut master, &at)?) * 1000;
        let coin = master.next_f64();
        let _has_deadline = coin <= class.reservation.double(&mut master);
        let _deadline_factor = class.deadline_factor.double(&mut master);
        master.reseed();
        let mut tasks = Vec::new();
        for t in &mut class.tasks {
            let count = t.count.int(&mut master, &at)?;
            // Counted before the tasks are built: a sampled count in the billions is refused
            // here, not after filling memory with its tasks.
            tally
                .add_tasks(count.max(0) as u64)
                .map_err(|m| at.err(&t.count.key, m))?;
            let memory_mb = t.max_memory.long(&mut master).max(MIN_MEMORY_MB);
            let vcores = t.max_vcores.long(&mut master).max(MIN_VCORES);
            // Sized once (the tally bounds it): a class of millions of tasks does not pass
            // through the doublings' copies, which held old and new vectors at once.
            tasks.reserve_exact(count.max(0) as usize);
            for _ in 0..count.max(0) {
                let duration = t.time.long(&mut master);
                if duration <= 0 {
                    return Err(at.err(
                        &t.time.key,
                        format!("sampled a task duration of {duration} ms; SLS rejects tasks whose duration is ≤ 0"),
                    ));
                }
                limits::check_time("the sampled task duration", duration)
                    .map_err(|m| at.err(&t.time.key, m))?;
                tasks.push(TraceTask {
                    count: 1,
                    host: None,
                    rack: None,
                    start_ms: None,
                    duration_ms: duration,
                    priority: t.priority,
                    task_type: t.task_type.clone(),
                    memory_mb,
                    vcores,
                    execution_type: t.execution_type,
                    request_delay_ms: 0,
                });
            }
        }
        let start_ms = submit * 1000 - baseline_ms;
        jobs.push(TraceJob {
            id: format!("job_job_mock_{}_{k:06}_{k:04}", class.name),
            queue,
            user: class.user.clone(),
            start_ms,
            end_ms: Some(start_ms + duration_ms),
            job_type: class.am_type.clone(),
            am_memory_mb: defaults.am_memory_mb,
            am_vcores: defaults.am_vcores,
            tasks,
            priority: 0,
            // SYNTH workloads carry no node label (SLS runs them without one).
            label_expression: None,
        });
    }
    Ok(jobs)
}

/// Gives every task a preferred host the way SLS's `AMDefinitionSynth.getTaskContainers` does:
/// for each job a fresh generator seeded with `seed` (SLS: `new Random(rand_seed)`, so every job
/// gets the same sequence of nodes) picks a uniformly random node of `nodes` per task. Does
/// nothing without nodes.
pub fn assign_synth_hosts(jobs: &mut [TraceJob], nodes: &[TraceNode], seed: u64) {
    if nodes.is_empty() {
        return;
    }
    for job in jobs {
        let mut g = Gen::new(seed);
        for task in &mut job.tasks {
            let node = &nodes[g.below(nodes.len() as u64) as usize];
            task.host = Some(format!("{}/{}", node.rack, node.host));
            task.rack = Some(node.rack.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    const SYN: &str = include_str!("../../../tests/data/sls/syn.json");
    const SYN_GENERIC: &str = include_str!("../../../tests/data/sls/syn_generic.json");
    const SYN_STREAM: &str = include_str!("../../../tests/data/sls/syn_stream.json");

    fn gen(text: &str, seed: u64) -> Vec<TraceJob> {
        parse_synth(text, "s.json", seed, &SimDefaults::default()).unwrap()
    }

    fn err(text: &str) -> TraceError {
        parse_synth(text, "s.json", 1, &SimDefaults::default()).unwrap_err()
    }

    /// syn.json and syn_generic.json describe the same workload (old and new format): 10 jobs
    /// in sls_queue_1 by foobar, submitted within [1, 60) s, ~60 s long; maps 1024 MB / 1 vcore
    /// at priority 20, reduces 2048 MB / 2 vcores at 10, about 5 of each (log-normal, sd 1).
    fn check_tiny_workload(jobs: &[TraceJob]) {
        assert_eq!(jobs.len(), 10);
        for (k, j) in jobs.iter().enumerate() {
            assert_eq!(j.id, format!("job_job_mock_class_1_{k:06}_{k:04}"));
            assert_eq!(
                (j.queue.as_str(), j.user.as_str(), j.job_type.as_str()),
                ("sls_queue_1", "foobar", "mapreduce")
            );
            assert_eq!((j.am_memory_mb, j.am_vcores, j.priority), (1024, 1, 0));
            assert!(
                j.start_ms % 1000 == 0 && (0..=58_000).contains(&j.start_ms),
                "{}",
                j.start_ms
            );
            let duration = j.end_ms.unwrap() - j.start_ms;
            assert!(
                duration % 1000 == 0 && (30_000..=120_000).contains(&duration),
                "{duration}"
            );
            let maps: Vec<&TraceTask> = j.tasks.iter().filter(|t| t.task_type == "map").collect();
            let reduces: Vec<&TraceTask> =
                j.tasks.iter().filter(|t| t.task_type == "reduce").collect();
            assert_eq!(maps.len() + reduces.len(), j.tasks.len());
            assert!((1..=15).contains(&maps.len()) && (1..=15).contains(&reduces.len()));
            // Maps come first, as SynthJob expands its task classes in order.
            assert!(j.tasks[..maps.len()].iter().all(|t| t.task_type == "map"));
            assert!(maps
                .iter()
                .all(|t| (t.memory_mb, t.vcores, t.priority) == (1024, 1, 20)));
            assert!(reduces
                .iter()
                .all(|t| (t.memory_mb, t.vcores, t.priority) == (2048, 2, 10)));
            assert!(j.tasks.iter().all(|t| t.duration_ms > 0
                && t.duration_ms < 100
                && t.host.is_none()
                && t.execution_type == TraceExecutionType::Guaranteed));
        }
        assert_eq!(jobs[0].start_ms, 0);
        assert!(jobs.windows(2).all(|w| w[0].start_ms <= w[1].start_ms));
    }

    #[test]
    fn syn_sample() {
        check_tiny_workload(&gen(SYN, 2));
        check_tiny_workload(&gen(SYN, 77));
    }

    #[test]
    fn syn_generic_sample() {
        check_tiny_workload(&gen(SYN_GENERIC, 2));
    }

    /// syn_stream.json: 5 `stream` jobs of exactly 2 `stream` containers (60 s, 4096 MB,
    /// 4 vcores); the time window [1, 2) s puts every submission at 1 s, so all start at 0.
    #[test]
    fn syn_stream_sample() {
        let jobs = gen(SYN_STREAM, 2);
        assert_eq!(jobs.len(), 5);
        for j in &jobs {
            assert_eq!(
                (j.job_type.as_str(), j.queue.as_str(), j.start_ms),
                ("stream", "sls_queue_1", 0)
            );
            assert_eq!(j.tasks.len(), 2);
            for t in &j.tasks {
                assert_eq!(
                    (
                        t.task_type.as_str(),
                        t.duration_ms,
                        t.memory_mb,
                        t.vcores,
                        t.priority
                    ),
                    ("stream", 60_000, 4096, 4, 20)
                );
            }
        }
    }

    #[test]
    fn same_seed_same_jobs_other_seed_other_jobs() {
        for text in [SYN, SYN_GENERIC, SYN_STREAM] {
            assert_eq!(gen(text, 5), gen(text, 5));
        }
        assert_ne!(gen(SYN, 5), gen(SYN, 6));
        assert_ne!(gen(SYN_GENERIC, 5), gen(SYN_GENERIC, 6));
        // Stream jobs differ only in their durations (log-normal, mean 30 s).
        let ends = |s| {
            gen(SYN_STREAM, s)
                .iter()
                .map(|j| j.end_ms)
                .collect::<Vec<_>>()
        };
        assert_ne!(ends(5), ends(6));
    }

    #[test]
    fn header_and_nodes() {
        let h = parse_synth_header(SYN, "syn.json").unwrap();
        assert_eq!(
            h,
            SynthHeader {
                description: Some("tiny jobs workload".into()),
                num_nodes: 20,
                nodes_per_rack: 4,
                num_jobs: 10,
                rand_seed: 2
            }
        );
        let nodes =
            parse_synth_nodes(SYN_STREAM, "syn_stream.json", &SimDefaults::default()).unwrap();
        assert_eq!(nodes.len(), 20);
        assert_eq!(
            nodes
                .iter()
                .map(|n| n.rack.as_str())
                .collect::<HashSet<_>>()
                .len(),
            5
        );
        assert_eq!(
            (nodes[7].rack.as_str(), nodes[7].host.as_str()),
            ("/rack2", "node7")
        );
    }

    #[test]
    fn assigned_hosts_follow_sls() {
        let nodes = synth_nodes(
            &parse_synth_header(SYN, "syn.json").unwrap(),
            &SimDefaults::default(),
        );
        let mut jobs = gen(SYN, 3);
        assign_synth_hosts(&mut jobs, &nodes, 2);
        let paths: HashSet<String> = nodes
            .iter()
            .map(|n| format!("{}/{}", n.rack, n.host))
            .collect();
        for j in &jobs {
            for (i, t) in j.tasks.iter().enumerate() {
                let host = t.host.as_deref().unwrap();
                assert!(paths.contains(host));
                assert_eq!(Some(host.rsplit_once('/').unwrap().0), t.rack.as_deref());
                // A fresh generator per job: the i-th task of every job gets the same node.
                if let Some(first) = jobs[0].tasks.get(i) {
                    assert_eq!(first.host, t.host);
                }
            }
        }
    }

    fn one_class(class: &str, times: &str) -> String {
        format!(
            r#"{{"num_jobs": 3, "workloads": [{{"workload_weight": 1, "queue_name": "q",
                 "job_classes": [{class}], "time_distribution": {times}}}]}}"#
        )
    }

    const TIMES: &str = r#"[{"time": 10, "weight": 1}, {"time": 20, "weight": 0}]"#;

    fn class_with_task(task: &str) -> String {
        format!(
            r#"{{"class_name": "c", "class_weight": 1, "type": "mapreduce", "deadline_factor": {{"val": 2}},
                "duration": {{"val": 30}}, "reservation": {{"val": 0}}, "tasks": [{task}]}}"#
        )
    }

    #[test]
    fn sample_modes() {
        let task = r#"{"type": "map", "priority": 5, "count": {"discrete": [2, 4, 6, 8], "weights": [0, 0, 0, 1]},
                      "time": {"val": 50, "std": 5, "dist": "NORM"}, "max_memory": {"val": 100},
                      "max_vcores": {"discrete": ["3"]}, "execution_type": "OPPORTUNISTIC"}"#;
        let jobs = gen(&one_class(&class_with_task(task), TIMES), 9);
        assert_eq!(jobs.len(), 3);
        for j in &jobs {
            assert_eq!(
                (
                    j.user.as_str(),
                    j.queue.as_str(),
                    j.end_ms.unwrap() - j.start_ms
                ),
                ("default", "q", 30_000)
            );
            assert_eq!(j.tasks.len(), 8);
            for t in &j.tasks {
                // max_memory 100 is raised to SynthJob's minimum of 1024 MB.
                assert_eq!((t.memory_mb, t.vcores, t.priority), (1024, 3, 5));
                assert_eq!(t.execution_type, TraceExecutionType::Opportunistic);
                assert!((20..=80).contains(&t.duration_ms), "{}", t.duration_ms);
            }
        }
    }

    #[test]
    fn malformed_synth_files_are_errors() {
        let e = err(r#"{"num_jobs": 1}"#);
        assert_eq!(e.to_string(), r#"s.json: key "workloads": missing"#);

        let e = err("{\"num_jobs\": 1,\n \"workloads\": [\n}");
        assert!(e.message.contains("line 3 column"), "{e}");

        let e = err(r#"{"num_jobs": -1, "workloads": []}"#);
        assert_eq!(e.key.as_deref(), Some("num_jobs"));

        let task = |count: &str| {
            class_with_task(&format!(
                r#"{{"type": "map", "count": {count}, "time": {{"val": 5}}, "max_memory": {{"val": 1}}, "max_vcores": {{"val": 1}}}}"#
            ))
        };
        let e = err(&one_class(&task(r#"{"val": 5, "discrete": [1]}"#), TIMES));
        assert_eq!(
            e.key.as_deref(),
            Some("workloads[0].job_classes[0].tasks[0].count")
        );
        let e = err(&one_class(
            &task(r#"{"val": 5, "std": 1, "dist": "INVALID"}"#),
            TIMES,
        ));
        assert_eq!(
            e.key.as_deref(),
            Some("workloads[0].job_classes[0].tasks[0].count.dist")
        );
        let e = err(&one_class(&task(r#"{"val": -5, "std": 1}"#), TIMES));
        assert!(e.message.contains("mean must be > 0"), "{e}");
        let e = err(&one_class(
            &task(r#"{"discrete": [1, 2], "weights": [1]}"#),
            TIMES,
        ));
        assert_eq!(
            e.key.as_deref(),
            Some("workloads[0].job_classes[0].tasks[0].count.weights")
        );
        let e = err(&one_class(&task(r#"{"discrete": ["x"]}"#), TIMES));
        assert_eq!(
            e.key.as_deref(),
            Some("workloads[0].job_classes[0].tasks[0].count.discrete[0]")
        );
        let e = err(&one_class(&task(r#"{"std": 1}"#), TIMES));
        assert!(e.message.contains("\"val\" or \"discrete\""), "{e}");

        // Old format without reduces: SLS would fail on the reduce count's missing mean.
        let old = r#"{"class_name": "c", "class_weight": 1, "mtasks_avg": 5, "dur_avg": 60, "mtime_avg": 10,
                      "map_max_memory_avg": 1024, "map_max_vcores_avg": 1, "deadline_factor_avg": 2}"#;
        let e = err(&one_class(old, TIMES));
        assert_eq!(
            e.to_string(),
            r#"s.json: key "workloads[0].job_classes[0].rtasks_avg": a distribution's mean must be > 0, found 0 (SLS has no distribution for it)"#
        );

        let e = err(&one_class(
            &task(r#"{"val": 1}"#),
            r#"[{"time": 1, "weight": 0}]"#,
        ));
        assert_eq!(e.key.as_deref(), Some("workloads[0].time_distribution"));
        let e = err(&one_class(&task(r#"{"val": 1}"#), "[]"));
        assert_eq!(e.key.as_deref(), Some("workloads[0].time_distribution"));

        let bad_exec = class_with_task(
            r#"{"type": "map", "count": {"val": 1}, "time": {"val": 5}, "max_memory": {"val": 1}, "max_vcores": {"val": 1}, "execution_type": "SOMETIMES"}"#,
        );
        let e = err(&one_class(&bad_exec, TIMES));
        assert_eq!(
            e.key.as_deref(),
            Some("workloads[0].job_classes[0].tasks[0].execution_type")
        );

        let no_type = r#"{"class_name": "c", "class_weight": 1, "deadline_factor": {"val": 2}, "duration": {"val": 30},
                          "reservation": {"val": 0}, "tasks": []}"#;
        let e = err(&one_class(no_type, TIMES));
        assert_eq!(e.key.as_deref(), Some("workloads[0].job_classes[0].type"));

        // A sampled task duration of 0: the job's index is named too.
        let zero_time = class_with_task(
            r#"{"type": "map", "count": {"val": 1}, "time": {"discrete": [0]}, "max_memory": {"val": 1}, "max_vcores": {"val": 1}}"#,
        );
        let e = err(&one_class(&zero_time, TIMES));
        assert_eq!(
            (e.job_index, e.key.as_deref()),
            (Some(0), Some("workloads[0].job_classes[0].tasks[0].time"))
        );
        assert!(
            e.to_string().starts_with(
                r#"s.json: job 0: key "workloads[0].job_classes[0].tasks[0].time": sampled"#
            ),
            "{e}"
        );
    }

    /// A sampled task count past the simulator's task limit is refused before its tasks are
    /// built, naming the count's key (a fuzzed old-format class asking ~1.16 billion maps per
    /// job once filled 24 GB: the tally was asked for 0 jobs of that many tasks, which is 0).
    #[test]
    fn task_counts_past_the_limit_are_refused_before_the_tasks_are_built() {
        let task = class_with_task(
            r#"{"type": "map", "count": {"val": 20000000}, "time": {"val": 5}, "max_memory": {"val": 1}, "max_vcores": {"val": 1}}"#,
        );
        let e = err(&one_class(&task, TIMES));
        assert_eq!(
            e.key.as_deref(),
            Some("workloads[0].job_classes[0].tasks[0].count")
        );
        assert!(
            e.message
                .contains("is more than the simulator's limit of 10000000 task containers"),
            "{e}"
        );
        // Three jobs of 4,000,000 each: the third passes the limit.
        let task = class_with_task(
            r#"{"type": "map", "count": {"val": 4000000}, "time": {"val": 5}, "max_memory": {"val": 1}, "max_vcores": {"val": 1}}"#,
        );
        let e = err(&one_class(&task, TIMES));
        assert!(e.message.contains("12000000 task containers"), "{e}");
        let old = r#"{"class_name": "c", "class_weight": 1, "mtasks_avg": 1158879680, "mtasks_stddev": 1,
                      "rtasks_avg": 5, "dur_avg": 60, "mtime_avg": 10, "rtime_avg": 20,
                      "map_max_memory_avg": 1024, "map_max_vcores_avg": 1,
                      "reduce_max_memory_avg": 2048, "reduce_max_vcores_avg": 2, "deadline_factor_avg": 2}"#;
        let e = err(&one_class(old, TIMES));
        assert_eq!(
            e.key.as_deref(),
            Some("workloads[0].job_classes[0].mtasks_avg")
        );
    }

    #[test]
    fn no_jobs() {
        assert!(gen(r#"{"num_jobs": 0, "workloads": []}"#, 1).is_empty());
    }

    #[test]
    fn java_round_matches_math_round() {
        assert_eq!(java_round(2.5), 3);
        assert_eq!(java_round(-2.5), -2);
        assert_eq!(java_round(1023.9996), 1024);
        assert_eq!(java_round(f64::NAN), 0);
        assert_eq!(java_round(1e300), i64::MAX);
    }
}
