package org.capsched;

/** Memory in MB and virtual cores. */
public final class Resource {
    public final long memoryMb;
    public final long vcores;

    public Resource(long memoryMb, long vcores) {
        this.memoryMb = memoryMb;
        this.vcores = vcores;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Resource && ((Resource) o).memoryMb == memoryMb && ((Resource) o).vcores == vcores;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(memoryMb) * 31 + Long.hashCode(vcores);
    }

    @Override
    public String toString() {
        return "<memory:" + memoryMb + ", vCores:" + vcores + ">";
    }
}
