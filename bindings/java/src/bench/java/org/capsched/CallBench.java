package org.capsched;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cost of a Java call through the bindings: p50/p99 latency (µs) of submit, an empty
 * allocate and an empty node update, from 1 and 8 Java threads, on a threaded engine — the
 * calls of examples/c/bench_calls.c, for the figures beside the C ones in docs/PERFORMANCE.md —
 * and the same on a manual engine (no engine thread: each call on the caller's thread under the
 * engine's lock, as the RM plug-in's {@code capsched.engine.mode=manual} makes them) —
 * and of what the RM plug-in adds after each event to mirror the queue metrics: a read of the
 * figures version (no call into the engine) and, when it moved, the queue statuses.
 * Usage: CallBench [calls per kind] (warm-up: the same number first, not counted).
 */
public final class CallBench {
    static final int NODES = 64;

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
        Map<String, String> p = new LinkedHashMap<String, String>();
        p.put("yarn.scheduler.capacity.root.queues", "a,b");
        p.put("yarn.scheduler.capacity.root.a.capacity", "50");
        p.put("yarn.scheduler.capacity.root.b.capacity", "50");
        p.put("yarn.scheduler.capacity.root.a.maximum-capacity", "100");
        p.put("yarn.scheduler.capacity.root.b.maximum-capacity", "100");
        p.put("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
        try (Config config = Config.fromPairs(p)) {
            // The RM plug-in's two engine modes (capsched.engine.mode): a hand-off to the engine
            // thread per call, or the call on the caller's thread under the engine's lock.
            for (boolean manual : new boolean[] {false, true}) {
                EngineOptions options = new EngineOptions().asyncScheduling(false).preemption(false);
                if (manual) options.manual();
                try (Engine engine = new Engine(config, options)) {
                    bench(engine, manual ? "manual" : "threaded", calls);
                }
            }
        }
    }

    static void bench(Engine engine, String mode, int calls) throws Exception {
        final long[] nodes = new long[NODES];
        for (int n = 0; n < NODES; n++) nodes[n] = engine.addNode("host" + n, "/rack", new Resource(65536, 64));
        run(engine, nodes, 1, calls); // warm-up: the JIT compiles the paths
        System.out.println("Java host call latency, " + mode + " engine, us (p50 / p99), " + calls
                + " calls of each kind");
        System.out.printf("%7s %17s %17s %17s %17s %17s%n", "threads", "submit", "allocate", "node update",
                "figures version", "queue statuses");
        for (int threads : new int[] {1, 8}) {
            double[][] r = run(engine, nodes, threads, calls);
            System.out.printf("%7d", threads);
            for (double[] v : r) {
                Arrays.sort(v);
                System.out.printf(" %8.1f / %-7.1f", v[v.length / 2], v[(int) (v.length * 0.99)]);
            }
            System.out.println();
        }
    }

    /** Each of `threads` threads makes calls/threads rounds of submit, allocate, node update. */
    static double[][] run(final Engine engine, final long[] nodes, int threads, int calls) throws Exception {
        final int per = calls / threads;
        final double[][] out = new double[5][per * threads];
        Thread[] t = new Thread[threads];
        for (int k = 0; k < threads; k++) {
            final int id = k;
            t[k] = new Thread(new Runnable() {
                @Override
                public void run() {
                    AllocateRequest empty = new AllocateRequest();
                    for (int i = 0; i < per; i++) {
                        int at = id * per + i;
                        long t0 = System.nanoTime();
                        long app = engine.submit((i + id) % 2 == 1 ? "a" : "b", "u");
                        out[0][at] = (System.nanoTime() - t0) / 1e3;
                        engine.addAttempt(app, new Resource(1024, 1), true, false);
                        t0 = System.nanoTime();
                        engine.allocate(app, empty);
                        out[1][at] = (System.nanoTime() - t0) / 1e3;
                        t0 = System.nanoTime();
                        engine.nodeUpdate(nodes[(i * 8 + id) % NODES]);
                        out[2][at] = (System.nanoTime() - t0) / 1e3;
                        t0 = System.nanoTime();
                        engine.figuresVersion();
                        out[3][at] = (System.nanoTime() - t0) / 1e3;
                        t0 = System.nanoTime();
                        engine.queueStatuses();
                        out[4][at] = (System.nanoTime() - t0) / 1e3;
                        engine.removeApplication(app);
                    }
                }
            });
            t[k].start();
        }
        for (Thread th : t) th.join();
        return out;
    }
}
