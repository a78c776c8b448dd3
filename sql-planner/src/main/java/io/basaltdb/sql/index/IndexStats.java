package io.basaltdb.sql.index;

import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.sql.type.RowKeyCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What an index held when it was last built: its entries, and how many distinct values each
 * prefix of its columns has ({@code distinct.get(k)}: of the first k + 1 columns, NULL counted
 * as a value). The planner divides by them to estimate what an equality on leading columns
 * finds, instead of guessing a tenth per column. Counted by reading the built index once in key
 * order (a new value of a prefix starts where the previous entry's prefix differs); a salted
 * index is in order only per bucket, so it gets none. Not kept up to date by writes: {@code
 * ALTER INDEX .. REBUILD} counts again.
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

  /** Counts them over {@code layout}'s built index; null for a salted index. */
  public static IndexStats count(Storage db, IndexLayout layout) {
    if (layout.index().saltBuckets() > 0) {
      return null;
    }
    int n = layout.index().columns().size();
    RowKeyCodec codec = layout.keyDefinition().keyCodec();
    long rows = 0;
    long[] distinct = new long[n];
    Object[] previous = null;
    Scan scan = new Scan().addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER);
    try (ResultScanner s = db.table(layout.index().engineTable()).getScanner(scan)) {
      for (Result r : s) {
        Object[] values = codec.decodePrefix(r.row(), n);
        int same = 0;
        while (previous != null && same < n
            && Arrays.deepEquals(new Object[] {previous[same]}, new Object[] {values[same]})) {
          same++;
        }
        for (int k = same; k < n; k++) {
          distinct[k]++;
        }
        previous = values;
        rows++;
      }
    }
    List<Long> out = new ArrayList<>();
    for (long d : distinct) {
      out.add(d);
    }
    return new IndexStats(rows, out);
  }
}
