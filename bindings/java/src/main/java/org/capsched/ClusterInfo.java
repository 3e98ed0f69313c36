package org.capsched;

/** The cluster as the scheduler sees it now. */
public final class ClusterInfo {
    public final Resource resource;
    public final long numNodes;
    public final long numApplications;
    public final long numContainers;
    /** Events dropped because nobody drained them in time. */
    public final long droppedEvents;

    ClusterInfo(long[] v) {
        resource = new Resource(v[0], v[1]);
        numNodes = v[2];
        numApplications = v[3];
        numContainers = v[4];
        droppedEvents = v[5];
    }
}
