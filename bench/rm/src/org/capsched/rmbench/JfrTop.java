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

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a run's RM-side CPU went, from its Java Flight Recorder file: the execution samples of
 * every thread but the harness's own ("bench-*"), by thread, then the methods most often on
 * top of the stack (self) and anywhere on it (inclusive, each method once a sample), and whose
 * code each sample was running ("by owner": the top frame outside the JDK decides: capsched's
 * plug-in and bindings, the stock CapacityScheduler's classes, the rest of Hadoop's RM, or the
 * libraries they use; a JDK frame counts for whoever called it). That split is the RM-side
 * bound: the RM's share is what no scheduler can take away.
 *
 *   java -cp target/rm-bench/classes org.capsched.rmbench.JfrTop RUN.jfr [TOP [EVENT [THREAD]]]
 *
 * EVENT is jdk.ExecutionSample (default: threads running Java code) or jdk.NativeMethodSample
 * (threads inside native code: JNI calls into capsched among them, and threads blocked in
 * the kernel); THREAD keeps only threads whose name starts so. Then, for those threads, the
 * time they waited (monitor entries and parks JFR recorded: those past its thresholds, 20 ms
 * with the default settings, 10 ms with "profile") by where they waited, and the JVM's
 * stop-the-world pauses, which stop every thread.
 */
public final class JfrTop {
    public static void main(String[] args) throws Exception {
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 25;
        String event = args.length > 2 ? args[2] : "jdk.ExecutionSample";
        String only = args.length > 3 ? args[3] : "";
        Map<String, Integer> byThread = new HashMap<String, Integer>();
        Map<String, Integer> self = new HashMap<String, Integer>();
        Map<String, Integer> inclusive = new HashMap<String, Integer>();
        Map<String, Integer> byOwner = new HashMap<String, Integer>();
        int samples = 0;
        Map<String, Long> waitedMs = new HashMap<String, Long>();
        long pausesMs = 0;
        try (RecordingFile f = new RecordingFile(Paths.get(args[0]))) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                String type = e.getEventType().getName();
                if (type.equals("jdk.GCPhasePause")) pausesMs += e.getDuration().toMillis();
                if (type.equals("jdk.JavaMonitorEnter") || type.equals("jdk.ThreadPark")) {
                    String t = e.getThread() == null ? "?" : e.getThread().getJavaName();
                    if (t != null && t.startsWith(only) && !t.startsWith("bench-") && e.getStackTrace() != null) {
                        String where = type.substring(4) + " in " + firstOutside(e.getStackTrace().getFrames());
                        waitedMs.merge(where, e.getDuration().toMillis(), Long::sum);
                    }
                    continue;
                }
                if (!type.equals(event)) continue;
                String thread = e.getThread("sampledThread") == null ? "?" : e.getThread("sampledThread").getJavaName();
                if (thread == null) thread = "?";
                if (thread.startsWith("bench-") || !thread.startsWith(only)) continue;
                RecordedStackTrace st = e.getStackTrace();
                if (st == null) continue;
                samples++;
                String group = ThreadCpu.group(thread);
                byThread.merge(group, 1, Integer::sum);
                List<RecordedFrame> frames = st.getFrames();
                if (!frames.isEmpty()) self.merge(name(frames.get(0)), 1, Integer::sum);
                byOwner.merge(group + ": " + owner(frames), 1, Integer::sum);
                Set<String> seen = new HashSet<String>();
                for (RecordedFrame fr : frames) {
                    String n = name(fr);
                    if (seen.add(n)) inclusive.merge(n, 1, Integer::sum);
                }
            }
        }
        System.out.printf("%d %s samples outside the harness's threads%n", samples, event);
        print("by thread", byThread, samples, top);
        print("self", self, samples, top);
        print("inclusive", inclusive, samples, top);
        print("by owner", byOwner, samples, top);
        System.out.printf("-- waited (ms), and %d ms of stop-the-world GC pauses%n", pausesMs);
        List<Map.Entry<String, Long>> ws = new ArrayList<Map.Entry<String, Long>>(waitedMs.entrySet());
        ws.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        for (int i = 0; i < Math.min(top, ws.size()); i++) {
            System.out.printf("%8d  %s%n", ws.get(i).getValue(), ws.get(i).getKey());
        }
    }

    /** The first frame outside the JDK's own lock and concurrency classes: who waited. */
    private static String firstOutside(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String n = name(f);
            if (!n.startsWith("java.") && !n.startsWith("jdk.") && !n.startsWith("sun.")) return n;
        }
        return frames.isEmpty() ? "?" : name(frames.get(0));
    }

    /** Whose code a sample ran: the first frame outside the JDK decides. */
    private static String owner(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String n = name(f);
            if (n.startsWith("org.capsched.rmbench.")) continue; // the harness's timing shells
            if (n.startsWith("org.capsched.")) return "capsched";
            // The stock scheduler's own classes, apart from the RM's bookkeeping both schedulers run.
            if (n.startsWith("org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.")) {
                return "hadoop CapacityScheduler";
            }
            if (n.startsWith("org.apache.hadoop.")) return "hadoop RM";
            if (!n.startsWith("java.") && !n.startsWith("jdk.") && !n.startsWith("sun.")) {
                return "libraries (log4j, protobuf, guava, ...)";
            }
        }
        return "jdk";
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    private static void print(String title, Map<String, Integer> counts, int total, int top) {
        System.out.println("-- " + title);
        List<Map.Entry<String, Integer>> es = new ArrayList<Map.Entry<String, Integer>>(counts.entrySet());
        es.sort((a, b) -> b.getValue() - a.getValue());
        for (int i = 0; i < Math.min(top, es.size()); i++) {
            System.out.printf("%6.1f%%  %s%n", 100.0 * es.get(i).getValue() / Math.max(1, total), es.get(i).getKey());
        }
    }
}
