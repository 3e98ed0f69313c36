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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.capsched.yarn.CapschedView;

/**
 * What must agree when a {@code --check} run has quiesced: three accounts of every container,
 * kept apart. The RM's ({@link RmView}: attempts' live RMContainers, SchedulerNodes, root
 * QueueMetrics) must agree with itself; capsched's ({@link CapschedView}, none for the stock
 * scheduler) with the RM's, container by container, application by application and in total;
 * and the harness's ({@link Ledger} and what the simulated NMs run) with the RM's: a container
 * the RM holds live is one an AM was handed and an NM runs or has yet to report, and every
 * container handed is released, reported finished, given up with a killed application, or
 * still live. Each disagreement is one line naming the container, node or figure.
 */
final class Accounts {
    /** One quiesced moment's accounts. */
    static final class Moment {
        final String when;
        final RmView rm;
        final CapschedView capsched;
        /** What the simulated NMs run, and what they finished and have yet to report. */
        final Map<ContainerId, NodeId> running;
        final Map<ContainerId, NodeId> unreported;
        final Map<ContainerId, Ledger.Fate> fates;

        Moment(String when, RmView rm, CapschedView capsched, Map<ContainerId, NodeId> running,
                Map<ContainerId, NodeId> unreported, Map<ContainerId, Ledger.Fate> fates) {
            this.when = when;
            this.rm = rm;
            this.capsched = capsched;
            this.running = running;
            this.unreported = unreported;
            this.fates = fates;
        }
    }

    private final List<String> out = new ArrayList<String>();
    private final Moment m;

    private Accounts(Moment m) {
        this.m = m;
    }

    /**
     * The disagreements of `m`, at most `max` of them listed (and their count); `nms` is the
     * cluster's size, `end` says nothing may be live any more, `killedAny` that some
     * application was killed (its containers the RM ended before its AM pulled them are in the
     * RM's allocations and in no AM's hands).
     */
    static List<String> check(Moment m, int nms, boolean end, boolean killedAny, long handed, int max) {
        Accounts a = new Accounts(m);
        a.rmWithItself(nms);
        if (m.capsched != null) a.capschedWithRm(nms);
        a.harnessWithRm(handed, killedAny);
        if (end) a.nothingLive();
        List<String> all = a.out;
        if (all.size() <= max) return all;
        List<String> some = new ArrayList<String>(all.subList(0, max));
        some.add("… and " + (all.size() - max) + " more");
        return some;
    }

    private void say(String what) {
        out.add(m.when + ": " + what);
    }

    private void rmWithItself(int nms) {
        RmView rm = m.rm;
        for (String t : rm.twice) say("the RM: " + t);
        if (rm.nodes.size() != nms) say("the RM's scheduler has " + rm.nodes.size() + " of the " + nms + " nodes");
        Map<NodeId, Set<ContainerId>> byNode = new HashMap<NodeId, Set<ContainerId>>();
        long mb = 0, vcores = 0;
        for (Map.Entry<ContainerId, RmView.Live> e : rm.live.entrySet()) {
            RmView.Live l = e.getValue();
            byNode.computeIfAbsent(l.node, k -> new HashSet<ContainerId>()).add(e.getKey());
            mb += l.memoryMb;
            vcores += l.vcores;
            if (!rm.nodes.containsKey(l.node)) say("the RM: " + e.getKey() + " of " + l.app + " is on " + l.node + ", no scheduler node");
        }
        for (Map.Entry<NodeId, RmView.Node> e : rm.nodes.entrySet()) {
            RmView.Node n = e.getValue();
            Set<ContainerId> attempts = byNode.getOrDefault(e.getKey(), new HashSet<ContainerId>());
            Set<ContainerId> listed = new HashSet<ContainerId>(n.running);
            long nodeMb = 0, nodeVcores = 0;
            for (ContainerId c : attempts) {
                nodeMb += rm.live.get(c).memoryMb;
                nodeVcores += rm.live.get(c).vcores;
            }
            if (!listed.equals(attempts)) {
                say("the RM's node " + e.getKey() + " lists " + diff(listed, attempts) + ", its attempts "
                        + diff(attempts, listed));
            }
            if (n.numContainers != attempts.size() || n.allocatedMb != nodeMb || n.allocatedVcores != nodeVcores) {
                say("the RM's node " + e.getKey() + " counts " + n.numContainers + " containers, " + n.allocatedMb
                        + " MB, " + n.allocatedVcores + " vcores; its attempts' live containers there: "
                        + attempts.size() + ", " + nodeMb + " MB, " + nodeVcores + " vcores");
            }
            if (n.allocatedMb > n.totalMb || n.allocatedVcores > n.totalVcores) {
                say("the RM's node " + e.getKey() + " is overcommitted: " + n.allocatedMb + " MB, "
                        + n.allocatedVcores + " vcores allocated of " + n.totalMb + " MB, " + n.totalVcores);
            }
            if (n.reserved != null && !rm.reserved.containsKey(n.reserved)) {
                say("the RM's node " + e.getKey() + " holds reservation " + n.reserved + " that no attempt has");
            }
        }
        if (rm.allocatedContainers != rm.live.size() || rm.allocatedMb != mb || rm.allocatedVcores != vcores) {
            say("the RM's root QueueMetrics: " + rm.allocatedContainers + " containers, " + rm.allocatedMb + " MB, "
                    + rm.allocatedVcores + " vcores allocated; its attempts' live containers: " + rm.live.size()
                    + ", " + mb + " MB, " + vcores + " vcores");
        }
        if (rm.reservedContainers != rm.reserved.size()) {
            say("the RM's root QueueMetrics: " + rm.reservedContainers + " reserved containers; its attempts: "
                    + rm.reserved.size());
        }
        if (rm.aggregateAllocated - rm.aggregateReleased != rm.allocatedContainers) {
            say("the RM's root QueueMetrics: " + rm.aggregateAllocated + " containers allocated in all, "
                    + rm.aggregateReleased + " released, but " + rm.allocatedContainers + " allocated now");
        }
        if (rm.pendingContainers != 0) {
            say("the RM's root QueueMetrics: " + rm.pendingContainers + " containers pending with every ask cancelled");
        }
        for (Map.Entry<ApplicationId, Long> e : rm.consumptionMb.entrySet()) {
            long sum = 0;
            for (RmView.Live l : rm.live.values()) {
                if (l.app.equals(e.getKey())) sum += l.memoryMb;
            }
            if (sum != e.getValue() && rm.reserved.isEmpty()) {
                say("the RM's attempt of " + e.getKey() + " consumes " + e.getValue() + " MB, its live containers "
                        + sum + " MB");
            }
        }
    }

