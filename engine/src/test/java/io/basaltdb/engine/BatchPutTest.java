package io.basaltdb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.storage.Durability;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Puts of many rows at once ({@link BatchPuts}: a region's rows written as one write): every
 * row lands, a row put twice in one batch keeps the later put, SKIP and mixed durabilities are
 * written, a refused put leaves the windows before it written and its own group unwritten, a
 * batch spanning regions survives a reopen, and batch writers racing single writers on the
 * same rows neither deadlock nor tear a row.
 */
class BatchPutTest {
  private static final byte[] F = "f".getBytes();
  private static final byte[] A = "a".getBytes();
  private static final byte[] B = "b".getBytes();
  private static final TableName T = TableName.of("t");

  @TempDir Path tmp;

  private static Database open(Path dir) {
    Database db = Database.open(dir, EngineOptions.defaults());
    if (!db.admin().tableExists(T)) {
      db.admin().createTable(new TableDescriptor(T, Map.of("f", FamilyOptions.DEFAULT)),
          new byte[][] {"r100".getBytes(), "r200".getBytes(), "r300".getBytes()});
    }
    return db;
  }

  private static Put put(String row, String value, Durability d) {
    Put p = new Put(row.getBytes());
    p.addColumn(F, A, value.getBytes());
    p.addColumn(F, B, value.getBytes());
    p.setDurability(d);
    return p;
  }

  private static String value(Table t, String row, byte[] q) {
    byte[] v = t.get(new Get(row.getBytes())).getValue(F, q);
    return v == null ? null : new String(v);
  }

  @Test
  void everyRowLandsAcrossRegionsAndAReopen() {
    Path dir = tmp.resolve("db");
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 400; i++) { // more than three windows, over four regions
      puts.add(put(String.format("r%03d", (i * 37) % 400), "v" + i,
          i % 3 == 0 ? Durability.SYNC : Durability.ASYNC));
    }
    try (Database db = open(dir)) {
      assertEquals(4, db.regions(T).size());
      db.table("t").put(puts);
      for (int i = 0; i < 400; i++) {
        assertEquals("v" + i, value(db.table("t"), String.format("r%03d", (i * 37) % 400), A));
      }
    }
    try (Database db = open(dir)) {
      for (int i = 0; i < 400; i++) {
        assertEquals("v" + i, value(db.table("t"), String.format("r%03d", (i * 37) % 400), B));
      }
    }
  }

  @Test
  void aRowPutTwiceKeepsTheLaterPut() {
    try (Database db = open(tmp.resolve("db"))) {
      db.table("t").put(List.of(put("r1", "first", Durability.ASYNC),
          put("r2", "x", Durability.ASYNC), put("r1", "second", Durability.ASYNC),
          put("r1", "third", Durability.SKIP), put("r3", "y", Durability.SKIP),
          put("r1", "fourth", Durability.SYNC)));
      assertEquals("fourth", value(db.table("t"), "r1", A));
      assertEquals("x", value(db.table("t"), "r2", A));
      assertEquals("y", value(db.table("t"), "r3", B));
      Result all = db.table("t").get(new Get("r1".getBytes()).readAllVersions());
      assertEquals(1, all.getColumnCells(F, A).size(), "one version kept by the family");
    }
  }

  @Test
  void aRefusedPutLeavesItsGroupUnwritten() {
    try (Database db = open(tmp.resolve("db"))) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < BatchPuts.WINDOW_ROWS + 10; i++) {
        puts.add(put(String.format("r%03d", i), "v", Durability.ASYNC));
      }
      puts.add(put("r998", "v", Durability.ASYNC)); // the refused put's region and group
      Put bad = new Put("r999".getBytes());
      bad.addColumn("nofamily".getBytes(), A, "v".getBytes());
      bad.setDurability(Durability.ASYNC);
      puts.add(bad);
      assertThrows(InvalidArgumentException.class, () -> db.table("t").put(puts));
      // the first window was written; the refused put's group was not
      assertEquals("v", value(db.table("t"), "r000", A));
      assertEquals("v", value(db.table("t"),
          String.format("r%03d", BatchPuts.WINDOW_ROWS - 1), A));
      assertNull(value(db.table("t"), "r998", A));
      Put empty = new Put("r006".getBytes());
      empty.setDurability(Durability.ASYNC);
      assertThrows(InvalidArgumentException.class,
          () -> db.table("t").put(List.of(put("r005", "w", Durability.ASYNC), empty)));
      assertEquals("v", value(db.table("t"), "r005", A), "an empty put writes none of its window");
    }
  }

  @Test
  void batchAndSingleWritersOfTheSameRowsNeitherDeadlockNorTearARow() throws Exception {
    long seed = System.nanoTime();
    System.out.println("BatchPutTest seed " + seed);
    try (Database db = open(tmp.resolve("db"))) {
      Table t = db.table("t");
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<Void>> done = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
          int writer = w;
          done.add(pool.submit(() -> {
            Random rnd = new Random(seed + writer);
            for (int round = 0; round < 200; round++) {
              String v = writer + "-" + round;
              if (writer % 2 == 0) {
                List<Put> puts = new ArrayList<>();
                for (int k = 0; k < 20; k++) {
                  puts.add(put(String.format("r%03d", rnd.nextInt(400)), v, Durability.ASYNC));
                }
                t.put(puts);
              } else {
                t.put(put(String.format("r%03d", rnd.nextInt(400)), v, Durability.ASYNC));
              }
            }
            return null;
          }));
        }
        for (Future<Void> f : done) {
          f.get(60, TimeUnit.SECONDS); // a deadlock fails here
        }
      } finally {
        pool.shutdownNow();
      }
      for (int i = 0; i < 400; i++) {
        String row = String.format("r%03d", i);
        assertEquals(value(t, row, A), value(t, row, B), "row " + row + " torn");
      }
    }
  }
}
