/* Applications and attempts (src/ffi/apps.rs): attempts added, recovered and removed,
 * applications removed, moved and re-prioritised, expiry, and the AM's allocate. */
#include "jni_common.h"

JNIEXPORT void JNICALL FN(attemptAdd)(JNIEnv *env, jclass cls, jlong e, jlong app, jlong memory, jlong vcores,
                                      jboolean unmanaged, jboolean keep) {
    (void)cls;
    capsched_resource r = {memory, vcores};
    failed(env, capsched_attempt_add(E(e), (uint64_t)app, r, unmanaged ? 1 : 0, keep ? 1 : 0));
}

JNIEXPORT void JNICALL FN(attemptRecover)(JNIEnv *env, jclass cls, jlong e, jlong app, jlong memory, jlong vcores,
                                          jboolean unmanaged) {
    (void)cls;
    capsched_resource r = {memory, vcores};
    failed(env, capsched_attempt_recover(E(e), (uint64_t)app, r, unmanaged ? 1 : 0));
}

JNIEXPORT void JNICALL FN(attemptRemove)(JNIEnv *env, jclass cls, jlong e, jlong app, jboolean keep) {
    (void)cls;
    failed(env, capsched_attempt_remove(E(e), (uint64_t)app, keep ? 1 : 0));
}

JNIEXPORT void JNICALL FN(appRemove)(JNIEnv *env, jclass cls, jlong e, jlong app) {
    (void)cls;
    failed(env, capsched_app_remove(E(e), (uint64_t)app));
}

JNIEXPORT void JNICALL FN(appMove)(JNIEnv *env, jclass cls, jlong e, jlong app, jbyteArray queue) {
    (void)cls;
    jstr q;
    if (!str_in(env, queue, &q)) return;
    capsched_status st = capsched_app_move(E(e), (uint64_t)app, q.str);
    str_done(env, &q);
    failed(env, st);
}

JNIEXPORT jint JNICALL FN(appSetPriority)(JNIEnv *env, jclass cls, jlong e, jlong app, jint priority) {
    (void)cls;
    int32_t effective = 0;
    return failed(env, capsched_app_set_priority(E(e), (uint64_t)app, priority, &effective)) ? 0 : effective;
}

JNIEXPORT void JNICALL FN(containerExpired)(JNIEnv *env, jclass cls, jlong e, jlong container) {
    (void)cls;
    failed(env, capsched_container_expired(E(e), (uint64_t)container));
}

/* asks: 7 longs each (priority, allocation_request_id, memory, vcores, num_containers,
 * relax_locality, execution_type) with their resource names, and their label expressions
 * beside them (null: no ask has one; a null entry: that ask has none). Returns {long[] head:
 * response_id, headroom (2), num_cluster_nodes, preempt_resource (2); long[] allocated;
 * byte[][] their hosts; long[] completed (STATUS_LONGS each); byte[][] their diagnostics;
 * long[] preempt_containers} */
JNIEXPORT jobjectArray JNICALL FN(allocate)(JNIEnv *env, jclass cls, jlong e, jlong app, jint response_id,
                                             jlongArray ask_values, jobjectArray ask_names,
                                             jobjectArray ask_labels, jlongArray releases,
                                             jobjectArray blacklist_add, jobjectArray blacklist_remove) {
    (void)cls;
    jlong *av = NULL, *rel = NULL;
    jsize nav = 0, nrel = 0;
    jstrs names = {0, NULL, NULL}, labels = {0, NULL, NULL}, add = {0, NULL, NULL}, rem = {0, NULL, NULL};
    capsched_ask *asks = NULL;
    jobjectArray out = NULL;
    if (!longs_in(env, ask_values, &av, &nav) || !longs_in(env, releases, &rel, &nrel)) goto end;
    if (!strs_in(env, ask_names, &names) || !opt_strs_in(env, ask_labels, &labels) ||
        !strs_in(env, blacklist_add, &add) || !strs_in(env, blacklist_remove, &rem))
        goto end;
    if (nav != names.count * 7) {
        throw_invalid(env, "asks: 7 values and a resource name each expected");
        goto end;
    }
    asks = calloc((size_t)names.count + 1, sizeof(capsched_ask));
    if (asks == NULL) goto end;
    for (jsize i = 0; i < names.count; i++) {
        const jlong *a = av + i * 7;
        asks[i].priority = (int32_t)a[0];
        asks[i].allocation_request_id = a[1];
        asks[i].capability.memory_mb = a[2];
        asks[i].capability.vcores = a[3];
        asks[i].num_containers = (int32_t)a[4];
        asks[i].relax_locality = (int32_t)a[5];
        asks[i].execution_type = (int32_t)a[6];
        asks[i].resource_name = names.strs[i];
    }
    capsched_allocate_request rq;
    memset(&rq, 0, sizeof rq);
    rq.struct_size = sizeof rq;
    rq.response_id = response_id;
    rq.asks = asks;
    rq.ask_count = (size_t)names.count;
    rq.ask_labels = labels.strs;
    rq.ask_label_count = (size_t)labels.count;
    rq.releases = (const uint64_t *)rel;
    rq.release_count = (size_t)nrel;
    rq.blacklist_additions = add.strs;
    rq.blacklist_addition_count = (size_t)add.count;
    rq.blacklist_removals = rem.strs;
    rq.blacklist_removal_count = (size_t)rem.count;
    capsched_allocate_response *r = NULL;
    if (failed(env, capsched_allocate(E(e), (uint64_t)app, &rq, &r))) goto end;
    out = objects(env, 6);
    if (out != NULL) {
        jlong head[6] = {r->response_id,         r->headroom.memory_mb,         r->headroom.vcores,
                         r->num_cluster_nodes,   r->preempt_resource.memory_mb, r->preempt_resource.vcores};
        put(env, out, 0, longs_out(env, head, 6));
        containers_out(env, r->allocated, r->allocated_count, out, 1);
        jlong *done = calloc(r->completed_count * STATUS_LONGS + 1, sizeof(jlong));
        jobjectArray diags = (*env)->NewObjectArray(env, (jsize)r->completed_count, g_bytes, NULL);
        if (done != NULL && diags != NULL) {
            for (size_t i = 0; i < r->completed_count; i++) {
                const capsched_container_status *s = &r->completed[i];
                done[i * STATUS_LONGS] = (jlong)s->container;
                done[i * STATUS_LONGS + 1] = s->exit_status;
                pack_id(done + i * STATUS_LONGS + 2, s->yarn_id);
                put(env, diags, (jsize)i, bytes_out(env, s->diagnostics.ptr, s->diagnostics.len));
            }
            put(env, out, 3, longs_out(env, done, r->completed_count * STATUS_LONGS));
            put(env, out, 4, diags);
        }
        free(done);
        put(env, out, 5, longs_out(env, (const jlong *)r->preempt_containers, r->preempt_count));
    }
    capsched_allocate_response_free(r);
end:
    free(av);
    free(rel);
    free(asks);
    strs_done(env, &names);
    strs_done(env, &labels);
    strs_done(env, &add);
    strs_done(env, &rem);
    return out;
}
