package io.basaltdb.sql.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.Switches;
import io.basaltdb.sql.TemporaryDatabaseTest;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Single-table statements planned by the fixed rule program ({@link ShortPath}) get the plan
 * the cost-based search gives them (the same EXPLAIN) and the same answers; statements it does
 * not take still go to the search.
 */
class ShortPathTest extends TemporaryDatabaseTest {
  private static final List<String> SHORT = List.of(
      "SELECT v FROM t WHERE id = 3",
      "SELECT * FROM t WHERE id BETWEEN 3 AND 7",
      "SELECT id, v FROM t WHERE id > 5 ORDER BY id LIMIT 3",
      "SELECT id FROM t WHERE id < 10 ORDER BY id DESC LIMIT 2",
      "SELECT id FROM t WHERE id >= 2 ORDER BY id OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY",
      "SELECT v FROM t WHERE n > 50 AND v LIKE 'v1%'",
      "SELECT v, n + 1 AS m FROM t WHERE id IN (1, 2, 3)",
      "SELECT * FROM t LIMIT 5",
      "SELECT v FROM t ORDER BY v DESC",
      // the scan's key order kept through a projection of expressions: no sort above it
      "SELECT id, n * 3 - 1 FROM t WHERE v LIKE 'v1%' ORDER BY id",
      "SELECT n + 1, id FROM t WHERE id > 3 ORDER BY id DESC",
      "SELECT id, UPPER(v) || 'x', id * 2 FROM t WHERE n IN (10, 20) ORDER BY id",
      "SELECT id FROM t WHERE id = 1 OR id = 5",
      "SELECT id FROM t WHERE (id = 1 AND n = 10) OR (id = 2 AND n = 20)",
      "SELECT CASE WHEN n > 10 THEN 'big' ELSE 'small' END AS s FROM t WHERE id = 4",
      "SELECT id FROM t WHERE 1 = 1 AND id = 2",
      "SELECT a, b FROM p WHERE a = 1 AND b > 'k'",
      "SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2030-01-01 00:00:00' WHERE id = 1",
      "INSERT INTO t VALUES (100, 'x', 1, 1.5)",
      "UPSERT INTO t (id, v) VALUES (101, 'y')",
      "INSERT INTO t SELECT id + 1000, v, n, d FROM t WHERE id < 3",
      "UPDATE t SET n = n + 1 WHERE id = 3",
      "UPDATE t SET v = 'z' WHERE id = 3 AND n > 1",
      "DELETE FROM t WHERE id = 3",
      "DELETE FROM t WHERE v = 'q'",
      "VALUES 1");
  private static final List<String> SEARCHED = List.of(
      "SELECT COUNT(*) FROM t WHERE id < 10",
      "SELECT a.v FROM t a JOIN t b ON a.id = b.n WHERE a.id = 1",
      "SELECT v FROM t WHERE id IN (SELECT a FROM p)",
      "SELECT v, ROW_NUMBER() OVER (ORDER BY id) FROM t WHERE id < 4");

  @BeforeEach
  void open() throws SQLException {
    createSampleTable(st);
    st.executeUpdate("CREATE TABLE p (a INTEGER NOT NULL, b VARCHAR(4) NOT NULL, "
        + "CONSTRAINT pk PRIMARY KEY (a, b)) SALT_BUCKETS = 2");
    for (int i = 0; i < 20; i++) {
      st.executeUpdate("UPSERT INTO p VALUES (" + (i % 4) + ", 'k" + i + "')");
    }
  }

  @AfterEach
  void clearSwitch() {
    System.clearProperty(Switches.SHORT_PATH.property());
    System.clearProperty(Switches.SMALL_PLANS.property());
  }

  private List<String> rows(String sql) throws SQLException {
    try (Connection own = connectionWithoutPlanCache(); Statement s = own.createStatement()) {
      return s.execute(sql) ? SqlTestSupport.rows(s.getResultSet())
          : List.of("count " + s.getUpdateCount());
    }
  }

  private String plan(String sql, boolean shortPath) throws SQLException {
    System.setProperty(Switches.SHORT_PATH.property(), Boolean.toString(shortPath));
    return String.join("\n", rows("EXPLAIN PLAN FOR " + sql));
  }

  @Test
  void theShortPathGivesTheSearchsPlan() throws SQLException {
    for (String sql : SHORT) {
      String searched = plan(sql, false);
      long used = PlannerStats.of(db).shortPaths.get();
      String shortPlan = plan(sql, true);
      assertEquals(used + 1, PlannerStats.of(db).shortPaths.get(), "taken: " + sql);
      assertEquals(searched, shortPlan, sql);
    }
    for (String sql : SEARCHED) {
      long used = PlannerStats.of(db).shortPaths.get();
      plan(sql, true);
      assertEquals(used, PlannerStats.of(db).shortPaths.get(), "not taken: " + sql);
    }
  }

  /**
   * A statement the short path takes never registers the planner's default rules (nor makes
   * Calcite's standard program); one it does not take does.
   */
  @Test
  void theShortPathLeavesTheRuleCataloguesAlone() throws SQLException {
    System.setProperty(Switches.SHORT_PATH.property(), "true");
    for (String sql : SHORT) {
      long registered = PlannerStats.of(db).defaultRuleRegistrations.get();
      rows(sql);
      assertEquals(registered, PlannerStats.of(db).defaultRuleRegistrations.get(), sql);
    }
    System.setProperty(Switches.SMALL_PLANS.property(), "false"); // small tables: SmallPlans'
    for (String sql : SEARCHED) {
      long registered = PlannerStats.of(db).defaultRuleRegistrations.get();
      rows(sql);
      assertTrue(PlannerStats.of(db).defaultRuleRegistrations.get() > registered, sql);
    }
  }

  @Test
  void andTheSameAnswers() throws SQLException {
    for (String sql : SHORT) {
      if (sql.startsWith("SELECT") || sql.startsWith("VALUES")) {
        System.setProperty(Switches.SHORT_PATH.property(), "false");
        List<String> searched = rows(sql);
        System.setProperty(Switches.SHORT_PATH.property(), "true");
        assertEquals(searched, rows(sql), sql);
      }
    }
    assertTrue(rows("SELECT id FROM t WHERE id < 3 ORDER BY id").equals(List.of("0", "1", "2")));
  }
}
