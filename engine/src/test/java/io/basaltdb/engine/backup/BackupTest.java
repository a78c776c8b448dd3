package io.basaltdb.engine.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.Seeds;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.io.NioFileSystem;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Online backups of the embedded engine: taken while writers go on (single rows, deletes and
 * writes spanning regions and tables, ASYNC and SYNC, with flushes, compactions and log rolls
 * under way), each restored and compared cell for cell with a snapshot read at its cut; an
 * incremental backup reusing the previous one's files; and the refusals: a non-empty target,
 * a restore over a database, a missing, extra or damaged file.
 */
class BackupTest {
  static final byte[] F = bytes("f");
  static final byte[] Q = bytes("q");
  static final TableName A = TableName.of("a");
  static final TableName B = TableName.of("b");
  static final TableName OFF = TableName.of("off");

  @TempDir Path tmp;

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Small memstores and log segments: a few seconds of writes flush, compact and roll. */
  static EngineOptions options(FileSystem fs) {
    return EngineOptions.defaults().withFileSystem(fs).withFlushSizeBytes(48 << 10)
        .withWalRollBytes(128 << 10).withCompactionFiles(3, 6);
  }

  /** Tables a (4 regions) and b (2), and a disabled table holding rows. */
  static Database create(Path dir, FileSystem fs) {
    Database db = Database.open(dir, options(fs));
    db.admin().createTable(TableDescriptor.of("a", "f"),
        new byte[][] {bytes("r0500"), bytes("r1000"), bytes("r1500")});
    db.admin().createTable(TableDescriptor.of("b", "f"), new byte[][] {bytes("r1000")});
    db.admin().createTable(TableDescriptor.of("off", "f"));
    for (int i = 0; i < 50; i++) {
      db.table(OFF).put(put("k" + i, "v" + i, Durability.SYNC));
    }
    db.admin().flush(OFF);
    db.admin().disableTable(OFF);
    return db;
  }

  static Put put(String row, String value, Durability d) {
    Put p = new Put(bytes(row));
    p.addColumn(F, Q, bytes(value));
    p.setDurability(d);
    return p;
  }

  /** Every version of every cell of the tables (disabled ones read from a restored copy). */
  static List<String> dump(Database db, ReadSnapshot at, TableName... tables) {
    List<String> out = new ArrayList<>();
    for (TableName t : tables) {
      Scan s = new Scan().readAllVersions();
      if (at != null) {
        s.setSnapshot(at);
      }
      try (ResultScanner sc = db.table(t).getScanner(s)) {
        for (Result r : sc) {
          for (Cell c : r.cells()) {
            out.add(t + " " + new String(c.row(), StandardCharsets.UTF_8) + " "
                + new String(c.family(), StandardCharsets.UTF_8) + ":"
                + new String(c.qualifier(), StandardCharsets.UTF_8) + "@" + c.timestamp() + " "
                + c.type() + " " + new String(c.value(), StandardCharsets.UTF_8));
          }
        }
      }
    }
    return out;
  }

  /** Writers over a and b until stopped, counting acknowledged writes. */
  static final class Writers implements AutoCloseable {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicLong acknowledged = new AtomicLong();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final List<Thread> threads = new ArrayList<>();

