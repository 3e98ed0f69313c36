//! The `capsched` binary: `validate` and `queues`, as an operator runs them.

use std::process::Command;

fn capsched(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_capsched"))
        .args(args)
        .output()
        .expect("run capsched");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn write_temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("capsched-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn validate_accepts_the_default_and_the_sls_sample() {
    let (code, out, _) = capsched(&["validate"]);
    assert_eq!(code, 0);
    assert!(out.contains("valid (3 queues, 2 leaves)"), "{out}");
    assert!(out.contains("default") && out.contains("low"));
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sls/capacity-scheduler.xml"
    );
    let (code, out, err) = capsched(&["validate", sample]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("sls_queue_3"));
}

#[test]
fn validate_rejects_children_summing_to_110() {
    let p = write_temp(
        "bad.xml",
        "<configuration>\
         <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>\
         <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>60</value></property>\
         <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>\
         </configuration>",
    );
    let (code, out, err) = capsched(&["validate", p.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        err.contains(
            "Illegal capacity of 1.1 for children of queue root. It should be either 0 or 1.0"
        ),
        "{err}"
    );
    assert!(err.contains("queue: root"), "{err}");
    assert!(
        err.contains("key:   yarn.scheduler.capacity.root.queues"),
        "{err}"
    );
}

#[test]
fn validate_reports_unreadable_files() {
    let (code, _, err) = capsched(&["validate", "/nonexistent/capacity-scheduler.xml"]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/capacity-scheduler.xml"), "{err}");
    let p = write_temp("broken.xml", "<configuration><property><name>x</name>");
    let (code, _, err) = capsched(&["validate", p.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(!err.is_empty());
}

#[test]
fn queues_json_on_the_default_matches_the_issue() {
    let (code, out, err) = capsched(&[
        "queues",
        "--nodes",
        "10",
        "--node-memory",
        "10240",
        "--node-vcores",
        "8",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let info = &v["scheduler"]["schedulerInfo"];
    assert_eq!(info["type"], "capacityScheduler");
    let queues = info["queues"]["queue"].as_array().expect("queue list");
    let find = |path: &str| {
        queues
            .iter()
            .find(|q| q["queuePath"] == path)
            .unwrap_or_else(|| panic!("{path} in {out}"))
    };
    let d = find("root.default");
    assert_eq!(d["maxApplications"], 8000);
    assert_eq!(d["AMResourceLimit"]["memory"], 16384);
    assert_eq!(d["capacity"], 80.0);
    assert_eq!(d["queueName"], "default");
    let l = find("root.low");
    assert_eq!(l["maxApplications"], 2000);
    assert_eq!(l["AMResourceLimit"]["memory"], 8192);
    assert_eq!(l["maxCapacity"], 40.0);
    assert_eq!(l["absoluteMaxCapacity"], 40.0);
}

#[test]
fn queues_table_is_aligned_and_complete() {
    let (code, out, _) = capsched(&[
        "queues",
        "--nodes",
        "10",
        "--node-memory",
        "10240",
        "--node-vcores",
        "8",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("root.default") && out.contains("16384MB"),
        "{out}"
    );
    let lines: Vec<&str> = out.lines().skip(1).collect();
    let width = lines[0].len();
    assert!(
        lines.iter().all(|l| l.len() == width),
        "table rows differ in width:\n{out}"
    );
}

#[test]
fn simulate_short_tasks_with_opportunistic_maps_and_the_comparison_bench() {
    let out_dir = std::env::temp_dir().join(format!("capsched-cli-opp-{}", std::process::id()));
    let dir = out_dir.to_str().unwrap();
    let (code, out, err) = capsched(&[
        "simulate",
        "--scenario",
        "short-tasks",
        "--opportunistic-percent",
        "100",
        "--output",
        dir,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("jobs: 16 submitted, 16 completed"), "{out}");
    assert!(
        out.contains("opportunistic: ") && out.contains("NodeManagers ran"),
        "{out}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
            .unwrap();
    assert!(
        summary["opportunistic"]["containers_allocated"]
            .as_u64()
            .unwrap()
            >= 8000
    );

    let (code, _, err) = capsched(&["simulate", "--opportunistic-percent", "101"]);
    assert_ne!(code, 0, "a percentage above 100 is refused: {err}");

    for workload in ["short-tasks", "short-jobs"] {
        let (code, out, err) =
            capsched(&["bench", "opportunistic", "--workload", workload, "--json"]);
        assert_eq!(code, 0, "{err}");
        let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
        let tps = |i: usize| rows[i]["tasks_per_sec"].as_f64().unwrap();
        let p50 = |i: usize| rows[i]["job_run_ms"]["p50"].as_f64().unwrap();
        assert_eq!(rows.as_array().unwrap().len(), 6);
        // Row 1: guaranteed; row 3: half opportunistic with capsched's settings.
        assert!(
            tps(3) > tps(1) && p50(3) <= p50(1),
            "{workload}: half opportunistic beats guaranteed: {out}"
        );
    }
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn simulate_the_priority_inversion_scenario() {
    let out_dir = std::env::temp_dir().join(format!("capsched-cli-pi-{}", std::process::id()));
    let (code, out, err) = capsched(&[
        "simulate",
        "--scenario",
        "priority-inversion",
        "--output",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("jobs: 2 submitted, 2 completed"), "{out}");
    assert!(
        out.contains("preemption: ") && !out.contains(" 0 preempted"),
        "{out}"
    );
}

/// Runs capsched with a deadline: a hang is a test failure, not a stuck test run.
fn capsched_within(secs: u64, args: &[&str]) -> (i32, String, String) {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_capsched"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run capsched");
    // Drain both pipes while waiting, or a large output would block the child.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = pipe.read_to_end(&mut text);
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("capsched {args:?} did not finish in {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    (
        status.code().unwrap_or(-1),
        out.join().unwrap(),
        err.join().unwrap(),
    )
}

#[test]
#[cfg(unix)]
fn validate_refuses_fifos_devices_and_directories() {
    let fifo = std::env::temp_dir().join(format!("capsched-cli-fifo-{}", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let dir = std::env::temp_dir();
    for path in [fifo.to_str().unwrap(), "/dev/zero", dir.to_str().unwrap()] {
        let (code, _, err) = capsched_within(20, &["validate", path]);
        assert_eq!(code, 1, "{path}: {err}");
        assert!(err.contains("not a regular file"), "{path}: {err}");
    }
    let _ = std::fs::remove_file(&fifo);
}

#[test]
fn validate_refuses_a_root_element_with_100000_attributes_at_once() {
    let attrs: String = (0..100_000).map(|i| format!(" a{i}=\"x\"")).collect();
    let p = write_temp(
        "attrs.xml",
        &format!(
            "<configuration{attrs}>\
             <property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>\
             </configuration>"
        ),
    );
    let (code, _, err) = capsched_within(20, &["validate", p.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("Attribute limit (1000) exceeded"), "{err}");
}

/// A properties file with `root.queues` listing `n` leaves (all the capacity on the first).
fn siblings(name: &str, n: usize) -> std::path::PathBuf {
    let names: Vec<String> = (0..n).map(|i| format!("q{i}")).collect();
    write_temp(
        name,
        &format!(
            "yarn.scheduler.capacity.root.queues={}\nyarn.scheduler.capacity.root.q0.capacity=100\n",
            names.join(",")
        ),
    )
}

#[test]
fn validate_of_100000_siblings_is_fast_and_survives_a_closed_pipe() {
    let p = siblings("siblings.properties", 100_000);
    let (code, out, err) = capsched_within(30, &["validate", p.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("valid (100001 queues, 100000 leaves)"),
        "{out}"
    );
    // `capsched validate big.xml | head -1`: the reader goes away; no panic.
    for args in [vec!["validate"], vec!["queues"], vec!["queues", "--json"]] {
        let mut args = args.clone();
        args.push(p.to_str().unwrap());
        let mut child = Command::new(env!("CARGO_BIN_EXE_capsched"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 16];
        use std::io::Read;
        child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then closed
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
}

#[test]
fn queues_json_on_a_1000_deep_chain_streams_a_bounded_document() {
    let mut text = String::from("yarn.scheduler.capacity.root.queues=q\n");
    let mut path = String::from("root.q");
    for _ in 0..999 {
        text.push_str(&format!("yarn.scheduler.capacity.{path}.capacity=100\n"));
        text.push_str(&format!("yarn.scheduler.capacity.{path}.queues=q\n"));
        path.push_str(".q");
    }
    text.push_str(&format!("yarn.scheduler.capacity.{path}.capacity=100\n"));
    let p = write_temp("chain.properties", &text);
    // It overflowed the stack (recursion three levels per queue) and, pretty-printed,
    // grew its indentation with every level: ~1.2 GB for this chain.
    let (code, out, err) = capsched_within(60, &["queues", p.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.len() < 64 << 20, "{} bytes", out.len());
    assert_eq!(out.matches("\"queuePath\"").count(), 1001); // root too
    assert!(out.lines().all(|l| l.len() < 4096 + 100));
    assert_eq!(out.matches('{').count(), out.matches('}').count());
}

#[test]
fn the_error_report_survives_a_closed_stderr() {
    // 10^5 errors, and the reader of stderr goes away after the first bytes.
    let names: Vec<String> = (0..100_000).map(|i| format!("q{i}")).collect();
    let mut text = format!(
        "yarn.scheduler.capacity.root.queues={}\nyarn.scheduler.capacity.root.q0.capacity=100\n",
        names.join(",")
    );
    for n in &names {
        text.push_str(&format!(
            "yarn.scheduler.capacity.root.{n}.maximum-capacity=abc\n"
        ));
    }
    let p = write_temp("errors.properties", &text);
    let mut child = Command::new(env!("CARGO_BIN_EXE_capsched"))
        .args(["validate", p.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    use std::io::Read;
    child.stderr.take().unwrap().read_exact(&mut first).unwrap(); // then closed
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "a panic exits with 101");
}

/// The operator's case of issue 14: a configuration without
/// `yarn.resourcemanager.scheduler.monitor.enable`, an SLS trace whose tasks name hosts, and
/// `--preemption on`: the monitor runs, marks and kills, the summary names the policies, and
/// `--preemption off` runs none.
#[test]
fn simulate_preemption_on_with_a_configuration_that_does_not_enable_it() {
    let conf = write_temp(
        "two-halves.properties",
        "yarn.scheduler.capacity.root.queues=q1,q2\n\
         yarn.scheduler.capacity.root.q1.capacity=50\n\
         yarn.scheduler.capacity.root.q1.maximum-capacity=100\n\
         yarn.scheduler.capacity.root.q1.user-limit-factor=2\n\
         yarn.scheduler.capacity.root.q2.capacity=50\n\
         yarn.scheduler.capacity.root.q2.maximum-capacity=100\n\
         yarn.scheduler.capacity.root.q2.user-limit-factor=2\n",
    );
    let job = |id: &str, queue: &str, start: i64, n: usize, ms: i64| {
        let tasks: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    "{{\"container.duration.ms\": {ms}, \"container.host\": \"/rack{}/node{}\"}}",
                    (i % 10) / 5,
                    i % 10
                )
            })
            .collect();
        format!(
            "{{\"job.id\": \"{id}\", \"job.queue.name\": \"{queue}\", \"job.user\": \"u_{queue}\", \
             \"job.start.ms\": {start}, \"job.tasks\": [{}]}}\n",
            tasks.join(", ")
        )
    };
    let trace = write_temp(
        "node-local.json",
        &format!(
            "{}{}",
            job("app1", "q1", 0, 200, 180_000),
            job("app2", "q2", 20_000, 50, 20_000)
        ),
    );
    let run = |mode: &str| {
        let out_dir =
            std::env::temp_dir().join(format!("capsched-cli-pre-{mode}-{}", std::process::id()));
        let (code, out, err) = capsched(&[
            "simulate",
            "--config",
            conf.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
            "--preemption",
            mode,
            "--output",
            out_dir.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
                .unwrap();
        let _ = std::fs::remove_dir_all(&out_dir);
        (out, summary["preemption"].clone())
    };
    let (text, on) = run("on");
    assert_eq!(on["enabled"], true);
    assert_eq!(on["policies"][0], "ProportionalCapacityPreemptionPolicy");
    assert!(on["containers_marked"].as_u64().unwrap() > 0, "{on}");
    assert!(on["containers_preempted"].as_u64().unwrap() > 0, "{on}");
    assert!(on["containers_wasted"].as_u64().unwrap() <= 2, "{on}");
    assert_eq!(on["freed_space_protected"], true);
    assert!(
        text.contains("preemption ran: ProportionalCapacityPreemptionPolicy"),
        "{text}"
    );
    assert!(
        text.contains("root.q1") && text.contains("killed"),
        "{text}"
    );
    let (text, off) = run("off");
    assert_eq!(off["enabled"], false);
    assert!(!text.contains("preemption ran"), "{text}");
}

/// `--rest-at` writes the RM REST scheduler document as the simulated RM would answer at
/// each time: what runs then, and an idle cluster after the run's end.
#[test]
fn simulate_rest_at_writes_the_scheduler_document_of_each_time() {
    let conf = write_temp(
        "rest-at.properties",
        "yarn.scheduler.capacity.root.queues=q1,q2\n\
         yarn.scheduler.capacity.root.q1.capacity=50\n\
         yarn.scheduler.capacity.root.q2.capacity=50\n",
    );
    let job = |id: &str, queue: &str, start: i64, n: usize| {
        let tasks: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    "{{\"container.duration.ms\": 60000, \"container.host\": \"/rack0/node{}\"}}",
                    i % 2
                )
            })
            .collect();
        format!(
            "{{\"job.id\": \"{id}\", \"job.queue.name\": \"{queue}\", \"job.user\": \"u_{queue}\", \
             \"job.start.ms\": {start}, \"job.tasks\": [{}]}}\n",
            tasks.join(", ")
        )
    };
    let trace = write_temp(
        "rest-at.json",
        &format!(
            "{}{}",
            job("app1", "q1", 0, 4),
            job("app2", "q2", 30_000, 2)
        ),
    );
    let out_dir = std::env::temp_dir().join(format!("capsched-cli-rest-{}", std::process::id()));
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "simulate".to_string(),
            "--config".into(),
            conf.to_str().unwrap().into(),
            "--trace".into(),
            trace.to_str().unwrap().into(),
            "--output".into(),
            out_dir.to_str().unwrap().into(),
            "--force".into(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run = |extra: &[&'static str]| {
        let a = args(extra);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        capsched(&refs)
    };
    let (code, _, err) = run(&["--rest-at", "10000,45000,100000000"]);
    assert_eq!(code, 0, "{err}");
    let doc = |ms: i64| -> serde_json::Value {
        let text = std::fs::read_to_string(out_dir.join(format!("scheduler-{ms}.json"))).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let queue = |d: &serde_json::Value, name: &str| {
        d["scheduler"]["schedulerInfo"]["queues"]["queue"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["queueName"] == name)
            .unwrap()
            .clone()
    };
    let early = doc(10_000);
    let q1 = queue(&early, "q1");
    assert_eq!(q1["numApplications"], 1);
    assert_eq!(q1["allocatedContainers"], 5, "the AM and four tasks: {q1}");
    assert_eq!(q1["users"]["user"][0]["username"], "u_q1");
    assert_eq!(queue(&early, "q2")["numApplications"], 0);
    let later = doc(45_000);
    assert_eq!(queue(&later, "q2")["numApplications"], 1);
    assert!(queue(&later, "q2")["allocatedContainers"].as_i64().unwrap() > 0);
    let after = doc(100_000_000);
    for q in ["q1", "q2"] {
        assert_eq!(queue(&after, q)["numApplications"], 0);
        assert_eq!(queue(&after, q)["numContainers"], 0);
    }
    // A run cut short says which documents it could not write; a rerun replaces the others.
    let (code, _, err) = run(&["--max-time-ms", "20000", "--rest-at", "15000,30000"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("--rest-at 30000"), "{err}");
    assert!(out_dir.join("scheduler-15000.json").exists());
    assert!(!out_dir.join("scheduler-30000.json").exists());
    assert!(
        !out_dir.join("scheduler-10000.json").exists(),
        "the earlier run's are gone"
    );
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn validate_shows_the_placement_rules_and_the_lifetimes() {
    let f = write_temp(
        "placement.properties",
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.b.maximum-application-lifetime=60
yarn.scheduler.capacity.queue-mappings=u:alice:b,g:eng:root.a
yarn.scheduler.capacity.queue-mappings-override.enable=true
",
    );
    let (code, out, err) = capsched(&["validate", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("lifetime default 60s  max 60s"), "{out}");
    assert!(
        out.contains("placement rule user-group: u:alice:b, g:eng:root.a (override)"),
        "{out}"
    );
    // A mapping to a queue that does not exist is YARN's error, naming the key.
    let bad = write_temp(
        "placement-bad.properties",
        "yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.queue-mappings=u:alice:nope
",
    );
    let (code, out, err) = capsched(&["validate", bad.to_str().unwrap()]);
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains("mapping contains invalid or non-leaf queue nope")
            && err.contains("yarn.scheduler.capacity.queue-mappings"),
        "{err}"
    );
}

#[test]
fn validate_shows_the_json_mapping_rules() {
    let rules = write_temp(
        "mapping-rules.json",
        r#"{"rules": [
  {"type": "user", "matches": "*", "policy": "setDefaultQueue", "value": "root.a"},
  {"type": "group", "matches": "eng", "policy": "primaryGroupUser", "parentQueue": "root.d", "fallbackResult": "placeDefault"},
  {"type": "application", "matches": "spark", "policy": "custom", "customPlacement": "root.a", "create": false},
  {"type": "user", "matches": "mallory", "policy": "reject"}
]}"#,
    );
    let f = write_temp(
        "json-placement.properties",
        &format!(
            "yarn.scheduler.capacity.root.queues=a,d
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.d.capacity=50
yarn.scheduler.capacity.root.d.auto-queue-creation-v2.enabled=true
yarn.scheduler.capacity.mapping-rule-format=json
yarn.scheduler.capacity.mapping-rule-json-file={}
",
            rules.display()
        ),
    );
    let (code, out, err) = capsched(&["validate", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for line in [
        format!(
            "mapping rules (json, from mapping-rule-json-file {}): 4 rules",
            rules.display()
        ),
        "  1. user *: setDefaultQueue %default := root.a".to_string(),
        "  2. group eng: primaryGroupUser → root.d.%primary_group.%user (create, fallback placeDefault)"
            .to_string(),
        "  3. application spark: custom → root.a (no create, fallback skip)".to_string(),
        "  4. user mallory: reject".to_string(),
    ] {
        assert!(out.contains(&line), "{line:?} not in\n{out}");
    }
    // A rule whose target can never be used: YARN's reason, the rule's number and the key.
    let bad = write_temp(
        "json-placement-bad.properties",
        r#"yarn.scheduler.capacity.root.queues=a
yarn.scheduler.capacity.root.a.capacity=100
yarn.scheduler.capacity.mapping-rule-format=json
yarn.scheduler.capacity.mapping-rule-json={"rules":[{"type":"user","matches":"*","policy":"user","parentQueue":"root.a"}]}
"#,
    );
    let (code, out, err) = capsched(&["validate", bad.to_str().unwrap()]);
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains("rule 1 has encountered a validation error: Queue path 'root.a.%user' is invalid because 'root.a' is a leaf queue")
            && err.contains("yarn.scheduler.capacity.mapping-rule-json"),
        "{err}"
    );
}

#[test]
fn validate_and_queues_show_the_parents_that_create_queues_and_their_templates() {
    let f = write_temp(
        "auto.properties",
        "yarn.scheduler.capacity.root.queues=a,m,d
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.m.capacity=25
yarn.scheduler.capacity.root.d.capacity=25
yarn.scheduler.capacity.root.m.auto-create-child-queue.enabled=true
yarn.scheduler.capacity.root.m.leaf-queue-template.capacity=40
yarn.scheduler.capacity.root.m.leaf-queue-template.user-limit-factor=2
yarn.scheduler.capacity.root.d.auto-queue-creation-v2.enabled=true
yarn.scheduler.capacity.root.*.auto-queue-creation-v2.leaf-template.capacity=3w
yarn.scheduler.capacity.root.a.maximum-application-lifetime=600
yarn.scheduler.capacity.queue-mappings=u:%user:m.%user
",
    );
    let (code, out, err) = capsched(&["validate", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // The wildcard template key belongs to the templates: no warning about it.
    assert!(!out.contains("warning"), "{out}");
    for line in [
        "  m                      managed capacity   25.0%",
        "  d                      dynamic capacity   25.0%",
        "root.m auto-creates leaves (0 so far, at most 1000): each gets capacity 40.0% (absolute 10.00%)",
        "  template: user-limit 100%  user-limit-factor 2  maximum-am-resource-percent 0.1",
        "  leaf-queue-template.capacity=40",
        "root.d creates queues dynamically (0 children so far, at most 1000 children, 2 levels below its first static ancestor)",
        "  leaf-template: capacity=3w",
        "placement rule user-group: u:%user:m.%user",
    ] {
        assert!(out.contains(line), "{line:?} not in\n{out}");
    }
    let (code, out, err) = capsched(&["queues", f.to_str().unwrap(), "--nodes", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("max-life  def-life"), "{out}");
    assert!(out.contains("600s"), "{out}");
    assert!(out.contains("root.m auto-creates leaves"), "{out}");
    assert!(out.contains("root.d creates queues dynamically"), "{out}");
}

#[test]
fn validate_shows_each_queues_labels_and_partition_capacities() {
    let f = write_temp(
        "labels.properties",
        "yarn.scheduler.capacity.root.queues=a,b
yarn.scheduler.capacity.root.accessible-node-labels.x.capacity=100
yarn.scheduler.capacity.root.a.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.a.accessible-node-labels=x
yarn.scheduler.capacity.root.a.accessible-node-labels.x.capacity=100
yarn.scheduler.capacity.root.a.default-node-label-expression=x
yarn.scheduler.capacity.root.b.accessible-node-labels=
",
    );
    let (code, out, err) = capsched(&["validate", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for line in [
        "  root.a                   accessible x  default-node-label-expression \"x\"",
        "    x: capacity 100.0%  max 100.0%  absolute 100.00%  absolute max 100.00%",
        "  root.b                   accessible (default partition only)",
    ] {
        assert!(out.contains(line), "{line:?} not in\n{out}");
    }
    let (code, out, err) = capsched(&["queues", f.to_str().unwrap(), "--nodes", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("node labels:"), "{out}");
}

/// Issue 36.10: every bench size of 0 panicked, and huge ones aborted asking for hundreds of
/// GB; each is a clear error before any work, as `simulate` refuses its sizes.
#[test]
fn bench_sizes_out_of_range_are_refused_before_any_work() {
    for args in [
        &["bench", "alloc", "--nodes", "0"][..],
        &["bench", "alloc", "--apps", "0"],
        &["bench", "alloc", "--queues", "0"],
        &["bench", "simulate", "--nodes", "0"],
        &["bench", "simulate", "--nodes", "4294967295"],
        &["bench", "memory", "--nodes", "0"],
        &["bench", "calls", "--calls", "0"],
        &["bench", "preemption", "--rounds", "0"],
        &["bench", "heartbeat", "--updates", "0"],
    ] {
        let (code, _, err) = capsched_within(20, args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: --") && err.contains("must be from "),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Issue 36.11: `capsched simulate | head -1` panicked ("failed printing to stdout: Broken
/// pipe", exit 101); a closed stdout ends every printing subcommand quietly, with exit 0.
#[test]
fn printing_subcommands_end_quietly_on_a_closed_stdout() {
    let out_dir = std::env::temp_dir().join(format!("capsched-cli-pipe-{}", std::process::id()));
    let vectors = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/conformance/preemption-vectors.json"
    );
    for args in [
        vec!["simulate", "--output", out_dir.to_str().unwrap(), "--force"],
        vec!["conformance", vectors],
        vec!["bench", "calls", "--calls", "200"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_capsched"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader goes before the first line
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
}

/// Issue 36.12: `--max-time-ms=-1` "simulated 0 ms" with exit 0, and `--rest-at` took any
/// number of times (5,000 wrote 349 MB).
#[test]
fn simulate_refuses_a_meaningless_time_limit_and_too_many_documents() {
    let (code, _, err) = capsched(&["simulate", "--max-time-ms=-1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--max-time-ms"), "{err}");
    let times: Vec<String> = (0..101).map(|i| (i * 1000).to_string()).collect();
    let arg = format!("--rest-at={}", times.join(","));
    let (code, _, err) = capsched(&["simulate", &arg]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("101 times is more than the 100 documents"),
        "{err}"
    );
}

/// Issue 36.13: `conformance` on `{}`, `{"foo":1}` or an SLS job printed "0 passed, 0
/// failed, 0 skipped" and exited 0; a file with no vectors is an error.
#[test]
fn conformance_on_a_file_without_vectors_is_an_error() {
    for (name, text) in [
        ("empty.json", "{}"),
        ("foo.json", "{\"foo\":1}"),
        (
            "job.json",
            "{\"am.type\":\"mapreduce\",\"job.start.ms\":0,\"job.tasks\":[]}",
        ),
    ] {
        let p = write_temp(name, text);
        let (code, _, err) = capsched(&["conformance", p.to_str().unwrap()]);
        assert_eq!(code, 1, "{name}: {err}");
        assert!(err.contains("no test vectors"), "{name}: {err}");
    }
}
