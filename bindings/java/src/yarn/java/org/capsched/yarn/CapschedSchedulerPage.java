package org.capsched.yarn;

import com.google.inject.Inject;
import java.util.List;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.MetricsOverviewTable;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.RMAppsBlock;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.RmView;
import org.apache.hadoop.yarn.webapp.hamlet2.Hamlet;
import org.apache.hadoop.yarn.webapp.hamlet2.Hamlet.TBODY;
import org.apache.hadoop.yarn.webapp.hamlet2.Hamlet.TABLE;
import org.apache.hadoop.yarn.webapp.SubView;
import org.apache.hadoop.yarn.webapp.view.HtmlBlock;

/**
 * The RM web UI's scheduler page ({@code /cluster/scheduler}) under capsched, selected by
 * {@code yarn.http.rmwebapp.scheduler.page.class}. Without that key the RM's page fails for a
 * scheduler it does not know (RmController dereferences the unset class), so the plug-in sets
 * it when the operator has not. The page: the cluster metrics, capsched's queues (capacities,
 * usage, pending, applications), then the applications table, as the stock pages show them.
 */
public class CapschedSchedulerPage extends RmView {
    @Override
    protected Class<? extends SubView> content() {
        return QueuesBlock.class;
    }

    /** The queue table, between the cluster metrics and the applications. */
    public static class QueuesBlock extends HtmlBlock {
        private final ResourceManager rm;

        @Inject
        QueuesBlock(ResourceManager rm, ViewContext ctx) {
            super(ctx);
            this.rm = rm;
        }

        @Override
        protected void render(Block html) {
            html.__(MetricsOverviewTable.class);
            ResourceScheduler scheduler = rm.getResourceScheduler();
            if (scheduler instanceof CapschedResourceScheduler) {
                List<org.capsched.QueueInfo> queues = ((CapschedResourceScheduler) scheduler).engineQueues();
                TBODY<TABLE<Hamlet>> rows = html.table("#capsched-queues").thead().tr()
                        .th("Queue").th("Absolute capacity").th("Absolute max capacity").th("Used")
                        .th("Pending").th("Reserved").th("Applications").__().__().tbody();
                for (org.capsched.QueueInfo q : queues) {
                    rows.tr().td(q.path).td(percent(q.absoluteCapacity)).td(percent(q.absoluteMaximumCapacity))
                            .td(resource(q.used)).td(resource(q.pending)).td(resource(q.reserved))
                            .td(String.valueOf(q.numApplications)).__();
                }
                rows.__().__();
            } else {
                html.p().__("This page shows capsched's queues; this ResourceManager runs "
                        + scheduler.getClass().getName()).__();
            }
            html.__(RMAppsBlock.class);
        }

        private static String percent(float f) {
            return String.format("%.1f%%", f * 100);
        }

        private static String resource(org.capsched.Resource r) {
            return "<memory:" + r.memoryMb + ", vCores:" + r.vcores + ">";
        }
    }
}
