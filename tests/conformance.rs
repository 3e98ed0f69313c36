//! The preemption conformance harness (`capsched::conformance`) and the
//! `capsched conformance` command: snapshot builds checked against the vectors' own
//! `derived_layout` and against hand-worked facts, the string grammar on the spec's examples,
//! the runner's verdicts on deliberately wrong expectations, and the command's output format.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use capsched::conformance::matrix::{self, MatrixInput};
use capsched::conformance::run::{parse_timeline_expect, TimelineCheck};
use capsched::conformance::setup::{apply_overrides, base_settings, configure, Overrides};
use capsched::conformance::string::{
    self as harness_b, parse_apps, parse_labels, parse_nodes, parse_queues, parse_resource,
    StringInput,
};
use capsched::conformance::vectors::{HarnessFlags, Section};
use capsched::conformance::{run_vector, Outcome, Scenario, Vector, VectorFile};
use capsched::resource::{CalculatorKind, Resource};

fn vectors_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance/preemption-vectors.json")
}

fn file() -> VectorFile {
    VectorFile::load(&vectors_path()).expect("the vector file loads")
}

fn vector(id: &str) -> Vector {
    file()
        .vectors()
        .find(|v| v.id == id)
        .unwrap_or_else(|| panic!("no vector {id}"))
        .clone()
}

/// Harness A's scenario for phase `phase` of a matrix vector.
fn matrix_scenario(v: &Vector, phase: usize) -> Scenario {
    let (flags, overrides) = match v.phases.get(phase) {
        Some(p) => (p.harness_flags.clone(), p.config_overrides.clone()),
        None => (HarnessFlags::default(), Default::default()),
    };
    let (settings, ov) = configure(&overrides).unwrap();
    matrix::build(
        &MatrixInput::from_vector(v).unwrap(),
        &flags,
        &ov,
        &settings,
    )
    .unwrap()
}

fn string_scenario(v: &Vector) -> Scenario {
    let (settings, ov) = configure(&v.config_overrides.clone().unwrap_or_default()).unwrap();
    harness_b::build(&StringInput::from_vector(v).unwrap(), &ov, &settings).unwrap()
}

fn r(m: i64, v: i64) -> Resource {
    Resource::new(m, v)
}

fn is_partition_vector(v: &Vector) -> bool {
    v.labels_config
        .as_deref()
        .map(|l| parse_labels(l).unwrap().iter().any(|p| !p.name.is_empty()))
        .unwrap_or(false)
}

// ---------------------------------------------------------------------------------------------
// (a) snapshot builds
// ---------------------------------------------------------------------------------------------

/// Checks one `{count, size, ids, priority}` container block of `derived_layout`.
fn check_block(
    ctx: &str,
    block: &Value,
    containers: &[&capsched::preempt::snapshot::ContainerSnap],
) {
    let count = block["count"].as_u64().unwrap() as usize;
    assert_eq!(containers.len(), count, "{ctx}: count");
    let size = block["size"].as_i64().unwrap();
    for c in containers {
        assert_eq!(
            c.resource.memory_mb(),
            size,
            "{ctx}: size of {}",
            c.sequence
        );
        assert_eq!(c.resource.vcores(), size, "{ctx}: vcores of {}", c.sequence);
    }
    let ids = block["ids"].as_array().unwrap();
    if count == 0 {
        assert!(ids.is_empty(), "{ctx}: ids");
    } else {
        let (first, last) = (ids[0].as_i64().unwrap(), ids[1].as_i64().unwrap());
        let seqs: Vec<i64> = containers.iter().map(|c| c.sequence).collect();
        assert_eq!(seqs, (first..=last).collect::<Vec<_>>(), "{ctx}: ids");
    }
}

/// Every matrix vector's snapshot against the `derived_layout` the file spells out: cluster,
/// queue paths, parents and leaves, per-app used/pending/reserved, container counts, sizes,
/// ids, priorities and AM containers.
#[test]
fn matrix_snapshots_match_every_derived_layout() {
    let f = file();
    let mut checked = 0;
    for v in f.matrix_and_unit_vectors.iter() {
        if v.harness.as_deref() != Some("matrix") {
            continue;
        }
        let Some(layout) = &v.derived_layout else {
            continue;
        };
        let scn = matrix_scenario(v, 0);
        let snap = &scn.snapshot;
        let id = &v.id;
        let cl = layout["cluster_resource"].as_array().unwrap();
        assert_eq!(
            snap.cluster,
            r(cl[0].as_i64().unwrap(), cl[1].as_i64().unwrap()),
            "{id}: cluster"
        );
        assert_eq!(snap.partitions.len(), 1, "{id}");
        assert_eq!(snap.partitions[0].resource, snap.cluster, "{id}");
        let columns = layout["columns"].as_array().unwrap();
        assert_eq!(snap.queues.len(), columns.len(), "{id}: queues");
        for col in columns {
            let i = col["column"].as_u64().unwrap() as usize;
            let q = &snap.queues[i];
            let ctx = format!("{id} column {i}");
            assert_eq!(q.path, col["path"].as_str().unwrap(), "{ctx}: path");
            if let Some(leaf) = col.get("leaf") {
                assert_eq!(q.is_leaf(), leaf.as_bool().unwrap(), "{ctx}: leaf");
            }
            match col.get("parent") {
                Some(Value::Null) => assert_eq!(q.parent, None, "{ctx}: parent"),
                Some(Value::String(p)) => {
                    assert_eq!(snap.queues[q.parent.unwrap()].path, *p, "{ctx}: parent")
                }
                _ => {}
            }
            let apps = col
                .get("apps")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            assert_eq!(q.apps.len(), apps.len(), "{ctx}: apps");
            for (a, la) in q.apps.iter().zip(&apps) {
                let k = la["app_index"].as_u64().unwrap() as usize;
                assert_eq!(*a, k, "{ctx}: app order");
                let app = &snap.apps[k];
                let meta = &scn.apps[k];
                let ctx = format!("{ctx} {}", app.name);
                assert_eq!(&*app.name, la["name"].as_str().unwrap(), "{ctx}: name");
                assert_eq!(
                    app.id,
                    la["application_id"][1].as_u64().unwrap(),
                    "{ctx}: id"
                );
                assert_eq!(app.queue, i, "{ctx}: queue");
                assert_eq!(
                    meta.used.memory_mb(),
                    la["used"].as_i64().unwrap(),
                    "{ctx}: used"
                );
                assert_eq!(
                    meta.pending.memory_mb(),
                    la["pending"].as_i64().unwrap(),
                    "{ctx}: pending"
                );
                assert_eq!(
                    meta.reserved.memory_mb(),
                    la["reserved"].as_i64().unwrap(),
                    "{ctx}: reserved"
                );
                let rc = &la["reserved_containers"];
                let reserved: Vec<_> = app.reserved.iter().collect();
                check_block(&format!("{ctx} reserved"), rc, &reserved);
                for c in &reserved {
                    assert_eq!(c.priority as i64, rc["priority"].as_i64().unwrap());
                    assert!(!c.is_am);
                }
                let lc = &la["live_containers"];
                let live: Vec<_> = app.live.iter().collect();
                check_block(&format!("{ctx} live"), lc, &live);
                let am_id = lc["am_container_id"].as_i64();
                for c in &live {
                    let is_am = am_id == Some(c.sequence);
                    assert_eq!(c.is_am, is_am, "{ctx}: AM flag of {}", c.sequence);
                    let want = if is_am {
                        &lc["am_priority"]
                    } else {
                        &lc["priority"]
                    };
                    assert_eq!(c.priority as i64, want.as_i64().unwrap(), "{ctx}: priority");
                    assert_eq!((c.node, c.partition), (0, 0), "{ctx}: placement");
                    assert!(!c.ignore_exclusivity);
                }
            }
        }
        // Container ids are unique across the snapshot; the node lists every live container.
        let mut ids: Vec<u64> = snap
            .apps
            .iter()
            .flat_map(|a| a.live.iter().chain(&a.reserved).map(|c| c.id))
            .collect();
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n, "{id}: container ids unique");
        let live: usize = snap.apps.iter().map(|a| a.live.len()).sum();
        assert_eq!(snap.nodes.len(), 1);
        assert_eq!(
            snap.containers_by_node()[0].len(),
            live,
            "{id}: node containers"
        );
        assert_eq!(snap.nodes[0].reservation, None);
        checked += 1;
    }
    assert_eq!(checked, 20, "every matrix vector with a derived_layout");
}

