package org.capsched;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.Test;

/** The Java bindings over the C ABI, as an RM host uses them. */
public class EngineTest {
    static final long TS = 1410901177871L;

    static Config twoQueues(String... extra) {
        Map<String, String> p = new LinkedHashMap<String, String>();
        p.put("yarn.scheduler.capacity.root.queues", "a,b");
        p.put("yarn.scheduler.capacity.root.a.capacity", "50");
        p.put("yarn.scheduler.capacity.root.b.capacity", "50");
        p.put("yarn.scheduler.capacity.root.a.maximum-capacity", "100");
        for (int i = 0; i + 1 < extra.length; i += 2) p.put(extra[i], extra[i + 1]);
        return Config.fromPairs(p);
    }

    static Engine manual(Config config) {
        return new Engine(config, new EngineOptions().manual().manualClock(1000).clusterTimestamp(TS).rmEpoch(17));
    }

    static Event find(List<Event> events, int kind) {
        for (Event e : events) if (e.kind == kind) return e;
        return null;
    }

    @Test
    public void theLibraryLoadsWithTheAbiTheseBindingsSpeak() {
        Capsched.load();
        assertEquals(3, Capsched.abiVersion());
        assertTrue(Capsched.version(), Capsched.version().matches("\\d+\\.\\d+\\.\\d+.*"));
    }

    @Test
    public void anInvalidConfigurationThrowsYarnsMessage() {
        Map<String, String> p = new LinkedHashMap<String, String>();
        p.put("yarn.scheduler.capacity.root.queues", "a,b");
        p.put("yarn.scheduler.capacity.root.a.capacity", "60");
        p.put("yarn.scheduler.capacity.root.b.capacity", "60");
        try {
            Config.fromPairs(p);
            fail("accepted");
        } catch (CapschedException e) {
            assertEquals(CapschedException.CONFIG, e.status());
            assertTrue(e.getMessage(), e.getMessage().contains("root"));
        }
        try {
            Config.fromFile("/nonexistent/capacity-scheduler.xml");
            fail("accepted");
        } catch (CapschedException e) {
            assertEquals(CapschedException.IO, e.status());
        }
    }

    @Test
    public void aHeartbeatCanBringTheEventsAndTheFiguresVersionInTheSameCall() {
        try (Config config = twoQueues(); Engine engine = manual(config)) {
            long nm = engine.addNode("nm1.example.com:45454", "/rack1", new Resource(8192, 8));
            long app = engine.submit("a", "alice", Collections.<String>emptyList(), Capsched.DEFAULT_PRIORITY,
                    YarnId.application(TS, 1));
            engine.addAttempt(app, new Resource(1024, 1), false, false);

            NodeResponse plain = engine.nodeUpdate(nm, new long[0], Collections.<CompletedContainer>emptyList());
            assertNull("nothing polled unless asked", plain.events);
            assertEquals(-1, plain.figuresVersion);
            assertEquals(1, plain.allocatedCount);
            engine.pollEvents(100); // the AM's placement and activation

            // A task's placement: its events come with the heartbeat that made them.
            AllocateResponse r = engine.allocate(app, new AllocateRequest().ask(Ask.any(1, new Resource(1024, 1), 1)));
            engine.allocate(app, new AllocateRequest().responseId(r.responseId));
            engine.killContainer(plain.allocated.get(0).id, -106, "Killed by the RM");
            NodeResponse nr = engine.nodeUpdate(nm, new long[0], Collections.<CompletedContainer>emptyList(), 64);
            assertNotNull(nr.events);
            assertEquals(plain.allocated.get(0).id, find(nr.events, Event.CONTAINER_COMPLETED).container);
            assertTrue("the poll took them", engine.pollEvents(100).isEmpty());
            assertEquals(engine.figuresVersion(), nr.figuresVersion);
        }
    }

