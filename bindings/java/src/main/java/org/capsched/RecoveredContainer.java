package org.capsched;

/** A container a NodeManager reports running when it (re)registers. */
public final class RecoveredContainer {
    public final long app;
    public final Resource resource;
    public final int priority;
    public final long allocationRequestId;
    /** YARN's ContainerId.getContainerId(): the allocating RM's epoch in bits 40 and up. */
    public final long containerId;
    public final boolean isAm;

    public RecoveredContainer(long app, Resource resource, int priority, long allocationRequestId, long containerId,
            boolean isAm) {
        this.app = app;
        this.resource = resource;
        this.priority = priority;
        this.allocationRequestId = allocationRequestId;
        this.containerId = containerId;
        this.isAm = isAm;
    }
}
