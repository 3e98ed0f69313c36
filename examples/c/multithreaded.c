/* Several host threads against one engine: two NodeManager threads heartbeat their nodes and
 * four AM threads each run an application (ask, receive, finish containers through the NM
 * side, unregister). The engine is shared without any locking by the host. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "common.h"

#define NODES 4
#define AMS 4
#define TASKS 6

static capsched_engine *engine;
static uint64_t nodes[NODES];
static atomic_int ams_done;
/* Containers the AMs launched, for their nodes' NM threads to finish. The host's own
 * bookkeeping has its own lock; the engine needs none. */
static pthread_mutex_t mailbox_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { uint64_t node, container; } mailbox[AMS * TASKS];
static size_t mailbox_len;

static void nap(void) {
    struct timespec t = {0, 2000000}; /* 2 ms */
    nanosleep(&t, NULL);
}

static void *nm_thread(void *arg) {
    int first = *(int *)arg;
    while (atomic_load(&ams_done) < AMS) {
        for (int n = first; n < NODES; n += 2) {
            /* Finish every task container launched on this node so far (exit 0). */
            capsched_completed_container done[AMS * TASKS];
            size_t k = 0;
            pthread_mutex_lock(&mailbox_lock);
            for (size_t i = 0; i < mailbox_len;) {
                if (mailbox[i].node == nodes[n]) {
                    done[k].container = mailbox[i].container;
                    done[k].exit_status = 0;
                    done[k].diagnostics = cs("");
                    k++;
                    mailbox[i] = mailbox[--mailbox_len];
                } else {
                    i++;
                }
            }
            pthread_mutex_unlock(&mailbox_lock);
            capsched_node_status st;
            memset(&st, 0, sizeof st);
            st.struct_size = sizeof st;
            st.completed = done;
            st.completed_count = k;
            capsched_node_response *r = NULL;
            MUST(capsched_node_update(engine, nodes[n], &st, &r));
            capsched_node_response_free(r);
        }
        nap();
    }
    return NULL;
}

static void *am_thread(void *arg) {
    int me = *(int *)arg;
    uint64_t app = 0;
    MUST(capsched_app_submit(engine, cs(me % 2 ? "b" : "a"), cs("user"), CAPSCHED_DEFAULT_PRIORITY, &app));
    capsched_resource am = {1024, 1};
    MUST(capsched_attempt_add(engine, app, am, 0, 0));
    capsched_ask ask;
    memset(&ask, 0, sizeof ask);
    ask.priority = 1;
    ask.resource_name = cs("*");
    ask.capability.memory_mb = 1024;
    ask.capability.vcores = 1;
    ask.num_containers = TASKS;
    ask.relax_locality = 1;
    capsched_allocate_request req;
    memset(&req, 0, sizeof req);
    req.struct_size = sizeof req;
    int am_running = 0, asked = 0, received = 0, finished = 0;
    while (finished < TASKS) {
        int ask_now = am_running && !asked;
        req.asks = ask_now ? &ask : NULL;
        req.ask_count = ask_now ? 1 : 0;
        asked |= ask_now;
        capsched_allocate_response *r = NULL;
        MUST(capsched_allocate(engine, app, &req, &r));
        req.response_id = r->response_id;
        for (size_t i = 0; i < r->allocated_count; i++) {
            if (r->allocated[i].is_am) {
                am_running = 1;
            } else {
                received++;
                pthread_mutex_lock(&mailbox_lock);
                mailbox[mailbox_len].node = r->allocated[i].node;
                mailbox[mailbox_len].container = r->allocated[i].id;
                mailbox_len++;
                pthread_mutex_unlock(&mailbox_lock);
            }
        }
        for (size_t i = 0; i < r->completed_count; i++) {
            if (r->completed[i].exit_status == 0) finished++;
        }
        capsched_allocate_response_free(r);
        nap();
    }
    MUST(capsched_app_remove(engine, app));
    printf("am %d: %d containers received, %d finished\n", me, received, finished);
    atomic_fetch_add(&ams_done, 1);
    return NULL;
}

int main(void) {
    capsched_config *config = two_queue_config();
    MUST(capsched_engine_new(config, NULL, &engine));
    capsched_config_free(config);
    char host[16];
    for (int n = 0; n < NODES; n++) {
        snprintf(host, sizeof host, "host%d", n);
        capsched_resource size = {8192, 8};
        MUST(capsched_node_add(engine, cs(host), cs("/rack"), size, &nodes[n]));
    }
    pthread_t nm[2], am[AMS];
    int ids[AMS] = {0, 1, 2, 3};
    for (int i = 0; i < 2; i++) pthread_create(&nm[i], NULL, nm_thread, &ids[i]);
    for (int i = 0; i < AMS; i++) pthread_create(&am[i], NULL, am_thread, &ids[i]);
    for (int i = 0; i < AMS; i++) pthread_join(am[i], NULL);
    for (int i = 0; i < 2; i++) pthread_join(nm[i], NULL);
    capsched_cluster_info info;
    MUST(capsched_engine_cluster_info(engine, &info));
    /* Every container the threads saw came and went through the books. */
    MUST(capsched_engine_check_invariants(engine));
    printf("applications left: %llu, containers left: %llu\n", (unsigned long long)info.num_applications,
           (unsigned long long)info.num_containers);
    capsched_engine_free(engine);
    printf("done\n");
    return 0;
}
