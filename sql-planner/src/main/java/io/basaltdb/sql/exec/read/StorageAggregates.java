package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.ParallelTasks;
import io.basaltdb.sql.pushdown.AggregateSpec;
import io.basaltdb.sql.pushdown.KeyRange;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.sql.type.ColumnType;
import io.basaltdb.storage.ColumnAggregate;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.filter.Filters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;

/**
 * An aggregation without GROUP BY handed to the storage, call by call, to compute where the
 * rows are ({@link Table#aggregate}: over HBase, HBase's aggregation endpoint on each region
 * server), so one number per region crosses the network instead of every row. It qualifies
 * when the scan has nothing but key ranges (no filter, index, offset or limit) and each call
 * is COUNT(*) (the rows holding the row marker), COUNT(c) (the rows holding c's cell) or SUM,
 * MIN, MAX of a BIGINT column kept in a cell of its own. Anything else, or a storage that
 * cannot, gives null: the caller reads the rows as before. The answers are exact: a SUM the
 * storage cannot prove fits is left to the rows too.
 */
final class StorageAggregates {
  private StorageAggregates() {}

  /** The calls' partial results as {@link Aggregation} accumulates them, or null. */
  static Object[] compute(ScanExecutor scan, SqlTableDef def, ScanSpec spec, ExecutorService pool) {
    AggregateSpec agg = spec.aggregate();
    if (agg.calls().isEmpty() || !agg.groups().isEmpty() || !spec.filters().isEmpty()
        || spec.index() != null || spec.offset() != null || spec.fetch() != null
        || def.packed()) {
      return null;
    }
    CellNames names = CellNames.of(def);
    List<byte[][]> columns = new ArrayList<>(); // per call: family, qualifier
    for (AggregateSpec.Call c : agg.calls()) {
      byte[][] cell = cell(c, def, spec, names);
      if (cell == null) {
        return null;
      }
      columns.add(cell);
    }
    List<Filters.RowRange> ranges = rowRanges(scan.ranges());
    if (ranges.isEmpty()) {
      return null; // no key can match: the row path finds nothing at once
    }
    long[] times = scan.timeRange();
    Table table = scan.storage().table(def.table());
    List<ColumnAggregate> requests = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      requests.add(new ColumnAggregate(kind(agg.calls().get(i).kind()), columns.get(i)[0],
          columns.get(i)[1], ranges, times[0], times[1], scan.metrics()));
    }
    Object[] acc = new Object[requests.size()];
    try {
      ColumnAggregate.Answer first = table.aggregate(requests.get(0)); // embedded: null at once
      if (first == null) {
        return null;
      }
      acc[0] = first.value();
      List<Callable<ColumnAggregate.Answer>> rest = new ArrayList<>();
      for (ColumnAggregate req : requests.subList(1, requests.size())) {
        rest.add(() -> table.aggregate(req));
      }
      List<ColumnAggregate.Answer> answers = ParallelTasks.all(pool, rest);
      for (int i = 1; i < acc.length; i++) {
        if (answers.get(i - 1) == null) {
          return null;
        }
        acc[i] = answers.get(i - 1).value();
      }
    } catch (ArithmeticException e) {
      throw new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE, "SUM out of range of BIGINT");
    }
    return acc;
  }

  /** The family and qualifier a call reads, or null when it cannot be asked of the storage. */
  private static byte[][] cell(AggregateSpec.Call c, SqlTableDef def, ScanSpec spec,
      CellNames names) {
    if (c.arg() < 0) {
      return c.kind() == AggregateSpec.Kind.COUNT
          ? new byte[][] {names.markerFamily(), CellNames.MARKER} : null;
    }
    int col = spec.columns().get(c.arg());
    SqlColumn column = def.columns().get(col);
    if (column.isKey() || column.isMap() || column.isArray() || names.family(col) == null) {
      return null;
    }
    if (c.kind() != AggregateSpec.Kind.COUNT && column.type() != ColumnType.BIGINT) {
      return null; // the endpoint reads 8-byte longs only
    }
    return new byte[][] {names.family(col), names.qualifier(col)};
  }

  private static ColumnAggregate.Kind kind(AggregateSpec.Kind k) {
    return switch (k) {
      case COUNT -> ColumnAggregate.Kind.ROWS;
      case SUM, SUM0 -> ColumnAggregate.Kind.SUM;
      case MIN -> ColumnAggregate.Kind.MIN;
      case MAX -> ColumnAggregate.Kind.MAX;
    };
  }

  /** The key ranges sorted and merged, as the storage takes them; empty ranges dropped. */
  private static List<Filters.RowRange> rowRanges(List<KeyRange> keyRanges) {
    List<KeyRange> sorted = new ArrayList<>();
    for (KeyRange r : keyRanges) {
      if (!r.isEmpty()) {
        sorted.add(r);
      }
    }
    sorted.sort((a, b) -> Arrays.compareUnsigned(a.start(), b.start()));
    List<Filters.RowRange> out = new ArrayList<>();
    byte[] start = null;
    byte[] stop = null;
    for (KeyRange r : sorted) {
      if (start != null && stop.length > 0 && Arrays.compareUnsigned(r.start(), stop) <= 0) {
        stop = r.stop().length == 0 || Arrays.compareUnsigned(r.stop(), stop) > 0 ? r.stop()
            : stop;
        continue;
      }
      if (start != null) {
        out.add(new Filters.RowRange(start, stop));
        if (stop.length == 0) {
          return out;
        }
      }
      start = r.start();
      stop = r.stop();
    }
    if (start != null) {
      out.add(new Filters.RowRange(start, stop));
    }
    return out;
  }
}
