package io.basaltdb.engine.model;

import io.basaltdb.engine.TestTables;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basaltdb.storage.BloomType;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.Compression;
import io.basaltdb.engine.Database;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.engine.ManualClock;
import io.basaltdb.engine.Seeds;
import io.basaltdb.engine.read.ColumnQuery;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.region.RegionScanner;
import io.basaltdb.engine.region.ReadSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of random puts and deletes of every kind, explicit and engine timestamps, TTL with
 * a moving clock, interleaved with flushes, compactions and close/reopen; after each read the
 * engine's answer is compared with {@link ReferenceModel}'s. Seeded and replayable
 * ({@code -Dbasalt.seed=N}).
 */
class RandomModelTest {
  private static final String[] FAMILIES = {"a", "b", "c"};

  @TempDir Path tmp;

  private final ManualClock clock = new ManualClock(1_000_000);
  private Database db;
  private Region region;
  private int reads;

  private static Map<String, FamilyOptions> families() {
    Map<String, FamilyOptions> f = new LinkedHashMap<>();
    f.put("a", FamilyOptions.DEFAULT.withVersions(3, 0).withBlockSize(1024));
    f.put("b", FamilyOptions.DEFAULT.withBloomType(BloomType.ROWCOL).withCompression(Compression.NONE));
    f.put("c", FamilyOptions.DEFAULT.withVersions(4, 2).withTtlSeconds(10).withBloomType(BloomType.NONE));
    return f;
  }

  private void open() {
    EngineOptions o = EngineOptions.defaults().withFlushSizeBytes(16 * 1024)
        .withCompactionFiles(3, 6).withBlockCacheBytes(256 * 1024).withClock(clock);
    db = TestTables.open(tmp.resolve("db"), o, families(), "r1");
    region = TestTables.region(db, "r1");
  }

  @RepeatedTest(3)
  void engineAgreesWithModel() {
    long seed = Seeds.seed("RandomModelTest");
    Random rnd = new Random(seed);
    ReferenceModel model = new ReferenceModel(families());
    open();
    try {
      int ops = 3000;
      for (int i = 0; i < ops; i++) {
        int op = rnd.nextInt(100);
        String where = "seed=" + seed + " op#" + i;
        if (op < 45) {
          mutate(rnd, model);
        } else if (op < 48) {
          region.flush();
        } else if (op < 50) {
          region.compact(false);
        } else if (op < 51) {
          region.compact(true);
        } else if (op < 52) {
          db.close();
          open();
        } else if (op < 60) {
          clock.advance(rnd.nextInt(3000));
        } else if (op < 85) {
          checkGet(rnd, model, where);
        } else {
          checkScan(rnd, model, where);
        }
      }
      for (byte[] row : model.rows()) {
        checkRow(row, null, 0, Long.MAX_VALUE, 10, model, "final seed=" + seed);
      }
      assertNull(db.backgroundFailure(), "background work failed");
      System.out.println("RandomModelTest: " + ops + " ops, " + reads + " reads checked; "
          + db.describe());
    } finally {
      db.close();
    }
  }

  private static byte[] row(Random rnd) {
    return String.format("r%02d", rnd.nextInt(30)).getBytes();
  }

  private static byte[] qualifier(Random rnd) {
    return rnd.nextInt(20) == 0 ? new byte[0] : ("q" + rnd.nextInt(6)).getBytes();
  }

