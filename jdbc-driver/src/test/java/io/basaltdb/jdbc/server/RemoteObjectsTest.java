package io.basaltdb.jdbc.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
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
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code jdbc:basalt:remote:} answers {@code setObject} and {@code getObject(i, Class)} as the
 * embedded driver does (which JavaObjectsTest compares with H2): Avatica's client converts to no
 * class at all ({@code getObject(1, String.class)} of a VARCHAR failed with "cannot convert to
 * Object"), binds no java.time value but the local types, and takes no {@code JDBCType} target.
 * Every bind below, in each setObject form, and every read of every column as every class:
 * the same value, or the same refusal (SQLState), remotely and embedded.
 */
class RemoteObjectsTest {
  private static final String DDL = "CREATE TABLE t (id INT PRIMARY KEY, d DATE,"
      + " ts TIMESTAMP(3), tm TIME, n DECIMAL(12,2), b BIGINT, i INT, v VARCHAR(60),"
      + " bo BOOLEAN, db DOUBLE)";

  private static final Object[][] BINDS = {
      {"d", LocalDate.of(2024, 1, 31)}, {"d", LocalDateTime.of(2024, 2, 29, 23, 59, 59)},
      {"d", "2024-01-31"}, {"d", java.util.Date.from(Instant.parse("2024-01-31T10:00:00Z"))},
      {"d", java.sql.Date.valueOf("1969-07-20")},
      {"ts", LocalDateTime.of(2024, 1, 31, 12, 34, 56, 789_000_000)},
      {"ts", LocalDate.of(1999, 12, 31)},
      {"ts", OffsetDateTime.of(2024, 1, 31, 12, 0, 0, 0, ZoneOffset.ofHours(2))},
      {"ts", Instant.parse("2024-01-31T10:00:00.250Z")}, {"ts", "2024-01-31T12:34:56.5"},
      {"ts", java.sql.Timestamp.valueOf("1960-01-01 00:00:01.125")},
      {"tm", LocalTime.of(12, 34, 56)}, {"tm", "23:59:59"},
      {"tm", LocalDateTime.of(2024, 1, 31, 7, 8, 9)},
      {"n", "12.5"}, {"n", 1.25d}, {"n", BigInteger.valueOf(77)}, {"n", new BigDecimal("12.34")},
      {"b", "42"}, {"b", BigInteger.TEN}, {"b", 42L}, {"i", (short) 7}, {"i", 9},
      {"v", LocalDate.of(2024, 1, 31)}, {"v", UUID.fromString("123e4567-e89b-12d3-a456-426614174000")},
      {"v", 42}, {"v", "plain"}, {"bo", true}, {"db", 2.5d}, {"db", "3.75"},
  };

  private static final List<Class<?>> CLASSES = List.of(Object.class, String.class,
      LocalDate.class, LocalDateTime.class, LocalTime.class, OffsetDateTime.class,
      OffsetTime.class, Instant.class, ZonedDateTime.class, java.sql.Date.class,
      java.sql.Timestamp.class, java.sql.Time.class, java.util.Date.class, BigDecimal.class,
      BigInteger.class, Long.class, Integer.class, Short.class, Double.class, Float.class,
      Boolean.class, UUID.class);

  @Test
  void setObjectAndGetObjectAsEmbedded() throws Exception {
    Path dir = Files.createTempDirectory("remote-objects");
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false));
        Connection remote = DriverManager.getConnection("jdbc:basalt:remote:http://127.0.0.1:"
            + server.port());
        Connection embedded = DriverManager.getConnection("jdbc:basalt:" + dir.resolve("e"))) {
      for (int form = 0; form < 3; form++) {
        List<String> r = run(remote, form);
        List<String> e = run(embedded, form);
        assertEquals(e.size(), r.size());
        for (int k = 0; k < e.size(); k++) {
          assertEquals(e.get(k), r.get(k), "setObject form " + form);
        }
        assertTrue(e.size() > 500, "reads compared: " + e.size());
      }
    }
  }

  /** Binds each object in one form (0: no type, 1: Types, 2: JDBCType), reads every column. */
  private static List<String> run(Connection c, int form) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS t");
      s.execute(DDL);
      int id = 0;
      for (Object[] bind : BINDS) {
        String col = (String) bind[0];
        id++;
        try (PreparedStatement p = c.prepareStatement("INSERT INTO t (id, " + col
            + ") VALUES (?, ?)")) {
          p.setInt(1, id);
          int type = type(col);
          switch (form) {
            case 0 -> p.setObject(2, bind[1]);
            case 1 -> p.setObject(2, bind[1], type);
            default -> p.setObject(2, bind[1], JDBCType.valueOf(type));
          }
          out.add(col + " <- " + bind[1] + ": " + p.executeUpdate());
        } catch (SQLException x) {
          out.add(col + " <- " + bind[1] + ": refused " + x.getSQLState());
        }
        try (ResultSet rs = s.executeQuery("SELECT " + col + " FROM t WHERE id = " + id)) {
          if (!rs.next()) {
            continue;
          }
          for (Class<?> k : CLASSES) {
            String v;
            try {
              Object o = rs.getObject(1, k);
              v = String.valueOf(o instanceof ZonedDateTime z ? z.toOffsetDateTime() : o);
            } catch (SQLException x) {
              v = "refused " + x.getSQLState();
            }
            out.add("  as " + k.getSimpleName() + ": " + v);
          }
        }
      }
    }
    return out;
  }

  private static int type(String col) {
    return switch (col) {
      case "d" -> Types.DATE;
      case "ts" -> Types.TIMESTAMP;
      case "tm" -> Types.TIME;
      case "n" -> Types.DECIMAL;
      case "b" -> Types.BIGINT;
      case "i" -> Types.INTEGER;
      case "bo" -> Types.BOOLEAN;
      case "db" -> Types.DOUBLE;
      default -> Types.VARCHAR;
    };
  }
}
