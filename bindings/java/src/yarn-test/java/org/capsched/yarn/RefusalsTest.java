package org.capsched.yarn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNodes;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerExpiredSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerPreemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAttributesUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeLabelsUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeResourceUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ReleaseContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppImpl;
import org.junit.Test;

/**
 * No event, request or refresh stops the RM under capsched: every SchedulerEvent type is handed
 * to the scheduler with what capsched refuses or does not know (a node it will not take, one it
 * does not have, an unknown queue, a second live attempt, unknown containers, the policy events
 * it does not act on), and each comes back without an exception into the dispatcher, with the
 * stock scheduler's outcome where it has one (a rejected application with YARN's words); a
 * refused ask reaches the caller of allocate as YARN's exception type; a broken refresh is
 * refused with the stock scheduler's sentence first and the running queues kept. After all of
 * it the RM schedules an application to its end and capsched's own audit finds nothing wrong.
 */
public class RefusalsTest {
    /** Hands `e` to the scheduler as the dispatcher would, and says what came of it. */
    static String deliver(ResourceScheduler s, SchedulerEvent e) {
        try {
            s.handle(e);
            return e.getType() + ": handled";
        } catch (RuntimeException x) {
            return e.getType() + ": threw " + x;
        }
    }

    @Test
    public void everyEventTypeCapschedRefusesComesBackWithoutAnExceptionAndTheRmSchedulesOn() throws Exception {
        CapacitySchedulerConfiguration q = SameOutcomesTest.queues("yarn.scheduler.capacity.root.a.maximum-allocation-mb",
                "2048");
        MockRM rm = SameOutcomesTest.start(SameOutcomesTest.CAPSCHED, q);
        try {
            ResourceScheduler s = rm.getResourceScheduler();
            MockNM nm = rm.registerNode("127.0.0.1:1234", 8 * 1024, 8);
            RMApp app = SameOutcomesTest.submit(rm, "b", "alice", 1024);
            MockAM am = MockRM.launchAndRegisterAM(app, rm, nm);
            ApplicationAttemptId live = app.getCurrentAppAttempt().getAppAttemptId();
            ApplicationId unknownApp = ApplicationId.newInstance(app.getApplicationId().getClusterTimestamp(), 999);
            ApplicationAttemptId unknownAttempt = ApplicationAttemptId.newInstance(unknownApp, 1);
            ContainerId unknownContainer = ContainerId.newContainerId(live, 999);
            RMContainer amContainer = s.getRMContainer(ContainerId.newContainerId(live, 1));
            RMNode negative = MockNodes.newNodeInfo(0, Resource.newInstance(-1024, 4), 7, "127.0.0.7");
            RMNode stranger = MockNodes.newNodeInfo(0, Resource.newInstance(1024, 1), 8, "127.0.0.8");
            NodeId registered = nm.getNodeId();
            RMNode registeredNode = rm.getRMContext().getRMNodes().get(registered);

            List<SchedulerEvent> events = new ArrayList<SchedulerEvent>();
            events.add(new NodeAddedSchedulerEvent(negative)); // a resource capsched refuses
            events.add(new NodeRemovedSchedulerEvent(stranger)); // a node it never had
            events.add(new NodeUpdateSchedulerEvent(stranger));
            events.add(new NodeResourceUpdateSchedulerEvent(registeredNode,
                    ResourceOption.newInstance(Resource.newInstance(-1, -1), -1)));
            events.add(new NodeLabelsUpdateSchedulerEvent(
                    Collections.singletonMap(registered, Collections.singleton("nolabel"))));
            events.add(new NodeAttributesUpdateSchedulerEvent(
                    Collections.<String, java.util.Set<org.apache.hadoop.yarn.api.records.NodeAttribute>>emptyMap()));
            events.add(new AppAddedSchedulerEvent(unknownApp, "nope", "bob")); // an unknown queue
            events.add(new AppAddedSchedulerEvent(app.getApplicationId(), "b", "alice")); // added already
            events.add(new AppAttemptAddedSchedulerEvent(ApplicationAttemptId.newInstance(app.getApplicationId(), 2),
                    false)); // a second attempt while the first lives
            events.add(new AppAttemptAddedSchedulerEvent(unknownAttempt, false));
            events.add(new AppAttemptRemovedSchedulerEvent(unknownAttempt, RMAppAttemptState.FINISHED, false));
            events.add(new AppRemovedSchedulerEvent(unknownApp, RMAppState.FINISHED));
            events.add(new ContainerExpiredSchedulerEvent(unknownContainer));
            events.add(new ReleaseContainerEvent(amContainer)); // the AM's, released by the RM
            events.add(new ContainerPreemptEvent(unknownAttempt, null, SchedulerEventType.KILL_RESERVED_CONTAINER));
            for (SchedulerEventType t : new SchedulerEventType[] {SchedulerEventType.MARK_CONTAINER_FOR_PREEMPTION,
                SchedulerEventType.MARK_CONTAINER_FOR_KILLABLE, SchedulerEventType.MARK_CONTAINER_FOR_NONKILLABLE}) {
                events.add(new ContainerPreemptEvent(live, amContainer, t));
            }
            events.add(new SchedulerEvent(SchedulerEventType.MANAGE_QUEUE) {});

            java.util.EnumSet<SchedulerEventType> covered = java.util.EnumSet.noneOf(SchedulerEventType.class);
            List<String> outcomes = new ArrayList<String>();
            for (SchedulerEvent e : events) {
                covered.add(e.getType());
                outcomes.add(deliver(s, e));
            }
            rm.drainEvents();
            assertEquals("every event type", java.util.EnumSet.allOf(SchedulerEventType.class), covered);
            for (String o : outcomes) assertTrue(outcomes.toString(), o.endsWith(": handled"));
            assertEquals(Service.STATE.STARTED, rm.getServiceState());

            // The refused node has no part in the cluster; the resized node keeps its size.
            assertEquals(8 * 1024, s.getClusterResource().getMemorySize());
            assertEquals(1, s.getNumClusterNodes());
            // The unknown queue's application is rejected with YARN's words.
            RMApp rejected = rm.getRMContext().getRMApps().get(unknownApp);
            assertTrue(rejected == null || rejected.getState() != RMAppState.RUNNING);

            // A refused ask reaches allocate's caller as YARN's own exception, words included.
            RMApp inA = SameOutcomesTest.submit(rm, "a", "bob", 1024);
            MockAM amA = MockRM.launchAndRegisterAM(inA, rm, nm);
            ResourceRequest big = ResourceRequest.newInstance(Priority.newInstance(1), ResourceRequest.ANY,
                    Resource.newInstance(3072, 1), 1);
            try {
                s.allocate(inA.getCurrentAppAttempt().getAppAttemptId(), new ArrayList<ResourceRequest>(
                        Collections.singletonList(big)), null, new ArrayList<ContainerId>(), null, null,
                        new org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates());
                fail("an ask above a's maximum allocation accepted");
            } catch (Exception e) {
                assertTrue(e.toString(), e instanceof InvalidResourceRequestException);
                assertTrue(e.getMessage(), e.getMessage().startsWith("Invalid resource request!"));
            }

            // The RM schedules on: a task beside the AM, as much as a's 30 % holds.
            List<org.apache.hadoop.yarn.api.records.Container> got = SameOutcomesTest.askAndRun(rm, amA, nm, 1024, 1, 4);
            assertEquals(1, got.size());
            ((CapschedResourceScheduler) s).checkInvariants();
        } finally {
            rm.stop();
        }
    }

