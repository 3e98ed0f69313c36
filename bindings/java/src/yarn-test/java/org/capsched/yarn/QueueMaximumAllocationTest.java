package org.capsched.yarn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.junit.Test;

/**
 * A queue's maximum allocation ({@code maximum-allocation-mb} below the cluster's), on the stock
 * CapacityScheduler and on capsched, with the same outcomes: the RM refuses a submission whose AM
 * asks more at once, with YARN's message; an AM registering in the queue is told the queue's
 * maximum (a MapReduce AM kills its job when its tasks ask more); an ask above it is refused with
 * YARN's exception and words, an unmanaged AM's too; and the RM goes on serving.
 */
public class QueueMaximumAllocationTest {
    static CapacitySchedulerConfiguration queues() {
        CapacitySchedulerConfiguration c = SameOutcomesTest.queues("yarn.scheduler.capacity.root.a.maximum-capacity",
                "100", "yarn.scheduler.capacity.root.a.maximum-allocation-mb", "2048");
        c.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, 4096);
        return c;
    }

    /** What a failed call said: its exception's class and message, the RM's time stamps out. */
    static String refusal(Exception e) {
        Throwable t = e;
        // MockRM's submitter wraps the RM's exception; the AM service's comes as it is.
        while (t.getCause() != null && !(t instanceof org.apache.hadoop.yarn.exceptions.YarnException)) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": "
                + String.valueOf(t.getMessage()).replaceAll("_\\d{13}_", "_TS_");
    }

    static List<String> run(String scheduler) throws Exception {
        MockRM rm = SameOutcomesTest.start(scheduler, queues());
        List<String> out = new ArrayList<String>();
        try {
            MockNM nm = rm.registerNode("localhost:1234", 8 * 1024, 8);
            // A managed AM of 3072 MB in a: refused at submission.
            try {
                SameOutcomesTest.submit(rm, "a", "alice", 3072);
                out.add("3072 MB AM in a: accepted");
            } catch (Exception e) {
                out.add("3072 MB AM in a: " + refusal(e));
            }
            // In b (the cluster's maximum) it is accepted.
            RMApp inB = SameOutcomesTest.submit(rm, "b", "alice", 3072);
            out.add("3072 MB AM in b: " + inB.getState());

            // An AM in a is told a's maximum, and an ask above it is refused.
            RMApp app = SameOutcomesTest.submit(rm, "a", "alice", 1024);
            MockAM am = MockRM.launchAM(app, rm, nm);
            Resource max = am.registerAppAttempt().getMaximumResourceCapability();
            out.add("a's AM is told " + max.getMemorySize() + " MB, " + max.getVirtualCores() + " vcores");
            try {
                am.allocate("*", 3072, 1, new ArrayList<ContainerId>());
                out.add("3072 MB ask in a: accepted");
            } catch (Exception e) {
                out.add("3072 MB ask in a: " + refusal(e));
            }
            out.add("2048 MB asks in a: " + askAndCount(rm, am, nm, 2048, 2));

            // An unmanaged AM is not checked at submission; its ask is.
            RMApp unmanaged = MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder
                    .createWithMemory(1024, rm).withQueue("a").withUser("bob").withUnmanagedAM(true).build());
            MockAM uam = MockRM.launchUAM(unmanaged, rm, nm);
            uam.registerAppAttempt();
            try {
                uam.allocate("*", 3072, 1, new ArrayList<ContainerId>());
                out.add("unmanaged 3072 MB ask in a: accepted");
            } catch (Exception e) {
                out.add("unmanaged 3072 MB ask in a: " + refusal(e));
            }

            // The RM serves on: a is still a's, the application finishes.
            out.add("scheduler's maximum for a: " + rm.getResourceScheduler().getMaximumResourceCapability("a"));
            out.add("scheduler's maximum for root.a: "
                    + rm.getResourceScheduler().getMaximumResourceCapability("root.a"));
            out.add("scheduler's maximum for root: " + rm.getResourceScheduler().getMaximumResourceCapability("root"));
            out.add("scheduler's maximum for nope: " + rm.getResourceScheduler().getMaximumResourceCapability("nope"));
            am.unregisterAppAttempt();
            nm.nodeHeartbeat(app.getCurrentAppAttempt().getAppAttemptId(), 1,
                    org.apache.hadoop.yarn.api.records.ContainerState.COMPLETE);
            rm.waitForState(app.getApplicationId(), RMAppState.FINISHED);
            out.add("a's application " + app.getState() + ", RM " + rm.getServiceState());
            assertEquals(Service.STATE.STARTED, rm.getServiceState());
            return out;
        } finally {
            rm.stop();
        }
    }

    /** Asks for `n` containers of `mb`, heartbeats until they come (a bound), counts them. */
    static int askAndCount(MockRM rm, MockAM am, MockNM nm, int mb, int n) throws Exception {
        return SameOutcomesTest.askAndRun(rm, am, nm, mb, n, 4).size();
    }

    @Test
    public void aQueuesMaximumAllocationIsReportedAndEnforcedAsTheStockSchedulerDoes() throws Exception {
        List<String> stock = run(SameOutcomesTest.STOCK);
        List<String> ours = run(SameOutcomesTest.CAPSCHED);
        assertEquals(stock, ours);
        String all = stock.toString();
        assertTrue(all, all.contains("3072 MB AM in a: InvalidResourceRequestException"));
        assertTrue(all, all.contains("maximum allowed allocation=<memory:2048"));
        assertTrue(all, all.contains("a's AM is told 2048 MB"));
        assertTrue(all, all.contains("unmanaged 3072 MB ask in a: InvalidResourceRequestException"));
    }
}
