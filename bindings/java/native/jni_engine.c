/* Engines (src/ffi/engine.rs): start, stop, the clock and passes, refreshes, the scheduler
 * document, the cluster and queue summaries, and the events drained after every call. */
#include "jni_common.h"

/* o: mode, seed, async, preemption, event_capacity, manual_clock, clock_start_ms,
 *    cluster_timestamp, rm_epoch */
JNIEXPORT jlong JNICALL FN(engineNew)(JNIEnv *env, jclass cls, jlong config, jlongArray options) {
    (void)cls;
    jlong o[9];
    if (options == NULL || (*env)->GetArrayLength(env, options) != 9) {
        throw_invalid(env, "engine options: 9 values expected");
        return 0;
    }
    (*env)->GetLongArrayRegion(env, options, 0, 9, o);
    capsched_engine_options opts;
    if (failed(env, capsched_engine_options_default(&opts))) return 0;
    opts.mode = (int32_t)o[0];
    opts.seed = (uint64_t)o[1];
    opts.async_scheduling = (int32_t)o[2];
    opts.preemption = (int32_t)o[3];
    opts.event_capacity = (uint32_t)o[4];
    opts.manual_clock = (int32_t)o[5];
    opts.clock_start_ms = o[6];
    opts.cluster_timestamp = o[7];
    opts.rm_epoch = o[8];
    capsched_engine *e = NULL;
    if (failed(env, capsched_engine_new((const capsched_config *)(intptr_t)config, &opts, &e))) return 0;
    return (jlong)(intptr_t)e;
}

JNIEXPORT void JNICALL FN(engineStop)(JNIEnv *env, jclass cls, jlong e) {
    (void)cls;
    failed(env, capsched_engine_stop(E(e)));
}

JNIEXPORT void JNICALL FN(engineFree)(JNIEnv *env, jclass cls, jlong e) {
    (void)env;
    (void)cls;
    capsched_engine_free((capsched_engine *)(intptr_t)e);
}

JNIEXPORT jint JNICALL FN(engineTick)(JNIEnv *env, jclass cls, jlong e, jlong now_ms) {
    (void)cls;
    uint32_t n = 0;
    return failed(env, capsched_engine_tick(E(e), now_ms, &n)) ? 0 : (jint)n;
}

JNIEXPORT jint JNICALL FN(engineStep)(JNIEnv *env, jclass cls, jlong e, jint passes) {
    (void)cls;
    uint32_t n = 0;
    return failed(env, capsched_engine_step(E(e), (uint32_t)passes, &n)) ? 0 : (jint)n;
}

JNIEXPORT void JNICALL FN(refreshQueues)(JNIEnv *env, jclass cls, jlong e, jlong config) {
    (void)cls;
    failed(env, capsched_engine_refresh_queues(E(e), (const capsched_config *)(intptr_t)config));
}

JNIEXPORT jbyteArray JNICALL FN(schedulerJson)(JNIEnv *env, jclass cls, jlong e) {
    (void)cls;
    capsched_owned_str s = {NULL, 0};
    if (failed(env, capsched_engine_scheduler_json(E(e), &s))) return NULL;
    return owned_out(env, s);
}

JNIEXPORT void JNICALL FN(checkInvariants)(JNIEnv *env, jclass cls, jlong e) {
    (void)cls;
    failed(env, capsched_engine_check_invariants(E(e)));
}

/* resource (2), num_nodes, num_applications, num_containers, dropped_events */
JNIEXPORT jlongArray JNICALL FN(clusterInfo)(JNIEnv *env, jclass cls, jlong e) {
    (void)cls;
    capsched_cluster_info c;
    if (failed(env, capsched_engine_cluster_info(E(e), &c))) return NULL;
    jlong o[6] = {c.resource.memory_mb, c.resource.vcores, (jlong)c.num_nodes, (jlong)c.num_applications,
                  (jlong)c.num_containers, (jlong)c.dropped_events};
    return longs_out(env, o, 6);
}

