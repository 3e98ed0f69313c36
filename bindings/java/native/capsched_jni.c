/* The JNI glue of the Java bindings: C over include/capsched.h, nothing else (the C ABI stays
 * the only boundary). Every function here is one native method of org.capsched.Native: it
 * turns Java arrays into the C ABI's arguments, makes the call, and turns the result into
 * Java arrays (objects are built on the Java side), or throws CapschedException with the
 * status and capsched_last_error(). Strings cross as UTF-8 byte arrays both ways.
 *
 * Packed layouts (all jlong), shared with Native.java:
 *   container (CONTAINER_LONGS): id, node, priority, allocation_request_id, memory, vcores,
 *     execution_type, version, is_am, remotely_allocated, locality, cluster_timestamp,
 *     application, attempt, container_id
 *   status (STATUS_LONGS): id, exit_status, cluster_timestamp, application, attempt, container_id
 *   info (INFO_LONGS): id, cluster_timestamp, application, attempt, container_id, app, node,
 *     state, memory, vcores, priority, allocation_request_id, execution_type, locality, is_am,
 *     version, marked_for_preemption, created_ms, acquired_ms, launched_ms
 *   event (EVENT_LONGS): kind, app, container, node, cluster_timestamp, application, attempt,
 *     container_id, code
 */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capsched.h"

#define CONTAINER_LONGS 15
#define STATUS_LONGS 6
#define INFO_LONGS 20
#define EVENT_LONGS 9

static jclass g_exception;        /* org.capsched.CapschedException */
static jmethodID g_exception_new; /* (ILjava/lang/String;)V */
static jclass g_object;           /* java.lang.Object */
static jclass g_bytes;            /* byte[] */

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env = NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    jclass c = (*env)->FindClass(env, "org/capsched/CapschedException");
    if (c == NULL) return JNI_ERR;
    g_exception = (*env)->NewGlobalRef(env, c);
    g_exception_new = (*env)->GetMethodID(env, c, "<init>", "(ILjava/lang/String;)V");
    c = (*env)->FindClass(env, "java/lang/Object");
    if (c == NULL) return JNI_ERR;
    g_object = (*env)->NewGlobalRef(env, c);
    c = (*env)->FindClass(env, "[B");
    if (c == NULL) return JNI_ERR;
    g_bytes = (*env)->NewGlobalRef(env, c);
    if (g_exception == NULL || g_exception_new == NULL || g_object == NULL || g_bytes == NULL) return JNI_ERR;
    return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env = NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return;
    (*env)->DeleteGlobalRef(env, g_exception);
    (*env)->DeleteGlobalRef(env, g_object);
    (*env)->DeleteGlobalRef(env, g_bytes);
}

/* Throws CapschedException(status, message) unless a Java exception is already pending. */
static void throw_status(JNIEnv *env, int status, const char *message) {
    if ((*env)->ExceptionCheck(env)) return;
    jstring m = (*env)->NewStringUTF(env, message);
    if (m == NULL) return; /* OutOfMemoryError pending */
    jobject e = (*env)->NewObject(env, g_exception, g_exception_new, (jint)status, m);
    if (e != NULL) (*env)->Throw(env, (jthrowable)e);
}

/* Non-zero (and a CapschedException thrown) when `st` is a failure. */
static int failed(JNIEnv *env, capsched_status st) {
    if (st == CAPSCHED_OK) return 0;
    throw_status(env, st, capsched_last_error());
    return 1;
}

/* The glue's own refusals (an argument Java should not have passed). */
static void throw_invalid(JNIEnv *env, const char *message) {
    throw_status(env, CAPSCHED_ERR_INVALID_ARGUMENT, message);
}

/* --- Java arrays in ------------------------------------------------------------------- */

/* A byte[] pinned as a capsched_str. A NULL array is the empty string. */
typedef struct {
    jbyteArray array;
    jbyte *bytes;
    capsched_str str;
} jstr;

