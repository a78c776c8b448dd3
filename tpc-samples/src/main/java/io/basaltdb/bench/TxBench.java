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
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Transactions (issue 37): the bank transfer, as an application writes it with JDBC, on Basalt
 * and on H2 (embedded, file) running the same code: auto-commit off, read two balances, update
 * both, commit; a transfer refused for a conflict (SQLState 40001 here; H2's lock timeouts and
 * deadlocks) runs again. Threads 1 and {@code --threads}, Basalt at ASYNC and SYNC durability,
 * H2 as configured by default. Each measure runs {@code --seconds} after a warm-up; medians of
 * {@code --runs}. The warm-up runs one-second slices until the rate settles: three slices in a
 * row no faster than 3% above the best before them, at least 15 s (noise ended shorter ones
 * while Basalt was still compiling), at most 60 s; a fixed 2 s measured Basalt's JIT
 * compilation, which takes 10-20 s of transfers on two cores against H2's few. The seconds each
 * side warmed up are reported beside its rate. Each side runs in a JVM of its own (as JMH
 * forks): run after H2 in one JVM, Basalt's transfers measured some 10% slower than alone (the
 * JIT's profiles of shared code, the bench's own loop included, polluted by the other driver),
 * H2's the same either way. The two JVMs stay up, warmed, and take turns: H2's run, Basalt's,
 * then Basalt's first, and so on, one side idle while the other runs, so each pair of runs
 * meets the machine in the same state (this machine's speed moved 40% from one minute to the
 * next, which made the ratio of two medians measured minutes apart swing from 0.76x to 1.07x
 * in one afternoon); the ratio reported is the median of the pairs' ratios, the rates the
 * medians of each side's runs beside it. {@code --same-jvm} measures all in this one, one
 * side after the other. Reports transfers
 * per second, the share of
 * attempts run again, and whether the total of all balances stayed what it was (it must, for
 * Basalt; H2 at its default READ COMMITTED can lose an update between the read and the write
 * of a balance).
 *
 * <pre>
 * bin/basalt bench tx [--accounts 10000] [--seconds 5] [--runs 3] [--threads 4] [--regions 1]
 *                     [--dir D] [--same-jvm]
 * </pre>
 */
public final class TxBench {
  private static final long START = 1_000;
  /** Marks a URL whose transfers run in auto-commit (this bench's own, taken off the URL). */
  private static final String AUTO_COMMIT = "bench.autoCommit";

  private final int accounts;
  private final int seconds;
  private final int runs;
  private final int threads;
  private final Path base;
  /** Basalt's table pre-split in this many regions (1: not split). */
  private int regions = 1;
  /** Each measure in a JVM of its own (see the class comment). */
  private boolean fork = true;
  /** What a measure run in a JVM of its own prints, then its result. */
  private static final String CHILD_RESULT = "tx-bench-result";

