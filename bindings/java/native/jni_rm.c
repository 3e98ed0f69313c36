/* What a ResourceManager asks (src/ffi/rm.rs): submissions as YARN makes them and their
 * placement, node resources and decommissioning, kills, ACL checks, application lifetimes. */
#include "jni_common.h"

/* A submission's Java parts, pinned while the call runs. */
typedef struct {
    jstr queue, user, app_name, node_label, am_node_label;
    jstrs groups;
    capsched_submission s;
} jsub;

static void sub_done(JNIEnv *env, jsub *j) {
    str_done(env, &j->queue);
    str_done(env, &j->user);
    str_done(env, &j->app_name);
    str_done(env, &j->node_label);
    str_done(env, &j->am_node_label);
    strs_done(env, &j->groups);
}

static int sub_in(JNIEnv *env, jbyteArray queue, jbyteArray user, jobjectArray groups, jbyteArray app_name,
                  jint priority, jlong cluster_timestamp, jint sequence, jboolean recovering, jbyteArray node_label,
                  jbyteArray am_node_label, jsub *j) {
    memset(j, 0, sizeof *j);
    if (!str_in(env, queue, &j->queue) || !str_in(env, user, &j->user) || !str_in(env, app_name, &j->app_name) ||
        !opt_str_in(env, node_label, &j->node_label) || !opt_str_in(env, am_node_label, &j->am_node_label) ||
        !strs_in(env, groups, &j->groups)) {
        sub_done(env, j);
        return 0;
    }
    j->s.struct_size = sizeof j->s;
    j->s.queue = j->queue.str;
    j->s.user = j->user.str;
    j->s.groups = j->groups.strs;
    j->s.group_count = (size_t)j->groups.count;
    j->s.priority = priority;
    j->s.application_id.cluster_timestamp = cluster_timestamp;
    j->s.application_id.application = sequence;
    j->s.recovering = recovering ? 1 : 0;
    j->s.app_name = j->app_name.str;
    j->s.node_label_expression = j->node_label.str;
    j->s.am_node_label_expression = j->am_node_label.str;
    return 1;
}

JNIEXPORT jlong JNICALL FN(appSubmit)(JNIEnv *env, jclass cls, jlong e, jbyteArray queue, jbyteArray user,
                                       jobjectArray groups, jbyteArray app_name, jint priority,
                                       jlong cluster_timestamp, jint sequence, jboolean recovering,
                                       jbyteArray node_label, jbyteArray am_node_label) {
    (void)cls;
    jsub j;
    if (!sub_in(env, queue, user, groups, app_name, priority, cluster_timestamp, sequence, recovering, node_label,
                am_node_label, &j))
        return 0;
    uint64_t app = 0;
    capsched_status st = capsched_app_submit_as(E(e), &j.s, &app);
    sub_done(env, &j);
    return failed(env, st) ? 0 : (jlong)app;
}

/* {leaf, parent} as byte[][]; both empty when no rule placed the submission. */
JNIEXPORT jobjectArray JNICALL FN(appPlace)(JNIEnv *env, jclass cls, jlong e, jbyteArray queue, jbyteArray user,
                                             jobjectArray groups, jbyteArray app_name, jlong cluster_timestamp,
                                             jint sequence) {
    (void)cls;
    jsub j;
    if (!sub_in(env, queue, user, groups, app_name, CAPSCHED_DEFAULT_PRIORITY, cluster_timestamp, sequence, 0, NULL,
                NULL, &j)) {
        return NULL;
    }
    capsched_owned_str q = {NULL, 0}, p = {NULL, 0};
    capsched_status st = capsched_app_place(E(e), &j.s, &q, &p);
    sub_done(env, &j);
    if (failed(env, st)) return NULL;
    jobjectArray out = (*env)->NewObjectArray(env, 2, g_bytes, NULL);
    if (out == NULL) {
        capsched_string_free(q);
        capsched_string_free(p);
        return NULL;
    }
    jbyteArray leaf = owned_out(env, q);
    if (leaf == NULL) {
        capsched_string_free(p); /* OutOfMemoryError pending: no more JNI calls */
        return NULL;
    }
    put(env, out, 0, leaf);
    jbyteArray parent = owned_out(env, p);
    if (parent == NULL) return NULL;
    put(env, out, 1, parent);
    return out;
}

JNIEXPORT void JNICALL FN(nodeUpdateResource)(JNIEnv *env, jclass cls, jlong e, jlong node, jlong memory,
                                              jlong vcores, jlong timeout_ms) {
    (void)cls;
    capsched_resource r = {memory, vcores};
    failed(env, capsched_node_update_resource(E(e), (uint64_t)node, r, timeout_ms));
}

JNIEXPORT void JNICALL FN(nodeDecommission)(JNIEnv *env, jclass cls, jlong e, jlong node, jlong timeout_ms) {
    (void)cls;
    failed(env, capsched_node_decommission(E(e), (uint64_t)node, timeout_ms));
}

JNIEXPORT void JNICALL FN(nodeRecommission)(JNIEnv *env, jclass cls, jlong e, jlong node) {
    (void)cls;
    failed(env, capsched_node_recommission(E(e), (uint64_t)node));
}

JNIEXPORT void JNICALL FN(containerKill)(JNIEnv *env, jclass cls, jlong e, jlong container, jint exit_status,
                                         jbyteArray diagnostics) {
    (void)cls;
    jstr d;
    if (!str_in(env, diagnostics, &d)) return;
    capsched_status st = capsched_container_kill(E(e), (uint64_t)container, exit_status, d.str);
    str_done(env, &d);
    failed(env, st);
}

JNIEXPORT jboolean JNICALL FN(checkAccess)(JNIEnv *env, jclass cls, jlong e, jbyteArray user, jobjectArray groups,
                                           jint acl, jbyteArray queue) {
    (void)cls;
    jstr u, q;
    jstrs g;
    if (!str_in(env, user, &u)) return JNI_FALSE;
    if (!str_in(env, queue, &q)) {
        str_done(env, &u);
        return JNI_FALSE;
    }
    if (!strs_in(env, groups, &g)) {
        str_done(env, &u);
        str_done(env, &q);
        return JNI_FALSE;
    }
    int32_t allowed = 0;
    capsched_status st = capsched_check_access(E(e), u.str, g.strs, (size_t)g.count, acl, q.str, &allowed);
    str_done(env, &u);
    str_done(env, &q);
    strs_done(env, &g);
    return failed(env, st) ? JNI_FALSE : (allowed ? JNI_TRUE : JNI_FALSE);
}

/* {lifetime, maximum} in seconds. */
JNIEXPORT jlongArray JNICALL FN(applicationLifetime)(JNIEnv *env, jclass cls, jlong e, jbyteArray queue,
                                                      jlong requested) {
    (void)cls;
    jstr q;
    if (!str_in(env, queue, &q)) return NULL;
    int64_t lifetime = 0, maximum = 0;
    capsched_status st = capsched_application_lifetime(E(e), q.str, requested, &lifetime, &maximum);
    str_done(env, &q);
    if (failed(env, st)) return NULL;
    jlong v[2] = {lifetime, maximum};
    return longs_out(env, v, 2);
}
