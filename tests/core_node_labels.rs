//! Node labels at run time (issue 17, part 2): the cluster's labels and node mapping with the
//! label manager's words, request label expressions defaulted and refused as YARN does, usage
//! booked to the node's partition, allocation per partition (exclusive partitions serve only
//! asks that name them; a non-exclusive one lends idle room to default-partition asks after
//! they missed as many chances as the cluster has nodes, never to an AM), per-partition AM
//! limits, and a relabelled node's usage moved. Scenarios are Hadoop 3.3.6's
//! TestNodeLabelContainerAllocation, TestApplicationLimitsByPartition and
//! TestCapacitySchedulerNodeLabelUpdate (docs/SEMANTICS.md, "Node labels").

mod common;

use capsched::ids::{AppId, NodeId};
use capsched::records::ResourceRequest;
use capsched::resource::Resource;
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::SchedulerError;
use common::cluster::{Cluster, GB};

const P: &str = "yarn.scheduler.capacity.root";

/// TestNodeLabelContainerAllocation's `getConfigurationWithQueueLabels` (root x, y, z;
/// a → a1 on x; b → b1 on y, z; c → c1 on the default partition only).
fn cql(extra: &str) -> String {
    format!(
        "yarn.node-labels.enabled=true
{P}.queues=a,b,c
{P}.accessible-node-labels.x.capacity=100
{P}.accessible-node-labels.y.capacity=100
{P}.accessible-node-labels.z.capacity=100
{P}.a.capacity=10
{P}.a.maximum-capacity=15
{P}.a.accessible-node-labels=x
{P}.a.accessible-node-labels.x.capacity=100
{P}.a.queues=a1
{P}.a.a1.capacity=100
{P}.a.a1.maximum-capacity=100
{P}.a.a1.accessible-node-labels.x.capacity=100
{P}.b.capacity=20
{P}.b.accessible-node-labels=y,z
{P}.b.accessible-node-labels.y.capacity=100
{P}.b.accessible-node-labels.z.capacity=100
{P}.b.queues=b1
{P}.b.b1.capacity=100
{P}.b.b1.accessible-node-labels.y.capacity=100
{P}.b.b1.accessible-node-labels.z.capacity=100
{P}.c.capacity=70
{P}.c.maximum-capacity=70
{P}.c.accessible-node-labels=
{P}.c.queues=c1
{P}.c.c1.capacity=100
{P}.c.c1.maximum-capacity=100
{extra}"
    )
}

fn labels(c: &mut Cluster, spec: &[(&str, bool)]) {
    let l: Vec<(String, bool)> = spec.iter().map(|(n, e)| (n.to_string(), *e)).collect();
    c.cs.add_cluster_node_labels(&l).unwrap();
}

fn label_node(c: &mut Cluster, node: &str, label: &str) {
    let labels = if label.is_empty() {
        vec![]
    } else {
        vec![label.to_string()]
    };
    let now = c.now;
    c.cs.replace_labels_on_nodes(now, &[(node.to_string(), labels)])
        .unwrap();
    c.check();
}

fn submit(c: &mut Cluster, queue: &str, am_mb: i64, am_label: Option<&str>) -> AppId {
    let mut sub = AppSubmission::new(queue, "user");
    sub.am_node_label_expression = am_label.map(str::to_string);
    let app = c.cs.submit_application(c.now, &sub).unwrap();
    c.cs.add_attempt(
        c.now,
        app,
        AttemptSubmission::with_am(Resource::new(am_mb, 1)),
    )
    .unwrap();
    c.check();
    app
}

fn ask(c: &mut Cluster, app: AppId, priority: i32, mb: i64, n: i32, label: Option<&str>) {
    let mut r = ResourceRequest::any(priority, Resource::new(mb, 1), n);
    r.node_label_expression = label.map(str::to_string);
    c.allocate(app, vec![r], vec![]);
}

/// Containers of `app` on `node` (live ones, AM included).
fn on_node(c: &Cluster, app: AppId, node: NodeId) -> usize {
    c.cs.containers()
        .filter(|(_, k)| k.app == app && k.node == node && !k.is_reserved())
        .count()
}

fn used(c: &Cluster, queue: &str, label: &str) -> i64 {
    let q = c.cs.queue_tree().find(queue).unwrap();
    c.cs.queue_partition_usage(q, label).used.memory_mb()
}

/// Three 8000 MB nodes: h1 = x, h2 = y, h3 unlabelled; x and y exclusive.
fn three_nodes(conf: &str) -> (Cluster, NodeId, NodeId, NodeId) {
    let mut c = Cluster::new(conf);
    labels(&mut c, &[("x", true), ("y", true)]);
    label_node(&mut c, "h1", "x");
    label_node(&mut c, "h2", "y");
    let h1 = c.node("h1:1234", "/r", 8000, 8);
    let h2 = c.node("h2:1234", "/r", 8000, 8);
    let h3 = c.node("h3:1234", "/r", 8000, 8);
    (c, h1, h2, h3)
}

#[test]
fn containers_land_only_on_nodes_of_the_partition_asked_for() {
    // TestNodeLabelContainerAllocation.testContainerAllocateWithLabels.
    let (mut c, h1, h2, h3) = three_nodes(&cql(""));
    let app1 = submit(&mut c, "a1", 200, None);
    c.heartbeat(h3);
    assert_eq!(
        on_node(&c, app1, h3),
        1,
        "the AM asks for the default partition"
    );
    ask(&mut c, app1, 1, GB, 1, Some("x"));
    c.heartbeat(h2);
    c.heartbeat(h3);
    assert_eq!(on_node(&c, app1, h2) + on_node(&c, app1, h3), 1);
    c.heartbeat(h1);
    assert_eq!(on_node(&c, app1, h1), 1);
    // The headroom an AM hears sums the partitions it asked for (CapacityHeadroomProvider):
    // none left on the default one (a1 may hold 1024 MB there, its AM's), and on x
    // roundDown(8000 − 1024) = 6144 MB.
    let r = c.allocate(app1, vec![], vec![]);
    assert_eq!(r.headroom.memory_mb(), 6144);

    let app2 = submit(&mut c, "b1", 200, None);
    c.heartbeat(h3);
    ask(&mut c, app2, 1, GB, 1, Some("y"));
    c.heartbeat(h1);
    c.heartbeat(h3);
    assert_eq!(on_node(&c, app2, h1), 0);
    c.heartbeat(h2);
    assert_eq!(on_node(&c, app2, h2), 1);

    let app3 = submit(&mut c, "c1", 200, None);
    c.heartbeat(h3);
    ask(&mut c, app3, 1, GB, 1, None);
    c.heartbeat(h1);
    c.heartbeat(h2);
    assert_eq!(on_node(&c, app3, h1) + on_node(&c, app3, h2), 0);
    c.heartbeat(h3);
    assert_eq!(on_node(&c, app3, h3), 2);
    // Usage is booked to the node's partition, up the tree.
    assert_eq!(used(&c, "root.a.a1", "x"), GB);
    assert_eq!(used(&c, "root.a", "x"), GB);
    assert_eq!(used(&c, "root", "x"), GB);
    assert_eq!(used(&c, "root", "y"), GB);
    assert_eq!(used(&c, "root.a.a1", ""), GB);
}

