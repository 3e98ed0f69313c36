/* Node labels (src/ffi/labels.rs): the cluster's labels, the nodes' labels and partitions, and
 * the queues' use of partitions and accessible labels. */
#include "jni_common.h"

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
