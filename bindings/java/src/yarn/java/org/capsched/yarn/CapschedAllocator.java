package org.capsched.yarn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator;
import org.capsched.AllocateRequest;
import org.capsched.AllocateResponse;
import org.capsched.Ask;
import org.capsched.CapschedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AM's allocate: its asks, releases and blacklist to capsched once the AM has registered,
 * what capsched placed for it (outside heartbeats, with asynchronous scheduling: recorded at
 * its CONTAINER_PLACED, here only if that event was lost), the
 * preemption it asks of the AM (the containers and the negotiable contract), headroom, YARN's
 * request table kept as the stock scheduler keeps it, and the SchedulingRequests it refuses.
 *
 * <p>Locks, as the stock CapacityScheduler's allocate takes them: none of the scheduler's for
 * the call itself (the AM service serialises one attempt's calls, the engine its own, the
 * attempt's lock its request table and containers), so allocates from the RM's IPC threads run
 * beside the event thread's heartbeats. Only {@link #recordPlaced}, the drain of the engine's
 * events, takes the scheduler's monitor: events are handled in order, one drain at a time.
 */
final class CapschedAllocator {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    private final CapschedContext ctx;
    private final CapschedResourceScheduler scheduler;

    CapschedAllocator(CapschedContext ctx) {
        this.ctx = ctx;
        this.scheduler = ctx.scheduler;
    }

    Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
            List<SchedulingRequest> schedulingRequests, List<ContainerId> release, List<String> blacklistAdditions,
            List<String> blacklistRemovals, ContainerUpdates updates) {
        CapschedAppAttempt attempt = scheduler.getApplicationAttempt(attemptId);
        if (attempt == null || !attempt.getApplicationAttemptId().equals(attemptId)) {
            LOG.error("Calling allocate on removed or non existent application attempt {}", attemptId);
            return CapschedResourceScheduler.emptyAllocation();
        }
        scheduler.yarnNormalizeResourceRequests(ask);
        scheduler.yarnReleaseContainers(release, attempt);
        RMAppAttemptState state = attemptState(attemptId);
        RMContext rmContext = ctx.rmContext();
        // Registered as the AM service has it: the attempt's RUNNING state follows the
        // registration through the RM's dispatcher, and an AM's first allocate may come
        // before it (its asks would otherwise stay YARN's alone). Asked outside this
        // scheduler's monitor: the AM service holds its own lock while it calls allocate.
        boolean registered = state == RMAppAttemptState.RUNNING || (rmContext.getApplicationMasterService() != null
                && rmContext.getApplicationMasterService().hasApplicationMasterRegistered(attemptId));
        // No scheduler-wide lock here, as CapacityScheduler.allocate takes none: the engine
        // serialises its own calls, and the attempt's lock is held while both request tables
        // take the asks (capsched's, then YARN's), so a heartbeat's placement from capsched's
        // new table is recorded against YARN's new one too (recording takes the attempt's lock).
        // It is let go before the drain, which takes the scheduler's monitor: a heartbeat holds
        // the monitor, then the attempt's lock.
        ApplicationId appId = attemptId.getApplicationId();
        Long handle = ctx.appHandles.get(appId);
        // Before the AM registers, allocate is the RM's own (the AM ask capsched made itself).
        // Made before the lock: learning a label may take the scheduler's monitor.
        AllocateRequest request = handle != null && registered
                ? engineRequest(attemptId, ask, blacklistAdditions, blacklistRemovals) : null;
        AllocateResponse response = null;
        attempt.getWriteLock().lock();
        try {
            if (attempt.isStopped()) return CapschedResourceScheduler.emptyAllocation();
            if (request != null) {
                try {
                    response = ctx.engine().allocate(handle, request);
                } catch (CapschedException e) {
                    // The event thread is ending the attempt: capsched has let it go, and its
                    // stop waits for this lock. As for a stopped attempt, the AM gets nothing.
                    if (e.status() == CapschedException.UNKNOWN_ID) return CapschedResourceScheduler.emptyAllocation();
                    // Refused before YARN's side took anything in: the AM hears why as from
                    // YARN's own checks.
                    ctx.engineFailed(e);
                    throw YarnExceptions.sneaky(YarnExceptions.forAllocate(e));
                }
            }
            // The RM's ScheduleTransition asks for the AM container; when capsched has placed it
            // already, that ask is not YARN's to hold (nothing would ever take it).
            boolean amPlaced = state == RMAppAttemptState.SUBMITTED && !attempt.getLiveContainers().isEmpty();
            if (!ask.isEmpty() && !amPlaced) attempt.updateResourceRequests(ask);
            attempt.updateBlacklist(blacklistAdditions, blacklistRemovals);
        } finally {
            attempt.getWriteLock().unlock();
        }
        Resource headroom = attempt.getHeadroom();
        Set<ContainerId> preempt = null;
        List<ResourceRequest> preemptResources = null;
        if (response != null) {
            ctx.responseIds.put(attemptId, response.responseId);
            recordPlaced(response);
            headroom = Resource.newInstance(response.headroom.memoryMb, (int) response.headroom.vcores);
            if (response.preemptContainers.length > 0) {
                preempt = new HashSet<ContainerId>();
                for (long c : response.preemptContainers) {
                    ContainerId id = ctx.containerIds.get(c);
                    if (id != null) preempt.add(id);
                }
                preemptResources = Collections.singletonList(preemptionAsk(response.preemptResource));
            }
        } else if (release != null && !release.isEmpty()) {
            ctx.engineEvents.drain(); // what the releases freed (before the AM registered)
        }
        attempt.setApplicationHeadroomForMetrics(headroom);
        if (updates != null && (!updates.getIncreaseRequests().isEmpty()
                || !updates.getDecreaseRequests().isEmpty() || !updates.getPromotionRequests().isEmpty()
                || !updates.getDemotionRequests().isEmpty())) {
            ctx.warnOnce("Container update requests (resize, promotion, demotion) are not supported under "
                    + "capsched yet: ignored");
        }
        // The RM's ScheduleTransition asks for the AM container and drops what the
        // answer carries; capsched asks for it itself at APP_ATTEMPT_ADDED, so a heartbeat
        // may have placed it already. It stays to be pulled when the attempt handles
        // CONTAINER_ALLOCATED (AMContainerAllocatedTransition), as with the stock scheduler.
        List<Container> newly = state == RMAppAttemptState.SUBMITTED
                ? Collections.<Container>emptyList() : attempt.pullNewlyAllocatedContainers();
        return new Allocation(newly, headroom, null, preempt,
                preemptResources, attempt.pullUpdatedNMTokens(), null, null, null, null, null,
                rejected(schedulingRequests));
    }

    /** The AM's asks, releases' blacklist and response id as capsched's allocate takes them. */
    private AllocateRequest engineRequest(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
            List<String> blacklistAdditions, List<String> blacklistRemovals) {
        AllocateRequest request = new AllocateRequest().responseId(ctx.responseIds.getOrDefault(attemptId, 0));
        for (ResourceRequest r : ask) {
            if (ResourceRequest.ANY.equals(r.getResourceName())) ctx.labels.learnLabels(r.getNodeLabelExpression());
        }
        for (ResourceRequest r : ask) {
            if (r.getExecutionTypeRequest() != null
                    && r.getExecutionTypeRequest().getExecutionType() != ExecutionType.GUARANTEED) {
                // The RM's OpportunisticContainerAllocatorAMService places these before
                // the scheduler sees the heartbeat, for capsched as for the stock one.
                ctx.warnOnce("OPPORTUNISTIC asks reached the scheduler: enable "
                        + "yarn.resourcemanager.opportunistic-container-allocation.enabled for the RM to "
                        + "place them; capsched ignores them");
                continue;
            }
            // The RM has normalised the ANY ask's label (the application's, else the
            // queue's default, else ""); host and rack asks follow their key's ANY ask
            // in capsched as in YARN, so theirs (the RM's "") is not passed on.
            String label = ResourceRequest.ANY.equals(r.getResourceName()) ? r.getNodeLabelExpression() : null;
            request.ask(new Ask(r.getPriority().getPriority(), r.getAllocationRequestId(), r.getResourceName(),
                    CapschedContext.resource(r.getCapability()), r.getNumContainers(), r.getRelaxLocality(), 0,
                    label));
        }
        if (blacklistAdditions != null) for (String b : blacklistAdditions) request.blacklist(b);
        if (blacklistRemovals != null) for (String b : blacklistRemovals) request.unblacklist(b);
        return request;
    }

    /**
     * Every container the answer lists is an RMContainer before the AM pulls: the engine's
     * events queued by now make those placed outside heartbeats (each told by CONTAINER_PLACED
     * before the answer lists it), in the one drain of this allocate; a heartbeat's own are
     * recorded under the monitor this waits for. Only a container whose placement event was lost
     * (the engine's event queue full) is recorded here.
     */
    private void recordPlaced(AllocateResponse response) {
        // Without asynchronous scheduling every container is placed in a heartbeat, which has
        // recorded it by the time an answer lists it: no drain, no monitor, one call into the
        // engine for the whole allocate. The event thread drains the rest after its next event.
        if (allRecorded(response)) return;
        synchronized (scheduler) {
            ctx.engineEvents.drain();
            for (org.capsched.Container c : response.allocated) {
                if (c.executionType != org.capsched.Container.GUARANTEED) continue;
                ContainerId id = ContainerId.newContainerId(CapschedContext.attemptId(c.yarnId),
                        c.yarnId.containerId);
                if (ctx.containerHandles.containsKey(id)) continue;
                ctx.containers.firstSeenAtPull(id);
                NodeId nodeId = ctx.nodeIds.get(c.node);
                ctx.containers.record(c, nodeId == null ? null : scheduler.nodeTracker().getNode(nodeId));
            }
        }
    }

    /** Whether every guaranteed container the answer lists is an RMContainer already. */
    private boolean allRecorded(AllocateResponse response) {
        for (org.capsched.Container c : response.allocated) {
            if (c.executionType != org.capsched.Container.GUARANTEED) continue;
            ContainerId id = ContainerId.newContainerId(CapschedContext.attemptId(c.yarnId), c.yarnId.containerId);
            if (!ctx.containerHandles.containsKey(id)) return false;
        }
        return true;
    }

    /**
     * SchedulingRequests (placement constraints, with
     * {@code yarn.resourcemanager.placement-constraints.handler=scheduler}) are refused back to
     * the AM, which hears why instead of waiting for containers that never come.
     */
    private List<org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest> rejected(
            List<SchedulingRequest> requests) {
        if (requests == null || requests.isEmpty()) return null;
        ctx.warnOnce("SchedulingRequests (placement constraints) are not supported under capsched: rejected");
        List<org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest> out =
                new ArrayList<org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest>();
        for (SchedulingRequest r : requests) {
            out.add(org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest.newInstance(
                    org.apache.hadoop.yarn.api.records.RejectionReason.COULD_NOT_SCHEDULE_ON_NODE, r));
        }
        return out;
    }

    /**
     * The negotiable contract's resource part, as FiCaSchedulerApp states it: the marked
     * containers' total in minimum allocations at ANY. Without it the RM sends no contract.
     */
    private ResourceRequest preemptionAsk(org.capsched.Resource total) {
        Resource tot = Resource.newInstance(total.memoryMb, (int) total.vcores);
        Resource minimumAllocation = scheduler.minimumAllocation();
        int count = (int) Math.ceil(org.apache.hadoop.yarn.util.resource.Resources.divide(ctx.calculator,
                scheduler.getClusterResource(), tot, minimumAllocation));
        return ResourceRequest.newBuilder().priority(Priority.UNDEFINED).resourceName(ResourceRequest.ANY)
                .capability(minimumAllocation).numContainers(count).build();
    }

    private RMAppAttemptState attemptState(ApplicationAttemptId id) {
        RMApp app = ctx.rmContext().getRMApps().get(id.getApplicationId());
        RMAppAttempt attempt = app == null ? null : app.getRMAppAttempt(id);
        return attempt == null ? null : attempt.getAppAttemptState();
    }

    /** As CapacityScheduler: the calculator says which resources the AMs' asks are counted in. */
    java.util.EnumSet<org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes> schedulingResourceTypes() {
        if (ctx.calculator instanceof DefaultResourceCalculator) {
            return java.util.EnumSet.of(org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes.MEMORY);
        }
        return java.util.EnumSet.of(org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes.MEMORY,
                org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes.CPU);
    }
}
