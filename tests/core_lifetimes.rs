//! Application lifetimes (issue 17, part 4): the queues' `maximum-application-lifetime` and
//! `default-application-lifetime` as YARN 3.3's AbstractCSQueue derives them, the lifetime an
//! application gets (`checkAndGetApplicationLifetime`), and the kill when it ends
//! (RMAppLifetimeMonitor), through the core, the C ABI and the simulator.

use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::records::{SchedulerNotice, LIFETIME_EXPIRED};
use capsched::scheduler::apps::AppSubmission;
use capsched::scheduler::CapacityScheduler;

fn conf(extra: &str) -> Result<CapacitySchedulerConfiguration, String> {
    CapacitySchedulerConfiguration::from_properties_str(&format!(
        "yarn.scheduler.capacity.root.queues=p,b
yarn.scheduler.capacity.root.p.capacity=50
yarn.scheduler.capacity.root.b.capacity=50
yarn.scheduler.capacity.root.p.queues=a1,a2
yarn.scheduler.capacity.root.p.a1.capacity=50
yarn.scheduler.capacity.root.p.a2.capacity=50
{extra}"
    ))
    .map_err(|e| e.to_string())
}

fn lifetimes(c: &CapacitySchedulerConfiguration, path: &str) -> (i64, i64) {
    let l = c.queue(path).unwrap().lifetimes;
    (l.maximum, l.default)
}

#[test]
fn lifetimes_are_inherited_as_abstract_cs_queue_derives_them() {
    // Nothing set: no lifetimes anywhere.
    let c = conf("").unwrap();
    assert_eq!(lifetimes(&c, "root.p.a1"), (-1, -1));
    // A parent's maximum and default reach its leaves; a leaf's own maximum of 0 means none
    // (and its default then follows the rule: the parent's default only within its maximum).
    let c = conf(
        "yarn.scheduler.capacity.root.p.maximum-application-lifetime=100
yarn.scheduler.capacity.root.p.default-application-lifetime=50
yarn.scheduler.capacity.root.p.a2.maximum-application-lifetime=0",
    )
    .unwrap();
    assert_eq!(lifetimes(&c, "root.p"), (100, 50));
    assert_eq!(lifetimes(&c, "root.p.a1"), (100, 50));
    assert_eq!(lifetimes(&c, "root.p.a2"), (0, 0));
    assert_eq!(lifetimes(&c, "root.b"), (-1, -1));
    // A maximum alone: the default is the maximum.
    let c = conf("yarn.scheduler.capacity.root.b.maximum-application-lifetime=30").unwrap();
    assert_eq!(lifetimes(&c, "root.b"), (30, 30));
    // A parent's default above a leaf's own maximum: the leaf's maximum.
    let c = conf(
        "yarn.scheduler.capacity.root.p.default-application-lifetime=50
yarn.scheduler.capacity.root.p.a1.maximum-application-lifetime=20",
    )
    .unwrap();
    assert_eq!(lifetimes(&c, "root.p.a1"), (20, 20));
    assert_eq!(lifetimes(&c, "root.p.a2"), (-1, -1));
    // A default above the queue's maximum is refused with YARN's words.
    let err = conf(
        "yarn.scheduler.capacity.root.b.maximum-application-lifetime=100
yarn.scheduler.capacity.root.b.default-application-lifetime=200",
    )
    .unwrap_err();
    assert!(
        err.contains("Default lifetime 200 can't exceed maximum lifetime 100"),
        "{err}"
    );
}

#[test]
fn an_application_gets_its_queues_lifetime_and_is_told_once_when_it_ends() {
    let c = conf(
        "yarn.scheduler.capacity.root.b.maximum-application-lifetime=100
yarn.scheduler.capacity.root.b.default-application-lifetime=10",
    )
    .unwrap();
    // checkAndGetApplicationLifetime.
    let l = c.queue("root.b").unwrap().lifetimes;
    assert_eq!(
        (l.granted(-1), l.granted(0), l.granted(60), l.granted(500)),
        (10, 10, 60, 100)
    );
    let none = c.queue("root.p.a1").unwrap().lifetimes;
    assert_eq!((none.granted(0), none.granted(500)), (-1, 500));

    let mut cs = CapacityScheduler::new(Arc::new(c), 1, 1);
    cs.record_notices(true);
    let asked = cs
        .submit_application(
            1_000,
            &AppSubmission {
                lifetime_s: Some(500),
                ..AppSubmission::new("b", "alice")
            },
        )
        .unwrap();
    let default = cs
        .submit_application(1_000, &AppSubmission::new("b", "bob"))
        .unwrap();
    let removed = cs
        .submit_application(1_000, &AppSubmission::new("b", "carol"))
        .unwrap();
    let unlimited = cs
        .submit_application(1_000, &AppSubmission::new("a1", "dave"))
        .unwrap();
    cs.remove_application(2_000, removed).unwrap();
    cs.take_notices();
    // bob's default of 10 s ends at 11 s; alice's 500 s are capped at the maximum, 100 s.
    assert!(cs.expire_lifetimes(10_999).is_empty());
    assert_eq!(cs.expire_lifetimes(11_000), vec![default]);
    assert!(cs.expire_lifetimes(50_000).is_empty(), "told once");
    assert_eq!(cs.expire_lifetimes(101_000), vec![asked]);
    assert!(cs.expire_lifetimes(i64::MAX).is_empty());
    assert!(matches!(
        cs.take_notices().as_slice(),
        [
            SchedulerNotice::AppLifetimeExpired { app: a },
            SchedulerNotice::AppLifetimeExpired { app: b }
        ] if *a == default && *b == asked
    ));
    assert!(cs.application(unlimited).is_some());
    assert_eq!(
        LIFETIME_EXPIRED,
        "Application is killed by ResourceManager as it has exceeded the lifetime period."
    );
}

#[test]
fn a_recovered_application_gets_no_lifetime_from_the_engine() {
    // The RM keeps the original deadline (from the first submission); a fresh one counted
    // from the restart would kill the application early.
    let c = conf("yarn.scheduler.capacity.root.b.default-application-lifetime=10").unwrap();
    let mut cs = CapacityScheduler::new(Arc::new(c), 1, 1);
    let recovered = cs
        .submit_application(
            1_000,
            &AppSubmission {
                recovering: true,
                lifetime_s: Some(5),
                ..AppSubmission::new("b", "alice")
            },
        )
        .unwrap();
    assert!(cs.expire_lifetimes(i64::MAX).is_empty());
    assert!(cs.application(recovered).is_some());
}
