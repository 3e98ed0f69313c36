package org.capsched.yarn;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.capsched.CapschedException;
import org.capsched.Engine;
import org.capsched.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the engine tells the RM after every call ({@link #drain}): the completions it decided
 * (preemption, lost or decommissioned nodes, attempt ends) finish their RMContainers, an AM
 * container of its asynchronous pass becomes the attempt's, an attempt it activated counts its
 * AM in the queue's metrics; then the queue figures the metrics take from capsched, if they
 * moved ({@link #syncFigures}). With asynchronous scheduling a daemon drains between calls too.
 *
 * <p>{@link #drain} takes the scheduler's monitor (it was a synchronized method of the
 * scheduler); {@link #syncFigures} and {@link #refreshFigures} take none (the queue registry
 * has its own lock). It uses {@link CapschedContainers} and the shared maps of
 * {@link CapschedContext}.
 */
final class CapschedEngineEvents {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    private final CapschedContext ctx;
    private final CapschedResourceScheduler scheduler;

    private volatile Thread eventThread;

    CapschedEngineEvents(CapschedContext ctx) {
        this.ctx = ctx;
        this.scheduler = ctx.scheduler;
    }

    /**
     * Asynchronous scheduling: capsched's engine thread places containers between heartbeats,
     * and an AM container must become the attempt's RMContainer without waiting for the next
     * heartbeat or allocate. This daemon drains the engine's events as often as capsched's pass
     * runs (the CapacityScheduler's scheduling interval, at least 10 ms).
     */
    void startEventThread(Configuration conf) {
        final long intervalMs = Math.max(10L,
                conf.getLong(CapacitySchedulerConfiguration.SCHEDULE_ASYNCHRONOUSLY_PREFIX + ".scheduling-interval-ms", 5L));
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {
                while (eventThread == Thread.currentThread()) {
                    try {
                        Thread.sleep(intervalMs);
                        drain();
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException e) {
                        LOG.error("capsched event thread: {}", e.getMessage(), e);
                    }
                }
            }
        }, "capsched-events");
        t.setDaemon(true);
        eventThread = t;
        t.start();
    }

    /** At the scheduler's stop: the daemon, if it runs, ended and waited for. */
    void stopEventThread() throws InterruptedException {
        Thread t = eventThread;
        eventThread = null;
        if (t != null) {
            t.interrupt();
            t.join();
        }
    }

    /**
     * The engine's events since the last call (completions it decided finish RMContainers; an
     * attempt it activated counts its AM in the queue's metrics), then the queue figures the
     * metrics take from capsched, if they moved.
     */
    void drain() {
        synchronized (scheduler) {
            if (ctx.startedEngine() == null) return; // nothing has happened yet
            List<Event> events;
            try {
                events = ctx.engine().pollEvents(4096);
            } catch (CapschedException e) {
                ctx.goOnPast("to hand over its events", e);
                return;
            }
            for (Event e : events) {
                if (e.kind == Event.AM_CONTAINER_ALLOCATED) amContainerAllocated(e);
                if (e.kind == Event.APP_ACTIVATED) activated(e);
                if (e.kind != Event.CONTAINER_COMPLETED) continue;
                // By capsched's handle: a recovered container keeps its own attempt's id here.
                ContainerId id = ctx.containerIds.get(e.container);
                if (id == null) continue; // YARN decided it, and has finished it
                RMContainer c = scheduler.getRMContainer(id);
                if (c == null) {
                    ctx.containers.forget(id);
                    continue;
                }
                String diagnostics = e.code == -102 ? SchedulerUtils.PREEMPTED_CONTAINER
                        : e.code == -100 ? SchedulerUtils.LOST_CONTAINER : "";
                ContainerStatus status = ContainerStatus.newInstance(id, ContainerState.COMPLETE, diagnostics, e.code);
                ctx.containers.finishFromEngine(c, status);
                if (e.code == ContainerExitStatus.PREEMPTED) preempted(c);
            }
            syncFigures();
        }
    }

    /**
     * AM_CONTAINER_ALLOCATED: an AM container capsched's asynchronous pass placed (one placed
     * in a heartbeat is recorded there already) becomes the attempt's RMContainer.
     */
    private void amContainerAllocated(Event e) {
        ContainerId id = ContainerId.newContainerId(CapschedContext.attemptId(e.yarnId), e.yarnId.containerId);
        if (ctx.containerHandles.containsKey(id)) return;
        org.capsched.ContainerInfo c = ctx.engine().takeAmContainer(e.app);
        if (c == null) return; // taken, or gone since
        NodeId nodeId = ctx.nodeIds.get(c.node);
        ctx.containers.record(c.id, c.yarnId, c.resource, c.priority, c.allocationRequestId, c.locality, true,
                nodeId == null ? null : scheduler.nodeTracker().getNode(nodeId));
    }

    /**
     * APP_ACTIVATED: the attempt's AM counts in its queue's used AM resource from now on, as
     * LeafQueue.activateApplications counts it (until the attempt ends or moves).
     */
    private void activated(Event e) {
        CapschedAppAttempt attempt = scheduler.getApplicationAttempt(CapschedContext.attemptId(e.yarnId));
        if (attempt != null && !attempt.isStopped()) {
            attempt.chargeAm();
            ctx.queues.userActivated(((CapschedQueue) attempt.getQueue()).path(), attempt.getUser());
        }
    }

    /** The leaf's preemption metrics, as LeafQueue keeps them for a container it preempted. */
    private void preempted(RMContainer c) {
        SchedulerApplication<CapschedAppAttempt> app = scheduler.applications().get(
                c.getContainerId().getApplicationAttemptId().getApplicationId());
        if (app == null) return;
        QueueMetrics metrics = app.getQueue().getMetrics();
        long usedMs = Math.max(0, (c.getFinishTime() > 0 ? c.getFinishTime() : System.currentTimeMillis())
                - c.getCreationTime());
        Resource r = c.getAllocatedResource();
        metrics.preemptContainer();
        metrics.updatePreemptedMemoryMBSeconds(r.getMemorySize() * usedMs / 1000);
        metrics.updatePreemptedVcoreSeconds(r.getVirtualCores() * usedMs / 1000);
        metrics.updatePreemptedResources(r);
    }

    /** Sets the metrics capsched's queue figures give, if they moved since last set. */
    void syncFigures() {
        Engine e = ctx.startedEngine();
        if (e == null) return;
        try {
            ctx.queues.sync(e, ctx.calculator, scheduler.getClusterResource(), defaultPartitionResource(),
                    scheduler.getMinimumResourceCapability());
        } catch (CapschedException x) {
            ctx.goOnPast("to give its queue figures", x);
        }
    }

    /**
     * The same after the RM's own side changed what the figures are taken against (the cluster
     * resource once a node has left or been resized): read again whatever the version.
     */
    void refreshFigures() {
        ctx.queues.invalidate();
        syncFigures();
    }

    /** The default partition's resource, as the RM's label manager counts it. */
    private Resource defaultPartitionResource() {
        RMNodeLabelsManager mgr = ctx.labels.manager();
        return mgr == null ? scheduler.getClusterResource()
                : mgr.getResourceByLabel(RMNodeLabelsManager.NO_LABEL, scheduler.getClusterResource());
    }
}
