package org.capsched.yarn;

import static org.apache.hadoop.yarn.util.StringHelper.join;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.inject.Inject;
import com.google.inject.servlet.RequestScoped;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.util.StringUtils;
import org.apache.hadoop.yarn.api.records.NodeLabel;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.nodelabels.RMNodeLabel;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.MetricsOverviewTable;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.RMAppsBlock;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.RmView;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.apache.hadoop.yarn.webapp.ResponseInfo;
import org.apache.hadoop.yarn.webapp.SubView;
import org.apache.hadoop.yarn.webapp.hamlet2.Hamlet;
import org.apache.hadoop.yarn.webapp.hamlet2.Hamlet.DIV;
import org.apache.hadoop.yarn.webapp.hamlet2.Hamlet.LI;
import org.apache.hadoop.yarn.webapp.hamlet2.Hamlet.TABLE;
import org.apache.hadoop.yarn.webapp.hamlet2.Hamlet.TBODY;
import org.apache.hadoop.yarn.webapp.hamlet2.Hamlet.UL;
import org.apache.hadoop.yarn.webapp.hamlet2.HamletSpec;
import org.apache.hadoop.yarn.webapp.view.HtmlBlock;
import org.apache.hadoop.yarn.webapp.view.InfoBlock;

/**
 * The RM web UI's scheduler page ({@code /cluster/scheduler}) under capsched, selected by
 * {@code yarn.http.rmwebapp.scheduler.page.class}. Without that key the RM's page fails for a
 * scheduler it does not know (RmController dereferences the unset class), so the plug-in sets
 * it when the operator has not.
 *
 * <p>The page is Hadoop 3.3's CapacitySchedulerPage drawn from capsched's
 * {@code /ws/v1/cluster/scheduler} document (the stock page reads the CapacityScheduler's
 * queues, which capsched has not): the cluster metrics, the queue tree with its usage bars
 * (per partition when labelled nodes are active), each leaf's status table and its
 * "Active Users Info", then the applications table; the same markup, styles and jsTree script.
 * What it leaves out, the "Dump scheduler logs" button (the CS-only REST path it calls answers
 * 404 under capsched) and the scheduler health tables (the CapacityScheduler's SchedulerHealth
 * counters), is said in docs/HADOOP.md.
 */
public class CapschedSchedulerPage extends RmView {
    static final String _Q = ".ui-state-default.ui-corner-all";
    static final float Q_MAX_WIDTH = 0.8f;
    static final float Q_STATS_POS = Q_MAX_WIDTH + 0.05f;
    static final String Q_GIVEN = "left:0%;background:none;border:1px dashed #BFBFBF";
    static final String Q_AUTO_CREATED = "background:#F4F0CB";
    static final String Q_OVER = "background:#FFA333";
    static final String Q_UNDER = "background:#5BD75B";
    static final String ACTIVE_USER = "background:#FFFF00"; // Yellow highlight

    /** What the blocks of one request share: the document, the queue being drawn, the partition. */
    @RequestScoped
    public static class QueueContext {
        JsonNode schedulerInfo;
        /** The queue whose children (or, for a leaf, whose tables) are drawn next; null for root. */
        JsonNode queue;
        /** The partition being drawn, null when the page has no partitions. */
        String label;
        boolean isExclusiveNodeLabel;
        /** capacity-scheduler.xml's keys, read once per page when a fair leaf needs one. */
        Map<String, String> settings;
        CapschedResourceScheduler scheduler;
    }

    /** A leaf's status table, as CapacitySchedulerPage's LeafQueueInfoBlock draws it. */
    public static class LeafQueueInfoBlock extends HtmlBlock {
        final QueueContext qc;
        final JsonNode lq;

        @Inject
        LeafQueueInfoBlock(ViewContext ctx, QueueContext info) {
            super(ctx);
            qc = info;
            lq = info.queue;
        }

