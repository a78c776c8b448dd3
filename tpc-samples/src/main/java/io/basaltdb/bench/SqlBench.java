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

/**
 * SQL through JDBC on an embedded Basalt database against H2 (embedded, file), in the same
 * process on the same data: batched insert rate, point lookups by primary key with a
 * prepared statement, a 10-row key range, the same 10 rows found by a non-key predicate,
 * then by the same column once indexed (CREATE INDEX timed), a batched insert into a table
 * with one index, {@code COUNT(*)} and {@code SUM} over the table. Prints each figure, Basalt/H2 time ratios
 * (below 1 = Basalt faster) and writes them as CSV.
 *
 * <pre>
 * bin/basalt bench sql [--rows 1000000] [--lookups 50000] [--runs 5] [--warmup 5]
 *                      [--dir bench-data] [--csv out.csv]
 * </pre>
 *
 * Each timed query is first run on each database for {@code --warmup} seconds (as JMH warms
 * up before it measures): a JVM compiles a query path only after tens of thousands of runs,
 * and Basalt's path (Calcite's enumerables, the engine's scanners) is longer than H2's, so
 * a short warm-up measures the JIT rather than the query (the indexed lookup read 45 us
 * against H2's 15 after 10,000 runs, 18 against 20 after 100,000). The timed runs alternate
 * between the databases; the median is reported.
 *
 * Table {@code kv(id BIGINT PRIMARY KEY, grp INTEGER, val BIGINT, pad VARCHAR)}, grp = id / 10
 * (indexed in both databases, halfway through); Basalt's table is pre-split in four regions (scans of
 * several regions run in parallel). Basalt writes with durability ASYNC, as H2 does by
 * default (neither fsyncs each commit). H2 runs with {@code OPTIMIZE_REUSE_RESULTS=FALSE}, or
 * it would answer a repeated aggregate from its cached result.
 */
public final class SqlBench {
  private final int rows;
  private final int lookups;
  private final int runs;
  private final double warmupSeconds;
  private final Path base;
  /** A Basalt URL to measure instead of an embedded database (such as jdbc:basalt:hbase:...). */
  private String url;
  private final Map<String, double[]> results = new LinkedHashMap<>(); // name -> basalt, h2

  SqlBench(int rows, int lookups, int runs, double warmupSeconds, Path base) {
    this.rows = rows;
    this.lookups = lookups;
    this.runs = runs;
    this.warmupSeconds = warmupSeconds;
    this.base = base;
  }

