package io.basaltdb.engine.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ScanMetrics;
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
 * A get of named columns, one version, answered from the memstores alone when they hold a
 * version of every column newer than anything in the files that may hold the row
 * ({@code region.PointGet}), and from memstores and files merged whenever a file could change
 * the answer: a newer version written with an explicit timestamp, a column the memstores lack,
 * more versions wanted. The counts say which files were read.
 */
class PointGetTest {
  static final byte[] F = bytes("f");
  static final byte[] A = bytes("a");
  static final byte[] B = bytes("b");
  static final byte[] ROW = bytes("row");
  static final TableName NAME = TableName.of("p");

  @TempDir Path tmp;
  Database db;
  Table t;

  @BeforeEach
  void open() {
    db = Database.open(tmp.resolve("db"), EngineOptions.defaults());
    db.admin().createTable(new TableDescriptor(NAME, Map.of("f",
        FamilyOptions.DEFAULT.withVersions(3, 0))));
    t = db.table("p");
    t.put(new Put(ROW).addColumn(F, A, 1_000, bytes("a-file")).addColumn(F, B, 1_000,
        bytes("b-file")));
    db.admin().flush(NAME);
  }

  @AfterEach
  void close() {
    db.close();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private record Read(Result result, ScanMetrics metrics) {
    String value(byte[] q) {
      byte[] v = result.getValue(F, q);
      return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }
  }

  private static Read get(Table table, Get g) {
    ScanMetrics m = new ScanMetrics();
    g.setMetrics(m);
    return new Read(table.get(g), m);
  }

  private static Get both() {
    return new Get(ROW).addColumn(F, A).addColumn(F, B);
  }

  @Test
  void aRowRewrittenSinceTheFlushIsReadFromTheMemstoreAlone() {
    t.put(new Put(ROW).addColumn(F, A, 2_000, bytes("a-new")).addColumn(F, B, 2_000,
        bytes("b-new")));
    Read r = get(t, both());
    assertEquals("a-new", r.value(A));
    assertEquals("b-new", r.value(B));
    assertEquals(0, r.metrics().filesRead.get());
    assertEquals(1, r.metrics().filesSkippedByTime.get());
  }

  @Test
  void aNewerVersionInAFileWins() {
    // written later, but with an older explicit timestamp than the file's cells
    t.put(new Put(ROW).addColumn(F, A, 500, bytes("a-old")).addColumn(F, B, 500,
        bytes("b-old")));
    Read r = get(t, both());
    assertEquals("a-file", r.value(A));
    assertEquals("b-file", r.value(B));
    assertEquals(1, r.metrics().filesRead.get());
  }

  @Test
  void aTieOfTimestampsReadsTheFile() {
    t.put(new Put(ROW).addColumn(F, A, 1_000, bytes("a-tie")).addColumn(F, B, 1_000,
        bytes("b-tie")));
    Read r = get(t, both());
    assertEquals("a-tie", r.value(A)); // the same timestamp: the later write wins
    assertEquals(1, r.metrics().filesRead.get());
  }

  @Test
  void aColumnTheMemstoreLacksComesFromTheFile() {
    t.put(new Put(ROW).addColumn(F, A, 2_000, bytes("a-new")));
    Read r = get(t, both());
    assertEquals("a-new", r.value(A));
    assertEquals("b-file", r.value(B));
    assertEquals(1, r.metrics().filesRead.get());
  }

  @Test
  void aDeleteInTheMemstoreHidesTheFilesVersions() {
    t.delete(new Delete(ROW).addColumns(F, B, 2_000));
    t.put(new Put(ROW).addColumn(F, A, 2_000, bytes("a-new")));
    Read r = get(t, both());
    assertEquals("a-new", r.value(A));
    assertNull(r.value(B));
  }

  @Test
  void moreVersionsOrAWholeFamilyReadTheFiles() {
    t.put(new Put(ROW).addColumn(F, A, 2_000, bytes("a-new")).addColumn(F, B, 2_000,
        bytes("b-new")));
    Read versions = get(t, both().readVersions(2));
    assertEquals(4, versions.result().cells().size());
    assertEquals(1, versions.metrics().filesRead.get());
    Read family = get(t, new Get(ROW).addFamily(F));
    assertEquals("a-new", family.value(A));
    assertEquals(1, family.metrics().filesRead.get());
  }

  @Test
  void aTransactionsOwnWritesAnswerWithoutTheFiles() {
    try (StorageTransaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT)) {
      Table mine = tx.table(NAME);
      mine.put(new Put(ROW).addColumn(F, A, bytes("a-own")).addColumn(F, B, bytes("b-own")));
      Read r = get(mine, both());
      assertEquals("a-own", r.value(A));
      assertEquals("b-own", r.value(B));
      assertEquals(0, r.metrics().filesRead.get());
      Read others = get(t, both()); // outside the transaction: the file's
      assertArrayEquals(bytes("a-file"), others.result().getValue(F, A));
      tx.rollback();
    }
  }
}
