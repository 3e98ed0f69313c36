/*
 * Copyright the capsched authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file
 * except in compliance with the License. You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software distributed under the
 * License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND,
 * either express or implied. See the License for the specific language governing permissions
 * and limitations under the License.
 */
package org.capsched.yarnbench;

import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.ResourceUtilization;
import org.apache.hadoop.yarn.conf.ConfigurationProvider;
import org.apache.hadoop.yarn.conf.ConfigurationProviderFactory;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.event.Dispatcher;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatResponse;
import org.apache.hadoop.yarn.server.api.records.OpportunisticContainersStatus;
import org.apache.hadoop.yarn.server.resourcemanager.RMContextImpl;
import org.apache.hadoop.yarn.server.resourcemanager.ahs.RMApplicationHistoryWriter;
import org.apache.hadoop.yarn.server.resourcemanager.metrics.NoOpSystemMetricPublisher;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.placement.PlacementManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.AllocationExpirationInfo;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.ContainerAllocationExpirer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.UpdatedContainerInfo;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.AllocationTagsManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.MemoryPlacementConstraintManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.security.AMRMTokenSecretManager;
import org.apache.hadoop.yarn.server.resourcemanager.security.ClientToAMTokenSecretManagerInRM;
import org.apache.hadoop.yarn.server.resourcemanager.security.NMTokenSecretManagerInRM;
import org.apache.hadoop.yarn.server.resourcemanager.security.RMContainerTokenSecretManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;

/**
 * Drives Apache Hadoop's CapacityScheduler in-process with the workloads of capsched's
 * {@code bench heartbeat} (empty and churn, synchronous node updates) and {@code bench alloc}
 * (synchronous node updates, or with {@code --mode async} YARN's asynchronous scheduling: see
 * AllocBench).
 *
 * <p>The scheduler, its queues, users, applications' scheduling state, nodes and containers are
 * the real YARN classes. What is stubbed is the ResourceManager around it, as upstream's
 * TestCapacitySchedulerPerf stubs it: the RMApp/RMAppAttempt objects (here dynamic proxies that
 * answer the few questions the scheduler asks), the RMNode (a small class below that hands the
 * scheduler the NodeManager's container reports), and the RM's event dispatcher (events the
 * scheduler sends to other RM components are counted and dropped).
 *
 * <p>Usage: {@code HeartbeatBench empty|churn|alloc [--updates N] [--warmup N]
 * [--no-launch-reports] [--nodes N --apps N --queues N --containers N [--mode sync|async]
 * [--interval-ms N]]}. Prints one JSON line.
 */
public final class HeartbeatBench {
  private static final int GB = 1024;
  static final boolean DEBUG = Boolean.getBoolean("yarnbench.debug");
  private static final String CS = "yarn.scheduler.capacity.";

  // ---- the RM around the scheduler ------------------------------------------------------------

  /** The RM's dispatcher: counts what the scheduler sends to the rest of the RM, drops it. */
  static final class CountingDispatcher implements Dispatcher {
    final Map<String, long[]> counts = new HashMap<>();
    private final EventHandler<Event> handler = event -> {
      String k = event.getType().toString();
      long[] c = counts.get(k);
      if (c == null) {
        counts.put(k, c = new long[1]);
      }
      c[0]++;
    };

    @Override
    public EventHandler<Event> getEventHandler() {
      return handler;
    }

    @SuppressWarnings("rawtypes")
    @Override
    public void register(Class<? extends Enum> eventType, EventHandler h) {
    }

    long count(String type) {
      long[] c = counts.get(type);
      return c == null ? 0 : c[0];
    }
  }

  /**
   * The real AllocationTagsManager; it also tells the harness which containers the scheduler
   * has just allocated (RMContainerImpl calls addContainer when a container starts).
   */
  static class RecordingTagsManager extends AllocationTagsManager {
    final ArrayList<ContainerId> started = new ArrayList<>();
    final ArrayList<NodeId> startedOn = new ArrayList<>();
    long total;

