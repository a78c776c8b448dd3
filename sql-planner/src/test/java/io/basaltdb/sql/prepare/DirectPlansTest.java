package io.basaltdb.sql.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.Switches;
import io.basaltdb.sql.TemporaryDatabaseTest;
import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Statements planned without Calcite's validator and planner ({@link DirectPlans}) have the
 * signature Calcite's path gives them (every parameter and result column property), the same
 * answers and the same errors; everything else still takes Calcite's path.
 */
class DirectPlansTest extends TemporaryDatabaseTest {
  /** Statements with parameters, and one set of values for them, planned directly. */
  private static final List<Object[]> DIRECT = List.of(
      new Object[] {"SELECT v FROM t WHERE id = ?", 3},
      new Object[] {"SELECT * FROM t WHERE id = ?", 4},
      new Object[] {"SELECT n, d, v, id FROM t WHERE ? = id", 5},
      new Object[] {"SELECT a, b, c FROM p WHERE b = ? AND a = ?", "k5", 1},
      new Object[] {"SELECT * FROM p WHERE a = ? AND b = ?", 2, "k6"},
      new Object[] {"SELECT * FROM w WHERE k = ?", 7L},
      new Object[] {"SELECT dt, ts, b, f FROM w WHERE k = ?", 7L},
      new Object[] {"SELECT v FROM s.t2 WHERE id = ?", 1},
      new Object[] {"INSERT INTO t VALUES (?, ?, ?, ?)", 100, "x", 5L,
          new java.math.BigDecimal("1.50")},
      new Object[] {"INSERT INTO t (v, id) VALUES (?, ?)", "y", 101},
      new Object[] {"UPSERT INTO t (id, n) VALUES (?, ?)", 3, 33L},
      new Object[] {"UPSERT INTO p VALUES (?, ?, ?)", 9, "k9", 1.5},
      new Object[] {"INSERT INTO s.t2 VALUES (?, ?)", 2, "two"},
      new Object[] {"INSERT INTO t VALUES (?, ?, ?, ?), (?, ?, ?, ?)", 102, "a", 1L,
          new java.math.BigDecimal("2.50"), 103, "b", 2L, new java.math.BigDecimal("3.25")},
      new Object[] {"UPSERT INTO t (id, n) VALUES (?, ?), (?, ?), (?, ?)", 105, 1L, 106, 2L,
          107, 3L});
  /** Statements Calcite's path plans. */
  private static final List<String> CALCITE = List.of(
      "SELECT v FROM t WHERE id = ? AND n = ?",
      "SELECT v AS x FROM t WHERE id = ?",
      "SELECT v, v FROM t WHERE id = ?",
      "SELECT v FROM t WHERE id > ?",
      "SELECT v FROM t WHERE id = ? AND id = ?",
      "SELECT v FROM t WHERE id = ? ORDER BY v",
      "SELECT DISTINCT v FROM t WHERE id = ?",
      "SELECT t.v FROM t WHERE id = ?",
      "SELECT v FROM t WHERE id = 1 + ?",
      "SELECT a FROM p WHERE a = ?",
      "SELECT x FROM dk WHERE k = ?",
      "SELECT x FROM ck WHERE k = ?",
      "SELECT x FROM hk WHERE x = ?",
      "SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2030-01-01 00:00:00' WHERE id = ?",
      "SELECT /*+ NO_INDEX(t) */ v FROM t WHERE id = ?",
      "INSERT INTO t VALUES (?, 'x', ?, ?)",
      "INSERT INTO t VALUES (?, ?, ?, ?), (?, 'x', ?, ?)",
      "INSERT INTO t VALUES (?, ?, ?, ?), (?, ?, ?)",
      "INSERT INTO hk VALUES (?)",
      "INSERT INTO t SELECT * FROM t WHERE id = ?",
      "EXPLAIN PLAN FOR SELECT v FROM t WHERE id = ?");

  @BeforeEach
  void tables() throws SQLException {
    createSampleTable(st);
    st.executeUpdate("CREATE TABLE p (a INTEGER NOT NULL, b VARCHAR(4) NOT NULL, c DOUBLE, "
        + "CONSTRAINT pk PRIMARY KEY (a, b)) SALT_BUCKETS = 2");
    for (int i = 0; i < 12; i++) {
      st.executeUpdate("UPSERT INTO p VALUES (" + (i % 4) + ", 'k" + i + "', " + i + ".5)");
    }
    st.executeUpdate("CREATE TABLE w (k BIGINT NOT NULL PRIMARY KEY, dt DATE, ts TIMESTAMP, "
        + "b BOOLEAN, f REAL, bin VARBINARY(8), c CHAR(3), sm SMALLINT, ti TINYINT)");
    st.executeUpdate("UPSERT INTO w VALUES (7, DATE '2026-11-26', TIMESTAMP '2026-11-26 "
        + "06:30:00', TRUE, 2.5, X'0102', 'ab', 3, 4)");
    st.executeUpdate("CREATE SCHEMA s");
    st.executeUpdate("CREATE TABLE s.t2 (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(8))");
    st.executeUpdate("UPSERT INTO s.t2 VALUES (1, 'one')");
    st.executeUpdate("CREATE TABLE dk (k DECIMAL(5, 2) NOT NULL PRIMARY KEY, x INTEGER)");
    st.executeUpdate("CREATE TABLE ck (k CHAR(3) NOT NULL PRIMARY KEY, x INTEGER)");
    st.executeUpdate("CREATE TABLE hk (x INTEGER)");
  }

