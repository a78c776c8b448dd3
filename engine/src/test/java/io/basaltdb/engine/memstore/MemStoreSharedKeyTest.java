package io.basaltdb.engine.memstore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A column's versions share one copy of its row, family and qualifier arrays (however many
 * copies the writes brought), with every other field of each version as written; taking a
 * version back by an equal cell still finds it. Indexed rows (a third version) included.
 */
class MemStoreSharedKeyTest {
  private static Cell put(String row, String q, long ts, long seq, String value) {
    return new Cell(row.getBytes(), "f".getBytes(), q.getBytes(), ts, CellType.PUT, seq,
        value.getBytes());
  }

  private static List<Cell> rowCells(MemStore m, String row) {
    byte[] r = row.getBytes();
    CellIterator it = m.iteratorAtRow(r, CellComparator.firstOnRow(r, new byte[0]));
    List<Cell> out = new ArrayList<>();
    for (Cell c = it == null ? null : it.current(); c != null && new String(c.row()).equals(row);
        it.next(), c = it.current()) {
      out.add(c);
    }
    return out;
  }

  @Test
  void versionsOfAColumnShareItsKeyArraysAndKeepTheirOwnFields() {
    for (int width : new int[] {MemStore.INDEXED_COLUMNS, 0}) {
      MemStore m = new MemStore(width);
      for (int v = 1; v <= 5; v++) { // fresh arrays each write, as a client's puts bring
        m.add(put("row", "a", 100 + v, v, "a" + v));
        m.add(put("row", "b", 100 + v, v, "b" + v));
      }
      m.add(new Cell("row".getBytes(), "f".getBytes(), "a".getBytes(), 106, CellType.DELETE_COLUMN,
          6, new byte[0]));
      List<Cell> cells = rowCells(m, "row");
      assertEquals(11, cells.size(), "width " + width);
      Cell a = cells.get(0);
      assertEquals(CellType.DELETE_COLUMN, a.type());
      for (Cell c : cells) {
        Cell first = new String(c.qualifier()).equals("a") ? a : cells.get(6);
        assertSame(first.row(), c.row());
        assertSame(first.family(), c.family());
        assertSame(first.qualifier(), c.qualifier());
      }
      for (int i = 1; i <= 5; i++) { // newest first, each as written
        Cell c = cells.get(i);
        assertEquals(106 - i, c.timestamp());
        assertEquals(6 - i, c.sequenceId());
        assertArrayEquals(("a" + (6 - i)).getBytes(), c.value());
        assertEquals(CellType.PUT, c.type());
      }
      m.remove(put("row", "a", 103, 3, "a3")); // a failed write taken back by an equal cell
      List<Cell> left = rowCells(m, "row");
      assertEquals(10, left.size());
      for (Cell c : left) {
        assertEquals(false, new String(c.qualifier()).equals("a") && c.timestamp() == 103);
      }
    }
  }
}
