package io.basaltdb.storage;

import java.sql.SQLException;
import java.util.Properties;

/**
 * Opens the storage of a {@code jdbc:basalt:<scheme>:<location>} URL other than the embedded
 * engine's. Found with {@link java.util.ServiceLoader} ({@code META-INF/services}), so a backend
 * (the HBase one lives in its own module and jar) plugs in by being on the class path.
 */
public interface StorageProvider {
  /** The URL scheme this provider opens, as in {@code jdbc:basalt:hbase:...}: {@code hbase}. */
  String scheme();

  /**
   * Opens the storage at {@code location} (the URL after its scheme, before its properties).
   *
   * @throws SQLException (08001 and the like) when it cannot be reached or the location is malformed
   */
  Storage open(String location, Properties properties) throws SQLException;
}
