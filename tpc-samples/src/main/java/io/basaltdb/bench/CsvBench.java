package io.basaltdb.bench;

import io.basaltdb.jdbc.csv.CsvLoad;
import io.basaltdb.jdbc.csv.CsvOptions;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * CSV import (issue 42): one file of {@code --rows} records (an INTEGER key, two texts, one
 * with a quoted comma, a DECIMAL(10,2), a DATE) loaded into the same table by Basalt's {@code
 * bin/basalt load} ({@link CsvLoad}, embedded; {@code --durability}, ASYNC by default: the log
 * synced by the engine's background, not per batch, as H2's single statement does not sync per
 * row either) and by
 * H2's {@code INSERT INTO t SELECT * FROM CSVREAD(file)} into an H2 file database, each into a
 * fresh database per run. The two take turns in this JVM (H2, Basalt, then Basalt, H2, ...) so
 * each pair meets the machine in the same state; reported: each side's median rows/s and the
 * median of the pairs' ratios. Each load is checked: its row count and the sum of its DECIMAL
 * column read back must be the file's.
 *
 * <pre>
 * bin/basalt bench csv [--rows 1000000] [--runs 3] [--dir D] [--durability SYNC|ASYNC]
 *     [--parallel N]   (N senders, bin/basalt load's --parallel; default 1)
 * </pre>
 */
public final class CsvBench {
  private CsvBench() {}

  public static void main(String[] args) throws Exception {
    int rows = 1_000_000;
    int runs = 3;
    Path dir = Path.of("target", "csv-bench");
    String durability = "ASYNC";
    int parallel = 1;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rows" -> rows = Integer.parseInt(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        case "--durability" -> durability = args[++i];
        case "--parallel" -> parallel = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + " (known: --rows N, --runs R, --dir D, --durability SYNC|ASYNC, --parallel N)");
      }
    }
    Files.createDirectories(dir);
    Path file = dir.resolve("rows.csv");
    long cents = write(file, rows);
    System.out.printf("file: %,d rows, %,d bytes%n", rows, Files.size(file));
    List<Double> basalt = new ArrayList<>();
    List<Double> h2 = new ArrayList<>();
    List<Double> ratios = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      double b;
      double h;
      if (run % 2 == 0) {
        h = h2(dir, file, rows, cents, run);
        b = basalt(dir, file, rows, cents, run, durability, parallel);
      } else {
        b = basalt(dir, file, rows, cents, run, durability, parallel);
        h = h2(dir, file, rows, cents, run);
      }
      System.out.printf(Locale.ROOT, "run %d: Basalt %,.0f rows/s, H2 %,.0f rows/s (%.2fx)%n",
          run + 1, b, h, b / h);
      basalt.add(b);
      h2.add(h);
      ratios.add(b / h);
    }
    System.out.printf(Locale.ROOT, "CSV load of %,d rows, medians of %d runs: Basalt (%s) %,.0f"
        + " rows/s, H2 CSVREAD %,.0f rows/s, Basalt/H2 %.2fx (median of the pairs' ratios)%n",
        rows, runs, durability + (parallel > 1 ? ", " + parallel + " senders" : ""),
        median(basalt), median(h2), median(ratios));
  }

  /** Writes the file; the sum of its DECIMAL column, in cents. */
  private static long write(Path file, int rows) throws IOException {
    long cents = 0;
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write("id,name,note,amount,due\r\n");
      for (int i = 1; i <= rows; i++) {
        long c = (i % 100_000) * 100L + i % 100;
        cents += c;
        w.write(i + ",\"name " + i % 1000 + "\",\"a note, with a comma " + i + "\","
            + c / 100 + "." + String.format(Locale.ROOT, "%02d", c % 100) + ",2024-"
            + String.format(Locale.ROOT, "%02d-%02d", 1 + i % 12, 1 + i % 28) + "\r\n");
      }
    }
    return cents;
  }

  private static final String TABLE = "CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR(20),"
      + " note VARCHAR(40), amount DECIMAL(10, 2), due DATE)";

  private static double basalt(Path dir, Path file, int rows, long cents, int run,
      String durability, int parallel) throws Exception {
    Path db = dir.resolve("basalt-" + run);
    String url = "jdbc:basalt:" + db + ";durability=" + durability;
    try (Connection c = DriverManager.getConnection(url)) {
      try (Statement st = c.createStatement()) {
        st.execute(TABLE);
      }
      List<Connection> senders = new ArrayList<>();
      for (int i = 0; parallel > 1 && i < parallel; i++) {
        senders.add(DriverManager.getConnection(url));
      }
      long t0 = System.nanoTime();
      try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        new CsvLoad(c, "t", CsvOptions.DEFAULTS, null, null, false, 0, null, null)
            .parallel(senders).load(in);
      } finally {
        for (Connection s : senders) {
          s.close();
        }
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      check(c, "Basalt", rows, cents);
      return rows / seconds;
    } finally {
      EngineBench.deleteRecursively(db);
    }
  }

  private static double h2(Path dir, Path file, int rows, long cents, int run)
      throws Exception {
    Path db = dir.resolve("h2-" + run);
    try (Connection c = DriverManager.getConnection("jdbc:h2:" + db.toAbsolutePath())) {
      try (Statement st = c.createStatement()) {
        st.execute(TABLE);
        long t0 = System.nanoTime();
        st.executeUpdate("INSERT INTO t SELECT * FROM CSVREAD('" + file.toAbsolutePath()
            + "', NULL, 'charset=UTF-8')");
        double seconds = (System.nanoTime() - t0) / 1e9;
        check(c, "H2", rows, cents);
        return rows / seconds;
      }
    } finally {
      Files.deleteIfExists(Path.of(db + ".mv.db"));
      Files.deleteIfExists(Path.of(db + ".trace.db"));
    }
  }

  private static void check(Connection c, String who, int rows, long cents) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(amount) FROM t")) {
      rs.next();
      long n = rs.getLong(1);
      long sum = rs.getBigDecimal(2).movePointRight(2).longValueExact();
      if (n != rows || sum != cents) {
        throw new IllegalStateException(who + " loaded " + n + " rows summing " + sum
            + " cents; the file has " + rows + " rows summing " + cents);
      }
    }
  }

  private static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    Collections.sort(s);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }
}