#[test]
fn matrix_queue_figures_and_disable_inheritance() {
    // testHierarchical: root 200, queueA 100 (B 50, C 50), queueD 100 (E 10, F 90).
    let scn = matrix_scenario(&vector("testHierarchical"), 0);
    let q = &scn.snapshot.queues;
    let p = |i: usize| &q[i].partitions[0];
    assert_eq!(p(0).guaranteed, r(200, 200));
    assert_eq!(
        p(0).absolute_capacity,
        1.0,
        "QueueCapacities(isRoot) answers 1 for root"
    );
    assert_eq!(p(2).guaranteed, r(50, 50));
    assert_eq!(p(2).max, r(200, 200));
    assert_eq!(p(2).used, r(60, 60));
    assert_eq!(p(5).absolute_capacity, 10.0 / 200.0);
    assert_eq!(p(5).absolute_max_capacity, 1.0);
    // Parents' pending is the children's sum: queueD = E 0 + F 10; root = 10.
    assert_eq!(p(4).pending, r(10, 10));
    assert_eq!(p(0).pending, r(10, 10));
    assert_eq!(q[0].children, vec![1, 4]);
    assert_eq!(q[1].children, vec![2, 3]);
    assert!(q.iter().all(|q| !q.preemption_disabled));

    // testHierarchicalWithReserved: pending − reserved, floored at 0, summed upwards.
    let scn = matrix_scenario(&vector("testHierarchicalWithReserved"), 0);
    let q = &scn.snapshot.queues;
    assert_eq!(q[2].partitions[0].reserved, r(15, 15));
    assert_eq!(q[6].partitions[0].pending_deduct_reserved, r(10, 10));
    assert_eq!(q[5].partitions[0].pending_deduct_reserved, r(0, 0));
    assert_eq!(q[0].partitions[0].pending_deduct_reserved, r(10, 10));

    // testPerQueueDisablePreemptionInheritParent, phase 2: root.queueA disabled, so are B, C, D.
    let v = vector("testPerQueueDisablePreemptionInheritParent");
    let disabled = |scn: &Scenario| -> Vec<bool> {
        scn.snapshot
            .queues
            .iter()
            .map(|q| q.preemption_disabled)
            .collect()
    };
    assert_eq!(disabled(&matrix_scenario(&v, 0)), vec![false; 9]);
    assert_eq!(
        disabled(&matrix_scenario(&v, 1)),
        vec![false, true, true, true, true, false, false, false, false]
    );
    // testPerQueueDisablePreemptionOverAbsMaxCapacity: queueD and its children E, F.
    let scn = matrix_scenario(
        &vector("testPerQueueDisablePreemptionOverAbsMaxCapacity"),
        0,
    );
    assert_eq!(
        disabled(&scn),
        vec![false, false, false, false, true, true, true]
    );
    // testPerQueueDisablePreemptionRootDisablesAll: everything.
    let scn = matrix_scenario(&vector("testPerQueueDisablePreemptionRootDisablesAll"), 0);
    assert!(disabled(&scn).iter().all(|&d| d));
    // An explicit false under a disabled parent re-enables the subtree (P1.3).
    let v = vector("testHierarchical");
    let mut ov = Overrides::default();
    ov.disable_preemption.insert("root.queueA".into(), true);
    ov.disable_preemption
        .insert("root.queueA.queueC".into(), false);
    let scn = matrix::build(
        &MatrixInput::from_vector(&v).unwrap(),
        &HarnessFlags::default(),
        &ov,
        &base_settings(),
    )
    .unwrap();
    assert_eq!(
        disabled(&scn),
        vec![false, true, true, false, false, false, false]
    );
}

#[test]
fn matrix_aliases_and_am_budget() {
    // appF is appE (the Java constant bug).
    let scn = matrix_scenario(&vector("testPerQueueDisablePreemptionInheritParent"), 1);
    assert_eq!(scn.app_index("appE"), Some(4));
    assert_eq!(scn.app_index("appF"), Some(4));
    assert_eq!(scn.app_index("appE(=appF)"), Some(4));
    assert_eq!(scn.app_index("app#5"), None);
    // testSkipAMContainer: four apps in queueA, each 25 containers with an AM first.
    let scn = matrix_scenario(&vector("testSkipAMContainer"), 0);
    let a = &scn.snapshot.queues[1];
    assert_eq!(a.apps, vec![0, 1, 2, 3]);
    assert_eq!(a.max_am_resource_percent, 0.0);
    assert_eq!(a.effective_capacity, r(50, 50));
    for app in &scn.snapshot.apps[..4] {
        assert_eq!(app.live.iter().filter(|c| c.is_am).count(), 1);
        assert!(app.live[0].is_am && app.live[0].priority == 0);
    }
    let flags = HarnessFlags {
        set_am_container: true,
        max_am_resource_per_queue_percent: 0.5,
    };
    let v = vector("testSkipAMContainer");
    let (settings, ov) = configure(&Default::default()).unwrap();
    let scn = matrix::build(
        &MatrixInput::from_vector(&v).unwrap(),
        &flags,
        &ov,
        &settings,
    )
    .unwrap();
    assert_eq!(scn.snapshot.queues[1].max_am_resource_percent, 0.5);
    assert_eq!(scn.snapshot.queues[0].max_am_resource_percent, 0.0);
}