    @Test
    public void anRmRunsAnApplicationWithItsOwnIds() {
        try (Config config = twoQueues(); Engine engine = manual(config)) {
            long nm = engine.addNode("nm1.example.com:45454", "/rack1", new Resource(8192, 8));
            assertEquals(nm, engine.findNode("nm1.example.com:45454"));
            long app = engine.submit("a", "alice", Collections.<String>emptyList(), Capsched.DEFAULT_PRIORITY,
                    YarnId.application(TS, 1));
            assertEquals(app, engine.findApplication(YarnId.parse("application_1410901177871_0001")));
            engine.addAttempt(app, new Resource(1024, 1), false, false);

            NodeResponse nr = engine.nodeUpdate(nm);
            assertEquals(1, nr.allocatedCount);
            Container am = nr.allocated.get(0);
            assertTrue(am.isAm);
            assertEquals("nm1.example.com:45454", am.host);
            assertEquals("container_e17_1410901177871_0001_01_000001", am.yarnId.toString());
            assertEquals(am.yarnId, YarnId.parse(am.yarnId.toString()));
            assertEquals(17, am.yarnId.epoch());

            List<Event> events = engine.pollEvents(100);
            Event activated = find(events, Event.APP_ACTIVATED);
            assertEquals("appattempt_1410901177871_0001_000001", activated.yarnId.toString());
            Event allocated = find(events, Event.AM_CONTAINER_ALLOCATED);
            assertEquals(am.id, allocated.container);
            ContainerInfo taken = engine.takeAmContainer(app);
            assertEquals(ContainerInfo.ACQUIRED, taken.state);
            assertEquals(1000, taken.acquiredMs);
            assertNull("only once", engine.takeAmContainer(app));
            assertEquals(am.id, engine.findContainer(am.yarnId));

            engine.nodeUpdate(nm, new long[] {am.id}, Collections.<CompletedContainer>emptyList());
            AllocateResponse r = engine.allocate(app, new AllocateRequest().ask(Ask.any(1, new Resource(2048, 1), 2)));
            assertEquals(1, r.responseId);
            assertTrue("the AM container is the RM's", r.allocated.isEmpty());
            AllocateResponse again =
                    engine.allocate(app, new AllocateRequest().ask(Ask.any(1, new Resource(2048, 1), 2)));
            assertEquals("a repeated id replays the last response", 1, again.responseId);
            try {
                engine.allocate(app, new AllocateRequest().responseId(7));
                fail("a wrong response id");
            } catch (CapschedException e) {
                assertEquals(CapschedException.REFUSED, e.status());
                assertEquals("Invalid responseId in AllocateRequest from application attempt: "
                        + "appattempt_1410901177871_0001_000001 expect responseId to be 1 but get 7", e.getMessage());
            }
            List<Container> tasks = new ArrayList<Container>();
            for (int i = 0; i < 2; i++) tasks.addAll(engine.nodeUpdate(nm).allocated);
            assertEquals(2, tasks.size());
            r = engine.allocate(app, new AllocateRequest().responseId(1));
            assertEquals(2, r.allocated.size());
            assertEquals("container_e17_1410901177871_0001_01_000002", r.allocated.get(0).yarnId.toString());

            NodeResponse done = engine.nodeUpdate(nm, new long[] {tasks.get(0).id, tasks.get(1).id},
                    Arrays.asList(new CompletedContainer(tasks.get(0).id, 0, "done ✓")));
            assertEquals(0, done.toKill.length);
            engine.killContainer(tasks.get(1).id, -106, "Killed by the RM");
            r = engine.allocate(app, new AllocateRequest().responseId(2));
            assertEquals(2, r.completed.size());
            for (ContainerStatus s : r.completed) {
                if (s.container == tasks.get(0).id) {
                    assertEquals(0, s.exitStatus);
                    assertEquals("done ✓", s.diagnostics);
                } else {
                    assertEquals(-106, s.exitStatus);
                }
            }
            int completions = 0;
            for (Event e : engine.pollEvents(100)) {
                if (e.kind == Event.CONTAINER_COMPLETED) {
                    completions++;
                    assertEquals(app, e.app);
                }
            }
            assertEquals(2, completions);

            AppReport report = engine.applicationReport(app);
            assertEquals("root.a", report.queue);
            assertEquals("alice", report.user);
            assertEquals(AppReport.RUNNING, report.state);
            assertEquals(new Resource(1024, 1), report.amUsed);
            assertEquals(1, report.liveContainers);
            assertEquals(am.id, report.amContainer);
            assertTrue(engine.schedulerJson().contains("\"queueName\":\"a\"")
                    || engine.schedulerJson().contains("\"queueName\": \"a\""));
            assertEquals(1, engine.clusterInfo().numNodes);
            boolean sawA = false;
            for (QueueInfo q : engine.queues()) {
                if (q.path.equals("root.a")) {
                    sawA = true;
                    assertEquals(1, q.numApplications);
                    assertEquals(0.5f, q.absoluteCapacity, 1e-6);
                }
            }
            assertTrue(sawA);
            QueueStatuses statuses = engine.queueStatuses();
            assertEquals(engine.figuresVersion(), statuses.figuresVersion);
            assertEquals("root", statuses.queues.get(0).path);
            assertEquals(-1, statuses.queues.get(0).parent);
            for (QueueStatus q : statuses.queues) {
                if (!q.path.equals("root.a")) continue;
                assertEquals(0, q.parent);
                assertTrue(q.isLeaf);
                assertEquals(QueueStatus.RUNNING, q.state);
                assertEquals(0.5f, q.capacity, 0f);
                assertEquals(1, q.numActiveApplications);
                assertEquals(new Resource(1024, 1), q.amUsed);
                assertEquals("the AM alone runs", new Resource(1024, 1), q.used);
                assertTrue("the monitor is off", q.preemptionDisabled && q.intraQueuePreemptionDisabled);
            }
            List<UserStatus> users = engine.queueUsers("a");
            assertEquals(1, users.size());
            assertEquals("alice", users.get(0).name);
            assertEquals(new Resource(1024, 1), users.get(0).used);
            UserStatus nobody = engine.queueUser("root.a", "nobody");
            assertEquals(new Resource(0, 0), nobody.used);
            assertTrue("a user with nothing has room", nobody.headroom.memoryMb > 0);
            try {
                engine.queueUsers("root");
                fail("a parent has no users");
            } catch (CapschedException e) {
                assertEquals(CapschedException.INVALID_ARGUMENT, e.status());
            }
            long before = engine.figuresVersion();
            engine.killContainer(am.id, -106, "Killed by the RM");
            assertTrue("a kill moves the figures", engine.figuresVersion() != before);
            engine.checkInvariants();
        }
    }

