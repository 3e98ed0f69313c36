package org.capsched.yarn;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.ContainerRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
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
            RMContainer rmContainer = new RMContainerImpl(container, key, getApplicationAttemptId(), node.getNodeID(),
                    appSchedulingInfo.getUser(), rmContext, node.getPartition());
            ((RMContainerImpl) rmContainer).setQueueName(getQueueName());
            addToNewlyAllocatedContainers(node, rmContainer);
            liveContainers.put(container.getId(), rmContainer);
            // YARN's request table follows capsched's decision when it holds the ask (the RM's
            // AM ask may arrive after capsched placed the AM container).
            // The request table updates the queue metrics; without the ask, they are updated here.
            if (getOutstandingAsksCount(key) > 0) {
                ContainerRequest request = appSchedulingInfo.allocate(type, node, key, rmContainer);
                ((RMContainerImpl) rmContainer).setContainerRequest(request);
            } else {
                getQueue().getMetrics().allocateResources(node.getPartition(), getUser(), 1,
                        container.getResource(), true);
            }
            attemptResourceUsage.incUsed(node.getPartition(), container.getResource());
            rmContainer.handle(new RMContainerEvent(container.getId(), RMContainerEventType.START));
            return rmContainer;
        } finally {
            writeLock.unlock();
        }
    }
}
