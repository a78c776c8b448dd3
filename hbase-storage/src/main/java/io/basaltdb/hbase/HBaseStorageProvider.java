package io.basaltdb.hbase;

import io.basaltdb.storage.BasaltException;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.StorageProvider;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * Opens {@code jdbc:basalt:hbase:<zookeeper quorum>[:<port>][:/<znode>]} (Phoenix's shape: the
 * quorum a comma-separated host list, the port ZooKeeper's client port, default 2181, the znode
 * HBase's parent znode, default {@code /hbase}). Connection properties named {@code hbase.*} or
 * {@code zookeeper.*} are passed to the HBase client's configuration as they are.
 */
public final class HBaseStorageProvider implements StorageProvider {
  @Override
  public String scheme() {
    return "hbase";
  }

  @Override
  public Storage open(String location, Properties properties) throws SQLException {
    Configuration conf = configuration(location, properties);
    try {
      return HBaseStorage.connect(conf, location);
    } catch (BasaltException e) {
      throw new SQLException(e.getMessage(), "08001", e);
    }
  }

  /** The client configuration of {@code location} and the hbase.* and zookeeper.* properties. */
  static Configuration configuration(String location, Properties properties)
      throws SQLException {
    String[] parts = location.split(":", -1);
    String quorum = parts[0].trim();
    String port = null;
    String znode = null;
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].trim();
      if (p.startsWith("/") && znode == null) {
        znode = p;
      } else if (!p.isEmpty() && p.chars().allMatch(Character::isDigit) && port == null
          && znode == null) {
        port = p;
      } else {
        throw new SQLException("malformed HBase location '" + location + "': expected"
            + " <zookeeper quorum>[:<port>][:/<znode>]", "08001");
      }
    }
    if (quorum.isEmpty()) {
      throw new SQLException("no ZooKeeper quorum in HBase location '" + location + "'", "08001");
    }
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", quorum);
    if (port != null) {
      conf.set("hbase.zookeeper.property.clientPort", port);
    }
    if (znode != null) {
      conf.set("zookeeper.znode.parent", znode);
    }
    // fail in seconds, not HBase's default minutes, when the cluster is not there
    conf.set("hbase.client.retries.number", "5");
    conf.set("zookeeper.recovery.retry", "1");
    for (String k : properties.stringPropertyNames()) {
      if (k.startsWith("hbase.") || k.startsWith("zookeeper.")) {
        conf.set(k, properties.getProperty(k));
      }
    }
    return conf;
  }
}
