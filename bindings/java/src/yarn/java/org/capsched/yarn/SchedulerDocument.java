package org.capsched.yarn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.exceptions.ResourceNotFoundException;

/**
 * capsched's {@code /ws/v1/cluster/scheduler} document as the scheduler page reads it: the
 * stock CapacityScheduler's JSON shape, read with the defaults of the DAOs it mirrors
 * (CapacitySchedulerQueueInfo, PartitionQueueCapacitiesInfo, PartitionResourcesInfo, UserInfo),
 * so the page can render what CapacitySchedulerPage renders from those.
 */
final class SchedulerDocument {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SchedulerDocument() {
    }

    /** {@code scheduler.schedulerInfo} of a document. */
    static JsonNode schedulerInfo(String document) throws IOException {
        return JSON.readTree(document).path("scheduler").path("schedulerInfo");
    }

    /** A JSON list: an array's entries, a lone object (one entry), none for {@code {}} or absent. */
    static List<JsonNode> list(JsonNode n) {
        if (n.isArray()) {
            List<JsonNode> out = new ArrayList<JsonNode>();
            for (JsonNode e : n) out.add(e);
            return out;
        }
        if (n.isObject() && n.size() > 0) return Collections.singletonList(n);
        if (n.isTextual()) return Collections.singletonList(n);
        return Collections.emptyList();
    }

    /** A queue's children (a parent's {@code queues.queue}). */
    static List<JsonNode> children(JsonNode queue) {
        return list(queue.path("queues").path("queue"));
    }

    /** A CapacitySchedulerLeafQueueInfo entry. */
    static boolean isLeaf(JsonNode queue) {
        return "capacitySchedulerLeafQueueInfo".equals(queue.path("type").asText());
    }

    /** The entry of `key`'s list (`capacities.queueCapacitiesByPartition`, …) for `partition`; empty when none. */
    static JsonNode partition(JsonNode entries, String partition) {
        for (JsonNode e : list(entries)) {
            if (partition.equals(e.path("partitionName").asText())) return e;
        }
        return JSON.createObjectNode();
    }

    /** A queue's capacities in `partition` (PartitionQueueCapacitiesInfo). */
    static JsonNode capacities(JsonNode queue, String partition) {
        return partition(queue.path("capacities").path("queueCapacitiesByPartition"), partition);
    }

    /** A queue's or user's resource usage in `partition` (PartitionResourcesInfo). */
    static JsonNode resources(JsonNode owner, String partition) {
        return partition(owner.path("resources").path("resourceUsagesByPartition"), partition);
    }

    static float f(JsonNode n, String key, float absent) {
        JsonNode v = n.get(key);
        return v == null || v.isNull() ? absent : (float) v.asDouble();
    }

    static int i(JsonNode n, String key) {
        return (int) n.path(key).asDouble();
    }

    /** A text field, null when absent. */
    static String text(JsonNode n, String key) {
        JsonNode v = n.get(key);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** A ResourceInfo as the RM's Resource (its toString is the page's), null when absent. */
    static Resource resource(JsonNode r) {
        if (r == null || !r.isObject()) return null;
        Resource out = Resource.newInstance(r.path("memory").asLong(), r.path("vCores").asInt());
        for (JsonNode info : list(r.path("resourceInformations").path("resourceInformation"))) {
            String name = info.path("name").asText();
            if (name.equals("memory-mb") || name.equals("vcores")) continue;
            try {
                out.setResourceValue(name, info.path("value").asLong());
            } catch (ResourceNotFoundException e) {
                // A type this RM does not know: its Resource cannot show it.
            }
        }
        return out;
    }

    /** {@link #resource} of `key`, the empty resource when absent (as the DAOs default some). */
    static Resource resourceOrNone(JsonNode n, String key) {
        Resource r = resource(n.get(key));
        return r == null ? Resource.newInstance(0, 0) : r;
    }
}