/// testPreemptionWithVCoreResource's `derived_layout` is prose; checked by hand: DRF, cluster
/// 100:100 (Σ leaf abs), appA's 10:100 as ten 1:10 containers, appB none, pending 10:100.
#[test]
fn matrix_with_resource_strings_by_hand() {
    let v = vector("testPreemptionWithVCoreResource");
    let mut ov = Overrides::default();
    let (mut settings, _) = configure(&Default::default()).unwrap();
    apply_overrides(&v.phases[0].config_overrides, &mut settings, &mut ov).unwrap();
    assert_eq!(ov.calculator.kind(), CalculatorKind::Dominant);
    let scn = matrix::build(
        &MatrixInput::from_vector(&v).unwrap(),
        &v.phases[0].harness_flags,
        &ov,
        &settings,
    )
    .unwrap();
    let s = &scn.snapshot;
    assert_eq!(s.cluster, r(100, 100));
    assert_eq!(s.calculator.kind(), CalculatorKind::Dominant);
    let paths: Vec<&str> = s.queues.iter().map(|q| q.path.as_str()).collect();
    assert_eq!(paths, ["root", "root.queueA", "root.queueB"]);
    assert_eq!(s.queues[1].partitions[0].guaranteed, r(50, 50));
    assert_eq!(s.queues[1].partitions[0].used, r(10, 100));
    assert_eq!(
        s.queues[2].partitions[0].used,
        r(0, 0),
        "a lone number has 0 vcores here"
    );
    assert_eq!(s.queues[2].partitions[0].pending, r(10, 100));
    assert_eq!(s.queues[1].partitions[0].max, r(100, 100));
    assert_eq!(s.queues[1].partitions[0].absolute_capacity, 0.5);
    assert_eq!(s.apps.len(), 2);
    assert_eq!(&*s.apps[0].name, "appA");
    assert_eq!(s.apps[0].live.len(), 10);
    assert!(s.apps[0].live.iter().all(|c| c.resource == r(1, 10)));
    assert!(s.apps[1].live.is_empty());
    assert_eq!(scn.apps[1].pending, r(10, 100));
    assert_eq!(matrix::parse_matrix_resource("7").unwrap(), r(7, 0));
    assert_eq!(matrix::parse_matrix_resource("1:10").unwrap(), r(1, 10));
}

/// testPreemptionForSimpleReservedContainer, by hand.
#[test]
fn string_snapshot_reserved_container_by_hand() {
    let scn = string_scenario(&vector("testPreemptionForSimpleReservedContainer"));
    let s = &scn.snapshot;
    // "=100,true;" — a lone 100 is <100, 1>; the trailing ';' is dropped.
    assert_eq!(s.partitions.len(), 1);
    assert_eq!(s.cluster, r(100, 1));
    let paths: Vec<&str> = s.queues.iter().map(|q| q.path.as_str()).collect();
    assert_eq!(paths, ["root", "root.a", "root.b"]);
    let b = &s.queues[2].partitions[0];
    assert_eq!(b.guaranteed, r(50, 1));
    assert_eq!(b.max, r(100, 1));
    assert_eq!(b.used, r(10, 1));
    assert_eq!(b.pending, r(9, 1));
    assert_eq!(b.reserved, r(9, 1));
    assert_eq!(b.pending_deduct_reserved, r(0, 0));
    assert!((b.absolute_capacity - 0.500001).abs() < 1e-7);
    // Root's pending is the children's sum (0 + 9), whatever root's own column says.
    assert_eq!(s.queues[0].partitions[0].pending, r(9, 1));
    assert_eq!(s.queues[0].partitions[0].absolute_capacity, 1.0);
    // app1: 90 live containers (45 on each node), ids 1..=90, #1 the AM.
    let app1 = &s.apps[0];
    assert_eq!((&*app1.name, app1.id, app1.queue), ("app1", 1, 1));
    assert_eq!(app1.live.len(), 90);
    assert!(app1.reserved.is_empty());
    assert_eq!(app1.live.iter().filter(|c| c.is_am).count(), 1);
    assert!(app1.live[0].is_am && app1.live[0].sequence == 1);
    assert_eq!(app1.live.iter().filter(|c| c.node == 0).count(), 45);
    assert_eq!(scn.apps[0].queue_as_written, "root.a");
    // app2: container 1 live on n1 (its AM), container 2 the 9-unit reservation on n1.
    let app2 = &s.apps[1];
    assert_eq!(app2.live.len(), 1);
    assert_eq!(app2.reserved.len(), 1);
    assert_eq!(app2.reserved[0].sequence, 2);
    assert_eq!(app2.reserved[0].resource, r(9, 1));
    assert!(!app2.reserved[0].is_am);
    // Nodes: "n1= res=50": default partition, 50 minus 45 + 1 live containers of <1, 1>.
    assert_eq!(scn.hosts, ["n1", "n2"]);
    assert_eq!(&*s.nodes[0].name, "n1:1");
    assert_eq!(s.nodes[0].partition, 0);
    assert_eq!(s.nodes[0].unallocated, r(4, 1 - 46));
    assert_eq!(s.nodes[1].unallocated, r(5, 1 - 45));
    assert_eq!(s.nodes[0].reservation, Some((1, 0)));
    assert_eq!(s.nodes[1].reservation, None);
    assert_eq!(s.containers_by_node()[0].len(), 46);
    assert_eq!(s.minimum_allocation, r(1, 1));
    assert!(scn.notes.is_empty(), "apps are registered by path here");

    // The same with apps written as "a": the quota-lookup quirk is noted.
    let scn = string_scenario(&vector(
        "testPreemptionForReservedContainerRespectGuaranteedResource",
    ));
    assert_eq!(scn.apps[0].queue_as_written, "a");
    assert_eq!(scn.snapshot.apps[0].queue, 1);
    assert_eq!(scn.notes.len(), 1);
}

