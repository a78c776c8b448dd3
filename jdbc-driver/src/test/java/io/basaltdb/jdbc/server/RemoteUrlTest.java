package io.basaltdb.jdbc.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdbc:basalt:remote:http://HOST:PORT}: Basalt's driver speaking to a server through
 * Avatica's client, answering the keys Avatica's protocol has no request for (primary keys,
 * imported and exported keys, cross references) exactly as the embedded driver answers them.
 */
class RemoteUrlTest {
  @TempDir Path dir;

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
   * UUID columns read remotely, as their text (Avatica's wire format has no UUID: the frame was
   * refused whole); an instant read by a client in UTC.
   */
  @Test
  void uuidsAndInstantsCrossTheWire() throws Exception {
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false));
        Connection remote = DriverManager.getConnection("jdbc:basalt:remote:http://127.0.0.1:"
            + server.port());
        Statement s = remote.createStatement()) {
      s.execute("CREATE TABLE e (id UUID PRIMARY KEY, ts TIMESTAMP WITH TIME ZONE)");
      s.execute("INSERT INTO e VALUES ('123e4567-e89b-12d3-a456-426614174000',"
          + " '2024-01-01 12:00:00+02:00')");
      try (ResultSet r = s.executeQuery("SELECT id, ts FROM e")) {
        org.junit.jupiter.api.Assertions.assertTrue(r.next());
        assertEquals("123e4567-e89b-12d3-a456-426614174000", r.getString(1));
        assertEquals(java.time.Instant.parse("2024-01-01T10:00:00Z"),
            r.getTimestamp(2).toInstant());
      }
    }
  }

  @Test
  void aUrlThatIsNoServerIsRefused() {
    SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:basalt:remote:ftp://127.0.0.1:1"));
    assertEquals("08001", e.getSQLState(), e.getMessage());
  }
}
