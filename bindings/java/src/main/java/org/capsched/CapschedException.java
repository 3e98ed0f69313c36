package org.capsched;

/** A failed call: capsched's status and its message (YARN's, where YARN has one). */
public class CapschedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public static final int NULL_ARGUMENT = 1;
    public static final int INVALID_ARGUMENT = 2;
    public static final int INVALID_UTF8 = 3;
    public static final int STRUCT_SIZE = 4;
    public static final int CONFIG = 5;
    public static final int UNKNOWN_ID = 6;
    public static final int REFUSED = 7;
    public static final int REJECTED = 8;
    public static final int STOPPED = 9;
    public static final int ENGINE_FAILED = 10;
    public static final int PANIC = 11;
    public static final int IO = 12;
    public static final int INVARIANT = 13;

    private final int status;

    /** Called by the native glue. */
    public CapschedException(int status, String message) {
        super(message);
        this.status = status;
    }

    /** The C ABI's status (the constants above). */
    public int status() {
        return status;
    }
}
