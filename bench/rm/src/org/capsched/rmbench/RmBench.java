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
import org.apache.hadoop.yarn.api.protocolrecords.KillApplicationRequest;
import org.apache.hadoop.yarn.api.protocolrecords.SubmitApplicationRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
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
 *
 * <p>{@code --check} makes it a correctness run instead ({@link CheckRun}, {@code scripts/rm-check}):
 * many NM and AM threads against the RM for {@code --duration-s}, some applications killed,
 * a {@link Watchdog} against hangs, and at the end the RM's, the scheduler's and the harness's
 * accounts of every container compared ({@link Accounts}); the exit status says whether they agree.
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
    // --check runs (CheckRun): their length, seed, share of applications killed, the spread of
    // tasks per application and of task times (from the minimum to --tasks / --task-ms), and how
    // long the watchdog lets progress stop.
    boolean check;
    int durationS = 60;
    long seed = 42;
    int killPercent;
    int tasksMin = -1;
    long taskMsMin = -1;
    int stallS = 30;
    private final java.util.Set<String> given = new java.util.HashSet<String>();

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
    private Random random;
    // A --check run's: its ledger, the gates its pauses close, what it killed, and when it stops
    // submitting (and killing).
    private Ledger ledger;
    final Gate nmGate = new Gate();
    final Gate amGate = new Gate();
    private final java.util.Set<ApplicationId> killed = ConcurrentHashMap.newKeySet();
    private final Map<ApplicationId, SimApp> killedApps = new ConcurrentHashMap<ApplicationId, SimApp>();
    final AtomicInteger killedCount = new AtomicInteger();
    private final AtomicInteger submissionsInFlight = new AtomicInteger();
    volatile boolean stopSubmitting;
    private ScheduledExecutorService killer;
    CountingDispatcher rmDispatcher;
    private final Map<ContainerId, NodeId> amNodes = new ConcurrentHashMap<ContainerId, NodeId>();

    public static void main(String[] args) throws Exception {
        RmBench b = new RmBench();
        b.parse(args);
        if (b.check) {
            CheckRun.Outcome o = new CheckRun(b).run();
            System.out.println(o.line);
            System.out.flush();
            Runtime.getRuntime().halt(o.ok ? 0 : 1);
        }
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
            case "--check": check = true; continue;
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
            case "--duration-s": durationS = Integer.parseInt(v); break;
            case "--seed": seed = Long.parseLong(v); break;
            case "--kill-percent": killPercent = Integer.parseInt(v); break;
            case "--tasks-min": tasksMin = Integer.parseInt(v); break;
            case "--task-ms-min": taskMsMin = Long.parseLong(v); break;
            case "--stall-s": stallS = Integer.parseInt(v); break;
            case "--conf": {
                int eq = v.indexOf('=');
                extra.put(v.substring(0, eq), v.substring(eq + 1));
                break;
            }
            default: throw new IllegalArgumentException("unknown flag " + a);
            }
            given.add(a);
            i++;
        }
        if (check) checkDefaults();
        if (tasksMin < 0 || tasksMin > tasks) tasksMin = tasks;
        if (taskMsMin < 0 || taskMsMin > taskMs) taskMsMin = taskMs;
        random = new Random(seed);
        if (!scheduler.equals("stock") && !scheduler.equals("capsched")) {
            throw new IllegalArgumentException("--scheduler is stock or capsched, not " + scheduler);
        }
    }

    /**
     * A --check run's shape, where its flags leave it: 500 NMs of 4 GB (2,000 slots) heartbeating
     * every second from 16 threads, 50 AMs allocating every 250 ms from 16 threads, each with 20
     * to 120 tasks of 0.2 to 2 s (more asks than slots, so the cluster stays full and churns),
     * one application in ten killed at a random moment, applications replaced as they end.
     */
    private void checkDefaults() {
        if (!given.contains("--nms")) nms = 500;
        if (!given.contains("--concurrent")) concurrent = 50;
        if (!given.contains("--apps")) apps = Integer.MAX_VALUE;
        if (!given.contains("--tasks")) tasks = 120;
        if (!given.contains("--tasks-min")) tasksMin = 20;
        if (!given.contains("--task-ms")) taskMs = 2000;
        if (!given.contains("--task-ms-min")) taskMsMin = 200;
        if (!given.contains("--node-mb")) nodeMb = 4096;
        if (!given.contains("--node-vcores")) nodeVcores = 4;
        if (!given.contains("--nm-threads")) nmThreads = 16;
        if (!given.contains("--am-threads")) amThreads = 16;
        if (!given.contains("--am-hb-ms")) amHbMs = 250;
        if (!given.contains("--kill-percent")) killPercent = 10;
    }

    ResourceManager rm() {
        return rm;
    }

    Ledger ledger() {
        return ledger;
    }

    boolean killed(ApplicationId id) {
        return killed.contains(id);
    }

    java.util.Collection<SimNode> nodes() {
        return nodeList;
    }

    Map<ApplicationId, SimApp> apps() {
        return byApp;
    }

    /** The applications killed, with their AMs (which may still call until the RM refuses them). */
    Map<ApplicationId, SimApp> killedApps() {
        return killedApps;
    }

    /** Submissions handed to the submitter and not yet through ClientRMService. */
    int submissionsInFlight() {
        return submissionsInFlight.get();
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

    /**
     * The RM started, every NM registered and heartbeating; returns how long registering took
     * (ms). A --check run also keeps a ledger and kills applications.
     */
    long setUp() throws Exception {
        if (check) ledger = new Ledger();
        writeQueues();
        makeNodes();
        Configuration conf = rmConf();
        rm = new BenchResourceManager(this);
        rm.init(conf);
        rm.start();
        nmPool = Executors.newScheduledThreadPool(nmThreads, named("bench-nm"));
        amPool = Executors.newScheduledThreadPool(amThreads, named("bench-am"));
        submitter = Executors.newSingleThreadScheduledExecutor(named("bench-submit"));
        if (check) killer = Executors.newSingleThreadScheduledExecutor(named("bench-kill"));
        long t0 = System.currentTimeMillis();
        registerNodes();
        long registeredMs = System.currentTimeMillis() - t0;
        for (final SimNode n : nodes.values()) {
            nmPool.scheduleAtFixedRate(new Runnable() {
                @Override
                public void run() {
                    if (!nmGate.enter()) return;
                    try {
                        n.heartbeat(rm.getResourceTrackerService(), System.currentTimeMillis(), stats, ledger);
                    } catch (Throwable e) {
                        stats.trouble(n.id.toString(), e);
                    } finally {
                        nmGate.exit();
                    }
                }
            }, random.nextInt(hbMs), hbMs, TimeUnit.MILLISECONDS);
        }
        return registeredMs;
    }

    /** The trace's first applications, {@code --concurrent} of them. */
    void startTrace() {
        for (int i = 0; i < Math.min(concurrent, apps); i++) submitNext();
    }

    /** Stops the harness's threads (the RM's keep running until the JVM halts). */
    void stopHarness() {
        stats.stopping = true; // what the shutdown interrupts is no trouble
        nmPool.shutdownNow();
        amPool.shutdownNow();
        submitter.shutdownNow();
        if (killer != null) killer.shutdownNow();
    }

    private String run() throws Exception {
        long registeredMs = setUp();
        Sampler sampler = new Sampler(this, stats);
        long traceStart = System.currentTimeMillis();
        startTrace();
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
        stopHarness();
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
        if (stopSubmitting) return;
        final int i = submitted.getAndIncrement();
        if (i >= apps) return;
        submissionsInFlight.incrementAndGet();
        submitter.execute(new Runnable() {
            @Override
            public void run() {
                try {
                    if (!stopSubmitting) submit(i);
                } catch (Throwable e) {
                    stats.trouble("submission " + i, e);
                } finally {
                    submissionsInFlight.decrementAndGet();
                }
            }
        });
    }

    private void submit(int i) throws Exception {
        final ApplicationId id = rm.getClientRMService()
                .getNewApplication(Records.newRecord(GetNewApplicationRequest.class)).getApplicationId();
        // The application's own generator: its task count, task times, locality and fate.
        Random r = new Random(seed * 1_000_003L + i);
        int n = tasksMin + r.nextInt(tasks - tasksMin + 1);
        SimApp app = new SimApp(this, id, n, taskMsMin, taskMs,
                new TaskAsks(n, Resource.newInstance(1024, 1), locality, nodeList, r), r);
        byApp.put(id, app);
        final UserGroupInformation ugi = UserGroupInformation.createRemoteUser("user" + (i % 8));
        if (check && r.nextInt(100) < killPercent) {
            // Killed at a moment of its life: waiting for its AM, running, or finishing.
            killer.schedule(new Runnable() {
                @Override
                public void run() {
                    kill(id, ugi);
                }
            }, r.nextInt(5_000), TimeUnit.MILLISECONDS);
        }
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

    /**
     * A --check run's kill: the application is marked first, so its AM takes the refusals that
     * follow for what they are, then killed through ClientRMService as its user; it counts as
     * ended (and is replaced) once the RM has taken the kill.
     */
    private void kill(final ApplicationId id, UserGroupInformation ugi) {
        SimApp app = byApp.get(id);
        if (stopSubmitting || app == null) return;
        killed.add(id);
        killedApps.put(id, app);
        try {
            ugi.doAs(new PrivilegedExceptionAction<Object>() {
                @Override
                public Object run() throws Exception {
                    return rm.getClientRMService().forceKillApplication(KillApplicationRequest.newInstance(id));
                }
            });
        } catch (Throwable e) {
            stats.trouble("kill of " + id, e);
        }
        if (byApp.remove(id) != null) {
            killedCount.incrementAndGet();
            submitNext();
        }
    }

    /** The RM launched an attempt's AM container: the AM runs on its node and registers. */
    void amLaunched(final ApplicationAttemptId attempt, final Container am, final Token<AMRMTokenIdentifier> token) {
        final SimApp app = byApp.get(attempt.getApplicationId());
        if (app == null) return;
        if (ledger != null) {
            ledger.handed(am.getId(), attempt.getApplicationId());
            amNodes.put(am.getId(), am.getNodeId());
        }
        SimNode node = nodes.get(am.getNodeId());
        if (node != null) node.launchAm(am.getId());
        // Off the RM's dispatcher thread, as a real AM registers from its own process.
        amPool.execute(new Runnable() {
            @Override
            public void run() {
                if (!amGate.enter()) {
                    amPool.schedule(this, amHbMs, TimeUnit.MILLISECONDS); // registers after the pause
                    return;
                }
                try {
                    app.launched(attempt, am.getId(), token);
                    app.setLoop(amPool.scheduleAtFixedRate(new Runnable() {
                        @Override
                        public void run() {
                            if (!amGate.enter()) return;
                            try {
                                app.heartbeat();
                            } catch (Throwable e) {
                                stats.trouble("AM " + attempt, e);
                            } finally {
                                amGate.exit();
                            }
                        }
                    }, 0, amHbMs, TimeUnit.MILLISECONDS));
                } catch (Throwable e) {
                    if (killed(attempt.getApplicationId())) {
                        app.refused(); // killed before it registered: it makes no more calls
                    } else {
                        stats.trouble("AM " + attempt + " registration", e);
                    }
                } finally {
                    amGate.exit();
                }
            }
        });
    }

    /** A --check run's AM unregistered and its process exits: its NM reports its container finished. */
    void amExited(ContainerId am) {
        NodeId where = am == null ? null : amNodes.remove(am);
        SimNode node = where == null ? null : nodes.get(where);
        if (node != null) node.cleanupAm(am);
    }

    void amCleanup(Container am) {
        if (am == null) return;
        amNodes.remove(am.getId());
        SimNode node = nodes.get(am.getNodeId());
        if (node != null) node.cleanupAm(am.getId());
    }

    void appFinished(SimApp app) {
        if (check) amExited(app.amContainer());
        if (byApp.remove(app.id) == null) return; // killed as it finished: counted there
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
