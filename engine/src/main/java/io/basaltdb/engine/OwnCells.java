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
 * percent of a short transaction); past {@link #SMALL_CELLS}, cells that keep coming in order
 * (an INSERT of ascending keys, a load) are appended to an array ({@link Run}: a statement of a
 * thousand rows no longer fills a skip list it reads once), and the first cell out of order
 * moves them all to a {@link MemStore} ({@link Large}). Either way readers may iterate while
 * the one writer adds: a small one's iterator reads the array it began with, a run's the
 * length it began with (appends go past it, a removal makes a new array), and the writer
 * replaces one form with the next without changing the one it leaves. An equal cell added
 * again is ignored, as a memstore ignores it.
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
        if (-at - 1 == old.length) { // after every cell held: they go on in order
          Cell[] run = Arrays.copyOf(old, old.length * 4);
          run[old.length] = cell;
          return new Run(run, old.length + 1);
        }
        return Large.of(old, old.length, cell);
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
      Cell[] now = cells;
      return new ArrayCursor(now, now.length);
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

  /**
   * Cells added in order, appended to an array: a reader takes the array and the length
   * together ({@link View}) and reads below that length, which nothing later changes: an
   * append writes a slot of the array only past every length it was ever published with
   * ({@link #published}; else it copies first), the last cell is taken back by shortening the
   * length (a statement rolled back takes its cells back from the end), any other by a copy.
   */
  static final class Run extends OwnCells {
    private record View(Cell[] cells, int size) {}

    private volatile View view;
    /** The longest length the current array was published with (the writer's own field). */
    private int published;

    Run(Cell[] cells, int size) {
      this.view = new View(cells, size);
      this.published = size;
    }

    @Override
    OwnCells add(Cell cell) {
      View v = view;
      int cmp = v.size == 0 ? -1 : CellComparator.INSTANCE.compare(v.cells[v.size - 1], cell);
      if (cmp > 0) { // out of order: a memstore from now on, unless the cell is held
        return Arrays.binarySearch(v.cells, 0, v.size, cell, CellComparator.INSTANCE) >= 0
            ? this : Large.of(v.cells, v.size, cell);
      }
      if (cmp == 0) {
        return this;
      }
      Cell[] a = v.cells;
      if (v.size < published || v.size == a.length) { // a reader may read the slot, or full
        a = Arrays.copyOf(a, Math.max(a.length, v.size * 2 + 16));
        published = 0;
      }
      a[v.size] = cell; // past every length this array was published with
      view = new View(a, v.size + 1);
      published = Math.max(published, v.size + 1);
      return this;
    }

    @Override
    void remove(Cell cell) {
      View v = view;
      int at = Arrays.binarySearch(v.cells, 0, v.size, cell, CellComparator.INSTANCE);
      if (at < 0) {
        return;
      }
      if (at == v.size - 1) { // the last: the slot stays as older readers read it
        view = new View(v.cells, at);
        return;
      }
      Cell[] less = new Cell[v.cells.length];
      System.arraycopy(v.cells, 0, less, 0, at);
      System.arraycopy(v.cells, at + 1, less, at, v.size - at - 1);
      view = new View(less, v.size - 1);
      published = v.size - 1;
    }

    @Override
    boolean isEmpty() {
      return view.size == 0;
    }

    @Override
    CellIterator iterator() {
      View v = view;
      return new ArrayCursor(v.cells, v.size);
    }

    @Override
    byte[] lastRow() {
      View v = view;
      return v.size == 0 ? null : v.cells[v.size - 1].row();
    }

    @Override
    byte[] lastRowBefore(byte[] row, byte[] family) {
      View v = view;
      int at = Arrays.binarySearch(v.cells, 0, v.size, CellComparator.firstOnRow(row, family),
          CellComparator.INSTANCE);
      int before = (at >= 0 ? at : -at - 1) - 1;
      return before < 0 ? null : v.cells[before].row();
    }

    @Override
    Iterable<Cell> cells() {
      View v = view;
      return Arrays.asList(v.cells).subList(0, v.size);
    }
  }

  /** A memstore of its own. */
  static final class Large extends OwnCells {
    private final MemStore store = new MemStore();

    /** The first {@code n} of {@code cells} and {@code cell}. */
    static Large of(Cell[] cells, int n, Cell cell) {
      Large large = new Large();
      for (int i = 0; i < n; i++) {
        large.add(cells[i]);
      }
      large.add(cell);
      return large;
    }

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

  /** A cursor over the first {@code size} cells of a sorted array. */
  private static final class ArrayCursor implements CellIterator {
    private final Cell[] cells;
    private final int size;
    private int at;

    ArrayCursor(Cell[] cells, int size) {
      this.cells = cells;
      this.size = size;
      this.at = size;
    }

    @Override
    public void seekToFirst() {
      at = 0;
    }

    @Override
    public void seek(Cell target) {
      int i = Arrays.binarySearch(cells, 0, size, target, CellComparator.INSTANCE);
      at = i >= 0 ? i : -i - 1;
    }

    @Override
    public Cell current() {
      return at < size ? cells[at] : null;
    }

    @Override
    public void next() {
      if (at < size) {
        at++;
      }
    }
  }
}
