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

import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;

/**
 * One simulated application master, as a MapReduce AM behaves towards the RM: it registers
 * through ApplicationMasterService, asks for all its tasks at once ({@link TaskAsks}: 1 GB, 1
 * vcore, priority 20, on their preferred hosts and racks), heartbeats allocate every second with
 * the asks that changed, launches each container it gets on its node (which runs it for the task time),
 * releases any beyond its tasks, counts completions, and unregisters when every task is done.
 */
final class SimApp {
    private final RmBench bench;
    final int tasks;
    private final long taskMs;

    private UserGroupInformation ugi;
    private ApplicationAttemptId attempt;
    private ContainerId amContainer;
    private ScheduledFuture<?> loop;

    // Touched only by the AM's heartbeat (one call at a time: the loop is at a fixed rate on one
    // pool, and a run never overlaps the next of the same task).
    private int responseId;
    private int completed;
    private final TaskAsks asks;
    private final List<ContainerId> toRelease = new ArrayList<ContainerId>();
    private final java.util.Set<ContainerId> launchedTasks = new java.util.HashSet<ContainerId>();
    private boolean finished;

    SimApp(RmBench bench, int tasks, long taskMs, TaskAsks asks) {
        this.bench = bench;
        this.tasks = tasks;
        this.taskMs = taskMs;
        this.asks = asks;
    }

    /** The AM container has "launched" (the RM's AMLauncher): the AM registers. */
    void launched(ApplicationAttemptId attemptId, ContainerId am, Token<AMRMTokenIdentifier> token) throws Exception {
        attempt = attemptId;
        amContainer = am;
        ugi = UserGroupInformation.createRemoteUser(attemptId.toString());
        ugi.addTokenIdentifier(token.decodeIdentifier());
        final ApplicationMasterProtocol ams = bench.rm().getApplicationMasterService();
        final RegisterApplicationMasterRequest req = RegisterApplicationMasterRequest.newInstance("localhost", 1000, "");
        Stats.INSTANCE.timeRmCall(new PrivilegedExceptionAction<Object>() {
            @Override
            public Object run() throws Exception {
                return ugi.doAs(new PrivilegedExceptionAction<Object>() {
                    @Override
                    public Object run() throws Exception {
                        return ams.registerApplicationMaster(req);
                    }
                });
            }
        });
    }

    ContainerId amContainer() {
        return amContainer;
    }

    void setLoop(ScheduledFuture<?> f) {
        loop = f;
    }

    /** One AM heartbeat. */
    void heartbeat() throws Exception {
        if (finished) return;
        List<ResourceRequest> ask = asks.changedAsks();
        List<ContainerId> release = new ArrayList<ContainerId>(toRelease);
        toRelease.clear();
        AllocateRequest req = AllocateRequest.newInstance(responseId, 0.5f, ask, release, null);
        AllocateResponse r = Stats.INSTANCE.timeAllocate(ugi, bench.rm().getApplicationMasterService(), req);
        responseId = r.getResponseId();
        long now = System.currentTimeMillis();
        for (Container c : r.getAllocatedContainers()) {
            SimNode node = bench.node(c.getNodeId());
            if (node == null || !asks.assign(node.id.getHost(), node.rack())) {
                toRelease.add(c.getId()); // more than asked for, as an AM's ask can cross an answer
                continue;
            }
            launchedTasks.add(c.getId());
            bench.allocated(c);
            node.launch(c.getId(), now + taskMs);
        }
        for (ContainerStatus s : r.getCompletedContainersStatuses()) {
            if (!launchedTasks.remove(s.getContainerId())) continue; // the AM's, or one released
            completed++;
            Stats.INSTANCE.completed.incrementAndGet();
        }
        if (completed >= tasks) finish();
    }

    private void finish() throws Exception {
        finished = true;
        if (loop != null) loop.cancel(false);
        final ApplicationMasterProtocol ams = bench.rm().getApplicationMasterService();
        final FinishApplicationMasterRequest req =
                FinishApplicationMasterRequest.newInstance(FinalApplicationStatus.SUCCEEDED, "", "");
        Stats.INSTANCE.timeRmCall(new PrivilegedExceptionAction<Object>() {
            @Override
            public Object run() throws Exception {
                return ugi.doAs(new PrivilegedExceptionAction<Object>() {
                    @Override
                    public Object run() throws Exception {
                        return ams.finishApplicationMaster(req);
                    }
                });
            }
        });
        bench.appFinished(this);
    }

    ApplicationAttemptId attempt() {
        return attempt;
    }
}