  public static void main(String[] args) throws Exception {
    int rows = 1_000_000;
    int lookups = 50_000;
    int runs = 5;
    double warmup = 5;
    Path dir = Path.of("bench-data");
    Path csv = null;
    String url = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--url" -> url = args[++i];
        case "--rows" -> rows = Integer.parseInt(args[++i]);
        case "--lookups" -> lookups = Integer.parseInt(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--warmup" -> warmup = Double.parseDouble(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        case "--csv" -> csv = Path.of(args[++i]);
        default -> {
          System.err.println("usage: bench sql [--rows N] [--lookups N] [--runs N]"
              + " [--warmup SECONDS] [--dir D] [--csv F] [--url jdbc:basalt:hbase:...]");
          System.exit(2);
        }
      }
    }
    SqlBench b = new SqlBench(rows, lookups, runs, warmup,
        dir.resolve("sql-" + System.nanoTime()).toAbsolutePath());
    b.url = url;
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
    try (Connection basalt = DriverManager.getConnection((url != null ? url
            : "jdbc:basalt:" + base.resolve("basalt")) + ";durability=ASYNC");
        Connection h2 = DriverManager.getConnection("jdbc:h2:file:" + base.resolve("h2/db")
            + ";OPTIMIZE_REUSE_RESULTS=FALSE")) {
      String ddl = "CREATE TABLE kv (id BIGINT NOT NULL PRIMARY KEY, grp INTEGER, val BIGINT,"
          + " pad VARCHAR(100))";
      // Basalt's table is pre-split in four regions, as a wide-column designer would
      StringBuilder split = new StringBuilder(" SPLIT ON (");
      for (int i = 1; i < 4; i++) {
        split.append(i > 1 ? ", " : "").append((long) rows * i / 4);
      }
      exec(basalt, ddl + split + ")");
      exec(h2, ddl);
      // a storage that cannot keep an index with its row (HBase) is measured without indexes
      boolean indexes = basalt.unwrap(io.basaltdb.sql.jdbc.BasaltConnection.class).storage()
          .atomicAcrossRows();
      measure("insert (rows/s)", basalt, h2, c -> load(c, "kv", rows), true);
      batchInserts(basalt, h2, indexes);
      settle(basalt);
      measureRuns("point lookup (us)", basalt, h2, c -> pointLookups(c, lookups));
      measureRuns("10-row key range (us)", basalt, h2, c -> keyRanges(c, 2000));
      measureRuns("10 rows by non-key predicate (us)", basalt, h2, c -> nonKey(c, 3), false);
      if (!indexes) {
        measureRuns("COUNT(*) (ms)", basalt, h2,
            c -> single(c, "SELECT COUNT(*) FROM kv") / 1e3, false);
        measureRuns("SUM(val) (ms)", basalt, h2,
            c -> single(c, "SELECT SUM(val) FROM kv") / 1e3, false);
        exec(basalt, "DROP TABLE kv");
        return;
      }
      measure("CREATE INDEX on grp (s)", basalt, h2, c -> {
        long t0 = System.nanoTime();
        exec(c, "CREATE INDEX kv_grp ON kv (grp)");
        return (System.nanoTime() - t0) / 1e9;
      }, false);
      settle(basalt); // the index build's flushes compacted, as a user's database would be
      measureRuns("10 rows by indexed column (us)", basalt, h2, c -> nonKey(c, 2000));
      measureRuns("COUNT(*) (ms)", basalt, h2, c -> single(c, "SELECT COUNT(*) FROM kv") / 1e3,
          false);
      measureRuns("SUM(val) (ms)", basalt, h2, c -> single(c, "SELECT SUM(val) FROM kv") / 1e3,
          false);
    }
  }

  @FunctionalInterface
  private interface Work {
    double run(Connection c) throws SQLException;
  }

  private void measure(String name, Connection basalt, Connection h2, Work w, boolean rate)
      throws SQLException {
    double b = w.run(basalt);
    double h = w.run(h2);
    results.put(name, new double[] {b, h, rate ? 1 : 0});
    System.out.printf(Locale.ROOT, "%-36s basalt %12.1f   h2 %12.1f%n", name, b, h);
  }

  /**
   * Batched inserts of 100k rows into a fresh table without and with one index, {@code runs}
   * times alternating between the two and the databases (each table dropped after its run):
   * the medians, so the index's write cost is a ratio of two medians of the same JVM state,
   * not of two single loads a JIT compilation may fall in. Basalt's index covers the
   * benchmark's query (INCLUDE); H2 has no INCLUDE.
   */
  private void batchInserts(Connection basalt, Connection h2, boolean indexes)
      throws SQLException {
    int n = Math.min(rows, 100_000);
    double[][] plain = new double[2][runs];
    double[][] indexed = new double[2][runs];
    for (int i = 0; i < runs; i++) {
      for (int d = 0; d < 2; d++) {
        Connection c = d == 0 ? basalt : h2;
        String table = "ins_" + i;
        exec(c, "CREATE TABLE " + table + " (id BIGINT NOT NULL PRIMARY KEY, grp INTEGER,"
            + " val BIGINT, pad VARCHAR(100))");
        plain[d][i] = load(c, table, n);
        exec(c, "DROP TABLE " + table);
        if (!indexes) {
          continue;
        }
        table = "ins2_" + i;
        exec(c, "CREATE TABLE " + table + " (id BIGINT NOT NULL PRIMARY KEY, grp INTEGER,"
            + " val BIGINT, pad VARCHAR(100))");
        exec(c, "CREATE INDEX " + table + "_grp ON " + table + " (grp)"
            + (c == basalt ? " INCLUDE (val)" : ""));
        indexed[d][i] = load(c, table, n);
        exec(c, "DROP TABLE " + table);
      }
    }
    record("batch insert 100k (rows/s)", plain[0], plain[1], true);
    if (indexes) {
      record("batch insert 100k, 1 index (rows/s)", indexed[0], indexed[1], true);
    }
  }

  /** Keeps and prints the medians of a measure's runs. */
  private void record(String name, double[] b, double[] h, boolean rate) {
    Arrays.sort(b);
    Arrays.sort(h);
    results.put(name, new double[] {b[b.length / 2], h[h.length / 2], rate ? 1 : 0});
    System.out.printf(Locale.ROOT, "%-36s basalt %12.2f   h2 %12.2f%n", name, b[b.length / 2],
        h[h.length / 2]);
  }

  /** Median of {@code runs} alternating runs, after each database's warm-up. */
  private void measureRuns(String name, Connection basalt, Connection h2, Work w)
      throws SQLException {
    measureRuns(name, basalt, h2, w, true);
  }

  /**
   * Median of {@code runs} alternating runs; with {@code warm}, each database first repeats
   * the work for the warm-up time (long work, a full scan, warms up within its own runs).
   */
  private void measureRuns(String name, Connection basalt, Connection h2, Work w, boolean warm)
      throws SQLException {
    if (warm) {
      for (Connection c : List.of(basalt, h2)) {
        long until = System.nanoTime() + (long) (warmupSeconds * 1e9);
        do {
          w.run(c);
        } while (System.nanoTime() < until);
      }
    }
    double[] b = new double[runs];
    double[] h = new double[runs];
    for (int i = 0; i < runs; i++) {
      b[i] = w.run(basalt);
      h[i] = w.run(h2);
    }
    record(name, b, h, false);
  }

  /**
   * Waits until Basalt's engine has no flush or compaction queued or running (at most 10
   * minutes): reads are timed on a settled database, not against the background work the
   * load left.
   */
  private static void settle(Connection basalt) throws SQLException {
    if (!(basalt.unwrap(io.basaltdb.sql.jdbc.BasaltConnection.class).storage()
        instanceof io.basaltdb.engine.Database db)) {
      return; // another storage's background work is its own
    }
    try {
      long t0 = System.nanoTime();
      boolean settled = db.awaitBackgroundWork(600_000);
      System.out.printf(Locale.ROOT, "(background flushes and compactions %s in %.1f s)%n",
          settled ? "done" : "still running", (System.nanoTime() - t0) / 1e9);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted", e);
    }
  }

  private static void exec(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  /** Loads {@code n} rows with batched single-row inserts; rows per second. */
  private static double load(Connection c, String table, int n) throws SQLException {
    long t0 = System.nanoTime();
    try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table
        + " VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < n; i++) {
        p.setLong(1, i);
        p.setInt(2, i / 10);
        p.setLong(3, i * 7L % 1000);
        p.setString(4, "pad-" + i + "-" + "x".repeat(40));
        p.addBatch();
        if (i % 1000 == 999) {
          p.executeBatch();
        }
      }
      p.executeBatch();
    }
    return n / ((System.nanoTime() - t0) / 1e9);
  }

  /** Random point lookups; microseconds per query. */
  private double pointLookups(Connection c, int n) throws SQLException {
    Random r = new Random(7);
    long t0 = System.nanoTime();
    try (PreparedStatement p = c.prepareStatement("SELECT val FROM kv WHERE id = ?")) {
      for (int i = 0; i < n; i++) {
        p.setLong(1, r.nextInt(rows));
        try (ResultSet rs = p.executeQuery()) {
          if (!rs.next()) {
            throw new IllegalStateException("missing row");
          }
        }
      }
    }
    return (System.nanoTime() - t0) / 1e3 / n;
  }

  private double keyRanges(Connection c, int n) throws SQLException {
    Random r = new Random(11);
    long t0 = System.nanoTime();
    try (PreparedStatement p = c.prepareStatement(
        "SELECT id, val FROM kv WHERE id >= ? AND id < ?")) {
      for (int i = 0; i < n; i++) {
        long start = r.nextInt(rows - 10);
        p.setLong(1, start);
        p.setLong(2, start + 10);
        expectRows(p, 10);
      }
    }
    return (System.nanoTime() - t0) / 1e3 / n;
  }

  private double nonKey(Connection c, int n) throws SQLException {
    Random r = new Random(13);
    long t0 = System.nanoTime();
    try (PreparedStatement p = c.prepareStatement("SELECT id, val FROM kv WHERE grp = ?")) {
      for (int i = 0; i < n; i++) {
        p.setInt(1, r.nextInt(rows / 10));
        expectRows(p, 10);
      }
    }
    return (System.nanoTime() - t0) / 1e3 / n;
  }

  private static void expectRows(PreparedStatement p, int expected) throws SQLException {
    int got = 0;
    try (ResultSet rs = p.executeQuery()) {
      while (rs.next()) {
        got++;
      }
    }
    if (got != expected) {
      throw new IllegalStateException("expected " + expected + " rows, got " + got);
    }
  }

  /** Microseconds to run a one-row query. */
  private static double single(Connection c, String sql) throws SQLException {
    long t0 = System.nanoTime();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      rs.getLong(1);
    }
    return (System.nanoTime() - t0) / 1e3;
  }

  void report(Path csv) throws Exception {
    List<String> lines = new ArrayList<>();
    lines.add("measure,basalt,h2,basalt_over_h2_time");
    System.out.println();
    System.out.printf(Locale.ROOT, "%-36s %14s%n", "measure", "time Basalt/H2");
    for (Map.Entry<String, double[]> e : results.entrySet()) {
      double[] v = e.getValue();
      double ratio = v[2] == 1 ? v[1] / v[0] : v[0] / v[1]; // rates invert
      System.out.printf(Locale.ROOT, "%-36s %14.2f%n", e.getKey(), ratio);
      lines.add(String.format(Locale.ROOT, "\"%s\",%.3f,%.3f,%.3f", e.getKey(), v[0], v[1], ratio));
    }
    double range = results.get("10-row key range (us)")[0];
    double nonKey = results.get("10 rows by non-key predicate (us)")[0];
    System.out.printf(Locale.ROOT, "Basalt: the key range is %.0fx faster than the non-key "
        + "predicate%n", nonKey / range);
    if (results.containsKey("10 rows by indexed column (us)")) {
      double indexed = results.get("10 rows by indexed column (us)")[0];
      System.out.printf(Locale.ROOT, "Basalt: the indexed column is %.0fx faster than without "
          + "its index%n", nonKey / indexed);
      System.out.printf(Locale.ROOT, "Basalt: batch insert with one covering index costs %.2fx"
          + " the time without%n", results.get("batch insert 100k (rows/s)")[0]
          / results.get("batch insert 100k, 1 index (rows/s)")[0]);
    }
    if (csv != null) {
      Files.write(csv, lines);
      java.util.Map<String, Double> ratios = new java.util.LinkedHashMap<>();
      for (Map.Entry<String, double[]> e : results.entrySet()) {
        double[] v = e.getValue();
        ratios.put(e.getKey(), v[2] == 1 ? v[1] / v[0] : v[0] / v[1]);
      }
      Path svg = Charts.besideCsv(csv);
      Charts.ratios(svg, "Basalt vs H2 through JDBC (" + rows + " rows)", ratios,
          "Basalt/H2 time: below 1 = Basalt faster");
      System.out.println("wrote " + csv + " and " + svg);
    }
  }
}
