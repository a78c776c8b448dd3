package io.basaltdb.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Ad-hoc SQL (issue 11): statements whose literal values change every time, as sqlline users,
 * BI tools and scripts send them, on Basalt and H2 (embedded, file) in one process on the same
 * data. Every measure is a time per statement (lower is better) or a rate; the prepared point
 * lookup is there as the reference a literal one should approach. Medians of {@code --runs};
 * Basalt/H2 time ratios (below 1 = Basalt faster); CSV and SVG with {@code --csv}.
 *
 * <pre>
 * bin/basalt bench adhoc [--rows 100000] [--statements 2000] [--mixed 2000] [--updates 2000]
 *                        [--runs 3] [--dir bench-data] [--csv out.csv] [--only counter]
 * </pre>
 *
 * {@code --only TEXT} runs just the measures whose name contains TEXT (the load and warm-up
 * still run).
 *
 * Tables: {@code kv(id BIGINT PRIMARY KEY, grp INTEGER, val BIGINT, pad VARCHAR(100))} (grp =
 * id / 10), {@code cust(id PRIMARY KEY, nation, name)} (one per grp), {@code nation(id PRIMARY
 * KEY, name)} (25). Basalt writes ASYNC unless a measure says SYNC; H2 as configured by default.
 * The first statement of a fresh JVM is measured in a child process (connect, CREATE TABLE,
 * INSERT, SELECT), from the JVM's start and from the loading of the JDBC drivers: with this
 * JVM's class path, with each driver's jar alone (Basalt's shaded jar, as an application ships
 * it), and with a class-data archive of each.
 */
public final class AdhocBench {
  private final int rows;
  private final int statements;
  private final int mixed;
  private final int updates;
  private final int runs;
  private final Path base;
  private final Map<String, double[]> results = new LinkedHashMap<>(); // basalt, h2, rate?
  private final Random random = new Random(2026);
  private String only;

