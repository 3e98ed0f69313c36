package org.capsched;

/** A live container's report (and what the RM needs to launch an AM container). */
public final class ContainerInfo {
    public static final int RESERVED = 1;
    public static final int ALLOCATED = 2;
    public static final int ACQUIRED = 3;
    public static final int RUNNING = 4;

    public final long id;
    public final YarnId yarnId;
    public final long app;
    public final long node;
    public final int state;
    public final Resource resource;
    public final int priority;
    public final long allocationRequestId;
    public final int executionType;
    public final int locality;
    public final boolean isAm;
    public final int version;
    public final boolean markedForPreemption;
    /** Engine-clock times; -1: not yet. */
    public final long createdMs;
    public final long acquiredMs;
    public final long launchedMs;

    ContainerInfo(long[] v) {
        this(v, 0);
    }

    /** From INFO_LONGS at {@code at} (the glue's info layout). */
    ContainerInfo(long[] v, int at) {
        id = v[at];
        yarnId = YarnId.unpack(v, at + 1);
        app = v[at + 5];
        node = v[at + 6];
        state = (int) v[at + 7];
        resource = new Resource(v[at + 8], v[at + 9]);
        priority = (int) v[at + 10];
        allocationRequestId = v[at + 11];
        executionType = (int) v[at + 12];
        locality = (int) v[at + 13];
        isAm = v[at + 14] != 0;
        version = (int) v[at + 15];
        markedForPreemption = v[at + 16] != 0;
        createdMs = v[at + 17];
        acquiredMs = v[at + 18];
        launchedMs = v[at + 19];
    }
}
