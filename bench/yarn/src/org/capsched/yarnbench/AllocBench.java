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

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.RMContextImpl;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;

/**
 * capsched's {@code bench alloc}: {@code queues} equal leaf queues under root, {@code apps}
 * applications (one user each, round-robin over the queues) each asking
 * {@code containers / apps} containers of 1 GB / 1 vcore anywhere, {@code nodes} nodes of
 * {@code (containers / nodes + 2) * 2} GB and as many vcores on 40 racks.
 *
 * <p>{@code sync} (default): timed, node updates round-robin over the nodes until every container
 * is allocated, as upstream's TestCapacitySchedulerPerf drives the scheduler.
 *
 * <p>{@code async}: YARN's asynchronous scheduling
 * ({@code yarn.scheduler.capacity.schedule-asynchronously.enable=true}, one thread). In 3.3.6 the
 * scheduler then starts two threads: an AsyncScheduleThread, whose loop is "if the committer's
 * backlog exceeds maximum-pending-backlogs (100) sleep 1 ms, else {@code schedule(cs)}", and the
 * ResourceCommitterService, which takes each proposal off its queue and commits it
 * ({@code tryCommit}) under the scheduler's write lock. {@code schedule(cs)} is one pass: every
 * node once from a random start, {@code allocateContainersToNode(node, false)} (one assignment
 * per node), each proposal handed to the committer; then it sleeps scheduling-interval-ms.
 * The harness stops YARN's AsyncScheduleThread before any node exists and runs that same loop
 * itself, calling the real (package-private) {@code schedule(cs)} by reflection, so that the
 * timed region starts with the first pass and ends with the last commit rather than whenever the
 * thread wakes; the committer is YARN's own thread, running as it does in an RM. Timed: from the
 * first pass until the committer commits the last container.
 */
final class AllocBench {
  private static final int GB = 1024;
  private static final String CS = "yarn.scheduler.capacity.";

  private AllocBench() {
  }

