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

import com.fasterxml.jackson.databind.JsonNode;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * An SVG line chart of runs' containers allocated per second over the measured window (the
 * "allocated_per_s" series), one line a run, for docs/PERFORMANCE.md. Plain SVG, no library:
 * axes, ticks, a legend.
 */
final class Chart {
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e"};
    private static final int W = 760, H = 360, LEFT = 60, RIGHT = 20, TOP = 30, BOTTOM = 45;

    private Chart() {}

    static void write(String path, String title, List<String> names, List<JsonNode> runs) throws Exception {
        int seconds = 1;
        long peak = 1;
        for (JsonNode r : runs) {
            JsonNode s = r.get("series").get("allocated_per_s");
            seconds = Math.max(seconds, s.size());
            for (JsonNode v : s) peak = Math.max(peak, v.asLong());
        }
        long yMax = niceCeiling(peak);
        double xs = (W - LEFT - RIGHT) / (double) Math.max(1, seconds - 1);
        double ys = (H - TOP - BOTTOM) / (double) yMax;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
                        + "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\">%s</text>\n", LEFT, title));
        for (int i = 0; i <= 4; i++) {
            long v = yMax * i / 4;
            double y = H - BOTTOM - v * ys;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n", LEFT, W - RIGHT, y, y, LEFT - 6, y + 4, v));
        }
        int step = Math.max(10, (seconds / 8 + 9) / 10 * 10);
        for (int t = 0; t < seconds; t += step) {
            double x = LEFT + t * xs;
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x,
                    H - BOTTOM + 16, t));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">seconds into the "
                + "measured window</text>\n", (LEFT + W - RIGHT) / 2, H - 8));
        svg.append(String.format(Locale.ROOT, "<text transform=\"translate(14,%d) rotate(-90)\" text-anchor=\"middle\">"
                + "containers allocated per second</text>\n", (TOP + H - BOTTOM) / 2));
        for (int k = 0; k < runs.size(); k++) {
            JsonNode s = runs.get(k).get("series").get("allocated_per_s");
            StringBuilder pts = new StringBuilder();
            for (int t = 0; t < s.size(); t++) {
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", LEFT + t * xs, H - BOTTOM - s.get(t).asLong() * ys));
            }
            String c = COLOURS[k % COLOURS.length];
            svg.append("<polyline fill=\"none\" stroke=\"").append(c).append("\" stroke-width=\"1.5\" points=\"")
                    .append(pts).append("\"/>\n");
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"3\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>\n", W - RIGHT - 230, TOP + 6 + k * 16, c, W - RIGHT - 212,
                    TOP + 10 + k * 16, names.get(k)));
        }
        svg.append("</svg>\n");
        try (Writer w = new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8)) {
            w.write(svg.toString());
        }
    }

    private static long niceCeiling(long v) {
        long p = 1;
        while (p * 10 <= v) p *= 10;
        for (long m : new long[] {1, 2, 5, 10}) {
            if (m * p >= v) return m * p;
        }
        return 10 * p;
    }
}