#[test]
fn a_queue_default_label_sends_the_am_and_unlabelled_asks_to_its_partition() {
    // TestNodeLabelContainerAllocation.testContainerAllocationWithSingleUserLimits (CDQL).
    let conf = cql(&format!(
        "{P}.a.default-node-label-expression=x\n{P}.b.default-node-label-expression=y"
    ));
    let (mut c, h1, _h2, h3) = three_nodes(&conf);
    let app = submit(&mut c, "a1", 200, None);
    c.heartbeat(h3);
    assert_eq!(
        on_node(&c, app, h3),
        0,
        "the AM asks for x, the queue's default"
    );
    c.heartbeat(h1);
    assert_eq!(on_node(&c, app, h1), 1);
    // An explicit "" ask: a1 may hold 15% of the default partition's 8000 MB (one 1 GB
    // container), and no more.
    ask(&mut c, app, 1, GB, 1, Some(""));
    c.heartbeat(h3);
    assert_eq!(on_node(&c, app, h3), 1);
    ask(&mut c, app, 1, GB, 2, Some(""));
    c.heartbeat(h3);
    assert_eq!(on_node(&c, app, h3), 1, "a1's default-partition maximum");
    // Unlabelled asks take the queue's default, x.
    for _ in 0..6 {
        ask(&mut c, app, 2, GB, 1, None);
        c.heartbeat(h1);
    }
    assert_eq!(on_node(&c, app, h1), 7);
    assert_eq!(used(&c, "root.a.a1", "x"), 7 * GB);
}

/// TestNodeLabelContainerAllocation.testQueuesWithoutAccessUsingPartitionedNodes: x is
/// non-exclusive; b cannot access it.
fn sharing_conf() -> String {
    format!(
        "yarn.node-labels.enabled=true
{P}.queues=a,b
{P}.accessible-node-labels.x.capacity=100
{P}.a.capacity=50
{P}.a.accessible-node-labels=x
{P}.a.accessible-node-labels.x.capacity=100
{P}.b.capacity=50
{P}.b.accessible-node-labels=
{P}.b.user-limit-factor=5
"
    )
}

#[test]
fn default_asks_use_a_non_exclusive_partition_after_missing_one_chance_per_node() {
    let mut c = Cluster::new(&sharing_conf());
    labels(&mut c, &[("x", false), ("y", true)]);
    label_node(&mut c, "h1", "x");
    let h1 = c.node("h1:1234", "/r", 10 * GB, 10);
    let h2 = c.node("h2:1234", "/r", 10 * GB, 10);
    let app = submit(&mut c, "b", GB, None);
    c.heartbeat(h2);
    assert_eq!(on_node(&c, app, h2), 1, "the AM");
    ask(&mut c, app, 1, GB, 50, None);
    let mut waited = 0;
    for _ in 0..50 {
        c.heartbeat(h1);
        c.heartbeat(h2);
        if on_node(&c, app, h1) == 0 {
            waited += 1;
        }
    }
    assert_eq!(waited, 10, "Hadoop's test waits exactly 10 cycles");
    assert_eq!(on_node(&c, app, h1), 10);
    assert_eq!(on_node(&c, app, h2), 10);
    // b has no guarantee on x but used all of it: usage is the node's partition's.
    assert_eq!(used(&c, "root.b", "x"), 10 * GB);
    let ignore =
        c.cs.containers()
            .filter(|(_, k)| k.node == h1 && k.ignore_exclusivity)
            .count();
    assert_eq!(ignore, 10);
}

#[test]
fn lent_room_is_limited_by_the_whole_partition_not_the_queues_maximum() {
    // testQueueMaxCapacitiesWillNotBeHonoredWhenNotRespectingExclusivity.
    let conf = format!(
        "yarn.node-labels.enabled=true
{P}.queues=a,b
{P}.accessible-node-labels.x.capacity=100
{P}.a.capacity=50
{P}.a.accessible-node-labels=x
{P}.a.accessible-node-labels.x.capacity=50
{P}.a.accessible-node-labels.x.maximum-capacity=50
{P}.b.capacity=50
{P}.b.accessible-node-labels=x
{P}.b.accessible-node-labels.x.capacity=50
{P}.b.accessible-node-labels.x.maximum-capacity=50
"
    );
    let mut c = Cluster::new(&conf);
    labels(&mut c, &[("x", false)]);
    label_node(&mut c, "h1", "x");
    let h1 = c.node("h1:1234", "/r", 10 * GB, 10);
    let h2 = c.node("h2:1234", "/r", 10 * GB, 10);
    let app = submit(&mut c, "a", GB, None);
    c.heartbeat(h2);
    ask(&mut c, app, 1, GB, 10, None);
    for _ in 0..51 {
        c.heartbeat(h1);
    }
    assert_eq!(on_node(&c, app, h1), 10, "above a's 50% maximum on x");
    assert_eq!(used(&c, "root.a", "x"), 10 * GB);
    let now = c.now;
    c.cs.remove_application(now, app).unwrap();
    c.check();
    assert_eq!(used(&c, "root.a", "x"), 0);
}

#[test]
fn an_am_is_never_placed_on_lent_room() {
    // testAMContainerAllocationWillAlwaysBeExclusive: one non-exclusive x node only.
    let mut c = Cluster::new(&cql(""));
    labels(&mut c, &[("x", false), ("y", true)]);
    label_node(&mut c, "h1", "x");
    let h1 = c.node("h1:1234", "/r", 8 * GB, 8);
    let app = submit(&mut c, "b1", GB, None);
    for _ in 0..50 {
        c.heartbeat(h1);
    }
    assert_eq!(on_node(&c, app, h1), 0);
}

#[test]
fn an_exclusive_partition_never_lends_its_room() {
    let mut c = Cluster::new(&sharing_conf());
    labels(&mut c, &[("x", true)]);
    label_node(&mut c, "h1", "x");
    let h1 = c.node("h1:1234", "/r", 10 * GB, 10);
    let h2 = c.node("h2:1234", "/r", 2 * GB, 2);
    let app = submit(&mut c, "b", GB, None);
    c.heartbeat(h2);
    ask(&mut c, app, 1, GB, 5, None);
    for _ in 0..20 {
        c.heartbeat(h1);
        c.heartbeat(h2);
    }
    assert_eq!(on_node(&c, app, h1), 0);
    assert_eq!(on_node(&c, app, h2), 2);
}

#[test]
fn am_limits_are_per_am_partition() {
    // TestApplicationLimitsByPartition.testAMResourceLimitWithLabels: a1's AM share on x is
    // 0.2 of 10 GB (2 GB); c1's is 0.2 of its 7 GB, normalised up to 2 GB.
    let conf = cql(&format!(
        "{P}.a.a1.accessible-node-labels.x.maximum-am-resource-percent=0.2\n{P}.c.c1.maximum-am-resource-percent=0.2"
    ));
    let mut c = Cluster::new(&conf);
    labels(&mut c, &[("x", true), ("y", true)]);
    label_node(&mut c, "h1", "x");
    label_node(&mut c, "h2", "y");
    for h in ["h1:1234", "h2:1234", "h3:1234"] {
        c.node(h, "/r", 10 * GB, 10);
    }
    let active = |c: &Cluster, q: &str| {
        let id = c.cs.queue_tree().find(q).unwrap();
        let l = c.cs.leaf(id).unwrap();
        (l.active.len(), l.pending.len())
    };
    for _ in 0..3 {
        submit(&mut c, "a1", GB, Some("x"));
    }
    assert_eq!(active(&c, "root.a.a1"), (2, 1));
    let a1 = c.cs.queue_tree().find("root.a.a1").unwrap();
    assert_eq!(
        c.cs.queue_partition_usage(a1, "x").am_used,
        Resource::new(2 * GB, 2)
    );
    assert_eq!(c.cs.queue_partition_usage(a1, "").am_used, Resource::ZERO);
    let apps: Vec<AppId> = (0..3).map(|_| submit(&mut c, "c1", GB, None)).collect();
    assert_eq!(active(&c, "root.c.c1"), (2, 1));
    let now = c.now;
    c.cs.remove_application(now, apps[0]).unwrap();
    c.check();
    assert_eq!(active(&c, "root.c.c1"), (2, 0));
}

