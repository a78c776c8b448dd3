package io.basaltdb.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basaltdb.storage.BloomType;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.Compression;
import io.basaltdb.engine.Database;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.engine.ManualClock;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.engine.Seeds;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * The randomized model test through the public client API, on a table pre-split into three
 * regions with three families and split further as it grows (automatically, and by
 * {@code Admin.split}): puts, every kind of delete (row deletes too), increments and
 * check-and-mutate, flushes, compactions and reopenings, gets and scans across region
 * boundaries, checked against {@link ReferenceModel}. Seeded and replayable.
 */
class TableModelTest {
  private static final String[] FAMILIES = {"a", "b", "c"};
  private static final TableName T = TableName.of("m");
  private static final byte[] N = "n".getBytes();

  @TempDir Path tmp;
  private final ManualClock clock = new ManualClock(5_000_000);
  private Database db;
  private Table table;

  static Map<String, FamilyOptions> families() {
    Map<String, FamilyOptions> f = new LinkedHashMap<>();
    f.put("a", FamilyOptions.DEFAULT.withVersions(3, 0).withBlockSize(1024));
    f.put("b", FamilyOptions.DEFAULT.withBloomType(BloomType.ROWCOL)
        .withCompression(Compression.NONE).withPrefixEncoding(false));
    f.put("c", FamilyOptions.DEFAULT.withVersions(4, 2).withTtlSeconds(10));
    return f;
  }

  private void open() {
    db = Database.open(tmp.resolve("db"), EngineOptions.defaults().withFlushSizeBytes(16 * 1024)
        .withCompactionFiles(3, 6).withRegionSplitBytes(16 * 1024).withClock(clock));
    if (!db.admin().tableExists(T)) {
      db.admin().createTable(new TableDescriptor(T, families()),
          new byte[][] {"r10".getBytes(), "r20".getBytes()});
    }
    table = db.table(T);
  }

  @RepeatedTest(2)
  void clientApiAgreesWithModel() {
    long seed = Seeds.seed("TableModelTest");
    Random rnd = new Random(seed);
    ReferenceModel model = new ReferenceModel(families());
    open();
    try {
      for (int i = 0; i < 2500; i++) {
        String where = "seed=" + seed + " op#" + i;
        int op = rnd.nextInt(100);
        if (op < 35) {
          put(rnd, model);
        } else if (op < 45) {
          delete(rnd, model);
        } else if (op < 50) {
          increment(rnd, model, where);
        } else if (op < 52) {
          checkAndPut(rnd, model, where);
        } else if (op < 53) {
          append(rnd, model, where);
        } else if (op < 55) {
          db.admin().flush(T);
        } else if (op < 57) {
          db.admin().compact(T);
        } else if (op < 58) {
          db.admin().majorCompact(T);
        } else if (op < 59) {
          db.close();
          open();
        } else if (op < 60) {
          db.admin().split(T);
        } else if (op < 65) {
          clock.advance(rnd.nextInt(3000));
        } else if (op < 85) {
          checkGet(rnd, model, where);
        } else if (op < 93) {
          checkScan(rnd, model, where);
        } else {
          checkFilteredScan(rnd, model, where);
        }
      }
      assertNull(db.backgroundFailure());
      System.out.println("TableModelTest: " + db.admin().regions(T).size() + " regions at the end");
    } finally {
      db.close();
    }
  }

  private static byte[] row(Random rnd) {
    return String.format("r%02d", rnd.nextInt(30)).getBytes();
  }

  private static byte[] qualifier(Random rnd) {
    return ("q" + rnd.nextInt(5)).getBytes();
  }

  private static byte[] family(Random rnd) {
    return FAMILIES[rnd.nextInt(FAMILIES.length)].getBytes();
  }

  private long ts(Random rnd) {
    return rnd.nextBoolean() ? Cell.LATEST_TIMESTAMP : clock.millis() - rnd.nextInt(20_000) + 2_000;
  }

