package org.capsched.yarn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.junit.Test;

/**
 * Scenarios from Hadoop's own RM tests, run on a MockRM with the stock CapacityScheduler and
 * again with CapschedResourceScheduler: the outcomes an RM user sees (containers allocated, to
 * which application, queue limits, the AM limit, completions, application states) must be the
 * same.
 */
public class SameOutcomesTest {
    static final String CAPSCHED = CapschedResourceScheduler.class.getName();
    static final String STOCK = CapacityScheduler.class.getName();

    static CapacitySchedulerConfiguration queues(String... pairs) {
        CapacitySchedulerConfiguration c = new CapacitySchedulerConfiguration();
        c.set("yarn.scheduler.capacity.root.queues", "a,b");
        c.set("yarn.scheduler.capacity.root.a.capacity", "30");
        c.set("yarn.scheduler.capacity.root.a.maximum-capacity", "30");
        c.set("yarn.scheduler.capacity.root.b.capacity", "70");
        for (int i = 0; i + 1 < pairs.length; i += 2) c.set(pairs[i], pairs[i + 1]);
        return c;
    }

    static MockRM start(String scheduler, CapacitySchedulerConfiguration queues) {
        YarnConfiguration conf = new YarnConfiguration(queues);
        conf.set(YarnConfiguration.RM_SCHEDULER, scheduler);
        MockRM rm = new MockRM(conf);
        rm.start();
        return rm;
    }

    static RMApp submit(MockRM rm, String queue, String user, int amMb) throws Exception {
        return MockRMAppSubmitter.submit(rm,
                MockRMAppSubmissionData.Builder.createWithMemory(amMb, rm).withQueue(queue).withUser(user).build());
    }

    /** A heartbeat, and every event it causes handled (the RM's dispatcher drained). */
    static void beat(MockRM rm, MockNM nm) throws Exception {
        nm.nodeHeartbeat(true);
        rm.drainEvents();
    }

    /** Asks for `n` containers of `mb`, heartbeats `beats` times, returns what the AM got. */
    static List<Container> askAndRun(MockRM rm, MockAM am, MockNM nm, int mb, int n, int beats) throws Exception {
        am.allocate("*", mb, n, new ArrayList<ContainerId>());
        rm.drainEvents();
        List<Container> got = new ArrayList<Container>();
        for (int i = 0; i < beats; i++) {
            beat(rm, nm);
            got.addAll(am.allocate(new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>())
                    .getAllocatedContainers());
        }
        return got;
    }

    /** An application's AM and tasks, then its tasks finish: what each step gave. */
    static List<String> basic(String scheduler) throws Exception {
        MockRM rm = start(scheduler, queues());
        try {
            MockNM nm = rm.registerNode("localhost:1234", 10 * 1024, 10);
            RMApp app = submit(rm, "b", "alice", 1024);
            MockAM am = MockRM.launchAndRegisterAM(app, rm, nm);
            List<Container> got = askAndRun(rm, am, nm, 1024, 3, 6);
            List<String> out = new ArrayList<String>();
            out.add("allocated " + got.size());
            for (Container c : got) out.add(c.getId().toString().replaceAll("_\\d{13}_", "_TS_") + " "
                    + c.getResource().getMemorySize());
            // The NM reports the tasks done; the AM hears of them.
            for (Container c : got) nm.nodeHeartbeat(app.getCurrentAppAttempt().getAppAttemptId(),
                    c.getId().getContainerId(), ContainerState.COMPLETE);
            rm.drainEvents();
            int completed = 0;
            for (int i = 0; i < 5 && completed < got.size(); i++) {
                completed += am.allocate(new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>())
                        .getCompletedContainersStatuses().size();
            }
            out.add("completed " + completed);
            am.unregisterAppAttempt();
            nm.nodeHeartbeat(app.getCurrentAppAttempt().getAppAttemptId(), 1, ContainerState.COMPLETE);
            rm.waitForState(app.getApplicationId(), RMAppState.FINISHED);
            out.add("finished");
            return out;
        } finally {
            rm.stop();
        }
    }