  @Test
  void directPlansHaveCalcitesSignaturesAnswersAndEffects() throws SQLException {
    for (Object[] statement : DIRECT) {
      String sql = (String) statement[0];
      List<Object> values = List.of(statement).subList(1, statement.length);
      long before = PlannerStats.of(db).directPlans.get();
      String direct;
      String calcite;
      try (Connection on = connectionWithoutPlanCache()) {
        direct = run(on, sql, values);
      }
      assertEquals(before + 1, PlannerStats.of(db).directPlans.get(), "planned directly: " + sql);
      if (sql.startsWith("SELECT")) {
        System.setProperty(Switches.DIRECT_PLANS.property(), "false");
        try (Connection off = connectionWithoutPlanCache()) {
          calcite = run(off, sql, values);
        } finally {
          System.clearProperty(Switches.DIRECT_PLANS.property());
        }
        assertEquals(before + 1, PlannerStats.of(db).directPlans.get(), "switched off: " + sql);
        assertEquals(calcite, direct, sql);
      } else {
        // a write once done cannot be done again: Calcite's path signs the same text on a
        // copy of the tables, and the direct write's effect is read back
        System.setProperty(Switches.DIRECT_PLANS.property(), "false");
        try (Connection off = connectionWithoutPlanCache();
            PreparedStatement ps = off.prepareStatement(sql)) {
          calcite = describe(ps.getParameterMetaData(), ps.getMetaData());
        } finally {
          System.clearProperty(Switches.DIRECT_PLANS.property());
        }
        try (Connection on = connectionWithoutPlanCache();
            PreparedStatement ps = on.prepareStatement(sql)) {
          assertEquals(calcite, describe(ps.getParameterMetaData(), ps.getMetaData()), sql);
        }
      }
    }
    assertEquals(List.of("101|y|null|null", "100|x|5|1.50", "3|v3|33|3.25"),
        rows("SELECT id, v, n, d FROM t WHERE id IN (3, 100, 101) ORDER BY id DESC"));
    assertEquals(List.of("9|k9|1.5"), rows("SELECT * FROM p WHERE a = 9"));
    assertEquals(List.of("two"), rows("SELECT v FROM s.t2 WHERE id = 2"));
  }

  @Test
  void otherStatementsTakeCalcitesPath() throws SQLException {
    for (String sql : CALCITE) {
      long before = PlannerStats.of(db).directPlans.get();
      try (PreparedStatement ps = connectionWithoutPlanCache().prepareStatement(sql)) {
        ps.getMetaData();
      } catch (SQLException e) {
        // some are refused by Calcite's path (a missing key value): that is its answer
      }
      assertEquals(before, PlannerStats.of(db).directPlans.get(), sql);
    }
  }

  @Test
  void selectsThatCannotBeKeyLookupsAreNotParsedForOne() {
    for (Object[] statement : DIRECT) {
      String sql = (String) statement[0];
      if (sql.startsWith("SELECT")) {
        assertTrue(DirectPlans.mayLookUpAKey(sql), sql);
      }
    }
    assertTrue(DirectPlans.mayLookUpAKey("select v from t where id = ?"));
    for (String sql : List.of("SELECT v FROM t", "SELECT v FROM t WHERE id IN (?, ?)",
        "SELECT UPPER(v) FROM t WHERE id = ?", "SELECT v FROM t WHERE id = (SELECT 1)")) {
      assertTrue(!DirectPlans.mayLookUpAKey(sql), sql);
    }
  }

  @Test
  void literalStatementsShareDirectPlansAndKeepTheirErrors() throws SQLException {
    long before = PlannerStats.of(db).directPlans.get();
    try (Connection c2 = connectionWithoutPlanCache(); var s2 = c2.createStatement()) {
      for (int i = 0; i < 5; i++) {
        try (ResultSet rs = s2.executeQuery("SELECT v FROM t WHERE id = " + i)) {
          assertTrue(rs.next());
          assertEquals("v" + i, rs.getString(1));
        }
      }
      try (ResultSet rs = s2.executeQuery("SELECT v FROM t WHERE id = 5000000000")) {
        assertTrue(!rs.next(), "beyond INTEGER: no row");
      }
      assertEquals(1, s2.executeUpdate("INSERT INTO t VALUES (200, 'z', 2, 2.5)"));
      SQLException dup = assertThrows(SQLException.class,
          () -> s2.executeUpdate("INSERT INTO t VALUES (200, 'z', 2, 2.5)"));
      assertEquals("23505", dup.getSQLState());
      SQLException tooLong = assertThrows(SQLException.class,
          () -> s2.executeUpdate("INSERT INTO t VALUES (201, 'toolong', 2, 2.5)"));
      assertEquals("22001", tooLong.getSQLState());
      assertEquals(List.of(), rows("SELECT id FROM t WHERE id = 201"));
    }
    assertTrue(PlannerStats.of(db).directPlans.get() > before, "the literal statements' shapes ran directly");
  }

