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
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatResponse;
import org.apache.hadoop.yarn.server.api.protocolrecords.RegisterNodeManagerRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.RegisterNodeManagerResponse;
import org.apache.hadoop.yarn.server.api.records.MasterKey;
import org.apache.hadoop.yarn.server.api.records.NodeAction;
import org.apache.hadoop.yarn.server.api.records.NodeHealthStatus;
import org.apache.hadoop.yarn.server.api.records.NodeStatus;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceTrackerService;
import org.apache.hadoop.yarn.util.Records;

/**
 * One simulated NodeManager, as SLS's NMSimulator plays one: it registers through the RM's
 * ResourceTrackerService and heartbeats through it, reporting each container an AM launched on
 * it as RUNNING until its task time is up, then COMPLETE once; the AM container runs until its
 * attempt's cleanup. The RM's real path follows: RMNodeImpl's status transition, the
 * NODE_UPDATE to the scheduler, the RMContainers' LAUNCHED and FINISHED.
 *
 * <p>Its state is touched by its heartbeat (one pool thread at a time) and by AMs launching
 * containers on it, so every access holds its monitor; the RM call itself does not.
 */
final class SimNode {
    final NodeId id;
    private final String rack;
    private final Resource capability;
    private MasterKey containerKey;
    private MasterKey nmKey;
    private int responseId;
    private boolean shutdown;

    /** Running task containers and when each finishes (ms, the bench clock). */
    private final Map<ContainerId, Long> running = new HashMap<ContainerId, Long>();
    /** AM containers: running until cleanup. */
    private final List<ContainerId> ams = new ArrayList<ContainerId>();
    private final List<ContainerId> done = new ArrayList<ContainerId>();

    SimNode(String host, String rack, Resource capability) {
        this.id = NodeId.newInstance(host, 8041);
        this.rack = rack;
        this.capability = capability;
    }

    void register(ResourceTrackerService tracker) throws Exception {
        RegisterNodeManagerRequest req = Records.newRecord(RegisterNodeManagerRequest.class);
        req.setNodeId(id);
        req.setResource(capability);
        req.setHttpPort(8042);
        req.setNMVersion(org.apache.hadoop.util.VersionInfo.getVersion());
        RegisterNodeManagerResponse r = tracker.registerNodeManager(req);
        if (r.getNodeAction() != NodeAction.NORMAL) {
            throw new IllegalStateException("node " + id + " not taken: " + r.getDiagnosticsMessage());
        }
        synchronized (this) {
            containerKey = r.getContainerTokenMasterKey();
            nmKey = r.getNMTokenMasterKey();
        }
    }

    String rack() {
        return rack;
    }

    synchronized void launch(ContainerId c, long endsAtMs) {
        running.put(c, endsAtMs);
    }

    synchronized void launchAm(ContainerId c) {
        ams.add(c);
    }

    /** The RM's AMLauncher CLEANUP: the AM container's process has exited. */
    synchronized void cleanupAm(ContainerId c) {
        if (ams.remove(c)) done.add(c);
    }

    /**
     * One heartbeat: what runs and what finished, then the RM's answer taken in. A {@code
     * --check} run's ledger (null otherwise) hears of each completion once the RM has taken it.
     */
    void heartbeat(ResourceTrackerService tracker, long nowMs, Stats stats, Ledger ledger) throws Exception {
        List<ContainerId> reported = new ArrayList<ContainerId>();
        NodeHeartbeatRequest req = Records.newRecord(NodeHeartbeatRequest.class);
        NodeStatus ns = Records.newRecord(NodeStatus.class);
        List<ContainerStatus> statuses = new ArrayList<ContainerStatus>();
        synchronized (this) {
            if (shutdown) return;
            for (Iterator<Map.Entry<ContainerId, Long>> it = running.entrySet().iterator(); it.hasNext();) {
                Map.Entry<ContainerId, Long> e = it.next();
                if (e.getValue() <= nowMs) {
                    done.add(e.getKey());
                    it.remove();
                } else {
                    statuses.add(ContainerStatus.newInstance(e.getKey(), ContainerState.RUNNING, "", 0));
                }
            }
            for (ContainerId c : ams) statuses.add(ContainerStatus.newInstance(c, ContainerState.RUNNING, "", 0));
            for (ContainerId c : done) {
                statuses.add(ContainerStatus.newInstance(c, ContainerState.COMPLETE, "", ContainerExitStatus.SUCCESS));
            }
            reported.addAll(done);
            done.clear();
            ns.setResponseId(responseId);
            req.setLastKnownContainerTokenMasterKey(containerKey);
            req.setLastKnownNMTokenMasterKey(nmKey);
        }
        ns.setNodeId(id);
        ns.setContainersStatuses(statuses);
        ns.setKeepAliveApplications(new ArrayList<ApplicationId>());
        ns.setNodeHealthStatus(NodeHealthStatus.newInstance(true, "", nowMs));
        req.setNodeStatus(ns);
        NodeHeartbeatResponse r = stats.timeHeartbeat(tracker, req);
        if (ledger != null) {
            for (ContainerId c : reported) ledger.reported(c);
        }
        synchronized (this) {
            responseId = r.getResponseId();
            if (r.getContainerTokenMasterKey() != null) containerKey = r.getContainerTokenMasterKey();
            if (r.getNMTokenMasterKey() != null) nmKey = r.getNMTokenMasterKey();
            for (ContainerId c : r.getContainersToCleanup()) {
                // Killed by the RM (a finished application's leftovers): it stops at once.
                if (running.remove(c) != null || ams.remove(c)) done.add(c);
            }
            if (r.getNodeAction() == NodeAction.SHUTDOWN || r.getNodeAction() == NodeAction.RESYNC) {
                if (!shutdown) stats.nodeTrouble(id + ": " + r.getNodeAction() + " " + r.getDiagnosticsMessage());
                shutdown = r.getNodeAction() == NodeAction.SHUTDOWN;
            }
        }
    }

    synchronized int runningCount() {
        return running.size() + ams.size();
    }

    /** What runs here (tasks and AMs), into `out` with this node's id. */
    synchronized void running(Map<ContainerId, NodeId> out) {
        for (ContainerId c : running.keySet()) out.put(c, id);
        for (ContainerId c : ams) out.put(c, id);
    }

    /** What finished here and is not reported yet, into `out` with this node's id. */
    synchronized void unreported(Map<ContainerId, NodeId> out) {
        for (ContainerId c : done) out.put(c, id);
    }

    /** Whether a container of one of `apps` still runs here, or has yet to be reported finished. */
    synchronized boolean holdsAny(java.util.Set<ApplicationId> apps) {
        for (ContainerId c : running.keySet()) {
            if (apps.contains(c.getApplicationAttemptId().getApplicationId())) return true;
        }
        for (ContainerId c : ams) {
            if (apps.contains(c.getApplicationAttemptId().getApplicationId())) return true;
        }
        for (ContainerId c : done) {
            if (apps.contains(c.getApplicationAttemptId().getApplicationId())) return true;
        }
        return false;
    }
}
