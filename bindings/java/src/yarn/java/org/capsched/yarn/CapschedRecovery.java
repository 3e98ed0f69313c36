package org.capsched.yarn;

import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.capsched.CapschedException;
import org.capsched.RecoveredContainer;
import org.capsched.YarnId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work-preserving recovery of a NodeManager's containers: which containers of its NODE_ADDED
 * reports capsched charges back (to the node, its application, user and queue), and, once
 * YARN's own recovery has rebuilt their RMContainers, the map between capsched's handles and
 * their ids. Applications and attempts themselves come back through APP_ADDED and
 * APP_ATTEMPT_ADDED ({@link CapschedApps}).
 *
 * <p>Called by {@link CapschedNodes#addNode} with the scheduler's monitor held; it takes no lock
 * itself. It reads the scheduler's applications and the RM's apps, and writes
 * {@link CapschedContext#containerHandles}/{@link CapschedContext#containerIds}.
 */
final class CapschedRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    private final CapschedContext ctx;
    private final CapschedResourceScheduler scheduler;

    CapschedRecovery(CapschedContext ctx) {
        this.ctx = ctx;
        this.scheduler = ctx.scheduler;
    }

    /**
     * The containers of a registering node's reports capsched is to re-attach, into
     * `recovered`, and their ids into `recoveredIds`: none unless the RM recovers work.
     */
    void recoverable(List<NMContainerStatus> reports, List<RecoveredContainer> recovered,
            List<ContainerId> recoveredIds) {
        if (reports != null && ctx.rmContext().isWorkPreservingRecoveryEnabled()) {
            for (NMContainerStatus report : reports) {
                RecoveredContainer c = recoverable(report);
                if (c != null) {
                    recovered.add(c);
                    recoveredIds.add(report.getContainerId());
                }
            }
        }
    }

    /**
     * A running container of a report capsched is to re-attach, as YARN's recovery would
     * (a guaranteed container of an application the RM recovered, of its current attempt
     * unless containers are kept across attempts); null for one YARN kills or skips.
     */
    private RecoveredContainer recoverable(NMContainerStatus report) {
        ContainerId id = report.getContainerId();
        ApplicationId appId = id.getApplicationAttemptId().getApplicationId();
        Long app = ctx.appHandles.get(appId);
        SchedulerApplication<CapschedAppAttempt> schedulerApp = scheduler.applications().get(appId);
        RMApp rmApp = ctx.rmContext().getRMApps().get(appId);
        if (report.getContainerState() == ContainerState.COMPLETE || app == null || schedulerApp == null
                || rmApp == null || schedulerApp.getCurrentAppAttempt() == null) {
            return null;
        }
        CapschedAppAttempt attempt = schedulerApp.getCurrentAppAttempt();
        if (attempt.isStopped() || !attempt.getApplicationAttemptId().equals(id.getApplicationAttemptId())) {
            // YARN recovers an earlier attempt's container of a keep-containers application
            // (its own bookkeeping does here); capsched's reports carry no attempt, so it
            // would take the current attempt's id, which may be another live container's.
            if (rmApp.getApplicationSubmissionContext().getKeepContainersAcrossApplicationAttempts()) {
                LOG.warn("{} of an earlier attempt: recovered by YARN's bookkeeping, not charged in capsched", id);
            }
            return null;
        }
        if (report.getExecutionType() != ExecutionType.GUARANTEED) {
            LOG.warn("{}: capsched does not recover opportunistic containers; YARN's bookkeeping alone keeps it", id);
            return null;
        }
        RMAppAttempt current = rmApp.getCurrentAppAttempt();
        boolean isAm = current != null && current.getMasterContainer() != null
                && current.getMasterContainer().getId().equals(id);
        int priority = report.getPriority() == null ? 0 : report.getPriority().getPriority();
        return new RecoveredContainer(app, CapschedContext.resource(report.getAllocatedResource()), priority,
                report.getAllocationRequestId(), id.getContainerId(), isAm);
    }

    /**
     * After YARN's recovery of the node (recoverContainersOnNode): each container capsched took
     * back, by the handle capsched gave it.
     */
    void reattach(List<ContainerId> recoveredIds) {
        for (ContainerId id : recoveredIds) {
            ApplicationId appId = id.getApplicationAttemptId().getApplicationId();
            SchedulerApplication<CapschedAppAttempt> app = scheduler.applications().get(appId);
            // capsched re-attaches a container to the application's current attempt.
            ApplicationAttemptId current = app.getCurrentAppAttempt().getApplicationAttemptId();
            long c;
            try {
                c = ctx.engine().findContainer(new YarnId(appId.getClusterTimestamp(), appId.getId(),
                        current.getAttemptId(), id.getContainerId()));
            } catch (CapschedException e) {
                LOG.warn("capsched did not take {} back ({}): YARN's bookkeeping alone keeps it", id, e.getMessage());
                continue;
            }
            ctx.containerHandles.put(id, c);
            ctx.containerIds.put(c, id);
        }
    }
}
