package org.capsched.yarn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.management.ObjectName;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsTag;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.QueueConfigurations;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueStatistics;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.client.cli.QueueCLI;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.ClusterMetricsInfo;
import org.junit.Test;

/**
 * What dashboards, alerts and clients read of the scheduler, compared field by field between the
 * stock CapacityScheduler and capsched in the same states: every QueueMetrics source (the root,
 * each parent and leaf, idle ones too, and their partition metrics) with every value it
 * publishes, the JMX bean names, the cluster metrics of {@code /ws/v1/cluster/metrics}, each
 * queue's QueueInfo ({@code yarn queue -status}: capacities, state, statistics, preemption
 * settings, configurations, children) and the queue ACLs. States: nodes registered and idle;
 * applications running with containers, pending asks, an application held by the AM limit and a
 * reservation; everything finished.
 */
public class MetricsParityTest {
    static CapacitySchedulerConfiguration queues(boolean userMetrics) {
        CapacitySchedulerConfiguration c = new CapacitySchedulerConfiguration();
        c.setBoolean("yarn.scheduler.capacity.user-metrics.enable", userMetrics);
        c.set("yarn.scheduler.capacity.root.queues", "a,p");
        c.set("yarn.scheduler.capacity.root.a.capacity", "30");
        c.set("yarn.scheduler.capacity.root.a.maximum-capacity", "60");
        c.set("yarn.scheduler.capacity.root.a.user-limit-factor", "2");
        c.set("yarn.scheduler.capacity.root.a.maximum-allocation-mb", "4096");
        c.set("yarn.scheduler.capacity.root.a.maximum-am-resource-percent", "0.2");
        c.set("yarn.scheduler.capacity.root.p.capacity", "70");
        c.set("yarn.scheduler.capacity.root.p.queues", "b1,b2");
        c.set("yarn.scheduler.capacity.root.p.b1.capacity", "60");
        c.set("yarn.scheduler.capacity.root.p.b1.user-limit-factor", "10");
        c.set("yarn.scheduler.capacity.root.p.b2.capacity", "40");
        c.set("yarn.scheduler.capacity.root.p.b2.state", "STOPPED");
        return c;
    }

    static final String[] USERS = {"alice", "bob", "carol"};

    /**
     * Every published value of every QueueMetrics source, by source and name: the queues', the
     * partitions', and each user's where the metrics keep users.
     */
    static Map<String, String> metrics() {
        Map<String, QueueMetrics> sources = new TreeMap<String, QueueMetrics>(QueueMetrics.getQueueMetrics());
        for (Map.Entry<String, QueueMetrics> e : QueueMetrics.getQueueMetrics().entrySet()) {
            for (String user : USERS) {
                QueueMetrics u = e.getValue().getUserMetrics(user);
                if (u != null) sources.put(e.getKey() + " user=" + user, u);
            }
        }
        Map<String, String> out = new TreeMap<String, String>();
        for (Map.Entry<String, QueueMetrics> e : sources.entrySet()) {
            MetricsCollectorImpl collector = new MetricsCollectorImpl();
            e.getValue().getMetrics(collector, true);
            List<? extends MetricsRecord> records = collector.getRecords();
            for (MetricsRecord r : records) {
                String source = e.getKey() + " " + r.name();
                for (MetricsTag t : r.tags()) {
                    if (!t.name().equals("Hostname")) out.put(source + " tag." + t.name(), t.value());
                }
                for (AbstractMetric m : r.metrics()) {
                    // A latency, not a figure of the state.
                    if (m.name().endsWith("AvgTime")) continue;
                    out.put(source + " " + m.name(), String.valueOf(m.value()));
                }
            }
        }
        return out;
    }

    /** The JMX beans dashboards read (names only: their values are the sources above). */
    static TreeSet<String> beans() throws Exception {
        TreeSet<String> out = new TreeSet<String>();
        for (ObjectName n : ManagementFactory.getPlatformMBeanServer().queryNames(
                new ObjectName("Hadoop:service=ResourceManager,name=*QueueMetrics*,*"), null)) {
            out.add(n.toString());
        }
        return out;
    }

