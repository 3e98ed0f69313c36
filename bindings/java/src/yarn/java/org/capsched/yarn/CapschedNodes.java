package org.capsched.yarn;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.capsched.CapschedException;
import org.capsched.CompletedContainer;
import org.capsched.NodeResponse;
import org.capsched.RecoveredContainer;

/**
 * The cluster's nodes: NODE_ADDED (with the recovery of a re-registering NodeManager's
 * containers, {@link CapschedRecovery}), NODE_REMOVED, NODE_RESOURCE_UPDATE and NODE_UPDATE
 * (the heartbeat: what YARN's own processing launched and completed, recorded while
 * AbstractYarnScheduler's {@code nodeUpdate} runs, then capsched's placements on the node).
 * It keeps {@link CapschedContext#nodeHandles}/{@link CapschedContext#nodeIds} and the scheduler's
 * node tracker in step.
 *
 * <p>Every change runs under the scheduler's monitor: {@code synchronized (scheduler)} here where
 * the scheduler's own methods were {@code synchronized}, and {@link #nodeUpdate} is called from
 * the scheduler's synchronized override. {@link #updateNodeResource} holds it only while
 * capsched takes the new resource, as before: YARN's side of the update takes its own locks.
 */
final class CapschedNodes {
    private final CapschedContext ctx;
    private final CapschedResourceScheduler scheduler;

    /** {@code yarn.scheduler.include-port-in-node-name}, read at init. */
    boolean usePortForNodeName;

    // Per node update (the scheduler's monitor is held): what YARN's own processing saw.
    private final List<Long> launchedNow = new ArrayList<Long>();
    private final List<CompletedContainer> completedNow = new ArrayList<CompletedContainer>();
    private boolean inNodeUpdate;

    CapschedNodes(CapschedContext ctx) {
        this.ctx = ctx;
        this.scheduler = ctx.scheduler;
    }

    /**
     * NODE_ADDED. A NodeManager re-registering after a work-preserving RM restart reports what
     * it runs: capsched charges each container of an application it holds back to the
     * application, user and queue (the AM's marked as such, so no second AM is asked for), and
     * YARN's own recovery (AbstractYarnScheduler.recoverContainersOnNode) rebuilds the
     * RMContainers, the node and the attempt, and kills the containers of applications that
     * are gone.
     */
    void addNode(RMNode rmNode, List<NMContainerStatus> reports) {
        synchronized (scheduler) {
            // The RM's label manager may have labelled the node (or its host) before it registered,
            // or while it was away: capsched takes its label first, so recovered containers are
            // charged to the node's partition. Both sides then keep the same partition for it.
            Set<String> labels = ctx.labels.enabled && ctx.labels.forwardLabel(rmNode.getNodeID(), rmNode.getNodeLabels())
                    ? rmNode.getNodeLabels() : RMNodeLabelsManager.EMPTY_STRING_SET;
            FiCaSchedulerNode node = new FiCaSchedulerNode(rmNode, usePortForNodeName, labels);
            List<RecoveredContainer> recovered = new ArrayList<RecoveredContainer>();
            List<ContainerId> recoveredIds = new ArrayList<ContainerId>();
            ctx.recovery.recoverable(reports, recovered, recoveredIds);
            long handle = ctx.engine().addRecoveredNode(rmNode.getNodeID().toString(), rmNode.getRackName(),
                    CapschedContext.resource(rmNode.getTotalCapability()), recovered);
            ctx.nodeHandles.put(rmNode.getNodeID(), handle);
            ctx.nodeIds.put(handle, rmNode.getNodeID());
            scheduler.nodeTracker().addNode(node); // the maximum allocation follows the largest node
            // As CapacityScheduler.addNode: the label manager counts the node's resource in its
            // partition, and only running nodes appear in its later NODE_LABELS_UPDATEs.
            RMNodeLabelsManager mgr = ctx.labels.manager();
            if (mgr != null) mgr.activateNode(rmNode.getNodeID(), rmNode.getTotalCapability());
            scheduler.recoverContainersOnNode(reports, rmNode);
            ctx.recovery.reattach(recoveredIds);
            ctx.queues.amLimitMoment(null); // the cluster grew
            ctx.engineEvents.drain();
        }
    }

