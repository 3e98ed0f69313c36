//! The fuzz targets (fuzz/targets/mod.rs) on the stable toolchain: each runs over its seed
//! corpus (fuzz/seeds/<target>/) and over seeded mutations of it — bit flips, cuts, repeats,
//! splices, and tokens that broke parsers before (huge and negative numbers, NaN, `${x}`
//! cycles, deep nesting). No input may panic (a panic hook counts panics caught behind the C
//! ABI's guard too), and every engine audit must pass. libFuzzer runs the same bodies longer
//! under coverage guidance (`scripts/fuzz`, docs/RELIABILITY.md). `CAPSCHED_SEED=<n>` replays
//! one seed; `CAPSCHED_FUZZ_ITERATIONS=<n>` changes the number of mutations per target.

#[path = "../fuzz/targets/mod.rs"]
mod targets;

// Only the generator: the C ABI helpers come in with the targets.
#[path = "common/rng.rs"]
mod rng;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use rng::SplitMix;

static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Strings that have broken readers before, spliced into inputs.
const TOKENS: &[&str] = &[
    "9223372036854775807",
    "-2147483648",
    "1e309",
    "NaN",
    "-1",
    "0",
    "2000000000",
    "${x}",
    "${env.HOME:-d}",
    "\"count\": 100000000",
    "\"job.count\": 2000000000",
    "\"num.nodes\": 1000000000",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    "<property><name>x</name><value>${x}</value></property>",
    "yarn.scheduler.capacity.root.queues=",
    ",,,",
    "\u{feff}",
    "\\u0000",
];

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn mutate(input: &[u8], others: &[Vec<u8>], rng: &mut SplitMix) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = |rng: &mut SplitMix, v: &Vec<u8>| rng.below(v.len() as u64 + 1) as usize;
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len() as u64) as usize;
                v[i] ^= 1 << rng.below(8);
            }
            1 => {
                let i = at(rng, &v);
                v.insert(i, rng.next() as u8);
            }
            2 if !v.is_empty() => {
                let i = rng.below(v.len() as u64) as usize;
                let n = (rng.below(64) as usize).min(v.len() - i);
                v.drain(i..i + n);
            }
            3 if !v.is_empty() => {
                let i = rng.below(v.len() as u64) as usize;
                let n = (rng.below(256) as usize).min(v.len() - i);
                let piece = v[i..i + n].to_vec();
                let j = at(rng, &v);
                v.splice(j..j, piece);
            }
            4 => {
                let other = &others[rng.below(others.len() as u64) as usize];
                let i = at(rng, &v);
                let j = rng.below(other.len() as u64 + 1) as usize;
                v.truncate(i);
                v.extend_from_slice(&other[j..]);
            }
            5 => {
                // A number replaced by an extreme one.
                if let Some(i) = v.iter().position(|c| c.is_ascii_digit()) {
                    let end = v[i..]
                        .iter()
                        .position(|c| !c.is_ascii_digit())
                        .map_or(v.len(), |n| i + n);
                    let t = TOKENS[rng.below(7) as usize].as_bytes().to_vec();
                    v.splice(i..end, t);
                }
            }
            _ => {
                let t = TOKENS[rng.below(TOKENS.len() as u64) as usize]
                    .as_bytes()
                    .to_vec();
                let i = at(rng, &v);
                v.splice(i..i, t);
            }
        }
    }
    v.truncate(64 * 1024);
    v
}

fn iterations() -> u64 {
    std::env::var("CAPSCHED_FUZZ_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400)
}

fn fuzz(name: &str) {
    let body = targets::TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| *f)
        .unwrap();
    let corpus = seeds(name);
    assert!(!corpus.is_empty(), "{name} has seeds");
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        hook(info);
    }));
    let before = PANICS.load(Ordering::SeqCst);
    for (i, input) in corpus.iter().enumerate() {
        let r = std::panic::catch_unwind(|| body(input));
        assert!(r.is_ok(), "{name}: seed file #{i} panicked");
    }
    let seeds: Vec<u64> = match std::env::var("CAPSCHED_SEED") {
        Ok(s) => vec![s.parse().expect("CAPSCHED_SEED is a number")],
        Err(_) => (0..iterations()).collect(),
    };
    for seed in &seeds {
        let mut rng = SplitMix(*seed ^ name.len() as u64);
        let base = &corpus[rng.below(corpus.len() as u64) as usize];
        let input = mutate(base, &corpus, &mut rng);
        let r = std::panic::catch_unwind(|| body(&input));
        assert!(
            r.is_ok(),
            "{name}: CAPSCHED_SEED={seed} panicked on a {}-byte input",
            input.len()
        );
    }
    assert_eq!(
        PANICS.load(Ordering::SeqCst) - before,
        0,
        "{name}: a panic was caught somewhere inside"
    );
    println!(
        "{name}: {} seed files, {} mutated inputs, no panic",
        corpus.len(),
        seeds.len()
    );
}

