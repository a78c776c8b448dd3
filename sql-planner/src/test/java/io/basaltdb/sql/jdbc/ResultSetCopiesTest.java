package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/**
 * A re-executed prepared statement's result sets are copies of a pristine one
 * ({@link ResultSetCopies}): each is new and starts before its first row, closing one leaves
 * the next alone, each reads its own execution's rows (dates through the shared calendar
 * included), a fetch size set between executions is the new one's, and a statement whose
 * signature changed (its table altered) gets result sets of the new signature.
 */
class ResultSetCopiesTest extends SqlTestBase {
  @Test
  void eachExecutionGetsAFreshResultSetOfItsOwnRows() throws Exception {
    update("CREATE TABLE t (id INT PRIMARY KEY, d DATE, v VARCHAR(10))");
    update("INSERT INTO t VALUES (1, DATE '2026-01-31', 'a'), (2, DATE '1999-12-31', 'b'),"
        + " (3, DATE '2000-02-29', 'c')");
    try (PreparedStatement p = c.prepareStatement("SELECT d, v FROM t WHERE id >= ? ORDER BY id")) {
      p.setInt(1, 2);
      ResultSet first = p.executeQuery();
      assertTrue(first.next());
      assertEquals(LocalDate.of(1999, 12, 31), first.getDate(1).toLocalDate());
      p.setInt(1, 1);
      p.setFetchSize(7);
      ResultSet second = p.executeQuery();
      assertNotSame(first, second);
      assertTrue(first.isClosed(), "re-executing closed the statement's last result set");
      assertFalse(second.isClosed());
      assertTrue(second.isBeforeFirst(), "a copy starts before its first row");
      assertEquals(7, second.getFetchSize());
      StringBuilder rows = new StringBuilder();
      while (second.next()) {
        rows.append(second.getDate(1).toLocalDate()).append(' ').append(second.getString(2))
            .append(';');
      }
      assertEquals("2026-01-31 a;1999-12-31 b;2000-02-29 c;", rows.toString());
      assertTrue(second.isAfterLast());
      second.close();
      p.setInt(1, 3);
      try (ResultSet third = p.executeQuery()) {
        assertFalse(third.isClosed(), "closing the last one left the next alone");
        assertTrue(third.next());
        assertEquals(LocalDate.of(2000, 2, 29), third.getObject(1, LocalDate.class));
        assertFalse(third.next());
      }
      assertThrows(SQLException.class, second::next, "a closed copy stays closed");
    }
  }

  @Test
  void aStatementWhoseTableChangedGetsResultSetsOfItsNewSignature() throws Exception {
    update("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
    update("INSERT INTO t VALUES (1, 'a')");
    try (PreparedStatement p = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
      p.setInt(1, 1);
      try (ResultSet rs = p.executeQuery()) {
        assertTrue(rs.next());
        assertEquals("a", rs.getString(1));
      }
      update("ALTER TABLE t ADD COLUMN w INT");
      update("UPSERT INTO t (id, v, w) VALUES (1, 'b', 5)");
      try (ResultSet rs = p.executeQuery()) {
        assertEquals(1, rs.getMetaData().getColumnCount());
        assertTrue(rs.next());
        assertEquals("b", rs.getString(1));
      }
    }
  }
}
