package io.basaltdb.engine.memstore;

import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.memstore.Versions.Node;
import io.basaltdb.engine.memstore.Versions.Slot;
import io.basaltdb.storage.Cell;
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A {@link MemStore}'s cursor: the columns after the current one, the current cell, and the
 * rest of the chain the current column had when the cursor came to it. Over the memstore's
 * skip list of columns, over its {@link FrozenColumns} once it takes no more writes, or over one
 * indexed row's slots (then past them it is at its end).
 * Sees each column's value as it was when it came to it; not thread-safe.
 */
final class ColumnCursor implements CellIterator {
  /** Columns a forward seek steps over before it searches the skip list again. */
  private static final int SEEK_STEPS = 8;

  /** The memstore's columns: its skip list, or null when {@link #frozen} is given. */
  private final ConcurrentSkipListMap<Cell, Object> columns;
  private final FrozenColumns frozen;
  /** The row and its slots when the cursor is over one row, else null. */
  private final byte[] row;
  private final Slot[] rowSlots;
  private Iterator<?> rest;
  private Cell current;
  private Node more; // the current column's cells after the current one
  private Cell column; // a cell of the current column, null past the end
  private Cell seekTarget; // the last seek's target while the cursor has not moved since
  private long stepped; // cells the cursor came to (ScanMetrics)

  /** Over the whole skip list. */
  ColumnCursor(ConcurrentSkipListMap<Cell, Object> columns) {
    this(columns, null, null);
  }

  /** Over one indexed row's slots. */
  ColumnCursor(ConcurrentSkipListMap<Cell, Object> columns, byte[] row, Slot[] rowSlots) {
    this.columns = columns;
    this.frozen = null;
    this.row = row;
    this.rowSlots = rowSlots;
  }

  /** Over a frozen memstore's columns. */
  ColumnCursor(FrozenColumns frozen) {
    this.columns = null;
    this.frozen = frozen;
    this.row = null;
    this.rowSlots = null;
  }

  /** The columns from the first at or after {@code target}'s, by a search. */
  private Iterator<?> columnsFrom(Cell target) {
    if (frozen != null) {
      return frozen.valuesFrom(frozen.search(target));
    }
    if (rowSlots == null) {
      return columns.tailMap(target, true).values().iterator();
    }
    int r = CellComparator.compareRows(target.row(), row);
    int i = r < 0 ? 0 : r > 0 ? rowSlots.length : Versions.search(rowSlots, target);
    return Arrays.asList(rowSlots).listIterator(i < 0 ? -i - 1 : i);
  }

  @Override
  public void seekToFirst() {
    rest = frozen != null ? frozen.valuesFrom(0)
        : rowSlots == null ? columns.values().iterator() : Arrays.asList(rowSlots).iterator();
    seekTarget = null;
    nextColumn();
  }

  /** Moves to the first cell of the next column that has one. */
  private void nextColumn() {
    while (rest.hasNext()) {
      Object v = Versions.cellsOf(rest.next());
      if (v == null) {
        continue; // an indexed row's column whose every cell was taken back
      }
      if (v instanceof Node n) {
        current = n.cell;
        more = n.next;
      } else {
        current = (Cell) v;
        more = null;
      }
      column = current;
      stepped++;
      return;
    }
    current = null;
    more = null;
    column = null;
  }

  @Override
  public void seek(Cell target) {
    if (seekTarget != null && CellComparator.INSTANCE.compare(seekTarget, target) == 0) {
      return; // already there
    }
    seekTarget = target;
    if (current != null && CellComparator.INSTANCE.compare(current, target) < 0) {
      // forward: within the column, or over a few columns (the next row, past a few
      // unwanted columns), cheaper than a new search from the top of the skip list
      for (int i = 0; i < SEEK_STEPS; i++) {
        int c = MemStore.compareColumns(column, target);
        if (c == 0) {
          walkTo(target);
          return;
        }
        if (c > 0) {
          return; // the first cell of the first column after the target's
        }
        nextColumn();
        if (current == null) {
          return;
        }
      }
    }
    rest = columnsFrom(target);
    nextColumn();
    if (current != null && MemStore.compareColumns(column, target) == 0) {
      walkTo(target);
    }
  }

  /** Within the current column (the target's), to the first cell at or after the target. */
  private void walkTo(Cell target) {
    if (CellComparator.isLastOnColumn(target)) {
      nextColumn(); // past every version: one step, however many there are
      return;
    }
    while (CellComparator.INSTANCE.compareWithinRow(current, target) < 0) {
      if (more == null) {
        nextColumn();
        return;
      }
      current = more.cell;
      more = more.next;
      stepped++;
    }
  }

  @Override
  public void addTo(io.basaltdb.storage.ScanMetrics m) {
    m.memstoreCells.addAndGet(stepped);
    stepped = 0;
  }

  @Override
  public Cell current() {
    return current;
  }

  @Override
  public void next() {
    if (current != null) {
      seekTarget = null;
      if (more != null) {
        current = more.cell;
        more = more.next;
        stepped++;
      } else {
        nextColumn();
      }
    }
  }
}
