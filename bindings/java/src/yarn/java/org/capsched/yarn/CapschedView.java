package org.capsched.yarn;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.capsched.AppReport;
import org.capsched.CapschedException;
import org.capsched.ClusterInfo;
import org.capsched.ContainerInfo;
import org.capsched.Engine;
import org.capsched.QueueStatus;
import org.capsched.Resource;

/**
 * capsched's own account of what it runs, for a harness that checks it against the RM's
 * (RMContainers, SchedulerNodes, QueueMetrics): bench/rm's {@code --check} run. The RM's side
 * is the plug-in's YARN bookkeeping; this is what the engine itself holds, so a container the
 * two sides disagree on shows here and not there.
 *
 * <p>Taken under the scheduler's monitor after the engine's queued events are handed over, so
 * the plug-in's maps and the engine's state are of one moment once nothing else calls in. It
 * walks every container: for a quiet RM at the end of a run, not for a busy one.
 */
public final class CapschedView {
    /** One live container as capsched holds it. */
    public static final class Held {
        /** Its node in capsched, as the RM names it; null when the node is unknown to the plug-in. */
        public final NodeId node;
        public final long memoryMb;
        public final long vcores;
        public final boolean reserved;

        Held(NodeId node, Resource resource, boolean reserved) {
            this.node = node;
            this.memoryMb = resource.memoryMb;
            this.vcores = resource.vcores;
            this.reserved = reserved;
        }
    }

    /** {@code manual} or {@code threaded} (docs/HADOOP.md, "The engine's mode"). */
    public final String engineMode;
    /** What capsched's own audit (checkInvariants) found wrong; null when nothing. */
    public final String invariantViolations;
    /** The engine's containers (reserved, allocated, running) and applications. */
    public final long engineContainers;
    public final long engineApplications;
    public final long engineNodes;
    /**
     * Every container the plug-in maps to an engine handle, with what the engine holds for it;
     * a handle the engine no longer knows is in {@link #unknownToEngine} instead.
     */
    public final Map<ContainerId, Held> containers;
    public final Map<ContainerId, String> unknownToEngine;
    /** Per application the plug-in maps: the engine's live containers (AM included, reservations not). */
    public final Map<ApplicationId, Integer> liveContainers;
    public final Map<ApplicationId, Long> usedMb;
    /** The root queue's figures: its subtree's use (reservations included) and reservations. */
    public final long rootUsedMb;
    public final long rootUsedVcores;
    public final long rootReservedMb;
    public final long rootReservedContainers;

    private CapschedView(String engineMode, String invariantViolations, ClusterInfo cluster, Map<ContainerId, Held> containers,
            Map<ContainerId, String> unknownToEngine, Map<ApplicationId, Integer> liveContainers,
            Map<ApplicationId, Long> usedMb, QueueStatus root) {
        this.engineMode = engineMode;
        this.invariantViolations = invariantViolations;
        this.engineContainers = cluster == null ? 0 : cluster.numContainers;
        this.engineApplications = cluster == null ? 0 : cluster.numApplications;
        this.engineNodes = cluster == null ? 0 : cluster.numNodes;
        this.containers = Collections.unmodifiableMap(containers);
        this.unknownToEngine = Collections.unmodifiableMap(unknownToEngine);
        this.liveContainers = Collections.unmodifiableMap(liveContainers);
        this.usedMb = Collections.unmodifiableMap(usedMb);
        this.rootUsedMb = root == null ? 0 : root.used.memoryMb;
        this.rootUsedVcores = root == null ? 0 : root.used.vcores;
        this.rootReservedMb = root == null ? 0 : root.reserved.memoryMb;
        this.rootReservedContainers = root == null ? 0 : root.reservedContainers;
    }

    static CapschedView of(CapschedContext ctx) {
        Map<ContainerId, Held> containers = new HashMap<ContainerId, Held>();
        Map<ContainerId, String> unknown = new HashMap<ContainerId, String>();
        Map<ApplicationId, Integer> live = new HashMap<ApplicationId, Integer>();
        Map<ApplicationId, Long> used = new HashMap<ApplicationId, Long>();
        String mode = ctx.manualEngine ? "manual" : "threaded";
        synchronized (ctx.scheduler) {
            Engine engine = ctx.startedEngine();
            if (engine == null) return new CapschedView(mode, null, null, containers, unknown, live, used, null);
            ctx.engineEvents.drain();
            String violations = null;
            try {
                engine.checkInvariants();
            } catch (CapschedException e) {
                violations = e.getMessage();
            }
            for (Map.Entry<ContainerId, Long> e : ctx.containerHandles.entrySet()) {
                try {
                    ContainerInfo c = engine.container(e.getValue());
                    containers.put(e.getKey(), new Held(ctx.nodeIds.get(c.node), c.resource,
                            c.state == ContainerInfo.RESERVED));
                } catch (CapschedException x) {
                    unknown.put(e.getKey(), x.getMessage());
                }
            }
            for (Map.Entry<ApplicationId, Long> e : ctx.appHandles.entrySet()) {
                try {
                    AppReport r = engine.applicationReport(e.getValue());
                    live.put(e.getKey(), r.liveContainers);
                    used.put(e.getKey(), r.used.memoryMb);
                } catch (CapschedException x) {
                    live.put(e.getKey(), -1); // the plug-in maps an application the engine lost
                }
            }
            ctx.engineEvents.refreshFigures();
            return new CapschedView(mode, violations, engine.clusterInfo(), containers, unknown, live, used,
                    ctx.queues.status("root"));
        }
    }
}
