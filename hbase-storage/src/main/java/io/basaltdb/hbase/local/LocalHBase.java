package io.basaltdb.hbase.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;

/**
 * An in-process HBase cluster for trying Basalt over HBase and for its tests: a ZooKeeper, one
 * master and one region server in this JVM, on the local file system (no HDFS), RPC and
 * ZooKeeper on 127.0.0.1, no web UIs. Data under {@code dataDir} (kept when given, so a restart
 * on it serves the same tables). {@link #jdbcUrl()} is the URL Basalt's driver connects with.
 */
public final class LocalHBase implements AutoCloseable {
  private final HBaseTestingUtility util;

  private LocalHBase(HBaseTestingUtility util) {
    this.util = util;
  }

  /** Starts a cluster keeping its data in {@code dataDir} (created if absent). */
  public static LocalHBase start(Path dataDir) throws IOException {
    System.setProperty("zookeeper.admin.enableServer", "false");
    Files.createDirectories(dataDir);
    Configuration conf = HBaseConfiguration.create();
    conf.set("fs.defaultFS", "file:///");
    conf.set("hbase.rootdir", dataDir.resolve("hbase").toUri().toString());
    conf.set("hbase.wal.provider", "filesystem");
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.set("hbase.master.ipc.address", "127.0.0.1");
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    // HBase's own LZ4 codec over lz4-java (the shaded jar's default codec is not in it)
    conf.set("hbase.io.compress.lz4.codec", "org.apache.hadoop.hbase.io.compress.lz4.Lz4Codec");
    org.apache.hadoop.hbase.io.compress.Compression.Algorithm.LZ4.reload(conf); // read at load
    conf.set("test.build.data.basedirectory", dataDir.resolve("work").toString());
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    try {
      util.startMiniZKCluster();
      util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1)
          .numRegionServers(1).createRootDir(false).build());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting HBase", e);
    } catch (Exception e) {
      throw e instanceof IOException io ? io : new IOException("cannot start HBase: " + e, e);
    }
    return new LocalHBase(util);
  }

  /** The client configuration that reaches this cluster. */
  public Configuration configuration() {
    return util.getConfiguration();
  }

  /** The ZooKeeper client port. */
  public int zookeeperPort() {
    return util.getZkCluster().getClientPort();
  }

  /** {@code jdbc:basalt:hbase:127.0.0.1:<port>:/hbase}. */
  public String jdbcUrl() {
    return "jdbc:basalt:hbase:127.0.0.1:" + zookeeperPort() + ":"
        + configuration().get("zookeeper.znode.parent", "/hbase");
  }

  @Override
  public void close() throws IOException {
    util.shutdownMiniHBaseCluster();
    util.shutdownMiniZKCluster();
  }
}