    /** Queue a may hold 30% of 10 GB: its application gets what fits, b's gets more. */
    static List<String> queueLimits(String scheduler) throws Exception {
        MockRM rm = start(scheduler, queues());
        try {
            MockNM nm = rm.registerNode("localhost:1234", 10 * 1024, 10);
            RMApp appA = submit(rm, "a", "alice", 1024);
            MockAM amA = MockRM.launchAndRegisterAM(appA, rm, nm);
            List<Container> a = askAndRun(rm, amA, nm, 1024, 8, 10);
            RMApp appB = submit(rm, "b", "bob", 1024);
            MockAM amB = MockRM.launchAndRegisterAM(appB, rm, nm);
            List<Container> b = askAndRun(rm, amB, nm, 1024, 8, 10);
            return Arrays.asList("a got " + a.size(), "b got " + b.size(),
                    "used " + rm.getResourceScheduler().getRootQueueMetrics().getAllocatedMB());
        } finally {
            rm.stop();
        }
    }

    /** a's AM limit holds one 1 GB AM: the second application stays ACCEPTED. */
    static List<String> amLimit(String scheduler) throws Exception {
        MockRM rm = start(scheduler, queues("yarn.scheduler.capacity.root.a.maximum-am-resource-percent", "0.1"));
        try {
            MockNM nm = rm.registerNode("localhost:1234", 10 * 1024, 10);
            RMApp first = submit(rm, "a", "alice", 1024);
            MockRM.launchAndRegisterAM(first, rm, nm);
            RMApp second = submit(rm, "a", "alice", 1024);
            for (int i = 0; i < 5; i++) beat(rm, nm);
            return Arrays.asList("first " + first.getCurrentAppAttempt().getAppAttemptState(),
                    "second " + second.getCurrentAppAttempt().getAppAttemptState());
        } finally {
            rm.stop();
        }
    }

    /** An application with a running task moves from a to b: where it and its resources are. */
    static List<String> move(String scheduler) throws Exception {
        MockRM rm = start(scheduler, queues());
        try {
            MockNM nm = rm.registerNode("localhost:1234", 10 * 1024, 10);
            RMApp app = submit(rm, "a", "alice", 1024);
            MockAM am = MockRM.launchAndRegisterAM(app, rm, nm);
            List<Container> got = askAndRun(rm, am, nm, 1024, 1, 3);
            rm.getClientRMService().moveApplicationAcrossQueues(
                    org.apache.hadoop.yarn.api.protocolrecords.MoveApplicationAcrossQueuesRequest.newInstance(
                            app.getApplicationId(), "b"));
            rm.drainEvents();
            org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler s = rm.getResourceScheduler();
            List<String> out = new ArrayList<String>();
            out.add("tasks " + got.size());
            out.add("queue " + app.getQueue().replace("root.", ""));
            out.add("in a " + s.getAppsInQueue("a").size() + ", in b " + s.getAppsInQueue("b").size());
            out.add("a used " + s.getQueueInfo("a", false, false).getCurrentCapacity());
            // After the move b's asks are served: one more task.
            got = askAndRun(rm, am, nm, 1024, 1, 3);
            out.add("tasks after " + got.size());
            try {
                rm.getClientRMService().moveApplicationAcrossQueues(
                        org.apache.hadoop.yarn.api.protocolrecords.MoveApplicationAcrossQueuesRequest.newInstance(
                                app.getApplicationId(), "nope"));
                out.add("moved to nope");
            } catch (org.apache.hadoop.yarn.exceptions.YarnException e) {
                out.add("refused");
            }
            return out;
        } finally {
            rm.stop();
        }
    }

