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

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lets a {@code --check} run pause the simulated NMs' heartbeats or the AMs' calls and know
 * when the last one in flight has returned: each call is {@link #enter}ed (skipped while
 * closed) and {@link #exit}ed; {@link #close} shuts the gate and waits, within a bound, for
 * the calls inside, so the RM can be read with none of them under way.
 */
final class Gate {
    private final AtomicInteger inside = new AtomicInteger();
    private volatile boolean closed;

    /** Whether the call may go ahead; if it does, {@link #exit} must follow. */
    boolean enter() {
        inside.incrementAndGet();
        if (closed) {
            inside.decrementAndGet();
            return false;
        }
        return true;
    }

    void exit() {
        inside.decrementAndGet();
    }

    /** Closes the gate; true once no call is inside, false if one still was after `boundMs`. */
    boolean close(long boundMs) throws InterruptedException {
        closed = true;
        long deadline = System.currentTimeMillis() + boundMs;
        while (inside.get() > 0) {
            if (System.currentTimeMillis() > deadline) return false;
            Thread.sleep(5); // polling the calls' count, not timing anything
        }
        return true;
    }

    void open() {
        closed = false;
    }
}
