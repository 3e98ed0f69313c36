/* Queue statuses (src/ffi/queues.rs): every queue's figures and their version, and a leaf's
 * users. */
#include "jni_common.h"

/* Per queue QUEUE_STATUS_LONGS longs (see QueueStatus.java for the order; floats as their bits). */
#define QUEUE_STATUS_LONGS 41

static jlong float_bits(float f) {
    union {
        float f;
        int32_t i;
    } u;
    u.f = f;
    return u.i;
}

/* {byte[][] paths, long[] per queue QUEUE_STATUS_LONGS, then the figures version last} */
JNIEXPORT jobjectArray JNICALL FN(queueStatuses)(JNIEnv *env, jclass cls, jlong e) {
    (void)cls;
    capsched_queue_status_list *l = NULL;
    if (failed(env, capsched_engine_queue_statuses(E(e), &l))) return NULL;
    jobjectArray out = objects(env, 2);
    jobjectArray paths = (*env)->NewObjectArray(env, (jsize)l->count, g_bytes, NULL);
    jlong *v = calloc(l->count * QUEUE_STATUS_LONGS + 1, sizeof(jlong));
    if (out != NULL && paths != NULL && v != NULL) {
        for (size_t i = 0; i < l->count; i++) {
            const capsched_queue_status *q = &l->queues[i];
            put(env, paths, (jsize)i, bytes_out(env, q->path.ptr, q->path.len));
            jlong *o = v + i * QUEUE_STATUS_LONGS;
            const capsched_resource *r[] = {&q->guaranteed, &q->maximum,  &q->used,    &q->reserved,
                                            &q->pending,    &q->maximum_allocation, &q->am_limit, &q->am_used};
            o[0] = q->parent;
            o[1] = q->is_leaf;
            o[2] = q->state;
            o[3] = float_bits(q->capacity);
            o[4] = float_bits(q->maximum_capacity);
            o[5] = float_bits(q->absolute_capacity);
            o[6] = float_bits(q->absolute_maximum_capacity);
            o[7] = float_bits(q->used_capacity);
            o[8] = float_bits(q->absolute_used_capacity);
            for (size_t k = 0; k < 8; k++) {
                o[9 + 2 * k] = r[k]->memory_mb;
                o[10 + 2 * k] = r[k]->vcores;
            }
            o[25] = q->reserved_containers;
            o[26] = q->num_applications;
            o[27] = q->num_active_applications;
            o[28] = q->num_pending_applications;
            o[29] = q->max_applications;
            o[30] = q->max_applications_per_user;
            o[31] = float_bits(q->user_limit_percent);
            o[32] = float_bits(q->user_limit_factor);
            o[33] = q->default_application_priority;
            o[34] = q->preemption_disabled;
            o[35] = q->intra_queue_preemption_disabled;
            o[36] = q->configured_minimum.memory_mb;
            o[37] = q->configured_minimum.vcores;
            o[38] = q->configured_maximum.memory_mb;
            o[39] = q->configured_maximum.vcores;
            o[40] = float_bits(q->maximum_am_resource_percent);
        }
        v[l->count * QUEUE_STATUS_LONGS] = (jlong)l->figures_version;
        put(env, out, 0, paths);
        put(env, out, 1, longs_out(env, v, l->count * QUEUE_STATUS_LONGS + 1));
    }
    free(v);
    capsched_queue_status_list_free(l);
    return out;
}

JNIEXPORT jlong JNICALL FN(figuresVersion)(JNIEnv *env, jclass cls, jlong e) {
    (void)cls;
    uint64_t v = 0;
    if (failed(env, capsched_engine_figures_version(E(e), &v))) return 0;
    return (jlong)v;
}

/* Per user USER_STATUS_LONGS longs: used, AM used, AM limit, user limit, headroom (2 each), the
 * weight's float bits, active and pending applications. */
#define USER_STATUS_LONGS 13

static void pack_user(jlong *o, const capsched_user_status *u) {
    const capsched_resource *r[] = {&u->used, &u->am_used, &u->am_limit, &u->user_limit, &u->headroom};
    for (size_t k = 0; k < 5; k++) {
        o[2 * k] = r[k]->memory_mb;
        o[2 * k + 1] = r[k]->vcores;
    }
    o[10] = float_bits(u->weight);
    o[11] = u->active_applications;
    o[12] = u->pending_applications;
}

/* {byte[][] names, long[] per user USER_STATUS_LONGS} */
JNIEXPORT jobjectArray JNICALL FN(queueUsers)(JNIEnv *env, jclass cls, jlong e, jbyteArray queue) {
    (void)cls;
    jstr q;
    if (!str_in(env, queue, &q)) return NULL;
    capsched_user_status_list *l = NULL;
    capsched_status st = capsched_engine_queue_users(E(e), q.str, &l);
    str_done(env, &q);
    if (failed(env, st)) return NULL;
    jobjectArray out = objects(env, 2);
    jobjectArray names = (*env)->NewObjectArray(env, (jsize)l->count, g_bytes, NULL);
    jlong *v = calloc(l->count * USER_STATUS_LONGS + 1, sizeof(jlong));
    if (out != NULL && names != NULL && v != NULL) {
        for (size_t i = 0; i < l->count; i++) {
            const capsched_user_status *u = &l->users[i];
            put(env, names, (jsize)i, bytes_out(env, u->name.ptr, u->name.len));
            pack_user(v + i * USER_STATUS_LONGS, u);
        }
        put(env, out, 0, names);
        put(env, out, 1, longs_out(env, v, l->count * USER_STATUS_LONGS));
    }
    free(v);
    capsched_user_status_list_free(l);
    return out;
}

/* One user's USER_STATUS_LONGS longs (the leaf's figures for a user it does not have too). */
JNIEXPORT jlongArray JNICALL FN(queueUser)(JNIEnv *env, jclass cls, jlong e, jbyteArray queue, jbyteArray user) {
    (void)cls;
    jstr q, n;
    if (!str_in(env, queue, &q)) return NULL;
    if (!str_in(env, user, &n)) {
        str_done(env, &q);
        return NULL;
    }
    capsched_user_status u;
    capsched_status st = capsched_engine_queue_user(E(e), q.str, n.str, &u);
    str_done(env, &q);
    str_done(env, &n);
    if (failed(env, st)) return NULL;
    jlong o[USER_STATUS_LONGS];
    pack_user(o, &u);
    return longs_out(env, o, USER_STATUS_LONGS);
}
