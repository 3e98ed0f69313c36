package org.capsched;

/** The library itself: its version, and the C ABI these bindings load it for. */
public final class Capsched {
    /** The C ABI version these bindings were written for; checked when the library loads. */
    public static final int ABI_VERSION = NativeLibrary.ABI_VERSION;

    /** The default application priority (the leaf's). */
    public static final int DEFAULT_PRIORITY = Integer.MIN_VALUE;

    /** checkAccess's rights (YARN's QueueACL). */
    public static final int ACL_SUBMIT_APPLICATIONS = 0;
    public static final int ACL_ADMINISTER_QUEUE = 1;

    private Capsched() {}

    /** Loads the native library now (it otherwise loads on first use); throws UnsatisfiedLinkError. */
    public static void load() {
        Native.init();
    }

    /** "capsched 0.1.0 (ABI 3)". */
    public static String version() {
        return Utf8.string(Native.version());
    }

    public static int abiVersion() {
        return Native.abiVersion();
    }
}
