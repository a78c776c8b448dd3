package io.basaltdb.sql.exec.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The batched INSERT's bookkeeping ({@link InsertBatch}) on the embedded engine's table (its
 * list of check-and-mutates applies them one by one): each row's outcome in row order across
 * batches, the rows written handed on in order, the first duplicate named, and no count
 * claimed once a batch failed in the storage.
 */
class InsertBatchTest {
  private static final byte[] F = {'f'};
  private static final byte[] M = {'_'};

  private static byte[] key(int i) {
    return String.format("k%05d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static CheckAndMutate insert(int i) {
    return CheckAndMutate.newBuilder(key(i)).ifNotExists(F, M)
        .build(new Put(key(i)).addColumn(F, M, new byte[] {'x'}));
  }

  @Test
  void everyRowTriedEachOutcomeKeptInRowOrder() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults())) {
      db.admin().createTable(TableDescriptor.of("t", "f"));
      Table t = db.table(TableName.of("t"));
      t.put(new Put(key(7)).addColumn(F, M, new byte[] {'x'}));
      t.put(new Put(key(1500)).addColumn(F, M, new byte[] {'x'}));
      InsertBatch b = new InsertBatch(t, () -> { });
      List<Object[]> written = new ArrayList<>();
      int n = 2 * InsertBatch.SIZE + 10;
      for (int i = 0; i < n; i++) {
        int k = i == 1200 ? 1100 : i; // 1100 twice, in one batch
        b.add(insert(k), new Object[] {i}, written::add);
      }
      b.flush(written::add);
      long[] outcomes = b.outcomes();
      assertEquals(n, outcomes.length);
      for (int i = 0; i < n; i++) {
        boolean refused = i == 7 || i == 1200 || i == 1500;
        assertEquals(refused ? InsertBatch.REFUSED : 1, outcomes[i], "row " + i);
      }
      assertEquals(n - 3, b.written());
      assertEquals(n - 3, written.size());
      assertEquals(8, (int) written.get(7)[0], "the rows written, in row order");
      assertArrayEquals(key(7), b.firstDuplicate());
      String message = b.refusal(k -> new IllegalStateException(
          new String(k, StandardCharsets.UTF_8))).getMessage();
      assertTrue(message.startsWith("k00007 (and 2 more); " + (n - 3) + " of the statement's "
          + n + " rows tried were written"), message);
      assertFalse(b.uncertain());
    }
  }

  @Test
  void aBatchThatFailsInTheStorageClaimsNoCount() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults())) {
      db.admin().createTable(TableDescriptor.of("t", "f"));
      Table real = db.table(TableName.of("t"));
      Table failing = (Table) java.lang.reflect.Proxy.newProxyInstance(
          Table.class.getClassLoader(), new Class<?>[] {Table.class}, (proxy, m, args) -> {
            if (m.getName().equals("checkAndMutate") && args[0] instanceof List) {
              throw new StorageIOException("disk gone", new java.io.IOException("disk gone"));
            }
            return m.invoke(real, args);
          });
      InsertBatch b = new InsertBatch(failing, () -> { });
      b.add(insert(1), new Object[] {1}, r -> { });
      assertThrows(StorageIOException.class, () -> b.flush(r -> { }));
      assertTrue(b.uncertain());
    }
  }
}
