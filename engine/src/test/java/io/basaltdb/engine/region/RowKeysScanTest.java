package io.basaltdb.engine.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.storage.Delete;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.TestTables;
import io.basaltdb.storage.filter.Filters;
import io.basaltdb.engine.store.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan of given row keys (a batch of index hits) reads only the files whose bloom filter may
 * hold one of them, and still sees what a newer file deletes.
 */
class RowKeysScanTest {
  private static final byte[] F = "f".getBytes();
  private static final byte[] Q = "q".getBytes();

  @TempDir Path tmp;

  private static byte[] row(int i) {
    return String.format("r%05d", i).getBytes();
  }

  private static List<String> scan(Table t, List<byte[]> keys) {
    List<String> out = new ArrayList<>();
    Scan s = new Scan().withStartRow(keys.get(0))
        .withStopRow(java.util.Arrays.copyOf(keys.get(keys.size() - 1),
            keys.get(keys.size() - 1).length + 1))
        .setFilter(Filters.rowKeys(keys));
    try (ResultScanner sc = t.getScanner(s)) {
      for (Result r : sc) {
        out.add(new String(r.row()) + "=" + new String(r.getValue(F, Q)));
      }
    }
    return out;
  }

  @Test
  void filesHoldingNoneOfTheRowsAreNotRead() {
    try (Database db = TestTables.open(tmp.resolve("db"), EngineOptions.defaults(),
        Map.of("f", FamilyOptions.DEFAULT), "t")) {
      Table t = db.table("t");
      for (int i = 0; i < 1000; i++) {
        t.put(new Put(row(i)).addColumn(F, Q, ("a" + i).getBytes()));
      }
      db.admin().flush(TableName.of("t"));
      for (int i = 0; i < 1000; i += 100) { // a second file, spread over the same key range
        t.put(new Put(row(i)).addColumn(F, Q, ("b" + i).getBytes()));
      }
      t.delete(new Delete(row(502)));
      db.admin().flush(TableName.of("t"));
      Store store = TestTables.region(db, "t").stores().get(0);
      // two rows the second file's bloom filter rules out (as a point read finds them)
      List<byte[]> absent = new ArrayList<>();
      for (int i = 503; absent.size() < 2; i += 2) {
        long before = store.stats().filesSkippedByBloom.get();
        t.get(new io.basaltdb.storage.Get(row(i)));
        if (store.stats().filesSkippedByBloom.get() == before + 1) {
          absent.add(row(i));
        }
      }
      long skipped = store.stats().filesSkippedByBloom.get();
      assertEquals(2, scan(t, absent).size());
      assertEquals(skipped + 1, store.stats().filesSkippedByBloom.get(),
          "the second file holds neither row");
      assertEquals(List.of("r00501=a501", "r00503=a503"),
          scan(t, List.of(row(501), row(502), row(503))), "502's delete is in the second file");
      assertEquals(List.of("r00500=b500", "r00501=a501"),
          scan(t, List.of(row(500), row(501))));
      assertEquals(skipped + 1, store.stats().filesSkippedByBloom.get(), "both files read");
      List<byte[]> many = new ArrayList<>();
      for (int i = 1; i < 200; i += 2) {
        many.add(row(i));
      }
      assertTrue(many.size() > 64);
      assertEquals(many.size(), scan(t, many).size());
      assertEquals(skipped + 1, store.stats().filesSkippedByBloom.get(),
          "too many rows to probe: both files read");
    }
  }
}
