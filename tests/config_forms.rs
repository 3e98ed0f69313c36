//! The XML and properties forms of one configuration give the same tree; `${var}`
//! substitution feeds the typed values.

mod common;
use capsched::config::CapacitySchedulerConfiguration;
use common::*;

fn pairs() -> Vec<(&'static str, &'static str)> {
    vec![
        ("root.queues", "prod,dev"),
        ("root.prod.capacity", "70"),
        ("root.prod.maximum-capacity", "90"),
        ("root.prod.queues", "etl,adhoc"),
        ("root.prod.etl.capacity", "60"),
        ("root.prod.etl.minimum-user-limit-percent", "25"),
        ("root.prod.etl.user-limit-factor", "2"),
        ("root.prod.etl.acl_submit_applications", "alice,bob etl"),
        ("root.prod.adhoc.capacity", "40"),
        ("root.prod.adhoc.ordering-policy", "fair"),
        ("root.prod.adhoc.state", "STOPPED"),
        ("root.dev.capacity", "30"),
        ("root.dev.maximum-am-resource-percent", "0.5"),
        ("root.dev.maximum-applications", "50"),
        ("maximum-am-resource-percent", "0.2"),
        ("node-locality-delay", "20"),
        ("yarn.scheduler.minimum-allocation-mb", "512"),
    ]
}

#[test]
fn xml_and_properties_give_the_same_configuration() {
    let from_props = CapacitySchedulerConfiguration::from_properties_str(&props(&pairs())).unwrap();
    let from_xml = CapacitySchedulerConfiguration::from_xml_str(&xml(&pairs())).unwrap();
    assert_eq!(from_props.queues(), from_xml.queues());
    assert_eq!(from_props.settings(), from_xml.settings());
    assert_eq!(from_props.preemption(), from_xml.preemption());
    let raw_p: Vec<_> = from_props.configuration().iter_raw().collect();
    let raw_x: Vec<_> = from_xml.configuration().iter_raw().collect();
    assert_eq!(raw_p, raw_x);
    let etl = from_xml.queue("root.prod.etl").unwrap();
    assert!(etl
        .acl_submit_applications
        .is_user_allowed("carol", &["etl"]));
    assert_eq!(etl.leaf.as_ref().unwrap().user_limit_percent, 25.0);
    assert_eq!(from_xml.settings().node_locality_delay, 20);
    assert_eq!(from_xml.settings().minimum_allocation.memory_mb(), 512);
}

#[test]
fn the_hadoop_sample_capacity_scheduler_xml_parses() {
    // tests/data/sls/capacity-scheduler.xml: Hadoop's SLS sample (Apache License 2.0).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/sls/capacity-scheduler.xml");
    let c = CapacitySchedulerConfiguration::from_file(&path).unwrap();
    assert!(c.queues().len() > 1);
}

#[test]
fn variables_are_substituted_before_typing() {
    let text = "\
yarn.scheduler.capacity.root.queues=a,b
share=25
yarn.scheduler.capacity.root.a.capacity=${share}
yarn.scheduler.capacity.root.b.capacity=75
";
    let c = CapacitySchedulerConfiguration::from_properties_str(text).unwrap();
    assert_eq!(
        c.queue("root.a").unwrap().capacity,
        capsched::config::CapacityValue::Percent(0.25)
    );
}

#[test]
fn acls_default_to_open_root_and_closed_children() {
    let c = CapacitySchedulerConfiguration::from_properties_str(&props(&pairs())).unwrap();
    assert!(c
        .queue("root")
        .unwrap()
        .acl_submit_applications
        .is_all_allowed());
    let dev = c.queue("root.dev").unwrap();
    assert!(!dev.acl_submit_applications.is_user_allowed("anyone", &[]));
    assert!(!c.settings().acl_enabled);
}

