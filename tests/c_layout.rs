//! The header and the library agree on every struct's size and field offsets and every
//! constant's value: a C program compiled against include/capsched.h prints them, and they are
//! compared with Rust's `size_of`/`offset_of!` and the Rust constants.

use std::fmt::Write as _;
use std::process::Command;

use capsched::ffi::*;

/// (struct name, Rust size, [(field, Rust offset)]) for each struct, and the C to print them.
macro_rules! layout {
    ($t:ident, [$($f:ident),* $(,)?]) => {
        (
            stringify!($t),
            std::mem::size_of::<$t>(),
            vec![$((stringify!($f), std::mem::offset_of!($t, $f))),*],
        )
    };
}

#[test]
fn struct_layouts_and_constants_match_the_header() {
    let structs = vec![
        layout!(capsched_str, [ptr, len]),
        layout!(capsched_resource, [memory_mb, vcores]),
        layout!(
            capsched_ask,
            [
                priority,
                allocation_request_id,
                resource_name,
                capability,
                num_containers,
                relax_locality,
                execution_type
            ]
        ),
        layout!(
            capsched_update_request,
            [container, version, update_type, execution_type, capability]
        ),
        layout!(
            capsched_allocate_request,
            [
                struct_size,
                response_id,
                asks,
                ask_count,
                releases,
                release_count,
                blacklist_additions,
                blacklist_addition_count,
                blacklist_removals,
                blacklist_removal_count,
                updates,
                update_count,
                ask_labels,
                ask_label_count
            ]
        ),
        layout!(
            capsched_container,
            [
                id,
                yarn_id,
                node,
                host,
                priority,
                allocation_request_id,
                resource,
                execution_type,
                version,
                is_am,
                remotely_allocated,
                locality
            ]
        ),
        layout!(
            capsched_container_status,
            [container, yarn_id, exit_status, diagnostics]
        ),
        layout!(capsched_updated_container, [update_type, container]),
        layout!(capsched_update_error, [container, reason, current_version]),
        layout!(
            capsched_allocate_response,
            [
                response_id,
                allocated,
                allocated_count,
                completed,
                completed_count,
                headroom,
                num_cluster_nodes,
                preempt_containers,
                preempt_count,
                preempt_resource,
                updated,
                updated_count,
                update_errors,
                update_error_count
            ]
        ),
        layout!(
            capsched_engine_options,
            [
                struct_size,
                mode,
                seed,
                async_scheduling,
                preemption,
                event_capacity,
                manual_clock,
                clock_start_ms,
                cluster_timestamp,
                rm_epoch
            ]
        ),
        layout!(capsched_owned_str, [ptr, len]),
        layout!(capsched_event, [kind, app, container, node, yarn_id, code]),
        layout!(
            capsched_yarn_id,
            [cluster_timestamp, application, attempt, container_id]
        ),
        layout!(
            capsched_container_info,
            [
                id,
                yarn_id,
                app,
                node,
                state,
                resource,
                priority,
                allocation_request_id,
                execution_type,
                locality,
                is_am,
                version,
                marked_for_preemption,
                created_ms,
                acquired_ms,
                launched_ms
            ]
        ),
        layout!(
            capsched_app_report,
            [
                yarn_id,
                queue,
                user,
                priority,
                state,
                pending_reason,
                diagnostics,
                used,
                pending,
                am_used,
                reserved,
                live_containers,
                reserved_containers,
                opportunistic_containers,
                preempted_containers,
                preempted_resource,
                am_container,
                submit_time_ms
            ]
        ),
        layout!(
            capsched_completed_container,
            [container, exit_status, diagnostics]
        ),
        layout!(
            capsched_queue_report,
            [
                queued_opportunistic,
                wait_queue_length,
                running_opportunistic,
                opportunistic_resource,
                queue_capacity
            ]
        ),
        layout!(
            capsched_node_status,
            [
                struct_size,
                launched,
                launched_count,
                completed,
                completed_count,
                has_queue_report,
                queue_report
            ]
        ),
        layout!(
            capsched_node_response,
            [
                to_kill,
                to_kill_count,
                allocated,
                has_queuing_limit,
                max_queue_length,
                max_queue_wait_ms,
                least_loaded,
                least_loaded_count,
                orphans,
                orphan_count,
                decommissioned,
                allocated_containers,
                allocated_container_count
            ]
        ),
        layout!(
            capsched_submission,
            [
                struct_size,
                queue,
                user,
                groups,
                group_count,
                priority,
                application_id,
                recovering,
                app_name,
                lifetime_s,
                node_label_expression,
                am_node_label_expression
            ]
        ),
        layout!(capsched_node_label, [name, exclusive]),
        layout!(capsched_node_label_mapping, [node, label]),
        layout!(capsched_node_label_list, [labels, count]),
        layout!(capsched_partition_usage, [used, reserved, pending, am_used]),
        layout!(
            capsched_queue_labels,
            [accessible, accessible_count, default_node_label_expression]
        ),
        layout!(
            capsched_cluster_info,
            [
                resource,
                num_nodes,
                num_applications,
                num_containers,
                dropped_events
            ]
        ),
        layout!(
            capsched_queue_info,
            [
                path,
                used,
                pending,
                reserved,
                absolute_capacity,
                absolute_maximum_capacity,
                num_applications
            ]
        ),
        layout!(capsched_queue_list, [queues, count]),
        layout!(
            capsched_queue_status,
            [
                path,
                parent,
                is_leaf,
                state,
                capacity,
                maximum_capacity,
                absolute_capacity,
                absolute_maximum_capacity,
                used_capacity,
                absolute_used_capacity,
                guaranteed,
                maximum,
                configured_minimum,
                configured_maximum,
                used,
                reserved,
                reserved_containers,
                pending,
                maximum_allocation,
                num_applications,
                num_active_applications,
                num_pending_applications,
                am_limit,
                am_used,
                maximum_am_resource_percent,
                max_applications,
                max_applications_per_user,
                user_limit_percent,
                user_limit_factor,
                default_application_priority,
                preemption_disabled,
                intra_queue_preemption_disabled
            ]
        ),
        layout!(capsched_queue_status_list, [queues, count, figures_version]),
        layout!(
            capsched_user_status,
            [
                name,
                used,
                am_used,
                am_limit,
                user_limit,
                headroom,
                weight,
                active_applications,
                pending_applications
            ]
        ),
        layout!(capsched_user_status_list, [users, count]),
        layout!(
            capsched_container_report,
            [
                app,
                resource,
                priority,
                allocation_request_id,
                container_id,
                is_am
            ]
        ),
    ];
    use capsched_status::*;
    let constants: Vec<(&str, i64)> = vec![
        ("CAPSCHED_OK", CAPSCHED_OK as i64),
        (
            "CAPSCHED_ERR_NULL_ARGUMENT",
            CAPSCHED_ERR_NULL_ARGUMENT as i64,
        ),
        (
            "CAPSCHED_ERR_INVALID_ARGUMENT",
            CAPSCHED_ERR_INVALID_ARGUMENT as i64,
        ),
        (
            "CAPSCHED_ERR_INVALID_UTF8",
            CAPSCHED_ERR_INVALID_UTF8 as i64,
        ),
        ("CAPSCHED_ERR_STRUCT_SIZE", CAPSCHED_ERR_STRUCT_SIZE as i64),
        ("CAPSCHED_ERR_CONFIG", CAPSCHED_ERR_CONFIG as i64),
        ("CAPSCHED_ERR_UNKNOWN_ID", CAPSCHED_ERR_UNKNOWN_ID as i64),
        ("CAPSCHED_ERR_REFUSED", CAPSCHED_ERR_REFUSED as i64),
        ("CAPSCHED_ERR_REJECTED", CAPSCHED_ERR_REJECTED as i64),
        ("CAPSCHED_ERR_STOPPED", CAPSCHED_ERR_STOPPED as i64),
        (
            "CAPSCHED_ERR_ENGINE_FAILED",
            CAPSCHED_ERR_ENGINE_FAILED as i64,
        ),
        ("CAPSCHED_ERR_PANIC", CAPSCHED_ERR_PANIC as i64),
        ("CAPSCHED_ERR_IO", CAPSCHED_ERR_IO as i64),
        ("CAPSCHED_ERR_INVARIANT", CAPSCHED_ERR_INVARIANT as i64),
        ("CAPSCHED_GUARANTEED", CAPSCHED_GUARANTEED as i64),
        ("CAPSCHED_OPPORTUNISTIC", CAPSCHED_OPPORTUNISTIC as i64),
        ("CAPSCHED_QUEUE_RUNNING", CAPSCHED_QUEUE_RUNNING as i64),
        ("CAPSCHED_QUEUE_STOPPED", CAPSCHED_QUEUE_STOPPED as i64),
        ("CAPSCHED_QUEUE_DRAINING", CAPSCHED_QUEUE_DRAINING as i64),
        ("CAPSCHED_MODE_THREADED", CAPSCHED_MODE_THREADED as i64),
        ("CAPSCHED_MODE_MANUAL", CAPSCHED_MODE_MANUAL as i64),
        ("CAPSCHED_FROM_CONFIG", CAPSCHED_FROM_CONFIG as i64),
        (
            "CAPSCHED_DEFAULT_PRIORITY",
            CAPSCHED_DEFAULT_PRIORITY as i64,
        ),
        (
            "CAPSCHED_UPDATE_INCREASE_RESOURCE",
            CAPSCHED_UPDATE_INCREASE_RESOURCE as i64,
        ),
        (
            "CAPSCHED_UPDATE_DECREASE_RESOURCE",
            CAPSCHED_UPDATE_DECREASE_RESOURCE as i64,
        ),
        (
            "CAPSCHED_UPDATE_PROMOTE_EXECUTION_TYPE",
            CAPSCHED_UPDATE_PROMOTE_EXECUTION_TYPE as i64,
        ),
        (
            "CAPSCHED_UPDATE_DEMOTE_EXECUTION_TYPE",
            CAPSCHED_UPDATE_DEMOTE_EXECUTION_TYPE as i64,
        ),
        ("CAPSCHED_EVENT_ACCEPTED", CAPSCHED_EVENT_ACCEPTED as i64),
        ("CAPSCHED_EVENT_REJECTED", CAPSCHED_EVENT_REJECTED as i64),
        ("CAPSCHED_EVENT_ALLOCATED", CAPSCHED_EVENT_ALLOCATED as i64),
        ("CAPSCHED_EVENT_RELEASED", CAPSCHED_EVENT_RELEASED as i64),
        (
            "CAPSCHED_EVENT_PREEMPT_WARNED",
            CAPSCHED_EVENT_PREEMPT_WARNED as i64,
        ),
        ("CAPSCHED_EVENT_PREEMPTED", CAPSCHED_EVENT_PREEMPTED as i64),
        ("CAPSCHED_EVENT_EXPIRED", CAPSCHED_EVENT_EXPIRED as i64),
        (
            "CAPSCHED_EVENT_QUEUE_REFRESHED",
            CAPSCHED_EVENT_QUEUE_REFRESHED as i64,
        ),
        ("CAPSCHED_EVENT_NODE_LOST", CAPSCHED_EVENT_NODE_LOST as i64),
        (
            "CAPSCHED_EVENT_NODE_DECOMMISSIONED",
            CAPSCHED_EVENT_NODE_DECOMMISSIONED as i64,
        ),
        (
            "CAPSCHED_ACL_SUBMIT_APPLICATIONS",
            CAPSCHED_ACL_SUBMIT_APPLICATIONS as i64,
        ),
        (
            "CAPSCHED_ACL_ADMINISTER_QUEUE",
            CAPSCHED_ACL_ADMINISTER_QUEUE as i64,
        ),
        (
            "CAPSCHED_EVENT_AM_CONTAINER_ALLOCATED",
            CAPSCHED_EVENT_AM_CONTAINER_ALLOCATED as i64,
        ),
        (
            "CAPSCHED_EVENT_CONTAINER_COMPLETED",
            CAPSCHED_EVENT_CONTAINER_COMPLETED as i64,
        ),
        (
            "CAPSCHED_EVENT_APP_ACTIVATED",
            CAPSCHED_EVENT_APP_ACTIVATED as i64,
        ),
        (
            "CAPSCHED_EVENT_APP_PENDING",
            CAPSCHED_EVENT_APP_PENDING as i64,
        ),
        (
            "CAPSCHED_EVENT_APP_LIFETIME_EXPIRED",
            CAPSCHED_EVENT_APP_LIFETIME_EXPIRED as i64,
        ),
        (
            "CAPSCHED_EVENT_CONTAINER_PLACED",
            CAPSCHED_EVENT_CONTAINER_PLACED as i64,
        ),
        (
            "CAPSCHED_CONTAINER_RESERVED",
            CAPSCHED_CONTAINER_RESERVED as i64,
        ),
        (
            "CAPSCHED_CONTAINER_ALLOCATED",
            CAPSCHED_CONTAINER_ALLOCATED as i64,
        ),
        (
            "CAPSCHED_CONTAINER_ACQUIRED",
            CAPSCHED_CONTAINER_ACQUIRED as i64,
        ),
        (
            "CAPSCHED_CONTAINER_RUNNING",
            CAPSCHED_CONTAINER_RUNNING as i64,
        ),
        ("CAPSCHED_NODE_LOCAL", CAPSCHED_NODE_LOCAL as i64),
        ("CAPSCHED_RACK_LOCAL", CAPSCHED_RACK_LOCAL as i64),
        ("CAPSCHED_OFF_SWITCH", CAPSCHED_OFF_SWITCH as i64),
        ("CAPSCHED_APP_SUBMITTED", CAPSCHED_APP_SUBMITTED as i64),
        ("CAPSCHED_APP_ACCEPTED", CAPSCHED_APP_ACCEPTED as i64),
        ("CAPSCHED_APP_RUNNING", CAPSCHED_APP_RUNNING as i64),
        (
            "CAPSCHED_APP_BETWEEN_ATTEMPTS",
            CAPSCHED_APP_BETWEEN_ATTEMPTS as i64,
        ),
        ("CAPSCHED_PENDING_NONE", CAPSCHED_PENDING_NONE as i64),
        (
            "CAPSCHED_PENDING_AM_LIMIT",
            CAPSCHED_PENDING_AM_LIMIT as i64,
        ),
        (
            "CAPSCHED_PENDING_USER_AM_LIMIT",
            CAPSCHED_PENDING_USER_AM_LIMIT as i64,
        ),
        (
            "CAPSCHED_PENDING_MAX_PARALLEL_APPS",
            CAPSCHED_PENDING_MAX_PARALLEL_APPS as i64,
        ),
        (
            "CAPSCHED_PENDING_CLUSTER_RESOURCE_EMPTY",
            CAPSCHED_PENDING_CLUSTER_RESOURCE_EMPTY as i64,
        ),
        ("CAPSCHED_ABI_VERSION", capsched::ABI_VERSION as i64),
        (
            "sizeof(capsched_status)",
            std::mem::size_of::<capsched_status>() as i64,
        ),
    ];

    let mut c = String::from(
        "#include <stdio.h>\n#include <stddef.h>\n#include \"capsched.h\"\nint main(void) {\n",
    );
    let mut expected = String::new();
    for (name, size, fields) in &structs {
        let _ = writeln!(
            c,
            "  printf(\"%s %zu\\n\", \"sizeof({name})\", sizeof({name}));"
        );
        let _ = writeln!(expected, "sizeof({name}) {size}");
        for (f, off) in fields {
            let _ = writeln!(
                c,
                "  printf(\"%s %zu\\n\", \"offsetof({name}, {f})\", offsetof({name}, {f}));"
            );
            let _ = writeln!(expected, "offsetof({name}, {f}) {off}");
        }
    }
    for (name, value) in &constants {
        let _ = writeln!(
            c,
            "  printf(\"%s %lld\\n\", \"{name}\", (long long)({name}));"
        );
        let _ = writeln!(expected, "{name} {value}");
    }
    c.push_str("  return 0;\n}\n");

    let dir = std::env::temp_dir().join(format!("capsched-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("layout.c");
    std::fs::write(&src, &c).unwrap();
    let exe = dir.join("layout");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .arg("-I")
        .arg(root.join("include"))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run cc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().expect("run layout");
    let got = String::from_utf8_lossy(&run.stdout);
    for (g, e) in got.lines().zip(expected.lines()) {
        assert_eq!(g, e, "C (left) and Rust (right) disagree");
    }
    assert_eq!(got.lines().count(), expected.lines().count());
    let _ = std::fs::remove_dir_all(&dir);
}
