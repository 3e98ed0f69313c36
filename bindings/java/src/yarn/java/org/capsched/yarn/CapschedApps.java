package org.capsched.yarn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.capsched.Capsched;
import org.capsched.CapschedException;
import org.capsched.Submission;
import org.capsched.YarnId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applications and their attempts: APP_ADDED and APP_REMOVED, APP_ATTEMPT_ADDED and
 * APP_ATTEMPT_REMOVED, moves between queues, priority and lifetime, the placement of a
 * submission by capsched's rules, and the submitter's groups those need. It keeps the
 * scheduler's applications (SchedulerApplication, CapschedAppAttempt) and
 * {@link CapschedContext#appHandles}/{@link CapschedContext#responseIds} in step with capsched.
 *
 * <p>The events take the scheduler's monitor ({@code synchronized (scheduler)}, as the
 * scheduler's synchronized methods did); {@link #preValidateMoveApplication},
 * {@link #moveApplication}, {@link #updateApplicationPriority} and {@link #appsInQueue} are
 * called from the scheduler's synchronized overrides, so hold it too. Placement, the priority
 * and lifetime checks and the groups take none, as before.
 */
final class CapschedApps {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    private final CapschedContext ctx;
    private final CapschedResourceScheduler scheduler;

    /** Whether submissions need the user's groups: for ACLs, or for queue mappings. */
    volatile boolean resolveGroups;

    CapschedApps(CapschedContext ctx) {
        this.ctx = ctx;
        this.scheduler = ctx.scheduler;
    }

    void addApplication(ApplicationId id, String queue, String user, boolean recovering, Priority priority) {
        synchronized (scheduler) {
            RMContext rmContext = ctx.rmContext();
            if (ctx.appHandles.containsKey(id)) {
                // Not the RM's flow; the application it names is left as it is.
                LOG.warn("Application {} is in the scheduler already: APP_ADDED ignored", id);
                return;
            }
            long handle;
            int p = priority == null ? Capsched.DEFAULT_PRIORITY : priority.getPriority();
            YarnId yarnId = YarnId.application(id.getClusterTimestamp(), id.getId());
            try {
                // A recovered application was accepted before the restart: capsched re-adds it
                // without the submission checks (addApplicationOnRecovery).
                RMApp rmApp = rmContext.getRMApps().get(id);
                Submission submission = new Submission(queue, user).groups(groups(user)).priority(p)
                        .applicationId(yarnId).recovering(recovering);
                if (!recovering && rmApp != null) submission.appName(rmApp.getName());
                if (rmApp != null) {
                    // The application's label (its ANY asks' when they name none) and its AM
                    // request's, which RMAppManager has normalised and checked already.
                    String appLabel = rmApp.getApplicationSubmissionContext().getNodeLabelExpression();
                    String amLabel = null;
                    if (rmApp.getAMResourceRequests() != null) {
                        for (ResourceRequest r : rmApp.getAMResourceRequests()) {
                            if (ResourceRequest.ANY.equals(r.getResourceName())) amLabel = r.getNodeLabelExpression();
                        }
                    }
                    ctx.labels.learnLabels(appLabel, amLabel);
                    submission.nodeLabelExpression(appLabel).amNodeLabelExpression(amLabel);
                }
                handle = ctx.engine().submit(submission);
            } catch (CapschedException e) {
                // Whatever the refusal, the application is not the scheduler's: the RM rejects it
                // with capsched's message (YARN's words for the submission checks).
                ctx.engineFailed(e);
                LOG.info("Rejected {}: {}", id, e.getMessage());
                // On recovery its queue is gone, or no longer a leaf: YARN kills it.
                rmContext.getDispatcher().getEventHandler().handle(new RMAppEvent(id,
                        recovering ? RMAppEventType.KILL : RMAppEventType.APP_REJECTED, e.getMessage()));
                return;
            }
            ctx.appHandles.put(id, handle);
            CapschedQueue leaf = ctx.queue(ctx.engine().applicationReport(handle).queue);
            SchedulerApplication<CapschedAppAttempt> app = new SchedulerApplication<CapschedAppAttempt>(leaf, user,
                    priority);
            scheduler.applications().put(id, app);
            leaf.getMetrics().submitApp(user);
            if (!recovering) {
                rmContext.getDispatcher().getEventHandler().handle(new RMAppEvent(id, RMAppEventType.APP_ACCEPTED));
            }
            ctx.engineEvents.drain();
        }
    }

    static boolean needsGroups(Map<String, String> settings) {
        String mappings = settings.get(CapacitySchedulerConfiguration.QUEUE_MAPPING);
        // YARN 3.4's JSON mapping rules may match groups and place by them too.
        return Boolean.parseBoolean(settings.get(YarnConfiguration.YARN_ACL_ENABLE))
                || (mappings != null && !mappings.trim().isEmpty())
                || "json".equals(settings.get("yarn.scheduler.capacity.mapping-rule-format"));
    }

    /**
     * The submitter's groups, which capsched needs only for the queue ACLs it checks with
     * {@code yarn.acl.enable} and for queue mappings (resolving them runs the group mapping, a
     * shell command by default, so not on every submission).
     */
    private List<String> groups(String user) {
        if (!resolveGroups) return Collections.<String>emptyList();
        try {
            return UserGroupInformation.createRemoteUser(user).getGroups();
        } catch (RuntimeException e) {
            return Collections.<String>emptyList();
        }
    }

    /**
     * Where capsched's placement rules send a submission: the leaf and the rule's parent, or
     * null when no rule places it (it then goes to the queue it names). A rule that fails the
     * submission fails it with YARN's message.
     */
    org.apache.hadoop.yarn.server.resourcemanager.placement.ApplicationPlacementContext place(
            org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext asc, String user) throws YarnException {
        ApplicationId id = asc.getApplicationId();
        String[] placed;
        try {
            placed = ctx.engine().place(asc.getQueue(), user, groups(user), asc.getApplicationName(),
                    id == null ? null : YarnId.application(id.getClusterTimestamp(), id.getId()));
        } catch (CapschedException e) {
            ctx.engineFailed(e);
            throw new YarnException(e.getMessage());
        }
        if (placed == null) return null;
        return new org.apache.hadoop.yarn.server.resourcemanager.placement.ApplicationPlacementContext(placed[0],
                placed[1].isEmpty() ? null : placed[1]);
    }

    void addApplicationAttempt(ApplicationAttemptId id, boolean transfer, boolean recovering) {
        synchronized (scheduler) {
            RMContext rmContext = ctx.rmContext();
            SchedulerApplication<CapschedAppAttempt> app = scheduler.applications().get(id.getApplicationId());
            Long handle = ctx.appHandles.get(id.getApplicationId());
            if (app == null || handle == null) {
                LOG.warn("Attempt {} of an application capsched does not hold", id);
                return;
            }
            RMApp rmApp = rmContext.getRMApps().get(id.getApplicationId());
            boolean unmanaged = rmApp != null && rmApp.getApplicationSubmissionContext().getUnmanagedAM();
            Resource am = Resource.newInstance(1024, 1);
            if (rmApp != null && rmApp.getAMResourceRequests() != null && !rmApp.getAMResourceRequests().isEmpty()) {
                am = rmApp.getAMResourceRequests().get(0).getCapability();
            } else if (rmApp != null && rmApp.getApplicationSubmissionContext().getResource() != null) {
                am = rmApp.getApplicationSubmissionContext().getResource();
            }
            if (recovering) {
                ctx.engine().recoverAttempt(handle, CapschedContext.resource(am), unmanaged); // its AM runs already
            } else {
                ctx.engine().addAttempt(handle, CapschedContext.resource(am), unmanaged, transfer);
            }
            CapschedAppAttempt attempt = new CapschedAppAttempt(id, app.getUser(), (CapschedQueue) app.getQueue(),
                    rmContext);
            if (transfer) attempt.transferStateFromPreviousAttempt(app.getCurrentAppAttempt());
            app.setCurrentAppAttempt(attempt);
            ctx.responseIds.put(id, 0);
            app.getQueue().getMetrics().submitAppAttempt(app.getUser());
            if (!recovering) {
                rmContext.getDispatcher().getEventHandler().handle(
                        new RMAppAttemptEvent(id, RMAppAttemptEventType.ATTEMPT_ADDED));
            }
            ctx.queues.amLimitMoment(((CapschedQueue) app.getQueue()).path());
            ctx.engineEvents.drain();
        }
    }

    void doneApplicationAttempt(ApplicationAttemptId id, RMAppAttemptState state, boolean keep) {
        synchronized (scheduler) {
            CapschedAppAttempt attempt = scheduler.getApplicationAttempt(id);
            Long handle = ctx.appHandles.get(id.getApplicationId());
            if (attempt == null || handle == null) return;
            try {
                ctx.engine().removeAttempt(handle, keep);
            } catch (CapschedException e) {
                ctx.goOnPast("the end of " + id, e);
            }
            ctx.queues.amLimitMoment(((CapschedQueue) attempt.getQueue()).path());
            ctx.engineEvents.drain(); // its containers, killed (or kept)
            ctx.responseIds.remove(id);
            attempt.dischargeAm();
            attempt.stop(state);
        }
    }

    void doneApplication(ApplicationId id, org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState state) {
        synchronized (scheduler) {
            SchedulerApplication<CapschedAppAttempt> app = scheduler.applications().remove(id);
            Long handle = ctx.appHandles.remove(id);
            if (handle != null) {
                try {
                    ctx.engine().removeApplication(handle);
                } catch (CapschedException e) {
                    ctx.goOnPast("the end of " + id, e);
                }
            }
            ctx.engineEvents.drain();
            if (app != null) app.stop(state);
        }
    }

    /** preValidateMoveApplication (the scheduler's monitor held). */
    void preValidateMoveApplication(ApplicationId appId, String newQueue) throws YarnException {
        if (!scheduler.applications().containsKey(appId)) {
            throw new YarnException("App to be moved " + appId + " not found.");
        }
        if (ctx.queueAccess.queueStatus(newQueue) == null) {
            throw new YarnException("The specified Queue: " + newQueue + " doesn't exist");
        }
        // The limits and ACLs of the target are capsched's, checked when it moves the app.
    }

    /**
     * Moves an application: capsched checks the target (YARN's messages) and moves it (the
     * scheduler's monitor held).
     */
    String moveApplication(ApplicationId appId, String newQueue) throws YarnException {
        SchedulerApplication<CapschedAppAttempt> app = scheduler.applications().get(appId);
        Long handle = ctx.appHandles.get(appId);
        if (app == null || handle == null) throw new YarnException("App to be moved " + appId + " not found.");
        String source = ((CapschedQueue) app.getQueue()).path();
        try {
            ctx.engine().moveApplication(handle, newQueue);
        } catch (CapschedException e) {
            throw new YarnException(e.getMessage(), e);
        }
        CapschedQueue dest = ctx.queue(ctx.engine().applicationReport(handle).queue);
        CapschedAppAttempt attempt = app.getCurrentAppAttempt();
        if (attempt != null) {
            // Pending again in the target, whose activation counts the AM there.
            attempt.dischargeAm();
            attempt.move(dest); // the queue metrics follow its containers
        }
        app.setQueue(dest);
        LOG.info("App: {} moved to {}", appId, dest.path());
        ctx.queues.amLimitMoment(source);
        ctx.queues.amLimitMoment(dest.path());
        ctx.engineEvents.drain();
        if (attempt != null) attempt.activateMovedAsks();
        return newQueue;
    }

    /**
     * The priority an application gets at submission: the one asked for, capped at
     * {@code yarn.cluster.max-application-priority}, or 0 (capsched applies the leaf's default
     * itself when none is asked for).
     */
    Priority checkAndGetApplicationPriority(Priority requested, UserGroupInformation user, String queuePath,
            ApplicationId applicationId) throws YarnException {
        ctx.queueAccess.checkSubmitAccess(user, queuePath, applicationId);
        if (requested == null) return Priority.newInstance(0);
        int max = scheduler.getMaxClusterLevelAppPriority().getPriority();
        return Priority.newInstance(Math.min(requested.getPriority(), max));
    }

    /**
     * `yarn application -updatePriority`: capsched re-orders the leaf; the state store keeps it
     * (the scheduler's monitor held).
     */
    Priority updateApplicationPriority(Priority newPriority, ApplicationId applicationId,
            org.apache.hadoop.thirdparty.com.google.common.util.concurrent.SettableFuture<Object> future)
            throws YarnException {
        RMContext rmContext = ctx.rmContext();
        SchedulerApplication<CapschedAppAttempt> app = scheduler.applications().get(applicationId);
        Long handle = ctx.appHandles.get(applicationId);
        if (app == null || handle == null) {
            throw new YarnException("Application '" + applicationId
                    + "' is not present, hence could not change priority.");
        }
        Priority effective;
        try {
            effective = Priority.newInstance(ctx.engine().setApplicationPriority(handle, newPriority.getPriority()));
        } catch (CapschedException e) {
            throw new YarnException(e.getMessage(), e);
        }
        RMApp rmApp = rmContext.getRMApps().get(applicationId);
        if (effective.equals(app.getPriority()) || rmApp == null) {
            future.set(null);
            return effective;
        }
        app.setPriority(effective);
        if (app.getCurrentAppAttempt() != null) app.getCurrentAppAttempt().setPriority(effective);
        rmApp.getApplicationSubmissionContext().setPriority(effective);
        org.apache.hadoop.yarn.server.resourcemanager.recovery.records.ApplicationStateData state =
                org.apache.hadoop.yarn.server.resourcemanager.recovery.records.ApplicationStateData.newInstance(
                        rmApp.getSubmitTime(), rmApp.getStartTime(), rmApp.getApplicationSubmissionContext(),
                        rmApp.getUser(), rmApp.getRealUser(), rmApp.getCallerContext());
        state.setApplicationTimeouts(rmApp.getApplicationTimeouts());
        state.setLaunchTime(rmApp.getLaunchTime());
        rmContext.getStateStore().updateApplicationStateSynchronously(state, false, future);
        ctx.engineEvents.drain();
        return effective;
    }

    /**
     * The lifetime the RM's lifetime monitor registers for an application (RMAppImpl asks at
     * submission): the leaf's default when it asks for none, capped at the leaf's maximum.
     */
    long checkAndGetApplicationLifetime(String queueName, long lifetime) {
        try {
            return ctx.engine().applicationLifetime(queueName, lifetime)[0];
        } catch (CapschedException e) {
            // As CapacityScheduler answers for a queue it cannot find: what was asked for.
            LOG.error("Lifetime of an application in {}: {}", queueName, e.getMessage());
            return lifetime;
        }
    }

    /** The leaf's {@code maximum-application-lifetime} (an update of the timeout is cut to it). */
    long maximumApplicationLifetime(String queueName) {
        try {
            return ctx.engine().applicationLifetime(queueName, -1)[1];
        } catch (CapschedException e) {
            LOG.error("Unknown queue: {} ({})", queueName, e.getMessage());
            return -1;
        }
    }

    /** getAppsInQueue (the scheduler's monitor held). */
    List<ApplicationAttemptId> appsInQueue(String queueName) {
        // YARN's answer: the attempts in the queue (beneath it, for a parent), or null when
        // there is no such queue.
        String queue = scheduler.queuePath(queueName);
        if (queue == null) return null;
        List<ApplicationAttemptId> out = new ArrayList<ApplicationAttemptId>();
        for (SchedulerApplication<CapschedAppAttempt> app : scheduler.applications().values()) {
            String path = ((CapschedQueue) app.getQueue()).path();
            boolean in = path.equals(queue) || path.startsWith(queue + ".");
            if (in && app.getCurrentAppAttempt() != null) out.add(app.getCurrentAppAttempt().getApplicationAttemptId());
        }
        return out;
    }

    /**
     * A leaf's reservations per user, from its applications' reports: for queue metrics that
     * keep figures per user ({@code yarn.scheduler.capacity.user-metrics.enable}).
     */
    Map<String, CapschedQueue.Reservations> reservationsByUser(String path) {
        Map<String, CapschedQueue.Reservations> out = new java.util.HashMap<String, CapschedQueue.Reservations>();
        for (Map.Entry<ApplicationId, SchedulerApplication<CapschedAppAttempt>> e
                : scheduler.applications().entrySet()) {
            if (!((CapschedQueue) e.getValue().getQueue()).path().equals(path)) continue;
            Long handle = ctx.appHandles.get(e.getKey());
            if (handle == null) continue;
            org.capsched.AppReport r = ctx.engine().applicationReport(handle);
            if (r.reservedContainers == 0) continue;
            CapschedQueue.Reservations had = out.get(r.user);
            Resource total = CapschedQueue.resource(r.reserved);
            if (had != null) {
                total = org.apache.hadoop.yarn.util.resource.Resources.add(total, had.total);
            }
            out.put(r.user, new CapschedQueue.Reservations((had == null ? 0 : had.count) + r.reservedContainers, total));
        }
        return out;
    }
}
