package io.basaltdb.sql.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.jdbc.BasaltConnections;
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
 * {@code ALTER TABLE ... ALTER COLUMN} (SET/DROP DEFAULT, SET/DROP NOT NULL, a longer type) and
 * {@code COMMENT ON}, as DDL tools and ORMs' schema updates send them, compared with H2 running
 * the same script; a change the rows do not allow or that would rewrite them is refused and
 * changes nothing.
 */
class ColumnChangesTest {
  private static final String[] SCRIPT = {
      "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(5), n INT, d DECIMAL(5,2))",
      "INSERT INTO t VALUES (1, 'abc', 1, 1.50)",
      "INSERT INTO t VALUES (2, 'abcdefgh', 2, 1)",
      "ALTER TABLE t ALTER COLUMN v SET DATA TYPE VARCHAR(10)",
      "INSERT INTO t VALUES (2, 'abcdefgh', 2, 1)",
      "ALTER TABLE t ALTER COLUMN n SET DEFAULT 7",
      "INSERT INTO t (id, v) VALUES (3, 'x')",
      "ALTER TABLE t ALTER COLUMN n DROP DEFAULT",
      "INSERT INTO t (id, v) VALUES (4, 'y')",
      "ALTER TABLE t ALTER COLUMN n SET NOT NULL",
      "UPDATE t SET n = 0 WHERE n IS NULL",
      "ALTER TABLE t ALTER COLUMN n SET NOT NULL",
      "INSERT INTO t (id, v) VALUES (5, 'z')",
      "ALTER TABLE t ALTER COLUMN n DROP NOT NULL",
      "INSERT INTO t (id, v) VALUES (5, 'z')",
      "ALTER TABLE t ALTER COLUMN v SET DATA TYPE VARCHAR(3)",
      "ALTER TABLE t ALTER COLUMN d SET DATA TYPE DECIMAL(7,2)",
      "INSERT INTO t (id, d) VALUES (6, 12345.67)",
      "ALTER TABLE t ALTER COLUMN nope SET DEFAULT 1",
      "COMMENT ON TABLE t IS 'the table'",
      "COMMENT ON COLUMN t.v IS 'a value'",
      "SELECT id, v, n, d FROM t ORDER BY id",
  };

  @Test
  void sameAsH2() throws Exception {
    List<String> basalt;
    try (Database db = Database.openTemporary(EngineOptions.defaults())) {
      basalt = run(BasaltConnections.open(db), "DEFAULT");
    }
    List<String> h2 = run(DriverManager.getConnection("jdbc:h2:mem:columnchanges"), "PUBLIC");
    assertEquals(h2, basalt);
  }

  private static List<String> run(Connection connection, String schema) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = connection; Statement s = c.createStatement()) {
      for (String sql : SCRIPT) {
        try {
          out.add(sql + ": " + (s.execute(sql) ? rows(s.getResultSet())
              : String.valueOf(s.getUpdateCount())));
        } catch (SQLException e) {
          // a DML statement's class (a refused change of a column: H2 says 90081, Basalt 23502)
          out.add(sql + ": refused" + (e.getSQLState().startsWith("23")
              && !sql.startsWith("ALTER") ? " 23" : ""));
        }
      }
      try (ResultSet r = c.getMetaData().getColumns(null, schema, "T", "V")) {
        r.next();
        out.add("remarks: " + r.getString("REMARKS") + ", size " + r.getInt("COLUMN_SIZE"));
      }
    }
    return out;
  }

  private static String rows(ResultSet r) throws SQLException {
    StringBuilder b = new StringBuilder();
    try (r) {
      int n = r.getMetaData().getColumnCount();
      while (r.next()) {
        b.append('[');
        for (int i = 1; i <= n; i++) {
          b.append(i > 1 ? "," : "").append(r.getString(i));
        }
        b.append(']');
      }
    }
    return b.toString();
  }

  /** A prepared TRUNCATE or COMMENT does nothing until it is executed. */
  @Test
  void preparedDdlWaitsForItsExecution() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
      s.execute("INSERT INTO t VALUES (1)");
      try (PreparedStatement truncate = c.prepareStatement("TRUNCATE TABLE t")) {
        assertEquals("[1]", rows(s.executeQuery("SELECT id FROM t")));
        truncate.execute();
      }
      assertEquals("", rows(s.executeQuery("SELECT id FROM t")));
      SQLException e = assertThrows(SQLException.class,
          () -> s.execute("COMMENT ON COLUMN t.nope IS 'x'"));
      assertEquals("42703", e.getSQLState(), e.getMessage());
    }
  }
}
