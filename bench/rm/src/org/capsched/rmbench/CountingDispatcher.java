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

import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.yarn.event.AsyncDispatcher;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;

/**
 * The RM's AsyncDispatcher (RMNode, RMApp, RMAppAttempt, RMContainer events) with a count of
 * the events put on its queue and of those handled to their end, so a {@code --check} run can
 * tell when it is drained: AsyncDispatcher's own {@code isDrained} is read before an event is
 * queued and stays true while the last one is handled (YARN-3878), so it cannot say so.
 */
final class CountingDispatcher extends AsyncDispatcher {
    private final AtomicLong enqueued = new AtomicLong();
    private final AtomicLong handled = new AtomicLong();

    CountingDispatcher() {
        super("RM Event dispatcher");
    }

    @Override
    public EventHandler<Event> getEventHandler() {
        final EventHandler<Event> queue = super.getEventHandler();
        return new EventHandler<Event>() {
            @Override
            public void handle(Event event) {
                enqueued.incrementAndGet();
                queue.handle(event);
            }
        };
    }

    @Override
    protected void dispatch(Event event) {
        try {
            super.dispatch(event);
        } finally {
            handled.incrementAndGet();
        }
    }

    long enqueued() {
        return enqueued.get();
    }

    /** Whether every event queued so far has been handled (read handled first: it trails). */
    boolean drained() {
        long h = handled.get();
        return h == enqueued.get();
    }
}
