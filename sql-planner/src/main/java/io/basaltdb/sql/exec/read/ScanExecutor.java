package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.Analysis;
import io.basaltdb.sql.exec.context.StatementSnapshot;
import io.basaltdb.sql.exec.context.QueryGuard;
import io.basaltdb.sql.pushdown.KeyRange;
import io.basaltdb.sql.pushdown.PushedPredicate;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.sql.type.RowKeyCodec;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.ReadRequest;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.filter.Filter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Runs a {@link ScanSpec} against the engine for one execution: binds its parameters, turns
 * its key conditions into row-key ranges (point ranges become batched gets), its predicates
 * into a fresh engine filter per range, reads only the needed columns (and the row marker),
 * and streams rows of the spec's columns, skipping {@code offset} and stopping after
 * {@code fetch}. Nothing is held beyond one batch of gets or the engine scanner's own caching.
 */
public final class ScanExecutor {
  /** Point gets sent to the engine at once. */
  private static final int GET_BATCH = 128;

  private final Storage db;
  private final SqlTableDef def;
  private final ScanSpec spec;
  private final DataContext ctx;
  private final long asOf;

  /**
   * @param readTimestamp the connection's read timestamp (-1: none); the spec's own
   *     {@code AS OF} time, when earlier, wins
   */
  public ScanExecutor(Storage db, SqlTableDef def, ScanSpec spec, DataContext ctx,
      long readTimestamp) {
    this.db = db;
    this.def = def;
    this.spec = spec;
    this.ctx = ctx;
    long t = readTimestamp;
    if (spec.asOf() != null) {
      Object v = spec.asOf().bind(ctx);
      if (v == null) {
        throw new io.basaltdb.storage.InvalidArgumentException(
            "FOR SYSTEM_TIME AS OF needs a time, got NULL");
      }
      long ms = (Long) v;
      if (ms < 0) {
        throw new io.basaltdb.storage.InvalidArgumentException(
            "FOR SYSTEM_TIME AS OF a time before 1970 reads nothing: " + ms);
      }
      t = t < 0 ? ms : Math.min(t, ms);
    }
    this.asOf = t;
    this.rowTimes = RowTimestamps.timeRange(def, spec.keys(), ctx);
  }

  /** For a ROW_TIMESTAMP table, the cell time range the key conditions allow; else null. */
  private final long[] rowTimes;

