package io.basaltdb.engine.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.engine.Database;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
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
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads increment, check-and-mutate and rewrite overlapping rows of a pre-split table
 * while flushes, compactions and splits run and scanners read: counters are exact, each
 * check-and-put wins once, and no scanner sees a torn row.
 */
class TableConcurrencyTest {
  @TempDir Path tmp;

  static byte[] b(String s) {
    return s.getBytes();
  }

  @Test
  void countsAreExactAndRowsWhole() throws Exception {
    EngineOptions o = EngineOptions.defaults().withFlushSizeBytes(32 * 1024)
        .withCompactionFiles(3, 5).withRegionSplitBytes(16 * 1024);
    try (Database db = Database.open(tmp.resolve("db"), o)) {
      TableName name = TableName.of("c");
      db.admin().createTable(TableDescriptor.of("c", "f", "g"), new byte[][] {b("k05"), b("k10")});
      Table t = db.table(name);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicLong casWins = new AtomicLong();
      int incThreads = 4;
      int incsPerThread = 400;
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < incThreads; i++) {
        threads.add(new Thread(() -> {
          for (int n = 0; n < incsPerThread; n++) {
            byte[] row = b(String.format("k%02d", n % 15));
            t.increment(new Increment(row).addColumn(b("f"), b("n"), 1).addColumn(b("g"), b("n"), 2)
                .setDurability(Durability.ASYNC));
            if (t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(b("f"), b("owner"))
                .build(new Put(row).addColumn(b("f"), b("owner"), b(Thread.currentThread().getName()))))) {
              casWins.incrementAndGet();
            }
          }
        }));
      }
      Thread rewriter = new Thread(() -> {
        for (long n = 0; !stop.get(); n++) {
          byte[] row = b(String.format("k%02d", n % 15));
          byte[] v = b("w" + n);
          t.mutateRow(new RowMutations(row)
              .add(new Put(row).addColumn(b("f"), b("x"), v).addColumn(b("g"), b("x"), v)
                  .setDurability(Durability.SKIP)));
        }
      });
      Thread scanner = new Thread(() -> {
        while (!stop.get()) {
          try (ResultScanner s = t.getScanner(new Scan())) {
            byte[] last = null;
            for (Result r : s) {
              assertTrue(last == null || java.util.Arrays.compareUnsigned(last, r.row()) < 0,
                  "rows in strictly ascending order across splits");
              last = r.row();
              byte[] fx = r.getValue(b("f"), b("x"));
              byte[] gx = r.getValue(b("g"), b("x"));
              assertTrue(fx == null ? gx == null : java.util.Arrays.equals(fx, gx),
                  "torn row " + r);
              byte[] fn = r.getValue(b("f"), b("n"));
              byte[] gn = r.getValue(b("g"), b("n"));
              if (fn != null) {
                assertEquals(2 * Increment.toLong(fn), Increment.toLong(gn), "torn increment " + r);
              }
            }
          }
        }
      });
      Thread maintenance = new Thread(() -> {
        while (!stop.get()) {
          db.admin().flush(name);
          db.admin().majorCompact(name);
          db.admin().split(name);
        }
      });
      List<Thread> background = List.of(rewriter, scanner, maintenance);
      for (Thread th : threads) {
        th.setUncaughtExceptionHandler((x, e) -> failure.compareAndSet(null, e));
        th.start();
      }
      for (Thread th : background) {
        th.setUncaughtExceptionHandler((x, e) -> failure.compareAndSet(null, e));
        th.start();
      }
      for (Thread th : threads) {
        th.join();
      }
      stop.set(true);
      for (Thread th : background) {
        th.join();
      }
      assertNull(failure.get(), () -> "a thread failed: " + failure.get());
      long total = 0;
      for (int k = 0; k < 15; k++) {
        Result r = t.get(new Get(b(String.format("k%02d", k))));
        long f = Increment.toLong(r.getValue(b("f"), b("n")));
        assertEquals(2 * f, Increment.toLong(r.getValue(b("g"), b("n"))));
        total += f;
      }
      assertEquals((long) incThreads * incsPerThread, total, "no increment lost");
      assertEquals(15, casWins.get(), "each row's check-and-put won exactly once");
      System.out.println("TableConcurrencyTest: " + db.admin().regions(name).size()
          + " regions after " + db.splitCount() + " splits");
      assertTrue(db.splitCount() > 0, "the table split while the threads ran");
    }
  }
}