#[test]
fn a_relabelled_node_moves_its_containers_usage() {
    // TestCapacitySchedulerNodeLabelUpdate.testResourceUsageWhenNodeUpdatesPartition and its
    // AM variant.
    let conf = format!(
        "yarn.node-labels.enabled=true
{P}.queues=a
{P}.accessible-node-labels.x.capacity=100
{P}.accessible-node-labels.y.capacity=100
{P}.accessible-node-labels.z.capacity=100
{P}.a.capacity=100
{P}.a.accessible-node-labels=x,y,z
{P}.a.accessible-node-labels.x.capacity=100
{P}.a.accessible-node-labels.y.capacity=100
{P}.a.accessible-node-labels.z.capacity=100
"
    );
    let mut c = Cluster::new(&conf);
    labels(&mut c, &[("x", true), ("y", true), ("z", true)]);
    label_node(&mut c, "h1", "x");
    label_node(&mut c, "h2", "y");
    let h1 = c.node("h1:1234", "/r", 8000, 8);
    c.node("h2:1234", "/r", 8000, 8);
    let h3 = c.node("h3:1234", "/r", 8000, 8);
    let app = submit(&mut c, "a", GB, None);
    c.heartbeat(h3);
    ask(&mut c, app, 1, GB, 1, Some("x"));
    c.heartbeat(h1);
    assert_eq!((used(&c, "root.a", "x"), used(&c, "root.a", "")), (GB, GB));

    label_node(&mut c, "h1", "z");
    assert_eq!(
        (
            used(&c, "root.a", "x"),
            used(&c, "root.a", "z"),
            used(&c, "root", "z")
        ),
        (0, GB, GB)
    );
    let a = c.cs.queue_tree().find("root.a").unwrap();
    assert_eq!(c.cs.user_partition_usage(a, "user", "z").0.memory_mb(), GB);
    label_node(&mut c, "h1", "y");
    assert_eq!((used(&c, "root.a", "z"), used(&c, "root.a", "y")), (0, GB));
    label_node(&mut c, "h1", "");
    assert_eq!(
        (used(&c, "root.a", "y"), used(&c, "root.a", "")),
        (0, 2 * GB)
    );
    assert_eq!(c.cs.node_partition(h1), Some(""));

    // The AM's usage follows its node too.
    let app2 = submit(&mut c, "a", GB, Some("x"));
    label_node(&mut c, "h1", "x");
    c.heartbeat(h1);
    assert_eq!(c.cs.queue_partition_usage(a, "x").am_used.memory_mb(), GB);
    let _ = app2;
    label_node(&mut c, "h1", "z");
    assert_eq!(c.cs.queue_partition_usage(a, "x").am_used.memory_mb(), 0);
    assert_eq!(c.cs.queue_partition_usage(a, "z").am_used.memory_mb(), GB);
}

#[test]
fn requests_are_refused_with_yarns_words() {
    let (mut c, _h1, _h2, h3) = three_nodes(&cql(""));
    let app = submit(&mut c, "a1", GB, None);
    c.heartbeat(h3);
    let refuse = |c: &mut Cluster, r: ResourceRequest| -> String {
        let req = capsched::records::AllocateRequest {
            response_id: *c.response_ids.get(&app).unwrap_or(&0),
            asks: vec![r],
            ..Default::default()
        };
        match c.cs.allocate(c.now, app, &req) {
            Err(SchedulerError::InvalidResourceRequest(m)) => m,
            other => panic!("not refused: {other:?}"),
        }
    };
    let one = |name: &str| ResourceRequest::at(1, name, Resource::new(GB, 1), 1);
    assert_eq!(
        refuse(&mut c, one("h1").with_label("x")),
        "Invalid resource request, queue=a1 specified node label expression in a resource request has resource name = h1"
    );
    assert_eq!(
        refuse(&mut c, one("*").with_label("x&&y")),
        "Invalid resource request, queue=a1 specified more than one node label in a node label expression, node label expression = x&&y"
    );
    assert_eq!(
        refuse(&mut c, one("*").with_label("y")),
        "Invalid resource request, queue=a1 doesn't have permission to access all labels in resource request. labelExpression of resource request=y. Queue labels=x"
    );
    // z is configured on b but the cluster has no such label.
    let b = submit(&mut c, "b1", GB, None);
    let req = capsched::records::AllocateRequest {
        asks: vec![one("*").with_label("z")],
        ..Default::default()
    };
    assert_eq!(
        c.cs.allocate(c.now, b, &req).unwrap_err().to_string(),
        "Invalid label resource request, cluster do not contain , label= z"
    );
    // A submission whose AM asks for an inaccessible label is rejected.
    let mut sub = AppSubmission::new("c1", "user");
    sub.node_label_expression = Some("x".into());
    assert_eq!(
        c.cs.submit_application(c.now, &sub).unwrap_err().message,
        "Invalid resource request, queue=c1 doesn't have permission to access all labels in resource request. labelExpression of resource request=x. Queue labels="
    );
    c.check();
}

#[test]
fn labels_need_yarn_node_labels_enabled() {
    let mut c = Cluster::new(&format!("{P}.queues=default\n{P}.default.capacity=100\n"));
    let err =
        c.cs.add_cluster_node_labels(&[("x".to_string(), true)])
            .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Node-label-based scheduling is disabled. Please check yarn.node-labels.enabled"
    );
    let h = c.node("h1:1234", "/r", 8 * GB, 8);
    let app = submit(&mut c, "default", GB, None);
    c.heartbeat(h);
    let req = capsched::records::AllocateRequest {
        response_id: *c.response_ids.get(&app).unwrap_or(&0),
        asks: vec![ResourceRequest::any(1, Resource::new(GB, 1), 1).with_label("x")],
        ..Default::default()
    };
    assert_eq!(
        c.cs.allocate(c.now, app, &req).unwrap_err().to_string(),
        "Invalid resource request, node label not enabled but request contains label expression"
    );
}

#[test]
fn a_label_in_use_by_a_queue_cannot_be_removed_and_removal_unlabels_nodes() {
    let (mut c, h1, _h2, h3) = three_nodes(&cql(""));
    let now = c.now;
    assert_eq!(
        c.cs
            .remove_cluster_node_labels(now, &["x".to_string()])
            .unwrap_err()
            .to_string(),
        "Cannot remove label=x, because queue=root.a is using this label. Please remove label on queue before remove the label"
    );
    // c1 (the default partition) runs a container on h3; the default partition grows when a
    // labelled node loses its label.
    let app = submit(&mut c, "c1", GB, None);
    c.heartbeat(h3);
    let c1 = c.cs.queue_tree().find("root.c.c1").unwrap();
    let before = c.cs.queue_tree().queue(c1).capacities.effective_max;
    label_node(&mut c, "h1", "");
    assert_eq!(c.cs.node_partition(h1), Some(""));
    let after = c.cs.queue_tree().queue(c1).capacities.effective_max;
    assert!(after.memory_mb() > before.memory_mb(), "{before} → {after}");
    let _ = app;
}