// One test per target; they run one after another (the panic hook is process-wide).
#[test]
fn every_target_over_its_seeds_and_their_mutations() {
    for (name, _) in targets::TARGETS {
        fuzz(name);
    }
}

/// `CAPSCHED_FUZZ_REPLAY=<dir> CAPSCHED_FUZZ_TARGET=<name> cargo test --release --test
/// fuzz_targets replay -- --ignored --nocapture`: runs a target over every file of a directory
/// (a libFuzzer corpus or artifacts) and prints the slowest inputs.
#[test]
#[ignore = "a tool: replays a corpus directory"]
fn replay() {
    let dir = std::env::var("CAPSCHED_FUZZ_REPLAY").expect("CAPSCHED_FUZZ_REPLAY=<dir>");
    let name = std::env::var("CAPSCHED_FUZZ_TARGET").expect("CAPSCHED_FUZZ_TARGET=<name>");
    let body = targets::TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| *f)
        .expect("a known target");
    let mut times = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let t = std::time::Instant::now();
        body(&data);
        times.push((t.elapsed(), path));
    }
    times.sort();
    for (t, p) in times.iter().rev().take(10) {
        println!("{:>10.3} ms  {}", t.as_secs_f64() * 1000.0, p.display());
    }
}

/// The CLI's flags (issue 36.10–12): `capsched bench` and `simulate` run with flags drawn from
/// values that broke them before (0, negatives, `UINT32_MAX`, past `u64`, text) and small
/// valid ones. Every run must end with exit 0, 1 or 2 — never a panic (101), a signal or an
/// abort — within its time. `CAPSCHED_SEED=<n>` replays one run; `CAPSCHED_FUZZ_CLI_RUNS`
/// sets how many (default 24).
#[test]
fn cli_flags_never_panic() {
    use std::process::{Command, Stdio};
    let runs: u64 = std::env::var("CAPSCHED_FUZZ_CLI_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(24);
    let seeds: Vec<u64> = match std::env::var("CAPSCHED_SEED") {
        Ok(s) => vec![s.parse().expect("CAPSCHED_SEED is a number")],
        Err(_) => (0..runs).collect(),
    };
    const VALUES: &[&str] = &[
        "0",
        "1",
        "2",
        "3",
        "-1",
        "4294967295",
        "18446744073709551616",
        "x",
        "",
    ];
    let out = std::env::temp_dir().join(format!("capsched-fuzz-cli-{}", std::process::id()));
    for seed in seeds {
        let mut rng = SplitMix(seed ^ 0xc11);
        let v = |rng: &mut SplitMix| VALUES[rng.below(VALUES.len() as u64) as usize].to_string();
        let args: Vec<String> = match rng.below(6) {
            0 => [
                "bench",
                "alloc",
                "--nodes",
                &v(&mut rng),
                "--apps",
                &v(&mut rng),
                "--queues",
                &v(&mut rng),
                "--containers",
                &v(&mut rng),
                "--offswitch",
                &v(&mut rng),
            ]
            .map(String::from)
            .to_vec(),
            1 => [
                "bench",
                "simulate",
                "--nodes",
                &v(&mut rng),
                "--containers",
                &v(&mut rng),
                "--jobs",
                &v(&mut rng),
            ]
            .map(String::from)
            .to_vec(),
            2 => [
                "bench",
                "memory",
                "--nodes",
                &v(&mut rng),
                "--containers",
                &v(&mut rng),
                "--asks",
                &v(&mut rng),
            ]
            .map(String::from)
            .to_vec(),
            3 => [
                "bench",
                "preemption",
                "--nodes",
                &v(&mut rng),
                "--containers",
                &v(&mut rng),
                "--queues",
                &v(&mut rng),
                "--apps",
                &v(&mut rng),
                "--rounds",
                &v(&mut rng),
                "--warmup",
                &v(&mut rng),
            ]
            .map(String::from)
            .to_vec(),
            4 => ["bench", "calls", "--calls", &v(&mut rng)]
                .map(String::from)
                .to_vec(),
            _ => {
                let mut a: Vec<String> = ["simulate", "--output", out.to_str().unwrap(), "--force"]
                    .map(String::from)
                    .to_vec();
                for flag in [
                    "--max-time-ms",
                    "--seed",
                    "--opportunistic-percent",
                    "--rest-at",
                ] {
                    if rng.below(2) == 0 {
                        a.push(format!("{flag}={}", v(&mut rng)));
                    }
                }
                a
            }
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_capsched"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break st;
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                panic!("CAPSCHED_SEED={seed}: capsched {args:?} did not finish in 60 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let mut err = String::new();
        use std::io::Read;
        let _ = child.stderr.take().unwrap().read_to_string(&mut err);
        assert!(
            matches!(status.code(), Some(0..=2)) && !err.contains("panicked"),
            "CAPSCHED_SEED={seed}: capsched {args:?} ended with {status:?}: {err}"
        );
    }
}