  @Test
  void directWritesJoinTransactionsAndBatches() throws SQLException {
    try (Connection tx = connectionWithoutPlanCache();
        PreparedStatement ps = tx.prepareStatement("INSERT INTO t (id, v) VALUES (?, ?)")) {
      tx.setAutoCommit(false);
      ps.setInt(1, 300);
      ps.setString(2, "a");
      assertEquals(1, ps.executeUpdate());
      tx.rollback();
      for (int i = 0; i < 3; i++) {
        ps.setInt(1, 310 + i);
        ps.setString(2, "b" + i);
        ps.addBatch();
      }
      assertEquals(3, ps.executeBatch().length);
      tx.commit();
      ps.setInt(1, 312);
      ps.setString(2, "again");
      SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
      assertEquals("23505", e.getSQLState(), "the duplicate is found by its statement");
      tx.commit(); // nothing of the failed statement
      SQLException tooLong = assertThrows(SQLException.class, () -> ps.setString(2, "too long"));
      assertEquals("22001", tooLong.getSQLState());
      tx.rollback();
    }
    assertEquals(List.of("310|b0", "311|b1", "312|b2"),
        rows("SELECT id, v FROM t WHERE id >= 300 ORDER BY id"));
  }

  private List<String> rows(String sql) throws SQLException {
    return SqlTestSupport.rows(c, sql);
  }

  /** The statement's signature and what it does, in words. */
  private static String run(Connection c, String sql, List<Object> values) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      StringBuilder out = new StringBuilder(describe(ps.getParameterMetaData(),
          ps.getMetaData()));
      for (int i = 0; i < values.size(); i++) {
        ps.setObject(i + 1, values.get(i));
      }
      if (!ps.execute()) {
        return out.append("count ").append(ps.getUpdateCount()).toString();
      }
      try (ResultSet rs = ps.getResultSet()) {
        out.append(describe(null, rs.getMetaData()));
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          for (int i = 1; i <= n; i++) {
            Object v = rs.getObject(i);
            out.append(v instanceof byte[] b ? java.util.Arrays.toString(b) : String.valueOf(v))
                .append(v == null ? "" : " " + v.getClass().getSimpleName()).append(';');
          }
          out.append('\n');
        }
      }
      return out.toString();
    }
  }

  private static String describe(ParameterMetaData p, ResultSetMetaData m) throws SQLException {
    StringBuilder b = new StringBuilder();
    if (p != null) {
      for (int i = 1; i <= p.getParameterCount(); i++) {
        b.append("param ").append(i).append(' ').append(p.getParameterType(i)).append(' ')
            .append(p.getParameterTypeName(i)).append(' ').append(p.getPrecision(i)).append(' ')
            .append(p.getScale(i)).append(' ').append(p.getParameterClassName(i)).append(' ')
            .append(p.isSigned(i)).append(' ').append(p.isNullable(i)).append(' ')
            .append(p.getParameterMode(i)).append('\n');
      }
    }
    if (m != null) {
      for (int i = 1; i <= m.getColumnCount(); i++) {
        b.append("column ").append(i).append(' ').append(m.getColumnLabel(i)).append(' ')
            .append(m.getColumnName(i)).append(' ').append(m.getColumnType(i)).append(' ')
            .append(m.getColumnTypeName(i)).append(' ').append(m.getPrecision(i)).append(' ')
            .append(m.getScale(i)).append(' ').append(m.isNullable(i)).append(' ')
            .append(m.getSchemaName(i)).append(' ').append(m.getTableName(i)).append(' ')
            .append(m.getCatalogName(i)).append(' ').append(m.getColumnClassName(i))
            .append(' ').append(m.isSigned(i)).append(' ').append(m.getColumnDisplaySize(i))
            .append(' ').append(m.isAutoIncrement(i)).append(' ').append(m.isCaseSensitive(i))
            .append(' ').append(m.isSearchable(i)).append(' ').append(m.isCurrency(i))
            .append(' ').append(m.isReadOnly(i)).append(' ').append(m.isWritable(i))
            .append(' ').append(m.isDefinitelyWritable(i)).append('\n');
      }
    }
    return b.toString();
  }
}