    @Test
    public void refusalsAreExceptionsWithCapschedsStatusAndMessage() {
        try (Config config = twoQueues("yarn.acl.enable", "true", "yarn.scheduler.capacity.root.acl_submit_applications",
                     " ", "yarn.scheduler.capacity.root.acl_administer_queue", " ",
                     "yarn.scheduler.capacity.root.a.acl_submit_applications", "alice");
                Engine engine = manual(config)) {
            assertTrue(engine.checkAccess("alice", Collections.<String>emptyList(), Capsched.ACL_SUBMIT_APPLICATIONS,
                    "root.a"));
            assertFalse(engine.checkAccess("bob", Arrays.asList("eng"), Capsched.ACL_SUBMIT_APPLICATIONS, "a"));
            try {
                engine.submit("a", "bob", Arrays.asList("eng"), Capsched.DEFAULT_PRIORITY, YarnId.application(TS, 4));
                fail("bob submitted");
            } catch (CapschedException e) {
                assertEquals(CapschedException.REJECTED, e.status());
                assertEquals("User bob does not have permission to submit application_1410901177871_0004 to queue root.a",
                        e.getMessage());
            }
            try {
                engine.removeApplication(12345);
                fail("an id never issued");
            } catch (CapschedException e) {
                assertEquals(CapschedException.UNKNOWN_ID, e.status());
                assertTrue(e.getMessage(), e.getMessage().contains("was not issued by this engine"));
            }
            try {
                YarnId.parse("job_1_0001");
                fail("not a YARN id");
            } catch (CapschedException e) {
                assertEquals(CapschedException.INVALID_ARGUMENT, e.status());
            }
            // A non-ASCII user name crosses as UTF-8 both ways.
            long app = engine.submit("a", "alice", Collections.<String>emptyList(), Capsched.DEFAULT_PRIORITY, null);
            assertEquals("alice", engine.applicationReport(app).user);
            try (Config open = twoQueues()) {
                engine.refreshQueues(open);
            }
            long app2 = engine.submit("a", "Zoë", Collections.<String>emptyList(), Capsched.DEFAULT_PRIORITY, null);
            assertEquals("Zoë", engine.applicationReport(app2).user);
        }
    }

