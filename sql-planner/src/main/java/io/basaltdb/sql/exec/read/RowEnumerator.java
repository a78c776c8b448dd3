package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.exec.context.StatementSnapshot;
import io.basaltdb.sql.exec.context.QueryGuard;
import io.basaltdb.sql.pushdown.KeyRange;
import io.basaltdb.sql.pushdown.PushedPredicate;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.ReadRequest;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.filter.Filter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.calcite.linq4j.Enumerator;

/**
 * The rows of a {@link ScanExecutor}'s key ranges, or of the keys an index gives, streamed in
 * order: point ranges as batched gets, other ranges by one storage scan each (or one scan
 * seeking between them), the spec's offset and fetch applied, the statement's cancel flag read
 * every 1024 rows. One per enumeration; not thread-safe.
 */
final class RowEnumerator implements Enumerator<Object[]> {
  private final ScanExecutor executor;
  private final List<KeyRange> ranges;
  private final boolean points;
  private final Table table;
  private final io.basaltdb.storage.ReadSnapshot snapshot;
  private final io.basaltdb.sql.catalog.CellNames names;
  /** What these rows read: the plan's when they pass the spec's own filters, else their own. */
  private final ScanColumns reads;
  private int next; // next range (or first range of the next get batch)
  private ResultScanner scanner;
  private List<Result> batch = Collections.emptyList();
  private int batchPos;
  private long skip;
  private long remaining;
  private Object[] current;
  /** The current row's key (salted, as stored). */
  byte[] currentKey;
  /** The statement's cancel flag (set by cancel() or its timeout), read every 1024 rows. */
  private final java.util.concurrent.atomic.AtomicBoolean cancelFlag;
  private int rowsSinceCheck;

  /** The rows of the base keys an index gives, fetched by batched gets. */
  private final IndexKeys indexKeys;
  /** Ranges read by one scan that seeks between them (a lookup join's key prefixes). */
  List<io.basaltdb.storage.filter.Filters.RowRange> rangesFilter;

  /** The filters these rows must pass (through an index: not those it holds). */
  private final List<PushedPredicate> filters;

  /** With {@code limits}, the spec's offset and fetch apply to these rows. */
  RowEnumerator(ScanExecutor executor, List<KeyRange> ranges, boolean limits) {
    this(executor, ranges, limits, null, executor.spec.keys().isPointLookup(executor.def));
  }

  /** The rows of the keys an index's ranges give, in the index's order, passing {@code filters}. */
  RowEnumerator(ScanExecutor executor, IndexKeys keys, List<PushedPredicate> filters) {
    this(executor, List.of(), true, keys, true, filters);
  }

  RowEnumerator(ScanExecutor executor, List<KeyRange> ranges, boolean limits,
      IndexKeys indexKeys, boolean points) {
    this(executor, ranges, limits, indexKeys, points, executor.spec.filters());
  }

  RowEnumerator(ScanExecutor executor, List<KeyRange> ranges, boolean limits,
      IndexKeys indexKeys, boolean points, List<PushedPredicate> filters) {
    this.executor = executor;
    this.table = executor.db.table(executor.def.table());
    this.snapshot = StatementSnapshot.of(executor.ctx, executor.db);
    this.names = io.basaltdb.sql.catalog.CellNames.of(executor.def);
    this.cancelFlag = QueryGuard.cancelFlag(executor.ctx);
    this.ranges = ranges;
    this.indexKeys = indexKeys;
    this.points = indexKeys != null || points;
    this.filters = filters;
    skip = limits ? executor.boundLong(executor.spec.offset(), 0) : 0;
    remaining = limits ? executor.boundLong(executor.spec.fetch(), Long.MAX_VALUE)
        : Long.MAX_VALUE;
    this.reads = filters == executor.spec.filters() && executor.columns != null
        ? executor.columns : ScanColumns.of(executor.def, executor.spec, filters);
  }

  @Override
  public Object[] current() {
    return current;
  }

  @Override
  public boolean moveNext() {
    while (remaining > 0) {
      Result r = nextResult();
      if (r == null) {
        return false;
      }
      if (skip > 0) {
        skip--;
        continue;
      }
      current = toRow(r);
      currentKey = r.row();
      if (remaining != Long.MAX_VALUE) {
        remaining--;
      }
      return true;
    }
    return false;
  }