    /** An RM started on capacities summing to 120: why it does not start, cause by cause. */
    static List<String> brokenStart(String scheduler) {
        List<String> why = new ArrayList<String>();
        try {
            MockRM rm = SameOutcomesTest.start(scheduler, SameOutcomesTest.queues("yarn.scheduler.capacity.root.b.capacity",
                    "90"));
            rm.stop();
            why.add("started");
        } catch (Exception e) {
            for (Throwable t = e; t != null; t = t.getCause()) why.add(String.valueOf(t.getMessage()));
        }
        return why;
    }

    @Test
    public void aBrokenConfigurationStopsTheStartAsTheStockSchedulerDoes() {
        List<String> stock = brokenStart(SameOutcomesTest.STOCK);
        List<String> ours = brokenStart(SameOutcomesTest.CAPSCHED);
        assertTrue(stock.toString(), stock.toString().contains("Failed to initialize queues"));
        assertTrue(ours.toString(), ours.toString().contains("Failed to initialize queues"));
        // The stock scheduler's sentence is the root cause's first words under capsched too.
        String stockRoot = stock.get(stock.size() - 1);
        assertTrue("stock: " + stock + "\ncapsched: " + ours, ours.get(ours.size() - 1).startsWith(stockRoot));
    }

    /** With ACLs on, a submission a's ACLs deny: what the submitting client hears. */
    static String deniedSubmission(String scheduler) throws Exception {
        CapacitySchedulerConfiguration q = SameOutcomesTest.queues(
                "yarn.scheduler.capacity.root.acl_submit_applications", " ",
                "yarn.scheduler.capacity.root.acl_administer_queue", " ",
                "yarn.scheduler.capacity.root.a.acl_submit_applications", "alice",
                "yarn.scheduler.capacity.root.a.acl_administer_queue", " ");
        q.setBoolean(YarnConfiguration.YARN_ACL_ENABLE, true);
        MockRM rm = SameOutcomesTest.start(scheduler, q);
        try {
            rm.registerNode("127.0.0.1:1234", 8 * 1024, 8);
            try {
                org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter.submit(rm,
                        org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData.Builder
                                .createWithMemory(1024, rm).withQueue("a").withUser("bob")
                                .withWaitForAppAcceptedState(false).build());
                return "accepted";
            } catch (Exception e) {
                return QueueMaximumAllocationTest.refusal(e);
            } finally {
                assertEquals(Service.STATE.STARTED, rm.getServiceState());
            }
        } finally {
            rm.stop();
        }
    }

