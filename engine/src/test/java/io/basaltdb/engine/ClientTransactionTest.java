package io.basaltdb.engine;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.ClosedException;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.storage.filter.Filter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client-side transaction (what HBase gets), over the embedded database as its storage:
 * own writes merged into gets and scans (forward, reversed, limited, filtered on the merged
 * row), the storage's latest rows seen (no snapshot), a commit row by row, marks.
 */
class ClientTransactionTest {
  private static final byte[] F = b("f");
  private static final byte[] Q = b("q");

  @TempDir Path tmp;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Put put(String row, String v) {
    return new Put(b(row)).addColumn(F, Q, b(v));
  }

  private static List<String> rows(Table t, Scan scan) {
    List<String> out = new ArrayList<>();
    try (ResultScanner sc = t.getScanner(scan)) {
      for (Result r : sc) {
        byte[] v = r.getValue(F, Q);
        out.add(new String(r.row(), StandardCharsets.UTF_8) + "="
            + (v == null ? "-" : new String(v, StandardCharsets.UTF_8)));
      }
    }
    return out;
  }

  /** Rows whose f:q is "keep". */
  private static Filter keep() {
    return new Filter() {
      private boolean ok;

      @Override
      public void reset() {
        ok = false;
      }

      @Override
      public boolean filterCell(Cell c) {
        ok |= new String(c.value(), StandardCharsets.UTF_8).equals("keep");
        return true;
      }

      @Override
      public boolean filterRow(List<Cell> cells) {
        return !ok;
      }
    };
  }

  @Test
  void ownWritesMergedIntoEveryReadAndCommittedRowByRow() {
    try (Database db = Database.open(tmp.resolve("db"), EngineOptions.defaults())) {
      db.admin().createTable(new TableDescriptor(TableName.of("t"),
          Map.of("f", FamilyOptions.DEFAULT)), new byte[][] {b("m")});
      Table base = db.table("t");
      base.put(put("a", "keep"));
      base.put(put("b", "keep"));
      base.put(put("c", "drop"));
      base.put(put("x", "keep"));
      ClientTransaction tx = new ClientTransaction(db);
      Table t = tx.table(TableName.of("t"));
      t.put(put("b", "drop")); // a stored row the filter keeps, dropped by the own write
      t.put(put("c", "keep")); // and the other way round
      t.put(put("n", "keep"));
      t.delete(new Delete(b("x")));
      assertEquals(List.of("a=keep", "b=drop", "c=keep", "n=keep"), rows(t, new Scan()));
      assertEquals(List.of("a=keep", "c=keep", "n=keep"), rows(t, new Scan().setFilter(keep())));
      assertEquals(List.of("n=keep", "c=keep"), rows(t, new Scan().setReversed(true)
          .setFilter(keep()).setLimit(2)));
      assertEquals(List.of("b=drop", "c=keep"), rows(t, new Scan().withStartRow(b("b"))
          .withStopRow(b("d"))));
      assertEquals("drop", new String(t.get(new Get(b("b"))).getValue(F, Q),
          StandardCharsets.UTF_8));
      assertFalse(t.exists(new Get(b("x"))));
      base.put(put("z", "keep")); // no snapshot: another's committed row is seen
      assertEquals(List.of("a=keep", "c=keep", "n=keep", "z=keep"),
          rows(t, new Scan().setFilter(keep())));
      assertEquals(5, t.incrementColumnValue(b("k"), F, b("n"), 5));
      assertEquals(7, t.incrementColumnValue(b("k"), F, b("n"), 2));
      int mark = tx.mark();
      t.delete(new Delete(b("a")));
      try (ReadSnapshot statement = tx.snapshot()) {
        t.put(put("o", "keep")); // the statement's own write: not seen by its reads
        assertEquals(List.of("b=drop", "c=keep", "k=-", "n=keep", "z=keep"),
            rows(t, new Scan().setSnapshot(statement)));
      }
      tx.rollbackTo(mark);
      assertEquals(List.of("a=keep", "b=drop", "c=keep"), rows(t, new Scan().withStopRow(b("d"))));
      assertEquals(List.of("a=keep", "b=keep", "c=drop", "x=keep", "z=keep"), rows(base,
          new Scan()), "nothing stored before the commit");
      tx.commit(Durability.SYNC);
      assertEquals(List.of("a=keep", "b=drop", "c=keep", "k=-", "n=keep", "z=keep"),
          rows(base, new Scan()));
      assertEquals(7, Increment.toLong(base.get(new Get(b("k"))).getValue(F, b("n"))));
      assertThrows(ClosedException.class, () -> t.put(put("q", "v")));
    }
  }

  @Test
  void aDeleteThenAPutOfOneRowInOneMillisecondKeepsThePut() {
    try (Database db = Database.open(tmp.resolve("db"), EngineOptions.defaults())) {
      db.admin().createTable(new TableDescriptor(TableName.of("t"),
          Map.of("f", FamilyOptions.DEFAULT)));
      db.table("t").put(put("r", "old"));
      ClientTransaction tx = new ClientTransaction(db);
      Table t = tx.table(TableName.of("t"));
      for (int i = 0; i < 50; i++) { // many within one millisecond of each other
        t.delete(new Delete(b("r")));
        t.put(put("r", "v" + i));
      }
      tx.commit(Durability.SYNC);
      assertEquals("v49", new String(db.table("t").get(new Get(b("r"))).getValue(F, Q),
          StandardCharsets.UTF_8));
    }
  }
}