    /**
     * Two applications in b ask for the whole node; the second is raised above the first: its
     * asks are served first from then on.
     */
    static List<String> priority(String scheduler) throws Exception {
        // Room for both AMs under b's AM limit.
        CapacitySchedulerConfiguration q = queues("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
        q.setInt(YarnConfiguration.MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY, 10);
        MockRM rm = start(scheduler, q);
        try {
            MockNM nm = rm.registerNode("localhost:1234", 10 * 1024, 10);
            RMApp first = submit(rm, "b", "alice", 1024);
            MockAM am1 = MockRM.launchAndRegisterAM(first, rm, nm);
            RMApp second = submit(rm, "b", "alice", 1024);
            MockAM am2 = MockRM.launchAndRegisterAM(second, rm, nm);
            rm.getClientRMService().updateApplicationPriority(
                    org.apache.hadoop.yarn.api.protocolrecords.UpdateApplicationPriorityRequest.newInstance(
                            second.getApplicationId(), org.apache.hadoop.yarn.api.records.Priority.newInstance(5)));
            rm.drainEvents();
            am1.allocate("*", 1024, 8, new ArrayList<ContainerId>());
            am2.allocate("*", 1024, 8, new ArrayList<ContainerId>());
            rm.drainEvents();
            beat(rm, nm);
            beat(rm, nm);
            int got1 = am1.allocate(new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>())
                    .getAllocatedContainers().size();
            int got2 = am2.allocate(new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>())
                    .getAllocatedContainers().size();
            return Arrays.asList("priority " + second.getApplicationPriority(), "first got " + got1,
                    "second got " + got2);
        } finally {
            rm.stop();
        }
    }

    @Test
    public void aRaisedPriorityIsServedFirstAsOnTheStockScheduler() throws Exception {
        List<String> stock = priority(STOCK);
        assertEquals(stock, priority(CAPSCHED));
    }

    @Test
    public void aMoveBetweenQueuesEndsAsOnTheStockScheduler() throws Exception {
        List<String> stock = move(STOCK);
        assertEquals(stock, move(CAPSCHED));
    }

    @Test
    public void anApplicationRunsAndFinishesAsOnTheStockScheduler() throws Exception {
        List<String> stock = basic(STOCK);
        assertEquals(stock.toString(), "allocated 3", stock.get(0));
        assertEquals(stock, basic(CAPSCHED));
    }

    @Test
    public void queueCapacitiesCapAsOnTheStockScheduler() throws Exception {
        List<String> stock = queueLimits(STOCK);
        assertEquals(stock, queueLimits(CAPSCHED));
    }

    @Test
    public void theAmLimitHoldsTheSecondApplicationAsOnTheStockScheduler() throws Exception {
        List<String> stock = amLimit(STOCK);
        assertEquals(Arrays.asList("first " + RMAppAttemptState.RUNNING, "second " + RMAppAttemptState.SCHEDULED),
                stock);
        assertEquals(stock, amLimit(CAPSCHED));
    }

    @Test
    public void refreshQueuesAppliesAValidConfigurationAndKeepsTheRunningOneOtherwise() throws Exception {
        MockRM rm = start(CAPSCHED, queues());
        try {
            org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler s = rm.getResourceScheduler();
            CapacitySchedulerConfiguration bad = queues("yarn.scheduler.capacity.root.b.capacity", "80");
            try {
                s.reinitialize(new YarnConfiguration(bad), rm.getRMContext());
                org.junit.Assert.fail("capacities summing to 110 accepted");
            } catch (java.io.IOException e) {
                assertTrue(e.getMessage(), e.getMessage().startsWith("Failed to re-init queues : "));
            }
            assertEquals(0.3f, s.getQueueInfo("a", false, false).getCapacity(), 1e-6);
            CapacitySchedulerConfiguration more = queues("yarn.scheduler.capacity.root.queues", "a,b,c",
                    "yarn.scheduler.capacity.root.b.capacity", "60", "yarn.scheduler.capacity.root.c.capacity", "10");
            s.reinitialize(new YarnConfiguration(more), rm.getRMContext());
            assertEquals(0.1f, s.getQueueInfo("c", false, false).getCapacity(), 1e-6);
        } finally {
            rm.stop();
        }
    }

    @Test
    public void aSubmissionToAnUnknownQueueIsRejectedWithYarnsMessage() throws Exception {
        MockRM rm = start(CAPSCHED, queues());
        try {
            RMApp app = MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(1024, rm)
                    .withQueue("nope").withUser("alice").withWaitForAppAcceptedState(false).build());
            rm.waitForState(app.getApplicationId(), RMAppState.FAILED);
            assertTrue(app.getDiagnostics().toString(),
                    app.getDiagnostics().toString().contains("submitted by user alice to unknown queue: nope"));
        } finally {
            rm.stop();
        }
    }
}
