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
package org.capsched.rmbench;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;

/**
 * Watches, while a {@code --check} run is under load, for a scheduler node whose allocated
 * resource is above its total. The RM keeps a container it killed (its application's end, a
 * preemption) on its node until the NM reports it finished (SchedulerNode.releaseContainer,
 * YARN-4148), so a scheduler that places into that room before the report overcommits the
 * RM's node, and the NM runs more than its size until it has stopped the killed one. The
 * stock scheduler places from the node's unallocated resource and never does; what is seen is
 * counted and reported with the run, twice a second, by node.
 */
final class RoomWatch {
    private final AbstractYarnScheduler<?, ?> scheduler;
    private final List<NodeId> nodes;
    private final long startMs = System.currentTimeMillis();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-room-watch");
        t.setDaemon(true);
        return t;
    });
    /** Node samples found above their total, and the first few of them. */
    final AtomicLong over = new AtomicLong();
    final ConcurrentLinkedQueue<String> examples = new ConcurrentLinkedQueue<String>();

    RoomWatch(AbstractYarnScheduler<?, ?> scheduler, List<NodeId> nodes) {
        this.scheduler = scheduler;
        this.nodes = nodes;
    }

    void start() {
        timer.scheduleAtFixedRate(this::sample, 500, 500, TimeUnit.MILLISECONDS);
    }

    void stop() {
        timer.shutdownNow();
    }

    private void sample() {
        for (NodeId id : nodes) {
            SchedulerNode n = scheduler.getSchedulerNode(id);
            if (n == null) continue;
            long allocated = n.getAllocatedResource().getMemorySize();
            long total = n.getTotalResource().getMemorySize();
            if (allocated <= total) continue;
            if (over.incrementAndGet() <= 5) {
                examples.add(String.format(java.util.Locale.ROOT, "%.1f s: %s has %d MB allocated of %d (%d containers)",
                        (System.currentTimeMillis() - startMs) / 1000.0, id, allocated, total, n.getNumContainers()));
            }
        }
    }
}
