package org.capsched;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The answer to an AM heartbeat. */
public final class AllocateResponse {
    public final int responseId;
    public final List<Container> allocated;
    public final List<ContainerStatus> completed;
    public final Resource headroom;
    public final int numClusterNodes;
    /** The preemption message's contract: containers marked for preemption, and their total. */
    public final long[] preemptContainers;
    public final Resource preemptResource;

    AllocateResponse(Object[] r) {
        long[] head = (long[]) r[0];
        responseId = (int) head[0];
        headroom = new Resource(head[1], head[2]);
        numClusterNodes = (int) head[3];
        preemptResource = new Resource(head[4], head[5]);
        allocated = Container.unpack(r[1], r[2]);
        long[] done = (long[]) r[3];
        byte[][] diagnostics = (byte[][]) r[4];
        List<ContainerStatus> c = new ArrayList<ContainerStatus>(diagnostics.length);
        for (int i = 0; i < diagnostics.length; i++) {
            c.add(new ContainerStatus(done, i * Native.STATUS_LONGS, Utf8.string(diagnostics[i])));
        }
        completed = Collections.unmodifiableList(c);
        preemptContainers = (long[]) r[5];
    }
}
