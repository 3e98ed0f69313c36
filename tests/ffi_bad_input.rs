//! The C ABI refuses bad input with the right status and message, writes no out-parameter on
//! failure, and leaves the engine working. These call the exported functions exactly as C
//! does (raw pointers, lengths, struct sizes).

use std::ffi::CStr;
use std::ptr;

mod common;

use capsched::ffi::capsched_status::*;
use capsched::ffi::*;
use common::ffi::{last_error, s};

const XML: &str = "<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>default</value></property>
<property><name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value></property>
</configuration>";

fn engine() -> *mut capsched_engine {
    unsafe {
        let mut config = ptr::null_mut();
        assert_eq!(capsched_config_from_xml(s(XML), &mut config), CAPSCHED_OK);
        let mut opts = std::mem::zeroed();
        assert_eq!(capsched_engine_options_default(&mut opts), CAPSCHED_OK);
        opts.mode = CAPSCHED_MODE_MANUAL;
        let mut e = ptr::null_mut();
        assert_eq!(capsched_engine_new(config, &opts, &mut e), CAPSCHED_OK);
        capsched_config_free(config);
        e
    }
}

#[test]
fn configurations_report_yarns_message_and_null_arguments() {
    unsafe {
        let mut config = ptr::null_mut();
        let bad = "<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>\
                   <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>60</value></property>\
                   <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>60</value></property></configuration>";
        assert_eq!(
            capsched_config_from_xml(s(bad), &mut config),
            CAPSCHED_ERR_CONFIG
        );
        assert!(config.is_null(), "no out-parameter on failure");
        assert!(last_error().contains("root"), "{}", last_error());
        assert_eq!(
            capsched_config_from_xml(s(XML), ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(last_error(), "out is NULL");
        let not_utf8 = [0xffu8, 0xfe];
        let raw = capsched_str {
            ptr: not_utf8.as_ptr().cast(),
            len: 2,
        };
        assert_eq!(
            capsched_config_from_xml(raw, &mut config),
            CAPSCHED_ERR_INVALID_UTF8
        );
        let dangling = capsched_str {
            ptr: ptr::null(),
            len: 5,
        };
        assert_eq!(
            capsched_config_from_xml(dangling, &mut config),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            capsched_config_from_file(s("/no/such/file.xml"), &mut config),
            CAPSCHED_ERR_IO
        );
        let keys = [s("yarn.scheduler.capacity.root.queues")];
        assert_eq!(
            capsched_config_from_pairs(keys.as_ptr(), ptr::null(), 1, &mut config),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        capsched_config_free(ptr::null_mut()); // free accepts NULL
        capsched_engine_free(ptr::null_mut());
        capsched_node_response_free(ptr::null_mut());
        capsched_allocate_response_free(ptr::null_mut());
        assert_eq!(
            CStr::from_ptr(capsched_status_name(12345))
                .to_str()
                .unwrap(),
            "CAPSCHED_UNKNOWN_STATUS"
        );
    }
}

#[test]
fn engines_refuse_bad_calls_and_keep_working() {
    unsafe {
        let e = engine();
        let mut node = 0u64;
        let size = capsched_resource {
            memory_mb: 8192,
            vcores: 8,
        };
        // NULL engine, NULL out-parameter, empty host, duplicate host.
        assert_eq!(
            capsched_node_add(ptr::null(), s("h"), s("/r"), size, &mut node),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            capsched_node_add(e, s("h"), s("/r"), size, ptr::null_mut()),
            CAPSCHED_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            capsched_node_add(e, s(""), s("/r"), size, &mut node),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            capsched_node_add(e, s("h1"), s("/r"), size, &mut node),
            CAPSCHED_OK
        );
        let mut again = 7u64;
        assert_eq!(
            capsched_node_add(e, s("h1"), s("/r"), size, &mut again),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        assert_eq!(again, 7, "untouched on failure");

        // Unknown queue: rejected with YARN's reason.
        let mut app = 0u64;
        assert_eq!(
            capsched_app_submit(e, s("nope"), s("u"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_ERR_REJECTED
        );
        assert!(last_error().contains("nope"), "{}", last_error());
        assert_eq!(
            capsched_app_submit(e, s("default"), s("u"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_OK
        );

        // Stale and unknown ids.
        assert_eq!(
            capsched_node_remove(e, node ^ (1 << 40)),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        let mut resp = ptr::null_mut();
        assert_eq!(
            capsched_node_update(e, 999_999, ptr::null(), &mut resp),
            CAPSCHED_ERR_UNKNOWN_ID
        );
        assert!(resp.is_null());

        // A wrong struct_size, an unknown execution type, an oversized ask.
        assert_eq!(
            capsched_attempt_add(
                e,
                app,
                capsched_resource {
                    memory_mb: 1024,
                    vcores: 1
                },
                0,
                0
            ),
            CAPSCHED_OK
        );
        let mut req: capsched_allocate_request = std::mem::zeroed();
        req.struct_size = 4;
        let mut r = ptr::null_mut();
        assert_eq!(
            capsched_allocate(e, app, &req, &mut r),
            CAPSCHED_ERR_STRUCT_SIZE
        );
        assert!(
            last_error().contains("sizeof(capsched_allocate_request)"),
            "{}",
            last_error()
        );
        req.struct_size = std::mem::size_of::<capsched_allocate_request>() as u32;
        let mut ask = capsched_ask {
            priority: 1,
            allocation_request_id: 0,
            resource_name: s("*"),
            capability: capsched_resource {
                memory_mb: 1024,
                vcores: 1,
            },
            num_containers: 1,
            relax_locality: 1,
            execution_type: 7,
        };
        req.asks = &ask;
        req.ask_count = 1;
        assert_eq!(
            capsched_allocate(e, app, &req, &mut r),
            CAPSCHED_ERR_INVALID_ARGUMENT
        );
        ask.execution_type = CAPSCHED_GUARANTEED;
        ask.capability.memory_mb = 1 << 40;
        req.asks = &ask; // a fresh pointer after each change
        assert_eq!(
            capsched_allocate(e, app, &req, &mut r),
            CAPSCHED_ERR_REFUSED
        );
        assert!(
            last_error().contains("Invalid resource request"),
            "{}",
            last_error()
        );
        assert!(r.is_null());

        // Still working: a valid heartbeat and allocate succeed.
        ask.capability.memory_mb = 1024;
        req.asks = &ask;
        assert_eq!(
            capsched_node_update(e, node, ptr::null(), &mut resp),
            CAPSCHED_OK
        );
        capsched_node_response_free(resp);
        let mut allocated = 0;
        assert_eq!(capsched_engine_step(e, 1, &mut allocated), CAPSCHED_OK);
        assert_eq!(capsched_allocate(e, app, &req, &mut r), CAPSCHED_OK);
        assert_eq!((*r).allocated_count, 1, "the AM container");
        assert_eq!(last_error(), "", "success clears the message");
        capsched_allocate_response_free(r);

        // After stop: refused politely; free is still fine.
        assert_eq!(capsched_engine_stop(e), CAPSCHED_OK);
        assert_eq!(capsched_engine_stop(e), CAPSCHED_OK);
        assert_eq!(
            capsched_app_submit(e, s("default"), s("u"), CAPSCHED_DEFAULT_PRIORITY, &mut app),
            CAPSCHED_ERR_STOPPED
        );
        capsched_engine_free(e);
    }
}

#[test]
fn a_stale_id_from_another_engine_is_unknown_here() {
    unsafe {
        let (a, b) = (engine(), engine());
        let mut n = 0u64;
        let size = capsched_resource {
            memory_mb: 4096,
            vcores: 4,
        };
        assert_eq!(
            capsched_node_add(a, s("h1"), s("/r"), size, &mut n),
            CAPSCHED_OK
        );
        capsched_engine_free(a);
        assert_eq!(capsched_node_remove(b, n), CAPSCHED_ERR_UNKNOWN_ID);
        capsched_engine_free(b);
    }
}
