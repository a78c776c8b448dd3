package io.basaltdb.engine.region;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writers outrunning flushes wait, the wait is counted, and memstores stay near their limit. */
class BackPressureTest {
  @TempDir Path tmp;

  @Test
  void memstoresStayBoundedAndStallsAreCounted() throws Exception {
    long limit = 256 * 1024;
    EngineOptions o = EngineOptions.defaults().withFlushSizeBytes(64 * 1024)
        .withGlobalMemstoreLimitBytes(limit);
    try (Database db = TestTables.open(tmp.resolve("db"), o,
        Map.of("f", FamilyOptions.DEFAULT), "r1", "r2")) {
      AtomicLong maxSeen = new AtomicLong();
      Thread sampler = new Thread(() -> {
        while (!Thread.currentThread().isInterrupted()) {
          maxSeen.accumulateAndGet(db.memstoreBudget().used(), Math::max);
          Thread.onSpinWait();
        }
      });
      sampler.start();
      byte[] value = new byte[2048];
      List<Thread> writers = new ArrayList<>();
      for (String name : new String[] {"r1", "r2"}) {
        Region r = TestTables.region(db, name);
        writers.add(new Thread(() -> {
          for (int i = 0; i < 3000; i++) {
            byte[] row = String.format("row%06d", i).getBytes();
            r.mutateRow(row, List.of(Cell.put(row, "f".getBytes(), "q".getBytes(),
                Cell.LATEST_TIMESTAMP, value)), Durability.SKIP);
          }
        }));
      }
      writers.forEach(Thread::start);
      for (Thread t : writers) {
        t.join();
      }
      sampler.interrupt();
      sampler.join();
      assertNull(db.backgroundFailure());
      long blocked = db.memstoreBudget().blockedWrites();
      for (Region r : db.allRegions()) {
        blocked += r.stats().blockedWrites();
      }
      System.out.println("back-pressure: max memstore bytes " + maxSeen.get() + " (limit " + limit
          + "), stalled writes " + blocked);
      assertTrue(blocked > 0, "6 MB of writes against a 256 KB limit must stall some writers");
      long slack = 2 * 4096; // one in-flight mutation per writer may pass the check at once
      assertTrue(maxSeen.get() <= limit + slack, "memstores grew to " + maxSeen.get());
      assertEquals(1, TestTables.region(db, "r1").get("row002999".getBytes(), ReadSpec.LATEST).size());
    }
  }
}
