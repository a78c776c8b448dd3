package io.basaltdb.jdbc;

import io.basaltdb.storage.Storage;
import io.basaltdb.sql.jdbc.BasaltConnections;
import io.basaltdb.sql.ConnectionProperty;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The Basalt JDBC driver ({@code jdbc:basalt:<dir>}, {@code jdbc:basalt:mem:<name>},
 * {@code jdbc:basalt:hbase:<quorum>} with the HBase backend's jar; see {@link BasaltUrl}; and
 * {@code jdbc:basalt:remote:http://HOST:PORT} to a server, {@link RemoteConnections}).
 * Connections of a process to one location share one open storage ({@link Storages}); each is a Calcite connection with Basalt's schema, parser and planner
 * rules. Connection properties: {@link ConnectionProperty}. Registered with
 * {@link DriverManager} when loaded (and through {@code META-INF/services}).
 */
public final class BasaltDriver implements Driver {
  static {
    try {
      DriverManager.registerDriver(new BasaltDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (RemoteConnections.accepts(url)) {
      return RemoteConnections.open(url, info);
    }
    if (!BasaltUrl.accepts(url)) {
      return null; // the JDBC contract: not ours
    }
    BasaltUrl parsed = BasaltUrl.parse(url, info);
    io.basaltdb.sql.jdbc.StartUp.begin(); // while the storage opens
    Storage storage = Storages.acquire(parsed);
    try {
      return BasaltConnections.open(storage, parsed.properties(), url,
          () -> Storages.release(storage));
    } catch (SQLException | RuntimeException e) {
      Storages.release(storage);
      throw e instanceof SQLException s ? s : io.basaltdb.sql.jdbc.SqlErrors.toSqlException(e);
    }
  }

  @Override
  public boolean acceptsURL(String url) {
    return BasaltUrl.accepts(url);
  }

  /**
   * Every Basalt connection property ({@link ConnectionProperty}) with its description,
   * choices and the value the URL and {@code info} give it (else its default).
   */
  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
    Properties given = BasaltUrl.accepts(url) ? BasaltUrl.parse(url, info).properties() : info;
    return java.util.Arrays.stream(ConnectionProperty.values()).map(p -> p.info(given))
        .toArray(DriverPropertyInfo[]::new);
  }

  @Override
  public int getMajorVersion() {
    return 0;
  }

  @Override
  public int getMinorVersion() {
    return 1;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("no java.util.logging here");
  }
}
