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
        id = v[0];
        yarnId = YarnId.unpack(v, 1);
        app = v[5];
        node = v[6];
        state = (int) v[7];
        resource = new Resource(v[8], v[9]);
        priority = (int) v[10];
        allocationRequestId = v[11];
        executionType = (int) v[12];
        locality = (int) v[13];
        isAm = v[14] != 0;
        version = (int) v[15];
        markedForPreemption = v[16] != 0;
        createdMs = v[17];
        acquiredMs = v[18];
        launchedMs = v[19];
    }
}