static int str_in(JNIEnv *env, jbyteArray a, jstr *out) {
    out->array = a;
    out->bytes = NULL;
    out->str.ptr = NULL;
    out->str.len = 0;
    if (a == NULL) return 1;
    jsize n = (*env)->GetArrayLength(env, a);
    if (n == 0) return 1;
    out->bytes = (*env)->GetByteArrayElements(env, a, NULL);
    if (out->bytes == NULL) return 0; /* OutOfMemoryError pending */
    out->str.ptr = (const char *)out->bytes;
    out->str.len = (size_t)n;
    return 1;
}

static void str_done(JNIEnv *env, jstr *s) {
    if (s->bytes != NULL) (*env)->ReleaseByteArrayElements(env, s->array, s->bytes, JNI_ABORT);
    s->bytes = NULL;
}

/* A byte[][] as an array of capsched_str. */
typedef struct {
    jsize count;
    jstr *items;
    capsched_str *strs;
} jstrs;

static void strs_done(JNIEnv *env, jstrs *s) {
    for (jsize i = 0; i < s->count; i++) {
        str_done(env, &s->items[i]);
        if (s->items[i].array != NULL) (*env)->DeleteLocalRef(env, s->items[i].array);
    }
    free(s->items);
    free(s->strs);
    s->items = NULL;
    s->strs = NULL;
    s->count = 0;
}

static int strs_in(JNIEnv *env, jobjectArray a, jstrs *out) {
    out->count = 0;
    out->items = NULL;
    out->strs = NULL;
    if (a == NULL) return 1;
    jsize n = (*env)->GetArrayLength(env, a);
    /* Each element stays a live local reference until strs_done. */
    if ((*env)->EnsureLocalCapacity(env, n + 16) != 0) return 0;
    out->items = calloc((size_t)n + 1, sizeof(jstr));
    out->strs = calloc((size_t)n + 1, sizeof(capsched_str));
    if (out->items == NULL || out->strs == NULL) {
        strs_done(env, out);
        throw_status(env, CAPSCHED_ERR_INVALID_ARGUMENT, "out of memory");
        return 0;
    }
    for (jsize i = 0; i < n; i++) {
        jbyteArray item = (jbyteArray)(*env)->GetObjectArrayElement(env, a, i);
        out->count = i + 1;
        if (!str_in(env, item, &out->items[i])) {
            strs_done(env, out);
            return 0;
        }
        out->strs[i] = out->items[i].str;
    }
    return 1;
}

/* A node-label expression: null stays "none" (a NULL pointer), while an empty byte[] is the
 * empty expression (the default partition), which the C ABI reads from a non-NULL pointer. */
static int opt_str_in(JNIEnv *env, jbyteArray a, jstr *out) {
    if (!str_in(env, a, out)) return 0;
    if (a != NULL && out->str.ptr == NULL) out->str.ptr = "";
    return 1;
}

/* As opt_str_in, for each element of a byte[][]. */
static int opt_strs_in(JNIEnv *env, jobjectArray a, jstrs *out) {
    if (!strs_in(env, a, out)) return 0;
    for (jsize i = 0; i < out->count; i++) {
        if (out->items[i].array != NULL && out->strs[i].ptr == NULL) out->strs[i].ptr = "";
    }
    return 1;
}

/* A long[] copied out (NULL: empty). The caller frees `*out`. */
static int longs_in(JNIEnv *env, jlongArray a, jlong **out, jsize *count) {
    *out = NULL;
    *count = 0;
    if (a == NULL) return 1;
    jsize n = (*env)->GetArrayLength(env, a);
    *out = malloc(((size_t)n + 1) * sizeof(jlong));
    if (*out == NULL) {
        throw_invalid(env, "out of memory");
        return 0;
    }
    (*env)->GetLongArrayRegion(env, a, 0, n, *out);
    *count = n;
    return 1;
}

/* --- Java arrays out ------------------------------------------------------------------ */

static jlongArray longs_out(JNIEnv *env, const jlong *v, size_t n) {
    jlongArray a = (*env)->NewLongArray(env, (jsize)n);
    if (a != NULL && n > 0) (*env)->SetLongArrayRegion(env, a, 0, (jsize)n, v);
    return a;
}

static jbyteArray bytes_out(JNIEnv *env, const char *p, size_t n) {
    jbyteArray a = (*env)->NewByteArray(env, (jsize)n);
    if (a != NULL && n > 0) (*env)->SetByteArrayRegion(env, a, 0, (jsize)n, (const jbyte *)p);
    return a;
}

