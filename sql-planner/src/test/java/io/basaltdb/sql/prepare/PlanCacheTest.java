package io.basaltdb.sql.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.basaltdb.sql.PlannerStats;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * Plans are kept per open database ({@link PlanCache}, held by the database): the same SQL
 * text on two databases is planned for each, and each database counts its own reuse.
 */
class PlanCacheTest {
  private static final String QUERY = "SELECT SUM(v) FROM t";

  @Test
  void twoDatabasesNeverShareAPlanAndEachCountsItsOwnReuse() throws SQLException {
    try (Database a = Database.openTemporary(EngineOptions.defaults());
        Database b = Database.openTemporary(EngineOptions.defaults());
        Connection ca = BasaltConnections.open(a);
        Connection cb = BasaltConnections.open(b)) {
      create(ca, 10);
      create(cb, 1000);
      assertNotSame(PlanCache.of(a), PlanCache.of(b));
      assertSame(PlanCache.of(a), PlanCache.of(a));
      long hitsA = PlannerStats.of(a).planCacheHits.get();
      long missesB = PlannerStats.of(b).planCacheMisses.get();
      for (int i = 0; i < 3; i++) {
        assertEquals(10, sum(ca));
        assertEquals(1000, sum(cb), "a plan made on the other database would read its table");
      }
      assertEquals(hitsA + 2, PlannerStats.of(a).planCacheHits.get(), "planned once, then reused");
      assertEquals(missesB + 1, PlannerStats.of(b).planCacheMisses.get(), "planned once for b as well");
    }
  }

  private static void create(Connection c, int value) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v INTEGER)");
      st.executeUpdate("INSERT INTO t VALUES (1, " + value + ")");
    }
  }

  private static long sum(Connection c) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(QUERY)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