/// A container the policy killed: its node, application, and whether it was placed on lent
/// room.
type Killed = (NodeId, AppId, bool);

/// Preemption rounds every 3 s for three minutes, the nodes heartbeating between them; what
/// was killed.
fn preempt_for_three_minutes(c: &mut Cluster, nodes: &[NodeId]) -> Vec<Killed> {
    use capsched::preempt::policy::{PreemptionEventKind, PreemptionPolicy};
    let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
    let mut killed = Vec::new();
    for _ in 0..60 {
        c.now += 3_000;
        let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
        for e in &events {
            if e.kind == PreemptionEventKind::MarkKillable {
                let id = capsched::ids::ContainerId::from_u64(e.container);
                if let Some(k) = c.cs.container(id) {
                    killed.push((k.node, k.app, k.ignore_exclusivity));
                }
            }
        }
        c.cs.apply_preemption(c.now, &events);
        c.check();
        for &n in nodes {
            c.heartbeat(n);
        }
    }
    killed
}

const PREEMPTION: &str = "yarn.resourcemanager.scheduler.monitor.enable=true
yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill=15000
yarn.scheduler.capacity.maximum-am-resource-percent=1
";

#[test]
fn preemption_frees_an_exclusive_partition_for_the_queue_guaranteed_there() {
    // a holds all of x (16 GB); b, guaranteed half of x, asks for 8 GB there. Only a's x
    // containers are preempted, and b gets its half; the default partition is untouched.
    let conf = format!(
        "yarn.node-labels.enabled=true
{PREEMPTION}{P}.queues=a,b
{P}.accessible-node-labels.x.capacity=100
{P}.a.capacity=50
{P}.a.user-limit-factor=2
{P}.a.accessible-node-labels=x
{P}.a.accessible-node-labels.x.capacity=50
{P}.a.accessible-node-labels.x.maximum-capacity=100
{P}.b.capacity=50
{P}.b.user-limit-factor=2
{P}.b.accessible-node-labels=x
{P}.b.accessible-node-labels.x.capacity=50
{P}.b.accessible-node-labels.x.maximum-capacity=100
"
    );
    let mut c = Cluster::new(&conf);
    labels(&mut c, &[("x", true)]);
    label_node(&mut c, "h1", "x");
    let h0 = c.node("h0:1", "/r", 8 * GB, 8);
    let h1 = c.node("h1:1", "/r", 16 * GB, 16);
    let app1 = submit(&mut c, "a", GB, None);
    c.heartbeat(h0);
    ask(&mut c, app1, 1, GB, 16, Some("x"));
    for _ in 0..16 {
        c.heartbeat(h1);
    }
    assert_eq!(used(&c, "root.a", "x"), 16 * GB);
    let app2 = submit(&mut c, "b", GB, None);
    c.heartbeat(h0);
    ask(&mut c, app2, 1, GB, 8, Some("x"));
    let killed = preempt_for_three_minutes(&mut c, &[h0, h1]);
    assert_eq!(used(&c, "root.b", "x"), 8 * GB);
    assert_eq!(used(&c, "root.a", "x"), 8 * GB);
    assert_eq!(killed.len(), 8);
    assert!(killed.iter().all(|k| *k == (h1, app1, false)), "{killed:?}");
    assert_eq!(
        used(&c, "root.a", ""),
        GB,
        "a's AM on the default partition stays"
    );
    assert_eq!(on_node(&c, app2, h1), 8);
}

#[test]
fn lent_room_is_taken_back_first_from_containers_placed_by_ignoring_exclusivity() {
    // b cannot access x but filled it through lending; a, guaranteed all of x, asks for 8 GB.
    let conf = format!(
        "yarn.node-labels.enabled=true
{PREEMPTION}{P}.queues=a,b
{P}.accessible-node-labels.x.capacity=100
{P}.a.capacity=50
{P}.a.accessible-node-labels=x
{P}.a.accessible-node-labels.x.capacity=100
{P}.b.capacity=50
{P}.b.maximum-capacity=100
{P}.b.user-limit-factor=10
{P}.b.accessible-node-labels=
"
    );
    let mut c = Cluster::new(&conf);
    labels(&mut c, &[("x", false)]);
    label_node(&mut c, "h1", "x");
    let h0 = c.node("h0:1", "/r", 4 * GB, 4);
    let h1 = c.node("h1:1", "/r", 16 * GB, 16);
    let app1 = submit(&mut c, "b", GB, None);
    c.heartbeat(h0);
    ask(&mut c, app1, 1, GB, 19, None);
    for _ in 0..40 {
        c.heartbeat(h1);
        c.heartbeat(h0);
    }
    assert_eq!(used(&c, "root.b", "x"), 16 * GB);
    assert_eq!(used(&c, "root.b", ""), 4 * GB);
    // a's AM goes on the default partition: b's room there is preempted only if a is below
    // its default guarantee (2 GB of 4): the AM itself is 1 GB.
    let app2 = submit(&mut c, "a", GB, Some(""));
    ask(&mut c, app2, 1, GB, 8, Some("x"));
    let killed = preempt_for_three_minutes(&mut c, &[h0, h1]);
    assert_eq!(used(&c, "root.a", "x"), 8 * GB);
    assert_eq!(on_node(&c, app2, h1), 8);
    // Only b's containers on lent room went; its default-partition ones stay.
    let lent = killed.iter().filter(|k| **k == (h1, app1, true)).count();
    assert_eq!(lent, 8, "{killed:?}");
}

#[test]
fn a_move_needs_a_queue_that_may_use_every_partition_the_app_asked_for() {
    // TestCapacitySchedulerNodeLabelUpdate.testMoveApplicationWithLabel's message.
    let conf = format!(
        "yarn.node-labels.enabled=true
{P}.queues=a
{P}.accessible-node-labels.x.capacity=100
{P}.accessible-node-labels.y.capacity=100
{P}.a.capacity=100
{P}.a.accessible-node-labels=x,y
{P}.a.accessible-node-labels.x.capacity=100
{P}.a.accessible-node-labels.y.capacity=100
{P}.a.queues=a1,a2
{P}.a.a1.capacity=50
{P}.a.a1.accessible-node-labels=x
{P}.a.a1.accessible-node-labels.x.capacity=100
{P}.a.a2.capacity=50
{P}.a.a2.accessible-node-labels=y
{P}.a.a2.accessible-node-labels.y.capacity=100
"
    );
    let mut c = Cluster::new(&conf);
    labels(&mut c, &[("x", true), ("y", true)]);
    let h = c.node("h0:1", "/r", 8 * GB, 8);
    let app = submit(&mut c, "a1", GB, None);
    c.heartbeat(h);
    ask(&mut c, app, 1, GB, 1, Some("x"));
    // Even with the ask withdrawn, the partition stays among those the app asked for.
    ask(&mut c, app, 1, GB, 0, Some("x"));
    let now = c.now;
    assert_eq!(
        c.cs.move_application(now, app, "a2").unwrap_err().to_string(),
        "Specified queue=root.a.a2 can't satisfy following apps label expressions =[x] accessible node labels =[y]"
    );
    c.check();
}

