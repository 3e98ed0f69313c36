/* Loads the capacity-scheduler.xml given on the command line (validated with YARN's rules)
 * and prints the queue table of a cluster of ten 8 GB nodes. */
#include "common.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s capacity-scheduler.xml\n", argv[0]);
        return 2;
    }
    capsched_config *config = NULL;
    capsched_status st = capsched_config_from_file(cs(argv[1]), &config);
    if (st != CAPSCHED_OK) {
        fprintf(stderr, "%s: %s\n", capsched_status_name(st), capsched_last_error());
        return 1;
    }
    capsched_engine_options opts;
    MUST(capsched_engine_options_default(&opts));
    opts.mode = CAPSCHED_MODE_MANUAL;
    capsched_engine *engine = NULL;
    MUST(capsched_engine_new(config, &opts, &engine));
    capsched_config_free(config);
    char host[16];
    for (int i = 0; i < 10; i++) {
        uint64_t id;
        capsched_resource size = {8192, 8};
        snprintf(host, sizeof host, "node%d", i);
        MUST(capsched_node_add(engine, cs(host), cs("/rack"), size, &id));
    }
    capsched_queue_list *queues = NULL;
    MUST(capsched_engine_queues(engine, &queues));
    printf("%-32s %10s %10s\n", "queue", "capacity", "maximum");
    for (size_t i = 0; i < queues->count; i++) {
        const capsched_queue_info *q = &queues->queues[i];
        printf("%-32.*s %9.1f%% %9.1f%%\n", (int)q->path.len, q->path.ptr, q->absolute_capacity * 100.0,
               q->absolute_maximum_capacity * 100.0);
    }
    capsched_queue_list_free(queues);
    capsched_engine_free(engine);
    return 0;
}
