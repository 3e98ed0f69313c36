package org.capsched.yarn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.capsched.Capsched;
import org.capsched.CapschedException;
import org.capsched.QueueStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the RM asks of the queues: their status and {@code QueueInfo}, the users' ACLs
 * (checkAccess, getQueueUserAclInfo, the submit check RMAppManager makes only for the stock
 * scheduler), the maximum allocation of a queue, and an attempt's queue usage percentage. All
 * of it from capsched's figures and checks, read again first if they moved.
 *
 * <p>It takes no lock (as before the split: none of these were synchronized on the scheduler);
 * the figures are read through the queue registry, which has its own. It uses the engine, the
 * queues, the label manager and the scheduler's cluster resource.
 */
final class CapschedQueueAccess {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    private final CapschedContext ctx;
    private final CapschedResourceScheduler scheduler;

    CapschedQueueAccess(CapschedContext ctx) {
        this.ctx = ctx;
        this.scheduler = ctx.scheduler;
    }

    /**
     * capsched's latest figures of the queue with this path or (unique) short name, read again
     * first if they moved; null when there is no such queue.
     */
    QueueStatus queueStatus(String nameOrPath) {
        if (nameOrPath == null) return null;
        ctx.engineEvents.syncFigures();
        return ctx.queues.status(nameOrPath);
    }

    /** A queue's full path, from its path or its (unique) short name; null if there is none. */
    String queuePath(String name) {
        QueueStatus s = queueStatus(name);
        return s == null ? null : s.path;
    }

    /** The queue's metrics (made with the queue on first use). */
    QueueMetrics queueMetrics(String path) {
        return ctx.queue(path).getMetrics();
    }

    /** The queue's {@code QueueInfo} as the stock scheduler states it; null when there is none. */
    QueueInfo queueInfo(String nameOrPath, boolean includeChildQueues, boolean recursive) {
        if (nameOrPath == null) return null;
        ctx.engineEvents.syncFigures();
        CapschedQueues.Located q = ctx.queues.locate(nameOrPath);
        return q == null ? null : CapschedQueueInfo.of(scheduler, q.all, q.at, includeChildQueues, recursive);
    }

    QueueInfo getQueueInfo(String queueName, boolean includeChildQueues, boolean recursive) throws IOException {
        QueueInfo q;
        try {
            q = queueInfo(queueName, includeChildQueues, recursive);
        } catch (CapschedException e) {
            throw new IOException(e.getMessage(), e);
        }
        if (q != null) return q;
        if (ctx.queues.ambiguous(queueName)) {
            throw new IOException("Ambiguous queue reference: " + queueName + " please use full queue path instead.");
        }
        throw new IOException("Unknown queue: " + queueName);
    }

    List<QueueUserACLInfo> getQueueUserAclInfo() {
        UserGroupInformation user;
        try {
            user = UserGroupInformation.getCurrentUser();
        } catch (IOException e) {
            return Collections.<QueueUserACLInfo>emptyList();
        }
        // As the stock root answers: every queue in pre-order, by its full path.
        queueStatus("root");
        List<QueueUserACLInfo> out = new ArrayList<QueueUserACLInfo>();
        for (QueueStatus q : ctx.queues.statuses()) out.addAll(ctx.queue(q.path).getQueueUserAclInfo(user));
        return out;
    }

    boolean checkAccess(UserGroupInformation user, QueueACL acl, String queueName) {
        List<String> groups = new ArrayList<String>();
        Collections.addAll(groups, user.getGroupNames());
        try {
            return ctx.engine().checkAccess(user.getShortUserName(), groups,
                    acl == QueueACL.SUBMIT_APPLICATIONS ? Capsched.ACL_SUBMIT_APPLICATIONS
                            : Capsched.ACL_ADMINISTER_QUEUE,
                    queueName);
        } catch (CapschedException e) {
            // As CapacityScheduler answers for a queue it does not find: no access.
            LOG.debug("ACL not found for queue access-type {} for queue {} ({})", acl, queueName, e.getMessage());
            return false;
        }
    }

    /**
     * With {@code yarn.acl.enable}, RMAppManager refuses a submission the queue's ACLs deny, at
     * the client's call, only for the CapacityScheduler (it checks {@code instanceof}); it asks
     * every scheduler for the priority just before, so the same refusal, in YARN's words, is
     * made here. A queue that does not exist yet (one placement creates) is left to capsched's
     * own check when the application is added.
     */
    void checkSubmitAccess(UserGroupInformation user, String queuePath, ApplicationId applicationId)
            throws YarnException {
        if (user == null || queuePath == null || !YarnConfiguration.isAclEnabled(scheduler.getConf())) return;
        if (queueStatus(queuePath) == null) return;
        if (scheduler.checkAccess(user, QueueACL.SUBMIT_APPLICATIONS, queuePath)
                || scheduler.checkAccess(user, QueueACL.ADMINISTER_QUEUE, queuePath)) {
            return;
        }
        throw org.apache.hadoop.yarn.ipc.RPCUtil.getRemoteException(new org.apache.hadoop.security.AccessControlException(
                "User " + user.getShortUserName() + " does not have permission to submit " + applicationId
                        + " to queue " + queuePath));
    }

    /**
     * CapacityScheduler.getMaximumResourceCapability(queue): for a leaf, the component-wise
     * minimum of its maximum allocation ({@code maximum-allocation-mb}/{@code -vcores}, else the
     * scheduler's) and the cluster's node-aware maximum; the latter alone, with YARN's log line,
     * for no queue, an unknown or ambiguous one, or a parent. The RM checks every submission's
     * AM request and every ask against it, and tells registering AMs.
     */
    Resource maximumResourceCapability(String queueName) {
        Resource cluster = scheduler.getMaximumResourceCapability();
        if (queueName == null || queueName.isEmpty()) return cluster;
        QueueStatus s = queueStatus(queueName);
        if (s == null) {
            if (ctx.queues.ambiguous(queueName)) {
                LOG.error("Ambiguous queue reference: " + queueName + " please use full queue path instead.");
            } else {
                LOG.error("Unknown queue: " + queueName);
            }
            return cluster;
        }
        if (!s.isLeaf) {
            LOG.error("queue " + queueName + " is not an leaf queue");
            return cluster;
        }
        return org.apache.hadoop.yarn.util.resource.Resources.componentwiseMin(
                CapschedQueue.resource(s.maximumAllocation), cluster);
    }

    /**
     * FiCaSchedulerApp's queue usage percentage of an attempt: what it uses over its queue's
     * guarantee in the AM's partition (the partition's resource in the label manager times the
     * queue's absolute capacity, truncated as Resources.multiply does), 0 when that is none;
     * null when the partition has no resource (FiCaSchedulerApp keeps the plain figure then)
     * or is a labelled one, whose guarantee capsched does not state to the plug-in.
     */
    Float queueUsagePercentage(String path, String partition, Resource used) {
        RMNodeLabelsManager mgr = ctx.labels.manager();
        if (mgr == null) return null;
        Resource partitionResource = mgr.getResourceByLabel(partition, scheduler.getClusterResource());
        if (ctx.calculator.isAllInvalidDivisor(partitionResource) || !partition.isEmpty()) return null;
        QueueStatus q = ctx.queues.status(path);
        if (q != null) {
            Resource guaranteed = org.apache.hadoop.yarn.util.resource.Resources.multiply(partitionResource,
                    q.absoluteCapacity);
            if (guaranteed.equals(org.apache.hadoop.yarn.util.resource.Resources.none())) return 0f;
            return ctx.calculator.divide(partitionResource, used, guaranteed) * 100;
        }
        return null;
    }
}
