package org.capsched;

/** A finished container as its AM learns of it. */
public final class ContainerStatus {
    /** The engine's id (no longer valid: the container is gone). */
    public final long container;
    public final int exitStatus;
    public final String diagnostics;
    public final YarnId yarnId;

    ContainerStatus(long[] v, int at, String diagnostics) {
        this.container = v[at];
        this.exitStatus = (int) v[at + 1];
        this.yarnId = YarnId.unpack(v, at + 2);
        this.diagnostics = diagnostics;
    }
}
