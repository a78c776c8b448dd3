package io.basaltdb.phoenixbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;

/**
 * The HBase 2.6.1 cluster the three clients share: ZooKeeper, one master and one region server
 * in this JVM on the local file system, configured as {@code bin/basalt hbase-local}'s (RPC and
 * ZooKeeper on 127.0.0.1, no web UIs, HBase's LZ4 codec over lz4-java), with Phoenix's
 * server-side classes on the region server's classpath. Its data lives in a temporary
 * directory deleted on close.
 */
final class MiniCluster implements AutoCloseable {
  private final Path dir;
  private final MiniZooKeeperCluster zookeeper;
  private final MiniHBaseCluster hbase;

  private MiniCluster(Path dir, MiniZooKeeperCluster zookeeper, MiniHBaseCluster hbase) {
    this.dir = dir;
    this.zookeeper = zookeeper;
    this.hbase = hbase;
  }

  /** {@code aggregateEndpoint}: every table's regions load HBase's AggregateImplementation. */
  static MiniCluster start(boolean aggregateEndpoint) throws IOException, InterruptedException {
    System.setProperty("zookeeper.admin.enableServer", "false");
    Path dir = Files.createTempDirectory("basalt-phoenix-bench");
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
    conf.set("hbase.io.compress.lz4.codec", "org.apache.hadoop.hbase.io.compress.lz4.Lz4Codec");
    Compression.Algorithm.LZ4.reload(conf); // Basalt's tables ask for LZ4
    // Phoenix's mutable global indexes need its WAL codec on every region server (ERROR 1029)
    conf.set("hbase.regionserver.wal.codec",
        "org.apache.hadoop.hbase.regionserver.wal.IndexedWALEditCodec");
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
        throw new IOException("HBase's master did not become ready in 120 s");
      }
      return new MiniCluster(dir, zk, cluster);
    } catch (IOException | InterruptedException | RuntimeException e) {
      zk.shutdown();
      throw e;
    }
  }

  /** Flushes every region's memstore to files. */
  void flushAll() throws IOException {
    hbase.flushcache();
  }

  int zookeeperPort() {
    return zookeeper.getClientPort();
  }

  @Override
  public void close() throws IOException {
    try {
      hbase.shutdown();
      hbase.waitUntilShutDown();
    } finally {
      zookeeper.shutdown();
      try (var files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
