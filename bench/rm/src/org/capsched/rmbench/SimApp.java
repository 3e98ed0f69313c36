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
import java.util.Random;
import java.util.concurrent.ScheduledFuture;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
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
 *
 * <p>In a {@code --check} run it also tells the run's {@link Ledger} what it was handed,
 * released and told completed; it can be told to {@link #drain} (cancel its asks, give back
 * what comes after, and go quiet with its launched tasks running) and then to {@link #finishUp}
 * (unregister once those have completed); its process exits when it unregisters (the NM
 * reports its container finished, as a real AM's does); and when its application is killed
 * it stops at its next call, giving up what it had yet to release.
 */
final class SimApp {
    private final RmBench bench;
    final ApplicationId id;
    final int tasks;
    private final long taskMsMin;
    private final long taskMs;
    private final Random random;

    private UserGroupInformation ugi;
    private volatile ApplicationAttemptId attempt;
    private ContainerId amContainer;
    private volatile ScheduledFuture<?> loop;

    // Touched only by the AM's heartbeat (one call at a time: the loop is at a fixed rate on one
    // pool, and a run never overlaps the next of the same task).
    private int responseId;
    private int completed;
    private int launched;
    private final TaskAsks asks;
    private final List<ContainerId> toRelease = new ArrayList<ContainerId>();
    private final java.util.Set<ContainerId> launchedTasks = new java.util.HashSet<ContainerId>();
    private volatile boolean finished;
    private boolean cancelSent;

    // Set by the check run's thread, read by the heartbeat.
    private volatile boolean draining;
    private volatile boolean finishingUp;
    private volatile boolean quiet;
    private volatile boolean stopped;

    SimApp(RmBench bench, ApplicationId id, int tasks, long taskMsMin, long taskMs, TaskAsks asks, Random random) {
        this.bench = bench;
        this.id = id;
        this.tasks = tasks;
        this.taskMsMin = taskMsMin;
        this.taskMs = taskMs;
        this.asks = asks;
        this.random = random;
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
        if (stopped) f.cancel(false);
    }

    /** No more tasks: cancel the asks at the next heartbeat and give back what comes after. */
    void drain() {
        draining = true;
    }

    /** Unregister once every launched task has completed (after {@link #drain}). */
    void finishUp() {
        finishingUp = true;
    }

    /** Registered, asks cancelled, and an allocate since then brought nothing and left nothing to give back. */
    boolean quiet() {
        return quiet;
    }

    boolean launched() {
        return attempt != null;
    }

    /**
     * Makes no more calls: unregistered, or stopped by its application's kill. An AM of a killed
     * application calls on (and may launch what an allocate brought) until the RM refuses it.
     */
    boolean done() {
        return finished || stopped;
    }

    /** One AM heartbeat. */
    void heartbeat() throws Exception {
        if (finished || stopped) return;
        Ledger ledger = bench.ledger();
        boolean cancelling = draining && !cancelSent;
        if (cancelling) asks.cancelAll();
        List<ResourceRequest> ask = asks.changedAsks();
        List<ContainerId> release = new ArrayList<ContainerId>(toRelease);
        toRelease.clear();
        AllocateRequest req = AllocateRequest.newInstance(responseId, 0.5f, ask, release, null);
        AllocateResponse r;
        try {
            r = Stats.INSTANCE.timeAllocate(ugi, bench.rm().getApplicationMasterService(), req);
        } catch (Exception e) {
            if (!bench.killed(id)) throw e;
            stop(release);
            return;
        }
        if (r.getAMCommand() != null) {
            if (!bench.killed(id)) throw new IllegalStateException("the RM told " + attempt + " " + r.getAMCommand());
            stop(release);
            return;
        }
        if (ledger != null) {
            for (ContainerId c : release) ledger.released(c);
        }
        if (cancelling) cancelSent = true;
        responseId = r.getResponseId();
        long now = System.currentTimeMillis();
        for (Container c : r.getAllocatedContainers()) {
            if (ledger != null) ledger.handed(c.getId(), id);
            SimNode node = bench.node(c.getNodeId());
            if (node == null || !asks.assign(node.id.getHost(), node.rack())) {
                toRelease.add(c.getId()); // more than asked for, as an AM's ask can cross an answer
                continue;
            }
            launchedTasks.add(c.getId());
            launched++;
            bench.allocated(c);
            node.launch(c.getId(), now + taskTime());
        }
        for (ContainerStatus s : r.getCompletedContainersStatuses()) {
            if (ledger != null) ledger.completionTold(s.getContainerId(), id, bench.killed(id));
            if (!launchedTasks.remove(s.getContainerId())) continue; // the AM's, or one released
            completed++;
            Stats.INSTANCE.completed.incrementAndGet();
        }
        if (cancelSent && !cancelling && r.getAllocatedContainers().isEmpty() && toRelease.isEmpty()) quiet = true;
        if (draining ? finishingUp && completed >= launched : completed >= tasks) finish();
    }

    private long taskTime() {
        return taskMsMin >= taskMs ? taskMs : taskMsMin + (long) (random.nextDouble() * (taskMs - taskMsMin));
    }

    private void finish() throws Exception {
        finished = true;
        if (loop != null) loop.cancel(false);
        if (!toRelease.isEmpty()) {
            // What the last answer brought beyond the tasks goes back before the AM leaves, so
            // no container of its is left for the RM to end with the attempt.
            List<ContainerId> release = new ArrayList<ContainerId>(toRelease);
            toRelease.clear();
            try {
                Stats.INSTANCE.timeAllocate(ugi, bench.rm().getApplicationMasterService(),
                        AllocateRequest.newInstance(responseId, 1f, new ArrayList<ResourceRequest>(), release, null));
            } catch (Exception e) {
                if (!bench.killed(id)) throw e;
                stop(release);
                return;
            }
            Ledger ledger = bench.ledger();
            if (ledger != null) {
                for (ContainerId c : release) ledger.released(c);
            }
        }
        final ApplicationMasterProtocol ams = bench.rm().getApplicationMasterService();
        final FinishApplicationMasterRequest req =
                FinishApplicationMasterRequest.newInstance(FinalApplicationStatus.SUCCEEDED, "", "");
        try {
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
        } catch (Exception e) {
            if (!bench.killed(id)) throw e;
            stop(new ArrayList<ContainerId>());
            return;
        }
        bench.appFinished(this);
    }

    /** The RM refused the AM's registration, its application killed: it makes no calls. */
    void refused() {
        stop(new ArrayList<ContainerId>());
    }

    /** Killed: no more calls; what was yet to be released is the RM's to end with the attempt. */
    private void stop(List<ContainerId> unsent) {
        stopped = true;
        ScheduledFuture<?> f = loop;
        if (f != null) f.cancel(false);
        Ledger ledger = bench.ledger();
        if (ledger == null) return;
        for (ContainerId c : unsent) ledger.abandoned(c);
        for (ContainerId c : toRelease) ledger.abandoned(c);
        toRelease.clear();
    }

    ApplicationAttemptId attempt() {
        return attempt;
    }
}