    @Test
    public void aNodeManagerReRegistersWithItsRunningContainers() {
        try (Config config = twoQueues(); Engine engine = manual(config)) {
            long nm1 = engine.addNode("nm1:1", "/r", new Resource(8192, 8));
            long app = engine.submit("a", "alice");
            engine.addAttempt(app, new Resource(1024, 1), false, false);
            engine.nodeUpdate(nm1);
            // A second NM comes back running container 7 of this epoch (17).
            long id = (17L << 40) | 7;
            long nm2 = engine.addRecoveredNode("nm2:1", "/r", new Resource(8192, 8),
                    Arrays.asList(new RecoveredContainer(app, new Resource(2048, 1), 1, 0, id, false)));
            long c = engine.findContainer(new YarnId(TS, 1, 1, id));
            ContainerInfo info = engine.container(c);
            assertEquals(nm2, info.node);
            assertEquals(ContainerInfo.RUNNING, info.state);
            assertEquals(new Resource(1024 + 2048, 2), engine.applicationReport(app).used);
            engine.checkInvariants();
        }
    }

    @Test
    public void anRmRestartReAddsApplicationsThenTheirNodesContainers() {
        try (Config config = twoQueues("yarn.scheduler.capacity.root.b.state", "STOPPED");
                Engine engine = manual(config)) {
            long nm1 = engine.addNode("nm1:1", "/r", new Resource(8192, 8));
            // Running in b before the restart: re-added although b is STOPPED now.
            long app = engine.recover("b", "alice", Collections.<String>emptyList(), Capsched.DEFAULT_PRIORITY,
                    YarnId.application(TS, 4));
            engine.recoverAttempt(app, new Resource(1024, 1), false);
            assertEquals(0, engine.nodeUpdate(nm1).allocated.size()); // no second AM container
            try {
                engine.recover("gone", "alice", Collections.<String>emptyList(), Capsched.DEFAULT_PRIORITY,
                        YarnId.application(TS, 5));
                fail("recovered into a queue that is gone");
            } catch (CapschedException e) {
                assertEquals(CapschedException.REJECTED, e.status());
                assertTrue(e.getMessage(), e.getMessage().startsWith("Application killed on recovery"));
            }
            long am = (16L << 40) | 1; // the AM container the RM of epoch 16 allocated
            long nm2 = engine.addRecoveredNode("nm2:1", "/r", new Resource(8192, 8),
                    Arrays.asList(new RecoveredContainer(app, new Resource(1024, 1), 0, 0, am, true)));
            AppReport report = engine.applicationReport(app);
            assertEquals(new Resource(1024, 1), report.used);
            ContainerInfo info = engine.container(engine.findContainer(new YarnId(TS, 4, 1, am)));
            assertEquals(nm2, info.node);
            assertTrue(info.isAm);
            engine.checkInvariants();
        }
    }

    @Test
    public void thePlacementRulesPlaceASubmissionAsTheRmAsksAndAsItSubmits() {
        try (Config config = twoQueues("yarn.scheduler.capacity.queue-mappings", "u:alice:b,g:eng:a",
                "yarn.scheduler.queue-placement-rules", "app-name,user-group",
                "yarn.scheduler.queue-placement-rules.app-name", "etl:a");
                Engine engine = manual(config)) {
            java.util.List<String> none = Collections.<String>emptyList();
            assertArrayEquals(new String[] {"b", "root"}, engine.place("default", "alice", none, null, null));
            assertArrayEquals(new String[] {"a", ""}, engine.place("default", "bob", none, "etl", null));
            assertNull(engine.place("b", "bob", Arrays.asList("staff"), null, null));
            try {
                engine.place("default", "bob", none, null, YarnId.application(TS, 9));
                fail("a group mapping with no groups");
            } catch (CapschedException e) {
                assertEquals(CapschedException.REJECTED, e.status());
                assertEquals("Failed to submit application application_1410901177871_0009 submitted by user bob "
                        + "reason: No groups found for user bob", e.getMessage());
            }
            long app = engine.submit("default", "carol", Arrays.asList("eng"), "report", Capsched.DEFAULT_PRIORITY,
                    null);
            assertEquals("root.a", engine.applicationReport(app).queue);
        }
    }

