package io.basaltdb.sql.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.TemporaryDatabaseTest;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Statements differing only in literal values share one plan ({@link SharedPlans}), and a
 * shared plan never answers for the wrong values: each statement's own values, literals that
 * do not fit their column's type planned as literals, literals that shape a plan kept.
 */
class SharedPlansTest extends TemporaryDatabaseTest {
  @BeforeEach
  void open() throws SQLException {
    createSampleTable(st);
  }

  private List<String> rows(String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          b.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        out.add(b.toString());
      }
    }
    return out;
  }

  @Test
  void literalStatementsShareAPlanAndAnswerForTheirOwnValues() throws SQLException {
    PlannerStats plans = PlannerStats.of(db);
    assertEquals(List.of("v3"), rows("SELECT v FROM t WHERE id = 3"));
    long hits = plans.planCacheHits.get();
    for (int i = 4; i < 9; i++) {
      assertEquals(List.of("v" + i), rows("SELECT v FROM t WHERE id = " + i));
    }
    assertEquals(hits + 5, plans.planCacheHits.get(), "one plan for every id");
    assertEquals(List.of("5|v5", "6|v6"), rows("SELECT id, v FROM t WHERE id BETWEEN 5 AND 6"));
    assertEquals(List.of("7|v7"), rows("SELECT id, v FROM t WHERE id BETWEEN 7 AND 7"));
    assertEquals(List.of("1", "12"), rows("SELECT id FROM t WHERE v IN ('v1', 'v12') ORDER BY id"));
    assertEquals(List.of("3"), rows("SELECT id FROM t WHERE v IN ('v3', 'zz') ORDER BY id"));
    assertEquals(List.of("15", "16"), rows("SELECT id FROM t WHERE v LIKE 'v1%' AND n > 140 "
        + "AND n < 170 ORDER BY id"));
    assertEquals(List.of("2"), rows("SELECT id FROM t WHERE v LIKE 'v2%' AND n > 0 "
        + "AND n < 30 ORDER BY id"));
    assertEquals(List.of("4"), rows("SELECT id FROM t WHERE d = 4.25"));
    assertEquals(List.of("19"), rows("SELECT id FROM t WHERE d > 18.5"));
  }

  @Test
  void valuesThatDoNotFitTheirColumnArePlannedAsLiterals() throws SQLException {
    assertEquals(List.of("v3"), rows("SELECT v FROM t WHERE id = 3")); // the shared plan
    assertEquals(List.of(), rows("SELECT v FROM t WHERE id = 3.5"), "not id 3");
    assertEquals(List.of(), rows("SELECT v FROM t WHERE id = 3000000000"), "out of INTEGER");
    assertEquals(List.of("v3"), rows("SELECT v FROM t WHERE id = 3.0"));
    assertEquals(List.of(), rows("SELECT id FROM t WHERE v = 'v1xxxx'"),
        "longer than VARCHAR(5): not cut to 'v1xxx' and compared");
    assertEquals(List.of("1"), rows("SELECT id FROM t WHERE v = 'v1'"));
    assertEquals(List.of(), rows("SELECT id FROM t WHERE d = 4.251"), "more scale than d's");
    assertEquals(List.of("0"), rows("SELECT id FROM t WHERE id = -0"));
    assertEquals(List.of(), rows("SELECT id FROM t WHERE id = -3"), "negative: a literal");
    assertEquals(List.of(), rows("SELECT id FROM t WHERE v = 'it''s'"), "an escape");
    assertEquals(List.of(), rows("SELECT id FROM t WHERE v = NULL"));
    assertEquals(List.of("0"), rows("SELECT COUNT(*) FROM t WHERE v = 'v1 '"),
        "trailing space: a literal, compared as before");
  }

  /** Where Calcite cannot plan a parameter (TPC-H Q8's CASE in a SUM), literals stay. */
  @Test
  void aStatementCalciteCannotPlanWithParametersRunsWithItsLiterals() throws SQLException {
    for (int i = 0; i < 3; i++) { // the second time, known as unplannable
      assertEquals(List.of("0|" + 10 * (i + 1)), rows("SELECT g, SUM(CASE WHEN nation = 'v"
          + (i + 1) + "' THEN volume ELSE 0 END) * 1900 / SUM(volume) FROM (SELECT id / 100 AS g,"
          + " n AS volume, v AS nation FROM t) AS a GROUP BY g ORDER BY g"));
    }
  }

  /** Tabs, line breaks and comments around literals: each statement still gets its values. */
  @Test
  void whitespaceAndCommentsDoNotMoveTheLiterals() throws SQLException {
    long hits = PlannerStats.of(db).planCacheHits.get();
    for (int i = 1; i < 4; i++) {
      assertEquals(List.of("v" + i + "|" + i * 10), rows("SELECT v,\tn FROM t\r\n"
          + "WHERE\tid = " + i + " -- the id\r\n\t AND v <> 'x" + i + "'\n"
          + "  /* 'v9' */ AND\tn >= " + (i * 10)));
    }
    assertTrue(PlannerStats.of(db).planCacheHits.get() >= hits + 2, "one plan for the three statements");
  }

  /** A prepared statement with literals only, batched: each row is the statement's own. */
  @Test
  void aBatchOfALiteralOnlyStatementWritesItsLiterals() throws SQLException {
    try (java.sql.PreparedStatement p =
        c.prepareStatement("UPSERT INTO t VALUES (200, 'b', 7, 1.5)")) {
      p.addBatch();
      p.addBatch();
      assertEquals(2, p.executeBatch().length);
    }
    assertEquals(List.of("200|b|7|1.50"), rows("SELECT * FROM t WHERE id = 200"));
  }

  @Test
  void writesShareAPlanAndCatalogChangesReplan() throws SQLException {
    PlannerStats plans = PlannerStats.of(db);
    long hits = plans.planCacheHits.get();
    for (int i = 0; i < 5; i++) {
      assertEquals(1, st.executeUpdate("UPDATE t SET n = n + " + (i + 1) + " WHERE id = " + i));
    }
    assertTrue(plans.planCacheHits.get() >= hits + 4, "one plan for the counter updates");
    assertEquals(List.of("0|1", "1|12", "2|23", "3|34", "4|45"),
        rows("SELECT id, n FROM t WHERE id < 5 ORDER BY id"));
    st.executeUpdate("INSERT INTO t VALUES (100, 'x', 1, 1.5)");
    st.executeUpdate("INSERT INTO t VALUES (101, 'y', 2, 2.5)");
    assertEquals(List.of("100|x|1|1.50", "101|y|2|2.50"),
        rows("SELECT * FROM t WHERE id >= 100 ORDER BY id"));
    st.executeUpdate("ALTER TABLE t ADD w INTEGER");
    assertEquals(List.of("101|y|2|2.50|null"), rows("SELECT * FROM t WHERE id = 101"),
        "the plan made before the new column is not reused");
    st.executeUpdate("UPDATE t SET w = 7 WHERE id = 101");
    assertEquals(List.of("7"), rows("SELECT w FROM t WHERE id = 101"));
  }

  /**
   * Negative numbers, strings with quotes or with what looks like comments or parameters, and
   * differing comments: shared, each statement answered with its own values.
   */
  @Test
  void signsEscapesAndCommentsShareAPlan() throws SQLException {
    st.executeUpdate("UPSERT INTO t VALUES (-4, 'it''s', -40, -4.25)");
    st.executeUpdate("UPSERT INTO t VALUES (-5, '--?/*', -50, -5.25)");
    PlannerStats plans = PlannerStats.of(db);
    assertEquals(List.of("it's"), rows("SELECT v FROM t WHERE id = -4"));
    long hits = plans.planCacheHits.get();
    assertEquals(List.of("--?/*"), rows("SELECT v FROM t WHERE id = - 5"));
    assertEquals(List.of("v2"), rows("SELECT v FROM t WHERE id = 2"), "the same normalized text");
    assertEquals(List.of("it's"), rows("SELECT v FROM t /* a comment */ WHERE id = -4"));
    assertEquals(List.of(), rows("SELECT v FROM t WHERE id = -6"));
    assertEquals(hits + 4, plans.planCacheHits.get(), "one plan for any key, whatever its sign and comments");
    assertEquals(List.of("-4"), rows("SELECT id FROM t WHERE v = 'it''s'"));
    hits = plans.planCacheHits.get();
    assertEquals(List.of("-5"), rows("SELECT id FROM t WHERE v = '--?/*'"));
    assertEquals(List.of("3"), rows("SELECT id FROM t WHERE v = 'v3'"));
    assertEquals(hits + 2, plans.planCacheHits.get());
    assertEquals(List.of("-5", "-4"), rows("SELECT id FROM t WHERE n BETWEEN -50 AND -40 "
        + "ORDER BY id"));
    assertEquals(List.of("-5", "-4", "0"), rows("SELECT id FROM t WHERE d < -4.0 OR d = 0.25 "
        + "ORDER BY id"));
    assertEquals(List.of("-5|-49"), rows("SELECT id, n FROM t WHERE id = -5 AND n - 1 < 0"
        .replace("SELECT id, n", "SELECT id, n + 1")));
  }

  /**
   * Rows, then each column's type, precision and scale (not its nullability: a parameter may
   * be null, so an expression over one reports itself nullable where one over the literal
   * reports no nulls; the values are the same).
   */
  private List<String> answer(String sql) throws SQLException {
    List<String> out = rows(sql);
    try (ResultSet rs = st.executeQuery(sql)) {
      java.sql.ResultSetMetaData m = rs.getMetaData();
      for (int i = 1; i <= m.getColumnCount(); i++) {
        out.add(m.getColumnTypeName(i) + "(" + m.getPrecision(i) + "," + m.getScale(i) + ")");
      }
    }
    return out;
  }

  /**
   * A number in arithmetic or a COALESCE with a column becomes a parameter only where it gets
   * the literal's own type: such statements share a plan, and every statement answers with the
   * values and the column types it has when planned with its literals.
   */
  @Test
  void numbersInExpressionsShareAPlanOnlyAsTheirOwnType() throws SQLException {
    PlannerStats plans = PlannerStats.of(db);
    List<String[]> pairs = List.of(
        new String[] {"SELECT id, id * 3 - 7 FROM t WHERE id < 5 ORDER BY id",
            "SELECT id, id * 4 - 9 FROM t WHERE id < 4 ORDER BY id"},
        new String[] {"SELECT id FROM t WHERE id > (SELECT MIN(id) FROM t) + 17 ORDER BY id",
            "SELECT id FROM t WHERE id > (SELECT MIN(id) FROM t) + 16 ORDER BY id"},
        new String[] {"SELECT id, COALESCE(id, 7) / 2 FROM t WHERE id < 3 ORDER BY id",
            "SELECT id, COALESCE(id, 8) / 3 FROM t WHERE id < 3 ORDER BY id"},
        new String[] {"SELECT id, n * 2.5e0 FROM t WHERE id = 2",
            "SELECT id, n * 3.5e0 FROM t WHERE id = 3"});
    for (String[] pair : pairs) {
      List<String> first = answer(pair[0]);
      long hits = plans.planCacheHits.get();
      List<String> second = answer(pair[1]);
      assertTrue(plans.planCacheHits.get() >= hits + 2, "one plan for both: " + pair[1]);
      System.setProperty(io.basaltdb.sql.Switches.SHARED_PLANS.property(), "false");
      try {
        assertEquals(answer(pair[0]), first, pair[0]);
        assertEquals(answer(pair[1]), second, pair[1]);
      } finally {
        System.clearProperty(io.basaltdb.sql.Switches.SHARED_PLANS.property());
      }
    }
    // typed otherwise beside their expression, or not plannable as parameters: each answers
    // as with its literals, the second time too (the shape keeps that number a literal)
    List<String> literal = List.of(
        "SELECT id, COALESCE(n, 5) + id FROM t WHERE id < 3 ORDER BY id",
        "SELECT d * 2 FROM t WHERE id = 3",
        "SELECT id, id * 2.5 FROM t WHERE id = 2",
        "SELECT id * 3000000000 FROM t WHERE id = 1",
        "SELECT id * -2147483648 FROM t WHERE id = 1",
        "SELECT id, n FROM t WHERE n > (SELECT MIN(n) FROM t) + 150 ORDER BY id",
        "SELECT id * 2 FROM t WHERE id < 3 GROUP BY id * 2 ORDER BY 1",
        "SELECT 1 + 2, id FROM t WHERE id = 1");
    for (String sql : literal) {
      List<String> shared = answer(sql);
      System.setProperty(io.basaltdb.sql.Switches.SHARED_PLANS.property(), "false");
      try {
        assertEquals(answer(sql), shared, sql);
      } finally {
        System.clearProperty(io.basaltdb.sql.Switches.SHARED_PLANS.property());
      }
      assertEquals(shared, answer(sql), "again: " + sql);
    }
  }

  /** The cache's figures are a query away; its size is a connection property. */
  @Test
  void planCacheFiguresAndSize() throws SQLException {
    rows("SELECT v FROM t WHERE id = 1");
    String before = rows("SELECT CAPACITY, PLANS, HITS, MISSES, SHARED_LITERAL_STATEMENTS "
        + "FROM INFORMATION_SCHEMA.PLAN_CACHE").get(0);
    String[] f = before.split("\\|");
    assertEquals("2048", f[0]);
    assertTrue(Integer.parseInt(f[1]) > 0, before);
    rows("SELECT v FROM t WHERE id = 2");
    String[] g = rows("SELECT * FROM INFORMATION_SCHEMA.PLAN_CACHE").get(0).split("\\|");
    assertTrue(Long.parseLong(g[2]) > Long.parseLong(f[2]), "a hit counted");
    assertTrue(Long.parseLong(g[4]) > Long.parseLong(f[4]), "a shared statement counted");
    java.util.Properties p = new java.util.Properties();
    p.setProperty("planCacheSize", "1");
    try (Connection small = BasaltConnections.open(db, p);
        Statement s2 = small.createStatement()) {
      for (int i = 0; i < 3; i++) {
        try (ResultSet rs = s2.executeQuery("SELECT v FROM t WHERE n = " + (i * 10))) {
          assertTrue(rs.next());
          assertEquals("v" + i, rs.getString(1));
        }
      }
      try (ResultSet rs = s2.executeQuery("SELECT CAPACITY, PLANS FROM "
          + "INFORMATION_SCHEMA.PLAN_CACHE")) {
        assertTrue(rs.next());
        assertEquals(1, rs.getInt(1));
        assertEquals(1, rs.getInt(2));
      }
    }
    p.setProperty("planCacheSize", "-1");
    assertEquals("22023", org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> BasaltConnections.open(db, p)).getSQLState());
  }

  /** EXPLAIN of a literal statement shows this statement's values, not a shared plan's ?. */
  @Test
  void explainShowsTheStatementsOwnLiterals() throws SQLException {
    rows("SELECT v FROM t WHERE id = 3"); // a shared plan exists for the shape
    String plan = String.join("\n", rows("EXPLAIN PLAN FOR SELECT v FROM t WHERE id = 17"));
    assertTrue(plan.contains("17") && !plan.contains("?"), plan);
  }

  /**
   * One normalized text, other schemas and other times: each statement answers from its own
   * schema (the default schema is part of the plan's key) and as of its own time (a
   * connection's readTimestamp is read at execution; an AS OF literal stays in the text).
   */
  @Test
  void otherSchemasAndOtherTimesGetTheirOwnAnswers() throws SQLException {
    st.executeUpdate("CREATE SCHEMA s2");
    st.executeUpdate("CREATE TABLE s2.t (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(5))");
    st.executeUpdate("UPSERT INTO s2.t VALUES (3, 'other')");
    assertEquals(List.of("v3"), rows("SELECT v FROM t WHERE id = 3"));
    try (Connection s2 = BasaltConnections.open(db); Statement q = s2.createStatement()) {
      s2.setSchema("S2");
      for (int id : new int[] {3, 4}) {
        try (ResultSet rs = q.executeQuery("SELECT v FROM t WHERE id = " + id)) {
          assertEquals(id == 3, rs.next());
          if (id == 3) {
            assertEquals("other", rs.getString(1));
          }
        }
      }
    }
    assertEquals(List.of("v4"), rows("SELECT v FROM t WHERE id = 4"));

    st.executeUpdate("CREATE TABLE h (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(5)) VERSIONS=5");
    for (long ts : new long[] {1000, 2000}) {
      java.util.Properties p = new java.util.Properties();
      p.setProperty("writeTimestamp", Long.toString(ts));
      try (Connection at = BasaltConnections.open(db, p); Statement w = at.createStatement()) {
        w.executeUpdate("UPSERT INTO h VALUES (1, 'a" + ts + "')");
        w.executeUpdate("UPSERT INTO h VALUES (2, 'b" + ts + "')");
      }
    }
    assertEquals(List.of("a1000"), rows("SELECT v FROM h FOR SYSTEM_TIME AS OF "
        + "TIMESTAMP '1970-01-01 00:00:01.5' WHERE id = 1"));
    assertEquals(List.of("b2000"), rows("SELECT v FROM h FOR SYSTEM_TIME AS OF "
        + "TIMESTAMP '1970-01-01 00:00:02.5' WHERE id = 2"));
    assertEquals(List.of(), rows("SELECT v FROM h FOR SYSTEM_TIME AS OF "
        + "TIMESTAMP '1970-01-01 00:00:00.5' WHERE id = 2"));
    java.util.Properties r = new java.util.Properties();
    r.setProperty("readTimestamp", "1500");
    try (Connection then = BasaltConnections.open(db, r); Statement q = then.createStatement();
        ResultSet rs = q.executeQuery("SELECT v FROM h WHERE id = 2")) {
      assertTrue(rs.next());
      assertEquals("b1000", rs.getString(1), "as of the connection's time");
    }
    assertEquals(List.of("b2000"), rows("SELECT v FROM h WHERE id = 2"));
  }
}
