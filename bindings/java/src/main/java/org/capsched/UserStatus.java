package org.capsched;

/** One user of a leaf, in the default partition ({@code capsched_user_status} in the C header). */
public final class UserStatus {
    /** The longs per user in the native answer. */
    static final int LONGS = 13;

    public final String name;
    /** Allocated plus reserved. */
    public final Resource used;
    public final Resource amUsed;
    /** The user's AM limit with the leaf's active users now. */
    public final Resource amLimit;
    /** The user's limit now, and the headroom an AM of the user is told. */
    public final Resource userLimit;
    public final Resource headroom;
    public final float weight;
    public final int activeApplications;
    public final int pendingApplications;

    UserStatus(String name, long[] v, int at) {
        this.name = name;
        used = new Resource(v[at], v[at + 1]);
        amUsed = new Resource(v[at + 2], v[at + 3]);
        amLimit = new Resource(v[at + 4], v[at + 5]);
        userLimit = new Resource(v[at + 6], v[at + 7]);
        headroom = new Resource(v[at + 8], v[at + 9]);
        weight = Float.intBitsToFloat((int) v[at + 10]);
        activeApplications = (int) v[at + 11];
        pendingApplications = (int) v[at + 12];
    }
}
