package org.capsched.yarn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.HAUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueState;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.RMFatalEvent;
import org.apache.hadoop.yarn.server.resourcemanager.RMFatalEventType;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.RMStateStore.RMState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerExpiredSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerPreemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeLabelsUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeResourceUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ReleaseContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.capsched.AllocateRequest;
import org.capsched.AllocateResponse;
import org.capsched.Ask;
import org.capsched.Capsched;
import org.capsched.CapschedException;
import org.capsched.CompletedContainer;
import org.capsched.Config;
import org.capsched.Engine;
import org.capsched.EngineOptions;
import org.capsched.Event;
import org.capsched.NodeResponse;
import org.capsched.QueueNodeLabels;
import org.capsched.QueueStatus;
import org.capsched.RecoveredContainer;
import org.capsched.Submission;
import org.capsched.YarnId;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ResourceManager scheduler ({@code yarn.resourcemanager.scheduler.class}) whose every
 * decision is capsched's: the queues, limits and ACLs of capacity-scheduler.xml, which
 * application gets which container on which node, and preemption. What it keeps is the RM's
 * own bookkeeping, as YARN's FifoScheduler keeps it (RMContainers and their events, the
 * scheduler nodes and attempts, tokens through the attempt, queue metrics), so the rest of the
 * RM works unchanged.
 *
 * <p>The flow: SchedulerEvents and {@link #allocate} are translated into engine calls; each
 * container capsched places in a node's heartbeat becomes an RMContainer at once; the engine's
 * events (completions it decided: preemption, lost or decommissioned nodes, attempt ends) are
 * drained after every call and finish the RMContainers they name. Completions YARN decides
 * (an NM's report, an AM's release, the RM's kill, expiry) go the other way.
 */
public class CapschedResourceScheduler extends AbstractYarnScheduler<CapschedAppAttempt, FiCaSchedulerNode>
        implements Configurable {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    /**
     * Volatile, and its accessors take no lock: queues are made (and read getConf) under the
     * queue registry's lock, which the scheduler's own lock may be waiting for.
     */
    private volatile Configuration conf;
    private Config config;
    private volatile Engine engine;
    private final Object engineLock = new Object();
    /**
     * {@code yarn.scheduler.capacity.resource-calculator}, as the stock scheduler reads it: the
     * RM normalises and compares requests with it.
     */
    private volatile ResourceCalculator calculator = new DefaultResourceCalculator();
    private boolean usePortForNodeName;
    /** Every capsched queue's RM-side face and metrics, root first made at init. */
    private CapschedQueues queues;
    private final Map<ApplicationId, Long> appHandles = new ConcurrentHashMap<ApplicationId, Long>();
    private final Map<NodeId, Long> nodeHandles = new ConcurrentHashMap<NodeId, Long>();
    private final Map<Long, NodeId> nodeIds = new ConcurrentHashMap<Long, NodeId>();
    private final Map<ContainerId, Long> containerHandles = new ConcurrentHashMap<ContainerId, Long>();
    private final Map<Long, ContainerId> containerIds = new ConcurrentHashMap<Long, ContainerId>();
    private final Map<ApplicationAttemptId, Integer> responseIds = new ConcurrentHashMap<ApplicationAttemptId, Integer>();

    // Per node update (the scheduler's monitor is held): what YARN's own processing saw.
    private final List<Long> launchedNow = new ArrayList<Long>();
    private final List<CompletedContainer> completedNow = new ArrayList<CompletedContainer>();
    private boolean inNodeUpdate;
    /** A completion capsched decided: YARN's bookkeeping only, the engine already knows. */
    private boolean fromEngine;

    /**
     * {@code yarn.node-labels.enabled}, read once as the RM's label manager and request checks
     * read it: without it the manager refuses every label, so there is nothing to forward.
     */
    private boolean labelsEnabled;
    /** The cluster labels capsched has, as last taken from the RM's label manager. */
    private final Set<String> engineLabels = Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());
    /**
     * Each queue's accessible labels and default expression, by path: the RM reads them for
     * every request it checks, and they change only with the configuration (a refresh clears
     * them; a leaf made later is read when first asked for).
     */
    private final Map<String, QueueNodeLabels> queueLabels = new ConcurrentHashMap<String, QueueNodeLabels>();
    /** Moves on at each refresh: a read begun before one does not fill the cleared cache. */
    private volatile long queueLabelsVersion;

    public CapschedResourceScheduler() {
        super(CapschedResourceScheduler.class.getName());
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public void serviceInit(Configuration configuration) throws Exception {
        setConf(configuration);
        selectWebClasses(configuration);
        usePortForNodeName = configuration.getBoolean(
                "yarn.scheduler.include-port-in-node-name", false);
        CapacitySchedulerConfiguration csConf = new CapacitySchedulerConfiguration(configuration, true);
        calculator = csConf.getResourceCalculator();
        queues = new CapschedQueues(this, csConf.getEnableUserMetrics());
        queues.root();
        // The RM validates asks against these (yarn.scheduler.minimum/maximum-allocation-*);
        // capsched reads the same keys for its own decisions.
        applications = new java.util.concurrent.ConcurrentSkipListMap<ApplicationId,
                SchedulerApplication<CapschedAppAttempt>>();
        minimumAllocation = super.getMinimumAllocation();
        initMaximumResourceCapability(super.getMaximumAllocation());
        Map<String, String> settings = pairs(configuration);
        try {
            config = Config.fromPairs(settings);
        } catch (CapschedException e) {
            // As CapacityScheduler.initializeQueues refuses it: the RM does not start.
            throw new YarnException("Failed to initialize queues", new java.io.IOException(e.getMessage(), e));
        }
        resolveGroups = needsGroups(settings);
        labelsEnabled = YarnConfiguration.areNodeLabelsEnabled(configuration);
        warnAboutWhatCapschedDoesNotRead(configuration);
        super.serviceInit(configuration);
    }

    /** The monitor policies capsched's own monitor runs (docs/HADOOP.md, "Preemption"). */
    private static final java.util.List<String> OWN_POLICIES = java.util.Arrays.asList(
            "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy",
            "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.QueueManagementDynamicEditPolicy",
            "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AutoCreatedQueueDeletionPolicy");

    /**
     * Where the stock scheduler would read something capsched does not: said once at start
     * rather than left silent (a cluster moved from the stock scheduler keeps its settings).
     */
    private static void warnAboutWhatCapschedDoesNotRead(Configuration configuration) {
        String store = configuration.getTrimmed(YarnConfiguration.SCHEDULER_CONFIGURATION_STORE_CLASS,
                YarnConfiguration.FILE_CONFIGURATION_STORE);
        if (!YarnConfiguration.FILE_CONFIGURATION_STORE.equals(store)) {
            LOG.warn("{}={}: the stock scheduler would take its queues from that mutable store; capsched reads "
                    + "capacity-scheduler.xml and does not support the scheduler-conf mutation API",
                    YarnConfiguration.SCHEDULER_CONFIGURATION_STORE_CLASS, store);
        }
        if (configuration.getBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS,
                YarnConfiguration.DEFAULT_RM_SCHEDULER_ENABLE_MONITORS)) {
            for (String policy : configuration.getTrimmedStrings(YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES)) {
                if (!OWN_POLICIES.contains(policy)) {
                    LOG.warn("{} lists {}: capsched's own monitor does not run it, and YARN's monitors do not run "
                            + "under capsched", YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES, policy);
                }
            }
        }
    }

    /**
     * The RM's web answers for a scheduler it does not know: the REST {@code /scheduler}
     * document and the UI's scheduler page come from capsched's classes unless the operator
     * chose others. The RM reads these keys from the configuration it hands its scheduler, when
     * its web app starts (after this).
     */
    static void selectWebClasses(Configuration configuration) {
        for (Class<?> c : new Class<?>[] {CapschedWebServices.class, CapschedClusterMetrics.class}) {
            String externals = configuration.getTrimmed(YarnConfiguration.YARN_HTTP_WEBAPP_EXTERNAL_CLASSES, "");
            if (!java.util.Arrays.asList(externals.split("\\s*,\\s*")).contains(c.getName())) {
                configuration.set(YarnConfiguration.YARN_HTTP_WEBAPP_EXTERNAL_CLASSES,
                        externals.isEmpty() ? c.getName() : externals + "," + c.getName());
                LOG.info("{} serves {} ({})", c.getName(), c.getAnnotation(javax.ws.rs.Path.class).value(),
                        YarnConfiguration.YARN_HTTP_WEBAPP_EXTERNAL_CLASSES);
            }
        }
        if (configuration.get(YarnConfiguration.YARN_HTTP_WEBAPP_SCHEDULER_PAGE) == null) {
            configuration.set(YarnConfiguration.YARN_HTTP_WEBAPP_SCHEDULER_PAGE, CapschedSchedulerPage.class.getName());
        }
    }

    @Override
    public void serviceStart() throws Exception {
        engine();
        // The label manager has recovered its store by now (it starts before the scheduler).
        publishQueueLabels();
        syncClusterLabels();
        syncFigures(); // every queue has its metrics from the start, idle ones too
        // The RM places applications through its PlacementManager before submitting them;
        // capsched's rules (the queue mappings) answer there, as the stock scheduler's do.
        if (rmContext != null && rmContext.getQueuePlacementManager() != null) {
            rmContext.getQueuePlacementManager().updateRules(
                    Collections.<org.apache.hadoop.yarn.server.resourcemanager.placement.PlacementRule>singletonList(
                            new CapschedPlacementRule(this)));
        }
        if (conf.getBoolean(CapacitySchedulerConfiguration.SCHEDULE_ASYNCHRONOUSLY_ENABLE, false)) {
            startEventThread();
        }
        super.serviceStart();
    }

    private volatile Thread eventThread;

    /**
     * Asynchronous scheduling: capsched's engine thread places containers between heartbeats,
     * and an AM container must become the attempt's RMContainer without waiting for the next
     * heartbeat or allocate. This daemon drains the engine's events as often as capsched's pass
     * runs (the CapacityScheduler's scheduling interval, at least 10 ms).
     */
    private void startEventThread() {
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

    /**
     * The engine, started on first use. A restarting RM recovers its applications (APP_ADDED,
     * APP_ATTEMPT_ADDED) before it starts its scheduler, but after it has moved the epoch on:
     * the engine starts then, so the containers it mints carry the new epoch.
     */
    private Engine engine() {
        Engine e = engine;
        if (e != null) return e;
        synchronized (engineLock) {
            if (engine == null) {
                long epoch = rmContext == null ? 0 : rmContext.getEpoch();
                engine = new Engine(config, new EngineOptions()
                        .clusterTimestamp(ResourceManager.getClusterTimeStamp())
                        .rmEpoch(epoch));
                LOG.info("capsched {} (C ABI {}) schedules this ResourceManager, epoch {}", Capsched.version(),
                        Capsched.abiVersion(), epoch);
            }
            return engine;
        }
    }

    @Override
    public void serviceStop() throws Exception {
        Thread t = eventThread;
        eventThread = null;
        if (t != null) {
            t.interrupt();
            t.join();
        }
        super.serviceStop();
        if (engine != null) engine.close();
        if (config != null) config.close();
    }

    @Override
    public void setConf(Configuration configuration) {
        this.conf = configuration;
    }

    @Override
    public Configuration getConf() {
        return conf;
    }

    @Override
    public synchronized void setRMContext(RMContext context) {
        this.rmContext = context;
    }

    /**
     * capacity-scheduler.xml as the stock CapacityScheduler reads it (the RM's configuration,
     * then the file), with the yarn-site keys the scheduler reads.
     */
    static Map<String, String> pairs(Configuration rmConf) {
        Configuration merged = new CapacitySchedulerConfiguration(rmConf, true);
        Map<String, String> out = new java.util.LinkedHashMap<String, String>();
        for (Map.Entry<String, String> e : merged) {
            String k = e.getKey();
            if (k.startsWith("yarn.scheduler.") || k.startsWith("yarn.resourcemanager.scheduler.")
                    || k.startsWith("yarn.resourcemanager.monitor.") || k.equals("yarn.acl.enable")
                    || k.equals("yarn.admin.acl") || k.startsWith("yarn.cluster.")
                    // The label manager and the RM's request checks read these from yarn-site;
                    // capsched checks the same requests again.
                    || k.equals(YarnConfiguration.NODE_LABELS_ENABLED)
                    || k.equals(YarnConfiguration.EXCLUSIVE_ENFORCED_PARTITIONS)
                    // Hadoop's static group table: a user it lists with no group has none
                    // (no error), which capsched can tell only from the table itself.
                    || k.equals("hadoop.user.group.static.mapping.overrides")) {
                out.put(k, merged.get(k));
            }
        }
        return out;
    }

    @Override
    public synchronized void reinitialize(Configuration configuration, RMContext context) throws IOException {
        // rmadmin -refreshQueues: capsched validates; a refused configuration leaves the running one.
        Config next;
        try {
            Map<String, String> settings = pairs(configuration);
            next = Config.fromPairs(settings);
            resolveGroups = needsGroups(settings);
        } catch (CapschedException e) {
            throw new IOException("Failed to re-init queues : " + e.getMessage(), e);
        }
        try {
            engine().refreshQueues(next);
            Config previous = config;
            config = next;
            previous.close();
        } catch (CapschedException e) {
            next.close();
            throw new IOException("Failed to re-init queues : " + e.getMessage(), e);
        }
        queueLabelsVersion++;
        queueLabels.clear();
        publishQueueLabels();
        setConf(configuration);
        // Not super.reinitialize: that (re)starts YARN's SchedulingMonitors, whose
        // ProportionalCapacityPreemptionPolicy refuses any scheduler but the stock one.
        // capsched's own monitor follows the refreshed preemption keys from its next round.
        queues.amLimitMoment(null);
        drain();
    }

    @Override
    public void recover(RMState state) {
        // Applications come back through APP_ADDED/APP_ATTEMPT_ADDED; their containers with the
        // NodeManagers' reports at NODE_ADDED.
    }

    // ---------------------------------------------------------------- events

    /**
     * The RM's dispatcher stops the RM when a handler throws, so none of this scheduler's does:
     * a refusal becomes what the stock scheduler does for that event ({@link #refused}), and any
     * other failure is logged with the event it stopped.
     */
    @Override
    public void handle(SchedulerEvent event) {
        try {
            dispatch(event);
        } catch (CapschedException e) {
            refused(event, e);
        } catch (RuntimeException e) {
            LOG.error("capsched could not handle {}: the event is dropped", event.getType(), e);
        }
    }

    /**
     * What becomes of an event capsched refused: the attempt fails with capsched's message (as
     * one whose AM cannot be placed), a recovering one's application is killed; a node capsched
     * does not take gets nothing from it; anything else is logged. The RM's own bookkeeping for
     * the event is left as the refusal found it: both sides agree.
     */
    private void refused(SchedulerEvent event, CapschedException e) {
        if (engineFailed(e)) return;
        switch (event.getType()) {
        case APP_ATTEMPT_ADDED: {
            AppAttemptAddedSchedulerEvent a = (AppAttemptAddedSchedulerEvent) event;
            ApplicationAttemptId id = a.getApplicationAttemptId();
            LOG.warn("capsched refused {}: {}", id, e.getMessage());
            if (a.getIsAttemptRecovering()) {
                rmContext.getDispatcher().getEventHandler().handle(
                        new RMAppEvent(id.getApplicationId(), RMAppEventType.KILL, e.getMessage()));
            } else {
                rmContext.getDispatcher().getEventHandler().handle(
                        new RMAppAttemptEvent(id, RMAppAttemptEventType.FAIL, e.getMessage()));
            }
            return;
        }
        case NODE_ADDED:
            LOG.error("capsched refused node {}: {}; it is given no containers",
                    ((NodeAddedSchedulerEvent) event).getAddedRMNode().getNodeID(), e.getMessage());
            return;
        case NODE_RESOURCE_UPDATE:
            LOG.error("capsched refused the new resource of node {}: {}; it keeps its resource",
                    ((NodeResourceUpdateSchedulerEvent) event).getRMNode().getNodeID(), e.getMessage());
            return;
        default:
            LOG.error("capsched refused {}: {}", event.getType(), e.getMessage());
        }
    }

    /**
     * Whether the engine itself has failed (a panic poisons it, and every later call says so):
     * told once. The RM cannot schedule with it any more: in an HA pair this RM hands over to
     * the standby, whose engine starts afresh from the state store and the NodeManagers' reports
     * (as YARN does when a critical thread of its own dies); a lone RM stays up for its users
     * and logs each refusal.
     */
    private boolean engineFailed(CapschedException e) {
        if (e.status() != CapschedException.ENGINE_FAILED && e.status() != CapschedException.PANIC) return false;
        if (engineFailure == null) {
            engineFailure = e.getMessage();
            LOG.error("capsched's engine has failed: {}; this ResourceManager schedules nothing more", e.getMessage(), e);
            if (rmContext != null && HAUtil.isHAEnabled(conf)) {
                // The RM's fatal-event handler takes an HA RM to standby (a lone RM it stops).
                rmContext.getDispatcher().getEventHandler().handle(new RMFatalEvent(
                        RMFatalEventType.CRITICAL_THREAD_CRASH, e, "capsched's engine failed"));
            }
        }
        return true;
    }

    /** The engine's failure, once it has failed. */
    private volatile String engineFailure;

    private void dispatch(SchedulerEvent event) {
        switch (event.getType()) {
        case NODE_ADDED: {
            NodeAddedSchedulerEvent e = (NodeAddedSchedulerEvent) event;
            addNode(e.getAddedRMNode(), e.getContainerReports());
            break;
        }
        case NODE_REMOVED:
            removeNode(((NodeRemovedSchedulerEvent) event).getRemovedRMNode());
            break;
        case NODE_RESOURCE_UPDATE: {
            NodeResourceUpdateSchedulerEvent e = (NodeResourceUpdateSchedulerEvent) event;
            // capsched first: a resource it refuses leaves the RM's node as it was too.
            updateNodeResourceInEngine(e.getRMNode(), e.getResourceOption().getResource(),
                    e.getResourceOption().getOverCommitTimeout());
            updateNodeResource(e.getRMNode(), e.getResourceOption());
            queues.amLimitMoment(null);
            refreshFigures(); // taken against the new cluster
            break;
        }
        case NODE_UPDATE:
            nodeUpdate(((NodeUpdateSchedulerEvent) event).getRMNode());
            break;
        case APP_ADDED: {
            AppAddedSchedulerEvent e = (AppAddedSchedulerEvent) event;
            addApplication(e.getApplicationId(), e.getQueue(), e.getUser(), e.getIsAppRecovering(),
                    e.getApplicatonPriority());
            break;
        }
        case APP_REMOVED: {
            AppRemovedSchedulerEvent e = (AppRemovedSchedulerEvent) event;
            doneApplication(e.getApplicationID(), e.getFinalState());
            break;
        }
        case APP_ATTEMPT_ADDED: {
            AppAttemptAddedSchedulerEvent e = (AppAttemptAddedSchedulerEvent) event;
            addApplicationAttempt(e.getApplicationAttemptId(), e.getTransferStateFromPreviousAttempt(),
                    e.getIsAttemptRecovering());
            break;
        }
        case APP_ATTEMPT_REMOVED: {
            AppAttemptRemovedSchedulerEvent e = (AppAttemptRemovedSchedulerEvent) event;
            doneApplicationAttempt(e.getApplicationAttemptID(), e.getFinalAttemptState(),
                    e.getKeepContainersAcrossAppAttempts());
            break;
        }
        case CONTAINER_EXPIRED: {
            ContainerId id = ((ContainerExpiredSchedulerEvent) event).getContainerId();
            RMContainer c = getRMContainer(id);
            if (c != null) {
                super.completedContainer(c,
                        SchedulerUtils.createAbnormalContainerStatus(id, SchedulerUtils.EXPIRED_CONTAINER),
                        RMContainerEventType.EXPIRE);
            }
            break;
        }
        case RELEASE_CONTAINER: {
            RMContainer c = ((ReleaseContainerEvent) event).getContainer();
            super.completedContainer(c,
                    SchedulerUtils.createAbnormalContainerStatus(c.getContainerId(),
                            SchedulerUtils.RELEASED_CONTAINER),
                    RMContainerEventType.RELEASED);
            break;
        }
        case KILL_RESERVED_CONTAINER: {
            // A SchedulingEditPolicy's: the reservation is capsched's, so capsched drops it.
            RMContainer c = ((ContainerPreemptEvent) event).getContainer();
            Long handle = c == null ? null : containerHandles.get(c.getContainerId());
            if (handle != null) {
                killInEngine(handle, ContainerExitStatus.PREEMPTED, SchedulerUtils.UNRESERVED_CONTAINER);
            }
            break;
        }
        case NODE_LABELS_UPDATE:
            nodeLabelsUpdated(((NodeLabelsUpdateSchedulerEvent) event).getUpdatedNodeToLabels());
            break;
        case MARK_CONTAINER_FOR_PREEMPTION:
        case MARK_CONTAINER_FOR_KILLABLE:
        case MARK_CONTAINER_FOR_NONKILLABLE:
            // YARN's monitors never run under capsched (capsched preempts by itself), so only
            // a foreign SchedulingEditPolicy sends these; its decisions are not capsched's.
            warnOnce(event.getType() + " from a SchedulingEditPolicy: ignored, capsched's own monitor preempts");
            break;
        default:
            // NODE_ATTRIBUTES_UPDATE (placement constraints) and MANAGE_QUEUE (auto-created
            // queues) are CapacityScheduler features capsched does not have yet.
            warnOnce("capsched does not handle scheduler event " + event.getType() + " yet: ignored");
        }
    }

    private final Set<String> warned = Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());

    /** A limitation said once per kind, not once per heartbeat. */
    private void warnOnce(String message) {
        if (warned.add(message)) LOG.warn(message);
    }

    private synchronized void killInEngine(long handle, int exitStatus, String diagnostics) {
        try {
            engine().killContainer(handle, exitStatus, diagnostics);
        } catch (CapschedException e) {
            goOnPast("the kill of a reserved container", e);
        }
        drain();
    }

    /**
     * A refusal the RM's own bookkeeping goes on past (a removal, a completion): logged, but for
     * an id capsched no longer knows (it has finished with it already).
     */
    private void goOnPast(String what, CapschedException e) {
        if (e.status() == CapschedException.UNKNOWN_ID || engineFailed(e)) return;
        LOG.error("capsched refused {}: {}", what, e.getMessage());
    }

    /**
     * NODE_ADDED. A NodeManager re-registering after a work-preserving RM restart reports what
     * it runs: capsched charges each container of an application it holds back to the
     * application, user and queue (the AM's marked as such, so no second AM is asked for), and
     * YARN's own recovery (AbstractYarnScheduler.recoverContainersOnNode) rebuilds the
     * RMContainers, the node and the attempt, and kills the containers of applications that
     * are gone.
     */
    private synchronized void addNode(RMNode rmNode, List<NMContainerStatus> reports) {
        // The RM's label manager may have labelled the node (or its host) before it registered,
        // or while it was away: capsched takes its label first, so recovered containers are
        // charged to the node's partition. Both sides then keep the same partition for it.
        Set<String> labels = labelsEnabled && forwardLabel(rmNode.getNodeID(), rmNode.getNodeLabels())
                ? rmNode.getNodeLabels() : RMNodeLabelsManager.EMPTY_STRING_SET;
        FiCaSchedulerNode node = new FiCaSchedulerNode(rmNode, usePortForNodeName, labels);
        List<RecoveredContainer> recovered = new ArrayList<RecoveredContainer>();
        List<ContainerId> recoveredIds = new ArrayList<ContainerId>();
        if (reports != null && rmContext.isWorkPreservingRecoveryEnabled()) {
            for (NMContainerStatus report : reports) {
                RecoveredContainer c = recoverable(report);
                if (c != null) {
                    recovered.add(c);
                    recoveredIds.add(report.getContainerId());
                }
            }
        }
        long handle = engine().addRecoveredNode(rmNode.getNodeID().toString(), rmNode.getRackName(),
                resource(rmNode.getTotalCapability()), recovered);
        nodeHandles.put(rmNode.getNodeID(), handle);
        nodeIds.put(handle, rmNode.getNodeID());
        nodeTracker.addNode(node); // the maximum allocation follows the largest node
        // As CapacityScheduler.addNode: the label manager counts the node's resource in its
        // partition, and only running nodes appear in its later NODE_LABELS_UPDATEs.
        RMNodeLabelsManager mgr = labelManager();
        if (mgr != null) mgr.activateNode(rmNode.getNodeID(), rmNode.getTotalCapability());
        recoverContainersOnNode(reports, rmNode);
        for (ContainerId id : recoveredIds) {
            ApplicationId appId = id.getApplicationAttemptId().getApplicationId();
            SchedulerApplication<CapschedAppAttempt> app = applications.get(appId);
            // capsched re-attaches a container to the application's current attempt.
            ApplicationAttemptId current = app.getCurrentAppAttempt().getApplicationAttemptId();
            long c;
            try {
                c = engine().findContainer(new YarnId(appId.getClusterTimestamp(), appId.getId(),
                        current.getAttemptId(), id.getContainerId()));
            } catch (CapschedException e) {
                LOG.warn("capsched did not take {} back ({}): YARN's bookkeeping alone keeps it", id, e.getMessage());
                continue;
            }
            containerHandles.put(id, c);
            containerIds.put(c, id);
        }
        queues.amLimitMoment(null); // the cluster grew
        drain();
    }

    /**
     * A running container of a report capsched is to re-attach, as YARN's recovery would
     * (a guaranteed container of an application the RM recovered, of its current attempt
     * unless containers are kept across attempts); null for one YARN kills or skips.
     */
    private RecoveredContainer recoverable(NMContainerStatus report) {
        ContainerId id = report.getContainerId();
        ApplicationId appId = id.getApplicationAttemptId().getApplicationId();
        Long app = appHandles.get(appId);
        SchedulerApplication<CapschedAppAttempt> schedulerApp = applications.get(appId);
        RMApp rmApp = rmContext.getRMApps().get(appId);
        if (report.getContainerState() == ContainerState.COMPLETE || app == null || schedulerApp == null
                || rmApp == null || schedulerApp.getCurrentAppAttempt() == null) {
            return null;
        }
        CapschedAppAttempt attempt = schedulerApp.getCurrentAppAttempt();
        if (attempt.isStopped() || !attempt.getApplicationAttemptId().equals(id.getApplicationAttemptId())) {
            // YARN recovers an earlier attempt's container of a keep-containers application
            // (its own bookkeeping does here); capsched's reports carry no attempt, so it
            // would take the current attempt's id, which may be another live container's.
            if (rmApp.getApplicationSubmissionContext().getKeepContainersAcrossApplicationAttempts()) {
                LOG.warn("{} of an earlier attempt: recovered by YARN's bookkeeping, not charged in capsched", id);
            }
            return null;
        }
        if (report.getExecutionType() != ExecutionType.GUARANTEED) {
            LOG.warn("{}: capsched does not recover opportunistic containers; YARN's bookkeeping alone keeps it", id);
            return null;
        }
        RMAppAttempt current = rmApp.getCurrentAppAttempt();
        boolean isAm = current != null && current.getMasterContainer() != null
                && current.getMasterContainer().getId().equals(id);
        int priority = report.getPriority() == null ? 0 : report.getPriority().getPriority();
        return new RecoveredContainer(app, resource(report.getAllocatedResource()), priority,
                report.getAllocationRequestId(), id.getContainerId(), isAm);
    }

    private synchronized void removeNode(RMNode rmNode) {
        RMNodeLabelsManager mgr = labelManager();
        if (mgr != null) mgr.deactivateNode(rmNode.getNodeID()); // as CapacityScheduler.removeNode
        Long handle = nodeHandles.remove(rmNode.getNodeID());
        if (handle == null) return;
        nodeIds.remove(handle);
        try {
            engine().removeNode(handle);
        } catch (CapschedException e) {
            goOnPast("the removal of node " + rmNode.getNodeID(), e);
        }
        drain(); // the containers lost with it
        nodeTracker.removeNode(rmNode.getNodeID());
        queues.amLimitMoment(null);
        refreshFigures(); // taken against the smaller cluster
    }

    // ---------------------------------------------------------------- node labels

    private RMNodeLabelsManager labelManager() {
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
    private synchronized void syncClusterLabels() {
        RMNodeLabelsManager mgr = labelManager();
        if (!labelsEnabled || mgr == null) return;
        Map<String, Boolean> wanted = new java.util.LinkedHashMap<String, Boolean>();
        for (org.apache.hadoop.yarn.api.records.NodeLabel l : mgr.getClusterNodeLabels()) {
            wanted.put(l.getName(), l.isExclusive());
        }
        Set<String> have = new HashSet<String>();
        for (org.capsched.NodeLabel l : engine().nodeLabels()) {
            Boolean exclusive = wanted.get(l.name);
            if (exclusive == null || exclusive != l.exclusive) {
                try {
                    // One at a time: a label a queue lists must not keep the others.
                    engine().removeNodeLabels(Collections.singletonList(l.name));
                    continue;
                } catch (CapschedException e) {
                    if (e.status() != CapschedException.REFUSED) throw e;
                    warnOnce("The RM's label manager dropped or changed node label " + l + ", capsched keeps it: "
                            + e.getMessage());
                }
            }
            have.add(l.name);
        }
        for (Map.Entry<String, Boolean> l : wanted.entrySet()) {
            if (have.contains(l.getKey())) continue;
            try {
                engine().addNodeLabels(Collections.singletonList(new org.capsched.NodeLabel(l.getKey(), l.getValue())));
                have.add(l.getKey());
            } catch (CapschedException e) {
                if (e.status() != CapschedException.REFUSED) throw e;
                warnOnce("capsched refused node label " + l.getKey() + ": " + e.getMessage());
            }
        }
        engineLabels.retainAll(have);
        engineLabels.addAll(have);
        for (String label : have) queues.linkPartition(label);
        drain(); // removals move nodes back to the default partition
    }

    /**
     * Before capsched checks expressions the RM has already accepted: any label they name that
     * capsched has not heard of yet is taken from the label manager (added there since the
     * last sync).
     */
    private void learnLabels(String... expressions) {
        if (!labelsEnabled) return;
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
    private boolean forwardLabel(NodeId id, Set<String> labels) {
        String label = partition(labels);
        learnLabels(label);
        try {
            engine().replaceLabelsOnNodes(Collections.singletonMap(id.toString(), label.isEmpty() ? null : label));
            return true;
        } catch (CapschedException e) {
            if (e.status() != CapschedException.REFUSED) throw e;
            LOG.warn("Node {} registers with label {} capsched does not have ({}): unlabelled", id, label,
                    e.getMessage());
            try {
                engine().replaceLabelsOnNodes(Collections.<String, String>singletonMap(id.toString(), null));
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
    private synchronized void nodeLabelsUpdated(Map<NodeId, Set<String>> update) {
        if (!labelsEnabled) return; // the label manager refuses every label without it
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
            FiCaSchedulerNode node = nodeTracker.getNode(e.getKey());
            if (node != null && node.getPartition().equals(label)) continue; // capsched has it so
            mapping.put(e.getKey().toString(), label.isEmpty() ? null : label);
            if (node != null) moved.put(node, labels);
        }
        if (mapping.isEmpty()) return;
        try {
            engine().replaceLabelsOnNodes(mapping);
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
                CapschedAppAttempt attempt = getApplicationAttempt(c.getApplicationAttemptId());
                if (attempt != null) attempt.nodePartitionUpdated(c, from, to);
            }
            node.updateLabels(m.getValue());
        }
        queues.amLimitMoment(null);
        drain(); // partitions changing size may activate attempts
    }

    /** A queue's accessible labels and default expression (see {@link #queueLabels}). */
    QueueNodeLabels queueNodeLabels(String path) {
        QueueNodeLabels l = queueLabels.get(path);
        if (l == null) {
            long version = queueLabelsVersion;
            l = engine().queueNodeLabels(path);
            if (version == queueLabelsVersion) queueLabels.put(path, l);
        }
        return l;
    }

    /**
     * Every queue's accessible labels to the RM's label manager, as CapacitySchedulerQueueManager
     * hands them over at start and at each refresh: the manager then refuses to remove a label a
     * queue lists, with YARN's words, and counts each queue's resource by its labels.
     */
    private void publishQueueLabels() {
        RMNodeLabelsManager mgr = labelManager();
        if (mgr == null) return;
        Map<String, Set<String>> byQueue = new java.util.HashMap<String, Set<String>>();
        for (org.capsched.QueueInfo q : engine().queues()) byQueue.put(q.path, queueNodeLabels(q.path).accessible);
        mgr.reinitializeQueueLabels(byQueue);
    }

    private synchronized void updateNodeResourceInEngine(RMNode rmNode, Resource total, int timeoutMs) {
        Long handle = nodeHandles.get(rmNode.getNodeID());
        if (handle == null) return;
        engine().updateNodeResource(handle, resource(total), timeoutMs < 0 ? -1 : timeoutMs);
        drain();
    }

    @Override
    protected synchronized void nodeUpdate(RMNode rmNode) {
        Long handle = nodeHandles.get(rmNode.getNodeID());
        launchedNow.clear();
        completedNow.clear();
        inNodeUpdate = true;
        try {
            super.nodeUpdate(rmNode); // launches and completions: YARN's bookkeeping, recorded
        } finally {
            inNodeUpdate = false;
        }
        if (handle == null) return;
        long[] launched = new long[launchedNow.size()];
        for (int i = 0; i < launched.length; i++) launched[i] = launchedNow.get(i);
        NodeResponse response;
        try {
            response = engine().nodeUpdate(handle, launched, new ArrayList<CompletedContainer>(completedNow));
        } catch (CapschedException e) {
            // YARN's side has finished these containers already: capsched hears of each alone.
            for (CompletedContainer c : completedNow) {
                try {
                    engine().killContainer(c.container, c.exitStatus, c.diagnostics);
                } catch (CapschedException again) {
                    goOnPast("a completion", again);
                }
            }
            throw e;
        }
        FiCaSchedulerNode node = nodeTracker.getNode(rmNode.getNodeID());
        for (org.capsched.Container c : response.allocated) {
            record(c, node);
        }
        drain();
    }

    @Override
    protected void containerLaunchedOnNode(ContainerId containerId, SchedulerNode node) {
        super.containerLaunchedOnNode(containerId, node);
        Long handle = containerHandles.get(containerId);
        if (handle != null && inNodeUpdate) launchedNow.add(handle);
    }

    /** A container capsched placed on `node`: an RMContainer from now on. */
    private void record(org.capsched.Container c, FiCaSchedulerNode node) {
        record(c.id, c.yarnId, c.resource, c.priority, c.allocationRequestId, c.locality, c.isAm, node);
    }

    /**
     * A guaranteed container capsched placed on `node` (in a heartbeat, or in its asynchronous
     * pass): an RMContainer from now on.
     */
    private void record(long handle, YarnId yarnId, org.capsched.Resource resource, int priority,
            long allocationRequestId, int locality, boolean isAm, FiCaSchedulerNode node) {
        ApplicationAttemptId attemptId = attemptId(yarnId);
        ContainerId id = ContainerId.newContainerId(attemptId, yarnId.containerId);
        CapschedAppAttempt attempt = getApplicationAttempt(attemptId);
        if (isAm) {
            // The RM's AM ask's key (its priority and request id), so YARN's request table
            // matches the AM container with the ask as it would the stock scheduler's.
            ResourceRequest amAsk = amAsk(rmContext.getRMApps().get(attemptId.getApplicationId()));
            if (amAsk != null) {
                priority = amAsk.getPriority().getPriority();
                allocationRequestId = amAsk.getAllocationRequestId();
            }
        }
        Long app = appHandles.get(attemptId.getApplicationId());
        if (attempt == null || node == null || app == null) {
            LOG.warn("capsched placed {} for an attempt the RM no longer runs: released", id);
            engine().killContainer(handle, ContainerExitStatus.ABORTED, "Container of a finished attempt");
            return;
        }
        Container container = Container.newInstance(id, node.getNodeID(), node.getRMNode().getHttpAddress(),
                Resource.newInstance(resource.memoryMb, (int) resource.vcores), Priority.newInstance(priority), null,
                ExecutionType.GUARANTEED);
        container.setAllocationRequestId(allocationRequestId);
        NodeType type = locality == org.capsched.Container.NODE_LOCAL ? NodeType.NODE_LOCAL
                : locality == org.capsched.Container.RACK_LOCAL ? NodeType.RACK_LOCAL : NodeType.OFF_SWITCH;
        RMContainer rmContainer = attempt.allocated(type, node, SchedulerRequestKey.extractFrom(container), container);
        if (rmContainer == null) {
            engine().killContainer(handle, ContainerExitStatus.ABORTED, "Container of a stopped attempt");
            return;
        }
        containerHandles.put(id, handle);
        containerIds.put(handle, id);
        node.allocateContainer(rmContainer);
        queues.userUsageChanged(((CapschedQueue) attempt.getQueue()).path(), attempt.getUser());
        if (isAm) {
            // The RM pulls the AM container through allocate (AMContainerAllocatedTransition).
            engine().takeAmContainer(app);
        }
    }

    /** The ANY request of an application's AM asks; null when it has none (unmanaged). */
    private static ResourceRequest amAsk(RMApp rmApp) {
        if (rmApp == null || rmApp.getAMResourceRequests() == null) return null;
        for (ResourceRequest r : rmApp.getAMResourceRequests()) {
            if (ResourceRequest.ANY.equals(r.getResourceName())) return r;
        }
        return null;
    }

    /**
     * AM_CONTAINER_ALLOCATED: an AM container capsched's asynchronous pass placed (one placed
     * in a heartbeat is recorded there already) becomes the attempt's RMContainer.
     */
    private void amContainerAllocated(Event e) {
        ContainerId id = ContainerId.newContainerId(attemptId(e.yarnId), e.yarnId.containerId);
        if (containerHandles.containsKey(id)) return;
        org.capsched.ContainerInfo c = engine().takeAmContainer(e.app);
        if (c == null) return; // taken, or gone since
        NodeId nodeId = nodeIds.get(c.node);
        record(c.id, c.yarnId, c.resource, c.priority, c.allocationRequestId, c.locality, true,
                nodeId == null ? null : nodeTracker.getNode(nodeId));
    }

    /**
     * The engine's events since the last call (completions it decided finish RMContainers; an
     * attempt it activated counts its AM in the queue's metrics), then the queue figures the
     * metrics take from capsched, if they moved.
     */
    private synchronized void drain() {
        if (engine == null) return; // nothing has happened yet
        List<Event> events;
        try {
            events = engine().pollEvents(4096);
        } catch (CapschedException e) {
            goOnPast("to hand over its events", e);
            return;
        }
        for (Event e : events) {
            if (e.kind == Event.AM_CONTAINER_ALLOCATED) amContainerAllocated(e);
            if (e.kind == Event.APP_ACTIVATED) activated(e);
            if (e.kind != Event.CONTAINER_COMPLETED) continue;
            // By capsched's handle: a recovered container keeps its own attempt's id here.
            ContainerId id = containerIds.get(e.container);
            if (id == null) continue; // YARN decided it, and has finished it
            RMContainer c = getRMContainer(id);
            if (c == null) {
                forget(id);
                continue;
            }
            String diagnostics = e.code == -102 ? SchedulerUtils.PREEMPTED_CONTAINER
                    : e.code == -100 ? SchedulerUtils.LOST_CONTAINER : "";
            ContainerStatus status = ContainerStatus.newInstance(id, ContainerState.COMPLETE, diagnostics, e.code);
            fromEngine = true;
            try {
                super.completedContainer(c, status, RMContainerEventType.KILL);
            } finally {
                fromEngine = false;
            }
            if (e.code == ContainerExitStatus.PREEMPTED) preempted(c);
        }
        syncFigures();
    }

    /** Sets the metrics capsched's queue figures give, if they moved since last set. */
    private void syncFigures() {
        Engine e = engine;
        if (e == null) return;
        try {
            queues.sync(e, calculator, getClusterResource(), defaultPartitionResource(),
                    getMinimumResourceCapability());
        } catch (CapschedException x) {
            goOnPast("to give its queue figures", x);
        }
    }

    /**
     * The same after the RM's own side changed what the figures are taken against (the cluster
     * resource once a node has left or been resized): read again whatever the version.
     */
    private void refreshFigures() {
        queues.invalidate();
        syncFigures();
    }

    /** The default partition's resource, as the RM's label manager counts it. */
    private Resource defaultPartitionResource() {
        RMNodeLabelsManager mgr = labelManager();
        return mgr == null ? getClusterResource()
                : mgr.getResourceByLabel(RMNodeLabelsManager.NO_LABEL, getClusterResource());
    }

    /**
     * APP_ACTIVATED: the attempt's AM counts in its queue's used AM resource from now on, as
     * LeafQueue.activateApplications counts it (until the attempt ends or moves).
     */
    private void activated(Event e) {
        CapschedAppAttempt attempt = getApplicationAttempt(attemptId(e.yarnId));
        if (attempt != null && !attempt.isStopped()) {
            attempt.chargeAm();
            queues.userActivated(((CapschedQueue) attempt.getQueue()).path(), attempt.getUser());
        }
    }

    /** The leaf's preemption metrics, as LeafQueue keeps them for a container it preempted. */
    private void preempted(RMContainer c) {
        SchedulerApplication<CapschedAppAttempt> app = applications.get(
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

    private void forget(ContainerId id) {
        Long handle = containerHandles.remove(id);
        if (handle != null) containerIds.remove(handle);
    }

    @Override
    protected synchronized void completedContainerInternal(RMContainer rmContainer, ContainerStatus status,
            RMContainerEventType event) {
        ContainerId id = rmContainer.getContainerId();
        Long handle = containerHandles.get(id);
        forget(id);
        if (!fromEngine && handle != null && engine != null) {
            try {
                if (inNodeUpdate && event == RMContainerEventType.FINISHED) {
                    completedNow.add(new CompletedContainer(handle, status.getExitStatus(),
                            status.getDiagnostics() == null ? "" : status.getDiagnostics()));
                } else if (event == RMContainerEventType.EXPIRE) {
                    engine().containerExpired(handle);
                } else {
                    engine().killContainer(handle, status.getExitStatus(),
                            status.getDiagnostics() == null ? "" : status.getDiagnostics());
                }
            } catch (CapschedException e) {
                goOnPast("the completion of " + id, e);
            }
        }
        CapschedAppAttempt attempt = getCurrentAttemptForContainer(id);
        FiCaSchedulerNode node = nodeTracker.getNode(rmContainer.getNodeId());
        if (attempt == null) {
            LOG.info("Unknown application {} released container {} with event {}",
                    id.getApplicationAttemptId().getApplicationId(), id, event);
            return;
        }
        // Usage is booked to the node's partition (the container's label is its request's),
        // as LeafQueue.completedContainer passes it.
        attempt.containerCompleted(rmContainer, status, event,
                node != null ? node.getPartition() : rmContainer.getNodeLabelExpression());
        queues.userUsageChanged(((CapschedQueue) attempt.getQueue()).path(), attempt.getUser());
        if (node != null) node.releaseContainer(id, false);
    }

    // ---------------------------------------------------------------- applications

    private synchronized void addApplication(ApplicationId id, String queue, String user, boolean recovering,
            Priority priority) {
        if (appHandles.containsKey(id)) {
            // Not the RM's flow; the application it names is left as it is.
            LOG.warn("Application {} is in the scheduler already: APP_ADDED ignored", id);
            return;
        }
        long handle;
        int p = priority == null ? Capsched.DEFAULT_PRIORITY : priority.getPriority();
        YarnId yarnId = YarnId.application(id.getClusterTimestamp(), id.getId());
        try {
            // A recovered application was accepted before the restart: capsched re-adds it
            // without the submission checks (addApplicationOnRecovery).
            RMApp rmApp = rmContext.getRMApps().get(id);
            Submission submission = new Submission(queue, user).groups(groups(user)).priority(p)
                    .applicationId(yarnId).recovering(recovering);
            if (!recovering && rmApp != null) submission.appName(rmApp.getName());
            if (rmApp != null) {
                // The application's label (its ANY asks' when they name none) and its AM
                // request's, which RMAppManager has normalised and checked already.
                String appLabel = rmApp.getApplicationSubmissionContext().getNodeLabelExpression();
                String amLabel = null;
                if (rmApp.getAMResourceRequests() != null) {
                    for (ResourceRequest r : rmApp.getAMResourceRequests()) {
                        if (ResourceRequest.ANY.equals(r.getResourceName())) amLabel = r.getNodeLabelExpression();
                    }
                }
                learnLabels(appLabel, amLabel);
                submission.nodeLabelExpression(appLabel).amNodeLabelExpression(amLabel);
            }
            handle = engine().submit(submission);
        } catch (CapschedException e) {
            // Whatever the refusal, the application is not the scheduler's: the RM rejects it
            // with capsched's message (YARN's words for the submission checks).
            engineFailed(e);
            LOG.info("Rejected {}: {}", id, e.getMessage());
            // On recovery its queue is gone, or no longer a leaf: YARN kills it.
            rmContext.getDispatcher().getEventHandler().handle(new RMAppEvent(id,
                    recovering ? RMAppEventType.KILL : RMAppEventType.APP_REJECTED, e.getMessage()));
            return;
        }
        appHandles.put(id, handle);
        CapschedQueue leaf = queue(engine().applicationReport(handle).queue);
        SchedulerApplication<CapschedAppAttempt> app = new SchedulerApplication<CapschedAppAttempt>(leaf, user,
                priority);
        applications.put(id, app);
        leaf.getMetrics().submitApp(user);
        if (!recovering) {
            rmContext.getDispatcher().getEventHandler().handle(new RMAppEvent(id, RMAppEventType.APP_ACCEPTED));
        }
        drain();
    }

    /** Whether submissions need the user's groups: for ACLs, or for queue mappings. */
    private volatile boolean resolveGroups;

    private static boolean needsGroups(Map<String, String> settings) {
        String mappings = settings.get(CapacitySchedulerConfiguration.QUEUE_MAPPING);
        // YARN 3.4's JSON mapping rules may match groups and place by them too.
        return Boolean.parseBoolean(settings.get(YarnConfiguration.YARN_ACL_ENABLE))
                || (mappings != null && !mappings.trim().isEmpty())
                || "json".equals(settings.get("yarn.scheduler.capacity.mapping-rule-format"));
    }

    /**
     * The submitter's groups, which capsched needs only for the queue ACLs it checks with
     * {@code yarn.acl.enable} and for queue mappings (resolving them runs the group mapping, a
     * shell command by default, so not on every submission).
     */
    private List<String> groups(String user) {
        if (!resolveGroups) return Collections.<String>emptyList();
        try {
            return UserGroupInformation.createRemoteUser(user).getGroups();
        } catch (RuntimeException e) {
            return Collections.<String>emptyList();
        }
    }

    /**
     * Where capsched's placement rules send a submission: the leaf and the rule's parent, or
     * null when no rule places it (it then goes to the queue it names). A rule that fails the
     * submission fails it with YARN's message.
     */
    org.apache.hadoop.yarn.server.resourcemanager.placement.ApplicationPlacementContext place(
            org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext asc, String user) throws YarnException {
        ApplicationId id = asc.getApplicationId();
        String[] placed;
        try {
            placed = engine().place(asc.getQueue(), user, groups(user), asc.getApplicationName(),
                    id == null ? null : YarnId.application(id.getClusterTimestamp(), id.getId()));
        } catch (CapschedException e) {
            engineFailed(e);
            throw new YarnException(e.getMessage());
        }
        if (placed == null) return null;
        return new org.apache.hadoop.yarn.server.resourcemanager.placement.ApplicationPlacementContext(placed[0],
                placed[1].isEmpty() ? null : placed[1]);
    }

    /** The queue's RM-side face (made, with its ancestors, on first use). */
    private CapschedQueue queue(String path) {
        return queues.get(path);
    }

    private synchronized void addApplicationAttempt(ApplicationAttemptId id, boolean transfer, boolean recovering) {
        SchedulerApplication<CapschedAppAttempt> app = applications.get(id.getApplicationId());
        Long handle = appHandles.get(id.getApplicationId());
        if (app == null || handle == null) {
            LOG.warn("Attempt {} of an application capsched does not hold", id);
            return;
        }
        RMApp rmApp = rmContext.getRMApps().get(id.getApplicationId());
        boolean unmanaged = rmApp != null && rmApp.getApplicationSubmissionContext().getUnmanagedAM();
        Resource am = Resource.newInstance(1024, 1);
        if (rmApp != null && rmApp.getAMResourceRequests() != null && !rmApp.getAMResourceRequests().isEmpty()) {
            am = rmApp.getAMResourceRequests().get(0).getCapability();
        } else if (rmApp != null && rmApp.getApplicationSubmissionContext().getResource() != null) {
            am = rmApp.getApplicationSubmissionContext().getResource();
        }
        if (recovering) {
            engine().recoverAttempt(handle, resource(am), unmanaged); // its AM runs already
        } else {
            engine().addAttempt(handle, resource(am), unmanaged, transfer);
        }
        CapschedAppAttempt attempt = new CapschedAppAttempt(id, app.getUser(), (CapschedQueue) app.getQueue(),
                rmContext);
        if (transfer) attempt.transferStateFromPreviousAttempt(app.getCurrentAppAttempt());
        app.setCurrentAppAttempt(attempt);
        responseIds.put(id, 0);
        app.getQueue().getMetrics().submitAppAttempt(app.getUser());
        if (!recovering) {
            rmContext.getDispatcher().getEventHandler().handle(
                    new RMAppAttemptEvent(id, RMAppAttemptEventType.ATTEMPT_ADDED));
        }
        queues.amLimitMoment(((CapschedQueue) app.getQueue()).path());
        drain();
    }

    private synchronized void doneApplicationAttempt(ApplicationAttemptId id, RMAppAttemptState state, boolean keep) {
        CapschedAppAttempt attempt = getApplicationAttempt(id);
        Long handle = appHandles.get(id.getApplicationId());
        if (attempt == null || handle == null) return;
        try {
            engine().removeAttempt(handle, keep);
        } catch (CapschedException e) {
            goOnPast("the end of " + id, e);
        }
        queues.amLimitMoment(((CapschedQueue) attempt.getQueue()).path());
        drain(); // its containers, killed (or kept)
        responseIds.remove(id);
        attempt.dischargeAm();
        attempt.stop(state);
    }

    private synchronized void doneApplication(ApplicationId id,
            org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState state) {
        SchedulerApplication<CapschedAppAttempt> app = applications.remove(id);
        Long handle = appHandles.remove(id);
        if (handle != null) {
            try {
                engine().removeApplication(handle);
            } catch (CapschedException e) {
                goOnPast("the end of " + id, e);
            }
        }
        drain();
        if (app != null) app.stop(state);
    }

    @Override
    public synchronized void preValidateMoveApplication(ApplicationId appId, String newQueue)
            throws YarnException {
        if (!applications.containsKey(appId)) throw new YarnException("App to be moved " + appId + " not found.");
        if (queueStatus(newQueue) == null) {
            throw new YarnException("The specified Queue: " + newQueue + " doesn't exist");
        }
        // The limits and ACLs of the target are capsched's, checked when it moves the app.
    }

    /** Moves an application: capsched checks the target (YARN's messages) and moves it. */
    @Override
    public synchronized String moveApplication(ApplicationId appId, String newQueue) throws YarnException {
        SchedulerApplication<CapschedAppAttempt> app = applications.get(appId);
        Long handle = appHandles.get(appId);
        if (app == null || handle == null) throw new YarnException("App to be moved " + appId + " not found.");
        String source = ((CapschedQueue) app.getQueue()).path();
        try {
            engine().moveApplication(handle, newQueue);
        } catch (CapschedException e) {
            throw new YarnException(e.getMessage(), e);
        }
        CapschedQueue dest = queue(engine().applicationReport(handle).queue);
        CapschedAppAttempt attempt = app.getCurrentAppAttempt();
        if (attempt != null) {
            // Pending again in the target, whose activation counts the AM there.
            attempt.dischargeAm();
            attempt.move(dest); // the queue metrics follow its containers
        }
        app.setQueue(dest);
        LOG.info("App: {} moved to {}", appId, dest.path());
        queues.amLimitMoment(source);
        queues.amLimitMoment(dest.path());
        drain();
        if (attempt != null) attempt.activateMovedAsks();
        return newQueue;
    }

    /**
     * The priority an application gets at submission: the one asked for, capped at
     * {@code yarn.cluster.max-application-priority}, or 0 (capsched applies the leaf's default
     * itself when none is asked for).
     */
    @Override
    public Priority checkAndGetApplicationPriority(Priority requested, UserGroupInformation user, String queuePath,
            ApplicationId applicationId) throws YarnException {
        checkSubmitAccess(user, queuePath, applicationId);
        if (requested == null) return Priority.newInstance(0);
        int max = getMaxClusterLevelAppPriority().getPriority();
        return Priority.newInstance(Math.min(requested.getPriority(), max));
    }

    /**
     * With {@code yarn.acl.enable}, RMAppManager refuses a submission the queue's ACLs deny, at
     * the client's call, only for the CapacityScheduler (it checks {@code instanceof}); it asks
     * every scheduler for the priority just before, so the same refusal, in YARN's words, is
     * made here. A queue that does not exist yet (one placement creates) is left to capsched's
     * own check when the application is added.
     */
    private void checkSubmitAccess(UserGroupInformation user, String queuePath, ApplicationId applicationId)
            throws YarnException {
        if (user == null || queuePath == null || !YarnConfiguration.isAclEnabled(conf)) return;
        if (queueStatus(queuePath) == null) return;
        if (checkAccess(user, QueueACL.SUBMIT_APPLICATIONS, queuePath)
                || checkAccess(user, QueueACL.ADMINISTER_QUEUE, queuePath)) {
            return;
        }
        throw org.apache.hadoop.yarn.ipc.RPCUtil.getRemoteException(new org.apache.hadoop.security.AccessControlException(
                "User " + user.getShortUserName() + " does not have permission to submit " + applicationId
                        + " to queue " + queuePath));
    }

    /** As CapacityScheduler: the calculator says which resources the AMs' asks are counted in. */
    @Override
    public java.util.EnumSet<org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes>
            getSchedulingResourceTypes() {
        if (calculator instanceof DefaultResourceCalculator) {
            return java.util.EnumSet.of(org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes.MEMORY);
        }
        return java.util.EnumSet.of(org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes.MEMORY,
                org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes.CPU);
    }

    /** `yarn application -updatePriority`: capsched re-orders the leaf; the state store keeps it. */
    @Override
    public synchronized Priority updateApplicationPriority(Priority newPriority, ApplicationId applicationId,
            org.apache.hadoop.thirdparty.com.google.common.util.concurrent.SettableFuture<Object> future,
            UserGroupInformation user) throws YarnException {
        SchedulerApplication<CapschedAppAttempt> app = applications.get(applicationId);
        Long handle = appHandles.get(applicationId);
        if (app == null || handle == null) {
            throw new YarnException("Application '" + applicationId
                    + "' is not present, hence could not change priority.");
        }
        Priority effective;
        try {
            effective = Priority.newInstance(engine().setApplicationPriority(handle, newPriority.getPriority()));
        } catch (CapschedException e) {
            throw new YarnException(e.getMessage(), e);
        }
        RMApp rmApp = rmContext.getRMApps().get(applicationId);
        if (effective.equals(app.getPriority()) || rmApp == null) {
            future.set(null);
            return effective;
        }
        app.setPriority(effective);
        if (app.getCurrentAppAttempt() != null) app.getCurrentAppAttempt().setPriority(effective);
        rmApp.getApplicationSubmissionContext().setPriority(effective);
        org.apache.hadoop.yarn.server.resourcemanager.recovery.records.ApplicationStateData state =
                org.apache.hadoop.yarn.server.resourcemanager.recovery.records.ApplicationStateData.newInstance(
                        rmApp.getSubmitTime(), rmApp.getStartTime(), rmApp.getApplicationSubmissionContext(),
                        rmApp.getUser(), rmApp.getRealUser(), rmApp.getCallerContext());
        state.setApplicationTimeouts(rmApp.getApplicationTimeouts());
        state.setLaunchTime(rmApp.getLaunchTime());
        rmContext.getStateStore().updateApplicationStateSynchronously(state, false, future);
        drain();
        return effective;
    }

    // ---------------------------------------------------------------- allocate

    @Override
    public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
            List<SchedulingRequest> schedulingRequests, List<ContainerId> release, List<String> blacklistAdditions,
            List<String> blacklistRemovals, org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates updates) {
        CapschedAppAttempt attempt = getApplicationAttempt(attemptId);
        if (attempt == null || !attempt.getApplicationAttemptId().equals(attemptId)) {
            LOG.error("Calling allocate on removed or non existent application attempt {}", attemptId);
            return EMPTY_ALLOCATION;
        }
        normalizeResourceRequests(ask);
        releaseContainers(release, attempt);
        RMAppAttemptState state = attemptState(attemptId);
        // Registered as the AM service has it: the attempt's RUNNING state follows the
        // registration through the RM's dispatcher, and an AM's first allocate may come
        // before it (its asks would otherwise stay YARN's alone). Asked outside this
        // scheduler's monitor: the AM service holds its own lock while it calls allocate.
        boolean registered = state == RMAppAttemptState.RUNNING || (rmContext.getApplicationMasterService() != null
                && rmContext.getApplicationMasterService().hasApplicationMasterRegistered(attemptId));
        synchronized (this) {
            if (attempt.isStopped()) return EMPTY_ALLOCATION;
            Set<ContainerId> preempt = null;
            List<ResourceRequest> preemptResources = null;
            Long handle = appHandles.get(attemptId.getApplicationId());
            AllocateResponse response = null;
            // Before the AM registers, allocate is the RM's own (the AM ask capsched made itself).
            if (handle != null && registered) {
                AllocateRequest request = new AllocateRequest().responseId(responseIds.getOrDefault(attemptId, 0));
                for (ResourceRequest r : ask) {
                    if (ResourceRequest.ANY.equals(r.getResourceName())) learnLabels(r.getNodeLabelExpression());
                }
                for (ResourceRequest r : ask) {
                    if (r.getExecutionTypeRequest() != null
                            && r.getExecutionTypeRequest().getExecutionType() != ExecutionType.GUARANTEED) {
                        // The RM's OpportunisticContainerAllocatorAMService places these before
                        // the scheduler sees the heartbeat, for capsched as for the stock one.
                        warnOnce("OPPORTUNISTIC asks reached the scheduler: enable "
                                + "yarn.resourcemanager.opportunistic-container-allocation.enabled for the RM to "
                                + "place them; capsched ignores them");
                        continue;
                    }
                    // The RM has normalised the ANY ask's label (the application's, else the
                    // queue's default, else ""); host and rack asks follow their key's ANY ask
                    // in capsched as in YARN, so theirs (the RM's "") is not passed on.
                    String label = ResourceRequest.ANY.equals(r.getResourceName()) ? r.getNodeLabelExpression() : null;
                    request.ask(new Ask(r.getPriority().getPriority(), r.getAllocationRequestId(), r.getResourceName(),
                            resource(r.getCapability()), r.getNumContainers(), r.getRelaxLocality(), 0, label));
                }
                if (blacklistAdditions != null) for (String b : blacklistAdditions) request.blacklist(b);
                if (blacklistRemovals != null) for (String b : blacklistRemovals) request.unblacklist(b);
                try {
                    response = engine().allocate(handle, request);
                } catch (CapschedException e) {
                    // Refused before YARN's side took anything in: the AM hears why as from
                    // YARN's own checks.
                    engineFailed(e);
                    throw YarnExceptions.sneaky(YarnExceptions.forAllocate(e));
                }
            }
            // The RM's ScheduleTransition asks for the AM container; when capsched has placed it
            // already, that ask is not YARN's to hold (nothing would ever take it).
            boolean amPlaced = state == RMAppAttemptState.SUBMITTED
                    && !attempt.getLiveContainers().isEmpty();
            if (!ask.isEmpty() && !amPlaced) attempt.updateResourceRequests(ask);
            attempt.updateBlacklist(blacklistAdditions, blacklistRemovals);
            Resource headroom = attempt.getHeadroom();
            if (response != null) {
                responseIds.put(attemptId, response.responseId);
                // With asynchronous scheduling capsched places containers outside heartbeats:
                // the AM's pull is where the RM first hears of them.
                for (org.capsched.Container c : response.allocated) {
                    if (c.executionType != org.capsched.Container.GUARANTEED) continue;
                    ContainerId id = ContainerId.newContainerId(attemptId(c.yarnId), c.yarnId.containerId);
                    if (containerHandles.containsKey(id)) continue;
                    NodeId nodeId = nodeIds.get(c.node);
                    record(c, nodeId == null ? null : nodeTracker.getNode(nodeId));
                }
                headroom = Resource.newInstance(response.headroom.memoryMb, (int) response.headroom.vcores);
                if (response.preemptContainers.length > 0) {
                    preempt = new HashSet<ContainerId>();
                    for (long c : response.preemptContainers) {
                        ContainerId id = containerIds.get(c);
                        if (id != null) preempt.add(id);
                    }
                    preemptResources = Collections.singletonList(preemptionAsk(response.preemptResource));
                }
            }
            drain();
            attempt.setApplicationHeadroomForMetrics(headroom);
            if (updates != null && (!updates.getIncreaseRequests().isEmpty()
                    || !updates.getDecreaseRequests().isEmpty() || !updates.getPromotionRequests().isEmpty()
                    || !updates.getDemotionRequests().isEmpty())) {
                warnOnce("Container update requests (resize, promotion, demotion) are not supported under "
                        + "capsched yet: ignored");
            }
            // The RM's ScheduleTransition asks for the AM container and drops what the
            // answer carries; capsched asks for it itself at APP_ATTEMPT_ADDED, so a heartbeat
            // may have placed it already. It stays to be pulled when the attempt handles
            // CONTAINER_ALLOCATED (AMContainerAllocatedTransition), as with the stock scheduler.
            List<Container> newly = state == RMAppAttemptState.SUBMITTED
                    ? Collections.<Container>emptyList() : attempt.pullNewlyAllocatedContainers();
            return new Allocation(newly, headroom, null, preempt,
                    preemptResources, attempt.pullUpdatedNMTokens(), null, null, null, null, null,
                    rejected(schedulingRequests));
        }
    }

    /**
     * SchedulingRequests (placement constraints, with
     * {@code yarn.resourcemanager.placement-constraints.handler=scheduler}) are refused back to
     * the AM, which hears why instead of waiting for containers that never come.
     */
    private List<org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest> rejected(
            List<SchedulingRequest> requests) {
        if (requests == null || requests.isEmpty()) return null;
        warnOnce("SchedulingRequests (placement constraints) are not supported under capsched: rejected");
        List<org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest> out =
                new ArrayList<org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest>();
        for (SchedulingRequest r : requests) {
            out.add(org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest.newInstance(
                    org.apache.hadoop.yarn.api.records.RejectionReason.COULD_NOT_SCHEDULE_ON_NODE, r));
        }
        return out;
    }

    /**
     * The negotiable contract's resource part, as FiCaSchedulerApp states it: the marked
     * containers' total in minimum allocations at ANY. Without it the RM sends no contract.
     */
    private ResourceRequest preemptionAsk(org.capsched.Resource total) {
        Resource tot = Resource.newInstance(total.memoryMb, (int) total.vcores);
        int count = (int) Math.ceil(org.apache.hadoop.yarn.util.resource.Resources.divide(calculator,
                getClusterResource(), tot, minimumAllocation));
        return ResourceRequest.newBuilder().priority(Priority.UNDEFINED).resourceName(ResourceRequest.ANY)
                .capability(minimumAllocation).numContainers(count).build();
    }

    private RMAppAttemptState attemptState(ApplicationAttemptId id) {
        RMApp app = rmContext.getRMApps().get(id.getApplicationId());
        RMAppAttempt attempt = app == null ? null : app.getRMAppAttempt(id);
        return attempt == null ? null : attempt.getAppAttemptState();
    }

    // ---------------------------------------------------------------- reports and the rest

    /**
     * capsched's latest figures of the queue with this path or (unique) short name, read again
     * first if they moved; null when there is no such queue.
     */
    QueueStatus queueStatus(String nameOrPath) {
        if (nameOrPath == null) return null;
        syncFigures();
        return queues.status(nameOrPath);
    }

    /**
     * A leaf's reservations per user, from its applications' reports: for queue metrics that
     * keep figures per user ({@code yarn.scheduler.capacity.user-metrics.enable}).
     */
    Map<String, CapschedQueue.Reservations> reservationsByUser(String path) {
        Map<String, CapschedQueue.Reservations> out = new java.util.HashMap<String, CapschedQueue.Reservations>();
        for (Map.Entry<ApplicationId, SchedulerApplication<CapschedAppAttempt>> e : applications.entrySet()) {
            if (!((CapschedQueue) e.getValue().getQueue()).path().equals(path)) continue;
            Long handle = appHandles.get(e.getKey());
            if (handle == null) continue;
            org.capsched.AppReport r = engine().applicationReport(handle);
            if (r.reservedContainers == 0) continue;
            CapschedQueue.Reservations had = out.get(r.user);
            Resource total = CapschedQueue.resource(r.reserved);
            if (had != null) {
                total = org.apache.hadoop.yarn.util.resource.Resources.add(total, had.total);
            }
            out.put(r.user, new CapschedQueue.Reservations((had == null ? 0 : had.count) + r.reservedContainers, total));
        }
        return out;
    }

    /** The queue's metrics (made with the queue on first use). */
    QueueMetrics queueMetrics(String path) {
        return queue(path).getMetrics();
    }

    /** The queue's {@code QueueInfo} as the stock scheduler states it; null when there is none. */
    QueueInfo queueInfo(String nameOrPath, boolean includeChildQueues, boolean recursive) {
        QueueStatus s = queueStatus(nameOrPath);
        if (s == null) return null;
        List<QueueStatus> all = queues.statuses();
        int at = all.indexOf(s);
        return at < 0 ? null : CapschedQueueInfo.of(this, all, at, includeChildQueues, recursive);
    }

    /**
     * CapacityScheduler.getMaximumResourceCapability(queue): for a leaf, the component-wise
     * minimum of its maximum allocation ({@code maximum-allocation-mb}/{@code -vcores}, else the
     * scheduler's) and the cluster's node-aware maximum; the latter alone, with YARN's log line,
     * for no queue, an unknown or ambiguous one, or a parent. The RM checks every submission's
     * AM request and every ask against it, and tells registering AMs.
     */
    @Override
    public Resource getMaximumResourceCapability(String queueName) {
        Resource cluster = getMaximumResourceCapability();
        if (queueName == null || queueName.isEmpty()) return cluster;
        QueueStatus s = queueStatus(queueName);
        if (s == null) {
            if (queues.ambiguous(queueName)) {
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
        RMNodeLabelsManager mgr = labelManager();
        if (mgr == null) return null;
        Resource partitionResource = mgr.getResourceByLabel(partition, getClusterResource());
        if (calculator.isAllInvalidDivisor(partitionResource) || !partition.isEmpty()) return null;
        QueueStatus q = queues.status(path);
        if (q != null) {
            Resource guaranteed = org.apache.hadoop.yarn.util.resource.Resources.multiply(partitionResource,
                    q.absoluteCapacity);
            if (guaranteed.equals(org.apache.hadoop.yarn.util.resource.Resources.none())) return 0f;
            return calculator.divide(partitionResource, used, guaranteed) * 100;
        }
        return null;
    }

    @Override
    public QueueInfo getQueueInfo(String queueName, boolean includeChildQueues, boolean recursive)
            throws IOException {
        QueueInfo q;
        try {
            q = queueInfo(queueName, includeChildQueues, recursive);
        } catch (CapschedException e) {
            throw new IOException(e.getMessage(), e);
        }
        if (q != null) return q;
        if (queues.ambiguous(queueName)) {
            throw new IOException("Ambiguous queue reference: " + queueName + " please use full queue path instead.");
        }
        throw new IOException("Unknown queue: " + queueName);
    }

    @Override
    public List<QueueUserACLInfo> getQueueUserAclInfo() {
        UserGroupInformation user;
        try {
            user = UserGroupInformation.getCurrentUser();
        } catch (IOException e) {
            return Collections.<QueueUserACLInfo>emptyList();
        }
        // As the stock root answers: every queue in pre-order, by its full path.
        queueStatus("root");
        List<QueueUserACLInfo> out = new ArrayList<QueueUserACLInfo>();
        for (QueueStatus q : queues.statuses()) out.addAll(queue(q.path).getQueueUserAclInfo(user));
        return out;
    }

    @Override
    public ResourceCalculator getResourceCalculator() {
        return calculator;
    }

    @Override
    public int getNumClusterNodes() {
        return nodeTracker.nodeCount();
    }

    @Override
    public RMContainer getRMContainer(ContainerId id) {
        CapschedAppAttempt attempt = getCurrentAttemptForContainer(id);
        return attempt == null ? null : attempt.getRMContainer(id);
    }

    @Override
    public QueueMetrics getRootQueueMetrics() {
        return queues.root().getMetrics();
    }

    @Override
    public boolean checkAccess(UserGroupInformation user, QueueACL acl, String queueName) {
        List<String> groups = new ArrayList<String>();
        Collections.addAll(groups, user.getGroupNames());
        try {
            return engine().checkAccess(user.getShortUserName(), groups,
                    acl == QueueACL.SUBMIT_APPLICATIONS ? Capsched.ACL_SUBMIT_APPLICATIONS
                            : Capsched.ACL_ADMINISTER_QUEUE,
                    queueName);
        } catch (CapschedException e) {
            // As CapacityScheduler answers for a queue it does not find: no access.
            LOG.debug("ACL not found for queue access-type {} for queue {} ({})", acl, queueName, e.getMessage());
            return false;
        }
    }

    @Override
    public synchronized List<ApplicationAttemptId> getAppsInQueue(String queueName) {
        // YARN's answer: the attempts in the queue (beneath it, for a parent), or null when
        // there is no such queue.
        String queue = queuePath(queueName);
        if (queue == null) return null;
        List<ApplicationAttemptId> out = new ArrayList<ApplicationAttemptId>();
        for (SchedulerApplication<CapschedAppAttempt> app : applications.values()) {
            String path = ((CapschedQueue) app.getQueue()).path();
            boolean in = path.equals(queue) || path.startsWith(queue + ".");
            if (in && app.getCurrentAppAttempt() != null) out.add(app.getCurrentAppAttempt().getApplicationAttemptId());
        }
        return out;
    }

    /** A queue's full path, from its path or its (unique) short name; null if there is none. */
    protected String queuePath(String name) {
        QueueStatus s = queueStatus(name);
        return s == null ? null : s.path;
    }

    @Override
    public void killContainer(RMContainer container) {
        ContainerStatus status = SchedulerUtils.createKilledContainerStatus(container.getContainerId(),
                "Killed by RM to simulate an AM container failure");
        completedContainer(container, status, RMContainerEventType.KILL);
    }

    /**
     * The lifetime the RM's lifetime monitor registers for an application (RMAppImpl asks at
     * submission): the leaf's default when it asks for none, capped at the leaf's maximum.
     */
    @Override
    public long checkAndGetApplicationLifetime(String queueName, long lifetime) {
        try {
            return engine().applicationLifetime(queueName, lifetime)[0];
        } catch (CapschedException e) {
            // As CapacityScheduler answers for a queue it cannot find: what was asked for.
            LOG.error("Lifetime of an application in {}: {}", queueName, e.getMessage());
            return lifetime;
        }
    }

    /** The leaf's {@code maximum-application-lifetime} (an update of the timeout is cut to it). */
    @Override
    public long getMaximumApplicationLifetime(String queueName) {
        try {
            return engine().applicationLifetime(queueName, -1)[1];
        } catch (CapschedException e) {
            LOG.error("Unknown queue: {} ({})", queueName, e.getMessage());
            return -1;
        }
    }

    /** The cluster's figures over every partition, as the stock root queue keeps them. */
    static final class AcrossPartitions {
        final Resource used;
        final Resource reserved;
        final int containers;

        AcrossPartitions(Resource used, Resource reserved, int containers) {
            this.used = used;
            this.reserved = reserved;
            this.containers = containers;
        }
    }

    /**
     * What ClusterMetricsInfo reads of the stock root queue: its use and reservations in every
     * partition (capsched's), and its containers, allocated and reserved, in every partition
     * (the RM's metrics; a labelled partition's reservations are not counted, see
     * docs/HADOOP.md).
     */
    AcrossPartitions acrossPartitions() {
        QueueStatus root = queueStatus("root");
        Resource used = root == null ? Resources.none() : CapschedQueue.resource(root.used);
        Resource reserved = root == null ? Resources.none() : CapschedQueue.resource(root.reserved);
        QueueMetrics metrics = getRootQueueMetrics();
        int containers = metrics.getAllocatedContainers() + metrics.getReservedContainers();
        if (labelsEnabled && engine != null) {
            for (String label : engineLabels) {
                try {
                    org.capsched.PartitionUsage u = engine().queuePartitionUsage("root", label);
                    used = Resources.add(used, CapschedQueue.resource(u.used));
                    reserved = Resources.add(reserved, CapschedQueue.resource(u.reserved));
                } catch (CapschedException e) {
                    goOnPast("the root's use in " + label, e);
                }
                containers += metrics.getPartitionQueueMetrics(label).getAllocatedContainers();
            }
        }
        return new AcrossPartitions(used, reserved, containers);
    }

    /** capsched's audit of its own state (tests): throws with what is wrong. */
    void checkInvariants() {
        engine().checkInvariants();
    }

    /** The document capsched serves for {@code /ws/v1/cluster/scheduler}. */
    public String schedulerJson() {
        return engine().schedulerJson();
    }

    private static org.capsched.Resource resource(Resource r) {
        return new org.capsched.Resource(r.getMemorySize(), r.getVirtualCores());
    }

    private static ApplicationAttemptId attemptId(YarnId y) {
        return ApplicationAttemptId.newInstance(ApplicationId.newInstance(y.clusterTimestamp, y.application),
                y.attempt);
    }
}
