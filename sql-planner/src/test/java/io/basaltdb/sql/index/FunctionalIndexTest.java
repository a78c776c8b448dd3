package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.catalog.IndexStats;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.storage.TableName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Functional indexes ({@code CREATE INDEX i ON t (UPPER(name))}, Phoenix's): entries keyed by an
 * expression of the row, kept by every write; a filter on the same expression is answered
 * through the index (EXPLAIN names it) with the rows H2 gives without one; a UNIQUE one refuses
 * values equal under the expression; bad expressions are refused at CREATE INDEX.
 */
class FunctionalIndexTest extends SqlTestBase {
  private static final long SEED = Long.getLong("basalt.seed", System.nanoTime());
  private static final TableName T = new TableName("default", "P");

  private void create(Connection h2) throws SQLException {
    String ddl = "CREATE TABLE p (id INTEGER PRIMARY KEY, name VARCHAR(20), a INTEGER, "
        + "b INTEGER)";
    update(ddl);
    if (h2 != null) {
      h2.createStatement().executeUpdate(ddl);
    }
  }

  private String explain(String sql) throws SQLException {
    return String.join("\n", rows("EXPLAIN PLAN FOR " + sql));
  }

  private void verify() {
    SqlCatalog catalog = new SqlCatalog(db);
    for (SqlIndexDef i : catalog.indexes(T)) {
      IndexVerifier.Report r = IndexVerifier.verify(db, catalog.get(T), i);
      assertTrue(r.consistent(), i.name() + ": " + r + " (seed " + SEED + ")");
    }
  }

  @Test
  void aFilterOnTheExpressionReadsTheIndexAndWritesKeepIt() throws SQLException {
    create(null);
    update("INSERT INTO p VALUES (1, 'Alice', 1, 2), (2, 'alice', 5, 5), (3, 'Bob', 7, -1), "
        + "(4, NULL, 2, 2), (5, 'ALICE', NULL, 3)");
    update("CREATE INDEX upper_name ON p (UPPER(name))");
    update("CREATE INDEX sum_ab ON p (a + b DESC) INCLUDE (name)");
    String sql = "SELECT id FROM p WHERE UPPER(name) = 'ALICE' ORDER BY id";
    assertTrue(explain(sql).contains("index=[UPPER_NAME: "), explain(sql));
    assertEquals(List.of("1", "2", "5"), rows(sql));
    sql = "SELECT /*+ INDEX(p sum_ab) */ id, name FROM p WHERE a + b BETWEEN 4 AND 10 "
        + "ORDER BY id"; // five rows: the table scan costs less, unless hinted
    assertTrue(explain(sql).contains("index=[SUM_AB: \"A\" + \"B\" >= 4 AND \"A\" + \"B\" <= 10"),
        explain(sql)); // the filter above reads A and B, which the index does not hold
    assertEquals(List.of("2|alice", "3|Bob", "4|null"), rows(sql));
    assertTrue(explain("SELECT id FROM p WHERE UPPER(name) LIKE 'AL%'")
        .contains("index=[UPPER_NAME: "));
    assertTrue(!explain("SELECT id FROM p WHERE LOWER(name) = 'alice'").contains("index="),
        "another expression is not the index's");

    update("UPDATE p SET name = 'Carol' WHERE id = 2");
    update("UPSERT INTO p (id, name) VALUES (6, 'alICE')");
    update("UPDATE p SET a = a + 100 WHERE id = 3");
    update("DELETE FROM p WHERE id = 1");
    verify();
    assertEquals(List.of("5", "6"),
        rows("SELECT id FROM p WHERE UPPER(name) = 'ALICE' ORDER BY id"));
    assertEquals(List.of("2"), rows("SELECT id FROM p WHERE UPPER(name) = 'CAROL'"));
    assertEquals(List.of("3"), rows("SELECT id FROM p WHERE a + b > 50"));

    List<String> info = new ArrayList<>();
    try (ResultSet r = c.getMetaData().getIndexInfo(null, "DEFAULT", "P", false, false)) {
      while (r.next()) {
        info.add(r.getString("INDEX_NAME") + ":" + r.getString("COLUMN_NAME"));
      }
    }
    assertTrue(info.contains("UPPER_NAME:UPPER(`NAME`)") || info.contains(
        "UPPER_NAME:UPPER(\"NAME\")"), info.toString());
    SQLException drop = assertThrows(SQLException.class,
        () -> update("ALTER TABLE p DROP COLUMN b"));
    assertTrue(drop.getMessage().contains("used by index SUM_AB"), drop.getMessage());
  }

  @Test
  void aUniqueFunctionalIndexRefusesValuesEqualUnderItsExpression() throws SQLException {
    create(null);
    update("INSERT INTO p VALUES (1, 'Bob', 1, 1)");
    update("CREATE UNIQUE INDEX lower_name ON p (LOWER(name))");
    SQLException e = assertThrows(SQLException.class,
        () -> update("INSERT INTO p VALUES (2, 'BOB', 2, 2)"));
    assertEquals("23505", e.getSQLState(), e.getMessage());
    assertEquals(List.of("1"), rows("SELECT id FROM p"), "nothing written");
    update("INSERT INTO p VALUES (2, 'Bobby', 2, 2), (3, NULL, 3, 3), (4, NULL, 4, 4)");
    assertThrows(SQLException.class, () -> update("UPDATE p SET name = 'bOB' WHERE id = 2"));
    verify();
    assertEquals(List.of("2"), rows("SELECT id FROM p WHERE LOWER(name) = 'bobby'"));
    update("DELETE FROM p WHERE id = 1");
    update("UPDATE p SET name = 'bOB' WHERE id = 2");
    verify();
  }

  @Test
  void badExpressionsAreRefused() throws SQLException {
    create(null);
    for (String bad : List.of("UPPER(nope)", "RAND()", "CURRENT_DATE + a", "MAP['k', a]",
        "1 + 2", "(SELECT 1)", "COUNT(*)")) {
      SQLException e = assertThrows(SQLException.class,
          () -> update("CREATE INDEX bad ON p (" + bad + ")"), bad);
      assertTrue(e.getSQLState().startsWith("42"), bad + ": " + e.getSQLState() + " "
          + e.getMessage());
    }
    SQLException e = assertThrows(SQLException.class,
        () -> update("CREATE INDEX twice ON p (UPPER(name), UPPER(name))"));
    assertTrue(e.getMessage().contains("twice"), e.getMessage());
    assertEquals(0, new SqlCatalog(db).indexes(T).size(), "no index left behind");
  }

  @Test
  void theCatalogRecordKeepsWhichPartsAreExpressions() {
    SqlIndexDef plain = new SqlIndexDef("I", T, List.of("NAME"), List.of(false), List.of(),
        false, 0, SqlIndexDef.State.ACTIVE);
    assertEquals(plain, SqlIndexDef.decode(T, "I", plain.encode()));
    assertEquals(SqlIndexDef.FORMAT_VERSION, plain.encode()[0], "as before: format 1");
    for (IndexStats stats : java.util.Arrays.asList(null, new IndexStats(7, List.of(3L, 7L)))) {
      SqlIndexDef f = new SqlIndexDef("I", T, List.of("UPPER(\"NAME\")", "ID"),
          List.of(true, false), List.of("A"), true, 2, SqlIndexDef.State.ACTIVE, stats,
          List.of(true, false));
      assertEquals(SqlIndexDef.FORMAT_VERSION_WITH_EXPRESSIONS, f.encode()[0]);
      assertEquals(f, SqlIndexDef.decode(T, "I", f.encode()));
    }
  }

  /** Random names and numbers, random filters on the indexed expressions: H2's rows. */
  @Test
  void randomFiltersOnTheExpressionsGiveH2sRows() throws SQLException {
    System.out.println("FunctionalIndexTest seed=" + SEED + " (replay: -Dbasalt.seed=" + SEED
        + ")");
    Random r = new Random(SEED);
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:fi" + System.nanoTime())) {
      create(h2);
      update("CREATE INDEX upper_name ON p (UPPER(name), id DESC)");
      update("CREATE INDEX sum_ab ON p (a + b) INCLUDE (name) SALT_BUCKETS = 3");
      List<Object[]> rowsIn = new ArrayList<>();
      String[] names = {"ann", "Ann", "ANN", "bo", "Bo", "bob", "Bob", "carla", "Carl", "dee"};
      for (int i = 0; i < 400; i++) {
        rowsIn.add(new Object[] {i, r.nextInt(8) == 0 ? null : names[r.nextInt(names.length)],
            r.nextInt(8) == 0 ? null : r.nextInt(40) - 20, r.nextInt(40) - 20});
      }
      SqlTestSupport.insert(c, "p", rowsIn);
      SqlTestSupport.insert(h2, "p", rowsIn);
      int viaIndex = 0;
      for (int q = 0; q < 80; q++) {
        if (q % 20 == 10) { // writes between the queries, the same in both
          int id = r.nextInt(400);
          String name = names[r.nextInt(names.length)];
          String up = "UPDATE p SET name = '" + name + "', a = " + (r.nextInt(40) - 20)
              + " WHERE id = " + id;
          update(up);
          h2.createStatement().executeUpdate(up);
        }
        String where = switch (r.nextInt(4)) {
          case 0 -> "UPPER(name) = '" + names[r.nextInt(names.length)].toUpperCase() + "'";
          case 1 -> "UPPER(name) LIKE '" + "ABC".charAt(r.nextInt(3)) + "%'";
          case 2 -> "a + b BETWEEN " + (r.nextInt(60) - 30) + " AND " + (r.nextInt(60) - 30);
          default -> "a + b = " + (r.nextInt(60) - 30) + " AND name IS NOT NULL";
        };
        String sql = "SELECT id, name, a + b FROM p WHERE " + where;
        List<String> got = sorted(rows(sql));
        assertEquals(sorted(SqlTestSupport.rows(h2, sql)), got, sql + " (seed " + SEED + ")");
        viaIndex += explain(sql).contains("index=") ? 1 : 0;
      }
      assertTrue(viaIndex >= 40, "queries through an index: " + viaIndex);
      verify();
    }
  }

  private static List<String> sorted(List<String> rows) {
    List<String> s = new ArrayList<>(rows);
    Collections.sort(s);
    return s;
  }
}