  private void mutate(Random rnd, ReferenceModel model) {
    byte[] row = row(rnd);
    List<Cell> cells = new ArrayList<>();
    int n = 1 + rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      byte[] fam = FAMILIES[rnd.nextInt(FAMILIES.length)].getBytes();
      byte[] q = qualifier(rnd);
      long ts = rnd.nextBoolean() ? Cell.LATEST_TIMESTAMP
          : clock.millis() - rnd.nextInt(20_000) + 2_000;
      int t = rnd.nextInt(100);
      if (t < 70) {
        byte[] v = ("v" + rnd.nextInt(1000)).getBytes();
        cells.add(Cell.put(row, fam, q, ts, v));
      } else if (t < 78) {
        cells.add(Cell.delete(row, fam, q, ts, CellType.DELETE));
      } else if (t < 88) {
        cells.add(Cell.delete(row, fam, q, ts, CellType.DELETE_COLUMN));
      } else if (t < 94) {
        cells.add(Cell.delete(row, fam, q, ts, CellType.DELETE_FAMILY));
      } else {
        cells.add(Cell.delete(row, fam, q, ts == Cell.LATEST_TIMESTAMP ? clock.millis() - 1 : ts,
            CellType.DELETE_FAMILY_VERSION));
      }
    }
    Durability d = Durability.values()[rnd.nextInt(3)];
    long now = clock.millis();
    region.mutateRow(row, cells, d);
    model.apply(row, cells, now);
  }

  private void checkGet(Random rnd, ReferenceModel model, String where) {
    byte[] row = row(rnd);
    Map<String, NavigableSet<byte[]>> wanted = null;
    if (rnd.nextInt(2) == 0) {
      wanted = new HashMap<>();
      for (String f : FAMILIES) {
        if (rnd.nextBoolean()) {
          NavigableSet<byte[]> qs = null;
          if (rnd.nextBoolean()) {
            qs = ColumnQuery.qualifierSet();
            qs.add(qualifier(rnd));
            qs.add(qualifier(rnd));
          }
          wanted.put(f, qs);
        }
      }
      if (wanted.isEmpty()) {
        wanted = null;
      }
    }
    long minTs = 0;
    long maxTs = Long.MAX_VALUE;
    if (rnd.nextInt(4) == 0) {
      minTs = clock.millis() - rnd.nextInt(20_000);
      maxTs = minTs + rnd.nextInt(20_000);
    }
    int versions = rnd.nextBoolean() ? 1 : 1 + rnd.nextInt(4); // 1: the memstores may answer
    checkRow(row, wanted, minTs, maxTs, versions, model, where);
  }

  private ReadSpec spec(Map<String, NavigableSet<byte[]>> wanted, long minTs, long maxTs,
      int versions) {
    Map<byte[], NavigableSet<byte[]>> fams = new HashMap<>();
    if (wanted != null) {
      wanted.forEach((f, q) -> fams.put(f.getBytes(), q));
    }
    return new ReadSpec(fams, minTs, maxTs, versions);
  }

  private void checkRow(byte[] row, Map<String, NavigableSet<byte[]>> wanted, long minTs,
      long maxTs, int versions, ReferenceModel model, String where) {
    reads++;
    List<String> expected = model.get(row, wanted, minTs, maxTs, versions, clock.millis());
    List<String> actual = new ArrayList<>();
    for (Cell c : region.get(row, spec(wanted, minTs, maxTs, versions))) {
      actual.add(ReferenceModel.render(c));
    }
    assertEquals(expected, actual, "get " + new String(row) + " families=" + describe(wanted)
        + " ts=[" + minTs + "," + maxTs + ") versions=" + versions + " at " + where);
  }

  private void checkScan(Random rnd, ReferenceModel model, String where) {
    reads++;
    byte[] start = rnd.nextInt(4) == 0 ? new byte[0] : row(rnd);
    byte[] stop = rnd.nextInt(4) == 0 ? new byte[0] : row(rnd);
    int versions = 1 + rnd.nextInt(3);
    List<String> expected = new ArrayList<>();
    for (byte[] r : model.rows()) {
      if (Arrays.compareUnsigned(r, start) >= 0
          && (stop.length == 0 || Arrays.compareUnsigned(r, stop) < 0)) {
        List<String> cells = model.get(r, null, 0, Long.MAX_VALUE, versions, clock.millis());
        if (!cells.isEmpty()) {
          expected.add(new String(r) + " " + cells);
        }
      }
    }
    List<String> actual = new ArrayList<>();
    try (RegionScanner s = region.scan(ReadSpec.LATEST.withVersions(versions), start, stop)) {
      for (List<Cell> cells = s.next(); cells != null; cells = s.next()) {
        List<String> rendered = new ArrayList<>();
        cells.forEach(c -> rendered.add(ReferenceModel.render(c)));
        actual.add(new String(cells.get(0).row()) + " " + rendered);
      }
    }
    String what = "scan [" + new String(start) + "," + new String(stop) + ") versions="
        + versions + " at " + where;
    for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
      if (!expected.get(i).equals(actual.get(i))) {
        dumpRaw(expected.get(i).substring(0, 3).getBytes());
      }
      assertEquals(expected.get(i), actual.get(i), "row #" + i + " of " + what);
    }
    assertEquals(expected.size(), actual.size(), "row count of " + what);
  }

  /** Prints every stored cell of a row, unresolved, to diagnose a mismatch. */
  private void dumpRaw(byte[] row) {
    System.out.println("raw cells of " + new String(row) + " (read point " + region.readPoint()
        + ", now " + clock.millis() + "):");
    for (var store : region.stores()) {
      try (var view = store.acquireView(0)) {
        var merged = new io.basaltdb.engine.read.MergingIterator(store.sources(view, row,
            Arrays.copyOf(row, row.length + 1), null, null, Long.MIN_VALUE));
        merged.seek(io.basaltdb.engine.cell.CellComparator.firstOnRow(row, store.family()));
        for (Cell c = merged.current(); c != null && Arrays.equals(c.row(), row);
            merged.next(), c = merged.current()) {
          System.out.println("  " + c + " " + Cell.printable(c.value()));
        }
      }
    }
    System.out.println("get says: " + region.get(row, ReadSpec.LATEST.withVersions(3)));
  }

  private static String describe(Map<String, NavigableSet<byte[]>> wanted) {
    if (wanted == null) {
      return "all";
    }
    StringBuilder sb = new StringBuilder();
    wanted.forEach((f, qs) -> {
      sb.append(f).append('{');
      if (qs != null) {
        qs.forEach(q -> sb.append(new String(q)).append(' '));
      } else {
        sb.append('*');
      }
      sb.append('}');
    });
    return sb.toString();
  }
}
