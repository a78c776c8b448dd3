package io.basaltdb.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk refuses: a full disk (a short write, then ENOSPC) or a failed write, fsync, rename
 * or directory fsync, in the log, a flush, a compaction and the catalog. In every case no
 * acknowledged write is lost (the same process reads it, and so does a reopen, also after a
 * power loss); a write reported failed is never seen before the reopen; a failure that leaves
 * the log or the memstores in doubt turns the database read-only with a clear error, while a
 * failed compaction or table creation only fails itself; a reopen recovers and takes writes.
 */
class DiskFaultTest {
  private static final byte[] F = "f".getBytes();
  private static final byte[] Q = "q".getBytes();
  private static final TableName T = TableName.of("t");

  @TempDir Path tmp;

  private FaultInjectingFileSystem fs;
  private Path dir;
  private final List<String> acked = new ArrayList<>();

  private Database open() throws IOException {
    fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    dir = tmp.resolve("db");
    // no background compaction: the test decides when one runs
    EngineOptions o = EngineOptions.defaults().withFileSystem(fs).withCompactionFiles(100, 200)
        .withWalRollBytes(1 << 20);
    return TestTables.open(dir, o, Map.of("f", FamilyOptions.DEFAULT), "t");
  }

  private static Put put(String row) {
    Put p = new Put(row.getBytes());
    p.addColumn(F, Q, ("value of " + row).getBytes());
    p.setDurability(Durability.SYNC);
    return p;
  }

  /** Writes {@code n} acknowledged rows named {@code prefix + i}. */
  private void write(Table t, String prefix, int n) {
    for (int i = 0; i < n; i++) {
      String row = prefix + i;
      t.put(put(row));
      acked.add(row);
    }
  }

  /** Three flushed files and some rows only in the log and the memstore. */
  private void populate(Database db) {
    Table t = db.table("t");
    for (int f = 0; f < 3; f++) {
      write(t, "file" + f + "-", 50);
      db.admin().flush(T);
    }
    write(t, "mem-", 40);
  }

  private static boolean present(Database db, String row) {
    return db.table("t").get(new Get(row.getBytes())).cells().stream()
        .anyMatch(c -> new String(c.value()).equals("value of " + row));
  }

  private void assertAllAcked(Database db, String when) {
    for (String row : acked) {
      assertTrue(present(db, row), "acknowledged row " + row + " missing " + when);
    }
  }

  /** Every later operation of {@code op} on a path with {@code pathPart} fails this way. */
  private void failFrom(Op op, String pathPart, Action how) {
    fs.setFaults((o, p, n) -> o == op && p.toString().contains(pathPart) ? how : Action.PASS);
  }

  private void heal() {
    fs.setFaults((o, p, n) -> Action.PASS);
  }

  private void assertReadOnly(Database db) {
    StorageIOException e = assertThrows(StorageIOException.class,
        () -> db.table("t").put(put("refused")));
    assertTrue(e.getMessage().contains("read-only until it is reopened"), e.getMessage());
  }

  private static void closeQuietly(Database db) {
    try {
      db.close();
    } catch (RuntimeException expected) {
      // a failed log cannot be closed cleanly
    }
  }

  /** Reopens (after a power loss when asked) and checks every acknowledged row, then writes. */
  private void reopenAndCheck(Database db, boolean powerLoss) throws IOException {
    if (powerLoss) {
      fs.crash("power loss in test");
    }
    closeQuietly(db);
    if (powerLoss) {
      fs.powerLoss();
    }
    heal();
    EngineOptions o = EngineOptions.defaults().withFileSystem(fs);
    try (Database again = Database.open(dir, o)) {
      assertAllAcked(again, "after reopening" + (powerLoss ? " from a power loss" : ""));
      write(again.table("t"), "after-reopen-", 5);
      again.admin().flush(T);
      assertAllAcked(again, "after a write and flush in the reopened database");
    }
    try (Database third = Database.open(dir, o)) {
      assertAllAcked(third, "after a second reopen");
    }
  }

