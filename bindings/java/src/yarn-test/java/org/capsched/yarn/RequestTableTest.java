package org.capsched.yarn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

import java.util.ArrayList;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.junit.Test;

/**
 * YARN's request table beside capsched's. capsched decides from its own table, and YARN's can
 * differ from it for a moment: a container placed by capsched's asynchronous pass is recorded
 * at the next drain, after an allocate that changed the asks may have reached YARN's table (a
 * host's count lowered to nothing). The RM's LocalityAppPlacementAllocator fails on a
 * node-local container without the node's ask (a NullPointerException on the scheduler's event
 * thread, which stops the RM), so the record takes it where YARN's table still has an ask, as
 * the stock scheduler's own decision from that table would have been.
 */
public class RequestTableTest {
    @Test
    public void aNodeLocalPlacementTheRmsTableHasNoHostAskForIsTakenFromAny() throws Exception {
        MockRM rm = SameOutcomesTest.start(SameOutcomesTest.CAPSCHED, SameOutcomesTest.queues());
        try {
            MockNM nm1 = rm.registerNode("127.0.0.1:1234", 8 * 1024, 8);
            MockNM nm2 = rm.registerNode("127.0.0.2:1234", 8 * 1024, 8);
            RMApp app = SameOutcomesTest.submit(rm, "a", "alice", 1024);
            MockAM am = MockRM.launchAM(app, rm, nm1);
            am.registerAppAttempt();
            // Two containers anywhere: YARN's table has the ANY ask only, no host or rack.
            am.allocate("*", 1024, 2, new ArrayList<ContainerId>());
            CapschedResourceScheduler scheduler = (CapschedResourceScheduler) rm.getResourceScheduler();
            CapschedAppAttempt attempt = scheduler.getApplicationAttempt(am.getApplicationAttemptId());
            FiCaSchedulerNode node = scheduler.getSchedulerNode(nm2.getNodeId());
            SchedulerRequestKey key = null;
            for (SchedulerRequestKey k : attempt.getSchedulerKeys()) {
                if (attempt.getOutstandingAsksCount(k) > 0) key = k;
            }
            assertNotNull("the AM's ask is in YARN's table", key);

            // capsched placed one node-local on h2 from a table that asked for h2.
            Container c = Container.newInstance(ContainerId.newContainerId(am.getApplicationAttemptId(), 100),
                    node.getNodeID(), node.getRMNode().getHttpAddress(), Resource.newInstance(1024, 1),
                    Priority.newInstance(key.getPriority().getPriority()), null, ExecutionType.GUARANTEED);
            RMContainer recorded = attempt.allocated(NodeType.NODE_LOCAL, node, key, c);

            assertNotNull("the RM records the container", recorded);
            assertEquals("YARN's table takes it from the ANY ask", 1,
                    attempt.getOutstandingAsksCount(key, ResourceRequest.ANY));
            assertEquals("the attempt runs it", 2, attempt.getLiveContainers().size());
        } finally {
            rm.stop();
        }
    }
}
