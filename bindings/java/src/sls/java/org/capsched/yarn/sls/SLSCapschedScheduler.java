package org.capsched.yarn.sls;

import com.codahale.metrics.Timer;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType;
import org.apache.hadoop.yarn.sls.SLSRunner;
import org.apache.hadoop.yarn.sls.conf.SLSConfiguration;
import org.apache.hadoop.yarn.sls.scheduler.CapschedSchedulerMetrics;
import org.apache.hadoop.yarn.sls.scheduler.SchedulerMetrics;
import org.apache.hadoop.yarn.sls.scheduler.SchedulerWrapper;
import org.apache.hadoop.yarn.sls.scheduler.Tracker;
import org.capsched.yarn.CapschedResourceScheduler;

/**
 * capsched under Hadoop's Scheduler Load Simulator: {@code yarn.resourcemanager.scheduler.class}
 * set to this class in the SLS run's yarn-site.xml, the same trace runs on a real
 * ResourceManager scheduled by capsched as it does on SLSCapacityScheduler. As SLS's own
 * wrappers do, it times every allocate and SchedulerEvent into SLS's metrics, and tells the
 * runner when an application attempt ends (the run stops when none is left).
 */
public class SLSCapschedScheduler extends CapschedResourceScheduler implements SchedulerWrapper {
    private final Tracker tracker = new Tracker();
    private CapschedSchedulerMetrics metrics;

    @Override
    public void serviceInit(Configuration conf) throws Exception {
        super.serviceInit(conf);
        if (conf.getBoolean(SLSConfiguration.METRICS_SWITCH, true)) {
            metrics = new CapschedSchedulerMetrics();
            metrics.start(this, conf);
        }
    }

    @Override
    public void serviceStop() throws Exception {
        if (metrics != null) metrics.stop();
        super.serviceStop();
    }

    @Override
    public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
            List<SchedulingRequest> schedulingRequests, List<ContainerId> release, List<String> blacklistAdditions,
            List<String> blacklistRemovals, ContainerUpdates updates) {
        if (metrics == null) {
            return super.allocate(attemptId, ask, schedulingRequests, release, blacklistAdditions, blacklistRemovals,
                    updates);
        }
        Timer.Context time = metrics.timeAllocate();
        try {
            return super.allocate(attemptId, ask, schedulingRequests, release, blacklistAdditions, blacklistRemovals,
                    updates);
        } finally {
            time.stop();
            metrics.allocated();
        }
    }

    @Override
    public void handle(SchedulerEvent event) {
        Timer.Context[] time = metrics == null ? null : metrics.timeHandle(event.getType());
        try {
            super.handle(event);
        } finally {
            if (time != null) {
                for (Timer.Context t : time) t.stop();
                metrics.handled(event.getType());
            }
            if (event.getType() == SchedulerEventType.APP_ATTEMPT_REMOVED) {
                SLSRunner.decreaseRemainingApps();
            }
        }
    }

    @Override
    public SchedulerMetrics getSchedulerMetrics() {
        return metrics;
    }

    @Override
    public Tracker getTracker() {
        return tracker;
    }

    /** The queue's full path, as SLSCapacityScheduler answers (and with its message if unknown). */
    @Override
    public String getRealQueueName(String queue) throws YarnException {
        String path = queuePath(queue);
        if (path == null) {
            throw new YarnException("Can't find the queue by the given name: " + queue + "! Please check if queue "
                    + queue + " is in the allocation file.");
        }
        return path;
    }
}