/* An owned string as byte[], freed. */
static jbyteArray owned_out(JNIEnv *env, capsched_owned_str s) {
    jbyteArray a = bytes_out(env, s.ptr, s.len);
    capsched_string_free(s);
    return a;
}

static jobjectArray objects(JNIEnv *env, jsize n) { return (*env)->NewObjectArray(env, n, g_object, NULL); }

static void put(JNIEnv *env, jobjectArray a, jsize i, jobject v) {
    (*env)->SetObjectArrayElement(env, a, i, v);
    if (v != NULL) (*env)->DeleteLocalRef(env, v);
}

static void pack_id(jlong *out, capsched_yarn_id id) {
    out[0] = id.cluster_timestamp;
    out[1] = id.application;
    out[2] = id.attempt;
    out[3] = id.container_id;
}

static void pack_container(jlong *o, const capsched_container *c) {
    o[0] = (jlong)c->id;
    o[1] = (jlong)c->node;
    o[2] = c->priority;
    o[3] = c->allocation_request_id;
    o[4] = c->resource.memory_mb;
    o[5] = c->resource.vcores;
    o[6] = c->execution_type;
    o[7] = c->version;
    o[8] = c->is_am;
    o[9] = c->remotely_allocated;
    o[10] = c->locality;
    pack_id(o + 11, c->yarn_id);
}

/* {long[] packed, byte[][] hosts} for `n` containers. */
static int containers_out(JNIEnv *env, const capsched_container *cs, size_t n, jobjectArray into, jsize at) {
    jlong *packed = calloc(n * CONTAINER_LONGS + 1, sizeof(jlong));
    jobjectArray hosts = (*env)->NewObjectArray(env, (jsize)n, g_bytes, NULL);
    if (packed == NULL || hosts == NULL) {
        free(packed);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        pack_container(packed + i * CONTAINER_LONGS, &cs[i]);
        put(env, hosts, (jsize)i, bytes_out(env, cs[i].host.ptr, cs[i].host.len));
    }
    put(env, into, at, longs_out(env, packed, n * CONTAINER_LONGS));
    put(env, into, at + 1, hosts);
    free(packed);
    return !(*env)->ExceptionCheck(env);
}

static jlongArray info_out(JNIEnv *env, const capsched_container_info *c) {
    jlong o[INFO_LONGS];
    o[0] = (jlong)c->id;
    pack_id(o + 1, c->yarn_id);
    o[5] = (jlong)c->app;
    o[6] = (jlong)c->node;
    o[7] = c->state;
    o[8] = c->resource.memory_mb;
    o[9] = c->resource.vcores;
    o[10] = c->priority;
    o[11] = c->allocation_request_id;
    o[12] = c->execution_type;
    o[13] = c->locality;
    o[14] = c->is_am;
    o[15] = c->version;
    o[16] = c->marked_for_preemption;
    o[17] = c->created_ms;
    o[18] = c->acquired_ms;
    o[19] = c->launched_ms;
    return longs_out(env, o, INFO_LONGS);
}

#define E(h) ((const capsched_engine *)(intptr_t)(h))
#define FN(name) Java_org_capsched_Native_##name

/* --- library ---------------------------------------------------------------------------- */

JNIEXPORT jint JNICALL FN(abiVersion)(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return (jint)capsched_abi_version();
}

JNIEXPORT jbyteArray JNICALL FN(version)(JNIEnv *env, jclass cls) {
    (void)cls;
    const char *v = capsched_version();
    return bytes_out(env, v, strlen(v));
}

JNIEXPORT jint JNICALL FN(headerAbiVersion)(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return CAPSCHED_ABI_VERSION;
}

/* --- configurations --------------------------------------------------------------------- */

JNIEXPORT jlong JNICALL FN(configFromXml)(JNIEnv *env, jclass cls, jbyteArray xml) {
    (void)cls;
    jstr s;
    if (!str_in(env, xml, &s)) return 0;
    capsched_config *c = NULL;
    capsched_status st = capsched_config_from_xml(s.str, &c);
    str_done(env, &s);
    return failed(env, st) ? 0 : (jlong)(intptr_t)c;
}

