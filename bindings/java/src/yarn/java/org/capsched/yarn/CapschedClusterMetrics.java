package org.capsched.yarn;

import com.google.inject.Inject;
import com.google.inject.Singleton;
import java.lang.reflect.Field;
import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import org.apache.hadoop.yarn.server.resourcemanager.ClusterMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.ClusterMetricsInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.ResourceInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RM's REST {@code /ws/v1/cluster/metrics} under capsched, as it answers for the stock
 * scheduler. ClusterMetricsInfo does the CapacityScheduler's arithmetic only for that class
 * ({@code instanceof}): the total adds the reserved resource (root's available is the cluster
 * less what is used, reservations included), and the cross-partition figures (used, cluster,
 * reserved and containers over every partition) are filled. This resource, bound through
 * {@code yarn.http.rmwebapp.external.classes} (its path is the longer literal, so Jersey routes
 * {@code /ws/v1/cluster/metrics} here), answers the RM's own object with those figures set, so
 * its JSON and XML are the RM's own.
 */
@Singleton
@Path("/ws/v1/cluster/metrics")
public class CapschedClusterMetrics {
    private static final Logger LOG = LoggerFactory.getLogger(CapschedClusterMetrics.class);
    private final ResourceManager rm;

    @Inject
    public CapschedClusterMetrics(ResourceManager rm) {
        this.rm = rm;
    }

    @GET
    @Produces({MediaType.APPLICATION_JSON + "; charset=utf-8", MediaType.APPLICATION_XML + "; charset=utf-8"})
    public ClusterMetricsInfo metrics() {
        return of(rm.getResourceScheduler());
    }

    /** The cluster metrics as the RM states them for the stock scheduler, from `scheduler`'s. */
    static ClusterMetricsInfo of(ResourceScheduler scheduler) {
        ClusterMetricsInfo info = new ClusterMetricsInfo(scheduler);
        if (!(scheduler instanceof CapschedResourceScheduler)) return info;
        CapschedResourceScheduler s = (CapschedResourceScheduler) scheduler;
        QueueMetrics root = s.getRootQueueMetrics();
        long totalMb = root.getAvailableMB() + root.getAllocatedMB() + root.getReservedMB();
        long totalVcores = root.getAvailableVirtualCores() + root.getAllocatedVirtualCores()
                + root.getReservedVirtualCores();
        info.setTotalMB(totalMb);
        info.setTotalVirtualCores(totalVcores);
        ClusterMetrics cluster = ClusterMetrics.getMetrics();
        info.setUtilizedMBPercent(totalMb <= 0 ? 0 : (int) (cluster.getUtilizedMB() * 100 / totalMb));
        info.setUtilizedVirtualCoresPercent(
                totalVcores <= 0 ? 0 : (int) (cluster.getUtilizedVirtualCores() * 100 / totalVcores));
        CapschedWeb.AcrossPartitions across = s.acrossPartitions();
        try {
            set(info, "totalUsedResourcesAcrossPartition", new ResourceInfo(across.used));
            set(info, "totalClusterResourcesAcrossPartition", new ResourceInfo(s.getClusterResource()));
            set(info, "totalReservedResourcesAcrossPartition", new ResourceInfo(across.reserved));
            set(info, "totalAllocatedContainersAcrossPartition", across.containers);
            set(info, "crossPartitionMetricsAvailable", true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Another Hadoop's DAO: its plain figures stand.
            LOG.warn("ClusterMetricsInfo has no cross-partition fields here ({}): left out", e.toString());
        }
        return info;
    }

    private static void set(ClusterMetricsInfo info, String field, Object value) throws ReflectiveOperationException {
        Field f = ClusterMetricsInfo.class.getDeclaredField(field);
        f.setAccessible(true);
        f.set(info, value);
    }
}
