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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of every thread of this process, Java's and native ones alike (capsched's engine
 * threads are not Java threads, so ThreadMXBean cannot see them), from /proc/self/task: each
 * thread's name (the first 15 characters, as the JVM names native threads) and its user plus
 * system time. Threads that ended are gone from /proc, so the harness takes one reading at the
 * start of the measured window and one at its end, and the RM's threads live through both.
 */
final class ThreadCpu {
    private static final double TICK_NS = 1e9 / 100; // USER_HZ, 100 on Linux

    /** Thread id to (name, CPU ns). */
    static Map<Integer, Object[]> read() {
        Map<Integer, Object[]> out = new TreeMap<Integer, Object[]>();
        File[] tasks = new File("/proc/self/task").listFiles();
        if (tasks == null) return out;
        for (File t : tasks) {
            try {
                String stat = new String(Files.readAllBytes(new File(t, "stat").toPath()), StandardCharsets.UTF_8);
                int open = stat.indexOf('('), close = stat.lastIndexOf(')');
                String name = stat.substring(open + 1, close);
                String[] f = stat.substring(close + 2).split(" ");
                // After the name: state is field 3, utime 14 and stime 15 (1-based over the line).
                long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                out.put(Integer.parseInt(t.getName()), new Object[] {name, (long) (ticks * TICK_NS)});
            } catch (IOException | RuntimeException e) {
                // The thread ended while we read: it is not counted in this reading.
            }
        }
        return out;
    }

    /** CPU used between two readings, by thread name (threads of one name summed). */
    static Map<String, Long> byName(Map<Integer, Object[]> before, Map<Integer, Object[]> after) {
        Map<String, Long> out = new TreeMap<String, Long>();
        for (Map.Entry<Integer, Object[]> e : after.entrySet()) {
            Object[] b = before.get(e.getKey());
            long start = b == null ? 0 : (Long) b[1];
            long used = (Long) e.getValue()[1] - start;
            String name = group((String) e.getValue()[0]);
            out.put(name, out.getOrDefault(name, 0L) + used);
        }
        return out;
    }

    /** Thread names with their numbers taken off, so pools add up to one line. */
    static String group(String name) {
        return name.replaceAll("[-#_ ]?[0-9]+$", "").replaceAll("[0-9]+", "N");
    }
}
