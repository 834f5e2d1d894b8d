package dev.weir.flink;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/** The local MiniCluster both mains use: one TaskManager, its REST API on a free port of 127.0.0.1. */
final class LocalCluster {
  private LocalCluster() {}

  /** Starts it (closed by a shutdown hook when the JVM ends). */
  static MiniCluster start(int slots) throws Exception {
    Configuration conf = new Configuration();
    conf.setString("rest.bind-address", "127.0.0.1");
    conf.setString("rest.address", "127.0.0.1");
    conf.setString("rest.bind-port", "0");
    // The REST view caches a job's graph for web.refresh-interval (3 s by default) and running
    // tasks' metrics for metrics.fetcher.update-interval (10 s): fresher for live progress.
    conf.setString("web.refresh-interval", "200 ms");
    conf.setString("metrics.fetcher.update-interval", "1 s");
    MiniCluster cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build());
    cluster.start();
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::closeAsync));
    return cluster;
  }
}
