package org.capsched;

/**
 * A cluster node label (YARN's {@code NodeLabel}): its name and whether its partition is
 * exclusive (only asks that name it get its nodes) or shared (its idle room is lent to asks
 * for the default partition).
 */
public final class NodeLabel {
    public final String name;
    public final boolean exclusive;

    public NodeLabel(String name, boolean exclusive) {
        this.name = name;
        this.exclusive = exclusive;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeLabel && ((NodeLabel) o).name.equals(name) && ((NodeLabel) o).exclusive == exclusive;
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + (exclusive ? 1 : 0);
    }

    @Override
    public String toString() {
        return "<" + name + ":exclusivity=" + exclusive + ">";
    }
}
