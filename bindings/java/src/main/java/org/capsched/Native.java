package org.capsched;

/**
 * The native methods, one per function of the JNI glue (bindings/java/native/jni_*.c), each
 * over one C ABI call. Handles are the C pointers and ids as longs; strings are UTF-8 bytes;
 * results are packed into arrays that the public classes unpack (layouts in the glue's
 * header, jni_common.h). Failures throw {@link CapschedException}.
 */
final class Native {
    static {
        NativeLibrary.load();
    }

    static final int CONTAINER_LONGS = 15;
    static final int STATUS_LONGS = 6;
    static final int INFO_LONGS = 20;
    static final int EVENT_LONGS = 9;
    /** Per CONTAINER_PLACED event after the dropped count: found (1 or 0), then INFO_LONGS. */
    static final int PLACED_LONGS = 1 + INFO_LONGS;

    private Native() {}

    static void init() {
        // Loading happens in the static initializer above.
    }

    static native int abiVersion();

    static native int headerAbiVersion();

    static native byte[] version();

    static native long configFromXml(byte[] xml);

    static native long configFromFile(byte[] path);

    static native long configFromPairs(byte[][] keys, byte[][] values);

    static native void configFree(long config);

    static native long engineNew(long config, long[] options);

    static native void engineStop(long engine);

    static native void engineFree(long engine);

    static native int engineTick(long engine, long nowMs);

    static native int engineStep(long engine, int passes);

    static native void refreshQueues(long engine, long config);

    static native byte[] schedulerJson(long engine);

    static native void checkInvariants(long engine);

    static native long[] clusterInfo(long engine);

    static native Object[] queues(long engine);

    static native Object[] queueStatuses(long engine);

    static native long figuresVersion(long engine);

    static native Object[] queueUsers(long engine, byte[] queue);

    static native long[] queueUser(long engine, byte[] queue, byte[] user);

    static native long[] pollEvents(long engine, int max);

    static native long nodeAdd(long engine, byte[] host, byte[] rack, long memoryMb, long vcores);

    static native long nodeAddRecovered(long engine, byte[] host, byte[] rack, long memoryMb, long vcores,
            long[] reports);

    static native void nodeRemove(long engine, long node);

    /** pollMax > 0: the events after the heartbeat and the figures version too, in the same call. */
    static native Object[] nodeUpdate(long engine, long node, long[] launched, long[] completed, int[] exitStatuses,
            byte[][] diagnostics, int pollMax);

    static native void nodeUpdateResource(long engine, long node, long memoryMb, long vcores, long timeoutMs);

    static native void nodeDecommission(long engine, long node, long timeoutMs);

    static native void nodeRecommission(long engine, long node);

    static native long nodeFind(long engine, byte[] address);

    static native long appSubmit(long engine, byte[] queue, byte[] user, byte[][] groups, byte[] appName,
            int priority, long clusterTimestamp, int sequence, boolean recovering, byte[] nodeLabelExpression,
            byte[] amNodeLabelExpression);

    static native byte[][] appPlace(long engine, byte[] queue, byte[] user, byte[][] groups, byte[] appName,
            long clusterTimestamp, int sequence);

    static native void attemptAdd(long engine, long app, long memoryMb, long vcores, boolean unmanaged,
            boolean keepContainers);

    static native void attemptRecover(long engine, long app, long memoryMb, long vcores, boolean unmanaged);

    static native void attemptRemove(long engine, long app, boolean keepContainers);

    static native void appRemove(long engine, long app);

    static native void appMove(long engine, long app, byte[] queue);

    static native int appSetPriority(long engine, long app, int priority);

    static native long appFind(long engine, long clusterTimestamp, int sequence);

    static native long[] amContainerTake(long engine, long app);

    static native Object[] appReport(long engine, long app);

    static native long[] containerGet(long engine, long container);

    static native long containerFind(long engine, long clusterTimestamp, int application, int attempt,
            long containerId);

    static native void containerExpired(long engine, long container);

    static native void containerKill(long engine, long container, int exitStatus, byte[] diagnostics);

    static native boolean checkAccess(long engine, byte[] user, byte[][] groups, int acl, byte[] queue);

    static native long[] applicationLifetime(long engine, byte[] queue, long requested);

    static native Object[] allocate(long engine, long app, int responseId, long[] askValues, byte[][] askNames,
            byte[][] askLabels, long[] releases, byte[][] blacklistAdditions, byte[][] blacklistRemovals);

    static native void nodeLabelsAdd(long engine, byte[][] names, boolean[] exclusive);

    static native void nodeLabelsRemove(long engine, byte[][] names);

    static native void nodeLabelsReplace(long engine, byte[][] nodes, byte[][] labels);

    static native Object[] nodeLabels(long engine);

    static native byte[] nodePartition(long engine, long node);

    static native long[] queuePartitionUsage(long engine, byte[] queue, byte[] label);

    static native Object[] queueNodeLabels(long engine, byte[] queue);

    static native byte[] yarnIdFormat(long clusterTimestamp, int application, int attempt, long containerId);

    static native long[] yarnIdParse(byte[] text);
}
