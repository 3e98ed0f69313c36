package org.capsched.yarn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ActiveUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;

/**
 * The RM-side face of one capsched leaf: its QueueMetrics and users manager for YARN's
 * bookkeeping. Every decision (capacities, limits, ACLs) is capsched's; what this reports comes
 * from the engine.
 */
final class CapschedQueue implements Queue {
    private final CapschedResourceScheduler scheduler;
    private final String path;
    private final QueueMetrics metrics;
    private final ActiveUsersManager users;

    CapschedQueue(CapschedResourceScheduler scheduler, String path, QueueMetrics metrics) {
        this.scheduler = scheduler;
        this.path = path;
        this.metrics = metrics;
        this.users = new ActiveUsersManager(metrics);
    }

    /** The leaf's short name, as YARN's queues are named in reports. */
    @Override
    public String getQueueName() {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? path : path.substring(dot + 1);
    }

    String path() {
        return path;
    }

    CapschedResourceScheduler scheduler() {
        return scheduler;
    }

    @Override
    public QueueMetrics getMetrics() {
        return metrics;
    }

    @Override
    public QueueInfo getQueueInfo(boolean includeChildQueues, boolean recursive) {
        return scheduler.queueInfo(path);
    }

    @Override
    public List<QueueUserACLInfo> getQueueUserAclInfo(UserGroupInformation user) {
        List<QueueACL> acls = new ArrayList<QueueACL>();
        for (QueueACL acl : QueueACL.values()) {
            if (hasAccess(acl, user)) acls.add(acl);
        }
        return Collections.singletonList(QueueUserACLInfo.newInstance(getQueueName(), acls));
    }

    @Override
    public boolean hasAccess(QueueACL acl, UserGroupInformation user) {
        return scheduler.checkAccess(user, acl, path);
    }

    @Override
    public ActiveUsersManager getAbstractUsersManager() {
        return users;
    }

    @Override
    public void recoverContainer(Resource clusterResource, SchedulerApplicationAttempt attempt,
            RMContainer rmContainer) {
        // capsched charges recovered containers to the queue itself (NODE_ADDED with the NM's
        // reports); the queue metrics follow in the attempt's AppSchedulingInfo.
    }

    /** capsched's accessible labels of the queue, as YARN's queues state them ({"*"} for any). */
    @Override
    public Set<String> getAccessibleNodeLabels() {
        return scheduler.queueNodeLabels(path).accessible;
    }

    /** The queue's default-node-label-expression, own or inherited; null when unset. */
    @Override
    public String getDefaultNodeLabelExpression() {
        return scheduler.queueNodeLabels(path).defaultNodeLabelExpression;
    }

    @Override
    public void incPendingResource(String nodeLabel, Resource resourceToInc) {}

    @Override
    public void decPendingResource(String nodeLabel, Resource resourceToDec) {}

    @Override
    public Priority getDefaultApplicationPriority() {
        return null;
    }

    @Override
    public void incReservedResource(String partition, Resource reservedRes) {}

    @Override
    public void decReservedResource(String partition, Resource reservedRes) {}
}
