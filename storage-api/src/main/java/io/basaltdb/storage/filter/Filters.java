package io.basaltdb.storage.filter;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CompareOperator;
import io.basaltdb.storage.InvalidArgumentException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The stock filters, as factory methods (HBase's names in parentheses where they differ):
 * row ranges, prefix, row/family/qualifier/value comparisons, single-column-value, column
 * prefix and range, key-only, first-key-only, page, timestamps, column count and pagination.
 */
public final class Filters {
  private Filters() {}

  /**
   * {@code row} as a region scan passes it through {@code filter}, for a reader that applies a
   * filter to rows it already has (a storage that could not ship the filter, a client-side
   * transaction's merged rows): null when the filter drops the row.
   */
  public static io.basaltdb.storage.Result applyTo(Filter filter, io.basaltdb.storage.Result row) {
    filter.reset();
    if (filter.filterRowKey(row.row())) {
      return null;
    }
    List<Cell> kept = new ArrayList<>(row.size());
    for (Cell c : row.cells()) {
      if (filter.filterCell(c)) {
        kept.add(filter.transformCell(c));
      }
    }
    if (kept.isEmpty() || filter.filterRow(kept)) {
      return null;
    }
    filter.rowReturned();
    return new io.basaltdb.storage.Result(row.row(), kept);
  }

  /**
   * {@code filter} stating {@code spec} ({@link Filter#spec()}): every call goes to
   * {@code filter}; {@code spec} must be exact or weaker than it.
   */
  public static Filter described(Filter filter, FilterSpec spec) {
    return new Filter() {
      @Override
      public void reset() {
        filter.reset();
      }

      @Override
      public boolean filterRowKey(byte[] row) {
        return filter.filterRowKey(row);
      }

      @Override
      public byte[] nextRowHint(byte[] row) {
        return filter.nextRowHint(row);
      }

      @Override
      public boolean filterCell(Cell c) {
        return filter.filterCell(c);
      }

      @Override
      public Cell transformCell(Cell c) {
        return filter.transformCell(c);
      }

      @Override
      public boolean filterRow(List<Cell> cells) {
        return filter.filterRow(cells);
      }

      @Override
      public void rowReturned() {
        filter.rowReturned();
      }

      @Override
      public boolean filterAllRemaining() {
        return filter.filterAllRemaining();
      }

      @Override
      public List<byte[]> onlyRows() {
        return filter.onlyRows();
      }

      @Override
      public List<RowRange> onlyRanges() {
        return filter.onlyRanges();
      }

      @Override
      public FilterSpec spec() {
        return spec;
      }
    };
  }

  /** A row range {@code [start, stop)} (empty = unbounded). */
  public record RowRange(byte[] start, byte[] stop) {
    public RowRange {
      start = start == null ? new byte[0] : start;
      stop = stop == null ? new byte[0] : stop;
    }

    boolean contains(byte[] row) {
      return Arrays.compareUnsigned(row, start) >= 0
          && (stop.length == 0 || Arrays.compareUnsigned(row, stop) < 0);
    }
  }

  /**
   * Rows in any of the ranges; between ranges the scan seeks to the next one
   * (MultiRowRangeFilter). Ranges are found by binary search over their starts (overlapping
   * ranges are merged first), so a scan of thousands of ranges stays cheap.
   */
  public static Filter rowRanges(List<RowRange> ranges) {
    List<RowRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparing(RowRange::start, Arrays::compareUnsigned));
    List<RowRange> merged = new ArrayList<>();
    for (RowRange r : sorted) {
      RowRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && (last.stop().length == 0
          || Arrays.compareUnsigned(r.start(), last.stop()) <= 0)) {
        byte[] stop = last.stop().length == 0 || r.stop().length == 0 ? new byte[0]
            : Arrays.compareUnsigned(r.stop(), last.stop()) > 0 ? r.stop() : last.stop();
        merged.set(merged.size() - 1, new RowRange(last.start(), stop));
      } else {
        merged.add(r);
      }
    }
    byte[][] starts = new byte[merged.size()][];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = merged.get(i).start();
    }
    return new Filter() { // no filterAllRemaining: a reversed scan meets the last range first
      /** The last floor found: a scan's next row is mostly in that range or the next. */
      private int last = -1;

      /** The last range starting at or before {@code row}, or -1. */
      private int floor(byte[] row) {
        int hint = last;
        for (int i = Math.max(hint, 0); i <= hint + 1 && i < starts.length; i++) {
          if (Arrays.compareUnsigned(starts[i], row) <= 0
              && (i + 1 == starts.length || Arrays.compareUnsigned(row, starts[i + 1]) < 0)) {
            last = i;
            return i; // checked in full: a stale hint only costs the search below
          }
        }
        int i = Arrays.binarySearch(starts, row, Arrays::compareUnsigned);
        i = i >= 0 ? i : -i - 2;
        last = i;
        return i;
      }

      @Override
      public boolean filterRowKey(byte[] row) {
        int i = floor(row);
        return i < 0 || !merged.get(i).contains(row);
      }

      @Override
      public byte[] nextRowHint(byte[] row) {
        int next = floor(row) + 1;
        return next < starts.length ? starts[next] : null;
      }

      @Override
      public List<RowRange> onlyRanges() {
        return Collections.unmodifiableList(merged);
      }
    };
  }

  /**
   * Rows whose key is one of {@code keys} (sorted, distinct); between them the scan seeks to
   * the next one: several point reads as one scan (bound it by the first and last key).
   */
  public static Filter rowKeys(List<byte[]> keys) {
    byte[][] sorted = keys.toArray(new byte[0][]);
    return new Filter() {
      /** The last key found: a scan's next row is mostly that key or the next. */
      private int last = -1;

      private int search(byte[] row) {
        int hint = last;
        for (int i = Math.max(hint, 0); i <= hint + 1 && i < sorted.length; i++) {
          if (Arrays.equals(sorted[i], row)) {
            last = i;
            return i;
          }
        }
        int i = Arrays.binarySearch(sorted, row, Arrays::compareUnsigned);
        if (i >= 0) {
          last = i;
        }
        return i;
      }

      @Override
      public boolean filterRowKey(byte[] row) {
        return search(row) < 0;
      }

      @Override
      public byte[] nextRowHint(byte[] row) {
        int i = search(row);
        int next = i >= 0 ? i + 1 : -i - 1;
        return next < sorted.length ? sorted[next] : null;
      }

      @Override
      public List<byte[]> onlyRows() {
        return Arrays.asList(sorted);
      }
    };
  }

  /** Rows whose key starts with {@code prefix} (PrefixFilter). */
  public static Filter prefix(byte[] prefix) {
    return new Filter() {
      private boolean passed;

      @Override
      public boolean filterRowKey(byte[] row) {
        int n = Math.min(row.length, prefix.length);
        int c = Arrays.compareUnsigned(row, 0, n, prefix, 0, n);
        boolean match = row.length >= prefix.length && c == 0;
        if (!match && c > 0) {
          passed = true;
        }
        return !match;
      }

      @Override
      public byte[] nextRowHint(byte[] row) {
        return Arrays.compareUnsigned(row, prefix) < 0 ? prefix : null;
      }

      @Override
      public boolean filterAllRemaining() {
        return passed;
      }
    };
  }

  /** Rows whose key compares as asked (RowFilter). */
  public static Filter row(CompareOperator op, ByteComparator cmp) {
    return new Filter() {
      @Override
      public boolean filterRowKey(byte[] row) {
        return !cmp.test(op, row);
      }
    };
  }

  /** Cells of families that compare as asked (FamilyFilter). */
  public static Filter family(CompareOperator op, ByteComparator cmp) {
    return new Filter() {
      @Override
      public boolean filterCell(Cell c) {
        return cmp.test(op, c.family());
      }
    };
  }

  /** Cells whose qualifier compares as asked (QualifierFilter). */
  public static Filter qualifier(CompareOperator op, ByteComparator cmp) {
    return new Filter() {
      @Override
      public boolean filterCell(Cell c) {
        return cmp.test(op, c.qualifier());
      }
    };
  }

  /** Cells whose value compares as asked (ValueFilter). */
  public static Filter value(CompareOperator op, ByteComparator cmp) {
    return new Filter() {
      @Override
      public boolean filterCell(Cell c) {
        return cmp.test(op, c.value());
      }
    };
  }

  /**
   * Rows whose newest {@code family:qualifier} value compares as asked; rows without the column
   * pass unless {@code filterIfMissing} (SingleColumnValueFilter). The column must be read.
   */
  public static Filter singleColumnValue(byte[] family, byte[] qualifier, CompareOperator op,
      ByteComparator cmp, boolean filterIfMissing) {
    return new Filter() {
      @Override
      public boolean filterRow(List<Cell> cells) {
        for (Cell c : cells) {
          if (Arrays.equals(c.family(), family) && Arrays.equals(c.qualifier(), qualifier)) {
            return !cmp.test(op, c.value()); // cells are newest first: the first is the latest
          }
        }
        return filterIfMissing;
      }
    };
  }

  /** Cells whose qualifier starts with {@code prefix} (ColumnPrefixFilter). */
  public static Filter columnPrefix(byte[] prefix) {
    return qualifier(CompareOperator.EQUAL, ByteComparator.binaryPrefix(prefix));
  }

  /** Cells whose qualifier is in {@code [min, max]}, each bound optional (ColumnRangeFilter). */
  public static Filter columnRange(byte[] min, boolean minInclusive, byte[] max,
      boolean maxInclusive) {
    return new Filter() {
      @Override
      public boolean filterCell(Cell c) {
        if (min != null) {
          int x = Arrays.compareUnsigned(c.qualifier(), min);
          if (x < 0 || (x == 0 && !minInclusive)) {
            return false;
          }
        }
        if (max != null) {
          int x = Arrays.compareUnsigned(c.qualifier(), max);
          return x < 0 || (x == 0 && maxInclusive);
        }
        return true;
      }
    };
  }

  /** Cells with empty values: keys only (KeyOnlyFilter). */
  public static Filter keyOnly() {
    return new Filter() {
      @Override
      public Cell transformCell(Cell c) {
        return new Cell(c.row(), c.family(), c.qualifier(), c.timestamp(), c.type(),
            c.sequenceId(), new byte[0]);
      }
    };
  }

  /** Only the first cell of each row (FirstKeyOnlyFilter), e.g. to count rows. */
  public static Filter firstKeyOnly() {
    return new Filter() {
      private boolean seen;

      @Override
      public void reset() {
        seen = false;
      }

      @Override
      public boolean filterCell(Cell c) {
        if (seen) {
          return false;
        }
        seen = true;
        return true;
      }
    };
  }

  /** At most {@code rows} rows (PageFilter). */
  public static Filter page(long rows) {
    if (rows < 0) {
      throw new InvalidArgumentException("page size must be >= 0, got " + rows);
    }
    return new Filter() {
      private long returned;

      @Override
      public void rowReturned() {
        returned++;
      }

      @Override
      public boolean filterAllRemaining() {
        return returned >= rows;
      }
    };
  }

  /** Only versions at these exact timestamps (TimestampsFilter). */
  public static Filter timestamps(long... timestamps) {
    Set<Long> ts = new TreeSet<>();
    for (long t : timestamps) {
      ts.add(t);
    }
    return new Filter() {
      @Override
      public boolean filterCell(Cell c) {
        return ts.contains(c.timestamp());
      }
    };
  }

  /** The first {@code limit} columns of each row (ColumnCountGetFilter). */
  public static Filter columnCount(int limit) {
    return columnPagination(limit, 0);
  }

  /** Columns {@code offset .. offset+limit-1} of each row, counting columns not versions (ColumnPaginationFilter). */
  public static Filter columnPagination(int limit, int offset) {
    if (limit < 0 || offset < 0) {
      throw new InvalidArgumentException("column limit and offset must be >= 0");
    }
    return new Filter() {
      private int column = -1;
      private byte[] lastFamily;
      private byte[] lastQualifier;

      @Override
      public void reset() {
        column = -1;
        lastFamily = null;
        lastQualifier = null;
      }

      @Override
      public boolean filterCell(Cell c) {
        if (!Arrays.equals(c.family(), lastFamily) || !Arrays.equals(c.qualifier(), lastQualifier)) {
          column++;
          lastFamily = c.family();
          lastQualifier = c.qualifier();
        }
        return column >= offset && column < offset + limit;
      }
    };
  }
}
