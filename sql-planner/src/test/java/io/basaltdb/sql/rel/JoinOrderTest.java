package io.basaltdb.sql.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Join orders of many-table queries, on a small TPC-H-like schema in Basalt and H2: a column
 * equality implied through a third table lets a dimension cut the rows before a lookup
 * ({@link JoinEqualityClosureRule}, {@link SmallestFirstJoinOrderRule}), and an OR over two
 * tables filters each ({@link ImpliedSideFilterRule}). Every answer equals H2's, NULLs
 * included; the plans show the earlier cut.
 */
class JoinOrderTest extends SqlTestBase {
  private static final long SEED = Long.getLong("basalt.seed", System.nanoTime());
  private Connection h2;

  @BeforeEach
  void load() throws SQLException {
    System.out.println("JoinOrderTest seed=" + SEED + " (replay: -Dbasalt.seed=" + SEED + ")");
    Random r = new Random(SEED);
    h2 = DriverManager.getConnection("jdbc:h2:mem:joinorder" + System.nanoTime());
    List<String> ddl = List.of(
        "CREATE TABLE region (r_id INTEGER PRIMARY KEY, r_name VARCHAR(10))",
        "CREATE TABLE nation (n_id INTEGER PRIMARY KEY, n_name VARCHAR(10), n_region INTEGER)",
        "CREATE TABLE supplier (s_id INTEGER PRIMARY KEY, s_nation INTEGER)",
        "CREATE TABLE customer (c_id INTEGER PRIMARY KEY, c_nation INTEGER)",
        "CREATE TABLE orders (o_id INTEGER PRIMARY KEY, o_cust INTEGER, o_day INTEGER)",
        "CREATE TABLE line (l_order INTEGER NOT NULL, l_no INTEGER NOT NULL, l_supp INTEGER, "
            + "l_price DECIMAL(10, 2), CONSTRAINT pk PRIMARY KEY (l_order, l_no))");
    List<Object[]> regions = new ArrayList<>();
    List<Object[]> nations = new ArrayList<>();
    List<Object[]> suppliers = new ArrayList<>();
    List<Object[]> customers = new ArrayList<>();
    List<Object[]> orders = new ArrayList<>();
    List<Object[]> lines = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      regions.add(new Object[] {i, "R" + i});
    }
    for (int i = 0; i < 25; i++) {
      nations.add(new Object[] {i, "N" + i, i == 24 ? null : i % 5});
    }
    for (int i = 0; i < 200; i++) {
      suppliers.add(new Object[] {i, r.nextInt(40) == 0 ? null : r.nextInt(25)});
    }
    for (int i = 0; i < 20_000; i++) { // many: reading them all costs more than looking some up
      customers.add(new Object[] {i, r.nextInt(40) == 0 ? null : r.nextInt(25)});
    }
    for (int o = 0; o < 6000; o++) {
      orders.add(new Object[] {o, r.nextInt(50) == 0 ? null : r.nextInt(20_000), r.nextInt(700)});
      for (int l = 0; l < 1 + r.nextInt(4); l++) {
        lines.add(new Object[] {o, l, r.nextInt(50) == 0 ? null : r.nextInt(200),
            java.math.BigDecimal.valueOf(r.nextInt(10_000), 2)});
      }
    }
    for (Connection conn : List.of(c, h2)) {
      SqlTestSupport.executeAll(conn, ddl);
      SqlTestSupport.insert(conn, "region", regions);
      SqlTestSupport.insert(conn, "nation", nations);
      SqlTestSupport.insert(conn, "supplier", suppliers);
      SqlTestSupport.insert(conn, "customer", customers);
      SqlTestSupport.insert(conn, "orders", orders);
      SqlTestSupport.insert(conn, "line", lines);
    }
  }

  @AfterEach
  void closeH2() throws SQLException {
    h2.close();
  }

  private String same(String sql) throws SQLException {
    List<String> want = new ArrayList<>(SqlTestSupport.rows(h2, sql));
    List<String> got = new ArrayList<>(rows(sql));
    Collections.sort(want);
    Collections.sort(got);
    assertEquals(want, got, sql + " (seed " + SEED + ")");
    return String.join("\n", rows("EXPLAIN PLAN FOR " + sql));
  }

  /** The plan line holding {@code text}, and whether a line holding {@code inner} is under it. */
  private static boolean under(String plan, String text, String inner) {
    String[] lines = plan.split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains(text)) {
        int indent = indent(lines[i]);
        for (int j = i + 1; j < lines.length && indent(lines[j]) > indent; j++) {
          if (lines[j].contains(inner)) {
            return true;
          }
        }
        return false;
      }
    }
    throw new AssertionError("no " + text + " in\n" + plan);
  }

  private static int indent(String line) {
    return line.length() - line.stripLeading().length();
  }

  /**
   * TPC-H Q5's shape: customers and suppliers meet nations on one column through each other;
   * with {@code c_nation = n_id} implied, one region's nations cut the orders before their
   * lines are looked up, and the order adding the fewest rows first joins the suppliers last.
   */
  @Test
  void aDimensionJoinedThroughAnImpliedEqualityCutsRowsBeforeTheLookups() throws SQLException {
    String q = "SELECT n_name, SUM(l_price), COUNT(*) FROM customer, orders, line, supplier, "
        + "nation, region WHERE c_id = o_cust AND l_order = o_id AND l_supp = s_id "
        + "AND c_nation = s_nation AND s_nation = n_id AND n_region = r_id AND r_name = 'R2' "
        + "AND o_day >= 100 AND o_day < 200 GROUP BY n_name";
    String plan = same(q);
    assertTrue(under(plan, "BasaltLookupJoin(table=[[DEFAULT, LINE]]", "[[DEFAULT, NATION]]"),
        "nations cut the orders before their lines are looked up:\n" + plan);
    // and the suppliers, many to each nation, join the lines by key after, not the orders by
    // nation before (Calcite's heuristic order alone builds that product)
    assertTrue(!under(plan, "BasaltLookupJoin(table=[[DEFAULT, LINE]]", "[[DEFAULT, SUPPLIER]]"),
        plan);
    same(q.replace("r_name = 'R2'", "r_name IN ('R1', 'R3')"));
    same(q.replace("c_nation = s_nation AND s_nation = n_id",
        "s_nation = n_id AND n_id = c_nation"));
    // BIGINT against INTEGER: equal values, no equality implied across the two types
    same(q.replace("c_nation = s_nation", "CAST(c_nation AS BIGINT) = s_nation"));
  }

  /**
   * TPC-H Q7's shape: an OR pairing the names of two nations filters each nation by the names
   * its branches allow, before the suppliers and customers are joined.
   */
  @Test
  void anOrOverTwoTablesFiltersEachByItsOwnBranches() throws SQLException {
    String q = "SELECT n1.n_name, n2.n_name, COUNT(*), SUM(l_price) FROM supplier, line, "
        + "orders, customer, nation n1, nation n2 WHERE s_id = l_supp AND o_id = l_order "
        + "AND c_id = o_cust AND s_nation = n1.n_id AND c_nation = n2.n_id "
        + "AND ((n1.n_name = 'N3' AND n2.n_name = 'N7') OR (n1.n_name = 'N7' AND n2.n_name = 'N3')) "
        + "AND o_day BETWEEN 50 AND 400 GROUP BY n1.n_name, n2.n_name";
    String plan = same(q);
    String twoNames = "filter=[(N_NAME = 'N3' OR N_NAME = 'N7')]";
    assertEquals(2, SqlTestSupport.occurrences(plan, twoNames),
        "each nation read for its two names:\n" + plan);
    // a branch with no condition on the second nation: that nation is not filtered
    String open = q.replace("(n1.n_name = 'N7' AND n2.n_name = 'N3')", "(n1.n_name = 'N7')");
    String openPlan = same(open);
    assertEquals(1, SqlTestSupport.occurrences(openPlan, twoNames), openPlan);
    // an OR with a NULL-able comparison on each side
    same(q.replace("n2.n_name = 'N3')", "n2.n_region IS NULL)"));
  }

  /**
   * TPC-H Q2's shape: a correlated MAX over a join of three tables, decorrelated into an
   * aggregate over a projection of that join; the keys the outer filter keeps are joined
   * beneath the projection, with the three tables, so the lines are looked up by those keys
   * instead of read whole.
   */
  @Test
  void anAggregateOverAJoinIsRestrictedInsideThatJoin() throws SQLException {
    String q = "SELECT o_id, l_no, l_price FROM orders, line, supplier WHERE o_id = l_order "
        + "AND l_supp = s_id AND o_id < 150 AND l_price = (SELECT MAX(l2.l_price) FROM line l2, "
        + "supplier s2, nation n2 WHERE l2.l_order = o_id AND l2.l_supp = s2.s_id "
        + "AND s2.s_nation = n2.n_id AND n2.n_region = 2)";
    String plan = same(q);
    assertEquals(0, SqlTestSupport.occurrences(plan, "BasaltScan(table=[[DEFAULT, LINE]]"),
        "lines only looked up:\n" + plan);
  }
}
