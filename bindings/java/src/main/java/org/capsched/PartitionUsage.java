package org.capsched;

/** A queue's figures in one partition. */
public final class PartitionUsage {
    /** Containers on the partition's nodes, reservations included. */
    public final Resource used;
    public final Resource reserved;
    /** What the queue's applications still ask for with this partition's label. */
    public final Resource pending;
    /** A leaf's AM containers there. */
    public final Resource amUsed;

    PartitionUsage(long[] v) {
        used = new Resource(v[0], v[1]);
        reserved = new Resource(v[2], v[3]);
        pending = new Resource(v[4], v[5]);
        amUsed = new Resource(v[6], v[7]);
    }
}
