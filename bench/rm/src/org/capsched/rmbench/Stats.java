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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.PrivilegedExceptionAction;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatResponse;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceTrackerService;

/**
 * What one run measures, shared by the harness's threads and the timed scheduler subclasses
 * (which the RM makes by reflection, so they find it here). CPU spent inside the RM's calls on
 * the harness's threads (a heartbeat through ResourceTrackerService, an allocate through
 * ApplicationMasterService) is the RM's: in a real RM those run on its IPC handlers.
 */
final class Stats {
    static final Stats INSTANCE = new Stats();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    final Latency heartbeat = new Latency();
    final Latency allocate = new Latency();
    final Latency schedulerAllocate = new Latency();
    final Latency nodeUpdate = new Latency();
    /** CPU inside the RM's calls made from the harness's threads. */
    final AtomicLong rmCallCpuNs = new AtomicLong();
    /** CPU inside the scheduler's allocate (a part of rmCallCpuNs). */
    final AtomicLong schedulerAllocateCpuNs = new AtomicLong();
    /** CPU of the scheduler's handle() on the RM's scheduler event thread. */
    final AtomicLong schedulerHandleCpuNs = new AtomicLong();

    final AtomicLong allocated = new AtomicLong();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong appsFinished = new AtomicLong();
    final AtomicLong schedulerEnqueued = new AtomicLong();
    final AtomicLong schedulerHandled = new AtomicLong();
    final AtomicLong nodeTroubles = new AtomicLong();
    final ConcurrentLinkedQueue<String> troubles = new ConcurrentLinkedQueue<String>();

    /** Set while the measured window runs: the timed schedulers record only then. */
    volatile boolean measuring;

    static long cpu() {
        return THREADS.getCurrentThreadCpuTime();
    }

    NodeHeartbeatResponse timeHeartbeat(ResourceTrackerService tracker, NodeHeartbeatRequest req) throws Exception {
        long c0 = cpu(), t0 = System.nanoTime();
        try {
            return tracker.nodeHeartbeat(req);
        } finally {
            if (measuring) {
                heartbeat.record(System.nanoTime() - t0);
                rmCallCpuNs.addAndGet(cpu() - c0);
            }
        }
    }

    AllocateResponse timeAllocate(UserGroupInformation ugi, final ApplicationMasterProtocol ams,
            final AllocateRequest req) throws Exception {
        long c0 = cpu(), t0 = System.nanoTime();
        try {
            return ugi.doAs(new PrivilegedExceptionAction<AllocateResponse>() {
                @Override
                public AllocateResponse run() throws Exception {
                    return ams.allocate(req);
                }
            });
        } finally {
            if (measuring) {
                allocate.record(System.nanoTime() - t0);
                rmCallCpuNs.addAndGet(cpu() - c0);
            }
        }
    }

    /** Any other RM call from the harness (registrations, submissions): its CPU is the RM's. */
    <T> T timeRmCall(PrivilegedExceptionAction<T> call) throws Exception {
        long c0 = cpu();
        try {
            return call.run();
        } finally {
            if (measuring) rmCallCpuNs.addAndGet(cpu() - c0);
        }
    }

    /**
     * Set once the run is over, before the harness's pools are shut down: a call they
     * interrupt then (an InterruptedException in the RM's dispatcher) is the harness's doing.
     */
    volatile boolean stopping;

    /** A failure, with where it was thrown (the first frames), for the report. */
    void trouble(String what, Throwable e) {
        if (stopping) return;
        StringBuilder b = new StringBuilder(what).append(": ").append(e);
        StackTraceElement[] st = e.getStackTrace();
        for (int i = 0; i < Math.min(8, st.length); i++) b.append(" at ").append(st[i]);
        nodeTrouble(b.toString());
    }

    void nodeTrouble(String what) {
        if (nodeTroubles.incrementAndGet() <= 5) troubles.add(what);
    }

    long schedulerQueueLength() {
        return schedulerEnqueued.get() - schedulerHandled.get();
    }
}
