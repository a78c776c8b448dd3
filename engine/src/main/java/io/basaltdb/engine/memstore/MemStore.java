package io.basaltdb.engine.memstore;

import io.basaltdb.engine.Cell;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import java.util.Iterator;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory sorted buffer of one store: a concurrent skip list of cells in
 * {@link CellComparator} order. Writers add concurrently; readers iterate without locks
 * (weakly consistent iterators; MVCC read points hide writes not yet committed). Once
 * swapped out for flushing it receives no more writes. Tracks its heap size, the range
 * of sequence ids it holds and the range of rows it has been given: a read whose key range
 * misses the rows skips the memstore, as it skips a file, instead of searching the skip list
 * (a search costs a cache miss per level). The row range is widened before a cell is added,
 * so a reader whose read point covers the cell's write, taken after the write committed,
 * sees the range that includes it; a cell taken back leaves the range as it was.
 */
public final class MemStore {
  private final NavigableSet<Cell> cells = new ConcurrentSkipListSet<>(CellComparator.INSTANCE);
  private final AtomicLong heapSize = new AtomicLong();
  private final AtomicLong minSeq = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong maxSeq = new AtomicLong(0);
  /** The smallest and largest row given, null while nothing was. */
  private volatile byte[] firstRow;
  private volatile byte[] lastRow;
  private static final java.lang.invoke.VarHandle FIRST_ROW;
  private static final java.lang.invoke.VarHandle LAST_ROW;

  static {
    try {
      var lookup = java.lang.invoke.MethodHandles.lookup();
      FIRST_ROW = lookup.findVarHandle(MemStore.class, "firstRow", byte[].class);
      LAST_ROW = lookup.findVarHandle(MemStore.class, "lastRow", byte[].class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  public void add(Cell c) {
    widenRows(c.row());
    if (cells.add(c)) {
      heapSize.addAndGet(c.heapSize() + 40);
    }
    minSeq.accumulateAndGet(c.sequenceId(), Math::min);
    maxSeq.accumulateAndGet(c.sequenceId(), Math::max);
  }

  private void widenRows(byte[] row) {
    while (true) {
      byte[] first = firstRow;
      if ((first != null && java.util.Arrays.compareUnsigned(row, first) >= 0)
          || FIRST_ROW.compareAndSet(this, first, row)) {
        break;
      }
    }
    while (true) {
      byte[] last = lastRow;
      if ((last != null && java.util.Arrays.compareUnsigned(row, last) <= 0)
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
    return (stopRow == null || stopRow.length == 0
        || java.util.Arrays.compareUnsigned(first, stopRow) < 0)
        && java.util.Arrays.compareUnsigned(last, startRow) >= 0;
  }

  /** False when no cell of {@code row} was ever added. */
  public boolean mayHoldRow(byte[] row) {
    byte[] first = firstRow;
    byte[] last = lastRow;
    return first != null && last != null && java.util.Arrays.compareUnsigned(row, first) >= 0
        && java.util.Arrays.compareUnsigned(row, last) <= 0;
  }

  /**
   * Takes back a cell of a write that failed before it was acknowledged (its log sync failed);
   * the sequence-id range is left as it was (a conservative bound).
   */
  public void remove(Cell c) {
    if (cells.remove(c)) {
      heapSize.addAndGet(-(c.heapSize() + 40));
    }
  }

  public long heapSize() {
    return heapSize.get();
  }

  public boolean isEmpty() {
    return cells.isEmpty();
  }

  public int cellCount() {
    return cells.size();
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
    Cell c = cells.isEmpty() ? null : cells.last();
    return c == null ? null : c.row();
  }

  /** The row of the last cell before {@code row}, or null. */
  public byte[] lastRowBefore(byte[] row, byte[] family) {
    Cell c = cells.lower(CellComparator.firstOnRow(row, family));
    return c == null ? null : c.row();
  }

  /** All cells, in order (for flushing). */
  public Iterable<Cell> cells() {
    return cells;
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
    return c != null && java.util.Arrays.equals(c.row(), row) ? it : null;
  }

  /** Cells a forward seek walks before it searches the skip list again. */
  private static final int SEEK_STEPS = 8;

  private final class Iter implements CellIterator {
    private Iterator<Cell> it;
    private Cell current;
    private Cell seekTarget; // the last seek's target while the cursor has not moved since
    private long stepped; // cells the cursor came to (ScanMetrics)

    @Override
    public void seekToFirst() {
      it = cells.iterator();
      seekTarget = null;
      advance();
    }

    @Override
    public void seek(Cell target) {
      if (seekTarget != null && CellComparator.INSTANCE.compare(seekTarget, target) == 0) {
        return; // already there
      }
      if (current != null && CellComparator.INSTANCE.compare(current, target) < 0) {
        // a short hop forward (the next row, past a few unwanted columns) is cheaper to walk
        // than a new search from the top of the skip list
        for (int i = 0; i < SEEK_STEPS; i++) {
          advance();
          if (current == null || CellComparator.INSTANCE.compare(current, target) >= 0) {
            seekTarget = target;
            return;
          }
        }
      }
      it = cells.tailSet(target, true).iterator();
      seekTarget = target;
      advance();
    }

    private void advance() {
      current = it.hasNext() ? it.next() : null;
      if (current != null) {
        stepped++;
      }
    }

    @Override
    public void addTo(io.basaltdb.engine.ScanMetrics m) {
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
        advance();
      }
    }
  }
}
