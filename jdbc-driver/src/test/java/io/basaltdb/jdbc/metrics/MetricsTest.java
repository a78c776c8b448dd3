package io.basaltdb.jdbc.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.jdbc.server.BasaltServer;
import io.basaltdb.jdbc.server.PasswordHash;
import io.basaltdb.jdbc.server.UsersFile;
import io.basaltdb.sql.jdbc.BasaltConnection;
import io.basaltdb.storage.TableName;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics move as the work they count happens (read through JMX, as an operator's tool
 * reads them), every one is documented, the server serves them at {@code /metrics} (asking
 * for credentials when it has users) and logs slow statements with their scans' counts, and
 * {@code bin/basalt stats} prints them.
 */
class MetricsTest {
  @TempDir Path dir;

  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  private static long attr(ObjectName name, String attribute) throws Exception {
    return ((Number) JMX.getAttribute(name, attribute)).longValue();
  }

  @Test
  void aWorkloadMovesWhatItShouldSeenThroughJmx() throws Exception {
    Path db = dir.resolve("db");
    ObjectName name = DatabaseMBean.name(db.toAbsolutePath().normalize().toString());
    try (Connection c = DriverManager.getConnection("jdbc:basalt:" + db);
        Statement s = c.createStatement()) {
      assertTrue(JMX.isRegistered(name), "the open database's MBean");
      assertEquals(1, attr(name, "basalt_connections"));
      long writes = attr(name, "basalt_writes_total");
      long syncs = attr(name, "basalt_wal_sync_seconds_count");
      s.execute("CREATE TABLE m (id INTEGER PRIMARY KEY, v VARCHAR(20))");
      for (int i = 0; i < 100; i++) {
        s.executeUpdate("INSERT INTO m VALUES (" + i + ", 'v" + i + "')"); // SYNC: fsyncs
      }
      assertTrue(attr(name, "basalt_writes_total") >= writes + 100, "writes");
      assertTrue(attr(name, "basalt_wal_sync_seconds_count") >= syncs + 1, "log fsyncs");
      assertTrue(((Number) JMX.getAttribute(name, "basalt_wal_sync_seconds_sum")).doubleValue()
          > 0, "their time");
      long reads = attr(name, "basalt_reads_total");
      long hits = attr(name, "basalt_plan_cache_hits_total");
      try (PreparedStatement ps = c.prepareStatement("SELECT v FROM m WHERE id = ?")) {
        for (int i = 0; i < 20; i++) {
          ps.setInt(1, i);
          try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
          }
        }
      }
      for (int i = 0; i < 5; i++) {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM m")) {
          assertTrue(rs.next());
        }
      }
      assertTrue(attr(name, "basalt_reads_total") >= reads + 25, "reads");
      assertTrue(attr(name, "basalt_plan_cache_hits_total") >= hits + 4, "plan cache hits");
      assertTrue(attr(name, "basalt_statements_total_query") >= 25);
      assertTrue(attr(name, "basalt_statements_total_dml") >= 100);
      assertTrue(attr(name, "basalt_statements_total_ddl") >= 1);
      assertTrue(attr(name, "basalt_executions_seconds_count") >= 125, "executions");
      for (int i = 0; i < 2; i++) {
        try {
          s.executeUpdate("INSERT INTO m VALUES (1, 'again')");
          throw new AssertionError("a duplicate key was written");
        } catch (SQLException e) {
          assertEquals("23505", e.getSQLState());
        }
      }
      assertEquals(2, attr(name, "basalt_statement_errors_total_23505"),
          "each failure counted once, whatever layers it passed");
      try (Connection second = DriverManager.getConnection("jdbc:basalt:" + db)) {
        assertEquals(2, attr(name, "basalt_connections"));
      }
      assertEquals(1, attr(name, "basalt_connections"));

