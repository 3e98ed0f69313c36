package org.capsched;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** Strings cross the JNI boundary as UTF-8 bytes, both ways. */
final class Utf8 {
    private Utf8() {}

    static byte[] bytes(String s) {
        if (s == null) throw new NullPointerException("a string argument is null");
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[][] all(List<String> list) {
        byte[][] out = new byte[list.size()][];
        for (int i = 0; i < out.length; i++) out[i] = bytes(list.get(i));
        return out;
    }

    static String string(byte[] b) {
        return b == null ? "" : new String(b, StandardCharsets.UTF_8);
    }
}
