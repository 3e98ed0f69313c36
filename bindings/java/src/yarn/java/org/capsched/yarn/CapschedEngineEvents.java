package org.capsched.yarn;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
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
 * What the engine tells the RM after every call ({@link #drain}): a container its asynchronous
 * pass placed becomes its attempt's RMContainer at once (CONTAINER_PLACED), the completions it
 * decided (preemption, lost or decommissioned nodes, attempt ends) finish their RMContainers,
 * an attempt it activated counts its AM in the queue's metrics; then the queue figures the
 * metrics take from capsched, if they moved ({@link #syncFigures}). With asynchronous
 * scheduling a daemon drains between calls too.
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
     * The capsched-events daemon, when the engine does work between the RM's calls.
     *
     * <p>Threaded engine with asynchronous scheduling: capsched's engine thread places
     * containers between heartbeats, and each must become its attempt's RMContainer without
     * waiting for the next heartbeat or allocate; the daemon drains the engine's events as often
     * as capsched's pass runs (the CapacityScheduler's scheduling interval, at least 10 ms).
     * Without asynchronous scheduling a threaded engine needs no daemon.
     *
     * <p>Manual engine ({@code capsched.engine.mode=manual}): no engine thread, so the daemon
     * runs what it did — {@link Engine#tick()}: the asynchronous pass when it is on, expiry of
     * unlaunched allocations, application lifetimes, decommissioning timeouts, the preemption
     * monitor's round and the queue policies, each when due — then drains. It ticks at YARN's
     * scheduling interval ({@code schedule-asynchronously.scheduling-interval-ms}, 5 ms by
     * default) with asynchronous scheduling, else as often as the preemption monitor's interval
     * asks, at least once a second (expiry's cadence). Ticks take the engine's lock, not the
     * scheduler's monitor: the RM's own calls wait for a pass at most.
     */
    void startEventThread(Configuration conf) {
        final boolean manual = ctx.manualEngine;
        boolean async = conf.getBoolean(CapacitySchedulerConfiguration.SCHEDULE_ASYNCHRONOUSLY_ENABLE, false);
        if (!manual && !async) return;
        long schedulingMs = conf.getLong(
                CapacitySchedulerConfiguration.SCHEDULE_ASYNCHRONOUSLY_PREFIX + ".scheduling-interval-ms", 5L);
        final long intervalMs;
        if (!manual) {
            intervalMs = Math.max(10L, schedulingMs);
        } else if (async) {
            intervalMs = Math.max(1L, schedulingMs);
        } else {
            long every = 1000L;
            if (conf.getBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS,
                    YarnConfiguration.DEFAULT_RM_SCHEDULER_ENABLE_MONITORS)) {
                every = Math.min(every, conf.getLong(CapacitySchedulerConfiguration.PREEMPTION_MONITORING_INTERVAL,
                        CapacitySchedulerConfiguration.DEFAULT_PREEMPTION_MONITORING_INTERVAL));
            }
            intervalMs = Math.max(1L, every);
        }
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {
                while (eventThread == Thread.currentThread()) {
                    try {
                        Thread.sleep(intervalMs);
                        if (manual) tick();
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

    /** A manual engine's tick, on the daemon (outside the scheduler's monitor). */
    private void tick() {
        Engine e = ctx.startedEngine();
        if (e == null) return;
        try {
            e.tick();
        } catch (CapschedException x) {
            ctx.goOnPast("to tick", x);
        }
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
        drain(null, -1);
    }

    /**
     * The same, from a first batch of events already polled (a heartbeat's, in its own call
     * into the engine; null: none) and the figures version read with it (-1: not read).
     */
    void drain(List<Event> polled, long figuresVersion) {
        synchronized (scheduler) {
            if (ctx.startedEngine() == null) return; // nothing has happened yet
            // Every event queued now, in batches: a placement must not wait for a later drain.
            List<Event> events = polled;
            if (events != null) handle(events);
            while (events == null || events.size() == BATCH) {
                try {
                    events = ctx.engine().pollEvents(BATCH);
                } catch (CapschedException e) {
                    ctx.goOnPast("to hand over its events", e);
                    return;
                }
                handle(events);
                figuresVersion = -1; // read after these
            }
            syncFigures(figuresVersion);
        }
    }

    /** Events polled in one native call at most. */
    static final int BATCH = 4096;

    private void handle(List<Event> events) {
        for (Event e : events) {
            if (e.kind == Event.CONTAINER_PLACED) placed(e);
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
    }

    /**
     * CONTAINER_PLACED: a container capsched's asynchronous pass placed becomes its attempt's
     * RMContainer now, as the stock scheduler's commit makes it (RMContainer START, the node's
     * and the queue's usage, the container allocation expiry from its pull), with the report
     * the glue read in the same poll. One that had ended by the poll gets none: its completion
     * follows, and finds no RMContainer to finish.
     */
    private void placed(Event e) {
        ContainerId id = ContainerId.newContainerId(CapschedContext.attemptId(e.yarnId), e.yarnId.containerId);
        if (ctx.containerHandles.containsKey(id)) return;
        org.capsched.ContainerInfo c = e.placed;
        if (c == null) {
            LOG.debug("capsched placed {} and it ended before the RM heard of it", id);
            return;
        }
        if (c.executionType != org.capsched.Container.GUARANTEED) return; // the RM's own service places these
        NodeId nodeId = ctx.nodeIds.get(c.node);
        ctx.containers.record(c.id, c.yarnId, c.resource, c.priority, c.allocationRequestId, c.locality, c.isAm,
                nodeId == null ? null : scheduler.nodeTracker().getNode(nodeId));
    }

    /**
     * AM_CONTAINER_ALLOCATED: the AM container was recorded at its placement (its
     * CONTAINER_PLACED, or the heartbeat that placed it); were that event lost (the engine's
     * queue full), it becomes the attempt's RMContainer here.
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
        syncFigures(-1);
    }

    /** The same, knowing the figures version (-1: ask the engine for it). */
    private void syncFigures(long figuresVersion) {
        Engine e = ctx.startedEngine();
        if (e == null) return;
        try {
            // Asked first: the partition's resource is a copy made under the label manager's lock.
            if (!ctx.queues.due(figuresVersion >= 0 ? figuresVersion : e.figuresVersion())) return;
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
