package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code TIMESTAMP WITH TIME ZONE} (an instant, as PostgreSQL keeps it) and {@code UUID}, the
 * types ORMs emit for {@code Instant}, {@code OffsetDateTime} and {@code UUID} fields: written
 * as literals (with an offset, a zone, none) and as every bound object, compared, looked up by
 * key and index, and read back as every class, each giving the instant and the UUID H2 gives
 * for the same calls, in this JVM's zone and in two others; bad text is refused with a SQLState.
 */
class InstantAndUuidTest {
  private static final String[] DDL = {
      "CREATE TABLE ev (id INT PRIMARY KEY, ts TIMESTAMP(3) WITH TIME ZONE, ukey UUID)",
      "CREATE TABLE byukey (ukey UUID PRIMARY KEY, ts TIMESTAMP(3) WITH TIME ZONE NOT NULL,"
          + " n INT)",
      "CREATE INDEX ev_ref ON ev (ukey)",
  };
  private static final String[] WRITES = {
      "INSERT INTO ev VALUES (1, '2024-01-31 12:00:00+02:00', "
          + "'123e4567-e89b-12d3-a456-426614174000')",
      "INSERT INTO ev VALUES (2, '2024-01-31 12:00:00', '123E4567-E89B-12D3-A456-4266141740FF')",
      "INSERT INTO ev VALUES (3, TIMESTAMP '2024-07-01 08:30:00', NULL)",
      "INSERT INTO ev VALUES (4, '2024-07-01 08:30:00.250Z', "
          + "CAST('f0000000-0000-4000-8000-000000000001' AS UUID))",
      "INSERT INTO ev VALUES (5, '2024-03-10 02:30:00-05:00', "
          + "'00000000-0000-4000-8000-000000000002')",
      "INSERT INTO byukey SELECT ukey, ts, id FROM ev WHERE ukey IS NOT NULL",
      "UPDATE ev SET ts = '2025-01-01 00:00:00+14:00' WHERE ukey = "
          + "'00000000-0000-4000-8000-000000000002'",
  };
  /** Objects bound to the instant column, then to the UUID column (null: none). */
  private static final Object[][] BINDS = {
      {OffsetDateTime.parse("2024-02-29T23:59:59.123+05:30"), UUID.fromString(
          "7fffffff-ffff-4fff-bfff-ffffffffffff")},
      {Instant.parse("1969-07-20T20:17:40Z"), "80000000-0000-4000-8000-000000000000"},
      {ZonedDateTime.parse("2024-10-27T01:30:00+01:00[Europe/London]"), null},
      {Timestamp.from(Instant.parse("2024-06-01T12:00:00Z")), null},
      {LocalDateTime.parse("2024-06-01T12:00:00"), null},
      {"2024-06-01 12:00:00+09", null},
  };
  private static final String[] READS = {
      "SELECT id, ts, ukey FROM ev ORDER BY id",
      "SELECT id FROM ev WHERE ts > TIMESTAMP '2024-03-01 00:00:00' ORDER BY id",
      "SELECT id FROM ev WHERE ts = '2024-01-31 10:00:00Z'",
      "SELECT id FROM ev WHERE ukey = '123e4567-e89b-12d3-a456-4266141740ff'",
      "SELECT id FROM ev WHERE ukey IN ('123e4567-e89b-12d3-a456-426614174000', "
          + "'F0000000-0000-4000-8000-000000000001') ORDER BY id",
      "SELECT n, ts FROM byukey WHERE ukey = 'f0000000-0000-4000-8000-000000000001'",
      "SELECT COUNT(*), MIN(ts), MAX(ts) FROM byukey",
      "SELECT COUNT(DISTINCT ukey) FROM ev",
      "SELECT e.id, b.n FROM ev e JOIN byukey b ON e.ukey = b.ukey ORDER BY e.id",
  };

  @Test
  void sameInstantsAndUuidsAsH2() throws Exception {
    compareWithH2(TimeZone.getDefault().getID());
  }

  /** The same in JVMs of two other zones (each a child JVM running {@link #main}). */
  @Test
  void sameInstantsAndUuidsAsH2InOtherZones() throws Exception {
    OtherZones.run(InstantAndUuidTest.class);
  }

  /** Compares with H2 in this JVM's zone: exit status 0 and a line saying so, else 1. */
  public static void main(String[] args) {
    OtherZones.report(InstantAndUuidTest::compareWithH2);
  }

  private static void compareWithH2(String zone) throws Exception {
    List<String> basalt;
    try (Database db = Database.openTemporary(EngineOptions.defaults())) {
      basalt = run(BasaltConnections.open(db));
    }
    List<String> h2 = run(DriverManager.getConnection("jdbc:h2:mem:instants"
        + zone.replace('/', '_')));
    for (int i = 0; i < Math.min(h2.size(), basalt.size()); i++) {
      assertEquals(h2.get(i), basalt.get(i), "step " + i + " in " + zone);
    }
    assertEquals(h2.size(), basalt.size());
  }