  private Result nextResult() {
    if ((rowsSinceCheck++ & 1023) == 0 && cancelFlag != null && cancelFlag.get()) {
      throw new io.basaltdb.sql.SqlStateException(SqlStates.QUERY_CANCELED,
          "statement cancelled");
    }
    if (indexKeys != null && indexKeys.covers()) {
      return indexKeys.nextRow();
    }
    while (true) {
      if (points) {
        while (batchPos < batch.size()) {
          Result r = batch.get(batchPos++);
          if (!r.isEmpty()) {
            return r;
          }
        }
        List<byte[]> keys = new ArrayList<>();
        if (indexKeys != null) {
          for (byte[] key = indexKeys.next(); key != null; key = indexKeys.next()) {
            keys.add(key);
            if (keys.size() >= ScanExecutor.GET_BATCH) {
              break;
            }
          }
          if (keys.isEmpty()) {
            return null;
          }
        } else if (next >= ranges.size()) {
          return null;
        }
        for (; next < ranges.size() && keys.size() < ScanExecutor.GET_BATCH; next++) {
          keys.add(ranges.get(next).start());
        }
        batch = getAll(keys);
        batchPos = 0;
        continue;
      }
      if (scanner == null) {
        if (next >= ranges.size()) {
          return null;
        }
        scanner = table.getScanner(scanFor(ranges.get(next++)));
      }
      Result r = scanner.next();
      if (r != null) {
        return r;
      }
      scanner.close();
      scanner = null;
    }
  }

  /**
   * The rows of {@code keys}, in their order (an empty result where there is none): one get
   * for one key; for more, one scan from the first to the last that seeks from key to key
   * ({@link io.basaltdb.storage.filter.Filters#rowKeys}), cheaper than a read per key.
   */
  private List<Result> getAll(List<byte[]> keys) {
    if (keys.size() == 1) {
      return List.of(table.get(prepare(new Get(keys.get(0)))));
    }
    List<byte[]> sorted = new ArrayList<>(keys);
    sorted.sort(java.util.Arrays::compareUnsigned);
    List<byte[]> distinct = new ArrayList<>(sorted.size());
    for (byte[] k : sorted) {
      if (distinct.isEmpty() || !java.util.Arrays.equals(distinct.get(distinct.size() - 1), k)) {
        distinct.add(k);
      }
    }
    byte[] last = distinct.get(distinct.size() - 1);
    Scan scan = prepare(new Scan().withStartRow(distinct.get(0))
        .withStopRow(java.util.Arrays.copyOf(last, last.length + 1)));
    Filter keyFilter = io.basaltdb.storage.filter.Filters.rowKeys(distinct);
    Filter own = scan.filter(); // the scan's own, as prepare made it
    scan.setFilter(own == null ? keyFilter : new io.basaltdb.storage.filter.FilterList(
        io.basaltdb.storage.filter.FilterList.Operator.MUST_PASS_ALL, keyFilter, own));
    scan.setCaching(Math.min(1000, distinct.size()));
    Result[] found = new Result[distinct.size()]; // rows come in key order, as distinct
    try (ResultScanner s = table.getScanner(scan)) {
      int j = 0;
      for (Result r : s) {
        while (j < found.length
            && java.util.Arrays.compareUnsigned(distinct.get(j), r.row()) < 0) {
          j++;
        }
        if (j < found.length && java.util.Arrays.equals(distinct.get(j), r.row())) {
          found[j++] = r;
        }
      }
    }
    List<Result> out = new ArrayList<>(keys.size());
    for (byte[] k : keys) {
      int j = java.util.Collections.binarySearch(distinct, k, java.util.Arrays::compareUnsigned);
      out.add(found[j] != null ? found[j] : new Result(k, List.of()));
    }
    return out;
  }

  private Scan scanFor(KeyRange range) {
    Scan scan = executor.spec.reversed()
        ? new Scan().setReversed(true).withStartRow(range.stop(), false)
            .withStopRow(range.start(), true)
        : new Scan().withStartRow(range.start()).withStopRow(range.stop());
    if (remaining != Long.MAX_VALUE && filters.isEmpty()) {
      scan.setLimit(skip + remaining).setCaching((int) Math.min(1000, skip + remaining));
    }
    return prepare(scan);
  }

  /** Columns, time range and filter, the same for scans and gets. */
  private <T extends ReadRequest<T>> T prepare(T read) {
    read.setSnapshot(snapshot);
    read.setMetrics(executor.metrics());
    long[] times = executor.timeRange();
    if (times[0] > 0 || times[1] < Long.MAX_VALUE) {
      read.setTimeRange(times[0], times[1]);
    }
    reads.addTo(read);
    Filter f = PushedPredicate.all(filters, executor.def, executor.ctx);
    if (rangesFilter != null) {
      Filter r = io.basaltdb.storage.filter.Filters.rowRanges(rangesFilter);
      f = f == null ? r : new io.basaltdb.storage.filter.FilterList(
          io.basaltdb.storage.filter.FilterList.Operator.MUST_PASS_ALL, r, f);
    }
    if (f != null) {
      read.setFilter(f);
    }
    return read;
  }

  private Object[] toRow(Result r) {
    return PointRead.toRow(executor.def, names, executor.spec.columns(), r);
  }

  @Override
  public void reset() {
    throw new UnsupportedOperationException("reset");
  }

  @Override
  public void close() {
    if (scanner != null) {
      scanner.close();
      scanner = null;
    }
    if (indexKeys != null) {
      indexKeys.close();
    }
  }
}
