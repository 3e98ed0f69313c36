package org.capsched;

/** One thing the engine did (capsched_event). Ids that do not apply to the kind are 0. */
public final class Event {
    public static final int ACCEPTED = 1;
    public static final int REJECTED = 2;
    public static final int ALLOCATED = 3;
    public static final int RELEASED = 4;
    public static final int PREEMPT_WARNED = 5;
    public static final int PREEMPTED = 6;
    public static final int EXPIRED = 7;
    public static final int QUEUE_REFRESHED = 8;
    public static final int NODE_LOST = 9;
    public static final int NODE_DECOMMISSIONED = 10;
    public static final int AM_CONTAINER_ALLOCATED = 11;
    public static final int CONTAINER_COMPLETED = 12;
    public static final int APP_ACTIVATED = 13;
    public static final int APP_PENDING = 14;
    /** The application's lifetime has ended: the RM kills it (RMAppLifetimeMonitor). */
    public static final int APP_LIFETIME_EXPIRED = 15;
    /**
     * A container the engine placed outside a node update's response (the asynchronous pass,
     * central opportunistic allocation): the RM creates its RMContainer now, from
     * {@link #placed}. It comes before every other event about the container.
     */
    public static final int CONTAINER_PLACED = 16;

    public final int kind;
    public final long app;
    public final long container;
    public final long node;
    public final YarnId yarnId;
    /** CONTAINER_COMPLETED, PREEMPTED, EXPIRED: the exit status; APP_PENDING: the reason. */
    public final int code;
    /**
     * CONTAINER_PLACED: the container's report (resource, priority, allocation request id,
     * locality, execution type, whether it is an AM's), read in the same native call that polled
     * the event; null when it had ended by then (its CONTAINER_COMPLETED follows), and for
     * every other kind.
     */
    public final ContainerInfo placed;

    Event(long[] v, int at, ContainerInfo placed) {
        this.placed = placed;
        kind = (int) v[at];
        app = v[at + 1];
        container = v[at + 2];
        node = v[at + 3];
        yarnId = YarnId.unpack(v, at + 4);
        code = (int) v[at + 8];
    }

    @Override
    public String toString() {
        return "Event(" + kind + ", app " + app + ", container " + container + ", node " + node + ", code " + code
                + ")";
    }
}
