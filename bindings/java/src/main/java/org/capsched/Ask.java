package org.capsched;

/** One ask (YARN's ResourceRequest). */
public final class Ask {
    public final int priority;
    public final long allocationRequestId;
    /** A host, a rack, or "*". */
    public final String resourceName;
    public final Resource capability;
    public final int numContainers;
    public final boolean relaxLocality;
    public final int executionType;

    public Ask(int priority, long allocationRequestId, String resourceName, Resource capability, int numContainers,
            boolean relaxLocality, int executionType) {
        this.priority = priority;
        this.allocationRequestId = allocationRequestId;
        this.resourceName = resourceName;
        this.capability = capability;
        this.numContainers = numContainers;
        this.relaxLocality = relaxLocality;
        this.executionType = executionType;
    }

    /** An off-switch guaranteed ask, the common case. */
    public static Ask any(int priority, Resource capability, int numContainers) {
        return new Ask(priority, 0, "*", capability, numContainers, true, Container.GUARANTEED);
    }

    /** The same ask at another resource name (a host or a rack). */
    public Ask at(String name) {
        return new Ask(priority, allocationRequestId, name, capability, numContainers, relaxLocality, executionType);
    }
}
