package io.basaltdb.engine;

import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.memstore.MemStore;
import io.basaltdb.storage.Cell;
import java.util.Arrays;
import java.util.List;

/**
 * One table family's uncommitted cells in a transaction ({@link OwnWrites}), in {@link
 * CellComparator} order. A small transaction's few cells are a sorted array the writer replaces
 * whole on each change ({@link Small}: no skip list to build and fill per transaction, a few
 * percent of a short transaction); past {@link #SMALL_CELLS} they move to a {@link MemStore}
 * ({@link Large}). Either way readers may iterate while the one writer adds: a small one's
 * iterator reads the array it began with, and the writer replaces the small one with a large
 * one without changing the small one. An equal cell added again is ignored, as a memstore
 * ignores it.
 */
abstract sealed class OwnCells {
  /** The most cells kept as a sorted array. */
  static final int SMALL_CELLS = 64;

  static OwnCells empty() {
    return new Small();
  }

  /**
   * Adds {@code cell} (the one writer); returns the cells to use from now on: this, or a
   * large one holding this one's cells and {@code cell} when this small one is full.
   */
  abstract OwnCells add(Cell cell);

  /** Takes {@code cell} back (the one writer); absent: nothing. */
  abstract void remove(Cell cell);

  abstract boolean isEmpty();

  /** A cursor over the cells (unpositioned: seek first). */
  abstract CellIterator iterator();

  /** The last cell's row, or null. */
  abstract byte[] lastRow();

  /** The row of the last cell before {@code row}'s first cell of {@code family}, or null. */
  abstract byte[] lastRowBefore(byte[] row, byte[] family);

  /** The cells in order. */
  abstract Iterable<Cell> cells();

  /** A sorted array, replaced whole. */
  static final class Small extends OwnCells {
    private volatile Cell[] cells = new Cell[0];

    @Override
    OwnCells add(Cell cell) {
      Cell[] old = cells;
      int at = Arrays.binarySearch(old, cell, CellComparator.INSTANCE);
      if (at >= 0) {
        return this;
      }
      if (old.length >= SMALL_CELLS) {
        Large large = new Large();
        for (Cell c : old) {
          large.add(c);
        }
        large.add(cell);
        return large;
      }
      at = -at - 1;
      Cell[] more = new Cell[old.length + 1];
      System.arraycopy(old, 0, more, 0, at);
      more[at] = cell;
      System.arraycopy(old, at, more, at + 1, old.length - at);
      cells = more;
      return this;
    }

    @Override
    void remove(Cell cell) {
      Cell[] old = cells;
      int at = Arrays.binarySearch(old, cell, CellComparator.INSTANCE);
      if (at < 0) {
        return;
      }
      Cell[] less = new Cell[old.length - 1];
      System.arraycopy(old, 0, less, 0, at);
      System.arraycopy(old, at + 1, less, at, old.length - at - 1);
      cells = less;
    }

    @Override
    boolean isEmpty() {
      return cells.length == 0;
    }

    @Override
    CellIterator iterator() {
      return new ArrayCursor(cells);
    }

    @Override
    byte[] lastRow() {
      Cell[] now = cells;
      return now.length == 0 ? null : now[now.length - 1].row();
    }

    @Override
    byte[] lastRowBefore(byte[] row, byte[] family) {
      Cell[] now = cells;
      int at = Arrays.binarySearch(now, CellComparator.firstOnRow(row, family),
          CellComparator.INSTANCE);
      int before = (at >= 0 ? at : -at - 1) - 1;
      return before < 0 ? null : now[before].row();
    }

    @Override
    Iterable<Cell> cells() {
      return List.of(cells);
    }
  }

  /** A memstore of its own. */
  static final class Large extends OwnCells {
    private final MemStore store = new MemStore();

    @Override
    OwnCells add(Cell cell) {
      store.add(cell);
      return this;
    }

    @Override
    void remove(Cell cell) {
      store.remove(cell);
    }

    @Override
    boolean isEmpty() {
      return store.isEmpty();
    }

    @Override
    CellIterator iterator() {
      return store.iterator();
    }

    @Override
    byte[] lastRow() {
      return store.lastRow();
    }

    @Override
    byte[] lastRowBefore(byte[] row, byte[] family) {
      return store.lastRowBefore(row, family);
    }

    @Override
    Iterable<Cell> cells() {
      return store.cells();
    }
  }

  /** A cursor over one sorted array. */
  private static final class ArrayCursor implements CellIterator {
    private final Cell[] cells;
    private int at;

    ArrayCursor(Cell[] cells) {
      this.cells = cells;
      this.at = cells.length;
    }

    @Override
    public void seekToFirst() {
      at = 0;
    }

    @Override
    public void seek(Cell target) {
      int i = Arrays.binarySearch(cells, target, CellComparator.INSTANCE);
      at = i >= 0 ? i : -i - 1;
    }

    @Override
    public Cell current() {
      return at < cells.length ? cells[at] : null;
    }

    @Override
    public void next() {
      if (at < cells.length) {
        at++;
      }
    }
  }
}