  private TxBench(int accounts, int seconds, int runs, int threads, Path base) {
    this.accounts = accounts;
    this.seconds = seconds;
    this.runs = runs;
    this.threads = threads;
    this.base = base;
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--serve")) {
      serve(args);
      return;
    }
    int accounts = 10_000;
    int seconds = 5;
    int runs = 3;
    int threads = 4;
    boolean fork = true;
    int regions = 1;
    Path dir = Path.of("bench-data");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--accounts" -> accounts = Integer.parseInt(args[++i]);
        case "--seconds" -> seconds = Integer.parseInt(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        case "--regions" -> regions = Integer.parseInt(args[++i]);
        case "--same-jvm" -> fork = false;
        default -> throw new IllegalArgumentException("usage: bench tx [--accounts N]"
            + " [--seconds S] [--runs R] [--threads T] [--dir D] [--same-jvm]");
      }
    }
    TxBench b = new TxBench(accounts, seconds, runs, threads, dir.resolve("tx"));
    b.regions = regions;
    b.fork = fork;
    b.run();
  }

  /** One measure's runs. */
  private record Result(double perSecond, double retried, boolean totalKept, int warmUp) {}

  /** The shortest and the longest warm-up, in one-second slices. */
  private static final int MIN_WARM_UP = 15;
  private static final int MAX_WARM_UP = 60;

  private void run() throws Exception {
    deleteTree(base);
    Files.createDirectories(base);
    String basalt = "jdbc:basalt:" + base.resolve("basalt");
    String h2 = "jdbc:h2:file:" + base.resolve("h2/db").toAbsolutePath();
    load(basalt);
    load(h2);
    if (fork) { // closed here: each measure's JVM opens them
      report(basalt, h2);
      return;
    }
    // held open for the whole run, so no measure pays a database's opening
    try (Connection holdBasalt = DriverManager.getConnection(basalt);
        Connection holdH2 = DriverManager.getConnection(h2)) {
      report(basalt, h2);
    }
  }

  /**
   * One side of a paired measure, for a parent bench: {@code --serve URL THREADS ACCOUNTS
   * SECONDS}. Warms up, says {@code ready} and its warm-up seconds, then runs one measure per
   * {@code go} line read, printing its result on a line of its own, until its input ends.
   */
  private static void serve(String[] a) throws Exception {
    String url = a[1];
    int threadCount = Integer.parseInt(a[2]);
    TxBench b = new TxBench(Integer.parseInt(a[3]), Integer.parseInt(a[4]), 1, 1, Path.of("."));
    String database = url.endsWith(";" + AUTO_COMMIT)
        ? url.substring(0, url.length() - AUTO_COMMIT.length() - 1) : url;
    java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(
        System.in, java.nio.charset.StandardCharsets.UTF_8));
    try (Connection hold = DriverManager.getConnection(database)) { // opened once, as above
      System.out.println(CHILD_READY + " " + b.warmUp(url, threadCount));
      System.out.flush();
      for (String line = in.readLine(); line != null && line.equals("go"); line = in.readLine()) {
        Result r = b.measure(url, threadCount, b.seconds);
        System.out.printf(Locale.ROOT, "%s %s %s %s%n", CHILD_RESULT, r.perSecond, r.retried,
            r.totalKept);
        System.out.flush();
      }
    }
  }

  /** What a serving JVM prints once warmed up, then its warm-up seconds. */
  private static final String CHILD_READY = "tx-bench-ready";

  /** A JVM of its own running one side's measures on demand ({@link #serve}). */
  private final class Side implements AutoCloseable {
    private final ServingJvm jvm;
    final int warmUp;
    final List<Result> results = new ArrayList<>();

    /** Starts the JVM (the same class path and options) and waits until it has warmed up. */
    Side(String url, int threadCount) throws Exception {
      jvm = new ServingJvm(TxBench.class, List.of(url, String.valueOf(threadCount),
          String.valueOf(accounts), String.valueOf(seconds)), CHILD_READY);
      warmUp = Integer.parseInt(jvm.ready[0]);
    }

    /** Runs one measure there and waits for it. */
    Result run() throws Exception {
      String[] f = jvm.run("go", CHILD_RESULT);
      Result r = new Result(Double.parseDouble(f[0]), Double.parseDouble(f[1]),
          Boolean.parseBoolean(f[2]), warmUp);
      results.add(r);
      return r;
    }

    /** The median of the runs made so far (rate and retries; the total kept in all). */
    Result median() {
      return medianOf(results, warmUp);
    }

    @Override
    public void close() throws Exception {
      jvm.close(); // its input ends: it closes its database and exits
    }
  }

  private void report(String basalt, String h2) throws Exception {
    System.out.printf(Locale.ROOT, "bank transfers, %d accounts (Basalt: %d region%s), %d s per"
        + " run, median of %d runs (2 reads, 2 updates, commit)%n", accounts, regions,
        regions > 1 ? "s" : "", seconds, runs);
    System.out.printf(Locale.ROOT, "%-28s %12s %12s %8s %10s %8s %8s%n", "measure", "Basalt/s",
        "H2/s", "ratio", "retried", "total", "warm-up");
    for (int t : threads == 1 ? new int[] {1} : new int[] {1, threads}) {
      String of = t + " thread" + (t > 1 ? "s" : "");
      Side h2Side = fork ? new Side(h2, t) : null;
      Result h = fork ? null : medianHere(h2, t);
      for (String durability : List.of("ASYNC", "SYNC", "ASYNC auto-commit")) {
        boolean auto = durability.endsWith("auto-commit");
        String url = basalt + ";durability=" + durability.split(" ")[0]
            + (auto ? ";" + AUTO_COMMIT : "");
        Result b;
        double ratio;
        List<String> pairs = new ArrayList<>();
        double h2Rate;
        if (fork) {
          try (Side basaltSide = new Side(url, t)) {
            List<Double> ratios = new ArrayList<>();
            List<Result> h2Runs = new ArrayList<>();
            for (int r = 0; r < runs; r++) { // turns alternate who goes first
              boolean h2First = r % 2 == 0;
              Result hr = h2First ? h2Side.run() : null;
              Result br = basaltSide.run();
              if (!h2First) {
                hr = h2Side.run();
              }
              h2Runs.add(hr);
              ratios.add(br.perSecond / hr.perSecond);
              pairs.add(String.format(Locale.ROOT, "%.2f", ratios.get(r)));
            }
            b = basaltSide.median();
            h2Rate = medianOf(h2Runs, 0).perSecond;
            ratio = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray()[
                ratios.size() / 2];
          }
        } else {
          b = medianHere(url, t);
          h2Rate = h.perSecond;
          ratio = b.perSecond / h.perSecond;
        }
        System.out.printf(Locale.ROOT, "%-28s %12.0f %12.0f %7.2fx %9.2f%% %8s %7ds%n",
            "transfer " + durability + ", " + of, b.perSecond, h2Rate, ratio,
            100 * b.retried, b.totalKept ? "kept" : "CHANGED", b.warmUp);
        if (!pairs.isEmpty()) {
          System.out.println("  the pairs' ratios, in turn: " + pairs);
        }
      }
      if (fork) {
        h = h2Side.median();
        h2Side.close();
      }
      System.out.printf(Locale.ROOT, "%-28s %12s %12.0f %8s %9.2f%% %8s %7ds%n",
          "  (H2, " + of + ")", "", h.perSecond, "",
          100 * h.retried, h.totalKept ? "kept" : "CHANGED", h.warmUp);
    }
    System.out.println("ratio: Basalt transfers per second / H2's (above 1 = Basalt faster),"
        + (fork ? " the median of runs paired in turns;" : ";")
        + " retried: attempts run again after a conflict; auto-commit: the same statements"
        + " without a transaction (not a transfer: each update alone), the per-statement cost"
        + " under the transactions; warm-up: seconds of transfers run before the measure, until"
        + " the rate settled");
  }

  private void load(String url) throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      StringBuilder split = new StringBuilder();
      for (int r = 1; r < regions && url.startsWith("jdbc:basalt:"); r++) {
        split.append(split.length() == 0 ? " SPLIT ON (" : ", ").append(r * accounts / regions);
      }
      st.execute("CREATE TABLE acct (id INT PRIMARY KEY, bal BIGINT NOT NULL)" + split
          + (split.length() > 0 ? ")" : ""));
      c.setAutoCommit(false);
      try (PreparedStatement p = c.prepareStatement("INSERT INTO acct VALUES (?, ?)")) {
        for (int i = 0; i < accounts; i++) {
          p.setInt(1, i);
          p.setLong(2, START);
          p.addBatch();
          if (i % 1000 == 999) {
            p.executeBatch();
            c.commit();
          }
        }
        p.executeBatch();
        c.commit();
      }
    }
  }

  private Result medianHere(String url, int threadCount) throws Exception {
    int warmUp = warmUp(url, threadCount);
    List<Result> all = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      all.add(measure(url, threadCount, seconds));
    }
    return medianOf(all, warmUp);
  }

  /** The median rate and share retried of {@code all}, whether every run kept the total. */
  private static Result medianOf(List<Result> all, int warmUp) {
    double[] rates = all.stream().mapToDouble(Result::perSecond).sorted().toArray();
    double[] retries = all.stream().mapToDouble(Result::retried).sorted().toArray();
    boolean kept = all.stream().allMatch(Result::totalKept);
    return new Result(rates[rates.length / 2], retries[retries.length / 2], kept, warmUp);
  }

  /** Runs one-second slices until the rate settles (see the class comment); their count. */
  private int warmUp(String url, int threadCount) throws Exception {
    double best = 0;
    int flat = 0; // slices in a row no faster than 3% above the best before them
    for (int s = 1; s <= MAX_WARM_UP; s++) {
      double rate = measure(url, threadCount, 1).perSecond;
      flat = rate <= 1.03 * best ? flat + 1 : 0;
      best = Math.max(best, rate);
      if (s >= MIN_WARM_UP && flat >= 3) {
        return s;
      }
    }
    return MAX_WARM_UP;
  }

  private Result measure(String url, int threadCount, int secs) throws Exception {
    long before = total(url);
    AtomicLong done = new AtomicLong();
    AtomicLong retried = new AtomicLong();
    long deadline = System.nanoTime() + secs * 1_000_000_000L;
    List<Thread> workers = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int t = 0; t < threadCount; t++) {
      Random random = new Random(31L * t + secs);
      workers.add(new Thread(() -> {
        try {
          transfers(url, random, deadline, done, retried);
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    long start = System.nanoTime();
    workers.forEach(Thread::start);
    for (Thread w : workers) {
      w.join();
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    if (!failures.isEmpty()) {
      throw new IllegalStateException("a transfer thread failed on " + url, failures.get(0));
    }
    long attempts = done.get() + retried.get();
    return new Result(done.get() / elapsed, attempts == 0 ? 0 : (double) retried.get() / attempts,
        total(url) == before, 0);
  }

  private void transfers(String url, Random r, long deadline, AtomicLong done,
      AtomicLong retried) throws SQLException {
    boolean auto = url.endsWith(";" + AUTO_COMMIT);
    try (Connection c = DriverManager.getConnection(auto ? url.substring(0,
            url.length() - AUTO_COMMIT.length() - 1) : url);
        PreparedStatement read = c.prepareStatement("SELECT bal FROM acct WHERE id = ?");
        PreparedStatement write = c.prepareStatement("UPDATE acct SET bal = ? WHERE id = ?")) {
      c.setAutoCommit(auto);
      while (System.nanoTime() < deadline) {
        int from = r.nextInt(accounts);
        int to = (from + 1 + r.nextInt(accounts - 1)) % accounts;
        long amount = 1 + r.nextInt(100);
        try {
          long a = balance(read, from);
          long b = balance(read, to);
          update(write, from, a - amount);
          update(write, to, b + amount);
          if (!auto) {
            c.commit();
          }
          done.incrementAndGet();
        } catch (SQLException e) {
          if (!retryable(e)) {
            throw e;
          }
          c.rollback();
          retried.incrementAndGet();
        }
      }
    }
  }

  /** A conflict the application runs again: 40001, or H2's lock timeout (HYT00) or deadlock. */
  private static boolean retryable(SQLException e) {
    String s = e.getSQLState();
    return s != null && (s.equals("40001") || s.startsWith("HYT") || s.equals("50200"));
  }

  private static long balance(PreparedStatement read, int id) throws SQLException {
    read.setInt(1, id);
    try (ResultSet rs = read.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void update(PreparedStatement write, int id, long bal) throws SQLException {
    write.setLong(1, bal);
    write.setInt(2, id);
    write.executeUpdate();
  }

  private static long total(String url) throws SQLException {
    if (url.endsWith(";" + AUTO_COMMIT)) {
      url = url.substring(0, url.length() - AUTO_COMMIT.length() - 1);
    }
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT SUM(bal) FROM acct")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void deleteTree(Path p) throws java.io.IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (var walk = Files.walk(p)) {
      for (Path x : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(x);
      }
    }
  }
}
