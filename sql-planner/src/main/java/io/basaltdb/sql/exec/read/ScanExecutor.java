package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.Analysis;
import io.basaltdb.sql.exec.context.StatementSnapshot;
import io.basaltdb.sql.pushdown.KeyRange;
import io.basaltdb.sql.pushdown.PushedPredicate;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.storage.Storage;
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
  static final int GET_BATCH = 128;

  final Storage db;
  final SqlTableDef def;
  final ScanSpec spec;
  final DataContext ctx;
  final long asOf;
  /** The columns the spec's scans read, when the plan worked them out; else null. */
  final ScanColumns columns;

  /**
   * @param readTimestamp the connection's read timestamp (-1: none); the spec's own
   *     {@code AS OF} time, when earlier, wins
   */
  public ScanExecutor(Storage db, SqlTableDef def, ScanSpec spec, DataContext ctx,
      long readTimestamp) {
    this(db, def, spec, ctx, readTimestamp, null);
  }

  /**
   * @param columns what the plan's scans of {@code spec} read, worked out once for them
   *     ({@link ScanColumns#of}), or null: worked out by this execution
   */
  public ScanExecutor(Storage db, SqlTableDef def, ScanSpec spec, DataContext ctx,
      long readTimestamp, ScanColumns columns) {
    this.columns = columns;
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
  final long[] rowTimes;

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

  /** The processors a parallel scan spreads over, as when the JVM started (asked once). */
  private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

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
        return new RowEnumerator(this, keys, filters);
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
    int threads = PROCESSORS;
    if (spec.ordered() || spec.fetch() != null || spec.offset() != null || threads < 2
        || spec.keys().isPointLookup(def)
        || RegionSplits.withinOneRegion(db.admin().regionStartRows(def.table()), ranges)) {
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
      parts.add(new RowEnumerator(this, r, false));
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
    return new RowEnumerator(this, ranges == null ? ranges() : ranges, true);
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
      RowEnumerator e = new RowEnumerator(this, List.of(all), false, null, false);
      e.rangesFilter = rr;
      return e;
    }
    if (index == null) {
      return new RowEnumerator(this, ranges, false, null, points);
    }
    Set<Integer> read = new TreeSet<>(spec.columns());
    read.addAll(PushedPredicate.cellColumns(spec.filters(), def));
    IndexKeys keys = IndexKeys.open(db, def, index, ranges, asOf, read, spec, spec.filters(),
        ctx);
    return keys == null ? null : new RowEnumerator(this, List.of(), false, keys, true, spec.filters());
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

  long boundLong(io.basaltdb.sql.pushdown.Operand o, long absent) {
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
}
