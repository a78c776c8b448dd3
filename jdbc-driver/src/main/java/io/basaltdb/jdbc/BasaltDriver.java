package io.basaltdb.jdbc;

import io.basaltdb.engine.Database;
import io.basaltdb.sql.BasaltConnections;
import io.basaltdb.sql.ConnectionProperty;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * The embedded Basalt JDBC driver ({@code jdbc:basalt:<dir>}, {@code jdbc:basalt:mem:<name>};
 * see {@link BasaltUrl}). Connections of a process to one location share one open database
 * ({@link Databases}); each is a Calcite connection with Basalt's schema, parser and planner
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
    if (!BasaltUrl.accepts(url)) {
      return null; // the JDBC contract: not ours
    }
    BasaltUrl parsed = BasaltUrl.parse(url, info);
    Database db = Databases.acquire(parsed);
    try {
      return releasing(BasaltConnections.open(db, parsed.properties()), db, url);
    } catch (SQLException | RuntimeException e) {
      Databases.release(db);
      throw e instanceof SQLException s ? s : io.basaltdb.sql.SqlErrors.toSqlException(e);
    }
  }

  /**
   * The connection, whose first close also releases its hold on the database, and whose
   * statements and result sets report errors with Basalt's SQLStates ({@link SqlStates}).
   */
  private static Connection releasing(Connection c, Database db, String url) {
    AtomicBoolean closed = new AtomicBoolean();
    return SqlStates.wrap(c, Connection.class, (method, args) -> {
      if (method.getName().equals("close") && method.getParameterCount() == 0) {
        try {
          c.close();
        } finally {
          if (closed.compareAndSet(false, true)) {
            Databases.release(db);
          }
        }
        return Optional.of(Void.TYPE);
      }
      if (method.getName().equals("isClosed") && method.getParameterCount() == 0) {
        return Optional.of(closed.get() || c.isClosed());
      }
      if (method.getName().equals("getMetaData") && method.getParameterCount() == 0) {
        java.sql.DatabaseMetaData md = c.getMetaData();
        return Optional.of(SqlStates.wrap(md, java.sql.DatabaseMetaData.class, (m, a) -> {
          if (m.getName().equals("getPrimaryKeys") && a != null && a.length == 3) {
            return Optional.of(PrimaryKeys.of(c, db, (String) a[1], (String) a[2]));
          }
          if (m.getName().equals("getURL") && m.getParameterCount() == 0) {
            return Optional.of(url);
          }
          if (m.getName().equals("supportsMixedCaseQuotedIdentifiers")) {
            return Optional.of(true); // quoted identifiers are exact
          }
          return Optional.empty();
        }));
      }
      return Optional.empty();
    });
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