        @Override
        protected void render(Block html) {
            String path = SchedulerDocument.text(lq, "queuePath");
            if (qc.label == null) {
                ResponseInfo ri = info("'" + path + "' Queue Status").__("Queue State:", state(lq));
                capacityInfo(ri, "");
                commonInfo(ri);
                html.__(InfoBlock.class);
                // So that this queue's rows do not carry over into the next queue's table.
                ri.clear();
            } else {
                String display = qc.label.isEmpty() ? NodeLabel.DEFAULT_NODE_LABEL_PARTITION : qc.label;
                ResponseInfo ri = info("'" + path + "' Queue Status for Partition '" + display + "'");
                capacityInfo(ri, qc.label);
                html.__(InfoBlock.class);
                ri.clear();
                ri = info("'" + path + "' Queue Status").__("Queue State:", state(lq));
                commonInfo(ri);
                html.__(InfoBlock.class);
                ri.clear();
            }
        }

        private void capacityInfo(ResponseInfo ri, String label) {
            JsonNode caps = SchedulerDocument.capacities(lq, label);
            JsonNode usage = SchedulerDocument.resources(lq, label);
            Resource used = SchedulerDocument.resourceOrNone(usage, "used");
            // The per-user AM limit when the queue has users, else the queue's AM limit.
            Resource userAmLimit = null;
            if (!SchedulerDocument.list(lq.path("users").path("user")).isEmpty()) {
                userAmLimit = SchedulerDocument.resource(usage.get("userAmLimit"));
            }
            if (userAmLimit == null) userAmLimit = SchedulerDocument.resourceOrNone(usage, "amLimit");
            Resource configuredMin = SchedulerDocument.resource(caps.get("configuredMinResource"));
            Resource configuredMax = SchedulerDocument.resource(caps.get("configuredMaxResource"));
            ri.__("Used Capacity:", appendPercent(used, SchedulerDocument.f(caps, "usedCapacity", 0) / 100))
                    .__("Configured Capacity:",
                            configuredMin == null ? Resources.none().toString() : configuredMin.toString())
                    .__("Configured Max Capacity:",
                            configuredMax == null || configuredMax.equals(Resources.none()) ? "unlimited"
                                    : configuredMax.toString())
                    .__("Effective Capacity:", appendPercent(SchedulerDocument.resource(caps.get("effectiveMinResource")),
                            SchedulerDocument.f(caps, "capacity", 0) / 100))
                    .__("Effective Max Capacity:",
                            appendPercent(SchedulerDocument.resource(caps.get("effectiveMaxResource")),
                                    SchedulerDocument.f(caps, "maxCapacity", 100) / 100))
                    .__("Absolute Used Capacity:", percent(SchedulerDocument.f(caps, "absoluteUsedCapacity", 0) / 100))
                    .__("Absolute Configured Capacity:", percent(SchedulerDocument.f(caps, "absoluteCapacity", 0) / 100))
                    .__("Absolute Configured Max Capacity:",
                            percent(SchedulerDocument.f(caps, "absoluteMaxCapacity", 100) / 100))
                    .__("Used Resources:", used.toString())
                    .__("Configured Max Application Master Limit:",
                            StringUtils.format("%.1f", SchedulerDocument.f(caps, "maxAMLimitPercentage", 0)))
                    .__("Max Application Master Resources:", SchedulerDocument.resourceOrNone(usage, "amLimit").toString())
                    .__("Used Application Master Resources:", SchedulerDocument.resourceOrNone(usage, "amUsed").toString())
                    .__("Max Application Master Resources Per User:", userAmLimit.toString());
        }

