/* The JNI glue of the Java bindings: C over include/capsched.h, nothing else (the C ABI stays
 * the only boundary). Every JNIEXPORT function of bindings/java/native/jni_*.c is one native
 * method of org.capsched.Native: it turns Java arrays into the C ABI's arguments, makes the
 * call, and turns the result into Java arrays (objects are built on the Java side), or throws
 * CapschedException with the status and capsched_last_error(). Strings cross as UTF-8 byte
 * arrays both ways. The files follow the C API's areas (src/ffi): jni_config.c, jni_engine.c,
 * jni_queues.c, jni_nodes.c, jni_apps.c, jni_rm.c, jni_labels.c and jni_yarn.c; jni_common.c
 * is the library's loading and versions, and the helpers below.
 *
 * This header is the glue's own (internal, not installed): what the files share, each defined
 * once in jni_common.c. The library is built with -fvisibility=hidden, so only the JNIEXPORT
 * functions are exported.
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
 *   polled events: EVENT_LONGS per event, the dropped count, then PLACED_LONGS per
 *     CONTAINER_PLACED event, in order: 1 and the container's info (INFO_LONGS), or 0 and
 *     zeros when it had ended by the poll
 */
#ifndef CAPSCHED_JNI_COMMON_H
#define CAPSCHED_JNI_COMMON_H

#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capsched.h"

#define CONTAINER_LONGS 15
#define STATUS_LONGS 6
#define INFO_LONGS 20
#define EVENT_LONGS 9
#define PLACED_LONGS (1 + INFO_LONGS)

#define E(h) ((const capsched_engine *)(intptr_t)(h))
#define FN(name) Java_org_capsched_Native_##name

extern jclass g_bytes; /* byte[], from JNI_OnLoad */

/* --- failures --------------------------------------------------------------------------- */

/* Throws CapschedException(status, message) unless a Java exception is already pending. */
void throw_status(JNIEnv *env, int status, const char *message);

/* Non-zero (and a CapschedException thrown) when `st` is a failure. */
int failed(JNIEnv *env, capsched_status st);

/* The glue's own refusals (an argument Java should not have passed). */
void throw_invalid(JNIEnv *env, const char *message);

/* --- Java arrays in --------------------------------------------------------------------- */

/* A byte[] pinned as a capsched_str. A NULL array is the empty string. */
typedef struct {
    jbyteArray array;
    jbyte *bytes;
    capsched_str str;
} jstr;

/* Zero when it failed (a Java exception is pending). */
int str_in(JNIEnv *env, jbyteArray a, jstr *out);

void str_done(JNIEnv *env, jstr *s);

/* A byte[][] as an array of capsched_str. */
typedef struct {
    jsize count;
    jstr *items;
    capsched_str *strs;
} jstrs;

/* Zero when it failed (a Java exception is pending, and what was taken is released). */
int strs_in(JNIEnv *env, jobjectArray a, jstrs *out);

void strs_done(JNIEnv *env, jstrs *s);

/* A node-label expression: null stays "none" (a NULL pointer), while an empty byte[] is the
 * empty expression (the default partition), which the C ABI reads from a non-NULL pointer. */
int opt_str_in(JNIEnv *env, jbyteArray a, jstr *out);

/* As opt_str_in, for each element of a byte[][]. */
int opt_strs_in(JNIEnv *env, jobjectArray a, jstrs *out);

/* A long[] copied out (NULL: empty). The caller frees `*out`. */
int longs_in(JNIEnv *env, jlongArray a, jlong **out, jsize *count);

/* --- Java arrays out -------------------------------------------------------------------- */

jlongArray longs_out(JNIEnv *env, const jlong *v, size_t n);

jbyteArray bytes_out(JNIEnv *env, const char *p, size_t n);

/* An owned string as byte[], freed. */
jbyteArray owned_out(JNIEnv *env, capsched_owned_str s);

/* An Object[] of `n` nulls. */
jobjectArray objects(JNIEnv *env, jsize n);

/* a[i] = v, and v's local reference deleted. */
void put(JNIEnv *env, jobjectArray a, jsize i, jobject v);

/* A YARN id's 4 longs: cluster_timestamp, application, attempt, container_id. */
void pack_id(jlong *out, capsched_yarn_id id);

/* A container report's INFO_LONGS. */
void pack_info(jlong *out, const capsched_container_info *c);

/* Up to `max` of the engine's events, polled and packed as pollEvents answers them (NULL with
 * an exception pending on failure): pollEvents, and a heartbeat that polls in its crossing. */
jlongArray events_out(JNIEnv *env, jlong e, jint max);

/* {long[] packed, byte[][] hosts} for `n` containers. */
int containers_out(JNIEnv *env, const capsched_container *cs, size_t n, jobjectArray into, jsize at);

#endif
