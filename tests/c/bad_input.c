/* Bad input from C: every call below must return the expected status (and message), write no
 * out-parameter on failure, and leave the engine working. Ids of another live engine (of every
 * kind, on every call that takes one), 0, stale ids and an empty user name are refused, and
 * neither engine changes. Also: an event callback with user data and a finalizer, and events
 * whose absent ids are 0. Prints "ok <n>" per check and exits 1 at the first failure. */
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
    opts.manual_clock = 1; /* the state moves only with the calls made */
    capsched_engine *e = NULL;
    expect(capsched_engine_new(config, &opts, &e), CAPSCHED_OK, "engine", NULL);
    capsched_config_free(config);
    return e;
}

static void fail(const char *what) {
    printf("FAIL %s\n", what);
    exit(1);
}

/* Everything an engine shows a host (its counts and REST document), after auditing its
 * invariants; the caller frees it. Equal strings: an unchanged engine. */
static char *state_of(capsched_engine *e) {
    if (capsched_engine_check_invariants(e) != CAPSCHED_OK) fail(capsched_last_error());
    capsched_cluster_info info;
    capsched_owned_str json;
    if (capsched_engine_cluster_info(e, &info) != CAPSCHED_OK || capsched_engine_scheduler_json(e, &json) != CAPSCHED_OK)
        fail("state");
    size_t n = json.len + 96;
    char *out = malloc(n);
    if (!out) fail("malloc");
    snprintf(out, n, "%llu %llu %llu %s", (unsigned long long)info.num_nodes, (unsigned long long)info.num_applications,
             (unsigned long long)info.num_containers, json.ptr);
    capsched_string_free(json);
    return out;
}

static capsched_allocate_request empty_request(int32_t response_id) {
    capsched_allocate_request req;
    memset(&req, 0, sizeof req);
    req.struct_size = sizeof req;
    req.response_id = response_id;
    return req;
}

/* A node, an application with its attempt, and its AM container, on engine `e`. */
static void populate(capsched_engine *e, const char *host, uint64_t *node, uint64_t *app, uint64_t *container) {
    capsched_resource size = {8192, 8}, am = {1024, 1};
    capsched_node_response *nr = NULL;
    capsched_allocate_response *r = NULL;
    capsched_allocate_request req = empty_request(0);
    if (capsched_node_add(e, cs(host), cs("/r"), size, node) != CAPSCHED_OK ||
        capsched_app_submit(e, cs("default"), cs("u"), CAPSCHED_DEFAULT_PRIORITY, app) != CAPSCHED_OK ||
        capsched_attempt_add(e, *app, am, 0, 0) != CAPSCHED_OK || capsched_node_update(e, *node, NULL, &nr) != CAPSCHED_OK)
        fail(capsched_last_error());
    capsched_node_response_free(nr);
    if (capsched_allocate(e, *app, &req, &r) != CAPSCHED_OK || r->allocated_count != 1) fail("the AM container");
    *container = r->allocated[0].id;
    capsched_allocate_response_free(r);
}

/* Every call that takes an id, on `e` with another engine's node, application and container
 * (`node` and `app` are `e`'s own, for the calls that need a valid one beside the foreign). */
