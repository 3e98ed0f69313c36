package org.capsched;

/** A container handed out: in an allocate response, or in a heartbeat's response. */
public final class Container {
    public static final int GUARANTEED = 0;
    public static final int OPPORTUNISTIC = 1;
    public static final int NODE_LOCAL = 0;
    public static final int RACK_LOCAL = 1;
    public static final int OFF_SWITCH = 2;

    public final long id;
    public final long node;
    /** The node's NodeId as it registered ({@code host:port}, or the host). */
    public final String host;
    public final int priority;
    public final long allocationRequestId;
    public final Resource resource;
    public final int executionType;
    public final int version;
    public final boolean isAm;
    public final boolean remotelyAllocated;
    public final int locality;
    public final YarnId yarnId;

    Container(long[] v, int at, String host) {
        this.id = v[at];
        this.node = v[at + 1];
        this.priority = (int) v[at + 2];
        this.allocationRequestId = v[at + 3];
        this.resource = new Resource(v[at + 4], v[at + 5]);
        this.executionType = (int) v[at + 6];
        this.version = (int) v[at + 7];
        this.isAm = v[at + 8] != 0;
        this.remotelyAllocated = v[at + 9] != 0;
        this.locality = (int) v[at + 10];
        this.yarnId = YarnId.unpack(v, at + 11);
        this.host = host;
    }

    static java.util.List<Container> unpack(Object packed, Object hosts) {
        long[] v = (long[]) packed;
        byte[][] h = (byte[][]) hosts;
        java.util.List<Container> out = new java.util.ArrayList<Container>(h.length);
        for (int i = 0; i < h.length; i++) out.add(new Container(v, i * Native.CONTAINER_LONGS, Utf8.string(h[i])));
        return java.util.Collections.unmodifiableList(out);
    }

    @Override
    public String toString() {
        return "Container(" + yarnId + " on " + host + ", " + resource + ")";
    }
}
