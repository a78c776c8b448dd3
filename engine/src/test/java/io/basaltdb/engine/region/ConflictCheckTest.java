package io.basaltdb.engine.region;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.Transaction;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.WriteConflictException;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit's conflict check skips reading a row whose lock stripe had no write since the
 * transaction's cut ({@link RowLocks#unwrittenSince}); these are the cases where that shortcut
 * could go wrong: another row of the same stripe written (read, and no conflict), a write
 * made in a region before it split (the daughter knows nothing of its stripes' history), and
 * a region opened again after its table was disabled.
 */
class ConflictCheckTest {
  private static final TableName T = TableName.of("t");
  private static final byte[] F = b("f");

  @TempDir Path tmp;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private Database open() {
    Database db = Database.open(tmp.resolve("db"), EngineOptions.defaults());
    db.admin().createTable(new TableDescriptor(T, Map.of("f", FamilyOptions.DEFAULT)));
    return db;
  }

  private static Put put(String row, String value) {
    return new Put(b(row)).addColumn(F, b("x"), b(value));
  }

  private static String value(Table t, String row) {
    byte[] v = t.get(new Get(b(row))).getValue(F, b("x"));
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }

  /** A row other than {@code row} whose lock stripe is {@code row}'s. */
  private static String sameStripe(String row) {
    for (int i = 0; ; i++) {
      String other = "r" + i;
      if (!other.equals(row) && RowLocks.stripe(b(other)) == RowLocks.stripe(b(row))) {
        return other;
      }
    }
  }

  @Test
  void aWriteToAnotherRowOfTheStripeIsNoConflict() {
    try (Database db = open()) {
      Table base = db.table("t");
      String other = sameStripe("a");
      Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      base.put(put(other, "theirs")); // the stripe is written after the cut, the row is not
      tx.table(T).put(put("a", "mine"));
      tx.commit(Durability.SYNC);
      assertEquals("mine", value(base, "a"));

      Transaction late = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      base.put(put("a", "theirs")); // the row itself: a conflict
      late.table(T).put(put("a", "lost"));
      assertThrows(WriteConflictException.class, () -> late.commit(Durability.SYNC));
      assertEquals("theirs", value(base, "a"));
    }
  }

  @Test
  void aWriteBeforeASplitConflictsAfterIt() {
    try (Database db = open()) {
      Table base = db.table("t");
      for (int i = 0; i < 200; i++) {
        base.put(put(String.format("k%03d", i), "v"));
      }
      Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      base.put(put("k150", "theirs"));
      assertEquals(1, db.admin().split(T));
      tx.table(T).put(put("k150", "lost"));
      assertThrows(WriteConflictException.class, () -> tx.commit(Durability.SYNC));
      assertEquals("theirs", value(base, "k150"));

      Transaction after = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      after.table(T).put(put("k150", "mine")); // nothing since its cut: commits
      after.commit(Durability.SYNC);
      assertEquals("mine", value(base, "k150"));
    }
  }

  @Test
  void aRegionOpenedAgainKnowsItsRowsWereWritten() {
    try (Database db = open()) {
      Table base = db.table("t");
      Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      base.put(put("a", "theirs"));
      db.admin().disableTable(T);
      db.admin().enableTable(T);
      tx.table(T).put(put("a", "lost"));
      assertThrows(WriteConflictException.class, () -> tx.commit(Durability.SYNC));
      assertArrayEquals(b("theirs"), base.get(new Get(b("a"))).getValue(F, b("x")));
    }
  }
}