#[test]
fn string_snapshot_partitions_by_hand() {
    // Partition x non-exclusive; app1 = 1 AM on x, then 20 asked without label but on n1 (x).
    let scn = string_scenario(&vector(
        "testNodePartitionPreemptionOfIgnoreExclusivityAndRespectCapacity",
    ));
    let s = &scn.snapshot;
    let parts: Vec<(&str, bool)> = s
        .partitions
        .iter()
        .map(|p| (p.name.as_str(), p.exclusive))
        .collect();
    assert_eq!(parts, [("", true), ("x", false)]);
    assert_eq!(s.cluster, r(200, 2));
    assert_eq!(s.nodes[0].partition, 1);
    assert_eq!(s.nodes[1].partition, 0);
    let app1 = &s.apps[0];
    assert_eq!(app1.live.len(), 21);
    assert!(app1.live.iter().all(|c| c.partition == 1 && c.node == 0));
    assert!(!app1.live[0].ignore_exclusivity);
    assert!(app1.live[1..].iter().all(|c| c.ignore_exclusivity));
    assert_eq!(s.apps[1].live.len(), 79);
    assert!(s.apps[1].live.iter().all(|c| !c.ignore_exclusivity));
    let a = &s.queues[1];
    assert_eq!(a.partitions[0].used, r(0, 0));
    assert_eq!(a.partitions[1].used, r(100, 1));
    assert_eq!(a.partitions[1].pending, r(50, 1));
    assert_eq!(a.apps, vec![0, 1]);
    let b = &s.queues[2];
    assert_eq!(b.partitions[1].pending, r(100, 1));

    // Two labelled partitions, a two-level tree; pending per partition summed upwards.
    let scn = string_scenario(&vector("testHierarchyPreemptionForMultiplePartitions"));
    let s = &scn.snapshot;
    let names: Vec<&str> = s.partitions.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["", "x", "y"]);
    let paths: Vec<&str> = s.queues.iter().map(|q| q.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "root",
            "root.a",
            "root.a.a1",
            "root.a.a2",
            "root.b",
            "root.b.b1",
            "root.b.b2"
        ]
    );
    assert_eq!(s.queues[0].children, vec![1, 4]);
    assert_eq!(s.queues[1].partitions[1].used, r(60, 1));
    assert_eq!(s.queues[1].partitions[1].pending, r(40, 2));
    assert_eq!(s.queues[0].partitions[2].pending, r(80, 4));
    // app1 (a1): 35 containers on n1 (x) then 25 on n2 (y).
    let app1 = &s.apps[0];
    assert_eq!(app1.live.iter().filter(|c| c.partition == 1).count(), 35);
    assert_eq!(app1.live.iter().filter(|c| c.partition == 2).count(), 25);

    // A queue that does not mention a partition has zeros there.
    let scn = string_scenario(&vector("testHierarchyPreemptionForDifferenceAcessibility"));
    let a = &scn.snapshot.queues[1];
    assert_eq!(a.partitions[2], Default::default());

    // disable_preemption from the configuration applies to that queue alone.
    let scn = string_scenario(&vector(
        "testNodePartitionDisablePreemptionForSingleLevelQueue",
    ));
    let d: Vec<bool> = scn
        .snapshot
        .queues
        .iter()
        .map(|q| q.preemption_disabled)
        .collect();
    assert_eq!(d, [false, false, true, false]);
}

#[test]
fn string_mock_does_not_inherit_disable_preemption_and_reads_options() {
    let input = StringInput::parse(
        "=100,true",
        "n1=",
        "root(=[100 100 50 0]);-a(=[50 100 50 0]){priority=2};--a1(=[50 100 50 0]);-b(=[50 100 0 10]){priority=1,disable_preemption=true}",
        "a1\t(1,1,n1,,50,false)",
    )
    .unwrap();
    let mut ov = Overrides::default();
    ov.disable_preemption.insert("root.a".into(), true);
    let scn = harness_b::build(&input, &ov, &base_settings()).unwrap();
    let q = &scn.snapshot.queues;
    let d: Vec<bool> = q.iter().map(|q| q.preemption_disabled).collect();
    assert_eq!(
        d,
        [false, true, false, true],
        "no inheritance from root.a to root.a.a1"
    );
    let prio: Vec<i32> = q.iter().map(|q| q.relative_priority).collect();
    assert_eq!(prio, [0, 2, 0, 1]);
    // The app line names the short queue name.
    assert_eq!(scn.snapshot.apps[0].queue, 2);
    // Apps are ordered by priority (higher first), then id.
    let input = StringInput::parse(
        "=100,true",
        "n1=",
        "root(=[100 100 6 0]);-a(=[100 100 6 0])",
        "a\t(1,1,n1,,2,false);a\t(3,1,n1,,2,false);a\t(3,1,n1,,1,false)(1,1,n1,,1,false)",
    )
    .unwrap();
    let scn = harness_b::build(&input, &Overrides::default(), &base_settings()).unwrap();
    assert_eq!(
        scn.snapshot.apps[2].priority, 1,
        "the last group's priority"
    );
    assert_eq!(scn.snapshot.queues[1].apps, vec![1, 0, 2]);
}

// ---------------------------------------------------------------------------------------------
// (b) the string grammar on the spec's examples
// ---------------------------------------------------------------------------------------------

#[test]
fn grammar_resources() {
    // "A lone number m means m MB with 1 vcore (0 vcores if m is 0)."
    assert_eq!(parse_resource("5").unwrap(), r(5, 1));
    assert_eq!(parse_resource("0").unwrap(), r(0, 0));
    assert_eq!(parse_resource("100:100").unwrap(), r(100, 100));
    assert_eq!(
        parse_resource("1:2:3").unwrap(),
        Resource::from_values(&[1, 2, 3])
    );
    assert!(parse_resource("x").is_err());
    assert!(parse_resource("1:2:3:4:5").is_err());
}

#[test]
fn grammar_labels_and_nodes() {
    let l = parse_labels("=100,true;x=100,false").unwrap();
    assert_eq!(l.len(), 2);
    assert_eq!(
        (l[0].name.as_str(), l[0].resource, l[0].exclusive),
        ("", r(100, 1), true)
    );
    assert_eq!((l[1].name.as_str(), l[1].exclusive), ("x", false));
    assert_eq!(
        parse_labels("=100:100,true").unwrap()[0].resource,
        r(100, 100)
    );
    assert_eq!(parse_labels("=100,true;").unwrap().len(), 1);
    let n = parse_nodes("n1=x;n2=").unwrap();
    assert_eq!(
        n.iter()
            .map(|n| (n.host.as_str(), n.partition.as_str(), n.resource))
            .collect::<Vec<_>>(),
        [("n1", "x", r(0, 0)), ("n2", "", r(0, 0))]
    );
    let n = parse_nodes("n1= res=25;n2= res=25;n3= res=25;n4= res=25;").unwrap();
    assert_eq!(n.len(), 4);
    assert_eq!(n[3].resource, r(25, 1));
    assert_eq!(n[3].partition, "");
}

