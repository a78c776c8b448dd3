package io.basaltdb.engine.region;

import io.basaltdb.storage.RegionStats;
import io.basaltdb.engine.TestTables;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.Database;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers, readers, flushes and compactions at once: no reader ever sees half of a row
 * mutation, scans see each row once and in order, and a read-modify-write counter loses no
 * update. Small flush sizes keep flushes, compactions and back-pressure busy.
 */
class ConcurrencyTest {
  @TempDir Path tmp;

  @Test
  void readersSeeWholeMutationsWhileFilesChange() throws Exception {
    EngineOptions o = EngineOptions.defaults().withFlushSizeBytes(16 * 1024)
        .withGlobalMemstoreLimitBytes(64 * 1024).withCompactionFiles(3, 5);
    try (Database db = TestTables.open(tmp.resolve("db"), o, Map.of("a", FamilyOptions.DEFAULT, "b", FamilyOptions.DEFAULT.withVersions(3, 0)), "r")) {
      Region r = TestTables.region(db, "r");
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < 3; w++) {
        int id = w;
        threads.add(new Thread(() -> {
          for (long n = 0; !stop.get(); n++) {
            byte[] row = String.format("row%03d", (n * 7 + id) % 200).getBytes();
            byte[] v = (id + ":" + n).getBytes();
            List<Cell> cells = new ArrayList<>();
            for (String q : new String[] {"x", "y", "z"}) {
              cells.add(Cell.put(row, "a".getBytes(), q.getBytes(), Cell.LATEST_TIMESTAMP, v));
            }
            cells.add(Cell.put(row, "b".getBytes(), "w".getBytes(), Cell.LATEST_TIMESTAMP, v));
            r.mutateRow(row, cells, Durability.ASYNC);
          }
        }));
      }
      for (int k = 0; k < 2; k++) {
        threads.add(new Thread(() -> {
          while (!stop.get()) {
            Set<String> seen = new HashSet<>();
            byte[] last = null;
            try (RegionScanner s = r.scan(ReadSpec.LATEST, null, null)) {
              for (List<Cell> row = s.next(); row != null; row = s.next()) {
                checkWhole(row);
                byte[] key = row.get(0).row();
                assertTrue(last == null || java.util.Arrays.compareUnsigned(last, key) < 0,
                    "rows in order");
                assertTrue(seen.add(new String(key)), "row seen twice");
                last = key;
              }
            }
          }
        }));
      }
      threads.add(new Thread(() -> {
        while (!stop.get()) {
          r.compact(true);
        }
      }));
      Thread counter = new Thread(() -> {
        for (int i = 0; i < 500; i++) {
          r.mutateRowWith("counter".getBytes(), Durability.ASYNC, current -> {
            long v = current.isEmpty() ? 0 : Long.parseLong(new String(current.get(0).value()));
            return List.of(Cell.put("counter".getBytes(), "a".getBytes(), "n".getBytes(),
                Cell.LATEST_TIMESTAMP, Long.toString(v + 1).getBytes()));
          });
        }
      });
      threads.add(counter);
      for (Thread t : threads) {
        t.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
        t.start();
      }
      Thread.sleep(3000);
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
      assertNull(failure.get(), () -> "a thread failed: " + failure.get());
      assertNull(db.backgroundFailure());
      List<Cell> c = r.get("counter".getBytes(), ReadSpec.LATEST);
      assertEquals("500", new String(c.get(0).value()), "no lost update");
      RegionStats st = r.stats();
      System.out.println("ConcurrencyTest: " + st + " memstore budget blocked "
          + db.memstoreBudget().blockedWrites() + " writes");
      assertTrue(st.writes() > 1000, "writers made progress: " + st.writes());
    }
  }

  private static void checkWhole(List<Cell> row) {
    if (row.size() == 1 && new String(row.get(0).row()).equals("counter")) {
      return;
    }
    assertEquals(4, row.size(), () -> "a row has a:x, a:y, a:z and b:w: " + row);
    String v = new String(row.get(0).value());
    for (Cell c : row) {
      assertEquals(v, new String(c.value()), () -> "half of a mutation is visible: " + row);
    }
  }
}
