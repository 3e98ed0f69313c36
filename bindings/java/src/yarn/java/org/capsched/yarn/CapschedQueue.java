package org.capsched.yarn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueueMetrics;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.capsched.QueueStatus;

/**
 * The RM-side face of one capsched queue, a parent or a leaf: its {@code CSQueueMetrics} (named
 * by the full path, {@code q0=root,q1=a}, each queue's metrics the parent of its children's, as
 * the stock scheduler's are) and a leaf's users manager for YARN's bookkeeping. Every decision
 * (capacities, limits, ACLs) is capsched's; the figures only capsched knows (guarantees,
 * availability, reservations, AM limits, used capacities) are set here from its queue status,
 * with YARN's own formulas where YARN derives a metric from them.
 */
final class CapschedQueue implements Queue {
    private final CapschedResourceScheduler scheduler;
    private final String path;
    private final CapschedQueue parent;
    private final CSQueueMetrics metrics;
    private final CapschedUsersManager users;
    /**
     * A leaf's reservations as last mirrored into the metrics, by user (the metrics have no
     * setter, only a step per reservation made or ended); null stands for every user when the
     * metrics keep none per user.
     */
    private final Map<String, Reservations> reservations = new HashMap<String, Reservations>();
    /** Whether {@link #apply} is to set the AM limit metric (see {@link #amLimitMoment}). */
    private volatile boolean amLimitDue = true;

    /** A count of reservations and their total resource. */
    static final class Reservations {
        final long count;
        final Resource total;

        Reservations(long count, Resource total) {
            this.count = count;
            this.total = total;
        }
    }

    CapschedQueue(CapschedResourceScheduler scheduler, String path, CapschedQueue parent, boolean userMetrics) {
        this.scheduler = scheduler;
        this.path = path;
        this.parent = parent;
        this.metrics = CSQueueMetrics.forQueue(path, parent, userMetrics, scheduler.getConf());
        this.users = new CapschedUsersManager(metrics);
        linkPartition(RMNodeLabelsManager.NO_LABEL);
    }

    /**
     * This queue's metrics in `partition`, chained to its parent's there. PartitionQueueMetrics
     * finds its parent by the parent's path only for the CapacityScheduler's own queues, so the
     * plug-in chains them, parents first, for the default partition and each cluster label.
     */
    QueueMetrics linkPartition(String partition) {
        QueueMetrics own = metrics.getPartitionQueueMetrics(partition);
        if (parent != null) own.setParent(parent.linkPartition(partition));
        return own;
    }

    /** The short name, as YARN's queues are named in reports. */
    @Override
    public String getQueueName() {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? path : path.substring(dot + 1);
    }

    String path() {
        return path;
    }

    CapschedQueue parent() {
        return parent;
    }

    CapschedResourceScheduler scheduler() {
        return scheduler;
    }

    @Override
    public CSQueueMetrics getMetrics() {
        return metrics;
    }

    /**
     * The metrics only the scheduler's figures give, as CSQueueUtils sets them at every
     * allocation, release and cluster change: the available resource (the guarantee less the
     * use, reservations included, when the guarantee is larger), the used capacities, the
     * guaranteed and maximum resources (the partition times the absolute capacities, normalised
     * down to the minimum allocation), the configured capacities and, when due, a leaf's AM
     * limit. The
     * default partition's, as QueueMetrics keeps them. (A leaf's reservations are stepped by
     * {@link #mirrorReserved}; its parents follow.)
     */
    void apply(QueueStatus s, ResourceCalculator rc, Resource cluster, Resource partition, Resource minimum) {
        // Most reads move one leaf and its parents: the rest would set what they hold already.
        if (!(s.isLeaf && amLimitDue) && applied != null && sameFigures(applied, s)
                && partition.equals(appliedPartition) && cluster.equals(appliedCluster)
                && minimum.equals(appliedMinimum)) {
            return;
        }
        String p = RMNodeLabelsManager.NO_LABEL;
        Resource guaranteed = resource(s.guaranteed);
        Resource used = resource(s.used);
        Resource available = Resources.greaterThan(rc, cluster, guaranteed, used)
                ? Resources.componentwiseMax(Resources.subtract(guaranteed, used), Resources.none())
                : Resources.none();
        metrics.setAvailableResourcesToQueue(p, available);
        metrics.setUsedCapacity(p, s.usedCapacity);
        metrics.setAbsoluteUsedCapacity(p, s.absoluteUsedCapacity);
        metrics.setGuaranteedResources(p, rc.multiplyAndNormalizeDown(partition, s.absoluteCapacity, minimum));
        metrics.setMaxCapacityResources(p, rc.multiplyAndNormalizeDown(partition, s.absoluteMaximumCapacity, minimum));
        metrics.setGuaranteedCapacities(p, s.capacity, s.absoluteCapacity);
        metrics.setMaxCapacities(p, s.maximumCapacity, s.absoluteMaximumCapacity);
        if (s.isLeaf && amLimitDue) {
            metrics.setAMResouceLimit(p, resource(s.amLimit));
            amLimitDue = false;
        }
        applied = s;
        // Copies: the cluster resource is the scheduler's own, changed in place.
        appliedCluster = Resources.clone(cluster);
        appliedPartition = Resources.clone(partition);
        appliedMinimum = Resources.clone(minimum);
    }