#[test]
fn queue_ordering_policy_is_inherited_by_child_parents() {
    let c = ok(&[
        ("root.queues", "p"),
        ("root.p.capacity", "100"),
        ("root.ordering-policy", "priority-utilization"),
        ("root.p.queues", "x"),
        ("root.p.x.capacity", "100"),
    ]);
    assert_eq!(
        c.queue("root.p").unwrap().queue_ordering_policy,
        Some(capsched::config::QueueOrderingPolicy::PriorityUtilization)
    );
}

#[test]
fn global_defaults_are_yarns() {
    let c = ok(&[("root.queues", "a"), ("root.a.capacity", "100")]);
    let s = c.settings();
    assert_eq!(s.maximum_applications, 10000);
    assert_eq!(s.maximum_am_resource_percent, 0.1);
    assert_eq!(s.node_locality_delay, 40);
    assert_eq!(s.rack_locality_additional_delay, -1);
    assert!(s.rack_locality_full_reset);
    assert!(s.multiple_assignments_enabled);
    assert_eq!(s.maximum_container_assignments, 100);
    assert_eq!(s.maximum_offswitch_assignments, 1);
    assert!(s.reservations_continue_look_all_nodes);
    assert!(!s.async_scheduling.enabled);
    assert_eq!(s.async_scheduling.interval_ms, 100);
    assert_eq!(
        s.minimum_allocation,
        capsched::resource::Resource::new(1024, 1)
    );
    assert_eq!(
        s.maximum_allocation,
        capsched::resource::Resource::new(8192, 4)
    );
    assert_eq!(
        s.resource_calculator.kind(),
        capsched::resource::CalculatorKind::Default
    );
    let a = c.queue("root.a").unwrap().leaf.clone().unwrap();
    assert_eq!(
        (
            a.user_limit_percent,
            a.user_limit_factor,
            a.maximum_applications
        ),
        (100.0, 1.0, -1)
    );
    assert_eq!(a.maximum_am_resource_percent, 0.1);
    let p = c.preemption();
    assert!(!p.monitor_enabled);
    assert_eq!(
        (p.monitoring_interval_ms, p.max_wait_before_kill_ms),
        (3000, 15000)
    );
    assert_eq!(
        (
            p.total_preemption_per_round,
            p.max_ignored_over_capacity,
            p.natural_termination_factor
        ),
        (0.1, 0.1, 0.2)
    );
}

#[test]
fn offswitch_assignments_below_one_become_one() {
    let c = ok(&[
        ("root.queues", "a"),
        ("root.a.capacity", "100"),
        ("per-node-heartbeat.maximum-offswitch-assignments", "0"),
    ]);
    assert_eq!(c.settings().maximum_offswitch_assignments, 1);
}

#[test]
fn preemption_keys_are_parsed_and_kept() {
    let c = ok(&[
        ("root.queues", "a"),
        ("root.a.capacity", "100"),
        ("root.a.disable_preemption", "true"),
        ("yarn.resourcemanager.scheduler.monitor.enable", "true"),
        ("yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor", "1.0"),
        ("yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled", "true"),
        ("yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.preemption-order-policy", "priority_first"),
    ]);
    let p = c.preemption();
    assert!(p.monitor_enabled && p.intra_queue_enabled);
    assert_eq!(p.natural_termination_factor, 1.0);
    assert_eq!(
        p.intra_queue_order,
        capsched::config::IntraQueuePreemptionOrder::PriorityFirst
    );
    assert_eq!(c.queue("root.a").unwrap().disable_preemption, Some(true));
}