    void removeNode(RMNode rmNode) {
        synchronized (scheduler) {
            RMNodeLabelsManager mgr = ctx.labels.manager();
            if (mgr != null) mgr.deactivateNode(rmNode.getNodeID()); // as CapacityScheduler.removeNode
            Long handle = ctx.nodeHandles.remove(rmNode.getNodeID());
            if (handle == null) return;
            ctx.nodeIds.remove(handle);
            try {
                ctx.engine().removeNode(handle);
            } catch (CapschedException e) {
                ctx.goOnPast("the removal of node " + rmNode.getNodeID(), e);
            }
            ctx.engineEvents.drain(); // the containers lost with it
            scheduler.nodeTracker().removeNode(rmNode.getNodeID());
            ctx.queues.amLimitMoment(null);
            ctx.engineEvents.refreshFigures(); // taken against the smaller cluster
        }
    }

    /** NODE_RESOURCE_UPDATE. */
    void updateNodeResource(RMNode rmNode, ResourceOption option) {
        // capsched first: a resource it refuses leaves the RM's node as it was too.
        updateNodeResourceInEngine(rmNode, option.getResource(), option.getOverCommitTimeout());
        scheduler.updateNodeResource(rmNode, option);
        ctx.queues.amLimitMoment(null);
        ctx.engineEvents.refreshFigures(); // taken against the new cluster
    }

    private void updateNodeResourceInEngine(RMNode rmNode, Resource total, int timeoutMs) {
        synchronized (scheduler) {
            Long handle = ctx.nodeHandles.get(rmNode.getNodeID());
            if (handle == null) return;
            ctx.engine().updateNodeResource(handle, CapschedContext.resource(total), timeoutMs < 0 ? -1 : timeoutMs);
            ctx.engineEvents.drain();
        }
    }

    /** NODE_UPDATE, the scheduler's {@code nodeUpdate} (its monitor held). */
    void nodeUpdate(RMNode rmNode) {
        Long handle = ctx.nodeHandles.get(rmNode.getNodeID());
        launchedNow.clear();
        completedNow.clear();
        inNodeUpdate = true;
        try {
            scheduler.yarnNodeUpdate(rmNode); // launches and completions: YARN's bookkeeping, recorded
        } finally {
            inNodeUpdate = false;
        }
        if (handle == null) return;
        long[] launched = new long[launchedNow.size()];
        for (int i = 0; i < launched.length; i++) launched[i] = launchedNow.get(i);
        NodeResponse response;
        try {
            // The heartbeat, the engine's events after it and its figures version: one crossing.
            response = ctx.engine().nodeUpdate(handle, launched, new ArrayList<CompletedContainer>(completedNow),
                    CapschedEngineEvents.BATCH);
        } catch (CapschedException e) {
            // YARN's side has finished these containers already: capsched hears of each alone.
            for (CompletedContainer c : completedNow) {
                try {
                    ctx.engine().killContainer(c.container, c.exitStatus, c.diagnostics);
                } catch (CapschedException again) {
                    ctx.goOnPast("a completion", again);
                }
            }
            throw e;
        }
        FiCaSchedulerNode node = scheduler.nodeTracker().getNode(rmNode.getNodeID());
        for (org.capsched.Container c : response.allocated) {
            ctx.containers.record(c, node);
        }
        ctx.engineEvents.drain(response.events, response.figuresVersion);
    }

    /** A container YARN's processing of a node update launched (containerLaunchedOnNode). */
    void launched(ContainerId containerId) {
        Long handle = ctx.containerHandles.get(containerId);
        if (handle != null && inNodeUpdate) launchedNow.add(handle);
    }

    /** Whether YARN's processing of a node update is running (its completions are recorded). */
    boolean inNodeUpdate() {
        return inNodeUpdate;
    }

    /** A container the NM reported finished in this node update: capsched hears of it with it. */
    void completedInNodeUpdate(CompletedContainer c) {
        completedNow.add(c);
    }
}