static void foreign_ids_refused(capsched_engine *e, uint64_t node, uint64_t app, uint64_t their_node, uint64_t their_app,
                                uint64_t their_container) {
    const char *not_ours = "was not issued by this engine";
    capsched_resource size = {8192, 8}, am = {1024, 1};
    capsched_node_response *nr = (capsched_node_response *)&node; /* must stay untouched */
    capsched_allocate_response *r = (capsched_allocate_response *)&node;
    capsched_allocate_request req = empty_request(1);
    uint64_t out = 7;
    int32_t effective = 7;

    expect(capsched_node_remove(e, their_node), CAPSCHED_ERR_UNKNOWN_ID, "another engine's node: remove", not_ours);
    expect(capsched_node_update(e, their_node, NULL, &nr), CAPSCHED_ERR_UNKNOWN_ID, "another engine's node: heartbeat", not_ours);

    capsched_container_report report;
    memset(&report, 0, sizeof report);
    report.app = their_app;
    report.resource = am;
    report.container_id = 99;
    expect(capsched_node_add_recovered(e, cs("recovered"), cs("/r"), size, &report, 1, &out), CAPSCHED_ERR_UNKNOWN_ID,
           "another engine's application: recovery report", "in reports[0] was not issued");
    expect(capsched_attempt_add(e, their_app, am, 0, 0), CAPSCHED_ERR_UNKNOWN_ID, "another engine's application: attempt add", not_ours);
    expect(capsched_attempt_recover(e, their_app, am, 0), CAPSCHED_ERR_UNKNOWN_ID, "another engine's application: attempt recover",
           not_ours);
    expect(capsched_attempt_remove(e, their_app, 0), CAPSCHED_ERR_UNKNOWN_ID, "another engine's application: attempt remove", not_ours);
    expect(capsched_app_remove(e, their_app), CAPSCHED_ERR_UNKNOWN_ID, "another engine's application: remove", not_ours);
    expect(capsched_app_move(e, their_app, cs("default")), CAPSCHED_ERR_UNKNOWN_ID, "another engine's application: move", not_ours);
    expect(capsched_app_set_priority(e, their_app, 3, &effective), CAPSCHED_ERR_UNKNOWN_ID, "another engine's application: priority",
           not_ours);
    expect(capsched_allocate(e, their_app, &req, &r), CAPSCHED_ERR_UNKNOWN_ID, "another engine's application: allocate", not_ours);

    expect(capsched_container_expired(e, their_container), CAPSCHED_ERR_UNKNOWN_ID, "another engine's container: expired", not_ours);
    capsched_node_status st;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    st.launched = &their_container;
    st.launched_count = 1;
    expect(capsched_node_update(e, node, &st, &nr), CAPSCHED_ERR_UNKNOWN_ID, "another engine's container: launched",
           "in launched[0] was not issued");
    capsched_completed_container done;
    memset(&done, 0, sizeof done);
    done.container = their_container;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    st.completed = &done;
    st.completed_count = 1;
    expect(capsched_node_update(e, node, &st, &nr), CAPSCHED_ERR_UNKNOWN_ID, "another engine's container: completed",
           "in completed[0] was not issued");
    req.releases = &their_container;
    req.release_count = 1;
    expect(capsched_allocate(e, app, &req, &r), CAPSCHED_ERR_UNKNOWN_ID, "another engine's container: release",
           "in releases[0] was not issued");
    capsched_update_request update;
    memset(&update, 0, sizeof update);
    update.container = their_container;
    update.update_type = CAPSCHED_UPDATE_DEMOTE_EXECUTION_TYPE;
    update.execution_type = CAPSCHED_OPPORTUNISTIC;
    req = empty_request(1);
    req.updates = &update;
    req.update_count = 1;
    expect(capsched_allocate(e, app, &req, &r), CAPSCHED_ERR_UNKNOWN_ID, "another engine's container: update",
           "in updates[0] was not issued");
    if (nr != (capsched_node_response *)&node || r != (capsched_allocate_response *)&node || out != 7 || effective != 7)
        fail("an out-parameter written on failure");
}