  static String run(int nodes, int apps, int queues, int containers, String mode,
      long intervalMs) throws Exception {
    boolean async;
    switch (mode) {
      case "sync": async = false; break;
      case "async": async = true; break;
      default: throw new IllegalArgumentException("alloc: --mode sync|async, not " + mode);
    }
    Map<String, String> p = new LinkedHashMap<>();
    StringBuilder names = new StringBuilder();
    for (int i = 0; i < queues; i++) {
      names.append(i == 0 ? "" : ",").append("q").append(i);
    }
    p.put(CS + "root.queues", names.toString());
    p.put(CS + "resource-calculator",
        "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
    p.put(CS + "maximum-am-resource-percent", "1");
    p.put(CS + "maximum-applications", "1000000");
    p.put(CS + "per-node-heartbeat.maximum-offswitch-assignments", "100");
    double share = 100.0 / queues;
    for (int i = 0; i < queues; i++) {
      double cap = i + 1 == queues ? 100.0 - share * (queues - 1) : share;
      p.put(CS + "root.q" + i + ".capacity", Double.toString(cap));
      p.put(CS + "root.q" + i + ".user-limit-factor", "100");
    }
    if (async) {
      p.put(CS + "schedule-asynchronously.enable", "true");
      // Not a YARN default: YARN's thread sleeps this long (default 5 ms) after every pass; 0
      // leaves only a Thread.sleep(0) (a yield) there, so that the timed region is the passes
      // themselves, as in capsched's async bench. --interval-ms 5 measures YARN's default.
      p.put(CS + "schedule-asynchronously.scheduling-interval-ms", Long.toString(intervalMs));
      // schedule(cs) skips a node that has not heartbeaten for 2 heartbeat intervals; no NM
      // heartbeats here (set-up alone takes minutes at 50k nodes), so make the interval a day:
      // every node stays schedulable, as capsched's async bench freezes its clock for the same
      // reason. The scheduler uses this interval for nothing else.
      p.put(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, Long.toString(86_400_000L));
    }
    long setupStart = System.nanoTime();
    HeartbeatBench b = async ? new HeartbeatBench(p, CommitClock::new) : new HeartbeatBench(p);
    Async yarnAsync = async ? new Async(b.cs) : null;
    long perNode = (containers / nodes + 2) * 2L;
    HeartbeatBench.BenchNode[] n = new HeartbeatBench.BenchNode[nodes];
    for (int i = 0; i < nodes; i++) {
      n[i] = b.addNode(HeartbeatBench.host(i), "/rack" + (i % 40),
          Resource.newInstance(perNode * GB, (int) perNode));
    }
    int perApp = containers / apps;
    for (int i = 0; i < apps; i++) {
      b.ask(b.submit("q" + (i % queues), "user" + i), perApp);
    }
    long target = (long) perApp * apps;
    double setup = (System.nanoTime() - setupStart) / 1e9;
    if (async) {
      return yarnAsync.run(b, nodes, apps, queues, perApp, target, setup, intervalMs);
    }

    long start = System.nanoTime();
    long updates = 0;
    while (b.tags.total < target) {
      long before = b.tags.total;
      for (int i = 0; i < nodes && b.tags.total < target; i++) {
        b.cs.handle(new NodeUpdateSchedulerEvent(n[i]));
        updates++;
        b.tags.started.clear();
        b.tags.startedOn.clear();
      }
      if (b.tags.total == before) {
        System.err.println("yarn-bench alloc: stalled at " + before + " of " + target);
        break;
      }
    }
    double secs = (System.nanoTime() - start) / 1e9;
    long allocated = b.tags.total;
    Resource used = b.cs.getRootQueue().getQueueResourceUsage().getUsed();
    HeartbeatBench.check(allocated == target, "alloc: " + allocated + " of " + target);
    HeartbeatBench.check(used.getMemorySize() == target * GB, "alloc: root used " + used);
    HeartbeatBench.check(b.liveContainers() == target, "alloc: live containers");
    return String.format(Locale.ROOT,
        "{\"workload\":\"alloc\",\"mode\":\"sync\",\"nodes\":%d,\"apps\":%d,\"queues\":%d,"
            + "\"containers\":%d,\"node_updates\":%d,\"seconds\":%.3f,\"containers_per_sec\":%.1f,"
            + "\"setup_seconds\":%.1f,\"hadoop\":\"%s\",\"java\":\"%s\"}",
        nodes, apps, queues, allocated, updates, secs, allocated / secs, setup,
        org.apache.hadoop.yarn.util.YarnVersionInfo.getVersion(), System.getProperty("java.version"));
  }

  // ---- async --------------------------------------------------------------------------------

  /**
   * Async: containers start (RMContainerImpl's START, which calls addContainer) on YARN's
   * committer thread, so count them atomically and note when the last one was committed.
   */
  static final class CommitClock extends HeartbeatBench.RecordingTagsManager {
    final AtomicLong committed = new AtomicLong();
    volatile long target = Long.MAX_VALUE;
    volatile long lastCommitNanos;

    CommitClock(RMContextImpl ctx) {
      super(ctx);
    }

    @Override
    void record(NodeId nodeId, ContainerId containerId) {
      if (committed.incrementAndGet() == target) {
        lastCommitNanos = System.nanoTime();
      }
    }
  }

  /** YARN 3.3.6's asynchronous scheduling, its scheduling thread played by the harness. */
  static final class Async {
    private final CapacityScheduler cs;
    private final Method schedule;
    private final Thread committer;
    private final long maxPendingBacklogs;

    /**
     * Right after the scheduler started, before any node is added (until then YARN's thread
     * only sleeps 100 ms at a time): stop YARN's AsyncScheduleThread, keep its committer.
     */
    Async(CapacityScheduler cs) throws Exception {
      this.cs = cs;
      schedule = CapacityScheduler.class.getDeclaredMethod("schedule", CapacityScheduler.class);
      schedule.setAccessible(true);
      @SuppressWarnings("unchecked")
      List<Thread> threads = (List<Thread>) field("asyncSchedulerThreads").get(cs);
      HeartbeatBench.check(threads != null && threads.size() == 1,
          "async: expected one AsyncScheduleThread, got " + threads);
      for (Thread t : threads) {
        t.interrupt();
        t.join(10_000);
        HeartbeatBench.check(!t.isAlive(), "async: YARN's AsyncScheduleThread did not stop");
      }
      committer = (Thread) field("resourceCommitterService").get(cs);
      HeartbeatBench.check(committer.isAlive(), "async: ResourceCommitterService not running");
      maxPendingBacklogs = field("asyncMaxPendingBacklogs").getLong(cs);
    }

    private static Field field(String name) throws NoSuchFieldException {
      Field f = CapacityScheduler.class.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    }

    String run(HeartbeatBench b, int nodes, int apps, int queues, int perApp, long target,
        double setup, long intervalMs) throws Exception {
      CommitClock clock = (CommitClock) b.tags;
      HeartbeatBench.check(clock.committed.get() == 0, "async: containers before the first pass");
      clock.target = target;
      CapacitySchedulerMetrics metrics = CapacitySchedulerMetrics.getMetrics();
      long proposalsBefore = metrics.getNumOfAllocates();
      long commitsBefore = metrics.getNumOfCommitSuccess();

      // AsyncScheduleThread.run's loop body, on this thread, until the committer has committed
      // every container; schedule(cs) is YARN's pass (and its sleep of scheduling-interval-ms).
      // CPU time of the two threads over the timed region: how much of it ran in parallel.
      java.lang.management.ThreadMXBean cpu =
          java.lang.management.ManagementFactory.getThreadMXBean();
      long schedCpu0 = cpu.getCurrentThreadCpuTime();
      long commitCpu0 = cpu.getThreadCpuTime(committer.getId());
      long passes = 0;
      long throttled = 0;
      long lastProgress = 0;
      long seen = 0;
      long start = System.nanoTime();
      while (clock.committed.get() < target) {
        if (cs.getAsyncSchedulingPendingBacklogs() > maxPendingBacklogs) {
          Thread.sleep(1);
          throttled++;
        } else {
          schedule.invoke(null, cs);
          passes++;
        }
        long now = clock.committed.get();
        if (now != seen) {
          seen = now;
          lastProgress = passes + throttled;
        } else if (passes + throttled - lastProgress > 10_000) {
          System.err.println("yarn-bench alloc async: stalled at " + now + " of " + target);
          break;
        }
      }
      long loopEnd = System.nanoTime();
      double schedCpu = (cpu.getCurrentThreadCpuTime() - schedCpu0) / 1e9;
      double commitCpu = (cpu.getThreadCpuTime(committer.getId()) - commitCpu0) / 1e9;
      // Untimed: let the committer finish what was proposed (the last pass's surplus proposals,
      // which YARN rejects: their asks are already satisfied), then stop it so that everything
      // it wrote is visible here.
      while (cs.getAsyncSchedulingPendingBacklogs() > 0) {
        Thread.sleep(1);
      }
      // ResourceCommitterService logs its interruption at ERROR; that is this stop, not a fault.
      org.apache.log4j.Logger.getLogger(CapacityScheduler.class).setLevel(org.apache.log4j.Level.OFF);
      committer.interrupt();
      committer.join(10_000);
      HeartbeatBench.check(!committer.isAlive(), "async: the committer did not stop");
      long allocated = clock.committed.get();
      double secs = (clock.lastCommitNanos - start) / 1e9;
      double wall = (loopEnd - start) / 1e9;
      long proposals = metrics.getNumOfAllocates() - proposalsBefore;
      long commits = metrics.getNumOfCommitSuccess() - commitsBefore;

      Resource used = cs.getRootQueue().getQueueResourceUsage().getUsed();
      HeartbeatBench.check(allocated == target, "alloc async: " + allocated + " of " + target);
      HeartbeatBench.check(commits == target, "alloc async: " + commits + " commits");
      HeartbeatBench.check(used.getMemorySize() == target * GB && used.getVirtualCores() == target,
          "alloc async: root used " + used);
      for (int q = 0; q < queues; q++) {
        long expected = (long) perApp * (apps / queues + (q < apps % queues ? 1 : 0));
        Resource u = b.queueUsed("q" + q);
        HeartbeatBench.check(u.getMemorySize() == expected * GB && u.getVirtualCores() == expected,
            "alloc async: q" + q + " used " + u + ", expected " + expected + " GB");
      }
      HeartbeatBench.check(b.liveContainers() == target, "alloc async: live containers");
      return String.format(Locale.ROOT,
          "{\"workload\":\"alloc\",\"mode\":\"async\",\"nodes\":%d,\"apps\":%d,"
              + "\"queues\":%d,\"containers\":%d,\"passes\":%d,\"backlog_waits\":%d,"
              + "\"proposals\":%d,\"rejected\":%d,\"interval_ms\":%d,\"seconds\":%.3f,"
              + "\"containers_per_sec\":%.1f,\"wall_seconds\":%.3f,\"scheduler_cpu_seconds\":%.3f,"
              + "\"committer_cpu_seconds\":%.3f,\"setup_seconds\":%.1f,"
              + "\"hadoop\":\"%s\",\"java\":\"%s\"}",
          nodes, apps, queues, allocated, passes, throttled, proposals, proposals - commits,
          intervalMs, secs, allocated / secs, wall, schedCpu, commitCpu, setup,
          org.apache.hadoop.yarn.util.YarnVersionInfo.getVersion(),
          System.getProperty("java.version"));
    }
  }
}
