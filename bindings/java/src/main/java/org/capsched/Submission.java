package org.capsched;

import java.util.ArrayList;
import java.util.List;

/**
 * A submission with everything an RM knows of it, for {@link Engine#submit(Submission)}. The
 * setters chain; what is not set takes the engine's default.
 */
public final class Submission {
    final String queue;
    final String user;
    List<String> groups = new ArrayList<String>();
    String appName;
    int priority = Capsched.DEFAULT_PRIORITY;
    YarnId applicationId;
    String nodeLabelExpression;
    String amNodeLabelExpression;
    boolean recovering;

    /** To {@code queue} (full path or unique short leaf name) as {@code user}. */
    public Submission(String queue, String user) {
        this.queue = queue;
        this.user = user;
    }

    /** The user's groups, for the queue ACLs and placement. */
    public Submission groups(List<String> groups) {
        this.groups = new ArrayList<String>(groups);
        return this;
    }

    /** The application's name, for the app-name placement rule (null: YARN's "N/A"). */
    public Submission appName(String name) {
        this.appName = name;
        return this;
    }

    public Submission priority(int priority) {
        this.priority = priority;
        return this;
    }

    /** The RM's own ApplicationId (null: the engine mints one). */
    public Submission applicationId(YarnId id) {
        this.applicationId = id;
        return this;
    }

    /**
     * The application's node-label expression ({@code ApplicationSubmissionContext
     * .getNodeLabelExpression()}): its AM's and its ANY asks' label when they name none. null:
     * none (the queue's default applies); "" names the default partition.
     */
    public Submission nodeLabelExpression(String expression) {
        this.nodeLabelExpression = expression;
        return this;
    }

    /** The AM request's own label expression (null: the application's, then the queue's). */
    public Submission amNodeLabelExpression(String expression) {
        this.amNodeLabelExpression = expression;
        return this;
    }

    /**
     * An application the RM recovers after a work-preserving restart (as {@link
     * Engine#recover}): accepted before, so nothing is checked again, its labels included.
     */
    public Submission recovering(boolean recovering) {
        this.recovering = recovering;
        return this;
    }
}