int main(void) {
    capsched_config *config = (capsched_config *)0x1; /* must stay untouched on failure */
    expect(capsched_config_from_xml(cs("<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property></configuration>"), &config),
           CAPSCHED_ERR_CONFIG, "invalid configuration", "Illegal capacity of 0.0 for children of queue root. It is set to 0");
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

    /* A second live engine: ids of every kind are refused across, on every call, and neither
     * engine changes. The reported bug: capsched_app_remove(e, <other's first app>) removed
     * e's first application (both have the same slot and generation). */
    capsched_engine *other = make_engine();
    uint64_t other_node = 0, other_app = 0, other_container = 0;
    populate(other, "x1", &other_node, &other_app, &other_container);
    if ((other_app & 0xffffffffffffULL) != (app & 0xffffffffffffULL) || other_app == app) fail("the ids differ in their tags alone");
    if ((other_node >> 48) == 0 || (other_node >> 48) == (node >> 48)) fail("two live engines share a tag");
    char *e_before = state_of(e), *other_before = state_of(other);
    foreign_ids_refused(e, node, app, other_node, other_app, other_container);
    char *e_after = state_of(e), *other_after = state_of(other);
    if (strcmp(e_before, e_after) != 0 || strcmp(other_before, other_after) != 0) fail("an engine changed");
    free(e_before);
    free(e_after);
    free(other_before);
    free(other_after);
    capsched_engine_free(other);
    capsched_node_response *nr = NULL;
    expect(capsched_node_update(e, other_node + 7, NULL, &nr), CAPSCHED_ERR_UNKNOWN_ID, "id of a freed engine", "was not issued");

    /* 0 is never an id; stale ids are unknown, named with the host's value. */
    expect(capsched_node_remove(e, 0), CAPSCHED_ERR_UNKNOWN_ID, "node 0", "node id 0x0 was not issued by this engine (no id is 0");
    expect(capsched_app_remove(e, 0), CAPSCHED_ERR_UNKNOWN_ID, "application 0", "0 means none");
    expect(capsched_container_expired(e, 0), CAPSCHED_ERR_UNKNOWN_ID, "container 0", "0 means none");
    uint64_t gone = 0;
    expect(capsched_node_add(e, cs("h2"), cs("/r"), size, &gone), CAPSCHED_OK, "node to remove", NULL);
    expect(capsched_node_remove(e, gone), CAPSCHED_OK, "node removed", NULL);
    char stale[96];
    snprintf(stale, sizeof stale, "unknown node id 0x%llx: this engine issued it", (unsigned long long)gone);
    expect(capsched_node_remove(e, gone), CAPSCHED_ERR_UNKNOWN_ID, "stale node id", stale);

    /* An empty user name: YARN's UserGroupInformation refuses it. */
    uint64_t nobody = 7;
    expect(capsched_app_submit(e, cs("default"), cs(""), CAPSCHED_DEFAULT_PRIORITY, &nobody), CAPSCHED_ERR_REJECTED, "empty user",
           "Null user");
    if (nobody != 7) fail("out_app written on rejection");

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
    capsched_event buf[16];
    size_t n = 0;
    expect(capsched_poll_events(e, NULL, 8, &n, NULL), CAPSCHED_ERR_NULL_ARGUMENT, "NULL event buffer", "events is NULL");
    expect(capsched_poll_events(e, buf, 16, &n, NULL), CAPSCHED_OK, "poll", NULL);
    /* Ids that do not apply are 0; every other carries this engine's tag. */
    int accepted = 0, rejected = 0;
    for (size_t i = 0; i < n; i++) {
        const capsched_event *ev = &buf[i];
        uint64_t ids[3] = {ev->app, ev->container, ev->node};
        for (int k = 0; k < 3; k++)
            if (ids[k] != 0 && ((ids[k] >> 48) & 0x3fff) != ((node >> 48) & 0x3fff)) fail("an event id without this engine's tag");
        if (ev->kind == CAPSCHED_EVENT_ACCEPTED) {
            accepted++;
            if (ev->app == 0 || ev->container != 0 || ev->node != 0) fail("an ACCEPTED event's ids");
        }
        if (ev->kind == CAPSCHED_EVENT_REJECTED) {
            rejected++;
            if (ev->app != 0 || ev->container != 0 || ev->node != 0) fail("a REJECTED event's ids");
        }
    }
    if (accepted != 1 || rejected != 2) {
        printf("FAIL %d accepted and %d rejected events polled\n", accepted, rejected);
        return 1;
    }

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
