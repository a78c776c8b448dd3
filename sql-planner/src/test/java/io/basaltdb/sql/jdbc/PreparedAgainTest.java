package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A text prepared again and again (a statement per call, as frameworks do) checks its bound
 * values by its current signature: the connection keeps the checks of the signatures it
 * prepared last, by identity, so a table made again with wider columns takes the wider values
 * and the old text's checks are not reused.
 */
class PreparedAgainTest extends SqlTestBase {
  private static final String UPSERT = "UPSERT INTO t (id, v) VALUES (?, ?)";

  @Test
  void aTextPreparedAgainChecksValuesByItsCurrentColumns() throws Exception {
    update("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(3))");
    for (int i = 0; i < 3; i++) {
      int id = i;
      SQLException tooLong = assertThrows(SQLException.class, () -> upsert(id, "abcd"));
      assertEquals("22001", tooLong.getSQLState());
      upsert(i, "abc");
    }
    update("DROP TABLE t");
    update("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
    upsert(7, "abcdefgh");
    SQLException tooLong = assertThrows(SQLException.class, () -> upsert(8, "abcdefghijk"));
    assertEquals("22001", tooLong.getSQLState());
    assertEquals(List.of("7|abcdefgh"), SqlTestSupport.rows(c, "SELECT id, v FROM t"));
  }

  private void upsert(int id, String v) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(UPSERT)) {
      p.setInt(1, id);
      p.setString(2, v);
      p.executeUpdate();
    }
  }
}
