package org.capsched.yarn;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.capsched.CapschedException;
import org.capsched.QueueStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RM's web app under capsched: which classes answer it ({@link #selectWebClasses}, at
 * init), and what they read of the scheduler: the {@code /scheduler} document
 * ({@link CapschedWebServices}, {@link CapschedSchedulerPage}) and the root's figures across
 * partitions ({@link CapschedClusterMetrics}).
 *
 * <p>It takes no lock (as before the split); it reads the engine, the queue figures
 * ({@link CapschedQueueAccess}) and the labels capsched has.
 */
final class CapschedWeb {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedResourceScheduler.class);

    private final CapschedContext ctx;
    private final CapschedResourceScheduler scheduler;

    CapschedWeb(CapschedContext ctx) {
        this.ctx = ctx;
        this.scheduler = ctx.scheduler;
    }

    /**
     * The RM's web answers for a scheduler it does not know: the REST {@code /scheduler}
     * document and the UI's scheduler page come from capsched's classes unless the operator
     * chose others. The RM reads these keys from the configuration it hands its scheduler, when
     * its web app starts (after this).
     */
    static void selectWebClasses(Configuration configuration) {
        for (Class<?> c : new Class<?>[] {CapschedWebServices.class, CapschedClusterMetrics.class}) {
            String externals = configuration.getTrimmed(YarnConfiguration.YARN_HTTP_WEBAPP_EXTERNAL_CLASSES, "");
            if (!java.util.Arrays.asList(externals.split("\\s*,\\s*")).contains(c.getName())) {
                configuration.set(YarnConfiguration.YARN_HTTP_WEBAPP_EXTERNAL_CLASSES,
                        externals.isEmpty() ? c.getName() : externals + "," + c.getName());
                LOG.info("{} serves {} ({})", c.getName(), c.getAnnotation(javax.ws.rs.Path.class).value(),
                        YarnConfiguration.YARN_HTTP_WEBAPP_EXTERNAL_CLASSES);
            }
        }
        if (configuration.get(YarnConfiguration.YARN_HTTP_WEBAPP_SCHEDULER_PAGE) == null) {
            configuration.set(YarnConfiguration.YARN_HTTP_WEBAPP_SCHEDULER_PAGE, CapschedSchedulerPage.class.getName());
        }
    }

    /** The document capsched serves for {@code /ws/v1/cluster/scheduler}. */
    String schedulerJson() {
        return ctx.engine().schedulerJson();
    }

    /** The cluster's figures over every partition, as the stock root queue keeps them. */
    static final class AcrossPartitions {
        final Resource used;
        final Resource reserved;
        final int containers;

        AcrossPartitions(Resource used, Resource reserved, int containers) {
            this.used = used;
            this.reserved = reserved;
            this.containers = containers;
        }
    }

    /**
     * What ClusterMetricsInfo reads of the stock root queue: its use and reservations in every
     * partition (capsched's), and its containers, allocated and reserved, in every partition
     * (the RM's metrics; a labelled partition's reservations are not counted, see
     * docs/HADOOP.md).
     */
    AcrossPartitions acrossPartitions() {
        QueueStatus root = ctx.queueAccess.queueStatus("root");
        Resource used = root == null ? Resources.none() : CapschedQueue.resource(root.used);
        Resource reserved = root == null ? Resources.none() : CapschedQueue.resource(root.reserved);
        QueueMetrics metrics = scheduler.getRootQueueMetrics();
        int containers = metrics.getAllocatedContainers() + metrics.getReservedContainers();
        if (ctx.labels.enabled && ctx.startedEngine() != null) {
            for (String label : ctx.labels.engineLabels) {
                try {
                    org.capsched.PartitionUsage u = ctx.engine().queuePartitionUsage("root", label);
                    used = Resources.add(used, CapschedQueue.resource(u.used));
                    reserved = Resources.add(reserved, CapschedQueue.resource(u.reserved));
                } catch (CapschedException e) {
                    ctx.goOnPast("the root's use in " + label, e);
                }
                containers += metrics.getPartitionQueueMetrics(label).getAllocatedContainers();
            }
        }
        return new AcrossPartitions(used, reserved, containers);
    }
}
