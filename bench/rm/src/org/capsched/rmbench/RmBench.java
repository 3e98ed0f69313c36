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

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.protocolrecords.GetNewApplicationRequest;
import org.apache.hadoop.yarn.api.protocolrecords.SubmitApplicationRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.util.Records;

/**
 * The RM-level benchmark ({@code scripts/rm-bench}): a real ResourceManager in this JVM
 * ({@link BenchResourceManager}), {@code --nms} simulated NodeManagers heartbeating through its
 * ResourceTrackerService every {@code --hb-ms}, and applications submitted through its
 * ClientRMService whose AMs allocate through its ApplicationMasterService every second
 * ({@link SimNode}, {@link SimApp}), as Hadoop's SLS drives an RM. The trace: {@code --apps}
 * applications of {@code --tasks} tasks of {@code --task-ms} each, {@code --concurrent} running
 * at once (a finished one is replaced at once), so the cluster stays saturated until the last
 * submission. One run, one scheduler, one JSON line on stdout; the script alternates
 * schedulers in fresh JVMs and combines the lines.
 */
public final class RmBench {
    // The run's parameters (flags of the same names).
    String scheduler = "stock";
    boolean async;
    boolean locality = true;
    int nms = 1000;
    int apps = 400;
    int concurrent = 100;
    int tasks = 200;
    long taskMs = 10_000;
    int nodeMb = 8192;
    int nodeVcores = 8;
    int queues = 4;
    int hbMs = 1000;
    int amHbMs = 1000;
    int nmThreads = 4;
    int amThreads = 2;
    int warmupS = 20;
    int maxS = 600;
    String confDir = "target/rm-bench/conf";
    final Map<String, String> extra = new HashMap<String, String>();

    private ResourceManager rm;
    private final Map<NodeId, SimNode> nodes = new ConcurrentHashMap<NodeId, SimNode>();
    private final List<SimNode> nodeList = new ArrayList<SimNode>();
    private final Map<ApplicationId, SimApp> byApp = new ConcurrentHashMap<ApplicationId, SimApp>();
    private ScheduledExecutorService nmPool;
    private ScheduledExecutorService amPool;
    private ScheduledExecutorService submitter;
    private final AtomicInteger submitted = new AtomicInteger();
    private final CountDownLatch allFinished = new CountDownLatch(1);
    private volatile long lastSubmittedAtMs;
    long windowStartMs;
    private final Stats stats = Stats.INSTANCE;
    private final Random random = new Random(42);

    public static void main(String[] args) throws Exception {
        RmBench b = new RmBench();
        b.parse(args);
        String line = b.run();
        System.out.println(line);
        System.out.flush();
        // A flight recording is written by a shutdown hook, which halt skips: dump it first.
        for (jdk.jfr.Recording r : jdk.jfr.FlightRecorder.getFlightRecorder().getRecordings()) {
            if (r.getDestination() != null) r.dump(r.getDestination());
        }
        Runtime.getRuntime().halt(0); // the RM's non-daemon threads would outlive a clean stop
    }