  public Enumerable<Object[]> enumerable() {
    if (spec.aggregate() != null) {
      return new Aggregation(this, def, spec).enumerable();
    }
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return parallelOrNot();
      }
    };
  }

  /** Cells a scan must cover, at least, before its regions are read in parallel. */
  static long parallelCells() {
    return io.basaltdb.sql.Switches.PARALLEL_SCAN_CELLS.longValue();
  }

  /**
   * The scan's rows: from several regions at once ({@link ParallelRows}) when no order is
   * asked of it, it is not limited, and it covers at least two regions and
   * {@link #parallelCells} cells; else one region after the other.
   */
  private Enumerator<Object[]> parallelOrNot() {
    if (spec.index() != null) {
      // the filters the index holds are left out only when entries and rows are read at one
      // snapshot: read apart, a writer between the two could move a row away from its entry
      List<PushedPredicate> filters = StatementSnapshot.of(ctx, db) != null
          ? spec.filtersThroughIndex() : spec.filters();
      Set<Integer> read = new TreeSet<>(spec.columns());
      read.addAll(PushedPredicate.cellColumns(filters, def));
      IndexKeys keys = IndexKeys.open(db, def, spec, filters, ctx, asOf, read);
      if (keys != null) {
        return new RowEnumerator(keys, filters);
      }
      if (spec.ordered()) { // the table's order is not the index's the plan relies on
        throw new io.basaltdb.sql.SqlStateException(SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE,
            "index " + spec.index().name()
            + " of " + def.table() + " was dropped or is being rebuilt since this statement"
            + " was planned; run it again");
      } // else every filter is in the spec: scan the table
    }
    List<KeyRange> ranges = ranges();
    if (def.saltBuckets() > 0 && spec.ordered()) {
      return mergedBuckets(ranges);
    }
    int threads = Runtime.getRuntime().availableProcessors();
    if (spec.ordered() || spec.fetch() != null || spec.offset() != null || threads < 2
        || spec.keys().isPointLookup(def)) {
      return rows(ranges);
    }
    RegionSplits splits = RegionSplits.byRegion(db, def.table(), ranges);
    if (splits.ranges().size() < 2 || splits.totalCells() < parallelCells()) {
      return rows(ranges);
    }
    return new ParallelRows(this, splits.ranges(), threads);
  }

  /**
   * A salted table in key order: one scan per bucket (each in key order), merged by the
   * unsalted row key; offset and limit apply to the merged rows.
   */
  private Enumerator<Object[]> mergedBuckets(List<KeyRange> ranges) {
    java.util.Map<Integer, List<KeyRange>> byBucket = new java.util.TreeMap<>();
    for (KeyRange r : ranges) {
      byBucket.computeIfAbsent(r.start()[0] & 0xff, b -> new ArrayList<>()).add(r);
    }
    List<RowEnumerator> parts = new ArrayList<>();
    for (List<KeyRange> r : byBucket.values()) {
      parts.add(new RowEnumerator(r, false));
    }
    java.util.Comparator<RowEnumerator> byKey = (a, b) -> java.util.Arrays.compareUnsigned(
        a.currentKey, 1, a.currentKey.length, b.currentKey, 1, b.currentKey.length);
    java.util.PriorityQueue<RowEnumerator> heap = new java.util.PriorityQueue<>(
        Math.max(1, parts.size()), spec.reversed() ? byKey.reversed() : byKey);
    long[] skip = {boundLong(spec.offset(), 0)};
    long[] remaining = {boundLong(spec.fetch(), Long.MAX_VALUE)};
    return new Enumerator<>() {
      private boolean started;
      private Object[] current;

      @Override
      public Object[] current() {
        return current;
      }

      @Override
      public boolean moveNext() {
        if (!started) {
          started = true;
          for (RowEnumerator p : parts) {
            if (p.moveNext()) {
              heap.add(p);
            }
          }
        }
        while (remaining[0] > 0 && !heap.isEmpty()) {
          RowEnumerator top = heap.poll();
          Object[] row = top.current();
          if (top.moveNext()) {
            heap.add(top);
          }
          if (skip[0] > 0) {
            skip[0]--;
            continue;
          }
          remaining[0]--;
          current = row;
          return true;
        }
        return false;
      }

      @Override
      public void reset() {
        throw new UnsupportedOperationException("reset");
      }

      @Override
      public void close() {
        parts.forEach(RowEnumerator::close);
      }
    };
  }

  /** The scan's ranges for this execution, in scan order. */
  List<KeyRange> ranges() {
    List<KeyRange> r = spec.index() != null ? io.basaltdb.sql.pushdown.KeyConditions.NONE.bind(def, ctx)
        : spec.keys().bind(def, ctx);
    if (spec.reversed()) {
      r = new ArrayList<>(r);
      Collections.reverse(r);
    }
    return r;
  }

  /** The rows of the spec's columns in {@code ranges} (null: all of the scan's ranges). */
  Enumerator<Object[]> rows(List<KeyRange> ranges) {
    return new RowEnumerator(ranges == null ? ranges() : ranges, true);
  }

  /**
   * The rows of the spec's columns (its filters applied; its own key conditions and limits
   * not) in {@code ranges} of the table, or with {@code index} of that index: a lookup join's
   * batch. {@code points}: each range is one full table key, read by a get. The index gone or
   * rebuilding: null (the caller falls back).
   */
  public Enumerator<Object[]> lookup(List<KeyRange> ranges, boolean points, String index) {
    if (index == null && !points && ranges.size() > 1) {
      // many key prefixes: one scan over them all, seeking from one to the next
      List<io.basaltdb.storage.filter.Filters.RowRange> rr = new ArrayList<>(ranges.size());
      for (KeyRange r : ranges) {
        rr.add(new io.basaltdb.storage.filter.Filters.RowRange(r.start(), r.stop()));
      }
      KeyRange all = new KeyRange(ranges.get(0).start(), ranges.get(ranges.size() - 1).stop());
      RowEnumerator e = new RowEnumerator(List.of(all), false, null, false);
      e.rangesFilter = rr;
      return e;
    }
    if (index == null) {
      return new RowEnumerator(ranges, false, null, points);
    }
    Set<Integer> read = new TreeSet<>(spec.columns());
    read.addAll(PushedPredicate.cellColumns(spec.filters(), def));
    IndexKeys keys = IndexKeys.open(db, def, index, ranges, asOf, read, spec, spec.filters(),
        ctx);
    return keys == null ? null : new RowEnumerator(List.of(), false, keys, true, spec.filters());
  }

  Storage storage() {
    return db;
  }

  /** Cell times this scan reads, {@code [min, max)}: AS OF and a row timestamp's range. */
  long[] timeRange() {
    long min = rowTimes == null ? 0 : rowTimes[0];
    long max = rowTimes == null ? Long.MAX_VALUE : rowTimes[1];
    if (asOf >= 0) {
      max = Math.min(max, asOf == Long.MAX_VALUE ? asOf : asOf + 1);
    }
    return new long[] {Math.min(min, max), max};
  }

  /** Where this scan counts its reads for EXPLAIN ANALYZE, or null. */
  io.basaltdb.storage.ScanMetrics metrics() {
    return Analysis.scanMetrics(ctx, spec);
  }

  private long boundLong(io.basaltdb.sql.pushdown.Operand o, long absent) {
    if (o == null) {
      return absent;
    }
    Object v = o.bind(ctx);
    if (v == null) {
      return absent;
    }
    long n = ((Number) v).longValue();
    if (n < 0) {
      throw new io.basaltdb.storage.InvalidArgumentException("OFFSET and FETCH must not be "
          + "negative, got " + n);
    }
    return n;
  }

  /** Streams the rows of all ranges, in order, applying offset and fetch. */
  /** The cancel flag Calcite puts in a statement's data context, or null. */
  private final class RowEnumerator implements Enumerator<Object[]> {
    private final List<KeyRange> ranges;
    private final boolean points;
    private final Table table = db.table(def.table());
    private final io.basaltdb.storage.ReadSnapshot snapshot = StatementSnapshot.of(ctx, db);
    private final RowKeyCodec codec = def.keyCodec();
    private final List<SqlColumn> cols = def.columns();
    private final io.basaltdb.sql.catalog.CellNames names =
        io.basaltdb.sql.catalog.CellNames.of(def);
    private final Set<Integer> readColumns = new TreeSet<>();
    private int next; // next range (or first range of the next get batch)
    private ResultScanner scanner;
    private List<Result> batch = Collections.emptyList();
    private int batchPos;
    private long skip;
    private long remaining;
    private Object[] current;
    /** The current row's key (salted, as stored). */
    private byte[] currentKey;
    /** The statement's cancel flag (set by cancel() or its timeout), read every 1024 rows. */
    private final java.util.concurrent.atomic.AtomicBoolean cancelFlag =
        QueryGuard.cancelFlag(ctx);
    private int rowsSinceCheck;

    /** The rows of the base keys an index gives, fetched by batched gets. */
    private final IndexKeys indexKeys;
    /** Ranges read by one scan that seeks between them (a lookup join's key prefixes). */
    private List<io.basaltdb.storage.filter.Filters.RowRange> rangesFilter;

    /** The filters these rows must pass (through an index: not those it holds). */
    private final List<PushedPredicate> filters;

    /** With {@code limits}, the spec's offset and fetch apply to these rows. */
    RowEnumerator(List<KeyRange> ranges, boolean limits) {
      this(ranges, limits, null, spec.keys().isPointLookup(def));
    }

    /** The rows of the keys an index's ranges give, in the index's order, passing {@code filters}. */
    RowEnumerator(IndexKeys keys, List<PushedPredicate> filters) {
      this(List.of(), true, keys, true, filters);
    }

    private RowEnumerator(List<KeyRange> ranges, boolean limits, IndexKeys indexKeys,
        boolean points) {
      this(ranges, limits, indexKeys, points, spec.filters());
    }

    private RowEnumerator(List<KeyRange> ranges, boolean limits, IndexKeys indexKeys,
        boolean points, List<PushedPredicate> filters) {
      this.ranges = ranges;
      this.indexKeys = indexKeys;
      this.points = indexKeys != null || points;
      this.filters = filters;
      skip = limits ? boundLong(spec.offset(), 0) : 0;
      remaining = limits ? boundLong(spec.fetch(), Long.MAX_VALUE) : Long.MAX_VALUE;
      readColumns.addAll(spec.columns());
      readColumns.addAll(PushedPredicate.cellColumns(filters, def));
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
              if (keys.size() >= GET_BATCH) {
                break;
              }
            }
            if (keys.isEmpty()) {
              return null;
            }
          } else if (next >= ranges.size()) {
            return null;
          }
          for (; next < ranges.size() && keys.size() < GET_BATCH; next++) {
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
      Scan scan = spec.reversed()
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
      read.setMetrics(metrics());
      long[] times = timeRange();
      if (times[0] > 0 || times[1] < Long.MAX_VALUE) {
        read.setTimeRange(times[0], times[1]);
      }
      read.addColumn(names.markerFamily(), io.basaltdb.sql.catalog.CellNames.MARKER);
      for (int i : readColumns) {
        if (cols.get(i).isMap()) {
          read.addFamily(names.family(i)); // its cells are the family's undeclared ones
        } else if (names.family(i) != null) {
          read.addColumn(names.family(i), names.qualifier(i));
        }
      }
      Filter f = PushedPredicate.all(filters, def, ctx);
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
      List<Integer> out = spec.columns();
      Object[] row = new Object[out.size()];
      Object[] key = null;
      for (int i = 0; i < row.length; i++) {
        int col = out.get(i);
        SqlColumn c = cols.get(col);
        if (c.isKey()) {
          if (key == null) {
            key = codec.decode(r.row());
          }
          row[i] = c.type().fromKey(key[c.keyPosition()]);
        } else if (c.isMap()) {
          row[i] = names.mapValue(col, r);
        } else {
          byte[] v = names.value(col, r.getValue(names.family(col), names.qualifier(col)));
          row[i] = v == null ? null : c.fromCell(v);
        }
      }
      return row;
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
}
