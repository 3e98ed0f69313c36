//! The fuzz targets' bodies, shared by the cargo-fuzz binaries (`fuzz/fuzz_targets/*.rs`, run
//! under libFuzzer by `scripts/fuzz`) and by the stable-toolchain harness
//! (`tests/fuzz_targets.rs`, which replays the seed corpora and seeded mutations of them in
//! `cargo test`). Each takes arbitrary bytes and must neither panic, hang nor grow without
//! bound; a target that drives the engine also checks its invariants after every call.
//!
//! | target | what it feeds |
//! | --- | --- |
//! | `hadoop_config` | Hadoop's `Configuration` reader: XML or `key=value` properties, then every key through substitution and the typed getters |
//! | `capacity_config` | `CapacitySchedulerConfiguration` (the model and YARN's validation), the queue tree on a cluster, the REST document |
//! | `trace_sls`, `trace_rumen`, `trace_synth` | the three trace readers and the nodes readers; small workloads are also simulated with the invariant checker on |
//! | `ffi_commands` | a sequence of C ABI calls decoded from the bytes, with `capsched_engine_check_invariants` after each; extreme integers (`INT64_MAX`, 2^62, negatives) and counts (`SIZE_MAX`, `UINT32_MAX`) among the arguments |
//! | `sim_semantics` | a configuration, nodes and a trace decoded from the bytes, simulated with the invariant checker after every event, then the outputs checked: every job accounted for, no queue above the cluster, the outputs written and valid |

#![allow(dead_code)]

use std::sync::Arc;

use capsched::config::{CapacitySchedulerConfiguration, Configuration};
use capsched::resource::Resource;
use capsched::sim::trace::{self, SimDefaults, TraceJob, TraceNode};
use capsched::sim::{simulate, SimError, SimulationInput, SimulationOptions};
use capsched::state::queue::QueueTree;

/// The C ABI test helpers (string arguments, a manual engine), shared with tests/ffi_random.rs.
#[path = "../../tests/common/ffi.rs"]
mod ffi_support;