    Writers(Database db, long seed, int n) {
      for (int t = 0; t < n; t++) {
        Random rnd = new Random(seed + t);
        int id = t;
        Thread th = new Thread(() -> {
          try {
            for (long i = 0; !stop.get(); i++) {
              String row = String.format("r%04d", rnd.nextInt(2000));
              String value = id + "-" + i + "-" + "x".repeat(rnd.nextInt(200));
              Durability d = rnd.nextInt(4) == 0 ? Durability.SYNC : Durability.ASYNC;
              switch (rnd.nextInt(6)) {
                case 0 -> db.table(A).delete(new Delete(bytes(row)));
                case 1, 2 -> db.mutateAtomically(List.of( // a row and its "index" entry
                    new RowChange(db.table(A), put(row, value, d)),
                    new RowChange(db.table(B), put(String.format("r%04d", 1999 - rnd.nextInt(
                        2000)), row + "=" + value, d))));
                default -> db.table(A).put(put(row, value, d));
              }
              acknowledged.incrementAndGet();
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        }, "writer-" + t);
        th.start();
        threads.add(th);
      }
    }

    /** Waits until {@code n} more writes are acknowledged. */
    void await(long n) throws InterruptedException {
      long target = acknowledged.get() + n;
      while (acknowledged.get() < target && failure.get() == null) {
        Thread.sleep(5);
      }
    }

    @Override
    public void close() throws InterruptedException {
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
      assertEquals(null, failure.get(), "writers failed");
    }
  }

  /** Restores {@code backup} into a new directory and dumps it (disabled table enabled first). */
  List<String> restoredDump(Path backup, String name) {
    Path dir = tmp.resolve(name);
    BackupRestore.restore(NioFileSystem.INSTANCE, backup, dir, false,
        p -> Database.open(p, EngineOptions.defaults()).close());
    try (Database r = Database.open(dir, EngineOptions.defaults())) {
      r.admin().enableTable(OFF);
      return dump(r, null, A, B, OFF);
    }
  }

  @Test
  void backupsTakenUnderWritersRestoreToTheirCut() throws Exception {
    long seed = Seeds.seed("BackupTest.backupsTakenUnderWritersRestoreToTheirCut");
    List<String> offRows;
    try (Database db = create(tmp.resolve("db"), NioFileSystem.INSTANCE)) {
      db.admin().enableTable(OFF);
      offRows = dump(db, null, OFF);
      db.admin().disableTable(OFF);
      try (Writers w = new Writers(db, seed, 3)) {
        w.await(2_000);
        for (int round = 0; round < 3; round++) {
          AtomicReference<ReadSnapshot> atCut = new AtomicReference<>();
          AtomicLong ackedAtCut = new AtomicLong();
          Path dest = tmp.resolve("backup" + round);
          BackupWriter.Report rep = db.backup(dest, BackupOptions.defaults()
              .withCopyOnly(round == 1).withAtCut(() -> {
                atCut.set(db.snapshot());
                ackedAtCut.set(w.acknowledged.get());
              }));
          long ackedAfter = w.acknowledged.get();
          System.out.printf("backup %d: cut %d, %d files (%d linked, %d copied, %d bytes),"
              + " writes held %d us, %d ms; %d writes acknowledged before the cut, %d during"
              + " the copy%n", round, rep.manifest().cutSequence(), rep.manifest().files().size(),
              rep.linked(), rep.copied(), rep.copiedBytes(), rep.writesHeldMicros(), rep.millis(),
              ackedAtCut.get(), ackedAfter - ackedAtCut.get());
          List<String> expected = dump(db, atCut.get(), A, B);
          atCut.get().close();
          w.await(500); // writers go on after the cut: none of theirs may be in the backup
          assertTrue(expected.size() > 100, "rows at the cut: " + expected.size());
          List<String> restored = restoredDump(dest, "restored" + round);
          List<String> want = new ArrayList<>(expected);
          want.addAll(offRows);
          assertEquals(want.size(), restored.size(), "cells in backup " + round);
          assertEquals(want, restored, "backup " + round + " is the database at its cut");
          assertTrue(round == 1 ? rep.linked() == 0 : rep.linked() > 0, "linked " + rep.linked());
          BackupCheck.Report v = BackupCheck.verify(NioFileSystem.INSTANCE, dest, true);
          assertTrue(v.cells() >= 50, "cells read by a deep verify: " + v.cells());
        }
      }
    }
  }

  @Test
  void anIncrementalBackupLinksTheFilesItAlreadyHas() throws Exception {
    try (Database db = create(tmp.resolve("db"), NioFileSystem.INSTANCE)) {
      for (int i = 0; i < 3_000; i++) {
        db.table(A).put(put(String.format("r%04d", i % 2000), "first-" + i, Durability.ASYNC));
      }
      db.admin().flush(A);
      assertTrue(db.awaitBackgroundWork(30_000));
      Path full = tmp.resolve("full");
      BackupWriter.Report first = db.backup(full, BackupOptions.defaults().withCopyOnly(true));
      assertEquals(0, first.reused());
      for (int i = 0; i < 500; i++) {
        db.table(B).put(put(String.format("r%04d", i), "second-" + i, Durability.ASYNC));
      }
      db.admin().flush(B);
      assertTrue(db.awaitBackgroundWork(30_000));
      Path incremental = tmp.resolve("incremental");
      AtomicReference<ReadSnapshot> atCut = new AtomicReference<>();
      BackupWriter.Report second = db.backup(incremental, BackupOptions.defaults()
          .withCopyOnly(true).withPrevious(full).withAtCut(() -> atCut.set(db.snapshot())));
      long blockFiles = first.manifest().files().stream()
          .filter(e -> e.path().endsWith(".blk")).count();
      assertTrue(blockFiles >= 5, "block files in the first backup: " + blockFiles);
      assertEquals(blockFiles, second.reused(), "the first backup's block files, reused");
      assertEquals(second.manifest().files().size() - second.reused(), second.copied(),
          "the others copied");
      assertTrue(second.manifest().files().stream().filter(e -> e.path().endsWith(".blk"))
          .count() > blockFiles, "b's new file is in the second backup");
      for (BackupManifest.Entry e : first.manifest().files()) {
        if (e.path().endsWith(".blk")) {
          assertEquals(Files.readAttributes(full.resolve(e.path()), "unix:ino").get("ino"),
              Files.readAttributes(incremental.resolve(e.path()), "unix:ino").get("ino"),
              e.path() + " is the first backup's file");
        }
      }
      List<String> expected = dump(db, atCut.get(), A, B);
      atCut.get().close();
      List<String> restored = restoredDump(incremental, "restored");
      assertEquals(expected, restored.subList(0, expected.size()));
      assertTrue(restored.stream().anyMatch(s -> s.contains("second-499")));
    }
  }

  @Test
  void refusalsNameWhatIsWrong() throws Exception {
    FileSystem fs = NioFileSystem.INSTANCE;
    Path dest = tmp.resolve("backup");
    try (Database db = create(tmp.resolve("db"), fs)) {
      db.table(A).put(put("r0001", "v", Durability.SYNC));
      Files.createDirectories(dest);
      Files.writeString(dest.resolve("stray"), "x");
      InvalidArgumentException notEmpty = assertThrows(InvalidArgumentException.class,
          () -> db.backup(dest, BackupOptions.defaults()));
      assertTrue(notEmpty.getMessage().contains("is not empty"), notEmpty.getMessage());
      assertThrows(InvalidArgumentException.class,
          () -> db.backup(tmp.resolve("db").resolve("inside"), BackupOptions.defaults()));
      Files.delete(dest.resolve("stray"));
      db.backup(dest, BackupOptions.defaults().withCopyOnly(true));
    }
    Path data = tmp.resolve("data");
    Files.createDirectories(data);
    Files.writeString(data.resolve("keep"), "mine");
    InvalidArgumentException occupied = assertThrows(InvalidArgumentException.class,
        () -> BackupRestore.restore(fs, dest, data, false, p -> { }));
    assertTrue(occupied.getMessage().contains("--force"), occupied.getMessage());
    assertEquals("mine", Files.readString(data.resolve("keep")));

    Files.writeString(dest.resolve("regions/extra"), "x");
    CorruptionException extra = assertThrows(CorruptionException.class,
        () -> BackupCheck.verify(fs, dest, false));
    assertTrue(extra.getMessage().contains("regions/extra"), extra.getMessage());
    Files.delete(dest.resolve("regions/extra"));

    Path catalog = dest.resolve("CATALOG");
    byte[] saved = Files.readAllBytes(catalog);
    Files.delete(catalog);
    CorruptionException missing = assertThrows(CorruptionException.class,
        () -> BackupRestore.restore(fs, dest, tmp.resolve("fresh"), false, p -> { }));
    assertTrue(missing.getMessage().contains("CATALOG") && missing.getMessage().contains(
        "missing"), missing.getMessage());
    assertFalse(Files.exists(tmp.resolve("fresh")));
    Files.write(catalog, saved);

    BackupRestore.Report r = BackupRestore.restore(fs, dest, data, true,
        p -> Database.open(p, EngineOptions.defaults()).close());
    assertTrue(r.movedAside() != null && Files.readString(r.movedAside().resolve("keep"))
        .equals("mine"), "the old directory is moved aside: " + r.movedAside());
    try (Database restored = Database.open(data, EngineOptions.defaults())) {
      assertEquals("v", new String(restored.table(A).get(new io.basaltdb.storage.Get(
          bytes("r0001"))).getValue(F, Q), StandardCharsets.UTF_8));
    }

    Files.delete(dest.resolve(BackupManifest.NAME));
    CorruptionException incomplete = assertThrows(CorruptionException.class,
        () -> BackupRestore.restore(fs, dest, tmp.resolve("fresh"), false, p -> { }));
    assertTrue(incomplete.getMessage().contains("not a complete backup"),
        incomplete.getMessage());
  }

  static long count(Path dir) throws IOException {
    try (var s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).count();
    }
  }
}
