package io.basaltdb.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} over the embedded driver, for applications and connection pools:
 * {@code setUrl("jdbc:basalt:./data")}, optional properties ({@code durability},
 * {@code readTimestamp}, ...), then {@code getConnection()}. A user and password are accepted
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

  /** A connection property, as in the URL's {@code ;key=value} (the URL's win). */
  public void setProperty(String key, String value) {
    properties.setProperty(key, value);
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
          "08001");
    }
    Connection c = DRIVER.connect(url, properties);
    if (c == null) {
      throw new SQLException("not a Basalt URL: " + url, "08001");
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
