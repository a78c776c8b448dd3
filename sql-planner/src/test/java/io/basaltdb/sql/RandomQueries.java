package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The differential queries of {@link SqlVersusH2Test}, for any Basalt connection (the embedded
 * engine here, HBase in its module): the same random rows in Basalt and H2, then generated
 * queries (key and non-key predicates, ranges, IN, LIKE, NULLs, OR, ORDER BY in and against key
 * order, LIMIT and OFFSET, GROUP BY aggregates, joins, statement parameters) must return the same
 * rows. Tables: a composite key with a DESC column over a pre-split table, and a salted one.
 */
public final class RandomQueries {
  private static final String[] OPS = {"<", "<=", ">", ">=", "=", "<>"};

  private RandomQueries() {}

  /** {@code -Dbasalt.seed=N}, else a new seed; printed with how to replay it. */
  public static long seed(String test) {
    String s = System.getProperty("basalt.seed");
    long seed = s != null && !s.isEmpty() ? Long.parseLong(s) : System.nanoTime();
    System.out.println(test + ": seed=" + seed + " (replay with -Dbasalt.seed=" + seed + ")");
    return seed;
  }

  /**
   * Creates {@code ev} and {@code grp} in {@code b}'s and {@code h2}'s default schemas (with
   * Basalt table options {@code storage}), fills both alike from {@code seed}, and asserts that
   * 400 random queries and 50 parameter bindings give H2's rows; drops the two tables at the
   * end (a shared storage runs it again). Returns how many results it compared.
   */
  public static int run(Connection b, Connection h2, long seed, String storage)
      throws SQLException {
    Random r = new Random(seed);
    int compared = 0;
    {
      both(b, h2,
          "CREATE TABLE ev (g VARCHAR NOT NULL, k INTEGER NOT NULL, f.v BIGINT, f.s VARCHAR, "
              + "m.d DOUBLE, m.w BIGINT, CONSTRAINT pk PRIMARY KEY (g, k DESC)) " + storage
              + " SPLIT ON ('c', 'f')",
          "CREATE TABLE ev (g VARCHAR NOT NULL, k INTEGER NOT NULL, v BIGINT, s VARCHAR, "
              + "d DOUBLE, w BIGINT, PRIMARY KEY (g, k))");
      both(b, h2,
          "CREATE TABLE grp (g VARCHAR NOT NULL PRIMARY KEY, label VARCHAR, w INTEGER) "
              + "SALT_BUCKETS=3, " + storage,
          "CREATE TABLE grp (g VARCHAR NOT NULL PRIMARY KEY, label VARCHAR, w INTEGER)");
      for (int i = 0; i < 400; i++) {
        String g = group(r);
        int k = r.nextInt(60) - 20;
        String v = r.nextInt(5) == 0 ? "NULL" : String.valueOf(r.nextInt(1000) - 100);
        String s = r.nextInt(4) == 0 ? "NULL" : "'" + (char) ('p' + r.nextInt(4)) + r.nextInt(50) + "'";
        String d = r.nextInt(6) == 0 ? "NULL" : String.valueOf(r.nextInt(400) / 4.0);
        String w = r.nextInt(5) == 0 ? "NULL" : String.valueOf(r.nextInt(1000) - 100);
        insertBoth(b, h2, "INSERT INTO ev (g, k, v, s, d, w) VALUES ('" + g + "', " + k + ", "
            + v + ", " + s + ", " + d + ", " + w + ")");
      }
      for (char c = 'a'; c <= 'i'; c++) {
        if (r.nextInt(4) != 0) {
          insertBoth(b, h2, "INSERT INTO grp VALUES ('" + c + "', 'group " + c + "', "
              + (r.nextInt(3) == 0 ? "NULL" : String.valueOf(r.nextInt(10))) + ")");
        }
      }
      for (int q = 0; q < 400; q++) {
        Query query = query(r);
        List<String> expected = rows(h2, query.sql);
        List<String> actual = rows(b, query.sql);
        if (!query.ordered) {
          Collections.sort(expected);
          Collections.sort(actual);
        }
        assertEquals(expected, actual, query.sql + " (seed " + seed + ")");
        compared++;
      }
      // the same through statement parameters: one plan, many bindings
      String sql = "SELECT g, k, v FROM ev WHERE g = ? AND k >= ? AND k < ? ORDER BY g, k";
      try (PreparedStatement pb = b.prepareStatement(sql);
          PreparedStatement ph = h2.prepareStatement(sql)) {
        for (int i = 0; i < 50; i++) {
          String g = group(r);
          int lo = r.nextInt(60) - 25;
          int hi = lo + r.nextInt(20);
          for (PreparedStatement p : List.of(pb, ph)) {
            p.setString(1, g);
            p.setInt(2, lo);
            p.setInt(3, hi);
          }
          assertEquals(rows(ph), rows(pb), sql + " " + g + "," + lo + "," + hi + " (seed " + seed + ")");
          compared++;
        }
      }
      both(b, h2, "DROP TABLE ev", "DROP TABLE ev");
      both(b, h2, "DROP TABLE grp", "DROP TABLE grp");
    }
    return compared;
  }

  private static String group(Random r) {
    return (char) ('a' + r.nextInt(8)) + (r.nextBoolean() ? "" : String.valueOf((char) ('a' + r.nextInt(3))));
  }

  private record Query(String sql, boolean ordered) {}

