package org.capsched.yarn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.protocolrecords.GetNewApplicationRequest;
import org.apache.hadoop.yarn.api.protocolrecords.SubmitApplicationRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeLabel;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;
import org.junit.Test;

/**
 * The RM's web answers under capsched, with nothing but the scheduler class set: REST
 * {@code /ws/v1/cluster/scheduler} gives the stock CapacityScheduler's queue tree (names,
 * capacities, usage, applications), the rest of {@code /ws/v1/cluster} still answers, and the
 * UI's scheduler page shows what the stock CapacitySchedulerPage shows for the same queues and
 * applications: the queue bars, each leaf's status rows and its users, per partition once a
 * labelled node has joined. With {@code -Dcapsched.web.dump=DIR} the pages and documents are
 * written to DIR.
 */
public class WebTest {
    /** What a page or document at `path` of the RM's web app says: the status, then the body. */
    static String[] get(String base, String path, String accept) throws Exception {
        HttpURLConnection c = (HttpURLConnection) new URL(base + path).openConnection();
        if (accept != null) c.setRequestProperty("Accept", accept);
        int status = c.getResponseCode();
        InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (in != null) {
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0;) body.write(buf, 0, n);
            in.close();
        }
        return new String[] {String.valueOf(status), body.toString("UTF-8")};
    }

    /** The queue tree of a /scheduler document as lines a person can compare. */
    static void tree(JsonNode q, String indent, List<String> out) {
        out.add(indent + q.path("queueName").asText() + " capacity " + q.path("capacity").asDouble()
                + " max " + q.path("maxCapacity").asDouble() + " absolute " + q.path("absoluteCapacity").asDouble()
                + " absoluteMax " + q.path("absoluteMaxCapacity").asDouble() + " used " + q.path("usedCapacity").asDouble()
                + " apps " + q.path("numApplications").asInt() + " state " + q.path("state").asText()
                + " type " + q.path("type").asText());
        for (JsonNode child : q.path("queues").path("queue")) tree(child, indent + "  ", out);
    }

    static void waitFor(String what, java.util.concurrent.Callable<Boolean> done) throws Exception {
        for (int i = 0; i < 200; i++) {
            if (done.call()) return;
            Thread.sleep(50);
        }
        throw new AssertionError("timed out waiting for " + what);
    }

    /** Submits an unmanaged application to `queue` as `user`, registers its AM. */
    static MockAM unmanaged(final ResourceManager rm, String queue, String user) throws Exception {
        final ApplicationId id = rm.getClientRMService()
                .getNewApplication(GetNewApplicationRequest.newInstance()).getApplicationId();
        final ApplicationSubmissionContext ctx = ApplicationSubmissionContext.newInstance(id, "web-" + user, queue,
                Priority.newInstance(0),
                ContainerLaunchContext.newInstance(null, null, null, null, null, null), true, true, 1,
                Resource.newInstance(1024, 1));
        UserGroupInformation.createRemoteUser(user).doAs(new PrivilegedExceptionAction<Void>() {
            @Override
            public Void run() throws Exception {
                rm.getClientRMService().submitApplication(SubmitApplicationRequest.newInstance(ctx));
                return null;
            }
        });
        final RMApp app = rm.getRMContext().getRMApps().get(id);
        waitFor("an attempt of " + id, new java.util.concurrent.Callable<Boolean>() {
            public Boolean call() {
                return app.getCurrentAppAttempt() != null;
            }
        });
        ApplicationAttemptId attempt = app.getCurrentAppAttempt().getAppAttemptId();
        MockAM am = new MockAM(rm.getRMContext(), rm.getApplicationMasterService(), attempt);
        am.registerAppAttempt(true);
        return am;
    }

    static CapacitySchedulerConfiguration queues() {
        CapacitySchedulerConfiguration queues = new CapacitySchedulerConfiguration();
        String r = "yarn.scheduler.capacity.root.";
        queues.set(r + "queues", "a,b,p");
        queues.set(r + "a.capacity", "30");
        queues.set(r + "a.maximum-capacity", "50");
        queues.set(r + "a.disable_preemption", "true");
        queues.set(r + "b.capacity", "20");
        queues.set(r + "b.state", "STOPPED");
        queues.set(r + "b.default-node-label-expression", "x");
        queues.set(r + "p.capacity", "50");
        queues.set(r + "p.queues", "p1,p2");
        queues.set(r + "p.accessible-node-labels", "x");
        queues.set(r + "p.accessible-node-labels.x.capacity", "100");
        queues.set(r + "p.p1.capacity", "60");
        queues.set(r + "p.p1.user-limit-factor", "2");
        queues.set(r + "p.p1.minimum-user-limit-percent", "50");
        queues.set(r + "p.p2.capacity", "40");
        queues.set(r + "p.p2.maximum-capacity", "80");
        queues.set(r + "p.p2.accessible-node-labels.x.capacity", "100");
        queues.set(r + "p.p2.maximum-am-resource-percent", "0.5");
        queues.set(r + "p.p2.ordering-policy", "fair");
        queues.set(r + "p.p2.ordering-policy.fair.enable-size-based-weight", "true");
        queues.set(r + "p.p2.default-application-priority", "3");
        queues.set(r + "p.p2.intra-queue-preemption.disable_preemption", "true");
        return queues;
    }

    /** Asks for `n` containers of `mb` and heartbeats `nm` until the AM has them. */
    static List<Container> run(MockAM am, MockNM nm, int mb, int n) throws Exception {
        am.allocate("*", mb, n, new ArrayList<ContainerId>());
        List<Container> got = new ArrayList<Container>();
        for (int i = 0; i < 200 && got.size() < n; i++) {
            nm.nodeHeartbeat(true);
            Thread.sleep(20);
            got.addAll(am.allocate(new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>())
                    .getAllocatedContainers());
        }
        assertEquals("containers for " + am.getApplicationAttemptId(), n, got.size());
        return got;
    }

    /** What a run of the mini cluster answered: REST lines, then the scheduler page before and after a node labelled x. */
    static class Answers {
        final List<String> rest = new ArrayList<String>();
        final List<String> pages = new ArrayList<String>();
    }

    /**
     * Starts a mini cluster on `scheduler` and reads its web answers, once with two applications
     * running (bob's in p1 with two containers; alice's in p2 with one and an ask her user limit holds),
     * then again once a node labelled x (exclusive, p2's) has joined.
     */
    static Answers web(String scheduler) throws Exception {
        YarnConfiguration conf = new YarnConfiguration(queues());
        conf.set(YarnConfiguration.RM_SCHEDULER, scheduler);
        conf.set("fs.defaultFS", "file:///");
        conf.set(YarnConfiguration.NM_AUX_SERVICES, "");
        conf.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
        // The queues' preemption state reads the monitor's switch; nothing here is preempted.
        conf.setBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS, true);
        conf.setBoolean(YarnConfiguration.NODE_LABELS_ENABLED, true);
        java.io.File labelStore = java.nio.file.Files.createTempDirectory("capsched-web-labels").toFile();
        conf.set(YarnConfiguration.FS_NODE_LABELS_STORE_ROOT_DIR, labelStore.toURI().toString());
        // No NodeManager: in one JVM the last web app started takes Guice's servlet pipeline,
        // and an NM's would answer the RM's port. MockNMs heartbeat the RM instead.
        MiniYARNCluster cluster = new MiniYARNCluster("capsched-web", 0, 1, 1);
        try {
            cluster.init(conf);
            cluster.start();
            final ResourceManager rm = cluster.getResourceManager();
            String base = WebAppUtils.getRMWebAppURLWithScheme(rm.getConfig());
            MockNM nm = new MockNM("localhost:1234", 8192, 8, rm.getResourceTrackerService());
            nm.registerNode();
            waitFor("the node", new java.util.concurrent.Callable<Boolean>() {
                public Boolean call() {
                    return rm.getResourceScheduler().getNumClusterNodes() == 1;
                }
            });
            run(unmanaged(rm, "p1", "bob"), nm, 1024, 2);
            MockAM alice = unmanaged(rm, "p2", "alice");
            run(alice, nm, 1024, 1);
            // Left pending, however many heartbeats are still on their way: her user limit in
            // p2 (2 GB) leaves her 1 GB of headroom. She is a user requesting resources.
            alice.allocate("*", 2048, 1, new ArrayList<ContainerId>());

            Answers out = new Answers();
            String[] doc = get(base, "/ws/v1/cluster/scheduler", "application/json");
            out.rest.add("scheduler " + doc[0]);
            JsonNode info = new ObjectMapper().readTree(doc[1]).path("scheduler").path("schedulerInfo");
            out.rest.add("type " + info.path("type").asText());
            tree(info, "", out.rest);
            String[] metrics = get(base, "/ws/v1/cluster/metrics", "application/json");
            out.rest.add("metrics " + metrics[0] + " nodes "
                    + new ObjectMapper().readTree(metrics[1]).path("clusterMetrics").path("totalNodes").asInt());
            String[] page = get(base, "/cluster/scheduler", null);
            out.rest.add("page " + page[0]);
            out.pages.add(page[1]);

            // A node in partition x: the page draws a tree per partition.
            RMNodeLabelsManager labels = rm.getRMContext().getNodeLabelManager();
            labels.addToCluserNodeLabels(Collections.singletonList(NodeLabel.newInstance("x", true)));
            final NodeId h2 = NodeId.newInstance("localhost", 1235);
            labels.replaceLabelsOnNode(Collections.singletonMap(h2, Collections.singleton("x")));
            new MockNM(h2.toString(), 4096, 4, rm.getResourceTrackerService()).registerNode();
            waitFor("the labelled node", new java.util.concurrent.Callable<Boolean>() {
                public Boolean call() {
                    SchedulerNode n = ((AbstractYarnScheduler<?, ?>) rm.getResourceScheduler()).getSchedulerNode(h2);
                    return n != null && "x".equals(n.getPartition());
                }
            });
            page = get(base, "/cluster/scheduler", null);
            out.rest.add("labelled page " + page[0]);
            out.pages.add(page[1]);
            String dump = System.getProperty("capsched.web.dump");
            if (dump != null) {
                String n = scheduler.substring(scheduler.lastIndexOf('.') + 1);
                for (int i = 0; i < out.pages.size(); i++) {
                    java.nio.file.Files.write(java.nio.file.Paths.get(dump, n + i + ".html"),
                            out.pages.get(i).getBytes("UTF-8"));
                }
                java.nio.file.Files.write(java.nio.file.Paths.get(dump, n + ".json"), doc[1].getBytes("UTF-8"));
            }
            return out;
        } finally {
            cluster.stop();
            org.apache.hadoop.fs.FileUtil.fullyDelete(labelStore);
        }
    }

    /** A queue's bar, a status table, or an "Active Users Info" table. */
    static final Pattern PIECE = Pattern.compile(
            "(<a class=\"ui-state-default ui-corner-all\".*?</a><span class=\"qstats\"[^>]*>[^<]*</span>)"
                    + "|<table class=\"info\">(.*?)</table>|<table id=\"userinfo\">(.*?)</table>",
            Pattern.DOTALL);
    static final Pattern ROW = Pattern.compile("<tr([^>]*)>(.*?)</tr>", Pattern.DOTALL);
    static final Pattern CELL = Pattern.compile("<t[hd][^>]*>\\s*(.*?)\\s*</t[hd]>", Pattern.DOTALL);

    /**
     * The queues of a scheduler page as lines, in page order: each queue's bar (its markup: widths,
     * title, colours, name, used), each status table's title and rows, each users table's
     * columns and rows (a row's highlight included).
     */
    static List<String> queueView(String page) {
        List<String> out = new ArrayList<String>();
        Matcher m = PIECE.matcher(page);
        while (m.find()) {
            if (m.group(1) != null) {
                out.add("bar " + m.group(1));
                continue;
            }
            boolean users = m.group(3) != null;
            if (users) out.add("users" + (m.group(3).contains("Active Users Info") ? " (Active Users Info)" : ""));
            Matcher row = ROW.matcher(users ? m.group(3) : m.group(2));
            while (row.find()) {
                List<String> cells = new ArrayList<String>();
                Matcher cell = CELL.matcher(row.group(2));
                while (cell.find()) cells.add(cell.group(1));
                out.add("  " + (row.group(1).isEmpty() ? "" : row.group(1).trim() + " ") + String.join(" | ", cells));
            }
        }
        return out;
    }

    /** `page` from the line holding `from` to the end of the line holding `to` after it. */
    static String section(String page, String from, String to) {
        int start = page.lastIndexOf('\n', page.indexOf(from)) + 1;
        int end = page.indexOf('\n', page.indexOf(to, start)) + 1;
        return page.substring(start, end);
    }

    @Test
    public void theSchedulerDocumentAndPageAnswerUnderCapsched() throws Exception {
        Answers stock = web(CapacityScheduler.class.getName());
        System.out.println("web answers on the stock scheduler: " + stock.rest);
        assertEquals(stock.rest.toString(), "scheduler 200", stock.rest.get(0));
        Answers ours = web(CapschedResourceScheduler.class.getName());
        assertEquals(stock.rest, ours.rest);
        for (int i = 0; i < stock.pages.size(); i++) {
            String stockPage = stock.pages.get(i);
            String page = ours.pages.get(i);
            // The head (the stock page's styles, jsTree and reopen-queues scripts) and navigation.
            String head = stockPage.substring(0, stockPage.indexOf("Cluster Metrics"));
            assertEquals(head, page.substring(0, page.indexOf("Cluster Metrics")));
            assertTrue(page, page.contains("Cluster Metrics") && page.contains("<table id=\"apps\">"));
            String legend = section(stockPage, "Legend:", "Legend:");
            assertTrue(legend, page.contains(legend));
            // Every bar, status row and user row of the stock page, with its figures.
            List<String> view = queueView(stockPage);
            assertTrue(String.join("\n", view), view.contains("  'root.p.p2' Queue Status"));
            assertEquals(String.join("\n", view), String.join("\n", queueView(page)));
            // What capsched leaves out: the CapacityScheduler's health counters and log dump.
            String health = section(stockPage, "<div id=\"health\">", "</div>");
            String dump = section(stockPage, "Dump scheduler logs", "</script>");
            int comparable = stockPage.length() - health.length() - dump.length();
            System.out.println("scheduler page " + (i == 0 ? "" : "with a labelled node ") + "bytes: stock "
                    + stockPage.length() + ", capsched " + page.length() + " (the stock's less its health tables, "
                    + health.length() + ", and log dump, " + dump.length() + ": " + comparable + ")");
            assertTrue(page.length() + " against " + comparable, Math.abs(page.length() - comparable) < comparable / 100);
        }
        assertTrue(ours.pages.get(1), ours.pages.get(1).contains("Partition: x &lt;memory:4096, vCores:4&gt;"));
    }
}
