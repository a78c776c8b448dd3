package io.basaltdb.sql.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.jdbc.SqlErrors;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Phoenix's dynamic columns: typed where a statement writes or reads them, stored as cells of
 * a family (the table's first unless named), invisible to statements that do not declare them.
 */
class DynamicColumnsTest extends SqlTestBase {
  @Test
  void columnsDeclaredByTheStatementAreWrittenAndRead() throws Exception {
    update("CREATE TABLE ev (id INT PRIMARY KEY, kind VARCHAR(10), f.note VARCHAR)");
    assertEquals(1, update("UPSERT INTO ev (id, kind, gc TIME, used BIGINT) VALUES "
        + "(1, 'OOM', TIME '10:00:00', 500)"));
    assertEquals(1, update("UPSERT INTO ev (id, kind, f.extra VARCHAR) VALUES (2, 'X', 'hi')"));
    try (PreparedStatement ps = c.prepareStatement("UPSERT INTO ev (id, used BIGINT, "
        + "tags VARCHAR ARRAY) VALUES (?, ?, ?)")) {
      ps.setInt(1, 3);
      ps.setLong(2, 7);
      ps.setObject(3, List.of("a", "b"));
      assertEquals(1, ps.executeUpdate());
    }
    assertEquals(List.of("1|OOM|null", "2|X|null", "3|null|null"),
        rows("SELECT * FROM ev ORDER BY id"), "undeclared: not there");
    assertEquals(List.of("1|OOM|500|10:00:00", "2|X|null|null", "3|null|7|null"),
        rows("SELECT id, kind, used, gc FROM ev (used BIGINT, gc TIME) ORDER BY id"));
    assertEquals(List.of("2|hi"), rows("SELECT id, extra FROM ev EXTEND (f.extra VARCHAR) "
        + "WHERE extra = 'hi'"));
    assertEquals(List.of("2|hi"), rows("SELECT id, extra FROM ev (f.extra VARCHAR) "
        + "WHERE extra = 'hi'"), "Phoenix's spelling, without EXTEND");
    assertEquals(List.of("2|FROM t (f.x VARCHAR)"), rows("SELECT id, 'FROM t (f.x VARCHAR)' "
        + "FROM ev (f.extra VARCHAR) WHERE extra = 'hi'"), "a string is left as it is");
    assertEquals(List.of(), rows("SELECT id FROM ev (extra VARCHAR) WHERE extra IS NOT NULL"),
        "in the first family there is no EXTRA");
    assertEquals(List.of("1", "3"), rows("SELECT id FROM ev (used BIGINT) WHERE used > 5 "
        + "ORDER BY id"));
    assertEquals(List.of("3|2"), rows("SELECT id, CARDINALITY(tags) FROM ev "
        + "(tags VARCHAR ARRAY) WHERE tags IS NOT NULL"));
    assertEquals(1, update("UPDATE ev (used BIGINT) SET used = used + 1 WHERE id = 1"));
    assertEquals(List.of("501"), rows("SELECT used FROM ev (used BIGINT) WHERE id = 1"));
    assertEquals(1, update("DELETE FROM ev WHERE id = 3"));
    assertEquals(List.of("1|501", "2|null"), rows("SELECT id, used FROM ev (used BIGINT) "
        + "ORDER BY id"));
  }

  @Test
  void badDeclarationsAreRefused() throws Exception {
    update("CREATE TABLE dc (id INT PRIMARY KEY, v VARCHAR)");
    assertEquals("42000", state("SELECT * FROM dc (v INTEGER)"));
    assertEquals("22018", state("UPSERT INTO dc (id, x INTEGER) VALUES (1, 'not a number')"));
    update("CREATE TABLE nk (a INT, b INT)");
    assertEquals("0A000", state("SELECT * FROM nk (c INTEGER)"));
    assertEquals(List.of(), rows("SELECT * FROM dc"));
  }

  private String state(String sql) {
    SQLException e = assertThrows(SQLException.class, () -> {
      if (sql.startsWith("SELECT")) {
        rows(sql);
      } else {
        update(sql);
      }
    }, sql);
    return SqlErrors.sqlState(e);
  }
}