JNIEXPORT jlong JNICALL FN(configFromFile)(JNIEnv *env, jclass cls, jbyteArray path) {
    (void)cls;
    jstr s;
    if (!str_in(env, path, &s)) return 0;
    capsched_config *c = NULL;
    capsched_status st = capsched_config_from_file(s.str, &c);
    str_done(env, &s);
    return failed(env, st) ? 0 : (jlong)(intptr_t)c;
}

JNIEXPORT jlong JNICALL FN(configFromPairs)(JNIEnv *env, jclass cls, jobjectArray keys, jobjectArray values) {
    (void)cls;
    jstrs k, v;
    if (!strs_in(env, keys, &k)) return 0;
    if (!strs_in(env, values, &v)) {
        strs_done(env, &k);
        return 0;
    }
    if (k.count != v.count) {
        strs_done(env, &k);
        strs_done(env, &v);
        throw_invalid(env, "as many keys as values expected");
        return 0;
    }
    capsched_config *c = NULL;
    capsched_status st = capsched_config_from_pairs(k.strs, v.strs, (size_t)k.count, &c);
    strs_done(env, &k);
    strs_done(env, &v);
    return failed(env, st) ? 0 : (jlong)(intptr_t)c;
}

JNIEXPORT void JNICALL FN(configFree)(JNIEnv *env, jclass cls, jlong h) {
    (void)env;
    (void)cls;
    capsched_config_free((capsched_config *)(intptr_t)h);
}

/* --- engines ---------------------------------------------------------------------------- */

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

/* EVENT_LONGS per event, and the dropped count last. */
JNIEXPORT jlongArray JNICALL FN(pollEvents)(JNIEnv *env, jclass cls, jlong e, jint max) {
    (void)cls;
    if (max <= 0) max = 1;
    capsched_event *events = calloc((size_t)max, sizeof(capsched_event));
    jlong *packed = calloc((size_t)max * EVENT_LONGS + 1, sizeof(jlong));
    if (events == NULL || packed == NULL) {
        free(events);
        free(packed);
        throw_invalid(env, "out of memory");
        return NULL;
    }
    size_t n = 0;
    uint64_t dropped = 0;
    jlongArray out = NULL;
    if (!failed(env, capsched_poll_events(E(e), events, (size_t)max, &n, &dropped))) {
        for (size_t i = 0; i < n; i++) {
            jlong *o = packed + i * EVENT_LONGS;
            o[0] = events[i].kind;
            o[1] = (jlong)events[i].app;
            o[2] = (jlong)events[i].container;
            o[3] = (jlong)events[i].node;
            pack_id(o + 4, events[i].yarn_id);
            o[8] = events[i].code;
        }
        packed[n * EVENT_LONGS] = (jlong)dropped;
        out = longs_out(env, packed, n * EVENT_LONGS + 1);
    }
    free(events);
    free(packed);
    return out;
}

/* --- nodes ------------------------------------------------------------------------------ */

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
 *  max_queue_wait_ms; long[] to_kill; long[] allocated containers; byte[][] their hosts} */
