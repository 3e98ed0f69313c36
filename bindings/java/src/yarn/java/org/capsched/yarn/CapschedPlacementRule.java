package org.capsched.yarn;

import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.placement.ApplicationPlacementContext;
import org.apache.hadoop.yarn.server.resourcemanager.placement.PlacementRule;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;

/**
 * The RM's placement step under capsched. RMAppManager asks its PlacementManager for an
 * application's queue before anything else (the priority check, the submission); the
 * CapacityScheduler installs its user-group and app-name rules there. capsched's engine holds
 * those rules (capacity-scheduler.xml's queue mappings), so this one rule asks it, and the RM
 * copies the placed leaf into the submission as it does for the stock scheduler.
 */
final class CapschedPlacementRule extends PlacementRule {
    private final CapschedResourceScheduler scheduler;

    CapschedPlacementRule(CapschedResourceScheduler scheduler) {
        this.scheduler = scheduler;
    }

    @Override
    public boolean initialize(ResourceScheduler resourceScheduler) {
        return true;
    }

    @Override
    public ApplicationPlacementContext getPlacementForApp(ApplicationSubmissionContext asc, String user)
            throws YarnException {
        return scheduler.place(asc, user);
    }

    @Override
    public String getName() {
        return "capsched";
    }
}
