package org.capsched.yarn;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationResourceUsageReport;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.ContainerRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.AppPlacementAllocator;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;

/**
 * An attempt's RM-side bookkeeping. capsched decides every allocation; this records it the
 * way YARN's schedulers do (RMContainerImpl, newly allocated and live containers, the request
 * table, usage), so the rest of the RM (tokens, launch, the attempt's state machine) works as
 * with the stock scheduler.
 */
final class CapschedAppAttempt extends FiCaSchedulerApp {
    CapschedAppAttempt(ApplicationAttemptId id, String user, CapschedQueue queue, RMContext rmContext) {
        super(id, user, queue, queue.getAbstractUsersManager(), rmContext);
    }

    /** Records a container capsched allocated on `node`; null when the attempt has stopped. */
    RMContainer allocated(NodeType type, FiCaSchedulerNode node, SchedulerRequestKey key, Container container) {
        writeLock.lock();
        try {
            if (isStopped) return null;
            // The container's label is its request's partition (RegularContainerAllocator's
            // getPrimaryRequestedNodePartition), which differs from the node's when capsched
            // lent a non-exclusive node's room to a default-partition ask. Without the ask in
            // the table (an AM container placed before the RM's own AM ask arrived) it is the
            // node's: an AM is always placed in its own partition.
            AppPlacementAllocator<FiCaSchedulerNode> placement = appSchedulingInfo.getAppPlacementAllocator(key);
            String requested = placement != null ? placement.getPrimaryRequestedNodePartition() : node.getPartition();
            RMContainer rmContainer = new RMContainerImpl(container, key, getApplicationAttemptId(), node.getNodeID(),
                    appSchedulingInfo.getUser(), rmContext, requested);
            ((RMContainerImpl) rmContainer).setQueueName(getQueueName());
            addToNewlyAllocatedContainers(node, rmContainer);
            liveContainers.put(container.getId(), rmContainer);
            // YARN's request table follows capsched's decision when it holds the ask (the RM's
            // AM ask may arrive after capsched placed the AM container).
            // The request table updates the queue metrics; without the ask, they are updated here.
            if (getOutstandingAsksCount(key) > 0) {
                ContainerRequest request = appSchedulingInfo.allocate(tableLocality(type, key, node), node, key,
                        rmContainer);
                ((RMContainerImpl) rmContainer).setContainerRequest(request);
            } else {
                // No ask to take it from (the AM container, placed before the RM's AM ask came):
                // the attempt runs from now on and the container counts, as AppSchedulingInfo
                // counts an allocation.
                appSchedulingInfo.recoverContainer(rmContainer, node.getPartition());
                getQueue().getMetrics().incrNodeTypeAggregations(getUser(), type);
            }
            attemptResourceUsage.incUsed(node.getPartition(), container.getResource());
            rmContainer.handle(new RMContainerEvent(container.getId(), RMContainerEventType.START));
            return rmContainer;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * The locality at which YARN's request table can take a container capsched placed at
     * {@code type}. The two tables can differ for a moment: capsched decides from its own, and an
     * AM's allocate that lowered a host's or a rack's count to nothing may have reached YARN's
     * table since (asynchronous placement, or the asks crossing a heartbeat). YARN's table then
     * has no request to take a node-local (or rack-local) container from, and
     * LocalityAppPlacementAllocator would fail on it; it takes it where it still has an ask, as
     * the stock scheduler's own decision from that table would have been.
     */
    private NodeType tableLocality(NodeType type, SchedulerRequestKey key, FiCaSchedulerNode node) {
        if (type == NodeType.NODE_LOCAL && !(asked(key, node.getNodeName()) && asked(key, node.getRackName()))) {
            type = NodeType.RACK_LOCAL;
        }
        if (type == NodeType.RACK_LOCAL && !asked(key, node.getRackName())) type = NodeType.OFF_SWITCH;
        return type;
    }

    private boolean asked(SchedulerRequestKey key, String resourceName) {
        AppPlacementAllocator<FiCaSchedulerNode> placement = appSchedulingInfo.getAppPlacementAllocator(key);
        if (placement == null) return false;
        org.apache.hadoop.yarn.api.records.ResourceRequest r = placement.getResourceRequests().get(resourceName);
        return r != null && r.getNumContainers() > 0;
    }

    /** Whether the AM counts in the queue's used AM resource (the attempt is active). */
    private boolean amCharged;

    /**
     * capsched activated the attempt: its AM counts in the queue's used AM resource, as
     * LeafQueue.activateApplications counts it (the AM resource FiCaSchedulerApp set from the
     * AM request, in the AM's partition).
     */
    void chargeAm() {
        writeLock.lock();
        try {
            if (amCharged) return;
            amCharged = true;
            String partition = getAppAMNodePartitionName();
            ((CSQueueMetrics) getQueue().getMetrics()).incAMUsed(partition, getUser(), getAMResource(partition));
            ((CapschedQueue) getQueue()).getAbstractUsersManager().leafActivated(getUser(), 1);
        } finally {
            writeLock.unlock();
        }
    }

    /** The attempt ends or leaves its queue: its AM no longer counts there. */
    void dischargeAm() {
        writeLock.lock();
        try {
            if (!amCharged) return;
            amCharged = false;
            String partition = getAppAMNodePartitionName();
            ((CSQueueMetrics) getQueue().getMetrics()).decAMUsed(partition, getUser(), getAMResource(partition));
            ((CapschedQueue) getQueue()).getAbstractUsersManager().leafActivated(getUser(), -1);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * After a move: the target leaf activated the attempt before its asks moved there, as
     * CapacityScheduler.moveApplication orders it, so asks it holds make its user active there.
     */
    void activateMovedAsks() {
        writeLock.lock();
        try {
            if (amCharged && !appSchedulingInfo.getSchedulerKeys().isEmpty()) {
                getQueue().getAbstractUsersManager().activateApplication(getUser(), getApplicationId());
            }
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Not a label (labels are letters, digits, '-' and '_'), so the label manager has no
     * resource for it.
     */
    private static final String NO_PARTITION = "<capsched: no partition>";
    /** Set on the thread running FiCaSchedulerApp's report: see getResourceUsageReport. */
    private static final ThreadLocal<Boolean> REPORTING = new ThreadLocal<Boolean>();

    @Override
    public String getAppAMNodePartitionName() {
        return REPORTING.get() != null ? NO_PARTITION : super.getAppAMNodePartitionName();
    }

    /**
     * FiCaSchedulerApp's report casts the queue to a CapacityScheduler queue once the AM's
     * partition has nodes in the label manager (this scheduler activates them there, as the
     * stock one does). Its own part is skipped by showing it a partition without resources on
     * this thread only; the queue usage percentage it would set is computed from capsched's
     * figures instead (the plain SchedulerApplicationAttempt figure stays where capsched
     * cannot state the queue's guarantee).
     */
    @Override
    public ApplicationResourceUsageReport getResourceUsageReport() {
        ApplicationResourceUsageReport report;
        REPORTING.set(Boolean.TRUE);
        try {
            report = super.getResourceUsageReport();
        } finally {
            REPORTING.remove();
        }
        CapschedQueue queue = (CapschedQueue) getQueue();
        Float percentage = queue.scheduler().queueUsagePercentage(queue.path(), getAppAMNodePartitionName(),
                report.getUsedResources());
        if (percentage != null) report.setQueueUsagePercentage(percentage);
        return report;
    }

    /**
     * A relabelled node's running container: its usage moves to the node's new partition (an
     * AM's partition with it), as FiCaSchedulerApp's does. FiCaSchedulerApp also moves the
     * LeafQueue's usage, which is capsched's here (it moved its own already).
     */
    @Override
    public void nodePartitionUpdated(RMContainer rmContainer, String oldPartition, String newPartition) {
        writeLock.lock();
        try {
            Resource r = rmContainer.getAllocatedResource();
            attemptResourceUsage.decUsed(oldPartition, r);
            attemptResourceUsage.incUsed(newPartition, r);
            if (rmContainer.isAMContainer()) setAppAMNodePartitionName(newPartition);
        } finally {
            writeLock.unlock();
        }
    }
}
