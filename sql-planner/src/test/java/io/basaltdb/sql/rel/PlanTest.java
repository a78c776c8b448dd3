package io.basaltdb.sql.rel;

import io.basaltdb.sql.Switches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.TableName;
import io.basaltdb.sql.jdbc.BasaltConnections;
import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each pushdown shows in EXPLAIN where it must (key ranges, filters, columns, order, limit)
 * and not where it must not (a non-leading key column is no range; nothing goes beneath a
 * predicate Calcite must still evaluate; a salted table's order is not the key order).
 */
class PlanTest extends SqlTestBase {

  @BeforeEach
  void createTables() throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (a INTEGER NOT NULL, b VARCHAR NOT NULL, f.x BIGINT, "
          + "f.y VARCHAR, CONSTRAINT pk PRIMARY KEY (a, b DESC)) SPLIT ON (100)");
      st.execute("CREATE TABLE s (id BIGINT NOT NULL PRIMARY KEY, v INTEGER) SALT_BUCKETS=4");
      for (int a = 0; a < 200; a += 2) {
        st.execute("INSERT INTO t VALUES (" + a + ", 'b" + a % 7 + "', " + a * 10 + ", 'y" + a
            + "')");
      }
    }
  }

  private String plan(String sql) throws Exception {
    return String.join("\n", SqlTestSupport.rows(c, "EXPLAIN PLAN FOR " + sql));
  }

  private static void has(String plan, String... parts) {
    for (String p : parts) {
      assertTrue(plan.contains(p), "expected " + p + " in:\n" + plan.replace("\n", " // "));
    }
  }

  private static void lacks(String plan, String... parts) {
    for (String p : parts) {
      assertFalse(plan.contains(p), "did not expect " + p + " in\n" + plan);
    }
  }

  /**
   * A parameter plus or minus an integer constant bounds a key range as the parameter alone
   * does ({@code id < ? + 100} was a full scan with a filter: over HBase 2.3 s for 100 rows
   * of 1M); each execution adds it to that execution's value, and a sum beyond the column's
   * type is 22003.
   */
  @Test
  void aParameterWithAnOffsetBoundsTheKeyRange() throws Exception {
    String sql = "SELECT a, x FROM t WHERE a >= ? - 2 AND a < 10 + ?";
    has(plan(sql), "keys=[A >= ?0-2 AND A < ?1+10]");
    // a BIGINT key: the sum is typed as the literal (INTEGER), then cast to BIGINT
    has(plan("SELECT id FROM s WHERE id >= ? AND id < ? + 100"), "keys=[ID >= ?0 AND ID < ?1+100]");
    try (java.sql.PreparedStatement p = c.prepareStatement(sql)) {
      for (int[] bind : new int[][] {{10, 10}, {2, 0}, {150, 100}}) {
        p.setInt(1, bind[0]);
        p.setInt(2, bind[1]);
        int rows = 0;
        try (java.sql.ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            int a = rs.getInt(1);
            assertTrue(a >= bind[0] - 2 && a < 10 + bind[1], a + " for " + bind[0] + "/" + bind[1]);
            rows++;
          }
        }
        int expected = 0;
        for (int a = 0; a < 200; a += 2) {
          expected += a >= bind[0] - 2 && a < 10 + bind[1] ? 1 : 0;
        }
        assertEquals(expected, rows, bind[0] + "/" + bind[1]);
      }
      p.setInt(1, Integer.MIN_VALUE);
      p.setInt(2, 0);
      java.sql.SQLException e = org.junit.jupiter.api.Assertions.assertThrows(
          java.sql.SQLException.class, () -> p.executeQuery().close());
      assertEquals("22003", e.getSQLState(), e.getMessage());
    }
  }

  /**
   * An equality keeps one of the column's sampled distinct values in a small table or a
   * column of few values, and half the rows of a big column of many values.
   */
  @Test
  void anEqualityKeepsOneDistinctValueOfASmallTableOrDomain() throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE big (id INTEGER PRIMARY KEY, few INTEGER, many INTEGER)");
    }
    try (java.sql.PreparedStatement p = c.prepareStatement("UPSERT INTO big VALUES (?, ?, ?)")) {
      for (int i = 0; i < 3000; i++) {
        p.setInt(1, i);
        p.setInt(2, i % 10);
        p.setInt(3, i);
        p.addBatch();
      }
      p.executeBatch();
    }
    // t: 100 rows, column y 100 values: a small table
    assertEquals(1, scanRows("SELECT a FROM t WHERE y = 'y4'"), 0.01);
    // big: 3,000 rows; many: 3,000 values (a half), few: 10 values (a tenth)
    double rows = scanRows("SELECT id FROM big WHERE many = 5") * 2;
    assertEquals(rows / 10, scanRows("SELECT id FROM big WHERE few = 5"), rows / 100);
    System.setProperty(Switches.EQUALITY_DISTINCT.property(), "false");
    try {
      assertEquals(50, scanRows("SELECT x FROM t WHERE y = 'y4'"), 0.01); // not a cached plan
    } finally {
      System.clearProperty(Switches.EQUALITY_DISTINCT.property());
    }
  }

  /** The row count the planner estimates for the (only) scan of {@code sql}. */
  private double scanRows(String sql) throws Exception {
    String plan = String.join("\n", SqlTestSupport.rows(c,
        "EXPLAIN PLAN INCLUDING ALL ATTRIBUTES FOR " + sql));
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "BasaltScan\\(.*?rowcount = ([0-9.E]+)").matcher(plan);
    assertTrue(m.find(), plan);
    return Double.parseDouble(m.group(1));
  }

  /**
   * Two columns of one type compared in the same row go into the scan (the key column against
   * a cell's, two key columns); of two types they stay above it.
   */
  @Test
  void columnComparisonsOfOneTypeArePushed() throws Exception {
    String pushed = plan("SELECT a FROM t WHERE b < y");
    has(pushed, "filter=[B < Y]");
    lacks(pushed, "EnumerableCalc");
    assertEquals(List.of("0", "2", "4", "6", "8"),
        SqlTestSupport.rows(c, "SELECT a FROM t WHERE b < y AND a < 10 ORDER BY a"));
    has(plan("SELECT a FROM t WHERE x > a"), "EnumerableCalc");
    lacks(plan("SELECT a FROM t WHERE x > a"), "filter=[");
  }

  /**
   * A sort costs its rows times a quarter of their binary logarithm (Calcite counts them once,
   * which made merge joins over sorted whole tables look cheap): the sort's cumulative cost
   * exceeds its input's by that much.
   */
  @Test
  void aSortCostsMoreThanReadingItsRows() throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE big (id INTEGER NOT NULL PRIMARY KEY, v INTEGER)");
      st.execute("UPSERT INTO big SELECT t.a * 1000 + d.n, d.n FROM t, (VALUES 0, 1, 2, 3, 4, 5, 6, 7,"
          + " 8, 9) AS d(n)");
    }
    String plan = String.join("\n", SqlTestSupport.rows(c,
        "EXPLAIN PLAN INCLUDING ALL ATTRIBUTES FOR SELECT id FROM big ORDER BY v"));
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "rowcount = ([0-9.E]+), cumulative cost = \\{([0-9.E]+) rows").matcher(plan);
    List<double[]> nodes = new java.util.ArrayList<>();
    while (m.find()) {
      nodes.add(new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))});
    }
    assertTrue(plan.startsWith("EnumerableSort") && nodes.size() >= 2, plan);
    double rows = nodes.get(1)[0];
    double sortCost = nodes.get(0)[1] - nodes.get(1)[1];
    assertEquals(rows * Math.max(1, Math.log(rows) / Math.log(2) / 4), sortCost, rows * 0.01,
        plan);
  }

  /**
   * A hash SEMI join is costed as an INNER one of the same inputs (Calcite discounts hash
   * semi-joins a hundredfold, which made hashing all of a big table look cheaper than looking
   * up a few keys): the metadata the planner reads gives it a hundred times its own estimate.
   */
  @Test
  void aHashSemiJoinIsCostedInFull() throws Exception {
    java.util.List<org.apache.calcite.rel.RelNode> found = new java.util.ArrayList<>();
    try (var hook = org.apache.calcite.runtime.Hook.PLAN_BEFORE_IMPLEMENTATION.addThread(
        (org.apache.calcite.rel.RelRoot root) -> root.rel.accept(
            new org.apache.calcite.rel.RelHomogeneousShuttle() {
              @Override
              public org.apache.calcite.rel.RelNode visit(org.apache.calcite.rel.RelNode other) {
                if (other instanceof org.apache.calcite.rel.core.Join j && j.isSemiJoin()) {
                  found.add(j);
                }
                return super.visit(other);
              }
            }))) {
      SqlTestSupport.rows(c, "SELECT a FROM t WHERE EXISTS (SELECT 1 FROM t t2 WHERE "
          + "t2.b = t.b AND t2.a <> t.a)");
    }
    assertFalse(found.isEmpty(), "a semi-join");
    // the same semi-join as a hash join, costed through the planner's metadata
    var semi = (org.apache.calcite.rel.core.Join) found.get(0);
    var join = org.apache.calcite.adapter.enumerable.EnumerableHashJoin.create(semi.getLeft(),
        semi.getRight(), semi.getCondition(), java.util.Set.of(),
        org.apache.calcite.rel.core.JoinRelType.SEMI);
    var mq = join.getCluster().getMetadataQuery();
    double own = join.computeSelfCost(join.getCluster().getPlanner(), mq).getRows();
    assertEquals(own * 100, mq.getNonCumulativeCost(join).getRows(), own);
  }

  @Test
  void keyPredicatesBecomeRanges() throws Exception {
    has(plan("SELECT x FROM t WHERE a = 4 AND b = 'b4'"),
        "keys=[A = 4 AND B = 'b4' -> 1 range [80000004", "columns=[F.X]");
    has(plan("SELECT x FROM t WHERE a BETWEEN 3 AND 9"),
        "keys=[A >= 3 AND A <= 9 -> 1 range [80000003, 8000000a)]");
    has(plan("SELECT x FROM t WHERE a IN (1, 5, 7) AND b > 'q'"),
        "keys=[A IN [1, 5, 7] AND B > 'q' -> 3 ranges");
    has(plan("SELECT x FROM t WHERE a = 1 AND b LIKE 'ab%'"),
        "keys=[A = 1 AND B >= 'ab' AND B < 'ac'", "filter=[B LIKE 'ab%']");
    has(plan("SELECT x FROM t WHERE a > 10 OR a < 2 OR a = 5"),
        "keys=[(A < 2 OR A = 5 OR A > 10) -> 3 ranges [, 80000002), [80000005, 80000006), "
            + "[8000000b, )]");
    assertEquals(List.of("0", "4", "6", "8", "196", "198"), SqlTestSupport.rows(c,
        "SELECT a FROM t WHERE a < 2 OR a BETWEEN 4 AND 8 OR a > 195 ORDER BY a"));
  }

  @Test
  void otherPredicatesBecomeEngineFiltersOrStayInCalcite() throws Exception {
    String nonLeading = plan("SELECT x FROM t WHERE b = 'b3'");
    has(nonLeading, "filter=[B = 'b3']");
    lacks(nonLeading, "keys=");
    has(plan("SELECT a FROM t WHERE x >= 50 AND y IS NOT NULL"),
        "filter=[X >= 50 AND Y IS NOT NULL]", "columns=[A]");
    has(plan("SELECT a FROM t WHERE y LIKE 'y1%' OR x IS NULL"),
        "filter=[(Y LIKE 'y1%' OR X IS NULL)]");
    String residual = plan("SELECT a FROM t WHERE x + 1 > 50 AND a = 8 LIMIT 3");
    has(residual, "keys=[A = 8", "EnumerableCalc", "EnumerableLimit");
    lacks(residual, "limit=[3]");
  }

  @Test
  void keyOrderNeedsNoSortAndLimitsStopTheScan() throws Exception {
    String forward = plan("SELECT a, b FROM t WHERE a > 5 ORDER BY a, b DESC LIMIT 3 OFFSET 2");
    has(forward, "offset=[2]", "limit=[3]");
    lacks(forward, "EnumerableSort", "EnumerableLimit", "reversed");
    String backward = plan("SELECT a FROM t ORDER BY a DESC, b ASC LIMIT 5");
    has(backward, "order=[reversed]", "limit=[5]");
    lacks(backward, "EnumerableSort");
    has(plan("SELECT a FROM t ORDER BY a, b LIMIT 5"), "EnumerableSort"); // b is DESC
    has(plan("SELECT a FROM t ORDER BY x LIMIT 5"), "EnumerableSort");
    String salted = plan("SELECT id FROM s ORDER BY id DESC LIMIT 5");
    has(salted, "order=[reversed]", "limit=[5]"); // buckets merged by key as they are read
    lacks(salted, "EnumerableSort");
    assertEquals(List.of("198|b2", "196|b0"),
        SqlTestSupport.rows(c, "SELECT a, b FROM t ORDER BY a DESC LIMIT 2"));
    assertEquals(List.of("8", "10"),
        SqlTestSupport.rows(c, "SELECT a FROM t WHERE a > 5 ORDER BY a LIMIT 2 OFFSET 1"));
  }

  @Test
  void aggregatesRunInTheScanAndUnusedColumnsAreNotRead() throws Exception {
    has(plan("SELECT COUNT(*) FROM t"), "columns=[], aggregate=[COUNT(*)]");
    has(plan("SELECT a, SUM(x), MAX(y) FROM t WHERE a < 50 GROUP BY a"),
        "keys=[A < 50", "aggregate=[GROUP BY A: SUM(X), MAX(Y)]");
    String notPrefix = plan("SELECT b, SUM(x) FROM t GROUP BY b");
    has(notPrefix, "EnumerableAggregate", "columns=[B, F.X]");
    lacks(notPrefix, "aggregate=[");
    lacks(plan("SELECT COUNT(DISTINCT x) FROM t"), "aggregate=[");
    has(plan("SELECT COUNT(*) FROM s"), "aggregate=[COUNT(*)]"); // salted, not grouped
    assertEquals(List.of("100|9900|100"), SqlTestSupport.rows(c,
        "SELECT COUNT(*), SUM(x) / 10, COUNT(y) FROM t"));
    assertEquals(List.of("4|40|y4", "6|60|y6"), SqlTestSupport.rows(c,
        "SELECT a, SUM(x), MIN(y) FROM t WHERE a BETWEEN 3 AND 7 GROUP BY a"));
  }

  /** Rows the engine handed to region scans and gets so far (region read counters). */
  private long reads(String table) {
    return db.admin().regions(TableName.of(table)).stream().mapToLong(r -> r.stats().reads())
        .sum();
  }

  @Test
  void parametersAreBoundAtEachExecutionWithoutReplanning() throws Exception {
    try (PreparedStatement p = c.prepareStatement("SELECT x FROM t WHERE a = ? AND b = ?")) {
      for (int a : new int[] {4, 150, 7}) {
        p.setInt(1, a);
        p.setString(2, "b" + a % 7);
        long before = reads("T");
        try (ResultSet rs = p.executeQuery()) {
          if (a % 2 == 0) {
            assertTrue(rs.next());
            assertEquals(a * 10L, rs.getLong(1));
          }
          assertFalse(rs.next());
        }
        assertEquals(1, reads("T") - before, "a point lookup reads one region once");
      }
    }
    try (PreparedStatement p = c.prepareStatement(
        "SELECT a FROM t WHERE a >= ? AND a < ? ORDER BY a LIMIT ?")) {
      p.setInt(1, 20);
      p.setInt(2, 30);
      p.setInt(3, 3);
      try (ResultSet rs = p.executeQuery()) {
        for (int a : new int[] {20, 22, 24}) {
          assertTrue(rs.next());
          assertEquals(a, rs.getInt(1));
        }
        assertFalse(rs.next());
      }
    }
  }

  @Test
  void cachedPlansNeverOutliveTheirTables() throws Exception {
    String sql = "SELECT * FROM t WHERE a = 4";
    try (Statement st = c.createStatement()) {
      assertEquals(4, st.executeQuery(sql).getMetaData().getColumnCount());
      assertEquals(4, st.executeQuery(sql).getMetaData().getColumnCount()); // cached
      st.execute("ALTER TABLE t ADD f.z INTEGER");
      assertEquals(5, st.executeQuery(sql).getMetaData().getColumnCount());
    }
    try (Connection other = BasaltConnections.open(db); Statement st = other.createStatement()) {
      assertEquals(List.of("4|b4|40|y4|null"), SqlTestSupport.rows(other, sql));
      st.execute("DROP TABLE t");
      st.execute("CREATE TABLE t (a INTEGER NOT NULL PRIMARY KEY, w VARCHAR)");
      st.execute("INSERT INTO t VALUES (4, 'new')");
    }
    assertEquals(List.of("4|new"), SqlTestSupport.rows(c, sql));
  }
}
