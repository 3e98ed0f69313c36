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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;

/**
 * An AM's pending tasks and the asks they make, as MapReduce's RMContainerRequestor keeps them:
 * each map task prefers three hosts (its input split's replicas, here chosen at random), so
 * the AM asks for each host, each of their racks and ANY, with the count of pending tasks that
 * prefer it. A container given on a host is matched to a task preferring that host, else its
 * rack, else any; that task's hosts, racks and ANY count one less, and the changed asks go in
 * the next allocate. With {@code locality} off every task asks for ANY alone.
 */
final class TaskAsks {
    private static final Priority MAP_PRIORITY = Priority.newInstance(20);

    private static final class Task {
        final String[] hosts;
        final String[] racks;
        boolean assigned;

        Task(String[] hosts, String[] racks) {
            this.hosts = hosts;
            this.racks = racks;
        }
    }

    private final Resource resource;
    private final Set<Task> pending = new LinkedHashSet<Task>();
    private final Map<String, ArrayDeque<Task>> byHost = new HashMap<String, ArrayDeque<Task>>();
    private final Map<String, ArrayDeque<Task>> byRack = new HashMap<String, ArrayDeque<Task>>();
    private final Map<String, Integer> counts = new HashMap<String, Integer>();
    private final Set<String> changed = new LinkedHashSet<String>();

    TaskAsks(int tasks, Resource resource, boolean locality, List<SimNode> nodes, Random random) {
        this.resource = resource;
        for (int i = 0; i < tasks; i++) {
            String[] hosts = new String[0];
            String[] racks = new String[0];
            if (locality && nodes.size() >= 3) {
                Set<SimNode> picked = new LinkedHashSet<SimNode>();
                while (picked.size() < 3) picked.add(nodes.get(random.nextInt(nodes.size())));
                hosts = new String[3];
                Set<String> rackSet = new LinkedHashSet<String>();
                int k = 0;
                for (SimNode n : picked) {
                    hosts[k++] = n.id.getHost();
                    rackSet.add(n.rack());
                }
                racks = rackSet.toArray(new String[0]);
            }
            Task t = new Task(hosts, racks);
            pending.add(t);
            for (String h : hosts) add(byHost, h, t, 1);
            for (String r : racks) add(byRack, r, t, 1);
        }
        bump(ResourceRequest.ANY, tasks);
    }

    private void add(Map<String, ArrayDeque<Task>> index, String name, Task t, int n) {
        index.computeIfAbsent(name, k -> new ArrayDeque<Task>()).add(t);
        bump(name, n);
    }

    private void bump(String name, int delta) {
        counts.put(name, counts.getOrDefault(name, 0) + delta);
        changed.add(name);
    }

    int pendingCount() {
        return pending.size();
    }

    /** A container given on {@code host} in {@code rack}: the task it runs, taken off. */
    boolean assign(String host, String rack) {
        Task t = first(byHost.get(host));
        if (t == null) t = first(byRack.get(rack));
        if (t == null) t = pending.isEmpty() ? null : pending.iterator().next();
        if (t == null) return false;
        t.assigned = true;
        pending.remove(t);
        for (String h : t.hosts) bump(h, -1);
        for (String r : t.racks) bump(r, -1);
        bump(ResourceRequest.ANY, -1);
        return true;
    }

    private static Task first(ArrayDeque<Task> q) {
        if (q == null) return null;
        while (!q.isEmpty() && q.peekFirst().assigned) q.pollFirst();
        return q.peekFirst();
    }

    /**
     * No more tasks are to run: every ask is set to 0 (sent in the next allocate) and a
     * container given from now on matches none.
     */
    void cancelAll() {
        pending.clear();
        byHost.clear();
        byRack.clear();
        for (String name : counts.keySet()) {
            counts.put(name, 0);
            changed.add(name);
        }
    }

    /** The asks that changed since the last call, with their new totals. */
    List<ResourceRequest> changedAsks() {
        List<ResourceRequest> out = new ArrayList<ResourceRequest>(changed.size());
        for (String name : changed) {
            out.add(ResourceRequest.newInstance(MAP_PRIORITY, name, resource, Math.max(0, counts.get(name))));
        }
        changed.clear();
        return out;
    }
}
