/* YARN's ids and the lookups by them (src/ffi/yarn.rs): ids formatted and parsed, applications,
 * containers and nodes found, a container's state, the AM container to take, an application's
 * report. */
#include "jni_common.h"

/* A container's INFO_LONGS (the info layout in jni_common.h). */
static jlongArray info_out(JNIEnv *env, const capsched_container_info *c) {
    jlong o[INFO_LONGS];
    pack_info(o, c);
    return longs_out(env, o, INFO_LONGS);
}

JNIEXPORT jbyteArray JNICALL FN(yarnIdFormat)(JNIEnv *env, jclass cls, jlong cluster_timestamp, jint application,
                                              jint attempt, jlong container_id) {
    (void)cls;
    capsched_yarn_id id = {cluster_timestamp, application, attempt, container_id};
    capsched_owned_str s = {NULL, 0};
    if (failed(env, capsched_yarn_id_format(&id, &s))) return NULL;
    return owned_out(env, s);
}

JNIEXPORT jlongArray JNICALL FN(yarnIdParse)(JNIEnv *env, jclass cls, jbyteArray text) {
    (void)cls;
    jstr t;
    if (!str_in(env, text, &t)) return NULL;
    capsched_yarn_id id;
    capsched_status st = capsched_yarn_id_parse(t.str, &id);
    str_done(env, &t);
    if (failed(env, st)) return NULL;
    jlong o[4];
    pack_id(o, id);
    return longs_out(env, o, 4);
}

JNIEXPORT jlong JNICALL FN(appFind)(JNIEnv *env, jclass cls, jlong e, jlong cluster_timestamp, jint sequence) {
    (void)cls;
    capsched_yarn_id id = {cluster_timestamp, sequence, 0, 0};
    uint64_t app = 0;
    return failed(env, capsched_app_find(E(e), &id, &app)) ? 0 : (jlong)app;
}

JNIEXPORT jlong JNICALL FN(containerFind)(JNIEnv *env, jclass cls, jlong e, jlong cluster_timestamp,
                                           jint application, jint attempt, jlong container_id) {
    (void)cls;
    capsched_yarn_id id = {cluster_timestamp, application, attempt, container_id};
    uint64_t c = 0;
    return failed(env, capsched_container_find(E(e), &id, &c)) ? 0 : (jlong)c;
}

JNIEXPORT jlong JNICALL FN(nodeFind)(JNIEnv *env, jclass cls, jlong e, jbyteArray address) {
    (void)cls;
    jstr a;
    if (!str_in(env, address, &a)) return 0;
    uint64_t node = 0;
    capsched_status st = capsched_node_find(E(e), a.str, &node);
    str_done(env, &a);
    return failed(env, st) ? 0 : (jlong)node;
}

JNIEXPORT jlongArray JNICALL FN(containerGet)(JNIEnv *env, jclass cls, jlong e, jlong container) {
    (void)cls;
    capsched_container_info info;
    if (failed(env, capsched_container_get(E(e), (uint64_t)container, &info))) return NULL;
    return info_out(env, &info);
}

/* INFO_LONGS, or NULL when there is no AM container to take. */
JNIEXPORT jlongArray JNICALL FN(amContainerTake)(JNIEnv *env, jclass cls, jlong e, jlong app) {
    (void)cls;
    capsched_container_info info;
    int32_t found = 0;
    if (failed(env, capsched_am_container_take(E(e), (uint64_t)app, &info, &found)) || !found) return NULL;
    return info_out(env, &info);
}

/* {long[]: cluster_timestamp, application, attempt, priority, state, pending_reason, used (2),
 *  pending (2), am_used (2), reserved (2), live, reserved containers, opportunistic,
 *  preempted, preempted resource (2), am_container, submit_time_ms; queue; user; diagnostics} */
JNIEXPORT jobjectArray JNICALL FN(appReport)(JNIEnv *env, jclass cls, jlong e, jlong app) {
    (void)cls;
    capsched_app_report r;
    memset(&r, 0, sizeof r);
    if (failed(env, capsched_app_report_get(E(e), (uint64_t)app, &r))) return NULL;
    jobjectArray out = objects(env, 4);
    if (out != NULL) {
        jlong v[22] = {r.yarn_id.cluster_timestamp,
                       r.yarn_id.application,
                       r.yarn_id.attempt,
                       r.priority,
                       r.state,
                       r.pending_reason,
                       r.used.memory_mb,
                       r.used.vcores,
                       r.pending.memory_mb,
                       r.pending.vcores,
                       r.am_used.memory_mb,
                       r.am_used.vcores,
                       r.reserved.memory_mb,
                       r.reserved.vcores,
                       r.live_containers,
                       r.reserved_containers,
                       r.opportunistic_containers,
                       r.preempted_containers,
                       r.preempted_resource.memory_mb,
                       r.preempted_resource.vcores,
                       (jlong)r.am_container,
                       r.submit_time_ms};
        put(env, out, 0, longs_out(env, v, 22));
        put(env, out, 1, bytes_out(env, r.queue.ptr, r.queue.len));
        put(env, out, 2, bytes_out(env, r.user.ptr, r.user.len));
        put(env, out, 3, bytes_out(env, r.diagnostics.ptr, r.diagnostics.len));
    }
    capsched_app_report_free(&r);
    return out;
}
