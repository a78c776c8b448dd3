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

  /** A cell of the next row in order, now and then one out of order. */
  private static Cell ascending(Random r, int step, long seq) {
    int row = r.nextInt(40) == 0 ? r.nextInt(step + 1) : step;
    CellType type = r.nextInt(9) == 0 ? CellType.DELETE_COLUMN : CellType.PUT;
    return new Cell(b(String.format("r%05d", row)), F, b("q" + r.nextInt(2)), 1, type, seq,
        b("v" + seq));
  }

  @Test
  void answersAsAMemstoreHoldingTheSameCells() {
    long seed = System.nanoTime();
    System.out.println("OwnCellsTest: seed=" + seed + " (replay with -Dbasalt.seed=" + seed + ")");
    Random r = new Random(Long.getLong("basalt.seed", seed));
    for (int round = 0; round < 40; round++) {
      boolean inOrder = round % 2 == 1; // cells mostly in order: a run, then perhaps a memstore
      OwnCells own = OwnCells.empty();
      MemStore model = new MemStore();
      List<Cell> added = new ArrayList<>();
      int steps = r.nextInt((inOrder ? 6 : 3) * OwnCells.SMALL_CELLS);
      for (int step = 0; step < steps; step++) {
        if (!added.isEmpty() && r.nextInt(4) == 0) {
          // in order, mostly the last: a statement rolled back takes its cells back from the end
          Cell gone = added.remove(inOrder && r.nextInt(3) > 0 ? added.size() - 1
              : r.nextInt(added.size()));
          own.remove(gone);
          model.remove(gone);
        } else {
          Cell c = r.nextInt(10) == 0 && !added.isEmpty() ? added.get(r.nextInt(added.size()))
              : inOrder ? ascending(r, step, step / 2 + 1)
              : cell(r, step / 2 + 1); // an equal cell again sometimes, two cells per sequence
          own = own.add(c);
          model.add(c);
          added.add(c);
        }
        assertEquals(all(model.iterator()), all(own.iterator()), "round " + round);
        assertEquals(model.isEmpty(), own.isEmpty());
        assertArrayEquals(model.lastRow(), own.lastRow());
        byte[] row = inOrder ? b(String.format("r%05d", r.nextInt(steps + 2)))
            : b("r" + r.nextInt(31));
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
    // a row between two held: out of order, so a memstore
    Cell between = new Cell(b("r0005"), F, b("q"), 1, CellType.PUT, 999, b("v"));
    OwnCells grown = own.add(between);
    assertInstanceOf(OwnCells.Large.class, grown);
    assertEquals(written, all(before), "the small cells as they were");
    assertEquals(OwnCells.SMALL_CELLS + 1, all(grown.iterator()).size());
    grown.remove(written.get(0));
    List<Cell> left = new ArrayList<>(written.subList(1, written.size()));
    left.add(between);
    left.sort(CellComparator.INSTANCE);
    assertEquals(left, all(grown.iterator()));
  }

  /** {@code n} cells of rows in order, added to empty own cells and to {@code written}. */
  private static OwnCells inOrder(int n, List<Cell> written) {
    OwnCells own = OwnCells.empty();
    for (int i = 0; i < n; i++) {
      Cell c = new Cell(b(String.format("r%03d", i)), F, b("q"), 1, CellType.PUT, i + 1, b("v"));
      own = own.add(c);
      written.add(c);
    }
    return own;
  }

  @Test
  void aRunAppendsPastItsReadersAndLeavesThemWhatTheyBeganWith() {
    List<Cell> written = new ArrayList<>();
    OwnCells own = inOrder(3 * OwnCells.SMALL_CELLS, written);
    assertInstanceOf(OwnCells.Run.class, own, "cells in order stay a run");
    CellIterator before = own.iterator();
    own = own.add(new Cell(b("r999"), F, b("q"), 1, CellType.PUT, 999, b("v")));
    own.remove(written.get(5));
    assertEquals(written, all(before), "the run as it was when the iterator began");
    assertEquals(written.size(), all(own.iterator()).size());
    CellIterator afterRemoval = own.iterator();
    OwnCells large = own.add(written.get(5)); // before the last cell: out of order
    assertInstanceOf(OwnCells.Large.class, large);
    assertEquals(written.size(), all(afterRemoval).size());
    assertEquals(written.size() + 1, all(large.iterator()).size());
    assertEquals(written.get(7), from(large.iterator(), written.get(7), 1).get(0));
  }

  @Test
  void aRunTakesItsLastCellsBackWithoutDisturbingItsReaders() {
    List<Cell> written = new ArrayList<>();
    OwnCells own = inOrder(2 * OwnCells.SMALL_CELLS, written);
    CellIterator whole = own.iterator();
    List<Cell> before = new ArrayList<>(written);
    for (int i = 0; i < 10; i++) { // rolled back from the end
      own.remove(written.remove(written.size() - 1));
    }
    CellIterator shorter = own.iterator();
    Cell other = new Cell(b("r500"), F, b("q"), 1, CellType.PUT, 500, b("other"));
    own = own.add(other); // into a slot the first reader still reads
    assertInstanceOf(OwnCells.Run.class, own);
    assertEquals(before, all(whole), "the first reader's cells as they were");
    assertEquals(written, all(shorter));
    List<Cell> now = new ArrayList<>(written);
    now.add(other);
    assertEquals(now, all(own.iterator()));
  }
}
