package io.basaltdb.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.engine.Seeds;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDisabledException;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.TestTables;
import io.basaltdb.engine.io.FaultInjectingFileSystem;
import io.basaltdb.engine.io.FaultInjectingFileSystem.Action;
import io.basaltdb.engine.io.FaultInjectingFileSystem.Op;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acknowledged writes lost without a crash, as the review found them: disable/enable under
 * load, a failed log sync whose write still became visible and was flushed, SKIP writes that
 * lost their "needs flush" mark during a flush; and a split made durable before a power loss.
 */
class WritePathFaultTest {
  private static final byte[] F = "f".getBytes();
  private static final byte[] Q = "q".getBytes();
  private static final TableName T = TableName.of("t");

  @TempDir Path tmp;

  private static Put put(String row, Durability d) {
    Put p = new Put(row.getBytes());
    p.addColumn(F, Q, row.getBytes());
    p.setDurability(d);
    return p;
  }

  private static boolean present(Database db, String row) {
    return !db.table("t").get(new Get(row.getBytes())).cells().isEmpty();
  }

  @Test
  void disableAndEnableUnderLoadLoseNoAcknowledgedWrite() throws Exception {
    long seed = Seeds.seed("WritePathFaultTest.disable");
    Path dir = tmp.resolve("db");
    EngineOptions o = EngineOptions.defaults().withFlushSizeBytes(64 * 1024);
    Set<String> acked = ConcurrentHashMap.newKeySet();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    try (Database db = TestTables.open(dir, o, Map.of("f", FamilyOptions.DEFAULT), "t")) {
      Table t = db.table("t");
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 16; w++) {
        int id = w;
        Durability d = w % 2 == 0 ? Durability.SYNC : Durability.ASYNC;
        writers.add(new Thread(() -> {
          for (int n = 0; !stop.get(); ) {
            String row = "w" + id + "-" + n;
            try {
              t.put(put(row, d));
              acked.add(row);
              n++;
            } catch (TableDisabledException e) {
              Thread.onSpinWait(); // a clear error; the same write is tried again
            } catch (Throwable e) {
              failure.compareAndSet(null, e);
              return;
            }
          }
        }));
      }
      writers.forEach(Thread::start);
      Random rnd = new Random(seed);
      for (int cycle = 0; cycle < 40; cycle++) {
        Thread.sleep(rnd.nextInt(15));
        db.admin().disableTable(T);
        Thread.sleep(rnd.nextInt(5));
        db.admin().enableTable(T);
      }
      stop.set(true);
      for (Thread w : writers) {
        w.join();
      }
      if (failure.get() != null) {
        throw new AssertionError("writer failed", failure.get());
      }
      assertTrue(acked.size() > 1000, "writers made progress: " + acked.size());
      for (String row : acked) {
        assertTrue(present(db, row), "acknowledged " + row + " lost while open, seed=" + seed);
      }
    }
    try (Database db = Database.open(dir, o)) {
      for (String row : acked) {
        assertTrue(present(db, row), "acknowledged " + row + " lost after reopen, seed=" + seed);
      }
    }
    System.out.println("disable/enable: " + acked.size() + " acknowledged writes, none lost");
  }

  @Test
  void writersOfADisabledTableGetAClearError() {
    try (Database db = TestTables.open(tmp.resolve("d"), EngineOptions.defaults(),
        Map.of("f", FamilyOptions.DEFAULT), "t")) {
      db.admin().disableTable(T);
      TableDisabledException e = assertThrows(TableDisabledException.class,
          () -> db.table("t").put(put("x", Durability.SYNC)));
      assertTrue(e.getMessage().contains("disabled"), e.getMessage());
    }
  }

  private static Set<String> blockFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return new java.util.TreeSet<>(s.filter(p -> p.toString().endsWith(".blk"))
          .map(Path::toString).toList());
    }
  }

  @Test
  void aWriteWhoseSyncFailedIsNeverVisibleNorFlushedAndTheDatabaseTurnsReadOnly()
      throws IOException {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    Path dir = tmp.resolve("db");
    EngineOptions o = EngineOptions.defaults().withFileSystem(fs);
    Database db = TestTables.open(dir, o, Map.of("f", FamilyOptions.DEFAULT), "t");
    try {
      Table t = db.table("t");
      t.put(put("before", Durability.SYNC));
      Set<String> files = blockFiles(dir);
      boolean[] failed = {false};
      fs.setFaults((op, p, n) -> {
        if (op == Op.SYNC && p.toString().contains("wal") && !failed[0]) {
          failed[0] = true;
          return Action.FAIL;
        }
        return Action.PASS;
      });
      assertThrows(StorageIOException.class, () -> t.put(put("failed", Durability.SYNC)));
      assertTrue(failed[0]);
      assertTrue(!present(db, "failed"), "a write reported failed must never be seen");
      StorageIOException e = assertThrows(StorageIOException.class,
          () -> t.put(put("after", Durability.ASYNC)));
      assertTrue(e.getMessage().contains("read-only until it is reopened"), e.getMessage());
      assertThrows(StorageIOException.class, () -> t.put(put("skip", Durability.SKIP)));
      assertThrows(StorageIOException.class, () -> db.admin().flush(T));
      assertTrue(!present(db, "failed"));
      assertEquals(files, blockFiles(dir), "no flush may write the failed write to a file");
      assertTrue(present(db, "before"), "reads go on");
    } finally {
      try {
        db.close();
      } catch (StorageIOException expected) {
        // the log failed
      }
    }
    try (Database again = Database.open(dir, EngineOptions.defaults())) {
      assertTrue(present(again, "before"), "reopening recovers the acknowledged write");
      again.table("t").put(put("later", Durability.SYNC)); // and takes writes again
    }
  }

  @Test
  void skipWritesLandingDuringAFlushAreKeptByACleanClose() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    Path dir = tmp.resolve("db");
    EngineOptions o = EngineOptions.defaults().withFileSystem(fs);
    try (Database db = TestTables.open(dir, o, Map.of("f", FamilyOptions.DEFAULT), "t")) {
      Table t = db.table("t");
      t.put(put("logged", Durability.SYNC));
      t.put(put("skip-1", Durability.SKIP));
      AtomicBoolean done = new AtomicBoolean();
      fs.setFaults((op, p, n) -> {
        if (op == Op.CREATE && p.toString().endsWith(".blk") && !done.getAndSet(true)) {
          Thread w = new Thread(() -> t.put(put("skip-2", Durability.SKIP)));
          w.start(); // lands while the flush writes its file
          try {
            w.join();
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
        }
        return Action.PASS;
      });
      db.admin().flush(T);
      assertTrue(done.get());
    }
    try (Database db = Database.open(dir, EngineOptions.defaults())) {
      assertTrue(present(db, "skip-1"), "flushed by the explicit flush");
      assertTrue(present(db, "skip-2"), "written during the flush: the close must flush it");
    }
  }

  @Test
  void aSplitSurvivesAPowerLossRightAfterIt() throws IOException {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    Path dir = tmp.resolve("db");
    EngineOptions o = EngineOptions.defaults().withFileSystem(fs);
    Database db = TestTables.open(dir, o, Map.of("f", FamilyOptions.DEFAULT), "t");
    for (int i = 0; i < 2000; i++) {
      db.table("t").put(put(String.format("row%05d", i), Durability.SYNC));
    }
    assertEquals(1, db.admin().split(T));
    System.out.println("split power loss: " + powerLoss(db, fs, "right after the split"));
    try (Database again = Database.open(dir, o)) {
      assertEquals(2, again.regions(T).size(), "the daughters are durable");
      for (int i = 0; i < 2000; i++) {
        assertTrue(present(again, String.format("row%05d", i)), "row " + i);
      }
    }
  }

  @Test
  void aLogSegmentIsNotDeletedWhileAWriteHasLoggedButNotReachedItsMemstore() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    Path dir = tmp.resolve("db");
    EngineOptions o = EngineOptions.defaults().withFileSystem(fs).withWalRollBytes(4096);
    Database db = TestTables.open(dir, o, Map.of("f", FamilyOptions.DEFAULT), "a", "b");
    java.util.concurrent.CountDownLatch logged = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    fs.setCrashPoints(name -> {
      if (name.equals("write.afterLog") && Thread.currentThread().getName().equals("slow")) {
        logged.countDown();
        try {
          release.await(); // logged, not yet in its memstore
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
      }
      return false;
    });
    Thread slow = new Thread(() -> db.table("a").put(put("slow", Durability.SYNC)), "slow");
    slow.start();
    logged.await();
    for (int i = 0; i < 200; i++) { // later writes roll the segment holding the slow one's edit
      db.table("b").put(put(String.format("b%03d", i), Durability.SYNC));
    }
    assertTrue(db.walSegmentCount() > 2, "rolled: " + db.walSegmentCount());
    db.admin().flush(TableName.of("b")); // then WAL clean-up runs
    release.countDown();
    slow.join(); // acknowledged
    powerLoss(db, fs, "after the slow write");
    try (Database again = Database.open(dir, o)) {
      assertTrue(!again.table("a").get(new Get("slow".getBytes())).isEmpty(),
          "the acknowledged write's log segment was deleted before it reached its memstore");
    }
  }
  @Test
  void aSyncOperationThatWritesNothingStillMakesWhatItSawDurable() throws IOException {
    // found by the crash campaign (seed 20261124, round 319): an ASYNC put, then a SYNC
    // check-and-put whose check failed; the check-and-put wrote nothing and so synced nothing,
    // and the power loss took the put its caller had seen acknowledged and durable
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    Path dir = tmp.resolve("db");
    EngineOptions o = withoutBackgroundSync(fs);
    Database db = TestTables.open(dir, o, Map.of("f", FamilyOptions.DEFAULT), "t");
    db.table("t").put(put("async", Durability.ASYNC));
    Put p = put("async", Durability.SYNC);
    boolean applied = db.table("t").checkAndMutate(io.basaltdb.storage.CheckAndMutate
        .newBuilder("async".getBytes()).ifEquals(F, Q, "other".getBytes()).build(p));
    assertTrue(!applied, "the check fails");
    powerLoss(db, fs, "after the SYNC check-and-put");
    try (Database again = Database.open(dir, o)) {
      assertTrue(present(again, "async"),
          "a SYNC operation returned, so everything before it is durable");
    }
  }

  @Test
  void databaseSyncMakesEveryAsyncWriteDurable() throws IOException {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    Path dir = tmp.resolve("db");
    EngineOptions o = withoutBackgroundSync(fs);
    Database db = TestTables.open(dir, o, Map.of("f", FamilyOptions.DEFAULT), "t");
    db.table("t").put(put("synced", Durability.ASYNC));
    db.sync();
    db.table("t").put(put("unsynced", Durability.ASYNC));
    powerLoss(db, fs, "after Database.sync");
    try (Database again = Database.open(dir, o)) {
      assertTrue(present(again, "synced"), "written before Database.sync()");
      assertTrue(!present(again, "unsynced"), "the power loss takes an unsynced ASYNC write");
    }
  }

  /** Options whose ASYNC writes are never synced in the background (within a test). */
  private static EngineOptions withoutBackgroundSync(FaultInjectingFileSystem fs) {
    EngineOptions d = EngineOptions.defaults();
    return new EngineOptions(d.flushSizeBytes(), d.globalMemstoreLimitBytes(),
        d.blockCacheBytes(), d.walRollBytes(), 3_600_000, d.compactionMinFiles(),
        d.compactionMaxFiles(), d.compactionRatio(), d.maxCellSizeBytes(),
        d.backgroundThreads(), d.clock(), d.regionSplitBytes(), fs, d.freezeIdleCells());
  }

  /** The power fails: {@code db} is abandoned and everything unsynced is lost. */
  private static String powerLoss(Database db, FaultInjectingFileSystem fs, String why)
      throws IOException {
    fs.crash(why);
    try {
      db.close();
    } catch (RuntimeException expected) {
      // nothing reaches the disk any more
    }
    return fs.powerLoss();
  }
}
