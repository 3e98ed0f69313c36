package org.capsched;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads the native library once: the system property {@code capsched.library} (a path) if
 * set; else the copy this jar carries for the platform, extracted to a temporary file; else
 * {@code capsched_jni} from {@code java.library.path}. Then checks the C ABI version against
 * the one these bindings were written for.
 */
final class NativeLibrary {
    /** The C ABI these bindings speak (CAPSCHED_ABI_VERSION of the header they were built with). */
    static final int ABI_VERSION = 3;
    static final String NAME = "capsched_jni";

    private static boolean loaded;

    private NativeLibrary() {}

    static synchronized void load() {
        if (loaded) return;
        String explicit = System.getProperty("capsched.library");
        if (explicit != null) {
            System.load(new File(explicit).getAbsolutePath());
        } else if (!loadFromJar()) {
            System.loadLibrary(NAME);
        }
        int abi = Native.abiVersion();
        if (abi != ABI_VERSION || Native.headerAbiVersion() != ABI_VERSION) {
            throw new UnsatisfiedLinkError("libcapsched speaks C ABI " + abi + " (its JNI glue was built for "
                    + Native.headerAbiVersion() + "); these bindings need ABI " + ABI_VERSION);
        }
        loaded = true;
    }

    /** The platform's directory in the jar: linux-x86_64, linux-aarch64, ... */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (arch.equals("amd64") || arch.equals("x86_64")) arch = "x86_64";
        if (arch.equals("arm64")) arch = "aarch64";
        return (os.startsWith("linux") ? "linux" : os.replace(' ', '_')) + "-" + arch;
    }

    private static boolean loadFromJar() {
        String resource = "/org/capsched/native/" + platform() + "/lib" + NAME + ".so";
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) return false;
            File tmp = File.createTempFile("lib" + NAME + "-", ".so");
            tmp.deleteOnExit();
            Files.copy(in, tmp.toPath(), StandardCopyOption.REPLACE_EXISTING);
            System.load(tmp.getAbsolutePath());
            return true;
        } catch (IOException e) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("cannot extract " + resource + ": " + e);
            error.initCause(e);
            throw error;
        }
    }
}