#[test]
fn grammar_queues() {
    let q =
        parse_queues("root(=[100 100 100 9 9]);-a(=[50 100 90 0]);-b(=[50 100 10 9 9])").unwrap();
    assert_eq!(q.len(), 3);
    assert_eq!((q[0].depth, q[0].name.as_str()), (0, "root"));
    assert_eq!((q[2].depth, q[2].name.as_str()), (1, "b"));
    let (p, v) = &q[2].partitions[0];
    assert_eq!(p, "");
    assert_eq!(
        (v.guaranteed, v.max, v.used, v.pending, v.reserved),
        (r(50, 1), r(100, 1), r(10, 1), r(9, 1), Some(r(9, 1)))
    );
    assert_eq!(q[1].partitions[0].1.reserved, None);
    // Several partitions, deeper levels, and the `{…}` settings of the spec's example.
    let q = parse_queues(
        "root(=[100 100 0 0],x=[100 100 100 100],y=[100 100 100 100]);-a(=[50 100 0 0],x=[50 100 60 40]);--a1(=[25 100 0 0],x=[25 100 35 20]){priority=1,disable_preemption=true}",
    )
    .unwrap();
    assert_eq!(q[0].partitions.len(), 3);
    assert_eq!(q[0].partitions[2].0, "y");
    assert_eq!(q[2].depth, 2);
    assert_eq!(q[2].partitions[1].1.used, r(35, 1));
    assert_eq!(
        q[2].options,
        [
            ("priority".to_string(), "1".to_string()),
            ("disable_preemption".to_string(), "true".to_string())
        ]
    );
    assert_eq!(
        parse_queues("-a(=[60:60 100:100 40:40 70:40])").unwrap()[0].partitions[0]
            .1
            .pending,
        r(70, 40)
    );
    assert!(
        parse_queues("root(=[1 2 3])").is_err(),
        "needs 4 or 5 values"
    );
    assert!(
        parse_queues("-a.b(=[1 1 1 1])").is_err(),
        "no dots in names"
    );
    assert!(parse_queues("--(=[1 1 1 1])").is_err(), "empty name");
}

#[test]
fn grammar_queue_shape_the_mock_mistypes_is_rejected() {
    // "-a" followed by "-b" with a child: Hadoop's isParent skips "-b" and sees "--b1".
    let input = StringInput::parse(
        "=100,true",
        "n1=",
        "root(=[100 100 0 0]);-a(=[50 100 0 0]);-b(=[50 100 0 0]);--b1(=[50 100 0 0])",
        "b1\t(1,1,n1,,1,false)",
    )
    .unwrap();
    let err = harness_b::build(&input, &Overrides::default(), &base_settings()).unwrap_err();
    assert!(err.contains("\"a\""), "{err}");
}

#[test]
fn grammar_apps() {
    let a = parse_apps("a\t(1,1,n1,x,1,false)(1,1,n1,,20,false);a\t(1,1,n1,x,79,false)").unwrap();
    assert_eq!(a.len(), 2);
    assert_eq!(a[0].queue, "a");
    assert_eq!(a[0].groups.len(), 2);
    let g = &a[0].groups[1];
    assert_eq!(
        (
            g.priority,
            g.resource,
            g.host.as_str(),
            g.label.as_str(),
            g.repeat,
            g.reserved
        ),
        (1, r(1, 1), "n1", "", 20, false)
    );
    assert_eq!(a[1].groups[0].repeat, 79);
    // Trailing ';' dropped; reserved=true; pending and user fields; the third tab field.
    let a = parse_apps(
        "root.b\t(1,1,n1,,1,false)(1,9,n1,,1,true);q\t(2,1:1,n1,,3,false,10:5,alice)\t4;",
    )
    .unwrap();
    assert_eq!(a.len(), 2);
    assert!(a[0].groups[1].reserved);
    assert_eq!(a[0].groups[1].resource, r(9, 1));
    assert_eq!(a[1].groups[0].pending, Some(r(10, 5)));
    assert_eq!(a[1].groups[0].user.as_deref(), Some("alice"));
    assert_eq!(a[1].user_limit_divisor, Some(4));
    assert!(parse_apps("a\t(1,1,n1)").is_err());
    assert!(parse_apps("a").is_err());
}

#[test]
fn timeline_prose_is_understood() {
    let v = vector("testExpireKill");
    let checks: Vec<Vec<TimelineCheck>> = v
        .timeline
        .iter()
        .map(|s| {
            let (c, unknown) = parse_timeline_expect(&s.expect);
            assert!(unknown.is_empty(), "{unknown:?}");
            c
        })
        .collect();
    let marks = |n| TimelineCheck::CumulativeMarks {
        app: "appC".into(),
        count: n,
    };
    assert_eq!(checks[0], [marks(10)]);
    assert_eq!(checks[1], [marks(10)]);
    assert_eq!(
        checks[2],
        [
            TimelineCheck::CumulativeAll { count: 20 },
            TimelineCheck::NewKillable {
                app: "appC".into(),
                count: 10
            }
        ]
    );
}

#[test]
fn meta_base_configuration_is_the_harness_base() {
    let f = file();
    for harness in ["matrix_harness", "string_harness"] {
        let base = f.meta[harness]["base_config"].as_object().unwrap();
        let (settings, ov) = configure(base).unwrap();
        assert_eq!(settings, base_settings(), "{harness}");
        assert_eq!(ov, Overrides::default(), "{harness}");
    }
}

// ---------------------------------------------------------------------------------------------
// the runner
// ---------------------------------------------------------------------------------------------

/// The vector `id` with the JSON value at `path` replaced, as the runner would read it from a
/// file.
fn mutated(id: &str, path: &[&str], value: Value) -> Vector {
    let text = std::fs::read_to_string(vectors_path()).unwrap();
    let all: Value = serde_json::from_str(&text).unwrap();
    for (section, tag) in [
        ("matrix_and_unit_vectors", Section::MatrixAndUnit),
        ("string_vectors", Section::String),
        ("opportunistic_vectors", Section::Opportunistic),
    ] {
        let Some(found) = all[section]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == id)
        else {
            continue;
        };
        let mut raw = found.clone();
        let mut cur = &mut raw;
        for p in &path[..path.len() - 1] {
            cur = match p.parse::<usize>() {
                Ok(i) => &mut cur[i],
                Err(_) => &mut cur[*p],
            };
        }
        cur[path[path.len() - 1]] = value;
        let mut v: Vector = serde_json::from_value(raw).unwrap();
        v.section = tag;
        return v;
    }
    panic!("no vector {id}")
}