/// A target: its name (the cargo-fuzz binary's) and its body.
pub type Target = (&'static str, fn(&[u8]));

pub const TARGETS: [Target; 7] = [
    ("hadoop_config", hadoop_config),
    ("capacity_config", capacity_config),
    ("trace_sls", trace_sls),
    ("trace_rumen", trace_rumen),
    ("trace_synth", trace_synth),
    ("ffi_commands", ffi_commands),
    ("sim_semantics", sim_semantics),
];

/// Issue 36: the simulator's semantics, which the trace targets reached only through what the
/// readers accept. The bytes choose a configuration (queue shapes, capacities, limits, async
/// scheduling, max-parallel-apps, preemption, opportunistic allocation), nodes and jobs; the
/// run has the invariant checker after every event, and its result is checked: every job
/// finished, rejected, failed or killed — or the run stopped with a watchdog's report; no
/// sample shows more allocated than the cluster holds; the output files written and valid.
pub fn sim_semantics(data: &[u8]) {
    let mut b = Bytes(data);
    let mut props = String::from(
        "yarn.scheduler.capacity.root.queues=a,b
",
    );
    let a = [0, 10, 50, 90, 100][b.below(5)];
    props += &format!(
        "yarn.scheduler.capacity.root.a.capacity={a}
yarn.scheduler.capacity.root.b.capacity={}
",
        100 - a
    );
    for q in ["a", "b"] {
        let max = [100, 50, 20, -1][b.below(4)];
        if max >= a.min(100 - a) || max == -1 {
            props += &format!(
                "yarn.scheduler.capacity.root.{q}.maximum-capacity={max}
"
            );
        }
        props += &format!(
            "yarn.scheduler.capacity.root.{q}.user-limit-factor={}
",
            ["1", "2", "-1", "0.5"][b.below(4)]
        );
        if b.below(4) == 0 {
            props += &format!(
                "yarn.scheduler.capacity.root.{q}.max-parallel-apps={}
",
                b.below(3)
            );
        }
    }
    props += &format!(
        "yarn.scheduler.capacity.maximum-am-resource-percent={}
",
        ["0.1", "0.5", "1"][b.below(3)]
    );
    if b.below(3) == 0 {
        props += "yarn.scheduler.capacity.schedule-asynchronously.enable=true
";
    }
    if b.below(3) == 0 {
        props += "yarn.resourcemanager.scheduler.monitor.enable=true
";
    }
    let opportunistic = b.below(4) == 0;
    if opportunistic {
        props += "yarn.resourcemanager.opportunistic-container-allocation.enabled=true
";
        props += &format!(
            "yarn.nodemanager.opportunistic-containers-max-queue-length={}
",
            [0, 4, 10][b.below(3)]
        );
    }
    if b.below(3) == 0 {
        props += "yarn.scheduler.capacity.resource-calculator=org.apache.hadoop.yarn.util.resource.DominantResourceCalculator
";
    }
    let Ok(conf) = CapacitySchedulerConfiguration::from_properties_str(&props) else {
        return;
    };
    let nodes: Vec<TraceNode> = (0..1 + b.below(6))
        .map(|i| TraceNode {
            host: format!("n{i}"),
            rack: format!("/r{}", i % 2),
            memory_mb: [4096, 8192, 1024, 0][b.below(4)],
            vcores: [8, 2, 0][b.below(3)],
            labels: Vec::new(),
        })
        .collect();
    let jobs: Vec<TraceJob> = (0..1 + b.below(6))
        .map(|j| {
            let tasks = (0..1 + b.below(3))
                .map(|_| trace::TraceTask {
                    count: 1 + b.below(8) as u64,
                    request_delay_ms: [0, 500, 5000][b.below(3)],
                    ..trace::TraceTask::map(
                        [1000, 5000, 60_000][b.below(3)],
                        [512, 1024, 4096, 20_000][b.below(4)],
                        [1, 2][b.below(2)],
                    )
                })
                .collect();
            TraceJob {
                am_memory_mb: [1024, 512, 9000][b.below(3)],
                ..TraceJob::mapreduce(
                    &format!("j{j}"),
                    ["a", "b", "root", "nope"][b.below(4)],
                    ["u1", "u2"][b.below(2)],
                    [0, 1000, 30_000][b.below(3)] as i64,
                    tasks,
                )
            }
        })
        .collect();
    let opts = SimulationOptions {
        check_invariants: true,
        max_time_ms: Some(6 * 3600 * 1000),
        opportunistic_percent: if opportunistic {
            [0, 50, 100][b.below(3)]
        } else {
            0
        },
        ..SimulationOptions::default()
    };
    let r = match simulate(
        SimulationInput {
            conf: Arc::new(conf),
            nodes,
            jobs,
        },
        opts,
    ) {
        Ok(r) => r,
        Err(SimError::Input(_)) | Err(SimError::Stalled(_)) => return,
        Err(e) => panic!("the simulator broke: {e}"),
    };
    // Every job accounted for, unless the run was cut at its time limit.
    if !r.timed_out {
        for j in &r.jobs {
            assert!(
                j.finish_ms.is_some()
                    || j.rejected.is_some()
                    || j.failed.is_some()
                    || j.killed.is_some(),
                "job {} is neither finished, rejected, failed nor killed",
                j.id
            );
        }
    }
    for s in &r.samples {
        assert!(
            s.allocated_memory <= r.cluster.memory_mb() && s.allocated_memory >= 0,
            "at {} ms {} MB allocated on a cluster of {}",
            s.time_ms,
            s.allocated_memory,
            r.cluster
        );
        let queues: i64 = s.queues.iter().map(|q| q.allocated_memory).sum();
        assert!(
            queues <= s.allocated_memory,
            "at {} ms the queues hold {queues} MB of {}",
            s.time_ms,
            s.allocated_memory
        );
    }
    // The outputs of the run, written and read back.
    let dir = std::env::temp_dir().join(format!("capsched-fuzz-sim-{}", std::process::id()));
    let out =
        capsched::sim::output::OutputDir::prepare(&dir, "fuzz", true).expect("an output directory");
    capsched::sim::output::write_all(&out, &r).expect("the outputs are written");
    let summary = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json");
    assert!(
        summary.starts_with('{') && summary.trim_end().ends_with('}'),
        "summary.json is a JSON object: {summary}"
    );
    let jobruntime = std::fs::read_to_string(dir.join("jobruntime.csv")).expect("jobruntime.csv");
    assert_eq!(
        jobruntime.lines().count(),
        r.jobs.len() + 1,
        "jobruntime.csv: a header and a line per job"
    );
}

/// The first byte picks a format: even for XML, odd for properties.
fn text_and_format(data: &[u8]) -> (bool, String) {
    let (first, rest) = data.split_first().unwrap_or((&0, &[]));
    (first % 2 == 0, String::from_utf8_lossy(rest).into_owned())
}

pub fn hadoop_config(data: &[u8]) {
    let (xml, text) = text_and_format(data);
    let mut conf = Configuration::new();
    conf.set_env_vars::<&str, &str>([]);
    let loaded = if xml {
        conf.add_xml_str(&text, "fuzz.xml")
    } else {
        conf.add_properties_str(&text, "fuzz.properties")
    };
    if loaded.is_err() {
        return;
    }
    let keys: Vec<String> = conf
        .iter_raw()
        .map(|(k, _)| k.to_string())
        .take(256)
        .collect();
    for k in &keys {
        let _ = conf.try_get(k);
        let _ = conf.get_int(k, 0);
        let _ = conf.get_long(k, 0);
        let _ = conf.get_float(k, 0.0);
        let _ = conf.get_double(k, 0.0);
        let _ = conf.get_boolean(k, false);
        let _ = conf.get_trimmed_strings(k);
    }
}

pub fn capacity_config(data: &[u8]) {
    let (xml, text) = text_and_format(data);
    let parsed = if xml {
        CapacitySchedulerConfiguration::from_xml_str(&text)
    } else {
        CapacitySchedulerConfiguration::from_properties_str(&text)
    };
    match parsed {
        Ok(conf) => {
            let mut tree = QueueTree::new(Arc::new(conf));
            let nodes = i64::from(data.len() as u8 % 16);
            tree.update_cluster_resource(Resource::new(nodes * 8192, nodes * 8));
            let _ = capsched::report::rest::scheduler_info_json(&tree).to_string();
        }
        Err(errors) => {
            let _ = errors.to_string();
        }
    }
}

/// The queues the sample traces name, and preemption, for the simulated workloads.
const SIM_QUEUES: &str = "\
yarn.scheduler.capacity.root.queues=default,sls_queue_1,sls_queue_2,sls_queue_3
yarn.scheduler.capacity.root.default.capacity=40
yarn.scheduler.capacity.root.sls_queue_1.capacity=20
yarn.scheduler.capacity.root.sls_queue_2.capacity=20
yarn.scheduler.capacity.root.sls_queue_3.capacity=20
yarn.scheduler.capacity.root.default.maximum-capacity=100
yarn.scheduler.capacity.root.sls_queue_1.maximum-capacity=100
yarn.resourcemanager.scheduler.monitor.enable=true
";

/// A small workload is also simulated (with the invariant checker after every event) on the
/// queues of the sample traces, with the preemption monitor on; larger ones are only read.
fn simulate_small(nodes: Vec<TraceNode>, jobs: Vec<TraceJob>) {
    let containers: u64 = jobs.iter().flat_map(|j| &j.tasks).map(|t| t.count).sum();
    // Small enough that one input stays well under a second even if it never finishes.
    let hour = 3600 * 1000;
    let short = jobs.iter().all(|j| {
        j.start_ms < hour
            && j.tasks
                .iter()
                .all(|t| t.duration_ms < hour && t.request_delay_ms < hour)
    });
    if nodes.is_empty() || nodes.len() > 8 || jobs.len() > 8 || containers > 64 || !short {
        return;
    }
    let conf = Arc::new(
        CapacitySchedulerConfiguration::from_properties_str(SIM_QUEUES)
            .expect("a valid configuration"),
    );
    let opts = SimulationOptions {
        check_invariants: true,
        max_time_ms: Some(6 * hour),
        ..SimulationOptions::default()
    };
    match simulate(SimulationInput { conf, nodes, jobs }, opts) {
        Ok(_) | Err(SimError::Input(_)) | Err(SimError::Stalled(_)) => {}
        Err(e) => panic!("the simulator broke: {e}"),
    }
}

pub fn trace_sls(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let d = SimDefaults::default();
    let _ = trace::parse_nodes_file(&text, "fuzz.json", &d);
    let jobs = trace::parse_sls_jobs(&text, "fuzz.json", &d);
    let nodes = trace::nodes_from_sls_trace(&text, "fuzz.json", &d);
    if let (Ok(jobs), Ok(nodes)) = (jobs, nodes) {
        simulate_small(nodes, jobs);
    }
}

pub fn trace_rumen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let d = SimDefaults::default();
    if let Ok(jobs) = trace::parse_rumen(&text, "fuzz.json", &d) {
        if let Ok(nodes) = trace::nodes_from_jobs(&jobs, &d) {
            simulate_small(nodes, jobs);
        }
    }
}

