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

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * Every thread of this JVM as jstack prints it: its whole stack (ThreadInfo's own toString
 * stops at 8 frames, too few to see which RM, plug-in or engine call holds what), the monitors
 * and ownable synchronizers each holds and where it took them, what it waits for and who owns
 * that, and the JVM's own deadlock check first.
 */
final class ThreadDump {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ThreadDump() {}

    /** Ids of the threads deadlocked on monitors or ownable synchronizers; null when none. */
    static long[] deadlocked() {
        return THREADS.findDeadlockedThreads();
    }

    static String all() {
        StringBuilder b = new StringBuilder();
        long[] dead = deadlocked();
        if (dead == null) {
            b.append("findDeadlockedThreads: none\n\n");
        } else {
            b.append("findDeadlockedThreads: ").append(dead.length).append(" threads deadlocked:\n");
            for (ThreadInfo t : THREADS.getThreadInfo(dead, true, true)) {
                if (t != null) format(b, t);
            }
            b.append("---- all threads ----\n");
        }
        for (ThreadInfo t : THREADS.dumpAllThreads(true, true)) format(b, t);
        return b.toString();
    }

    private static void format(StringBuilder b, ThreadInfo t) {
        b.append('"').append(t.getThreadName()).append("\" #").append(t.getThreadId())
                .append(t.isDaemon() ? " daemon" : "").append(' ').append(t.getThreadState());
        if (t.getLockName() != null) b.append(" on ").append(t.getLockName());
        if (t.getLockOwnerName() != null) {
            b.append(" owned by \"").append(t.getLockOwnerName()).append("\" #").append(t.getLockOwnerId());
        }
        if (t.isSuspended()) b.append(" (suspended)");
        if (t.isInNative()) b.append(" (in native)");
        b.append('\n');
        StackTraceElement[] stack = t.getStackTrace();
        MonitorInfo[] monitors = t.getLockedMonitors();
        for (int i = 0; i < stack.length; i++) {
            b.append("\tat ").append(stack[i]).append('\n');
            if (i == 0 && t.getLockInfo() != null) {
                b.append("\t-  ").append(t.getThreadState() == Thread.State.BLOCKED ? "blocked on " : "waiting on ")
                        .append(t.getLockInfo()).append('\n');
            }
            for (MonitorInfo m : monitors) {
                if (m.getLockedStackDepth() == i) b.append("\t-  locked ").append(m).append('\n');
            }
        }
        LockInfo[] synchronizers = t.getLockedSynchronizers();
        if (synchronizers.length > 0) {
            b.append("\tLocked ownable synchronizers:\n");
            for (LockInfo l : synchronizers) b.append("\t-  ").append(l).append('\n');
        }
        b.append('\n');
    }
}
