package org.capsched.yarn;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;

/**
 * A leaf's active users as the CapacityScheduler's UsersManager counts them for the queue's
 * metrics (ActiveUsers, ActiveApplications): an application's outstanding asks make its user
 * active only while the user has an application the leaf has activated (capsched's activation,
 * told by APP_ACTIVATED; an attempt held back by the AM limit does not count), as
 * UsersManager.activateApplication checks; the user is inactive again once none of its
 * applications asks for anything.
 */
final class CapschedUsersManager implements AbstractUsersManager {
    private final QueueMetrics metrics;
    /** Per user, its applications with outstanding asks. */
    private final Map<String, Set<ApplicationId>> asking = new HashMap<String, Set<ApplicationId>>();
    /** Per user, its applications the leaf has activated. */
    private final Map<String, Integer> activated = new HashMap<String, Integer>();

    CapschedUsersManager(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    /** The leaf activated one of `user`'s applications, or one ended or left (`delta` -1). */
    synchronized void leafActivated(String user, int delta) {
        int n = activated.getOrDefault(user, 0) + delta;
        if (n > 0) {
            activated.put(user, n);
        } else {
            activated.remove(user);
        }
    }

    @Override
    public synchronized void activateApplication(String user, ApplicationId applicationId) {
        if (activated.getOrDefault(user, 0) <= 0) return;
        Set<ApplicationId> apps = asking.get(user);
        if (apps == null) {
            apps = new HashSet<ApplicationId>();
            asking.put(user, apps);
            metrics.incrActiveUsers();
        }
        if (apps.add(applicationId)) metrics.activateApp(user);
    }

    @Override
    public synchronized void deactivateApplication(String user, ApplicationId applicationId) {
        Set<ApplicationId> apps = asking.get(user);
        if (apps == null) return;
        if (apps.remove(applicationId)) metrics.deactivateApp(user);
        if (apps.isEmpty()) {
            asking.remove(user);
            metrics.decrActiveUsers();
        }
    }

    @Override
    public synchronized int getNumActiveUsers() {
        return asking.size();
    }
}
