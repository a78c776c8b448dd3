package io.basaltdb.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The issue-14 workload over one JDBC URL, for Basalt over HBase and for Phoenix on the same
 * cluster (each in its own JVM: their HBase clients cannot share one): a batched UPSERT load
 * (and on Basalt the same rows INSERTed in auto-commit batches, into a table of their own),
 * point SELECTs by key, 100-row key ranges, COUNT(*) and SUM over the table, a scan filtering
 * a non-key column (these two the median of three runs), and a counter incremented from two
 * threads; then an indexed workload ({@link IndexedClusterWorkload}: two indexes built while a
 * writer runs, lookups through them, writes with them; off with {@code --no-indexes}). Only
 * {@code java.sql}: the
 * same class runs on Basalt's classpath and on Phoenix's. Results print one per line as
 * {@code name value unit} (rates per second, times in seconds); {@code phoenix-bench} reads
 * them back from Basalt's JVM in that form.
 *
 * <pre>
 * bin/basalt bench cluster --url jdbc:basalt:hbase:127.0.0.1:PORT:/hbase [--rows 1000000]
 *     [--seconds 10] [--dialect basalt|phoenix] [--tables PREFIX]
 * </pre>
 *
 * The dialects differ in two places: Phoenix has no UPDATE, so its counter is
 * {@code UPSERT ... ON DUPLICATE KEY UPDATE n = n + 1}; Basalt's is {@code UPDATE ... SET
 * n = n + 1} (an HBase Increment). And Phoenix's tables are created with
 * {@code UPDATE_CACHE_FREQUENCY = 900000}, Phoenix's own advice for a schema that does not
 * change: by default every Phoenix statement first asks SYSTEM.CATALOG for the table (one more
 * round trip; 180 point SELECTs/s instead of thousands). Both run with auto-commit on except the load (a commit
 * per 1000 rows, as Phoenix's loaders do). The tables are {@code PREFIX_kv} and
 * {@code PREFIX_ctr} ({@code bench} by default), dropped at the end: Basalt and Phoenix on one
 * cluster each use their own. With {@code --hold-after-load} it waits after the load for a
 * line on stdin (phoenix-bench flushes the memstores meanwhile, the same for every client).
 */
public final class ClusterBench {
  private final String url;
  private final boolean phoenix;
  private final int rows;
  private final double seconds;
  private final String kv;
  private final String ctr;
  private final Map<String, Measure> results = new LinkedHashMap<>();
  private boolean holdAfterLoad;
  /** Whether the indexed workload runs after the others. */
  private boolean indexes = true;

  /** What {@code --hold-after-load} prints when the load is done and it waits for a line. */
  public static final String HOLDING = "loaded; holding until a line on stdin";

  /** One figure of the workload: a rate per second or a time in seconds. */
  public record Measure(String name, double value, String unit) {
    /** The line {@link ClusterBench} prints for this figure. */
    public String line() {
      return String.format(Locale.ROOT, "%-32s %14.3f %s", name, value, unit);
    }

    /** The figure a {@link #line()} printed, or null for another line. */
    public static Measure parse(String line) {
      java.util.regex.Matcher m = java.util.regex.Pattern
          .compile("(\\S.*?)\\s+(-?[0-9]+\\.[0-9]+) (\\S+)").matcher(line.strip());
      return m.matches() ? new Measure(m.group(1), Double.parseDouble(m.group(2)), m.group(3)) : null;
    }
  }

  /** The workload over {@code url} on tables {@code tables_kv} and {@code tables_ctr}. */
  public ClusterBench(String url, boolean phoenix, int rows, double seconds, String tables) {
    this.url = url;
    this.phoenix = phoenix;
    this.rows = rows;
    this.seconds = seconds;
    this.kv = tables + "_kv";
    this.ctr = tables + "_ctr";
  }

  public static void main(String[] args) throws Exception {
    String url = null;
    String dialect = null;
    int rows = 1_000_000;
    double seconds = 10;
    String tables = "bench";
    boolean hold = false;
    boolean indexes = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--url" -> url = args[++i];
        case "--dialect" -> dialect = args[++i];
        case "--rows" -> rows = Integer.parseInt(args[++i]);
        case "--seconds" -> seconds = Double.parseDouble(args[++i]);
        case "--tables" -> tables = args[++i];
        case "--hold-after-load" -> hold = true;
        case "--no-indexes" -> indexes = false;
        default -> {
          url = null;
          i = args.length;
        }
      }
    }
    if (url == null) {
      System.err.println("usage: bench cluster --url URL [--rows N] [--seconds S]"
          + " [--dialect basalt|phoenix] [--tables PREFIX] [--hold-after-load] [--no-indexes]");
      System.exit(2);
    }
    boolean phoenix = dialect != null ? dialect.equals("phoenix") : url.startsWith("jdbc:phoenix:");
    ClusterBench bench = new ClusterBench(url, phoenix, rows, seconds, tables);
    bench.holdAfterLoad = hold;
    bench.indexes = indexes;
    bench.run();
  }

  /** Runs of each whole-table query (the median is reported). */
  private static final int SCANS = 3;

  private static double median(double[] v) {
    double[] sorted = v.clone();
    java.util.Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** Runs the workload, printing each figure as it is measured; every answer is checked. */
  public Map<String, Measure> run() throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      c.setAutoCommit(true);
      exec(c, "DROP TABLE IF EXISTS " + kv);
      exec(c, "DROP TABLE IF EXISTS " + ctr);
      String options = phoenix ? " UPDATE_CACHE_FREQUENCY = 900000" : "";
      StringBuilder split = new StringBuilder();
      for (int i = 1; i < 4; i++) {
        split.append(i > 1 ? ", " : "").append((long) rows * i / 4);
      }
      exec(c, "CREATE TABLE " + kv + " (id BIGINT NOT NULL PRIMARY KEY, grp INTEGER, val BIGINT,"
          + " pad VARCHAR(100))" + options + " SPLIT ON (" + split + ")");
      exec(c, "CREATE TABLE " + ctr + " (id BIGINT NOT NULL PRIMARY KEY, n BIGINT)" + options);
      record("batched UPSERT load", load(c), "rows/s");
      if (!phoenix) { // Phoenix has no INSERT
        record("batched INSERT load", insertLoad(c, split), "rows/s");
        record("batched INSERT load, again", insertLoad(c, split), "rows/s"); // a warm client
      }
      if (holdAfterLoad) { // phoenix-bench flushes the cluster's memstores, then sends a line
        System.out.println(HOLDING);
        System.out.flush();
        new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
            java.nio.charset.StandardCharsets.UTF_8)).readLine();
      }
      record("point SELECT by key", rate(c, "SELECT val FROM " + kv + " WHERE id = ?", 1, 1),
          "ops/s");
      record("100-row key range", rate(c,
          "SELECT id, val FROM " + kv + " WHERE id >= ? AND id < ? + 100", 2, 100), "ranges/s");
      // the whole-table queries run SCANS times each, the median kept: one run alone is
      // mostly the first statement's planning and the JIT's first compilations
      double[] countSum = new double[SCANS];
      double[] filtered = new double[SCANS];
      for (int r = 0; r < SCANS; r++) {
        long t0 = System.nanoTime();
        long count = single(c, "SELECT COUNT(*) FROM " + kv);
        long sum = single(c, "SELECT SUM(val) FROM " + kv);
        countSum[r] = (System.nanoTime() - t0) / 1e9;
        check(count == rows, "COUNT(*) " + count);
        check(sum == 7L * rows * (rows - 1L) / 2, "SUM(val) " + sum);
        t0 = System.nanoTime();
        long found = single(c, "SELECT COUNT(*) FROM " + kv + " WHERE val = " + 7L * (rows / 2));
        filtered[r] = (System.nanoTime() - t0) / 1e9;
        check(found == 1, "filter scan found " + found);
      }
      record("COUNT(*) + SUM over all rows", median(countSum), "s");
      record("non-key filter scan", median(filtered), "s");
      record("counter +1 from 2 threads", counters(), "ops/s");
      if (indexes) {
        new IndexedClusterWorkload(url, phoenix, rows, seconds, kv, this::record).run(c);
      }
      exec(c, "DROP TABLE " + kv);
      exec(c, "DROP TABLE " + ctr);
    }
    return results;
  }

  private double load(Connection c) throws SQLException {
    long t0 = System.nanoTime();
    c.setAutoCommit(false);
    try (PreparedStatement p = c.prepareStatement("UPSERT INTO " + kv + " VALUES (?, ?, ?, ?)")) {
      writeRows(p, c::commit);
    } finally {
      c.setAutoCommit(true);
    }
    return rows / ((System.nanoTime() - t0) / 1e9);
  }

  /** After each batch sent. */
  @FunctionalInterface
  private interface AfterBatch {
    void run() throws SQLException;
  }

  /** The workload's rows through {@code p} in batches of 1,000, {@code after} each batch. */
  private void writeRows(PreparedStatement p, AfterBatch after) throws SQLException {
    for (int i = 0; i < rows; i++) {
      p.setLong(1, i);
      p.setInt(2, i / 10);
      p.setLong(3, 7L * i);
      p.setString(4, "pad-" + i + "-0123456789abcdefghij");
      p.addBatch();
      if (i % 1000 == 999) {
        p.executeBatch();
        after.run();
      }
    }
    p.executeBatch();
    after.run();
  }

  /**
   * The same rows INSERTed in auto-commit batches of 1,000 into a table of the same shape and
   * regions (each row refused if its key is stored: over HBase, batched check-and-puts), checked
   * by a count. Run twice: the first pass also warms the client's code, as the UPSERT load did.
   */
  private double insertLoad(Connection c, CharSequence split) throws SQLException {
    String t = kv + "_ins";
    exec(c, "DROP TABLE IF EXISTS " + t);
    exec(c, "CREATE TABLE " + t + " (id BIGINT NOT NULL PRIMARY KEY, grp INTEGER, val BIGINT,"
        + " pad VARCHAR(100)) SPLIT ON (" + split + ")");
    long t0 = System.nanoTime();
    try (PreparedStatement p = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?, ?, ?)")) {
      writeRows(p, () -> { }); // auto-commit: each batch its own
    }
    double rate = rows / ((System.nanoTime() - t0) / 1e9);
    long count = single(c, "SELECT COUNT(*) FROM " + t);
    check(count == rows, "INSERT load COUNT(*) " + count);
    exec(c, "DROP TABLE " + t);
    return rate;
  }

  /** Executions per second of {@code sql} over random keys for the set time, each giving {@code expect} rows. */
  private double rate(Connection c, String sql, int params, int expect) throws SQLException {
    Random r = new Random(14);
    return queriesPerSecond(c, sql, seconds, expect, p -> {
      long k = r.nextInt(rows - expect);
      for (int i = 1; i <= params; i++) {
        p.setLong(i, k);
      }
      return k;
    });
  }

  /** Binds one execution's parameters; returns the key it asked for (for messages). */
  @FunctionalInterface
  interface Binder {
    long bind(PreparedStatement p) throws SQLException;
  }

  /**
   * Executions per second of {@code sql}, each bound by {@code binder} and checked to give
   * {@code expect} rows, over {@code seconds} after a quarter of that to warm up.
   */
  static double queriesPerSecond(Connection c, String sql, double seconds, int expect,
      Binder binder) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      for (int pass = 0; pass < 2; pass++) { // the first pass warms up
        long t0 = System.nanoTime();
        long end = t0 + (long) (seconds * 1e9 / (pass == 0 ? 4 : 1));
        long n = 0;
        while (System.nanoTime() < end) {
          long k = binder.bind(p);
          int got = 0;
          try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
              got++;
            }
          }
          check(got == expect, sql + " gave " + got + " rows for " + k);
          n++;
        }
        if (pass == 1) {
          return n / ((System.nanoTime() - t0) / 1e9);
        }
      }
    }
    throw new AssertionError();
  }

  private double counters() throws Exception {
    String sql = phoenix
        ? "UPSERT INTO " + ctr + " (id, n) VALUES (1, 1) ON DUPLICATE KEY UPDATE n = n + 1"
        : "UPDATE " + ctr + " SET n = n + 1 WHERE id = 1";
    try (Connection c = DriverManager.getConnection(url)) {
      c.setAutoCommit(true);
      exec(c, "UPSERT INTO " + ctr + " (id, n) VALUES (1, 0)");
    }
    Timed run = inThreads(2, seconds, () -> {
      Connection c = DriverManager.getConnection(url);
      c.setAutoCommit(true);
      PreparedStatement p = c.prepareStatement(sql);
      return new Worker() {
        @Override
        public void once() throws SQLException {
          p.executeUpdate();
        }

        @Override
        public void close() throws SQLException {
          p.close();
          c.close();
        }
      };
    });
    long done = run.operations();
    try (Connection c = DriverManager.getConnection(url)) {
      long n = single(c, "SELECT n FROM " + ctr + " WHERE id = 1");
      check(n == done, "counter " + n + " after " + done + " increments");
    }
    return run.rate();
  }

  /** One thread's client: opened on its thread, {@link #once} one operation. */
  public interface Worker extends AutoCloseable {
    void once() throws Exception;
  }

  /** Operations done and the seconds they took. */
  public record Timed(long operations, double seconds) {
    public double rate() {
      return operations / seconds;
    }
  }

  /**
   * Runs {@code threads} workers, each opened by {@code open} on its own thread, for
   * {@code seconds}; the first failure of any is thrown once all have stopped.
   */
  public static Timed inThreads(int threads, double seconds,
      java.util.concurrent.Callable<Worker> open) throws InterruptedException {
    AtomicLong done = new AtomicLong();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<Thread> started = new ArrayList<>();
    long t0 = System.nanoTime();
    long end = t0 + (long) (seconds * 1e9);
    for (int t = 0; t < threads; t++) {
      Thread th = new Thread(() -> {
        try (Worker w = open.call()) {
          while (System.nanoTime() < end) {
            w.once();
            done.incrementAndGet();
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      th.start();
      started.add(th);
    }
    for (Thread th : started) {
      th.join();
    }
    double elapsed = (System.nanoTime() - t0) / 1e9;
    if (!failures.isEmpty()) {
      throw new IllegalStateException("a worker thread failed", failures.get(0));
    }
    return new Timed(done.get(), elapsed);
  }

  private void record(String name, double value, String unit) {
    Measure m = new Measure(name, value, unit);
    results.put(name, m);
    System.out.println(m.line());
    System.out.flush();
  }

  static void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("wrong answer: " + what);
    }
  }

  static long single(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      check(rs.next(), sql + " gave no row");
      return rs.getLong(1);
    }
  }

  static void exec(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}