    /** The figures {@link #apply} last set, and what they were taken against; null before. */
    private QueueStatus applied;
    private Resource appliedCluster;
    private Resource appliedPartition;
    private Resource appliedMinimum;

    /** Whether {@link #apply} would set the same metrics from `b` as from `a`. */
    private static boolean sameFigures(QueueStatus a, QueueStatus b) {
        return a.guaranteed.equals(b.guaranteed) && a.used.equals(b.used) && a.usedCapacity == b.usedCapacity
                && a.absoluteUsedCapacity == b.absoluteUsedCapacity && a.capacity == b.capacity
                && a.absoluteCapacity == b.absoluteCapacity && a.maximumCapacity == b.maximumCapacity
                && a.absoluteMaximumCapacity == b.absoluteMaximumCapacity;
    }

    /**
     * LeafQueue sets its AM limit metric only when it (re)considers its pending applications
     * (an attempt added or removed, the cluster resized, a refresh), from the limit as it stands
     * then; the metric stays between those moments, while capsched's limit follows the queue's
     * current limit. The next {@link #apply} sets it.
     */
    void amLimitMoment() {
        amLimitDue = true;
    }

    /** The users whose reservations were last mirrored (null among them: all users). */
    java.util.Set<String> reservationUsers() {
        return reservations.keySet();
    }

    /**
     * Whether the reservations last mirrored are `count` containers of `total` in all, asked
     * at every read of the figures: answered from two sums, without making a Resource.
     */
    boolean reservedAre(long count, org.capsched.Resource total) {
        return reservedCount == count && reservedMemory == total.memoryMb && reservedVcores == total.vcores;
    }

    /** The sums of {@link #reservations}, kept with it. */
    private long reservedCount;
    private long reservedMemory;
    private long reservedVcores;

    /** The leaf's reservations as last mirrored, all users together. */
    Reservations reserved() {
        long count = 0;
        Resource total = Resources.createResource(0, 0);
        for (Reservations r : reservations.values()) {
            count += r.count;
            Resources.addTo(total, r.total);
        }
        return new Reservations(count, total);
    }

    /**
     * A leaf's reservations stepped to capsched's, per user (`byUser`, null the key for all
     * users when the metrics keep none per user), through QueueMetrics.reserveResource and
     * unreserveResource as LeafQueue books a reservation: each step one container, passed up
     * to the parents and to the partition's metrics.
     */
    void mirrorReserved(Map<String, Reservations> byUser) {
        java.util.Set<String> users = new java.util.HashSet<String>(reservations.keySet());
        users.addAll(byUser.keySet());
        String p = RMNodeLabelsManager.NO_LABEL;
        for (String user : users) {
            Reservations was = reservations.get(user);
            Reservations now = byUser.get(user);
            long steps = (now == null ? 0 : now.count) - (was == null ? 0 : was.count);
            Resource delta = Resources.subtract(now == null ? Resources.none() : now.total,
                    was == null ? Resources.none() : was.total);
            if (steps > 0) {
                metrics.reserveResource(p, user, delta);
                for (long i = 1; i < steps; i++) metrics.reserveResource(p, user, Resources.none());
            } else if (steps < 0) {
                metrics.unreserveResource(p, user, Resources.negate(delta));
                for (long i = -1; i > steps; i--) metrics.unreserveResource(p, user, Resources.none());
            } else if (!delta.equals(Resources.none())) {
                // As many reservations of other sizes (one ended as another began).
                metrics.reserveResource(p, user, delta);
                metrics.unreserveResource(p, user, Resources.none());
            }
            if (now == null || now.count == 0) {
                reservations.remove(user);
            } else {
                reservations.put(user, now);
            }
        }
        Reservations all = reserved();
        reservedCount = all.count;
        reservedMemory = all.total.getMemorySize();
        reservedVcores = all.total.getVirtualCores();
    }

    @Override
    public QueueInfo getQueueInfo(boolean includeChildQueues, boolean recursive) {
        return scheduler.queueInfo(path, includeChildQueues, recursive);
    }

    @Override
    public List<QueueUserACLInfo> getQueueUserAclInfo(UserGroupInformation user) {
        List<QueueACL> acls = new ArrayList<QueueACL>();
        for (QueueACL acl : QueueACL.values()) {
            if (hasAccess(acl, user)) acls.add(acl);
        }
        // LeafQueue and ParentQueue name it by its path here.
        return Collections.singletonList(QueueUserACLInfo.newInstance(path, acls));
    }

    @Override
    public boolean hasAccess(QueueACL acl, UserGroupInformation user) {
        return scheduler.checkAccess(user, acl, path);
    }

    @Override
    public CapschedUsersManager getAbstractUsersManager() {
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

    /** A leaf's {@code default-application-priority}; null for a parent. */
    @Override
    public Priority getDefaultApplicationPriority() {
        QueueStatus s = scheduler.queueStatus(path);
        return s == null || !s.isLeaf ? null : Priority.newInstance(s.defaultApplicationPriority);
    }

    @Override
    public void incReservedResource(String partition, Resource reservedRes) {}

    @Override
    public void decReservedResource(String partition, Resource reservedRes) {}

    static Resource resource(org.capsched.Resource r) {
        return Resource.newInstance(r.memoryMb, (int) r.vcores);
    }
}
