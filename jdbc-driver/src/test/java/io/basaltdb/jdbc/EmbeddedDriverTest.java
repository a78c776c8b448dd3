package io.basaltdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded driver through DriverManager: URLs, shared databases, properties, SQLStates. */
class EmbeddedDriverTest {
  @TempDir
  Path dir;

  private static List<String> rows(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  @Test
  void memoryDatabasesLiveWhileAConnectionIsOpen() throws Exception {
    try (Connection a = DriverManager.getConnection("jdbc:basalt:mem:shared")) {
      try (Statement st = a.createStatement()) {
        st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR)");
        assertEquals(2, st.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'b')"));
      }
      try (Connection b = DriverManager.getConnection("jdbc:basalt:mem:shared")) {
        assertEquals(List.of("a", "b"), rows(b, "SELECT v FROM t ORDER BY id"));
      }
      assertEquals(List.of("2"), rows(a, "SELECT COUNT(*) FROM t"));
    }
    try (Connection again = DriverManager.getConnection("jdbc:basalt:mem:shared")) {
      SQLException gone = assertThrows(SQLException.class, () -> rows(again, "SELECT * FROM t"));
      assertEquals("42000", gone.getSQLState(), gone.getMessage());
    }
  }

  @Test
  void directoryDatabasesPersistAndAreSharedInTheProcess() throws Exception {
    String url = "jdbc:basalt:" + dir.resolve("db") + ";durability=SYNC";
    try (Connection a = DriverManager.getConnection(url);
        Connection b = DriverManager.getConnection(url)) {
      try (Statement st = a.createStatement()) {
        st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR)");
      }
      try (PreparedStatement p = b.prepareStatement("UPSERT INTO t VALUES (?, ?)")) {
        p.setInt(1, 7);
        p.setString(2, "seven");
        assertEquals(1, p.executeUpdate());
      }
      assertTrue(a.unwrap(org.apache.calcite.jdbc.CalciteConnection.class) != null);
    }
    try (Connection c = DriverManager.getConnection("jdbc:basalt:" + dir.resolve("db"))) {
      assertEquals(List.of("seven"), rows(c, "SELECT v FROM t WHERE id = 7"));
      assertFalse(c.isClosed());
      c.close();
      assertTrue(c.isClosed());
    }
  }

  @Test
  void errorsCarrySqlStates() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:basalt:mem:errors");
        Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, n SMALLINT)");
      st.executeUpdate("INSERT INTO t VALUES (1, 32767)");
      assertEquals("23505", assertThrows(SQLException.class,
          () -> st.executeUpdate("INSERT INTO t VALUES (1, 0)")).getSQLState());
      assertEquals("22003", assertThrows(SQLException.class,
          () -> st.executeUpdate("UPDATE t SET n = n + 1 WHERE id = 1")).getSQLState());
      assertEquals("42000", assertThrows(SQLException.class,
          () -> st.executeQuery("SELEC 1")).getSQLState());
      assertEquals("0A000", assertThrows(SQLException.class,
          () -> st.executeUpdate("UPDATE t SET id = 2")).getSQLState());
    }
  }

  /**
   * A query that would run for minutes (a billion-row cross join) ends at its timeout with a
   * SQLTimeoutException (57014), or soon after cancel() from another thread (57014); the
   * statement runs again afterwards.
   */
  @Test
  void queryTimeoutAndCancelStopARunawayQuery() throws Exception {
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
        java.time.Duration.ofSeconds(60), () -> {
          try (Connection c = DriverManager.getConnection("jdbc:basalt:mem:runaway");
              Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v INTEGER)");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
              for (int i = 0; i < 1000; i++) {
                p.setInt(1, i);
                p.setInt(2, i % 7);
                p.addBatch();
              }
              p.executeBatch();
            }
            String runaway = "SELECT COUNT(*) FROM t a, t b, t c WHERE a.v + b.v + c.v >= 0";
            st.setQueryTimeout(1);
            long start = System.nanoTime();
            SQLException timeout = assertThrows(SQLException.class, () -> st.executeQuery(runaway)
                .next());
            assertTrue(timeout instanceof java.sql.SQLTimeoutException, timeout.toString());
            assertEquals("57014", timeout.getSQLState());
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds < 20, "stopped after " + seconds + " s");
            st.setQueryTimeout(0);
            try (Statement other = c.createStatement()) {
              Thread canceller = new Thread(() -> {
                try {
                  Thread.sleep(300);
                  other.cancel();
                } catch (Exception e) {
                  throw new RuntimeException(e);
                }
              });
              canceller.start();
              SQLException cancelled = assertThrows(SQLException.class,
                  () -> other.executeQuery(runaway).next());
              canceller.join();
              assertEquals("57014", cancelled.getSQLState(), cancelled.toString());
              try (ResultSet rs = other.executeQuery("SELECT COUNT(*) FROM t")) {
                assertTrue(rs.next());
                assertEquals(1000, rs.getLong(1), "the statement runs again");
              }
            }
          }
        });
  }

  /** cancel() ends the statement's current execution (57014); the statement runs again. */
  @Test
  void cancelEndsTheRunningQueryAndTheStatementRunsAgain() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:basalt:mem:cancel");
        Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY)");
      st.executeUpdate("INSERT INTO t VALUES (1), (2), (3)");
      for (String sql : List.of("SELECT id FROM t", "SELECT id FROM t WHERE id > ?")) {
        try (PreparedStatement p = c.prepareStatement(sql);
            Statement s = c.createStatement()) {
          if (sql.contains("?")) {
            p.setInt(1, 0);
          }
          Statement running = sql.contains("?") ? p : s;
          ResultSet rs = sql.contains("?") ? p.executeQuery() : s.executeQuery(sql);
          assertTrue(rs.next());
          running.cancel();
          SQLException e = assertThrows(SQLException.class, rs::next, sql);
          assertEquals("57014", e.getSQLState(), e.getMessage());
          try (ResultSet again = sql.contains("?") ? p.executeQuery() : s.executeQuery(sql)) {
            int n = 0;
            while (again.next()) {
              n++;
            }
            assertEquals(3, n, sql);
          }
        }
      }
    }
  }

  @Test
  void badUrlsAndPropertiesAreClearErrors() throws Exception {
    SQLException noDir = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:basalt:"));
    assertEquals("08001", noDir.getSQLState());
    assertEquals("08001", assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:basalt:mem:x;durability")).getSQLState());
    Properties p = new Properties();
    p.setProperty("durability", "sometimes");
    // A bad value is refused when connecting, not at the first write.
    SQLException bad = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:basalt:mem:props", p).close());
    assertEquals("22023", bad.getSQLState());
    assertTrue(bad.getMessage().contains("durability"), bad.getMessage());
    assertEquals(null, new BasaltDriver().connect("jdbc:h2:mem:x", new Properties()));
  }

  @Test
  void readOnlyConnectionsRefuseWritesAndDdl() throws Exception {
    try (Connection rw = DriverManager.getConnection("jdbc:basalt:mem:ro");
        Statement st = rw.createStatement()) {
      st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY)");
      st.executeUpdate("INSERT INTO t VALUES (1)");
      try (Connection ro = DriverManager.getConnection("jdbc:basalt:mem:ro;readOnly=true");
          Statement rst = ro.createStatement()) {
        assertEquals(List.of("1"), rows(ro, "SELECT id FROM t"));
        assertEquals("25006", assertThrows(SQLException.class,
            () -> rst.executeUpdate("INSERT INTO t VALUES (2)")).getSQLState());
        assertEquals("25006", assertThrows(SQLException.class,
            () -> rst.executeUpdate("CREATE TABLE u (id INTEGER NOT NULL PRIMARY KEY)"))
            .getSQLState());
      }
      rw.setReadOnly(true);
      assertEquals("25006", assertThrows(SQLException.class,
          () -> st.executeUpdate("DELETE FROM t")).getSQLState());
      rw.setReadOnly(false);
      assertEquals(1, st.executeUpdate("DELETE FROM t"));
    }
  }

  @Test
  void metadataNamesBasaltAndDescribesTables() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:basalt:mem:meta");
        Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE pages (id BIGINT NOT NULL PRIMARY KEY, f.url VARCHAR(200))");
      st.executeUpdate("CREATE VIEW busy AS SELECT id FROM pages WHERE id > 10");
      var md = c.getMetaData();
      assertEquals("Basalt", md.getDatabaseProductName());
      assertEquals("jdbc:basalt:mem:meta", md.getURL());
      assertEquals("\"", md.getIdentifierQuoteString());
      assertTrue(md.storesUpperCaseIdentifiers() && md.supportsMixedCaseQuotedIdentifiers());
      try (ResultSet rs = md.getTypeInfo()) {
        assertTrue(rs.next());
      }
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = md.getTables(null, "DEFAULT", null, null)) {
        while (rs.next()) {
          tables.add(rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
        }
      }
      assertTrue(tables.contains("PAGES:TABLE") && tables.contains("BUSY:VIEW"), tables.toString());
      List<String> cols = new ArrayList<>();
      try (ResultSet rs = md.getColumns(null, "DEFAULT", "PAGES", null)) {
        while (rs.next()) {
          cols.add(rs.getString("TABLE_NAME") + "." + rs.getString("COLUMN_NAME") + ":"
              + rs.getInt("DATA_TYPE") + ":"
              + rs.getInt("NULLABLE") + ":" + rs.getInt("ORDINAL_POSITION"));
        }
      }
      st.executeUpdate("CREATE TABLE ev (g VARCHAR NOT NULL, k INTEGER NOT NULL, v INTEGER, "
          + "CONSTRAINT pk PRIMARY KEY (g, k DESC))");
      List<String> keys = new ArrayList<>();
      try (ResultSet rs = md.getPrimaryKeys(null, "DEFAULT", "EV")) {
        while (rs.next()) {
          keys.add(rs.getString("TABLE_NAME") + "." + rs.getString("COLUMN_NAME") + ":"
              + rs.getInt("KEY_SEQ"));
        }
      }
      assertEquals(List.of("EV.G:1", "EV.K:2"), keys);
      try (ResultSet rs = md.getPrimaryKeys(null, "DEFAULT", "NOSUCH")) {
        assertEquals(false, rs.next());
      }
      // the primary key is the table's unique index, in key order, with each column's order
      List<String> index = new ArrayList<>();
      try (ResultSet rs = md.getIndexInfo(null, "DEFAULT", "EV", false, false)) {
        while (rs.next()) {
          index.add(rs.getString("INDEX_NAME") + ":" + rs.getBoolean("NON_UNIQUE") + ":"
              + rs.getShort("ORDINAL_POSITION") + ":" + rs.getString("COLUMN_NAME") + ":"
              + rs.getString("ASC_OR_DESC"));
        }
      }
      assertEquals(List.of("PK:false:1:G:A", "PK:false:2:K:D"), index);
      // and its secondary indexes, by name, their indexed columns in order
      st.executeUpdate("CREATE INDEX iv ON ev (v DESC, g) INCLUDE (k)");
      st.executeUpdate("CREATE UNIQUE INDEX uv ON ev (v)");
      index.clear();
      try (ResultSet rs = md.getIndexInfo(null, "DEFAULT", "EV", false, false)) {
        while (rs.next()) {
          index.add(rs.getString("INDEX_NAME") + ":" + rs.getBoolean("NON_UNIQUE") + ":"
              + rs.getShort("ORDINAL_POSITION") + ":" + rs.getString("COLUMN_NAME") + ":"
              + rs.getString("ASC_OR_DESC"));
        }
      }
      assertEquals(List.of("PK:false:1:G:A", "PK:false:2:K:D", "IV:true:1:V:D", "IV:true:2:G:A",
          "UV:false:1:V:A"), index);
      try (ResultSet rs = md.getIndexInfo(null, "DEFAULT", "EV", true, false)) {
        int n = 0;
        while (rs.next()) {
          n++;
          assertEquals(false, rs.getBoolean("NON_UNIQUE"));
        }
        assertEquals(3, n);
      }
      // Calcite's "metadata" schema is not there (it read Calcite's own meta): a plain
      // unknown-object error, not a ClassCastException
      SQLException noMetadata = assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT * FROM \"metadata\".TABLES").close());
      assertTrue(noMetadata.getMessage().contains("metadata"), noMetadata.getMessage());
      assertEquals("42000", noMetadata.getSQLState(), noMetadata.getMessage());
      assertEquals(List.of("PAGES.ID:" + java.sql.Types.BIGINT + ":0:1",
          "PAGES.URL:" + java.sql.Types.VARCHAR + ":1:2"), cols);
    }
  }
}
