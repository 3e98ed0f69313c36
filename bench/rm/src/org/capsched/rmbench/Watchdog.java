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

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A {@code --check} run's guard against hangs: once a second it asks the JVM for deadlocked
 * threads, and whether {@code progress} (containers handed, released, reported) has moved
 * while {@code outstanding} says work is left. A deadlock, or {@code stallMs} without
 * progress, fails the run through {@code fail} with the reason (which dumps every thread):
 * a scheduler that stops placing or finishing containers would otherwise leave the harness
 * waiting on its bounds with nothing to show why.
 */
final class Watchdog {
    private final LongSupplier progress;
    private final BooleanSupplier outstanding;
    private final long stallMs;
    private final Consumer<String> fail;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-watchdog");
        t.setDaemon(true);
        return t;
    });
    private long last = -1;
    private long lastChangeMs;

    Watchdog(LongSupplier progress, BooleanSupplier outstanding, long stallMs, Consumer<String> fail) {
        this.progress = progress;
        this.outstanding = outstanding;
        this.stallMs = stallMs;
        this.fail = fail;
    }

    void start() {
        lastChangeMs = System.currentTimeMillis();
        timer.scheduleAtFixedRate(this::check, 1, 1, TimeUnit.SECONDS);
    }

    void stop() {
        timer.shutdownNow();
    }

    private void check() {
        long[] dead = ThreadDump.deadlocked();
        if (dead != null) {
            fail.accept("the JVM found " + dead.length + " threads deadlocked");
            return;
        }
        long now = System.currentTimeMillis();
        long p = progress.getAsLong();
        if (p != last || !outstanding.getAsBoolean()) {
            last = p;
            lastChangeMs = now;
        } else if (now - lastChangeMs >= stallMs) {
            fail.accept("no container was handed, released or reported for " + (now - lastChangeMs)
                    + " ms while work was outstanding (progress count " + p + ")");
            lastChangeMs = now; // fail ends the run; this only keeps a second report from following
        }
    }
}