/* {byte[][] paths, long[] per queue: used (2), pending (2), reserved (2), absolute capacity and
 *  maximum (float bits), num_applications} */
JNIEXPORT jobjectArray JNICALL FN(queues)(JNIEnv *env, jclass cls, jlong e) {
    (void)cls;
    capsched_queue_list *l = NULL;
    if (failed(env, capsched_engine_queues(E(e), &l))) return NULL;
    jobjectArray out = objects(env, 2);
    jobjectArray paths = (*env)->NewObjectArray(env, (jsize)l->count, g_bytes, NULL);
    jlong *v = calloc(l->count * 9 + 1, sizeof(jlong));
    if (out != NULL && paths != NULL && v != NULL) {
        for (size_t i = 0; i < l->count; i++) {
            const capsched_queue_info *q = &l->queues[i];
            put(env, paths, (jsize)i, bytes_out(env, q->path.ptr, q->path.len));
            jlong *o = v + i * 9;
            o[0] = q->used.memory_mb;
            o[1] = q->used.vcores;
            o[2] = q->pending.memory_mb;
            o[3] = q->pending.vcores;
            o[4] = q->reserved.memory_mb;
            o[5] = q->reserved.vcores;
            union {
                float f;
                int32_t i;
            } a, m;
            a.f = q->absolute_capacity;
            m.f = q->absolute_maximum_capacity;
            o[6] = a.i;
            o[7] = m.i;
            o[8] = q->num_applications;
        }
        put(env, out, 0, paths);
        put(env, out, 1, longs_out(env, v, l->count * 9));
    }
    free(v);
    capsched_queue_list_free(l);
    return out;
}

/* EVENT_LONGS per event, the dropped count, then PLACED_LONGS per CONTAINER_PLACED event: its
 * container's report, looked up here in the same crossing, so the host creates its
 * RMContainer from the event alone (found 0 when the container had ended by now: its
 * CONTAINER_COMPLETED follows). */
jlongArray events_out(JNIEnv *env, jlong e, jint max) {
    if (max <= 0) max = 1;
    capsched_event *events = calloc((size_t)max, sizeof(capsched_event));
    if (events == NULL) {
        throw_invalid(env, "out of memory");
        return NULL;
    }
    size_t n = 0;
    uint64_t dropped = 0;
    if (failed(env, capsched_poll_events(E(e), events, (size_t)max, &n, &dropped))) {
        free(events);
        return NULL;
    }
    size_t placed = 0;
    for (size_t i = 0; i < n; i++) placed += events[i].kind == CAPSCHED_EVENT_CONTAINER_PLACED;
    size_t total = n * EVENT_LONGS + 1 + placed * PLACED_LONGS;
    jlong *packed = calloc(total, sizeof(jlong));
    if (packed == NULL) {
        free(events);
        throw_invalid(env, "out of memory");
        return NULL;
    }
    jlong *details = packed + n * EVENT_LONGS + 1;
    for (size_t i = 0; i < n; i++) {
        jlong *o = packed + i * EVENT_LONGS;
        o[0] = events[i].kind;
        o[1] = (jlong)events[i].app;
        o[2] = (jlong)events[i].container;
        o[3] = (jlong)events[i].node;
        pack_id(o + 4, events[i].yarn_id);
        o[8] = events[i].code;
        if (events[i].kind == CAPSCHED_EVENT_CONTAINER_PLACED) {
            capsched_container_info info;
            if (capsched_container_get(E(e), events[i].container, &info) == CAPSCHED_OK) {
                details[0] = 1;
                pack_info(details + 1, &info);
            }
            details += PLACED_LONGS;
        }
    }
    packed[n * EVENT_LONGS] = (jlong)dropped;
    jlongArray out = longs_out(env, packed, total);
    free(events);
    free(packed);
    return out;
}

JNIEXPORT jlongArray JNICALL FN(pollEvents)(JNIEnv *env, jclass cls, jlong e, jint max) {
    (void)cls;
    return events_out(env, e, max);
}
