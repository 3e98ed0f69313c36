package org.capsched.yarn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.Test;

/**
 * The RM's other threads read the scheduler while its event thread changes it: the RM's
 * dispatcher asks an attempt's queue for its QueueInfo (the attempt's usage report, at every
 * AM container allocation), the web and client services ask for queues. Each read must find
 * the queue, whatever heartbeats do meanwhile: a QueueInfo of null there is a
 * NullPointerException on the RM's dispatcher, and the attempt's transition is lost (seen in
 * the RM benchmark at 5,000 NMs: one application never finished).
 */
public class ConcurrentReadersTest {
    @Test
    public void aQueuesInfoIsFoundWhileHeartbeatsMoveItsFigures() throws Exception {
        MockRM rm = SameOutcomesTest.start(SameOutcomesTest.CAPSCHED, SameOutcomesTest.queues());
        final CapschedResourceScheduler scheduler = (CapschedResourceScheduler) rm.getResourceScheduler();
        final AtomicBoolean done = new AtomicBoolean();
        final AtomicLong reads = new AtomicLong();
        final AtomicReference<String> wrong = new AtomicReference<String>();
        MockNM nm = rm.registerNode("127.0.0.1:1234", 64 * 1024, 64);
        RMApp app = SameOutcomesTest.submit(rm, "b", "alice", 1024);
        MockAM am = MockRM.launchAndRegisterAM(app, rm, nm);
        // The queue as the RM's dispatcher reaches it: through the attempt.
        final org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue queue =
                scheduler.getApplicationAttempt(am.getApplicationAttemptId()).getQueue();
        Thread reader = new Thread(new Runnable() {
            @Override
            public void run() {
                while (!done.get() && wrong.get() == null) {
                    try {
                        QueueInfo q = queue.getQueueInfo(false, false);
                        if (q == null) wrong.set("b's QueueInfo was null");
                        QueueInfo root = scheduler.getQueueInfo("root", true, true);
                        if (root.getChildQueues().size() != 2) wrong.set("root had " + root.getChildQueues());
                    } catch (Exception e) {
                        wrong.set(e.toString());
                    }
                    reads.incrementAndGet();
                }
            }
        }, "reader");
        try {
            reader.start();
            // Each round places and finishes containers: b's figures move at every heartbeat.
            for (int round = 0; round < 40 && wrong.get() == null; round++) {
                List<Container> got = SameOutcomesTest.askAndRun(rm, am, nm, 1024, 4, 3);
                for (Container c : got) {
                    nm.nodeHeartbeat(app.getCurrentAppAttempt().getAppAttemptId(), c.getId().getContainerId(),
                            ContainerState.COMPLETE);
                }
                rm.drainEvents();
                am.allocate(new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>());
            }
        } finally {
            done.set(true);
            reader.join();
            rm.stop();
        }
        assertEquals("every read found the queue", null, wrong.get());
        assertTrue("the reader ran", reads.get() > 0);
    }
}