        private void commonInfo(ResponseInfo ri) {
            String defaultLabel = SchedulerDocument.text(lq, "defaultNodeLabelExpression");
            List<String> labels = new ArrayList<String>();
            for (JsonNode l : SchedulerDocument.list(lq.path("nodeLabels"))) labels.add(l.asText());
            ri.__("Num Schedulable Applications:", Integer.toString(SchedulerDocument.i(lq, "numActiveApplications")))
                    .__("Num Non-Schedulable Applications:",
                            Integer.toString(SchedulerDocument.i(lq, "numPendingApplications")))
                    .__("Num Containers:", Integer.toString(SchedulerDocument.i(lq, "numContainers")))
                    .__("Max Applications:", Integer.toString(SchedulerDocument.i(lq, "maxApplications")))
                    .__("Max Applications Per User:", Integer.toString(SchedulerDocument.i(lq, "maxApplicationsPerUser")))
                    .__("Configured Minimum User Limit Percent:", SchedulerDocument.i(lq, "userLimit") + "%")
                    .__("Configured User Limit Factor:", SchedulerDocument.f(lq, "userLimitFactor", 0))
                    .__("Accessible Node Labels:", StringUtils.join(",", labels))
                    .__("Ordering Policy: ", orderingPolicy(qc, lq))
                    .__("Preemption:", lq.path("preemptionDisabled").asBoolean() ? "disabled" : "enabled")
                    .__("Intra-queue Preemption:",
                            lq.path("intraQueuePreemptionDisabled").asBoolean() ? "disabled" : "enabled")
                    .__("Default Node Label Expression:",
                            defaultLabel == null ? NodeLabel.DEFAULT_NODE_LABEL_PARTITION : defaultLabel)
                    .__("Default Application Priority:", Integer.toString(SchedulerDocument.i(lq, "defaultPriority")));
        }
    }

    /** A leaf's "Active Users Info", as CapacitySchedulerPage's QueueUsersInfoBlock draws it. */
    public static class QueueUsersInfoBlock extends HtmlBlock {
        final JsonNode lq;
        final String label;

        @Inject
        QueueUsersInfoBlock(ViewContext ctx, QueueContext info) {
            super(ctx);
            lq = info.queue;
            label = info.label;
        }

        @Override
        protected void render(Block html) {
            TBODY<TABLE<Hamlet>> tbody = html.table("#userinfo").thead().$class("ui-widget-header").tr()
                    .th().$class("ui-state-default").__("User Name").__()
                    .th().$class("ui-state-default").__("Max Resource").__()
                    .th().$class("ui-state-default").__("Weight").__()
                    .th().$class("ui-state-default").__("Used Resource").__()
                    .th().$class("ui-state-default").__("Max AM Resource").__()
                    .th().$class("ui-state-default").__("Used AM Resource").__()
                    .th().$class("ui-state-default").__("Schedulable Apps").__()
                    .th().$class("ui-state-default").__("Non-Schedulable Apps").__().__().__()
                    .tbody();
            JsonNode queueUsage = SchedulerDocument.resources(lq, label == null ? "" : label);
            for (JsonNode user : SchedulerDocument.list(lq.path("users").path("user"))) {
                Resource used = SchedulerDocument.resourceOrNone(user, "resourcesUsed");
                // The queue's per-user AM limit (its AM limit when it has none), times the weight.
                Resource amLimit = SchedulerDocument.resource(queueUsage.get("userAmLimit"));
                if (amLimit == null) amLimit = SchedulerDocument.resourceOrNone(queueUsage, "amLimit");
                float weight = SchedulerDocument.f(user, "userWeight", 0);
                if (weight != 1.0) amLimit = Resources.multiply(amLimit, weight);
                if (label != null) used = SchedulerDocument.resourceOrNone(SchedulerDocument.resources(user, label), "used");
                tbody.tr().$style(user.path("isActive").asBoolean() ? ACTIVE_USER : null)
                        .td(user.path("username").asText())
                        .td(SchedulerDocument.resourceOrNone(user, "userResourceLimit").toString())
                        .td(String.valueOf(weight))
                        .td(used.toString())
                        .td(amLimit.toString())
                        .td(SchedulerDocument.resourceOrNone(user, "AMResourceUsed").toString())
                        .td(Integer.toString(SchedulerDocument.i(user, "numActiveApplications")))
                        .td(Integer.toString(SchedulerDocument.i(user, "numPendingApplications"))).__();
            }
            html.div().$class("usersinfo").h5("Active Users Info").__();
            tbody.__().__();
        }
    }

    /** The children of the context's queue (root's when none), each a bar and its details. */
    public static class QueueBlock extends HtmlBlock {
        final QueueContext qc;

