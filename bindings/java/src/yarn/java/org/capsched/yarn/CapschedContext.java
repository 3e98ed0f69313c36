package org.capsched.yarn;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.HAUtil;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.RMFatalEvent;
import org.apache.hadoop.yarn.server.resourcemanager.RMFatalEventType;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.capsched.Capsched;
import org.capsched.CapschedException;
import org.capsched.Config;
import org.capsched.Engine;
import org.capsched.EngineOptions;
import org.capsched.YarnId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every part of {@link CapschedResourceScheduler} shares: the scheduler itself (whose
 * monitor is the one lock of the plug-in, the RM's and AbstractYarnScheduler's too, and whose
 * AbstractYarnScheduler state the parts reach through its package-private accessors), the
 * engine and its configuration, the maps between capsched's handles and YARN's ids, the RM-side
 * queues, and how a refusal is told (once, or past which the RM's bookkeeping goes on). It also
 * holds the parts, so each can call the others: {@link #events} (SchedulerEvents),
 * {@link #nodes}, {@link #recovery}, {@link #apps}, {@link #allocator}, {@link #containers},
 * {@link #labels}, {@link #queueAccess}, {@link #engineEvents} (the engine's events and
 * figures) and {@link #web}.
 *
 * <p>It takes no lock of its own but {@link #engine()}'s start: whatever a part does under the
 * scheduler's monitor it takes with {@code synchronized (scheduler)}, as the scheduler's own
 * {@code synchronized} methods did before the parts were split out of it.
 */
final class CapschedContext {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    /** The RM's scheduler: the lock, the configuration and AbstractYarnScheduler's bookkeeping. */
    final CapschedResourceScheduler scheduler;

    Config config;
    /**
     * {@code capsched.engine.mode=manual}: an engine without threads, each call made on the
     * RM's own thread (under the engine's lock), its timed work ticked by the capsched-events
     * daemon ({@link CapschedEngineEvents#startEventThread}); {@code threaded} (the default):
     * an engine thread takes each call and runs its own cadences.
     */
    volatile boolean manualEngine;
    private volatile Engine engine;
    private final Object engineLock = new Object();
    /**
     * {@code yarn.scheduler.capacity.resource-calculator}, as the stock scheduler reads it: the
     * RM normalises and compares requests with it.
     */
    volatile ResourceCalculator calculator = new DefaultResourceCalculator();
    /** Every capsched queue's RM-side face and metrics, root first made at init. */
    CapschedQueues queues;
    final Map<ApplicationId, Long> appHandles = new ConcurrentHashMap<ApplicationId, Long>();
    final Map<NodeId, Long> nodeHandles = new ConcurrentHashMap<NodeId, Long>();
    final Map<Long, NodeId> nodeIds = new ConcurrentHashMap<Long, NodeId>();
    final Map<ContainerId, Long> containerHandles = new ConcurrentHashMap<ContainerId, Long>();
    final Map<Long, ContainerId> containerIds = new ConcurrentHashMap<Long, ContainerId>();
    final Map<ApplicationAttemptId, Integer> responseIds = new ConcurrentHashMap<ApplicationAttemptId, Integer>();

    final CapschedEvents events;
    final CapschedNodes nodes;
    final CapschedRecovery recovery;
    final CapschedApps apps;
    final CapschedAllocator allocator;
    final CapschedContainers containers;
    final CapschedLabels labels;
    final CapschedQueueAccess queueAccess;
    final CapschedEngineEvents engineEvents;
    final CapschedWeb web;

    CapschedContext(CapschedResourceScheduler scheduler) {
        this.scheduler = scheduler;
        this.events = new CapschedEvents(this);
        this.nodes = new CapschedNodes(this);
        this.recovery = new CapschedRecovery(this);
        this.apps = new CapschedApps(this);
        this.allocator = new CapschedAllocator(this);
        this.containers = new CapschedContainers(this);
        this.labels = new CapschedLabels(this);
        this.queueAccess = new CapschedQueueAccess(this);
        this.engineEvents = new CapschedEngineEvents(this);
        this.web = new CapschedWeb(this);
    }

    /** The RM's context (AbstractYarnScheduler's, set by setRMContext). */
    RMContext rmContext() {
        return scheduler.rmContext();
    }

    // ---------------------------------------------------------------- the engine

    /**
     * The engine, started on first use. A restarting RM recovers its applications (APP_ADDED,
     * APP_ATTEMPT_ADDED) before it starts its scheduler, but after it has moved the epoch on:
     * the engine starts then, so the containers it mints carry the new epoch.
     */
    Engine engine() {
        Engine e = engine;
        if (e != null) return e;
        synchronized (engineLock) {
            if (engine == null) {
                RMContext rmContext = rmContext();
                long epoch = rmContext == null ? 0 : rmContext.getEpoch();
                EngineOptions options = new EngineOptions()
                        .clusterTimestamp(ResourceManager.getClusterTimeStamp())
                        .rmEpoch(epoch);
                if (manualEngine) options.manual();
                engine = new Engine(config, options);
                LOG.info("capsched {} (C ABI {}) schedules this ResourceManager, epoch {}, {} engine",
                        Capsched.version(), Capsched.abiVersion(), epoch, manualEngine ? "manual" : "threaded");
            }
            return engine;
        }
    }

    /** The key that chooses the engine's mode (docs/HADOOP.md, "The engine's mode"). */
    static final String ENGINE_MODE = "capsched.engine.mode";

    /**
     * Whether {@link #ENGINE_MODE} asks for the manual engine: read from the scheduler's
     * configuration (yarn-site.xml or capacity-scheduler.xml), else the JVM's system property
     * of the same name, else {@code manual} (in a real RM at 10,000 NMs it allocates twice as
     * fast as the threaded engine for a third of the scheduling CPU: docs/PERFORMANCE.md,
     * "Inside a ResourceManager"). Anything else stops the RM at init.
     */
    static boolean manualEngine(Configuration conf) throws YarnException {
        String mode = conf.getTrimmed(ENGINE_MODE, System.getProperty(ENGINE_MODE, "manual")).trim();
        if (mode.equalsIgnoreCase("manual") || mode.isEmpty()) return true;
        if (mode.equalsIgnoreCase("threaded")) return false;
        throw new YarnException(ENGINE_MODE + " is " + mode + ": threaded or manual");
    }

    /** The engine if it has started, else null (nothing has happened yet): never starts it. */
    Engine startedEngine() {
        return engine;
    }

    /** At the scheduler's stop: the engine, then its configuration. */
    void close() {
        if (engine != null) engine.close();
        if (config != null) config.close();
    }

    /** The queue's RM-side face (made, with its ancestors, on first use). */
    CapschedQueue queue(String path) {
        return queues.get(path);
    }

    // ---------------------------------------------------------------- refusals

    /**
     * Whether the engine itself has failed (a panic poisons it, and every later call says so):
     * told once. The RM cannot schedule with it any more: in an HA pair this RM hands over to
     * the standby, whose engine starts afresh from the state store and the NodeManagers' reports
     * (as YARN does when a critical thread of its own dies); a lone RM stays up for its users
     * and logs each refusal.
     */
    boolean engineFailed(CapschedException e) {
        if (e.status() != CapschedException.ENGINE_FAILED && e.status() != CapschedException.PANIC) return false;
        if (engineFailure == null) {
            engineFailure = e.getMessage();
            LOG.error("capsched's engine has failed: {}; this ResourceManager schedules nothing more", e.getMessage(), e);
            RMContext rmContext = rmContext();
            if (rmContext != null && HAUtil.isHAEnabled(scheduler.getConf())) {
                // The RM's fatal-event handler takes an HA RM to standby (a lone RM it stops).
                rmContext.getDispatcher().getEventHandler().handle(new RMFatalEvent(
                        RMFatalEventType.CRITICAL_THREAD_CRASH, e, "capsched's engine failed"));
            }
        }
        return true;
    }

    /** The engine's failure, once it has failed. */
    private volatile String engineFailure;

    /**
     * A refusal the RM's own bookkeeping goes on past (a removal, a completion): logged, but for
     * an id capsched no longer knows (it has finished with it already).
     */
    void goOnPast(String what, CapschedException e) {
        if (e.status() == CapschedException.UNKNOWN_ID || engineFailed(e)) return;
        LOG.error("capsched refused {}: {}", what, e.getMessage());
    }

    private final Set<String> warned = Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());

    /** A limitation said once per kind, not once per heartbeat. */
    void warnOnce(String message) {
        if (warned.add(message)) LOG.warn(message);
    }

    // ---------------------------------------------------------------- conversions

    static org.capsched.Resource resource(Resource r) {
        return new org.capsched.Resource(r.getMemorySize(), r.getVirtualCores());
    }

    static ApplicationAttemptId attemptId(YarnId y) {
        return ApplicationAttemptId.newInstance(ApplicationId.newInstance(y.clusterTimestamp, y.application),
                y.attempt);
    }
}
