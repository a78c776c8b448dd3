package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code setInt} and {@code setLong} bind without Avatica's per-call site (BasaltPreparedStatement
 * fills the parameter slot itself): what they store, what a column refuses, an index out of
 * range, a statement closed, and a value rebound are as H2 has them for the same calls.
 */
class NumberSettersTest {
  @Test
  void setIntAndSetLongAsH2() throws Exception {
    List<String> basalt;
    try (Database db = Database.openTemporary(EngineOptions.defaults())) {
      basalt = run(BasaltConnections.open(db));
    }
    List<String> h2 = run(DriverManager.getConnection("jdbc:h2:mem:numbersetters"));
    assertEquals(h2, basalt);
  }

  @Test
  void anIndexTheStatementLacksIs07009() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db);
        PreparedStatement p = c.prepareStatement("SELECT ? + 1")) {
      for (int index : new int[] {0, 2, -1}) {
        SQLException e = assertThrows(SQLException.class, () -> p.setInt(index, 1));
        assertEquals("07009", e.getSQLState(), e.getMessage());
        e = assertThrows(SQLException.class, () -> p.setString(index, "x"));
        assertEquals("07009", e.getSQLState(), e.getMessage());
      }
    }
  }

  private static List<String> run(Connection connection) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = connection; Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT PRIMARY KEY, b BIGINT, i INT, sm SMALLINT)");
      long[] values = {0, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, 70_000};
      int id = 0;
      try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?)")) {
        for (long v : values) {
          int row = ++id;
          // a value out of a column's range is refused when bound (Basalt) or run (H2)
          out.add("insert " + v + ": " + outcome(() -> {
            p.setInt(1, row);
            p.setLong(2, v);
            p.setInt(3, (int) v);
            p.setLong(4, v);
            return p.executeUpdate();
          }));
          p.clearParameters();
        }
        p.setInt(1, ++id);
        p.setLong(2, 5);
        p.setInt(3, 6);
        p.setInt(4, 7);
        p.setLong(2, 8); // rebound: the last value counts
        out.add("rebound: " + outcome(p::executeUpdate));
        out.add("index 0: " + outcome(() -> { p.setInt(0, 1); return "bound"; }));
        out.add("index 5: " + outcome(() -> { p.setLong(5, 1); return "bound"; }));
        p.close();
        out.add("closed: " + outcome(() -> { p.setInt(1, 1); return "bound"; }));
      }
      try (ResultSet r = s.executeQuery("SELECT id, b, i, sm FROM t ORDER BY id")) {
        while (r.next()) {
          out.add(r.getInt(1) + ": " + r.getLong(2) + " " + r.getInt(3) + " " + r.getShort(4));
        }
      }
    }
    return out;
  }

  private interface Call {
    Object run() throws SQLException;
  }

  /** The call's result, or "error" (H2's SQLStates are its own; each must have one). */
  private static String outcome(Call call) {
    try {
      Object r = call.run();
      return "ok " + r;
    } catch (SQLException e) {
      assertNotNull(e.getSQLState(), e.toString());
      return "error";
    }
  }
}
