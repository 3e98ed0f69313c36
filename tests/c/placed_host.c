/* A C host that plays a ResourceManager over an engine that schedules asynchronously, through
 * the header alone, and keeps a table of the containers it knows as an RM keeps its
 * RMContainers: each enters at placement — CAPSCHED_EVENT_CONTAINER_PLACED, or a node update's
 * allocated_containers — and leaves at its CONTAINER_COMPLETED. It checks that no event names a
 * container before its placement, that each is placed once, that every container an allocate
 * response hands over was told placed by the time the call returned, that
 * capsched_container_get gives a placed container's details, and that every container placed
 * has completed by the end. A manual engine (steps and ticks) first, then a threaded one.
 * Prints "placed host: all N checks passed (P placed)" and exits 0, or names the first
 * failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsched.h"

static int checks = 0;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        checks++;                                                                          \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "check %d failed at line %d: %s: ", checks, __LINE__, #cond);  \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, " (last error: %s)\n", capsched_last_error());                 \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

#define OK(call) CHECK((call) == CAPSCHED_OK, "%s", #call)

static capsched_str cs(const char *s) {
    capsched_str r;
    r.ptr = s;
    r.len = strlen(s);
    return r;
}

/* The RM's containers: placed, and whether completed since. */
#define MAX_CONTAINERS 256
static uint64_t known[MAX_CONTAINERS];
static int completed[MAX_CONTAINERS];
static size_t known_count = 0;
static size_t placed_events = 0;
static uint64_t am_to_take[8];
static size_t am_to_take_count = 0;

static long find(uint64_t c) {
    for (size_t i = 0; i < known_count; i++)
        if (known[i] == c) return (long)i;
    return -1;
}

static void learn(uint64_t c) {
    CHECK(find(c) < 0, "container %llu placed twice", (unsigned long long)c);
    CHECK(known_count < MAX_CONTAINERS, "room");
    known[known_count] = c;
    completed[known_count++] = 0;
}

/* Reads every event so far and checks each against the table. */
static void drain(const capsched_engine *e) {
    capsched_event ev[64];
    size_t n = 0;
    do {
        uint64_t dropped = 1;
        OK(capsched_poll_events(e, ev, 64, &n, &dropped));
        CHECK(dropped == 0, "no event dropped");
        for (size_t i = 0; i < n; i++) {
            const capsched_event *x = &ev[i];
            switch (x->kind) {
            case CAPSCHED_EVENT_CONTAINER_PLACED: {
                placed_events++;
                learn(x->container);
                CHECK(x->app != 0 && x->node != 0 && x->yarn_id.container_id != 0, "its ids");
                /* Its details while it lives (it does: nothing has ended it yet). */
                capsched_container_info info;
                OK(capsched_container_get(e, x->container, &info));
                CHECK(info.app == x->app && info.node == x->node &&
                          info.yarn_id.container_id == x->yarn_id.container_id,
                      "the report is the event's container");
                CHECK(info.resource.memory_mb == 1024 && info.execution_type == CAPSCHED_GUARANTEED,
                      "placed as asked");
                /* ALLOCATED, or ACQUIRED when the call this drain follows pulled it already. */
                CHECK(info.state == CAPSCHED_CONTAINER_ALLOCATED || info.state == CAPSCHED_CONTAINER_ACQUIRED,
                      "placed, not yet running");
                break;
            }
            case CAPSCHED_EVENT_AM_CONTAINER_ALLOCATED:
                CHECK(find(x->container) >= 0, "AM container told before its placement");
                am_to_take[am_to_take_count++] = x->app;
                break;
            case CAPSCHED_EVENT_ALLOCATED:
            case CAPSCHED_EVENT_RELEASED:
            case CAPSCHED_EVENT_PREEMPT_WARNED:
            case CAPSCHED_EVENT_PREEMPTED:
            case CAPSCHED_EVENT_EXPIRED:
                CHECK(find(x->container) >= 0, "event %d before its container's placement", x->kind);
                break;
            case CAPSCHED_EVENT_CONTAINER_COMPLETED: {
                long at = find(x->container);
                CHECK(at >= 0, "a completion for a container never heard of");
                CHECK(!completed[at], "completed once");
                completed[at] = 1;
                break;
            }
            default:
                break;
            }
        }
    } while (n == 64);
}

static void take_ams(const capsched_engine *e) {
    for (size_t i = 0; i < am_to_take_count; i++) {
        capsched_container_info info;
        int32_t found = 0;
        OK(capsched_am_container_take(e, am_to_take[i], &info, &found));
        CHECK(found && info.is_am, "the AM container to take");
    }
    am_to_take_count = 0;
}

static void heartbeat(const capsched_engine *e, uint64_t node, const uint64_t *launched, size_t launched_count) {
    capsched_node_status st;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    st.launched = launched;
    st.launched_count = launched_count;
    capsched_node_response *r = NULL;
    OK(capsched_node_update(e, node, &st, &r));
    /* Asynchronous scheduling: heartbeats place nothing themselves. */
    CHECK(r->allocated_container_count == 0, "no heartbeat placement");
    capsched_node_response_free(r);
}

/* The AM's allocate: what it hands over was told placed by the time it returns. Returns how
 * many it handed over, their ids in `got`. */
