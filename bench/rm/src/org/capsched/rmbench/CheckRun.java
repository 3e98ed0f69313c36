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
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.capsched.yarn.CapschedResourceScheduler;
import org.capsched.yarn.CapschedView;

/**
 * A {@code --check} run ({@code scripts/rm-check}, tests/hadoop_many_threads.rs): the RM under
 * many threads for {@code --duration-s}, then every container accounted for.
 *
 * <ol>
 * <li>Load: {@code --nm-threads} threads heartbeat the NMs, {@code --am-threads} threads run the
 * AMs' allocates, while the RM's dispatchers and the scheduler's own threads run; applications
 * are replaced as they end, and some are killed. A {@link Watchdog} fails the run, with every
 * thread's stack, on a deadlock or when nothing moves for {@code --stall-s}.
 * <li>Drain: no more submissions or kills; every AM cancels its asks and gives back what comes
 * after, until it is quiet; the killed applications end, their AMs are refused, and their
 * containers leave the NMs, which report them finished.
 * <li>The pause: the NMs' and AMs' calls stop, the RM's dispatchers drain, and the accounts of
 * what still runs (the AMs and their launched tasks) must agree ({@link Accounts}).
 * <li>The end: the calls resume, every AM unregisters once its launched tasks have completed,
 * every application ends, the NMs have nothing left; paused again, nothing may be live in any
 * account, and every container handed out must have been released or reported finished.
 * </ol>
 *
 * Every wait polls its condition within a bound; a bound missed fails the run with a thread
 * dump. The outcome is one JSON line (the seed in it), and the exit status.
 */
final class CheckRun {
    static final class Outcome {
        final boolean ok;
        final String line;

        Outcome(boolean ok, String line) {
            this.ok = ok;
            this.line = line;
        }
    }

