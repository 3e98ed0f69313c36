package org.capsched;

/** One application's report, from the live state. */
public final class AppReport {
    public static final int SUBMITTED = 0;
    public static final int ACCEPTED = 1;
    public static final int RUNNING = 2;
    public static final int BETWEEN_ATTEMPTS = 3;

    public static final int PENDING_NONE = 0;
    public static final int PENDING_AM_LIMIT = 1;
    public static final int PENDING_USER_AM_LIMIT = 2;
    public static final int PENDING_MAX_PARALLEL_APPS = 3;
    public static final int PENDING_CLUSTER_RESOURCE_EMPTY = 4;

    /** The application and its current attempt (attempt 0: none). */
    public final YarnId yarnId;
    public final String queue;
    public final String user;
    public final int priority;
    public final int state;
    public final int pendingReason;
    /** YARN's AM diagnostics for the pending reason ("" when none). */
    public final String diagnostics;
    public final Resource used;
    public final Resource pending;
    public final Resource amUsed;
    public final Resource reserved;
    public final int liveContainers;
    public final int reservedContainers;
    public final int opportunisticContainers;
    public final int preemptedContainers;
    public final Resource preemptedResource;
    /** The AM container while it lives (0: none). */
    public final long amContainer;
    public final long submitTimeMs;

    AppReport(Object[] r) {
        long[] v = (long[]) r[0];
        yarnId = new YarnId(v[0], (int) v[1], (int) v[2], 0);
        priority = (int) v[3];
        state = (int) v[4];
        pendingReason = (int) v[5];
        used = new Resource(v[6], v[7]);
        pending = new Resource(v[8], v[9]);
        amUsed = new Resource(v[10], v[11]);
        reserved = new Resource(v[12], v[13]);
        liveContainers = (int) v[14];
        reservedContainers = (int) v[15];
        opportunisticContainers = (int) v[16];
        preemptedContainers = (int) v[17];
        preemptedResource = new Resource(v[18], v[19]);
        amContainer = v[20];
        submitTimeMs = v[21];
        queue = Utf8.string((byte[]) r[1]);
        user = Utf8.string((byte[]) r[2]);
        diagnostics = Utf8.string((byte[]) r[3]);
    }
}
