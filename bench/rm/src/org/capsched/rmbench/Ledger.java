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

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * The harness's own account of the containers of a {@code --check} run, kept from what the
 * simulated AMs and NMs were told, independently of the RM and of capsched: every container
 * handed to an AM (in an allocate answer, or as its AM container at launch) and what became of
 * it. At the end each must be accounted for: released by its AM, reported finished by its
 * NM, given up with its killed application, or still running. A container handed twice, or a
 * completion told to an AM for a container it never had, is a problem at once.
 */
final class Ledger {
    enum Fate {
        /** Handed to its AM; running on its node or about to be. */
        HANDED,
        /** The AM gave it back unused (more than it asked for, or after its asks were cancelled). */
        RELEASED,
        /** Its NM reported it COMPLETE in a heartbeat the RM took. */
        REPORTED,
        /** Its AM was to release it when its application was killed: the RM ends it. */
        ABANDONED
    }

    private static final class Entry {
        final ApplicationId app;
        volatile Fate fate = Fate.HANDED;
        volatile boolean completionTold;

        Entry(ApplicationId app) {
            this.app = app;
        }
    }

    private final Map<ContainerId, Entry> entries = new ConcurrentHashMap<ContainerId, Entry>();
    final AtomicLong handed = new AtomicLong();
    final AtomicLong released = new AtomicLong();
    final AtomicLong reported = new AtomicLong();
    final AtomicLong abandoned = new AtomicLong();
    /** NM reports of containers never handed to an AM (after an RM kill, a late launch). */
    final AtomicLong reportedUnhanded = new AtomicLong();
    final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<String>();

    /** Grows with every handing, release and report: the watchdog's measure of progress. */
    long progress() {
        return handed.get() + released.get() + reported.get() + abandoned.get();
    }

    void problem(String what) {
        if (problems.size() < 50) problems.add(what);
    }

    void handed(ContainerId c, ApplicationId app) {
        Entry before = entries.putIfAbsent(c, new Entry(app));
        if (before != null) {
            problem(c + " handed twice: to " + before.app + " (now " + before.fate + "), then to " + app);
            return;
        }
        handed.incrementAndGet();
    }

    void released(ContainerId c) {
        if (move(c, Fate.RELEASED, "released")) released.incrementAndGet();
    }

    void abandoned(ContainerId c) {
        if (move(c, Fate.ABANDONED, "given up with its killed application")) abandoned.incrementAndGet();
    }

    /** An NM's heartbeat that reported `c` COMPLETE returned. */
    void reported(ContainerId c) {
        Entry e = entries.get(c);
        if (e == null) {
            reportedUnhanded.incrementAndGet();
            return;
        }
        if (e.fate == Fate.HANDED) {
            e.fate = Fate.REPORTED;
            reported.incrementAndGet();
        } else if (e.fate == Fate.REPORTED) {
            problem(c + " reported COMPLETE twice by its NM");
        }
        // RELEASED or ABANDONED, then launched late on a node: the report changes nothing.
    }

    /**
     * The AM of `app` was told `c` completed. An AM may be told of one it was never handed
     * only when its application was killed (`killed`): the RM ends the containers it allocated
     * and the AM had yet to pull, and an allocate already under way reports them.
     */
    void completionTold(ContainerId c, ApplicationId app, boolean killed) {
        Entry e = entries.get(c);
        if (e == null && killed && c.getApplicationAttemptId().getApplicationId().equals(app)) return;
        if (e == null || !e.app.equals(app)) {
            problem("the AM of " + app + " was told " + c + " completed, a container it was never handed");
        } else if (e.completionTold) {
            problem("the AM of " + app + " was told twice that " + c + " completed");
        } else {
            e.completionTold = true;
        }
    }

    private boolean move(ContainerId c, Fate to, String what) {
        Entry e = entries.get(c);
        if (e == null) {
            problem(c + " " + what + " but never handed to an AM");
            return false;
        }
        if (e.fate != Fate.HANDED) {
            problem(c + " " + what + " after it was " + e.fate);
            return false;
        }
        e.fate = to;
        return true;
    }

    Fate fate(ContainerId c) {
        Entry e = entries.get(c);
        return e == null ? null : e.fate;
    }

    ApplicationId app(ContainerId c) {
        Entry e = entries.get(c);
        return e == null ? null : e.app;
    }

    /** Every container handed so far, with its fate now. */
    Map<ContainerId, Fate> fates() {
        Map<ContainerId, Fate> out = new java.util.HashMap<ContainerId, Fate>();
        for (Map.Entry<ContainerId, Entry> e : entries.entrySet()) out.put(e.getKey(), e.getValue().fate);
        return out;
    }
}