fn fail_message(v: &Vector) -> String {
    match run_vector(v).outcome {
        Outcome::Fail(m) => m,
        other => panic!("{}: expected a failure, got {other:?}", v.id),
    }
}

#[test]
fn runner_reports_wrong_expectations() {
    // Opportunistic vectors run through the node-queue load monitor, and can fail.
    let v = vector("testQueueLengthSort");
    assert_eq!(v.section, Section::Opportunistic);
    assert_eq!(run_vector(&v).outcome, Outcome::Pass);
    let v = mutated(
        "testQueueLengthSort",
        &["steps", "3", "expect_sorted"],
        json!(["h3:3", "h2:2", "h1:1", "h4:4"]),
    );
    assert!(fail_message(&v).starts_with("step 3: expected sorted"));
    let v = mutated(
        "testContainerQueuingLimit",
        &["steps", "1", "expect", "maxQueueLength"],
        json!(11),
    );
    assert_eq!(
        fail_message(&v),
        "step 1: expected maxQueueLength 11 got 10"
    );

    // A wrong container order in the unit vector.
    let v = mutated(
        "testContainerOrdering",
        &["expected_sorted_order"],
        json!(["rm2", "rm1", "rm3", "rm4", "rm5"]),
    );
    assert!(fail_message(&v).starts_with("expected order rm2 rm1"));

    // A refresh step whose first expectation is not the default.
    let v = mutated(
        "testRefreshPreemptionProperties",
        &["steps", "0", "expect", "monitoring_interval"],
        json!(4000),
    );
    assert_eq!(
        fail_message(&v),
        "expected monitoring_interval=4000 got monitoring_interval=3000 [step 1]"
    );

    // An unknown configuration key is a harness error, not a silent default.
    let v = mutated(
        "testDeadzone",
        &["phases", "0", "config_overrides", "no_such_key"],
        json!(1),
    );
    assert!(fail_message(&v).starts_with("harness error: unsupported config override"));

    // An expectation naming an app the scenario does not have.
    let v = mutated(
        "testIgnore",
        &["phases", "0", "expect_mark_for_preemption_events_per_app"],
        json!({"appZ": 0}),
    );
    assert!(fail_message(&v).contains("unknown app \"appZ\""));
}

/// These need the policy to produce the vectors' numbers; they pin the runner's comparison
/// and message format.
#[test]
fn runner_compares_counts_timelines_and_internal_figures() {
    let v = mutated(
        "testProportionalPreemption",
        &[
            "phases",
            "0",
            "expect_mark_for_preemption_events_per_app",
            "appA",
        ],
        json!(11),
    );
    assert_eq!(fail_message(&v), "expected MARK appA=11 got appA=10");

    let v = mutated(
        "testPerQueueDisablePreemption",
        &[
            "phases",
            "1",
            "expect_mark_for_preemption_events_per_app",
            "appB",
        ],
        json!(5),
    );
    assert_eq!(
        fail_message(&v),
        "expected MARK appB=5 appC=6 got appB=4 appC=6 [phase 2/2]"
    );

    let v = mutated(
        "testExpireKill",
        &["timeline", "2", "expect"],
        json!("cumulative ContainerPreemptEvents of all types = 21"),
    );
    assert!(fail_message(&v).starts_with("expected cumulative events=21 got cumulative events=20"));

    let v = mutated(
        "testPreemptionToBalanceEnabled",
        &["expect_ideal_assigned_after_run", "root.b"],
        json!(34),
    );
    assert_eq!(
        fail_message(&v),
        "expected root.b.idealAssigned=34 got root.b.idealAssigned=33"
    );

    let v = mutated(
        "testHierarchicalLarge3Levels",
        &[
            "intermediate_asserts",
            "root.queueA",
            "untouchableExtra_memory",
        ],
        json!(1),
    );
    assert_eq!(
        fail_message(&v),
        "expected root.queueA.untouchableExtra_memory=1 got root.queueA.untouchableExtra_memory=0"
    );

    let v = mutated(
        "testPreemptionForReservedContainerWhichHasAvailableResource",
        &["expect_mark_events_per_app_queue_node", "app1@root.a@n1"],
        json!(5),
    );
    assert_eq!(
        fail_message(&v),
        "expected MARK app1@root.a@n1=5 app1@root.a@n2=0 got app1@root.a@n1=4 app1@root.a@n2=0"
    );

    let v = mutated("testIgnore", &["matrix", "pending"], json!([10, 10, 0, 0]));
    assert!(fail_message(&v).starts_with("expected no ContainerPreemptEvent got 10"));
}

#[test]
fn all_non_partition_vectors_pass() {
    let f = file();
    let failures: Vec<String> = f
        .vectors()
        .filter(|v| !is_partition_vector(v))
        .map(run_vector)
        .filter(|r| r.outcome != Outcome::Pass)
        .map(|r| r.to_string())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The partition (node-label) vectors; together with the test above, every vector in the
/// file (the opportunistic ones included).
#[test]
fn all_partition_vectors_pass() {
    let f = file();
    let partition: Vec<&Vector> = f.vectors().filter(|v| is_partition_vector(v)).collect();
    assert_eq!(partition.len(), 9);
    let failures: Vec<String> = partition
        .into_iter()
        .map(run_vector)
        .filter(|r| r.outcome != Outcome::Pass)
        .map(|r| r.to_string())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// (c) the command
// ---------------------------------------------------------------------------------------------

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

#[test]
fn command_prints_one_line_per_vector_and_a_summary() {
    let path = vectors_path();
    let (code, out, err) = capsched(&["conformance", path.to_str().unwrap()]);
    let ids: Vec<String> = file().vectors().map(|v| v.id.clone()).collect();
    assert_eq!(ids.len(), 41);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), ids.len() + 1, "{out}{err}");
    let (mut pass, mut fail, mut skip) = (0, 0, 0);
    for (line, id) in lines.iter().zip(&ids) {
        if let Some(rest) = line.strip_prefix("PASS ") {
            assert!(rest == id || rest.starts_with(&format!("{id} (")), "{line}");
            pass += 1;
        } else if let Some(rest) = line.strip_prefix("FAIL ") {
            assert!(rest.starts_with(&format!("{id}: ")), "{line}");
            fail += 1;
        } else if let Some(rest) = line.strip_prefix("SKIP ") {
            assert!(rest.starts_with(&format!("{id}: ")), "{line}");
            skip += 1;
        } else {
            panic!("unexpected line {line:?}");
        }
    }
    for id in ["testContainerQueuingLimit", "testQueueLengthSort"] {
        assert!(lines.contains(&format!("PASS {id}").as_str()), "{out}");
    }
    assert_eq!(
        lines.last().unwrap(),
        &format!("{pass} passed, {fail} failed, {skip} skipped")
    );
    assert_eq!(code, if fail == 0 { 0 } else { 1 }, "{out}{err}");
}

