package io.basaltdb.engine;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.ClosedException;
import io.basaltdb.storage.CounterOverflowException;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.WriteConflictException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions over the embedded engine: own writes seen by every read (gets, scans forward and
 * reversed, filters, limits) and by read-modify-writes, nothing seen outside until commit, one
 * snapshot, marks, first committer wins, and a failed commit applies nothing. A randomized run
 * compares a transaction's reads with a model of what it should see.
 */
class TransactionTest {
  private static final byte[] F = b("f");
  private static final byte[] G = b("g");

  @TempDir Path tmp;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String s(byte[] v) {
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }

  private Database open() {
    Database db = Database.open(tmp.resolve("db"), EngineOptions.defaults());
    db.admin().createTable(new TableDescriptor(TableName.of("t"),
        Map.of("f", FamilyOptions.DEFAULT, "g", FamilyOptions.DEFAULT)),
        new byte[][] {b("h"), b("p")});
    return db;
  }

  private static Put put(String row, byte[] family, String col, String value) {
    return new Put(b(row)).addColumn(family, b(col), b(value));
  }

  private static String get(Table t, String row, byte[] family, String col) {
    return s(t.get(new Get(b(row))).getValue(family, b(col)));
  }

  private static List<String> rows(Table t, Scan scan) {
    List<String> out = new ArrayList<>();
    try (ResultScanner sc = t.getScanner(scan)) {
      for (Result r : sc) {
        out.add(s(r.row()));
      }
    }
    return out;
  }

  /**
   * A held read (a constraint's check) fails the commit when another writer changed the range
   * since the snapshot, whatever the isolation, and only then: the row written beside it is
   * not applied.
   */
  @Test
  void heldReadChangedSinceTheSnapshotFailsTheCommit() {
    try (Database db = open()) {
      Table t = db.table(TableName.of("t"));
      t.put(put("parent", F, "c", "1"));
      for (StorageTransaction.Isolation iso : List.of(StorageTransaction.Isolation.SNAPSHOT,
          StorageTransaction.Isolation.READ_COMMITTED)) {
        Transaction tx = db.begin(iso);
        assertEquals("1", get(tx.table(TableName.of("t")), "parent", F, "c"));
        tx.holdRead(TableName.of("t"), b("parent"), b("parent\0"));
        tx.table(TableName.of("t")).put(put("child-" + iso, F, "p", "parent"));
        t.delete(new Delete(b("parent"))); // another writer, committed first
        assertThrows(WriteConflictException.class, () -> tx.commit(Durability.ASYNC));
        assertEquals(null, get(t, "child-" + iso, F, "p"));
        t.put(put("parent", F, "c", "1"));
      }
      Transaction untouched = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      untouched.holdRead(TableName.of("t"), b("parent"), b("parent\0"));
      untouched.table(TableName.of("t")).put(put("child", F, "p", "parent"));
      t.put(put("other", F, "c", "2")); // outside the held range
      untouched.commit(Durability.ASYNC);
      assertEquals("parent", get(t, "child", F, "p"));
    }
  }

  /**
   * A row's own cells of several families, the later family written first: read inside and
   * committed in cell order (family order), each family's own cells found.
   */
  @Test
  void ownWritesOfSeveralFamiliesReadAndCommitInFamilyOrder() {
    try (Database db = open()) {
      Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      Table t = tx.table(TableName.of("t"));
      t.put(put("r", G, "y", "g1"));
      t.put(put("r", F, "x", "f1"));
      t.put(put("r", G, "a", "g2"));
      List<String> inside = cells(t, "r");
      assertEquals(List.of("f:x=f1", "g:a=g2", "g:y=g1"), inside);
      assertEquals("g1", get(t, "r", G, "y"));
      tx.commit(Durability.SYNC);
      assertEquals(inside, cells(db.table("t"), "r"));
    }
  }

  /** The row's cells as family:qualifier=value, in the order read. */
  private static List<String> cells(Table t, String row) {
    List<String> out = new ArrayList<>();
    for (io.basaltdb.storage.Cell c : t.get(new Get(b(row))).cells()) {
      out.add(s(c.family()) + ":" + s(c.qualifier()) + "=" + s(c.value()));
    }
    return out;
  }

