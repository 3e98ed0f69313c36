package org.capsched.yarn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;
import org.junit.Test;

/**
 * The RM's web answers under capsched, with nothing but the scheduler class set: REST
 * {@code /ws/v1/cluster/scheduler} gives the stock CapacityScheduler's queue tree (names,
 * capacities, usage, applications), the rest of {@code /ws/v1/cluster} still answers, and the
 * UI's scheduler page renders capsched's queues.
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

    /** Starts a mini cluster on `scheduler`, and reads its web answers. */
    static List<String> web(String scheduler, List<String> pages) throws Exception {
        CapacitySchedulerConfiguration queues = new CapacitySchedulerConfiguration();
        queues.set("yarn.scheduler.capacity.root.queues", "a,b");
        queues.set("yarn.scheduler.capacity.root.a.capacity", "30");
        queues.set("yarn.scheduler.capacity.root.a.maximum-capacity", "50");
        queues.set("yarn.scheduler.capacity.root.b.capacity", "70");
        queues.set("yarn.scheduler.capacity.root.b.state", "STOPPED");
        YarnConfiguration conf = new YarnConfiguration(queues);
        conf.set(YarnConfiguration.RM_SCHEDULER, scheduler);
        conf.set("fs.defaultFS", "file:///");
        conf.set(YarnConfiguration.NM_AUX_SERVICES, "");
        conf.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
        // No NodeManager: in one JVM the last web app started takes Guice's servlet pipeline,
        // and an NM's would answer the RM's port.
        MiniYARNCluster cluster = new MiniYARNCluster("capsched-web", 0, 1, 1);
        try {
            cluster.init(conf);
            cluster.start();
            String base = WebAppUtils.getRMWebAppURLWithScheme(cluster.getResourceManager().getConfig());
            List<String> out = new ArrayList<String>();
            String[] doc = get(base, "/ws/v1/cluster/scheduler", "application/json");
            out.add("scheduler " + doc[0]);
            JsonNode info = new ObjectMapper().readTree(doc[1]).path("scheduler").path("schedulerInfo");
            out.add("type " + info.path("type").asText());
            tree(info, "", out);
            String[] metrics = get(base, "/ws/v1/cluster/metrics", "application/json");
            out.add("metrics " + metrics[0] + " nodes "
                    + new ObjectMapper().readTree(metrics[1]).path("clusterMetrics").path("totalNodes").asInt());
            String[] page = get(base, "/cluster/scheduler", null);
            out.add("page " + page[0]);
            pages.add(page[1]);
            return out;
        } finally {
            cluster.stop();
        }
    }

    @Test
    public void theSchedulerDocumentAndPageAnswerUnderCapsched() throws Exception {
        List<String> stockPages = new ArrayList<String>();
        List<String> stock = web(CapacityScheduler.class.getName(), stockPages);
        System.out.println("web answers on the stock scheduler: " + stock);
        assertEquals(stock.toString(), "scheduler 200", stock.get(0));
        List<String> pages = new ArrayList<String>();
        assertEquals(stock, web(CapschedResourceScheduler.class.getName(), pages));
        String page = pages.get(0);
        assertTrue(page, page.contains("capsched-queues") && page.contains("root.a") && page.contains("root.b"));
        assertTrue(page, page.contains("Cluster Metrics")); // the RM's own blocks around ours
    }
}
