package io.basaltdb.engine.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.TestTables;
import io.basaltdb.engine.io.FaultInjectingFileSystem;
import io.basaltdb.engine.io.FaultInjectingFileSystem.Action;
import io.basaltdb.engine.io.FaultInjectingFileSystem.Op;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes of rows in several tables at once (a row and its index entries): all visible or none,
 * and a crash keeps all of them or none, whatever byte of their one log record it cuts at.
 */
class MultiRegionWriteTest {
  private static final byte[] F = "f".getBytes();
  private static final byte[] Q = "q".getBytes();

  @TempDir Path tmp;

  private static Put put(String row, String value, Durability d) {
    Put p = new Put(row.getBytes());
    p.addColumn(F, Q, value.getBytes());
    p.setDurability(d);
    return p;
  }

  private static String value(Table t, String row) {
    byte[] v = t.get(new Get(row.getBytes())).getValue(F, Q);
    return v == null ? null : new String(v);
  }

  private static void pair(Database db, String row, String value, Durability d) {
    db.mutateAtomically(List.of(new RowChange(db.table("a"), put(row, value, d)),
        new RowChange(db.table("b"), put(value, row, d))));
  }

  @Test
  void rowsOfTwoTablesAreWrittenAndDeletedTogether() {
    try (Database db = TestTables.open(tmp.resolve("db"), EngineOptions.defaults(),
        Map.of("f", FamilyOptions.DEFAULT), "a", "b")) {
      pair(db, "r1", "v1", Durability.SYNC);
      assertEquals("v1", value(db.table("a"), "r1"));
      assertEquals("r1", value(db.table("b"), "v1"));
      db.mutateAtomically(List.of(
          new RowChange(db.table("a"), new Delete("r1".getBytes())),
          new RowChange(db.table("b"), new Delete("v1".getBytes())),
          new RowChange(db.table("b"), put("v2", "r1", Durability.SYNC))));
      assertEquals(null, value(db.table("a"), "r1"));
      assertEquals(null, value(db.table("b"), "v1"));
      assertEquals("r1", value(db.table("b"), "v2"));
      assertThrows(InvalidArgumentException.class, () -> db.mutateAtomically(List.of(
          new RowChange(db.table("a"), put("r", "x", Durability.SYNC)),
          new RowChange(db.table("a"), put("r", "y", Durability.SYNC)))), "a row twice");
      assertThrows(InvalidArgumentException.class, () -> pair(db, "r", "x", Durability.SKIP));
      assertEquals(null, value(db.table("a"), "r"), "a refused write writes nothing");
    }
  }

  @Test
  void aFailedSyncLeavesNoPartVisible() throws IOException {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    Database db = TestTables.open(tmp.resolve("db"), EngineOptions.defaults().withFileSystem(fs),
        Map.of("f", FamilyOptions.DEFAULT), "a", "b");
    try {
      pair(db, "before", "v0", Durability.SYNC);
      fs.setFaults((op, p, n) -> op == Op.SYNC && p.toString().contains("wal")
          ? Action.FAIL : Action.PASS);
      assertThrows(StorageIOException.class, () -> pair(db, "failed", "v1", Durability.SYNC));
      assertEquals(null, value(db.table("a"), "failed"));
      assertEquals(null, value(db.table("b"), "v1"));
      assertEquals("v0", value(db.table("a"), "before"));
    } finally {
      try {
        db.close();
      } catch (RuntimeException expected) {
        // the log failed
      }
    }
  }

  @Test
  void partsFlushedApartAreReplayedRight() {
    Path dir = tmp.resolve("db");
    try (Database db = TestTables.open(dir, EngineOptions.defaults(),
        Map.of("f", FamilyOptions.DEFAULT), "a", "b")) {
      pair(db, "r1", "v1", Durability.SYNC);
      db.admin().flush(TableName.of("a")); // a's part in a file, b's only in the log
      pair(db, "r2", "v2", Durability.SYNC);
    }
    try (Database db = Database.open(dir, EngineOptions.defaults())) {
      assertEquals("v1", value(db.table("a"), "r1"));
      assertEquals("r1", value(db.table("b"), "v1"));
      assertEquals("v2", value(db.table("a"), "r2"));
      assertEquals("r2", value(db.table("b"), "v2"));
    }
  }

