package org.capsched.yarn;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.capsched.CapschedException;
import org.capsched.CompletedContainer;
import org.capsched.YarnId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RMContainers of capsched's containers, both ways: a container capsched placed becomes an
 * RMContainer of its attempt on its node ({@link #record}), and a completion YARN decides (an
 * NM's report, an AM's release, the RM's kill, expiry: completedContainerInternal) is told to
 * capsched, while one capsched decided ({@link #finishFromEngine}) is YARN's bookkeeping only.
 * It keeps {@link CapschedContext#containerHandles}/{@link CapschedContext#containerIds}.
 *
 * <p>{@link #record} and {@link #completed} run with the scheduler's monitor held (from a node
 * update, allocate, the drain, or the scheduler's synchronized completedContainerInternal);
 * {@link #killInEngine} takes it, as the scheduler's synchronized method did.
 */
final class CapschedContainers {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    private final CapschedContext ctx;
    private final CapschedResourceScheduler scheduler;

    /** A completion capsched decided: YARN's bookkeeping only, the engine already knows. */
    private boolean fromEngine;

    CapschedContainers(CapschedContext ctx) {
        this.ctx = ctx;
        this.scheduler = ctx.scheduler;
    }

    /** A container capsched placed on `node`: an RMContainer from now on. */
    void record(org.capsched.Container c, FiCaSchedulerNode node) {
        record(c.id, c.yarnId, c.resource, c.priority, c.allocationRequestId, c.locality, c.isAm, node);
    }

    /**
     * A guaranteed container capsched placed on `node` (in a heartbeat, or in its asynchronous
     * pass): an RMContainer from now on.
     */
    void record(long handle, YarnId yarnId, org.capsched.Resource resource, int priority,
            long allocationRequestId, int locality, boolean isAm, FiCaSchedulerNode node) {
        ApplicationAttemptId attemptId = CapschedContext.attemptId(yarnId);
        ContainerId id = ContainerId.newContainerId(attemptId, yarnId.containerId);
        CapschedAppAttempt attempt = scheduler.getApplicationAttempt(attemptId);
        if (isAm) {
            // The RM's AM ask's key (its priority and request id), so YARN's request table
            // matches the AM container with the ask as it would the stock scheduler's.
            ResourceRequest amAsk = amAsk(ctx.rmContext().getRMApps().get(attemptId.getApplicationId()));
            if (amAsk != null) {
                priority = amAsk.getPriority().getPriority();
                allocationRequestId = amAsk.getAllocationRequestId();
            }
        }
        Long app = ctx.appHandles.get(attemptId.getApplicationId());
        if (attempt == null || node == null || app == null) {
            LOG.warn("capsched placed {} for an attempt the RM no longer runs: released", id);
            ctx.engine().killContainer(handle, ContainerExitStatus.ABORTED, "Container of a finished attempt");
            return;
        }
        Container container = Container.newInstance(id, node.getNodeID(), node.getRMNode().getHttpAddress(),
                Resource.newInstance(resource.memoryMb, (int) resource.vcores), Priority.newInstance(priority), null,
                ExecutionType.GUARANTEED);
        container.setAllocationRequestId(allocationRequestId);
        NodeType type = locality == org.capsched.Container.NODE_LOCAL ? NodeType.NODE_LOCAL
                : locality == org.capsched.Container.RACK_LOCAL ? NodeType.RACK_LOCAL : NodeType.OFF_SWITCH;
        RMContainer rmContainer = attempt.allocated(type, node, SchedulerRequestKey.extractFrom(container), container);
        if (rmContainer == null) {
            ctx.engine().killContainer(handle, ContainerExitStatus.ABORTED, "Container of a stopped attempt");
            return;
        }
        ctx.containerHandles.put(id, handle);
        ctx.containerIds.put(handle, id);
        node.allocateContainer(rmContainer);
        ctx.queues.userUsageChanged(((CapschedQueue) attempt.getQueue()).path(), attempt.getUser());
        if (isAm) {
            // The RM pulls the AM container through allocate (AMContainerAllocatedTransition).
            ctx.engine().takeAmContainer(app);
        }
    }

    /** The ANY request of an application's AM asks; null when it has none (unmanaged). */
    private static ResourceRequest amAsk(RMApp rmApp) {
        if (rmApp == null || rmApp.getAMResourceRequests() == null) return null;
        for (ResourceRequest r : rmApp.getAMResourceRequests()) {
            if (ResourceRequest.ANY.equals(r.getResourceName())) return r;
        }
        return null;
    }

    /** Containers the RM first heard of at the AM's pull: each placement's event was lost. */
    private final java.util.concurrent.atomic.AtomicLong firstSeenAtPull = new java.util.concurrent.atomic.AtomicLong();

    /**
     * A container the AM's pull lists before the RM heard of its placement: only when its
     * CONTAINER_PLACED was dropped (the engine's event queue full). Said once, then counted.
     */
    void firstSeenAtPull(ContainerId id) {
        long n = firstSeenAtPull.incrementAndGet();
        if (n == 1) {
            LOG.warn("capsched placed {} and the RM first heard of it at the AM's pull (its placement event was "
                    + "lost: the engine dropped {} events); recorded now", id, ctx.engine().droppedEvents());
        }
    }

    /** How many containers the RM first heard of at the AM's pull ({@link #firstSeenAtPull}). */
    long firstSeenAtPullCount() {
        return firstSeenAtPull.get();
    }

    void killInEngine(long handle, int exitStatus, String diagnostics) {
        synchronized (scheduler) {
            try {
                ctx.engine().killContainer(handle, exitStatus, diagnostics);
            } catch (CapschedException e) {
                ctx.goOnPast("the kill of a reserved container", e);
            }
            ctx.engineEvents.drain();
        }
    }

    void forget(ContainerId id) {
        Long handle = ctx.containerHandles.remove(id);
        if (handle != null) ctx.containerIds.remove(handle);
    }

    /**
     * A completion capsched decided (its engine's event): AbstractYarnScheduler's
     * completedContainer finishes the RMContainer, and the engine is not told again.
     */
    void finishFromEngine(RMContainer c, ContainerStatus status) {
        fromEngine = true;
        try {
            scheduler.yarnCompletedContainer(c, status, RMContainerEventType.KILL);
        } finally {
            fromEngine = false;
        }
    }

    /** completedContainerInternal (the scheduler's monitor held). */
    void completed(RMContainer rmContainer, ContainerStatus status, RMContainerEventType event) {
        ContainerId id = rmContainer.getContainerId();
        Long handle = ctx.containerHandles.get(id);
        forget(id);
        if (!fromEngine && handle != null && ctx.startedEngine() != null) {
            try {
                if (ctx.nodes.inNodeUpdate() && event == RMContainerEventType.FINISHED) {
                    ctx.nodes.completedInNodeUpdate(new CompletedContainer(handle, status.getExitStatus(),
                            status.getDiagnostics() == null ? "" : status.getDiagnostics()));
                } else if (event == RMContainerEventType.EXPIRE) {
                    ctx.engine().containerExpired(handle);
                } else {
                    ctx.engine().killContainer(handle, status.getExitStatus(),
                            status.getDiagnostics() == null ? "" : status.getDiagnostics());
                }
            } catch (CapschedException e) {
                ctx.goOnPast("the completion of " + id, e);
            }
        }
        CapschedAppAttempt attempt = scheduler.getCurrentAttemptForContainer(id);
        FiCaSchedulerNode node = scheduler.nodeTracker().getNode(rmContainer.getNodeId());
        if (attempt == null) {
            LOG.info("Unknown application {} released container {} with event {}",
                    id.getApplicationAttemptId().getApplicationId(), id, event);
            return;
        }
        // Usage is booked to the node's partition (the container's label is its request's),
        // as LeafQueue.completedContainer passes it.
        attempt.containerCompleted(rmContainer, status, event,
                node != null ? node.getPartition() : rmContainer.getNodeLabelExpression());
        ctx.queues.userUsageChanged(((CapschedQueue) attempt.getQueue()).path(), attempt.getUser());
        if (node != null) node.releaseContainer(id, false);
    }
}