    private void capschedWithRm(int nms) {
        CapschedView cs = m.capsched;
        RmView rm = m.rm;
        if (cs.invariantViolations != null) say("capsched's own audit: " + cs.invariantViolations);
        for (Map.Entry<ContainerId, String> e : cs.unknownToEngine.entrySet()) {
            say("the plug-in maps " + e.getKey() + " to an engine container the engine does not hold: " + e.getValue());
        }
        Set<ContainerId> rmAll = new HashSet<ContainerId>(rm.live.keySet());
        rmAll.addAll(rm.reserved.keySet());
        Set<ContainerId> csAll = new HashSet<ContainerId>(cs.containers.keySet());
        csAll.addAll(cs.unknownToEngine.keySet());
        if (!csAll.equals(rmAll)) {
            say("containers capsched holds and the RM does not: " + diff(csAll, rmAll) + "; the RM holds and capsched not: "
                    + diff(rmAll, csAll));
        }
        if (cs.engineContainers != rmAll.size()) {
            say("capsched's engine holds " + cs.engineContainers + " containers, the plug-in maps " + csAll.size()
                    + ", the RM holds " + rm.live.size() + " live and " + rm.reserved.size() + " reserved");
        }
        long reservedMb = 0, reservedVcores = 0;
        for (Map.Entry<ContainerId, CapschedView.Held> e : cs.containers.entrySet()) {
            CapschedView.Held h = e.getValue();
            RmView.Live l = rm.live.get(e.getKey());
            if (h.reserved) {
                reservedMb += h.memoryMb;
                reservedVcores += h.vcores;
                if (!rm.reserved.containsKey(e.getKey())) say(e.getKey() + " is a reservation in capsched, not in the RM");
                continue;
            }
            if (l == null) continue; // said above
            if (h.node == null || !h.node.equals(l.node)) {
                say(e.getKey() + " is on " + h.node + " in capsched, on " + l.node + " in the RM");
            }
            if (h.memoryMb != l.memoryMb || h.vcores != l.vcores) {
                say(e.getKey() + " is " + h.memoryMb + " MB, " + h.vcores + " vcores in capsched, " + l.memoryMb
                        + " MB, " + l.vcores + " vcores in the RM");
            }
        }
        if (!cs.liveContainers.keySet().equals(rm.perApp.keySet())) {
            say("applications the plug-in maps and the RM's scheduler does not: "
                    + diff(cs.liveContainers.keySet(), rm.perApp.keySet()) + "; the RM's and not the plug-in's: "
                    + diff(rm.perApp.keySet(), cs.liveContainers.keySet()));
        }
        for (Map.Entry<ApplicationId, Integer> e : cs.liveContainers.entrySet()) {
            Integer theirs = rm.perApp.get(e.getKey());
            if (theirs != null && !theirs.equals(e.getValue())) {
                say(e.getKey() + " has " + e.getValue() + " live containers in capsched, " + theirs + " in the RM");
            }
        }
        if (cs.engineApplications != rm.applications) {
            say("capsched's engine holds " + cs.engineApplications + " applications, the RM's scheduler " + rm.applications);
        }
        if (cs.engineNodes != nms) say("capsched's engine holds " + cs.engineNodes + " nodes of the " + nms);
        if (cs.rootUsedMb != rm.allocatedMb + reservedMb || cs.rootUsedVcores != rm.allocatedVcores + reservedVcores) {
            say("capsched's root uses " + cs.rootUsedMb + " MB, " + cs.rootUsedVcores + " vcores; the RM's root "
                    + "QueueMetrics allocate " + rm.allocatedMb + " MB, " + rm.allocatedVcores + " vcores, and "
                    + reservedMb + " MB, " + reservedVcores + " vcores are reserved");
        }
        if (cs.rootReservedContainers != rm.reservedContainers) {
            say("capsched's root has " + cs.rootReservedContainers + " reserved containers, the RM's root QueueMetrics "
                    + rm.reservedContainers);
        }
    }

