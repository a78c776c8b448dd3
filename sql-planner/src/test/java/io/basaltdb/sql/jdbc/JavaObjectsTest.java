package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * JDBC 4.2's java.time and the other objects frameworks bind with {@code setObject} and read
 * with {@code getObject(column, type)} (Spring, Jdbi, Hibernate with direct java.time binding):
 * every pair of a column type and a bound object, in each of the three {@code setObject}
 * forms, stored and read back as every class, gives what H2 gives for the same calls; what
 * cannot be converted is refused with a SQLState, never stored as another value.
 */
class JavaObjectsTest {
  private static final String DDL = "CREATE TABLE t (id INT PRIMARY KEY, d DATE, ts TIMESTAMP,"
      + " tm TIME, v VARCHAR(60), n DECIMAL(12,2), b BIGINT, i INT)";

  /** Column, object bound to it. */
  private static final Object[][] BINDS = {
      {"d", LocalDate.of(2024, 1, 31)},
      {"d", LocalDateTime.of(2024, 2, 29, 23, 59, 59)},
      {"d", "2024-01-31"},
      {"d", java.util.Date.from(Instant.parse("2024-01-31T10:00:00Z"))},
      {"d", new GregorianCalendar(2023, Calendar.DECEMBER, 24)},
      {"d", java.sql.Date.valueOf("1969-07-20")},
      {"ts", LocalDateTime.of(2024, 1, 31, 12, 34, 56, 789_000_000)},
      {"ts", LocalDate.of(1999, 12, 31)},
      {"ts", OffsetDateTime.of(2024, 1, 31, 12, 0, 0, 0, ZoneOffset.ofHours(2))},
      {"ts", ZonedDateTime.of(2024, 7, 1, 8, 30, 0, 0, ZoneId.of("America/New_York"))},
      {"ts", Instant.parse("2024-01-31T10:00:00.250Z")},
      {"ts", "2024-01-31 12:34:56"},
      {"ts", "2024-01-31T12:34:56.5"},
      {"ts", new java.util.Date(86_400_000L * 365)},
      {"ts", java.sql.Timestamp.valueOf("1960-01-01 00:00:01.125")},
      {"tm", LocalTime.of(12, 34, 56)},
      {"tm", LocalTime.of(0, 0, 1)},
      {"tm", "23:59:59"},
      {"tm", LocalDateTime.of(2024, 1, 31, 7, 8, 9)},
      {"v", LocalDate.of(2024, 1, 31)},
      {"v", LocalTime.of(1, 2, 3)},
      {"v", UUID.fromString("123e4567-e89b-12d3-a456-426614174000")},
      {"v", 42},
      {"n", "12.5"},
      {"n", 1.25d},
      {"n", BigInteger.valueOf(77)},
      {"b", "42"},
      {"b", BigInteger.TEN},
      {"i", (short) 7},
      // the common classes bound without conversion (BasaltPreparedStatement.plainRep)
      {"v", "plain text"},
      {"v", 42L},
      {"v", new BigDecimal("1.50")},
      {"v", 2.5d},
      {"v", Boolean.TRUE},
      {"n", new BigDecimal("12.34")},
      {"n", 5L},
      {"n", 3},
      {"b", 42L},
      {"b", 7},
      {"b", new BigDecimal("9")},
      {"i", 8L},
      {"i", 9},
  };

  /** Column, classes it is read as. */
  private static final Object[][] READS = {
      {"d", List.of(LocalDate.class, LocalDateTime.class, String.class, java.sql.Date.class,
          java.sql.Timestamp.class, OffsetDateTime.class, Instant.class)},
      {"ts", List.of(LocalDateTime.class, LocalDate.class, LocalTime.class, String.class,
          java.sql.Timestamp.class, java.util.Date.class, OffsetDateTime.class, Instant.class)},
      {"tm", List.of(LocalTime.class, String.class, java.sql.Time.class, OffsetTime.class)},
      {"v", List.of(String.class)},
      {"n", List.of(BigDecimal.class, String.class, Double.class)},
      {"b", List.of(Long.class, Integer.class, BigInteger.class, BigDecimal.class, String.class,
          Short.class)},
      {"i", List.of(Integer.class, Long.class, String.class)},
  };

  @Test
  void setObjectAndGetObjectAsH2() throws Exception {
    compareWithH2(TimeZone.getDefault().getID());
  }

  /**
   * The same in JVMs of two other zones (a half-hour offset; daylight saving time): a JVM's
   * zone is read once by the libraries, so each is a child JVM running {@link #main}.
   */
  @Test
  void setObjectAndGetObjectAsH2InOtherZones() throws Exception {
    OtherZones.run(JavaObjectsTest.class);
  }

  /** Compares with H2 in this JVM's zone: exit status 0 and a line saying so, else 1. */
  public static void main(String[] args) {
    OtherZones.report(JavaObjectsTest::compareWithH2);
  }