        @Inject
        QueueBlock(QueueContext info) {
            qc = info;
        }

        @Override
        public void render(Block html) {
            List<JsonNode> subQueues = SchedulerDocument.children(qc.queue == null ? qc.schedulerInfo : qc.queue);
            UL<Hamlet> ul = html.ul("#pq");
            for (JsonNode q : subQueues) {
                String nodeLabel = qc.label == null ? "" : qc.label;
                List<String> labels = new ArrayList<String>();
                for (JsonNode l : SchedulerDocument.list(q.path("nodeLabels"))) labels.add(l.asText());
                // The default partition is every queue's; an exclusive one only the queues given it.
                if (!nodeLabel.isEmpty() && qc.isExclusiveNodeLabel && !labels.contains("*")
                        && !labels.contains(nodeLabel)) {
                    continue;
                }
                JsonNode caps = SchedulerDocument.capacities(q, nodeLabel);
                float used = SchedulerDocument.f(caps, "usedCapacity", 0) / 100;
                float absCap = SchedulerDocument.f(caps, "absoluteCapacity", 0) / 100;
                float absMaxCap = SchedulerDocument.f(caps, "absoluteMaxCapacity", 100) / 100;
                float absUsedCap = SchedulerDocument.f(caps, "absoluteUsedCapacity", 0) / 100;
                boolean leaf = SchedulerDocument.isLeaf(q);
                boolean autoCreated = leaf && q.path("isAutoCreatedLeafQueue").asBoolean();
                float capPercent = absMaxCap == 0 ? 0 : absCap / absMaxCap;
                float usedCapPercent = absMaxCap == 0 ? 0 : absUsedCap / absMaxCap;
                String qWidth = width(absMaxCap * Q_MAX_WIDTH);
                LI<UL<Hamlet>> li = ul.li()
                        .a(_Q).$style(autoCreated ? join(Q_AUTO_CREATED, ";", qWidth) : qWidth)
                        .$title(join("Absolute Capacity:", percent(absCap)))
                        .span().$style(join(Q_GIVEN, ";font-size:1px;", width(capPercent))).__('.').__()
                        .span().$style(join(width(usedCapPercent), ";font-size:1px;left:0%;",
                                absUsedCap > absCap ? Q_OVER : Q_UNDER)).__('.').__()
                        .span(".q", SchedulerDocument.text(q, "queuePath")).__()
                        .span().$class("qstats").$style(left(Q_STATS_POS)).__(join(percent(used), " used")).__();
                qc.queue = q;
                if (leaf) {
                    li.ul("#lq").li().__(LeafQueueInfoBlock.class).__().__();
                    li.ul("#lq").li().__(QueueUsersInfoBlock.class).__().__();
                } else {
                    li.__(QueueBlock.class);
                }
                li.__();
            }
            ul.__();
        }
    }

    /** The page's content: the cluster metrics, the queues, the applications. */
    public static class QueuesBlock extends HtmlBlock {
        private final ResourceManager rm;
        private final QueueContext qc;

        @Inject
        QueuesBlock(ResourceManager rm, QueueContext info, ViewContext ctx) {
            super(ctx);
            this.rm = rm;
            this.qc = info;
        }