    /**
     * `/ws/v1/cluster/metrics` as the RM answers it, every getter: RMWebServices' object for
     * the stock scheduler, CapschedClusterMetrics' (bound at that path) for capsched.
     */
    static Map<String, String> cluster(MockRM rm) throws Exception {
        ResourceScheduler s = rm.getResourceScheduler();
        ClusterMetricsInfo info = s instanceof CapschedResourceScheduler ? CapschedClusterMetrics.of(s)
                : new ClusterMetricsInfo(rm);
        Map<String, String> out = new TreeMap<String, String>();
        for (Method m : ClusterMetricsInfo.class.getMethods()) {
            if (m.getParameterCount() != 0 || m.getDeclaringClass() != ClusterMetricsInfo.class) continue;
            if (!m.getName().startsWith("get") && !m.getName().startsWith("is")) continue;
            Object v = m.invoke(info);
            out.put(m.getName(), v == null ? "null" : v instanceof org.apache.hadoop.yarn.server.resourcemanager.webapp
                    .dao.ResourceInfo ? v.toString() : String.valueOf(v));
        }
        return out;
    }

    /** Each queue's QueueInfo, `yarn queue -status` text included, and the queue ACLs. */
    static Map<String, String> queueInfos(ResourceScheduler scheduler) throws Exception {
        Map<String, String> out = new TreeMap<String, String>();
        for (String q : new String[] {"root", "a", "root.a", "p", "b1", "root.p.b2"}) {
            QueueInfo info = scheduler.getQueueInfo(q, false, false);
            out.put(q, describe(info));
            StringWriter text = new StringWriter();
            PrintWriter w = new PrintWriter(text);
            Method print = QueueCLI.class.getDeclaredMethod("printQueueInfo", PrintWriter.class, QueueInfo.class);
            print.setAccessible(true);
            print.invoke(new QueueCLI(), w, info);
            w.flush();
            out.put(q + " status", text.toString());
        }
        StringBuilder tree = new StringBuilder();
        tree(scheduler.getQueueInfo("root", true, true), "", tree);
        out.put("tree", tree.toString());
        StringBuilder acls = new StringBuilder();
        for (QueueUserACLInfo acl : scheduler.getQueueUserAclInfo()) {
            acls.append(acl.getQueueName()).append(' ').append(acl.getUserAcls()).append('\n');
        }
        out.put("acls", acls.toString());
        return out;
    }

    static void tree(QueueInfo q, String indent, StringBuilder out) {
        out.append(indent).append(q.getQueueName()).append(' ').append(q.getCapacity()).append(' ')
                .append(q.getCurrentCapacity()).append('\n');
        for (QueueInfo child : q.getChildQueues()) tree(child, indent + "  ", out);
    }

