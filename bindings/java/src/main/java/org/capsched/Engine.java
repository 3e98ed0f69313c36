package org.capsched;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A running scheduler. Every method may be called from any number of threads at once; {@link
 * #close()} waits for the calls in flight and later calls throw IllegalStateException. Ids
 * (nodes, applications, containers) are the engine's longs, valid only with this engine.
 */
public final class Engine extends NativeHandle {
    public Engine(Config config, EngineOptions options) {
        super(create(config, options == null ? new EngineOptions() : options), "engine");
    }

    public Engine(Config config) {
        this(config, null);
    }

    private static long create(final Config config, final EngineOptions options) {
        final long[] packed = options.pack();
        return config.handle(c -> Native.engineNew(c, packed));
    }

    @Override
    void free(long handle) {
        Native.engineFree(handle);
    }

    /** Stops the engine's threads; later calls fail with STOPPED. */
    public void stop() {
        run(e -> Native.engineStop(e));
    }

    // ---- nodes ----

    /** Registers a NodeManager by its NodeId ({@code host:port}) or host. */
    public long addNode(final String address, final String rack, final Resource resource) {
        final byte[] a = Utf8.bytes(address);
        final byte[] r = Utf8.bytes(rack);
        return with(e -> Native.nodeAdd(e, a, r, resource.memoryMb, resource.vcores));
    }

    /**
     * Registers a NodeManager that already runs containers (RM restart, NM resync): each is
     * charged back to its application and queue; those of unknown applications come back as
     * orphans in the node's next heartbeat response.
     */
    public long addRecoveredNode(String address, String rack, final Resource resource,
            List<RecoveredContainer> containers) {
        final byte[] a = Utf8.bytes(address);
        final byte[] r = Utf8.bytes(rack);
        final long[] v = new long[containers.size() * 7];
        for (int i = 0; i < containers.size(); i++) {
            RecoveredContainer c = containers.get(i);
            v[i * 7] = c.app;
            v[i * 7 + 1] = c.resource.memoryMb;
            v[i * 7 + 2] = c.resource.vcores;
            v[i * 7 + 3] = c.priority;
            v[i * 7 + 4] = c.allocationRequestId;
            v[i * 7 + 5] = c.containerId;
            v[i * 7 + 6] = c.isAm ? 1 : 0;
        }
        return with(e -> Native.nodeAddRecovered(e, a, r, resource.memoryMb, resource.vcores, v));
    }

    public void removeNode(final long node) {
        run(e -> Native.nodeRemove(e, node));
    }

    /** A NodeManager heartbeat with what it launched and what finished. */
    public NodeResponse nodeUpdate(long node, long[] launched, List<CompletedContainer> completed) {
        return nodeUpdate(node, launched, completed, 0);
    }

    /**
     * The same, and then, in the same call into the engine, up to {@code pollEvents} of its
     * events ({@link NodeResponse#events}, as {@link #pollEvents} gives them) and its figures
     * version ({@link NodeResponse#figuresVersion}): an RM's whole heartbeat in one crossing.
     * 0 polls nothing.
     */
    public NodeResponse nodeUpdate(final long node, final long[] launched, final List<CompletedContainer> completed,
            final int pollEvents) {
        final long[] ids = new long[completed.size()];
        final int[] statuses = new int[ids.length];
        final byte[][] diagnostics = new byte[ids.length][];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = completed.get(i).container;
            statuses[i] = completed.get(i).exitStatus;
            diagnostics[i] = Utf8.bytes(completed.get(i).diagnostics);
        }
        return with(e -> {
            Object[] r = Native.nodeUpdate(e, node, launched, ids, statuses, diagnostics, pollEvents);
            List<Event> events = r[4] == null ? null : events((long[]) r[4]);
            return new NodeResponse(r, events, r[5] == null ? -1 : ((long[]) r[5])[0]);
        });
    }

    /** An empty heartbeat. */
    public NodeResponse nodeUpdate(long node) {
        return nodeUpdate(node, new long[0], Collections.<CompletedContainer>emptyList());
    }

    /** NODE_RESOURCE_UPDATE; timeout < 0: containers beyond run on, 0: killed now, > 0: later. */
    public void updateNodeResource(final long node, final Resource resource, final long overcommitTimeoutMs) {
        run(e -> Native.nodeUpdateResource(e, node, resource.memoryMb, resource.vcores, overcommitTimeoutMs));
    }

    /** Graceful decommissioning; timeout < 0: none. */
    public void decommissionNode(final long node, final long timeoutMs) {
        run(e -> Native.nodeDecommission(e, node, timeoutMs));
    }

    public void recommissionNode(final long node) {
        run(e -> Native.nodeRecommission(e, node));
    }

    /** The node registered as {@code address}; throws UNKNOWN_ID when none is. */
    public long findNode(String address) {
        final byte[] a = Utf8.bytes(address);
        return with(e -> Native.nodeFind(e, a));
    }

    // ---- applications ----

    /**
     * Submission; {@code applicationId} the RM's own (null: the engine mints one). Throws
     * CapschedException REJECTED with YARN's reason.
     */
    public long submit(String queue, String user, List<String> groups, int priority, YarnId applicationId) {
        return submit(queue, user, groups, null, priority, applicationId, false);
    }

    /**
     * Submission with the application's name (for the app-name placement rule; null: YARN's
     * "N/A"). The configured placement rules may send it to another queue than {@code queue}.
     */
    public long submit(String queue, String user, List<String> groups, String appName, int priority,
            YarnId applicationId) {
        return submit(queue, user, groups, appName, priority, applicationId, false);
    }

    /**
     * Where the placement rules would send this submission (YARN's PlacementManager; nothing
     * is submitted): {leaf, parent} with the parent "" when the rule names none, or null when
     * no rule places it. Throws REJECTED with YARN's message when a rule fails it.
     */
    public String[] place(String queue, String user, List<String> groups, String appName, YarnId applicationId) {
        final byte[] q = Utf8.bytes(queue);
        final byte[] u = Utf8.bytes(user);
        final byte[][] g = Utf8.all(groups);
        final byte[] n = appName == null ? null : Utf8.bytes(appName);
        final long ts = applicationId == null ? 0 : applicationId.clusterTimestamp;
        final int seq = applicationId == null ? 0 : applicationId.application;
        byte[][] r = with(e -> Native.appPlace(e, q, u, g, n, ts, seq));
        String leaf = Utf8.string(r[0]);
        return leaf.isEmpty() ? null : new String[] {leaf, Utf8.string(r[1])};
    }

    /**
     * An application the RM recovers after a work-preserving restart: accepted before, so
     * ACLs, limits and the queue's state are not checked again (a STOPPED queue drains); a
     * queue that is gone or no longer a leaf throws REJECTED with YARN's "Application killed
     * on recovery …" message.
     */
    public long recover(String queue, String user, List<String> groups, int priority, YarnId applicationId) {
        return submit(queue, user, groups, null, priority, applicationId, true);
    }

    /**
     * Submission with everything the RM knows of it, node-label expressions included (a label
     * the cluster lacks or the queue may not use throws REJECTED with YARN's message; a
     * recovering submission is not checked).
     */
    public long submit(Submission s) {
        return submit(s.queue, s.user, s.groups, s.appName, s.priority, s.applicationId, s.recovering,
                s.nodeLabelExpression, s.amNodeLabelExpression);
    }

    private long submit(String queue, String user, List<String> groups, String appName, int priority,
            YarnId applicationId, boolean recovering) {
        return submit(queue, user, groups, appName, priority, applicationId, recovering, null, null);
    }

    private long submit(String queue, String user, List<String> groups, String appName, int priority,
            YarnId applicationId, final boolean recovering, String nodeLabel, String amNodeLabel) {
        final byte[] q = Utf8.bytes(queue);
        final byte[] u = Utf8.bytes(user);
        final byte[][] g = Utf8.all(groups);
        final byte[] n = appName == null ? null : Utf8.bytes(appName);
        final int p = priority;
        final long ts = applicationId == null ? 0 : applicationId.clusterTimestamp;
        final int seq = applicationId == null ? 0 : applicationId.application;
        // null stays null: an unset expression is not the empty one.
        final byte[] label = nodeLabel == null ? null : Utf8.bytes(nodeLabel);
        final byte[] amLabel = amNodeLabel == null ? null : Utf8.bytes(amNodeLabel);
        return with(e -> Native.appSubmit(e, q, u, g, n, p, ts, seq, recovering, label, amLabel));
    }

    public long submit(String queue, String user) {
        return submit(queue, user, Collections.<String>emptyList(), Capsched.DEFAULT_PRIORITY, null);
    }

    public void addAttempt(final long app, final Resource am, final boolean unmanaged, final boolean keepContainers) {
        run(e -> Native.attemptAdd(e, app, am.memoryMb, am.vcores, unmanaged, keepContainers));
    }

    /**
     * An attempt the RM recovers after a work-preserving restart: it was running, so no AM
     * container is asked for; its containers come back with their NodeManagers
     * ({@link #addRecoveredNode}).
     */
    public void recoverAttempt(final long app, final Resource am, final boolean unmanaged) {
        run(e -> Native.attemptRecover(e, app, am.memoryMb, am.vcores, unmanaged));
    }

    public void removeAttempt(final long app, final boolean keepContainers) {
        run(e -> Native.attemptRemove(e, app, keepContainers));
    }

    public void removeApplication(final long app) {
        run(e -> Native.appRemove(e, app));
    }

    public void moveApplication(final long app, String queue) {
        final byte[] q = Utf8.bytes(queue);
        run(e -> Native.appMove(e, app, q));
    }

    /** Returns the priority in effect (clamped to the cluster's maximum). */
    public int setApplicationPriority(final long app, final int priority) {
        return with(e -> Native.appSetPriority(e, app, priority));
    }

    /** The application with this YARN id; throws UNKNOWN_ID when none. */
    public long findApplication(final YarnId id) {
        return with(e -> Native.appFind(e, id.clusterTimestamp, id.application));
    }

    /** The RM takes the AM container to launch it; null while there is none to take. */
    public ContainerInfo takeAmContainer(final long app) {
        return with(e -> {
            long[] v = Native.amContainerTake(e, app);
            return v == null ? null : new ContainerInfo(v);
        });
    }

    public AppReport applicationReport(final long app) {
        return with(e -> new AppReport(Native.appReport(e, app)));
    }

    /** The AM heartbeat. */
    public AllocateResponse allocate(final long app, AllocateRequest request) {
        final int n = request.asks.size();
        final long[] values = new long[n * 7];
        final byte[][] names = new byte[n][];
        // Label expressions go beside the asks only when one has any (null entries: none).
        byte[][] labels = null;
        for (int i = 0; i < n; i++) {
            String label = request.asks.get(i).nodeLabelExpression;
            if (label == null) continue;
            if (labels == null) labels = new byte[n][];
            labels[i] = Utf8.bytes(label);
        }
        final byte[][] askLabels = labels;
        for (int i = 0; i < n; i++) {
            Ask a = request.asks.get(i);
            values[i * 7] = a.priority;
            values[i * 7 + 1] = a.allocationRequestId;
            values[i * 7 + 2] = a.capability.memoryMb;
            values[i * 7 + 3] = a.capability.vcores;
            values[i * 7 + 4] = a.numContainers;
            values[i * 7 + 5] = a.relaxLocality ? 1 : 0;
            values[i * 7 + 6] = a.executionType;
            names[i] = Utf8.bytes(a.resourceName);
        }
        final long[] releases = new long[request.releases.size()];
        for (int i = 0; i < releases.length; i++) releases[i] = request.releases.get(i);
        final byte[][] add = Utf8.all(request.blacklistAdditions);
        final byte[][] remove = Utf8.all(request.blacklistRemovals);
        final int responseId = request.responseId;
        return with(e -> new AllocateResponse(
                Native.allocate(e, app, responseId, values, names, askLabels, releases, add, remove)));
    }

    // ---- node labels (the RM's label manager) ----

    /**
     * {@code addToCluserNodeLabels}. Throws REFUSED with the label manager's words (labels
     * disabled, a bad name, an existing label's exclusivity changed), nothing added then.
     */
    public void addNodeLabels(List<NodeLabel> labels) {
        final byte[][] names = new byte[labels.size()][];
        final boolean[] exclusive = new boolean[names.length];
        for (int i = 0; i < names.length; i++) {
            names[i] = Utf8.bytes(labels.get(i).name);
            exclusive[i] = labels.get(i).exclusive;
        }
        run(e -> Native.nodeLabelsAdd(e, names, exclusive));
    }

    /**
     * {@code removeFromClusterNodeLabels}: refused (REFUSED) while a queue lists a label; nodes
     * carrying one fall back to the default partition with their usage.
     */
    public void removeNodeLabels(List<String> names) {
        final byte[][] n = Utf8.all(names);
        run(e -> Native.nodeLabelsRemove(e, n));
    }

    /**
     * {@code replaceLabelsOnNode} (the scheduler's NODE_LABELS_UPDATE): each node (a host, or
     * {@code host:port} for one NodeManager) takes its label, null or "" for none, in the map's
     * order. Running containers stay; their usage moves with their node's partition.
     */
    public void replaceLabelsOnNodes(Map<String, String> labels) {
        final byte[][] nodes = new byte[labels.size()][];
        final byte[][] values = new byte[nodes.length][];
        int i = 0;
        for (Map.Entry<String, String> m : labels.entrySet()) {
            nodes[i] = Utf8.bytes(m.getKey());
            values[i] = m.getValue() == null ? null : Utf8.bytes(m.getValue());
            i++;
        }
        run(e -> Native.nodeLabelsReplace(e, nodes, values));
    }

    /** The cluster's labels, in the order they were added. */
    public List<NodeLabel> nodeLabels() {
        return with(e -> {
            Object[] r = Native.nodeLabels(e);
            byte[][] names = (byte[][]) r[0];
            long[] exclusive = (long[]) r[1];
            List<NodeLabel> out = new ArrayList<NodeLabel>(names.length);
            for (int i = 0; i < names.length; i++) out.add(new NodeLabel(Utf8.string(names[i]), exclusive[i] != 0));
            return Collections.unmodifiableList(out);
        });
    }

    /** The node's partition: its label, or "" for the default partition. */
    public String nodePartition(final long node) {
        return with(e -> Utf8.string(Native.nodePartition(e, node)));
    }

    /** A queue's figures in the partition {@code label} ("" the default one). */
    public PartitionUsage queuePartitionUsage(String queue, String label) {
        final byte[] q = Utf8.bytes(queue);
        final byte[] l = Utf8.bytes(label);
        return with(e -> new PartitionUsage(Native.queuePartitionUsage(e, q, l)));
    }

    /**
     * A queue's (full path or unique short name) accessible labels and default label
     * expression, as YARN's {@code QueueInfo} states them: what an RM checks a request's label
     * against before the scheduler sees it. They change only with the configuration.
     */
    public QueueNodeLabels queueNodeLabels(String queue) {
        final byte[] q = Utf8.bytes(queue);
        return with(e -> {
            Object[] r = Native.queueNodeLabels(e, q);
            byte[][] names = (byte[][]) r[0];
            List<String> accessible = new ArrayList<String>(names.length);
            for (byte[] n : names) accessible.add(Utf8.string(n));
            return new QueueNodeLabels(accessible, r[1] == null ? null : Utf8.string((byte[]) r[1]));
        });
    }

    // ---- containers ----

    public ContainerInfo container(final long container) {
        return with(e -> new ContainerInfo(Native.containerGet(e, container)));
    }

    /** The live container with this YARN id; throws UNKNOWN_ID when none. */
    public long findContainer(final YarnId id) {
        return with(e -> Native.containerFind(e, id.clusterTimestamp, id.application, id.attempt, id.containerId));
    }

    public void containerExpired(final long container) {
        run(e -> Native.containerExpired(e, container));
    }

    /** The RM kills a container with its own exit status and diagnostics. */
    public void killContainer(final long container, final int exitStatus, String diagnostics) {
        final byte[] d = Utf8.bytes(diagnostics);
        run(e -> Native.containerKill(e, container, exitStatus, d));
    }

    /** YARN's checkAccess: {@link Capsched#ACL_SUBMIT_APPLICATIONS} or ACL_ADMINISTER_QUEUE. */
    public boolean checkAccess(String user, List<String> groups, final int acl, String queue) {
        final byte[] u = Utf8.bytes(user);
        final byte[][] g = Utf8.all(groups);
        final byte[] q = Utf8.bytes(queue);
        return with(e -> Native.checkAccess(e, u, g, acl, q));
    }

    // ---- the engine ----

    /** With a manual clock: set the time to {@code nowMs}, then tick. Returns containers allocated. */
    public int tick(final long nowMs) {
        return with(e -> Native.engineTick(e, nowMs));
    }

    /**
     * One tick on the engine's own clock (a manual engine on the system clock): expiry, the
     * asynchronous pass when enabled, the preemption round when due. Returns containers
     * allocated.
     */
    public int tick() {
        return tick(-1);
    }

    public int step(final int passes) {
        return with(e -> Native.engineStep(e, passes));
    }

    public void refreshQueues(final Config config) {
        run(e -> config.handle(c -> {
            Native.refreshQueues(e, c);
            return 0L;
        }));
    }

    /**
     * {@code checkAndGetApplicationLifetime} and {@code getMaximumApplicationLifetime}: {the
     * lifetime an application asking for {@code requestedSeconds} gets in {@code queue}, the
     * queue's maximum}, in seconds; ≤ 0 means none.
     */
    public long[] applicationLifetime(String queue, final long requestedSeconds) {
        final byte[] q = Utf8.bytes(queue);
        return with(e -> Native.applicationLifetime(e, q, requestedSeconds));
    }

    /** The RM REST {@code /ws/v1/cluster/scheduler} document, from the live state. */
    public String schedulerJson() {
        return with(e -> Utf8.string(Native.schedulerJson(e)));
    }

    public ClusterInfo clusterInfo() {
        return with(e -> new ClusterInfo(Native.clusterInfo(e)));
    }

    public List<QueueInfo> queues() {
        return with(e -> {
            Object[] r = Native.queues(e);
            byte[][] paths = (byte[][]) r[0];
            long[] v = (long[]) r[1];
            List<QueueInfo> out = new ArrayList<QueueInfo>(paths.length);
            for (int i = 0; i < paths.length; i++) out.add(new QueueInfo(Utf8.string(paths[i]), v, i * 9));
            return Collections.unmodifiableList(out);
        });
    }

    /**
     * Every queue's figures now, root first (each parent before its children), with the
     * figures version they belong to ({@link QueueStatuses#figuresVersion}).
     */
    public QueueStatuses queueStatuses() {
        return with(e -> {
            Object[] r = Native.queueStatuses(e);
            byte[][] paths = (byte[][]) r[0];
            long[] v = (long[]) r[1];
            List<QueueStatus> out = new ArrayList<QueueStatus>(paths.length);
            for (int i = 0; i < paths.length; i++) {
                out.add(new QueueStatus(Utf8.string(paths[i]), v, i * QueueStatus.LONGS));
            }
            return new QueueStatuses(Collections.unmodifiableList(out), v[v.length - 1]);
        });
    }

    /** The users of the leaf `queue` (a path or unique short name) and their figures. */
    public List<UserStatus> queueUsers(String queue) {
        final byte[] q = Utf8.bytes(queue);
        return with(e -> {
            Object[] r = Native.queueUsers(e, q);
            byte[][] names = (byte[][]) r[0];
            long[] v = (long[]) r[1];
            List<UserStatus> out = new ArrayList<UserStatus>(names.length);
            for (int i = 0; i < names.length; i++) {
                out.add(new UserStatus(Utf8.string(names[i]), v, i * UserStatus.LONGS));
            }
            return Collections.unmodifiableList(out);
        });
    }

    /**
     * One user of the leaf `queue`, or the leaf's figures for a user it does not have (nothing
     * used): the headroom a user has as its last container goes.
     */
    public UserStatus queueUser(String queue, final String user) {
        final byte[] q = Utf8.bytes(queue);
        final byte[] u = Utf8.bytes(user);
        return with(e -> new UserStatus(user, Native.queueUser(e, q, u), 0));
    }

    /**
     * The queue figures version as the engine's last call or pass left it, read without a call
     * into the engine: while it stays, {@link #queueStatuses} would answer as it last did.
     */
    public long figuresVersion() {
        return with(e -> Native.figuresVersion(e));
    }

    /** Throws INVARIANT with what is wrong, for hosts' own tests. */
    public void checkInvariants() {
        run(e -> Native.checkInvariants(e));
    }

    private volatile long dropped;

    /**
     * Events the engine dropped so far because its queue was full, as of the last
     * {@link #pollEvents}.
     */
    public long droppedEvents() {
        return dropped;
    }

    /** Up to {@code max} events, oldest first (a Java thread polls: no native thread calls Java). */
    public List<Event> pollEvents(final int max) {
        return with(e -> events(Native.pollEvents(e, max)));
    }

    /** Polled events unpacked (and the dropped count kept). */
    private List<Event> events(long[] v) {
        {
            // EVENT_LONGS per event, the dropped count, then each CONTAINER_PLACED event's
            // container report (PLACED_LONGS: found, then INFO_LONGS).
            int n = 0;
            int placed = 0;
            while (n * Native.EVENT_LONGS + 1 + placed * Native.PLACED_LONGS < v.length) {
                if ((int) v[n * Native.EVENT_LONGS] == Event.CONTAINER_PLACED) placed++;
                n++;
            }
            dropped = v[n * Native.EVENT_LONGS];
            List<Event> out = new ArrayList<Event>(n);
            int details = n * Native.EVENT_LONGS + 1;
            for (int i = 0; i < n; i++) {
                int at = i * Native.EVENT_LONGS;
                ContainerInfo info = null;
                if ((int) v[at] == Event.CONTAINER_PLACED) {
                    if (v[details] != 0) info = new ContainerInfo(v, details + 1);
                    details += Native.PLACED_LONGS;
                }
                out.add(new Event(v, at, info));
            }
            return out;
        }
    }
}