#[test]
fn command_rejects_unreadable_and_malformed_files() {
    let dir = std::env::temp_dir().join(format!("capsched-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"string_vectors\": [{\"no_id\": 1}]}").unwrap();
    let (code, out, err) = capsched(&["conformance", bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("malformed vector file"), "{err}");
    assert_eq!(out.trim(), "0 passed, 0 failed, 0 skipped");
    let missing = dir.join("missing.json");
    let (code, _, err) = capsched(&["conformance", missing.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read"), "{err}");
    // An opportunistic vector with nothing to check is a harness error, not a pass.
    let empty = dir.join("opportunistic.json");
    std::fs::write(&empty, "{\"opportunistic_vectors\": [{\"id\": \"o1\"}]}").unwrap();
    let (code, out, _) = capsched(&["conformance", empty.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "FAIL o1: harness error: opportunistic vector without steps\n0 passed, 1 failed, 0 skipped\n"
    );
    // No file at all is a usage error.
    let (code, _, _) = capsched(&["conformance"]);
    assert_eq!(code, 2);
}

// ---------------------------------------------------------------------------------------------
// (d) intra-queue preemption: Hadoop's IntraQueue, IntraQueueUserLimit, IntraQueueWithDRF and
// IntraQueueFairOrdering tests (tests/data/conformance/intra-queue-vectors.json)
// ---------------------------------------------------------------------------------------------

/// A bundled vector file by name (tests/data/conformance/).
fn data_file(name: &str) -> VectorFile {
    VectorFile::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/conformance")
            .join(name),
    )
    .unwrap_or_else(|e| panic!("{name} loads: {e}"))
}

fn intra_file() -> VectorFile {
    data_file("intra-queue-vectors.json")
}

fn vector_in(f: &VectorFile, id: &str) -> Vector {
    f.vectors()
        .find(|v| v.id == id)
        .unwrap_or_else(|| panic!("no vector {id}"))
        .clone()
}

fn intra_vector(id: &str) -> Vector {
    vector_in(&intra_file(), id)
}

/// Runs every vector of `f`, expecting `count` of them, all passing.
fn assert_all_pass(f: &VectorFile, count: usize) {
    let results: Vec<_> = f.vectors().map(run_vector).collect();
    assert_eq!(results.len(), count);
    let failures: Vec<String> = results
        .iter()
        .filter(|r| r.outcome != Outcome::Pass)
        .map(|r| r.to_string())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every intra-queue vector passes: priority and user-limit preemption, DRF (strict and
/// relaxed, two and three resource types), node partitions and fair-ordered leaves.
#[test]
fn all_intra_queue_vectors_pass() {
    assert_all_pass(&intra_file(), 42);
}

/// The mock's users: every user of a leaf gets ceil(capacity / #users) (or / MULP), and its
/// usage is its apps' used; an app's pending sits in its label's partition.
#[test]
fn string_mock_users_limits_and_app_pending() {
    let input = StringInput::parse(
        "=100,true",
        "n1= res=100",
        "root(=[100 100 100 30 0]);-a(=[100 100 100 30 0])",
        "a\t(1,1,n1,,60,false,0,user1);a\t(1,1,n1,,40,false,0,user2);a\t(1,1,n1,,0,false,30,user3)",
    )
    .unwrap();
    let scn = harness_b::build(&input, &Overrides::default(), &base_settings()).unwrap();
    let users = &scn.snapshot.queues[1].users;
    let got: Vec<(&str, i64, i64)> = users
        .iter()
        .map(|u| (&*u.name, u.used[0].memory_mb(), u.limit[0].memory_mb()))
        .collect();
    // ceil(100 / 3) = 34.
    assert_eq!(
        got,
        [("user1", 60, 34), ("user2", 40, 34), ("user3", 0, 34)]
    );
    assert_eq!(scn.snapshot.apps[2].pending.as_slice(), [r(30, 1)]);
    // A third tab field (MULP 50) divides by 100 / 50 = 2 instead.
    let input = StringInput::parse(
        "=100,true",
        "n1= res=100",
        "root(=[100 100 100 30 0]);-a(=[100 100 100 30 0])",
        "a\t(1,1,n1,,60,false,0,user1)\t50;a\t(1,1,n1,,40,false,0,user2)\t50;a\t(1,1,n1,,0,false,30,user3)\t50",
    )
    .unwrap();
    let scn = harness_b::build(&input, &Overrides::default(), &base_settings()).unwrap();
    assert!(scn.snapshot.queues[1]
        .users
        .iter()
        .all(|u| u.limit[0] == r(50, 1)));
}

#[test]
fn the_runner_reads_intra_queue_expectations_and_settings() {
    // A wrong count fails with the usual message.
    let mut v = intra_vector("testSimpleIntraQueuePreemption");
    v.expect_mark_for_preemption_events_per_app
        .as_mut()
        .unwrap()
        .insert("app3".into(), json!(8));
    assert!(fail_message(&v).contains("app3=8"), "{}", fail_message(&v));
    // The same vector with intra-queue preemption off: nothing is taken inside queue b.
    let mut v = intra_vector("testSimpleIntraQueuePreemption");
    v.config_overrides.as_mut().unwrap().insert(
        "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled".into(),
        json!("false"),
    );
    assert!(
        fail_message(&v).contains("got app3=0 app4=0"),
        "{}",
        fail_message(&v)
    );
}

// ---------------------------------------------------------------------------------------------
// (e) queues with priorities: Hadoop's TestPreemptionForQueueWithPriorities
// (tests/data/conformance/queue-priority-vectors.json). They run the FIFO selector (and the
// balancing one) with priority-utilization ordering in the ideal assignment; none enables the
// queue-priority selector (P6.4).
// ---------------------------------------------------------------------------------------------

fn queue_priority_file() -> VectorFile {
    data_file("queue-priority-vectors.json")
}

#[test]
fn all_queue_priority_vectors_pass() {
    assert_all_pass(&queue_priority_file(), 10);
}

#[test]
fn queue_priorities_decide_those_outcomes() {
    // The same vector with every {priority=N} removed no longer matches Hadoop's counts.
    let mut v = vector_in(
        &queue_priority_file(),
        "testPreemptionForHighestPriorityUnderutilizedQueue",
    );
    let q = v.queues_config.take().unwrap();
    let mut stripped = String::new();
    let mut rest = q.as_str();
    while let Some(i) = rest.find("{priority=") {
        stripped.push_str(&rest[..i]);
        rest = &rest[i + rest[i..].find('}').unwrap() + 1..];
    }
    stripped.push_str(rest);
    assert_ne!(stripped, q);
    v.queues_config = Some(stripped);
    assert!(
        fail_message(&v).starts_with("expected MARK"),
        "{}",
        fail_message(&v)
    );
}

/// `TempQueuePerPartition.deductActuallyToBePreempted`: a container an earlier selector took
/// comes off the queue's target when the target is larger, then the whole-vector max with zero
/// applies — under DRF a negative component survives (<8,2> − <3,3> = <5,−1>).
#[test]
fn deducting_an_earlier_pick_keeps_yarns_whole_vector_max() {
    use capsched::preempt::{fifo, ideal};
    let input = StringInput::parse(
        "=100:100,true",
        "n1= res=100:100",
        "root(=[100:100 100:100 10:10 0:0 0]);-a(=[50:50 100:100 10:10 0:0 0]);-b(=[50:50 100:100 0:0 0:0 0])",
        "a\t(1,3:3,n1,,1,false)",
    )
    .unwrap();
    let ov = Overrides {
        calculator: capsched::resource::ResourceCalculator::new(CalculatorKind::Dominant, 2),
        ..Overrides::default()
    };
    let scn = harness_b::build(&input, &ov, &base_settings()).unwrap();
    let snap = &scn.snapshot;
    let mut temps = vec![ideal::temp_queues(snap, 0)];
    temps[0][1].actually_to_be_preempted = r(8, 2);
    let picked: capsched::preempt::idset::IdSet = snap.apps[0].live.iter().map(|c| c.id).collect();
    fifo::deduct_selected(snap, &mut temps, snap.calculator, snap.cluster, &picked);
    assert_eq!(temps[0][1].actually_to_be_preempted, r(5, -1));
}

/// The FIFO selector takes a queue's ignore-exclusivity containers newest first in
/// `ContainerId` order — the application's id, then the container's — not by the host-visible
/// handle, which is a slab slot and generation.
#[test]
fn ignore_exclusivity_containers_go_newest_application_first_whatever_the_handles() {
    let input = StringInput::parse(
        "=100,true;x=100,true",
        "n1=x;n2=",
        "root(=[100 100 100 100],x=[100 100 100 100]);-b(=[50 100 0 0],x=[100 100 40 30]);-c(=[50 100 2 0],x=[0 100 60 0])",
        "b\t(1,1,n1,x,40,false);c\t(1,1,n2,,1,false)(1,1,n1,,30,false);c\t(1,1,n2,,1,false)(1,1,n1,,30,false)",
    )
    .unwrap();
    let (settings, ov) = configure(&serde_json::Map::new()).unwrap();
    let mut scn = harness_b::build(&input, &ov, &settings).unwrap();
    // Hand out handles in the opposite order of the applications' ids.
    assert_eq!(scn.snapshot.apps.len(), 3);
    for (i, app) in scn.snapshot.apps.iter_mut().enumerate() {
        app.id = 100 - i as u64;
    }
    let events =
        capsched::preempt::policy::PreemptionPolicy::new(settings).edit_schedule(&scn.snapshot, 0);
    let per_app = |a: usize| events.iter().filter(|e| e.app == a).count();
    assert!(
        per_app(2) > 0,
        "app3 (the newer application) gives first: {events:?}"
    );
    assert_eq!(
        per_app(1),
        0,
        "app2 keeps its containers while app3 has enough"
    );
}

/// A vector's verdict, run on a thread with a deadline (a hang or a giant allocation is a
/// test failure, not a stuck run).
fn verdict_within(v: Vector) -> Outcome {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(run_vector(&v).outcome);
    });
    rx.recv_timeout(std::time::Duration::from_secs(30))
        .expect("the vector did not finish in time")
}

fn harness_error(v: Value) -> String {
    let file = VectorFile::parse(&json!({ "matrix_and_unit_vectors": [v] }).to_string()).unwrap();
    let vector = file.vectors().next().unwrap().clone();
    match verdict_within(vector) {
        Outcome::Fail(m) if m.starts_with("harness error: ") => m,
        other => panic!("expected a harness error, got {other:?}"),
    }
}

#[test]
fn sizes_read_from_a_vector_are_bounded() {
    let matrix = |subqueues: Value, apps: Value, used: Value| {
        json!({
            "id": "huge", "harness": "matrix",
            "matrix": {
                "abs_guaranteed": [100, 100], "max_capacity": [100, 100], "used": used,
                "pending": [0, 0], "reserved": [0, 0], "apps": apps,
                "request_granularity": [1, 1], "subqueues": subqueues
            }
        })
    };
    // A subqueues cell of 10^12 asked for a 6 GB stack before anything else.
    let m = harness_error(matrix(
        json!([1_000_000_000_000i64, 0]),
        json!([0, 1]),
        json!([100, 100]),
    ));
    assert!(
        m.contains("subqueues row announces 1000000000000 queue(s)"),
        "{m}"
    );
    let m = harness_error(matrix(
        json!([1, 0]),
        json!([0, 1_000_000_000i64]),
        json!([100, 100]),
    ));
    assert!(m.contains("at most 10000 per vector"), "{m}");
    // Containers: one app whose used value needs 10^9 containers of size 1.
    let m = harness_error(matrix(
        json!([1, 0]),
        json!([0, 1]),
        json!([1_000_000_000, 1_000_000_000]),
    ));
    assert!(m.contains("at most 1000000 per vector"), "{m}");
    // String harness: a repeat count of 2^31 − 1.
    let v = json!({
        "id": "huge-string", "harness": "string",
        "labelsConfig": "=100,true", "nodesConfig": "n1= res=100",
        "queuesConfig": "root(=[100 100 100 0 0]);-a(=[100 100 100 0 0])",
        "appsConfig": "a\t(1,1:1,n1,,2147483647,false)"
    });
    let file = VectorFile::parse(&json!({ "string_vectors": [v] }).to_string()).unwrap();
    let vector = file.vectors().next().unwrap().clone();
    match verdict_within(vector) {
        Outcome::Fail(m) => assert!(m.contains("2147483647 containers: at most 1000000"), "{m}"),
        other => panic!("{other:?}"),
    }
    // Phases, each a new snapshot.
    let mut v = matrix(json!([1, 0]), json!([0, 1]), json!([100, 100]));
    v["phases"] = json!(vec![json!({}); 65]);
    let m = harness_error(v);
    assert!(m.contains("65 phases: at most 64 per vector"), "{m}");
}
