package io.basaltdb.jdbc;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.ConnectionProperty;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} over the embedded driver, for applications and connection pools:
 * {@code setUrl("jdbc:basalt:./data")}, optional properties (bean setters such as
 * {@code setDurability}, {@code setReadOnly}, or {@code setProperty}; the list is
 * {@link ConnectionProperty}), then {@code getConnection()}. A user and password are accepted
 * and ignored (an embedded database has no accounts). Thread-safe once configured.
 */
public class BasaltDataSource implements DataSource {
  private static final BasaltDriver DRIVER = new BasaltDriver();

  private volatile String url;
  private final Properties properties = new Properties();
  private volatile PrintWriter logWriter;
  private volatile int loginTimeout;

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  /**
   * A connection property, as in the URL's {@code ;key=value} (the URL's win). A Basalt
   * property ({@link ConnectionProperty}) is checked now: a bad value is an
   * {@link IllegalArgumentException} naming it.
   */
  public void setProperty(String key, String value) {
    ConnectionProperty p = ConnectionProperty.of(key);
    properties.setProperty(key, p == null ? value : checked(p, value));
  }

  private static String checked(ConnectionProperty p, String value) {
    try {
      return p.check(value);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** {@code SYNC} (default) or {@code ASYNC}: see {@link ConnectionProperty#DURABILITY}. */
  public void setDurability(String durability) {
    setProperty(ConnectionProperty.DURABILITY.camelName(), durability);
  }

  public String getDurability() {
    return ConnectionProperty.DURABILITY.valueIn(properties);
  }

  /** Connections refuse writes and DDL (25006): {@link ConnectionProperty#READ_ONLY}. */
  /** Plans the open database keeps for all its connections ({@code planCacheSize}). */
  public void setPlanCacheSize(int plans) {
    setProperty(ConnectionProperty.PLAN_CACHE_SIZE.camelName(), Integer.toString(plans));
  }

  /** Bytes one statement may hold in sorts and hash joins ({@code queryMemory}; 53200 past it). */
  public void setQueryMemory(long bytes) {
    setProperty(ConnectionProperty.QUERY_MEMORY.camelName(), Long.toString(bytes));
  }

  /** Executions of at least this long are logged ({@code slowStatementMillis}, metrics.md). */
  public void setSlowStatementMillis(long millis) {
    setProperty(ConnectionProperty.SLOW_STATEMENT_MILLIS.camelName(), Long.toString(millis));
  }

  public void setReadOnly(boolean readOnly) {
    setProperty(ConnectionProperty.READ_ONLY.camelName(), Boolean.toString(readOnly));
  }

  public boolean isReadOnly() {
    return Boolean.parseBoolean(ConnectionProperty.READ_ONLY.valueIn(properties));
  }

  /** Reads see the data as of {@code epochMillis}: {@link ConnectionProperty#READ_TIMESTAMP}. */
  public void setReadTimestamp(long epochMillis) {
    setProperty(ConnectionProperty.READ_TIMESTAMP.camelName(), Long.toString(epochMillis));
  }

  /** Cells are written at {@code epochMillis}: {@link ConnectionProperty#WRITE_TIMESTAMP}. */
  public void setWriteTimestamp(long epochMillis) {
    setProperty(ConnectionProperty.WRITE_TIMESTAMP.camelName(), Long.toString(epochMillis));
  }

  public String getProperty(String key) {
    return properties.getProperty(key);
  }

  /** Accepted for pools that set it; embedded databases have no accounts. */
  public void setUser(String user) {}

  /** Accepted for pools that set it; embedded databases have no accounts. */
  public void setPassword(String password) {}

  @Override
  public Connection getConnection() throws SQLException {
    if (url == null) {
      throw new SQLException("BasaltDataSource has no URL: call setUrl(\"jdbc:basalt:<dir>\")",
          SqlStates.UNABLE_TO_CONNECT);
    }
    Connection c = DRIVER.connect(url, properties);
    if (c == null) {
      throw new SQLException("not a Basalt URL: " + url, SqlStates.UNABLE_TO_CONNECT);
    }
    return c;
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return getConnection();
  }

  @Override
  public PrintWriter getLogWriter() {
    return logWriter;
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    logWriter = out;
  }

  @Override
  public void setLoginTimeout(int seconds) {
    loginTimeout = seconds;
  }

  @Override
  public int getLoginTimeout() {
    return loginTimeout;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("no java.util.logging here");
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("not a wrapper of " + iface.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