    @Test
    public void aQueuesLifetimesAnswerTheRmsQuestions() {
        try (Config config = twoQueues("yarn.scheduler.capacity.root.b.maximum-application-lifetime", "60");
                Engine engine = manual(config)) {
            assertArrayEquals(new long[] {60, 60}, engine.applicationLifetime("b", 600));
            assertArrayEquals(new long[] {5, 60}, engine.applicationLifetime("b", 5));
            assertArrayEquals(new long[] {-1, -1}, engine.applicationLifetime("a", -1));
            assertArrayEquals(new long[] {30, -1}, engine.applicationLifetime("nope", 30));
        }
    }

    @Test
    public void aClosedHandleThrowsInsteadOfTouchingFreedMemory() {
        Config config = twoQueues();
        Engine engine = manual(config);
        config.close();
        config.close();
        assertTrue(config.isClosed());
        try {
            new Engine(config);
            fail("an engine over a closed configuration");
        } catch (IllegalStateException e) {
            assertEquals("configuration is closed", e.getMessage());
        }
        engine.addNode("h1", "/r", new Resource(4096, 4));
        engine.close();
        try {
            engine.addNode("h2", "/r", new Resource(4096, 4));
            fail("a closed engine");
        } catch (IllegalStateException e) {
            assertEquals("engine is closed", e.getMessage());
        }
    }

    @Test
    public void manyThreadsCallWhileAnotherClosesAndNothingCrashes() throws Exception {
        for (int round = 0; round < 20; round++) {
            final Config config = twoQueues();
            final Engine engine = new Engine(config, new EngineOptions().seed(round));
            config.close();
            final long node = engine.addNode("h1", "/r", new Resource(64 * 1024, 64));
            final CountDownLatch start = new CountDownLatch(1);
            final AtomicInteger ok = new AtomicInteger();
            final AtomicInteger closed = new AtomicInteger();
            final AtomicReference<Throwable> other = new AtomicReference<Throwable>();
            List<Thread> threads = new ArrayList<Thread>();
            for (int t = 0; t < 4; t++) {
                Thread th = new Thread(new Runnable() {
                    @Override
                    public void run() {
                        try {
                            start.await();
                            for (int i = 0; i < 50; i++) {
                                long app = engine.submit("a", "u");
                                engine.addAttempt(app, new Resource(1024, 1), false, false);
                                engine.nodeUpdate(node);
                                engine.pollEvents(16);
                                ok.incrementAndGet();
                            }
                        } catch (IllegalStateException e) {
                            closed.incrementAndGet();
                        } catch (CapschedException e) {
                            // The engine stopping under a call: STOPPED is the documented answer.
                            if (e.status() != CapschedException.STOPPED) other.set(e);
                        } catch (Throwable e) {
                            other.set(e);
                        }
                    }
                });
                threads.add(th);
                th.start();
            }
            start.countDown();
            engine.close();
            for (Thread th : threads) th.join();
            assertNull(String.valueOf(other.get()), other.get());
            assertTrue(engine.isClosed());
        }
    }