    RecordingTagsManager(RMContextImpl ctx) {
      super(ctx);
    }

    @Override
    public void addContainer(NodeId nodeId, ContainerId containerId, Set<String> tags) {
      record(nodeId, containerId);
      super.addContainer(nodeId, containerId, tags);
    }

    /**
     * Single-threaded harnesses: remember the container for the harness to drain. The async
     * alloc bench overrides this (its containers start on YARN's committer thread).
     */
    void record(NodeId nodeId, ContainerId containerId) {
      started.add(containerId);
      startedOn.add(nodeId);
      total++;
    }
  }

  /** A NodeManager as the RM sees it; the harness queues its container reports. */
  static final class BenchNode implements RMNode {
    final NodeId id;
    final int index;
    final String rack;
    final Resource capability;
    final Node node;
    final ArrayList<UpdatedContainerInfo> reports = new ArrayList<>();
    private final ResourceUtilization zero = ResourceUtilization.newInstance(0, 0, 0f);
    private long untracked;

    BenchNode(int index, String host, String rack, Resource capability) {
      this.index = index;
      this.id = NodeId.newInstance(host, 8041);
      this.rack = rack;
      this.capability = capability;
      this.node = new NodeBase(host, rack);
    }

    @Override public NodeId getNodeID() { return id; }
    @Override public String getHostName() { return id.getHost(); }
    @Override public int getCommandPort() { return id.getPort(); }
    @Override public int getHttpPort() { return 8042; }
    @Override public String getNodeAddress() { return id.toString(); }
    @Override public String getHttpAddress() { return id.getHost() + ":8042"; }
    @Override public String getHealthReport() { return ""; }
    @Override public long getLastHealthReportTime() { return 0; }
    @Override public String getNodeManagerVersion() { return "3.3.6"; }
    @Override public Resource getTotalCapability() { return capability; }
    @Override public boolean isUpdatedCapability() { return false; }
    @Override public void resetUpdatedCapability() { }
    @Override public ResourceUtilization getAggregatedContainersUtilization() { return zero; }
    @Override public ResourceUtilization getNodeUtilization() { return zero; }
    @Override public Resource getPhysicalResource() { return null; }
    @Override public String getRackName() { return rack; }
    @Override public Node getNode() { return node; }
    @Override public NodeState getState() { return NodeState.RUNNING; }
    @Override public List<ContainerId> getContainersToCleanUp() { return Collections.emptyList(); }
    @Override public List<ApplicationId> getAppsToCleanup() { return Collections.emptyList(); }
    @Override public List<ApplicationId> getRunningApps() { return Collections.emptyList(); }
    @Override public void setAndUpdateNodeHeartbeatResponse(NodeHeartbeatResponse r) { }
    @Override public NodeHeartbeatResponse getLastNodeHeartBeatResponse() { return null; }
    @Override public void resetLastNodeHeartBeatResponse() { }

    @Override
    public List<UpdatedContainerInfo> pullContainerUpdates() {
      if (reports.isEmpty()) {
        return Collections.emptyList();
      }
      List<UpdatedContainerInfo> out = new ArrayList<>(reports);
      reports.clear();
      return out;
    }

    @Override public Set<String> getNodeLabels() { return RMNodeLabelsManager.EMPTY_STRING_SET; }
    @Override public List<Container> pullNewlyIncreasedContainers() { return Collections.emptyList(); }
    @Override public OpportunisticContainersStatus getOpportunisticContainersStatus() { return null; }
    @Override public long getUntrackedTimeStamp() { return untracked; }
    @Override public void setUntrackedTimeStamp(long t) { untracked = t; }
    @Override public Integer getDecommissioningTimeout() { return null; }
    @Override public Map<String, Long> getAllocationTagsWithCount() { return null; }
    @Override public org.apache.hadoop.yarn.server.resourcemanager.RMContext getRMContext() { return null; }
    @Override public Set<org.apache.hadoop.yarn.api.records.NodeAttribute> getAllNodeAttributes() {
      return Collections.emptySet();
    }
    @Override
    public long calculateHeartBeatInterval(long d, long min, long max, float up, float down) {
      return d;
    }
  }