  private void put(Random rnd, ReferenceModel model) {
    byte[] row = row(rnd);
    Put p = new Put(row).setDurability(Durability.values()[rnd.nextInt(3)]);
    for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
      long ts = ts(rnd);
      byte[] v = ("v" + rnd.nextInt(1000)).getBytes();
      if (ts == Cell.LATEST_TIMESTAMP) {
        p.addColumn(family(rnd), qualifier(rnd), v);
      } else {
        p.addColumn(family(rnd), qualifier(rnd), ts, v);
      }
    }
    long now = clock.millis();
    table.put(p);
    model.apply(row, p.cells(), now);
  }

  private void delete(Random rnd, ReferenceModel model) {
    byte[] row = row(rnd);
    Delete d = new Delete(row);
    List<Cell> expected = new ArrayList<>();
    int kind = rnd.nextInt(7);
    byte[] f = family(rnd);
    byte[] q = qualifier(rnd);
    long ts = clock.millis() - rnd.nextInt(20_000) + 2_000;
    switch (kind) {
      case 0 -> d.addColumn(f, q);
      case 1 -> d.addColumn(f, q, ts);
      case 2 -> d.addColumns(f, q);
      case 3 -> d.addColumns(f, q, ts);
      case 4 -> d.addFamily(f);
      case 5 -> d.addFamilyVersion(f, ts);
      default -> {
        for (String fam : FAMILIES) {
          expected.add(Cell.delete(row, fam.getBytes(), null, Cell.LATEST_TIMESTAMP,
              CellType.DELETE_FAMILY));
        }
      }
    }
    if (kind < 6) {
      expected.addAll(d.cells());
    }
    long now = clock.millis();
    table.delete(d);
    model.apply(row, expected, now);
  }

  private void increment(Random rnd, ReferenceModel model, String where) {
    byte[] row = row(rnd);
    long amount = rnd.nextInt(10) - 3;
    long now = clock.millis();
    List<ReferenceModel.Rec> cur = model.visible("a", row, N, 0, Long.MAX_VALUE, 1, now);
    long base = cur.isEmpty() ? 0 : Increment.toLong(cur.get(0).value());
    Result r = table.increment(new Increment(row).addColumn("a".getBytes(), N, amount));
    assertEquals(base + amount, Increment.toLong(r.getValue("a".getBytes(), N)), where);
    model.apply(row, List.of(Cell.put(row, "a".getBytes(), N, Cell.LATEST_TIMESTAMP,
        Increment.toBytes(base + amount))), now);
  }

  private void append(Random rnd, ReferenceModel model, String where) {
    byte[] row = row(rnd);
    byte[] f = family(rnd);
    byte[] q = qualifier(rnd);
    byte[] suffix = ("+" + rnd.nextInt(10)).getBytes();
    long now = clock.millis();
    List<ReferenceModel.Rec> cur = model.visible(new String(f), row, q, 0, Long.MAX_VALUE, 1, now);
    byte[] base = cur.isEmpty() ? new byte[0] : cur.get(0).value();
    byte[] expected = Arrays.copyOf(base, base.length + suffix.length);
    System.arraycopy(suffix, 0, expected, base.length, suffix.length);
    Result r = table.append(new io.basaltdb.storage.Append(row).addColumn(f, q, suffix));
    assertEquals(new String(expected), new String(r.getValue(f, q)), "append at " + where);
    model.apply(row, List.of(Cell.put(row, f, q, Cell.LATEST_TIMESTAMP, expected)), now);
  }

  private void checkAndPut(Random rnd, ReferenceModel model, String where) {
    byte[] row = row(rnd);
    byte[] f = family(rnd);
    byte[] q = qualifier(rnd);
    long now = clock.millis();
    boolean absent = model.visible(new String(f), row, q, 0, Long.MAX_VALUE, 1, now).isEmpty();
    Put p = new Put(row).addColumn(f, q, ("cam" + rnd.nextInt(100)).getBytes());
    boolean applied = table.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(f, q)
        .build(p));
    assertEquals(absent, applied, "check-and-put at " + where);
    if (applied) {
      model.apply(row, p.cells(), now);
    }
  }

  private void checkGet(Random rnd, ReferenceModel model, String where) {
    byte[] row = row(rnd);
    Get g = new Get(row);
    Map<String, java.util.NavigableSet<byte[]>> wanted = null;
    if (rnd.nextBoolean()) {
      wanted = new LinkedHashMap<>();
      String f = FAMILIES[rnd.nextInt(3)];
      if (rnd.nextBoolean()) {
        g.addFamily(f.getBytes());
        wanted.put(f, null);
      } else {
        byte[] q = qualifier(rnd);
        g.addColumn(f.getBytes(), q);
        var qs = io.basaltdb.engine.read.ColumnQuery.qualifierSet();
        qs.add(q);
        wanted.put(f, qs);
      }
    }
    int versions = 1 + rnd.nextInt(4);
    g.readVersions(versions);
    long min = 0;
    long max = Long.MAX_VALUE;
    if (rnd.nextInt(4) == 0) {
      min = clock.millis() - rnd.nextInt(20_000);
      max = min + rnd.nextInt(20_000);
      g.setTimeRange(min, max);
    }
    List<String> expected = model.get(row, wanted, min, max, versions, clock.millis());
    List<String> actual = new ArrayList<>();
    table.get(g).cells().forEach(c -> actual.add(ReferenceModel.render(c)));
    assertEquals(expected, actual, "get " + new String(row) + " at " + where);
  }

  /** A random stock filter, and the same predicate applied to the model's rows. */
  private void checkFilteredScan(Random rnd, ReferenceModel model, String where) {
    int kind = rnd.nextInt(11);
    String p1 = "r" + rnd.nextInt(3);
    byte[] lo = row(rnd);
    byte[] hi = row(rnd);
    String colPrefix = "q" + rnd.nextInt(5);
    String needle = "v" + rnd.nextInt(10);
    int page = 1 + rnd.nextInt(6);
    byte[] scvValue = ("v" + rnd.nextInt(1000)).getBytes();
    boolean ifMissing = rnd.nextBoolean();
    io.basaltdb.storage.filter.Filter f = switch (kind) {
      case 0 -> io.basaltdb.storage.filter.Filters.prefix(p1.getBytes());
      case 1 -> io.basaltdb.storage.filter.Filters.rowRanges(List.of(
          new io.basaltdb.storage.filter.Filters.RowRange(lo, hi)));
      case 2 -> io.basaltdb.storage.filter.Filters.columnPrefix(colPrefix.getBytes());
      case 3 -> io.basaltdb.storage.filter.Filters.value(io.basaltdb.storage.CompareOperator.EQUAL,
          io.basaltdb.storage.filter.ByteComparator.substring(needle));
      case 4 -> io.basaltdb.storage.filter.Filters.firstKeyOnly();
      case 5 -> io.basaltdb.storage.filter.Filters.page(page);
      case 6 -> io.basaltdb.storage.filter.Filters.singleColumnValue("b".getBytes(), "q0".getBytes(),
          io.basaltdb.storage.CompareOperator.GREATER, io.basaltdb.storage.filter.ByteComparator
              .binary(scvValue), ifMissing);
      case 7 -> new io.basaltdb.storage.filter.FilterList(
          io.basaltdb.storage.filter.FilterList.Operator.MUST_PASS_ALL,
          io.basaltdb.storage.filter.Filters.prefix(p1.getBytes()),
          io.basaltdb.storage.filter.Filters.columnPrefix(colPrefix.getBytes()));
      case 8 -> new io.basaltdb.storage.filter.FilterList(
          io.basaltdb.storage.filter.FilterList.Operator.MUST_PASS_ONE,
          io.basaltdb.storage.filter.Filters.prefix("r0".getBytes()),
          io.basaltdb.storage.filter.Filters.prefix("r2".getBytes()));
      case 9 -> io.basaltdb.storage.filter.Filters.keyOnly();
      default -> io.basaltdb.storage.filter.Filters.qualifier(
          io.basaltdb.storage.CompareOperator.GREATER_OR_EQUAL,
          io.basaltdb.storage.filter.ByteComparator.binary(colPrefix.getBytes()));
    };
    List<String> expected = new ArrayList<>();
    for (byte[] r : model.rows()) {
      String key = new String(r);
      List<ReferenceModel.Rec> cells = new ArrayList<>(
          model.getCells(r, null, 0, Long.MAX_VALUE, 1, clock.millis()));
      boolean rowOk = switch (kind) {
        case 0, 7 -> key.startsWith(p1);
        case 8 -> key.startsWith("r0") || key.startsWith("r2");
        case 1 -> Arrays.compareUnsigned(r, lo) >= 0
            && (hi.length == 0 || Arrays.compareUnsigned(r, hi) < 0);
        default -> true;
      };
      if (!rowOk) {
        continue;
      }
      if (kind == 2 || kind == 7) {
        cells.removeIf(c -> !new String(c.qualifier()).startsWith(colPrefix));
      } else if (kind == 3) {
        cells.removeIf(c -> !new String(c.value()).toLowerCase().contains(needle));
      } else if (kind == 4 && !cells.isEmpty()) {
        cells = new ArrayList<>(cells.subList(0, 1));
      } else if (kind == 9) {
        List<ReferenceModel.Rec> keys = new ArrayList<>();
        cells.forEach(c -> keys.add(new ReferenceModel.Rec(c.family(), c.row(), c.qualifier(),
            c.ts(), c.type(), c.seq(), new byte[0])));
        cells = keys;
      } else if (kind == 10) {
        cells.removeIf(c -> Arrays.compareUnsigned(c.qualifier(), colPrefix.getBytes()) < 0);
      }
      if (cells.isEmpty()) {
        continue;
      }
      if (kind == 6) {
        ReferenceModel.Rec col = null;
        for (ReferenceModel.Rec c : cells) {
          if (c.family().equals("b") && Arrays.equals(c.qualifier(), "q0".getBytes())) {
            col = c;
            break;
          }
        }
        if (col == null ? ifMissing : Arrays.compareUnsigned(col.value(), scvValue) <= 0) {
          continue;
        }
      }
      if (kind == 5 && expected.size() >= page) {
        break;
      }
      List<String> rendered = new ArrayList<>();
      cells.forEach(c -> rendered.add(ReferenceModel.render(c.family(), c.qualifier(), c.ts(),
          c.value())));
      expected.add(key + " " + rendered);
    }
    List<String> actual = new ArrayList<>();
    try (ResultScanner s = table.getScanner(new Scan().setFilter(f))) {
      for (Result r : s) {
        List<String> rendered = new ArrayList<>();
        r.cells().forEach(c -> rendered.add(ReferenceModel.render(c)));
        actual.add(new String(r.row()) + " " + rendered);
      }
    }
    assertEquals(expected, actual, "filtered scan (kind " + kind + ") at " + where);
  }

  private void checkScan(Random rnd, ReferenceModel model, String where) {
    byte[] start = rnd.nextInt(4) == 0 ? new byte[0] : row(rnd);
    byte[] stop = rnd.nextInt(4) == 0 ? new byte[0] : row(rnd);
    int limit = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(10) : Integer.MAX_VALUE;
    List<String> expected = new ArrayList<>();
    for (byte[] r : model.rows()) {
      if (Arrays.compareUnsigned(r, start) >= 0
          && (stop.length == 0 || Arrays.compareUnsigned(r, stop) < 0)
          && expected.size() < limit) {
        List<String> cells = model.get(r, null, 0, Long.MAX_VALUE, 1, clock.millis());
        if (!cells.isEmpty()) {
          expected.add(new String(r) + " " + cells);
        }
      }
    }
    boolean reversed = rnd.nextInt(3) == 0;
    Scan scan = new Scan().withStartRow(start).withStopRow(stop).setLimit(limit);
    if (reversed) {
      // the same rows from the top: start is the upper end (inclusive), stop the lower (exclusive)
      List<String> all = new ArrayList<>();
      for (byte[] r : model.rows()) {
        if ((start.length == 0 || Arrays.compareUnsigned(r, start) <= 0)
            && Arrays.compareUnsigned(r, stop) > 0) {
          List<String> cells = model.get(r, null, 0, Long.MAX_VALUE, 1, clock.millis());
          if (!cells.isEmpty()) {
            all.add(new String(r) + " " + cells);
          }
        }
      }
      java.util.Collections.reverse(all);
      expected = new ArrayList<>(all.subList(0, Math.min(all.size(), limit)));
      scan.setReversed(true);
    }
    List<String> actual = new ArrayList<>();
    try (ResultScanner s = table.getScanner(scan)) {
      for (Result r : s) {
        List<String> rendered = new ArrayList<>();
        r.cells().forEach(c -> rendered.add(ReferenceModel.render(c)));
        actual.add(new String(r.row()) + " " + rendered);
      }
    }
    assertEquals(expected, actual, (reversed ? "reversed " : "") + "scan [" + new String(start)
        + "," + new String(stop) + ") limit " + limit + " at " + where);
  }
}