    @Test
    public void aJavaThreadPollsEventsFromAThreadedEngine() throws Exception {
        try (Config config = twoQueues(); Engine engine = new Engine(config, new EngineOptions().clusterTimestamp(TS))) {
            long node = engine.addNode("h1:8041", "/r", new Resource(8192, 8));
            long app = engine.submit("b", "carol");
            engine.addAttempt(app, new Resource(1024, 1), false, false);
            engine.nodeUpdate(node);
            Event amAllocated = null;
            for (Event e : engine.pollEvents(64)) {
                if (e.kind == Event.AM_CONTAINER_ALLOCATED) amAllocated = e;
            }
            assertNotNull("events are delivered before the call returns", amAllocated);
            assertEquals(app, amAllocated.app);
            assertEquals(node, amAllocated.node);
            ContainerInfo c = engine.container(amAllocated.container);
            assertEquals(ContainerInfo.ALLOCATED, c.state);
            assertTrue(c.isAm);
            engine.stop();
            try {
                engine.submit("b", "carol");
                fail("a stopped engine");
            } catch (CapschedException e) {
                assertEquals(CapschedException.STOPPED, e.status());
            }
        }
    }

    /**
     * With asynchronous scheduling the engine's passes place containers between the RM's calls:
     * each is told by CONTAINER_PLACED, with its report read in the same native call, before the
     * AM's allocate hands it over and before its completion.
     */
    @Test
    public void asynchronouslyPlacedContainersAreToldAtPlacementWithTheirReports() {
        try (Config config = twoQueues("yarn.scheduler.capacity.root.a.user-limit-factor", "2");
                Engine engine = new Engine(config, new EngineOptions().manual().manualClock(1000)
                        .asyncScheduling(true).clusterTimestamp(TS))) {
            long node = engine.addNode("h1:8041", "/r", new Resource(8192, 8));
            long app = engine.submit("a", "alice");
            engine.addAttempt(app, new Resource(1024, 1), false, false);
            assertEquals("heartbeats place nothing", 0, engine.nodeUpdate(node).allocatedCount);
            assertEquals(1, engine.step(1));
            List<Event> events = engine.pollEvents(64);
            Event placed = find(events, Event.CONTAINER_PLACED);
            assertNotNull(placed);
            assertTrue("placed before the AM container event",
                    events.indexOf(placed) < events.indexOf(find(events, Event.AM_CONTAINER_ALLOCATED)));
            assertEquals(app, placed.app);
            assertEquals(node, placed.node);
            assertEquals("container_1410901177871_0001_01_000001", placed.yarnId.toString());
            assertTrue(placed.placed.isAm);
            assertEquals(new Resource(1024, 1), placed.placed.resource);
            assertEquals(ContainerInfo.ALLOCATED, placed.placed.state);
            assertNull("other kinds carry no report", find(events, Event.AM_CONTAINER_ALLOCATED).placed);
            engine.takeAmContainer(app);

            engine.allocate(app, new AllocateRequest().ask(new Ask(3, 7L, "*", new Resource(2048, 1), 2, true, 0, null)));
            assertEquals(2, engine.step(1) + engine.step(1));
            java.util.Set<Long> told = new java.util.HashSet<Long>();
            for (Event e : engine.pollEvents(64)) {
                if (e.kind != Event.CONTAINER_PLACED) continue;
                told.add(e.container);
                assertEquals(e.container, e.placed.id);
                assertEquals(new Resource(2048, 1), e.placed.resource);
                assertEquals(3, e.placed.priority);
                assertEquals(7L, e.placed.allocationRequestId);
                assertEquals(Container.OFF_SWITCH, e.placed.locality);
                assertEquals(Container.GUARANTEED, e.placed.executionType);
                assertFalse(e.placed.isAm);
            }
            AllocateResponse r = engine.allocate(app, new AllocateRequest().responseId(1));
            assertEquals(2, r.allocated.size());
            for (Container c : r.allocated) assertTrue("told before the pull", told.contains(c.id));

            // A container placed and ended before the RM polled: told placed without a report,
            // then completed.
            engine.allocate(app, new AllocateRequest().responseId(2).ask(Ask.any(4, new Resource(1024, 1), 1)));
            assertEquals(1, engine.step(1));
            engine.removeAttempt(app, false);
            List<Event> late = engine.pollEvents(64);
            Event gone = find(late, Event.CONTAINER_PLACED);
            assertNotNull(gone);
            assertNull("it had ended by the poll", gone.placed);
            int completed = 0;
            for (Event e : late) {
                if (e.kind == Event.CONTAINER_COMPLETED) {
                    completed++;
                    assertTrue("completions follow placements", late.indexOf(e) > late.indexOf(gone));
                }
            }
            assertEquals("the AM's, the two tasks and the last", 4, completed);
        }
    }

