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

import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.capsched.yarn.CapschedResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;

/** capsched's plug-in, its allocate and event handling timed ({@link TimedScheduling}). */
public class TimedCapsched extends CapschedResourceScheduler {
    @Override
    public Allocation allocate(final ApplicationAttemptId id, final List<ResourceRequest> ask,
            final List<SchedulingRequest> schedulingRequests, final List<ContainerId> release,
            final List<String> blacklistAdditions, final List<String> blacklistRemovals,
            final ContainerUpdates updates) {
        return TimedScheduling.allocate(new TimedScheduling.Call<Allocation>() {
            @Override
            public Allocation run() {
                return TimedCapsched.super.allocate(id, ask, schedulingRequests, release,
                        blacklistAdditions, blacklistRemovals, updates);
            }
        });
    }

    @Override
    public void handle(final SchedulerEvent event) {
        TimedScheduling.handle(event, new Runnable() {
            @Override
            public void run() {
                TimedCapsched.super.handle(event);
            }
        });
    }
}
