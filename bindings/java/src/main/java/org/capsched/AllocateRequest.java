package org.capsched;

import java.util.ArrayList;
import java.util.List;

/** An AM heartbeat. The setters chain. */
public final class AllocateRequest {
    int responseId;
    final List<Ask> asks = new ArrayList<Ask>();
    final List<Long> releases = new ArrayList<Long>();
    final List<String> blacklistAdditions = new ArrayList<String>();
    final List<String> blacklistRemovals = new ArrayList<String>();

    /** The last response's id (0 on the first call). */
    public AllocateRequest responseId(int id) {
        responseId = id;
        return this;
    }

    public AllocateRequest ask(Ask ask) {
        asks.add(ask);
        return this;
    }

    public AllocateRequest release(long container) {
        releases.add(container);
        return this;
    }

    public AllocateRequest blacklist(String resourceName) {
        blacklistAdditions.add(resourceName);
        return this;
    }

    public AllocateRequest unblacklist(String resourceName) {
        blacklistRemovals.add(resourceName);
        return this;
    }
}
