package org.capsched.yarn;

import com.google.inject.Inject;
import com.google.inject.Singleton;
import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.WebApplicationException;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;

/**
 * The RM's REST {@code /ws/v1/cluster/scheduler} under capsched. RMWebServices answers that
 * path only for the schedulers it knows ("Unknown scheduler configured" for any other), so the
 * RM binds this resource through {@code yarn.http.rmwebapp.external.classes}: its path is the
 * longer literal, so Jersey routes {@code /ws/v1/cluster/scheduler} here and every other
 * {@code /ws/v1/cluster/...} to RMWebServices as before. The document is capsched's own, in
 * the CapacityScheduler's shape (schedulerInfo of type capacityScheduler, its queues with
 * their capacities, usage and applications), read from the engine's live state.
 */
@Singleton
@Path("/ws/v1/cluster/scheduler")
public class CapschedWebServices {
    private final ResourceManager rm;

    @Inject
    public CapschedWebServices(ResourceManager rm) {
        this.rm = rm;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON + "; charset=utf-8")
    public String scheduler() {
        ResourceScheduler scheduler = rm.getResourceScheduler();
        if (!(scheduler instanceof CapschedResourceScheduler)) {
            // Bound with another scheduler: say so, as RMWebServices does for one it does not know.
            throw new WebApplicationException(Response.status(Response.Status.NOT_FOUND)
                    .entity("org.capsched.yarn.CapschedWebServices serves " + CapschedResourceScheduler.class.getName()
                            + " only; this ResourceManager runs " + scheduler.getClass().getName())
                    .type(MediaType.TEXT_PLAIN).build());
        }
        return ((CapschedResourceScheduler) scheduler).schedulerJson();
    }
}
