package org.capsched.yarn;

import static org.capsched.yarn.SameOutcomesTest.CAPSCHED;
import static org.capsched.yarn.SameOutcomesTest.STOCK;
import static org.capsched.yarn.SameOutcomesTest.beat;
import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeLabel;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.NullRMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.junit.Test;

/**
 * Node labels in a MockRM, from Hadoop's TestNodeLabelContainerAllocation: the same labelled
 * scenario on the stock CapacityScheduler and on capsched, whose outcomes (which node each
 * container lands on, what the RM refuses, the queues' labels, usage as partitions change)
 * must be the same. The RM's label manager owns the labels, as in YARN.
 */
public class NodeLabelsTest {
    static {
        // The RM builds each container's token service from its NodeManager's host, as
        // Hadoop's label tests name them: h1, h2, h3 resolve to this machine.
        for (String h : new String[] {"h1", "h2", "h3"}) org.apache.hadoop.net.NetUtils.addStaticResolution(h, "localhost");
    }

    static AbstractYarnScheduler<?, ?> scheduler(MockRM rm) {
        return (AbstractYarnScheduler<?, ?>) rm.getResourceScheduler();
    }

    static Set<String> labels(String... names) {
        return new HashSet<String>(Arrays.asList(names));
    }

    /** The host of the node a container was placed on, or "none" while it is not placed. */
    static String hostOf(MockRM rm, ContainerId id) {
        RMContainer c = scheduler(rm).getRMContainer(id);
        return c == null ? "none" : c.getAllocatedNode().getHost();
    }