      var storage = c.unwrap(BasaltConnection.class).storage();
      long flushes = attr(name, "basalt_flushes_seconds_count");
      long compactions = attr(name, "basalt_compactions_major_total");
      storage.admin().flush(TableName.of("M"));
      s.executeUpdate("UPSERT INTO m VALUES (1, 'second file')");
      storage.admin().flush(TableName.of("M"));
      storage.admin().majorCompact(TableName.of("M"));
      assertTrue(attr(name, "basalt_flushes_seconds_count") >= flushes + 2, "flushes");
      assertTrue(attr(name, "basalt_flushed_bytes_total") > 0);
      assertTrue(attr(name, "basalt_compactions_major_total") >= compactions + 1, "compaction");
      assertTrue(attr(name, "basalt_compacted_bytes_total") > 0);
      assertTrue(attr(name, "basalt_store_files") >= 1);
      assertTrue(attr(name, "basalt_regions") >= 2, "the table's and the SQL catalog's");
      try (PreparedStatement ps = c.prepareStatement("SELECT v FROM m WHERE id = ?")) {
        for (int i = 0; i < 50; i++) { // from the compacted file now: its blocks get cached
          ps.setInt(1, i);
          try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
          }
        }
      }
      assertTrue(attr(name, "basalt_block_cache_hits_total") > 0, "block cache hits");
      double ratio = (Double) JMX.getAttribute(name, "basalt_block_cache_hit_ratio");
      assertTrue(ratio > 0 && ratio <= 1, "hit ratio " + ratio);
    }
    assertFalse(JMX.isRegistered(name), "unregistered when the database closes");
  }

  @Test
  void everyMetricIsDocumentedAndEveryDocumentedOneExists() throws Exception {
    TreeSet<String> documented = new TreeSet<>();
    Matcher m = Pattern.compile("\\| `(basalt_[a-z_]+)(\\{[a-z]+\\})?` \\|")
        .matcher(Files.readString(Path.of("doc/metrics.md")));
    while (m.find()) {
      documented.add(m.group(1));
    }
    TreeSet<String> exposed = new TreeSet<>();
    try (Connection c = DriverManager.getConnection("jdbc:basalt:" + dir.resolve("db"));
        Statement s = c.createStatement()) {
      try {
        s.execute("SELEC 1");
      } catch (SQLException e) {
        assertEquals("42000", e.getSQLState()); // so an error series exists
      }
      for (Metric metric : MetricCatalog.of(c.unwrap(BasaltConnection.class).storage())) {
        exposed.add(metric.exposedName());
      }
    }
    assertEquals(exposed, documented);
  }

  @Test
  void theServerServesMetricsAndLogsSlowStatements() throws Exception {
    Path users = dir.resolve("users.properties");
    Files.writeString(users, "ops: " + PasswordHash.hash("ops-secret".toCharArray()) + ","
        + UsersFile.READ + "\napp: " + PasswordHash.hash("app-secret".toCharArray()) + ","
        + UsersFile.ADMIN + "\n");
    Path slowLog = dir.resolve("slow.log");
    try (BasaltServer server = BasaltServer.start(new BasaltServer.Options(dir.resolve("db"), 0,
        "127.0.0.1", users, false).withSlowStatements(1, slowLog))) {
      Properties login = new Properties();
      login.setProperty("avatica_user", "app");
      login.setProperty("avatica_password", "app-secret");
      String url = server.clientUrl() + ";authentication=BASIC";
      try (Connection c = DriverManager.getConnection(url, login);
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
        try (PreparedStatement ps = c.prepareStatement("UPSERT INTO t VALUES (?, ?)")) {
          for (int i = 0; i < 2000; i++) {
            ps.setInt(1, i);
            ps.setInt(2, i % 50);
            ps.addBatch();
          }
          ps.executeBatch();
        }
        try (ResultSet rs = s.executeQuery(
            "SELECT COUNT(*) FROM t a JOIN t b ON a.v = b.v")) {
          assertTrue(rs.next());
          assertEquals(80_000, rs.getLong(1));
        }
      }
      System.gc(); // a meter whose object the registry held weakly would read 0 from here on
      String address = "http://127.0.0.1:" + server.port() + "/metrics";
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(URI.create(address))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(401, anonymous.statusCode(), "the server has users: metrics need one");
      HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(URI.create(address))
          .header("Authorization", basic("ops", "guess")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(401, wrong.statusCode());
      HttpResponse<String> ok = http.send(HttpRequest.newBuilder(URI.create(address))
          .header("Authorization", basic("ops", "ops-secret")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, ok.statusCode());
      assertTrue(ok.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
      String body = ok.body();
      assertTrue(body.contains("# TYPE basalt_writes_total counter"), body);
      Matcher writes = Pattern.compile("(?m)^basalt_writes_total (\\d+\\.\\d+)").matcher(body);
      assertTrue(writes.find() && Double.parseDouble(writes.group(1)) >= 2000, body);
      assertTrue(body.contains("basalt_statements_total{kind=\"query\"}"), body);
      assertTrue(body.contains("basalt_statements_slow_total"), body);
      assertTrue(body.contains("jvm_memory_used_bytes"), "the JVM's own metrics too");
    }
    String log = Files.readString(slowLog);
    String join = log.lines().filter(l -> l.contains("JOIN t b")).findFirst().orElse("");
    assertTrue(join.contains("basalt slow statement: ") && join.contains(" ms, 1 row, ")
        && join.contains("scans (regions=") && join.contains("rows=4000")
        && join.endsWith("SELECT COUNT(*) FROM t a JOIN t b ON a.v = b.v"), log);
  }

  private static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
        .getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void statsPrintsTheMetricsOfADirectoryAndOfAServer() throws Exception {
    Path db = dir.resolve("db");
    try (Connection c = DriverManager.getConnection("jdbc:basalt:" + db);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
      s.executeUpdate("INSERT INTO t VALUES (1), (2), (3)");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, io.basaltdb.jdbc.tool.AdminToolAccess.run(new String[] {"stats", "--data",
        db.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
    String local = out.toString(StandardCharsets.UTF_8);
    assertTrue(local.contains("basalt_regions ") && local.contains("basalt_store_files ")
        && !local.contains("jvm_"), local);
    try (BasaltServer server = BasaltServer.start(
        new BasaltServer.Options(db, 0, "127.0.0.1", null, false))) {
      try (Connection c = DriverManager.getConnection(server.clientUrl());
          Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO t VALUES (4)");
      }
      out.reset();
      assertEquals(0, io.basaltdb.jdbc.tool.AdminToolAccess.run(new String[] {"stats",
          "--url", server.clientUrl()}, new PrintStream(out, true, StandardCharsets.UTF_8),
          System.err));
      String remote = out.toString(StandardCharsets.UTF_8);
      assertTrue(remote.contains("basalt_statements_total{kind=\"dml\"} 1.0"), remote);
    }
  }
}
