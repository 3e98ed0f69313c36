//! A FIFO leaf's walk remembers which applications it passed over because their user was over
//! its limit (`WalkMarks`), so a heartbeat on a queue whose users sit at their limits does not
//! check each of them again (issue 18). The memory must never outlive what it stands for: a
//! user whose usage falls, a limit that grows with the cluster, a weight raised by a refresh
//! or a list of applications that changes must each be seen by the next heartbeat, as YARN's
//! walk, which checks every user afresh, sees them.

mod common;

use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::ids::{AppId, ContainerId, NodeId};
use common::cluster::{Cluster, GB};

/// One 100 % queue whose users are capped at 2 GB (`user-limit-factor` 0.125 of 16 GB), so
/// each gets 3 GB (YARN's check is "used > limit": at 2 GB a user may take one more). A
/// minimum user limit of 25 % allows user weights up to 4.
fn props(extra: &str) -> String {
    format!(
        "yarn.scheduler.capacity.root.queues=default\n\
         yarn.scheduler.capacity.root.default.capacity=100\n\
         yarn.scheduler.capacity.root.default.user-limit-factor=0.125\n\
         yarn.scheduler.capacity.root.default.minimum-user-limit-percent=25\n\
         yarn.scheduler.capacity.maximum-am-resource-percent=1\n{extra}"
    )
}

/// Four users (one application each, FIFO order u0..u3) at their limit on a 16 GB node: each
/// holds 3 GB and asks for more, 4 GB are free, and a heartbeat allocates nothing (which
/// marks every application).
struct AtTheirLimits {
    c: Cluster,
    node: NodeId,
    apps: Vec<AppId>,
    held: Vec<Vec<ContainerId>>,
}

fn at_their_limits(extra: &str) -> AtTheirLimits {
    let mut c = Cluster::new(&props(extra));
    let node = c.node("h0", "/r", 16 * GB, 16);
    let apps: Vec<AppId> = (0..4)
        .map(|i| {
            let app = c.unmanaged_app("default", &format!("u{i}"));
            c.ask(app, 1, GB, 100);
            app
        })
        .collect();
    while c.heartbeat(node) > 0 {}
    let mut held = Vec::new();
    for &app in &apps {
        held.push(
            c.allocate(app, vec![], vec![])
                .allocated
                .iter()
                .map(|a| a.id)
                .collect(),
        );
    }
    for i in 0..4 {
        assert_eq!(c.user_used_mb("default", &format!("u{i}")), 3 * GB);
    }
    // Blocked: two more heartbeats allocate nothing (the second on the walk's marks).
    assert_eq!(c.heartbeat(node), 0);
    assert_eq!(c.heartbeat(node), 0);
    AtTheirLimits {
        c,
        node,
        apps,
        held,
    }
}

fn used(c: &Cluster) -> Vec<i64> {
    (0..4)
        .map(|i| c.user_used_mb("default", &format!("u{i}")) / GB)
        .collect()
}

#[test]
fn a_user_whose_usage_falls_gets_the_next_container_and_the_others_stay_passed_over() {
    let mut s = at_their_limits("");
    for user in [2, 0, 3, 1, 2] {
        let id = s.held[user].remove(0);
        s.c.allocate(s.apps[user], vec![], vec![id]);
        assert_eq!(s.c.heartbeat(s.node), 1, "user u{user} is within its limit");
        assert_eq!(used(&s.c), vec![3, 3, 3, 3]);
        let got = s.c.allocate(s.apps[user], vec![], vec![]).allocated;
        assert_eq!(got.len(), 1, "u{user}'s own application got it");
        s.held[user].push(got[0].id);
        assert_eq!(s.c.heartbeat(s.node), 0);
    }
}

#[test]
fn a_limit_that_grows_with_the_cluster_lets_the_first_user_in_fifo_order_in() {
    let mut s = at_their_limits("");
    // 32 GB: every user's limit is 4 GB; the walk must not trust what it saw at 2 GB.
    let more = s.c.node("h1", "/r", 16 * GB, 16);
    assert_eq!(s.c.heartbeat(s.node), 1);
    assert_eq!(used(&s.c), vec![4, 3, 3, 3]);
    assert_eq!(s.c.heartbeat(more), 1);
    assert_eq!(used(&s.c), vec![5, 3, 3, 3]);
    assert_eq!(s.c.heartbeat(more), 1);
    assert_eq!(used(&s.c), vec![5, 4, 3, 3]);
}

#[test]
fn a_weight_raised_by_a_refresh_lets_that_user_in() {
    let mut s = at_their_limits("");
    let conf = CapacitySchedulerConfiguration::from_properties_str(&props(
        "yarn.scheduler.capacity.root.default.user-settings.u2.weight=2\n",
    ))
    .unwrap();
    s.c.cs.refresh_queues(s.c.now, Arc::new(conf)).unwrap();
    // u2's limit is now 4 GB: it alone may take two more.
    assert_eq!(s.c.heartbeat(s.node), 1);
    assert_eq!(s.c.heartbeat(s.node), 1);
    assert_eq!(s.c.heartbeat(s.node), 0);
    assert_eq!(used(&s.c), vec![3, 3, 5, 3]);
}

#[test]
fn an_application_that_joins_ahead_of_the_marked_ones_is_checked() {
    let mut s = at_their_limits("yarn.cluster.max-application-priority=10\n");
    // A higher-priority application of a new user goes to the head of the FIFO order: the
    // places of the marked applications move, so what was kept by place must not be read.
    let app = s.c.unmanaged_app("default", "u9");
    assert_eq!(s.c.cs.update_application_priority(app, 5).unwrap(), 5);
    s.c.ask(app, 1, GB, 100);
    assert_eq!(s.c.heartbeat(s.node), 1);
    assert_eq!(s.c.user_used_mb("default", "u9"), GB);
    // And one that leaves: u0's application goes, freeing 3 GB; the others stay blocked, u9
    // takes its share and no more.
    s.c.cs.remove_attempt(s.c.now, s.apps[0], false).unwrap();
    s.c.cs.remove_application(s.c.now, s.apps[0]).unwrap();
    s.c.check();
    let mut n = 0;
    while s.c.heartbeat(s.node) > 0 {
        n += 1;
    }
    assert_eq!(n, 2, "u9 goes from 1 GB to 3 GB");
    assert_eq!(s.c.user_used_mb("default", "u9"), 3 * GB);
    assert_eq!(used(&s.c)[1..], [3, 3, 3]);
}

#[test]
fn an_application_moved_by_a_new_priority_is_checked_at_its_new_place() {
    let mut s = at_their_limits("yarn.cluster.max-application-priority=10\n");
    // u2's application goes first: [u2, u0, u1, u3]. What was remembered by place (u0's
    // standing at place 0, u1's at 1, ...) now describes other applications.
    assert_eq!(s.c.cs.update_application_priority(s.apps[2], 9).unwrap(), 9);
    // u1 (now at place 2) frees a container: it alone is within its limit, and gets it back.
    let id = s.held[1].remove(0);
    s.c.allocate(s.apps[1], vec![], vec![id]);
    assert_eq!(used(&s.c), vec![3, 2, 3, 3]);
    assert_eq!(s.c.heartbeat(s.node), 1, "u1 is within its limit");
    assert_eq!(used(&s.c), vec![3, 3, 3, 3]);
}
