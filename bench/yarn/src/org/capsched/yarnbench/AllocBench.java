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

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;

/**
 * capsched's {@code bench alloc}: {@code queues} equal leaf queues under root, {@code apps}
 * applications (one user each, round-robin over the queues) each asking
 * {@code containers / apps} containers of 1 GB / 1 vcore anywhere, {@code nodes} nodes of
 * {@code (containers / nodes + 2) * 2} GB and as many vcores on 40 racks. Timed: node updates,
 * round-robin over the nodes, until every container is allocated.
 */
final class AllocBench {
  private static final int GB = 1024;
  private static final String CS = "yarn.scheduler.capacity.";

  private AllocBench() {
  }

  static String run(int nodes, int apps, int queues, int containers) throws Exception {
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
    long setupStart = System.nanoTime();
    HeartbeatBench b = new HeartbeatBench(p);
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
        "{\"workload\":\"alloc\",\"nodes\":%d,\"apps\":%d,\"queues\":%d,\"containers\":%d,"
            + "\"node_updates\":%d,\"seconds\":%.3f,\"containers_per_sec\":%.1f,"
            + "\"setup_seconds\":%.1f,\"hadoop\":\"%s\",\"java\":\"%s\"}",
        nodes, apps, queues, allocated, updates, secs, allocated / secs, setup,
        org.apache.hadoop.yarn.util.YarnVersionInfo.getVersion(), System.getProperty("java.version"));
  }
}