    private void harnessWithRm(long handed, boolean killedAny) {
        RmView rm = m.rm;
        Map<ContainerId, NodeId> onNodes = new HashMap<ContainerId, NodeId>(m.running);
        onNodes.putAll(m.unreported);
        if (!onNodes.keySet().equals(rm.live.keySet())) {
            say("containers the NMs run or have yet to report and the RM holds no longer: "
                    + diff(onNodes.keySet(), rm.live.keySet()) + "; the RM holds live and no NM runs: "
                    + diff(rm.live.keySet(), onNodes.keySet()));
        }
        for (Map.Entry<ContainerId, RmView.Live> e : rm.live.entrySet()) {
            NodeId where = onNodes.get(e.getKey());
            if (where != null && !where.equals(e.getValue().node)) {
                say(e.getKey() + " runs on " + where + ", the RM has it on " + e.getValue().node);
            }
            Ledger.Fate f = m.fates.get(e.getKey());
            if (f != Ledger.Fate.HANDED) {
                say(e.getKey() + " is live in the RM but " + (f == null ? "was never handed to an AM" : "was " + f));
            }
        }
        Set<ContainerId> outstanding = new HashSet<ContainerId>();
        long released = 0, reported = 0, abandoned = 0;
        for (Map.Entry<ContainerId, Ledger.Fate> e : m.fates.entrySet()) {
            switch (e.getValue()) {
            case HANDED: outstanding.add(e.getKey()); break;
            case RELEASED: released++; break;
            case REPORTED: reported++; break;
            case ABANDONED: abandoned++; break;
            default: break;
            }
        }
        if (!outstanding.equals(onNodes.keySet())) {
            say("containers handed to AMs and neither released, reported nor given up, and no NM runs: "
                    + diff(outstanding, onNodes.keySet()));
        }
        if (released + reported + abandoned + outstanding.size() != handed) {
            say("the AMs were handed " + handed + " containers: " + released + " released, " + reported
                    + " reported finished, " + abandoned + " given up, " + outstanding.size() + " still running");
        }
        if (!killedAny && rm.aggregateAllocated != handed) {
            say("the RM allocated " + rm.aggregateAllocated + " containers in all and the AMs were handed " + handed);
        } else if (rm.aggregateAllocated < handed) {
            say("the AMs were handed " + handed + " containers, more than the " + rm.aggregateAllocated
                    + " the RM allocated");
        }
    }

    private void nothingLive() {
        RmView rm = m.rm;
        if (!rm.live.isEmpty() || !rm.reserved.isEmpty() || rm.allocatedContainers != 0 || rm.allocatedMb != 0) {
            say("the RM still holds " + rm.live.size() + " live and " + rm.reserved.size() + " reserved containers ("
                    + rm.allocatedContainers + " containers, " + rm.allocatedMb + " MB in its root QueueMetrics) "
                    + "with every application ended: " + first(rm.live.keySet()));
        }
        if (rm.applications != 0) say("the RM's scheduler still holds " + rm.applications + " applications");
        if (m.capsched != null && (m.capsched.engineContainers != 0 || m.capsched.rootUsedMb != 0
                || m.capsched.engineApplications != 0)) {
            say("capsched still holds " + m.capsched.engineContainers + " containers (" + m.capsched.rootUsedMb
                    + " MB at its root) and " + m.capsched.engineApplications + " applications with every application ended");
        }
    }

    /** What `a` has and `b` lacks, the first few of it, and how many. */
    private static <T> String diff(Set<T> a, Set<T> b) {
        Set<T> d = new HashSet<T>(a);
        d.removeAll(b);
        return first(d);
    }

    private static <T> String first(Set<T> d) {
        if (d.isEmpty()) return "none";
        List<String> some = new ArrayList<String>();
        for (T t : d) {
            if (some.size() == 5) break;
            some.add(String.valueOf(t));
        }
        return d.size() + " " + some + (d.size() > 5 ? "…" : "");
    }
}
