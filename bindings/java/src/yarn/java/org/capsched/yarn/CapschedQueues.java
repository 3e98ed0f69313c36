package org.capsched.yarn;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.capsched.Engine;
import org.capsched.QueueStatus;
import org.capsched.QueueStatuses;

/**
 * The RM-side queues, one per capsched queue (parents included, so every queue has its metrics
 * bean from the start, idle ones too), and capsched's latest figures of them. The figures are
 * read again only when the engine's figures version has moved (a read of the version costs no
 * call into the engine), after each event the plug-in hands over.
 */
final class CapschedQueues {
    private final CapschedResourceScheduler scheduler;
    private final boolean userMetrics;
    private final Map<String, CapschedQueue> byPath = new ConcurrentHashMap<String, CapschedQueue>();
    private volatile CapschedQueue root;
    /** The cluster labels whose partition metrics are chained (each queue made later too). */
    private final java.util.Set<String> labels = new java.util.HashSet<String>();
    /** The figures last read, root first; and by path and by (unique) short name. */
    private volatile Figures figures = new Figures(Collections.<QueueStatus>emptyList(), -1, null);

    /** One read of the engine's figures, with its look-ups. */
    private static final class Figures {
        final List<QueueStatus> list;
        final long version;
        final Names names;

        Figures(List<QueueStatus> list, long version, Names previous) {
            this.list = list;
            this.version = version;
            this.names = previous != null && previous.sameQueues(list) ? previous : new Names(list);
        }

        QueueStatus byPath(String path) {
            Integer i = names.byPath.get(path);
            return i == null ? null : list.get(i);
        }

        /** By short name; null when none, or when two queues share it (YARN then asks for the path). */
        QueueStatus byName(String name) {
            Integer i = names.byName.get(name);
            return i == null || i < 0 ? null : list.get(i);
        }
    }

    /**
     * Where each queue is in a read, by path and by short name (-1 for a name two queues
     * share). Kept from read to read while the queues stay: figures move at every allocation,
     * the tree only at a refresh.
     */
    private static final class Names {
        final String[] paths;
        final Map<String, Integer> byPath = new HashMap<String, Integer>();
        final Map<String, Integer> byName = new HashMap<String, Integer>();

        Names(List<QueueStatus> list) {
            paths = new String[list.size()];
            for (int i = 0; i < paths.length; i++) {
                QueueStatus s = list.get(i);
                paths[i] = s.path;
                byPath.put(s.path, i);
                String name = s.name();
                byName.put(name, byName.containsKey(name) ? -1 : i);
            }
        }

        boolean sameQueues(List<QueueStatus> list) {
            if (list.size() != paths.length) return false;
            for (int i = 0; i < paths.length; i++) {
                if (!paths[i].equals(list.get(i).path)) return false;
            }
            return true;
        }
    }

    CapschedQueues(CapschedResourceScheduler scheduler, boolean userMetrics) {
        this.scheduler = scheduler;
        this.userMetrics = userMetrics;
    }

    /** root's queue, made at init: the RM reads its metrics before any queue has figures. */
    CapschedQueue root() {
        CapschedQueue r = root;
        if (r == null) {
            synchronized (this) {
                if (root == null) {
                    root = new CapschedQueue(scheduler, "root", null, userMetrics);
                    byPath.put("root", root);
                }
                r = root;
            }
        }
        return r;
    }

    /** The queue at `path`, made (with its ancestors) on first use. */
    CapschedQueue get(String path) {
        CapschedQueue q = byPath.get(path);
        if (q != null) return q;
        int dot = path.lastIndexOf('.');
        if (dot < 0) return root();
        CapschedQueue parent = get(path.substring(0, dot));
        synchronized (this) {
            q = byPath.get(path);
            if (q == null) {
                q = new CapschedQueue(scheduler, path, parent, userMetrics);
                for (String label : labels) q.linkPartition(label);
                byPath.put(path, q);
            }
        }
        return q;
    }

    /**
     * Whether the figures moved since the last read ({@link #sync} is then due), from the
     * engine's figures version now.
     */
    boolean due(long figuresVersion) {
        return readDue || figuresVersion != figures.version;
    }

    /**
     * Reads capsched's figures again (when {@link #due}), and sets what the
     * metrics take from them. Queues capsched has made since (a refresh, auto-created leaves)
     * get their RM-side queue and metrics here.
     */
    synchronized void sync(Engine engine, ResourceCalculator rc, Resource cluster, Resource partition,
            Resource minimum) {
        readDue = false;
        QueueStatuses read = engine.queueStatuses();
        Figures next = new Figures(read.queues, read.figuresVersion, figures.names);
        for (QueueStatus s : next.list) {
            CapschedQueue q = get(s.path);
            q.apply(s, rc, cluster, partition, minimum);
            if (s.isLeaf) mirrorReserved(q, s);
        }
        figures = next;
        if (userMetrics) applyUserFigures(engine);
    }

    /**
     * Per user (with user metrics), the users whose headroom LeafQueue would set now (an
     * allocation, reservation or release of theirs: allocateResource, releaseResource), and
     * those whose AM limit it would (an application of theirs activated), by leaf.
     */
    private final Map<String, java.util.Set<String>> headroomDue = new HashMap<String, java.util.Set<String>>();
    private final Map<String, java.util.Set<String>> userAmLimitDue = new HashMap<String, java.util.Set<String>>();

