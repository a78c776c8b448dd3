package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Queries answered through secondary indexes: EXPLAIN names the index and its ranges when
 * its leading columns are bound, and random queries give the same rows as on an identical
 * table without indexes and as H2 with the same indexes.
 */
class IndexQueryTest extends SqlTestBase {
  private void load(long seed) throws SQLException {
    for (String t : List.of("t", "u")) {
      update("CREATE TABLE " + t + " (id INTEGER PRIMARY KEY, a VARCHAR(10), b INTEGER, "
          + "c DOUBLE, f.d BIGINT)");
    }
    Random r = new Random(seed);
    try (Statement st = h2.createStatement()) {
      st.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, a VARCHAR(10), b INTEGER, "
          + "c DOUBLE, d BIGINT)");
    }
    try (PreparedStatement t = c.prepareStatement("UPSERT INTO t VALUES (?, ?, ?, ?, ?)");
        PreparedStatement u = c.prepareStatement("UPSERT INTO u VALUES (?, ?, ?, ?, ?)");
        PreparedStatement h = h2.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?)")) {
      for (int i = 0; i < 1500; i++) {
        Object[] row = {i, r.nextInt(10) == 0 ? null : "k" + r.nextInt(60),
            r.nextInt(10) == 0 ? null : r.nextInt(100) - 50, r.nextDouble(), (long) i * 3};
        for (PreparedStatement p : List.of(t, u, h)) {
          for (int k = 0; k < row.length; k++) {
            p.setObject(k + 1, row[k]);
          }
          p.addBatch();
        }
      }
      t.executeBatch();
      u.executeBatch();
      h.executeBatch();
    }
    update("CREATE INDEX ia ON t (a)");
    update("CREATE INDEX ib ON t (b DESC, a) INCLUDE (c)");
    update("CREATE UNIQUE INDEX ud ON t (d)");
    try (Statement st = h2.createStatement()) { // the same indexes in H2 (it has no INCLUDE)
      st.executeUpdate("CREATE INDEX ia ON t (a)");
      st.executeUpdate("CREATE INDEX ib ON t (b DESC, a, c)");
      st.executeUpdate("CREATE UNIQUE INDEX ud ON t (d)");
    }
  }

  private java.sql.Connection h2;

  @org.junit.jupiter.api.BeforeEach
  void openH2() throws SQLException {
    h2 = java.sql.DriverManager.getConnection("jdbc:h2:mem:idx" + System.nanoTime());
  }

  @org.junit.jupiter.api.AfterEach
  void closeH2() throws SQLException {
    h2.close();
  }

  private String explain(String sql) throws SQLException {
    return String.join("\n", rows("EXPLAIN PLAN FOR " + sql));
  }

  @Test
  void explainNamesTheIndexAndItsRanges() throws SQLException {
    load(1);
    String plan = explain("SELECT id, c FROM t WHERE a = 'k7'");
    assertTrue(plan.contains("index=[IA: A = 'k7' -> 1 range"), "C is not in IA: " + plan);
    plan = explain("SELECT id FROM t WHERE b BETWEEN 3 AND 5 AND a > 'k1'");
    assertTrue(plan.contains("index=[IB (covering): B >= 3 AND B <= 5"), plan);
    plan = explain("SELECT id, c FROM t WHERE b = 3 AND c < 0.5");
    assertTrue(plan.contains("index=[IB (covering): B = 3"), "read from the index: " + plan);
    plan = explain("SELECT id, d FROM t WHERE b = 3");
    assertTrue(plan.contains("index=[IB: B = 3"), "D is not in IB: " + plan);
    plan = explain("SELECT id FROM t WHERE d = 300");
    assertTrue(plan.contains("index=[UD (covering): D = 300"), plan);
    plan = explain("SELECT id FROM t WHERE id = 3 AND a = 'k7'");
    assertFalse(plan.contains("index="), "the table's own key wins: " + plan);
    plan = explain("SELECT id FROM t WHERE c > 0.5");
    assertFalse(plan.contains("index="), plan);
    assertEquals(rows("SELECT id, c FROM u WHERE a = 'k7' ORDER BY id"),
        rows("SELECT id, c FROM t WHERE a = 'k7' ORDER BY id"));
  }

  /**
   * A row found under an index entry has the entry's values: a condition the index's
   * equalities hold exactly is not evaluated again on the fetched rows, while a range on an
   * indexed column is (its open end takes in the NULLs the index keeps, which no comparison
   * holds for).
   */
  @Test
  void onlyWhatTheIndexDoesNotHoldIsCheckedOnTheRows() throws SQLException {
    load(2);
    String plan = explain("SELECT id, c FROM t WHERE a = 'k7'");
    assertTrue(plan.contains("index=[IA: A = 'k7'") && !plan.contains("filter="), plan);
    plan = explain("SELECT id, d FROM t WHERE b IN (3, 4) AND a = 'k7'");
    assertTrue(plan.contains("index=[IB: B IN [3, 4] AND A = 'k7'") && !plan.contains("filter="),
        plan);
    plan = explain("SELECT id, d FROM t WHERE b = 3 AND c < 0.5");
    assertTrue(plan.contains("index=[IB: B = 3") && plan.contains("filter=[C < 0.5"), plan);
    plan = explain("SELECT /*+ INDEX(t ib) */ id, d FROM t WHERE b < -45");
    assertTrue(plan.contains("index=[IB: B < -45") && plan.contains("filter=[B < -45"), plan);
    for (String where : List.of("b < 0", "b < -45", "b > 45", "b <= 10 AND b IS NOT NULL", "a = 'k7'",
        "b IN (3, 4) AND a = 'k7'", "b = 3 AND c < 0.5", "a IN ('k1', NULL)")) {
      assertEquals(rows("SELECT id, d FROM u WHERE " + where + " ORDER BY id"),
          rows("SELECT id, d FROM t WHERE " + where + " ORDER BY id"), where);
      assertEquals(rows("SELECT id, d FROM u WHERE " + where + " ORDER BY id"),
          rows("SELECT /*+ INDEX(t ib) */ id, d FROM t WHERE " + where + " ORDER BY id"),
          "through IB: " + where);
    }
    // a scan reading one non-key column: its column is no key, so GROUP BY it stays (Calcite
    // took the table's first key position for the scan's first column, and dropped it)
    String grouped = "SELECT a, COUNT(*) FROM %s WHERE b IN (-4, -50) GROUP BY a";
    assertTrue(explain(String.format(grouped, "t")).contains("Aggregate"),
        explain(String.format(grouped, "t")));
    assertEquals(sorted(rows(String.format(grouped, "u"))),
        sorted(rows(String.format(grouped, "t"))));
    try (PreparedStatement p = c.prepareStatement("SELECT COUNT(*) FROM t WHERE a = ?")) {
      p.setString(1, null); // = NULL holds for no row, though the index keeps rows of NULL
      try (java.sql.ResultSet rs = p.executeQuery()) {
        assertTrue(rs.next());
        assertEquals(0, rs.getLong(1));
      }
    }
    assertFalse(rows("SELECT COUNT(*) FROM u WHERE a IS NULL").get(0).equals("0"),
        "the data has NULLs in the indexed column");
  }

  @Test
  void randomQueriesGiveTheRowsOfAnUnindexedTable() throws SQLException {
    long seed = Long.getLong("seed", System.nanoTime());
    System.out.println("IndexQueryTest seed " + seed + " (replay with -Dseed=" + seed + ")");
    load(seed);
    Random r = new Random(seed);
    int viaIndex = 0;
    for (int q = 0; q < 150; q++) {
      String where = switch (r.nextInt(9)) {
        case 0 -> "a = 'k" + r.nextInt(70) + "'";
        case 1 -> "a IN ('k" + r.nextInt(60) + "', 'k" + r.nextInt(60) + "', NULL)";
        case 2 -> "a LIKE 'k" + r.nextInt(7) + "%'";
        case 3 -> "b BETWEEN " + (r.nextInt(100) - 50) + " AND " + (r.nextInt(100) - 50);
        case 4 -> "b = " + (r.nextInt(100) - 50) + " AND a >= 'k" + r.nextInt(60) + "'";
        case 5 -> "b > " + (r.nextInt(100) - 50) + " AND (c < 0." + r.nextInt(10)
            + " OR a IS NULL)";
        case 6 -> "d = " + r.nextInt(5000);
        case 7 -> "(a = 'k" + r.nextInt(60) + "' OR a = 'k" + r.nextInt(60) + "') AND b < 0";
        default -> "b IN (" + (r.nextInt(100) - 50) + ", " + (r.nextInt(100) - 50) + ")";
      };
      String select = switch (r.nextInt(5)) {
        case 0 -> "SELECT id, a, b, c, d FROM %s WHERE " + where;
        case 4 -> "SELECT id, a, c FROM %s WHERE " + where;
        case 1 -> "SELECT COUNT(*), SUM(b) FROM %s WHERE " + where;
        case 2 -> "SELECT a, COUNT(*) FROM %s WHERE " + where + " GROUP BY a";
        default -> "SELECT id, c FROM %s WHERE " + where + " ORDER BY id LIMIT 7";
      };
      List<String> want = sorted(rows(select.replace("%s", "u")));
      String sql = select.replace("%s", "t");
      List<String> got = sorted(rows(sql));
      assertEquals(want, got, sql + " (seed " + seed + ")");
      assertEquals(sorted(io.basaltdb.sql.SqlTestSupport.rows(h2, sql)), got,
          "H2 with the same indexes: " + sql + " (seed " + seed + ")");
      viaIndex += explain(sql).contains("index=") ? 1 : 0;
    }
    assertTrue(viaIndex > 50, "queries through an index: " + viaIndex);
  }

  /**
   * An index's order serves ORDER BY (NULLs last ascending), with or without a filter, and
   * so does its reverse.
   */
  @Test
  void orderByIndexColumnsNeedsNoSort() throws SQLException {
    load(4);
    // the sort columns come first; rows tied on them may come in any order
    Object[][] queries = {
        {"SELECT a, id FROM t ORDER BY a LIMIT 15", 1},
        {"SELECT a, id FROM t WHERE a >= 'k5' ORDER BY a", 1},
        {"SELECT a, id, b FROM t WHERE b = 7 ORDER BY a", 1},
        {"SELECT b, a, id FROM t ORDER BY b DESC, a LIMIT 40 OFFSET 3", 2},
        {"SELECT b, id, c FROM t WHERE b BETWEEN -5 AND 5 ORDER BY b DESC", 1},
        {"SELECT id, b, a FROM t WHERE b = 7 ORDER BY a", 0},
        // against the index's direction: read backwards, NULLs at the other end
        {"SELECT a, id FROM t ORDER BY a DESC LIMIT 15", 1},
        {"SELECT a, id FROM t WHERE a >= 'k5' ORDER BY a DESC", 1},
        {"SELECT a, id, b FROM t WHERE b = 7 ORDER BY a DESC", 1},
        {"SELECT b, a, id FROM t ORDER BY b, a DESC LIMIT 40 OFFSET 3", 2},
        {"SELECT b, id FROM t WHERE b IN (3, 7, -2) ORDER BY b", 1}};
    for (Object[] query : queries) {
      String q = (String) query[0];
      int k = (Integer) query[1];
      String plan = explain(q);
      assertFalse(plan.contains("Sort"), q + " needs no sort: " + plan);
      assertTrue(plan.contains("index="), plan);
      List<String> got = rows(q);
      List<String> want = rows(q.replace("FROM t", "FROM u"));
      assertEquals(prefixes(want, k), prefixes(got, k), q);
      if (!q.contains("LIMIT")) {
        assertEquals(sorted(want), sorted(got), q);
      }
    }
    assertTrue(explain("SELECT a, id FROM t ORDER BY a DESC LIMIT 15")
        .contains("order=[reversed]"), explain("SELECT a, id FROM t ORDER BY a DESC LIMIT 15"));
    String plan = explain("SELECT id, a FROM t ORDER BY a NULLS FIRST LIMIT 5");
    assertTrue(plan.contains("Sort"), "the index puts NULLs last: " + plan);
  }

  /** The first {@code k} fields of each row, in row order. */
  private static List<String> prefixes(List<String> rows, int k) {
    List<String> out = new ArrayList<>();
    for (String r : rows) {
      String[] f = r.split("\\|", -1);
      out.add(String.join("|", java.util.Arrays.copyOf(f, k)));
    }
    return out;
  }

  @Test
  void anIndexFollowsWritesAndAsOfReads() throws SQLException {
    load(3);
    update("UPDATE t SET a = 'moved' WHERE a = 'k7'");
    assertEquals(rows("SELECT COUNT(*) FROM u WHERE a = 'k7'"),
        rows("SELECT COUNT(*) FROM t WHERE a = 'moved'"));
    assertEquals(List.of("0"), rows("SELECT COUNT(*) FROM t WHERE a = 'k7'"));
    update("DELETE FROM t WHERE a = 'moved'");
    assertEquals(List.of("0"), rows("SELECT COUNT(*) FROM t WHERE a = 'moved'"));
    try (Statement st = c.createStatement()) {
      st.executeUpdate("DROP INDEX ia ON t");
    }
    assertEquals(List.of("0"), rows("SELECT COUNT(*) FROM t WHERE a = 'moved'"));
  }

  /**
   * A prepared statement planned through an index that is then dropped is planned again at
   * its next execution: it reads the table instead, in the order it asked for.
   */
  @Test
  void aDroppedIndexUnderAPreparedPlan() throws SQLException {
    load(5);
    try (var filtered = c.prepareStatement("SELECT id FROM t WHERE a = ?");
        var ordered = c.prepareStatement("SELECT a, id FROM t ORDER BY a LIMIT 5")) {
      filtered.setString(1, "k7");
      List<String> before = sorted(io.basaltdb.sql.SqlTestSupport.rows(filtered.executeQuery()));
      assertFalse(before.isEmpty());
      io.basaltdb.sql.SqlTestSupport.rows(ordered.executeQuery());
      update("DROP INDEX ia ON t");
      assertEquals(before, sorted(io.basaltdb.sql.SqlTestSupport.rows(filtered.executeQuery())));
      // planned again at its next execution, as every statement whose tables changed
      List<String> after = io.basaltdb.sql.SqlTestSupport.rows(ordered.executeQuery());
      assertEquals(prefixes(rows("SELECT a, id FROM u ORDER BY a LIMIT 5"), 1),
          prefixes(after, 1));
    }
  }

  private static List<String> sorted(List<String> rows) {
    List<String> s = new ArrayList<>(rows);
    Collections.sort(s);
    return s;
  }
}
