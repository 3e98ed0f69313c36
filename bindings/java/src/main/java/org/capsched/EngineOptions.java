package org.capsched;

/** How to run an engine; the setters chain. Defaults: threaded, settings from the configuration. */
public final class EngineOptions {
    static final int FROM_CONFIG = -1;

    int mode; // 0 threaded, 1 manual
    long seed = 1;
    int asyncScheduling = FROM_CONFIG;
    int preemption = FROM_CONFIG;
    long eventCapacity;
    int manualClock;
    long clockStartMs;
    long clusterTimestamp;
    long rmEpoch;

    /** No threads: the host ticks ({@link Engine#tick}) and steps. */
    public EngineOptions manual() {
        mode = 1;
        return this;
    }

    public EngineOptions seed(long seed) {
        this.seed = seed;
        return this;
    }

    public EngineOptions asyncScheduling(boolean on) {
        asyncScheduling = on ? 1 : 0;
        return this;
    }

    /** The preemption monitor on or off whatever the configuration says. */
    public EngineOptions preemption(boolean on) {
        preemption = on ? 1 : 0;
        return this;
    }

    public EngineOptions eventCapacity(long n) {
        eventCapacity = n;
        return this;
    }

    /** The engine's clock is the host's, starting at {@code startMs}. */
    public EngineOptions manualClock(long startMs) {
        manualClock = 1;
        clockStartMs = startMs;
        return this;
    }

    /** The RM's cluster timestamp in the application ids the engine mints. */
    public EngineOptions clusterTimestamp(long ms) {
        clusterTimestamp = ms;
        return this;
    }

    /** The RM's epoch in the container ids the engine mints. */
    public EngineOptions rmEpoch(long epoch) {
        rmEpoch = epoch;
        return this;
    }

    long[] pack() {
        return new long[] {mode, seed, asyncScheduling, preemption, eventCapacity, manualClock, clockStartMs,
            clusterTimestamp, rmEpoch};
    }
}