  /** An interface proxy answering the named getters, with Mockito-like defaults otherwise. */
  static <T> T stub(Class<T> type, Map<String, Object> answers) {
    Object p = Proxy.newProxyInstance(HeartbeatBench.class.getClassLoader(), new Class<?>[] {type},
        (proxy, m, a) -> {
          String n = m.getName();
          if (answers.containsKey(n)) {
            return answers.get(n);
          }
          switch (n) {
            case "hashCode": return System.identityHashCode(proxy);
            case "equals": return proxy == a[0];
            case "toString": return type.getSimpleName() + answers.get("getApplicationId");
            default: break;
          }
          Class<?> r = m.getReturnType();
          if (r == boolean.class) return false;
          if (r == int.class) return 0;
          if (r == long.class) return 0L;
          if (r == float.class) return 0f;
          if (r == List.class) return Collections.emptyList();
          if (r == Set.class) return Collections.emptySet();
          if (r == Map.class) return Collections.emptyMap();
          return null;
        });
    return type.cast(p);
  }

  // ---- the harness -----------------------------------------------------------------------------

  final CountingDispatcher dispatcher = new CountingDispatcher();
  final YarnConfiguration conf;
  final RMContextImpl ctx;
  final RecordingTagsManager tags;
  final ContainerAllocationExpirer expirer;
  final CapacityScheduler cs;
  final List<BenchNode> nodes = new ArrayList<>();
  final Map<NodeId, BenchNode> nodeById = new HashMap<>();
  final List<ApplicationAttemptId> attempts = new ArrayList<>();
  private int nextApp = 1;

  HeartbeatBench(Map<String, String> csProps) throws Exception {
    this(csProps, RecordingTagsManager::new);
  }

