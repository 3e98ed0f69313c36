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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;

/**
 * The scheduling threads that only their class names tell apart: the stock scheduler's
 * asynchronous scheduling and committer threads are unnamed ("Thread-N"). Keyed by thread id, as
 * a thread's CPU is read by it.
 */
final class JavaThreadCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private JavaThreadCpu() {}

    /** "class or name#id" to CPU ns, for each scheduling thread alive now. */
    static Map<String, Long> schedulingThreads() {
        Map<String, Long> out = new TreeMap<String, Long>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String cls = t.getClass().getName();
            String what = cls.endsWith("$AsyncScheduleThread") ? "stock-async-scheduling"
                    : cls.endsWith("$ResourceCommitterService") ? "stock-committer"
                    : t.getName().startsWith("capsched") ? t.getName() : null;
            if (what == null) continue;
            long ns = THREADS.getThreadCpuTime(t.getId());
            if (ns >= 0) out.put(what + "#" + t.getId(), ns);
        }
        return out;
    }

    /** CPU between two readings, by kind (threads of a kind summed). */
    static Map<String, Long> diff(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> out = new TreeMap<String, Long>();
        for (Map.Entry<String, Long> e : after.entrySet()) {
            long used = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            String kind = e.getKey().substring(0, e.getKey().indexOf('#'));
            out.put(kind, out.getOrDefault(kind, 0L) + used);
        }
        return out;
    }
}