    static Config labelled(boolean enabled) {
        return twoQueues("yarn.node-labels.enabled", String.valueOf(enabled),
                "yarn.scheduler.capacity.root.accessible-node-labels.x.capacity", "100",
                "yarn.scheduler.capacity.root.a.accessible-node-labels", "x",
                "yarn.scheduler.capacity.root.a.accessible-node-labels.x.capacity", "100",
                "yarn.scheduler.capacity.root.a.user-limit-factor", "2",
                "yarn.scheduler.capacity.root.b.accessible-node-labels", " ",
                "yarn.scheduler.capacity.maximum-am-resource-percent", "1");
    }

    static void assertRefused(Runnable call, int status, String message) {
        try {
            call.run();
            fail("accepted: " + message);
        } catch (CapschedException e) {
            assertEquals(status, e.status());
            assertEquals(message, e.getMessage());
        }
    }

    @Test
    public void nodeLabelsSendAnApplicationsContainersToItsPartition() {
        try (Config config = labelled(true); Engine engine = manual(config)) {
            engine.addNodeLabels(Arrays.asList(new NodeLabel(" x ", true), new NodeLabel("y", false)));
            assertEquals(Arrays.asList(new NodeLabel("x", true), new NodeLabel("y", false)), engine.nodeLabels());
            assertRefused(() -> engine.addNodeLabels(Arrays.asList(new NodeLabel("x", false))),
                    CapschedException.REFUSED,
                    "Exclusivity cannot be modified for an existing label with : <x:exclusivity=false>");
            long h1 = engine.addNode("h1:8041", "/r", new Resource(8192, 8));
            long h2 = engine.addNode("h2:8041", "/r", new Resource(8192, 8));
            Map<String, String> mapping = new LinkedHashMap<String, String>();
            mapping.put("h1", "x");
            engine.replaceLabelsOnNodes(mapping);
            assertEquals("x", engine.nodePartition(h1));
            assertEquals("", engine.nodePartition(h2));

            // The application's label sends its AM to x, and its unlabelled asks after it.
            long app = engine.submit(new Submission("a", "alice").nodeLabelExpression("x"));
            engine.addAttempt(app, new Resource(1024, 1), false, false);
            assertEquals(0, engine.nodeUpdate(h2).allocatedCount);
            NodeResponse nr = engine.nodeUpdate(h1);
            assertEquals(1, nr.allocatedCount);
            assertTrue(nr.allocated.get(0).isAm);
            AllocateRequest ask = new AllocateRequest()
                    .ask(Ask.any(1, new Resource(2048, 1), 1))
                    .ask(Ask.any(2, new Resource(1024, 1), 1).withNodeLabelExpression(""));
            engine.allocate(app, ask);
            assertEquals(2048, engine.queuePartitionUsage("a", "x").pending.memoryMb);
            assertEquals("an empty expression is the default partition", 1024,
                    engine.queuePartitionUsage("a", "").pending.memoryMb);
            assertEquals("h1:8041", engine.nodeUpdate(h1).allocated.get(0).host);
            assertEquals("h2:8041", engine.nodeUpdate(h2).allocated.get(0).host);
            PartitionUsage x = engine.queuePartitionUsage("root.a", "x");
            assertEquals(new Resource(3072, 2), x.used);
            assertEquals(new Resource(1024, 1), x.amUsed);

            // YARN's checks of expressions, with its words.
            assertRefused(() -> engine.allocate(app, new AllocateRequest().responseId(1)
                    .ask(Ask.any(3, new Resource(1024, 1), 1).withNodeLabelExpression("nope"))),
                    CapschedException.REFUSED,
                    "Invalid resource request, queue=a doesn't have permission to access all labels in resource "
                            + "request. labelExpression of resource request=nope. Queue labels=x");
            assertRefused(() -> engine.submit(new Submission("b", "bob").amNodeLabelExpression("x")),
                    CapschedException.REJECTED,
                    "Invalid resource request, queue=b doesn't have permission to access all labels in resource "
                            + "request. labelExpression of resource request=x. Queue labels=");

            // A label a queue lists stays; h1 unlabelled keeps its containers, their usage moves.
            assertRefused(() -> engine.removeNodeLabels(Arrays.asList("x")), CapschedException.REFUSED,
                    "Cannot remove label=x, because queue=root.a is using this label. Please remove label on queue "
                            + "before remove the label");
            mapping.put("h1", null);
            engine.replaceLabelsOnNodes(mapping);
            assertEquals("", engine.nodePartition(h1));
            assertEquals(new Resource(0, 0), engine.queuePartitionUsage("a", "x").used);
            assertEquals(4096, engine.queuePartitionUsage("a", "").used.memoryMb);
            engine.removeNodeLabels(Arrays.asList("y"));
            assertEquals(Arrays.asList(new NodeLabel("x", true)), engine.nodeLabels());
            engine.checkInvariants();
        }
    }

