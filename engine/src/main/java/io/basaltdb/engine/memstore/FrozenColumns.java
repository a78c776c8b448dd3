package io.basaltdb.engine.memstore;

import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.storage.Cell;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A memstore's columns once it takes no more writes, in parallel sorted arrays: each column's
 * row as numbers (its first eight bytes and the next eight, zero-padded, compared unsigned, and
 * its length), its key (the column's first cell) and its value (its one cell or its chain of
 * versions). A search is a binary search over the numbers, which sit side by side in memory; it
 * reads a column's key only when the numbers tie and cannot tell the order: rows longer than
 * sixteen bytes sharing them, or a target inside a row. A search for the start of a row in the
 * memstore's one family (a get's, a scan's first seek) is told by the numbers alone. A skip
 * list's search follows a pointer to another object at each of its ~20 steps (the index node,
 * the node, the key), a cache miss each on a memstore larger than the processor's caches. The
 * binary search itself misses the cache at nearly each of its ~17 steps over 100,000 columns
 * (2.4 MB of numbers), so it first searches a sample: the two numbers of every
 * {@value #SAMPLE}th column, a thirty-second of the size, which bounds the search to one stretch
 * of {@value #SAMPLE} columns (more where many rows share their first sixteen bytes).
 * Immutable: built once from the skip list, which no writer changes any more (a swapped-out
 * memstore after the writes staged into it completed).
 */
final class FrozenColumns {
  /**
   * Column i's row as two numbers, at 3i and 3i + 1, and its length at 3i + 2 (one cache line
   * holds them): two rows of at most sixteen bytes whose three agree are the same row.
   */
  private final long[] rowNumbers;
  /** Columns 0, SAMPLE, 2 * SAMPLE, ...: their two numbers, at 2j and 2j + 1. */
  private final long[] sample;
  /** The family of every column, or null when they have several (a store's memstore has one). */
  private final byte[] family;
  private final Cell[] keys;
  private final Object[] values;
  private final List<Object> valueList;

  private static final int SAMPLE = 32;

  private FrozenColumns(long[] rowNumbers, Cell[] keys, Object[] values) {
    this.rowNumbers = rowNumbers;
    this.sample = new long[2 * ((keys.length + SAMPLE - 1) / SAMPLE)];
    for (int j = 0; 2 * j < sample.length; j++) {
      sample[2 * j] = rowNumbers[3 * j * SAMPLE];
      sample[2 * j + 1] = rowNumbers[3 * j * SAMPLE + 1];
    }
    byte[] f = keys.length == 0 ? null : keys[0].family();
    for (int i = 1; i < keys.length && f != null; i++) {
      if (!Arrays.equals(f, keys[i].family())) {
        f = null;
      }
    }
    this.family = f;
    this.keys = keys;
    this.values = values;
    this.valueList = Arrays.asList(values);
  }

  /**
   * The columns of {@code columns} that hold a cell (an indexed row's slot whose cells were all
   * taken back holds none), their slots opened: a frozen memstore indexes no row.
   */
  static FrozenColumns of(ConcurrentSkipListMap<Cell, Object> columns) {
    int n = columns.size();
    long[] numbers = new long[3 * n];
    Cell[] keys = new Cell[n];
    Object[] values = new Object[n];
    int i = 0;
    for (java.util.Map.Entry<Cell, Object> e : columns.entrySet()) {
      Object v = Versions.cellsOf(e.getValue());
      if (v == null) {
        continue;
      }
      if (i == keys.length) { // size() is an estimate
        int grown = Math.max(16, keys.length * 2);
        numbers = Arrays.copyOf(numbers, 3 * grown);
        keys = Arrays.copyOf(keys, grown);
        values = Arrays.copyOf(values, grown);
      }
      numbers[3 * i] = e.getKey().rowPrefix();
      numbers[3 * i + 1] = secondEight(e.getKey().row());
      numbers[3 * i + 2] = e.getKey().row().length;
      keys[i] = e.getKey();
      values[i] = v;
      i++;
    }
    return i == keys.length ? new FrozenColumns(numbers, keys, values)
        : new FrozenColumns(Arrays.copyOf(numbers, 3 * i), Arrays.copyOf(keys, i),
            Arrays.copyOf(values, i));
  }

  /** Bytes 8 to 15 of {@code row} as an unsigned big-endian number, zero-padded. */
  private static long secondEight(byte[] row) {
    long v = 0;
    for (int i = 8; i < 16; i++) {
      v = (v << 8) | (i < row.length ? row[i] & 0xff : 0);
    }
    return v;
  }

  int size() {
    return keys.length;
  }

  /** Index of the first column at or after {@code target}'s column ({@link #size} if none). */
  int search(Cell target) {
    long p = target.rowPrefix();
    long q = secondEight(target.row());
    long length = target.row().length;
    // the first cell a read of the target's row wants in this family: every column of that
    // row is at or after it, told without reading the column's key
    boolean rowStart = family != null && length <= 16 && target.qualifier().length == 0
        && Arrays.equals(target.family(), family);
    // Numbers that differ order the rows as their keys do (a row's numbers are its first sixteen
    // bytes, zero-padded): a sampled column whose numbers are below the target's is before
    // it, one whose numbers are above is after it.
    int below = sampledBefore(p, q, false); // samples [0, below) have numbers < the target's
    int notAbove = sampledBefore(p, q, true); // samples [0, notAbove) have numbers <= them
    int lo = below == 0 ? 0 : (below - 1) * SAMPLE + 1;
    int hi = Math.min(keys.length, notAbove * SAMPLE); // the answer is in [lo, hi]
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      long at = rowNumbers[3 * mid];
      int c;
      if (at != p) {
        c = Long.compareUnsigned(at, p);
      } else {
        long second = rowNumbers[3 * mid + 1];
        if (second != q) {
          c = Long.compareUnsigned(second, q);
        } else if (rowStart && rowNumbers[3 * mid + 2] == length) {
          c = 1; // the target's row
        } else {
          c = MemStore.compareColumns(keys[mid], target);
        }
      }
      if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * The number of samples, from the first, whose numbers are below {@code (p, q)} (or equal to
   * them too when {@code orEqual}); they are sorted.
   */
  private int sampledBefore(long p, long q, boolean orEqual) {
    int lo = 0;
    int hi = sample.length / 2;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      long at = sample[2 * mid];
      int c = at != p ? Long.compareUnsigned(at, p) : Long.compareUnsigned(sample[2 * mid + 1], q);
      if (c < 0 || (c == 0 && orEqual)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Whether {@code c} (equal by {@link CellComparator}) is held. */
  boolean holds(Cell c) {
    int i = search(c);
    if (i == keys.length || MemStore.compareColumns(keys[i], c) != 0) {
      return false;
    }
    Object v = values[i];
    while (v instanceof Versions.Node n) {
      if (CellComparator.INSTANCE.compare(n.cell, c) == 0) {
        return true;
      }
      v = n.next;
    }
    return v != null && CellComparator.INSTANCE.compare((Cell) v, c) == 0;
  }

  /** The values (cells or chains) from column {@code i} on. */
  Iterator<Object> valuesFrom(int i) {
    return valueList.listIterator(i);
  }

  Cell key(int i) {
    return keys[i];
  }
}
