package io.basaltdb.jdbc;

import io.basaltdb.sql.SqlStates;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * JDBC savepoints over {@code jdbc:basalt:remote:}: Avatica's client and protocol have none
 * (Spring's nested transactions refused "savepoints are not supported"), while Basalt's SQL has
 * {@code SAVEPOINT s}, {@code ROLLBACK TO SAVEPOINT s} and {@code RELEASE SAVEPOINT s}, which
 * act on the server connection's transaction as JDBC's calls do embedded. A named savepoint
 * keeps its name exactly (sent quoted); an unnamed one is named by a per-connection counter.
 */
final class RemoteSavepoints {
  private final Connection c;
  private final AtomicInteger unnamed = new AtomicInteger();

  RemoteSavepoints(Connection c) {
    this.c = c;
  }

  /** The answer to a savepoint call, else {@link RemoteConnections#NOT_MINE}. */
  Object answer(Method m, Object[] a) throws SQLException {
    switch (m.getName()) {
      case "setSavepoint" -> {
        if (a != null && a.length == 1) {
          if (a[0] == null) {
            throw new SQLException("a savepoint's name is null", SqlStates.INVALID_SAVEPOINT);
          }
          return set(new Point(0, (String) a[0]));
        }
        int id = unnamed.incrementAndGet();
        return set(new Point(id, "_BASALT_SAVEPOINT_" + id));
      }
      case "rollback" -> {
        if (a != null && a.length == 1) {
          run("ROLLBACK TO SAVEPOINT " + of(a[0]).quoted());
          return null;
        }
        return RemoteConnections.NOT_MINE;
      }
      case "releaseSavepoint" -> {
        run("RELEASE SAVEPOINT " + of(a[0]).quoted());
        return null;
      }
      default -> {
        return RemoteConnections.NOT_MINE;
      }
    }
  }

  private Point set(Point p) throws SQLException {
    run("SAVEPOINT " + p.quoted());
    return p;
  }

  private void run(String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static Point of(Object savepoint) throws SQLException {
    if (savepoint instanceof Point p) {
      return p;
    }
    throw new SQLException("not a savepoint of this connection: " + savepoint,
        SqlStates.INVALID_SAVEPOINT);
  }

  /** A savepoint: its id (0 for a named one) and its name in the transaction. */
  private record Point(int id, String name) implements Savepoint {
    String quoted() {
      return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    @Override
    public int getSavepointId() throws SQLException {
      if (id == 0) {
        throw new SQLException("savepoint " + name + " is named", SqlStates.INVALID_SAVEPOINT);
      }
      return id;
    }

    @Override
    public String getSavepointName() throws SQLException {
      if (id != 0) {
        throw new SQLException("savepoint " + id + " is unnamed", SqlStates.INVALID_SAVEPOINT);
      }
      return name;
    }
  }
}
