package org.apache.hadoop.yarn.sls.scheduler;

import com.codahale.metrics.Timer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType;

/**
 * SLS's scheduler metrics for capsched. Hadoop 3.3's SchedulerMetrics keeps the hooks a
 * scheduler wrapper drives (init, the timers and counters, tearDown) package-private, wired
 * only for its own SLSCapacityScheduler and SLSFairScheduler; this class lives in SLS's
 * package only to open those hooks to {@code org.capsched.yarn.sls.SLSCapschedScheduler}, so
 * an SLS run under capsched writes the same metrics files (realtimetrack.json,
 * jobruntime.csv, the CSV series) as one under the stock scheduler.
 */
public final class CapschedSchedulerMetrics extends SchedulerMetrics {
    /**
     * Registers the metrics, opens the output files and starts SLS's tracking threads and web
     * page (which asks the scheduler for these metrics: set them on it first).
     */
    public void start(ResourceScheduler scheduler, Configuration conf) throws Exception {
        init(scheduler, conf);
    }

    public Timer.Context timeAllocate() {
        return getSchedulerAllocateTimer().time();
    }

    public void allocated() {
        increaseSchedulerAllocationCounter();
    }

    /** The timers of one SchedulerEvent: all events, and this type's. */
    public Timer.Context[] timeHandle(SchedulerEventType type) {
        if (!isRunning()) setRunning(true);
        return new Timer.Context[] {getSchedulerHandleTimer().time(), getSchedulerHandleTimer(type).time()};
    }

    public void handled(SchedulerEventType type) {
        increaseSchedulerHandleCounter(type);
    }

    public void stop() throws Exception {
        tearDown();
    }
}
