package io.basaltdb.engine.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.io.FaultInjectingFileSystem;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The windows inside a flush, a compaction and a split, held open: the maintenance stops at
 * one of its named points (a crash point of the file system, used here as a pause) with one
 * family's store done and the other's not, or with the daughters written and not yet open,
 * while scans (whole table, from the middle, reversed) and gets read every row and a writer
 * rewrites rows. Every read sees each row whole: both families' cells, of one write. The
 * targeted form of {@code TableConcurrencyTest}'s "torn row" check (issue 40, item 7), which
 * looped could not place a read inside these windows on purpose.
 */
class MaintenanceWindowsTest {
  private static final byte[] F = "f".getBytes();
  private static final byte[] G = "g".getBytes();
  private static final byte[] X = "x".getBytes();
  private static final int ROWS = 40;

  @TempDir Path tmp;

  private static byte[] row(int i) {
    return String.format("k%02d", i).getBytes();
  }

  private static void write(Table t, int i, String v) {
    byte[] r = row(i);
    t.mutateRow(new RowMutations(r).add(new Put(r).addColumn(F, X, v.getBytes())
        .addColumn(G, X, v.getBytes()).setDurability(Durability.ASYNC)));
  }

  /** A row read whole: f:x and g:x both there, equal. */
  private static void checkWhole(Result r, String how) {
    byte[] f = r.getValue(F, X);
    byte[] g = r.getValue(G, X);
    assertNotNull(f, how + ": f missing in " + r);
    assertNotNull(g, how + ": g missing in " + r);
    assertTrue(Arrays.equals(f, g), how + ": torn row " + r);
  }

  private static void readEverything(Table t, String point) {
    for (Scan scan : List.of(new Scan(), new Scan().withStartRow(row(ROWS / 2)),
        new Scan().setReversed(true))) {
      int n = 0;
      try (ResultScanner s = t.getScanner(scan)) {
        for (Result r : s) {
          checkWhole(r, point + " scan");
          n++;
        }
      }
      assertEquals(scan.startRow().length == 0 ? ROWS : ROWS / 2, n,
          point + ": every row of " + scan);
    }
    for (int i = 0; i < ROWS; i++) {
      checkWhole(t.get(new Get(row(i))), point + " get");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"flush.afterFileWrite", "compaction.afterFileWrite",
      "compaction.afterInstall", "split.beforeCatalog", "split.afterCatalog"})
  void readsInsideAMaintenanceWindowSeeWholeRows(String point) throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean armed = new AtomicBoolean();
    fs.setCrashPoints(name -> {
      if (name.equals(point) && armed.compareAndSet(true, false)) {
        reached.countDown();
        try {
          release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return false; // a pause, never a crash
    });
    EngineOptions o = EngineOptions.defaults().withFileSystem(fs).withCompactionFiles(50, 60)
        .withRegionSplitBytes(1L << 40);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    TableName name = TableName.of("c");
    try (Database db = Database.open(tmp.resolve("db"), o)) {
      db.admin().createTable(TableDescriptor.of("c", "f", "g"), new byte[0][]);
      Table t = db.table(name);
      for (int round = 0; round < 3; round++) { // two files per store, then the memstore
        for (int i = 0; i < ROWS; i++) {
          write(t, i, "r" + round + "-" + i);
        }
        if (round < 2) {
          db.admin().flush(name);
        }
      }
      armed.set(true);
      Future<?> maintenance = pool.submit(() -> {
        if (point.startsWith("flush")) {
          db.admin().flush(name);
        } else if (point.startsWith("compaction")) {
          db.admin().majorCompact(name);
        } else {
          db.admin().split(name);
        }
      });
      try {
        assertTrue(reached.await(30, TimeUnit.SECONDS), "the maintenance reached " + point);
        readEverything(t, point);
        if (!point.startsWith("split")) { // a split holds the region's writes until it is done
          List<Integer> rewritten = new ArrayList<>();
          for (int i = 0; i < ROWS; i += 3) {
            write(t, i, "during-" + i);
            rewritten.add(i);
          }
          readEverything(t, point + " after writes");
          for (int i : rewritten) {
            assertEquals("during-" + i, new String(t.get(new Get(row(i))).getValue(F, X)));
          }
        }
      } finally {
        release.countDown();
      }
      maintenance.get(60, TimeUnit.SECONDS);
      readEverything(t, point + " done");
      if (point.startsWith("split")) {
        assertEquals(2, db.admin().regions(name).size(), "the split went through");
      }
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }
}