  HeartbeatBench(Map<String, String> csProps,
      java.util.function.Function<RMContextImpl, RecordingTagsManager> tagsManager)
      throws Exception {
    conf = new YarnConfiguration();
    for (Map.Entry<String, String> e : csProps.entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    expirer = new ContainerAllocationExpirer(dispatcher);
    RMContainerTokenSecretManager containerTokens = new RMContainerTokenSecretManager(conf);
    containerTokens.rollMasterKey();
    NMTokenSecretManagerInRM nmTokens = new NMTokenSecretManagerInRM(conf);
    nmTokens.rollMasterKey();
    ctx = new RMContextImpl(dispatcher, expirer, null, null, null,
        new AMRMTokenSecretManager(conf, null), containerTokens, nmTokens,
        new ClientToAMTokenSecretManagerInRM());
    ctx.setYarnConfiguration(conf);
    ConfigurationProvider provider = ConfigurationProviderFactory.getConfigurationProvider(conf);
    provider.init(conf);
    ctx.setConfigurationProvider(provider);
    RMNodeLabelsManager labels = new RMNodeLabelsManager();
    labels.setRMContext(ctx);
    labels.init(conf);
    ctx.setNodeLabelManager(labels);
    ctx.setSystemMetricsPublisher(new NoOpSystemMetricPublisher());
    ctx.setRMApplicationHistoryWriter(new RMApplicationHistoryWriter());
    tags = tagsManager.apply(ctx);
    ctx.setAllocationTagsManager(tags);
    ctx.setPlacementConstraintManager(new MemoryPlacementConstraintManager());
    ctx.setQueuePlacementManager(new PlacementManager());
    cs = new CapacityScheduler();
    cs.setConf(conf);
    cs.setRMContext(ctx);
    ctx.setScheduler(cs);
    cs.init(conf);
    cs.start();
  }

  /**
   * Node i's host name: an IPv4 literal, so that minting container tokens (the AM pulling its
   * containers) needs no name resolution.
   */
  static String host(int i) {
    int k = i + 1;
    return "127." + (k >> 16 & 255) + "." + (k >> 8 & 255) + "." + (k & 255);
  }

  BenchNode addNode(String host, String rack, Resource capability) {
    BenchNode n = new BenchNode(nodes.size(), host, rack, capability);
    nodes.add(n);
    nodeById.put(n.id, n);
    cs.handle(new NodeAddedSchedulerEvent(n));
    return n;
  }

  /** Submits an unmanaged-AM application (as capsched's bench does) and its first attempt. */
  ApplicationAttemptId submit(String queue, String user) {
    ApplicationId appId = ApplicationId.newInstance(1_000_000L, nextApp++);
    ApplicationAttemptId attemptId = ApplicationAttemptId.newInstance(appId, 1);
    ApplicationSubmissionContext sub = ApplicationSubmissionContext.newInstance(appId, "bench",
        queue, Priority.newInstance(0), null, true, false, 1, null);
    Map<String, Object> a = new HashMap<>();
    a.put("getAppAttemptId", attemptId);
    a.put("getSubmissionContext", sub);
    a.put("getRMAppAttemptMetrics", new RMAppAttemptMetrics(attemptId, ctx));
    RMAppAttempt attempt = stub(RMAppAttempt.class, a);
    Map<String, Object> p = new HashMap<>();
    p.put("getApplicationId", appId);
    p.put("getApplicationSubmissionContext", sub);
    p.put("getCurrentAppAttempt", attempt);
    p.put("getUser", user);
    p.put("getQueue", queue);
    p.put("getApplicationSchedulingEnvs", new HashMap<String, String>());
    ctx.getRMApps().put(appId, stub(RMApp.class, p));
    cs.handle(new AppAddedSchedulerEvent(appId, queue, user));
    cs.handle(new AppAttemptAddedSchedulerEvent(attemptId, false));
    attempts.add(attemptId);
    return attemptId;
  }

  /** The AM's ask: n containers of 1 GB / 1 vcore at priority 1, anywhere. */
  void ask(ApplicationAttemptId attempt, int n) {
    ResourceRequest rr = ResourceRequest.newInstance(Priority.newInstance(1), ResourceRequest.ANY,
        Resource.newInstance(GB, 1), n, true);
    cs.allocate(attempt, Collections.singletonList(rr), null, Collections.emptyList(), null, null,
        new ContainerUpdates());
  }

  /**
   * What the AM's next heartbeat does with a new container: acquire it (ALLOCATED to
   * ACQUIRED; the RM's ApplicationMasterService would also mint its token).
   */
  void acquire(ContainerId id) {
    RMContainer c = cs.getRMContainer(id);
    c.handle(new RMContainerEvent(id, RMContainerEventType.ACQUIRED));
  }

  static ContainerStatus running(ContainerId id) {
    return ContainerStatus.newInstance(id, ContainerState.RUNNING, "", 0);
  }

  static ContainerStatus completed(ContainerId id) {
    return ContainerStatus.newInstance(id, ContainerState.COMPLETE, "", 0);
  }

  Resource queueUsed(String queue) {
    CSQueue q = cs.getQueue(queue);
    return q.getQueueResourceUsage().getUsed();
  }

  long liveContainers() {
    long n = 0;
    for (ApplicationAttemptId a : attempts) {
      FiCaSchedulerApp app = cs.getApplicationAttempt(a);
      n += app.getLiveContainers().size();
    }
    return n;
  }

  static void check(boolean ok, String what) {
    if (!ok) {
      System.err.println("yarn-bench: CHECK FAILED: " + what);
      System.exit(2);
    }
  }

  // ---- heartbeat: empty and churn -------------------------------------------------------------

  static Map<String, String> heartbeatConf(String ulf) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(CS + "root.queues", "default");
    p.put(CS + "root.default.capacity", "100");
    p.put(CS + "root.default.user-limit-factor", ulf);
    p.put(CS + "maximum-am-resource-percent", "1");
    p.put(CS + "resource-calculator",
        "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
    return p;
  }

  static String heartbeat(boolean churn, int warmup, int updates, boolean launchReports)
      throws Exception {
    // Set-up: the queue with a user limit high enough to hand each of the 101 apps (one user
    // each) its 3 containers; then the admin lowers user-limit-factor to 0.005 (refreshQueues),
    // which caps every user at 2 GB, and every app asks for 1e9 more.
    HeartbeatBench b = new HeartbeatBench(heartbeatConf("100"));
    BenchNode[] n = {
      b.addNode(host(0), "/rack0", Resource.newInstance(200 * GB, 200)),
      b.addNode(host(1), "/rack0", Resource.newInstance(200 * GB, 200)),
    };
    final int apps = 101;
    for (int i = 0; i < apps; i++) {
      b.ask(b.submit("default", "user" + i), 3);
    }
    // Each node update allocates (at most) one off-switch container; alternate the nodes.
    List<ArrayDeque<ContainerId>> fifo = List.of(new ArrayDeque<>(), new ArrayDeque<>());
    for (int i = 0; b.tags.total < 3 * apps; i++) {
      check(i < 100 * apps, "set-up: the 303 containers were not allocated");
      b.cs.handle(new NodeUpdateSchedulerEvent(n[i % 2]));
      b.drainStarted(fifo, true);
    }
    // The NMs report the containers running.
    for (BenchNode node : n) {
      b.deliverLaunched(node);
      b.cs.handle(new NodeUpdateSchedulerEvent(node));
    }
    for (ApplicationAttemptId a : b.attempts) {
      FiCaSchedulerApp app = b.cs.getApplicationAttempt(a);
      check(app.getLiveContainers().size() == 3, "set-up: an app does not hold 3 containers");
      boolean on0 = false;
      boolean on1 = false;
      for (RMContainer c : app.getLiveContainers()) {
        check(c.getState() == RMContainerState.RUNNING, "set-up: container not RUNNING");
        on0 |= c.getAllocatedNode().equals(n[0].id);
        on1 |= c.getAllocatedNode().equals(n[1].id);
      }
      check(on0 && on1, "set-up: an app's containers are not on both nodes");
    }
    b.cs.reinitialize(withUlf(b.conf, "0.005"), b.ctx);
    for (ApplicationAttemptId a : b.attempts) {
      b.ask(a, 1_000_000_000);
    }
    Resource before = b.queueUsed("default");
    check(before.getMemorySize() == 3L * apps * GB, "set-up: queue used " + before);
    FiCaSchedulerApp app0 = b.cs.getApplicationAttempt(b.attempts.get(0));
    Resource limit = ((org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.LeafQueue)
        b.cs.getQueue("default")).getUser("user0").getUserResourceLimit();
    check(limit.getMemorySize() == 2 * GB, "set-up: user limit " + limit + ", expected 2 GB");
    long allocBefore = b.tags.total;

    // The measured loop. Per update: the node's report (in churn, its oldest running container
    // completed, exit 0, plus -- unless --no-launch-reports -- the containers allocated on it
    // by its previous update, now running), the scheduler's node update (timed), then,
    // untimed, the AM acquiring the new container.
    long timedNanos = 0;
    long wallStart = 0;
    long allocated = 0;
    int total = warmup + updates;
    for (int i = 0; i < total; i++) {
      if (i == warmup) {
        timedNanos = 0;
        allocated = 0;
        wallStart = System.nanoTime();
      }
      BenchNode node = n[i % 2];
      if (churn) {
        List<ContainerStatus> launched = launchReports ? b.takeLaunched(node) : Collections.emptyList();
        node.reports.add(new UpdatedContainerInfo(launched,
            Collections.singletonList(completed(fifo.get(node.index).pollFirst())),
            Collections.emptyList()));
      }
      if (DEBUG && i == Integer.getInteger("yarnbench.trace", -1)) {
        org.apache.log4j.Logger.getLogger("org.apache.hadoop.yarn.server.resourcemanager.scheduler")
            .setLevel(org.apache.log4j.Level.DEBUG);
      }
      long t0 = System.nanoTime();
      b.cs.handle(new NodeUpdateSchedulerEvent(node));
      timedNanos += System.nanoTime() - t0;
      allocated += b.drainStarted(fifo, launchReports);
      if (DEBUG && (i + 1) % 1000 == 0) {
        System.err.println("update " + (i + 1) + ": allocated " + b.tags.total + ", used "
            + b.queueUsed("default") + ", finished " + b.dispatcher.count("CONTAINER_FINISHED")
            + ", events " + b.dispatcher.counts.keySet());
      }
    }
    double wall = (System.nanoTime() - wallStart) / 1e9;
    double secs = timedNanos / 1e9;

    // Checks: nothing leaked, the work was the intended one.
    Resource used = b.queueUsed("default");
    long live = b.liveContainers();
    long finished = b.dispatcher.count("CONTAINER_FINISHED");
    if (churn) {
      check(allocated >= updates - 2L * apps && allocated <= updates,
          "churn: " + allocated + " allocations in " + updates + " updates");
      check(finished == total, "churn: " + finished + " containers finished, expected " + total);
      // Every update completes one container. YARN's user limit here is <2048 MB, 1 vcore>
      // (maxUserLimit = multiplyAndRoundDown(<400 GB, 400>, 0.005f) = <2047 MB, 1 vcore>:
      // the float factor makes 400 x 0.005 round down to 1), so a user's first completion
      // (3 GB -> 2 GB, still over the limit under DRC) is not replaced; from then on each
      // completion (2 -> 1 GB) is replaced (1 -> 2 GB). Nothing leaks: the queue's usage is
      // exactly the containers held, 3 GB x 101 plus what was allocated minus what completed.
      long expected = 3L * apps + (b.tags.total - allocBefore) - finished;
      check(used.getMemorySize() == expected * GB && used.getVirtualCores() == expected,
          "churn: queue used " + used + ", expected " + expected + " GB");
      check(live == expected, "churn: live containers " + live + ", expected " + expected);
      check(expected >= 2L * apps, "churn: queue used " + used + " below the users' limits");
    } else {
      check(b.tags.total == allocBefore, "empty: " + (b.tags.total - allocBefore) + " allocated");
      check(used.equals(before), "empty: queue used changed " + before + " -> " + used);
      check(finished == 0, "empty: containers finished");
    }
    // How the users' holdings ended up: GB held -> number of users.
    java.util.TreeMap<Long, Integer> holdings = new java.util.TreeMap<>();
    for (ApplicationAttemptId a : b.attempts) {
      holdings.merge((long) b.cs.getApplicationAttempt(a).getLiveContainers().size(), 1,
          Integer::sum);
    }
    StringBuilder h = new StringBuilder("{");
    holdings.forEach((gb, users) -> h.append(h.length() > 1 ? "," : "").append('"').append(gb)
        .append("\":").append(users));
    h.append('}');
    return String.format(Locale.ROOT,
        "{\"workload\":\"%s\",\"updates\":%d,\"warmup\":%d,\"seconds\":%.6f,"
            + "\"updates_per_sec\":%.1f,\"micros_per_update\":%.3f,\"allocated\":%d,"
            + "\"wall_seconds\":%.3f,\"launch_reports\":%b,\"queue_used_mb\":%d,"
            + "\"queue_used_vcores\":%d,\"live_containers\":%d,\"user_limit_mb\":%d,"
            + "\"users_by_gb_held\":%s,"
            + "\"hadoop\":\"%s\",\"java\":\"%s\"}",
        churn ? "churn" : "empty", updates, warmup, secs, updates / secs, secs * 1e6 / updates,
        allocated, wall, churn && launchReports, used.getMemorySize(), used.getVirtualCores(),
        live, limit.getMemorySize(), h, org.apache.hadoop.yarn.util.YarnVersionInfo.getVersion(),
        System.getProperty("java.version"));
  }

  static Configuration withUlf(Configuration base, String ulf) {
    Configuration c = new YarnConfiguration(base);
    c.set(CS + "root.default.user-limit-factor", ulf);
    return c;
  }

  // Containers allocated by the last update: appended to their node's FIFO and acquired by
  // their AM; with launch reports, the node reports them running in its next update.
  private final Map<NodeId, List<ContainerStatus>> launched = new HashMap<>();

  int drainStarted(List<ArrayDeque<ContainerId>> fifo, boolean launchReports) {
    int k = tags.started.size();
    for (int j = 0; j < k; j++) {
      ContainerId id = tags.started.get(j);
      NodeId on = tags.startedOn.get(j);
      if (fifo != null) {
        fifo.get(nodeById.get(on).index).addLast(id);
      }
      acquire(id);
      // RMNodeImpl, on the NM's report that the container runs, stops its allocation expiry
      // (and, with launch reports, hands the scheduler the report).
      expirer.unregister(new AllocationExpirationInfo(id));
      if (launchReports) {
        launched.computeIfAbsent(on, x -> new ArrayList<>()).add(running(id));
      }
    }
    tags.started.clear();
    tags.startedOn.clear();
    return k;
  }

  List<ContainerStatus> takeLaunched(BenchNode node) {
    List<ContainerStatus> l = launched.remove(node.id);
    return l == null ? Collections.emptyList() : l;
  }

  void deliverLaunched(BenchNode node) {
    node.reports.add(new UpdatedContainerInfo(takeLaunched(node), Collections.emptyList(),
        Collections.emptyList()));
  }

  // ---- main ------------------------------------------------------------------------------------

  public static void main(String[] args) throws Exception {
    // Hadoop logs through slf4j to log4j 1.x (reload4j); unconfigured, its root logger is at
    // DEBUG. Run at WARN, as TestCapacitySchedulerPerf does while it measures.
    org.apache.log4j.BasicConfigurator.configure();
    org.apache.log4j.Logger.getRootLogger().setLevel(org.apache.log4j.Level.WARN);
    if (args.length < 1) {
      System.err.println("usage: HeartbeatBench empty|churn|alloc [--updates N] [--warmup N] "
          + "[--no-launch-reports] [--nodes N --apps N --queues N --containers N "
          + "[--mode sync|async] [--interval-ms N]]");
      System.exit(1);
    }
    String workload = args[0];
    Map<String, String> opt = new HashMap<>();
    boolean launchReports = true;
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--no-launch-reports")) {
        launchReports = false;
      } else if (args[i].startsWith("--") && i + 1 < args.length) {
        opt.put(args[i].substring(2), args[++i]);
      } else {
        System.err.println("yarn-bench: unknown argument " + args[i]);
        System.exit(1);
      }
    }
    int updates = Integer.parseInt(opt.getOrDefault("updates", "2000000"));
    int warmup = Integer.parseInt(opt.getOrDefault("warmup", "200000"));
    String out;
    switch (workload) {
      case "empty": out = heartbeat(false, warmup, updates, false); break;
      case "churn": out = heartbeat(true, warmup, updates, launchReports); break;
      case "alloc":
        out = AllocBench.run(
            Integer.parseInt(opt.getOrDefault("nodes", "50000")),
            Integer.parseInt(opt.getOrDefault("apps", "10000")),
            Integer.parseInt(opt.getOrDefault("queues", "500")),
            Integer.parseInt(opt.getOrDefault("containers", "500000")),
            opt.getOrDefault("mode", "sync"),
            Long.parseLong(opt.getOrDefault("interval-ms", "0")));
        break;
      default:
        System.err.println("yarn-bench: unknown workload " + workload);
        System.exit(1);
        return;
    }
    System.out.println(out);
    System.exit(0);
  }
}