  /**
   * Writers race on the same rows of both tables (each write puts one value in a row of a and
   * the same row of b, listing them in either order; single-row writes mixed in): no deadlock,
   * and every row of a ends equal to its row of b (the same writer's value).
   */
  @Test
  void concurrentWritersOnTheSameRowsNeitherDeadlockNorInterleave() throws Exception {
    long seed = io.basaltdb.engine.Seeds.seed("MultiRegionWriteTest.concurrent");
    try (Database db = TestTables.open(tmp.resolve("db"), EngineOptions.defaults(),
        Map.of("f", FamilyOptions.DEFAULT), "a", "b")) {
      Table a = db.table("a");
      Table b = db.table("b");
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
          java.time.Duration.ofSeconds(120), () -> runWriters(4, seed, (rnd, id) -> {
            for (int i = 0; i < 1500; i++) {
              String row = "r" + rnd.nextInt(20);
              String v = id + "-" + i;
              Durability d = rnd.nextBoolean() ? Durability.SYNC : Durability.ASYNC;
              RowChange ca = new RowChange(a, put(row, v, d));
              RowChange cb = new RowChange(b, put(row, v, d));
              db.mutateAtomically(rnd.nextBoolean() ? List.of(ca, cb) : List.of(cb, ca));
              if (rnd.nextInt(10) == 0) {
                a.put(put("single" + rnd.nextInt(5), v, Durability.ASYNC));
              }
            }
          }));
      for (int r = 0; r < 20; r++) {
        assertEquals(value(a, "r" + r), value(b, "r" + r), "row r" + r + ", seed " + seed);
      }
    }
  }

  /**
   * Two writers, each writing two rows of one region, in row order p < q and u < v where p and
   * v share a lock stripe and so do q and u: locking rows in row order, each would hold a
   * stripe the other waits for; in stripe order they cannot.
   */
  @Test
  void writesOfRowsSharingLockStripesDoNotDeadlock() throws Exception {
    String[] rows = crossedStripes();
    try (Database db = TestTables.open(tmp.resolve("db"), EngineOptions.defaults(),
        Map.of("f", FamilyOptions.DEFAULT), "a")) {
      Table a = db.table("a");
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
          java.time.Duration.ofSeconds(30), () -> runWriters(2, 0, (rnd, id) -> {
            String x = rows[2 * id];
            String y = rows[2 * id + 1];
            long end = System.nanoTime() + 4_000_000_000L; // row order deadlocks within ~1 s
            for (int i = 0; System.nanoTime() < end; i++) {
              db.mutateAtomically(List.of(new RowChange(a, put(x, "" + i, Durability.ASYNC)),
                  new RowChange(a, put(y, "" + i, Durability.ASYNC))));
            }
          }), "rows " + java.util.Arrays.toString(rows));
    }
  }

  /** Rows p < q, u < v with stripe(p) = stripe(v) != stripe(q) = stripe(u). */
  private static String[] crossedStripes() {
    Map<Integer, String> firstOfStripe = new java.util.HashMap<>();
    for (int i = 0; ; i++) {
      String r = String.format("r%06d", i);
      firstOfStripe.putIfAbsent(RowLocks.stripe(r.getBytes()), r);
      if (firstOfStripe.size() >= 2) {
        break;
      }
    }
    List<String> firsts = firstOfStripe.values().stream().sorted().toList();
    String p = firsts.get(0);
    String q = firsts.get(1);
    String u = null;
    String v = null;
    for (int i = 1_000_000; v == null; i++) { // rows after p and q
      String r = String.format("r%07d", i);
      int s = RowLocks.stripe(r.getBytes());
      if (u == null && s == RowLocks.stripe(q.getBytes())) {
        u = r;
      } else if (u != null && s == RowLocks.stripe(p.getBytes())) {
        v = r;
      }
    }
    return new String[] {p, q, u, v};
  }

  /**
   * A read-modify-write led by one row: concurrent adders each read the counter under its lock
   * and write it with a mirror row in another table (the counter's value as its key); no
   * update lost, the newest mirror written with it; a check that throws writes nothing.
   */
  @Test
  void readModifyWriteLedByOneRowLosesNoUpdate() throws Exception {
    long seed = io.basaltdb.engine.Seeds.seed("MultiRegionWriteTest.afterRead");
    try (Database db = TestTables.open(tmp.resolve("db"), EngineOptions.defaults(),
        Map.of("f", FamilyOptions.DEFAULT), "a", "b")) {
      Table a = db.table("a");
      Table b = db.table("b");
      runWriters(4, seed, (rnd, id) -> {
        for (int i = 0; i < 500; i++) {
          Durability d = rnd.nextBoolean() ? Durability.SYNC : Durability.ASYNC;
          db.mutateAfterRead(a, "c".getBytes(), d, current -> {
            byte[] v = current.getValue(F, Q);
            int next = v == null ? 1 : Integer.parseInt(new String(v)) + 1;
            return List.of(new RowChange(a, put("c", "" + next, d)),
                new RowChange(b, put("m" + next, "c", d)));
          });
        }
      });
      assertEquals("2000", value(a, "c"), "seed " + seed);
      assertEquals("c", value(b, "m2000"));
      assertEquals("c", value(b, "m1"));
      assertThrows(IllegalStateException.class, () -> db.mutateAfterRead(a, "c".getBytes(),
          Durability.SYNC, current -> List.of(new RowChange(a, put("c", "x", Durability.SYNC)),
              new RowChange(b, put("m1", "y", Durability.SYNC), existing -> {
                if (existing.getValue(F, Q) != null) {
                  throw new IllegalStateException("m1 is taken");
                }
              }))));
      assertEquals("2000", value(a, "c"), "a refused write writes nothing");
      assertEquals("c", value(b, "m1"));
      db.mutateAfterRead(a, "c".getBytes(), Durability.SYNC, current -> List.of());
      assertEquals("2000", value(a, "c"), "no change: nothing written");
    }
  }

  private interface Writer {
    void run(java.util.Random rnd, int id) throws Exception;
  }

  private static void runWriters(int n, long seed, Writer writer) throws Exception {
    List<Thread> threads = new java.util.ArrayList<>();
    java.util.concurrent.atomic.AtomicReference<Throwable> failure =
        new java.util.concurrent.atomic.AtomicReference<>();
    for (int w = 0; w < n; w++) {
      java.util.Random rnd = new java.util.Random(seed + w);
      int id = w;
      threads.add(new Thread(() -> {
        try {
          writer.run(rnd, id);
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("seed " + seed, failure.get());
    }
  }

  /** Cuts the log inside the last write's record at every byte: both parts, or neither. */
  @Test
  void aCrashKeepsBothPartsOrNeitherWhereverItCutsTheRecord() throws IOException {
    Path dir = tmp.resolve("db");
    try (Database db = TestTables.open(dir, EngineOptions.defaults(),
        Map.of("f", FamilyOptions.DEFAULT), "a", "b")) {
      pair(db, "r1", "v1", Durability.SYNC);
    }
    try (Database db = Database.open(dir, EngineOptions.defaults())) {
      pair(db, "r2", "v2", Durability.SYNC); // the only record of the segment this open began
    }
    Path segment = newestSegment(dir);
    long end = Files.size(segment);
    int whole = 0;
    int none = 0;
    for (long cut = 0; cut <= end; cut++) {
      Path copy = tmp.resolve("cut" + cut);
      copyTree(dir, copy);
      Path seg = copy.resolve(dir.relativize(segment));
      try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
        ch.truncate(cut);
      }
      try (Database db = Database.open(copy, EngineOptions.defaults())) {
        String a = value(db.table("a"), "r2");
        String b = value(db.table("b"), "v2");
        assertTrue((a == null) == (b == null), "cut at " + cut + ": a=" + a + " b=" + b);
        if (a != null) {
          whole++;
        } else {
          none++;
        }
        assertEquals("v1", value(db.table("a"), "r1"), "an earlier write stays");
      }
      deleteTree(copy);
    }
    assertTrue(whole >= 1 && none >= 1, "whole " + whole + ", none " + none);
  }

  private static Path newestSegment(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("wal"))) {
      return s.filter(p -> p.getFileName().toString().endsWith(".log"))
          .max(Comparator.naturalOrder()).orElseThrow();
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p));
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else if (!p.getFileName().toString().equals("LOCK")) {
          Files.copy(p, t);
        }
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
