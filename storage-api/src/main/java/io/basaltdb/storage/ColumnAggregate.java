package io.basaltdb.storage;

import io.basaltdb.storage.filter.Filters;
import java.util.List;

/**
 * One aggregate of one column over row ranges, for a store that can compute it where the rows
 * are ({@link Table#aggregate}): the rows holding the cell, or the sum, least or greatest of
 * the cells read as 8-byte big-endian signed longs (Basalt's BIGINT cells). Only the newest
 * version of each cell in the time range counts; a cell of another length is not a value.
 * Immutable.
 *
 * @param kind what to compute
 * @param family the column's family
 * @param qualifier the column's qualifier
 * @param ranges row ranges {@code [start, stop)}, sorted, not overlapping (one empty-bounded
 *     range: the whole table)
 * @param minTimestamp oldest cell time read (inclusive)
 * @param maxTimestamp newest cell time read (exclusive; {@code Long.MAX_VALUE}: no bound)
 * @param metrics counts for EXPLAIN ANALYZE, or null
 */
public record ColumnAggregate(Kind kind, byte[] family, byte[] qualifier,
    List<Filters.RowRange> ranges, long minTimestamp, long maxTimestamp, ScanMetrics metrics) {
  public enum Kind {
    /** Rows holding the cell. */
    ROWS,
    /** Sum of the values, exact: a sum outside a long is an {@link ArithmeticException}. */
    SUM,
    MIN,
    MAX
  }

  /**
   * What the store computed: for {@link Kind#ROWS} the count, else the value, null when no
   * cell held one.
   */
  public record Answer(Long value) {}

  public ColumnAggregate {
    ranges = List.copyOf(ranges);
    if (ranges.isEmpty()) {
      throw new InvalidArgumentException("a column aggregate needs at least one row range");
    }
  }
}
