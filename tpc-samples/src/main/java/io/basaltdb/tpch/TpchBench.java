package io.basaltdb.tpch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * TPC-H end to end: generates and loads the data into Basalt (and H2 with
 * {@code --compare-h2}), runs the queries on each, compares the results and prints a table
 * (query, rows, Basalt time, H2 time, ratio, match), also written as CSV.
 *
 * <pre>
 * bin/basalt tpch [--sf 0.1] [--queries 1,3,6] [--compare-h2] [--dir bench-data] [--csv out.csv]
 *     [--threads n] [--h2-timeout seconds]
 * </pre>
 * Basalt loads with durability ASYNC; both databases live in files under {@code --dir}, deleted
 * at the end. {@code --h2-timeout} gives up on an H2 query after that long (H2 takes hours over
 * some queries at SF 1); its time then counts as the timeout, a lower bound. Large tables load
 * with {@code --threads} threads (default: one per core).
 */
public final class TpchBench {
  private TpchBench() {}

  public static void main(String[] args) throws Exception {
    double sf = 0.1;
    List<Integer> queries = new ArrayList<>();
    boolean h2 = false;
    Path dir = Path.of("bench-data");
    Path csv = null;
    int threads = Runtime.getRuntime().availableProcessors();
    int timeout = 0;
    String url = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--sf" -> sf = Double.parseDouble(args[++i]);
        case "--queries" -> {
          for (String q : args[++i].split(",")) {
            int n = Integer.parseInt(q.trim());
            if (n < 1 || n > 22) {
              throw new IllegalArgumentException("TPC-H queries are 1 to 22, got " + n);
            }
            queries.add(n);
          }
        }
        case "--compare-h2" -> h2 = true;
        case "--dir" -> dir = Path.of(args[++i]);
        case "--csv" -> csv = Path.of(args[++i]);
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--h2-timeout" -> timeout = Integer.parseInt(args[++i]);
        case "--url" -> url = args[++i];
        default -> {
          System.err.println("usage: basalt tpch [--sf 0.1] [--queries 1,3,6] [--compare-h2] "
              + "[--dir bench-data] [--csv out.csv] [--threads n] [--h2-timeout seconds]"
              + " [--url jdbc:basalt:hbase:...]");
          System.exit(args[i].equals("--help") ? 0 : 2);
        }
      }
    }
    if (queries.isEmpty()) {
      for (int q = 1; q <= 22; q++) {
        queries.add(q);
      }
    }
    Path base = dir.resolve("tpch-" + System.nanoTime()).toAbsolutePath();
    Files.createDirectories(base);
    Class.forName("io.basaltdb.jdbc.BasaltDriver");
    // a statement may hold two thirds of the heap (the default, a quarter, is too little for
    // the sorts of Q21's merge joins at scale factor 1 with -Xmx6g)
    // --url: the tables go to that storage (an HBase cluster), which must not have them yet
    String basaltUrl = (url != null ? url : "jdbc:basalt:" + base.resolve("basalt"))
        + ";durability=ASYNC;queryMemory=" + Runtime.getRuntime().maxMemory() / 3 * 2;
    String h2Url = "jdbc:h2:file:" + base.resolve("h2/db") + ";OPTIMIZE_REUSE_RESULTS=FALSE";
    try (Connection basalt = DriverManager.getConnection(basaltUrl);
        Connection ref = h2 ? DriverManager.getConnection(h2Url) : null) {
      System.out.printf(Locale.ROOT, "TPC-H at scale factor %s%n", sf);
      TpchLoader.warmUpGenerator();
      long t0 = System.nanoTime();
      TpchLoader lb = new TpchLoader(() -> DriverManager.getConnection(basaltUrl), true, sf,
          threads, System.err);
      lb.createTables(true);
      Map<String, Long> rows = lb.loadAll("basalt");
      double secs = (System.nanoTime() - t0) / 1e9;
      long total = rows.values().stream().mapToLong(Long::longValue).sum();
      System.out.printf(Locale.ROOT, "basalt load: %,d rows in %.1f s, %,.0f rows/s%n", total,
          secs, total / secs);
      if (ref != null) {
        long t1 = System.nanoTime();
        TpchLoader lh = new TpchLoader(() -> DriverManager.getConnection(h2Url), false, sf,
            threads, System.err);
        lh.createTables(false);
        lh.loadAll("h2");
        double hs = (System.nanoTime() - t1) / 1e9;
        System.out.printf(Locale.ROOT, "h2 load:     %,d rows in %.1f s, %,.0f rows/s%n", total,
            hs, total / hs);
      }
      List<String> csvLines = new ArrayList<>();
      Map<String, Double> ratios = new java.util.LinkedHashMap<>();
      csvLines.add("query,rows,basalt_ms,h2_ms,basalt_over_h2,match");
      System.out.printf(Locale.ROOT, "%-5s %8s %12s %12s %8s  %s%n", "query", "rows", "basalt ms",
          "h2 ms", "ratio", "match");
      double sumB = 0;
      double sumH = 0;
      boolean h2TimedOut = false;
      for (int q : queries) {
        long a = System.nanoTime();
        List<List<Object>> got = TpchQueries.run(basalt, q);
        double bms = (System.nanoTime() - a) / 1e6;
        sumB += bms;
        String hms = "";
        String ratio = "";
        String match = "";
        if (ref != null) {
          long c = System.nanoTime();
          List<List<Object>> expected;
          try {
            expected = TpchQueries.run(ref, q, timeout);
          } catch (java.sql.SQLException e) {
            if (timeout == 0 || !"57014".equals(e.getSQLState())) {
              throw e;
            }
            expected = null; // H2 gave up: its time is at least the timeout
            h2TimedOut = true;
          }
          double h = (System.nanoTime() - c) / 1e6;
          sumH += h;
          hms = String.format(Locale.ROOT, expected == null ? ">%.0f" : "%.0f", h);
          ratio = String.format(Locale.ROOT, expected == null ? "<%.2f" : "%.2f", bms / h);
          ratios.put("Q" + q, bms / h);
          String d = expected == null ? null : TpchQueries.difference(expected, got);
          match = expected == null ? "(H2 timed out)" : d == null ? "yes" : "NO: " + d;
        }
        System.out.printf(Locale.ROOT, "Q%-4d %8d %12.0f %12s %8s  %s%n", q, got.size(), bms, hms,
            ratio, match);
        csvLines.add(String.format(Locale.ROOT, "%d,%d,%.1f,%s,%s,%s", q, got.size(), bms, hms,
            ratio, match.startsWith("NO") ? "no" : match));
      }
      String atLeast = h2TimedOut ? ">" : "";
      System.out.printf(Locale.ROOT, "total %8s %12.0f %12s %8s%n", "", sumB,
          ref == null ? "" : String.format(Locale.ROOT, "%s%.0f", atLeast, sumH),
          ref == null ? "" : String.format(Locale.ROOT, "%s%.2f", h2TimedOut ? "<" : "",
              sumB / sumH));
      if (csv != null) {
        Files.write(csv, csvLines);
        System.out.println("wrote " + csv);
        if (!ratios.isEmpty()) {
          Path svg = io.basaltdb.bench.Charts.besideCsv(csv);
          io.basaltdb.bench.Charts.ratios(svg, "TPC-H at SF " + sf + ": Basalt vs H2", ratios,
              "Basalt/H2 time: below 1 = Basalt faster");
          System.out.println("wrote " + svg);
        }
      }
    } finally {
      io.basaltdb.engine.util.FileTrees.delete(io.basaltdb.engine.io.NioFileSystem.INSTANCE, base);
    }
  }
}
