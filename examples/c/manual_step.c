/* A host that brings its own threads and time: a manual engine (no threads inside) with a
 * manual clock and asynchronous scheduling. The host advances time with capsched_engine_tick
 * and runs scheduling passes with capsched_engine_step. */
#include "common.h"

int main(void) {
    capsched_config *config = two_queue_config();
    capsched_engine_options opts;
    MUST(capsched_engine_options_default(&opts));
    opts.mode = CAPSCHED_MODE_MANUAL;
    opts.async_scheduling = 1;
    opts.manual_clock = 1;
    opts.clock_start_ms = 1000;
    capsched_engine *engine = NULL;
    MUST(capsched_engine_new(config, &opts, &engine));
    capsched_config_free(config);

    uint64_t node = 0, app = 0;
    capsched_resource size = {4096, 4};
    MUST(capsched_node_add(engine, cs("host0"), cs("/rack"), size, &node));
    MUST(capsched_app_submit(engine, cs("a"), cs("u"), CAPSCHED_DEFAULT_PRIORITY, &app));
    capsched_resource am = {1024, 1};
    MUST(capsched_attempt_add(engine, app, am, 0, 0));

    /* Asynchronous scheduling: a heartbeat alone allocates nothing... */
    capsched_node_response *nr = NULL;
    MUST(capsched_node_update(engine, node, NULL, &nr));
    printf("heartbeat allocated %u\n", nr->allocated);
    capsched_node_response_free(nr);
    /* ...a pass does: each tick runs one (and expiry), as does each step. */
    uint32_t allocated = 0;
    MUST(capsched_engine_tick(engine, 1100, &allocated));
    printf("tick allocated %u\n", allocated);
    MUST(capsched_engine_step(engine, 1, &allocated));
    printf("step allocated %u\n", allocated);

    capsched_allocate_request req;
    memset(&req, 0, sizeof req);
    req.struct_size = sizeof req;
    capsched_allocate_response *r = NULL;
    MUST(capsched_allocate(engine, app, &req, &r));
    printf("AM container: %s\n", r->allocated_count == 1 && r->allocated[0].is_am ? "yes" : "no");
    capsched_allocate_response_free(r);

    /* Time may not go backwards. */
    capsched_status st = capsched_engine_tick(engine, 500, NULL);
    printf("tick back in time: %s (%s)\n", capsched_status_name(st), capsched_last_error());

    /* Never launched: ten minutes later the allocation expires. */
    MUST(capsched_engine_tick(engine, 1100 + 600001, NULL));
    capsched_event events[16];
    size_t n = 0;
    MUST(capsched_poll_events(engine, events, 16, &n, NULL));
    int expired = 0;
    for (size_t i = 0; i < n; i++) expired += events[i].kind == CAPSCHED_EVENT_EXPIRED;
    printf("events: %zu, expired: %d\n", n, expired);
    capsched_engine_free(engine);
    printf("done\n");
    return 0;
}
