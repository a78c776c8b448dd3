package io.basaltdb.engine.memstore;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * The in-memory sorted buffer of one store: cells in {@link CellComparator} order, held as a
 * concurrent skip list of <em>columns</em> (row, family, qualifier) whose value is the
 * column's one cell or, once it has several, its versions in an immutable sorted chain. A get
 * or a scan searches one node per column, however many versions a hot row was given since the
 * last flush (a skip list of every cell searched hundreds of thousands of nodes for a row
 * rewritten often: a cache miss per level), and skipping a column's older versions is one step
 * to the next column; a column of one version costs what a cell did in a skip list of cells
 * (the node's value is the cell). Writers add concurrently (a column's value is replaced by
 * compare-and-set, copying the chain's cells before the new one: a new version usually goes
 * first); readers iterate without locks and see, in each column, the value it had when they
 * came to it (MVCC read points hide writes not yet committed, which are the only ones that can
 * appear meanwhile). Once swapped out for flushing it receives no more writes. Tracks its heap
 * size, cell count, the range of sequence ids it holds and the range of rows it has been
 * given: a read whose key range misses the rows skips the memstore, as it skips a file. The
 * row range is widened before a cell is added, so a reader whose read point covers the cell's
 * write, taken after the write committed, sees the range that includes it; a cell taken back
 * leaves the range as it was.
 */
public final class MemStore {
  /** Bytes a cell costs beyond its own: its share of a skip-list node, or its chain node. */
  private static final int CELL_OVERHEAD = 40;

  /** Orders cells by column only: the keys of {@link #columns}. */
  private static final Comparator<Cell> BY_COLUMN = MemStore::compareColumns;

  /** Each column's value: its one {@link Cell}, or a {@link Node} chain of two or more. */
  private final ConcurrentSkipListMap<Cell, Object> columns =
      new ConcurrentSkipListMap<>(BY_COLUMN);
  private final AtomicLong heapSize = new AtomicLong();
  private final AtomicLong cellCount = new AtomicLong();
  private final AtomicLong minSeq = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong maxSeq = new AtomicLong(0);
  /** The smallest and largest row given, null while nothing was. */
  private volatile byte[] firstRow;
  private volatile byte[] lastRow;
  private static final VarHandle FIRST_ROW;
  private static final VarHandle LAST_ROW;

