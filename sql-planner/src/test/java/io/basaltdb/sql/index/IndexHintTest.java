package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.parser.HintText;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hints force or forbid indexes (Phoenix's {@code INDEX(t i)} and {@code NO_INDEX}, also with
 * Calcite's commas and after a table), answers stay those of the unhinted statement, and a
 * hint naming an index the table does not have is refused with 42S12.
 */
class IndexHintTest extends SqlTestBase {
  @BeforeEach
  void load() throws SQLException {
    update("CREATE TABLE t (id INTEGER PRIMARY KEY, a VARCHAR(10), b INTEGER)");
    update("CREATE TABLE o (id INTEGER PRIMARY KEY, ta VARCHAR(10))");
    for (int i = 0; i < 400; i++) {
      update("UPSERT INTO t VALUES (" + i + ", 'k" + (i % 40) + "', " + (i % 7) + ")");
    }
    for (int i = 0; i < 5; i++) {
      update("UPSERT INTO o VALUES (" + i + ", 'k" + i + "')");
    }
    update("CREATE INDEX ia ON t (a)");
    update("CREATE INDEX ib ON t (b)");
  }

  private String explain(String sql) throws SQLException {
    return String.join("\n", rows("EXPLAIN PLAN FOR " + sql));
  }

  @Test
  void noIndexReadsTheTableAndIndexPicksTheNamedOne() throws SQLException {
    String query = "SELECT id FROM t WHERE a = 'k3' AND b = 3";
    List<String> expected = rows(query);
    assertFalse(expected.isEmpty());
    for (String hinted : List.of("SELECT /*+ NO_INDEX */ id FROM t WHERE a = 'k3' AND b = 3",
        "SELECT /*+ NO_INDEX(t) */ id FROM t WHERE a = 'k3' AND b = 3",
        "SELECT id FROM t /*+ NO_INDEX */ WHERE a = 'k3' AND b = 3")) {
      assertFalse(explain(hinted).contains("index="), hinted + "\n" + explain(hinted));
      assertEquals(expected, rows(hinted), hinted);
    }
    for (String index : List.of("IA", "IB")) {
      for (String hinted : List.of(
          "SELECT /*+ INDEX(t " + index + ") */ id FROM t WHERE a = 'k3' AND b = 3",
          "SELECT /*+ INDEX(T, " + index.toLowerCase() + ") */ id FROM t WHERE a = 'k3' AND b = 3",
          "SELECT id FROM t /*+ INDEX(" + index + ") */ WHERE a = 'k3' AND b = 3")) {
        assertTrue(explain(hinted).contains("index=[" + index), hinted + "\n" + explain(hinted));
        assertEquals(expected, rows(hinted), hinted);
      }
    }
  }

  @Test
  void aForcedIndexIsReadWholeWhenTheFilterDoesNotBindIt() throws SQLException {
    String query = "SELECT id, a FROM t WHERE id < 20 AND b = 2";
    String hinted = "SELECT /*+ INDEX(t ia) */ id, a FROM t WHERE id < 20 AND b = 2";
    assertFalse(explain(query).contains("index="), explain(query));
    assertTrue(explain(hinted).contains("index=[IA"), explain(hinted));
    assertEquals(sorted(rows(query)), sorted(rows(hinted)));
  }

  @Test
  void noIndexAppliesToLookupJoinsAndNamesOneTable() throws SQLException {
    String join = "SELECT o.id, t.id FROM o JOIN t ON t.a = o.ta";
    List<String> expected = sorted(rows(join));
    assertEquals(50, expected.size());
    String free = explain(join);
    assertTrue(free.contains("lookup=[index IA"), free);
    String forbidden = "SELECT /*+ NO_INDEX(t) */ o.id, t.id FROM o JOIN t ON t.a = o.ta";
    assertFalse(explain(forbidden).contains("IA"), explain(forbidden));
    assertEquals(expected, sorted(rows(forbidden)));
    String other = "SELECT /*+ NO_INDEX(o) */ o.id, t.id FROM o JOIN t ON t.a = o.ta";
    assertTrue(explain(other).contains("lookup=[index IA"), explain(other));
  }

  @Test
  void anUnknownIndexIsRefused() {
    for (String sql : List.of("SELECT /*+ INDEX(t nosuch) */ id FROM t WHERE a = 'k1'",
        "SELECT id FROM t /*+ INDEX(nosuch) */")) {
      SQLException e = assertThrows(SQLException.class, () -> rows(sql), sql);
      assertEquals("42S12", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("NOSUCH") || e.getMessage().contains("nosuch"),
          e.getMessage());
    }
  }

  @Test
  void phoenixSpacesBecomeCommasOnlyInsideHints() {
    assertEquals("SELECT /*+ INDEX(t, i, j) */ 'a b' FROM t",
        HintText.withCommas("SELECT /*+ INDEX(t i  j) */ 'a b' FROM t"));
    assertEquals("SELECT 'x /*+ INDEX(t i) */' /* INDEX(t i) */ FROM t",
        HintText.withCommas("SELECT 'x /*+ INDEX(t i) */' /* INDEX(t i) */ FROM t"));
    assertEquals("SELECT /*+ NO_INDEX, INDEX(\"t\", i) */ 1",
        HintText.withCommas("SELECT /*+ NO_INDEX, INDEX(\"t\" i) */ 1"));
    assertEquals("SELECT /*+ PROP(a = 1, b = 2) */ 1",
        HintText.withCommas("SELECT /*+ PROP(a = 1, b = 2) */ 1"));
  }

  private static List<String> sorted(List<String> rows) {
    return rows.stream().sorted().toList();
  }
}