        @Override
        protected void render(Block html) {
            html.__(MetricsOverviewTable.class);
            ResourceScheduler scheduler = rm.getResourceScheduler();
            JsonNode info = null;
            String failure = null;
            if (scheduler instanceof CapschedResourceScheduler) {
                try {
                    info = SchedulerDocument.schedulerInfo(((CapschedResourceScheduler) scheduler).schedulerJson());
                } catch (IOException | RuntimeException e) {
                    failure = "capsched's scheduler document could not be read: " + e.getMessage();
                }
            } else {
                failure = "This page shows capsched's queues; this ResourceManager runs " + scheduler.getClass().getName();
            }
            if (info == null) {
                html.p().__(failure).__();
                html.__(RMAppsBlock.class);
                return;
            }
            qc.schedulerInfo = info;
            qc.scheduler = (CapschedResourceScheduler) scheduler;
            UL<DIV<DIV<Hamlet>>> ul = html.div("#cs-wrapper.ui-widget")
                    .div(".ui-widget-header.ui-corner-top").__("Application Queues").__()
                    .div("#cs.ui-widget-content.ui-corner-bottom").ul();
            ul.li().$style("margin-bottom: 1em")
                    .span().$style("font-weight: bold").__("Legend:").__()
                    .span().$class("qlegend ui-corner-all").$style(Q_GIVEN).__("Capacity").__()
                    .span().$class("qlegend ui-corner-all").$style(Q_UNDER).__("Used").__()
                    .span().$class("qlegend ui-corner-all").$style(Q_OVER).__("Used (over capacity)").__()
                    .span().$class("qlegend ui-corner-all ui-state-default").__("Max Capacity").__()
                    .span().$class("qlegend ui-corner-all").$style(ACTIVE_USER).__("Users Requesting Resources").__()
                    .span().$class("qlegend ui-corner-all").$style(Q_AUTO_CREATED).__("Auto Created Queues").__()
                    .__();
            List<RMNodeLabel> nodeLabels = nodeLabels();
            boolean anyLabelOnANode = false;
            for (RMNodeLabel label : nodeLabels) {
                if (!label.getLabelName().isEmpty() && label.getNumActiveNMs() > 0) {
                    anyLabelOnANode = true;
                    break;
                }
            }
            if (!anyLabelOnANode) {
                // No labelled node: one tree, the default partition's.
                bar(ul.li(), "root", SchedulerDocument.f(info, "usedCapacity", 0) / 100).__(QueueBlock.class).__();
            } else {
                for (RMNodeLabel label : nodeLabels) {
                    qc.queue = null;
                    qc.label = label.getLabelName();
                    qc.isExclusiveNodeLabel = label.getIsExclusive();
                    String display = qc.label.isEmpty() ? NodeLabel.DEFAULT_NODE_LABEL_PARTITION : qc.label;
                    float used = SchedulerDocument.f(SchedulerDocument.capacities(info, qc.label), "usedCapacity", 0) / 100;
                    bar(ul.li(), "Partition: " + display + " " + label.getResource(), used).__();
                    // The queue tree under the partition.
                    bar(html.ul("#pq").li(), "root", used).__(QueueBlock.class).__().__();
                }
            }
            ul.__().__().script().$type("text/javascript").__("$('#cs').hide();").__().__().__(RMAppsBlock.class);
        }

        /** A full-width bar (root's, a partition's): `name` and its used fraction. */
        private static <T extends HamletSpec.__> LI<T> bar(LI<T> li, String name, float used) {
            return li.a(_Q).$style(width(Q_MAX_WIDTH))
                    .span().$style(join(width(used), ";left:0%;", used > 1 ? Q_OVER : Q_UNDER)).__(".").__()
                    .span(".q", name).__()
                    .span().$class("qstats").$style(left(Q_STATS_POS)).__(join(percent(used), " used")).__();
        }

        /** The label manager's partitions ("" the default), none when it has none. */
        private List<RMNodeLabel> nodeLabels() {
            RMNodeLabelsManager manager = rm.getRMContext().getNodeLabelManager();
            List<RMNodeLabel> labels = manager == null ? null : manager.pullRMNodeLabelsInfo();
            return labels == null ? Collections.<RMNodeLabel>emptyList() : labels;
        }
    }

    /** The stock page's reopen-queues script (its package-private SchedulerPageUtil.QueueBlockUtil). */
    static final Class<? extends SubView> QUEUE_BLOCK_UTIL = queueBlockUtil();

    private static Class<? extends SubView> queueBlockUtil() {
        try {
            return Class.forName("org.apache.hadoop.yarn.server.resourcemanager.webapp.SchedulerPageUtil$QueueBlockUtil")
                    .asSubclass(SubView.class);
        } catch (ClassNotFoundException | ClassCastException e) {
            return NoReopen.class;
        }
    }

