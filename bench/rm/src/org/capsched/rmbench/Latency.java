/*
 * Copyright the capsched authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file
 * except in compliance with the License. You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software distributed under the
 * License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND,
 * either express or implied. See the License for the specific language governing permissions
 * and limitations under the License.
 */
package org.capsched.rmbench;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A concurrent latency histogram: log-linear buckets (32 per power of two, so any percentile is
 * within 3 % of the value recorded), recorded from many threads without a lock.
 */
final class Latency {
    private static final int SUB = 32;
    private static final int POWERS = 40; // up to 2^40 ns, about 18 minutes
    private final AtomicLongArray counts = new AtomicLongArray(SUB * POWERS);
    private final java.util.concurrent.atomic.AtomicLong sum = new java.util.concurrent.atomic.AtomicLong();

    void record(long nanos) {
        long v = Math.max(1, nanos);
        int power = 63 - Long.numberOfLeadingZeros(v); // floor(log2 v)
        int index;
        if (power < 5) {
            index = (int) v; // below 32 ns: one bucket a nanosecond
        } else {
            int sub = (int) ((v >>> (power - 5)) & (SUB - 1));
            index = Math.min((power - 4) * SUB + sub, SUB * POWERS - 1);
        }
        counts.incrementAndGet(index);
        sum.addAndGet(nanos);
    }

    private static long lowerBound(int index) {
        if (index < SUB) return index;
        int power = index / SUB + 4;
        int sub = index % SUB;
        return (1L << power) + ((long) sub << (power - 5));
    }

    long count() {
        long n = 0;
        for (int i = 0; i < counts.length(); i++) n += counts.get(i);
        return n;
    }

    double meanMicros() {
        long n = count();
        return n == 0 ? 0 : sum.get() / 1000.0 / n;
    }

    /** The {@code q} quantile (0..1) in microseconds: the middle of its bucket. */
    double quantileMicros(double q) {
        long n = count();
        if (n == 0) return 0;
        long rank = (long) Math.ceil(q * n);
        long seen = 0;
        for (int i = 0; i < counts.length(); i++) {
            seen += counts.get(i);
            if (seen >= Math.max(1, rank)) {
                long lo = lowerBound(i);
                long hi = i + 1 < counts.length() ? lowerBound(i + 1) : lo;
                return (lo + hi) / 2.0 / 1000.0;
            }
        }
        return 0;
    }

    String json() {
        return String.format(java.util.Locale.ROOT, "{\"count\":%d,\"mean_us\":%.1f,\"p50_us\":%.1f,\"p99_us\":%.1f}",
                count(), meanMicros(), quantileMicros(0.5), quantileMicros(0.99));
    }
}
