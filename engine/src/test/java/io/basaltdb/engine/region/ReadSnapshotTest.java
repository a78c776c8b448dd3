package io.basaltdb.engine.region;

import io.basaltdb.storage.StorageTransaction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.Transaction;
import io.basaltdb.storage.WriteConflictException;
import io.basaltdb.engine.io.FaultInjectingFileSystem;
import io.basaltdb.engine.io.FaultInjectingFileSystem.Action;
import io.basaltdb.engine.io.FaultInjectingFileSystem.Op;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database snapshot is one cut of every region: what it sees stays there through overwrites,
 * deletes, flushes and major compactions until it is closed, and a write spanning regions is
 * seen whole or not at all however long the reads of the regions are apart.
 */
class ReadSnapshotTest {
  private static final byte[] F = "f".getBytes();
  private static final byte[] Q = "q".getBytes();

  @TempDir Path tmp;

  private static Put put(String row, String value) {
    return new Put(row.getBytes()).addColumn(F, Q, value.getBytes());
  }

  private static String value(Table t, String row, ReadSnapshot s) {
    byte[] v = t.get(new Get(row.getBytes()).setSnapshot(s)).getValue(F, Q);
    return v == null ? null : new String(v);
  }

  private static Database open(Path dir, String table, byte[][] splits) {
    Database db = Database.open(dir, EngineOptions.defaults());
    db.admin().createTable(new TableDescriptor(TableName.of(table),
        Map.of("f", FamilyOptions.DEFAULT)), splits);
    return db;
  }

  @Test
  void aSnapshotKeepsWhatItSawThroughOverwritesDeletesAndMajorCompactions() {
    try (Database db = open(tmp.resolve("db"), "t", new byte[0][])) {
      Table t = db.table("t");
      t.put(put("a", "old"));
      t.put(put("b", "old"));
      t.put(put("c", "old"));
      try (ReadSnapshot s = db.snapshot()) {
        t.put(put("a", "new")); // VERSIONS 1: a compaction without the pin drops "old"
        t.delete(new Delete("b".getBytes()));
        t.put(put("d", "new"));
        db.admin().flush(TableName.of("t"));
        db.admin().majorCompact(TableName.of("t"));
        assertEquals("old", value(t, "a", s));
        assertEquals("old", value(t, "b", s), "a row deleted after the snapshot");
        assertNull(value(t, "d", s), "a row written after the snapshot");
        assertEquals("new", value(t, "a", null));
        assertNull(value(t, "b", null));
        List<String> rows = new ArrayList<>();
        try (ResultScanner sc = t.getScanner(new Scan().setSnapshot(s))) {
          for (Result r : sc) {
            rows.add(new String(r.row()) + "=" + new String(r.getValue(F, Q)));
          }
        }
        assertEquals(List.of("a=old", "b=old", "c=old"), rows);
        List<String> reversed = new ArrayList<>();
        try (ResultScanner sc = t.getScanner(new Scan().setReversed(true).setSnapshot(s))) {
          for (Result r : sc) {
            reversed.add(new String(r.row()));
          }
        }
        assertEquals(List.of("c", "b", "a"), reversed);
        assertEquals(1, db.openSnapshots());
      }
      assertEquals(0, db.openSnapshots());
      db.admin().majorCompact(TableName.of("t"));
      try (ReadSnapshot late = db.snapshot()) {
        assertEquals("new", value(t, "a", late));
        assertNull(value(t, "b", late));
        assertEquals("new", value(t, "d", late));
      }
    }
  }

  /**
   * A writer moves a counter between a row of each region in one write; a reader reads the two
   * rows with a pause between: at one snapshot they always sum to the total, and without one
   * they do not (the pause lets writes in, so the check that the test can fail is part of it).
   */
  @Test
  void aWriteAcrossRegionsIsSeenWholeAtOneSnapshot() throws Exception {
    try (Database db = open(tmp.resolve("db2"), "t", new byte[][] {"m".getBytes()})) {
      Table t = db.table("t");
      assertEquals(2, db.regions(TableName.of("t")).size());
      db.mutateAtomically(List.of(new RowChange(t, put("a", "0")), new RowChange(t, put("z", "100"))));
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread writer = new Thread(() -> {
        try {
          for (int i = 1; !stop.get(); i++) {
            int a = i % 101;
            db.mutateAtomically(List.of(new RowChange(t, put("a", Integer.toString(a))),
                new RowChange(t, put("z", Integer.toString(100 - a)))));
          }
        } catch (Throwable e) {
          failed.set(e);
        }
      });
      writer.start();
      int torn = 0;
      try {
        for (int round = 0; round < 200; round++) {
          try (ReadSnapshot s = db.snapshot()) {
            int a = Integer.parseInt(value(t, "a", s));
            Thread.sleep(0, 200_000);
            int z = Integer.parseInt(value(t, "z", s));
            assertEquals(100, a + z, "round " + round + " at " + s.readPoint());
          }
          int a = Integer.parseInt(value(t, "a", null));
          Thread.sleep(0, 200_000);
          int z = Integer.parseInt(value(t, "z", null));
          if (a + z != 100) {
            torn++;
          }
          if (round % 50 == 0) {
            db.admin().flush(TableName.of("t"));
          }
        }
      } finally {
        stop.set(true);
        writer.join();
      }
      assertNull(failed.get());
      assertTrue(torn > 0, "without a snapshot the two reads should see different writes");
    }
  }

