package org.capsched;

import java.util.Map;

/** A validated capacity-scheduler configuration. Invalid ones throw with YARN's message. */
public final class Config extends NativeHandle {
    private Config(long handle) {
        super(handle, "configuration");
    }

    /** From capacity-scheduler.xml text. */
    public static Config fromXml(String xml) {
        return new Config(Native.configFromXml(Utf8.bytes(xml)));
    }

    /** From a capacity-scheduler.xml (or .properties) file. */
    public static Config fromFile(String path) {
        return new Config(Native.configFromFile(Utf8.bytes(path)));
    }

    /** From keys and values, in the map's iteration order. */
    public static Config fromPairs(Map<String, String> pairs) {
        byte[][] keys = new byte[pairs.size()][];
        byte[][] values = new byte[pairs.size()][];
        int i = 0;
        for (Map.Entry<String, String> e : pairs.entrySet()) {
            keys[i] = Utf8.bytes(e.getKey());
            values[i] = Utf8.bytes(e.getValue());
            i++;
        }
        return new Config(Native.configFromPairs(keys, values));
    }

    long handle(Call<Long> use) {
        return with(use);
    }

    @Override
    void free(long handle) {
        Native.configFree(handle);
    }
}
