package org.capsched;

/** One queue's figures. */
public final class QueueInfo {
    public final String path;
    public final Resource used;
    public final Resource pending;
    public final Resource reserved;
    public final float absoluteCapacity;
    public final float absoluteMaximumCapacity;
    /** A leaf's attempts; a parent's applications beneath it. */
    public final int numApplications;

    QueueInfo(String path, long[] v, int at) {
        this.path = path;
        used = new Resource(v[at], v[at + 1]);
        pending = new Resource(v[at + 2], v[at + 3]);
        reserved = new Resource(v[at + 4], v[at + 5]);
        absoluteCapacity = Float.intBitsToFloat((int) v[at + 6]);
        absoluteMaximumCapacity = Float.intBitsToFloat((int) v[at + 7]);
        numApplications = (int) v[at + 8];
    }
}