    /** `user`'s usage in the leaf at `path` changed (user metrics only). */
    synchronized void userUsageChanged(String path, String user) {
        if (!userMetrics) return;
        due(headroomDue, path).add(user);
        readDue = true;
    }

    /** An application of `user` in the leaf at `path` was activated (user metrics only). */
    synchronized void userActivated(String path, String user) {
        if (!userMetrics) return;
        due(userAmLimitDue, path).add(user);
        readDue = true;
    }

    private static java.util.Set<String> due(Map<String, java.util.Set<String>> m, String path) {
        java.util.Set<String> users = m.get(path);
        if (users == null) {
            users = new java.util.HashSet<String>();
            m.put(path, users);
        }
        return users;
    }

    /** Sets what is due of the users' metrics from capsched's figures of the users now. */
    private void applyUserFigures(Engine engine) {
        java.util.Set<String> paths = new java.util.HashSet<String>(headroomDue.keySet());
        paths.addAll(userAmLimitDue.keySet());
        for (String path : paths) {
            java.util.Set<String> headroom = headroomDue.remove(path);
            java.util.Set<String> amLimit = userAmLimitDue.remove(path);
            CapschedQueue q = get(path);
            java.util.Set<String> users = new java.util.HashSet<String>();
            if (headroom != null) users.addAll(headroom);
            if (amLimit != null) users.addAll(amLimit);
            for (String user : users) {
                // Asked by name: a user whose last container just went is asked after too.
                org.capsched.UserStatus u = engine.queueUser(path, user);
                if (headroom != null && headroom.contains(u.name)) {
                    q.getMetrics().setAvailableResourcesToUser(
                            org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager.NO_LABEL,
                            u.name, CapschedQueue.resource(u.headroom));
                }
                if (amLimit != null && amLimit.contains(u.name)) {
                    q.getMetrics().setAMResouceLimitForUser(
                            org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager.NO_LABEL,
                            u.name, CapschedQueue.resource(u.amLimit));
                }
            }
        }
    }

    /**
     * A leaf's reservations into its metrics when capsched's moved: all users together, or,
     * where the metrics keep figures per user, each user's (from its applications' reports).
     */
    private void mirrorReserved(CapschedQueue q, QueueStatus s) {
        if (q.reservedAre(s.reservedContainers, s.reserved)) return;
        Map<String, CapschedQueue.Reservations> byUser;
        if (userMetrics) {
            byUser = scheduler.reservationsByUser(s.path);
            // A reservation counts in its user's usage: LeafQueue sets the user's headroom.
            java.util.Set<String> changed = new java.util.HashSet<String>(byUser.keySet());
            changed.addAll(q.reservationUsers());
            for (String user : changed) due(headroomDue, s.path).add(user);
        } else {
            byUser = Collections.singletonMap(null, new CapschedQueue.Reservations(s.reservedContainers, CapschedQueue.resource(s.reserved)));
        }
        q.mirrorReserved(byUser);
    }

    /** Chains every queue's metrics in `partition` to its parent's (a label the cluster has). */
    synchronized void linkPartition(String partition) {
        if (!labels.add(partition)) return;
        for (CapschedQueue q : byPath.values()) q.linkPartition(partition);
    }

    /** Forgets the figures, so the next {@link #sync} reads them whatever the version. */
    void invalidate() {
        readDue = true;
    }

    /** Whether the next {@link #sync} reads the figures whatever the version. */
    private volatile boolean readDue;

    /**
     * The moment a leaf (re)considers its pending applications (see
     * {@link CapschedQueue#amLimitMoment}): for the leaf at `path`, or every leaf when null.
     */
    void amLimitMoment(String path) {
        if (path == null) {
            for (CapschedQueue q : byPath.values()) q.amLimitMoment();
        } else {
            get(path).amLimitMoment();
        }
        readDue = true;
    }

    /** The latest figures of the queue with this path or (unique) short name; null if none. */
    QueueStatus status(String nameOrPath) {
        Figures f = figures;
        QueueStatus s = f.byPath(nameOrPath);
        return s != null ? s : f.byName(nameOrPath);
    }

    /** A queue's figures and the read they belong to, taken together. */
    static final class Located {
        final List<QueueStatus> all;
        final int at;

        Located(List<QueueStatus> all, int at) {
            this.all = all;
            this.at = at;
        }
    }

    /**
     * The queue with this path or (unique) short name in the latest figures, with them; null if
     * none. One read of {@link #figures}: a reader that looked the queue up in one read and its
     * parents and children in the next (replaced meanwhile by a heartbeat on the event thread)
     * would find the queue in neither.
     */
    Located locate(String nameOrPath) {
        Figures f = figures;
        Integer i = f.names.byPath.get(nameOrPath);
        if (i == null) i = f.names.byName.get(nameOrPath);
        return i == null || i < 0 ? null : new Located(f.list, i);
    }

    /** Whether `name` is a short name two or more queues share. */
    boolean ambiguous(String name) {
        Figures f = figures;
        Integer i = f.names.byName.get(name);
        return !f.names.byPath.containsKey(name) && i != null && i < 0;
    }

    /** The latest figures, root first. */
    List<QueueStatus> statuses() {
        return figures.list;
    }
}