    /** Where the RM has no QueueBlockUtil: the tree opens without restoring the queues the URL names. */
    public static class NoReopen extends HtmlBlock {
        @Override
        protected void render(Block html) {
            html.script().$type("text/javascript").__("function reopenQueryNodes() {}").__();
        }
    }

    @Override
    protected void postHead(Page.HTML<__> html) {
        html.style().$type("text/css")
                .__("#cs { padding: 0.5em 0 1em 0; margin-bottom: 1em; position: relative }",
                        "#cs ul { list-style: none }",
                        "#cs a { font-weight: normal; margin: 2px; position: relative }",
                        "#cs a span { font-weight: normal; font-size: 80% }",
                        "#cs-wrapper .ui-widget-header { padding: 0.2em 0.5em }",
                        ".qstats { font-weight: normal; font-size: 80%; position: absolute }",
                        ".qlegend { font-weight: normal; padding: 0 1em; margin: 1em }",
                        "table.info tr th {width: 50%}").__() // to center info table
                .script("/static/jt/jquery.jstree.js")
                .script().$type("text/javascript")
                .__("$(function() {",
                        "  $('#cs a span').addClass('ui-corner-all').css('position', 'absolute');",
                        "  $('#cs').bind('loaded.jstree', function (e, data) {",
                        "    var callback = { call:reopenQueryNodes }",
                        "    data.inst.open_node('#pq', callback);",
                        "   }).",
                        "    jstree({",
                        "    core: { animation: 188, html_titles: true },",
                        "    plugins: ['themeroller', 'html_data', 'ui'],",
                        "    themeroller: { item_open: 'ui-icon-minus',",
                        "      item_clsd: 'ui-icon-plus', item_leaf: 'ui-icon-gear'",
                        "    }",
                        "  });",
                        "  $('#cs').bind('select_node.jstree', function(e, data) {",
                        "    var queues = $('.q', data.rslt.obj);",
                        "    var q = '^' + queues.first().text();",
                        "    q += queues.length == 1 ? '$' : '\\\\.';",
                        "    $('#apps').dataTable().fnFilter(q, 4, true);",
                        "  });",
                        "  $('#cs').show();",
                        "});").__()
                .__(QUEUE_BLOCK_UTIL);
    }

    @Override
    protected Class<? extends SubView> content() {
        return QueuesBlock.class;
    }

    /** A leaf's state; capsched's document has it for every queue. */
    static String state(JsonNode q) {
        return SchedulerDocument.text(q, "state");
    }

    /**
     * The leaf's ordering policy as its OrderingPolicy's getInfo() names it (the document has
     * the configuration name only; the fair policy's size-based weight is read from
     * capacity-scheduler.xml, as FairOrderingPolicy.configure reads it).
     */
    static String orderingPolicy(QueueContext qc, JsonNode lq) {
        String name = SchedulerDocument.text(lq, "orderingPolicyInfo");
        if ("fifo".equals(name)) return "FifoOrderingPolicy";
        if ("fifo-with-partitions".equals(name)) return "FifoOrderingPolicyWithExclusivePartitions";
        if ("fifo-for-pending-apps".equals(name)) return "FifoOrderingPolicyForPendingApps";
        if ("fair".equals(name)) {
            if (qc.settings == null) qc.settings = CapschedResourceScheduler.pairs(qc.scheduler.getConfig());
            String sizeBased = qc.settings.get("yarn.scheduler.capacity." + SchedulerDocument.text(lq, "queuePath")
                    + ".ordering-policy.fair.enable-size-based-weight");
            return "FairOrderingPolicy" + (Boolean.parseBoolean(sizeBased) ? " with sizeBasedWeight" : "");
        }
        return name;
    }

    static String appendPercent(Resource r, float f) {
        return r == null ? "" : r + " (" + StringUtils.formatPercent(f, 1) + ")";
    }

    static String percent(float f) {
        return StringUtils.formatPercent(f, 1);
    }

    static String width(float f) {
        return StringUtils.format("width:%.1f%%", f * 100);
    }

    static String left(float f) {
        return StringUtils.format("left:%.1f%%", f * 100);
    }
}
