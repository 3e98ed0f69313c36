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

import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType;

/**
 * The timing both schedulers' subclasses share: the scheduler's allocate (wall and CPU) and
 * its handling of the RM's scheduler events (NODE_UPDATE's latency, the CPU of every event).
 */
final class TimedScheduling {
    private TimedScheduling() {}

    interface Call<T> {
        T run();
    }

    static <T> T allocate(Call<T> call) {
        Stats s = Stats.INSTANCE;
        if (!s.measuring) return call.run();
        long c0 = Stats.cpu(), t0 = System.nanoTime();
        try {
            return call.run();
        } finally {
            s.schedulerAllocate.record(System.nanoTime() - t0);
            s.schedulerAllocateCpuNs.addAndGet(Stats.cpu() - c0);
        }
    }

    static void handle(SchedulerEvent event, Runnable call) {
        Stats s = Stats.INSTANCE;
        if (!s.measuring) {
            call.run();
            return;
        }
        long c0 = Stats.cpu(), t0 = System.nanoTime();
        try {
            call.run();
        } finally {
            if (event.getType() == SchedulerEventType.NODE_UPDATE) s.nodeUpdate.record(System.nanoTime() - t0);
            s.schedulerHandleCpuNs.addAndGet(Stats.cpu() - c0);
        }
    }
}