#[test]
fn opportunistic_keys_have_yarns_defaults_and_refuse_bad_values() {
    use capsched::opportunistic::load_monitor::LoadComparator;
    let base = "yarn.scheduler.capacity.root.queues=default\nyarn.scheduler.capacity.root.default.capacity=100\n";
    let c = CapacitySchedulerConfiguration::from_properties_str(base).unwrap();
    let o = c.opportunistic();
    assert!(!o.enabled && !o.distributed_enabled);
    assert_eq!((o.nodes_used, o.sorting_interval_ms), (10, 1000));
    assert_eq!(o.load_comparator, LoadComparator::QueueLength);
    assert_eq!(
        (o.min_queue_length, o.max_queue_length, o.queue_limit_stdev),
        (5, 15, 1.0)
    );
    assert_eq!(
        (o.max_allocations_per_am_heartbeat, o.nm_max_queue_length),
        (-1, 0)
    );

    let set = format!(
        "{base}yarn.resourcemanager.opportunistic-container-allocation.enabled=true\n\
         yarn.resourcemanager.nm-container-queuing.load-comparator=QUEUE_LENGTH_THEN_RESOURCES\n\
         yarn.resourcemanager.nm-container-queuing.queue-limit-stdev=0.5\n\
         yarn.nodemanager.opportunistic-containers-max-queue-length=10\n"
    );
    let c = CapacitySchedulerConfiguration::from_properties_str(&set).unwrap();
    let o = c.opportunistic();
    assert!(o.enabled);
    assert_eq!(o.load_comparator, LoadComparator::QueueLengthThenResources);
    assert_eq!((o.queue_limit_stdev, o.nm_max_queue_length), (0.5, 10));

    let bad = format!("{base}yarn.resourcemanager.nm-container-queuing.load-comparator=SHORTEST\n");
    let e = CapacitySchedulerConfiguration::from_properties_str(&bad).unwrap_err();
    assert!(
        e.to_string().contains("No enum constant") && e.to_string().contains("SHORTEST"),
        "{e}"
    );
}

#[test]
fn lazy_preemption_is_read_under_yarns_key_and_the_monitors_prefix() {
    let lazy = |extra: &[(&'static str, &'static str)]| {
        let mut p = vec![("root.queues", "a"), ("root.a.capacity", "100")];
        p.extend_from_slice(extra);
        ok(&p).settings().lazy_preemption_enabled
    };
    const YARN: &str = "lazy-preemption-enabled";
    const ALIAS: &str = "yarn.resourcemanager.monitor.capacity.preemption.lazy-preemption-enabled";
    assert!(!lazy(&[]), "off by default, as in YARN");
    assert!(lazy(&[(YARN, "true")]));
    assert!(lazy(&[(ALIAS, "TRUE")]));
    assert!(
        !lazy(&[(YARN, "false"), (ALIAS, "true")]),
        "YARN's key wins"
    );
    // The protection is on by default, and off only when asked.
    let conf = ok(&[("root.queues", "a"), ("root.a.capacity", "100")]);
    assert!(conf.settings().freed_space_protect);
    assert_eq!(conf.settings().freed_space_hold_ms, 30_000);
    let exact = ok(&[
        ("root.queues", "a"),
        ("root.a.capacity", "100"),
        ("capsched.preemption.freed-space.protect", "false"),
    ]);
    assert!(!exact.settings().freed_space_protect);
}

/// Issue 36.24: capsched's two opportunistic protections are on by default whenever
/// opportunistic allocation is, off without it; each set to false is YARN's exact behaviour.
#[test]
fn capscheds_opportunistic_behaviour_is_the_default_with_opportunistic_allocation() {
    let base = "yarn.scheduler.capacity.root.queues=default\nyarn.scheduler.capacity.root.default.capacity=100\n";
    let read = |extra: &str| {
        capsched::config::CapacitySchedulerConfiguration::from_properties_str(&format!(
            "{base}{extra}"
        ))
        .unwrap()
        .opportunistic()
        .clone()
    };
    let off = read("");
    assert!(!off.follow_queue_order && !off.guaranteed_avoids_opportunistic);
    let on = read("yarn.resourcemanager.opportunistic-container-allocation.enabled=true\n");
    assert!(on.follow_queue_order && on.guaranteed_avoids_opportunistic);
    let yarn = read(
        "yarn.resourcemanager.opportunistic-container-allocation.enabled=true\n\
         capsched.opportunistic.allocation.follow-queue-order=false\n\
         capsched.opportunistic.guaranteed-avoids-opportunistic=false\n",
    );
    assert!(!yarn.follow_queue_order && !yarn.guaranteed_avoids_opportunistic);
}
