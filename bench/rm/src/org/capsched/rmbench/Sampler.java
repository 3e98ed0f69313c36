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
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Every 100 ms of the measured window: the scheduler's event queue (the RM's
 * SchedulerEventDispatcher), the RM's main dispatcher queue, the heap in use and the process's
 * resident memory; each second, one point of each series (containers allocated in that second,
 * the largest queues seen in it, the heap after the JVM's latest collection).
 */
final class Sampler {
    private final RmBench bench;
    private final Stats stats;
    private Thread thread;
    private volatile boolean running;
    private Collection<?> rmQueue;

    final List<Long> allocatedPerSecond = new ArrayList<Long>();
    final List<Long> queueMaxPerSecond = new ArrayList<Long>();
    final List<Long> rmQueueMaxPerSecond = new ArrayList<Long>();
    final List<Long> liveHeapMbPerSecond = new ArrayList<Long>();
    long queueMax, rmQueueMax, queueSum, samples, heapMax, rssMaxKb;

    Sampler(RmBench bench, Stats stats) {
        this.bench = bench;
        this.stats = stats;
    }

    void start() {
        rmQueue = rmDispatcherQueue();
        running = true;
        thread = new Thread(new Runnable() {
            @Override
            public void run() {
                loop();
            }
        }, "bench-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    void stop() throws InterruptedException {
        running = false;
        thread.join();
    }

    private void loop() {
        long lastAllocated = stats.allocated.get();
        long next = System.nanoTime();
        while (running) {
            long secondQueue = 0, secondRmQueue = 0;
            for (int i = 0; i < 10 && running; i++) {
                long q = stats.schedulerQueueLength();
                long rq = rmQueue == null ? 0 : rmQueue.size();
                secondQueue = Math.max(secondQueue, q);
                secondRmQueue = Math.max(secondRmQueue, rq);
                queueSum += q;
                samples++;
                heapMax = Math.max(heapMax, RmBench.heapUsed());
                rssMaxKb = Math.max(rssMaxKb, rssKb());
                next += 100_000_000L;
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    try {
                        Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
            long a = stats.allocated.get();
            allocatedPerSecond.add(a - lastAllocated);
            lastAllocated = a;
            queueMaxPerSecond.add(secondQueue);
            rmQueueMaxPerSecond.add(secondRmQueue);
            liveHeapMbPerSecond.add(liveHeap() >> 20);
            queueMax = Math.max(queueMax, secondQueue);
            rmQueueMax = Math.max(rmQueueMax, secondRmQueue);
        }
    }

    /** The heap the JVM's latest collection left in use (each heap pool's collection usage). */
    static long liveHeap() {
        long used = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() != MemoryType.HEAP) continue;
            MemoryUsage u = p.getCollectionUsage();
            if (u != null) used += u.getUsed();
        }
        return used;
    }

    static long rssKb() {
        try {
            for (String line : Files.readAllLines(new File("/proc/self/status").toPath())) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        } catch (Exception e) {
            // Not Linux: no figure.
        }
        return 0;
    }

    /** The RM's AsyncDispatcher queue (RMNode, RMApp, RMAppAttempt, RMContainer events). */
    private Collection<?> rmDispatcherQueue() {
        try {
            Object d = bench.rm().getRMContext().getDispatcher();
            Field f = org.apache.hadoop.yarn.event.AsyncDispatcher.class.getDeclaredField("eventQueue");
            f.setAccessible(true);
            return (Collection<?>) f.get(d);
        } catch (Exception e) {
            return null; // reported as 0, and the report says it was not read
        }
    }

    boolean readRmQueue() {
        return rmQueue != null;
    }
}
