package io.basaltdb.engine.recovery;

import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.engine.Database;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.engine.Transaction;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.io.FaultInjectingFileSystem;
import io.basaltdb.engine.io.FaultInjectingFileSystem.Action;
import io.basaltdb.engine.io.FaultInjectingFileSystem.Op;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A randomized crash campaign (RocksDB's db_crashtest in miniature): one writer drives puts,
 * deletes, increments, check-and-mutates and batches (SYNC and ASYNC) and admin work (flush,
 * compaction, split, disable/enable) into a table that flushes, compacts and splits all the time;
 * each round ends in a power loss — at a random file operation, at a named crash point, after an
 * injected I/O failure, or between operations — and the reopened table is checked against
 * {@link ExpectedState}. Everything is drawn from one seed. Run alone:
 * {@code mvn -pl engine test -Dtest=CrashCampaignTest -Dbasalt.campaign.rounds=1000}.
 */
final class CrashCampaign {
  static final List<String> CRASH_POINTS = List.of("flush.afterFileWrite",
      "manifest.beforeRename", "manifest.afterRename", "catalog.beforeRename",
      "catalog.afterRename", "compaction.afterFileWrite", "compaction.afterInstall", "wal.roll",
      "split.beforeCatalog", "split.afterCatalog", "disable.beforeCatalog");

  /** How a round ends. */
  enum Ending { AT_OPERATION, AT_CRASH_POINT, AFTER_FAILED_IO, BETWEEN_OPERATIONS }

  private static final TableName T = TableName.of("t");
  private static final byte[] F1 = "f1".getBytes(StandardCharsets.UTF_8);
  private static final byte[] F2 = "f2".getBytes(StandardCharsets.UTF_8);
  private static final int ROWS = 200;
  private static final int OPS_PER_ROUND = 150;

  private final long seed;
  private final Random rnd;
  private final Path dir;
  private final FaultInjectingFileSystem fs;
  private final EngineOptions options;
  private final ExpectedState expected = new ExpectedState();
  final Map<Ending, Integer> endings = new EnumMap<>(Ending.class);
  long acknowledged;
  long acknowledgedSync;
  long tailRecovered;
  int rounds;
  private long opId;
  private String lastCrash;

  CrashCampaign(long seed, Path work) throws IOException {
    this.seed = seed;
    this.rnd = new Random(seed);
    this.dir = work.resolve("db");
    this.fs = new FaultInjectingFileSystem(work.resolve("trash"));
    this.options = EngineOptions.defaults().withFileSystem(fs).withFlushSizeBytes(16 * 1024)
        .withWalRollBytes(8 * 1024).withCompactionFiles(3, 5).withRegionSplitBytes(48 * 1024)
        .withBlockCacheBytes(1 << 20);
  }

  /** Runs {@code n} rounds; throws AssertionError (naming seed and round) at the first loss. */
  void run(int n) throws IOException {
    for (int i = 0; i < n; i++) {
      round();
    }
  }

  private String where() {
    return "seed=" + seed + " round=" + rounds + " (last crash: " + lastCrash + ")";
  }

  private void round() throws IOException {
    Database db;
    try {
      db = Database.open(dir, options);
    } catch (RuntimeException e) {
      throw new AssertionError("open after a power loss failed, " + where(), e);
    }
    Map<String, Map<String, String>> actual;
    try {
      actual = read(db);
    } catch (RuntimeException e) {
      db.close();
      throw new AssertionError("read after a power loss failed, " + where(), e);
    }
    int k;
    try {
      k = expected.verify(actual, where());
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + rawVersions(db), e);
    }
    tailRecovered += k;
    rounds++;
    if (!db.admin().tableExists(T)) {
      Map<String, FamilyOptions> f = new LinkedHashMap<>();
      f.put("f1", FamilyOptions.DEFAULT.withBlockSize(1024));
      f.put("f2", FamilyOptions.DEFAULT);
      db.admin().createTable(new TableDescriptor(T, f), new byte[][] {"r100".getBytes()});
    }
    Ending ending = arm();
    endings.merge(ending, 1, Integer::sum);
    Table t = db.table(T);
    try {
      for (int i = 0; i < OPS_PER_ROUND && !fs.crashed(); i++) {
        step(db, t);
      }
    } catch (RuntimeException | AssertionError e) {
      if (e instanceof AssertionError) {
        throw e;
      }
      // the crash (or an injected failure) stopped the writer: its operation stays in flight
    }
    fs.crash("power loss after " + ending);
    lastCrash = ending + " " + fs.crashedAt();
    try {
      db.close();
    } catch (RuntimeException ignored) {
      // nothing reaches the disk any more
    }
    fs.powerLoss();
  }

  /** Chooses how this round ends. */
  private Ending arm() {
    int r = rnd.nextInt(100);
    long now = fs.operations();
    if (r < 45) {
      long at = now + 1 + rnd.nextInt(2000);
      fs.setFaults((op, p, n) -> n == at ? Action.CRASH : Action.PASS);
      return Ending.AT_OPERATION;
    }
    if (r < 80) {
      String point = CRASH_POINTS.get(rnd.nextInt(CRASH_POINTS.size()));
      int[] hits = {1 + rnd.nextInt(3)};
      fs.setCrashPoints(name -> name.equals(point) && --hits[0] == 0);
      return Ending.AT_CRASH_POINT;
    }
    if (r < 90) {
      long at = now + 1 + rnd.nextInt(600);
      Op kind = List.of(Op.SYNC, Op.WRITE, Op.RENAME, Op.CREATE, Op.DIRSYNC).get(rnd.nextInt(5));
      fs.setFaults((op, p, n) -> n >= at && op == kind ? Action.FAIL : Action.PASS);
      return Ending.AFTER_FAILED_IO;
    }
    return Ending.BETWEEN_OPERATIONS;
  }

  private static String row(int i) {
    return String.format("r%03d", i);
  }

  private void step(Database db, Table t) {
    int r = rnd.nextInt(100);
    Durability d = rnd.nextInt(10) < 7 ? Durability.SYNC : Durability.ASYNC;
    String row = row(rnd.nextInt(ROWS));
    String v = "v" + (++opId);
    Map<String, String> cur = expected.row(row);
    if (r < 8) {
      transaction(db, d, v);
    } else if (r < 38) {
      Map<String, String> next = new TreeMap<>(cur);
      next.put("f1:a", v);
      next.put("f1:b", v);
      next.put("f2:c", v);
      expect(List.of(new ExpectedState.Effect(row, next, "put " + v)));
      t.put(put(row, v, d));
      ack(d);
    } else if (r < 46) {
      expect(List.of(new ExpectedState.Effect(row, Map.of(), "delete row " + v)));
      t.delete((Delete) new Delete(row.getBytes()).setDurability(d));
      ack(d);
    } else if (r < 52) {
      Map<String, String> next = new TreeMap<>(cur);
      next.remove("f1:b");
      expect(List.of(new ExpectedState.Effect(row, next, "delete f1:b " + v)));
      t.delete((Delete) new Delete(row.getBytes()).addColumns(F1, "b".getBytes())
          .setDurability(d));
      ack(d);
    } else if (r < 64) {
      long by = 1 + rnd.nextInt(5);
      Map<String, String> next = new TreeMap<>(cur);
      long now = Long.parseLong(cur.getOrDefault("f2:n", "0")) + by;
      next.put("f2:n", Long.toString(now));
      expect(List.of(new ExpectedState.Effect(row, next, "increment " + v)));
      Result res = t.increment(new Increment(row.getBytes()).addColumn(F2, "n".getBytes(), by)
          .setDurability(d));
      check(now == Increment.toLong(res.cells().get(0).value()), "increment result");
      ack(d);
    } else if (r < 74) {
      String want = rnd.nextBoolean() ? cur.get("f1:a") : "v0";
      boolean applies = want != null && want.equals(cur.get("f1:a"));
      Map<String, String> next = new TreeMap<>(cur);
      if (applies) {
        next.put("f2:c", v);
      }
      expect(List.of(new ExpectedState.Effect(row, next, "check-and-put " + v)));
      Put p = new Put(row.getBytes());
      p.addColumn(F2, "c".getBytes(), v.getBytes());
      p.setDurability(d);
      boolean did = t.checkAndMutate(CheckAndMutate.newBuilder(row.getBytes())
          .ifEquals(F1, "a".getBytes(), (want == null ? "v0" : want).getBytes()).build(p));
      check(did == applies, "check-and-mutate applied " + did + ", expected " + applies);
      ack(d);
    } else if (r < 86) {
      List<ExpectedState.Effect> effects = new ArrayList<>();
      List<Put> puts = new ArrayList<>();
      java.util.Set<String> rows = new java.util.TreeSet<>();
      int n = 2 + rnd.nextInt(4);
      while (rows.size() < n) {
        rows.add(row(rnd.nextInt(ROWS)));
      }
      for (String br : rows) {
        Map<String, String> next = new TreeMap<>(expected.row(br));
        next.put("f1:a", v);
        next.put("f1:b", v);
        next.put("f2:c", v);
        effects.add(new ExpectedState.Effect(br, next, "batch put " + v));
        puts.add(put(br, v, d));
      }
      expect(effects);
      t.put(puts);
      ack(d);
    } else if (r < 89) {
      db.admin().flush(T);
    } else if (r < 92) { // memstores kept in memory as sorted arrays until the next flush
      for (io.basaltdb.engine.region.Region region : db.regions(T)) {
        region.freeze();
      }
    } else if (r < 95) {
      if (rnd.nextBoolean()) {
        db.admin().majorCompact(T);
      } else {
        db.admin().compact(T);
      }
    } else if (r < 98) {
      db.admin().split(T);
    } else {
      db.admin().disableTable(T);
      db.admin().enableTable(T);
    }
  }

  /**
   * A transaction over 2-5 rows (puts, row deletes, an increment, and a write undone by a mark),
   * committed as one write: after a power loss all of its rows or none.
   */
  private void transaction(Database db, Durability d, String v) {
    Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
    Table t = tx.table(T);
    java.util.Set<String> rows = new java.util.TreeSet<>();
    int n = 2 + rnd.nextInt(4);
    while (rows.size() < n) {
      rows.add(row(rnd.nextInt(ROWS)));
    }
    List<ExpectedState.Effect> effects = new ArrayList<>();
    int i = 0;
    for (String tr : rows) {
      Map<String, String> next = new TreeMap<>(expected.row(tr));
      switch (rnd.nextInt(4)) {
        case 0 -> {
          t.delete(new Delete(tr.getBytes()));
          next.clear();
        }
        case 1 -> {
          long now = Long.parseLong(next.getOrDefault("f2:n", "0")) + 3;
          t.increment(new Increment(tr.getBytes()).addColumn(F2, "n".getBytes(), 3));
          next.put("f2:n", Long.toString(now));
        }
        default -> {
          t.put(put(tr, v, d));
          next.put("f1:a", v);
          next.put("f1:b", v);
          next.put("f2:c", v);
        }
      }
      if (rnd.nextInt(3) == 0) { // a write undone before the commit
        int mark = tx.mark();
        t.put(put(tr, "undone", d));
        tx.rollbackTo(mark);
      }
      effects.add(new ExpectedState.Effect(tr, next, "transaction " + v, ++i < rows.size()));
    }
    expect(effects);
    tx.commit(d);
    ack(d);
  }

  private static Put put(String row, String v, Durability d) {
    Put p = new Put(row.getBytes());
    p.addColumn(F1, "a".getBytes(), v.getBytes());
    p.addColumn(F1, "b".getBytes(), v.getBytes());
    p.addColumn(F2, "c".getBytes(), v.getBytes());
    p.setDurability(d);
    return p;
  }

  private void expect(List<ExpectedState.Effect> effects) {
    expected.begin(effects);
  }

  private void ack(Durability d) {
    expected.acknowledged(d == Durability.SYNC);
    acknowledged++;
    if (d == Durability.SYNC) {
      acknowledgedSync++;
    }
  }

  private void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what + ", " + where());
    }
  }

  /** The table's rows as the oracle writes them (counters as decimal). */
  private static Map<String, Map<String, String>> read(Database db) {
    Map<String, Map<String, String>> out = new TreeMap<>();
    if (!db.admin().tableExists(T)) {
      return out;
    }
    if (!db.admin().isEnabled(T)) {
      db.admin().enableTable(T);
    }
    try (ResultScanner s = db.table(T).getScanner(new Scan())) {
      for (Result r : s) {
        Map<String, String> cells = new TreeMap<>();
        for (Cell c : r.cells()) {
          String col = new String(c.family(), StandardCharsets.UTF_8) + ":"
              + new String(c.qualifier(), StandardCharsets.UTF_8);
          cells.put(col, col.equals("f2:n") ? Long.toString(Increment.toLong(c.value()))
              : new String(c.value(), StandardCharsets.UTF_8));
        }
        out.put(new String(r.row(), StandardCharsets.UTF_8), cells);
      }
    }
    return out;
  }

  /** Every version of every cell with timestamp and sequence id, for a failure's report. */
  private static String rawVersions(Database db) {
    StringBuilder b = new StringBuilder("raw versions:");
    try (ResultScanner s = db.table(T).getScanner(new Scan().readVersions(Integer.MAX_VALUE))) {
      for (Result r : s) {
        for (Cell c : r.cells()) {
          b.append("\n  ").append(c).append(" = ").append(Cell.printable(c.value()));
        }
      }
    } catch (RuntimeException e) {
      b.append(" unreadable: ").append(e);
    }
    b.append("\n").append(db.admin().regions(T).size()).append(" regions");
    return b.toString();
  }

  /** Checks the last round's power loss and closes. */
  void finish() {
    try (Database db = Database.open(dir, options)) {
      tailRecovered += expected.verify(read(db), where());
    } catch (RuntimeException e) {
      throw new AssertionError("open after the last power loss failed, " + where(), e);
    }
  }

  String summary() {
    return String.format("crash campaign seed=%d: %d power losses %s, %d acknowledged writes"
        + " (%d SYNC), 0 acknowledged SYNC writes lost, 0 torn rows, 0 failed opens;"
        + " %d unsynced ASYNC/in-flight effects recovered", seed, rounds, endings, acknowledged,
        acknowledgedSync, tailRecovered);
  }

  static void deleteTree(Path p) throws IOException {
    if (Files.exists(p)) {
      try (var s = Files.walk(p)) {
        for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(x);
        }
      }
    }
  }
}
