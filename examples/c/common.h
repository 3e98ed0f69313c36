/* Helpers shared by the C examples. */
#ifndef CAPSCHED_EXAMPLE_COMMON_H
#define CAPSCHED_EXAMPLE_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsched.h"

static inline capsched_str cs(const char *s) {
    capsched_str r;
    r.ptr = s;
    r.len = strlen(s);
    return r;
}

/* Exits with the library's message when a call fails. */
#define MUST(call)                                                                     \
    do {                                                                               \
        capsched_status st_ = (call);                                                  \
        if (st_ != CAPSCHED_OK) {                                                      \
            fprintf(stderr, "%s failed: %s: %s\n", #call, capsched_status_name(st_),   \
                    capsched_last_error());                                            \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

/* Two leaf queues sharing the cluster. */
static inline capsched_config *two_queue_config(void) {
    capsched_str keys[] = {cs("yarn.scheduler.capacity.root.queues"),
                           cs("yarn.scheduler.capacity.root.a.capacity"),
                           cs("yarn.scheduler.capacity.root.b.capacity"),
                           cs("yarn.scheduler.capacity.root.a.maximum-capacity"),
                           cs("yarn.scheduler.capacity.root.b.maximum-capacity"),
                           cs("yarn.scheduler.capacity.maximum-am-resource-percent")};
    capsched_str values[] = {cs("a,b"), cs("50"), cs("50"), cs("100"), cs("100"), cs("0.5")};
    capsched_config *config = NULL;
    MUST(capsched_config_from_pairs(keys, values, 6, &config));
    return config;
}

#endif
