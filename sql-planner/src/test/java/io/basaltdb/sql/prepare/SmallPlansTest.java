package io.basaltdb.sql.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.Switches;
import io.basaltdb.sql.TemporaryDatabaseTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Joins, sub-queries and aggregates over small tables are planned without the search
 * ({@link SmallPlans}) and answer as the search's plans do; over a table past
 * {@link SmallPlans#SMALL_ROWS} rows they are still searched, and never register the
 * planner's default rules when not.
 */
class SmallPlansTest extends TemporaryDatabaseTest {
  private static final List<String> SMALL = List.of(
      "SELECT id, n + 1 FROM a WHERE n IN (SELECT n FROM b WHERE id < 5) ORDER BY id",
      "SELECT id FROM a WHERE n > (SELECT MIN(n) FROM b) + 3 ORDER BY id",
      "SELECT n, COUNT(*), SUM(id + 5) FROM a WHERE id <> 3 GROUP BY n ORDER BY n",
      "SELECT n, COUNT(*) FROM a WHERE n > (SELECT AVG(n) FROM b) GROUP BY n HAVING COUNT(*) > 0"
          + " ORDER BY n",
      "SELECT a.id, b.v FROM a JOIN b ON a.n = b.n WHERE a.id < 8 ORDER BY a.id, b.v",
      "SELECT a.id, b.v FROM a LEFT JOIN b ON a.id = b.id + 7 ORDER BY a.id",
      "SELECT id FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.n = a.n AND b.id > 2) ORDER BY id",
      "SELECT id FROM a WHERE n NOT IN (SELECT n FROM b WHERE id < 3) ORDER BY id",
      "SELECT id FROM a WHERE v NOT IN (SELECT v FROM b) ORDER BY id",
      "SELECT DISTINCT n FROM a ORDER BY n",
      "SELECT COUNT(*), MAX(v), MIN(n) FROM a",
      "SELECT a.id FROM a, b WHERE a.id > b.n ORDER BY 1 FETCH FIRST 5 ROWS ONLY");

  @BeforeEach
  void tables() throws SQLException {
    for (String t : List.of("a", "b")) {
      st.executeUpdate("CREATE TABLE " + t + " (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(8),"
          + " n INTEGER)");
      for (int i = 0; i < 10; i++) {
        st.executeUpdate("UPSERT INTO " + t + " VALUES (" + i + ", " + (i % 4 == 0 ? "NULL"
            : "'v" + i % 3 + "'") + ", " + (t.equals("a") ? i % 5 : i * 2 % 7) + ")");
      }
    }
    st.executeUpdate("CREATE TABLE big (id INTEGER NOT NULL PRIMARY KEY, n INTEGER)");
    try (PreparedStatement p = c.prepareStatement("UPSERT INTO big VALUES (?, ?)")) {
      for (int i = 0; i < 300; i++) {
        p.setInt(1, i);
        p.setInt(2, i % 5);
        p.addBatch();
      }
      p.executeBatch();
    }
  }

  @AfterEach
  void clearSwitch() {
    System.clearProperty(Switches.SMALL_PLANS.property());
  }

  private List<String> rows(String sql, boolean small) throws SQLException {
    System.setProperty(Switches.SMALL_PLANS.property(), Boolean.toString(small));
    try (Connection own = connectionWithoutPlanCache(); Statement s = own.createStatement()) {
      return SqlTestSupport.rows(s.executeQuery(sql));
    }
  }

  @Test
  void smallTablesAnswerAsTheSearchsPlans() throws SQLException {
    PlannerStats stats = PlannerStats.of(db);
    for (String sql : SMALL) {
      List<String> searched = rows(sql, false);
      long small = stats.smallPlans.get();
      long registered = stats.defaultRuleRegistrations.get();
      assertEquals(searched, rows(sql, true), sql);
      assertEquals(small + 1, stats.smallPlans.get(), "planned small: " + sql);
      assertEquals(registered, stats.defaultRuleRegistrations.get(), "no search: " + sql);
      assertTrue(!searched.isEmpty() || sql.contains("v NOT IN"), // b.v holds a NULL: no row
          "an answer to compare: " + sql);
    }
  }

  /**
   * A big table, an aggregate the enumerable one does not take (DISTINCT), a hint: searched.
   */
  @Test
  void aBigTableIsSearched() throws SQLException {
    PlannerStats stats = PlannerStats.of(db);
    for (String sql : List.of("SELECT a.id, big.id FROM a JOIN big ON a.n = big.n WHERE "
        + "big.id < 20 ORDER BY 1, 2", "SELECT n, COUNT(*) FROM big GROUP BY n ORDER BY n",
        "SELECT COUNT(DISTINCT n) FROM b", "SELECT /*+ NO_INDEX */ a.id FROM a JOIN b ON a.n ="
            + " b.n WHERE a.id = 1 ORDER BY 1")) {
      long small = stats.smallPlans.get();
      List<String> answer = rows(sql, true);
      assertEquals(small, stats.smallPlans.get(), "searched: " + sql);
      assertEquals(rows(sql, false), answer, sql);
    }
  }
}
