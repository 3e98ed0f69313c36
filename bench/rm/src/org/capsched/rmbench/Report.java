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

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run's JSON line. CPU is split three ways: the RM's (its own threads, GC and JIT included,
 * plus what the harness's threads spent inside RM calls, which a real RM spends on its IPC
 * handlers), the scheduler's share of it (its event handling and allocate, its asynchronous
 * threads, capsched's engine threads), and the harness's own (simulating NMs and AMs).
 */
final class Report {
    private Report() {}

    static String json(RmBench b, Stats s, Sampler sampler, boolean finished, long wallMs, long registeredMs,
            long windowNs, Map<String, Long> procCpu, Map<String, Long> javaSched) {
        long procTotal = 0, benchThreads = 0, capschedNative = 0;
        for (Map.Entry<String, Long> e : procCpu.entrySet()) {
            procTotal += e.getValue();
            if (e.getKey().startsWith("bench-")) benchThreads += e.getValue();
            if (e.getKey().equals("capsched-engine") || e.getKey().equals("capsched-policy")) {
                capschedNative += e.getValue();
            }
        }
        long javaSchedNs = 0;
        for (long v : javaSched.values()) javaSchedNs += v;
        long rmCpu = procTotal - benchThreads + s.rmCallCpuNs.get();
        long harnessCpu = benchThreads - s.rmCallCpuNs.get();
        long schedulingCpu = s.schedulerHandleCpuNs.get() + s.schedulerAllocateCpuNs.get() + javaSchedNs
                + capschedNative;
        double windowS = windowNs / 1e9;
        // Sustained: the seconds of the window during which applications were still being
        // submitted (demand never ran out), or the whole window if submissions outlasted it.
        int sustainedSeconds = (int) Math.max(1, Math.min(sampler.allocatedPerSecond.size(),
                (b.lastSubmittedAtMs() - b.windowStartMs) / 1000));
        long sustainedAllocated = 0;
        for (int i = 0; i < sustainedSeconds && i < sampler.allocatedPerSecond.size(); i++) {
            sustainedAllocated += sampler.allocatedPerSecond.get(i);
        }
        StringBuilder j = new StringBuilder("{");
        field(j, "scheduler", "\"" + b.scheduler + "\"");
        field(j, "async", String.valueOf(b.async));
        field(j, "nms", String.valueOf(b.nms));
        field(j, "apps", String.valueOf(b.apps));
        field(j, "concurrent", String.valueOf(b.concurrent));
        field(j, "tasks_per_app", String.valueOf(b.tasks));
        field(j, "task_ms", String.valueOf(b.taskMs));
        field(j, "extra_conf", mapJson(b.extra));
        field(j, "finished", String.valueOf(finished));
        field(j, "apps_finished", String.valueOf(s.appsFinished.get()));
        field(j, "wall_s", num(wallMs / 1000.0));
        field(j, "register_s", num(registeredMs / 1000.0));
        field(j, "window_s", num(windowS));
        field(j, "allocated", String.valueOf(s.allocated.get()));
        field(j, "containers_per_sec", num(sustainedAllocated / (double) sustainedSeconds));
        field(j, "window_containers_per_sec", num(s.allocated.get() / windowS));
        field(j, "event_queue_max", String.valueOf(sampler.queueMax));
        field(j, "event_queue_mean", num(sampler.samples == 0 ? 0 : sampler.queueSum / (double) sampler.samples));
        field(j, "rm_dispatcher_queue_max", sampler.readRmQueue() ? String.valueOf(sampler.rmQueueMax) : "null");
        field(j, "allocate", s.allocate.json());
        field(j, "scheduler_allocate", s.schedulerAllocate.json());
        field(j, "node_update", s.nodeUpdate.json());
        field(j, "heartbeat", s.heartbeat.json());
        field(j, "rm_cpu_s", num(rmCpu / 1e9));
        field(j, "rm_cores", num(rmCpu / 1e9 / windowS));
        field(j, "scheduling_cpu_s", num(schedulingCpu / 1e9));
        field(j, "scheduling_cores", num(schedulingCpu / 1e9 / windowS));
        field(j, "harness_cpu_s", num(harnessCpu / 1e9));
        field(j, "heap_max_mb", String.valueOf(sampler.heapMax >> 20));
        field(j, "heap_live_max_mb", String.valueOf(max(sampler.liveHeapMbPerSecond)));
        field(j, "rss_max_mb", String.valueOf(sampler.rssMaxKb >> 10));
        field(j, "cpu_by_thread_s", topThreads(procCpu));
        field(j, "scheduling_threads_s", secondsJson(javaSched));
        field(j, "troubles", String.valueOf(s.nodeTroubles.get()));
        field(j, "first_troubles", stringsJson(s.troubles));
        field(j, "series", "{\"allocated_per_s\":" + s(sampler.allocatedPerSecond) + ",\"event_queue_max\":"
                + s(sampler.queueMaxPerSecond) + ",\"rm_queue_max\":" + s(sampler.rmQueueMaxPerSecond)
                + ",\"live_heap_mb\":" + s(sampler.liveHeapMbPerSecond) + "}");
        j.setLength(j.length() - 1);
        return j.append('}').toString();
    }

    private static void field(StringBuilder j, String k, String v) {
        j.append('"').append(k).append("\":").append(v).append(',');
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static long max(List<Long> xs) {
        long m = 0;
        for (long x : xs) m = Math.max(m, x);
        return m;
    }

    private static String s(List<Long> xs) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < xs.size(); i++) b.append(i == 0 ? "" : ",").append(xs.get(i));
        return b.append(']').toString();
    }

    private static String esc(String x) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : x.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    private static String mapJson(Map<String, String> m) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, String> e : m.entrySet()) {
            b.append(b.length() > 1 ? "," : "").append(esc(e.getKey())).append(':').append(esc(e.getValue()));
        }
        return b.append('}').toString();
    }

    private static String secondsJson(Map<String, Long> m) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, Long> e : m.entrySet()) {
            b.append(b.length() > 1 ? "," : "").append(esc(e.getKey())).append(':').append(num(e.getValue() / 1e9));
        }
        return b.append('}').toString();
    }

    /** The threads (by name, pools summed) that used at least 1 % of the CPU, busiest first. */
    private static String topThreads(Map<String, Long> cpu) {
        long total = 0;
        for (long v : cpu.values()) total += v;
        java.util.List<Map.Entry<String, Long>> es = new java.util.ArrayList<Map.Entry<String, Long>>(cpu.entrySet());
        es.sort((a, c) -> Long.compare(c.getValue(), a.getValue()));
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, Long> e : es) {
            if (e.getValue() < total / 100) break;
            b.append(b.length() > 1 ? "," : "").append(esc(e.getKey())).append(':').append(num(e.getValue() / 1e9));
        }
        return b.append('}').toString();
    }

    private static String stringsJson(Iterable<String> xs) {
        StringBuilder b = new StringBuilder("[");
        for (String x : xs) b.append(b.length() > 1 ? "," : "").append(esc(x.length() > 1500 ? x.substring(0, 1500) : x));
        return b.append(']').toString();
    }
}
