package org.capsched.yarn;

import static org.junit.Assert.assertTrue;

import java.io.File;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.applications.distributedshell.ApplicationMaster;
import org.apache.hadoop.yarn.applications.distributedshell.Client;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.junit.Test;

/**
 * A real YARN: a MiniYARNCluster (a ResourceManager and two NodeManagers launching real
 * processes) scheduled by capsched runs YARN's distributed shell to success — its AM in a
 * container capsched placed, then its shell commands in the containers the AM asked for.
 */
public class DistributedShellTest {
    static boolean runDistributedShell(String scheduler) throws Exception {
        CapacitySchedulerConfiguration queues = new CapacitySchedulerConfiguration();
        queues.set("yarn.scheduler.capacity.root.queues", "a,b");
        queues.set("yarn.scheduler.capacity.root.a.capacity", "30");
        queues.set("yarn.scheduler.capacity.root.b.capacity", "70");
        queues.set("yarn.scheduler.capacity.root.a.maximum-allocation-mb", "2048");
        YarnConfiguration conf = new YarnConfiguration(queues);
        conf.set(YarnConfiguration.RM_SCHEDULER, scheduler);
        // The local file system, whatever the distribution's core-site.xml says.
        conf.set("fs.defaultFS", "file:///");
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
        conf.set(YarnConfiguration.NM_AUX_SERVICES, "");
        conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
        conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
        conf.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
        File logs = Files.createTempDirectory("capsched-ds").toFile();
        conf.set("yarn.log.dir", logs.getAbsolutePath());
        // Java 17 needs Hadoop's --add-opens in the AM's JVM too: JAVA_TOOL_OPTIONS passes to
        // the containers.
        conf.set(YarnConfiguration.NM_ENV_WHITELIST,
                conf.get(YarnConfiguration.NM_ENV_WHITELIST, "") + ",JAVA_TOOL_OPTIONS");
        MiniYARNCluster cluster = new MiniYARNCluster("capsched-ds", 1, 2, 1, 1);
        try {
            cluster.init(conf);
            cluster.start();
            // The AM runs with this JVM's classpath (a mini cluster's): it finds the RM's
            // addresses in the yarn-site.xml written to the first directory on it.
            String confDir = System.getProperty("capsched.conf.dir");
            try (java.io.OutputStream out = new java.io.FileOutputStream(new File(confDir, "yarn-site.xml"))) {
                cluster.getConfig().writeXml(out);
            }
            Configuration client = new Configuration(cluster.getConfig());
            String jar = new File(ApplicationMaster.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .getAbsolutePath();
            // An AM above a's maximum allocation: refused at submission with YARN's words, and
            // the RM goes on (under capsched it used to exit on APP_ATTEMPT_ADDED).
            Client tooBig = new Client(new Configuration(client));
            assertTrue(tooBig.init(new String[] {"--jar", jar, "--num_containers", "1", "--shell_command", "echo",
                "--master_memory", "3072", "--queue", "a", "--timeout", "60000"}));
            try {
                tooBig.run();
                org.junit.Assert.fail("a 3072 MB AM accepted in a");
            } catch (org.apache.hadoop.yarn.exceptions.YarnException e) {
                assertTrue(e.toString(), e.getMessage().contains("maximum allowed allocation=<memory:2048"));
            }
            assertTrue(cluster.getResourceManager().getServiceState() == org.apache.hadoop.service.Service.STATE.STARTED);
            Client ds = new Client(client);
            boolean init = ds.init(new String[] {"--jar", jar, "--num_containers", "2", "--shell_command", "echo",
                "--shell_args", "hello from capsched", "--master_memory", "512", "--master_vcores", "1",
                "--container_memory", "128", "--container_vcores", "1", "--queue", "b", "--timeout", "120000"});
            assertTrue(init);
            return ds.run();
        } finally {
            cluster.stop();
        }
    }

    @Test
    public void theDistributedShellRunsToSuccessUnderCapsched() throws Exception {
        assertTrue("the distributed shell failed under capsched",
                runDistributedShell(CapschedResourceScheduler.class.getName()));
    }
}