JNIEXPORT jobjectArray JNICALL FN(nodeUpdate)(JNIEnv *env, jclass cls, jlong e, jlong node, jlongArray launched,
                                               jlongArray completed, jintArray exit_statuses,
                                               jobjectArray diagnostics) {
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
    out = objects(env, 4);
    if (out != NULL) {
        jlong misc[5] = {r->allocated, r->decommissioned, r->has_queuing_limit, r->max_queue_length,
                         r->max_queue_wait_ms};
        put(env, out, 0, longs_out(env, misc, 5));
        put(env, out, 1, longs_out(env, (const jlong *)r->to_kill, r->to_kill_count));
        containers_out(env, r->allocated_containers, r->allocated_container_count, out, 2);
    }
    capsched_node_response_free(r);
end:
    free(l);
    free(c);
    free(done);
    strs_done(env, &d);
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

JNIEXPORT jlong JNICALL FN(nodeFind)(JNIEnv *env, jclass cls, jlong e, jbyteArray address) {
    (void)cls;
    jstr a;
    if (!str_in(env, address, &a)) return 0;
    uint64_t node = 0;
    capsched_status st = capsched_node_find(E(e), a.str, &node);
    str_done(env, &a);
    return failed(env, st) ? 0 : (jlong)node;
}

/* --- applications ----------------------------------------------------------------------- */

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

JNIEXPORT jlong JNICALL FN(appFind)(JNIEnv *env, jclass cls, jlong e, jlong cluster_timestamp, jint sequence) {
    (void)cls;
    capsched_yarn_id id = {cluster_timestamp, sequence, 0, 0};
    uint64_t app = 0;
    return failed(env, capsched_app_find(E(e), &id, &app)) ? 0 : (jlong)app;
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

/* --- containers ------------------------------------------------------------------------- */

JNIEXPORT jlongArray JNICALL FN(containerGet)(JNIEnv *env, jclass cls, jlong e, jlong container) {
    (void)cls;
    capsched_container_info info;
    if (failed(env, capsched_container_get(E(e), (uint64_t)container, &info))) return NULL;
    return info_out(env, &info);
}

JNIEXPORT jlong JNICALL FN(containerFind)(JNIEnv *env, jclass cls, jlong e, jlong cluster_timestamp,
                                           jint application, jint attempt, jlong container_id) {
    (void)cls;
    capsched_yarn_id id = {cluster_timestamp, application, attempt, container_id};
    uint64_t c = 0;
    return failed(env, capsched_container_find(E(e), &id, &c)) ? 0 : (jlong)c;
}

JNIEXPORT void JNICALL FN(containerExpired)(JNIEnv *env, jclass cls, jlong e, jlong container) {
    (void)cls;
    failed(env, capsched_container_expired(E(e), (uint64_t)container));
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

/* --- allocate --------------------------------------------------------------------------- */

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

/* --- node labels ----------------------------------------------------------------------- */

JNIEXPORT void JNICALL FN(nodeLabelsAdd)(JNIEnv *env, jclass cls, jlong e, jobjectArray names,
                                         jbooleanArray exclusive) {
    (void)cls;
    jstrs n;
    if (!strs_in(env, names, &n)) return;
    jsize count = exclusive == NULL ? 0 : (*env)->GetArrayLength(env, exclusive);
    if (count != n.count) {
        strs_done(env, &n);
        throw_invalid(env, "a name and an exclusivity per label expected");
        return;
    }
    capsched_node_label *labels = calloc((size_t)count + 1, sizeof(capsched_node_label));
    jboolean *x = calloc((size_t)count + 1, sizeof(jboolean));
    if (labels == NULL || x == NULL) {
        throw_invalid(env, "out of memory");
    } else {
        if (count > 0) (*env)->GetBooleanArrayRegion(env, exclusive, 0, count, x);
        for (jsize i = 0; i < count; i++) {
            labels[i].name = n.strs[i];
            labels[i].exclusive = x[i] ? 1 : 0;
        }
        failed(env, capsched_node_labels_add(E(e), labels, (size_t)count));
    }
    free(labels);
    free(x);
    strs_done(env, &n);
}

JNIEXPORT void JNICALL FN(nodeLabelsRemove)(JNIEnv *env, jclass cls, jlong e, jobjectArray names) {
    (void)cls;
    jstrs n;
    if (!strs_in(env, names, &n)) return;
    capsched_status st = capsched_node_labels_remove(E(e), n.strs, (size_t)n.count);
    strs_done(env, &n);
    failed(env, st);
}

/* nodes[i] takes labels[i] (null or empty: none). */
JNIEXPORT void JNICALL FN(nodeLabelsReplace)(JNIEnv *env, jclass cls, jlong e, jobjectArray nodes,
                                             jobjectArray labels) {
    (void)cls;
    jstrs n, l;
    if (!strs_in(env, nodes, &n)) return;
    if (!strs_in(env, labels, &l)) {
        strs_done(env, &n);
        return;
    }
    capsched_node_label_mapping *m = NULL;
    if (n.count != l.count) {
        throw_invalid(env, "a label (or null) per node expected");
    } else if ((m = calloc((size_t)n.count + 1, sizeof(capsched_node_label_mapping))) == NULL) {
        throw_invalid(env, "out of memory");
    } else {
        for (jsize i = 0; i < n.count; i++) {
            m[i].node = n.strs[i];
            m[i].label = l.strs[i];
        }
        failed(env, capsched_node_labels_replace(E(e), m, (size_t)n.count));
    }
    free(m);
    strs_done(env, &n);
    strs_done(env, &l);
}

/* {byte[][] names, long[] exclusive (0 or 1)}, in the order the labels were added. */
JNIEXPORT jobjectArray JNICALL FN(nodeLabels)(JNIEnv *env, jclass cls, jlong e) {
    (void)cls;
    capsched_node_label_list *l = NULL;
    if (failed(env, capsched_node_labels_get(E(e), &l))) return NULL;
    jobjectArray out = objects(env, 2);
    jobjectArray names = out == NULL ? NULL : (*env)->NewObjectArray(env, (jsize)l->count, g_bytes, NULL);
    jlong *x = calloc(l->count + 1, sizeof(jlong));
    if (names != NULL && x != NULL) {
        for (size_t i = 0; i < l->count; i++) {
            put(env, names, (jsize)i, bytes_out(env, l->labels[i].name.ptr, l->labels[i].name.len));
            x[i] = l->labels[i].exclusive;
        }
        put(env, out, 0, names);
        put(env, out, 1, longs_out(env, x, l->count));
    }
    free(x);
    capsched_node_label_list_free(l);
    return out;
}

JNIEXPORT jbyteArray JNICALL FN(nodePartition)(JNIEnv *env, jclass cls, jlong e, jlong node) {
    (void)cls;
    capsched_owned_str p = {NULL, 0};
    if (failed(env, capsched_node_partition(E(e), (uint64_t)node, &p))) return NULL;
    return owned_out(env, p);
}

/* used (2), reserved (2), pending (2), am_used (2). */
JNIEXPORT jlongArray JNICALL FN(queuePartitionUsage)(JNIEnv *env, jclass cls, jlong e, jbyteArray queue,
                                                      jbyteArray label) {
    (void)cls;
    jstr q, l;
    if (!str_in(env, queue, &q)) return NULL;
    if (!str_in(env, label, &l)) {
        str_done(env, &q);
        return NULL;
    }
    capsched_partition_usage u;
    capsched_status st = capsched_queue_partition_usage(E(e), q.str, l.str, &u);
    str_done(env, &q);
    str_done(env, &l);
    if (failed(env, st)) return NULL;
    jlong v[8] = {u.used.memory_mb,    u.used.vcores,    u.reserved.memory_mb, u.reserved.vcores,
                  u.pending.memory_mb, u.pending.vcores, u.am_used.memory_mb,  u.am_used.vcores};
    return longs_out(env, v, 8);
}

/* {byte[][] accessible (sorted; "*" alone for any), byte[] default expression (null: unset)}. */
JNIEXPORT jobjectArray JNICALL FN(queueNodeLabels)(JNIEnv *env, jclass cls, jlong e, jbyteArray queue) {
    (void)cls;
    jstr q;
    if (!str_in(env, queue, &q)) return NULL;
    capsched_queue_labels *l = NULL;
    capsched_status st = capsched_queue_node_labels(E(e), q.str, &l);
    str_done(env, &q);
    if (failed(env, st)) return NULL;
    jobjectArray out = objects(env, 2);
    jobjectArray names = out == NULL ? NULL : (*env)->NewObjectArray(env, (jsize)l->accessible_count, g_bytes, NULL);
    if (names != NULL) {
        for (size_t i = 0; i < l->accessible_count; i++) {
            put(env, names, (jsize)i, bytes_out(env, l->accessible[i].ptr, l->accessible[i].len));
        }
        put(env, out, 0, names);
        /* Unset stays null on the Java side; an empty expression is an empty byte[]. */
        const capsched_str d = l->default_node_label_expression;
        if (d.ptr != NULL) put(env, out, 1, bytes_out(env, d.ptr, d.len));
    }
    capsched_queue_labels_free(l);
    return out;
}

/* --- YARN ids --------------------------------------------------------------------------- */

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
