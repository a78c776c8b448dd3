package io.basaltdb.hbase.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;

/**
 * An in-process HBase cluster for trying Basalt over HBase and for its tests: a ZooKeeper, one
 * master and one region server in this JVM, on the local file system (no HDFS), RPC and
 * ZooKeeper on 127.0.0.1, no web UIs. Data under {@code dataDir}, kept: a restart on it serves
 * the same tables. {@link #jdbcUrl()} is the URL Basalt's driver connects with.
 */
public final class LocalHBase implements AutoCloseable {
  private final MiniZooKeeperCluster zookeeper;
  private final MiniHBaseCluster hbase;
  private final Configuration conf;
  private Path deleteOnClose;

  private LocalHBase(MiniZooKeeperCluster zookeeper, MiniHBaseCluster hbase, Configuration conf) {
    this.zookeeper = zookeeper;
    this.hbase = hbase;
    this.conf = conf;
  }

  /** Starts a cluster in a new temporary directory, deleted when it closes (for tests). */
  public static LocalHBase startTemporary() throws IOException {
    Path dir = Files.createTempDirectory("basalt-hbase");
    LocalHBase h = start(dir);
    h.deleteOnClose = dir;
    return h;
  }

  /** Starts a cluster keeping its data in {@code dataDir} (created if absent). */
  public static LocalHBase start(Path dataDir) throws IOException {
    return start(dataDir, false);
  }

  /**
   * Starts a cluster keeping its data in {@code dataDir}; {@code aggregateEndpoint}: every
   * table's regions load HBase's aggregation endpoint ({@code AggregateImplementation}), as a
   * cluster's operator sets {@code hbase.coprocessor.user.region.classes}, so Basalt's
   * aggregates run on the region server.
   */
  public static LocalHBase start(Path dataDir, boolean aggregateEndpoint) throws IOException {
    System.setProperty("zookeeper.admin.enableServer", "false");
    Path dir = dataDir.toAbsolutePath();
    Files.createDirectories(dir);
    Configuration conf = HBaseConfiguration.create();
    conf.set("fs.defaultFS", "file:///");
    conf.set("hbase.rootdir", dir.resolve("hbase").toUri().toString());
    conf.set("hbase.tmp.dir", dir.resolve("tmp").toString());
    conf.set("hbase.wal.provider", "filesystem");
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.set("hbase.master.ipc.address", "127.0.0.1");
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.setInt("hbase.master.port", 0);
    conf.setInt("hbase.regionserver.port", 0);
    // HBase's own LZ4 codec over lz4-java (the shaded jar's default codec is not in it)
    conf.set("hbase.io.compress.lz4.codec", "org.apache.hadoop.hbase.io.compress.lz4.Lz4Codec");
    org.apache.hadoop.hbase.io.compress.Compression.Algorithm.LZ4.reload(conf); // read at load
    if (aggregateEndpoint) {
      conf.set("hbase.coprocessor.user.region.classes",
          "org.apache.hadoop.hbase.coprocessor.AggregateImplementation");
    }
    MiniZooKeeperCluster zk = new MiniZooKeeperCluster(conf);
    try {
      int port = zk.startup(dir.resolve("zookeeper").toFile());
      conf.setInt("hbase.zookeeper.property.clientPort", port);
      MiniHBaseCluster cluster = new MiniHBaseCluster(conf, 1, 1);
      if (!cluster.waitForActiveAndReadyMaster(120_000)) {
        cluster.shutdown();
        zk.shutdown();
        throw new IOException("HBase's master did not become ready in 120 s");
      }
      return new LocalHBase(zk, cluster, conf);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      zk.shutdown();
      throw new IOException("interrupted while starting HBase", e);
    } catch (IOException | RuntimeException e) {
      zk.shutdown();
      throw e;
    }
  }

  /** The client configuration that reaches this cluster. */
  public Configuration configuration() {
    return new Configuration(conf);
  }

  /** The ZooKeeper client port. */
  public int zookeeperPort() {
    return zookeeper.getClientPort();
  }

  /** {@code jdbc:basalt:hbase:127.0.0.1:<port>:/hbase}. */
  public String jdbcUrl() {
    return "jdbc:basalt:hbase:127.0.0.1:" + zookeeperPort() + ":"
        + conf.get("zookeeper.znode.parent", "/hbase");
  }

  @Override
  public void close() throws IOException {
    try {
      hbase.shutdown();
      hbase.waitUntilShutDown();
    } finally {
      zookeeper.shutdown();
      if (deleteOnClose != null) {
        try (var files = Files.walk(deleteOnClose)) {
          files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
      }
    }
  }
}
