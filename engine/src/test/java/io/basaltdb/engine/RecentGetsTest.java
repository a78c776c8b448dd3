package io.basaltdb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction reads a row once for a read and the same read again (a row read, then updated),
 * and never reuses an answer that would differ: after an own write of the row, after a
 * rollback to a mark, at another statement's cut in READ_COMMITTED, for other columns.
 */
class RecentGetsTest {
  static final byte[] F = bytes("f");
  static final byte[] A = bytes("a");
  static final byte[] B = bytes("b");
  static final TableName NAME = TableName.of("t");

  @TempDir Path tmp;
  Database db;
  Table base;

  @BeforeEach
  void open() {
    db = Database.open(tmp.resolve("db"), EngineOptions.defaults());
    db.admin().createTable(new TableDescriptor(NAME, Map.of("f", FamilyOptions.DEFAULT)));
    base = db.table("t");
    base.put(new Put(bytes("r")).addColumn(F, A, bytes("1")).addColumn(F, B, bytes("x")));
  }

  @AfterEach
  void close() {
    db.close();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private long engineReads() {
    return TestTables.region(db, "t").stats().reads();
  }

  /** Column a of row r as one statement of {@code tx} reads it (its own snapshot). */
  private static String readA(Transaction tx) {
    try (ReadSnapshot statement = tx.snapshot()) {
      byte[] v = tx.table(NAME).get(new Get(bytes("r")).addColumn(F, A)
          .setSnapshot(statement)).getValue(F, A);
      return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }
  }

  @Test
  void theSameReadInOneSnapshotIsReadOnce() {
    Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
    long before = engineReads();
    assertEquals("1", readA(tx));
    base.put(new Put(bytes("r")).addColumn(F, A, bytes("2"))); // after the snapshot
    assertEquals("1", readA(tx));
    assertEquals(1, engineReads() - before);
    tx.rollback();
  }

  @Test
  void anOwnWriteOfTheRowIsSeen() {
    Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
    assertEquals("1", readA(tx));
    tx.table(NAME).put(new Put(bytes("r")).addColumn(F, A, bytes("own")));
    assertEquals("own", readA(tx));
    assertEquals("own", readA(tx)); // and kept again: the row was not written since
    assertEquals("own", latestA(tx)); // a read without a snapshot sees every own write
    tx.table(NAME).put(new Put(bytes("r")).addColumn(F, A, bytes("own2")));
    assertEquals("own2", latestA(tx));
    tx.rollback();
  }

  @Test
  void aReadOfEveryOwnWriteSeesTheNextOne() {
    Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
    tx.table(NAME).put(new Put(bytes("r")).addColumn(F, A, bytes("own")));
    assertEquals("own", latestA(tx));
    tx.table(NAME).put(new Put(bytes("r")).addColumn(F, A, bytes("own2")));
    assertEquals("own2", latestA(tx));
    tx.rollback();
  }

  private static String latestA(Transaction tx) {
    byte[] v = tx.table(NAME).get(new Get(bytes("r")).addColumn(F, A)).getValue(F, A);
    return new String(v, StandardCharsets.UTF_8);
  }

  @Test
  void aRollbackToAMarkIsSeen() {
    Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
    int mark = tx.mark();
    tx.table(NAME).put(new Put(bytes("r")).addColumn(F, A, bytes("own")));
    assertEquals("own", readA(tx));
    tx.rollbackTo(mark);
    assertEquals("1", readA(tx));
    tx.rollback();
  }

  @Test
  void readCommittedReadsEachStatementsCut() {
    Transaction tx = db.begin(StorageTransaction.Isolation.READ_COMMITTED);
    assertEquals("1", readA(tx));
    base.put(new Put(bytes("r")).addColumn(F, A, bytes("2")));
    tx.nextStatement();
    assertEquals("2", readA(tx));
    tx.rollback();
  }

  @Test
  void anotherColumnIsReadAgain() {
    Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
    assertEquals("1", readA(tx));
    try (ReadSnapshot statement = tx.snapshot()) {
      byte[] b = tx.table(NAME).get(new Get(bytes("r")).addColumn(F, B).setSnapshot(statement))
          .getValue(F, B);
      assertEquals("x", new String(b, StandardCharsets.UTF_8));
    }
    tx.rollback();
  }
}
