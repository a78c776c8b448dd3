package io.basaltdb.jdbc.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's tour (run twice: versions and counters accumulate) and the admin subcommands. */
class ToolsTest {
  @TempDir
  Path dir;

  private static String capture(ThrowingRunnable r) throws Exception {
    PrintStream saved = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      r.run();
    } finally {
      System.setOut(saved);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void theDemoTourRunsTwiceOnTheSameData() throws Exception {
    String db = dir.resolve("db").toString();
    String first = capture(() -> Demo.main(new String[] {db}));
    assertTrue(first.contains("crawl 1: upserted 7 pages"), first);
    assertTrue(first.contains("keys=[HOST >= 'com.example.' AND HOST < 'com.example/'"), first);
    assertTrue(first.contains("com.example.www | / | 3"), first);
    assertTrue(first.contains("(regions=1 seeks=1 rows=4 cells=") // 4 pages of example.com
        && first.contains("Execution: 4 rows"), first);
    String second = capture(() -> Demo.main(new String[] {db}));
    assertTrue(second.contains("crawl 2: upserted 7 pages"), second);
    assertTrue(second.contains("com.example.www | / | 6"), second);
    assertTrue(second.contains("Example Domain (crawl 2)")
        && second.contains("Example Domain (crawl 1)"), second);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    assertEquals(0, AdminTool.run(new String[] {"flush", "WEB.PAGES", "--data", db}, o, e));
    assertEquals(0, AdminTool.run(new String[] {"compact", "WEB.PAGES", "--major", "--data", db},
        o, e));
    assertEquals(0, AdminTool.run(new String[] {"stats", "WEB.PAGES", "--data", db}, o, e));
    assertEquals(0, AdminTool.run(new String[] {"regions", "WEB.PAGES", "--data", db}, o, e));
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("regions        3") && text.contains("[CONTENT, STATS]"), text);
    assertEquals(1, AdminTool.run(new String[] {"stats", "NOPE", "--data", db}, o, e));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("no table NOPE"), err.toString());
    // without a table: the database's metrics (none where there is no database)
    assertEquals(1, AdminTool.run(new String[] {"stats", "--data", db + "-none"}, o, e));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("no database at"), err.toString());
    out.reset();
    assertEquals(0, AdminTool.run(new String[] {"stats", "--data", db}, o, e));
    java.util.regex.Matcher regions = java.util.regex.Pattern.compile(
        "(?m)^basalt_regions (\\d+)\\.0$").matcher(out.toString(StandardCharsets.UTF_8));
    assertTrue(regions.find() && Integer.parseInt(regions.group(1)) >= 3, // the table's 3 too
        out.toString(StandardCharsets.UTF_8));
  }

  /** verify-index: 0 on a consistent index; 1 naming the difference once an entry is lost. */
  @Test
  void verifyIndexFindsALostEntry() throws Exception {
    java.nio.file.Path db = dir.resolve("vdb");
    try (io.basaltdb.engine.Database d = io.basaltdb.engine.Database.open(db,
        io.basaltdb.engine.EngineOptions.defaults());
        java.sql.Connection c = io.basaltdb.sql.jdbc.BasaltConnections.open(d);
        java.sql.Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, a VARCHAR(10))");
      st.executeUpdate("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, NULL)");
      st.executeUpdate("CREATE INDEX ia ON t (a)");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    String[] args = {"verify-index", "T", "IA", "--data", db.toString()};
    assertEquals(0, AdminTool.run(args, o, e), err.toString());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("3 rows, 3 entries"), out.toString());
    try (io.basaltdb.engine.Database d = io.basaltdb.engine.Database.open(db,
        io.basaltdb.engine.EngineOptions.defaults())) {
      io.basaltdb.storage.Table index = d.table(io.basaltdb.storage.TableName.of("T.IA"));
      byte[] first;
      try (io.basaltdb.storage.ResultScanner s = index.getScanner(new io.basaltdb.storage.Scan())) {
        first = s.next().row();
      }
      index.delete(new io.basaltdb.storage.Delete(first));
    }
    out.reset();
    assertEquals(1, AdminTool.run(args, o, e));
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("1 rows without their entry") && text.contains("DIFFERENCES"), text);
    assertEquals(1, AdminTool.run(new String[] {"verify-index", "T", "NOPE", "--data",
        db.toString()}, o, e));
    assertEquals(2, AdminTool.run(new String[] {"verify-index", "T"}, o, e));
  }
}
