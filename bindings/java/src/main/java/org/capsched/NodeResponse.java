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

    NodeResponse(Object[] r) {
        long[] misc = (long[]) r[0];
        allocatedCount = (int) misc[0];
        decommissioned = misc[1] != 0;
        queuingLimit = misc[2] != 0 ? new int[] {(int) misc[3], (int) misc[4]} : null;
        toKill = (long[]) r[1];
        allocated = Container.unpack(r[2], r[3]);
    }
}