  static {
    try {
      var lookup = MethodHandles.lookup();
      FIRST_ROW = lookup.findVarHandle(MemStore.class, "firstRow", byte[].class);
      LAST_ROW = lookup.findVarHandle(MemStore.class, "lastRow", byte[].class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** One cell of a column's chain; never changed once published. */
  private static final class Node {
    final Cell cell;
    final Node next;

    Node(Cell cell, Node next) {
      this.cell = cell;
      this.next = next;
    }
  }

  private static int compareColumns(Cell a, Cell b) {
    long pa = a.rowPrefix();
    long pb = b.rowPrefix();
    if (pa != pb) {
      return Long.compareUnsigned(pa, pb);
    }
    int c = CellComparator.compareRows(a.row(), b.row());
    if (c != 0) {
      return c;
    }
    if (a.family() != b.family()) {
      c = Arrays.compareUnsigned(a.family(), b.family());
      if (c != 0) {
        return c;
      }
    }
    return Arrays.compareUnsigned(a.qualifier(), b.qualifier());
  }

  /** A column's value as a chain (a lone cell is a chain of one). */
  private static Node chain(Object value) {
    return value instanceof Node n ? n : new Node((Cell) value, null);
  }

  /** A chain as a column's value: its lone cell, or itself; null for no cell. */
  private static Object value(Node chain) {
    return chain == null || chain.next != null ? chain : chain.cell;
  }

  /**
   * The remapping of one add: the column's value with {@code cell} in its place, or the same
   * value when an equal cell is there (then {@link #added} stays false).
   */
  private static final class Adding implements BiFunction<Cell, Object, Object> {
    final Cell cell;
    boolean added;

    Adding(Cell cell) {
      this.cell = cell;
    }

    @Override
    public Object apply(Cell column, Object value) {
      added = false;
      Node head = chain(value);
      Node at = head;
      int before = 0;
      while (at != null) {
        int cmp = CellComparator.INSTANCE.compareWithinRow(at.cell, cell);
        if (cmp == 0) {
          return value;
        }
        if (cmp > 0) {
          break;
        }
        at = at.next;
        before++;
      }
      added = true;
      return copyBefore(head, before, new Node(cell, at));
    }
  }

  public void add(Cell c) {
    widenRows(c.row());
    boolean added;
    while (true) {
      if (columns.putIfAbsent(c, c) == null) { // a new column: one search
        added = true;
        break;
      }
      Adding adding = new Adding(c);
      if (columns.computeIfPresent(c, adding) != null) {
        added = adding.added;
        break;
      } // the column was taken back meanwhile (a failed write): add it again
    }
    if (added) {
      heapSize.addAndGet(c.heapSize() + CELL_OVERHEAD);
      cellCount.incrementAndGet();
    }
    minSeq.accumulateAndGet(c.sequenceId(), Math::min);
    maxSeq.accumulateAndGet(c.sequenceId(), Math::max);
  }

  /** The chain's first {@code n} cells copied in front of {@code rest}. */
  private static Node copyBefore(Node head, int n, Node rest) {
    if (n == 0) {
      return rest;
    }
    return new Node(head.cell, copyBefore(head.next, n - 1, rest));
  }

  private void widenRows(byte[] row) {
    while (true) {
      byte[] first = firstRow;
      if ((first != null && Arrays.compareUnsigned(row, first) >= 0)
          || FIRST_ROW.compareAndSet(this, first, row)) {
        break;
      }
    }
    while (true) {
      byte[] last = lastRow;
      if ((last != null && Arrays.compareUnsigned(row, last) <= 0)
          || LAST_ROW.compareAndSet(this, last, row)) {
        break;
      }
    }
  }

  /**
   * False when no cell of a row in {@code [startRow, stopRow)} (empty stop: no end) was ever
   * added, so a read of that range can leave this memstore out.
   */
  public boolean mayHoldRows(byte[] startRow, byte[] stopRow) {
    byte[] first = firstRow;
    byte[] last = lastRow;
    if (first == null || last == null) {
      return false;
    }
    return (stopRow == null || stopRow.length == 0 || Arrays.compareUnsigned(first, stopRow) < 0)
        && Arrays.compareUnsigned(last, startRow) >= 0;
  }

  /** False when no cell of {@code row} was ever added. */
  public boolean mayHoldRow(byte[] row) {
    byte[] first = firstRow;
    byte[] last = lastRow;
    return first != null && last != null && Arrays.compareUnsigned(row, first) >= 0
        && Arrays.compareUnsigned(row, last) <= 0;
  }

  /**
   * Takes back a cell of a write that failed before it was acknowledged (its log sync failed);
   * the sequence-id range is left as it was (a conservative bound). A column left with no cell
   * leaves the skip list (a writer adding to it meanwhile adds it again).
   */
  public void remove(Cell c) {
    boolean[] removed = {false};
    columns.computeIfPresent(c, (column, value) -> {
      removed[0] = false;
      Node head = chain(value);
      Node at = head;
      int before = 0;
      while (at != null && CellComparator.INSTANCE.compareWithinRow(at.cell, c) < 0) {
        at = at.next;
        before++;
      }
      if (at == null || CellComparator.INSTANCE.compareWithinRow(at.cell, c) != 0) {
        return value;
      }
      removed[0] = true;
      return value(copyBefore(head, before, at.next));
    });
    if (removed[0]) {
      heapSize.addAndGet(-(c.heapSize() + CELL_OVERHEAD));
      cellCount.decrementAndGet();
    }
  }

  public long heapSize() {
    return heapSize.get();
  }

  public boolean isEmpty() {
    return cellCount.get() == 0;
  }

  public int cellCount() {
    return (int) Math.min(Integer.MAX_VALUE, cellCount.get());
  }

  /** Smallest sequence id held, or Long.MAX_VALUE when empty. */
  public long minSequenceId() {
    return minSeq.get();
  }

  public long maxSequenceId() {
    return maxSeq.get();
  }

  /** The row of the last cell, or null when empty. */
  public byte[] lastRow() {
    Map.Entry<Cell, Object> e = columns.lastEntry();
    return e == null ? null : e.getKey().row();
  }

  /** The row of the last cell before {@code row}, or null. */
  public byte[] lastRowBefore(byte[] row, byte[] family) {
    Cell c = columns.lowerKey(CellComparator.firstOnRow(row, family));
    return c == null ? null : c.row();
  }

  /** All cells, in order (for flushing). */
  public Iterable<Cell> cells() {
    return () -> {
      Iter it = new Iter();
      it.seekToFirst();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return it.current() != null;
        }

        @Override
        public Cell next() {
          Cell c = it.current();
          if (c == null) {
            throw new java.util.NoSuchElementException();
          }
          it.next();
          return c;
        }
      };
    };
  }

  public CellIterator iterator() {
    return new Iter();
  }

  /**
   * An iterator already positioned at {@code target} when some cell of {@code row} is held,
   * else null: one skip-list search answers both "is the row here?" and "where does it start?"
   * (a later seek to the same target is free).
   */
  public CellIterator iteratorAtRow(byte[] row, Cell target) {
    if (!mayHoldRow(row)) {
      return null;
    }
    Iter it = new Iter();
    it.seek(target);
    Cell c = it.current();
    return c != null && Arrays.equals(c.row(), row) ? it : null;
  }

  /** Columns a forward seek steps over before it searches the skip list again. */
  private static final int SEEK_STEPS = 8;

  /**
   * A cursor: the columns after the current one, the current cell, and the rest of the chain
   * the current column had when the cursor came to it.
   */
  private final class Iter implements CellIterator {
    private Iterator<Object> rest;
    private Cell current;
    private Node more; // the current column's cells after the current one
    private Cell column; // a cell of the current column, null past the end
    private Cell seekTarget; // the last seek's target while the cursor has not moved since
    private long stepped; // cells the cursor came to (ScanMetrics)

    @Override
    public void seekToFirst() {
      rest = columns.values().iterator();
      seekTarget = null;
      nextColumn();
    }

    /** Moves to the first cell of the next column. */
    private void nextColumn() {
      if (rest.hasNext()) {
        Object v = rest.next();
        if (v instanceof Node n) {
          current = n.cell;
          more = n.next;
        } else {
          current = (Cell) v;
          more = null;
        }
        column = current;
        stepped++;
      } else {
        current = null;
        more = null;
        column = null;
      }
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
          int c = compareColumns(column, target);
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
      rest = columns.tailMap(target, true).values().iterator();
      nextColumn();
      if (current != null && compareColumns(column, target) == 0) {
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
}
