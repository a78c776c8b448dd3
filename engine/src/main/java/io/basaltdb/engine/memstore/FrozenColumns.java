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
 * the node, the key), a cache miss each on a memstore larger than the processor's caches.
 * Immutable: built once from the skip list, which no writer changes any more (a swapped-out
 * memstore after the writes staged into it completed).
 */
final class FrozenColumns {
  /**
   * Column i's row as two numbers, at 3i and 3i + 1, and its length at 3i + 2 (one cache line
   * holds them): two rows of at most sixteen bytes whose three agree are the same row.
   */
  private final long[] rowNumbers;
  /** The family of every column, or null when they have several (a store's memstore has one). */
  private final byte[] family;
  private final Cell[] keys;
  private final Object[] values;
  private final List<Object> valueList;

  private FrozenColumns(long[] rowNumbers, Cell[] keys, Object[] values) {
    this.rowNumbers = rowNumbers;
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
    int lo = 0;
    int hi = keys.length; // the answer is in [lo, hi]
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
