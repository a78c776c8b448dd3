package io.basaltdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar ({@code target/basalt-jdbc-<version>-all.jar}) used alone by child JVMs: the
 * driver found through {@code META-INF/services} by {@code DriverManager}, sqlline from the
 * jar, and a second process refused at once on a directory this one has open.
 */
class ShadedJarIT {
  @TempDir
  Path dir;

  private static Path jar() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("target"))) {
      return files.filter(p -> p.getFileName().toString().matches("basalt-jdbc-.*-all\\.jar"))
          .findFirst().orElseThrow(() -> new AssertionError("no shaded jar in target/"))
          .toAbsolutePath();
    }
  }

  /** Runs {@code java args} with only {@code classpath}; its exit code and output. */
  private static String[] run(String classpath, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child JVM did not finish: " + out);
    return new String[] {Integer.toString(p.exitValue()), out};
  }

  /**
   * Compiles into {@link #dir} a class {@code name} whose main connects to {@code a[0]}, creates
   * {@code t (id, v)}, inserts (1, {@code value}) and reads it by key, then runs {@code more}
   * (Java statements with {@code st} and {@code rs} in scope).
   */
  private void compileProbe(String name, String value, String... more) throws IOException {
    List<String> lines = new ArrayList<>(List.of(
        "import java.sql.*;",
        "public class " + name + " {",
        "  public static void main(String[] a) throws Exception {",
        "    try (Connection c = DriverManager.getConnection(a[0]);",
        "         Statement st = c.createStatement()) {",
        "      st.executeUpdate(\"CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR)\");",
        "      st.executeUpdate(\"INSERT INTO t VALUES (1, '" + value + "')\");",
        "      ResultSet rs = st.executeQuery(\"SELECT v FROM t WHERE id = 1\");",
        "      rs.next();",
        "      System.out.println(\"" + name.toLowerCase(java.util.Locale.ROOT)
            + ":\" + rs.getString(1));"));
    lines.addAll(List.of(more));
    lines.addAll(List.of("    }", "  }", "}"));
    Path src = dir.resolve(name + ".java");
    Files.writeString(src, String.join("\n", lines));
    assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d",
        dir.toString(), src.toString()));
  }

  @Test
  void theJarAloneServesDriverManagerAndSqlline() throws Exception {
    compileProbe("Probe", "shaded",
        "      rs = st.executeQuery(\"SELECT v, COUNT(*) OVER (), UPPER(v) || CAST(SUM(id)\"",
        "          + \" OVER (PARTITION BY v) AS VARCHAR) FROM t t1 JOIN t t2 USING (id, v)\");",
        "      rs.next();",
        "      System.out.println(\"generated:\" + rs.getString(3));");
    String db = "jdbc:basalt:" + dir.resolve("db");
    String[] probe = run(jar() + java.io.File.pathSeparator + dir, "Probe", db);
    assertEquals("0", probe[0], probe[1]);
    assertTrue(probe[1].contains("probe:shaded"), probe[1]);
    assertTrue(probe[1].contains("generated:SHADED1"), probe[1]); // Calcite's generated code
    assertTrue(probe[1].lines().noneMatch(l -> l.contains("SLF4J")), probe[1]);
    String[] sql = run(jar().toString(), "sqlline.SqlLine", "-d", BasaltDriver.class.getName(),
        "-u", db, "-n", "", "-p", "", "--outputformat=csv", "-e", "SELECT COUNT(*) AS n FROM t");
    assertEquals("0", sql[0], sql[1]);
    assertTrue(sql[1].contains("'1'"), sql[1]);
  }

  /**
   * A fresh JVM's first statements (connect, CREATE TABLE, INSERT, point SELECT: none compiles
   * code) never initialize Calcite's table of operator implementations, ~0.2 s of a cold start
   * (issue 40, item 3): a function a connection registers, or the CHECK constraint operator,
   * makes its code generator only when a plan compiles a call to it.
   */
  @Test
  void firstStatementsLeaveTheCodeGeneratorAlone() throws Exception {
    compileProbe("First", "one");
    Path log = dir.resolve("init.log");
    String[] first = run(jar() + java.io.File.pathSeparator + dir,
        "-Xlog:class+init=info:file=" + log, "First", "jdbc:basalt:" + dir.resolve("db"));
    assertEquals("0", first[0], first[1]);
    assertTrue(first[1].contains("first:one"), first[1]);
    String inits = Files.readString(log);
    assertTrue(inits.contains("Initializing 'org/apache/calcite/sql/parser/SqlParser"),
        "the log names the classes initialized"); // so the check below can fail
    assertTrue(!inits.contains("Initializing 'org/apache/calcite/adapter/enumerable/RexImpTable'"),
        "a first statement initialized Calcite's code generator tables");
  }

  /**
   * The libraries an application may bring in other versions are in the jar only relocated
   * (under io.basaltdb.shaded): no second Guava, Jackson, Jetty, slf4j binding, ... on its
   * class path.
   */
  @Test
  void theJarHoldsNoUnrelocatedCopyOfCommonLibraries() throws Exception {
    List<String> clashing = new ArrayList<>();
    try (java.util.jar.JarFile j = new java.util.jar.JarFile(jar().toFile())) {
      j.stream().map(java.util.jar.JarEntry::getName).filter(n -> n.endsWith(".class"))
          .filter(n -> List.of("com/google/common/", "com/google/protobuf/", "org/slf4j/",
              "com/fasterxml/", "org/eclipse/jetty/", "org/apache/commons/", "org/apache/hc/",
              "com/github/benmanes/", "org/yaml/", "io/micrometer/", "io/prometheus/",
              "org/HdrHistogram/").stream().anyMatch(n::startsWith))
          .limit(5).forEach(clashing::add);
    }
    assertEquals(List.of(), clashing);
  }

  @Test
  void aSecondProcessIsRefusedAtOnce() throws Exception {
    String url = "jdbc:basalt:" + dir.resolve("held");
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY)");
      long t0 = System.nanoTime();
      String[] other = run(jar().toString(), "sqlline.SqlLine", "-d",
          BasaltDriver.class.getName(), "-u", url, "-n", "", "-p", "", "-e", "SELECT * FROM t");
      assertTrue(other[1].contains("in use by another process"), other[1]);
      assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(60), "it did not block");
    }
  }

  @Test
  void theServerStopsCleanlyOnSigtermAndKeepsItsData() throws Exception {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", jar().toString(), "io.basaltdb.jdbc.server.BasaltServer",
        "--data", dir.resolve("served").toString(), "--port", Integer.toString(port));
    Path logFile = dir.resolve("server.log");
    Process server = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(logFile.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(logFile).contains("basalt server: serving")) {
      assertTrue(server.isAlive() && System.nanoTime() < deadline,
          "the server did not start: " + Files.readString(logFile));
      Thread.sleep(50);
    }
    assertTrue(Files.readString(logFile).contains("127.0.0.1:" + port), Files.readString(logFile));
    String url = "jdbc:avatica:remote:url=http://127.0.0.1:" + port + ";serialization=protobuf";
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE kept (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR)");
      st.executeUpdate("INSERT INTO kept VALUES (1, 'before sigterm')");
    }
    // the metrics, through the jar's relocated Micrometer and Prometheus libraries
    java.net.http.HttpResponse<String> metrics = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port
            + "/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, metrics.statusCode());
    assertTrue(metrics.body().contains("\nbasalt_writes_total ")
        && !metrics.body().contains("\nbasalt_writes_total 0.0\n"), metrics.body());
    server.destroy(); // SIGTERM
    assertTrue(server.waitFor(60, TimeUnit.SECONDS), "the server did not stop");
    assertTrue(Files.readString(logFile).contains("basalt server: stopping"),
        Files.readString(logFile));
    // the directory is free again, with the data
    try (Connection c = DriverManager.getConnection("jdbc:basalt:" + dir.resolve("served"));
        Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT v FROM kept")) {
      assertTrue(rs.next());
      assertEquals("before sigterm", rs.getString(1));
    }
  }
}