static size_t allocate(const capsched_engine *e, uint64_t app, int32_t *rid, const capsched_ask *asks,
                       size_t ask_count, const uint64_t *releases, size_t release_count, uint64_t *got) {
    capsched_allocate_request req;
    memset(&req, 0, sizeof req);
    req.struct_size = sizeof req;
    req.response_id = *rid;
    req.asks = asks;
    req.ask_count = ask_count;
    req.releases = releases;
    req.release_count = release_count;
    capsched_allocate_response *r = NULL;
    OK(capsched_allocate(e, app, &req, &r));
    *rid = r->response_id;
    drain(e);
    for (size_t i = 0; i < r->allocated_count; i++) {
        CHECK(find(r->allocated[i].id) >= 0, "handed to its AM before it was told placed");
        got[i] = r->allocated[i].id;
    }
    size_t n = r->allocated_count;
    capsched_allocate_response_free(r);
    return n;
}

static void play(int32_t mode) {
    known_count = 0;
    placed_events = 0;
    capsched_str keys[] = {cs("yarn.scheduler.capacity.root.queues"), cs("yarn.scheduler.capacity.root.a.capacity"),
                           cs("yarn.scheduler.capacity.root.b.capacity"),
                           cs("yarn.scheduler.capacity.root.a.maximum-capacity"),
                           cs("yarn.scheduler.capacity.maximum-am-resource-percent"),
                           cs("yarn.scheduler.capacity.schedule-asynchronously.enable")};
    capsched_str values[] = {cs("a,b"), cs("50"), cs("50"), cs("100"), cs("0.5"), cs("true")};
    capsched_config *config = NULL;
    OK(capsched_config_from_pairs(keys, values, 6, &config));
    capsched_engine_options o;
    OK(capsched_engine_options_default(&o));
    o.mode = mode;
    if (mode == CAPSCHED_MODE_MANUAL) {
        o.manual_clock = 1;
        o.clock_start_ms = 1000;
    }
    capsched_engine *e = NULL;
    OK(capsched_engine_new(config, &o, &e));
    capsched_config_free(config);
    uint64_t nodes[3];
    for (int i = 0; i < 3; i++) {
        char host[32];
        snprintf(host, sizeof host, "nm%d.example.com:45454", i);
        OK(capsched_node_add(e, cs(host), cs("/r1"), (capsched_resource){8192, 8}, &nodes[i]));
    }
    uint64_t apps[2];
    const char *queues[2] = {"a", "b"};
    for (int i = 0; i < 2; i++) {
        OK(capsched_app_submit(e, cs(queues[i]), cs("alice"), CAPSCHED_DEFAULT_PRIORITY, &apps[i]));
        OK(capsched_attempt_add(e, apps[i], (capsched_resource){1024, 1}, 0, 0));
    }
    /* The passes place the AM containers (threaded: the engine thread's, after the calls). */
    for (int round = 0; known_count < 2; round++) {
        CHECK(round < 100000, "the AM containers came");
        if (mode == CAPSCHED_MODE_MANUAL) OK(capsched_engine_step(e, 1, NULL));
        else heartbeat(e, nodes[round % 3], NULL, 0);
        drain(e);
    }
    take_ams(e);
    int32_t rid[2] = {0, 0};
    uint64_t got[2][64];
    size_t got_count[2] = {0, 0};
    capsched_ask ask;
    memset(&ask, 0, sizeof ask);
    ask.priority = 1;
    ask.resource_name = cs("*");
    ask.capability = (capsched_resource){1024, 1};
    ask.num_containers = 8;
    ask.relax_locality = 1;
    ask.execution_type = CAPSCHED_GUARANTEED;
    for (int i = 0; i < 2; i++) got_count[i] = allocate(e, apps[i], &rid[i], &ask, 1, NULL, 0, got[i]);
    int64_t now = 1000;
    for (int round = 0; got_count[0] < 8 || got_count[1] < 8; round++) {
        CHECK(round < 100000, "the asks were served");
        if (mode == CAPSCHED_MODE_MANUAL) {
            OK(capsched_engine_step(e, 1, NULL));
            now += 10;
            OK(capsched_engine_tick(e, now, NULL));
        } else {
            heartbeat(e, nodes[round % 3], NULL, 0);
        }
        for (int i = 0; i < 2; i++)
            got_count[i] += allocate(e, apps[i], &rid[i], NULL, 0, NULL, 0, got[i] + got_count[i]);
    }
    /* Half run; the AM releases some; in manual mode the rest expire (never launched). */
    for (int i = 0; i < 3; i++) heartbeat(e, nodes[i], got[0], 4);
    uint64_t none[64];
    allocate(e, apps[0], &rid[0], NULL, 0, got[0], 2, none);
    if (mode == CAPSCHED_MODE_MANUAL) {
        OK(capsched_engine_tick(e, now + 700000, NULL));
        drain(e);
        int expired = 0;
        for (size_t i = 0; i < known_count; i++) expired += completed[i];
        CHECK(expired >= 2 + 8 + 4, "released and expired ones completed");
    }
    for (int i = 0; i < 2; i++) OK(capsched_attempt_remove(e, apps[i], 0));
    drain(e);
    CHECK(known_count == 2 + 16 && placed_events == known_count, "every container told placed once");
    for (size_t i = 0; i < known_count; i++) CHECK(completed[i], "container %zu completed", i);
    capsched_engine_free(e);
}

int main(void) {
    if (capsched_abi_version() != CAPSCHED_ABI_VERSION) {
        fprintf(stderr, "ABI mismatch\n");
        return 1;
    }
    play(CAPSCHED_MODE_MANUAL);
    size_t manual = known_count;
    play(CAPSCHED_MODE_THREADED);
    printf("placed host: all %d checks passed (%zu placed)\n", checks, manual + known_count);
    return 0;
}
