package io.basaltdb.engine.tool;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.Database;
import io.basaltdb.storage.Delete;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.RegionInfo;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The engine's own tour, through its client API alone ({@code bin/basalt engine-demo}; the SQL
 * tour, {@code bin/basalt demo}, is Basalt's main job): opens (or creates) an embedded database,
 * creates a pre-split web table with two families, writes versioned page cells and counters,
 * flushes, deletes, major-compacts, reads back versions and a key range, and prints each step.
 *
 * <p>Usage: {@code Demo [directory]} (default {@code ./basalt-data}).
 */
public final class Demo {
  private static final byte[] PAGE = b("page");
  private static final byte[] STATS = b("stats");
  private static final byte[] TITLE = b("title");
  private static final byte[] VISITS = b("visits");

  private Demo() {}

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String s(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  public static void main(String[] args) {
    Path dir = Path.of(args.length > 0 ? args[0] : "basalt-data");
    TableName webtable = TableName.of("demo:webtable");
    long t0 = System.nanoTime();
    try (Database db = Database.open(dir, EngineOptions.defaults())) {
      var replay = db.replayStats();
      System.out.printf("opened %s (read %d WAL edits from %d segments)%n",
          dir.toAbsolutePath(), replay.edits(), replay.segments());
      if (!db.admin().tableExists(webtable)) {
        if (!db.admin().listNamespaces().contains("demo")) {
          db.admin().createNamespace("demo");
        }
        Map<String, FamilyOptions> families = new LinkedHashMap<>();
        families.put("page", FamilyOptions.DEFAULT.withVersions(3, 0));
        families.put("stats", FamilyOptions.DEFAULT);
        db.admin().createTable(new TableDescriptor(webtable, families),
            new byte[][] {b("com.z"), b("org.m")});
        System.out.println("created table demo:webtable, pre-split at 'com.z' and 'org.m'");
      }
      Table t = db.table(webtable);

      long base = System.currentTimeMillis();
      String[] urls = {"com.example/", "com.example/about", "org.apache/hbase",
          "org.apache/calcite", "org.wikipedia/LSM"};
      for (int v = 0; v < 4; v++) {
        for (String u : urls) {
          t.put(new Put(b(u)).addColumn(PAGE, TITLE, base + v, b(u + " title v" + v)));
          t.increment(new Increment(b(u)).addColumn(STATS, VISITS, 10));
        }
      }
      System.out.printf("wrote %d rows x 4 versions and counted 4 visits each (SYNC writes)%n",
          urls.length);
      db.admin().flush(webtable);
      t.delete(new Delete(b("com.example/about")).addColumns(PAGE, TITLE));
      t.put(new Put(b("org.apache/hbase")).addColumn(PAGE, TITLE, base + 10, b("HBase, newest")));
      db.admin().majorCompact(webtable);
      for (RegionInfo r : db.admin().regions(webtable)) {
        System.out.printf("region [%s, %s): %d file(s), %d bytes%n", s(r.startRow()),
            s(r.endRow()), r.stats().fileCount(), r.stats().fileBytes());
      }

      System.out.println("versions of org.apache/hbase page:title (VERSIONS=3 keeps three):");
      for (Cell c : t.get(new Get(b("org.apache/hbase")).addColumn(PAGE, TITLE).readVersions(10))
          .cells()) {
        System.out.printf("  @%d = %s%n", c.timestamp(), s(c.value()));
      }
      System.out.println("scan of rows with prefix 'org.' (crosses a region boundary):");
      try (ResultScanner sc = t.getScanner(new Scan().setRowPrefix(b("org.")))) {
        for (Result r : sc) {
          System.out.printf("  %s: title=%s visits=%d%n", s(r.row()), s(r.getValue(PAGE, TITLE)),
              Increment.toLong(r.getValue(STATS, VISITS)));
        }
      }
      Result about = t.get(new Get(b("com.example/about")));
      System.out.printf("com.example/about after deleting page:title: %d cell(s) left (stats)%n",
          about.size());
    }
    System.out.printf("closed cleanly in %.0f ms; run again to see the data reopened%n",
        (System.nanoTime() - t0) / 1e6);
  }
}
