package org.capsched.yarn;

import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.capsched.CapschedException;
import org.capsched.QueueNodeLabels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Node labels, as the RM's {@code RMNodeLabelsManager} owns them: capsched's cluster labels
 * synced from it ({@link #syncClusterLabels}, and {@link #learnLabels} before capsched checks an
 * expression the RM accepted), a registering node's label forwarded, NODE_LABELS_UPDATE
 * relabelling nodes (and moving the RM's scheduler nodes and attempts with them), and the
 * queues' accessible labels handed to the manager and cached for the RM's request checks.
 *
 * <p>{@link #syncClusterLabels} and {@link #nodeLabelsUpdated} take the scheduler's monitor, as
 * the scheduler's synchronized methods did; the rest take none (the queue label cache is
 * concurrent and versioned). It uses the engine, the queues and the scheduler's node tracker and
 * attempts.
 */
final class CapschedLabels {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    private final CapschedContext ctx;
    private final CapschedResourceScheduler scheduler;

    /**
     * {@code yarn.node-labels.enabled}, read once as the RM's label manager and request checks
     * read it: without it the manager refuses every label, so there is nothing to forward.
     */
    boolean enabled;
    /** The cluster labels capsched has, as last taken from the RM's label manager. */
    final Set<String> engineLabels = Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());
    /**
     * Each queue's accessible labels and default expression, by path: the RM reads them for
     * every request it checks, and they change only with the configuration (a refresh clears
     * them; a leaf made later is read when first asked for).
     */
    private final Map<String, QueueNodeLabels> queueLabels = new ConcurrentHashMap<String, QueueNodeLabels>();
    /** Moves on at each refresh: a read begun before one does not fill the cleared cache. */
    private volatile long queueLabelsVersion;

    CapschedLabels(CapschedContext ctx) {
        this.ctx = ctx;
        this.scheduler = ctx.scheduler;
    }

    RMNodeLabelsManager manager() {
        RMContext rmContext = ctx.rmContext();
        return rmContext == null ? null : rmContext.getNodeLabelManager();
    }

    /** A node's partition from its label set: its one label, or "" (YARN allows one). */
    private static String partition(Set<String> labels) {
        return labels == null || labels.isEmpty() ? "" : labels.iterator().next();
    }

    /**
     * capsched's cluster labels follow the RM's label manager, which owns them (its store, its
     * admin calls). Adding a label reaches no scheduler, so capsched learns it here: at start,
     * before a node or a request needs it, and at every NODE_LABELS_UPDATE (which a removal
     * sends). A label the RM no longer has (or has again with another exclusivity) is removed,
     * unless a queue lists it: capsched keeps it then, as the RM itself would have refused the
     * removal (the queues' labels are the label manager's, {@link #publishQueueLabels}).
     */
    void syncClusterLabels() {
        synchronized (scheduler) {
            RMNodeLabelsManager mgr = manager();
            if (!enabled || mgr == null) return;
            Map<String, Boolean> wanted = new java.util.LinkedHashMap<String, Boolean>();
            for (org.apache.hadoop.yarn.api.records.NodeLabel l : mgr.getClusterNodeLabels()) {
                wanted.put(l.getName(), l.isExclusive());
            }
            Set<String> have = new HashSet<String>();
            for (org.capsched.NodeLabel l : ctx.engine().nodeLabels()) {
                Boolean exclusive = wanted.get(l.name);
                if (exclusive == null || exclusive != l.exclusive) {
                    try {
                        // One at a time: a label a queue lists must not keep the others.
                        ctx.engine().removeNodeLabels(Collections.singletonList(l.name));
                        continue;
                    } catch (CapschedException e) {
                        if (e.status() != CapschedException.REFUSED) throw e;
                        ctx.warnOnce("The RM's label manager dropped or changed node label " + l
                                + ", capsched keeps it: " + e.getMessage());
                    }
                }
                have.add(l.name);
            }
            for (Map.Entry<String, Boolean> l : wanted.entrySet()) {
                if (have.contains(l.getKey())) continue;
                try {
                    ctx.engine().addNodeLabels(Collections.singletonList(
                            new org.capsched.NodeLabel(l.getKey(), l.getValue())));
                    have.add(l.getKey());
                } catch (CapschedException e) {
                    if (e.status() != CapschedException.REFUSED) throw e;
                    ctx.warnOnce("capsched refused node label " + l.getKey() + ": " + e.getMessage());
                }
            }
            engineLabels.retainAll(have);
            engineLabels.addAll(have);
            for (String label : have) ctx.queues.linkPartition(label);
            ctx.engineEvents.drain(); // removals move nodes back to the default partition
        }
    }

    /**
     * Before capsched checks expressions the RM has already accepted: any label they name that
     * capsched has not heard of yet is taken from the label manager (added there since the
     * last sync).
     */
    void learnLabels(String... expressions) {
        if (!enabled) return;
        for (String e : expressions) {
            if (e == null) continue;
            for (String label : e.split("&&")) {
                String l = label.trim();
                if (!l.isEmpty() && !engineLabels.contains(l)) {
                    syncClusterLabels();
                    return;
                }
            }
        }
    }

    /**
     * A registering node's label, as the RM's label manager has it, for capsched before the
     * node is added. Every registration sends it, "none" too, since a node that was away may
     * have been relabelled meanwhile (the manager's updates name running nodes only). False
     * when capsched could not take it (the label is gone again): the node is unlabelled on
     * both sides then, until the manager's next update.
     */
    boolean forwardLabel(NodeId id, Set<String> labels) {
        String label = partition(labels);
        learnLabels(label);
        try {
            ctx.engine().replaceLabelsOnNodes(Collections.singletonMap(id.toString(), label.isEmpty() ? null : label));
            return true;
        } catch (CapschedException e) {
            if (e.status() != CapschedException.REFUSED) throw e;
            LOG.warn("Node {} registers with label {} capsched does not have ({}): unlabelled", id, label,
                    e.getMessage());
            try {
                ctx.engine().replaceLabelsOnNodes(Collections.<String, String>singletonMap(id.toString(), null));
            } catch (CapschedException again) {
                // capsched refuses labels altogether (its configuration disables them): the
                // node has none there either.
                if (again.status() != CapschedException.REFUSED) throw again;
            }
            return false;
        }
    }

    /**
     * NODE_LABELS_UPDATE, the label manager's new label for each running node it names: the
     * cluster's labels first (a removal's update names the nodes that carried the label),
     * then the nodes whose partition changes. capsched moves their containers' usage to the
     * new partition and drops their reservations; the RM's scheduler nodes and attempts follow
     * as CapacityScheduler.updateLabelsOnNode moves them.
     */
    void nodeLabelsUpdated(Map<NodeId, Set<String>> update) {
        synchronized (scheduler) {
            if (!enabled) return; // the label manager refuses every label without it
            syncClusterLabels();
            Map<String, String> mapping = new java.util.LinkedHashMap<String, String>();
            Map<FiCaSchedulerNode, Set<String>> moved = new java.util.LinkedHashMap<FiCaSchedulerNode, Set<String>>();
            for (Map.Entry<NodeId, Set<String>> e : update.entrySet()) {
                Set<String> labels = e.getValue() == null ? RMNodeLabelsManager.EMPTY_STRING_SET : e.getValue();
                String label = partition(labels);
                if (!label.isEmpty() && !engineLabels.contains(label)) {
                    // Removed from the cluster since this update was sent: the removal's own
                    // update, which follows, unlabels the node.
                    LOG.warn("Node {}: label {} is no longer the cluster's, left as it was", e.getKey(), label);
                    continue;
                }
                FiCaSchedulerNode node = scheduler.nodeTracker().getNode(e.getKey());
                if (node != null && node.getPartition().equals(label)) continue; // capsched has it so
                mapping.put(e.getKey().toString(), label.isEmpty() ? null : label);
                if (node != null) moved.put(node, labels);
            }
            if (mapping.isEmpty()) return;
            try {
                ctx.engine().replaceLabelsOnNodes(mapping);
            } catch (CapschedException e) {
                if (e.status() != CapschedException.REFUSED) throw e;
                LOG.warn("capsched refused the label manager's update {}: {}", mapping, e.getMessage());
                return;
            }
            for (Map.Entry<FiCaSchedulerNode, Set<String>> m : moved.entrySet()) {
                FiCaSchedulerNode node = m.getKey();
                String from = node.getPartition();
                String to = partition(m.getValue());
                for (RMContainer c : node.getCopiedListOfRunningContainers()) {
                    CapschedAppAttempt attempt = scheduler.getApplicationAttempt(c.getApplicationAttemptId());
                    if (attempt != null) attempt.nodePartitionUpdated(c, from, to);
                }
                node.updateLabels(m.getValue());
            }
            ctx.queues.amLimitMoment(null);
            ctx.engineEvents.drain(); // partitions changing size may activate attempts
        }
    }

    /** A queue's accessible labels and default expression (see {@link #queueLabels}). */
    QueueNodeLabels queueNodeLabels(String path) {
        QueueNodeLabels l = queueLabels.get(path);
        if (l == null) {
            long version = queueLabelsVersion;
            l = ctx.engine().queueNodeLabels(path);
            if (version == queueLabelsVersion) queueLabels.put(path, l);
        }
        return l;
    }

    /**
     * Every queue's accessible labels to the RM's label manager, as CapacitySchedulerQueueManager
     * hands them over at start and at each refresh: the manager then refuses to remove a label a
     * queue lists, with YARN's words, and counts each queue's resource by its labels.
     */
    void publishQueueLabels() {
        RMNodeLabelsManager mgr = manager();
        if (mgr == null) return;
        Map<String, Set<String>> byQueue = new java.util.HashMap<String, Set<String>>();
        for (org.capsched.QueueInfo q : ctx.engine().queues()) byQueue.put(q.path, queueNodeLabels(q.path).accessible);
        mgr.reinitializeQueueLabels(byQueue);
    }

    /** After a refresh of the queues: the cached queue labels dropped, the new ones published. */
    void queuesRefreshed() {
        queueLabelsVersion++;
        queueLabels.clear();
        publishQueueLabels();
    }
}