    @Test
    public void queuesStateTheirAccessibleLabelsAndDefaultExpressionAsYarnsQueueInfo() {
        try (Config config = twoQueues("yarn.node-labels.enabled", "true",
                "yarn.scheduler.capacity.root.a.accessible-node-labels", "y,x",
                "yarn.scheduler.capacity.root.a.default-node-label-expression", " x ",
                "yarn.scheduler.capacity.root.b.accessible-node-labels", " ",
                "yarn.scheduler.capacity.root.b.default-node-label-expression", "");
                Engine engine = manual(config)) {
            QueueNodeLabels root = engine.queueNodeLabels("root");
            assertEquals(Collections.singleton("*"), root.accessible);
            assertNull("unset", root.defaultNodeLabelExpression);
            QueueNodeLabels a = engine.queueNodeLabels("a");
            assertEquals(Arrays.asList("x", "y"), new ArrayList<String>(a.accessible));
            assertEquals("x", a.defaultNodeLabelExpression);
            QueueNodeLabels b = engine.queueNodeLabels("root.b");
            assertTrue(b.accessible.isEmpty());
            assertEquals("set, naming the default partition", "", b.defaultNodeLabelExpression);
            // A recovered application was checked before the restart: not again.
            assertRefused(() -> engine.submit(new Submission("b", "bob").amNodeLabelExpression("x")),
                    CapschedException.REJECTED,
                    "Invalid resource request, queue=b doesn't have permission to access all labels in resource "
                            + "request. labelExpression of resource request=x. Queue labels=");
            engine.submit(new Submission("b", "bob").amNodeLabelExpression("x").recovering(true));
            try {
                engine.queueNodeLabels("nope");
                fail("an unknown queue");
            } catch (CapschedException e) {
                assertEquals(CapschedException.INVALID_ARGUMENT, e.status());
                assertEquals("unknown queue: nope", e.getMessage());
            }
        }
    }

    @Test
    public void withLabelsDisabledTheLabelManagerRefuses() {
        try (Config config = labelled(false); Engine engine = manual(config)) {
            String disabled = "Node-label-based scheduling is disabled. Please check yarn.node-labels.enabled";
            assertRefused(() -> engine.addNodeLabels(Arrays.asList(new NodeLabel("x", true))),
                    CapschedException.REFUSED, disabled);
            assertRefused(() -> engine.replaceLabelsOnNodes(Collections.singletonMap("h1", "x")),
                    CapschedException.REFUSED, disabled);
            assertTrue(engine.nodeLabels().isEmpty());
            long h1 = engine.addNode("h1", "/r", new Resource(8192, 8));
            try {
                engine.nodePartition(h1 + 1);
                fail("an id never issued");
            } catch (CapschedException e) {
                assertEquals(CapschedException.UNKNOWN_ID, e.status());
            }
            try {
                engine.queuePartitionUsage("nope", "");
                fail("an unknown queue");
            } catch (CapschedException e) {
                assertEquals(CapschedException.INVALID_ARGUMENT, e.status());
                assertEquals("unknown queue: nope", e.getMessage());
            }
        }
    }
}