    @Test
    public void aSubmissionTheAclsDenyIsRefusedAtTheCallAsTheStockSchedulerRefusesIt() throws Exception {
        String stock = deniedSubmission(SameOutcomesTest.STOCK);
        assertTrue(stock, stock.contains("does not have permission to submit"));
        assertEquals(stock, deniedSubmission(SameOutcomesTest.CAPSCHED));
    }

    /** A refresh of capacities summing to 120: refused, the stock scheduler's words first. */
    static String refusedRefresh(String scheduler) throws Exception {
        MockRM rm = SameOutcomesTest.start(scheduler, SameOutcomesTest.queues());
        try {
            ResourceScheduler s = rm.getResourceScheduler();
            try {
                s.reinitialize(new YarnConfiguration(SameOutcomesTest.queues("yarn.scheduler.capacity.root.b.capacity",
                        "90")), rm.getRMContext());
                return "accepted";
            } catch (java.io.IOException e) {
                assertEquals(0.3f, s.getQueueInfo("a", false, false).getCapacity(), 1e-6);
                assertEquals(Service.STATE.STARTED, rm.getServiceState());
                return e.getMessage();
            }
        } finally {
            rm.stop();
        }
    }

    @Test
    public void aBrokenRefreshIsRefusedWithTheStockSchedulersSentenceFirstAndTheQueuesKept() throws Exception {
        String stock = refusedRefresh(SameOutcomesTest.STOCK);
        String ours = refusedRefresh(SameOutcomesTest.CAPSCHED);
        assertTrue(stock, stock.startsWith("Failed to re-init queues : Illegal capacity of 1.2 for children of queue root"));
        assertTrue("capsched: " + ours + "\nstock: " + stock, ours.startsWith(stock));
    }
}
