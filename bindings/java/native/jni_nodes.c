/* Nodes (src/ffi/nodes.rs): added (with a re-registering NodeManager's containers), removed,
 * and their heartbeats. */
#include "jni_common.h"

JNIEXPORT jlong JNICALL FN(nodeAdd)(JNIEnv *env, jclass cls, jlong e, jbyteArray host, jbyteArray rack,
                                     jlong memory, jlong vcores) {
    (void)cls;
    jstr h, r;
    if (!str_in(env, host, &h)) return 0;
    if (!str_in(env, rack, &r)) {
        str_done(env, &h);
        return 0;
    }
    uint64_t node = 0;
    capsched_resource res = {memory, vcores};
    capsched_status st = capsched_node_add(E(e), h.str, r.str, res, &node);
    str_done(env, &h);
    str_done(env, &r);
    return failed(env, st) ? 0 : (jlong)node;
}

/* reports: 7 longs each (app, memory, vcores, priority, allocation_request_id, container_id,
 * is_am): the containers a re-registering NodeManager runs. */
JNIEXPORT jlong JNICALL FN(nodeAddRecovered)(JNIEnv *env, jclass cls, jlong e, jbyteArray host, jbyteArray rack,
                                              jlong memory, jlong vcores, jlongArray reports) {
    (void)cls;
    jlong *v = NULL;
    jsize nv = 0;
    if (!longs_in(env, reports, &v, &nv)) return 0;
    if (nv % 7 != 0) {
        free(v);
        throw_invalid(env, "container reports: 7 values each expected");
        return 0;
    }
    size_t n = (size_t)nv / 7;
    capsched_container_report *r = calloc(n + 1, sizeof(capsched_container_report));
    jstr h, k;
    if (r == NULL || !str_in(env, host, &h)) {
        free(v);
        free(r);
        return 0;
    }
    if (!str_in(env, rack, &k)) {
        str_done(env, &h);
        free(v);
        free(r);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        const jlong *x = v + i * 7;
        r[i].app = (uint64_t)x[0];
        r[i].resource.memory_mb = x[1];
        r[i].resource.vcores = x[2];
        r[i].priority = (int32_t)x[3];
        r[i].allocation_request_id = x[4];
        r[i].container_id = x[5];
        r[i].is_am = (int32_t)x[6];
    }
    uint64_t node = 0;
    capsched_resource res = {memory, vcores};
    capsched_status st = capsched_node_add_recovered(E(e), h.str, k.str, res, r, n, &node);
    str_done(env, &h);
    str_done(env, &k);
    free(v);
    free(r);
    return failed(env, st) ? 0 : (jlong)node;
}

JNIEXPORT void JNICALL FN(nodeRemove)(JNIEnv *env, jclass cls, jlong e, jlong node) {
    (void)cls;
    failed(env, capsched_node_remove(E(e), (uint64_t)node));
}

/* {long[] misc: allocated, decommissioned, has_queuing_limit, max_queue_length,
 *  max_queue_wait_ms; long[] to_kill; long[] allocated containers; byte[][] their hosts;
 *  then, when poll_max > 0, long[] the events polled after the heartbeat (as pollEvents) and
 *  long[1] the figures version after them}: a host's whole heartbeat in one crossing. */
JNIEXPORT jobjectArray JNICALL FN(nodeUpdate)(JNIEnv *env, jclass cls, jlong e, jlong node, jlongArray launched,
                                               jlongArray completed, jintArray exit_statuses,
                                               jobjectArray diagnostics, jint poll_max) {
    (void)cls;
    jlong *l = NULL, *c = NULL;
    jsize nl = 0, nc = 0;
    jstrs d = {0, NULL, NULL};
    jobjectArray out = NULL;
    capsched_completed_container *done = NULL;
    if (!longs_in(env, launched, &l, &nl) || !longs_in(env, completed, &c, &nc)) goto end;
    if (!strs_in(env, diagnostics, &d)) goto end;
    jsize ns = exit_statuses == NULL ? 0 : (*env)->GetArrayLength(env, exit_statuses);
    if (ns != nc || (diagnostics != NULL && d.count != nc)) {
        throw_invalid(env, "completed containers: as many exit statuses (and diagnostics) as ids expected");
        goto end;
    }
    done = calloc((size_t)nc + 1, sizeof(capsched_completed_container));
    if (done == NULL) goto end;
    for (jsize i = 0; i < nc; i++) {
        jint status = 0;
        (*env)->GetIntArrayRegion(env, exit_statuses, i, 1, &status);
        done[i].container = (uint64_t)c[i];
        done[i].exit_status = status;
        if (diagnostics != NULL) done[i].diagnostics = d.strs[i];
    }
    capsched_node_status st;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    st.launched = (const uint64_t *)l;
    st.launched_count = (size_t)nl;
    st.completed = done;
    st.completed_count = (size_t)nc;
    capsched_node_response *r = NULL;
    if (failed(env, capsched_node_update(E(e), (uint64_t)node, &st, &r))) goto end;
    out = objects(env, 6);
    if (out != NULL) {
        jlong misc[5] = {r->allocated, r->decommissioned, r->has_queuing_limit, r->max_queue_length,
                         r->max_queue_wait_ms};
        put(env, out, 0, longs_out(env, misc, 5));
        put(env, out, 1, longs_out(env, (const jlong *)r->to_kill, r->to_kill_count));
        containers_out(env, r->allocated_containers, r->allocated_container_count, out, 2);
    }
    capsched_node_response_free(r);
    if (out != NULL && poll_max > 0 && !(*env)->ExceptionCheck(env)) {
        /* The heartbeat has happened: a failed poll must not lose its answer. The events stay
         * out (null), and the host polls them on its own, where the failure is told. */
        jlongArray events = events_out(env, e, poll_max);
        uint64_t version = 0;
        if (events == NULL) {
            (*env)->ExceptionClear(env);
        } else {
            /* -1: not read (the host asks for the version itself). */
            jlong v = capsched_engine_figures_version(E(e), &version) == CAPSCHED_OK ? (jlong)version : -1;
            put(env, out, 4, events);
            put(env, out, 5, longs_out(env, &v, 1));
        }
    }
end:
    free(l);
    free(c);
    free(done);
    strs_done(env, &d);
    return out;
}