    /** What the RM said when it refused: the innermost message (MockRM wraps its calls). */
    static String refusal(Throwable t) {
        String message = t.getMessage();
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c.getMessage() != null) message = c.getMessage();
        }
        return message;
    }

    /** A queue's labels as the RM reads them (YARN's set order is a HashSet's: sorted here). */
    static String queueLabels(MockRM rm, String queue) throws Exception {
        QueueInfo info = rm.getResourceScheduler().getQueueInfo(queue, false, false);
        return queue + " " + new TreeSet<String>(info.getAccessibleNodeLabels()) + " default "
                + info.getDefaultNodeLabelExpression();
    }

    /**
     * TestNodeLabelContainerAllocation's queues: a (a1) may use x, b (b1) y and z, c (c1)
     * the default partition only; root has each label.
     */
    static CapacitySchedulerConfiguration labelledQueues() {
        CapacitySchedulerConfiguration c = new CapacitySchedulerConfiguration();
        c.setBoolean(YarnConfiguration.NODE_LABELS_ENABLED, true);
        c.setQueues("root", new String[] {"a", "b", "c"});
        for (String l : new String[] {"x", "y", "z"}) c.setCapacityByLabel("root", l, 100);
        c.setCapacity("root.a", 10);
        c.setMaximumCapacity("root.a", 15);
        c.setAccessibleNodeLabels("root.a", labels("x"));
        c.setCapacityByLabel("root.a", "x", 100);
        c.setCapacity("root.b", 20);
        c.setAccessibleNodeLabels("root.b", labels("y", "z"));
        c.setCapacityByLabel("root.b", "y", 100);
        c.setCapacityByLabel("root.b", "z", 100);
        c.setCapacity("root.c", 70);
        c.setMaximumCapacity("root.c", 70);
        c.setAccessibleNodeLabels("root.c", RMNodeLabelsManager.EMPTY_STRING_SET);
        c.setQueues("root.a", new String[] {"a1"});
        c.setCapacity("root.a.a1", 100);
        c.setMaximumCapacity("root.a.a1", 100);
        c.setCapacityByLabel("root.a.a1", "x", 100);
        c.setQueues("root.b", new String[] {"b1"});
        c.setCapacity("root.b.b1", 100);
        c.setMaximumCapacity("root.b.b1", 100);
        c.setCapacityByLabel("root.b.b1", "y", 100);
        c.setCapacityByLabel("root.b.b1", "z", 100);
        c.setQueues("root.c", new String[] {"c1"});
        c.setCapacity("root.c.c1", 100);
        c.setMaximumCapacity("root.c.c1", 100);
        return c;
    }

    /**
     * A MockRM whose label manager (null store, as Hadoop's label tests use) has x and y
     * (exclusive) and has labelled hosts h1 (x) and h2 (y) before the RM starts; with {@code
     * store}, an RM restarting on it.
     */
    static MockRM labelledRM(YarnConfiguration conf, org.apache.hadoop.yarn.server.resourcemanager.recovery.RMStateStore store)
            throws Exception {
        final NullRMNodeLabelsManager mgr = new NullRMNodeLabelsManager();
        mgr.init(conf);
        mgr.addToCluserNodeLabelsWithDefaultExclusivity(labels("x", "y"));
        Map<NodeId, Set<String>> mapping = new HashMap<NodeId, Set<String>>();
        mapping.put(NodeId.newInstance("h1", 0), labels("x"));
        mapping.put(NodeId.newInstance("h2", 0), labels("y"));
        mgr.addLabelsToNode(mapping);
        MockRM rm = store == null ? new MockRM(conf) {
            @Override
            protected RMNodeLabelsManager createNodeLabelManager() {
                return mgr;
            }
        } : new MockRM(conf, store) {
            @Override
            protected RMNodeLabelsManager createNodeLabelManager() {
                return mgr;
            }
        };
        rm.getRMContext().setNodeLabelManager(mgr);
        return rm;
    }

    /**
     * testContainerAllocateWithLabels, and more: the label manager has x and y (exclusive) and
     * has labelled hosts h1 (x) and h2 (y) before the RM starts; h3 has none. An application
     * in each of a1, b1, c1 asks for one container with its queue's label: it lands only on
     * that partition's node (the others heartbeat first). Then an application labelled x gets
     * its AM and its unlabelled asks on h1, and the RM refuses a label a queue may not use
     * (in allocate, and for an AM at submission) from the queues' labels the scheduler states.
     * With {@code queueDefaults} (testContainerAllocateWithDefaultQueueLabels) a's default
     * expression is x and b's y, and nothing names a label: the RM takes each ANY ask's and
     * AM's label from the queue's default the scheduler states, so the AMs and the asks of a1
     * and b1 go to h1 and h2.
     */
    static List<String> exclusive(String schedulerClass, boolean queueDefaults) throws Exception {
        CapacitySchedulerConfiguration queues = labelledQueues();
        if (queueDefaults) {
            queues.setDefaultNodeLabelExpression("root.a", "x");
            queues.setDefaultNodeLabelExpression("root.b", "y");
        }
        YarnConfiguration conf = new YarnConfiguration(queues);
        conf.set(YarnConfiguration.RM_SCHEDULER, schedulerClass);
        MockRM rm = labelledRM(conf, null);
        rm.start();
        try {
            MockNM nm1 = rm.registerNode("h1:1234", 8000); // x
            MockNM nm2 = rm.registerNode("h2:1234", 8000); // y
            MockNM nm3 = rm.registerNode("h3:1234", 8000); // the default partition
            List<String> out = new ArrayList<String>();
            for (String q : new String[] {"root", "a", "a1", "b1", "c1"}) out.add(queueLabels(rm, q));
            for (MockNM nm : new MockNM[] {nm1, nm2, nm3}) {
                out.add(nm.getNodeId().getHost() + " in '" + scheduler(rm).getSchedulerNode(nm.getNodeId()).getPartition()
                        + "'");
            }
            // Each application's one task, its own partition's node heartbeating last; with the
            // queues' defaults nothing names a label, and the AMs go to their queue's partition.
            Object[][] apps = {{"a1", "x", new MockNM[] {nm2, nm3, nm1}, nm1},
                {"b1", "y", new MockNM[] {nm3, nm1, nm2}, nm2}, {"c1", null, new MockNM[] {nm1, nm2, nm3}, nm3}};
            MockAM b1 = null;
            MockAM c1 = null;
            for (Object[] a : apps) {
                RMApp app = MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(200, rm)
                        .withAppName("app").withUser("user").withQueue((String) a[0]).build());
                MockAM am = MockRM.launchAndRegisterAM(app, rm, queueDefaults ? (MockNM) a[3] : nm3);
                out.add(a[0] + " AM on " + hostOf(rm, ContainerId.newContainerId(am.getApplicationAttemptId(), 1)));
                if ("b1".equals(a[0])) b1 = am;
                if ("c1".equals(a[0])) c1 = am;
                am.allocate("*", 1024, 1, new ArrayList<ContainerId>(), queueDefaults ? null : (String) a[1]);
                rm.drainEvents();
                ContainerId task = ContainerId.newContainerId(am.getApplicationAttemptId(), 2);
                StringBuilder seen = new StringBuilder(a[0] + " asks " + a[1] + ":");
                for (MockNM nm : (MockNM[]) a[2]) {
                    beat(rm, nm);
                    seen.append(" after ").append(nm.getNodeId().getHost()).append(' ').append(hostOf(rm, task));
                }
                RMContainer c = scheduler(rm).getRMContainer(task);
                out.add(seen + (c == null ? "" : ", label '" + c.getNodeLabelExpression() + "'"));
            }

            // The application's label: its AM goes to x, and its asks that name none. When a1's
            // first AM is on x already (the queues' defaults), x's AM limit in a1 (10% of 8000
            // MB, at least one AM) holds this one back.
            RMApp labelled = MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(200, rm)
                    .withAppName("app").withUser("user").withQueue("a1").withAppNodeLabel("x").build());
            for (int i = 0; i < 3; i++) beat(rm, nm1);
            RMAppAttemptState state = labelled.getCurrentAppAttempt().getAppAttemptState();
            out.add("labelled AM " + state);
            if (state == RMAppAttemptState.ALLOCATED) {
                MockAM am = rm.sendAMLaunched(labelled.getCurrentAppAttempt().getAppAttemptId());
                am.registerAppAttempt();
                rm.waitForState(labelled.getApplicationId(), RMAppState.RUNNING);
                out.add("labelled AM on " + hostOf(rm, ContainerId.newContainerId(am.getApplicationAttemptId(), 1)));
                am.allocate("*", 1024, 1, new ArrayList<ContainerId>(), null);
                rm.drainEvents();
                beat(rm, nm3);
                beat(rm, nm1);
                out.add("its unlabelled ask on "
                        + hostOf(rm, ContainerId.newContainerId(am.getApplicationAttemptId(), 2)));
            }

            // What the RM refuses from the queues' labels, before the scheduler sees it.
            try {
                b1.allocate("*", 1024, 1, new ArrayList<ContainerId>(), "x");
                out.add("b1 got x");
            } catch (Exception e) {
                out.add("b1 asking x: " + refusal(e));
            }
            try {
                MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(200, rm)
                        .withAppName("app").withUser("user").withQueue("c1").withAmLabel("x").build());
                out.add("c1 AM on x accepted");
            } catch (Exception e) {
                out.add("c1 AM asking x: " + refusal(e));
            }
            out.add("root allocated " + scheduler(rm).getRootQueueMetrics().getAllocatedMB() + " MB");

            // A refresh lets c (and so c1) use x: the RM checks c1's asks against that now.
            queues.setAccessibleNodeLabels("root.c", labels("x"));
            rm.getResourceScheduler().reinitialize(new YarnConfiguration(queues), rm.getRMContext());
            out.add("refreshed: " + queueLabels(rm, "c1"));
            try {
                c1.allocate("*", 1024, 1, new ArrayList<ContainerId>(), "x");
                out.add("c1 asking x accepted");
            } catch (Exception e) {
                out.add("c1 asking x: " + refusal(e));
            }
            return out;
        } finally {
            rm.stop();
        }
    }

    /**
     * testQueuesWithoutAccessUsingPartitionedNodes, with the labels made while the RM runs: x
     * (non-exclusive) and y are added and h1 is labelled x after both nodes registered. b,
     * which may use the default partition only, asks for 50 containers: h2's room goes first,
     * then, once b's asks have missed as many chances as there are nodes, h1's is lent to it.
     * The label manager refuses to remove x, which a lists; h1 relabelled unlabelled keeps its
     * containers, their usage in the default partition now; all of it is released at the end.
     */
    static List<String> nonExclusive(String schedulerClass) throws Exception {
        CapacitySchedulerConfiguration q = new CapacitySchedulerConfiguration();
        q.setBoolean(YarnConfiguration.NODE_LABELS_ENABLED, true);
        q.setQueues("root", new String[] {"a", "b"});
        q.setCapacityByLabel("root", "x", 100);
        q.setCapacity("root.a", 50);
        q.setAccessibleNodeLabels("root.a", labels("x"));
        q.setCapacityByLabel("root.a", "x", 100);
        q.setCapacity("root.b", 50);
        q.setAccessibleNodeLabels("root.b", RMNodeLabelsManager.EMPTY_STRING_SET);
        q.setUserLimitFactor("root.b", 5);
        YarnConfiguration conf = new YarnConfiguration(q);
        conf.set(YarnConfiguration.RM_SCHEDULER, schedulerClass);
        MockRM rm = new MockRM(conf); // with MockRM's own (null-store) label manager
        rm.start();
        try {
            MockNM nm1 = rm.registerNode("h1:1234", 10 * 1024, 10);
            MockNM nm2 = rm.registerNode("h2:1234", 10 * 1024, 10);
            RMNodeLabelsManager mgr = rm.getRMContext().getNodeLabelManager();
            mgr.addToCluserNodeLabels(Arrays.asList(NodeLabel.newInstance("x", false), NodeLabel.newInstance("y")));
            mgr.replaceLabelsOnNode(Collections.singletonMap(NodeId.newInstance("h1", 0), labels("x")));
            rm.drainEvents();
            AbstractYarnScheduler<?, ?> s = scheduler(rm);
            List<String> out = new ArrayList<String>();
            out.add("h1 in '" + s.getSchedulerNode(nm1.getNodeId()).getPartition() + "'");
            RMApp app = MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(1024, rm)
                    .withAppName("app").withUser("user").withQueue("b").build());
            MockAM am = MockRM.launchAndRegisterAM(app, rm, nm2);
            am.allocate("*", 1024, 50, new ArrayList<ContainerId>());
            rm.drainEvents();
            RMNode n1 = rm.getRMContext().getRMNodes().get(nm1.getNodeId());
            RMNode n2 = rm.getRMContext().getRMNodes().get(nm2.getNodeId());
            SchedulerNode h1 = s.getSchedulerNode(nm1.getNodeId());
            SchedulerNode h2 = s.getSchedulerNode(nm2.getNodeId());
            int waited = 0;
            for (int i = 0; i < 50; i++) {
                s.handle(new NodeUpdateSchedulerEvent(n1));
                s.handle(new NodeUpdateSchedulerEvent(n2));
                if (h1.getNumContainers() == 0) waited++;
            }
            out.add("waited " + waited + " cycles for h1");
            out.add("h1 " + h1.getNumContainers() + ", h2 " + h2.getNumContainers());
            // A container on lent room carries its request's partition, not the node's.
            out.add("label on h1 '" + h1.getCopiedListOfRunningContainers().get(0).getNodeLabelExpression() + "'");
            out.add("b used " + s.getQueueInfo("b", false, false).getCurrentCapacity());

            try {
                mgr.removeFromClusterNodeLabels(Collections.singleton("x"));
                out.add("x removed");
            } catch (Exception e) {
                out.add("removing x: " + refusal(e));
            }
            mgr.removeFromClusterNodeLabels(Collections.singleton("y"));
            mgr.replaceLabelsOnNode(Collections.singletonMap(NodeId.newInstance("h1", 0),
                    RMNodeLabelsManager.EMPTY_STRING_SET));
            rm.drainEvents();
            out.add("h1 in '" + h1.getPartition() + "' with " + h1.getNumContainers());
            out.add("b used " + s.getQueueInfo("b", false, false).getCurrentCapacity());
            out.add("attempt uses " + s.getAppResourceUsageReport(am.getApplicationAttemptId()).getUsedResources()
                    .getMemorySize() + " MB");

            rm.killApp(app.getApplicationId());
            rm.waitForState(app.getApplicationId(), RMAppState.KILLED);
            rm.drainEvents();
            out.add("after the kill h1 " + h1.getNumContainers() + ", h2 " + h2.getNumContainers());
            out.add("root allocated " + s.getRootQueueMetrics().getAllocatedMB() + " MB in "
                    + s.getRootQueueMetrics().getAllocatedContainers());
            return out;
        } finally {
            rm.stop();
        }
    }

    /**
     * TestWorkPreservingRMRestartForNodeLabel, in short: a1's default label is x; its AM and a
     * task run on h1 (x). The RM restarts with the same labels; h1 re-registers with both
     * running: they come back in x (the attempt's usage there, none in a1's default partition,
     * the containers' labels), and the AM's next two asks (x again, from a1's default) are
     * placed on h1, not h3, with the new epoch.
     */
    static List<String> restart(String schedulerClass) throws Exception {
        CapacitySchedulerConfiguration queues = labelledQueues();
        queues.setDefaultNodeLabelExpression("root.a", "x");
        queues.setBoolean(YarnConfiguration.RECOVERY_ENABLED, true);
        queues.setBoolean(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_ENABLED, true);
        queues.set(YarnConfiguration.RM_STORE,
                org.apache.hadoop.yarn.server.resourcemanager.recovery.MemoryRMStateStore.class.getName());
        queues.setLong(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS, 0);
        YarnConfiguration conf = new YarnConfiguration(queues);
        conf.set(YarnConfiguration.RM_SCHEDULER, schedulerClass);
        MockRM rm1 = labelledRM(conf, null);
        rm1.start();
        MockRM rm2 = null;
        try {
            MockNM nm1 = rm1.registerNode("h1:1234", 8000); // x
            MockNM nm3 = rm1.registerNode("h3:1234", 8000);
            RMApp app = MockRMAppSubmitter.submit(rm1, MockRMAppSubmissionData.Builder.createWithMemory(200, rm1)
                    .withAppName("app").withUser("user").withQueue("a1").build());
            MockAM am = MockRM.launchAndRegisterAM(app, rm1, nm1);
            am.allocate("*", 1024, 1, new ArrayList<ContainerId>(), null);
            rm1.drainEvents();
            beat(rm1, nm3);
            beat(rm1, nm1);
            ContainerId amContainer = ContainerId.newContainerId(am.getApplicationAttemptId(), 1);
            ContainerId task = ContainerId.newContainerId(am.getApplicationAttemptId(), 2);
            List<String> out = new ArrayList<String>();
            out.add("before: AM on " + hostOf(rm1, amContainer) + ", task on " + hostOf(rm1, task));
            int taskPriority = scheduler(rm1).getRMContainer(task).getContainer().getPriority().getPriority();

            rm2 = labelledRM(conf, rm1.getRMStateStore());
            rm2.start();
            nm1.setResourceTrackerService(rm2.getResourceTrackerService());
            nm3.setResourceTrackerService(rm2.getResourceTrackerService());
            rm2.waitForState(app.getApplicationId(), RMAppState.ACCEPTED);
            am.setAMRMProtocol(rm2.getApplicationMasterService(), rm2.getRMContext());
            am.registerAppAttempt(true);
            nm1.registerNode(Arrays.asList(running(amContainer, 0), running(task, taskPriority)), null);
            nm3.registerNode();
            rm2.drainEvents();
            AbstractYarnScheduler<?, ?> s = scheduler(rm2);
            org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt attempt =
                    s.getApplicationAttempt(am.getApplicationAttemptId());
            out.add("live " + attempt.getLiveContainers().size());
            SchedulerNode h1 = s.getSchedulerNode(nm1.getNodeId());
            out.add("h1 in '" + h1.getPartition() + "' with " + h1.getNumContainers());
            out.add("attempt uses " + attempt.getAppAttemptResourceUsage().getUsed("x").getMemorySize() + " MB in x, "
                    + attempt.getAppAttemptResourceUsage().getUsed("").getMemorySize() + " MB in the default");
            out.add("labels '" + s.getRMContainer(amContainer).getNodeLabelExpression() + "' '"
                    + s.getRMContainer(task).getNodeLabelExpression() + "'");
            out.add("a1 used " + s.getQueueInfo("a1", false, false).getCurrentCapacity());
            am.allocate("*", 1024, 2, new ArrayList<ContainerId>(), null);
            rm2.drainEvents();
            beat(rm2, nm3);
            beat(rm2, nm1); // one off-switch container per heartbeat
            beat(rm2, nm1);
            for (org.apache.hadoop.yarn.api.records.Container c : am.allocate(
                    new ArrayList<org.apache.hadoop.yarn.api.records.ResourceRequest>(), new ArrayList<ContainerId>())
                    .getAllocatedContainers()) {
                out.add("then " + c.getId().toString().replaceAll("_\\d{13}_", "_TS_") + " on "
                        + c.getNodeId().getHost());
            }
            return out;
        } finally {
            if (rm2 != null) rm2.stop();
            rm1.stop();
        }
    }

    /** A running container an NM reports when it re-registers, in partition x. */
    static org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus running(ContainerId id, int priority) {
        return org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus.newInstance(id, 0,
                org.apache.hadoop.yarn.api.records.ContainerState.RUNNING,
                org.apache.hadoop.yarn.api.records.Resource.newInstance(1024, 1), "recover container", 0,
                org.apache.hadoop.yarn.api.records.Priority.newInstance(priority), 0, "x",
                org.apache.hadoop.yarn.api.records.ExecutionType.GUARANTEED, -1);
    }

    @Test
    public void aRestartRecoversLabelledContainersAsOnTheStockScheduler() throws Exception {
        List<String> stock = restart(STOCK);
        System.out.println("a restart with labels on the stock scheduler: " + stock);
        assertEquals(stock.toString(), "live 2", stock.get(1));
        assertEquals(stock, restart(CAPSCHED));
    }

    @Test
    public void containersLandOnTheirPartitionsNodesAsOnTheStockScheduler() throws Exception {
        List<String> stock = exclusive(STOCK, false);
        System.out.println("exclusive labels on the stock scheduler: " + stock);
        assertEquals(stock.toString(), "a1 asks x: after h2 none after h3 none after h1 h1, label 'x'",
                stock.get(9));
        assertEquals(stock, exclusive(CAPSCHED, false));
    }

    @Test
    public void queuesDefaultLabelsSendAmsAndAsksToTheirPartitionsAsOnTheStockScheduler() throws Exception {
        List<String> stock = exclusive(STOCK, true);
        System.out.println("queues' default labels on the stock scheduler: " + stock);
        assertEquals(stock.toString(), "a1 [x] default x", stock.get(2));
        assertEquals(stock.toString(), "a1 asks x: after h2 none after h3 none after h1 h1, label 'x'",
                stock.get(9));
        assertEquals(stock, exclusive(CAPSCHED, true));
    }

    @Test
    public void aNonExclusivePartitionLendsItsRoomAsOnTheStockScheduler() throws Exception {
        List<String> stock = nonExclusive(STOCK);
        System.out.println("a non-exclusive label on the stock scheduler: " + stock);
        assertEquals(stock.toString(), "waited 10 cycles for h1", stock.get(1));
        assertEquals(stock, nonExclusive(CAPSCHED));
    }
}