    private final RmBench b;
    private final Stats stats = Stats.INSTANCE;
    private final AtomicBoolean failing = new AtomicBoolean();
    /** What disagreed; the watchdog's thread adds to it too. */
    private final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<String>());
    private volatile boolean expectProgress = true;
    private AbstractYarnScheduler<?, ?> scheduler;
    private CapschedResourceScheduler capsched;
    private String engineMode = "none";
    private long startMs;
    private long loadHanded;
    private int liveAtPause = -1;
    private int nodesUsedAtPause;
    private long drainMs = -1;
    private long endMs = -1;
    private RoomWatch room;

    CheckRun(RmBench b) {
        this.b = b;
    }

    Outcome run() {
        try {
            return runChecked();
        } catch (Throwable e) {
            StringWriter w = new StringWriter();
            e.printStackTrace(new PrintWriter(w));
            fail("the run failed: " + w);
            return null; // fail halts
        }
    }

    private Outcome runChecked() throws Exception {
        say(String.format(Locale.ROOT, "seed %d: %s scheduler%s, %d NMs (%d threads), %d AMs at once (%d threads), "
                + "%d s, %d%% of applications killed", b.seed, b.scheduler, b.async ? " (asynchronous)" : "", b.nms,
                b.nmThreads, b.concurrent, b.amThreads, b.durationS, b.killPercent));
        startMs = System.currentTimeMillis();
        b.setUp();
        scheduler = (AbstractYarnScheduler<?, ?>) b.rm().getResourceScheduler();
        if (scheduler instanceof CapschedResourceScheduler) {
            capsched = (CapschedResourceScheduler) scheduler;
            engineMode = capsched.capschedView().engineMode;
        }
        final Ledger ledger = b.ledger();
        Watchdog dog = new Watchdog(() -> ledger.progress() + stats.appsFinished.get() + b.killedCount.get(),
                () -> expectProgress, b.stallS * 1000L, this::fail);
        dog.start();
        List<NodeId> nodeIds = new ArrayList<NodeId>();
        for (SimNode n : b.nodes()) nodeIds.add(n.id);
        room = new RoomWatch(scheduler, nodeIds);
        room.start();

        // 1. Load.
        long loadStart = System.currentTimeMillis();
        b.startTrace();
        long loadEnd = loadStart + b.durationS * 1000L;
        for (long now = loadStart; now < loadEnd; now = System.currentTimeMillis()) {
            Thread.sleep(Math.min(10_000, loadEnd - now)); // the load's length, a parameter of the run
            say(String.format(Locale.ROOT, "%d s: %d containers handed, %d reported finished, %d released; "
                    + "%d applications finished, %d killed", (System.currentTimeMillis() - loadStart) / 1000,
                    ledger.handed.get(), ledger.reported.get(), ledger.released.get(), stats.appsFinished.get(),
                    b.killedCount.get()));
        }
        loadHanded = ledger.handed.get();

        // 2. Drain.
        long drainStart = System.currentTimeMillis();
        b.stopSubmitting = true;
        await("the submissions in flight to end", 30_000, () -> b.submissionsInFlight() == 0,
                () -> b.submissionsInFlight() + " in flight");
        for (SimApp a : b.apps().values()) a.drain();
        await("every AM to cancel its asks and go quiet, and the killed applications to end", 120_000,
                this::drained, this::notDrained);
        drainMs = System.currentTimeMillis() - drainStart;

        // 3. The pause.
        room.stop();
        pause();
        Accounts.Moment paused = quiesce("at the pause");
        liveAtPause = paused.rm.live.size();
        for (RmView.Node n : paused.rm.nodes.values()) {
            if (n.numContainers > 0) nodesUsedAtPause++;
        }
        problems.addAll(Accounts.check(paused, b.nms, false, b.killedCount.get() > 0, ledger.handed.get(), 40));
        say("at the pause: " + liveAtPause + " containers live on " + nodesUsedAtPause + " nodes, "
                + paused.rm.applications + " applications; " + problems.size() + " disagreements");

        // 4. The end.
        long endStart = System.currentTimeMillis();
        for (SimApp a : b.apps().values()) a.finishUp();
        resume();
        await("every AM to unregister once its launched tasks completed", 120_000, () -> b.apps().isEmpty(),
                () -> b.apps().size() + " applications left, e.g. " + first(b.apps().keySet()));
        await("every application to end in the RM and every NM to be idle", 60_000, this::ended, this::notEnded);
        endMs = System.currentTimeMillis() - endStart;
        pause();
        Accounts.Moment end = quiesce("at the end");
        problems.addAll(Accounts.check(end, b.nms, true, b.killedCount.get() > 0, ledger.handed.get(), 40));
        for (RMApp app : b.rm().getRMContext().getRMApps().values()) {
            if (app.getState() == RMAppState.FAILED) {
                problems.add("at the end: " + app.getApplicationId() + " FAILED: " + app.getDiagnostics());
            }
        }
        problems.addAll(ledger.problems);
        for (String t : stats.troubles) problems.add("harness: " + t);
        if (stats.nodeTroubles.get() > stats.troubles.size()) {
            problems.add("harness: " + (stats.nodeTroubles.get() - stats.troubles.size()) + " more troubles");
        }
        dog.stop();
        b.stopHarness();
        if (room.over.get() > 0) {
            say("a scheduler node was above its total in " + room.over.get() + " samples (the scheduler placed into "
                    + "room the RM holds for killed containers until their NM reports them), e.g. " + room.examples);
        }
        boolean ok = problems.isEmpty();
        say(ok ? "every container accounted for" : "FAILED (seed " + b.seed + "):\n  " + String.join("\n  ", problems));
        return new Outcome(ok, line(ok));
    }

    private void pause() throws InterruptedException {
        expectProgress = false;
        if (!b.amGate.close(30_000) || !b.nmGate.close(30_000)) {
            fail("an AM's or NM's call to the RM did not return within 30 s of the pause");
        }
    }

    private void resume() {
        b.nmGate.open();
        b.amGate.open();
        expectProgress = true;
    }

    /** Every AM quiet; every killed application ended and gone from the NMs and the scheduler. */
    private boolean drained() {
        for (SimApp a : b.apps().values()) {
            if (!a.quiet()) return false;
        }
        for (SimApp a : b.killedApps().values()) {
            if (a.launched() && !a.done()) return false;
        }
        for (ApplicationId id : killedIds()) {
            RMApp app = b.rm().getRMContext().getRMApps().get(id);
            if (app != null && !ended(app.getState())) return false;
            if (scheduler.getSchedulerApplications().containsKey(id)) return false;
        }
        java.util.Set<ApplicationId> killed = new java.util.HashSet<ApplicationId>(killedIds());
        // The RM keeps a killed container's room on its node until the NM reports it finished
        // (SchedulerNode.releaseContainer, YARN-4148): quiet means those reports are in too.
        for (SimNode n : b.nodes()) {
            if (n.holdsAny(killed)) return false;
        }
        return true;
    }

    private String notDrained() {
        List<String> why = new ArrayList<String>();
        for (SimApp a : b.apps().values()) {
            if (!a.quiet()) {
                RMApp app = b.rm().getRMContext().getRMApps().get(a.id);
                why.add(a.id + " not quiet (" + (a.launched() ? "launched" : "not launched") + ", RM: "
                        + (app == null ? "unknown" : app.getState()) + ")");
            }
            if (why.size() >= 5) break;
        }
        for (SimApp a : b.killedApps().values()) {
            if (a.launched() && !a.done() && why.size() < 10) why.add("the AM of killed " + a.id + " still calls");
        }
        for (ApplicationId id : killedIds()) {
            RMApp app = b.rm().getRMContext().getRMApps().get(id);
            if ((app != null && !ended(app.getState())) || scheduler.getSchedulerApplications().containsKey(id)) {
                why.add("killed " + id + " is " + (app == null ? "unknown" : app.getState()) + " in the RM"
                        + (scheduler.getSchedulerApplications().containsKey(id) ? ", still in its scheduler" : ""));
            }
            if (why.size() >= 10) break;
        }
        return why.isEmpty() ? "an NM still runs, or has yet to report, a killed application's container"
                : String.join("; ", why);
    }

    private java.util.Set<ApplicationId> killedIds() {
        java.util.Set<ApplicationId> out = new java.util.HashSet<ApplicationId>();
        for (RMApp app : b.rm().getRMContext().getRMApps().values()) {
            if (b.killed(app.getApplicationId())) out.add(app.getApplicationId());
        }
        return out;
    }

    private boolean ended() {
        for (RMApp app : b.rm().getRMContext().getRMApps().values()) {
            if (!ended(app.getState())) return false;
        }
        if (!scheduler.getSchedulerApplications().isEmpty()) return false;
        for (SimNode n : b.nodes()) {
            Map<ContainerId, NodeId> left = new HashMap<ContainerId, NodeId>();
            n.running(left);
            n.unreported(left);
            if (!left.isEmpty()) return false;
        }
        return true;
    }

    private String notEnded() {
        List<String> why = new ArrayList<String>();
        for (RMApp app : b.rm().getRMContext().getRMApps().values()) {
            if (!ended(app.getState()) && why.size() < 5) why.add(app.getApplicationId() + " " + app.getState());
        }
        if (!scheduler.getSchedulerApplications().isEmpty()) {
            why.add("the scheduler holds " + scheduler.getSchedulerApplications().size() + " applications");
        }
        Map<ContainerId, NodeId> left = new HashMap<ContainerId, NodeId>();
        for (SimNode n : b.nodes()) {
            n.running(left);
            n.unreported(left);
        }
        if (!left.isEmpty()) why.add("the NMs still run " + left.size() + ", e.g. " + first(left.keySet()));
        return String.join("; ", why);
    }

    private static boolean ended(RMAppState s) {
        return s == RMAppState.FINISHED || s == RMAppState.KILLED || s == RMAppState.FAILED;
    }

    /**
     * The accounts once the RM is quiet: its dispatchers drained (the RM's AsyncDispatcher and
     * the scheduler's), then read (capsched's view hands over the engine's queued events first),
     * and taken only if no event was queued meanwhile.
     */
    private Accounts.Moment quiesce(String when) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        List<NodeId> nodeIds = new ArrayList<NodeId>();
        for (SimNode n : b.nodes()) nodeIds.add(n.id);
        while (true) {
            if (drainedDispatchers()) {
                long rmQueued = b.rmDispatcher.enqueued();
                long schedulerQueued = stats.schedulerEnqueued.get();
                CapschedView cs = capsched == null ? null : capsched.capschedView();
                RmView rm = new RmView(scheduler, nodeIds);
                Map<ContainerId, NodeId> running = new HashMap<ContainerId, NodeId>();
                Map<ContainerId, NodeId> unreported = new HashMap<ContainerId, NodeId>();
                for (SimNode n : b.nodes()) {
                    n.running(running);
                    n.unreported(unreported);
                }
                Map<ContainerId, Ledger.Fate> fates = b.ledger().fates();
                if (drainedDispatchers() && rmQueued == b.rmDispatcher.enqueued()
                        && schedulerQueued == stats.schedulerEnqueued.get()) {
                    return new Accounts.Moment(when, rm, cs, running, unreported, fates);
                }
            }
            if (System.currentTimeMillis() > deadline) {
                fail("the RM's dispatchers did not drain " + when + " within 30 s: the RM's "
                        + (b.rmDispatcher.drained() ? "drained" : "not drained") + ", the scheduler's "
                        + stats.schedulerQueueLength() + " events queued");
            }
            Thread.sleep(10); // polling the dispatchers' counts
        }
    }

    private boolean drainedDispatchers() {
        return b.rmDispatcher.drained() && stats.schedulerQueueLength() == 0;
    }

    private void await(String what, long boundMs, BooleanSupplier done, Supplier<String> why)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + boundMs;
        while (!done.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                fail("waited " + boundMs / 1000 + " s for " + what + ": " + why.get());
            }
            Thread.sleep(20); // polling the condition
        }
    }

    /** Ends the run at once: why, every thread's stack (also in threads.txt), the outcome line. */
    private void fail(String reason) {
        if (!failing.compareAndSet(false, true)) return;
        String dump = ThreadDump.all();
        File file = new File(b.confDir, "threads.txt");
        try (Writer w = new OutputStreamWriter(new FileOutputStream(file), StandardCharsets.UTF_8)) {
            w.write(dump);
        } catch (Exception e) {
            System.err.println("rm-check: could not write " + file + ": " + e);
        }
        problems.add(reason);
        say("FAILED (seed " + b.seed + "): " + reason + "\nrm-check: the threads (also in " + file + "):\n" + dump);
        System.out.println(line(false));
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(1);
    }

    private String line(boolean ok) {
        Ledger l = b.ledger();
        StringBuilder j = new StringBuilder("{");
        field(j, "check", ok ? "\"ok\"" : "\"failed\"");
        field(j, "seed", String.valueOf(b.seed));
        field(j, "scheduler", "\"" + b.scheduler + "\"");
        field(j, "engine_mode", "\"" + engineMode + "\"");
        field(j, "async", String.valueOf(b.async));
        field(j, "nms", String.valueOf(b.nms));
        field(j, "concurrent", String.valueOf(b.concurrent));
        field(j, "nm_threads", String.valueOf(b.nmThreads));
        field(j, "am_threads", String.valueOf(b.amThreads));
        field(j, "duration_s", String.valueOf(b.durationS));
        field(j, "apps_finished", String.valueOf(stats.appsFinished.get()));
        field(j, "apps_killed", String.valueOf(b.killedCount.get()));
        field(j, "containers_handed", String.valueOf(l == null ? 0 : l.handed.get()));
        field(j, "containers_per_sec", String.format(Locale.ROOT, "%.1f", loadHanded / (double) b.durationS));
        field(j, "released", String.valueOf(l == null ? 0 : l.released.get()));
        field(j, "reported", String.valueOf(l == null ? 0 : l.reported.get()));
        field(j, "abandoned", String.valueOf(l == null ? 0 : l.abandoned.get()));
        field(j, "live_at_pause", String.valueOf(liveAtPause));
        field(j, "nodes_used_at_pause", String.valueOf(nodesUsedAtPause));
        field(j, "drain_s", String.format(Locale.ROOT, "%.1f", drainMs / 1000.0));
        field(j, "end_s", String.format(Locale.ROOT, "%.1f", endMs / 1000.0));
        field(j, "wall_s", String.format(Locale.ROOT, "%.1f", (System.currentTimeMillis() - startMs) / 1000.0));
        field(j, "rm_nodes_over_total", String.valueOf(room == null ? 0 : room.over.get()));
        field(j, "rm_nodes_over_total_examples", strings(room == null ? new ArrayList<String>() : room.examples));
        field(j, "problems", strings(problems));
        return j.append('}').toString();
    }

    private static String strings(java.util.Collection<String> all) {
        StringBuilder p = new StringBuilder("[");
        synchronized (all) {
            for (String s : all) {
                if (p.length() > 1) p.append(',');
                p.append('"').append(s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")
                        .replace("\t", "\\t")).append('"');
            }
        }
        return p.append(']').toString();
    }

    private static void field(StringBuilder j, String k, String v) {
        if (j.length() > 1) j.append(',');
        j.append('"').append(k).append("\":").append(v);
    }

    private static String first(java.util.Collection<?> c) {
        return c.isEmpty() ? "none" : String.valueOf(c.iterator().next());
    }

    private static void say(String what) {
        System.err.println("rm-check: " + what);
    }
}