#[test]
fn queues_are_offered_a_partition_access_first_then_by_usage_there() {
    // TestNodeLabelContainerAllocation.testOrderOfAllocationOnPartitions, step by step: x is
    // non-exclusive; a (x 30%) and b (x 70%) may use it, c and d may not.
    let conf = format!(
        "yarn.node-labels.enabled=true
{P}.queues=a,b,c,d
{P}.accessible-node-labels.x.capacity=100
{P}.a.capacity=25
{P}.a.accessible-node-labels=x
{P}.a.accessible-node-labels.x.capacity=30
{P}.b.capacity=25
{P}.b.accessible-node-labels=x
{P}.b.accessible-node-labels.x.capacity=70
{P}.c.capacity=25
{P}.c.accessible-node-labels=
{P}.d.capacity=25
{P}.d.accessible-node-labels=
"
    );
    let mut c = Cluster::new(&conf);
    labels(&mut c, &[("x", false)]);
    label_node(&mut c, "h1", "x");
    let h1 = c.node("h1:1234", "/r", 10 * GB, 10);
    let h2 = c.node("h2:1234", "/r", 10 * GB, 10);
    let apps: Vec<AppId> = ["a", "b", "c", "d"]
        .iter()
        .map(|q| {
            let app = submit(&mut c, q, GB, None);
            c.heartbeat(h2);
            app
        })
        .collect();
    let (a, b, cq, d) = (apps[0], apps[1], apps[2], apps[3]);
    let on_h1 = |c: &Cluster| -> Vec<usize> { apps.iter().map(|&x| on_node(c, x, h1)).collect() };
    let hb = |c: &mut Cluster, n: usize| {
        for _ in 0..n {
            c.heartbeat(h1);
        }
    };
    // 1. Both unused on x: the larger guarantee there (b, 0.7) goes first.
    ask(&mut c, a, 1, GB, 1, Some("x"));
    ask(&mut c, b, 1, GB, 1, Some("x"));
    hb(&mut c, 1);
    assert_eq!(on_h1(&c), vec![0, 1, 0, 0]);
    // 2. a uses less of its x guarantee (0 < 1/7).
    ask(&mut c, b, 1, GB, 1, Some("x"));
    hb(&mut c, 1);
    assert_eq!(on_h1(&c), vec![1, 1, 0, 0]);
    // 3. The same key now asks for the default partition (MockAM asks at one priority; the
    //    key's outstanding x ask is replaced): lent room, b (1/7 used) before a (1/3), each
    //    after its second chance.
    ask(&mut c, a, 1, GB, 1, Some(""));
    ask(&mut c, b, 1, GB, 1, Some(""));
    hb(&mut c, 2);
    assert_eq!(on_h1(&c), vec![1, 2, 0, 0]);
    // 4.
    hb(&mut c, 2);
    assert_eq!(on_h1(&c), vec![2, 2, 0, 0]);
    // 5. b may use x, so it goes before c and d.
    ask(&mut c, b, 1, GB, 1, Some(""));
    ask(&mut c, cq, 1, GB, 2, Some(""));
    ask(&mut c, d, 1, GB, 2, Some(""));
    hb(&mut c, 2);
    assert_eq!(on_h1(&c), vec![2, 3, 0, 0]);
    // 6. c and d tie: configuration order.
    hb(&mut c, 1);
    assert_eq!(on_h1(&c), vec![2, 3, 1, 0]);
    // 7. d has used less of x (0 < 0.1).
    hb(&mut c, 1);
    assert_eq!(on_h1(&c), vec![2, 3, 1, 1]);
    // 8. A tie again; c's count of chances is not reset by allocations on labelled nodes.
    hb(&mut c, 1);
    assert_eq!(on_h1(&c), vec![2, 3, 2, 1]);
}

#[test]
fn a_parents_maximum_on_a_partition_caps_its_children_together() {
    // TestNodeLabelContainerAllocation.testParentQueueMaxCapsAreRespected: a may hold 50% of
    // the 24 GB x node; a1 holds 9 GB there, so a2 (AM 2 GB) gets at most one more 2 GB
    // container... none, as the cap is reached at 12 GB.
    let conf = format!(
        "yarn.node-labels.enabled=true
{P}.queues=a,b
{P}.accessible-node-labels.x.capacity=100
{P}.a.capacity=50
{P}.a.accessible-node-labels=x
{P}.a.accessible-node-labels.x.capacity=50
{P}.a.accessible-node-labels.x.maximum-capacity=50
{P}.a.queues=a1,a2
{P}.a.a1.capacity=50
{P}.a.a1.accessible-node-labels.x.capacity=50
{P}.a.a1.accessible-node-labels.x.maximum-capacity=100
{P}.a.a1.user-limit-factor=100
{P}.a.a1.maximum-am-resource-percent=1
{P}.a.a2.capacity=50
{P}.a.a2.accessible-node-labels.x.capacity=50
{P}.a.a2.accessible-node-labels.x.maximum-capacity=100
{P}.a.a2.user-limit-factor=100
{P}.a.a2.maximum-am-resource-percent=1
{P}.b.capacity=50
{P}.b.accessible-node-labels=x
{P}.b.accessible-node-labels.x.capacity=50
"
    );
    let mut c = Cluster::new(&conf);
    labels(&mut c, &[("x", true)]);
    label_node(&mut c, "h1", "x");
    let h1 = c.node("h1:1234", "/r", 24 * GB, 24);
    let a1 = submit(&mut c, "a1", GB, Some("x"));
    c.heartbeat(h1);
    ask(&mut c, a1, 1, 4 * GB, 2, Some("x"));
    for _ in 0..2 {
        c.heartbeat(h1);
    }
    assert_eq!(used(&c, "root.a.a1", "x"), 9 * GB);
    let a2 = submit(&mut c, "a2", 2 * GB, Some("x"));
    c.heartbeat(h1);
    assert_eq!(on_node(&c, a2, h1), 1, "the AM: 11 GB of a's 12");
    ask(&mut c, a2, 1, 2 * GB, 2, Some("x"));
    for _ in 0..10 {
        c.heartbeat(h1);
    }
    assert_eq!(on_node(&c, a2, h1), 1, "a's 50% of x is reached");
    assert!(used(&c, "root.a", "x") <= 12 * GB);
}

/// (usedCapacity, absoluteUsedCapacity) of `queue` in the partition named `label`.
fn used_caps(c: &Cluster, queue: &str, label: &str) -> (f32, f32) {
    let t = c.cs.queue_tree();
    let q = t.find(queue).unwrap();
    let used = c.cs.queue_partition_usage(q, label).used;
    if label.is_empty() {
        (t.used_capacity(q), t.absolute_used_capacity(q))
    } else {
        t.used_capacities_in(q, label, used)
    }
}

fn assert_caps(c: &Cluster, queue: &str, label: &str, want: (f32, f32)) {
    let got = used_caps(c, queue, label);
    assert!(
        (got.0 - want.0).abs() < 1e-4 && (got.1 - want.1).abs() < 1e-4,
        "{queue} on {label:?}: {got:?}, want {want:?}"
    );
}

