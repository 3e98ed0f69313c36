package org.capsched;

/**
 * A YARN id as far as it goes: an application ({@code application} non-zero), one of its
 * attempts ({@code attempt} too) or a container of that attempt ({@code containerId} too:
 * YARN's {@code ContainerId.getContainerId()}, the RM epoch in bits 40 and up). {@link
 * #toString()} is YARN's string form and {@link #parse} reads it back, through the library.
 */
public final class YarnId {
    public final long clusterTimestamp;
    public final int application;
    public final int attempt;
    public final long containerId;

    public YarnId(long clusterTimestamp, int application, int attempt, long containerId) {
        this.clusterTimestamp = clusterTimestamp;
        this.application = application;
        this.attempt = attempt;
        this.containerId = containerId;
    }

    public static YarnId application(long clusterTimestamp, int sequence) {
        return new YarnId(clusterTimestamp, sequence, 0, 0);
    }

    /** Reads {@code application_…}, {@code appattempt_…} or {@code container_…}. */
    public static YarnId parse(String text) {
        long[] v = Native.yarnIdParse(Utf8.bytes(text));
        return new YarnId(v[0], (int) v[1], (int) v[2], v[3]);
    }

    static YarnId unpack(long[] v, int at) {
        return new YarnId(v[at], (int) v[at + 1], (int) v[at + 2], v[at + 3]);
    }

    /** The container id's RM epoch. */
    public long epoch() {
        return containerId >>> 40;
    }

    /** The container id's sequence number within its attempt. */
    public long sequence() {
        return containerId & ((1L << 40) - 1);
    }

    /** The application part alone. */
    public YarnId applicationId() {
        return new YarnId(clusterTimestamp, application, 0, 0);
    }

    @Override
    public String toString() {
        return Utf8.string(Native.yarnIdFormat(clusterTimestamp, application, attempt, containerId));
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof YarnId)) return false;
        YarnId y = (YarnId) o;
        return y.clusterTimestamp == clusterTimestamp && y.application == application && y.attempt == attempt
                && y.containerId == containerId;
    }

    @Override
    public int hashCode() {
        return (int) (clusterTimestamp * 31 + application) * 31 + attempt * 17 + Long.hashCode(containerId);
    }
}
