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
 * benches) and against H2's TCP server (its own client) running the same code; both servers
 * in this process, each with its default limits, on loopback; each warmed up by one untimed
 * run of every measure (Jetty, protobuf and Avatica's code take a while to compile: a point
 * SELECT took 120 us at first, 40 us once compiled). For each measure and client
 * count: operations per second (the median of {@code --runs} alternated runs), the latency of
 * one operation at the median and the 99th percentile (of the run with the median rate), and
 * the operations refused or failed (none expected).
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

  /** One run: operations per second, latency percentiles (us), operations failed. */
  private record Result(double perSecond, double p50, double p99, long failed) {}

  private void run() throws Exception {
    EngineBench.deleteRecursively(base);
    Files.createDirectories(base);
    Class.forName("org.apache.calcite.avatica.remote.Driver");
    Class.forName("org.h2.Driver");
    try (BasaltServer basaltServer = BasaltServer.start(new BasaltServer.Options(
        base.resolve("basalt"), 0, "127.0.0.1", null, false))) {
      org.h2.tools.Server h2Server = org.h2.tools.Server.createTcpServer("-tcpPort", "0",
          "-baseDir", base.resolve("h2").toAbsolutePath().toString(), "-ifNotExists").start();
      try {
        Properties async = new Properties();
        async.setProperty("durability", "ASYNC");
        Side basalt = new Side("Basalt", "jdbc:avatica:remote:url=http://127.0.0.1:"
            + basaltServer.port() + ";serialization=protobuf", async,
            "UPSERT INTO kv (id, val, pad) VALUES (?, ?, ?)");
        Side h2 = new Side("H2", "jdbc:h2:tcp://127.0.0.1:" + h2Server.getPort() + "/bench",
            new Properties(), "MERGE INTO kv (id, val, pad) KEY (id) VALUES (?, ?, ?)");
        for (Side s : List.of(basalt, h2)) {
          load(s);
          for (boolean writes : new boolean[] {false, true}) { // JIT warm-up, untimed
            for (int n : clients) {
              measure(s, n, writes);
            }
          }
        }
        report(basalt, h2);
      } finally {
        h2Server.stop();
      }
    }
  }

  private void load(Side s) throws SQLException {
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
    System.out.printf(Locale.ROOT, "%s: %d rows loaded through its server in %.1f s%n",
        s.name(), rows, (System.nanoTime() - t0) / 1e9);
  }

  private void report(Side basalt, Side h2) throws Exception {
    System.out.printf(Locale.ROOT, "remote clients, %d rows, %d s per run, median of %d runs"
        + "%n", rows, seconds, runs);
    System.out.printf(Locale.ROOT, "%-28s %10s %10s %7s %17s %17s %7s%n", "measure",
        "Basalt/s", "H2/s", "ratio", "Basalt p50/p99 us", "H2 p50/p99 us", "failed");
    for (boolean writes : new boolean[] {false, true}) {
      for (int n : clients) {
        List<Result> b = new ArrayList<>();
        List<Result> h = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
          b.add(measure(basalt, n, writes));
          h.add(measure(h2, n, writes));
        }
        Result mb = median(b);
        Result mh = median(h);
        System.out.printf(Locale.ROOT, "%-28s %10.0f %10.0f %6.2fx %8.0f/%-8.0f %8.0f/%-8.0f %7d%n",
            (writes ? "upsert, " : "point SELECT, ") + n + " client" + (n == 1 ? "" : "s"),
            mb.perSecond(), mh.perSecond(), mb.perSecond() / mh.perSecond(), mb.p50(), mb.p99(),
            mh.p50(), mh.p99(), b.stream().mapToLong(Result::failed).sum()
                + h.stream().mapToLong(Result::failed).sum());
      }
    }
    System.out.println("ratio: Basalt operations per second / H2's (above 1 = Basalt faster);"
        + " latency of one operation in microseconds; failed: operations refused or failed on"
        + " either side over all runs");
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
    try {
      for (int i = 0; i < n; i++) {
        connections.add(side.connect());
      }
      long seed = System.nanoTime();
      long end = System.nanoTime() + seconds * 1_000_000_000L;
      List<Future<long[]>> done = new ArrayList<>();
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        Connection c = connections.get(i);
        Random random = new Random(seed + i);
        done.add(pool.submit(() -> clientLoop(c, side, writes, random, end, failed)));
      }
      List<long[]> latencies = new ArrayList<>();
      long ops = 0;
      for (Future<long[]> f : done) {
        long[] l = f.get();
        latencies.add(l);
        ops += l.length;
      }
      double elapsed = (System.nanoTime() - t0) / 1e9;
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
      return new Result(ops / elapsed, p50, p99, failed.get());
    } finally {
      pool.shutdown();
      for (Connection c : connections) {
        c.close();
      }
    }
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