  @Test
  void ownWritesAreSeenInsideAndNowhereElseUntilCommit() {
    try (Database db = open()) {
      Table base = db.table("t");
      base.put(put("a", F, "x", "1"));
      base.put(put("m", F, "x", "1"));
      Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      Table t = tx.table(TableName.of("t"));
      t.put(put("b", F, "x", "2"));
      t.put(put("m", G, "y", "3"));
      t.delete(new Delete(b("a")));
      assertEquals("2", get(t, "b", F, "x"));
      assertEquals(List.of("b", "m"), rows(t, new Scan()));
      assertEquals(List.of("m", "b"), rows(t, new Scan().setReversed(true)));
      assertEquals(List.of("b"), rows(t, new Scan().setLimit(1)));
      assertEquals("1", get(t, "m", F, "x"), "committed cells of a row the transaction wrote");
      assertEquals(List.of("a", "m"), rows(base, new Scan()), "nothing seen outside");
      assertEquals(1, t.incrementColumnValue(b("z"), F, b("n"), 1));
      assertEquals(3, t.incrementColumnValue(b("z"), F, b("n"), 2));
      assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(b("b")).ifEquals(F, b("x"), b("2"))
          .build(put("b", F, "x", "4"))));
      tx.commit(Durability.SYNC);
      assertEquals(List.of("b", "m", "z"), rows(base, new Scan()));
      assertEquals("4", get(base, "b", F, "x"));
      assertEquals("3", get(base, "m", G, "y"));
      assertEquals(3, Increment.toLong(base.get(new Get(b("z"))).getValue(F, b("n"))));
      assertThrows(ClosedException.class, () -> t.put(put("c", F, "x", "1")));
    }
  }

  @Test
  void aSnapshotForTheWholeTransactionAndNoneOfAStatementsOwnWritesWhileItReads() {
    try (Database db = open()) {
      Table base = db.table("t");
      base.put(put("a", F, "x", "1"));
      Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      Table t = tx.table(TableName.of("t"));
      base.put(put("a", F, "x", "2"));
      base.put(put("c", F, "x", "2"));
      assertEquals("1", get(t, "a", F, "x"));
      assertEquals(List.of("a"), rows(t, new Scan()));
      try (ReadSnapshot statement = tx.snapshot()) {
        t.put(put("d", F, "x", "5")); // written by the statement reading at `statement`
        assertEquals(List.of("a"), rows(t, new Scan().setSnapshot(statement)));
      }
      try (ReadSnapshot next = tx.snapshot()) {
        assertEquals(List.of("a", "d"), rows(t, new Scan().setSnapshot(next)));
      }
      tx.rollback();
      assertEquals(List.of("a", "c"), rows(base, new Scan()));
      assertEquals(0, db.openSnapshots(), "a transaction's pins are released at its end");
    }
  }

  @Test
  void readCommittedTakesANewSnapshotPerStatement() {
    try (Database db = open()) {
      Table base = db.table("t");
      Transaction tx = db.begin(StorageTransaction.Isolation.READ_COMMITTED);
      Table t = tx.table(TableName.of("t"));
      t.put(put("b", F, "x", "1"));
      base.put(put("a", F, "x", "1"));
      try (ReadSnapshot same = tx.snapshot()) {
        assertEquals(List.of("b"), rows(t, new Scan().setSnapshot(same)), "within a statement");
      }
      tx.nextStatement();
      try (ReadSnapshot next = tx.snapshot()) {
        assertEquals(List.of("a", "b"), rows(t, new Scan().setSnapshot(next)));
      }
      tx.commit(Durability.SYNC);
      assertEquals(List.of("a", "b"), rows(base, new Scan()));
    }
  }

  @Test
  void theFirstCommitterWinsAndAFailedCommitAppliesNothing() {
    try (Database db = open()) {
      Table base = db.table("t");
      base.put(put("a", F, "x", "0"));
      Transaction t1 = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      Transaction t2 = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      t1.table(TableName.of("t")).put(put("a", F, "x", "1"));
      t2.table(TableName.of("t")).put(put("q", F, "x", "2")); // another region
      t2.table(TableName.of("t")).put(put("a", G, "y", "2")); // same row, other family
      t1.commit(Durability.SYNC);
      WriteConflictException e = assertThrows(WriteConflictException.class,
          () -> t2.commit(Durability.SYNC));
      assertTrue(e.getMessage().contains("row a"), e.getMessage());
      assertEquals(List.of("a"), rows(base, new Scan()), "nothing of the failed commit");
      assertEquals("1", get(base, "a", F, "x"));
      // a delete after the snapshot conflicts too, even once compacted into files
      Transaction t3 = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      base.delete(new Delete(b("a")));
      db.admin().flush(TableName.of("t"));
      t3.table(TableName.of("t")).put(put("a", F, "x", "3"));
      assertThrows(WriteConflictException.class, () -> t3.commit(Durability.ASYNC));
      assertEquals(List.of(), rows(base, new Scan()));
    }
  }

  @Test
  void serializableRefusesWriteSkewAndPhantomsButNotDisjointWork() {
    try (Database db = open()) {
      Table base = db.table("t");
      base.put(put("a", F, "on", "1"));
      base.put(put("b", F, "on", "1"));
      // write skew: each reads both doctors on call, each takes one off
      Transaction t1 = db.begin(StorageTransaction.Isolation.SERIALIZABLE);
      Transaction t2 = db.begin(StorageTransaction.Isolation.SERIALIZABLE);
      assertEquals(List.of("a", "b"), rows(t1.table(TableName.of("t")), new Scan()
          .withStartRow(b("a")).withStopRow(b("c"))));
      assertEquals(List.of("a", "b"), rows(t2.table(TableName.of("t")), new Scan()
          .withStartRow(b("a")).withStopRow(b("c"))));
      t1.table(TableName.of("t")).delete(new Delete(b("a")));
      t2.table(TableName.of("t")).delete(new Delete(b("b")));
      t1.commit(Durability.SYNC);
      WriteConflictException e = assertThrows(WriteConflictException.class,
          () -> t2.commit(Durability.SYNC));
      assertTrue(e.getMessage().contains("serializable"), e.getMessage());
      assertEquals(List.of("b"), rows(base, new Scan()));
      // a phantom: a range read empty, then filled by another before the commit
      Transaction t3 = db.begin(StorageTransaction.Isolation.SERIALIZABLE);
      assertEquals(List.of(), rows(t3.table(TableName.of("t")), new Scan()
          .withStartRow(b("m")).withStopRow(b("n"))));
      base.put(put("m1", F, "on", "1"));
      t3.table(TableName.of("t")).put(put("q", F, "on", "1"));
      assertThrows(WriteConflictException.class, () -> t3.commit(Durability.SYNC));
      // reads and writes elsewhere, even after a flush: no conflict
      Transaction t4 = db.begin(StorageTransaction.Isolation.SERIALIZABLE);
      assertEquals("1", get(t4.table(TableName.of("t")), "b", F, "on"));
      base.put(put("z", F, "on", "1"));
      db.admin().flush(TableName.of("t"));
      t4.table(TableName.of("t")).put(put("y", F, "on", "1"));
      t4.commit(Durability.SYNC);
      assertEquals(List.of("b", "m1", "y", "z"), rows(base, new Scan()));
      // the same write skew under SNAPSHOT commits both (snapshot isolation allows it)
      Transaction s1 = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      Transaction s2 = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      rows(s1.table(TableName.of("t")), new Scan());
      rows(s2.table(TableName.of("t")), new Scan());
      s1.table(TableName.of("t")).delete(new Delete(b("y")));
      s2.table(TableName.of("t")).delete(new Delete(b("z")));
      s1.commit(Durability.SYNC);
      s2.commit(Durability.SYNC);
      assertEquals(List.of("b", "m1"), rows(base, new Scan()));
    }
  }

  @Test
  void marksUndoTheWritesAfterThem() {
    try (Database db = open()) {
      Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      Table t = tx.table(TableName.of("t"));
      t.put(put("a", F, "x", "1"));
      int mark = tx.mark();
      t.put(put("a", F, "x", "2"));
      t.put(put("b", F, "x", "2"));
      t.delete(new Delete(b("a")));
      assertEquals(List.of("b"), rows(t, new Scan()));
      tx.rollbackTo(mark);
      assertEquals(List.of("a"), rows(t, new Scan()));
      assertEquals("1", get(t, "a", F, "x"));
      tx.commit(Durability.SYNC);
      assertEquals("1", get(db.table("t"), "a", F, "x"));
    }
  }

  @Test
  void aWriteTheTableWouldRefuseIsRefusedAtOnce() {
    try (Database db = open()) {
      Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      Table t = tx.table(TableName.of("t"));
      assertThrows(InvalidArgumentException.class,
          () -> t.put(new Put(b("a")).addColumn(b("nope"), b("x"), b("1"))));
      t.put(put("a", F, "x", "1"));
      t.put(put("a", F, "x", "1")); // same again: fine
      assertThrows(CounterOverflowException.class, () -> {
        t.incrementColumnValue(b("c"), F, b("n"), Long.MAX_VALUE);
        t.incrementColumnValue(b("c"), F, b("n"), 1);
      });
      tx.commit(Durability.SYNC);
      assertEquals(Long.MAX_VALUE,
          Increment.toLong(db.table("t").get(new Get(b("c"))).getValue(F, b("n"))));
    }
  }

  /**
   * Random writes, reads, marks, commits, rollbacks, flushes and compactions, and writes by
   * others that make commits conflict; the transaction's reads and the database after each end
   * are compared with a model (row -> "family:column" -> value). The engine's transactions and
   * the client-side one (HBase's) alike.
   */
  @Test
  void randomTransactionsAgainstAModel() {
    long seed = Seeds.seed("TransactionTest.randomTransactionsAgainstAModel");
    Random rnd = new Random(seed);
    String[] rowNames = {"a", "c", "h", "j", "p", "r", "z"};
    String[] cols = {"f:x", "f:y", "g:x"};
    try (Database db = open()) {
      Table base = db.table("t");
      TreeMap<String, TreeMap<String, String>> committed = new TreeMap<>();
      for (int round = 0; round < 60; round++) {
        int kind = rnd.nextInt(3); // the engine's, snapshot or per statement; or client-side
        StorageTransaction tx = kind == 2 ? new ClientTransaction(db)
            : db.begin(kind == 0 ? StorageTransaction.Isolation.SNAPSHOT
                : StorageTransaction.Isolation.READ_COMMITTED);
        boolean others = kind == 0; // another writer meanwhile: the snapshot hides it
        Table t = tx.table(TableName.of("t"));
        TreeMap<String, TreeMap<String, String>> view = copy(committed);
        List<TreeMap<String, TreeMap<String, String>>> marks = new ArrayList<>();
        List<java.util.Set<String>> markedWrites = new ArrayList<>();
        List<Integer> markIds = new ArrayList<>();
        java.util.Set<String> written = new java.util.HashSet<>();
        String otherRow = null;
        for (int op = 0; op < 25; op++) {
          String row = rowNames[rnd.nextInt(rowNames.length)];
          String col = cols[rnd.nextInt(cols.length)];
          byte[] fam = b(col.substring(0, 1));
          byte[] q = b(col.substring(2));
          String context = "seed " + seed + " round " + round + " (kind " + kind + ") op " + op;
          switch (rnd.nextInt(9)) {
            case 0, 1 -> {
              String v = "v" + rnd.nextInt(100);
              t.put(new Put(b(row)).addColumn(fam, q, b(v)));
              view.computeIfAbsent(row, r -> new TreeMap<>()).put(col, v);
              written.add(row);
            }
            case 2 -> {
              t.delete(new Delete(b(row)));
              view.remove(row);
              written.add(row);
            }
            case 3 -> {
              t.delete(new Delete(b(row)).addColumns(fam, q));
              TreeMap<String, String> r = view.get(row);
              if (r != null) {
                r.remove(col);
                if (r.isEmpty()) {
                  view.remove(row);
                }
              }
              written.add(row);
            }
            case 4 -> {
              marks.add(copy(view));
              markedWrites.add(new java.util.HashSet<>(written));
              markIds.add(tx.mark());
            }
            case 5 -> {
              if (!marks.isEmpty()) {
                int i = rnd.nextInt(marks.size());
                tx.rollbackTo(markIds.get(i));
                view = copy(marks.get(i));
                written = new java.util.HashSet<>(markedWrites.get(i));
                marks.subList(i + 1, marks.size()).clear();
                markedWrites.subList(i + 1, markedWrites.size()).clear();
                markIds.subList(i + 1, markIds.size()).clear();
              }
            }
            case 6 -> {
              String v = "w" + rnd.nextInt(100);
              t.mutateRow(new RowMutations(b(row)).add(new Delete(b(row)))
                  .add(new Put(b(row)).addColumn(fam, q, b(v))));
              TreeMap<String, String> r = new TreeMap<>();
              r.put(col, v);
              view.put(row, r);
              written.add(row);
            }
            case 7 -> {
              if (otherRow == null && rnd.nextInt(3) == 0 && others) {
                otherRow = rowNames[rnd.nextInt(rowNames.length)];
                base.put(new Put(b(otherRow)).addColumn(F, b("x"), b("other")));
                committed.computeIfAbsent(otherRow, r -> new TreeMap<>()).put("f:x", "other");
              } else if (rnd.nextBoolean()) {
                db.admin().flush(TableName.of("t"));
              } else {
                db.admin().majorCompact(TableName.of("t"));
              }
            }
            default -> {
              // reads: the model as the transaction sees it (others write in SNAPSHOT rounds)
              TreeMap<String, TreeMap<String, String>> expected = view;
              tx.nextStatement();
              try (ReadSnapshot snap = tx.snapshot()) {
                assertEquals(expected, read(t, new Scan().setSnapshot(snap)), context);
                List<String> reversed = new ArrayList<>(expected.descendingKeySet());
                assertEquals(reversed, rows(t, new Scan().setSnapshot(snap).setReversed(true)),
                    context);
                Result one = t.get(new Get(b(row)).setSnapshot(snap));
                assertEquals(expected.get(row), one.isEmpty() ? null : toMap(one), context);
              }
            }
          }
        }
        boolean conflict = otherRow != null && written.contains(otherRow);
        if (rnd.nextInt(4) == 0) {
          tx.rollback();
        } else if (conflict) {
          assertThrows(WriteConflictException.class, () -> tx.commit(Durability.ASYNC),
              "seed " + seed + " round " + round);
        } else {
          tx.commit(Durability.ASYNC);
          TreeMap<String, TreeMap<String, String>> after = copy(view);
          if (otherRow != null) { // the other write stays where the transaction left the row
            after.put(otherRow, committed.get(otherRow));
          }
          committed = after;
        }
        assertEquals(committed, read(base, new Scan()), "seed " + seed + " round " + round);
      }
      assertEquals(0, db.openSnapshots());
    }
  }

  private static TreeMap<String, TreeMap<String, String>> copy(
      TreeMap<String, TreeMap<String, String>> m) {
    TreeMap<String, TreeMap<String, String>> c = new TreeMap<>();
    m.forEach((k, v) -> c.put(k, v == null ? null : new TreeMap<>(v)));
    return c;
  }

  private static TreeMap<String, TreeMap<String, String>> read(Table t, Scan scan) {
    TreeMap<String, TreeMap<String, String>> out = new TreeMap<>();
    try (ResultScanner sc = t.getScanner(scan)) {
      for (Result r : sc) {
        out.put(s(r.row()), toMap(r));
      }
    }
    return out;
  }

  private static TreeMap<String, String> toMap(Result r) {
    TreeMap<String, String> m = new TreeMap<>();
    for (Cell c : r.cells()) {
      m.put(s(c.family()) + ":" + s(c.qualifier()), s(c.value()));
    }
    return m;
  }

  @Test
  void noWritesNoCommitWork() {
    try (Database db = open()) {
      Transaction tx = db.begin(StorageTransaction.Isolation.SNAPSHOT);
      assertFalse(tx.hasWrites());
      tx.commit(Durability.SYNC);
      assertEquals(0, db.openSnapshots());
    }
  }
}
