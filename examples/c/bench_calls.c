/* The cost of a C call through the library: p50/p99 latency (µs) of submit, an empty allocate
 * and an empty node update, from 1 and 8 host threads, on a threaded engine. Compare with
 * `capsched bench calls` (the same calls from Rust). Usage: bench_calls [calls per kind]. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <time.h>

#include "common.h"

#define NODES 64

static capsched_engine *engine;
static uint64_t nodes[NODES];
static size_t per_thread;

typedef struct {
    int id;
    double *submit, *allocate, *update;
} job;

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void *worker(void *arg) {
    job *j = arg;
    char queue[8];
    capsched_allocate_request req;
    memset(&req, 0, sizeof req);
    req.struct_size = sizeof req;
    capsched_resource am = {1024, 1};
    for (size_t i = 0; i < per_thread; i++) {
        snprintf(queue, sizeof queue, "%s", (i + j->id) % 2 ? "a" : "b");
        uint64_t app = 0;
        double t0 = now_us();
        MUST(capsched_app_submit(engine, cs(queue), cs("u"), CAPSCHED_DEFAULT_PRIORITY, &app));
        j->submit[i] = now_us() - t0;
        MUST(capsched_attempt_add(engine, app, am, 1, 0)); /* unmanaged: no AM container */
        capsched_allocate_response *r = NULL;
        t0 = now_us();
        MUST(capsched_allocate(engine, app, &req, &r));
        j->allocate[i] = now_us() - t0;
        capsched_allocate_response_free(r);
        capsched_node_response *nr = NULL;
        t0 = now_us();
        MUST(capsched_node_update(engine, nodes[(i * 8 + j->id) % NODES], NULL, &nr));
        j->update[i] = now_us() - t0;
        capsched_node_response_free(nr);
        MUST(capsched_app_remove(engine, app));
    }
    return NULL;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *what, double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp);
    printf(" %8.1f / %-7.1f", v[n / 2], v[(size_t)(n * 0.99)]);
    (void)what;
}

int main(int argc, char **argv) {
    size_t calls = argc > 1 ? (size_t)atol(argv[1]) : 20000;
    capsched_config *config = two_queue_config();
    capsched_engine_options opts;
    MUST(capsched_engine_options_default(&opts));
    opts.async_scheduling = 0;
    opts.preemption = 0;
    MUST(capsched_engine_new(config, &opts, &engine));
    capsched_config_free(config);
    char host[16];
    for (int n = 0; n < NODES; n++) {
        snprintf(host, sizeof host, "host%d", n);
        capsched_resource size = {65536, 64};
        MUST(capsched_node_add(engine, cs(host), cs("/rack"), size, &nodes[n]));
    }
    printf("C host call latency, us (p50 / p99), %zu calls of each kind\n", calls);
    printf("%7s %17s %17s %17s\n", "threads", "submit", "allocate", "node update");
    int thread_counts[] = {1, 8};
    for (int k = 0; k < 2; k++) {
        int threads = thread_counts[k];
        per_thread = calls / threads;
        size_t n = per_thread * threads;
        double *s = malloc(n * sizeof *s), *a = malloc(n * sizeof *a), *u = malloc(n * sizeof *u);
        pthread_t t[8];
        job jobs[8];
        for (int i = 0; i < threads; i++) {
            jobs[i].id = i;
            jobs[i].submit = s + i * per_thread;
            jobs[i].allocate = a + i * per_thread;
            jobs[i].update = u + i * per_thread;
            pthread_create(&t[i], NULL, worker, &jobs[i]);
        }
        for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
        printf("%7d", threads);
        report("submit", s, n);
        report("allocate", a, n);
        report("update", u, n);
        printf("\n");
        free(s);
        free(a);
        free(u);
    }
    capsched_engine_free(engine);
    return 0;
}