pub fn trace_synth(data: &[u8]) {
    let (first, rest) = data.split_first().unwrap_or((&0, &[]));
    let text = String::from_utf8_lossy(rest);
    let d = SimDefaults::default();
    let nodes = trace::parse_synth_nodes(&text, "fuzz.json", &d);
    if let Ok(mut jobs) = trace::parse_synth(&text, "fuzz.json", u64::from(*first), &d) {
        if let Ok(nodes) = nodes {
            trace::assign_synth_hosts(&mut jobs, &nodes, u64::from(*first));
            simulate_small(nodes, jobs);
        }
    }
}

/// Bytes read as a stream of small numbers; zeros once they run out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        self.byte() as usize % n.max(1)
    }

    fn pick<T: Copy>(&mut self, from: &[T]) -> Option<T> {
        (!from.is_empty()).then(|| from[self.below(from.len())])
    }

    fn done(&self) -> bool {
        self.0.is_empty()
    }
}

/// A C host making the calls the bytes say, on one manual engine with preemption and a
/// manual clock: nodes come and go and heartbeat (completing containers, some on the wrong
/// node), applications are submitted, allocate with odd asks and releases, move, change
/// priority and leave, containers expire, queues are refreshed (valid and invalid), time moves
/// and passes and preemption rounds run. Ids are valid, stale, of nothing, 0 or garbage.
/// Statuses may be errors, but never a caught panic or a failed engine, and the invariant
/// audit must pass after every call.
pub fn ffi_commands(data: &[u8]) {
    use capsched::ffi::capsched_status::*;
    use capsched::ffi::*;
    use ffi_support::{manual_engine, s};
    use std::ptr;

    fn conf_xml(a: u32) -> String {
        let props = [
            ("yarn.scheduler.capacity.root.queues", "a,b".to_string()),
            ("yarn.scheduler.capacity.root.a.capacity", a.to_string()),
            (
                "yarn.scheduler.capacity.root.b.capacity",
                (100 - a).to_string(),
            ),
            (
                "yarn.scheduler.capacity.root.a.maximum-capacity",
                "100".into(),
            ),
            (
                "yarn.scheduler.capacity.root.b.maximum-capacity",
                "100".into(),
            ),
            (
                "yarn.scheduler.capacity.maximum-am-resource-percent",
                "0.5".into(),
            ),
            (
                "yarn.resourcemanager.scheduler.monitor.enable",
                "true".into(),
            ),
            (
                "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled",
                "true".into(),
            ),
            (
                "yarn.resourcemanager.opportunistic-container-allocation.enabled",
                "true".into(),
            ),
            (
                "yarn.nodemanager.opportunistic-containers-max-queue-length",
                "4".into(),
            ),
        ];
        let body: String = props
            .iter()
            .map(|(k, v)| format!("<property><name>{k}</name><value>{v}</value></property>"))
            .collect();
        format!("<configuration>{body}</configuration>")
    }
    fn ok(st: capsched_status, what: &str) {
        assert!(
            st != CAPSCHED_ERR_PANIC && st != CAPSCHED_ERR_ENGINE_FAILED,
            "{what}: {st:?}: {}",
            unsafe { std::ffi::CStr::from_ptr(capsched_last_error()) }.to_string_lossy()
        );
    }

    let mut b = Bytes(data);
    // SAFETY: every pointer passed below points to live, correctly sized values for the call.
    unsafe {
        let e = manual_engine(&conf_xml(50));

        let mut now: i64 = 0;
        let mut nodes: Vec<u64> = Vec::new();
        let mut apps: Vec<u64> = Vec::new();
        let mut containers: Vec<u64> = Vec::new();
        let mut gone: Vec<u64> = Vec::new();
        let mut response_ids: std::collections::HashMap<u64, i32> = Default::default();
        let mut steps = 0;
        while !b.done() && steps < 400 {
            steps += 1;
            // Ids: a live one, a stale one, 0, or garbage.
            let id = |b: &mut Bytes, live: &[u64]| match b.below(8) {
                0 => b.pick(&gone).unwrap_or(0),
                1 => 0,
                2 => u64::from(b.byte()) << 48 | u64::from(b.byte()),
                _ => b.pick(live).unwrap_or(0),
            };
            let what;
            let st = match b.below(17) {
                0 | 1 => {
                    what = "node add";
                    let name = format!("h{}", b.below(10));
                    let size = capsched_resource {
                        memory_mb: [0, 512, 4096, 8192, -1, 1 << 40, i64::MAX, 1 << 62, i64::MIN]
                            [b.below(9)],
                        vcores: [0, 1, 8, -3, i64::MAX][b.below(5)],
                    };
                    let mut out = 0;
                    let st = capsched_node_add(e, s(&name), s("/r"), size, &mut out);
                    if st == CAPSCHED_OK {
                        nodes.push(out);
                    }
                    st
                }
                2 => {
                    what = "node remove";
                    let n = id(&mut b, &nodes);
                    let st = capsched_node_remove(e, n);
                    if st == CAPSCHED_OK {
                        nodes.retain(|&x| x != n);
                        gone.push(n);
                    }
                    st
                }
                3 | 4 => {
                    what = "node update";
                    let n = id(&mut b, &nodes);
                    let done: Vec<capsched_completed_container> = (0..b.below(3))
                        .map(|_| capsched_completed_container {
                            container: id(&mut b, &containers),
                            exit_status: [0, -100, -102, 1][b.below(4)],
                            diagnostics: s("fuzz"),
                        })
                        .collect();
                    let mut status: capsched_node_status = std::mem::zeroed();
                    status.struct_size = std::mem::size_of::<capsched_node_status>() as u32;
                    status.completed = done.as_ptr();
                    status.completed_count = done.len();
                    let mut r = ptr::null_mut();
                    let st = capsched_node_update(e, n, &status, &mut r);
                    capsched_node_response_free(r);
                    st
                }
                5 => {
                    what = "submit";
                    let queue = ["a", "b", "root", "nope", ""][b.below(5)];
                    let user = ["u1", "u2", "", " "][b.below(4)];
                    let mut app = 0;
                    let st =
                        capsched_app_submit(e, s(queue), s(user), b.below(8) as i32 - 2, &mut app);
                    if st == CAPSCHED_OK {
                        let am = capsched_resource {
                            memory_mb: [1024, 0, 1 << 30][b.below(3)],
                            vcores: 1,
                        };
                        if capsched_attempt_add(e, app, am, b.below(2) as i32, 0) == CAPSCHED_OK {
                            apps.push(app);
                        }
                    }
                    st
                }
                6..=8 => {
                    what = "allocate";
                    let app = id(&mut b, &apps);
                    let ask = capsched_ask {
                        priority: b.below(4) as i32 - 1,
                        allocation_request_id: 0,
                        resource_name: s(["*", "h1", "/r", ""][b.below(4)]),
                        capability: capsched_resource {
                            memory_mb: [512, 1024, 2048, 0, -5, 1 << 40, i64::MAX, i64::MIN]
                                [b.below(8)],
                            vcores: [1, 0, 2, i64::MAX][b.below(4)],
                        },
                        num_containers: [0, 1, 2, 3, 4, -1, i32::MAX, i32::MIN][b.below(8)],
                        relax_locality: b.below(2) as i32,
                        execution_type: if b.below(4) == 0 {
                            CAPSCHED_OPPORTUNISTIC
                        } else {
                            CAPSCHED_GUARANTEED
                        },
                    };
                    let releases: Vec<u64> =
                        (0..b.below(2)).map(|_| id(&mut b, &containers)).collect();
                    let mut req: capsched_allocate_request = std::mem::zeroed();
                    req.struct_size = std::mem::size_of::<capsched_allocate_request>() as u32;
                    req.response_id = match b.below(6) {
                        0 => b.byte() as i32,
                        _ => *response_ids.get(&app).unwrap_or(&0),
                    };
                    req.asks = &ask;
                    req.ask_count = 1;
                    // A count past what memory can hold (issue 36.18), with a pointer that
                    // must never be read.
                    if b.below(16) == 0 {
                        req.ask_count =
                            [usize::MAX, usize::MAX / 2, isize::MAX as usize][b.below(3)];
                    }
                    req.releases = releases.as_ptr();
                    req.release_count = releases.len();
                    let mut r = ptr::null_mut();
                    let st = capsched_allocate(e, app, &req, &mut r);
                    if st == CAPSCHED_OK {
                        let resp = &*r;
                        response_ids.insert(app, resp.response_id);
                        for i in 0..resp.allocated_count {
                            containers.push((*resp.allocated.add(i)).id);
                        }
                        for i in 0..resp.completed_count {
                            let c = (*resp.completed.add(i)).container;
                            containers.retain(|&x| x != c);
                            gone.push(c);
                        }
                        capsched_allocate_response_free(r);
                    }
                    st
                }
                9 => {
                    what = "app remove, move or priority";
                    let app = id(&mut b, &apps);
                    match b.below(3) {
                        0 => {
                            let st = capsched_app_remove(e, app);
                            if st == CAPSCHED_OK {
                                apps.retain(|&x| x != app);
                                gone.push(app);
                            }
                            st
                        }
                        1 => capsched_app_move(e, app, s(["a", "b", "nope"][b.below(3)])),
                        _ => {
                            let mut p = 0;
                            capsched_app_set_priority(e, app, b.below(20) as i32 - 5, &mut p)
                        }
                    }
                }
                10 => {
                    what = "container expired";
                    capsched_container_expired(e, id(&mut b, &containers))
                }
                11 => {
                    what = "refresh";
                    let xml = match b.below(3) {
                        0 => conf_xml(10 + b.below(80) as u32),
                        1 => "<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property></configuration>".to_string(),
                        _ => "<configuration><".to_string(),
                    };
                    let mut c = ptr::null_mut();
                    match capsched_config_from_xml(s(&xml), &mut c) {
                        CAPSCHED_OK => {
                            let st = capsched_engine_refresh_queues(e, c);
                            capsched_config_free(c);
                            st
                        }
                        st => st,
                    }
                }
                12 => {
                    what = "tick and step";
                    now += [1, 250, 1000, 15_000, 600_000][b.below(5)];
                    let mut n = 0;
                    let st = capsched_engine_tick(e, now, &mut n);
                    if st == CAPSCHED_OK {
                        let passes = [0, 1, 2, u32::MAX, CAPSCHED_ENGINE_STEP_MAX + 1][b.below(5)];
                        capsched_engine_step(e, passes, &mut n)
                    } else {
                        st
                    }
                }
                14 => {
                    what = "node add recovered";
                    let app = id(&mut b, &apps);
                    let reports: Vec<capsched_container_report> = (0..b.below(3))
                        .map(|i| capsched_container_report {
                            app,
                            resource: capsched_resource {
                                memory_mb: [1024, -1, i64::MAX, 1 << 62, 100_000][b.below(5)],
                                vcores: [1, 0, -1][b.below(3)],
                            },
                            priority: 1,
                            allocation_request_id: 0,
                            container_id: 1000 + i as i64,
                            is_am: 0,
                        })
                        .collect();
                    let size = capsched_resource {
                        memory_mb: [8192, i64::MAX, 1 << 62][b.below(3)],
                        vcores: 8,
                    };
                    let mut out = 0;
                    let count = if b.below(8) == 0 {
                        usize::MAX
                    } else {
                        reports.len()
                    };
                    let st = capsched_node_add_recovered(
                        e,
                        s(&format!("r{}", b.below(4))),
                        s("/r"),
                        size,
                        reports.as_ptr(),
                        count,
                        &mut out,
                    );
                    if st == CAPSCHED_OK {
                        nodes.push(out);
                    }
                    st
                }
                15 => {
                    what = "long names and counts";
                    let long = "q".repeat([0, 64, 4096, 1 << 20][b.below(4)]);
                    let mut app = 0;
                    let st = match b.below(3) {
                        0 => capsched_app_submit(e, s(&long), s(&long), 0, &mut app),
                        1 => {
                            let mut out = 0;
                            capsched_node_find(e, s(&long), &mut out)
                        }
                        _ => {
                            let mut id = std::mem::zeroed();
                            capsched_yarn_id_parse(s(&long), &mut id)
                        }
                    };
                    let message = std::ffi::CStr::from_ptr(capsched_last_error())
                        .to_bytes()
                        .len();
                    assert!(message < 4096, "{what}: a {message}-byte message");
                    if st == CAPSCHED_OK && app != 0 {
                        apps.push(app);
                    }
                    st
                }
                _ => {
                    what = "events";
                    let mut events: [capsched_event; 8] = std::mem::zeroed();
                    let (mut n, mut dropped) = (0, 0);
                    capsched_poll_events(e, events.as_mut_ptr(), events.len(), &mut n, &mut dropped)
                }
            };
            ok(st, what);
            let audit = capsched_engine_check_invariants(e);
            assert_eq!(
                audit,
                CAPSCHED_OK,
                "after {what}: {}",
                std::ffi::CStr::from_ptr(capsched_last_error()).to_string_lossy()
            );
        }
        capsched_engine_free(e);
    }
}
