package io.basaltdb.engine.cell;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The one cell order, used by memstore, block files, merging iterators and compaction:
 * row, family, qualifier (unsigned bytes ascending), timestamp descending, type code
 * descending (delete markers before puts at the same timestamp), sequence id descending.
 *
 * <p>Stateless and thread-safe; use {@link #INSTANCE}.
 */
public final class CellComparator implements Comparator<Cell> {
  public static final CellComparator INSTANCE = new CellComparator();

  private CellComparator() {}

  @Override
  public int compare(Cell a, Cell b) {
    long pa = a.rowPrefix();
    long pb = b.rowPrefix();
    if (pa != pb) { // differing zero-padded prefixes order the rows as their bytes would
      return Long.compareUnsigned(pa, pb);
    }
    int c = compareRows(a.row(), b.row());
    if (c != 0) {
      return c;
    }
    return compareWithinRow(a, b);
  }

  /** Compares two cells known to have the same row. */
  public int compareWithinRow(Cell a, Cell b) {
    int c;
    if (a.family() != b.family()) {
      c = Arrays.compareUnsigned(a.family(), b.family());
      if (c != 0) {
        return c;
      }
    }
    c = Arrays.compareUnsigned(a.qualifier(), b.qualifier());
    if (c != 0) {
      return c;
    }
    c = Long.compare(b.timestamp(), a.timestamp());
    if (c != 0) {
      return c;
    }
    c = Integer.compare(b.type().code() & 0xff, a.type().code() & 0xff);
    if (c != 0) {
      return c;
    }
    return Long.compare(b.sequenceId(), a.sequenceId());
  }

  public static int compareRows(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /**
   * The smallest possible cell of a row (and family): every real cell of that row sorts at
   * or after it. Used as a seek target.
   */
  public static Cell firstOnRow(byte[] row, byte[] family) {
    return new Cell(row, family, new byte[0], Long.MAX_VALUE, CellType.DELETE_FAMILY, Long.MAX_VALUE, null);
  }

  /** The smallest possible cell of a column: every version of the column sorts at or after it. */
  public static Cell firstOnColumn(byte[] row, byte[] family, byte[] qualifier) {
    return new Cell(row, family, qualifier, Long.MAX_VALUE, CellType.DELETE_FAMILY, Long.MAX_VALUE, null);
  }

  /** The largest possible cell of a column: every version of the column sorts at or before it. */
  public static Cell lastOnColumn(byte[] row, byte[] family, byte[] qualifier) {
    return new Cell(row, family, qualifier, Long.MIN_VALUE, CellType.PUT, -1L, null);
  }

  /**
   * True when {@code c} is a {@link #lastOnColumn} target (no stored cell has its sequence id
   * -1): a seek to it passes every version of its column.
   */
  public static boolean isLastOnColumn(Cell c) {
    return c.sequenceId() == -1L && c.timestamp() == Long.MIN_VALUE && c.type() == CellType.PUT;
  }
}
