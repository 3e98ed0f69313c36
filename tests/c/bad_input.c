/* Bad input from C: every call below must return the expected status (and message), write no
 * out-parameter on failure, and leave the engine working. Also: an event callback with user
 * data and a finalizer. Prints "ok <n>" per check and exits 1 at the first failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsched.h"

static int checks;

static capsched_str cs(const char *s) {
    capsched_str r;
    r.ptr = s;
    r.len = strlen(s);
    return r;
}

static void expect(capsched_status got, capsched_status want, const char *what, const char *message_part) {
    checks++;
    if (got != want) {
        printf("FAIL %s: %s, expected %s (%s)\n", what, capsched_status_name(got), capsched_status_name(want),
               capsched_last_error());
        exit(1);
    }
    if (message_part && !strstr(capsched_last_error(), message_part)) {
        printf("FAIL %s: message \"%s\" lacks \"%s\"\n", what, capsched_last_error(), message_part);
        exit(1);
    }
    printf("ok %d %s\n", checks, what);
}

struct counter {
    int events;
    int finalized;
};

static void on_event(const capsched_event *e, void *user) {
    if (e->kind != 0) ((struct counter *)user)->events++;
}

static void finalize(void *user) { ((struct counter *)user)->finalized++; }

static capsched_engine *make_engine(void) {
    capsched_str keys[] = {cs("yarn.scheduler.capacity.root.queues"), cs("yarn.scheduler.capacity.root.default.capacity")};
    capsched_str values[] = {cs("default"), cs("100")};
    capsched_config *config = NULL;
    expect(capsched_config_from_pairs(keys, values, 2, &config), CAPSCHED_OK, "config", NULL);
    capsched_engine_options opts;
    capsched_engine_options_default(&opts);
    opts.mode = CAPSCHED_MODE_MANUAL;
    capsched_engine *e = NULL;
    expect(capsched_engine_new(config, &opts, &e), CAPSCHED_OK, "engine", NULL);
    capsched_config_free(config);
    return e;
}

int main(void) {
    capsched_config *config = (capsched_config *)0x1; /* must stay untouched on failure */
    expect(capsched_config_from_xml(cs("<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property></configuration>"), &config),
           CAPSCHED_ERR_CONFIG, "invalid configuration", "Illegal capacity sum");
    if (config != (capsched_config *)0x1) { printf("FAIL out-parameter written on failure\n"); return 1; }
    expect(capsched_config_from_xml(cs("<x/>"), NULL), CAPSCHED_ERR_NULL_ARGUMENT, "NULL out-parameter", "out is NULL");
    const char bad_utf8[] = {(char)0xff, (char)0xfe, 0};
    capsched_str raw = {bad_utf8, 2};
    expect(capsched_config_from_xml(raw, &config), CAPSCHED_ERR_INVALID_UTF8, "invalid UTF-8", "not UTF-8");
    expect(capsched_config_from_file(cs("/no/such/capacity-scheduler.xml"), &config), CAPSCHED_ERR_IO, "missing file", "no such file");

    capsched_engine *e = make_engine();
    uint64_t node = 0, app = 0;
    capsched_resource size = {8192, 8};
    expect(capsched_node_add(NULL, cs("h1"), cs("/r"), size, &node), CAPSCHED_ERR_NULL_ARGUMENT, "NULL engine", "engine is NULL");
    expect(capsched_node_add(e, cs("h1"), cs("/r"), size, &node), CAPSCHED_OK, "node", NULL);
    expect(capsched_app_submit(e, cs("nope"), cs("u"), CAPSCHED_DEFAULT_PRIORITY, &app), CAPSCHED_ERR_REJECTED, "unknown queue",
           "unknown queue: nope");
    expect(capsched_app_submit(e, cs("default"), cs("u"), CAPSCHED_DEFAULT_PRIORITY, &app), CAPSCHED_OK, "submit", NULL);
    capsched_resource am = {1024, 1};
    expect(capsched_attempt_add(e, app, am, 0, 0), CAPSCHED_OK, "attempt", NULL);
    expect(capsched_attempt_add(e, app + 12345, am, 0, 0), CAPSCHED_ERR_UNKNOWN_ID, "stale application id", NULL);

    capsched_allocate_request req;
    memset(&req, 0, sizeof req);
    req.struct_size = 8;
    capsched_allocate_response *r = NULL;
    expect(capsched_allocate(e, app, &req, &r), CAPSCHED_ERR_STRUCT_SIZE, "wrong struct_size", "sizeof(capsched_allocate_request)");
    req.struct_size = sizeof req;
    capsched_ask ask;
    memset(&ask, 0, sizeof ask);
    ask.priority = 1;
    ask.resource_name = cs("*");
    ask.capability.memory_mb = 1LL << 40;
    ask.capability.vcores = 1;
    ask.num_containers = 1;
    ask.relax_locality = 1;
    req.asks = &ask;
    req.ask_count = 1;
    expect(capsched_allocate(e, app, &req, &r), CAPSCHED_ERR_REFUSED, "oversized ask", "maximum allowed allocation");
    req.ask_count = 5; /* asks points at one entry but the count says five: NULL check only for NULL */
    req.asks = NULL;
    expect(capsched_allocate(e, app, &req, &r), CAPSCHED_ERR_NULL_ARGUMENT, "NULL array with a count", "asks is NULL");
    if (r != NULL) { printf("FAIL response written on failure\n"); return 1; }

    /* A second engine, freed: its ids mean nothing to the first. */
    capsched_engine *other = make_engine();
    uint64_t other_node = 0;
    expect(capsched_node_add(other, cs("x1"), cs("/r"), size, &other_node), CAPSCHED_OK, "other node", NULL);
    capsched_engine_free(other);
    capsched_node_response *nr = NULL;
    expect(capsched_node_update(e, other_node + 7, NULL, &nr), CAPSCHED_ERR_UNKNOWN_ID, "id of another engine", NULL);

    /* Events through a callback, with a finalizer. */
    struct counter counter = {0, 0};
    expect(capsched_engine_set_event_callback(e, on_event, &counter, finalize), CAPSCHED_OK, "callback", NULL);
    uint64_t app2 = 0;
    expect(capsched_app_submit(e, cs("default"), cs("v"), CAPSCHED_DEFAULT_PRIORITY, &app2), CAPSCHED_OK, "submit with callback", NULL);
    expect(capsched_engine_set_event_callback(e, NULL, NULL, NULL), CAPSCHED_OK, "callback removed", NULL);
    if (counter.events != 1 || counter.finalized != 1) {
        printf("FAIL callback saw %d events, finalized %d times\n", counter.events, counter.finalized);
        return 1;
    }
    capsched_event buf[8];
    size_t n = 0;
    expect(capsched_poll_events(e, NULL, 8, &n, NULL), CAPSCHED_ERR_NULL_ARGUMENT, "NULL event buffer", "events is NULL");
    expect(capsched_poll_events(e, buf, 8, &n, NULL), CAPSCHED_OK, "poll", NULL);

    /* Still working after all that. */
    expect(capsched_node_update(e, node, NULL, &nr), CAPSCHED_OK, "heartbeat", NULL);
    capsched_node_response_free(nr);
    req.ask_count = 0;
    expect(capsched_allocate(e, app, &req, &r), CAPSCHED_OK, "allocate", NULL);
    if (r->allocated_count != 1 || !r->allocated[0].is_am) { printf("FAIL the AM container did not come\n"); return 1; }
    capsched_allocate_response_free(r);
    if (strlen(capsched_last_error()) != 0) { printf("FAIL a success left a message\n"); return 1; }

    expect(capsched_engine_stop(e), CAPSCHED_OK, "stop", NULL);
    expect(capsched_app_submit(e, cs("default"), cs("u"), CAPSCHED_DEFAULT_PRIORITY, &app), CAPSCHED_ERR_STOPPED, "after stop", NULL);
    capsched_engine_free(e);
    capsched_engine_free(NULL);
    capsched_config_free(NULL);
    printf("all %d checks passed\n", checks);
    return 0;
}
