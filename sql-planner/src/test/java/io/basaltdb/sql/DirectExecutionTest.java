package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.sql.rel.DirectExecution;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Plans that are only a Basalt scan, or a write of one row, run without generated code
 * ({@link DirectExecution}) and answer as the compiled plans do; other plans are compiled.
 */
class DirectExecutionTest extends TemporaryDatabaseTest {
  private static final List<String> DIRECT = List.of(
      "SELECT v FROM t WHERE id = 3",
      "SELECT * FROM t WHERE id BETWEEN 3 AND 7",
      "SELECT id, v FROM t WHERE id > 5 ORDER BY id LIMIT 3",
      "SELECT id FROM t WHERE id < 10 ORDER BY id DESC LIMIT 2",
      "SELECT v AS name, d FROM t WHERE v LIKE 'v1%'",
      "SELECT * FROM t WHERE id = 99",
      "SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2030-01-01 00:00:00' WHERE id = 1",
      "SELECT COUNT(*) FROM t WHERE id < 10",
      "INSERT INTO t VALUES (100, 'x', 1, 1.5)",
      "UPSERT INTO t (id, v) VALUES (101, 'y')",
      "UPSERT INTO t VALUES (2, NULL, -5, 0.5)");
  private static final List<String> COMPILED = List.of(
      "SELECT n + 1 FROM t WHERE id = 1",
      "SELECT v FROM t ORDER BY v",
      "UPDATE t SET v = 'z' WHERE id = 3",
      "DELETE FROM t WHERE id = 4");

  @BeforeEach
  void open() throws SQLException {
    createSampleTable(st);
  }

  @AfterEach
  void clearSwitch() {
    System.clearProperty(Switches.DIRECT_EXECUTION.property());
  }

  /** Plans made directly by the last {@link #run}'s statement (not its checks). */
  private long direct;

  private List<String> run(String sql, boolean directOn) throws SQLException {
    System.setProperty(Switches.DIRECT_EXECUTION.property(), Boolean.toString(directOn));
    try (Connection c = connectionWithoutPlanCache(); Statement st = c.createStatement()) {
      long before = PlannerStats.of(db).directExecutions.get();
      List<String> out = st.execute(sql) ? SqlTestSupport.rows(st.getResultSet())
          : List.of("count " + st.getUpdateCount());
      direct = PlannerStats.of(db).directExecutions.get() - before;
      if (!sql.startsWith("SELECT")) {
        out = new java.util.ArrayList<>(out);
        out.addAll(SqlTestSupport.rows(c, "SELECT * FROM t ORDER BY id"));
        st.executeUpdate("DELETE FROM t");
        fillSampleTable(st);
      }
      return out;
    }
  }

  @Test
  void directPlansAnswerAsCompiledOnes() throws SQLException {
    for (String sql : DIRECT) {
      List<String> compiled = run(sql, false);
      assertEquals(0, direct, "switched off: " + sql);
      assertEquals(compiled, run(sql, true), sql);
      assertEquals(1, direct, "direct: " + sql);
    }
    for (String sql : COMPILED) {
      List<String> compiled = run(sql, false);
      assertEquals(compiled, run(sql, true), sql);
      assertEquals(0, direct, "compiled: " + sql);
    }
  }

  @Test
  void preparedWritesAndTheirBatches() throws SQLException {
    try (Connection c = connectionWithoutPlanCache();
        PreparedStatement p = c.prepareStatement("UPSERT INTO t (id, v, n) VALUES (?, ?, ?)")) {
      p.setInt(1, 200);
      p.setString(2, "one");
      p.setLong(3, 7);
      assertEquals(1, p.executeUpdate());
      for (int i = 201; i < 204; i++) {
        p.setInt(1, i);
        p.setString(2, "b" + i);
        p.setLong(3, i);
        p.addBatch();
      }
      assertEquals(3, p.executeBatch().length);
      assertEquals(List.of("200|one|7", "201|b201|201", "202|b202|202", "203|b203|203"),
          SqlTestSupport.rows(c, "SELECT id, v, n FROM t WHERE id >= 200 ORDER BY id"));
      assertEquals("22001", org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
          () -> p.setString(2, "too-long")).getSQLState());
    }
  }

  /** Column labels come from the statement (its aliases), not from the scan's fields. */
  @Test
  void labelsAreTheStatements() throws SQLException {
    try (Connection c = connectionWithoutPlanCache(); Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT id AS k, v AS name FROM t WHERE id = 1")) {
      assertEquals("K", rs.getMetaData().getColumnLabel(1));
      assertEquals("NAME", rs.getMetaData().getColumnLabel(2));
      org.junit.jupiter.api.Assertions.assertTrue(rs.next());
      assertEquals("v1", rs.getString("NAME"));
    }
  }
}
