package org.capsched.yarn;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.RMStateStore.RMState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ClusterNodeTracker;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.capsched.CapschedException;
import org.capsched.Config;
import org.capsched.QueueNodeLabels;
import org.capsched.QueueStatus;
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
 *
 * <p>This class is the lifecycle (init, start, stop, refresh) and the face the RM calls; each
 * override hands its work to the part that owns it, all sharing one {@link CapschedContext}:
 * {@link CapschedEvents} (SchedulerEvents and refusals), {@link CapschedNodes},
 * {@link CapschedRecovery}, {@link CapschedApps}, {@link CapschedAllocator},
 * {@link CapschedContainers}, {@link CapschedLabels}, {@link CapschedQueueAccess},
 * {@link CapschedEngineEvents} (the drain and the queue figures) and {@link CapschedWeb}.
 *
 * <p>Locks. This scheduler's monitor, which the RM and AbstractYarnScheduler take too, is the
 * lock of the scheduler's events and of the drain of the engine's events. An override that is
 * {@code synchronized} here holds it for its part's work; the parts take it with
 * {@code synchronized (scheduler)} where this class's own methods were {@code synchronized}
 * before they were split out. {@link #allocate}, as CapacityScheduler's, is the exception: it
 * runs on the RM's IPC threads beside the event thread, under the attempt's own lock, and takes
 * the monitor only for its drain ({@link CapschedAllocator}). The order is always the monitor
 * before an attempt's lock, and the engine's own lock innermost (it calls nothing back).
 */
public class CapschedResourceScheduler extends AbstractYarnScheduler<CapschedAppAttempt, FiCaSchedulerNode>
        implements Configurable {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    /**
     * Volatile, and its accessors take no lock: queues are made (and read getConf) under the
     * queue registry's lock, which the scheduler's own lock may be waiting for.
     */
    private volatile Configuration conf;
    private final CapschedContext ctx = new CapschedContext(this);

    public CapschedResourceScheduler() {
        super(CapschedResourceScheduler.class.getName());
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public void serviceInit(Configuration configuration) throws Exception {
        setConf(configuration);
        CapschedWeb.selectWebClasses(configuration);
        ctx.nodes.usePortForNodeName = configuration.getBoolean(
                "yarn.scheduler.include-port-in-node-name", false);
        CapacitySchedulerConfiguration csConf = new CapacitySchedulerConfiguration(configuration, true);
        ctx.manualEngine = CapschedContext.manualEngine(csConf);
        ctx.calculator = csConf.getResourceCalculator();
        ctx.queues = new CapschedQueues(this, csConf.getEnableUserMetrics());
        ctx.queues.root();
        // The RM validates asks against these (yarn.scheduler.minimum/maximum-allocation-*);
        // capsched reads the same keys for its own decisions.
        applications = new java.util.concurrent.ConcurrentSkipListMap<ApplicationId,
                SchedulerApplication<CapschedAppAttempt>>();
        minimumAllocation = super.getMinimumAllocation();
        initMaximumResourceCapability(super.getMaximumAllocation());
        Map<String, String> settings = pairs(configuration);
        try {
            ctx.config = Config.fromPairs(settings);
        } catch (CapschedException e) {
            // As CapacityScheduler.initializeQueues refuses it: the RM does not start.
            throw new YarnException("Failed to initialize queues", new java.io.IOException(e.getMessage(), e));
        }
        ctx.apps.resolveGroups = CapschedApps.needsGroups(settings);
        ctx.labels.enabled = YarnConfiguration.areNodeLabelsEnabled(configuration);
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

    @Override
    public void serviceStart() throws Exception {
        ctx.engine();
        // The label manager has recovered its store by now (it starts before the scheduler).
        ctx.labels.publishQueueLabels();
        ctx.labels.syncClusterLabels();
        ctx.engineEvents.syncFigures(); // every queue has its metrics from the start, idle ones too
        // The RM places applications through its PlacementManager before submitting them;
        // capsched's rules (the queue mappings) answer there, as the stock scheduler's do.
        if (rmContext != null && rmContext.getQueuePlacementManager() != null) {
            rmContext.getQueuePlacementManager().updateRules(
                    Collections.<org.apache.hadoop.yarn.server.resourcemanager.placement.PlacementRule>singletonList(
                            new CapschedPlacementRule(this)));
        }
        ctx.engineEvents.startEventThread(new CapacitySchedulerConfiguration(conf, true));
        super.serviceStart();
    }

    @Override
    public void serviceStop() throws Exception {
        ctx.engineEvents.stopEventThread();
        super.serviceStop();
        ctx.close();
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
            ctx.apps.resolveGroups = CapschedApps.needsGroups(settings);
        } catch (CapschedException e) {
            throw new IOException("Failed to re-init queues : " + e.getMessage(), e);
        }
        try {
            ctx.engine().refreshQueues(next);
            Config previous = ctx.config;
            ctx.config = next;
            previous.close();
        } catch (CapschedException e) {
            next.close();
            throw new IOException("Failed to re-init queues : " + e.getMessage(), e);
        }
        ctx.labels.queuesRefreshed();
        setConf(configuration);
        // Not super.reinitialize: that (re)starts YARN's SchedulingMonitors, whose
        // ProportionalCapacityPreemptionPolicy refuses any scheduler but the stock one.
        // capsched's own monitor follows the refreshed preemption keys from its next round.
        ctx.queues.amLimitMoment(null);
        ctx.engineEvents.drain();
    }

    @Override
    public void recover(RMState state) {
        // Applications come back through APP_ADDED/APP_ATTEMPT_ADDED; their containers with the
        // NodeManagers' reports at NODE_ADDED.
    }

    // ---------------------------------------------------------------- events and nodes

    @Override
    public void handle(org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent event) {
        ctx.events.handle(event);
    }

    @Override
    protected synchronized void nodeUpdate(RMNode rmNode) {
        ctx.nodes.nodeUpdate(rmNode);
    }

    @Override
    protected void containerLaunchedOnNode(ContainerId containerId, SchedulerNode node) {
        super.containerLaunchedOnNode(containerId, node);
        ctx.nodes.launched(containerId);
    }

    @Override
    protected synchronized void completedContainerInternal(RMContainer rmContainer, ContainerStatus status,
            RMContainerEventType event) {
        ctx.containers.completed(rmContainer, status, event);
    }

    @Override
    public void killContainer(RMContainer container) {
        ContainerStatus status = SchedulerUtils.createKilledContainerStatus(container.getContainerId(),
                "Killed by RM to simulate an AM container failure");
        completedContainer(container, status, RMContainerEventType.KILL);
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

    // ---------------------------------------------------------------- applications

    @Override
    public synchronized void preValidateMoveApplication(ApplicationId appId, String newQueue)
            throws YarnException {
        ctx.apps.preValidateMoveApplication(appId, newQueue);
    }

    @Override
    public synchronized String moveApplication(ApplicationId appId, String newQueue) throws YarnException {
        return ctx.apps.moveApplication(appId, newQueue);
    }

    @Override
    public Priority checkAndGetApplicationPriority(Priority requested, UserGroupInformation user, String queuePath,
            ApplicationId applicationId) throws YarnException {
        return ctx.apps.checkAndGetApplicationPriority(requested, user, queuePath, applicationId);
    }

    @Override
    public synchronized Priority updateApplicationPriority(Priority newPriority, ApplicationId applicationId,
            org.apache.hadoop.thirdparty.com.google.common.util.concurrent.SettableFuture<Object> future,
            UserGroupInformation user) throws YarnException {
        return ctx.apps.updateApplicationPriority(newPriority, applicationId, future);
    }

    @Override
    public long checkAndGetApplicationLifetime(String queueName, long lifetime) {
        return ctx.apps.checkAndGetApplicationLifetime(queueName, lifetime);
    }

    @Override
    public long getMaximumApplicationLifetime(String queueName) {
        return ctx.apps.maximumApplicationLifetime(queueName);
    }

    @Override
    public synchronized List<ApplicationAttemptId> getAppsInQueue(String queueName) {
        return ctx.apps.appsInQueue(queueName);
    }

    /** Where capsched's placement rules send a submission ({@link CapschedPlacementRule}). */
    org.apache.hadoop.yarn.server.resourcemanager.placement.ApplicationPlacementContext place(
            org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext asc, String user) throws YarnException {
        return ctx.apps.place(asc, user);
    }

    /** A leaf's reservations per user ({@link CapschedQueues}' user metrics). */
    Map<String, CapschedQueue.Reservations> reservationsByUser(String path) {
        return ctx.apps.reservationsByUser(path);
    }

    // ---------------------------------------------------------------- allocate

    @Override
    public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
            List<SchedulingRequest> schedulingRequests, List<ContainerId> release, List<String> blacklistAdditions,
            List<String> blacklistRemovals, org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates updates) {
        return ctx.allocator.allocate(attemptId, ask, schedulingRequests, release, blacklistAdditions,
                blacklistRemovals, updates);
    }

    @Override
    public java.util.EnumSet<org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes>
            getSchedulingResourceTypes() {
        return ctx.allocator.schedulingResourceTypes();
    }

    @Override
    public ResourceCalculator getResourceCalculator() {
        return ctx.calculator;
    }

    // ---------------------------------------------------------------- queues and ACLs

    @Override
    public Resource getMaximumResourceCapability(String queueName) {
        return ctx.queueAccess.maximumResourceCapability(queueName);
    }

    @Override
    public QueueInfo getQueueInfo(String queueName, boolean includeChildQueues, boolean recursive)
            throws IOException {
        return ctx.queueAccess.getQueueInfo(queueName, includeChildQueues, recursive);
    }

    @Override
    public List<QueueUserACLInfo> getQueueUserAclInfo() {
        return ctx.queueAccess.getQueueUserAclInfo();
    }

    @Override
    public boolean checkAccess(UserGroupInformation user, QueueACL acl, String queueName) {
        return ctx.queueAccess.checkAccess(user, acl, queueName);
    }

    @Override
    public QueueMetrics getRootQueueMetrics() {
        return ctx.queues.root().getMetrics();
    }

    /** A queue's full path, from its path or its (unique) short name; null if there is none. */
    protected String queuePath(String name) {
        return ctx.queueAccess.queuePath(name);
    }

    /** capsched's latest figures of a queue ({@link CapschedQueueAccess#queueStatus}). */
    QueueStatus queueStatus(String nameOrPath) {
        return ctx.queueAccess.queueStatus(nameOrPath);
    }

    /** The queue's {@code QueueInfo} ({@link CapschedQueueAccess#queueInfo}). */
    QueueInfo queueInfo(String nameOrPath, boolean includeChildQueues, boolean recursive) {
        return ctx.queueAccess.queueInfo(nameOrPath, includeChildQueues, recursive);
    }

    /** The queue's metrics (made with the queue on first use). */
    QueueMetrics queueMetrics(String path) {
        return ctx.queueAccess.queueMetrics(path);
    }

    /** An attempt's queue usage percentage ({@link CapschedQueueAccess#queueUsagePercentage}). */
    Float queueUsagePercentage(String path, String partition, Resource used) {
        return ctx.queueAccess.queueUsagePercentage(path, partition, used);
    }

    /** A queue's accessible labels and default expression ({@link CapschedLabels#queueNodeLabels}). */
    QueueNodeLabels queueNodeLabels(String path) {
        return ctx.labels.queueNodeLabels(path);
    }

    // ---------------------------------------------------------------- web, tests

    /** The document capsched serves for {@code /ws/v1/cluster/scheduler}. */
    public String schedulerJson() {
        return ctx.web.schedulerJson();
    }

    /** The root's figures across partitions, for {@link CapschedClusterMetrics}. */
    CapschedWeb.AcrossPartitions acrossPartitions() {
        return ctx.web.acrossPartitions();
    }

    /** capsched's audit of its own state (tests): throws with what is wrong. */
    void checkInvariants() {
        ctx.engine().checkInvariants();
    }

    /**
     * capsched's own account of what it runs, with its audit's findings, for harnesses that
     * check it against the RM's bookkeeping ({@link CapschedView}; bench/rm's {@code --check}).
     */
    public CapschedView capschedView() {
        return CapschedView.of(ctx);
    }

    // ------------------------------------------- AbstractYarnScheduler's, for the parts

    // Its state and steps are protected (or, called as super, not this class's overrides);
    // the parts of this package reach them here. Each is only the field or the call.

    RMContext rmContext() {
        return rmContext;
    }

    java.util.concurrent.ConcurrentMap<ApplicationId, SchedulerApplication<CapschedAppAttempt>> applications() {
        return applications;
    }

    ClusterNodeTracker<FiCaSchedulerNode> nodeTracker() {
        return nodeTracker;
    }

    Resource minimumAllocation() {
        return minimumAllocation;
    }

    static Allocation emptyAllocation() {
        return EMPTY_ALLOCATION;
    }

    /** AbstractYarnScheduler.nodeUpdate: launches and completions, YARN's bookkeeping. */
    void yarnNodeUpdate(RMNode rmNode) {
        super.nodeUpdate(rmNode);
    }

    /** AbstractYarnScheduler.completedContainer, which calls {@link #completedContainerInternal}. */
    void yarnCompletedContainer(RMContainer c, ContainerStatus status, RMContainerEventType event) {
        super.completedContainer(c, status, event);
    }

    void yarnNormalizeResourceRequests(List<ResourceRequest> asks) {
        normalizeResourceRequests(asks);
    }

    void yarnReleaseContainers(List<ContainerId> release, SchedulerApplicationAttempt attempt) {
        releaseContainers(release, attempt);
    }
}