    private void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
            case "--async": async = true; continue;
            case "--no-locality": locality = false; continue;
            case "--scheduler": scheduler = v; break;
            case "--nms": nms = Integer.parseInt(v); break;
            case "--apps": apps = Integer.parseInt(v); break;
            case "--concurrent": concurrent = Integer.parseInt(v); break;
            case "--tasks": tasks = Integer.parseInt(v); break;
            case "--task-ms": taskMs = Long.parseLong(v); break;
            case "--node-mb": nodeMb = Integer.parseInt(v); break;
            case "--node-vcores": nodeVcores = Integer.parseInt(v); break;
            case "--queues": queues = Integer.parseInt(v); break;
            case "--hb-ms": hbMs = Integer.parseInt(v); break;
            case "--am-hb-ms": amHbMs = Integer.parseInt(v); break;
            case "--nm-threads": nmThreads = Integer.parseInt(v); break;
            case "--am-threads": amThreads = Integer.parseInt(v); break;
            case "--warmup-s": warmupS = Integer.parseInt(v); break;
            case "--max-s": maxS = Integer.parseInt(v); break;
            case "--conf-dir": confDir = v; break;
            case "--conf": {
                int eq = v.indexOf('=');
                extra.put(v.substring(0, eq), v.substring(eq + 1));
                break;
            }
            default: throw new IllegalArgumentException("unknown flag " + a);
            }
            i++;
        }
        if (!scheduler.equals("stock") && !scheduler.equals("capsched")) {
            throw new IllegalArgumentException("--scheduler is stock or capsched, not " + scheduler);
        }
    }

    ResourceManager rm() {
        return rm;
    }

    SimNode node(NodeId id) {
        return nodes.get(id);
    }

    void allocated(Container c) {
        if (stats.measuring) stats.allocated.incrementAndGet();
    }

    private static ThreadFactory named(final String prefix) {
        final AtomicInteger n = new AtomicInteger();
        return new ThreadFactory() {
            @Override
            public Thread newThread(Runnable r) {
                Thread t = new Thread(r, prefix + "-" + n.getAndIncrement());
                t.setDaemon(true);
                return t;
            }
        };
    }

    private String run() throws Exception {
        writeQueues();
        makeNodes();
        Configuration conf = rmConf();
        rm = new BenchResourceManager(this);
        rm.init(conf);
        rm.start();
        nmPool = Executors.newScheduledThreadPool(nmThreads, named("bench-nm"));
        amPool = Executors.newScheduledThreadPool(amThreads, named("bench-am"));
        submitter = Executors.newSingleThreadScheduledExecutor(named("bench-submit"));
        long t0 = System.currentTimeMillis();
        registerNodes();
        long registeredMs = System.currentTimeMillis() - t0;
        for (final SimNode n : nodes.values()) {
            nmPool.scheduleAtFixedRate(new Runnable() {
                @Override
                public void run() {
                    try {
                        n.heartbeat(rm.getResourceTrackerService(), System.currentTimeMillis(), stats);
                    } catch (Throwable e) {
                        stats.trouble(n.id.toString(), e);
                    }
                }
            }, random.nextInt(hbMs), hbMs, TimeUnit.MILLISECONDS);
        }
        Sampler sampler = new Sampler(this, stats);
        long traceStart = System.currentTimeMillis();
        for (int i = 0; i < Math.min(concurrent, apps); i++) submitNext();
        // Warm-up: the JIT and the cluster filling; then the measured window.
        Thread.sleep(warmupS * 1000L);
        Map<Integer, Object[]> cpu0 = ThreadCpu.read();
        Map<String, Long> java0 = JavaThreadCpu.schedulingThreads();
        long window0 = System.nanoTime();
        windowStartMs = System.currentTimeMillis();
        stats.measuring = true;
        sampler.start();
        boolean finished = allFinished.await(Math.max(1, maxS - warmupS), TimeUnit.SECONDS);
        long traceEnd = System.currentTimeMillis();
        stats.measuring = false;
        sampler.stop();
        long windowNs = System.nanoTime() - window0;
        Map<Integer, Object[]> cpu1 = ThreadCpu.read();
        Map<String, Long> java1 = JavaThreadCpu.schedulingThreads();
        stats.stopping = true;
        nmPool.shutdownNow();
        amPool.shutdownNow();
        submitter.shutdownNow();
        return Report.json(this, stats, sampler, finished, traceEnd - traceStart, registeredMs, windowNs,
                ThreadCpu.byName(cpu0, cpu1), JavaThreadCpu.diff(java0, java1));
    }

    /** capacity-scheduler.xml: {@code --queues} equal leaves under root, elastic to 100 %. */
    private void writeQueues() throws Exception {
        File dir = new File(confDir);
        dir.mkdirs();
        StringBuilder leaves = new StringBuilder();
        StringBuilder props = new StringBuilder();
        double share = 100.0 / queues;
        for (int q = 0; q < queues; q++) {
            String name = "q" + q;
            leaves.append(q == 0 ? "" : ",").append(name);
            // The last leaf takes what rounding left, so the children sum to exactly 100.
            double cap = q == queues - 1 ? 100.0 - share * (queues - 1) : share;
            props.append(prop("yarn.scheduler.capacity.root." + name + ".capacity", String.format(Locale.ROOT, "%.4f", cap)));
            props.append(prop("yarn.scheduler.capacity.root." + name + ".maximum-capacity", "100"));
            props.append(prop("yarn.scheduler.capacity.root." + name + ".user-limit-factor", "100"));
        }
        props.append(prop("yarn.scheduler.capacity.root.queues", leaves.toString()));
        props.append(prop("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5"));
        try (Writer w = new OutputStreamWriter(new FileOutputStream(new File(dir, "capacity-scheduler.xml")),
                StandardCharsets.UTF_8)) {
            w.write("<?xml version=\"1.0\"?>\n<configuration>\n" + props + "</configuration>\n");
        }
    }

    private static String prop(String k, String v) {
        return "  <property><name>" + k + "</name><value>" + v + "</value></property>\n";
    }

    private Configuration rmConf() {
        YarnConfiguration conf = new YarnConfiguration();
        conf.set(YarnConfiguration.RM_SCHEDULER, scheduler.equals("stock")
                ? TimedCapacityScheduler.class.getName() : TimedCapsched.class.getName());
        for (String k : new String[] {YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_SCHEDULER_ADDRESS,
            YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, YarnConfiguration.RM_ADMIN_ADDRESS,
            YarnConfiguration.RM_WEBAPP_ADDRESS}) {
            conf.set(k, "127.0.0.1:0");
        }
        conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
        conf.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
        conf.set("net.topology.table.file.name", new File(confDir, "topology.table").getAbsolutePath());
        conf.setInt(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, hbMs);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 1024);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, nodeMb);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES, nodeVcores);
        conf.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
        conf.setBoolean(YarnConfiguration.RM_SYSTEM_METRICS_PUBLISHER_ENABLED, false);
        // Finished applications the RM keeps in memory: 10,000 by default; the trace has more.
        conf.setInt(YarnConfiguration.RM_MAX_COMPLETED_APPLICATIONS, 1000);
        conf.setBoolean("yarn.scheduler.capacity.schedule-asynchronously.enable", async);
        for (Map.Entry<String, String> e : extra.entrySet()) conf.set(e.getKey(), e.getValue());
        return conf;
    }

    /**
     * The simulated NodeManagers, 40 to a rack, and the RM's topology table for them (the RM
     * resolves racks through TableMapping, as SLS sets it up).
     */
    private void makeNodes() throws Exception {
        final Resource capability = Resource.newInstance(nodeMb, nodeVcores);
        StringBuilder table = new StringBuilder();
        for (int i = 0; i < nms; i++) {
            // Loopback addresses as host names: the RM resolves every NM's host (NodesListManager,
            // container tokens), and a literal address needs no DNS.
            SimNode n = new SimNode(String.format(Locale.ROOT, "127.1.%d.%d", i / 250, i % 250 + 1),
                    String.format(Locale.ROOT, "/r%03d", i / 40), capability);
            nodeList.add(n);
            nodes.put(n.id, n);
            table.append(n.id.getHost()).append(' ').append(n.rack()).append('\n');
        }
        try (Writer w = new OutputStreamWriter(new FileOutputStream(new File(confDir, "topology.table")),
                StandardCharsets.UTF_8)) {
            w.write(table.toString());
        }
    }

    /** Every NM registered through the ResourceTrackerService, and in the scheduler. */
    private void registerNodes() throws Exception {
        for (SimNode n : nodeList) n.register(rm.getResourceTrackerService());
        long deadline = System.currentTimeMillis() + 120_000;
        while (rm.getResourceScheduler().getNumClusterNodes() < nms) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("only " + rm.getResourceScheduler().getNumClusterNodes() + " of "
                        + nms + " nodes reached the scheduler in 120 s");
            }
            Thread.sleep(50); // waiting on the RM's own dispatcher, not timing anything
        }
    }

    /** Submits the next application of the trace, if any is left. */
    private void submitNext() {
        final int i = submitted.getAndIncrement();
        if (i >= apps) return;
        submitter.execute(new Runnable() {
            @Override
            public void run() {
                try {
                    submit(i);
                } catch (Throwable e) {
                    stats.trouble("submission " + i, e);
                }
            }
        });
    }

    private void submit(int i) throws Exception {
        final ApplicationId id = rm.getClientRMService()
                .getNewApplication(Records.newRecord(GetNewApplicationRequest.class)).getApplicationId();
        SimApp app = new SimApp(this, tasks, taskMs,
                new TaskAsks(tasks, Resource.newInstance(1024, 1), locality, nodeList, new Random(i)));
        byApp.put(id, app);
        ApplicationSubmissionContext ctx = Records.newRecord(ApplicationSubmissionContext.class);
        ctx.setApplicationId(id);
        ctx.setApplicationName("bench-" + i);
        ctx.setMaxAppAttempts(1);
        ctx.setQueue("q" + (i % queues));
        ctx.setPriority(Priority.newInstance(0));
        ctx.setResource(Resource.newInstance(1024, 1));
        ContainerLaunchContext clc = Records.newRecord(ContainerLaunchContext.class);
        ctx.setAMContainerSpec(clc);
        final SubmitApplicationRequest req = SubmitApplicationRequest.newInstance(ctx);
        UserGroupInformation ugi = UserGroupInformation.createRemoteUser("user" + (i % 8));
        stats.timeRmCall(new PrivilegedExceptionAction<Object>() {
            @Override
            public Object run() throws Exception {
                return ugi.doAs(new PrivilegedExceptionAction<Object>() {
                    @Override
                    public Object run() throws Exception {
                        return rm.getClientRMService().submitApplication(req);
                    }
                });
            }
        });
        lastSubmittedAtMs = System.currentTimeMillis();
    }

    /** The RM launched an attempt's AM container: the AM runs on its node and registers. */
    void amLaunched(final ApplicationAttemptId attempt, final Container am, final Token<AMRMTokenIdentifier> token) {
        final SimApp app = byApp.get(attempt.getApplicationId());
        if (app == null) return;
        SimNode node = nodes.get(am.getNodeId());
        if (node != null) node.launchAm(am.getId());
        // Off the RM's dispatcher thread, as a real AM registers from its own process.
        amPool.execute(new Runnable() {
            @Override
            public void run() {
                try {
                    app.launched(attempt, am.getId(), token);
                    app.setLoop(amPool.scheduleAtFixedRate(new Runnable() {
                        @Override
                        public void run() {
                            try {
                                app.heartbeat();
                            } catch (Throwable e) {
                                stats.trouble("AM " + attempt, e);
                            }
                        }
                    }, 0, amHbMs, TimeUnit.MILLISECONDS));
                } catch (Throwable e) {
                    stats.trouble("AM " + attempt + " registration", e);
                }
            }
        });
    }

    void amCleanup(Container am) {
        if (am == null) return;
        SimNode node = nodes.get(am.getNodeId());
        if (node != null) node.cleanupAm(am.getId());
    }

    void appFinished(SimApp app) {
        byApp.remove(app.attempt().getApplicationId());
        long done = stats.appsFinished.incrementAndGet();
        if (done >= apps) allFinished.countDown();
        submitNext();
    }

    long lastSubmittedAtMs() {
        return lastSubmittedAtMs;
    }

    long processRssKb() {
        return Sampler.rssKb();
    }

    static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
