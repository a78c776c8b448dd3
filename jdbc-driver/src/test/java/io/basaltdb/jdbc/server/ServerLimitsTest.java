package io.basaltdb.jdbc.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a server lets each client do: a {@code basalt-read} user queries but every write or DDL
 * is refused with 42501 (whatever the client sets on its connection); a client holds at most so
 * many connections (53300) and open statements (53400); a request over the size limit is
 * refused before it is read; a client cannot use another's connection; each refusal is logged,
 * and the server goes on serving everyone.
 */
class ServerLimitsTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream log = new ByteArrayOutputStream();
  private PrintStream stderr;

  @BeforeEach
  void captureLog() {
    stderr = System.err;
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreLog() {
    System.setErr(stderr);
  }

  private String logged() {
    return log.toString(StandardCharsets.UTF_8);
  }

  private static Properties login(String user, String password) {
    Properties p = new Properties();
    p.setProperty("avatica_user", user);
    p.setProperty("avatica_password", password);
    return p;
  }

  private BasaltServer start(ServerMeta.Limits limits, long maxRequestBytes) throws Exception {
    Path users = dir.resolve("users.properties");
    PasswdTool.write(users, "ana", PasswordHash.hash("ana-secret".toCharArray()), UsersFile.ADMIN);
    PasswdTool.write(users, "rob", PasswordHash.hash("rob-secret".toCharArray()), UsersFile.READ);
    return BasaltServer.start(new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", users,
        false).withLimits(maxRequestBytes, limits));
  }

  private static String sqlState(Exception e) {
    return e instanceof SQLException s ? s.getSQLState()
        : e instanceof org.apache.calcite.avatica.AvaticaClientRuntimeException a
            ? a.getSqlState() : null;
  }

  private static int count(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void aReadOnlyUserQueriesAndEveryWriteIsRefusedWith42501() throws Exception {
    try (BasaltServer server = start(BasaltServer.DEFAULT_LIMITS,
        BasaltServer.DEFAULT_MAX_REQUEST_BYTES)) {
      String url = server.clientUrl() + ";authentication=BASIC";
      try (Connection ana = DriverManager.getConnection(url, login("ana", "ana-secret"));
          Statement st = ana.createStatement()) {
        st.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(10))");
        st.executeUpdate("INSERT INTO t VALUES (1, 'one')");
      }
      // the client asks for a writable connection: the role decides
      try (Connection rob = DriverManager.getConnection(url + ";readOnly=false",
          login("rob", "rob-secret"))) {
        assertEquals(1, count(rob));
        rob.setReadOnly(false);
        for (String sql : List.of("INSERT INTO t VALUES (2, 'two')", "UPDATE t SET v = 'x'",
            "DELETE FROM t", "UPSERT INTO t VALUES (3, 'three')", "CREATE TABLE u (id INTEGER"
                + " PRIMARY KEY)", "DROP TABLE t")) {
          SQLException e = assertThrows(SQLException.class,
              () -> rob.createStatement().executeUpdate(sql), sql);
          assertEquals("42501", e.getSQLState(), sql + ": " + e.getMessage());
          assertTrue(e.getMessage().contains("'rob'") && e.getMessage().contains("basalt-read"),
              e.getMessage());
        }
        try (var ps = rob.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
          ps.setInt(1, 4);
          ps.setString(2, "four");
          assertEquals("42501", assertThrows(SQLException.class, ps::executeUpdate).getSQLState());
        }
        assertEquals(1, count(rob), "nothing was written");
      }
      assertTrue(logged().contains("refused: permission denied: client 'rob'"), logged());
    }
  }

  @Test
  void connectionsAndStatementsPerClientAreLimited() throws Exception {
    try (BasaltServer server = start(new ServerMeta.Limits(60_000, 2, 3, 0),
        BasaltServer.DEFAULT_MAX_REQUEST_BYTES)) {
      String url = server.clientUrl() + ";authentication=BASIC";
      Connection a1 = DriverManager.getConnection(url, login("ana", "ana-secret"));
      Connection a2 = DriverManager.getConnection(url, login("ana", "ana-secret"));
      a1.createStatement().executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
      // Avatica's client throws its own runtime exception when opening fails; it has the state
      Exception tooMany = assertThrows(Exception.class,
          () -> DriverManager.getConnection(url, login("ana", "ana-secret")));
      assertEquals("53300", sqlState(tooMany), String.valueOf(tooMany));
      // another client is not affected
      try (Connection rob = DriverManager.getConnection(url, login("rob", "rob-secret"))) {
        assertEquals(0, count(rob));
      }
      a2.close();
      try (Connection again = DriverManager.getConnection(url, login("ana", "ana-secret"))) {
        assertEquals(0, count(again), "a closed connection frees its place");
      }
      // statements: the one CREATE TABLE made is still open on a1
      List<Statement> open = new ArrayList<>();
      open.add(a1.createStatement());
      open.add(a1.createStatement());
      for (Statement s : open) {
        s.executeQuery("VALUES 1").close();
      }
      Exception statements = assertThrows(Exception.class,
          () -> a1.createStatement().executeQuery("VALUES 1"));
      assertEquals("53400", sqlState(statements), String.valueOf(statements));
      open.get(0).close();
      try (Statement s = a1.createStatement(); ResultSet rs = s.executeQuery("VALUES 7")) {
        assertTrue(rs.next(), "a closed statement frees its place");
        assertEquals(7, rs.getInt(1));
      }
      a1.close();
      assertTrue(logged().contains("refused: too many connections: client 'ana'"), logged());
      assertTrue(logged().contains("refused: too many open statements: client 'ana'"), logged());
    }
  }

  @Test
  void aRequestOverTheSizeLimitIsRefusedAndTheServerGoesOn() throws Exception {
    try (BasaltServer server = start(BasaltServer.DEFAULT_LIMITS, 64 * 1024)) {
      String url = server.clientUrl() + ";authentication=BASIC";
      try (Connection ana = DriverManager.getConnection(url, login("ana", "ana-secret"));
          Statement st = ana.createStatement()) {
        st.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(200000))");
        String huge = "x".repeat(100_000);
        Exception e = assertThrows(Exception.class,
            () -> st.executeUpdate("INSERT INTO t VALUES (1, '" + huge + "')"));
        assertTrue(String.valueOf(e.getMessage()).contains("413")
            || String.valueOf(e.getCause()).contains("413"), String.valueOf(e));
        st.executeUpdate("INSERT INTO t VALUES (2, 'small')");
        assertEquals(1, count(ana));
      }
      assertTrue(logged().contains("refused: request of "), logged());
    }
  }

  @Test
  void aRunawayRemoteQueryIsCancelledAtTheServersTimeLimitAndTheConnectionGoesOn()
      throws Exception {
    try (BasaltServer server = start(new ServerMeta.Limits(60_000, 10, 100, 1),
        BasaltServer.DEFAULT_MAX_REQUEST_BYTES)) {
      String url = server.clientUrl() + ";authentication=BASIC";
      try (Connection ana = DriverManager.getConnection(url, login("ana", "ana-secret"));
          Statement st = ana.createStatement()) {
        st.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY)");
        try (var ps = ana.prepareStatement("INSERT INTO t VALUES (?)")) {
          for (int i = 0; i < 200; i++) {
            ps.setInt(1, i);
            ps.addBatch();
          }
          ps.executeBatch();
        }
        long start = System.nanoTime();
        SQLException e = assertThrows(SQLException.class, () -> {
          try (ResultSet rs = st.executeQuery(
              "SELECT COUNT(*) FROM t a, t b, t c, t d WHERE a.id + b.id + c.id + d.id >= 0")) {
            rs.next();
          }
        }, "200^4 rows do not finish in a second");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals("57014", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains("server's limit of 1 s"), e.getMessage());
        assertTrue(millis < 15_000, "cancelled after " + millis + " ms");
        try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM t")) {
          assertTrue(rs.next(), "the connection goes on");
          assertEquals(200, rs.getInt(1));
        }
      }
      assertTrue(logged().contains("refused: statement cancelled"), logged());
    }
  }

  @Test
  void aClientCannotUseAnotherClientsConnection() throws Exception {
    String[] who = {"ana"};
    try (io.basaltdb.engine.Database db = io.basaltdb.engine.Database.openTemporary(
            io.basaltdb.engine.EngineOptions.defaults());
        ServerMeta meta = new ServerMeta(
            info -> io.basaltdb.sql.jdbc.BasaltConnections.open(db, info),
            BasaltServer.DEFAULT_LIMITS, () -> new ServerMeta.Client(who[0], false),
            message -> System.err.println("refused: " + message))) {
      var ch = new org.apache.calcite.avatica.Meta.ConnectionHandle("c1");
      meta.openConnection(ch, java.util.Map.of());
      meta.createStatement(ch);
      who[0] = "eve";
      assertThrows(org.apache.calcite.avatica.NoSuchConnectionException.class,
          () -> meta.createStatement(ch));
      assertThrows(org.apache.calcite.avatica.NoSuchConnectionException.class,
          () -> meta.closeConnection(ch));
      assertEquals(1, meta.openConnections(), "eve cannot close ana's connection");
      assertTrue(logged().contains("client 'eve' used a connection of 'ana'"), logged());
      who[0] = "ana";
      meta.closeConnection(ch);
    }
  }
}
