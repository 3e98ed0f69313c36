/* Node labels (partitions) from a C host: the RM's label-manager calls — a cluster label
 * added, a node labelled, both listed back — then an application whose submission names the
 * label: its AM and its unlabelled asks go to the labelled node, an ask with an empty
 * expression to the default partition (label expressions ride beside the asks, in
 * capsched_allocate_request.ask_labels). The label manager's refusal comes with YARN's words;
 * relabelling the node moves the application's usage to the default partition. */
#include "common.h"

static void print_usage(capsched_engine *engine, const char *label) {
    capsched_partition_usage u;
    MUST(capsched_queue_partition_usage(engine, cs("ml"), cs(label), &u));
    printf("ml in %s: %lld MB used, AM %lld MB\n", *label ? label : "<default>", (long long)u.used.memory_mb,
           (long long)u.am_used.memory_mb);
}

static void print_partition(capsched_engine *engine, const char *host, uint64_t node) {
    capsched_owned_str p;
    MUST(capsched_node_partition(engine, node, &p));
    printf("%s: %s\n", host, p.len ? p.ptr : "<default>");
    capsched_string_free(p);
}

int main(void) {
    capsched_str keys[] = {cs("yarn.node-labels.enabled"),
                           cs("yarn.scheduler.capacity.root.queues"),
                           cs("yarn.scheduler.capacity.root.accessible-node-labels.gpu.capacity"),
                           cs("yarn.scheduler.capacity.root.ml.capacity"),
                           cs("yarn.scheduler.capacity.root.ml.maximum-capacity"),
                           cs("yarn.scheduler.capacity.root.ml.user-limit-factor"),
                           cs("yarn.scheduler.capacity.root.ml.accessible-node-labels"),
                           cs("yarn.scheduler.capacity.root.ml.accessible-node-labels.gpu.capacity"),
                           cs("yarn.scheduler.capacity.root.etl.capacity"),
                           cs("yarn.scheduler.capacity.maximum-am-resource-percent")};
    capsched_str values[] = {cs("true"), cs("ml,etl"), cs("100"), cs("50"), cs("100"),
                             cs("2"),    cs("gpu"),    cs("100"), cs("50"), cs("1")};
    capsched_config *config = NULL;
    MUST(capsched_config_from_pairs(keys, values, sizeof keys / sizeof keys[0], &config));
    capsched_engine_options options;
    MUST(capsched_engine_options_default(&options));
    options.mode = CAPSCHED_MODE_MANUAL; /* this host drives every heartbeat */
    capsched_engine *engine = NULL;
    MUST(capsched_engine_new(config, &options, &engine));
    capsched_config_free(config);

    /* The cluster's labels, and a node carrying one. */
    capsched_node_label gpu = {cs("gpu"), 1};
    MUST(capsched_node_labels_add(engine, &gpu, 1));
    uint64_t nodes[2];
    capsched_resource size = {8192, 8};
    MUST(capsched_node_add(engine, cs("host1"), cs("/rack1"), size, &nodes[0]));
    MUST(capsched_node_add(engine, cs("host2"), cs("/rack1"), size, &nodes[1]));
    capsched_node_label_mapping to_gpu = {cs("host1"), cs("gpu")};
    MUST(capsched_node_labels_replace(engine, &to_gpu, 1));

    capsched_node_label_list *labels = NULL;
    MUST(capsched_node_labels_get(engine, &labels));
    for (size_t i = 0; i < labels->count; i++) {
        printf("cluster label: %.*s (%s)\n", (int)labels->labels[i].name.len, labels->labels[i].name.ptr,
               labels->labels[i].exclusive ? "exclusive" : "shared");
    }
    capsched_node_label_list_free(labels);
    print_partition(engine, "host1", nodes[0]);
    print_partition(engine, "host2", nodes[1]);

    /* The label manager refuses with YARN's words: a label's exclusivity is fixed. */
    capsched_node_label shared = {cs("gpu"), 0};
    capsched_status st = capsched_node_labels_add(engine, &shared, 1);
    printf("refused: %s: %s\n", capsched_status_name(st), capsched_last_error());

    /* The application's label is its AM's, and its unlabelled ANY asks'. */
    capsched_submission sub;
    memset(&sub, 0, sizeof sub);
    sub.struct_size = sizeof sub;
    sub.queue = cs("ml");
    sub.user = cs("alice");
    sub.priority = CAPSCHED_DEFAULT_PRIORITY;
    sub.node_label_expression = cs("gpu");
    uint64_t app = 0;
    MUST(capsched_app_submit_as(engine, &sub, &app));
    capsched_resource am = {1024, 1};
    MUST(capsched_attempt_add(engine, app, am, 0, 0));

    capsched_ask asks[2];
    memset(asks, 0, sizeof asks);
    for (int i = 0; i < 2; i++) {
        asks[i].priority = i + 1;
        asks[i].resource_name = cs("*");
        asks[i].capability.vcores = 1;
        asks[i].relax_locality = 1;
        asks[i].execution_type = CAPSCHED_GUARANTEED;
    }
    asks[0].capability.memory_mb = 2048;
    asks[0].num_containers = 2;
    asks[1].capability.memory_mb = 1024;
    asks[1].num_containers = 1;
    /* asks[0] names nothing (NULL: the application's gpu); asks[1] the default partition. */
    capsched_str ask_labels[2] = {{NULL, 0}, {"", 0}};

    capsched_allocate_request req;
    memset(&req, 0, sizeof req);
    req.struct_size = sizeof req;
    req.asks = asks;
    req.ask_count = 2;
    req.ask_labels = ask_labels;
    req.ask_label_count = 2;

    int got = 0;
    for (int round = 0; round < 10 && got < 4; round++) {
        for (int n = 0; n < 2; n++) {
            capsched_node_response *nr = NULL;
            MUST(capsched_node_update(engine, nodes[n], NULL, &nr));
            for (size_t i = 0; i < nr->allocated_container_count; i++) {
                const capsched_container *c = &nr->allocated_containers[i];
                printf("%s: %lld MB on %.*s\n", c->is_am ? "AM container" : "container",
                       (long long)c->resource.memory_mb, (int)c->host.len, c->host.ptr);
                got++;
            }
            capsched_node_response_free(nr);
        }
        capsched_allocate_response *r = NULL;
        MUST(capsched_allocate(engine, app, &req, &r));
        req.response_id = r->response_id;
        req.ask_count = 0; /* asked once; the parallel array goes with its asks */
        req.ask_label_count = 0;
        capsched_allocate_response_free(r);
    }
    print_usage(engine, "gpu");
    print_usage(engine, "");

    /* host1 loses its label: its containers stay, their usage moves to the default partition. */
    capsched_node_label_mapping unlabel = {cs("host1"), cs("")};
    MUST(capsched_node_labels_replace(engine, &unlabel, 1));
    printf("after relabelling host1:\n");
    print_usage(engine, "gpu");
    print_usage(engine, "");
    MUST(capsched_engine_check_invariants(engine));

    capsched_engine_free(engine);
    printf("done\n");
    return 0;
}
