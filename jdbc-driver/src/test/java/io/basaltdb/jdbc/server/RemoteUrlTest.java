package io.basaltdb.jdbc.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdbc:basalt:remote:http://HOST:PORT}: Basalt's driver speaking to a server through
 * Avatica's client, answering the keys Avatica's protocol has no request for (primary keys,
 * imported and exported keys, cross references) exactly as the embedded driver answers them.
 */
class RemoteUrlTest {
  @TempDir Path dir;

  /**
   * DDL and transaction control prepared remotely (as MyBatis mappers and Jdbi send DDL) run at
   * each execution: the server's execute of such a statement failed with a ClassCastException
   * (XX000), and the table was never made.
   */
  @Test
  void preparedDdlRunsWhenExecuted() throws Exception {
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false));
        Connection remote = DriverManager.getConnection("jdbc:basalt:remote:http://127.0.0.1:"
            + server.port());
        Statement s = remote.createStatement()) {
      try (PreparedStatement p = remote.prepareStatement(
          "CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20))")) {
        assertFalse(p.execute());
      }
      s.executeUpdate("INSERT INTO item VALUES (1, 'a')");
      try (ResultSet r = s.executeQuery("SELECT name FROM item")) {
        assertTrue(r.next());
        assertEquals("a", r.getString(1));
      }
      try (PreparedStatement p = remote.prepareStatement("DROP TABLE item")) {
        p.executeUpdate();
      }
      SQLException gone = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT name FROM item"));
      assertEquals("42000", gone.getSQLState(), gone.getMessage());
    }
  }

  /**
   * The remote metadata names Basalt as the embedded one does (Avatica's client said "Avatica",
   * "unknown version": Hibernate found no dialect and Flyway no database type), and its URL is
   * the one connected to, without properties.
   */
  @Test
  void metadataNamesBasalt() throws Exception {
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false));
        Connection remote = DriverManager.getConnection("jdbc:basalt:remote:http://127.0.0.1:"
            + server.port() + ";timeZone=UTC");
        Connection embedded = DriverManager.getConnection("jdbc:basalt:" + dir.resolve("e"))) {
      DatabaseMetaData r = remote.getMetaData();
      DatabaseMetaData e = embedded.getMetaData();
      assertEquals(e.getDatabaseProductName(), r.getDatabaseProductName());
      assertEquals("Basalt", r.getDatabaseProductName());
      assertEquals(e.getDatabaseProductVersion(), r.getDatabaseProductVersion());
      assertEquals(e.getDatabaseMajorVersion(), r.getDatabaseMajorVersion());
      assertEquals(e.getDatabaseMinorVersion(), r.getDatabaseMinorVersion());
      assertEquals(e.getDriverVersion(), r.getDriverVersion());
      assertTrue(r.getDriverName().startsWith("Basalt JDBC Driver"), r.getDriverName());
      assertEquals("jdbc:basalt:remote:http://127.0.0.1:" + server.port(), r.getURL());
    }
  }

  /**
   * JDBC savepoints remotely (Spring's nested transactions): named and unnamed, rolled back to
   * and released, as the embedded driver keeps them; Avatica's client has none.
   */
  @Test
  void savepointsRemotely() throws Exception {
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false));
        Connection remote = DriverManager.getConnection("jdbc:basalt:remote:http://127.0.0.1:"
            + server.port());
        Statement s = remote.createStatement()) {
      assertTrue(remote.getMetaData().supportsSavepoints());
      s.execute("CREATE TABLE sp (id INT PRIMARY KEY)");
      remote.setAutoCommit(false);
      s.executeUpdate("INSERT INTO sp VALUES (1)");
      java.sql.Savepoint first = remote.setSavepoint();
      s.executeUpdate("INSERT INTO sp VALUES (2)");
      java.sql.Savepoint named = remote.setSavepoint("after two");
      assertEquals("after two", named.getSavepointName());
      assertTrue(first.getSavepointId() > 0);
      s.executeUpdate("INSERT INTO sp VALUES (3)");
      remote.rollback(named);
      assertEquals(List.of(1, 2), ids(s));
      java.sql.Savepoint third = remote.setSavepoint("third");
      s.executeUpdate("INSERT INTO sp VALUES (4)");
      remote.releaseSavepoint(third);
      remote.rollback(first);
      assertEquals(List.of(1), ids(s));
      remote.commit();
      remote.setAutoCommit(true);
      assertEquals(List.of(1), ids(s));
    }
  }

  private static List<Integer> ids(Statement s) throws SQLException {
    List<Integer> out = new ArrayList<>();
    try (ResultSet r = s.executeQuery("SELECT id FROM sp ORDER BY id")) {
      while (r.next()) {
        out.add(r.getInt(1));
      }
    }
    return out;
  }

  @Test
  void keysAsTheEmbeddedDriverGivesThem() throws Exception {
    List<String> over;
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false));
        Connection remote = DriverManager.getConnection("jdbc:basalt:remote:http://127.0.0.1:"
            + server.port());
        Statement s = remote.createStatement()) {
      s.execute("CREATE TABLE p (a INT, b VARCHAR(5), PRIMARY KEY (a, b))");
      s.execute("CREATE TABLE c (id INT PRIMARY KEY, pa INT, pb VARCHAR(5),"
          + " CONSTRAINT c_p FOREIGN KEY (pb, pa) REFERENCES p (b, a) ON DELETE CASCADE)");
      s.execute("CREATE TABLE d (id INT PRIMARY KEY, c INT REFERENCES c ON DELETE SET NULL)");
      over = keys(remote.getMetaData());
      assertFalse(over.get(0).isEmpty(), over.toString());
      assertEquals(remote, remote.getMetaData().getConnection());
    }
    // the embedded driver opens the directory the server held
    try (Connection embedded = DriverManager.getConnection("jdbc:basalt:" + dir.resolve("db"))) {
      assertEquals(keys(embedded.getMetaData()), over);
    }
  }

  private static List<String> keys(DatabaseMetaData md) throws SQLException {
    List<String> out = new ArrayList<>();
    out.add(rows(md.getPrimaryKeys(null, "DEFAULT", "P")));
    out.add(rows(md.getImportedKeys(null, "DEFAULT", "C")));
    out.add(rows(md.getImportedKeys(null, null, "D")));
    out.add(rows(md.getExportedKeys(null, "DEFAULT", "P")));
    out.add(rows(md.getExportedKeys(null, "DEFAULT", "C")));
    out.add(rows(md.getCrossReference(null, "DEFAULT", "P", null, "DEFAULT", "C")));
    out.add(rows(md.getCrossReference(null, "DEFAULT", "P", null, "DEFAULT", "D")));
    return out;
  }

  private static String rows(ResultSet r) throws SQLException {
    StringBuilder b = new StringBuilder();
    try (r) {
      int n = r.getMetaData().getColumnCount();
      while (r.next()) {
        b.append('[');
        for (int i = 1; i <= n; i++) {
          b.append(i > 1 ? "," : "").append(r.getMetaData().getColumnLabel(i)).append('=')
              .append(r.getString(i));
        }
        b.append(']');
      }
    }
    return b.toString();
  }

  /**
   * UUIDs and instants, which Avatica's wire format has no type for, written and read by a
   * remote client in another zone than the server's (Avatica's client reads a TIMESTAMP in its
   * zone: an instant read so was shifted), as the embedded driver gives them; a UUID key column
   * was refused whole by the server before.
   */
  @Test
  void uuidsAndInstantsCrossTheWire() throws Exception {
    UUID second = UUID.fromString("123e4567-e89b-12d3-a456-426614174001");
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false));
        Connection remote = DriverManager.getConnection("jdbc:basalt:remote:http://127.0.0.1:"
            + server.port() + ";timeZone=Asia/Kolkata");
        Statement s = remote.createStatement()) {
      s.execute("CREATE TABLE e (id UUID PRIMARY KEY, ts TIMESTAMP WITH TIME ZONE)");
      s.execute("INSERT INTO e VALUES ('123e4567-e89b-12d3-a456-426614174000',"
          + " '2024-01-01 12:00:00+02:00')");
      try (PreparedStatement p = remote.prepareStatement("INSERT INTO e VALUES (?, ?)")) {
        p.setObject(1, second);
        p.setObject(2, OffsetDateTime.parse("2024-06-01T09:30:00+05:30"));
        assertEquals(1, p.executeUpdate());
      }
      try (PreparedStatement p = remote.prepareStatement("SELECT id, ts FROM e WHERE id = ?")) {
        p.setString(1, second.toString());
        try (ResultSet r = p.executeQuery()) {
          assertTrue(r.next());
          assertEquals(second, r.getObject(1, UUID.class));
          assertEquals(Instant.parse("2024-06-01T04:00:00Z"), r.getObject(2, Instant.class));
        }
      }
      try (ResultSet r = s.executeQuery("SELECT id, ts FROM e ORDER BY ts")) {
        assertTrue(r.next());
        assertEquals("123e4567-e89b-12d3-a456-426614174000", r.getString(1));
        assertEquals(Instant.parse("2024-01-01T10:00:00Z"), r.getTimestamp(2).toInstant());
        assertEquals(OffsetDateTime.parse("2024-01-01T10:00:00Z"), r.getObject(2));
        assertEquals(java.sql.Types.TIMESTAMP_WITH_TIMEZONE, r.getMetaData().getColumnType(2));
      }
    }
  }

  /**
   * A remote batch's rows are checked as they arrive (each value in its JDBC form, made with one
   * calendar per server thread): dates, times and decimals of a batch are stored as bound, and a
   * value too long for its column is refused with 22001.
   */
  @Test
  void aRemoteBatchOfDatesIsStoredAsBound() throws Exception {
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false));
        Connection remote = DriverManager.getConnection("jdbc:basalt:remote:http://127.0.0.1:"
            + server.port());
        Statement s = remote.createStatement()) {
      s.execute("CREATE TABLE b (id INT PRIMARY KEY, d DATE, ts TIMESTAMP, n DECIMAL(10,2),"
          + " v VARCHAR(4))");
      try (PreparedStatement p = remote.prepareStatement("INSERT INTO b VALUES (?, ?, ?, ?, ?)")) {
        for (int i = 0; i < 3; i++) {
          p.setInt(1, i);
          p.setDate(2, java.sql.Date.valueOf("1969-07-2" + i));
          p.setTimestamp(3, java.sql.Timestamp.valueOf("2024-02-29 23:59:5" + i + ".25"));
          p.setBigDecimal(4, new java.math.BigDecimal("-1234.5" + i));
          p.setString(5, "v" + i);
          p.addBatch();
        }
        assertEquals(3, java.util.Arrays.stream(p.executeBatch()).sum());
        p.setInt(1, 9);
        SQLException tooLong = assertThrows(SQLException.class, () -> {
          p.setString(5, "toolong");
          p.addBatch();
          p.executeBatch();
        });
        assertEquals("22001", tooLong.getSQLState(), tooLong.getMessage());
      }
      try (ResultSet r = s.executeQuery("SELECT id, d, ts, n, v FROM b ORDER BY id")) {
        for (int i = 0; i < 3; i++) {
          assertTrue(r.next());
          assertEquals(java.time.LocalDate.parse("1969-07-2" + i), r.getDate(2).toLocalDate());
          assertEquals(java.time.LocalDateTime.parse("2024-02-29T23:59:5" + i + ".25"),
              r.getTimestamp(3).toLocalDateTime());
          assertEquals(new java.math.BigDecimal("-1234.5" + i), r.getBigDecimal(4));
          assertEquals("v" + i, r.getString(5));
        }
        assertFalse(r.next());
      }
    }
  }

  /**
   * JDBC 4.2's local types, which Avatica's client neither binds nor reads, cross the wire as the
   * values stored, whatever the connection's zone: read back remotely and by the embedded
   * driver.
   */
  @Test
  void localDatesAndTimesCrossTheWire() throws Exception {
    Object[][] rows = {
        {java.time.LocalDate.of(1969, 7, 20), java.time.LocalTime.of(0, 0, 1),
            java.time.LocalDateTime.of(1960, 1, 1, 0, 0, 1, 125_000_000)},
        {java.time.LocalDate.of(2024, 2, 29), java.time.LocalTime.of(23, 59, 59, 999_000_000),
            java.time.LocalDateTime.of(2024, 3, 31, 2, 30)},
        {null, null, null},
    };
    // a zone behind UTC shifts a date bound in it, one ahead a date read in it
    List<String> zones = List.of("America/Los_Angeles", "Pacific/Kiritimati");
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false))) {
      for (int z = 0; z < zones.size(); z++) {
        try (Connection remote = DriverManager.getConnection("jdbc:basalt:remote:http://"
            + "127.0.0.1:" + server.port() + ";timeZone=" + zones.get(z));
            Statement s = remote.createStatement()) {
          s.execute("CREATE TABLE l" + z + " (id INT PRIMARY KEY, d DATE, tm TIME, ts TIMESTAMP)");
          try (PreparedStatement p = remote.prepareStatement("INSERT INTO l" + z
              + " VALUES (?, ?, ?, ?)")) {
            for (int i = 0; i < rows.length; i++) {
              p.setInt(1, i);
              for (int c = 0; c < 3; c++) {
                p.setObject(c + 2, rows[i][c]);
              }
              assertEquals(1, p.executeUpdate());
            }
          }
          assertEquals(expected(rows), read(remote, "l" + z), zones.get(z));
        }
      }
    }
    try (Connection embedded = DriverManager.getConnection("jdbc:basalt:" + dir.resolve("db"))) {
      for (int z = 0; z < zones.size(); z++) {
        assertEquals(expected(rows), read(embedded, "l" + z), zones.get(z));
      }
    }
  }

  /** What {@link #read} gives for rows bound as {@code rows}. */
  private static String expected(Object[][] rows) {
    StringBuilder out = new StringBuilder();
    for (Object[] r : rows) {
      java.time.LocalDateTime ts = (java.time.LocalDateTime) r[2];
      out.append(r[0]).append(' ').append(r[1]).append(' ').append(ts).append(' ')
          .append(ts == null ? null : ts.toLocalDate()).append(' ')
          .append(ts == null ? null : ts.toLocalTime()).append(' ')
          .append(r[0] == null ? null : ((java.time.LocalDate) r[0]).atStartOfDay()).append('\n');
    }
    return out.toString();
  }

  /** Each row's DATE, TIME and TIMESTAMP as local types, and the TIMESTAMP's and DATE's parts. */
  private static String read(Connection c, String table) throws SQLException {
    StringBuilder out = new StringBuilder();
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT d, tm, ts FROM " + table + " ORDER BY id")) {
      while (r.next()) {
        out.append(r.getObject(1, java.time.LocalDate.class)).append(' ')
            .append(r.getObject(2, java.time.LocalTime.class)).append(' ')
            .append(r.getObject(3, java.time.LocalDateTime.class)).append(' ')
            .append(r.getObject(3, java.time.LocalDate.class)).append(' ')
            .append(r.getObject(3, java.time.LocalTime.class)).append(' ')
            .append(r.getObject(1, java.time.LocalDateTime.class)).append('\n');
      }
    }
    return out.toString();
  }

  @Test
  void aUrlThatIsNoServerIsRefused() {
    SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:basalt:remote:ftp://127.0.0.1:1"));
    assertEquals("08001", e.getSQLState(), e.getMessage());
  }
}
