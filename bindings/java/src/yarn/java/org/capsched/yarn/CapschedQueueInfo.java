package org.capsched.yarn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.yarn.api.records.QueueConfigurations;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueState;
import org.apache.hadoop.yarn.api.records.QueueStatistics;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.util.Records;
import org.capsched.QueueNodeLabels;
import org.capsched.QueueStatus;

/**
 * A queue's {@code QueueInfo} as AbstractCSQueue.getQueueInfo states it ({@code yarn queue
 * -status}, YarnClient.getQueueInfo, the RM's own checks): the short name, capacities relative
 * to the parent, the used capacity as the current capacity, the state, labels, statistics from
 * the queue's metrics, preemption settings, the default partition's configurations, and with
 * {@code includeChildQueues} the children's (theirs recursively with {@code recursive}).
 */
final class CapschedQueueInfo {
    private CapschedQueueInfo() {}

    static QueueInfo of(CapschedResourceScheduler scheduler, List<QueueStatus> all, int at,
            boolean includeChildQueues, boolean recursive) {
        QueueStatus s = all.get(at);
        QueueInfo info = Records.newRecord(QueueInfo.class);
        info.setQueueName(s.name());
        QueueNodeLabels labels = scheduler.queueNodeLabels(s.path);
        info.setAccessibleNodeLabels(labels.accessible);
        info.setCapacity(s.capacity);
        info.setMaximumCapacity(s.maximumCapacity);
        info.setQueueState(state(s.state));
        info.setDefaultNodeLabelExpression(labels.defaultNodeLabelExpression);
        info.setCurrentCapacity(s.usedCapacity);
        info.setQueueStatistics(statistics(scheduler.queueMetrics(s.path)));
        info.setPreemptionDisabled(s.preemptionDisabled);
        info.setIntraQueuePreemptionDisabled(s.intraQueuePreemptionDisabled);
        info.setQueueConfigurations(Collections.singletonMap(RMNodeLabelsManager.NO_LABEL, configurations(s)));
        List<QueueInfo> children = new ArrayList<QueueInfo>();
        if (includeChildQueues) {
            for (int i = at + 1; i < all.size(); i++) {
                if (all.get(i).parent == at) children.add(of(scheduler, all, i, recursive, recursive));
            }
        }
        info.setChildQueues(children);
        return info;
    }

    static QueueState state(int capschedState) {
        switch (capschedState) {
        case QueueStatus.STOPPED:
            return QueueState.STOPPED;
        case QueueStatus.DRAINING:
            return QueueState.DRAINING;
        default:
            return QueueState.RUNNING;
        }
    }

    /** AbstractCSQueue.getQueueStatistics: the queue's metrics. */
    private static QueueStatistics statistics(QueueMetrics m) {
        QueueStatistics stats = Records.newRecord(QueueStatistics.class);
        stats.setNumAppsSubmitted(m.getAppsSubmitted());
        stats.setNumAppsRunning(m.getAppsRunning());
        stats.setNumAppsPending(m.getAppsPending());
        stats.setNumAppsCompleted(m.getAppsCompleted());
        stats.setNumAppsKilled(m.getAppsKilled());
        stats.setNumAppsFailed(m.getAppsFailed());
        stats.setNumActiveUsers(m.getActiveUsers());
        stats.setAvailableMemoryMB(m.getAvailableMB());
        stats.setAllocatedMemoryMB(m.getAllocatedMB());
        stats.setPendingMemoryMB(m.getPendingMB());
        stats.setReservedMemoryMB(m.getReservedMB());
        stats.setAvailableVCores(m.getAvailableVirtualCores());
        stats.setAllocatedVCores(m.getAllocatedVirtualCores());
        stats.setPendingVCores(m.getPendingVirtualCores());
        stats.setReservedVCores(m.getReservedVirtualCores());
        stats.setPendingContainers(m.getPendingContainers());
        stats.setAllocatedContainers(m.getAllocatedContainers());
        stats.setReservedContainers(m.getReservedContainers());
        return stats;
    }

    /** AbstractCSQueue.getQueueConfigurations for the default partition. */
    private static QueueConfigurations configurations(QueueStatus s) {
        QueueConfigurations c = Records.newRecord(QueueConfigurations.class);
        c.setCapacity(s.capacity);
        c.setAbsoluteCapacity(s.absoluteCapacity);
        c.setMaxCapacity(s.maximumCapacity);
        c.setAbsoluteMaxCapacity(s.absoluteMaximumCapacity);
        c.setMaxAMPercentage(s.maximumAmResourcePercent);
        c.setConfiguredMinCapacity(CapschedQueue.resource(s.configuredMinimum));
        c.setConfiguredMaxCapacity(CapschedQueue.resource(s.configuredMaximum));
        c.setEffectiveMinCapacity(CapschedQueue.resource(s.guaranteed));
        c.setEffectiveMaxCapacity(CapschedQueue.resource(s.maximum));
        return c;
    }
}