  /**
   * A snapshot is a cut without the writes in flight: a write still syncing the log is neither
   * waited for nor seen (the snapshot's reads return while the fsync is held), and stays unseen
   * by that snapshot after it completes; a write to another region meanwhile is acknowledged
   * without waiting for it, and a snapshot taken after that acknowledgement sees it.
   */
  @Test
  void aSnapshotNeitherWaitsForNorSeesAWriteStillSyncing() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    CountDownLatch syncing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean holdNextWalSync = new AtomicBoolean();
    fs.setFaults((op, path, n) -> {
      if (op == Op.SYNC && path.toString().contains("wal") && holdNextWalSync.getAndSet(false)) {
        syncing.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return Action.PASS;
    });
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (Database db = Database.open(tmp.resolve("db3"), EngineOptions.defaults().withFileSystem(fs))) {
      db.admin().createTable(new TableDescriptor(TableName.of("t"),
          Map.of("f", FamilyOptions.DEFAULT)), new byte[][] {"m".getBytes()});
      Table t = db.table("t");
      t.put(put("a", "old"));
      t.put(put("z", "old"));
      holdNextWalSync.set(true);
      Future<?> syncingWrite = pool.submit(() -> t.put(put("a", "new")));
      assertTrue(syncing.await(10, TimeUnit.SECONDS), "the write reaches its fsync");
      try (ReadSnapshot during = pool.submit(db::snapshot).get(5, TimeUnit.SECONDS)) {
        assertEquals("old", pool.submit(() -> value(t, "a", during)).get(5, TimeUnit.SECONDS),
            "a snapshot read does not wait for a write in flight, nor see it");
        pool.submit(() -> t.put(put("z", "new").setDurability(Durability.ASYNC)))
            .get(5, TimeUnit.SECONDS); // no writer waits for another region's write in flight
        try (ReadSnapshot after = pool.submit(db::snapshot).get(5, TimeUnit.SECONDS)) {
          assertEquals("new", value(t, "z", after), "acknowledged, so a later snapshot sees it");
          assertEquals("old", value(t, "a", after), "still in flight, so not seen");
        }
        assertFalse(syncingWrite.isDone(), "the first write is still syncing");
        Transaction tx = pool.submit(() -> db.begin(StorageTransaction.Isolation.SNAPSHOT))
            .get(5, TimeUnit.SECONDS); // its snapshot hides the write in flight too
        tx.table(TableName.of("t")).put(put("a", "tx"));
        release.countDown();
        syncingWrite.get(10, TimeUnit.SECONDS);
        assertThrows(WriteConflictException.class, () -> tx.commit(Durability.SYNC),
            "the row was written by a write the transaction's snapshot did not see");
        db.admin().flush(TableName.of("t")); // VERSIONS 1: resolving at the cut's point would
        db.admin().majorCompact(TableName.of("t")); // drop the "old" it sees
        assertEquals("old", value(t, "a", during), "the snapshot's cut does not move");
        assertEquals("old", value(t, "z", during));
        List<String> rows = new ArrayList<>();
        try (ResultScanner sc = t.getScanner(new Scan().setSnapshot(during))) {
          for (Result r : sc) {
            rows.add(new String(r.row()) + "=" + new String(r.getValue(F, Q)));
          }
        }
        assertEquals(List.of("a=old", "z=old"), rows);
      }
      try (ReadSnapshot after = db.snapshot()) {
        assertEquals("new", value(t, "a", after));
        assertEquals("new", value(t, "z", after));
      }
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }
}