    static String describe(QueueInfo q) {
        QueueStatistics s = q.getQueueStatistics();
        StringBuilder b = new StringBuilder();
        b.append("name=").append(q.getQueueName()).append(" capacity=").append(q.getCapacity())
                .append(" max=").append(q.getMaximumCapacity()).append(" current=").append(q.getCurrentCapacity())
                .append(" state=").append(q.getQueueState()).append(" labels=").append(q.getAccessibleNodeLabels())
                .append(" default=").append(q.getDefaultNodeLabelExpression())
                .append(" preemptionDisabled=").append(q.getPreemptionDisabled())
                .append(" intraQueuePreemptionDisabled=").append(q.getIntraQueuePreemptionDisabled())
                .append(" children=").append(q.getChildQueues().size());
        b.append(" stats=[submitted ").append(s.getNumAppsSubmitted()).append(" running ").append(s.getNumAppsRunning())
                .append(" pending ").append(s.getNumAppsPending()).append(" completed ").append(s.getNumAppsCompleted())
                .append(" killed ").append(s.getNumAppsKilled()).append(" failed ").append(s.getNumAppsFailed())
                .append(" users ").append(s.getNumActiveUsers()).append(" availableMB ").append(s.getAvailableMemoryMB())
                .append(" allocatedMB ").append(s.getAllocatedMemoryMB()).append(" pendingMB ")
                .append(s.getPendingMemoryMB()).append(" reservedMB ").append(s.getReservedMemoryMB())
                .append(" availableVCores ").append(s.getAvailableVCores()).append(" allocatedVCores ")
                .append(s.getAllocatedVCores()).append(" pendingVCores ").append(s.getPendingVCores())
                .append(" reservedVCores ").append(s.getReservedVCores()).append(" pendingContainers ")
                .append(s.getPendingContainers()).append(" allocatedContainers ").append(s.getAllocatedContainers())
                .append(" reservedContainers ").append(s.getReservedContainers()).append(']');
        QueueConfigurations c = q.getQueueConfigurations() == null ? null : q.getQueueConfigurations().get("");
        if (c != null) {
            b.append(" conf=[").append(c.getCapacity()).append(' ').append(c.getAbsoluteCapacity()).append(' ')
                    .append(c.getMaxCapacity()).append(' ').append(c.getAbsoluteMaxCapacity()).append(' ')
                    .append(c.getMaxAMPercentage()).append(' ').append(c.getEffectiveMinCapacity()).append(' ')
                    .append(c.getEffectiveMaxCapacity()).append(' ').append(c.getConfiguredMinCapacity()).append(' ')
                    .append(c.getConfiguredMaxCapacity()).append(']');
        }
        return b.toString();
    }

    /** One state's readings. */
    static final class Reading {
        final Map<String, String> metrics;
        final TreeSet<String> beans;
        final Map<String, String> cluster;
        final Map<String, String> queues;

        Reading(MockRM rm) throws Exception {
            rm.drainEvents();
            metrics = metrics();
            beans = beans();
            cluster = cluster(rm);
            queues = queueInfos(rm.getResourceScheduler());
        }
    }

    /** The scenario on `scheduler`: the readings of each state. */
    static List<Reading> run(String scheduler, boolean userMetrics) throws Exception {
        MockRM rm = SameOutcomesTest.start(scheduler, queues(userMetrics));
        List<Reading> out = new ArrayList<Reading>();
        try {
            MockNM h1 = rm.registerNode("127.0.0.1:1234", 8 * 1024, 8);
            MockNM h2 = rm.registerNode("127.0.0.2:1234", 8 * 1024, 8);
            SameOutcomesTest.beat(rm, h1);
            SameOutcomesTest.beat(rm, h2);
            out.add(new Reading(rm));

            // alice in a: her AM and three tasks on h1, and two more asks a's maximum holds.
            RMApp alice = SameOutcomesTest.submit(rm, "a", "alice", 1024);
            MockAM aliceAm = MockRM.launchAndRegisterAM(alice, rm, h1);
            List<Container> aliceTasks = SameOutcomesTest.askAndRun(rm, aliceAm, h1, 1024, 5, 6);
            // A second application in a waits for a's AM limit.
            RMApp waiting = SameOutcomesTest.submit(rm, "a", "carol", 2048);
            // bob in b1: his AM on h2, then a 7 GB ask that only a reservation can hold.
            RMApp bob = SameOutcomesTest.submit(rm, "b1", "bob", 1024);
            MockAM bobAm = MockRM.launchAndRegisterAM(bob, rm, h2);
            List<Container> bobTasks = SameOutcomesTest.askAndRun(rm, bobAm, h2, 1024, 2, 3);
            bobAm.allocate("*", 7 * 1024, 1, new ArrayList<ContainerId>());
            rm.drainEvents();
            SameOutcomesTest.beat(rm, h2);
            SameOutcomesTest.beat(rm, h1);
            out.add(new Reading(rm));
            assertTrue("the scenario runs tasks", !aliceTasks.isEmpty() && bobTasks.size() == 2);
            assertEquals(RMAppState.ACCEPTED, waiting.getState());

            // Everything finishes: the waiting application killed first (so no heartbeat races
            // its activation as alice's ending frees the AM limit), then the tasks and the AMs.
            rm.killApp(waiting.getApplicationId());
            rm.waitForState(waiting.getApplicationId(), RMAppState.KILLED);
            rm.drainEvents();
            for (Container c : aliceTasks) {
                h1.nodeHeartbeat(alice.getCurrentAppAttempt().getAppAttemptId(), c.getId().getContainerId(),
                        ContainerState.COMPLETE);
            }
            for (Container c : bobTasks) {
                h2.nodeHeartbeat(bob.getCurrentAppAttempt().getAppAttemptId(), c.getId().getContainerId(),
                        ContainerState.COMPLETE);
            }
            rm.drainEvents();
            aliceAm.allocate(new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>());
            bobAm.allocate(new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>());
            for (MockAM am : new MockAM[] {aliceAm, bobAm}) am.unregisterAppAttempt();
            h1.nodeHeartbeat(alice.getCurrentAppAttempt().getAppAttemptId(), 1, ContainerState.COMPLETE);
            h2.nodeHeartbeat(bob.getCurrentAppAttempt().getAppAttemptId(), 1, ContainerState.COMPLETE);
            rm.waitForState(alice.getApplicationId(), RMAppState.FINISHED);
            rm.waitForState(bob.getApplicationId(), RMAppState.FINISHED);
            rm.drainEvents();
            SameOutcomesTest.beat(rm, h1);
            SameOutcomesTest.beat(rm, h2);
            out.add(new Reading(rm));
            return out;
        } finally {
            rm.stop();
        }
    }