  private static void compareWithH2(String zone) throws Exception {
    for (int form = 0; form < 3; form++) {
      List<String> basalt;
      try (Database db = Database.openTemporary(EngineOptions.defaults())) {
        basalt = run(BasaltConnections.open(db), form);
      }
      List<String> h2 = run(DriverManager.getConnection("jdbc:h2:mem:javaobjects" + form
          + zone.replace('/', '_')), form);
      assertEquals(h2.size(), basalt.size());
      for (int i = 0; i < h2.size(); i++) {
        assertEquals(h2.get(i), basalt.get(i), "setObject form " + form + " in " + zone);
      }
    }
  }

  /** Binds every object in one form (0: no type, 1: Types, 2: JDBCType), reads it back. */
  private static List<String> run(Connection connection, int form) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = connection; Statement s = c.createStatement()) {
      s.execute(DDL);
      int id = 0;
      for (Object[] bind : BINDS) {
        id++;
        String col = (String) bind[0];
        try (PreparedStatement p = c.prepareStatement("INSERT INTO t (id, " + col + ") VALUES"
            + " (?, ?)")) {
          p.setInt(1, id);
          int type = columnType(col);
          switch (form) {
            case 0 -> p.setObject(2, bind[1]);
            case 1 -> p.setObject(2, bind[1], type);
            default -> p.setObject(2, bind[1], JDBCType.valueOf(type));
          }
          assertEquals(1, p.executeUpdate());
        }
        for (Object[] read : READS) {
          if (!read[0].equals(col)) {
            continue;
          }
          try (ResultSet r = s.executeQuery("SELECT " + col + " FROM t WHERE id = " + id)) {
            assertTrue(r.next());
            for (Object type : (List<?>) read[1]) {
              Object v = r.getObject(1, (Class<?>) type);
              out.add(col + " <- " + bind[1].getClass().getSimpleName() + " " + bind[1] + " as "
                  + ((Class<?>) type).getSimpleName() + ": " + text(v));
            }
          }
        }
      }
    }
    return out;
  }

  private static int columnType(String col) {
    return switch (col) {
      case "d" -> Types.DATE;
      case "ts" -> Types.TIMESTAMP;
      case "tm" -> Types.TIME;
      case "v" -> Types.VARCHAR;
      case "n" -> Types.DECIMAL;
      case "b" -> Types.BIGINT;
      default -> Types.INTEGER;
    };
  }

  /** Values as text (a ZonedDateTime by its offset: H2 gives no region). */
  private static String text(Object v) {
    return v instanceof ZonedDateTime z ? z.toOffsetDateTime().toString() : String.valueOf(v);
  }

  @Test
  void nullsAndRefusals() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
      s.execute(DDL);
      try (PreparedStatement p = c.prepareStatement("INSERT INTO t (id, d) VALUES (?, ?)")) {
        SQLException bad = assertThrows(SQLException.class, () -> p.setObject(2, "31/01/2024"));
        assertEquals("22007", bad.getSQLState(), bad.getMessage());
        assertTrue(bad.getMessage().contains("parameter 2") && bad.getMessage()
            .contains("31/01/2024"), bad.getMessage());
      }
      try (PreparedStatement p = c.prepareStatement("INSERT INTO t (id, d) VALUES (?, ?)")) {
        SQLException noDate = assertThrows(SQLException.class,
            () -> p.setObject(2, LocalTime.NOON));
        assertEquals("22018", noDate.getSQLState(), noDate.getMessage());
        SQLException noType = assertThrows(SQLException.class,
            () -> p.setObject(2, LocalDate.MIN, new java.sql.SQLType() {
              public String getName() {
                return "X";
              }

              public String getVendor() {
                return "nobody";
              }

              public Integer getVendorTypeNumber() {
                return 0;
              }
            }));
        assertEquals("0A000", noType.getSQLState(), noType.getMessage());
      }
      assertEquals(0, count(s), "nothing was stored");
      s.execute("INSERT INTO t (id) VALUES (1)");
      try (ResultSet r = s.executeQuery("SELECT d, ts, tm, b, v FROM t")) {
        assertTrue(r.next());
        assertNull(r.getObject(1, LocalDate.class));
        assertNull(r.getObject(2, Instant.class));
        assertNull(r.getObject(3, LocalTime.class));
        assertNull(r.getObject(4, Long.class), "NULL is null, not 0");
        assertNull(r.getObject("V", UUID.class));
      }
      s.execute("UPDATE t SET v = 'not a uuid', d = DATE '2024-01-31' WHERE id = 1");
      try (ResultSet r = s.executeQuery("SELECT d, v FROM t")) {
        assertTrue(r.next());
        SQLException wrongClass = assertThrows(SQLException.class,
            () -> r.getObject(1, Thread.class));
        assertEquals("22018", wrongClass.getSQLState());
        assertTrue(wrongClass.getMessage().contains("D (DATE)"), wrongClass.getMessage());
        assertEquals("22018", assertThrows(SQLException.class,
            () -> r.getObject(2, UUID.class)).getSQLState());
        assertEquals("22018", assertThrows(SQLException.class,
            () -> r.getObject(1, LocalTime.class)).getSQLState(), "a DATE has no time");
      }
    }
  }

  private static int count(Statement s) throws SQLException {
    try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM t")) {
      r.next();
      return r.getInt(1);
    }
  }
}
