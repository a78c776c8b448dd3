package io.basaltdb.jdbc.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
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

/** The Avatica server on an ephemeral loopback port, used through the thin client. */
class RemoteServerTest {
  @TempDir
  Path dir;

  /**
   * Remote connections get the embedded transactions: own writes, a snapshot, first committer
   * wins with 40001 across the wire, SQL savepoints, the isolation level, prepared DDL run only
   * when executed.
   */
  @Test
  void remoteTransactions() throws Exception {
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false));
        Connection a = DriverManager.getConnection(server.clientUrl());
        Connection b = DriverManager.getConnection(server.clientUrl());
        Statement sa = a.createStatement();
        Statement sb = b.createStatement()) {
      sa.executeUpdate("CREATE TABLE acct (id INT PRIMARY KEY, bal BIGINT)");
      sa.executeUpdate("INSERT INTO acct VALUES (1, 100), (2, 100)");
      assertEquals(Connection.TRANSACTION_REPEATABLE_READ, a.getTransactionIsolation());
      a.setAutoCommit(false);
      b.setAutoCommit(false);
      sa.executeUpdate("INSERT INTO acct VALUES (3, 0)");
      assertEquals(1, sa.executeUpdate("UPDATE acct SET bal = bal + 1 WHERE id = 3"));
      try (ResultSet rs = sa.executeQuery("SELECT SUM(bal), COUNT(*) FROM acct")) {
        assertTrue(rs.next());
        assertEquals(201, rs.getLong(1), "own writes, remotely");
        assertEquals(3, rs.getLong(2));
      }
      try (ResultSet rs = sb.executeQuery("SELECT COUNT(*) FROM acct")) {
        assertTrue(rs.next());
        assertEquals(2, rs.getLong(1), "not another's");
      }
      sa.execute("SAVEPOINT s");
      sa.executeUpdate("UPDATE acct SET bal = 0 WHERE id = 1");
      sa.execute("ROLLBACK TO SAVEPOINT s");
      sa.executeUpdate("UPDATE acct SET bal = bal - 10 WHERE id = 1");
      sb.executeUpdate("UPDATE acct SET bal = bal - 20 WHERE id = 1");
      a.commit();
      // Avatica's stock client reports a failed commit as its runtime exception, SQLState kept
      org.apache.calcite.avatica.AvaticaClientRuntimeException conflict = assertThrows(
          org.apache.calcite.avatica.AvaticaClientRuntimeException.class, b::commit);
      assertEquals("40001", conflict.getSqlState(), conflict.getMessage());
      try (PreparedStatement drop = a.prepareStatement("DROP TABLE acct")) {
        assertEquals(0, drop.getParameterMetaData().getParameterCount()); // never executed
      }
      a.commit();
      try (ResultSet rs = sb.executeQuery("SELECT id, bal FROM acct ORDER BY id")) {
        List<String> rows = new ArrayList<>();
        while (rs.next()) {
          rows.add(rs.getInt(1) + "|" + rs.getLong(2));
        }
        assertEquals(List.of("1|90", "2|100", "3|1"), rows);
      }
    }
  }

  @Test
  void thinClientsRunDdlDmlQueriesAndMetadata() throws Exception {
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false))) {
      try (Connection c = DriverManager.getConnection(server.clientUrl());
          Statement st = c.createStatement()) {
        st.executeUpdate("CREATE TABLE pages (id BIGINT NOT NULL PRIMARY KEY, f.url VARCHAR, "
            + "f.hits BIGINT) VERSIONS=3");
        assertEquals(2, st.executeUpdate(
            "INSERT INTO pages VALUES (1, 'a.html', 10), (2, 'b.html', 20)"));
        try (PreparedStatement p = c.prepareStatement("UPDATE pages SET hits = hits + ? "
            + "WHERE id = ?")) {
          p.setLong(1, 5);
          p.setLong(2, 2);
          assertEquals(1, p.executeUpdate());
        }
        try (PreparedStatement p = c.prepareStatement(
            "SELECT url, hits FROM pages WHERE id >= ? ORDER BY id")) {
          p.setLong(1, 2);
          try (ResultSet rs = p.executeQuery()) {
            assertTrue(rs.next());
            assertEquals("b.html", rs.getString(1));
            assertEquals(25, rs.getLong(2));
          }
        }
        List<String> tables = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getTables(null, "DEFAULT", "%", null)) {
          while (rs.next()) {
            tables.add(rs.getString("TABLE_NAME"));
          }
        }
        assertTrue(tables.contains("PAGES"), tables.toString());
        // primary keys: Avatica's protocol cannot carry getPrimaryKeys; the SQL standard's
        // INFORMATION_SCHEMA can
        st.executeUpdate("CREATE TABLE ev (g VARCHAR NOT NULL, k INTEGER NOT NULL, v INTEGER, "
            + "CONSTRAINT pk PRIMARY KEY (g, k DESC))");
        List<String> keys = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("SELECT table_schema, table_name, column_name, "
            + "ordinal_position FROM information_schema.key_column_usage "
            + "WHERE table_name IN ('PAGES', 'EV') ORDER BY table_name, ordinal_position")) {
          while (rs.next()) {
            keys.add(rs.getString(1) + "." + rs.getString(2) + "." + rs.getString(3) + ":"
                + rs.getInt(4));
          }
        }
        assertEquals(List.of("DEFAULT.EV.G:1", "DEFAULT.EV.K:2", "DEFAULT.PAGES.ID:1"), keys);
        SQLException dup = assertThrows(SQLException.class,
            () -> st.executeUpdate("INSERT INTO pages VALUES (1, 'again', 0)"));
        assertTrue(dup.getMessage().contains("duplicate primary key"), dup.getMessage());
        assertEquals("23505", dup.getSQLState()); // the SQLState crosses the wire
      }
    }
    // a restart on the same directory serves the same data
    try (BasaltServer server = BasaltServer.start(
            new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false));
        Connection c = DriverManager.getConnection(server.clientUrl());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT SUM(hits) FROM pages")) {
      assertTrue(rs.next());
      assertEquals(35, rs.getLong(1));
    }
  }

  /**
   * A remote client's prepared statement follows the schema as an embedded one does: planned
   * through an index, it reads the table once another client drops the index (it failed with
   * 55000 before), and its plan picks up a new index; a change of its columns is 0A000.
   */
  @Test
  void remotePreparedStatementsFollowTheSchema() throws Exception {
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false));
        Connection a = DriverManager.getConnection(server.clientUrl());
        Connection b = DriverManager.getConnection(server.clientUrl());
        Statement sb = b.createStatement()) {
      sb.executeUpdate("CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10))");
      for (int i = 0; i < 30; i++) {
        sb.executeUpdate("INSERT INTO t VALUES (" + i + ", 'k" + i + "')");
      }
      sb.executeUpdate("CREATE INDEX ia ON t (a)");
      try (PreparedStatement ordered = a.prepareStatement("SELECT a FROM t ORDER BY a LIMIT 3");
          PreparedStatement star = a.prepareStatement("SELECT * FROM t WHERE id = ?")) {
        List<String> before = column(ordered.executeQuery());
        assertEquals(List.of("k0", "k1", "k10"), before);
        star.setInt(1, 1);
        assertEquals(List.of("1"), column(star.executeQuery()));
        sb.executeUpdate("DROP INDEX ia ON t");
        assertEquals(before, column(ordered.executeQuery()), "planned again, without the index");
        sb.executeUpdate("ALTER TABLE t ADD COLUMN w INT");
        SQLException changed = assertThrows(SQLException.class, star::executeQuery);
        assertTrue(changed.getMessage().contains("prepare it again"), changed.getMessage());
      }
    }
  }

  private static List<String> column(ResultSet r) throws SQLException {
    List<String> out = new ArrayList<>();
    try (r) {
      while (r.next()) {
        out.add(r.getString(1));
      }
    }
    return out;
  }

  @Test
  void basicAuthenticationAcceptsUsersAndRefusesOthers() throws Exception {
    Path users = dir.resolve("users.properties");
    Files.writeString(users, "ana: s3cret," + BasaltServer.ROLE + "\n");
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", users, false))) {
      String url = server.clientUrl() + ";authentication=BASIC";
      Properties ok = new Properties();
      ok.setProperty("avatica_user", "ana");
      ok.setProperty("avatica_password", "s3cret");
      try (Connection c = DriverManager.getConnection(url, ok);
          ResultSet rs = c.createStatement().executeQuery("VALUES 1")) {
        assertTrue(rs.next());
      }
      Properties bad = new Properties();
      bad.setProperty("avatica_user", "ana");
      bad.setProperty("avatica_password", "guess");
      assertThrows(Exception.class, () -> {
        try (Connection c = DriverManager.getConnection(url, bad)) {
          c.createStatement().executeQuery("VALUES 1");
        }
      });
    }
  }

  @Test
  void manyClientsAtOnce() throws Exception {
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false))) {
      try (Connection c = DriverManager.getConnection(server.clientUrl())) {
        c.createStatement().executeUpdate(
            "CREATE TABLE hits (client INTEGER NOT NULL, n INTEGER NOT NULL, "
                + "CONSTRAINT pk PRIMARY KEY (client, n))");
      }
      int clients = 8;
      java.util.concurrent.ExecutorService pool =
          java.util.concurrent.Executors.newFixedThreadPool(clients);
      List<java.util.concurrent.Future<Long>> done = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        int client = i;
        done.add(pool.submit(() -> {
          try (Connection c = DriverManager.getConnection(server.clientUrl());
              PreparedStatement p = c.prepareStatement("UPSERT INTO hits VALUES (?, ?)")) {
            for (int n = 0; n < 25; n++) {
              p.setInt(1, client);
              p.setInt(2, n);
              p.executeUpdate();
            }
            try (ResultSet rs = c.createStatement().executeQuery(
                "SELECT COUNT(*) FROM hits WHERE client = " + client)) {
              rs.next();
              return rs.getLong(1);
            }
          }
        }));
      }
      for (java.util.concurrent.Future<Long> f : done) {
        assertEquals(25L, f.get());
      }
      pool.shutdown();
    }
  }

  /**
   * What the server's own meta does beyond single statements: results longer than a frame
   * (fetched in frames off the open rows), prepared queries re-executed with new values,
   * batches (protobuf), transactions, errors with their SQLState, closed connections released.
   */
  @Test
  void framesBatchesTransactionsAndErrorsCrossTheWire() throws Exception {
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false))) {
      try (Connection c = DriverManager.getConnection(server.clientUrl());
          Statement st = c.createStatement()) {
        st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(5))");
        try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
          for (int i = 0; i < 450; i++) {
            p.setInt(1, i);
            p.setString(2, "v" + i % 100);
            p.addBatch();
          }
          assertEquals(450, p.executeBatch().length);
        }
        st.setFetchSize(100);
        try (ResultSet rs = st.executeQuery("SELECT id FROM t ORDER BY id")) {
          int n = 0;
          while (rs.next()) {
            assertEquals(n++, rs.getInt(1));
          }
          assertEquals(450, n, "every frame fetched");
        }
        try (PreparedStatement p = c.prepareStatement("SELECT COUNT(*) FROM t WHERE id < ?")) {
          for (int bound : new int[] {10, 300, 0}) {
            p.setInt(1, bound);
            try (ResultSet rs = p.executeQuery()) {
              assertTrue(rs.next());
              assertEquals(bound, rs.getLong(1));
            }
          }
        }
        c.setAutoCommit(false);
        st.executeUpdate("INSERT INTO t VALUES (1000, 'x')");
        c.rollback();
        st.executeUpdate("INSERT INTO t VALUES (1001, 'y')");
        c.commit();
        c.setAutoCommit(true);
        try (ResultSet rs = st.executeQuery("SELECT id FROM t WHERE id >= 1000")) {
          assertTrue(rs.next());
          assertEquals(1001, rs.getInt(1));
          assertEquals(false, rs.next(), "the rolled back row is not there");
        }
        // values are checked on the server as embedded ones are when bound: nothing is cut
        try (PreparedStatement p = c.prepareStatement("UPSERT INTO t VALUES (?, ?)")) {
          p.setInt(1, 1);
          p.setString(2, "toolong");
          SQLException tooLong = assertThrows(SQLException.class, p::executeUpdate);
          assertEquals("22001", tooLong.getSQLState(), tooLong.getMessage());
          p.setInt(1, 2000);
          p.addBatch();
          p.setString(2, "ok");
          p.addBatch();
          SQLException inBatch = assertThrows(SQLException.class, p::executeBatch);
          assertEquals("22001", inBatch.getSQLState(), inBatch.getMessage());
        }
        try (ResultSet rs = st.executeQuery("SELECT v FROM t WHERE id = 1 OR id = 2000")) {
          assertTrue(rs.next());
          assertEquals("v1", rs.getString(1), "unchanged");
          assertEquals(false, rs.next(), "no row of the refused batch written");
        }
        SQLException missing = assertThrows(SQLException.class,
            () -> st.executeQuery("SELECT * FROM nosuch"));
        assertEquals("42000", missing.getSQLState(), missing.getMessage());
        assertEquals(1, server.openConnections());
      }
      assertEquals(0, server.openConnections(), "a closed client's connection is released");
    }
  }

  @Test
  void nonLoopbackWithoutAuthenticationIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BasaltServer.start(new BasaltServer.Options(dir.resolve("db"), 0, "0.0.0.0", null,
            false)));
    assertTrue(e.getMessage().contains("without authentication"), e.getMessage());
  }
}
