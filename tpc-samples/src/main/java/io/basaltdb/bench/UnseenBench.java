package io.basaltdb.bench;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Statements never seen before (issue 40, item 6), as BI tools and sqllogictest-style suites
 * send them: a seeded script of distinct statements (CREATE TABLE and INDEX, literal INSERTs,
 * SELECTs with varied expressions, IN lists, BETWEEN, LIKE, CASE, aggregates with GROUP BY,
 * sub-queries over 10-row tables), every text different, run once through plain statements on
 * Basalt and on H2 (embedded files, one JVM). Reports each database's total time, the ratio, and
 * the statements whose answers differ (rows compared in order: every SELECT orders its rows)
 * or that fail on one side only; the seed replays the script.
 *
 * <pre>
 * bin/basalt bench unseen [--statements 10000] [--seed S] [--dir bench-data]
 * </pre>
 */
public final class UnseenBench {
  private static final int TABLES = 12;
  private static final int ROWS = 10;

  private final int statements;
  private final long seed;
  private final Path base;

  UnseenBench(int statements, long seed, Path base) {
    this.statements = statements;
    this.seed = seed;
    this.base = base;
  }

  public static void main(String[] args) throws Exception {
    int statements = 10_000;
    long seed = System.nanoTime();
    Path dir = Path.of("bench-data");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--statements" -> statements = Integer.parseInt(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("usage: bench unseen [--statements N]"
            + " [--seed S] [--dir D]");
      }
    }
    UnseenBench b = new UnseenBench(statements, seed, dir.resolve("unseen"));
    try {
      b.run();
    } finally {
      EngineBench.deleteRecursively(b.base);
    }
  }

  private void run() throws Exception {
    EngineBench.deleteRecursively(base);
    Files.createDirectories(base);
    System.out.printf(Locale.ROOT, "statements never seen before: %d, seed %d (replay: bin/basalt"
        + " bench unseen --statements %d --seed %d)%n", statements, seed, statements, seed);
    List<String> script = script(new Random(seed));
    Class.forName("io.basaltdb.jdbc.BasaltDriver");
    List<List<String>> basalt;
    List<List<String>> h2;
    long tb;
    long th;
    try (Connection c = DriverManager.getConnection("jdbc:basalt:" + base.resolve("basalt")
        + ";durability=ASYNC")) {
      long t0 = System.nanoTime();
      basalt = runAll(c, script);
      tb = System.nanoTime() - t0;
    }
    try (Connection c = DriverManager.getConnection("jdbc:h2:file:"
        + base.resolve("h2/db").toAbsolutePath())) {
      long t0 = System.nanoTime();
      h2 = runAll(c, script);
      th = System.nanoTime() - t0;
    }
    int differ = 0;
    int failedBoth = 0;
    long rows = 0;
    for (int i = 0; i < script.size(); i++) {
      if (basalt.get(i).equals(List.of("failed")) && h2.get(i).equals(List.of("failed"))) {
        failedBoth++;
      }
      rows += h2.get(i).size();
      if (!basalt.get(i).equals(h2.get(i))) {
        if (differ++ < 5) {
          System.out.println("differs: " + script.get(i) + "\n  basalt " + basalt.get(i)
              + "\n  h2     " + h2.get(i));
        }
      }
    }
    System.out.printf(Locale.ROOT, "%-28s %10s %10s %8s %9s%n", "measure", "Basalt s", "H2 s",
        "ratio", "differ");
    System.out.printf(Locale.ROOT, "%-28s %10.2f %10.2f %7.1fx %9d%n",
        script.size() + " unseen statements", tb / 1e9, th / 1e9, (double) tb / th, differ);
    System.out.printf(Locale.ROOT, "(%d rows or counts compared; %d statements failed on both"
        + " sides)%n", rows, failedBoth);
    System.out.println("ratio: Basalt time / H2's (below 1 = Basalt faster); differ: statements"
        + " whose rows, update count or failure differ between the two");
  }

  /** Each statement's answer: its rows, its update count, or the failure's first word. */
  private static List<List<String>> runAll(Connection c, List<String> script) {
    List<List<String>> out = new ArrayList<>(script.size());
    for (String sql : script) {
      List<String> answer = new ArrayList<>();
      try (Statement st = c.createStatement()) {
        if (st.execute(sql)) {
          try (ResultSet rs = st.getResultSet()) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
              StringBuilder row = new StringBuilder();
              for (int i = 1; i <= n; i++) {
                row.append(i == 1 ? "" : "|").append(value(rs.getObject(i)));
              }
              answer.add(row.toString());
            }
          }
        } else {
          answer.add("count " + st.getUpdateCount());
        }
      } catch (SQLException e) {
        answer.add("failed");
      }
      out.add(answer);
    }
    return out;
  }

  /** Numbers compared by value (2.50 and 2.5 alike), everything else as text. */
  private static String value(Object v) {
    if (v instanceof BigDecimal d) {
      return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }
    if (v instanceof Number n) {
      return new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
    }
    return String.valueOf(v);
  }

  /** The script: the tables and their rows, then {@link #statements} distinct statements. */
  private List<String> script(Random r) {
    List<String> s = new ArrayList<>();
    for (int t = 0; t < TABLES; t++) {
      s.add("CREATE TABLE u" + t + " (id INTEGER NOT NULL PRIMARY KEY, a INTEGER, b VARCHAR(20),"
          + " c DECIMAL(10, 2))");
      for (int i = 0; i < ROWS; i++) {
        s.add(insert(t, i, r));
      }
    }
    int next = ROWS;
    while (s.size() < statements) {
      int t = r.nextInt(TABLES);
      int kind = r.nextInt(20);
      if (kind == 0) {
        s.add(insert(t, next++, r));
      } else if (kind == 1 && s.size() % 7 == 0) {
        s.add("CREATE INDEX u" + t + "_a" + s.size() + " ON u" + t + " (a)");
      } else {
        s.add(select(t, r));
      }
    }
    return s;
  }

  private static String insert(int t, int id, Random r) {
    return "INSERT INTO u" + t + " VALUES (" + id + ", " + (r.nextInt(41) - 20) + ", 'v"
        + r.nextInt(1000) + "', " + r.nextInt(100000) / 100.0 + ")";
  }

  private static String select(int t, Random r) {
    String from = "u" + t;
    String other = "u" + r.nextInt(TABLES);
    String expr = switch (r.nextInt(6)) {
      case 0 -> "a + " + r.nextInt(100);
      case 1 -> "a * " + (r.nextInt(9) + 1) + " - " + r.nextInt(50);
      case 2 -> "CASE WHEN a > " + (r.nextInt(21) - 10) + " THEN 'hi' ELSE 'lo' END";
      case 3 -> "COALESCE(a, " + r.nextInt(10) + ") + id";
      case 4 -> "UPPER(b) || '" + r.nextInt(100) + "'";
      default -> "c + " + r.nextInt(1000) / 10.0;
    };
    String where = switch (r.nextInt(7)) {
      case 0 -> "a IN (" + r.nextInt(20) + ", " + (r.nextInt(21) - 10) + ", " + r.nextInt(5)
          + ")";
      case 1 -> "a BETWEEN " + (r.nextInt(21) - 20) + " AND " + r.nextInt(21);
      case 2 -> "b LIKE 'v" + r.nextInt(10) + "%'";
      case 3 -> "c > " + r.nextInt(1000);
      case 4 -> "a IN (SELECT a FROM " + other + " WHERE id < " + r.nextInt(ROWS) + ")";
      case 5 -> "a > (SELECT MIN(a) FROM " + other + ") + " + r.nextInt(10);
      default -> "id <> " + r.nextInt(ROWS);
    };
    if (r.nextInt(4) == 0) {
      return "SELECT a, COUNT(*), SUM(id + " + r.nextInt(1000) + ") FROM " + from + " WHERE "
          + where + " GROUP BY a ORDER BY a";
    }
    return "SELECT id, " + expr + " FROM " + from + " WHERE " + where + " ORDER BY id";
  }
}
