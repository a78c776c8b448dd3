package io.basaltdb.bench;

import io.basaltdb.jdbc.server.BasaltServer;
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
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many clients of a server (issue 40): N remote clients, each its own connection and thread,
 * run prepared point SELECTs, then single-row upserts, against {@code bin/basalt server}'s
 * Avatica protocol (protobuf, the stock Avatica client, {@code durability=ASYNC} as the other
 * benches) and against H2's TCP server (its own client) running the same code; each server
 * with its default limits, on loopback, in a JVM of its own with its clients ({@link
 * ServingJvm}): in one JVM, Basalt's remote point SELECT measured after H2 had run there read
 * 2-6k/s against 11-12k/s alone (the JIT's profiles of the code both clients share, sockets
 * included, polluted by the other driver). Each side is warmed up by two untimed runs of every
 * measure (Jetty, protobuf and Avatica's code take a while to compile: a point SELECT took 120
 * us at first, 40 us once compiled); then the two take turns, one idle while the other runs.
 * For each measure and client count: operations per second (the median of each side's
 * {@code --runs} runs; the ratio the median of the pairs' ratios), the latency of one
 * operation at the median and the 99th percentile (of the run with the median rate), and the
 * operations refused or failed (none expected), and the CPU an operation cost the server, the
 * clients and the whole process: with clients and server sharing two cores, the clients'
 * share bounds what any server could reach, so the server's own cost is reported apart.
 *
 * <pre>
 * bin/basalt bench server [--rows 100000] [--seconds 5] [--clients 1,4,16] [--runs 3]
 *                         [--dir bench-data]
 * </pre>
 *
 * Table {@code kv(id BIGINT PRIMARY KEY, val BIGINT, pad VARCHAR(100))}; ids are random over the
 * loaded rows; H2 upserts with {@code MERGE INTO ... KEY (id)}, Basalt with {@code UPSERT}.
 */
public final class ServerBench {
  private final int rows;
  private final int seconds;
  private final int[] clients;
  private final int runs;
  private final Path base;

  ServerBench(int rows, int seconds, int[] clients, int runs, Path base) {
    this.rows = rows;
    this.seconds = seconds;
    this.clients = clients;
    this.runs = runs;
    this.base = base;
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--serve")) {
      serve(args);
      return;
    }
    int rows = 100_000;
    int seconds = 5;
    int[] clients = {1, 4, 16};
    int runs = 3;
    Path dir = Path.of("bench-data");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rows" -> rows = Integer.parseInt(args[++i]);
        case "--seconds" -> seconds = Integer.parseInt(args[++i]);
        case "--clients" -> clients = Arrays.stream(args[++i].split(","))
            .mapToInt(Integer::parseInt).toArray();
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("usage: bench server [--rows N]"
            + " [--seconds S] [--clients 1,4,16] [--runs R] [--dir D]");
      }
    }
    ServerBench b = new ServerBench(rows, seconds, clients, runs, dir.resolve("server"));
    try {
      b.run();
    } finally {
      EngineBench.deleteRecursively(b.base);
    }
  }

  /** One side: how its clients connect, and its upsert. */
  private record Side(String name, String url, Properties properties, String upsert) {
    Connection connect() throws SQLException {
      return DriverManager.getConnection(url, properties);
    }
  }

  /**
   * One measure's rate, latencies and failures, and the CPU it cost per operation, in
   * microseconds: of the server (every Java thread but the clients': Jetty's or H2's server
   * threads, the engine's background threads), of the clients, and of the whole process (the
   * JIT's compiler threads and the garbage collector included).
   */
  private record Result(double perSecond, double p50, double p99, long failed, double serverUs,
      double clientUs, double processUs) {}

  /**
   * Untimed runs of every measure before the timed ones: after one, Basalt's first timed pair
   * still read 0.10x against 0.30-0.40x for the next (its JVM was still compiling).
   */
  private static final int WARM_UP_ROUNDS = 2;

  /** What a serving JVM prints once loaded and warmed up, then its load's seconds. */
  private static final String READY = "server-bench-ready";
  /** What it prints after a measure, then the measure's result. */
  private static final String RESULT = "server-bench-result";

  private void run() throws Exception {
    EngineBench.deleteRecursively(base);
    Files.createDirectories(base);
    try (Serving basalt = new Serving("Basalt"); Serving h2 = new Serving("H2")) {
      report(basalt, h2);
    }
  }

  /** One side's server and clients in a JVM of its own ({@link ServingJvm}), loaded and warm. */
  private final class Serving implements AutoCloseable {
    private final ServingJvm jvm;

    Serving(String name) throws Exception {
      jvm = new ServingJvm(ServerBench.class, List.of(name, String.valueOf(rows),
          String.valueOf(seconds), Arrays.stream(clients).mapToObj(String::valueOf)
              .collect(java.util.stream.Collectors.joining(",")), base.toString()), READY);
      System.out.printf(Locale.ROOT, "%s: %d rows loaded through its server in %s s%n", name,
          rows, jvm.ready[0]);
    }

    /** Runs one measure there and waits for it. */
    Result measure(int n, boolean writes) throws Exception {
      String[] f = jvm.run(n + " " + writes, RESULT);
      return new Result(Double.parseDouble(f[0]), Double.parseDouble(f[1]),
          Double.parseDouble(f[2]), Long.parseLong(f[3]), Double.parseDouble(f[4]),
          Double.parseDouble(f[5]), Double.parseDouble(f[6]));
    }

    @Override
    public void close() throws Exception {
      jvm.close();
    }
  }

  /**
   * One side in a JVM of its own, for a parent bench: {@code --serve Basalt|H2 ROWS SECONDS
   * CLIENTS DIR}. Starts that side's server, loads it, runs every measure once untimed, says
   * {@link #READY} and its load's seconds, then runs one measure per line read ({@code CLIENTS
   * WRITES}), printing its result, until its input ends.
   */
  private static void serve(String[] a) throws Exception {
    ServerBench b = new ServerBench(Integer.parseInt(a[2]), Integer.parseInt(a[3]),
        Arrays.stream(a[4].split(",")).mapToInt(Integer::parseInt).toArray(), 1, Path.of(a[5]));
    if (a[1].equals("Basalt")) {
      Class.forName("org.apache.calcite.avatica.remote.Driver");
      try (BasaltServer server = BasaltServer.start(new BasaltServer.Options(
          b.base.resolve("basalt"), 0, "127.0.0.1", null, false))) {
        Properties async = new Properties();
        async.setProperty("durability", "ASYNC");
        b.serve(new Side("Basalt", "jdbc:avatica:remote:url=http://127.0.0.1:"
            + server.port() + ";serialization=protobuf", async,
            "UPSERT INTO kv (id, val, pad) VALUES (?, ?, ?)"));
      }
    } else {
      Class.forName("org.h2.Driver");
      org.h2.tools.Server server = org.h2.tools.Server.createTcpServer("-tcpPort", "0",
          "-baseDir", b.base.resolve("h2").toAbsolutePath().toString(), "-ifNotExists").start();
      try {
        b.serve(new Side("H2", "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/bench",
            new Properties(), "MERGE INTO kv (id, val, pad) KEY (id) VALUES (?, ?, ?)"));
      } finally {
        server.stop();
      }
    }
  }

  private void serve(Side s) throws Exception {
    double loadSeconds = load(s);
    for (int round = 0; round < WARM_UP_ROUNDS; round++) { // JIT warm-up, untimed
      for (boolean writes : new boolean[] {false, true}) {
        for (int n : clients) {
          measure(s, n, writes);
        }
      }
    }
    System.out.printf(Locale.ROOT, "%s %.1f%n", READY, loadSeconds);
    System.out.flush();
    java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(
        System.in, java.nio.charset.StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] f = line.trim().split(" ");
      Result r = measure(s, Integer.parseInt(f[0]), Boolean.parseBoolean(f[1]));
      System.out.printf(Locale.ROOT, "%s %s %s %s %d %s %s %s%n", RESULT, r.perSecond(), r.p50(),
          r.p99(), r.failed(), r.serverUs(), r.clientUs(), r.processUs());
      System.out.flush();
    }
  }

  /** Creates and fills the table through {@code s}'s server: the seconds it took. */
  private double load(Side s) throws SQLException {
    long t0 = System.nanoTime();
    try (Connection c = s.connect(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE kv (id BIGINT NOT NULL PRIMARY KEY, val BIGINT,"
          + " pad VARCHAR(100))");
      try (PreparedStatement p = c.prepareStatement(s.upsert())) {
        for (int i = 0; i < rows; i++) {
          p.setLong(1, i);
          p.setLong(2, i * 7L);
          p.setString(3, "pad-" + i);
          p.addBatch();
          if (i % 1000 == 999 || i == rows - 1) {
            p.executeBatch();
          }
        }
      }
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  private void report(Serving basalt, Serving h2) throws Exception {
    System.out.printf(Locale.ROOT, "remote clients, %d rows, %d s per run, median of %d runs"
        + " paired in turns%n", rows, seconds, runs);
    System.out.printf(Locale.ROOT, "%-28s %10s %10s %7s %17s %17s %7s %21s %21s%n", "measure",
        "Basalt/s", "H2/s", "ratio", "Basalt p50/p99 us", "H2 p50/p99 us", "failed",
        "Basalt CPU us/op", "H2 CPU us/op");
    for (boolean writes : new boolean[] {false, true}) {
      for (int n : clients) {
        List<Result> b = new ArrayList<>();
        List<Result> h = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        for (int r = 0; r < runs; r++) { // turns alternate who goes first
          boolean h2First = r % 2 == 1;
          Result hr = h2First ? h2.measure(n, writes) : null;
          Result br = basalt.measure(n, writes);
          if (!h2First) {
            hr = h2.measure(n, writes);
          }
          b.add(br);
          h.add(hr);
          ratios.add(br.perSecond() / hr.perSecond());
        }
        Result mb = median(b);
        Result mh = median(h);
        double ratio = ratios.stream().mapToDouble(Double::doubleValue).sorted()
            .toArray()[ratios.size() / 2];
        System.out.printf(Locale.ROOT, "%-28s %10.0f %10.0f %6.2fx %8.0f/%-8.0f %8.0f/%-8.0f %7d"
            + " %21s %21s%n",
            (writes ? "upsert, " : "point SELECT, ") + n + " client" + (n == 1 ? "" : "s"),
            mb.perSecond(), mh.perSecond(), ratio, mb.p50(), mb.p99(),
            mh.p50(), mh.p99(), b.stream().mapToLong(Result::failed).sum()
                + h.stream().mapToLong(Result::failed).sum(), cpu(mb), cpu(mh));
        if (runs > 1) {
          System.out.println("  the pairs' ratios, in turn: " + ratios.stream()
              .map(x -> String.format(Locale.ROOT, "%.2f", x)).toList());
        }
      }
    }
    System.out.println("ratio: Basalt operations per second / H2's (above 1 = Basalt faster),"
        + " the median of runs paired in turns (each side in a JVM of its own); latency of one"
        + " operation in microseconds; failed: operations refused or failed on either side over"
        + " all runs; CPU us/op: server/clients/process, CPU microseconds per operation of the"
        + " server's threads (every Java thread but the clients'), of the clients' threads and of"
        + " the whole process (JIT and GC included), in the run with the median rate");
  }

  /** A result's CPU per operation: server/clients/process, in microseconds. */
  private static String cpu(Result r) {
    return String.format(Locale.ROOT, "%.1f/%.1f/%.1f", r.serverUs(), r.clientUs(),
        r.processUs());
  }

  private static Result median(List<Result> results) {
    List<Result> sorted = new ArrayList<>(results);
    sorted.sort((x, y) -> Double.compare(x.perSecond(), y.perSecond()));
    return sorted.get(sorted.size() / 2);
  }

  /** {@code n} clients for {@link #seconds}, each on its own connection (opened before). */
  private Result measure(Side side, int n, boolean writes) throws Exception {
    List<Connection> connections = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(n);
    AtomicLong failed = new AtomicLong();
    java.util.Set<Long> clientThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    try {
      for (int i = 0; i < n; i++) {
        connections.add(side.connect());
      }
      java.util.Map<Long, Long> cpuBefore = threadCpu();
      long processBefore = processCpu();
      long seed = System.nanoTime();
      long end = System.nanoTime() + seconds * 1_000_000_000L;
      List<Future<long[]>> done = new ArrayList<>();
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        Connection c = connections.get(i);
        Random random = new Random(seed + i);
        done.add(pool.submit(() -> {
          clientThreads.add(Thread.currentThread().getId());
          return clientLoop(c, side, writes, random, end, failed);
        }));
      }
      List<long[]> latencies = new ArrayList<>();
      long ops = 0;
      for (Future<long[]> f : done) {
        long[] l = f.get();
        latencies.add(l);
        ops += l.length;
      }
      double elapsed = (System.nanoTime() - t0) / 1e9;
      long processNanos = processCpu() - processBefore;
      long serverNanos = 0;
      long clientNanos = 0;
      for (java.util.Map.Entry<Long, Long> t : threadCpu().entrySet()) {
        long used = t.getValue() - cpuBefore.getOrDefault(t.getKey(), 0L);
        if (clientThreads.contains(t.getKey())) {
          clientNanos += used;
        } else {
          serverNanos += used;
        }
      }
      double perOp = 1e3 * Math.max(ops, 1); // CPU ns per operation, in microseconds
      long[] all = new long[(int) ops];
      int at = 0;
      for (long[] l : latencies) {
        System.arraycopy(l, 0, all, at, l.length);
        at += l.length;
      }
      Arrays.sort(all);
      double p50 = all.length == 0 ? 0 : all[all.length / 2] / 1e3;
      double p99 = all.length == 0 ? 0 : all[Math.min(all.length - 1,
          (int) (all.length * 0.99))] / 1e3;
      return new Result(ops / elapsed, p50, p99, failed.get(), serverNanos / perOp,
          clientNanos / perOp, processNanos / perOp);
    } finally {
      pool.shutdown();
      for (Connection c : connections) {
        c.close();
      }
    }
  }

  /** CPU nanoseconds each live Java thread has used, by thread id. */
  private static java.util.Map<Long, Long> threadCpu() {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory
        .getThreadMXBean();
    java.util.Map<Long, Long> cpu = new java.util.HashMap<>();
    for (long id : mx.getAllThreadIds()) {
      long t = mx.getThreadCpuTime(id);
      if (t >= 0) {
        cpu.put(id, t);
      }
    }
    return cpu;
  }

  /** CPU nanoseconds this process has used, every thread of the JVM included. */
  private static long processCpu() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** One client's operations until {@code end}: the latency of each, in nanoseconds. */
  private long[] clientLoop(Connection c, Side side, boolean writes, Random random, long end,
      AtomicLong failed) throws SQLException {
    long[] latencies = new long[1 << 16];
    int count = 0;
    try (PreparedStatement p = c.prepareStatement(writes ? side.upsert()
        : "SELECT val, pad FROM kv WHERE id = ?")) {
      long now = System.nanoTime();
      while (now < end) {
        long id = random.nextInt(rows);
        long t = now;
        try {
          p.setLong(1, id);
          if (writes) {
            p.setLong(2, random.nextLong());
            p.setString(3, "pad-" + id);
            p.executeUpdate();
          } else {
            try (ResultSet rs = p.executeQuery()) {
              if (!rs.next()) {
                throw new SQLException("row " + id + " missing on " + side.name());
              }
            }
          }
        } catch (SQLException e) {
          if (failed.incrementAndGet() == 1) {
            System.err.println(side.name() + ": " + e);
          }
        }
        now = System.nanoTime();
        if (count == latencies.length) {
          latencies = Arrays.copyOf(latencies, count * 2);
        }
        latencies[count++] = now - t;
      }
    }
    return Arrays.copyOf(latencies, count);
  }
}
