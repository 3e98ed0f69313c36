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
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.FileReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Folds the runs of {@code scripts/rm-bench} (one JSON line each, a results file) into one line
 * per cluster size: {@code {"nms":N,"stock":{…},"capsched":{…},"configs":{…}}}, where each
 * scheduler's entry is its better mode (sync or async, by sustained containers/s), and
 * "configs" has every run's headline figures, with the ratios capsched/stock.
 */
public final class Combine {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        Map<Integer, List<JsonNode>> bySize = new TreeMap<Integer, List<JsonNode>>();
        try (BufferedReader r = new BufferedReader(new FileReader(args[0]))) {
            for (String line; (line = r.readLine()) != null;) {
                if (!line.startsWith("{")) continue;
                JsonNode run = JSON.readTree(line);
                bySize.computeIfAbsent(run.get("nms").asInt(), k -> new ArrayList<JsonNode>()).add(run);
            }
        }
        for (Map.Entry<Integer, List<JsonNode>> e : bySize.entrySet()) {
            ObjectNode out = JSON.createObjectNode();
            out.put("nms", e.getKey());
            Map<String, JsonNode> best = new LinkedHashMap<String, JsonNode>();
            ObjectNode configs = out.objectNode();
            for (JsonNode run : e.getValue()) {
                String s = run.get("scheduler").asText();
                String name = s + (run.get("async").asBoolean() ? "-async" : "-sync")
                        + (run.get("extra_conf").size() > 0 ? "-" + run.get("extra_conf").toString() : "");
                configs.set(name, headline(run));
                JsonNode b = best.get(s);
                if (b == null || run.get("containers_per_sec").asDouble() > b.get("containers_per_sec").asDouble()) {
                    best.put(s, run);
                }
            }
            for (String s : new String[] {"stock", "capsched"}) {
                if (best.containsKey(s)) out.set(s, headline(best.get(s)));
            }
            if (best.containsKey("stock") && best.containsKey("capsched")) {
                JsonNode st = best.get("stock"), cs = best.get("capsched");
                ObjectNode ratio = out.putObject("capsched_over_stock");
                ratio.put("containers_per_sec", div(cs.get("containers_per_sec"), st.get("containers_per_sec")));
                ratio.put("scheduling_cpu_per_container",
                        div(perContainer(cs, "scheduling_cpu_s"), perContainer(st, "scheduling_cpu_s")));
                ratio.put("rm_cpu_per_container", div(perContainer(cs, "rm_cpu_s"), perContainer(st, "rm_cpu_s")));
                ratio.put("allocate_p99", div(cs.get("allocate").get("p99_us"), st.get("allocate").get("p99_us")));
            }
            out.set("configs", configs);
            System.out.println(JSON.writeValueAsString(out));
        }
        if (args.length > 2 && args[1].equals("--chart") && !bySize.isEmpty()) {
            int largest = ((TreeMap<Integer, List<JsonNode>>) bySize).lastKey();
            List<String> names = new ArrayList<String>();
            List<JsonNode> runs = bySize.get(largest);
            for (JsonNode run : runs) {
                names.add(run.get("scheduler").asText() + (run.get("async").asBoolean() ? " async" : " sync")
                        + (run.get("extra_conf").size() > 0 ? " " + run.get("extra_conf").toString() : ""));
            }
            Chart.write(args[2], "Containers allocated per second, " + largest + " NodeManagers, one RM", names, runs);
        }
    }

    private static ObjectNode headline(JsonNode run) {
        ObjectNode h = JSON.createObjectNode();
        h.put("mode", run.get("async").asBoolean() ? "async" : "sync");
        for (String k : new String[] {"containers_per_sec", "event_queue_max", "event_queue_mean",
            "rm_dispatcher_queue_max", "wall_s", "finished", "rm_cores", "scheduling_cores", "heap_live_max_mb",
            "heap_max_mb", "rss_max_mb", "troubles"}) {
            h.set(k, run.get(k));
        }
        h.put("allocate_p50_us", run.get("allocate").get("p50_us").asDouble());
        h.put("allocate_p99_us", run.get("allocate").get("p99_us").asDouble());
        h.put("node_update_p50_us", run.get("node_update").get("p50_us").asDouble());
        h.put("node_update_p99_us", run.get("node_update").get("p99_us").asDouble());
        h.put("scheduling_cpu_us_per_container", perContainer(run, "scheduling_cpu_s").asDouble() * 1e6);
        h.put("rm_cpu_us_per_container", perContainer(run, "rm_cpu_s").asDouble() * 1e6);
        return h;
    }

    private static JsonNode perContainer(JsonNode run, String cpuKey) {
        long n = Math.max(1, run.get("allocated").asLong());
        return JSON.getNodeFactory().numberNode(run.get(cpuKey).asDouble() / n);
    }

    private static double div(JsonNode a, JsonNode b) {
        double d = b.asDouble();
        return d == 0 ? 0 : Math.round(a.asDouble() / d * 1000) / 1000.0;
    }
}
