package io.basaltdb.sql.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.TemporaryDatabaseTest;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Exact arithmetic that leaves its type's range is 22003 and a division by zero 22012, never a
 * wrapped-around value, whether the operands are columns, parameters or constants (which
 * Calcite computes in generated code's static initializer, so the failure arrives as a linkage
 * error, the first time and every later time the cached plan runs); a failed UPDATE writes
 * nothing.
 */
class CheckedArithmeticTest extends TemporaryDatabaseTest {
  @BeforeEach
  void open() throws SQLException {
    st.executeUpdate("CREATE TABLE a (id BIGINT PRIMARY KEY, v BIGINT, i INTEGER, s SMALLINT)");
    st.executeUpdate("UPSERT INTO a VALUES (1, 9223372036854775807, 2147483647, 32767)");
    st.executeUpdate("UPSERT INTO a VALUES (2, -9223372036854775808, -2147483648, 0)");
  }

  private void refused(String sql, String state) {
    SQLException e = assertThrows(SQLException.class, () -> SqlTestSupport.rows(c, sql), sql);
    assertEquals(state, e.getSQLState(), sql + ": " + e.getMessage());
    assertTrue(e.getMessage().contains(state.equals("22012") ? "division by zero"
        : "out of range"), e.getMessage());
  }

  @Test
  void overflowingExpressionsAreRefused() throws SQLException {
    refused("SELECT v + 1 FROM a WHERE id = 1", "22003");
    refused("SELECT v - 1 FROM a WHERE id = 2", "22003");
    refused("SELECT v * 2 FROM a WHERE id = 1", "22003");
    refused("SELECT -v FROM a WHERE id = 2", "22003");
    refused("SELECT i + 1 FROM a WHERE id = 1", "22003");
    refused("SELECT v / 0 FROM a", "22012");
    for (int run = 0; run < 2; run++) { // the second run reuses the failed generated code
      refused("SELECT 9223372036854775807 + 1", "22003");
      refused("SELECT 1 / 0", "22012");
    }
    assertEquals(List.of("9223372036854775806|-9223372036854775807|2147483646"),
        SqlTestSupport.rows(c, "SELECT v - 1, -v, i - 1 FROM a WHERE id = 1"));
  }

  @Test
  void overflowingUpdatesWriteNothing() throws SQLException {
    List<String> before = SqlTestSupport.rows(c, "SELECT * FROM a ORDER BY id");
    refused("UPDATE a SET v = v * 2 WHERE id = 1", "22003");
    refused("UPDATE a SET i = i + 1", "22003");
    refused("UPDATE a SET v = v + 1 WHERE id = 1", "22003"); // the engine counter path
    refused("UPDATE a SET v = v - 1 WHERE id = 2", "22003");
    assertEquals(before, SqlTestSupport.rows(c, "SELECT * FROM a ORDER BY id"));
  }

  @Test
  void sumsOfSmallIntegersAreBigintsAndBigintSumsAreChecked() throws SQLException {
    st.executeUpdate("UPSERT INTO a VALUES (3, 9223372036854775807, 2147483647, 32767)");
    // SUM of INTEGER and SMALLINT widens (as in H2 and PostgreSQL): no wrap
    assertEquals(List.of("4294967294|65534"),
        SqlTestSupport.rows(c, "SELECT SUM(i), SUM(s) FROM a WHERE id <> 2"));
    assertEquals(List.of("0|-2147483648", "1|4294967294"), SqlTestSupport.rows(c,
        "SELECT MOD(id, 2), SUM(i) FROM a GROUP BY MOD(id, 2) ORDER BY 1"));
    // BIGINT: computed in generated code (grouped by an expression, so not pushed) and pushed
    refused("SELECT MOD(id, 2), SUM(v) FROM a GROUP BY MOD(id, 2)", "22003");
    refused("SELECT SUM(v) FROM a WHERE id <> 2", "22003");
    refused("SELECT SUM(v + 0) FROM a WHERE id <> 2", "22003");
    assertEquals(List.of("9223372036854775806"),
        SqlTestSupport.rows(c, "SELECT SUM(v + 0) FROM a WHERE id <= 3"));
    assertEquals(List.of("null|0"), SqlTestSupport.rows(c,
        "SELECT SUM(v + 0), COALESCE(SUM(v + 0), 0) FROM a WHERE id > 10"));
  }

  @Test
  void parametersOverflowTheSameWay() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT v + ? FROM a WHERE id = ?")) {
      ps.setLong(1, 1);
      ps.setLong(2, 1);
      SQLException e = assertThrows(SQLException.class, () -> ps.executeQuery().next());
      assertEquals("22003", e.getSQLState(), e.getMessage());
      ps.setLong(1, -1);
      assertEquals(List.of("9223372036854775806"), SqlTestSupport.rows(ps.executeQuery()));
    }
  }
}
