package org.capsched;

/** A container a NodeManager reports finished. */
public final class CompletedContainer {
    public final long container;
    public final int exitStatus;
    public final String diagnostics;

    public CompletedContainer(long container, int exitStatus, String diagnostics) {
        this.container = container;
        this.exitStatus = exitStatus;
        this.diagnostics = diagnostics;
    }
}
