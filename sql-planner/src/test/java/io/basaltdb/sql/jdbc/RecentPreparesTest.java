package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.TemporaryDatabaseTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A text one connection prepares again gets its last signature back ({@link RecentPrepares})
 * only while that signature still holds: not after DDL, not in another default schema, never
 * for EXPLAIN, and not at all while the database keeps no plans.
 */
class RecentPreparesTest extends TemporaryDatabaseTest {
  private static List<String> run(Connection conn, String sql, Object... values)
      throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement p = conn.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        p.setObject(i + 1, values[i]);
      }
      try (ResultSet rs = p.executeQuery()) {
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          StringBuilder row = new StringBuilder();
          for (int i = 1; i <= n; i++) {
            row.append(i == 1 ? "" : "|").append(rs.getString(i));
          }
          out.add(row.toString());
        }
      }
    }
    return out;
  }

  private long hits() {
    return PlannerStats.of(db).planCacheHits.get();
  }

  private long misses() {
    return PlannerStats.of(db).planCacheMisses.get();
  }

  @Test
  void aTextPreparedAgainIsReusedUntilItsSignatureNoLongerHolds() throws SQLException {
    st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(5))");
    st.executeUpdate("INSERT INTO t VALUES (1, 'a')");
    String sql = "SELECT * FROM t WHERE id = ?";
    assertEquals(List.of("1|a"), run(c, sql, 1));
    long hits = hits();
    long misses = misses();
    assertEquals(List.of("1|a"), run(c, sql, 1));
    assertEquals(List.of("1|a"), run(c, sql, 1));
    assertEquals(hits + 2, hits(), "reused, counted as plan cache hits");
    assertEquals(misses, misses(), "nothing looked up");

    st.executeUpdate("ALTER TABLE t ADD w INTEGER"); // a new catalog version: a new signature
    st.executeUpdate("UPSERT INTO t (id, w) VALUES (1, 7)");
    assertEquals(List.of("1|a|7"), run(c, sql, 1));

    st.executeUpdate("CREATE SCHEMA s"); // another default schema: its own table t
    st.executeUpdate("CREATE TABLE s.t (id INTEGER NOT NULL PRIMARY KEY, x VARCHAR(5))");
    st.executeUpdate("INSERT INTO s.t VALUES (1, 'in s')");
    assertEquals(List.of("1|a|7"), run(c, sql, 1));
    c.setSchema("S");
    assertEquals(List.of("1|in s"), run(c, sql, 1));
  }

  @Test
  void explainIsNeverKeptNorAnythingWhileTheDatabaseKeepsNoPlans() throws SQLException {
    st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(5))");
    String explain = "EXPLAIN PLAN FOR SELECT v FROM t WHERE id = ?";
    run(c, explain, 1);
    long lookups = hits() + misses();
    run(c, explain, 1);
    assertEquals(lookups + 1, hits() + misses(), "EXPLAIN goes to the plan cache each time");
    try (Connection none = connectionWithoutPlanCache()) {
      String sql = "SELECT v FROM t WHERE id = ?";
      run(none, sql, 1);
      long misses = misses();
      run(none, sql, 1);
      assertEquals(misses + 1, misses(), "looked up (and missed) again: nothing kept");
    }
  }
}
