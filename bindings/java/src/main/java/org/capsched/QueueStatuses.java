package org.capsched;

import java.util.List;

/** Every queue's figures, root first, and the figures version they belong to. */
public final class QueueStatuses {
    public final List<QueueStatus> queues;
    /** Compare with {@link Engine#figuresVersion}: while it stays, these are current. */
    public final long figuresVersion;

    QueueStatuses(List<QueueStatus> queues, long figuresVersion) {
        this.queues = queues;
        this.figuresVersion = figuresVersion;
    }
}