#[test]
fn used_capacities_per_partition_follow_usage_nodes_and_refreshes() {
    // TestNodeLabelContainerAllocation.testQueueUsedCapacitiesUpdate, all six steps.
    let conf = |a: u32, b: u32| {
        format!(
            "yarn.node-labels.enabled=true
{P}.queues=a,b
{P}.accessible-node-labels.x.capacity=100
{P}.a.capacity={a}
{P}.a.accessible-node-labels=x
{P}.a.accessible-node-labels.x.capacity={a}
{P}.a.queues=a1,a2
{P}.a.a1.capacity=50
{P}.a.a1.accessible-node-labels=x
{P}.a.a1.accessible-node-labels.x.capacity=50
{P}.a.a2.capacity=50
{P}.a.a2.accessible-node-labels=x
{P}.a.a2.accessible-node-labels.x.capacity=50
{P}.b.capacity={b}
{P}.b.accessible-node-labels=x
{P}.b.accessible-node-labels.x.capacity={b}
"
        )
    };
    let mut c = Cluster::new(&conf(50, 50));
    labels(&mut c, &[("x", false)]);
    label_node(&mut c, "h1", "x");
    label_node(&mut c, "h3", "x");
    let h1 = c.node("h1:1234", "/r", 10 * GB, 10);
    let h2 = c.node("h2:1234", "/r", 10 * GB, 10);
    let app1 = submit(&mut c, "a1", GB, None);
    c.heartbeat(h2);
    // 1.
    ask(&mut c, app1, 1, GB, 1, Some(""));
    for _ in 0..10 {
        c.heartbeat(h2);
    }
    assert_caps(&c, "root.a.a1", "x", (0.0, 0.0));
    assert_caps(&c, "root.a.a1", "", (0.8, 0.2));
    assert_caps(&c, "root.a", "", (0.4, 0.2));
    assert_caps(&c, "root", "", (0.2, 0.2));
    // 2.
    ask(&mut c, app1, 1, GB, 2, Some("x"));
    for _ in 0..10 {
        c.heartbeat(h1);
    }
    assert_caps(&c, "root.a.a1", "x", (0.8, 0.2));
    assert_caps(&c, "root.a", "x", (0.4, 0.2));
    assert_caps(&c, "root", "x", (0.2, 0.2));
    // 3.
    let app2 = submit(&mut c, "a2", GB, None);
    c.heartbeat(h2);
    ask(&mut c, app2, 1, GB, 1, Some("x"));
    c.heartbeat(h1);
    assert_caps(&c, "root.a.a2", "x", (0.4, 0.1));
    assert_caps(&c, "root.a", "x", (0.6, 0.3));
    assert_caps(&c, "root.a", "", (0.6, 0.3));
    assert_caps(&c, "root", "x", (0.3, 0.3));
    assert_caps(&c, "root", "", (0.3, 0.3));
    // 4. Two more nodes, one per partition: every figure halves.
    c.node("h3:1234", "/r", 10 * GB, 10);
    c.node("h4:1234", "/r", 10 * GB, 10);
    assert_caps(&c, "root.a.a1", "x", (0.4, 0.1));
    assert_caps(&c, "root.a.a1", "", (0.4, 0.1));
    assert_caps(&c, "root.a", "x", (0.3, 0.15));
    assert_caps(&c, "root.a.a2", "x", (0.2, 0.05));
    assert_caps(&c, "root", "", (0.15, 0.15));
    // 5. a takes everything, b nothing.
    let now = c.now;
    let new = capsched::config::CapacitySchedulerConfiguration::from_properties_str(&conf(100, 0))
        .unwrap();
    c.cs.refresh_queues(now, std::sync::Arc::new(new)).unwrap();
    c.check();
    assert_caps(&c, "root.a.a1", "x", (0.2, 0.1));
    assert_caps(&c, "root.a.a1", "", (0.2, 0.1));
    assert_caps(&c, "root.a", "x", (0.15, 0.15));
    assert_caps(&c, "root.a.a2", "x", (0.1, 0.05));
    assert_caps(&c, "root.b", "x", (0.0, 0.0));
    // 6. app1's three task containers released.
    let tasks: Vec<_> =
        c.cs.containers()
            .filter(|(_, k)| k.app == app1 && !k.is_am)
            .map(|(id, _)| id)
            .collect();
    assert_eq!(tasks.len(), 3);
    c.allocate(app1, vec![], tasks);
    assert_caps(&c, "root.a.a1", "x", (0.0, 0.0));
    assert_caps(&c, "root.a.a1", "", (0.1, 0.05));
    assert_caps(&c, "root.a", "x", (0.05, 0.05));
    assert_caps(&c, "root.a", "", (0.1, 0.1));
    assert_caps(&c, "root", "x", (0.05, 0.05));
    assert_caps(&c, "root", "", (0.1, 0.1));
}

