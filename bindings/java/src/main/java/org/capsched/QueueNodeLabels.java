package org.capsched;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A queue's node-label settings as YARN's {@code QueueInfo} states them
 * ({@link Engine#queueNodeLabels}).
 */
public final class QueueNodeLabels {
    /**
     * {@code getAccessibleNodeLabels()}: the labels the queue may use besides the default
     * partition (which every queue may), sorted; {@code "*"} alone when it may use every label;
     * empty: the default partition only.
     */
    public final Set<String> accessible;
    /**
     * {@code getDefaultNodeLabelExpression()}, the queue's own or inherited: null when unset;
     * "" names the default partition.
     */
    public final String defaultNodeLabelExpression;

    QueueNodeLabels(List<String> accessible, String defaultNodeLabelExpression) {
        this.accessible = Collections.unmodifiableSet(new LinkedHashSet<String>(accessible));
        this.defaultNodeLabelExpression = defaultNodeLabelExpression;
    }

    @Override
    public String toString() {
        return "accessible=" + accessible + ", default=" + defaultNodeLabelExpression;
    }
}
