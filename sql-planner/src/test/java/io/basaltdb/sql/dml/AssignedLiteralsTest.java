package io.basaltdb.sql.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.TemporaryDatabaseTest;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A string or binary literal too long for the column it is assigned to is refused with 22001
 * naming the column, and nothing is written (Calcite's cast to the column's type would cut it);
 * a literal that fits, and the statement's own CAST, keep their meaning.
 */
class AssignedLiteralsTest extends TemporaryDatabaseTest {
  @BeforeEach
  void open() throws SQLException {
    st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(10), "
        + "code CHAR(3), b VARBINARY(2))");
    st.executeUpdate("INSERT INTO t (id, name) VALUES (1, 'one')");
  }

  private void refused(String sql, String column) {
    SQLException e = assertThrows(SQLException.class, () -> st.executeUpdate(sql), sql);
    assertEquals("22001", e.getSQLState(), sql + ": " + e.getMessage());
    assertTrue(e.getMessage().contains(column), e.getMessage());
  }

  @Test
  void tooLongLiteralsAreRefusedAndNothingIsWritten() throws SQLException {
    refused("INSERT INTO t (id, name) VALUES (5, 'much-too-long-for-ten')", "NAME");
    refused("INSERT INTO t VALUES (6, 'ok', 'abcd', NULL)", "CODE");
    refused("UPSERT INTO t (id, b) VALUES (7, X'010203')", "B");
    refused("UPSERT INTO t (id, name) VALUES (8, CAST('abcdefghijklmn' AS VARCHAR(20)))", "NAME");
    refused("UPDATE t SET name = 'much-too-long-for-ten' WHERE id = 1", "NAME");
    refused("INSERT INTO t (id, name) VALUES (9, 'fits'), (10, 'does-not-fit!')", "NAME");
    refused("INSERT INTO t (id, name) SELECT 11, 'much-too-long-for-ten' FROM t", "NAME");
    refused("INSERT INTO t (id, name) SELECT id + 100, name || 'xxxxxxxxxx' FROM t", "NAME");
    refused("UPSERT INTO t (id, b) SELECT 12, X'0102' || X'03' FROM t", "B");
    refused("UPDATE t SET name = name || 'xxxxxxxxxx' WHERE id = 1", "NAME");
    assertEquals(List.of("1|one"), SqlTestSupport.rows(c, "SELECT id, name FROM t ORDER BY id"));
  }

  @Test
  void literalsThatFitAndExplicitCastsKeepTheirMeaning() throws SQLException {
    st.executeUpdate("UPSERT INTO t (id, name) VALUES (2, 'exactly10!')");
    st.executeUpdate("UPSERT INTO t (id, name) VALUES (3, 'it''s ok')");
    st.executeUpdate("UPSERT INTO t (id, name) VALUES (4, CAST('abcdefghijklmn' AS VARCHAR(5)))");
    st.executeUpdate("UPSERT INTO t (id, code, b) VALUES (5, 'ab', X'0102')");
    st.executeUpdate("UPDATE t SET name = 'ten chars!' WHERE id = 1");
    st.executeUpdate("UPSERT INTO t (id, code) SELECT 5, 'ab' FROM t WHERE id = 1");
    st.executeUpdate("INSERT INTO t (id, name) SELECT id + 100, SUBSTRING(name, 1, 3) || '!' "
        + "FROM t WHERE id = 2");
    assertEquals(List.of("1|ten chars!", "2|exactly10!", "3|it's ok", "4|abcde", "5|null",
        "102|exa!"), SqlTestSupport.rows(c, "SELECT id, name FROM t ORDER BY id"));
    assertEquals(List.of("ab |0102"), SqlTestSupport.rows(c,
        "SELECT code, b FROM t WHERE id = 5"), "CHAR still padded");
  }

  /** A string that is no number, for a number column: 22018 naming the column and type. */
  @Test
  void stringsThatAreNoNumbers() throws SQLException {
    st.executeUpdate("CREATE TABLE n (id INTEGER NOT NULL PRIMARY KEY, d DECIMAL(6, 2), "
        + "f DOUBLE)");
    for (String sql : List.of("INSERT INTO n VALUES ('not-a-number', 1, 1)",
        "INSERT INTO n VALUES (1, 'x1.5', 1)", "UPSERT INTO n (id, f) VALUES (2, 'abc')")) {
      SQLException e = assertThrows(SQLException.class, () -> st.executeUpdate(sql), sql);
      assertEquals("22018", e.getSQLState(), sql + ": " + e.getMessage());
      assertTrue(e.getMessage().contains("is not a number, for column"), e.getMessage());
    }
    st.executeUpdate("INSERT INTO n VALUES ('7', ' 2.5 ', '1e3')");
    assertEquals(List.of("7|2.50|1000.0"), SqlTestSupport.rows(c, "SELECT * FROM n"));
    SQLException e = assertThrows(SQLException.class,
        () -> st.executeUpdate("INSERT INTO n (id, d) SELECT 8, name FROM t WHERE id = 1"));
    assertEquals("22018", e.getSQLState(), e.getMessage());
    assertEquals(List.of("7|2.50|1000.0"), SqlTestSupport.rows(c, "SELECT * FROM n"));
  }
}
