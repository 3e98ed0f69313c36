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
    /**
     * The node-label expression ({@code ResourceRequest.getNodeLabelExpression()}); null: none
     * (an ANY ask then takes the application's label, else its queue's default), "": the
     * default partition. Only ANY asks may name a label.
     */
    public final String nodeLabelExpression;

    public Ask(int priority, long allocationRequestId, String resourceName, Resource capability, int numContainers,
            boolean relaxLocality, int executionType) {
        this(priority, allocationRequestId, resourceName, capability, numContainers, relaxLocality, executionType,
                null);
    }

    public Ask(int priority, long allocationRequestId, String resourceName, Resource capability, int numContainers,
            boolean relaxLocality, int executionType, String nodeLabelExpression) {
        this.priority = priority;
        this.allocationRequestId = allocationRequestId;
        this.resourceName = resourceName;
        this.capability = capability;
        this.numContainers = numContainers;
        this.relaxLocality = relaxLocality;
        this.executionType = executionType;
        this.nodeLabelExpression = nodeLabelExpression;
    }

    /** An off-switch guaranteed ask, the common case. */
    public static Ask any(int priority, Resource capability, int numContainers) {
        return new Ask(priority, 0, "*", capability, numContainers, true, Container.GUARANTEED);
    }

    /** The same ask at another resource name (a host or a rack). */
    public Ask at(String name) {
        return new Ask(priority, allocationRequestId, name, capability, numContainers, relaxLocality, executionType,
                nodeLabelExpression);
    }

    /** The same ask with a node-label expression (null: none; "": the default partition). */
    public Ask withNodeLabelExpression(String expression) {
        return new Ask(priority, allocationRequestId, resourceName, capability, numContainers, relaxLocality,
                executionType, expression);
    }
}
