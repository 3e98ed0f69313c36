package org.capsched;

/**
 * One queue's figures in the default partition, as a ResourceManager publishes them in YARN's
 * {@code QueueInfo} and {@code QueueMetrics} (capsched's side of them; {@code
 * capsched_queue_status} in the C header).
 */
public final class QueueStatus {
    /** The longs per queue in the native answer. */
    static final int LONGS = 41;

    public static final int RUNNING = 0;
    public static final int STOPPED = 1;
    public static final int DRAINING = 2;

    public final String path;
    /** The parent's index in the list (before the child); -1 for root. */
    public final int parent;
    public final boolean isLeaf;
    /** {@link #RUNNING}, {@link #STOPPED} or {@link #DRAINING}. */
    public final int state;
    /** Fractions, 0 to 1: of the parent, then of the cluster. */
    public final float capacity;
    public final float maximumCapacity;
    public final float absoluteCapacity;
    public final float absoluteMaximumCapacity;
    /** Used over the guarantee ({@code getUsedCapacity}), and over the partition. */
    public final float usedCapacity;
    public final float absoluteUsedCapacity;
    /** The guaranteed and maximum resources for the current cluster. */
    public final Resource guaranteed;
    public final Resource maximum;
    /** An absolute queue's configured minimum and maximum resources; zero otherwise. */
    public final Resource configuredMinimum;
    public final Resource configuredMaximum;
    /** The subtree's containers, reservations included. */
    public final Resource used;
    public final Resource reserved;
    public final long reservedContainers;
    public final Resource pending;
    /** The configured maximum allocation (the queue's, else the scheduler's). */
    public final Resource maximumAllocation;
    public final int numApplications;
    /** Leaves only from here on. */
    public final int numActiveApplications;
    public final int numPendingApplications;
    public final Resource amLimit;
    public final Resource amUsed;
    /** {@code maximum-am-resource-percent}, a fraction. */
    public final float maximumAmResourcePercent;
    public final int maxApplications;
    public final int maxApplicationsPerUser;
    /** {@code minimum-user-limit-percent}, 0 to 100. */
    public final float userLimitPercent;
    public final float userLimitFactor;
    public final int defaultApplicationPriority;
    public final boolean preemptionDisabled;
    public final boolean intraQueuePreemptionDisabled;

    QueueStatus(String path, long[] v, int at) {
        this.path = path;
        parent = (int) v[at];
        isLeaf = v[at + 1] != 0;
        state = (int) v[at + 2];
        capacity = f(v[at + 3]);
        maximumCapacity = f(v[at + 4]);
        absoluteCapacity = f(v[at + 5]);
        absoluteMaximumCapacity = f(v[at + 6]);
        usedCapacity = f(v[at + 7]);
        absoluteUsedCapacity = f(v[at + 8]);
        guaranteed = r(v, at + 9);
        maximum = r(v, at + 11);
        used = r(v, at + 13);
        reserved = r(v, at + 15);
        pending = r(v, at + 17);
        maximumAllocation = r(v, at + 19);
        amLimit = r(v, at + 21);
        amUsed = r(v, at + 23);
        reservedContainers = v[at + 25];
        numApplications = (int) v[at + 26];
        numActiveApplications = (int) v[at + 27];
        numPendingApplications = (int) v[at + 28];
        maxApplications = (int) v[at + 29];
        maxApplicationsPerUser = (int) v[at + 30];
        userLimitPercent = f(v[at + 31]);
        userLimitFactor = f(v[at + 32]);
        defaultApplicationPriority = (int) v[at + 33];
        preemptionDisabled = v[at + 34] != 0;
        intraQueuePreemptionDisabled = v[at + 35] != 0;
        configuredMinimum = r(v, at + 36);
        configuredMaximum = r(v, at + 38);
        maximumAmResourcePercent = f(v[at + 40]);
    }

    /** The last part of the path. */
    public String name() {
        return path.substring(path.lastIndexOf('.') + 1);
    }

    private static float f(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    private static Resource r(long[] v, int at) {
        return new Resource(v[at], v[at + 1]);
    }
}