  private static List<String> run(Connection connection) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = connection; Statement s = c.createStatement()) {
      for (String sql : DDL) {
        s.execute(sql);
      }
      for (String sql : WRITES) {
        out.add(sql + ": " + s.executeUpdate(sql));
      }
      int id = 100;
      try (PreparedStatement p = c.prepareStatement("INSERT INTO ev VALUES (?, ?, ?)")) {
        for (Object[] bind : BINDS) {
          p.setInt(1, ++id);
          if (bind[0] instanceof Timestamp t) {
            p.setTimestamp(2, t);
          } else {
            p.setObject(2, bind[0]);
          }
          if (bind[1] == null) {
            p.setNull(3, Types.OTHER);
          } else {
            p.setObject(3, bind[1]);
          }
          out.add("bound " + bind[0] + ": " + p.executeUpdate());
        }
      }
      try (PreparedStatement p = c.prepareStatement("SELECT id FROM ev WHERE ukey = ?")) {
        p.setString(1, "80000000-0000-4000-8000-000000000000");
        out.add("by text: " + rows(p.executeQuery()));
        p.setObject(1, UUID.fromString("7fffffff-ffff-4fff-bfff-ffffffffffff"));
        out.add("by UUID: " + rows(p.executeQuery()));
      }
      try (PreparedStatement p = c.prepareStatement("SELECT id FROM ev WHERE ts = ?")) {
        p.setObject(1, Instant.parse("2024-02-29T18:29:59.123Z"));
        out.add("by instant: " + rows(p.executeQuery()));
        p.setObject(1, OffsetDateTime.parse("2024-06-01T21:00:00+09:00"));
        out.add("by offset: " + rows(p.executeQuery()));
      }
      for (String sql : READS) {
        out.add(sql + ": " + rows(s.executeQuery(sql)));
      }
      try (ResultSet r = s.executeQuery("SELECT ts, ukey FROM ev WHERE id = 1")) {
        assertTrue(r.next());
        out.add("as classes: " + r.getObject(1, Instant.class) + " "
            + r.getObject(1, OffsetDateTime.class).toInstant() + " "
            + r.getObject(1, ZonedDateTime.class).toInstant() + " "
            + r.getObject(1, LocalDateTime.class) + " " + r.getTimestamp(1).getTime() + " "
            + r.getObject(2, UUID.class) + " " + r.getString(2)
            + " " + r.getMetaData().getColumnType(1));
      }
      try (ResultSet r = c.getMetaData().getColumns(null, null, "EV", null)) {
        StringBuilder b = new StringBuilder("getColumns:");
        while (r.next()) {
          if (!r.getString("COLUMN_NAME").equals("UKEY")) { // UUID: H2 says BINARY, Basalt OTHER
            b.append(' ').append(r.getString("COLUMN_NAME")).append('=')
                .append(r.getInt("DATA_TYPE"));
          }
        }
        out.add(b.toString());
      }
      for (String bad : List.of("INSERT INTO ev VALUES (90, 'noon', NULL)",
          "INSERT INTO ev VALUES (91, NULL, 'not-a-uuid')",
          "SELECT id FROM ev WHERE ukey = 'zz'")) {
        try {
          s.execute(bad);
          out.add(bad + ": accepted");
        } catch (SQLException e) {
          out.add(bad + ": " + e.getSQLState().substring(0, 2)); // the class: 22
        }
      }
      out.add("after refusals: " + rows(s.executeQuery("SELECT COUNT(*) FROM ev")));
    }
    return out;
  }

  /**
   * What Basalt refuses where H2 rounds or cuts: digits of a second past the declared precision
   * (22008), as for TIMESTAMP; nothing is written.
   */
  @Test
  void fractionPastThePrecisionIsRefused() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT PRIMARY KEY, ts TIMESTAMP WITH TIME ZONE)");
      SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
          () -> s.execute("INSERT INTO t VALUES (1, '2024-01-01 00:00:00.5+01')"));
      assertEquals("22008", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("column TS"), e.getMessage());
      s.execute("INSERT INTO t VALUES (2, '2024-01-01 00:00:00+01')");
      try (ResultSet r = s.executeQuery("SELECT id, ts FROM t")) {
        assertEquals("[2, 2023-12-31T23:00:00Z]", rows(r));
      }
    }
  }

  /** Rows as text, an instant column as its instant (H2 keeps the offset it was given). */
  private static String rows(ResultSet r) throws SQLException {
    StringBuilder b = new StringBuilder();
    try (r) {
      int n = r.getMetaData().getColumnCount();
      while (r.next()) {
        b.append('[');
        for (int i = 1; i <= n; i++) {
          Object v = r.getObject(i);
          b.append(i > 1 ? ", " : "").append(v instanceof OffsetDateTime t ? t.toInstant()
              : v instanceof Number num ? num.longValue() : v);
        }
        b.append(']');
      }
    }
    return b.toString();
  }
}
