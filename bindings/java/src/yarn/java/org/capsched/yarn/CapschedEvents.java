package org.capsched.yarn;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerExpiredSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerPreemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeLabelsUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeResourceUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ReleaseContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.capsched.CapschedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RM's SchedulerEvents ({@link CapschedResourceScheduler#handle}): each is handed to the
 * part that owns it (nodes, applications and attempts, containers, labels), and a refusal
 * becomes what the stock scheduler does for that event.
 *
 * <p>It takes no lock itself: the parts it calls take the scheduler's monitor as they need it
 * (NODE_UPDATE goes through the scheduler's synchronized {@code nodeUpdate}, a completion
 * through AbstractYarnScheduler's {@code completedContainer}). It uses the shared state of
 * {@link CapschedContext} and the scheduler's RM context.
 */
final class CapschedEvents {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    private final CapschedContext ctx;
    private final CapschedResourceScheduler scheduler;

    CapschedEvents(CapschedContext ctx) {
        this.ctx = ctx;
        this.scheduler = ctx.scheduler;
    }

    /**
     * The RM's dispatcher stops the RM when a handler throws, so none of this scheduler's does:
     * a refusal becomes what the stock scheduler does for that event ({@link #refused}), and any
     * other failure is logged with the event it stopped.
     */
    void handle(SchedulerEvent event) {
        try {
            dispatch(event);
        } catch (CapschedException e) {
            refused(event, e);
        } catch (RuntimeException e) {
            LOG.error("capsched could not handle {}: the event is dropped", event.getType(), e);
        }
    }

    /**
     * What becomes of an event capsched refused: the attempt fails with capsched's message (as
     * one whose AM cannot be placed), a recovering one's application is killed; a node capsched
     * does not take gets nothing from it; anything else is logged. The RM's own bookkeeping for
     * the event is left as the refusal found it: both sides agree.
     */
    private void refused(SchedulerEvent event, CapschedException e) {
        if (ctx.engineFailed(e)) return;
        switch (event.getType()) {
        case APP_ATTEMPT_ADDED: {
            AppAttemptAddedSchedulerEvent a = (AppAttemptAddedSchedulerEvent) event;
            ApplicationAttemptId id = a.getApplicationAttemptId();
            LOG.warn("capsched refused {}: {}", id, e.getMessage());
            if (a.getIsAttemptRecovering()) {
                ctx.rmContext().getDispatcher().getEventHandler().handle(
                        new RMAppEvent(id.getApplicationId(), RMAppEventType.KILL, e.getMessage()));
            } else {
                ctx.rmContext().getDispatcher().getEventHandler().handle(
                        new RMAppAttemptEvent(id, RMAppAttemptEventType.FAIL, e.getMessage()));
            }
            return;
        }
        case NODE_ADDED:
            LOG.error("capsched refused node {}: {}; it is given no containers",
                    ((NodeAddedSchedulerEvent) event).getAddedRMNode().getNodeID(), e.getMessage());
            return;
        case NODE_RESOURCE_UPDATE:
            LOG.error("capsched refused the new resource of node {}: {}; it keeps its resource",
                    ((NodeResourceUpdateSchedulerEvent) event).getRMNode().getNodeID(), e.getMessage());
            return;
        default:
            LOG.error("capsched refused {}: {}", event.getType(), e.getMessage());
        }
    }

    private void dispatch(SchedulerEvent event) {
        switch (event.getType()) {
        case NODE_ADDED: {
            NodeAddedSchedulerEvent e = (NodeAddedSchedulerEvent) event;
            ctx.nodes.addNode(e.getAddedRMNode(), e.getContainerReports());
            break;
        }
        case NODE_REMOVED:
            ctx.nodes.removeNode(((NodeRemovedSchedulerEvent) event).getRemovedRMNode());
            break;
        case NODE_RESOURCE_UPDATE: {
            NodeResourceUpdateSchedulerEvent e = (NodeResourceUpdateSchedulerEvent) event;
            ctx.nodes.updateNodeResource(e.getRMNode(), e.getResourceOption());
            break;
        }
        case NODE_UPDATE:
            scheduler.nodeUpdate(((NodeUpdateSchedulerEvent) event).getRMNode());
            break;
        case APP_ADDED: {
            AppAddedSchedulerEvent e = (AppAddedSchedulerEvent) event;
            ctx.apps.addApplication(e.getApplicationId(), e.getQueue(), e.getUser(), e.getIsAppRecovering(),
                    e.getApplicatonPriority());
            break;
        }
        case APP_REMOVED: {
            AppRemovedSchedulerEvent e = (AppRemovedSchedulerEvent) event;
            ctx.apps.doneApplication(e.getApplicationID(), e.getFinalState());
            break;
        }
        case APP_ATTEMPT_ADDED: {
            AppAttemptAddedSchedulerEvent e = (AppAttemptAddedSchedulerEvent) event;
            ctx.apps.addApplicationAttempt(e.getApplicationAttemptId(), e.getTransferStateFromPreviousAttempt(),
                    e.getIsAttemptRecovering());
            break;
        }
        case APP_ATTEMPT_REMOVED: {
            AppAttemptRemovedSchedulerEvent e = (AppAttemptRemovedSchedulerEvent) event;
            ctx.apps.doneApplicationAttempt(e.getApplicationAttemptID(), e.getFinalAttemptState(),
                    e.getKeepContainersAcrossAppAttempts());
            break;
        }
        case CONTAINER_EXPIRED: {
            ContainerId id = ((ContainerExpiredSchedulerEvent) event).getContainerId();
            RMContainer c = scheduler.getRMContainer(id);
            if (c != null) {
                scheduler.yarnCompletedContainer(c,
                        SchedulerUtils.createAbnormalContainerStatus(id, SchedulerUtils.EXPIRED_CONTAINER),
                        RMContainerEventType.EXPIRE);
            }
            break;
        }
        case RELEASE_CONTAINER: {
            RMContainer c = ((ReleaseContainerEvent) event).getContainer();
            scheduler.yarnCompletedContainer(c,
                    SchedulerUtils.createAbnormalContainerStatus(c.getContainerId(),
                            SchedulerUtils.RELEASED_CONTAINER),
                    RMContainerEventType.RELEASED);
            break;
        }
        case KILL_RESERVED_CONTAINER: {
            // A SchedulingEditPolicy's: the reservation is capsched's, so capsched drops it.
            RMContainer c = ((ContainerPreemptEvent) event).getContainer();
            Long handle = c == null ? null : ctx.containerHandles.get(c.getContainerId());
            if (handle != null) {
                ctx.containers.killInEngine(handle, ContainerExitStatus.PREEMPTED, SchedulerUtils.UNRESERVED_CONTAINER);
            }
            break;
        }
        case NODE_LABELS_UPDATE:
            ctx.labels.nodeLabelsUpdated(((NodeLabelsUpdateSchedulerEvent) event).getUpdatedNodeToLabels());
            break;
        case MARK_CONTAINER_FOR_PREEMPTION:
        case MARK_CONTAINER_FOR_KILLABLE:
        case MARK_CONTAINER_FOR_NONKILLABLE:
            // YARN's monitors never run under capsched (capsched preempts by itself), so only
            // a foreign SchedulingEditPolicy sends these; its decisions are not capsched's.
            ctx.warnOnce(event.getType() + " from a SchedulingEditPolicy: ignored, capsched's own monitor preempts");
            break;
        default:
            // NODE_ATTRIBUTES_UPDATE (placement constraints) and MANAGE_QUEUE (auto-created
            // queues) are CapacityScheduler features capsched does not have yet.
            ctx.warnOnce("capsched does not handle scheduler event " + event.getType() + " yet: ignored");
        }
    }
}
