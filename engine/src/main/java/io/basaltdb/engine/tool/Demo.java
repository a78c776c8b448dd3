package io.basaltdb.engine.tool;

import io.basaltdb.engine.Cell;
import io.basaltdb.engine.CellType;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.FamilyOptions;
import io.basaltdb.engine.region.ReadSpec;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.region.RegionDescriptor;
import io.basaltdb.engine.region.RegionScanner;
import io.basaltdb.engine.store.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Basalt's main job until the SQL layer exists: opens (or creates) an embedded database,
 * writes versioned page-visit cells, flushes, overwrites and deletes, compacts, reads back
 * versions and a key range, and prints what it did at each step.
 *
 * <p>Usage: {@code Demo [directory]} (default {@code ./basalt-data}).
 */
public final class Demo {
  private Demo() {}

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static void main(String[] args) {
    Path dir = Path.of(args.length > 0 ? args[0] : "basalt-data");
    Map<String, FamilyOptions> families = new LinkedHashMap<>();
    families.put("page", FamilyOptions.DEFAULT.withVersions(3, 0));
    families.put("stats", FamilyOptions.DEFAULT);
    long t0 = System.nanoTime();
    try (Database db = Database.open(dir, EngineOptions.defaults(),
        List.of(RegionDescriptor.whole("webtable", families)))) {
      Region r = db.region("webtable");
      var replay = db.replayStats();
      System.out.printf("opened %s (read %d WAL edits from %d segments)%n",
          dir.toAbsolutePath(), replay.edits(), replay.segments());

      long base = System.currentTimeMillis();
      String[] urls = {"com.example/", "com.example/about", "org.apache/hbase", "org.apache/calcite"};
      for (int v = 0; v < 4; v++) {
        for (String u : urls) {
          r.mutateRow(b(u), List.of(
              Cell.put(b(u), b("page"), b("title"), base + v, b(u + " title v" + v)),
              Cell.put(b(u), b("stats"), b("visits"), base + v, b(String.valueOf(10 * v)))),
              Durability.SYNC);
        }
      }
      System.out.printf("wrote %d rows x 4 versions (2 families, SYNC durability)%n", urls.length);
      int files = r.flush();
      System.out.printf("flushed memstores to %d block files%n", files);

      r.mutateRow(b("com.example/about"), List.of(
          Cell.delete(b("com.example/about"), b("page"), b("title"), Cell.LATEST_TIMESTAMP,
              CellType.DELETE_COLUMN)), Durability.SYNC);
      r.mutateRow(b("org.apache/hbase"), List.of(
          Cell.put(b("org.apache/hbase"), b("page"), b("title"), base + 10, b("HBase, newest"))),
          Durability.SYNC);
      r.flush();
      printFiles("before major compaction", r);
      r.compact(true);
      printFiles("after major compaction", r);

      System.out.println("versions of org.apache/hbase page:title (VERSIONS=3 keeps three):");
      for (Cell c : r.get(b("org.apache/hbase"), ReadSpec.LATEST.withVersions(10))) {
        System.out.printf("  %s:%s @%d = %s%n", s(c.family()), s(c.qualifier()),
            c.timestamp(), s(c.value()));
      }
      System.out.println("scan of rows [org.apache/, org.apache0) latest versions:");
      try (RegionScanner sc = r.scan(ReadSpec.LATEST, b("org.apache/"), b("org.apache0"))) {
        for (List<Cell> row = sc.next(); row != null; row = sc.next()) {
          StringBuilder sb = new StringBuilder("  " + s(row.get(0).row()) + ":");
          for (Cell c : row) {
            sb.append(' ').append(s(c.family())).append(':').append(s(c.qualifier()))
                .append('=').append(s(c.value()));
          }
          System.out.println(sb);
        }
      }
      System.out.printf("com.example/about after deleting page:title: %d cells left (stats only)%n",
          r.get(b("com.example/about"), ReadSpec.LATEST).size());
    }
    System.out.printf("closed cleanly in %.0f ms; run again to see the data reopened%n",
        (System.nanoTime() - t0) / 1e6);
  }

  private static void printFiles(String when, Region r) {
    StringBuilder sb = new StringBuilder(when + ":");
    for (Store s : r.stores()) {
      sb.append(' ').append(s.familyName()).append('=').append(s.filesSnapshot().size())
          .append(" file(s)");
      long cells = 0;
      for (var f : s.filesSnapshot()) {
        cells += f.info().cellCount();
      }
      sb.append('/').append(cells).append(" cells");
    }
    System.out.println(sb);
  }

  private static String s(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
