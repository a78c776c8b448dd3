package io.basaltdb.engine;

import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.memstore.MemStore;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A transaction's own cells of one family answer as a memstore holding the same cells would,
 * while small (a sorted array) and after they grew into a memstore of their own, and an
 * iterator begun before a change keeps reading what it began with.
 */
class OwnCellsTest {
  private static final byte[] F = "f".getBytes(StandardCharsets.UTF_8);

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Cell cell(Random r, long seq) {
    CellType type = r.nextInt(5) == 0 ? CellType.DELETE_COLUMN : CellType.PUT;
    return new Cell(b("r" + r.nextInt(30)), F, b("q" + r.nextInt(4)), 1 + r.nextInt(3), type,
        seq, b("v" + seq));
  }

  private static List<Cell> all(CellIterator it) {
    List<Cell> out = new ArrayList<>();
    it.seekToFirst();
    for (Cell c = it.current(); c != null; it.next(), c = it.current()) {
      out.add(c);
    }
    return out;
  }

  private static List<Cell> from(CellIterator it, Cell target, int n) {
    List<Cell> out = new ArrayList<>();
    it.seek(target);
    for (Cell c = it.current(); c != null && out.size() < n; it.next(), c = it.current()) {
      out.add(c);
    }
    return out;
  }

  @Test
  void answersAsAMemstoreHoldingTheSameCells() {
    long seed = System.nanoTime();
    System.out.println("OwnCellsTest: seed=" + seed + " (replay with -Dbasalt.seed=" + seed + ")");
    Random r = new Random(Long.getLong("basalt.seed", seed));
    for (int round = 0; round < 20; round++) {
      OwnCells own = OwnCells.empty();
      MemStore model = new MemStore();
      List<Cell> added = new ArrayList<>();
      int steps = r.nextInt(3 * OwnCells.SMALL_CELLS);
      for (int step = 0; step < steps; step++) {
        if (!added.isEmpty() && r.nextInt(4) == 0) {
          Cell gone = added.remove(r.nextInt(added.size()));
          own.remove(gone);
          model.remove(gone);
        } else {
          Cell c = r.nextInt(10) == 0 && !added.isEmpty() ? added.get(r.nextInt(added.size()))
              : cell(r, step / 2 + 1); // an equal cell again sometimes, two cells per sequence
          own = own.add(c);
          model.add(c);
          added.add(c);
        }
        assertEquals(all(model.iterator()), all(own.iterator()), "round " + round);
        assertEquals(model.isEmpty(), own.isEmpty());
        assertArrayEquals(model.lastRow(), own.lastRow());
        byte[] row = b("r" + r.nextInt(31));
        assertArrayEquals(model.lastRowBefore(row, F), own.lastRowBefore(row, F));
        Cell target = cell(r, r.nextInt(steps + 1));
        assertEquals(from(model.iterator(), target, 3), from(own.iterator(), target, 3));
        Cell first = CellComparator.firstOnRow(row, F);
        assertEquals(from(model.iterator(), first, 2), from(own.iterator(), first, 2));
      }
      List<Cell> listed = new ArrayList<>();
      own.cells().forEach(listed::add);
      assertEquals(all(model.iterator()), listed);
    }
  }

  @Test
  void anIteratorKeepsWhatItBeganWithAndGrowingKeepsEveryCell() {
    OwnCells own = OwnCells.empty();
    List<Cell> written = new ArrayList<>();
    for (int i = 0; i < OwnCells.SMALL_CELLS; i++) {
      Cell c = new Cell(b(String.format("r%03d", i)), F, b("q"), 1, CellType.PUT, i + 1, b("v"));
      own = own.add(c);
      written.add(c);
    }
    CellIterator before = own.iterator();
    OwnCells grown = own.add(new Cell(b("r999"), F, b("q"), 1, CellType.PUT, 999, b("v")));
    assertInstanceOf(OwnCells.Large.class, grown);
    assertEquals(written, all(before), "the small cells as they were");
    assertEquals(OwnCells.SMALL_CELLS + 1, all(grown.iterator()).size());
    grown.remove(written.get(0));
    assertEquals(written.subList(1, written.size()), all(grown.iterator()).subList(0,
        written.size() - 1));
  }
}