/// Seeded random events over a labelled cluster — submissions with and without AM labels,
/// asks for every partition (refusals included), heartbeats, relabelled nodes, releases,
/// moves, removals, nodes lost and back, labels added and removed, preemption rounds — with
/// every invariant (per partition) checked after each step.
#[test]
fn random_events_on_a_labelled_cluster_keep_every_invariant() {
    use capsched::preempt::policy::PreemptionPolicy;
    use capsched::scheduler::nodes::NodeSpec;
    use common::rng::SplitMix;
    let conf = format!(
        "yarn.node-labels.enabled=true
{PREEMPTION}{P}.queues=a,b,c
{P}.accessible-node-labels.x.capacity=100
{P}.accessible-node-labels.y.capacity=100
{P}.a.capacity=40
{P}.a.maximum-capacity=100
{P}.a.user-limit-factor=3
{P}.a.accessible-node-labels=x
{P}.a.accessible-node-labels.x.capacity=60
{P}.b.capacity=30
{P}.b.accessible-node-labels=x,y
{P}.b.default-node-label-expression=y
{P}.b.accessible-node-labels.x.capacity=40
{P}.b.accessible-node-labels.y.capacity=100
{P}.b.queues=b1,b2
{P}.b.b1.capacity=50
{P}.b.b1.accessible-node-labels.x.capacity=50
{P}.b.b1.accessible-node-labels.y.capacity=50
{P}.b.b2.capacity=50
{P}.b.b2.accessible-node-labels.x.capacity=50
{P}.b.b2.accessible-node-labels.y.capacity=50
{P}.c.capacity=30
{P}.c.accessible-node-labels=
"
    );
    let leaves = ["a", "b1", "b2", "c"];
    let label_choices = [None, Some(""), Some("x"), Some("y")];
    let node_labels = ["", "x", "y", "z"];
    // What the runs went through, so the test cannot pass by exercising nothing: containers
    // seen on x, on y, on lent room, and preemption kills.
    let (mut seen_x, mut seen_y, mut seen_lent) = (0u64, 0u64, 0u64);
    for seed in 1..=12u64 {
        eprintln!("seed {seed}");
        let mut rng = SplitMix(seed);
        let mut c = Cluster::new(&conf);
        labels(&mut c, &[("x", false), ("y", true)]);
        let mut nodes: Vec<Option<NodeId>> = Vec::new();
        for i in 0..5 {
            let host = format!("h{i}");
            label_node(&mut c, &host, node_labels[(i % 3) as usize]);
            nodes.push(Some(c.node(&format!("{host}:1"), "/r", 8 * GB, 8)));
        }
        let mut apps: Vec<AppId> = Vec::new();
        let mut policy = PreemptionPolicy::new(c.cs.configuration().preemption().clone());
        for _ in 0..1500 {
            c.now += 100;
            match rng.below(12) {
                0 => {
                    let q = leaves[rng.below(4) as usize];
                    let mut sub = AppSubmission::new(q, &format!("u{}", rng.below(3)));
                    sub.am_node_label_expression =
                        label_choices[rng.below(4) as usize].map(str::to_string);
                    if let Ok(app) = c.cs.submit_application(c.now, &sub) {
                        let am = AttemptSubmission::with_am(Resource::new(GB, 1));
                        c.cs.add_attempt(c.now, app, am).unwrap();
                        apps.push(app);
                    }
                }
                1 | 2 if !apps.is_empty() => {
                    let app = apps[rng.below(apps.len() as u64) as usize];
                    let mut r = ResourceRequest::any(
                        1 + rng.below(3) as i32,
                        Resource::new(GB * (1 + rng.below(2) as i64), 1),
                        rng.below(6) as i32,
                    );
                    r.node_label_expression =
                        label_choices[rng.below(4) as usize].map(str::to_string);
                    let req = capsched::records::AllocateRequest {
                        response_id: *c.response_ids.get(&app).unwrap_or(&0),
                        asks: vec![r],
                        ..Default::default()
                    };
                    if let Ok(r) = c.cs.allocate(c.now, app, &req) {
                        c.response_ids.insert(app, r.response_id);
                    }
                }
                3 if !apps.is_empty() => {
                    let app = apps[rng.below(apps.len() as u64) as usize];
                    let mine: Vec<_> =
                        c.cs.containers()
                            .filter(|(_, k)| k.app == app && !k.is_am && !k.is_reserved())
                            .map(|(id, _)| id)
                            .take(2)
                            .collect();
                    c.allocate(app, vec![], mine);
                }
                4 => {
                    let i = rng.below(nodes.len() as u64) as usize;
                    let label = node_labels[rng.below(4) as usize];
                    let now = c.now;
                    // z only while it is a cluster label; refused otherwise.
                    let known = c.cs.cluster_node_labels().iter().any(|(n, _)| n == label);
                    let to = if label.is_empty() {
                        vec![]
                    } else {
                        vec![label.to_string()]
                    };
                    let r = c.cs.replace_labels_on_nodes(now, &[(format!("h{i}"), to)]);
                    assert_eq!(r.is_err(), !label.is_empty() && !known, "{r:?}");
                }
                5 if apps.len() > 2 => {
                    let i = rng.below(apps.len() as u64) as usize;
                    let app = apps.swap_remove(i);
                    c.cs.remove_application(c.now, app).unwrap();
                }
                6 if !apps.is_empty() => {
                    let app = apps[rng.below(apps.len() as u64) as usize];
                    let to = leaves[rng.below(4) as usize];
                    let _ = c.cs.move_application(c.now, app, to);
                }
                7 => {
                    let i = rng.below(nodes.len() as u64) as usize;
                    match nodes[i] {
                        Some(n) if rng.chance(30) => {
                            c.cs.remove_node(c.now, n).unwrap();
                            nodes[i] = None;
                        }
                        None => {
                            let spec =
                                NodeSpec::new(&format!("h{i}:1"), "/r", Resource::new(8 * GB, 8));
                            nodes[i] = Some(c.cs.add_node(c.now, &spec).unwrap());
                        }
                        _ => {}
                    }
                }
                8 => {
                    let events = policy.edit_schedule(&c.cs.preemption_snapshot(), c.now);
                    c.cs.apply_preemption(c.now, &events);
                }
                9 => {
                    // A label no queue lists comes and goes, taking its nodes' usage back.
                    let now = c.now;
                    if c.cs.cluster_node_labels().iter().any(|(n, _)| n == "z") {
                        c.cs.remove_cluster_node_labels(now, &["z".to_string()])
                            .unwrap();
                    } else {
                        labels(&mut c, &[("z", false)]);
                        let i = rng.below(nodes.len() as u64);
                        let now = c.now;
                        c.cs.replace_labels_on_nodes(
                            now,
                            &[(format!("h{i}"), vec!["z".to_string()])],
                        )
                        .unwrap();
                    }
                }
                _ => {
                    let live: Vec<NodeId> = nodes.iter().flatten().copied().collect();
                    if !live.is_empty() {
                        let n = live[rng.below(live.len() as u64) as usize];
                        c.heartbeat(n);
                    }
                }
            }
            c.check();
            seen_x += (used(&c, "root", "x") > 0) as u64;
            seen_y += (used(&c, "root", "y") > 0) as u64;
            seen_lent += c.cs.containers().any(|(_, k)| k.ignore_exclusivity) as u64;
        }
    }
    eprintln!("steps with usage on x {seen_x}, on y {seen_y}, with lent room used {seen_lent}");
    assert!(seen_x > 1000 && seen_y > 1000 && seen_lent > 100);
}

#[test]
fn an_exclusive_enforced_partition_belongs_to_its_applications() {
    // yarn.node-labels.exclusive-enforced-partitions (SchedulerUtils.enforcePartitionExclusivity,
    // TestSchedulerUtils.testEnforcePartitionExclusivity): an ask for x from an app not
    // labelled x goes to the app's label (none: the default partition); every ask of an app
    // labelled x is for x.
    let conf = cql("yarn.node-labels.exclusive-enforced-partitions=x");
    let (mut c, h1, _h2, h3) = three_nodes(&conf);
    let outsider = submit(&mut c, "a1", GB, None);
    c.heartbeat(h3);
    ask(&mut c, outsider, 1, GB, 1, Some("x"));
    c.heartbeat(h1);
    assert_eq!(
        on_node(&c, outsider, h1),
        0,
        "x is not this app's partition"
    );
    let a1 = c.cs.queue_tree().find("root.a.a1").unwrap();
    assert_eq!(c.cs.queue_partition_usage(a1, "").pending.memory_mb(), GB);

    let mut sub = AppSubmission::new("a1", "user");
    sub.node_label_expression = Some("x".into());
    let member = c.cs.submit_application(c.now, &sub).unwrap();
    c.cs.add_attempt(
        c.now,
        member,
        AttemptSubmission::with_am(Resource::new(GB, 1)),
    )
    .unwrap();
    c.heartbeat(h1);
    assert_eq!(on_node(&c, member, h1), 1, "its AM asks for x");
    ask(&mut c, member, 2, GB, 1, Some(""));
    c.heartbeat(h3);
    c.heartbeat(h1);
    assert_eq!(
        on_node(&c, member, h1),
        2,
        "even an explicit \"\" ask is for x"
    );
}

#[test]
fn a_reservation_is_booked_to_its_nodes_partition_and_released_with_the_ask() {
    // TestNodeLabelContainerAllocation.testContainerReservationWithLabels: a1's default label
    // is x; h1 and h3 are x, h2 is y, 8 GB each.
    let conf = cql(&format!("{P}.a.default-node-label-expression=x"));
    let mut c = Cluster::new(&conf);
    labels(&mut c, &[("x", true), ("y", true), ("z", true)]);
    label_node(&mut c, "h1", "x");
    label_node(&mut c, "h2", "y");
    label_node(&mut c, "h3", "x");
    let h1 = c.node("h1:1234", "/r", 8 * GB, 8);
    c.node("h2:1234", "/r", 8 * GB, 8);
    c.node("h3:1234", "/r", 8 * GB, 8);
    let app = submit(&mut c, "a1", GB, None);
    c.heartbeat(h1);
    ask(&mut c, app, 1, 4 * GB, 2, None);
    // The first heartbeat allocates, the second reserves the rest of h1.
    c.heartbeat(h1);
    c.heartbeat(h1);
    assert_eq!(on_node(&c, app, h1), 2);
    let root = c.cs.queue_tree().find("root").unwrap();
    let a1 = c.cs.queue_tree().find("root.a.a1").unwrap();
    let (r, l) = (
        c.cs.queue_partition_usage(root, "x"),
        c.cs.queue_partition_usage(a1, "x"),
    );
    assert_eq!(
        (r.used.memory_mb(), r.reserved.memory_mb()),
        (9 * GB, 4 * GB)
    );
    assert_eq!(l.reserved.memory_mb(), 4 * GB);
    // The ask withdrawn, the next heartbeat drops the reservation.
    ask(&mut c, app, 1, 4 * GB, 0, None);
    c.heartbeat(h1);
    let r = c.cs.queue_partition_usage(root, "x");
    assert_eq!((r.used.memory_mb(), r.reserved.memory_mb()), (5 * GB, 0));
    assert_eq!(c.cs.queue_partition_usage(a1, "x").reserved, Resource::ZERO);
}

