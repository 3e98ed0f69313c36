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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;

/**
 * The ResourceManager's own account of what runs, as its scheduler keeps it for the rest of the
 * RM (the same for the stock CapacityScheduler and for capsched's plug-in): each application's
 * live RMContainers, each SchedulerNode's containers and allocated resource, and the root
 * QueueMetrics. Read with the RM quiet; see {@link Accounts} for what must agree.
 */
final class RmView {
    /** A live RMContainer of an attempt. */
    static final class Live {
        final ApplicationId app;
        final NodeId node;
        final long memoryMb;
        final long vcores;

        Live(ApplicationId app, RMContainer c) {
            this.app = app;
            this.node = c.getAllocatedNode();
            Resource r = c.getAllocatedResource();
            this.memoryMb = r.getMemorySize();
            this.vcores = r.getVirtualCores();
        }
    }

    /** A scheduler node's own figures and the containers it lists. */
    static final class Node {
        final int numContainers;
        final long allocatedMb;
        final long allocatedVcores;
        final long totalMb;
        final long totalVcores;
        final List<ContainerId> running = new ArrayList<ContainerId>();
        final ContainerId reserved;

        Node(SchedulerNode n) {
            numContainers = n.getNumContainers();
            allocatedMb = n.getAllocatedResource().getMemorySize();
            allocatedVcores = n.getAllocatedResource().getVirtualCores();
            totalMb = n.getTotalResource().getMemorySize();
            totalVcores = n.getTotalResource().getVirtualCores();
            for (RMContainer c : n.getCopiedListOfRunningContainers()) running.add(c.getContainerId());
            RMContainer r = n.getReservedContainer();
            reserved = r == null ? null : r.getContainerId();
        }
    }

    /** Every attempt's live containers; a container two attempts list is in {@link #twice}. */
    final Map<ContainerId, Live> live = new HashMap<ContainerId, Live>();
    final List<String> twice = new ArrayList<String>();
    /** The live count each application's current attempt gives. */
    final Map<ApplicationId, Integer> perApp = new HashMap<ApplicationId, Integer>();
    /** Each current attempt's consumption (its live containers and reservations), in MB. */
    final Map<ApplicationId, Long> consumptionMb = new HashMap<ApplicationId, Long>();
    final Map<ContainerId, ApplicationId> reserved = new HashMap<ContainerId, ApplicationId>();
    final Map<NodeId, Node> nodes = new HashMap<NodeId, Node>();
    final int applications;
    final long allocatedContainers;
    final long allocatedMb;
    final long allocatedVcores;
    final long reservedContainers;
    final long pendingContainers;
    final long aggregateAllocated;
    final long aggregateReleased;

    RmView(AbstractYarnScheduler<?, ?> scheduler, Iterable<NodeId> nodeIds) {
        Map<ApplicationId, ? extends SchedulerApplication<?>> apps = scheduler.getSchedulerApplications();
        applications = apps.size();
        for (Map.Entry<ApplicationId, ? extends SchedulerApplication<?>> e : apps.entrySet()) {
            SchedulerApplicationAttempt attempt = e.getValue().getCurrentAppAttempt();
            if (attempt == null) continue;
            int n = 0;
            for (RMContainer c : attempt.getLiveContainers()) {
                n++;
                Live before = live.put(c.getContainerId(), new Live(e.getKey(), c));
                if (before != null) twice.add(c.getContainerId() + " is live in " + before.app + " and " + e.getKey());
            }
            perApp.put(e.getKey(), n);
            consumptionMb.put(e.getKey(), attempt.getCurrentConsumption().getMemorySize());
            for (RMContainer c : attempt.getReservedContainers()) reserved.put(c.getContainerId(), e.getKey());
        }
        for (NodeId id : nodeIds) {
            SchedulerNode n = scheduler.getSchedulerNode(id);
            if (n != null) nodes.put(id, new Node(n));
        }
        QueueMetrics root = scheduler.getRootQueueMetrics();
        allocatedContainers = root.getAllocatedContainers();
        allocatedMb = root.getAllocatedMB();
        allocatedVcores = root.getAllocatedVirtualCores();
        reservedContainers = root.getReservedContainers();
        pendingContainers = root.getPendingContainers();
        aggregateAllocated = root.getAggregateAllocatedContainers();
        aggregateReleased = root.getAggegatedReleasedContainers(); // sic, Hadoop's name
    }
}