    /** The entries of two maps that differ, one a line. */
    static String differences(Map<String, String> stock, Map<String, String> ours) {
        StringBuilder b = new StringBuilder();
        TreeSet<String> keys = new TreeSet<String>(stock.keySet());
        keys.addAll(ours.keySet());
        for (String k : keys) {
            String s = stock.get(k);
            String o = ours.get(k);
            if (s == null ? o != null : !s.equals(o)) b.append(k).append(": stock ").append(s).append(", capsched ").append(o).append('\n');
        }
        return b.toString();
    }

    @Test
    public void queueAndClusterMetricsAndQueueInfoEqualTheStockSchedulersInEveryState() throws Exception {
        compare(false);
    }

    @Test
    public void theSameWithMetricsPerUser() throws Exception {
        compare(true);
    }

    static void compare(boolean userMetrics) throws Exception {
        List<Reading> stock = run(SameOutcomesTest.STOCK, userMetrics);
        List<Reading> ours = run(SameOutcomesTest.CAPSCHED, userMetrics);
        String[] states = {"idle", "running", "finished"};
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < states.length; i++) {
            Reading s = stock.get(i);
            Reading o = ours.get(i);
            String d = differences(s.metrics, o.metrics) + differences(s.queues, o.queues);
            d += differences(s.cluster, o.cluster);
            if (!s.beans.equals(o.beans)) d += "beans: stock " + s.beans + ", capsched " + o.beans + "\n";
            if (!d.isEmpty()) all.append("-- ").append(states[i]).append(":\n").append(d);
        }
        assertEquals("", all.toString());
        // The states are what they say: a reservation is held, the idle cluster's total is
        // its two nodes, every queue has its bean.
        assertTrue(stock.get(1).cluster.toString(), !stock.get(1).cluster.get("getReservedMB").equals("0"));
        assertEquals("16384", ours.get(0).cluster.get("getTotalMB"));
        assertTrue(ours.get(0).beans.toString(),
                ours.get(0).beans.contains("Hadoop:service=ResourceManager,name=QueueMetrics,q0=root,q1=p,q2=b2"));
    }
}