#[test]
fn continue_looking_unreserves_within_a_partition() {
    // TestNodeLabelContainerAllocation.testContainerReservationContinueLookingWithLabels:
    // h1 and h2 are x (8 GB each), a1 may hold all 16 GB of x. Used/reserved on x go
    // 2/0 → 7/0 → 12/0 → 15/3 → 15/0.
    let mut c = Cluster::new(&cql(""));
    labels(&mut c, &[("x", true)]);
    label_node(&mut c, "h1", "x");
    label_node(&mut c, "h2", "x");
    let h1 = c.node("h1:1234", "/r", 8 * GB, 8);
    let h2 = c.node("h2:1234", "/r", 8 * GB, 8);
    let app = submit(&mut c, "a1", 2 * GB, Some("x"));
    let root = c.cs.queue_tree().find("root").unwrap();
    let x = |c: &Cluster| {
        let u = c.cs.queue_partition_usage(root, "x");
        (u.used.memory_mb() / GB, u.reserved.memory_mb() / GB)
    };
    c.heartbeat(h1);
    assert_eq!(x(&c), (2, 0));
    ask(&mut c, app, 5, 5 * GB, 2, Some("x"));
    c.heartbeat(h1);
    assert_eq!(x(&c), (7, 0));
    c.heartbeat(h2);
    assert_eq!(x(&c), (12, 0));
    assert_eq!((on_node(&c, app, h1), on_node(&c, app, h2)), (2, 1));
    ask(&mut c, app, 10, 3 * GB, 2, Some("x"));
    c.heartbeat(h1);
    assert_eq!(x(&c), (15, 3), "a reducer reserved on h1");
    // On h2 a reducer fits; a1 would then exceed all of x, so the reservation on h1 goes.
    c.heartbeat(h2);
    assert_eq!(x(&c), (15, 0));
    assert_eq!((on_node(&c, app, h1), on_node(&c, app, h2)), (2, 2));
}

#[test]
fn am_limits_per_partition_normalise_up_as_in_hadoops_arithmetic() {
    // TestApplicationLimitsByPartition.testAMResourceLimitForMultipleApplications on
    // getComplexConfigurationWithQueueLabels: a1's AM share on y is 0.25 of its 10 GB there
    // (2.5 GB, normalised up to 3 GB); b1's 0.15 of its 5 GB default-partition limit (768 MB,
    // normalised up to 1 GB).
    let conf = format!(
        "yarn.node-labels.enabled=true
{P}.queues=a,b
{P}.accessible-node-labels.x.capacity=100
{P}.accessible-node-labels.y.capacity=100
{P}.accessible-node-labels.z.capacity=100
{P}.a.capacity=10
{P}.a.maximum-capacity=10
{P}.a.accessible-node-labels=x,y
{P}.a.accessible-node-labels.x.capacity=100
{P}.a.accessible-node-labels.y.capacity=50
{P}.a.queues=a1
{P}.a.a1.capacity=100
{P}.a.a1.maximum-capacity=100
{P}.a.a1.accessible-node-labels=x,y
{P}.a.a1.default-node-label-expression=x
{P}.a.a1.accessible-node-labels.x.capacity=100
{P}.a.a1.accessible-node-labels.y.capacity=100
{P}.a.a1.accessible-node-labels.y.maximum-am-resource-percent=0.25
{P}.b.capacity=90
{P}.b.maximum-capacity=100
{P}.b.accessible-node-labels=y,z
{P}.b.accessible-node-labels.y.capacity=50
{P}.b.accessible-node-labels.z.capacity=100
{P}.b.queues=b1,b2
{P}.b.b1.capacity=50
{P}.b.b1.maximum-capacity=50
{P}.b.b1.accessible-node-labels=
{P}.b.b1.maximum-am-resource-percent=0.15
{P}.b.b2.capacity=50
{P}.b.b2.maximum-capacity=50
{P}.b.b2.accessible-node-labels=y,z
{P}.b.b2.accessible-node-labels.y.capacity=100
{P}.b.b2.accessible-node-labels.z.capacity=100
"
    );
    let mut c = Cluster::new(&conf);
    labels(&mut c, &[("x", true), ("y", true), ("z", true)]);
    for (h, l) in [("h1", "x"), ("h2", "y"), ("h3", "y"), ("h4", "z")] {
        label_node(&mut c, h, l);
    }
    for h in ["h1", "h2", "h3", "h4", "h5"] {
        c.node(&format!("{h}:1234"), "/r", 10 * GB, 10);
    }
    let counts = |c: &Cluster, q: &str| {
        let l = c.cs.leaf(c.cs.queue_tree().find(q).unwrap()).unwrap();
        (l.active.len(), l.pending.len())
    };
    submit(&mut c, "a1", 2 * GB, Some("y"));
    submit(&mut c, "a1", GB, Some("y"));
    submit(&mut c, "a1", GB, Some("y"));
    assert_eq!(counts(&c, "root.a.a1"), (2, 1));
    submit(&mut c, "b1", GB, None);
    submit(&mut c, "b1", GB, None);
    assert_eq!(counts(&c, "root.b.b1"), (1, 1));
}

#[test]
fn recovered_containers_are_booked_to_their_nodes_partitions() {
    // TestWorkPreservingRMRestartForNodeLabel.testWorkPreservingRestartForNodeLabel, in the
    // core: after an RM restart the labels are known again before the NodeManagers register;
    // each reports a 1 GB container of the recovered application, booked to its node's
    // partition up the tree.
    use capsched::records::{ContainerReport, SchedulerKey};
    use capsched::scheduler::nodes::NodeSpec;
    let mut c = Cluster::new(&cql(""));
    labels(&mut c, &[("x", true), ("y", true)]);
    label_node(&mut c, "h1", "x");
    label_node(&mut c, "h2", "y");
    let mut sub = AppSubmission::new("a1", "user");
    sub.recovering = true;
    let app = c.cs.submit_application(0, &sub).unwrap();
    let mut attempt = AttemptSubmission::with_am(Resource::new(GB, 1));
    attempt.recovering = true;
    c.cs.add_attempt(0, app, attempt).unwrap();
    for (i, (host, is_am)) in [("h3:1", true), ("h1:1", false), ("h2:1", false)]
        .into_iter()
        .enumerate()
    {
        let mut spec = NodeSpec::new(host, "/r", Resource::new(8 * GB, 8));
        spec.containers.push(ContainerReport {
            app,
            resource: Resource::new(GB, 1),
            key: SchedulerKey {
                priority: if is_am { 0 } else { 1 },
                allocation_request_id: 0,
            },
            container_id: 1 + i as i64,
            is_am,
        });
        c.cs.add_node(0, &spec).unwrap();
        c.check();
    }
    for q in ["root", "root.a", "root.a.a1"] {
        assert_eq!(
            (used(&c, q, ""), used(&c, q, "x"), used(&c, q, "y")),
            (GB, GB, GB),
            "{q}"
        );
    }
}