  AdhocBench(int rows, int statements, int mixed, int updates, int runs, Path base) {
    this.rows = rows;
    this.statements = statements;
    this.mixed = mixed;
    this.updates = updates;
    this.runs = runs;
    this.base = base;
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--first-statement")) {
      firstStatement(args[1]);
      return;
    }
    int rows = 100_000;
    int statements = 2000;
    int mixed = 2000;
    int updates = 2000;
    int runs = 3;
    Path dir = Path.of("bench-data");
    Path csv = null;
    String only = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rows" -> rows = Integer.parseInt(args[++i]);
        case "--statements" -> statements = Integer.parseInt(args[++i]);
        case "--mixed" -> mixed = Integer.parseInt(args[++i]);
        case "--updates" -> updates = Integer.parseInt(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        case "--csv" -> csv = Path.of(args[++i]);
        case "--only" -> only = args[++i];
        default -> {
          System.err.println("usage: bench adhoc [--rows N] [--statements N] [--mixed N] "
              + "[--updates N] [--runs N] [--dir D] [--csv F] [--only TEXT]");
          System.exit(2);
        }
      }
    }
    AdhocBench b = new AdhocBench(rows, statements, mixed, updates, runs,
        dir.resolve("adhoc-" + System.nanoTime()).toAbsolutePath());
    b.only = only;
    try {
      b.run();
    } finally {
      EngineBench.deleteRecursively(b.base);
    }
    b.report(csv);
  }

  void run() throws Exception {
    Files.createDirectories(base);
    Class.forName("io.basaltdb.jdbc.BasaltDriver");
    String basaltUrl = "jdbc:basalt:" + base.resolve("basalt");
    String h2Url = "jdbc:h2:file:" + base.resolve("h2/db") + ";OPTIMIZE_REUSE_RESULTS=FALSE";
    try (Connection basalt = DriverManager.getConnection(basaltUrl + ";durability=ASYNC");
        Connection h2 = DriverManager.getConnection(h2Url)) {
      for (Connection c : List.of(basalt, h2)) {
        load(c);
        literalPoint(c, statements / 4); // warm-up: class loading, JIT, caches
        prepared(c, 1000);
      }
      measure("prepared point SELECT (us)", basalt, h2, c -> prepared(c, 5000));
      measure("literal point SELECT (us)", basalt, h2, c -> literalPoint(c, statements));
      measure("literal 10-row key range (us)", basalt, h2, c -> literal(c, statements,
          () -> {
            long a = random.nextInt(rows - 10);
            return "SELECT id, val FROM kv WHERE id >= " + a + " AND id < " + (a + 10);
          }, 10));
      measure("literal GROUP BY over a key range (us)", basalt, h2, c -> literal(c, statements,
          () -> {
            long a = random.nextInt(rows - 100);
            return "SELECT grp, COUNT(*) FROM kv WHERE id BETWEEN " + a + " AND " + (a + 99)
                + " GROUP BY grp";
          }, -1));
      measure("literal 3-table join by keys (us)", basalt, h2, c -> literal(c, statements,
          () -> "SELECT kv.val, cust.name, nation.name FROM kv JOIN cust ON cust.id = kv.grp"
              + " JOIN nation ON nation.id = cust.nation WHERE kv.id = "
              + random.nextInt(rows), 1));
      measure("mixed literal SELECTs (us)", basalt, h2, c -> literal(c, mixed,
          this::mixedStatement, -1));
      measure("1,000-row INSERT VALUES of parameters (ms)", basalt, h2,
          c -> manyRows(c, 10, false));
      measure("1,000-row INSERT VALUES of literals (ms)", basalt, h2,
          c -> manyRows(c, 10, true));
      measure("literal counter UPDATE, 1 thread (us)", basalt, h2,
          c -> counters(c, updates, 1));
      measure("literal counter UPDATE, 4 threads (us)", basalt, h2,
          c -> counters(c, updates, 4));
    }
    try (Connection basaltSync = DriverManager.getConnection(basaltUrl);
        Connection h2 = DriverManager.getConnection(h2Url)) {
      measure("literal counter UPDATE SYNC, 1 thread (us)", basaltSync, h2,
          c -> counters(c, updates, 1));
      measure("literal counter UPDATE SYNC, 4 threads (us)", basaltSync, h2,
          c -> counters(c, updates, 4));
    }
    measure("jdbc:basalt:" + base.resolve("first-basalt-"),
        "jdbc:h2:file:" + base.resolve("first-h2-"));
  }

  @FunctionalInterface
  private interface Work {
    double run(Connection c) throws Exception;
  }

  /** Median of {@code runs} alternating runs, after one untimed run of each (JIT warm-up). */
  private void measure(String name, Connection basalt, Connection h2, Work w) throws Exception {
    if (!selected(name)) {
      return;
    }
    double[] b = new double[runs];
    double[] h = new double[runs];
    w.run(basalt);
    w.run(h2);
    for (int i = 0; i < runs; i++) {
      b[i] = w.run(basalt);
      h[i] = w.run(h2);
    }
    record(name, b, h);
  }

  private void record(String name, double[] b, double[] h) {
    Arrays.sort(b);
    Arrays.sort(h);
    results.put(name, new double[] {b[b.length / 2], h[h.length / 2]});
    System.out.printf(Locale.ROOT, "%-46s basalt %12.1f   h2 %12.1f%n", name, b[b.length / 2],
        h[h.length / 2]);
  }

  /**
   * The first statement of a child JVM, {@code runs} times each: milliseconds from the JVM's
   * start, and from the moment the JDBC drivers are loaded (the JVM's own start-up and the
   * bench's class loading are not the driver's).
   */
  private boolean selected(String name) {
    return only == null || name.contains(only);
  }

  private void measure(String basaltPrefix, String h2Prefix) throws Exception {
    if (!selected("first statement")) {
      return;
    }
    firstStatements("", basaltPrefix, h2Prefix, List.of());
    driverJarAlone(basaltPrefix, h2Prefix);
    List<String> jars = jarClassPath();
    if (jars == null) {
      System.out.println("(no class-data archive measure: the class path has directories; "
          + "run mvn install first)");
      return;
    }
    String cp = String.join(java.io.File.pathSeparator, jars);
    List<String> archives = new ArrayList<>();
    for (String db : List.of("basalt", "h2")) {
      Path jsa = base.resolve("cds-" + db + ".jsa");
      // one untimed run writes the archive of the classes that run loads
      child(List.of("-XX:ArchiveClassesAtExit=" + jsa, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"),
          cp, (db.equals("basalt") ? basaltPrefix : h2Prefix) + "dump");
      archives.add("-XX:SharedArchiveFile=" + jsa);
    }
    firstStatements(", CDS", basaltPrefix + "cds", h2Prefix + "cds",
        archives, cp);
  }

  private void firstStatements(String how, String basaltPrefix, String h2Prefix,
      List<String> archives) throws Exception {
    firstStatements(how, basaltPrefix, h2Prefix, archives,
        System.getProperty("java.class.path"));
  }

  /**
   * The first statements of child JVMs, {@code runs} times each, with the given archive
   * options (Basalt's, then H2's; none: empty).
   */
  private void firstStatements(String how, String basaltPrefix, String h2Prefix,
      List<String> archives, String cp) throws Exception {
    firstStatements(how, basaltPrefix, h2Prefix, archives, cp, cp);
  }

  /** As above, Basalt's child JVMs with class path {@code basaltCp} and H2's with {@code h2Cp}. */
  private void firstStatements(String how, String basaltPrefix, String h2Prefix,
      List<String> archives, String basaltCp, String h2Cp) throws Exception {
    double[][] b = new double[2][runs];
    double[][] h = new double[2][runs];
    for (int i = 0; i < runs; i++) {
      double[] bi = child(archives.isEmpty() ? List.of() : List.of(archives.get(0),
          "-Xlog:cds=off"), basaltCp, basaltPrefix + i);
      double[] hi = child(archives.isEmpty() ? List.of() : List.of(archives.get(1),
          "-Xlog:cds=off"), h2Cp, h2Prefix + i);
      for (int k = 0; k < 2; k++) {
        b[k][i] = bi[k];
        h[k][i] = hi[k];
      }
    }
    record("first statement" + how + ", from JVM start (ms)", b[0], h[0]);
    record("first statement" + how + ", from driver load (ms)", b[1], h[1]);
  }

  /**
   * The first statements with each driver's jar alone (and the bench's classes, for the child's
   * main): Basalt's shaded {@code basalt-jdbc-*-all.jar} as an application ships it, H2's jar.
   * Skipped when {@code mvn install} has not made the jar.
   */
  private void driverJarAlone(String basaltPrefix, String h2Prefix) throws Exception {
    String bench = null;
    String h2 = null;
    Path all = null;
    for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path p = Path.of(e);
      if (p.getFileName() != null && p.getFileName().toString().startsWith("h2-")) {
        h2 = e;
      } else if (Files.isDirectory(p) && p.endsWith(Path.of("tpc-samples", "target", "classes"))) {
        bench = e;
        Path driverTarget = p.getParent().getParent().resolveSibling(Path.of("jdbc-driver",
            "target"));
        if (Files.isDirectory(driverTarget)) {
          try (var jars = Files.list(driverTarget)) {
            all = jars.filter(j -> j.getFileName().toString().matches("basalt-jdbc-.*-all\\.jar"))
                .findFirst().orElse(null);
          }
        }
      }
    }
    if (bench == null || h2 == null || all == null) {
      System.out.println("(no driver-jar-alone measure: run mvn install first)");
      return;
    }
    String sep = java.io.File.pathSeparator;
    firstStatements(", jar alone", basaltPrefix + "jar", h2Prefix + "jar", List.of(),
        all + sep + bench, h2 + sep + bench);
  }

  /**
   * This JVM's class path with each module's classes directory replaced by the module's jar
   * ({@code mvn install} makes it; a class-data archive takes jars only), or null.
   */
  private static List<String> jarClassPath() {
    List<String> out = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path p = Path.of(e);
      if (Files.isDirectory(p)) {
        Path target = p.getParent();
        Path module = target == null ? null : target.getParent();
        if (module == null) {
          return null;
        }
        try (var jars = Files.list(target)) {
          Path jar = jars.filter(j -> j.getFileName().toString().matches(
              "basalt-.*-SNAPSHOT\\.jar")).findFirst().orElse(null);
          if (jar == null) {
            return null;
          }
          out.add(jar.toString());
        } catch (java.io.IOException ex) {
          return null;
        }
      } else {
        out.add(e);
      }
    }
    return out;
  }

  private static double[] child(List<String> options, String cp, String url) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java));
    command.addAll(options);
    command.addAll(List.of("-cp", cp, AdhocBench.class.getName(), "--first-statement", url));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).trim();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("child failed: " + out);
    }
    String[] lines = out.split("\\n");
    String[] ms = lines[lines.length - 1].trim().split(" ");
    return new double[] {Double.parseDouble(ms[0]), Double.parseDouble(ms[1])};
  }

  /**
   * In a child JVM: connect, create, insert, select; prints the milliseconds since the JVM
   * started (its own clock; a process's start instant from the OS is too coarse) and since
   * the JDBC drivers were loaded.
   */
  private static void firstStatement(String url) throws Exception {
    long jvmStart = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
    java.util.Collections.list(DriverManager.getDrivers()); // loads every driver
    long driversLoaded = System.currentTimeMillis();
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      firstStatements(st);
    }
    long now = System.currentTimeMillis();
    System.out.println((now - jvmStart) + " " + (now - driversLoaded));
  }

  /** The first statements measured (and listed by {@link FirstStatementClasses}). */
  static void firstStatements(Statement st) throws SQLException {
    st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(10))");
    st.executeUpdate("INSERT INTO t VALUES (1, 'one')");
    try (ResultSet rs = st.executeQuery("SELECT v FROM t WHERE id = 1")) {
      rs.next();
    }
  }

  private void load(Connection c) throws SQLException {
    exec(c, "CREATE TABLE kv (id BIGINT NOT NULL PRIMARY KEY, grp INTEGER, val BIGINT,"
        + " pad VARCHAR(100))");
    exec(c, "CREATE TABLE cust (id INTEGER NOT NULL PRIMARY KEY, nation INTEGER,"
        + " name VARCHAR(20))");
    exec(c, "CREATE TABLE nation (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(20))");
    try (PreparedStatement p = c.prepareStatement("INSERT INTO kv VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < rows; i++) {
        p.setLong(1, i);
        p.setInt(2, i / 10);
        p.setLong(3, i * 7L % 1000);
        p.setString(4, "pad-" + i);
        p.addBatch();
        if (i % 1000 == 999) {
          p.executeBatch();
        }
      }
      p.executeBatch();
    }
    try (PreparedStatement p = c.prepareStatement("INSERT INTO cust VALUES (?, ?, ?)")) {
      for (int i = 0; i <= rows / 10; i++) {
        p.setInt(1, i);
        p.setInt(2, i % 25);
        p.setString(3, "cust-" + i);
        p.addBatch();
      }
      p.executeBatch();
    }
    try (PreparedStatement p = c.prepareStatement("INSERT INTO nation VALUES (?, ?)")) {
      for (int i = 0; i < 25; i++) {
        p.setInt(1, i);
        p.setString(2, "nation-" + i);
        p.addBatch();
      }
      p.executeBatch();
    }
  }

  private double prepared(Connection c, int n) throws SQLException {
    long t0 = System.nanoTime();
    try (PreparedStatement p = c.prepareStatement("SELECT val FROM kv WHERE id = ?")) {
      for (int i = 0; i < n; i++) {
        p.setLong(1, random.nextInt(rows));
        try (ResultSet rs = p.executeQuery()) {
          expect(rs.next(), "a row");
        }
      }
    }
    return (System.nanoTime() - t0) / 1e3 / n;
  }

  private double literalPoint(Connection c, int n) throws SQLException {
    return literal(c, n, () -> "SELECT val FROM kv WHERE id = " + random.nextInt(rows), 1);
  }

  /** {@code n} statements from {@code sql}, each expecting {@code rows} rows (-1: any); us. */
  private static double literal(Connection c, int n, java.util.function.Supplier<String> sql,
      int expectedRows) throws SQLException {
    long t0 = System.nanoTime();
    try (Statement st = c.createStatement()) {
      for (int i = 0; i < n; i++) {
        int got = 0;
        try (ResultSet rs = st.executeQuery(sql.get())) {
          while (rs.next()) {
            got++;
          }
        }
        expect(expectedRows < 0 || got == expectedRows, expectedRows + " rows, got " + got);
      }
    }
    return (System.nanoTime() - t0) / 1e3 / n;
  }

  /** One of several statement shapes, with fresh literals. */
  private String mixedStatement() {
    long a = random.nextInt(rows - 100);
    return switch (random.nextInt(6)) {
      case 0 -> "SELECT val, pad FROM kv WHERE id = " + a;
      case 1 -> "SELECT COUNT(*), SUM(val) FROM kv WHERE id >= " + a + " AND id < "
          + (a + random.nextInt(100));
      case 2 -> "SELECT id FROM kv WHERE id BETWEEN " + a + " AND " + (a + 20)
          + " AND val > " + random.nextInt(1000) + " ORDER BY id DESC";
      case 3 -> "SELECT name FROM cust WHERE id IN (" + a / 10 + ", " + (a / 10 + 1) + ", "
          + (a / 10 + 7) + ")";
      case 4 -> "SELECT grp, MAX(val) FROM kv WHERE id >= " + a + " AND id < " + (a + 50)
          + " GROUP BY grp ORDER BY grp LIMIT 3";
      default -> "SELECT n.name, COUNT(*) FROM cust c JOIN nation n ON n.id = c.nation "
          + "WHERE c.id BETWEEN " + a / 10 + " AND " + (a / 10 + 5) + " GROUP BY n.name";
    };
  }

  /**
   * {@code n} literal counter updates over {@code threads} threads, each on its own connection
   * (opened before the clock starts); us per update.
   */
  /** Ids written by {@link #manyRows}, per connection's database: every row new. */
  private final Map<Connection, long[]> nextRow = new java.util.IdentityHashMap<>();

  /**
   * {@code n} statements of 1,000 rows each (issue 40), each a text the connection has not seen
   * (a comment numbers it): prepared, parameters bound, executed, closed; or the same rows as
   * literals through a plain statement. Milliseconds per statement.
   */
  private double manyRows(Connection c, int n, boolean literals) throws Exception {
    int rowsPer = 1000;
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS many (id BIGINT NOT NULL PRIMARY KEY, grp INTEGER,"
          + " pad VARCHAR(20))");
    }
    long[] next = nextRow.computeIfAbsent(c, k -> new long[1]);
    long t0 = System.nanoTime();
    for (int k = 0; k < n; k++) {
      StringBuilder sql = new StringBuilder("INSERT INTO many (id, grp, pad) VALUES ");
      for (int i = 0; i < rowsPer; i++) {
        long id = next[0] + i;
        sql.append(i == 0 ? "" : ", ").append(literals
            ? "(" + id + ", " + (id % 97) + ", 'p" + (id % 1000) + "')" : "(?, ?, ?)");
      }
      if (literals) {
        try (Statement s = c.createStatement()) {
          s.executeUpdate(sql.toString());
        }
      } else {
        sql.append(" /* ").append(next[0]).append(" */");
        try (PreparedStatement p = c.prepareStatement(sql.toString())) {
          for (int i = 0; i < rowsPer; i++) {
            long id = next[0] + i;
            p.setLong(3 * i + 1, id);
            p.setInt(3 * i + 2, (int) (id % 97));
            p.setString(3 * i + 3, "p" + (id % 1000));
          }
          p.executeUpdate();
        }
      }
      next[0] += rowsPer;
    }
    return (System.nanoTime() - t0) / 1e6 / n;
  }

  private double counters(Connection c, int n, int threads) throws Exception {
    if (threads == 1) {
      return updates(c, n, new Random(random.nextLong()));
    }
    String url = c.getMetaData().getURL();
    List<Connection> own = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int t = 0; t < threads; t++) {
        own.add(DriverManager.getConnection(url));
      }
      List<Future<Double>> done = new ArrayList<>();
      long seed = random.nextLong();
      long t0 = System.nanoTime();
      for (int t = 0; t < threads; t++) {
        Connection mine = own.get(t);
        Random r = new Random(seed + t);
        done.add(pool.submit(() -> updates(mine, n / threads, r)));
      }
      for (Future<Double> f : done) {
        f.get();
      }
      return (System.nanoTime() - t0) / 1e3 / n;
    } finally {
      pool.shutdown();
      for (Connection o : own) {
        o.close();
      }
    }
  }

  private double updates(Connection c, int n, Random r) throws SQLException {
    long t0 = System.nanoTime();
    try (Statement st = c.createStatement()) {
      for (int i = 0; i < n; i++) {
        int count = st.executeUpdate("UPDATE kv SET val = val + 1 WHERE id = " + r.nextInt(rows));
        expect(count == 1, "one row updated, got " + count);
      }
    }
    return (System.nanoTime() - t0) / 1e3 / n;
  }

  private static void exec(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static void expect(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("expected " + what);
    }
  }

  void report(Path csv) throws Exception {
    List<String> lines = new ArrayList<>();
    lines.add("measure,basalt,h2,basalt_over_h2_time");
    Map<String, Double> ratios = new LinkedHashMap<>();
    System.out.println();
    System.out.printf(Locale.ROOT, "%-46s %14s%n", "measure", "time Basalt/H2");
    for (Map.Entry<String, double[]> e : results.entrySet()) {
      double[] v = e.getValue();
      double ratio = v[0] / v[1];
      ratios.put(e.getKey(), ratio);
      System.out.printf(Locale.ROOT, "%-46s %14.2f%n", e.getKey(), ratio);
      lines.add(String.format(Locale.ROOT, "\"%s\",%.3f,%.3f,%.3f", e.getKey(), v[0], v[1],
          ratio));
    }
    if (csv != null) {
      Files.write(csv, lines);
      Path svg = Charts.besideCsv(csv);
      Charts.ratios(svg, "Ad-hoc SQL, Basalt vs H2 (" + rows + " rows)", ratios,
          "Basalt/H2 time: below 1 = Basalt faster");
      System.out.println("wrote " + csv + " and " + svg);
    }
  }
}
