package io.basaltdb.sql.catalog;

import java.util.List;

/**
 * What an index held when it was last built: its entries, and how many distinct values each
 * prefix of its columns has ({@code distinct.get(k)}: of the first k + 1 columns, NULL counted
 * as a value). The planner divides by them to estimate what an equality on leading columns
 * finds, instead of guessing a tenth per column. Kept in the index's catalog entry; counted
 * when the index is built ({@code index.IndexBuilder.countStats}). Not kept up to date by
 * writes: {@code ALTER INDEX .. REBUILD} counts again.
 */
public record IndexStats(long rows, List<Long> distinct) {
  public IndexStats {
    distinct = List.copyOf(distinct);
  }

  /** The entries a conjunction of equalities on the first {@code k} columns finds, per value. */
  public double rowsPerValue(int k) {
    if (k <= 0 || distinct.isEmpty()) {
      return rows;
    }
    long d = distinct.get(Math.min(k, distinct.size()) - 1);
    return (double) rows / Math.max(1, d);
  }
}
