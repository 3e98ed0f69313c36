/*
 * Copyright the capsched authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file
 * except in compliance with the License. You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software distributed under the
 * License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND,
 * either express or implied. See the License for the specific language governing permissions
 * and limitations under the License.
 */
package org.capsched.rmbench;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.event.Dispatcher;
import org.apache.hadoop.yarn.event.EventDispatcher;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.amlauncher.AMLauncherEvent;
import org.apache.hadoop.yarn.server.resourcemanager.amlauncher.ApplicationMasterLauncher;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptImpl;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;

/**
 * A real ResourceManager with two of its parts replaced, as SLS replaces them: the AMLauncher
 * (there are no NodeManager processes to start an AM's JVM; it gives the attempt its AMRM token,
 * tells it LAUNCHED and hands the AM to the harness, as SLS's MockAMLauncher does), and the
 * scheduler's event dispatcher, which is the RM's own EventDispatcher with a count of what
 * enters and leaves its queue (the queue length the RM logs as "Size of SchedulerEventDispatcher
 * event-queue"). Everything else (ResourceTrackerService, RMNodeImpl, ApplicationMasterService,
 * RMAppImpl, RMAppAttemptImpl, RMContainerImpl, the AsyncDispatcher, QueueMetrics) is the RM's;
 * a {@code --check} run's AsyncDispatcher counts its events too ({@link CountingDispatcher}).
 */
final class BenchResourceManager extends ResourceManager {
    private final RmBench bench;

    BenchResourceManager(RmBench bench) {
        this.bench = bench;
    }

    @Override
    protected ApplicationMasterLauncher createAMLauncher() {
        return new Launcher();
    }

    /** A --check run counts the RM dispatcher's events, to know when it is drained. */
    @Override
    protected Dispatcher createDispatcher() {
        if (!bench.check) return super.createDispatcher();
        bench.rmDispatcher = new CountingDispatcher();
        return bench.rmDispatcher;
    }

    @Override
    protected EventHandler<SchedulerEvent> createSchedulerEventDispatcher() {
        final Stats stats = Stats.INSTANCE;
        EventHandler<SchedulerEvent> counted = new EventHandler<SchedulerEvent>() {
            @Override
            public void handle(SchedulerEvent event) {
                try {
                    scheduler.handle(event);
                } finally {
                    stats.schedulerHandled.incrementAndGet();
                }
            }
        };
        return new EventDispatcher<SchedulerEvent>(counted, "SchedulerEventDispatcher") {
            @Override
            public void handle(SchedulerEvent event) {
                stats.schedulerEnqueued.incrementAndGet();
                super.handle(event);
            }
        };
    }

    private final class Launcher extends ApplicationMasterLauncher {
        Launcher() {
            super(BenchResourceManager.this.getRMContext());
        }

        @Override
        protected void serviceInit(Configuration conf) {}

        @Override
        protected void serviceStart() {}

        @Override
        protected void serviceStop() {}

        @Override
        public void handle(AMLauncherEvent event) {
            RMAppAttempt attempt = event.getAppAttempt();
            Container am = attempt.getMasterContainer();
            switch (event.getType()) {
            case LAUNCH: {
                Token<AMRMTokenIdentifier> token =
                        context.getAMRMTokenSecretManager().createAndGetAMRMToken(attempt.getAppAttemptId());
                ((RMAppAttemptImpl) attempt).setAMRMToken(token);
                context.getDispatcher().getEventHandler().handle(
                        new RMAppAttemptEvent(attempt.getAppAttemptId(), RMAppAttemptEventType.LAUNCHED));
                bench.amLaunched(attempt.getAppAttemptId(), am, token);
                break;
            }
            case CLEANUP:
                bench.amCleanup(am);
                break;
            default:
                break;
            }
        }
    }
}
