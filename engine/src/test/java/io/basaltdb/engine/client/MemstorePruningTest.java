package io.basaltdb.engine.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.TestTables;
import io.basaltdb.engine.Transaction;
import io.basaltdb.engine.region.ReadSpec;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.region.RegionScanner;
import io.basaltdb.engine.store.Store;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.WriteConflictException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A family keeping one version drops a hot column's old versions from the memstore as soon as
 * no read can return them (what made a memstore of a few hot rows fill and flush every few
 * seconds): the memstore stays small, yet a scan under way, a held snapshot and a transaction
 * each still read what they started with, a write conflict is still found, and a family keeping
 * more versions keeps them. Since such a memstore may never fill, the log is bounded on its
 * own: regions holding its oldest edits are flushed (an idle region's included).
 */
class MemstorePruningTest {
  private static final byte[] F = bytes("f");
  private static final byte[] G = bytes("g");
  private static final byte[] Q = bytes("q");

  @TempDir Path tmp;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, FamilyOptions> families() {
    Map<String, FamilyOptions> f = new LinkedHashMap<>();
    f.put("f", FamilyOptions.DEFAULT);
    f.put("g", FamilyOptions.DEFAULT.withVersions(3, 0));
    return f;
  }

  private static Put put(String row, byte[] family, String value) {
    return new Put(bytes(row)).addColumn(family, Q, bytes(value));
  }

  private static String value(Table t, Get g, byte[] family) {
    byte[] v = t.get(g).getValue(family, Q);
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }

  private static Store store(Database db, byte[] family) {
    return TestTables.region(db, "t").stores().stream()
        .filter(s -> java.util.Arrays.equals(s.family(), family)).findFirst().orElseThrow();
  }

  @Test
  void aHotColumnKeepsAFewVersionsInMemory() {
    try (Database db = TestTables.open(tmp.resolve("db"), EngineOptions.defaults(), families(),
        "t")) {
      Table t = db.table(TableName.of("t"));
      for (int i = 0; i < 1_000; i++) {
        t.put(put("hot", F, "v" + i));
        t.put(put("hot", G, "v" + i));
      }
      assertEquals("v999", value(t, new Get(bytes("hot")), F));
      assertTrue(store(db, F).cellCount() <= 3, "f holds " + store(db, F).cellCount());
      assertTrue(store(db, F).memstorePrunedCells() >= 990);
      assertEquals(1_000, store(db, G).cellCount(), "a family of three versions keeps them");
      assertEquals(0, store(db, G).memstorePrunedCells());
      assertEquals(3, t.get(new Get(bytes("hot")).addFamily(G).readVersions(3)).size());
    }
    try (Database db = TestTables.open(tmp.resolve("db"), EngineOptions.defaults(), families(),
        "t")) {
      assertEquals("v999", value(db.table(TableName.of("t")), new Get(bytes("hot")), F),
          "the log replayed");
    }
  }

  @Test
  void aScanUnderWayReadsWhatItStartedWith() {
    try (Database db = TestTables.open(tmp.resolve("db"), EngineOptions.defaults(), families(),
        "t")) {
      Table t = db.table(TableName.of("t"));
      for (String row : List.of("a", "b", "c", "d")) {
        t.put(put(row, F, "old"));
      }
      Region region = TestTables.region(db, "t");
      try (RegionScanner s = region.scan(ReadSpec.LATEST, null, null)) {
        assertEquals("a", new String(s.next().get(0).row(), StandardCharsets.UTF_8));
        for (int i = 0; i < 10; i++) {
          t.put(put("c", F, "new" + i));
        }
        assertEquals(0, store(db, F).memstorePrunedCells(),
            "nothing the scan may read was pruned");
        assertEquals("b", new String(s.next().get(0).row(), StandardCharsets.UTF_8));
        List<Cell> c = s.next();
        assertNotNull(c);
        assertEquals("old", new String(c.get(0).value(), StandardCharsets.UTF_8));
        assertEquals("d", new String(s.next().get(0).row(), StandardCharsets.UTF_8));
        assertNull(s.next());
      }
      t.put(put("c", F, "newest"));
      assertTrue(store(db, F).memstorePrunedCells() >= 9, "the scan done, pruning goes on");
      assertEquals("newest", value(t, new Get(bytes("c")), F));
    }
  }

  @Test
  void aSnapshotAndATransactionKeepWhatTheySee() {
    try (Database db = TestTables.open(tmp.resolve("db"), EngineOptions.defaults(), families(),
        "t")) {
      Table t = db.table(TableName.of("t"));
      t.put(put("r", F, "before"));
      ReadSnapshot snapshot = db.snapshot();
      Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      assertEquals("before", value(tx.table(TableName.of("t")), new Get(bytes("r")), F));
      for (int i = 0; i < 10; i++) {
        t.put(put("r", F, "after" + i));
      }
      Get atSnapshot = new Get(bytes("r")).setSnapshot(snapshot);
      assertEquals("before", value(t, atSnapshot, F));
      assertEquals("before", value(tx.table(TableName.of("t")), new Get(bytes("r")), F));
      tx.table(TableName.of("t")).put(put("r", F, "lost update"));
      assertThrows(WriteConflictException.class,
          () -> tx.commit(io.basaltdb.storage.Durability.SYNC), "a conflict is still found");
      snapshot.close();
      t.put(put("r", F, "last"));
      assertTrue(store(db, F).memstorePrunedCells() >= 9);
      assertEquals("last", value(t, new Get(bytes("r")), F));
    }
  }

  @Test
  void theLogStaysNearItsBoundWhenMemstoresDoNotFill() throws Exception {
    EngineOptions o = EngineOptions.defaults().withFlushSizeBytes(256 << 10)
        .withGlobalMemstoreLimitBytes(256 << 10).withWalRollBytes(32 << 10);
    try (Database db = TestTables.open(tmp.resolve("db"), o, families(), "t", "idle")) {
      db.table(TableName.of("idle")).put(put("once", F, "x"));
      Table t = db.table(TableName.of("t"));
      int written = 40_000; // some 3 MB of log: a hundred segments, none in a memstore that fills
      for (int i = 0; i < written; i++) {
        t.put(put("hot" + (i % 4), F, "value " + i));
      }
      int bound = (256 << 10) / (32 << 10) + 2; // the closed segments' bound, the one written
      Store idle = TestTables.region(db, "idle").stores().get(0);
      long deadline = System.nanoTime() + 20_000_000_000L;
      while ((db.walSegmentCount() > bound || idle.filesSnapshot().isEmpty())
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertTrue(db.walSegmentCount() <= bound, db.walSegmentCount() + " log segments left");
      assertEquals(1, idle.filesSnapshot().size(), "the idle region, holding the oldest edit,"
          + " was flushed");
      assertTrue(store(db, F).cellCount() < written / 2, "the writes were pruned in memory");
    }
  }
}
