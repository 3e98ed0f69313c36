/* A minimal capsched host: a configuration, an engine, two nodes, one application, asks,
 * heartbeats until the containers arrive, a release, and shutdown. Every call's status is
 * checked; on failure the library's message is printed. */
#include <stdio.h>
#include <string.h>

#include "capsched.h"

static capsched_str str(const char *s) {
    capsched_str r;
    r.ptr = s;
    r.len = strlen(s);
    return r;
}

#define CHECK(call)                                                                    \
    do {                                                                               \
        capsched_status st_ = (call);                                                  \
        if (st_ != CAPSCHED_OK) {                                                      \
            fprintf(stderr, "%s failed: %s: %s\n", #call, capsched_status_name(st_),   \
                    capsched_last_error());                                            \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

int main(void) {
    if (capsched_abi_version() != CAPSCHED_ABI_VERSION) {
        fprintf(stderr, "ABI mismatch\n");
        return 1;
    }
    printf("capsched %s\n", capsched_version());

    capsched_str keys[] = {str("yarn.scheduler.capacity.root.queues"),
                           str("yarn.scheduler.capacity.root.default.capacity")};
    capsched_str values[] = {str("default"), str("100")};
    capsched_config *config = NULL;
    CHECK(capsched_config_from_pairs(keys, values, 2, &config));

    capsched_engine *engine = NULL;
    CHECK(capsched_engine_new(config, NULL, &engine));
    capsched_config_free(config); /* the engine keeps its own reference */

    uint64_t nodes[2];
    capsched_resource node_size = {8192, 8};
    CHECK(capsched_node_add(engine, str("host1"), str("/rack1"), node_size, &nodes[0]));
    CHECK(capsched_node_add(engine, str("host2"), str("/rack1"), node_size, &nodes[1]));

    uint64_t app = 0;
    CHECK(capsched_app_submit(engine, str("default"), str("alice"), CAPSCHED_DEFAULT_PRIORITY, &app));
    capsched_resource am = {1024, 1};
    CHECK(capsched_attempt_add(engine, app, am, 0, 0));

    capsched_ask ask;
    memset(&ask, 0, sizeof ask);
    ask.priority = 1;
    ask.resource_name = str("*");
    ask.capability.memory_mb = 2048;
    ask.capability.vcores = 1;
    ask.num_containers = 3;
    ask.relax_locality = 1;
    ask.execution_type = CAPSCHED_GUARANTEED;

    capsched_allocate_request req;
    memset(&req, 0, sizeof req);
    req.struct_size = sizeof req;

    uint64_t tasks[3];
    size_t got = 0;
    int am_seen = 0;
    for (int round = 0; round < 50 && got < 3; round++) {
        for (int n = 0; n < 2; n++) {
            capsched_node_response *nr = NULL;
            CHECK(capsched_node_update(engine, nodes[n], NULL, &nr));
            capsched_node_response_free(nr);
        }
        if (am_seen) {
            req.asks = &ask;
            req.ask_count = 1;
        }
        capsched_allocate_response *r = NULL;
        CHECK(capsched_allocate(engine, app, &req, &r));
        req.response_id = r->response_id;
        req.asks = NULL;
        req.ask_count = 0;
        for (size_t i = 0; i < r->allocated_count; i++) {
            const capsched_container *c = &r->allocated[i];
            if (c->is_am) {
                am_seen = 1;
                printf("AM container on %.*s\n", (int)c->host.len, c->host.ptr);
            } else if (got < 3) {
                tasks[got++] = c->id;
                printf("container %zu: %lld MB on %.*s\n", got, (long long)c->resource.memory_mb,
                       (int)c->host.len, c->host.ptr);
            }
        }
        if (am_seen && round == 0) {
            ask.num_containers = 3; /* asked once the AM runs */
        }
        capsched_allocate_response_free(r);
    }
    if (got != 3) {
        fprintf(stderr, "only %zu containers arrived\n", got);
        return 1;
    }

    /* Release one: its completion comes back in the same response. */
    req.releases = &tasks[0];
    req.release_count = 1;
    capsched_allocate_response *r = NULL;
    CHECK(capsched_allocate(engine, app, &req, &r));
    for (size_t i = 0; i < r->completed_count; i++) {
        printf("completed: exit %d (%.*s)\n", r->completed[i].exit_status,
               (int)r->completed[i].diagnostics.len, r->completed[i].diagnostics.ptr);
    }
    capsched_allocate_response_free(r);

    capsched_owned_str json;
    CHECK(capsched_engine_scheduler_json(engine, &json));
    printf("scheduler JSON: %zu bytes\n", json.len);
    capsched_string_free(json);

    CHECK(capsched_engine_stop(engine));
    capsched_engine_free(engine);
    printf("done\n");
    return 0;
}
