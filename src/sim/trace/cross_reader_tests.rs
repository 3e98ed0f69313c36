//! Tests across the readers: one reader's output through another, and every reader on every
//! sample. Above all the readers (each reader's own tests stay in its file).

use super::{
    nodes_from_jobs, nodes_from_sls_trace, parse_nodes, parse_rumen, parse_sls_jobs, parse_synth,
    parse_synth_nodes, SimDefaults,
};

const INPUT_SLS: &str = include_str!("../../../tests/data/sls/inputsls.json");

/// inputsls.json names node1, node3 and node2 on /default-rack.
#[test]
fn nodes_from_sls_jobs() {
    let d = SimDefaults::default();
    let jobs = parse_sls_jobs(INPUT_SLS, "inputsls.json", &d).unwrap();
    let nodes = nodes_from_jobs(&jobs, &d).unwrap();
    let names: Vec<&str> = nodes.iter().map(|n| n.host.as_str()).collect();
    assert_eq!(names, ["node1", "node3", "node2"]);
    assert!(nodes
        .iter()
        .all(|n| n.rack == "/default-rack" && n.memory_mb == 10240 && n.vcores == 10));
    assert_eq!(
        nodes_from_sls_trace(INPUT_SLS, "inputsls.json", &d).unwrap(),
        nodes
    );
}

/// Every reader on truncated samples and on other formats' samples: errors, never panics.
#[test]
fn no_panics_on_truncated_or_foreign_inputs() {
    let samples = [
        include_str!("../../../tests/data/sls/inputsls.json"),
        include_str!("../../../tests/data/sls/sls_dag.json"),
        include_str!("../../../tests/data/sls/nodes.json"),
        include_str!("../../../tests/data/sls/nodes-with-resources.json"),
        include_str!("../../../tests/data/sls/syn.json"),
        include_str!("../../../tests/data/sls/syn_generic.json"),
        include_str!("../../../tests/data/sls/syn_stream.json"),
        include_str!("../../../tests/data/sls/2jobs2min-rumen-jh.json"),
    ];
    let d = SimDefaults::default();
    for text in samples {
        // Cuts through the first 8000 bytes (the Rumen sample is large), and the whole.
        let span = text.len().min(8000);
        let cuts = (0..span)
            .step_by((span / 150).max(1))
            .filter(|i| text.is_char_boundary(*i));
        for cut in cuts.chain([text.len()]) {
            let t = &text[..cut];
            let _ = parse_sls_jobs(t, "x", &d);
            let _ = parse_rumen(t, "x", &d);
            let _ = parse_synth(t, "x", 1, &d);
            let _ = parse_nodes(t, "x", &d);
            let _ = nodes_from_sls_trace(t, "x", &d);
            let _ = parse_synth_nodes(t, "x", &d);
        }
    }
}
