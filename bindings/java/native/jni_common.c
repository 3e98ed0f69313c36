/* The library (its loading, its versions) and the helpers every file of the glue shares,
 * declared in jni_common.h: failures as CapschedException, Java arrays in and out. */
#include "jni_common.h"

static jclass g_exception;        /* org.capsched.CapschedException */
static jmethodID g_exception_new; /* (ILjava/lang/String;)V */
static jclass g_object;           /* java.lang.Object */
jclass g_bytes;                   /* byte[] */

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

/* --- failures --------------------------------------------------------------------------- */

void throw_status(JNIEnv *env, int status, const char *message) {
    if ((*env)->ExceptionCheck(env)) return;
    jstring m = (*env)->NewStringUTF(env, message);
    if (m == NULL) return; /* OutOfMemoryError pending */
    jobject e = (*env)->NewObject(env, g_exception, g_exception_new, (jint)status, m);
    if (e != NULL) (*env)->Throw(env, (jthrowable)e);
}

int failed(JNIEnv *env, capsched_status st) {
    if (st == CAPSCHED_OK) return 0;
    throw_status(env, st, capsched_last_error());
    return 1;
}

void throw_invalid(JNIEnv *env, const char *message) {
    throw_status(env, CAPSCHED_ERR_INVALID_ARGUMENT, message);
}

/* --- Java arrays in ------------------------------------------------------------------- */

int str_in(JNIEnv *env, jbyteArray a, jstr *out) {
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

void str_done(JNIEnv *env, jstr *s) {
    if (s->bytes != NULL) (*env)->ReleaseByteArrayElements(env, s->array, s->bytes, JNI_ABORT);
    s->bytes = NULL;
}

void strs_done(JNIEnv *env, jstrs *s) {
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

int strs_in(JNIEnv *env, jobjectArray a, jstrs *out) {
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

int opt_str_in(JNIEnv *env, jbyteArray a, jstr *out) {
    if (!str_in(env, a, out)) return 0;
    if (a != NULL && out->str.ptr == NULL) out->str.ptr = "";
    return 1;
}

int opt_strs_in(JNIEnv *env, jobjectArray a, jstrs *out) {
    if (!strs_in(env, a, out)) return 0;
    for (jsize i = 0; i < out->count; i++) {
        if (out->items[i].array != NULL && out->strs[i].ptr == NULL) out->strs[i].ptr = "";
    }
    return 1;
}

int longs_in(JNIEnv *env, jlongArray a, jlong **out, jsize *count) {
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

jlongArray longs_out(JNIEnv *env, const jlong *v, size_t n) {
    jlongArray a = (*env)->NewLongArray(env, (jsize)n);
    if (a != NULL && n > 0) (*env)->SetLongArrayRegion(env, a, 0, (jsize)n, v);
    return a;
}

jbyteArray bytes_out(JNIEnv *env, const char *p, size_t n) {
    jbyteArray a = (*env)->NewByteArray(env, (jsize)n);
    if (a != NULL && n > 0) (*env)->SetByteArrayRegion(env, a, 0, (jsize)n, (const jbyte *)p);
    return a;
}

jbyteArray owned_out(JNIEnv *env, capsched_owned_str s) {
    jbyteArray a = bytes_out(env, s.ptr, s.len);
    capsched_string_free(s);
    return a;
}

jobjectArray objects(JNIEnv *env, jsize n) { return (*env)->NewObjectArray(env, n, g_object, NULL); }

void put(JNIEnv *env, jobjectArray a, jsize i, jobject v) {
    (*env)->SetObjectArrayElement(env, a, i, v);
    if (v != NULL) (*env)->DeleteLocalRef(env, v);
}

void pack_id(jlong *out, capsched_yarn_id id) {
    out[0] = id.cluster_timestamp;
    out[1] = id.application;
    out[2] = id.attempt;
    out[3] = id.container_id;
}

void pack_info(jlong *o, const capsched_container_info *c) {
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

int containers_out(JNIEnv *env, const capsched_container *cs, size_t n, jobjectArray into, jsize at) {
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