  private static Query query(Random r) {
    String where = r.nextInt(8) == 0 ? "" : " WHERE " + predicate(r, 0);
    switch (r.nextInt(6)) {
      case 0: { // key order, forward or reversed, maybe limited
        boolean desc = r.nextBoolean();
        String order = desc ? " ORDER BY g DESC, k DESC" : " ORDER BY g, k";
        String limit = r.nextBoolean() ? " LIMIT " + r.nextInt(20)
            + (r.nextBoolean() ? " OFFSET " + r.nextInt(10) : "") : "";
        return new Query("SELECT g, k, v, s, d FROM ev" + where + order + limit, true);
      }
      case 1: // non-key order, total thanks to the key columns after it
        return new Query("SELECT k, s, g FROM ev" + where + " ORDER BY s NULLS FIRST, g, k"
            + (r.nextBoolean() ? " LIMIT 7" : ""), true);
      case 2: { // aggregates, grouped by a key prefix or not at all
        String aggs = "COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(s), MIN(d)";
        return r.nextBoolean()
            ? new Query("SELECT g, " + aggs + " FROM ev" + where + " GROUP BY g", false)
            : new Query("SELECT " + aggs + " FROM ev" + where, false);
      }
      case 3: // a join with the salted table
        return new Query("SELECT e.g, e.k, gr.label, gr.w FROM (SELECT * FROM ev" + where
            + ") e JOIN grp gr ON e.g = gr.g WHERE gr.w IS NOT NULL", false);
      case 4: { // the salted table alone, by its key, maybe aggregated
        String cond = " WHERE g " + OPS[r.nextInt(OPS.length)] + " '" + (char) ('a' + r.nextInt(9))
            + "'" + (r.nextBoolean() ? " OR w > 4" : "");
        return switch (r.nextInt(3)) {
          case 0 -> new Query("SELECT g, label, w FROM grp" + cond, false);
          case 1 -> new Query("SELECT g, w FROM grp" + cond + " ORDER BY g"
              + (r.nextBoolean() ? " DESC" : "") + " LIMIT " + r.nextInt(6) + " OFFSET "
              + r.nextInt(3), true); // buckets merged in key order
          default -> new Query("SELECT COUNT(*), SUM(w), MIN(label), MAX(g) FROM grp" + cond,
              false);
        };
      }
      default:
        return new Query("SELECT g, k, v, s, d FROM ev" + where, false);
    }
  }

  private static String predicate(Random r, int depth) {
    String op = OPS[r.nextInt(OPS.length)];
    int k = r.nextInt(70) - 25;
    String g = "'" + (char) ('a' + r.nextInt(9)) + "'";
    String p = switch (r.nextInt(depth > 0 ? 16 : 18)) {
      case 0 -> "g = " + g;
      case 1 -> "g = " + g + " AND k " + op + " " + k;
      case 2 -> "g = " + g + " AND k BETWEEN " + k + " AND " + (k + r.nextInt(30));
      case 3 -> "g IN ('a', " + g + ", 'e', 'bb') AND k " + op + " " + k;
      case 4 -> "g " + op + " " + g;
      case 5 -> "g LIKE '" + (char) ('a' + r.nextInt(9)) + "%'";
      case 6 -> "k " + op + " " + k; // a non-leading key column: a filter, not a range
      case 7 -> "v " + op + " " + (r.nextInt(1000) - 100);
      case 8 -> "s LIKE '" + (char) ('p' + r.nextInt(4)) + "1%'";
      case 9 -> "v IS NULL";
      case 10 -> "s IS NOT NULL AND d > " + r.nextInt(100);
      case 11 -> "(g = " + g + " OR g = 'b') AND k IN (" + k + ", " + (k + 1) + ")";
      case 12 -> "v " + op + " w"; // two cell columns of one row
      case 13 -> "g " + op + " s"; // a key column and a cell column
      case 14 -> "k " + op + " w"; // of two types: compared above the scan
      case 15 -> "d " + op + " d"; // NULL on both sides
      case 16 -> "(" + predicate(r, depth + 1) + " OR " + predicate(r, depth + 1) + ")";
      default -> predicate(r, depth + 1) + " AND NOT (" + predicate(r, depth + 1) + ")";
    };
    return p;
  }

  private static void both(Connection b, Connection h2, String basaltDdl, String h2Ddl)
      throws SQLException {
    try (Statement st = b.createStatement()) {
      st.executeUpdate(basaltDdl);
    }
    try (Statement st = h2.createStatement()) {
      st.executeUpdate(h2Ddl);
    }
  }

  /** Inserts into both, or into neither when H2 refuses a duplicate key (Basalt must too). */
  private static void insertBoth(Connection b, Connection h2, String insert) throws SQLException {
    try (Statement st = h2.createStatement()) {
      st.executeUpdate(insert);
    } catch (SQLException duplicate) {
      try (Statement st = b.createStatement()) {
        st.executeUpdate(insert);
        throw new AssertionError("Basalt accepted a duplicate key: " + insert);
      } catch (SQLException expected) {
        return;
      }
    }
    try (Statement st = b.createStatement()) {
      st.executeUpdate(insert);
    }
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
    return SqlTestSupport.rows(c, sql);
  }

  private static List<String> rows(PreparedStatement p) throws SQLException {
    return SqlTestSupport.rows(p.executeQuery());
  }
}