  private List<String> blockFiles() throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.toString().endsWith(".blk")).map(p -> p.getFileName().toString())
          .sorted().toList();
    }
  }

  // ------------------------------------------------------------------ the log

  @Test
  void aFullDiskUnderTheLogFailsThatWriteTurnsReadOnlyAndReopenKeepsEveryAcknowledgedWrite()
      throws IOException {
    for (boolean powerLoss : new boolean[] {false, true}) {
      acked.clear();
      deleteTree(tmp);
      Database db = open();
      populate(db);
      failFrom(Op.WRITE, "wal", Action.DISK_FULL);
      StorageIOException e = assertThrows(StorageIOException.class,
          () -> db.table("t").put(put("failed")));
      assertTrue(causes(e).contains(FaultInjectingFileSystem.NO_SPACE), causes(e));
      assertFalse(present(db, "failed"), "a write reported failed is never seen");
      assertAllAcked(db, "after the failed write");
      assertReadOnly(db);
      assertThrows(StorageIOException.class, () -> db.admin().flush(T));
      reopenAndCheck(db, powerLoss);
    }
  }

  @Test
  void aFailedLogFsyncOrSegmentRollTurnsReadOnlyAndLosesNothing() throws IOException {
    for (Op op : new Op[] {Op.SYNC, Op.CREATE, Op.DIRSYNC}) {
      acked.clear();
      deleteTree(tmp);
      Database db = open();
      populate(db);
      failFrom(op, "wal", Action.FAIL);
      // a SYNC put fsyncs the log; a roll (forced here) creates a segment and syncs the directory
      RuntimeException e = assertThrows(RuntimeException.class, () -> {
        db.table("t").put(put("failed"));
        db.admin().flush(T); // a flush rolls the log once enough is flushed; else it syncs it
        for (int i = 0; i < 2000; i++) {
          Put p = put("big-" + i);
          p.addColumn(F, "pad".getBytes(), new byte[4096]);
          db.table("t").put(p);
          acked.add("big-" + i);
        }
      }, "a failing " + op + " of the log must fail some write");
      assertTrue(causes(e).contains("injected fault"), op + ": " + causes(e));
      assertAllAcked(db, "after a failed log " + op);
      assertReadOnly(db);
      reopenAndCheck(db, true);
    }
  }

  /** A fault: every later {@code op} on a path containing {@code pathPart} fails {@code how}. */
  private record Fault(Op op, String pathPart, Action how) {
    @Override
    public String toString() {
      return op + " " + pathPart + " " + how;
    }
  }

  private interface FaultCase {
    void run(Database db, Fault fault, boolean powerLoss, String what) throws IOException;
  }

  /** Runs {@code body} for each fault, without and with a power loss before the reopen. */
  private void eachFault(List<Fault> faults, FaultCase body) throws IOException {
    for (Fault f : faults) {
      for (boolean powerLoss : new boolean[] {false, true}) {
        acked.clear();
        deleteTree(tmp);
        Database db = open();
        populate(db);
        body.run(db, f, powerLoss, f + (powerLoss ? " + power loss" : ""));
      }
    }
  }

  /** Arms {@code f}. */
  private void arm(Fault f) {
    failFrom(f.op(), f.pathPart(), f.how());
  }

  // ------------------------------------------------------------------ flushes

  @Test
  void aFlushThatCannotWriteItsFileKeepsTheDataReadableAndTurnsReadOnly() throws IOException {
    eachFault(List.of(
        new Fault(Op.WRITE, ".blk", Action.DISK_FULL),
        new Fault(Op.SYNC, ".blk", Action.FAIL),
        new Fault(Op.CREATE, ".blk", Action.DISK_FULL),
        new Fault(Op.WRITE, "MANIFEST.tmp", Action.DISK_FULL),
        new Fault(Op.RENAME, "MANIFEST", Action.FAIL),
        new Fault(Op.DIRSYNC, "", Action.FAIL)), (db, fault, powerLoss, what) -> {
          arm(fault);
          assertThrows(StorageIOException.class, () -> db.admin().flush(T), what);
          heal(); // the disk has room again: the database stays read-only all the same
          assertAllAcked(db, "after a failed flush (" + what + ")");
          assertReadOnly(db);
          reopenAndCheck(db, powerLoss);
        });
  }

  // ------------------------------------------------------------------ compactions

  @Test
  void aCompactionThatFailsLeavesTheStoreAsItWasAndWritesGoOn() throws IOException {
    eachFault(List.of(
        new Fault(Op.WRITE, ".blk", Action.DISK_FULL),
        new Fault(Op.SYNC, ".blk", Action.FAIL),
        new Fault(Op.WRITE, "MANIFEST.tmp", Action.DISK_FULL),
        new Fault(Op.RENAME, "MANIFEST", Action.FAIL),
        new Fault(Op.DIRSYNC, "", Action.FAIL)), (db, fault, powerLoss, what) -> {
          db.admin().flush(T);
          List<String> before = blockFiles();
          arm(fault);
          StorageIOException e = assertThrows(StorageIOException.class,
              () -> db.admin().majorCompact(T), what);
          assertTrue(e.getMessage().contains("compaction"), what + ": " + e.getMessage());
          heal();
          assertAllAcked(db, "after a failed compaction (" + what + ")");
          boolean inDoubt = fault.op() == Op.DIRSYNC; // the new manifest may be the one
          if (!inDoubt) {
            assertEquals(before, blockFiles(), what + ": the failed output is deleted");
          }
          write(db.table("t"), "after-failure-", 20); // not read-only: no acknowledged write at risk
          db.admin().flush(T);
          db.admin().majorCompact(T); // and the next compaction, with room again, works
          // an output whose manifest was in doubt stays on disk until the next open
          assertEquals(inDoubt ? 2 : 1, blockFiles().size(), what + ": " + blockFiles());
          assertAllAcked(db, "after the compaction that worked (" + what + ")");
          reopenAndCheck(db, powerLoss);
        });
  }

  // ------------------------------------------------------------------ the catalog

  @Test
  void aCreateTableThatCannotWriteTheCatalogFailsAloneAndLeavesNoTable() throws IOException {
    eachFault(List.of(
        new Fault(Op.WRITE, "CATALOG", Action.DISK_FULL),
        new Fault(Op.CREATE, "CATALOG", Action.DISK_FULL),
        new Fault(Op.RENAME, "CATALOG", Action.FAIL),
        new Fault(Op.MKDIR, "regions", Action.DISK_FULL),
        new Fault(Op.DIRSYNC, "", Action.FAIL)), (db, fault, powerLoss, what) -> {
          arm(fault);
          TableName u = TableName.of("u");
          assertThrows(StorageIOException.class, () -> db.admin()
              .createTable(new TableDescriptor(u, Map.of("f", FamilyOptions.DEFAULT))), what);
          heal();
          if (fault.op() != Op.DIRSYNC) {
            // a directory fsync failing after the catalog's rename leaves the creation in doubt
            assertFalse(db.admin().tableExists(u), what + ": the failed table does not exist");
          }
          write(db.table("t"), "after-catalog-failure-", 10); // only the DDL failed
          if (!db.admin().tableExists(u)) {
            db.admin().createTable(new TableDescriptor(u, Map.of("f", FamilyOptions.DEFAULT)));
          }
          db.table("u").put(put("in-u"));
          reopenAndCheck(db, powerLoss);
        });
  }

  private static String causes(Throwable t) {
    StringBuilder b = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      b.append(c).append(" <- ");
    }
    return b.toString();
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        if (!p.equals(root)) {
          Files.delete(p);
        }
      }
    }
  }
}
