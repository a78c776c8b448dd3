package io.basaltdb.jdbc.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.jdbc.server.BasaltServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code BACKUP TO} through JDBC (embedded while a writer goes on, and through the server) and
 * the {@code bin/basalt backup} / {@code restore} commands: a restored database holds the rows
 * of its cut with their index entries, and every refusal has its SQLState or exit status and
 * names what is wrong.
 */
class BackupToolTest {
  @TempDir Path dir;

  /** A command's exit status and what it printed (out, then err). */
  private record Ran(int status, String out, String err) {}

  private static Ran tool(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = BackupTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Ran(status, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  private static String sqlState(ThrowingSql r) {
    try {
      r.run();
      return "no error";
    } catch (SQLException e) {
      return e.getSQLState() + " " + e.getMessage();
    }
  }

  @FunctionalInterface
  interface ThrowingSql {
    void run() throws SQLException;
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1) + "|" + rs.getString(2));
      }
    }
    return out;
  }

  @Test
  void backupToWhileAWriterGoesOnRestoresRowsWithTheirIndexEntries() throws Exception {
    Path db = dir.resolve("db");
    String url = "jdbc:basalt:" + db;
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger written = new AtomicInteger();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    int before;
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE acct (id INTEGER PRIMARY KEY, owner VARCHAR(20), balance"
          + " DECIMAL(10,2))");
      s.execute("CREATE INDEX acct_owner ON acct (owner)");
      Thread writer = new Thread(() -> {
        try (Connection w = DriverManager.getConnection(url);
            PreparedStatement ps = w.prepareStatement("UPSERT INTO acct VALUES (?, ?, ?)")) {
          for (int i = 0; !stop.get(); i++) {
            ps.setInt(1, i % 3000);
            ps.setString(2, "owner" + (i % 97));
            ps.setBigDecimal(3, java.math.BigDecimal.valueOf(i, 2));
            ps.executeUpdate();
            written.incrementAndGet();
          }
        } catch (Throwable e) {
          failed.set(e);
        }
      });
      writer.start();
      while (written.get() < 2_000 && failed.get() == null) {
        Thread.sleep(5);
      }
      before = written.get();
      s.execute("BACKUP TO '" + dir.resolve("b1") + "'");
      int after = written.get();
      while (written.get() < after + 500 && failed.get() == null) {
        Thread.sleep(5); // the writer goes on after the backup
      }
      stop.set(true);
      writer.join();
      assertEquals(null, failed.get());
      assertEquals("22023", sqlState(() -> s.execute("BACKUP TO '" + dir.resolve("b1") + "'"))
          .substring(0, 5), "a backup into a non-empty directory");
      assertEquals("22023", sqlState(() -> s.execute("BACKUP TO ''")).substring(0, 5));
      String bad = sqlState(() -> s.execute("BACKUP TOO '" + dir.resolve("x") + "'"));
      assertTrue(bad.startsWith("42000") && bad.contains("BACKUP TO 'directory'"), bad);
      c.setReadOnly(true);
      assertEquals("25006", sqlState(() -> s.execute("BACKUP TO '" + dir.resolve("ro") + "'"))
          .substring(0, 5));
      assertFalse(Files.exists(dir.resolve("ro")));
    }
    Ran verify = tool("backup", "--verify", dir.resolve("b1").toString());
    assertEquals(0, verify.status(), verify.err());
    assertTrue(verify.out().contains("every size and CRC32C matches"), verify.out());
    Ran restore = tool("restore", "--from", dir.resolve("b1").toString(), "--data",
        dir.resolve("r1").toString());
    assertEquals(0, restore.status(), restore.err());
    try (Connection r = DriverManager.getConnection("jdbc:basalt:" + dir.resolve("r1"))) {
      List<String> all = rows(r, "SELECT id, owner FROM acct ORDER BY id");
      assertTrue(all.size() >= Math.min(before, 3000) && all.size() <= 3000, "rows " + all.size());
      List<String> viaIndex = new ArrayList<>();
      for (int o = 0; o < 97; o++) {
        viaIndex.addAll(rows(r, "SELECT id, owner FROM acct WHERE owner = 'owner" + o + "'"));
      }
      viaIndex.sort(java.util.Comparator.comparing(x -> Integer.parseInt(x.split("\\|")[0])));
      assertEquals(all, viaIndex, "every row found through its index entry, and no other");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int check = AdminTool.run(new String[] {"verify-index", "ACCT", "ACCT_OWNER", "--data",
        dir.resolve("r1").toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
        System.err);
    assertEquals(0, check, out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theCommandsRefuseWhatIsWrongAndNameIt() throws Exception {
    Path db = dir.resolve("db");
    try (Connection c = DriverManager.getConnection("jdbc:basalt:" + db);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(10))");
      for (int i = 0; i < 100; i++) {
        s.execute("UPSERT INTO t VALUES (" + i + ", 'v" + i + "')");
      }
      Ran held = tool("backup", "--data", db.toString(), "--to", dir.resolve("x").toString());
      assertEquals(1, held.status(), "the directory is held by this process's connection");
      assertTrue(held.err().contains("bin/basalt backup --url"), held.err());
    }
    Path b = dir.resolve("b");
    Ran backup = tool("backup", "--data", db.toString(), "--to", b.toString(), "--copy");
    assertEquals(0, backup.status(), backup.err());
    assertTrue(backup.out().contains("0 hard-linked"), backup.out());
    assertEquals(2, tool("backup", "--data", db.toString()).status(), "no --to");
    assertEquals(2, tool("restore", "--from", b.toString()).status(), "no --data");

    Path catalog = b.resolve("CATALOG");
    byte[] good = Files.readAllBytes(catalog);
    byte[] bad = good.clone();
    bad[bad.length / 2] ^= 4;
    Files.write(catalog, bad);
    Ran verify = tool("backup", "--verify", b.toString());
    assertEquals(1, verify.status());
    assertTrue(verify.err().contains(catalog.toString()) && verify.err().contains("CRC32C"),
        verify.err());
    Ran restore = tool("restore", "--from", b.toString(), "--data", dir.resolve("r").toString());
    assertEquals(1, restore.status());
    assertTrue(restore.err().contains("CATALOG"), restore.err());
    assertFalse(Files.exists(dir.resolve("r")));
    Files.write(catalog, good);

    Ran over = tool("restore", "--from", b.toString(), "--data", db.toString());
    assertEquals(1, over.status());
    assertTrue(over.err().contains("--force"), over.err());
    Ran forced = tool("restore", "--from", b.toString(), "--data", db.toString(), "--force");
    assertEquals(0, forced.status(), forced.err());
    assertTrue(forced.out().contains("now in"), forced.out());
    try (Connection r = DriverManager.getConnection("jdbc:basalt:" + db)) {
      assertEquals(100, rows(r, "SELECT id, v FROM t").size());
    }
  }

  @Test
  void backupToThroughTheServerWritesOnTheServersMachine() throws Exception {
    Path b = dir.resolve("b");
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", null, false))) {
      try (Connection c = DriverManager.getConnection(server.clientUrl());
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(10))");
        s.execute("UPSERT INTO t VALUES (1, 'one'), (2, 'two')");
      }
      Ran backup = tool("backup", "--url", server.clientUrl(), "--to", b.toString());
      assertEquals(0, backup.status(), backup.err());
      try (Connection c = DriverManager.getConnection(server.clientUrl());
          Statement s = c.createStatement()) {
        s.execute("UPSERT INTO t VALUES (3, 'three')"); // after the backup: not in it
      }
    }
    assertEquals(0, tool("restore", "--from", b.toString(), "--data",
        dir.resolve("r").toString()).status());
    try (Connection r = DriverManager.getConnection("jdbc:basalt:" + dir.resolve("r"))) {
      assertEquals(List.of("1|one", "2|two"), rows(r, "SELECT id, v FROM t ORDER BY id"));
    }
  }

  /**
   * With users, a reader's BACKUP TO is refused (42501: it writes files on the server's
   * machine), an admin's runs; the command takes Basalt's remote URL with credentials.
   */
  @Test
  void onlyAWriterMayBackUpThroughTheServer() throws Exception {
    Path users = dir.resolve("users.properties");
    Files.writeString(users, "ops: " + io.basaltdb.jdbc.server.PasswordHash.hash(
        "ops-secret".toCharArray()) + "," + io.basaltdb.jdbc.server.UsersFile.READ + "\napp: "
        + io.basaltdb.jdbc.server.PasswordHash.hash("app-secret".toCharArray()) + ","
        + io.basaltdb.jdbc.server.UsersFile.ADMIN + "\n");
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(dir.resolve("db"), 0, "127.0.0.1", users, false))) {
      String base = "jdbc:basalt:remote:http://127.0.0.1:" + server.port()
          + ";authentication=BASIC";
      try (Connection app = DriverManager.getConnection(base
          + ";avatica_user=app;avatica_password=app-secret");
          Statement s = app.createStatement()) {
        s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
        s.execute("UPSERT INTO t VALUES (1), (2)");
      }
      try (Connection ops = DriverManager.getConnection(base
          + ";avatica_user=ops;avatica_password=ops-secret");
          Statement s = ops.createStatement()) {
        String refused = sqlState(() -> s.execute("BACKUP TO '" + dir.resolve("ro") + "'"));
        assertTrue(refused.startsWith("42501"), refused);
      }
      assertFalse(Files.exists(dir.resolve("ro")));
      Ran backup = tool("backup", "--url", base + ";avatica_user=app;avatica_password=app-secret",
          "--to", dir.resolve("b").toString());
      assertEquals(0, backup.status(), backup.err());
    }
    assertEquals(0, tool("backup", "--verify", dir.resolve("b").toString()).status());
    assertEquals(0, tool("restore", "--from", dir.resolve("b").toString(), "--data",
        dir.resolve("r").toString()).status());
    try (Connection r = DriverManager.getConnection("jdbc:basalt:" + dir.resolve("r"));
        Statement s = r.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
      assertTrue(rs.next());
      assertEquals(2, rs.getLong(1));
    }
  }
}
