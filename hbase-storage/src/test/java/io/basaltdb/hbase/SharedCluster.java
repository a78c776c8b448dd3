package io.basaltdb.hbase;

import io.basaltdb.hbase.local.LocalHBase;
import java.io.IOException;

/**
 * The one mini cluster of this module's test run: started by the first test class that asks
 * (7-12 s here), shared by every later one in the same JVM, stopped when the JVM exits.
 */
final class SharedCluster {
  private static LocalHBase cluster;

  private SharedCluster() {}

  static synchronized LocalHBase get() throws IOException {
    if (cluster == null) {
      long t0 = System.nanoTime();
      cluster = LocalHBase.startTemporary();
      System.out.printf("HBase mini cluster up in %.1f s: %s%n", (System.nanoTime() - t0) / 1e9,
          cluster.jdbcUrl());
      LocalHBase c = cluster;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          c.close();
        } catch (IOException | RuntimeException ignored) {
          // the JVM is going away
        }
      }));
    }
    return cluster;
  }

  /** A JDBC URL of the cluster, with {@code ;key=value} properties appended. */
  static String url(String properties) throws IOException {
    return get().jdbcUrl() + properties;
  }
}
