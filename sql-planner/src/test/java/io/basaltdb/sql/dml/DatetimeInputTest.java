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
 * A date, time or timestamp that cannot be read is 22007, one with a field out of range 22008,
 * whether a string assigned to a column (named in the message), a typed literal, a CAST or a
 * comparison; never read leniently ({@code '10:61:00'} is no 11:01) and nothing is written.
 */
class DatetimeInputTest extends TemporaryDatabaseTest {
  @BeforeEach
  void open() throws SQLException {
    st.executeUpdate("CREATE TABLE d (id INTEGER PRIMARY KEY, dt DATE, ts TIMESTAMP, tm TIME)");
    st.executeUpdate("INSERT INTO d (id, dt) VALUES (1, '2024-02-29')");
  }

  private void refused(String sql, String state, String inMessage) throws SQLException {
    List<String> before = SqlTestSupport.rows(c, "SELECT * FROM d ORDER BY id");
    SQLException e = assertThrows(SQLException.class, () -> SqlTestSupport.rows(c, sql), sql);
    assertEquals(state, e.getSQLState(), sql + ": " + e.getMessage());
    assertTrue(e.getMessage().contains(inMessage), e.getMessage());
    assertEquals(before, SqlTestSupport.rows(c, "SELECT * FROM d ORDER BY id"), sql);
  }

  @Test
  void unreadableOrOutOfRangeValuesAreRefused() throws SQLException {
    refused("INSERT INTO d (id, dt) VALUES (2, 'not a date')", "22007", "column DT");
    refused("INSERT INTO d (id, dt) VALUES (2, '2024-13-01')", "22008", "column DT");
    refused("INSERT INTO d (id, dt) VALUES (2, '2023-02-29')", "22008", "column DT");
    refused("UPSERT INTO d (id, tm) VALUES (2, '10:61:00')", "22008", "column TM");
    refused("UPDATE d SET tm = '24:00:00' WHERE id = 1", "22008", "column TM");
    refused("INSERT INTO d (id, ts) VALUES (2, '2024-01-01 25:00:00')", "22008", "column TS");
    refused("INSERT INTO d (id, ts) VALUES (2, '2024-01-01 at noon')", "22007", "column TS");
    refused("INSERT INTO d (id, ts) VALUES (2, '2024-01-01 10:00:00.5678')", "22008",
        "TIMESTAMP(3) keeps 3 digits of a second"); // would be cut to 10:00:00.567
    refused("INSERT INTO d (id, dt) VALUES (2, DATE '2024-02-30')", "22007", "DATE");
    refused("INSERT INTO d (id, ts) VALUES (2, TIMESTAMP '2024-01-01 10:00:00.123456')",
        "22008", "TIMESTAMP(3) keeps 3 digits of a second"); // a typed literal: cast folding
    st.executeUpdate("CREATE TABLE s0 (id INTEGER PRIMARY KEY, ts TIMESTAMP(0))");
    refused("INSERT INTO s0 VALUES (2, '2024-01-01 10:00:00.5')", "22008",
        "TIMESTAMP(0) keeps 0 digits of a second; declare TIMESTAMP(3)");
    refused("UPDATE d SET tm = TIME '10:00:00.5' WHERE id = 1", "22008", "column TM");
    refused("SELECT CAST('2024-02-31' AS DATE)", "22008", "DAY");
    refused("SELECT CAST('xyz' AS TIMESTAMP)", "22007", "xyz");
    refused("SELECT id FROM d WHERE dt = 'garbage'", "22007", "garbage");
  }

  @Test
  void timestampParametersAreNeverCut() throws SQLException {
    // a bound java.sql.Timestamp is stored whole (milliseconds), whatever the column's
    // precision: nothing is cut
    try (var ps = c.prepareStatement("INSERT INTO d (id, ts) VALUES (?, ?)")) {
      ps.setInt(1, 7);
      ps.setTimestamp(2, java.sql.Timestamp.valueOf("2024-01-01 10:00:00.123"));
      ps.executeUpdate();
    }
    try (var rs = st.executeQuery("SELECT ts FROM d WHERE id = 7")) {
      rs.next();
      assertEquals(java.sql.Timestamp.valueOf("2024-01-01 10:00:00.123"), rs.getTimestamp(1));
    }
  }

  @Test
  void readableValuesAreStoredAsGiven() throws SQLException {
    st.executeUpdate("INSERT INTO d (id, tm) VALUES (2, '23:59:59')");
    st.executeUpdate("INSERT INTO d (id, ts) VALUES (3, '2024-01-01')");
    st.executeUpdate("INSERT INTO d (id, ts) VALUES (4, ' 2024-01-01 10:00:00.000 ')");
    st.executeUpdate("INSERT INTO d (id, dt) VALUES (5, '2024-1-5')");
    assertEquals(List.of("1|2024-02-29|null|null", "2|null|null|23:59:59",
        "3|null|2024-01-01 00:00:00|null", "4|null|2024-01-01 10:00:00|null",
        "5|2024-01-05|null|null"), SqlTestSupport.rows(c, "SELECT * FROM d ORDER BY id"));
    st.executeUpdate("CREATE TABLE ms (id INTEGER PRIMARY KEY, ts TIMESTAMP(3))");
    st.executeUpdate("INSERT INTO ms VALUES (1, '2024-01-01 10:00:00.25')");
    st.executeUpdate("INSERT INTO ms VALUES (2, TIMESTAMP '2024-01-01 10:00:00.125')");
    st.executeUpdate("INSERT INTO ms VALUES (3, TIMESTAMP '2024-01-01 10:00:00.500000')");
    // printed as H2 prints them: no trailing zeros of the fraction
    assertEquals(List.of("1|2024-01-01 10:00:00.25", "2|2024-01-01 10:00:00.125",
        "3|2024-01-01 10:00:00.5"), SqlTestSupport.rows(c, "SELECT * FROM ms ORDER BY id"));
    // a TIMESTAMP without a precision keeps milliseconds (TIMESTAMP(3)): a literal with them
    // is taken, as a bound value with them always was; a finer one is refused, not cut
    st.executeUpdate("INSERT INTO d (id, ts) VALUES (6, TIMESTAMP '2024-01-01 10:00:00.789')");
    st.executeUpdate("INSERT INTO d (id, ts) VALUES (7, '2024-01-01 10:00:00.5')");
    assertEquals(List.of("6|2024-01-01 10:00:00.789", "7|2024-01-01 10:00:00.5"),
        SqlTestSupport.rows(c, "SELECT id, ts FROM d WHERE id >= 6 ORDER BY id"));
    assertEquals("22008", org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> st.executeUpdate("INSERT INTO d (id, ts) VALUES (8, '2024-01-01 10:00:00.1234')"))
        .getSQLState());
    try (java.sql.ResultSet rs = st.executeQuery("SELECT ts FROM d")) {
      assertEquals(3, rs.getMetaData().getPrecision(1), "TIMESTAMP is TIMESTAMP(3)");
    }
  }
}
