package org.capsched;

import java.util.List;

/** What a NodeManager's heartbeat returns. */
public final class NodeResponse {
    /** Containers allocated on the node during the heartbeat. */
    public final int allocatedCount;
    /** The node was decommissioning and is now DECOMMISSIONED (its id is no longer valid). */
    public final boolean decommissioned;
    /** Non-null when opportunistic allocation is on: the queue limit (length, wait in ms). */
    public final int[] queuingLimit;
    /** Containers the NodeManager must kill. */
    public final long[] toKill;
    /** Each container allocated on the node during the heartbeat. */
    public final List<Container> allocated;
    /**
     * The engine's events polled after the heartbeat in the same call; null when none were
     * asked for, or the poll failed (then poll them on their own).
     */
    public final List<Event> events;
    /** The figures version after those events; -1 when not read. */
    public final long figuresVersion;

    NodeResponse(Object[] r, List<Event> events, long figuresVersion) {
        this.events = events;
        this.figuresVersion = figuresVersion;
        long[] misc = (long[]) r[0];
        allocatedCount = (int) misc[0];
        decommissioned = misc[1] != 0;
        queuingLimit = misc[2] != 0 ? new int[] {(int) misc[3], (int) misc[4]} : null;
        toKill = (long[]) r[1];
        allocated = Container.unpack(r[2], r[3]);
    }
}
