package io.basaltdb.engine.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.TestTables;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.FamilyOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flush is asked for once per memstore that reaches the flush size. A write that lands after
 * a flush has begun but before it swaps the memstores out goes with that flush, and its
 * request must not queue a second flush, which would write the few cells that follow the swap
 * as a file of their own (seen under a steady writer: most 64 MB flushes followed by one of
 * 1-2 MB, each an extra file to compact and an emptied memstore index).
 */
class FlushRequestTest {
  @TempDir Path tmp;

  @Test
  void aWriteBeforeTheSwapDoesNotAskForASecondFlush() throws Exception {
    long flushSize = 64 * 1024;
    EngineOptions o = EngineOptions.defaults().withFlushSizeBytes(flushSize)
        .withCompactionFiles(10_000, 10_000); // every flushed file kept, to be counted
    try (Database db = TestTables.open(tmp.resolve("db"), o,
        Map.of("f", FamilyOptions.DEFAULT), "t")) {
      Region r = TestTables.region(db, "t");
      AtomicInteger hooked = new AtomicInteger();
      r.beforeFlushSwap = () -> {
        if (hooked.getAndIncrement() == 0) { // the first flush only: a write in its window
          put(r, "zz-in-the-window");
        }
      };
      // past the flush size (a background flush), but short of twice it, where writes wait for
      // the flush: the hook's write, made on the flushing thread, would then wait for itself
      for (int i = 0; hooked.get() == 0 && r.memstoreBytes() < flushSize * 3 / 2; i++) {
        put(r, String.format("row%06d", i));
      }
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (hooked.get() == 0) {
        assertTrue(System.nanoTime() < deadline, "no flush began");
        Thread.sleep(1);
      }
      assertTrue(db.awaitBackgroundWork(30_000));
      assertNull(db.backgroundFailure());
      assertEquals(1, r.flushesRun.get(), "a write its flush had already taken asked for another");
      assertEquals(1, r.get("zz-in-the-window".getBytes(), ReadSpec.LATEST).size());
    }
  }

  private static void put(Region r, String key) {
    byte[] row = key.getBytes();
    r.mutateRow(row, List.of(Cell.put(row, "f".getBytes(), "q".getBytes(),
        Cell.LATEST_TIMESTAMP, new byte[100])), Durability.SKIP);
  }
}
