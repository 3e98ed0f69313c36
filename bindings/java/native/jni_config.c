/* Configurations (src/ffi/config.rs): capacity-scheduler.xml as text, as a file, or as
 * key/value pairs. */
#include "jni_common.h"

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
