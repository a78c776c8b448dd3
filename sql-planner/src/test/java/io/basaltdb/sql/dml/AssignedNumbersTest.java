package io.basaltdb.sql.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.TemporaryDatabaseTest;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A number assigned to a DECIMAL or integer column is stored as given or refused with 22003
 * naming the column, never rounded or cut silently, whether it is a literal, a parameter, a
 * computed value or a literal of a statement sharing another's plan; the statement's own
 * ROUND or CAST rounds as asked. Nothing is written by a refused statement.
 */
class AssignedNumbersTest extends TemporaryDatabaseTest {
  @BeforeEach
  void open() throws SQLException {
    st.executeUpdate("CREATE TABLE p (id INTEGER NOT NULL PRIMARY KEY, price DECIMAL(4, 1), "
        + "qty INTEGER, small SMALLINT)");
    st.executeUpdate("INSERT INTO p VALUES (1, 12.3, 10, 1)");
  }

  private List<String> table() throws SQLException {
    return SqlTestSupport.rows(c, "SELECT id, price, qty, small FROM p ORDER BY id");
  }

  private void refused(String sql, String column) throws SQLException {
    List<String> before = table();
    SQLException e = assertThrows(SQLException.class, () -> st.executeUpdate(sql), sql);
    assertEquals("22003", e.getSQLState(), sql + ": " + e.getMessage());
    assertTrue(e.getMessage().contains(column), e.getMessage());
    assertEquals(before, table(), "nothing written by " + sql);
  }

  @Test
  void literalsWithDigitsPastTheScaleOrTooManyDigitsAreRefused() throws SQLException {
    refused("INSERT INTO p (id, price) VALUES (2, 123.45)", "PRICE");
    refused("INSERT INTO p (id, price) VALUES (2, -0.05)", "PRICE");
    refused("UPSERT INTO p (id, price) VALUES (2, 1234.0)", "PRICE");
    refused("UPDATE p SET price = 99.99 WHERE id = 1", "PRICE");
    refused("INSERT INTO p (id, qty) VALUES (2, 3.5)", "QTY");
    refused("INSERT INTO p (id, qty) VALUES (2, 3000000000)", "QTY");
    refused("INSERT INTO p (id, small) VALUES (2, 40000)", "SMALL");
    refused("INSERT INTO p (id, price) SELECT 2, 0.25 FROM p", "PRICE");
    // statements sharing the plan of one that fitted: the literal is a hidden parameter then
    st.executeUpdate("UPSERT INTO p (id, price) VALUES (3, 1.5)");
    refused("UPSERT INTO p (id, price) VALUES (3, 1.55)", "PRICE");
    refused("UPSERT INTO p (id, price) VALUES (3, 1000.5)", "PRICE");
    assertEquals(List.of("1|12.3|10|1", "3|1.5|null|null"), table());
  }

  @Test
  void computedValuesThatWouldBeRoundedAreRefused() throws SQLException {
    refused("UPDATE p SET price = price * 1.01 WHERE id = 1", "PRICE");
    refused("UPDATE p SET price = price / 7 WHERE id = 1", "PRICE");
    refused("UPDATE p SET price = qty * 100 WHERE id = 1", "PRICE");
    refused("INSERT INTO p (id, price) SELECT id + 1, price + 0.05 FROM p", "PRICE");
  }

  @Test
  void valuesThatFitAreStoredAndExplicitRoundingIsKept() throws SQLException {
    st.executeUpdate("INSERT INTO p (id, price, qty) VALUES (2, 123.40, 3.0)");
    st.executeUpdate("UPDATE p SET price = price * 2 WHERE id = 1");
    st.executeUpdate("UPDATE p SET price = ROUND(price * 1.01, 1) WHERE id = 2");
    st.executeUpdate("INSERT INTO p (id, price) VALUES (3, CAST(1.25 AS DECIMAL(4, 1)))");
    st.executeUpdate("INSERT INTO p (id, price) VALUES (4, -999.9)");
    st.executeUpdate("UPSERT INTO p (id, price) SELECT 5, qty FROM p WHERE id = 1");
    // the statement's own CAST cuts extra digits (Calcite's rule; SQL leaves rounding or
    // truncation to the implementation), ROUND rounds half away from zero
    assertEquals(List.of("1|24.6|10|1", "2|124.6|3|null", "3|1.2|null|null",
        "4|-999.9|null|null", "5|10.0|null|null"), table());
  }

  @Test
  void parametersAreCheckedTheSameWay() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPSERT INTO p (id, price) VALUES (?, ?)")) {
      ps.setInt(1, 2);
      ps.setBigDecimal(2, new BigDecimal("7.50"));
      ps.executeUpdate();
      SQLException e = assertThrows(SQLException.class,
          () -> ps.setBigDecimal(2, new BigDecimal("7.55")));
      assertEquals("22003", e.getSQLState(), e.getMessage());
      e = assertThrows(SQLException.class, () -> ps.setDouble(2, 0.125));
      assertEquals("22003", e.getSQLState(), e.getMessage());
    }
    assertEquals(List.of("1|12.3|10|1", "2|7.5|null|null"), table());
  }
}
