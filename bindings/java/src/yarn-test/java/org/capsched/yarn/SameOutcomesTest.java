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
import org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy;
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

    /**
     * Asynchronous scheduling (yarn.scheduler.capacity.schedule-asynchronously.enable): the
     * scheduler's own thread places the AM and the tasks with no heartbeat at all (a
     * heartbeat-driven scheduler would place nothing here). Two applications, in b and a.
     */
    static List<String> asynchronous(String scheduler) throws Exception {
        CapacitySchedulerConfiguration q = queues("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
        q.setBoolean(CapacitySchedulerConfiguration.SCHEDULE_ASYNCHRONOUSLY_ENABLE, true);
        MockRM rm = start(scheduler, q);
        try {
            MockNM nm = rm.registerNode("localhost:1234", 10 * 1024, 10);
            List<String> out = new ArrayList<String>();
            for (String queue : new String[] {"b", "a"}) {
                // The AM container may be placed before a test could see the attempt SCHEDULED
                // (MockRM's own helpers wait for that state): wait for ALLOCATED instead.
                RMApp app = MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(1024, rm)
                        .withQueue(queue).withUser("alice").withWaitForAppAcceptedState(false).build());
                long deadline = System.currentTimeMillis() + 30000;
                while ((app.getCurrentAppAttempt() == null
                        || app.getCurrentAppAttempt().getAppAttemptState() != RMAppAttemptState.ALLOCATED)
                        && System.currentTimeMillis() < deadline) {
                    rm.drainEvents();
                    Thread.sleep(10); // polling a state, bounded by the deadline
                }
                MockAM am = rm.sendAMLaunched(app.getCurrentAppAttempt().getAppAttemptId());
                am.registerAppAttempt();
                // The scheduler's thread may place them while this very call runs (the RM hears
                // of each at placement): its answer counts too.
                List<Container> got = new ArrayList<Container>(
                        am.allocate("*", 1024, 2, new ArrayList<ContainerId>()).getAllocatedContainers());
                // Until the scheduler's thread has placed both (a bound, not a timing).
                deadline = System.currentTimeMillis() + 30000;
                while (got.size() < 2 && System.currentTimeMillis() < deadline) {
                    Thread.sleep(10);
                    got.addAll(am.allocate(new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>())
                            .getAllocatedContainers());
                }
                out.add(queue + " got " + got.size());
                for (Container c : got) {
                    nm.nodeHeartbeat(app.getCurrentAppAttempt().getAppAttemptId(), c.getId().getContainerId(),
                            ContainerState.COMPLETE);
                }
                rm.drainEvents();
                am.unregisterAppAttempt();
                nm.nodeHeartbeat(app.getCurrentAppAttempt().getAppAttemptId(), 1, ContainerState.COMPLETE);
                rm.waitForState(app.getApplicationId(), RMAppState.FINISHED);
                out.add(queue + " finished");
            }
            rm.drainEvents();
            out.add("root allocated " + rm.getResourceScheduler().getRootQueueMetrics().getAllocatedMB() + " MB");
            return out;
        } finally {
            rm.stop();
        }
    }

    /**
     * Queue placement: alice is mapped to b, applications named etl to a (the app-name rule
     * first); a mapping only replaces `default` (no override). Where each application lands, or
     * why it is rejected.
     */
    static List<String> placement(String scheduler) throws Exception {
        CapacitySchedulerConfiguration q = queues("yarn.scheduler.capacity.queue-mappings", "u:alice:b",
                "yarn.scheduler.queue-placement-rules", "app-name,user-group",
                "yarn.scheduler.queue-placement-rules.app-name", "etl:a");
        MockRM rm = start(scheduler, q);
        try {
            rm.registerNode("localhost:1234", 10 * 1024, 10);
            List<String> out = new ArrayList<String>();
            String[][] submissions = {{"default", "alice", "job"}, {"a", "alice", "job"}, {"default", "bob", "etl"},
                {"default", "alice", "etl"}, {"default", "bob", "job"}};
            for (String[] sub : submissions) {
                RMApp app = MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(1024, rm)
                        .withQueue(sub[0]).withUser(sub[1]).withAppName(sub[2]).withWaitForAppAcceptedState(false)
                        .build());
                rm.drainEvents();
                RMAppState state = app.getState();
                for (int i = 0; i < 100 && state != RMAppState.ACCEPTED && state != RMAppState.FAILED; i++) {
                    rm.drainEvents();
                    Thread.sleep(10); // polling a state, bounded
                    state = app.getState();
                }
                out.add(sub[1] + " " + sub[2] + " to " + sub[0] + ": " + app.getQueue().replace("root.", "") + " "
                        + state + (state == RMAppState.FAILED
                                ? " " + app.getDiagnostics().toString().replaceAll("_\\d{13}_", "_TS_") : ""));
            }
            return out;
        } finally {
            rm.stop();
        }
    }

    /**
     * Application lifetimes: b's applications live at most 2 s. One asks for 60 s, one for
     * 1 s, one for none: the lifetime each is registered with, and that the RM's lifetime
     * monitor kills each with YARN's diagnostics.
     */
    static List<String> lifetimes(String scheduler) throws Exception {
        CapacitySchedulerConfiguration q = queues("yarn.scheduler.capacity.root.b.maximum-application-lifetime", "2");
        q.setLong(YarnConfiguration.RM_APPLICATION_MONITOR_INTERVAL_MS, 100);
        MockRM rm = start(scheduler, q);
        try {
            rm.registerNode("localhost:1234", 10 * 1024, 10);
            List<String> out = new ArrayList<String>();
            List<RMApp> apps = new ArrayList<RMApp>();
            for (long asked : new long[] {60, 1, 0}) {
                java.util.Map<org.apache.hadoop.yarn.api.records.ApplicationTimeoutType, Long> timeouts =
                        new java.util.HashMap<org.apache.hadoop.yarn.api.records.ApplicationTimeoutType, Long>();
                if (asked > 0) timeouts.put(org.apache.hadoop.yarn.api.records.ApplicationTimeoutType.LIFETIME, asked);
                RMApp app = MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(1024, rm)
                        .withQueue("b").withUser("alice").withApplicationTimeouts(timeouts).build());
                Long deadline = app.getApplicationTimeouts()
                        .get(org.apache.hadoop.yarn.api.records.ApplicationTimeoutType.LIFETIME);
                out.add("asked " + asked + ": granted "
                        + (deadline == null ? "none" : String.valueOf((deadline - app.getSubmitTime()) / 1000)));
                apps.add(app);
            }
            for (RMApp app : apps) {
                rm.waitForState(app.getApplicationId(), RMAppState.KILLED);
                out.add(app.getState() + ": " + app.getDiagnostics());
            }
            return out;
        } finally {
            rm.stop();
        }
    }

    /**
     * Auto-created leaves: b is a managed parent whose template gives each leaf 40% of b, and
     * every user is mapped to a leaf of their own under it. Two leaves fit b's guarantee, the
     * third starts at zero; dave may not name alice's leaf himself. The queue each submission
     * lands in, its state (diagnostics when rejected) and each leaf's capacity.
     */
    static List<String> autoCreated(String scheduler) throws Exception {
        CapacitySchedulerConfiguration q = queues("yarn.scheduler.capacity.root.b.auto-create-child-queue.enabled",
                "true", "yarn.scheduler.capacity.root.b.leaf-queue-template.capacity", "40",
                "yarn.scheduler.capacity.root.b.leaf-queue-template.maximum-capacity", "100",
                "yarn.scheduler.capacity.queue-mappings", "u:%user:b.%user");
        MockRM rm = start(scheduler, q);
        try {
            rm.registerNode("localhost:1234", 10 * 1024, 10);
            List<String> out = new ArrayList<String>();
            String[][] submissions = {{"default", "alice"}, {"default", "bob"}, {"default", "carol"},
                {"alice", "dave"}, {"default", "alice"}};
            for (String[] sub : submissions) {
                RMApp app = MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(1024, rm)
                        .withQueue(sub[0]).withUser(sub[1]).withWaitForAppAcceptedState(false).build());
                rm.drainEvents();
                RMAppState state = app.getState();
                for (int i = 0; i < 100 && state != RMAppState.ACCEPTED && state != RMAppState.FAILED; i++) {
                    rm.drainEvents();
                    Thread.sleep(10); // polling a state, bounded
                    state = app.getState();
                }
                out.add(sub[1] + " to " + sub[0] + ": " + app.getQueue() + " " + state
                        + (state == RMAppState.FAILED
                                ? " " + app.getDiagnostics().toString().replaceAll("_\\d{13}_", "_TS_") : ""));
            }
            for (String leaf : new String[] {"alice", "bob", "carol"}) {
                org.apache.hadoop.yarn.api.records.QueueInfo info = rm.getResourceScheduler().getQueueInfo(leaf, false,
                        false);
                out.add(leaf + " capacity " + info.getCapacity() + " max " + info.getMaximumCapacity());
            }
            return out;
        } finally {
            rm.stop();
        }
    }

    @Test
    public void autoCreatedLeavesAreMadeAndEntitledAsOnTheStockScheduler() throws Exception {
        List<String> stock = autoCreated(STOCK);
        System.out.println("auto-created leaves on the stock scheduler: " + stock);
        assertEquals(stock.toString(), "alice to default: alice ACCEPTED", stock.get(0));
        assertEquals(stock, autoCreated(CAPSCHED));
    }

    @Test
    public void applicationLifetimesAreGrantedAndEnforcedAsOnTheStockScheduler() throws Exception {
        List<String> stock = lifetimes(STOCK);
        System.out.println("lifetimes on the stock scheduler: " + stock);
        assertEquals(stock.toString(), "asked 60: granted 2", stock.get(0));
        assertEquals(stock, lifetimes(CAPSCHED));
    }

    @Test
    public void queueMappingsPlaceApplicationsAsOnTheStockScheduler() throws Exception {
        List<String> stock = placement(STOCK);
        System.out.println("placement on the stock scheduler: " + stock);
        assertEquals(stock.toString(), "alice job to default: b ACCEPTED", stock.get(0));
        assertEquals(stock, placement(CAPSCHED));
    }

    @Test
    public void asynchronousSchedulingPlacesAsOnTheStockScheduler() throws Exception {
        List<String> stock = asynchronous(STOCK);
        assertEquals(stock.toString(), "b got 2", stock.get(0));
        assertEquals(stock, asynchronous(CAPSCHED));
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

    /**
     * a (guaranteed half of 20 GB, may take all) fills the node; b's application then asks for
     * 8 GB. The preemption monitor (YARN's on the stock scheduler, capsched's own under the
     * plug-in; one round may take everything, containers are killed 300 ms after their AM is
     * told) takes back what b is owed from a: a's AM hears of the containers first (the
     * preemption message), then gets them back with exit status -102.
     */
    static List<String> preemption(String scheduler) throws Exception {
        CapacitySchedulerConfiguration q = queues("yarn.scheduler.capacity.root.a.capacity", "50",
                "yarn.scheduler.capacity.root.a.maximum-capacity", "100",
                "yarn.scheduler.capacity.root.a.user-limit-factor", "2",
                "yarn.scheduler.capacity.root.b.capacity", "50",
                "yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
        q.setBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS, true);
        q.set(YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES, ProportionalCapacityPreemptionPolicy.class.getName());
        q.setLong(CapacitySchedulerConfiguration.PREEMPTION_MONITORING_INTERVAL, 100);
        q.setLong(CapacitySchedulerConfiguration.PREEMPTION_WAIT_TIME_BEFORE_KILL, 300);
        q.setFloat(CapacitySchedulerConfiguration.TOTAL_PREEMPTION_PER_ROUND, 1.0f);
        q.setFloat(CapacitySchedulerConfiguration.PREEMPTION_NATURAL_TERMINATION_FACTOR, 1.0f);
        MockRM rm = start(scheduler, q);
        try {
            MockNM nm = rm.registerNode("localhost:1234", 20 * 1024, 20);
            RMApp appA = submit(rm, "a", "alice", 1024);
            MockAM amA = MockRM.launchAndRegisterAM(appA, rm, nm);
            List<Container> a = askAndRun(rm, amA, nm, 1024, 14, 20);
            RMApp appB = submit(rm, "b", "bob", 1024);
            MockAM amB = MockRM.launchAndRegisterAM(appB, rm, nm);
            List<Container> b = askAndRun(rm, amB, nm, 1024, 8, 2);
            int before = b.size();
            java.util.Set<ContainerId> warned = new java.util.TreeSet<ContainerId>();
            java.util.Set<ContainerId> lost = new java.util.TreeSet<ContainerId>();
            int otherExit = 0;
            // Until b has its 8 and a has heard that every container it was told of is gone (a
            // bound, not a timing: rounds are 100 ms apart, and the whole takes about a second).
            long deadline = System.currentTimeMillis() + 60000;
            while ((b.size() < 8 || !lost.containsAll(warned)) && System.currentTimeMillis() < deadline) {
                beat(rm, nm);
                b.addAll(amB.allocate(new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>())
                        .getAllocatedContainers());
                org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse r = amA.allocate(
                        new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>());
                if (r.getPreemptionMessage() != null && r.getPreemptionMessage().getContract() != null) {
                    for (org.apache.hadoop.yarn.api.records.PreemptionContainer c
                            : r.getPreemptionMessage().getContract().getContainers()) {
                        warned.add(c.getId());
                    }
                    assertTrue(r.getPreemptionMessage().getContract().getResourceRequest().size() == 1);
                }
                for (org.apache.hadoop.yarn.api.records.ContainerStatus st : r.getCompletedContainersStatuses()) {
                    if (st.getExitStatus() == org.apache.hadoop.yarn.api.records.ContainerExitStatus.PREEMPTED) {
                        lost.add(st.getContainerId());
                    } else {
                        otherExit++;
                    }
                }
            }
            org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics root =
                    rm.getResourceScheduler().getRootQueueMetrics();
            return Arrays.asList("a got " + a.size(), "b got " + before + " then " + b.size(),
                    "a lost " + lost.size() + " preempted, " + otherExit + " otherwise",
                    "a was told first " + warned.containsAll(lost) + ", of " + warned.size(),
                    "root preempted " + root.getAggregatePreemptedContainers() + " ("
                            + root.getAggregateMemoryMBPreempted() + " MB)",
                    "root allocated " + root.getAllocatedMB() + " MB in " + root.getAllocatedContainers());
        } finally {
            rm.stop();
        }
    }

    /**
     * A work-preserving RM restart: the application and its attempt come back from the state
     * store, the NodeManager re-registers with the AM container and two tasks running (and one
     * that finished meanwhile), the AM re-registers and asks for one more, which carries the new
     * epoch.
     */
    static List<String> restart(String scheduler) throws Exception {
        CapacitySchedulerConfiguration q = queues();
        q.setBoolean(YarnConfiguration.RECOVERY_ENABLED, true);
        q.setBoolean(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_ENABLED, true);
        q.set(YarnConfiguration.RM_STORE,
                org.apache.hadoop.yarn.server.resourcemanager.recovery.MemoryRMStateStore.class.getName());
        q.setLong(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS, 0);
        MockRM rm1 = start(scheduler, q);
        MockRM rm2 = null;
        try {
            MockNM nm = rm1.registerNode("localhost:1234", 10 * 1024, 10);
            RMApp app = submit(rm1, "b", "alice", 1024);
            MockAM am = MockRM.launchAndRegisterAM(app, rm1, nm);
            List<Container> tasks = askAndRun(rm1, am, nm, 1024, 3, 6);
            YarnConfiguration conf = new YarnConfiguration(q);
            conf.set(YarnConfiguration.RM_SCHEDULER, scheduler);
            rm2 = new MockRM(conf, rm1.getRMStateStore());
            rm2.start();
            nm.setResourceTrackerService(rm2.getResourceTrackerService());
            rm2.waitForState(app.getApplicationId(), RMAppState.ACCEPTED);
            am.setAMRMProtocol(rm2.getApplicationMasterService(), rm2.getRMContext());
            am.registerAppAttempt(true);
            List<org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus> reports =
                    new ArrayList<org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus>();
            reports.add(running(ContainerId.newContainerId(am.getApplicationAttemptId(), 1),
                    ContainerState.RUNNING, 0));
            for (int i = 0; i < tasks.size(); i++) {
                reports.add(running(tasks.get(i).getId(), i == 2 ? ContainerState.COMPLETE : ContainerState.RUNNING,
                        tasks.get(i).getPriority().getPriority()));
            }
            nm.registerNode(reports, null);
            rm2.drainEvents();
            org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler<?, ?> s =
                    (org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler<?, ?>)
                            rm2.getResourceScheduler();
            List<String> out = new ArrayList<String>();
            out.add("tasks " + tasks.size());
            out.add("live " + s.getApplicationAttempt(am.getApplicationAttemptId()).getLiveContainers().size());
            out.add("node " + s.getSchedulerNode(nm.getNodeId()).getNumContainers() + " containers, "
                    + s.getSchedulerNode(nm.getNodeId()).getAllocatedResource().getMemorySize() + " MB");
            out.add("root allocated " + s.getRootQueueMetrics().getAllocatedMB() + " MB");
            out.add("b used " + s.getQueueInfo("b", false, false).getCurrentCapacity());
            // Nothing is allocated for the AM again; the AM's next ask carries the new epoch.
            beat(rm2, nm);
            List<Container> more = askAndRun(rm2, am, nm, 1024, 1, 3);
            for (Container c : more) out.add("then " + c.getId().toString().replaceAll("_\\d{13}_", "_TS_"));
            out.add("app " + app.getApplicationId().toString().replaceAll("_\\d{13}_", "_TS_") + " "
                    + rm2.getRMContext().getRMApps().get(app.getApplicationId()).getState());
            return out;
        } finally {
            if (rm2 != null) rm2.stop();
            rm1.stop();
        }
    }

    static org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus running(ContainerId id,
            ContainerState state, int priority) {
        return org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus.newInstance(id, 0, state,
                org.apache.hadoop.yarn.api.records.Resource.newInstance(1024, 1), "recover container", 0,
                org.apache.hadoop.yarn.api.records.Priority.newInstance(priority), 0);
    }

    @Test
    public void aWorkPreservingRestartRecoversAsOnTheStockScheduler() throws Exception {
        List<String> stock = restart(STOCK);
        System.out.println("restart on the stock scheduler: " + stock);
        assertEquals(stock.toString(), "live 3", stock.get(1));
        assertEquals(stock, restart(CAPSCHED));
    }

    @Test
    public void preemptionTakesBackWhatTheStarvedQueueIsOwedAsOnTheStockScheduler() throws Exception {
        List<String> stock = preemption(STOCK);
        System.out.println("preemption on the stock scheduler: " + stock);
        assertEquals(stock.toString(), "a lost 4 preempted, 0 otherwise", stock.get(2));
        assertEquals(stock, preemption(CAPSCHED));
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
                // The stock scheduler's words: capsched's context comes after them.
                assertTrue(e.getMessage(), e.getMessage().startsWith(
                        "Failed to re-init queues : Illegal capacity of 1.1 for children of queue root"));
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
