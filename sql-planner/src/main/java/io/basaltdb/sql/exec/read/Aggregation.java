package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.ParallelTasks;
import io.basaltdb.sql.pushdown.AggregateSpec;
import io.basaltdb.sql.pushdown.KeyRange;
import io.basaltdb.sql.pushdown.ScanSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

/**
 * Computes a pushed-down {@link AggregateSpec} from a scan's rows without holding them. Without
 * GROUP BY, each region computes partial results (in parallel, one task per region, on a
 * shared pool sized to the machine) that are merged. With GROUP BY a key prefix, rows arrive
 * grouped in key order, so one streaming pass emits each group as it ends, holding one group.
 * A storage that can compute the calls where the rows are ({@link StorageAggregates}: HBase with
 * its aggregation endpoint) is asked first.
 */
final class Aggregation {
  private final ScanExecutor scan;
  private final SqlTableDef def;
  private final ScanSpec spec;
  private final AggregateSpec agg;

  Aggregation(ScanExecutor scan, SqlTableDef def, ScanSpec spec) {
    this.scan = scan;
    this.def = def;
    this.spec = spec;
    this.agg = spec.aggregate();
  }

  Enumerable<Object[]> enumerable() {
    if (agg.groups().isEmpty()) {
      return new AbstractEnumerable<>() {
        @Override
        public Enumerator<Object[]> enumerator() {
          return Linq4j.singletonEnumerable(finish(new Object[0], total())).enumerator();
        }
      };
    }
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return new GroupEnumerator(scan.rows(null));
      }
    };
  }

  // ------------------------------------------------------------------ no GROUP BY

  /** Partial results per region, computed in parallel, merged. */
  private Object[] total() {
    Object[] near = StorageAggregates.compute(scan, def, spec,
        ParallelTasks.pool(scan.storage()));
    if (near != null) {
      return near;
    }
    List<KeyRange> ranges = scan.ranges();
    List<List<KeyRange>> perRegion = RegionSplits.byRegion(scan.storage(), def.table(), ranges)
        .ranges();
    if (perRegion.size() <= 1) {
      return accumulate(ranges);
    }
    List<java.util.concurrent.Callable<Object[]>> parts = new ArrayList<>();
    for (List<KeyRange> r : perRegion) {
      parts.add(() -> accumulate(r));
    }
    Object[] acc = newAccumulators();
    for (Object[] part : ParallelTasks.all(ParallelTasks.pool(scan.storage()), parts)) {
      merge(acc, part);
    }
    return acc;
  }

  private Object[] accumulate(List<KeyRange> ranges) {
    Object[] acc = newAccumulators();
    try (Enumerator<Object[]> rows = scan.rows(ranges)) {
      while (rows.moveNext()) {
        add(acc, rows.current());
      }
    }
    return acc;
  }

  // ------------------------------------------------------------------ GROUP BY a key prefix

  /** Emits one row per group as the ordered rows move past it. */
  private final class GroupEnumerator implements Enumerator<Object[]> {
    private final Enumerator<Object[]> rows;
    private Object[] key;
    private Object[] acc;
    private Object[] current;
    private boolean done;

    GroupEnumerator(Enumerator<Object[]> rows) {
      this.rows = rows;
    }

    @Override
    public Object[] current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      while (!done) {
        if (!rows.moveNext()) {
          done = true;
          if (key != null) {
            current = finish(key, acc);
            key = null;
            return true;
          }
          return false;
        }
        Object[] row = rows.current();
        Object[] k = new Object[agg.groups().size()];
        for (int i = 0; i < k.length; i++) {
          k[i] = row[agg.groups().get(i)];
        }
        if (key != null && !Arrays.equals(k, key)) {
          current = finish(key, acc);
          key = k;
          acc = newAccumulators();
          add(acc, row);
          return true;
        }
        if (key == null) {
          key = k;
          acc = newAccumulators();
        }
        add(acc, row);
      }
      return false;
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException("reset");
    }

    @Override
    public void close() {
      rows.close();
    }
  }

  // ------------------------------------------------------------------ accumulators

  private Object[] newAccumulators() {
    Object[] acc = new Object[agg.calls().size()];
    for (int i = 0; i < acc.length; i++) {
      if (agg.calls().get(i).kind() == AggregateSpec.Kind.COUNT) {
        acc[i] = 0L;
      }
    }
    return acc;
  }

  private void add(Object[] acc, Object[] row) {
    for (int i = 0; i < acc.length; i++) {
      AggregateSpec.Call c = agg.calls().get(i);
      Object v = c.arg() < 0 ? Boolean.TRUE : row[c.arg()];
      if (v == null) {
        continue; // aggregates ignore NULLs
      }
      acc[i] = combine(c.kind(), acc[i], c.kind() == AggregateSpec.Kind.COUNT ? 1L : v);
    }
  }

  private void merge(Object[] into, Object[] part) {
    for (int i = 0; i < into.length; i++) {
      if (part[i] != null) {
        into[i] = combine(agg.calls().get(i).kind(), into[i], part[i]);
      }
    }
  }

  /** {@code acc} combined with a non-null value (or partial result) {@code v}. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object combine(AggregateSpec.Kind kind, Object acc, Object v) {
    if (acc == null) {
      return v;
    }
    return switch (kind) {
      case COUNT -> (Long) acc + (Long) v;
      case SUM, SUM0 -> add(acc, v);
      case MIN -> ((Comparable) v).compareTo(acc) < 0 ? v : acc;
      case MAX -> ((Comparable) v).compareTo(acc) > 0 ? v : acc;
    };
  }

  private static Object add(Object a, Object b) {
    if (a instanceof BigDecimal x) {
      return x.add((BigDecimal) b);
    }
    if (a instanceof Double || a instanceof Float) {
      return ((Number) a).doubleValue() + ((Number) b).doubleValue();
    }
    try {
      return Math.addExact(((Number) a).longValue(), ((Number) b).longValue());
    } catch (ArithmeticException e) {
      throw new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE, "SUM out of range of BIGINT");
    }
  }

  /** The output row: group values, then each call's result in its SQL type. */
  private Object[] finish(Object[] key, Object[] acc) {
    Object[] out = Arrays.copyOf(key, key.length + acc.length);
    for (int i = 0; i < acc.length; i++) {
      AggregateSpec.Call c = agg.calls().get(i);
      Object v = acc[i];
      if (v == null && c.kind() == AggregateSpec.Kind.SUM0) {
        v = 0L;
      }
      out[key.length + i] = v == null ? null : convert(v, c);
    }
    return out;
  }

  private static Object convert(Object v, AggregateSpec.Call c) {
    if (!(v instanceof Number n)) {
      return v;
    }
    return switch (c.resultType()) {
      case TINYINT -> (byte) checked(n, Byte.MIN_VALUE, Byte.MAX_VALUE, c);
      case SMALLINT -> (short) checked(n, Short.MIN_VALUE, Short.MAX_VALUE, c);
      case INTEGER -> (int) checked(n, Integer.MIN_VALUE, Integer.MAX_VALUE, c);
      case BIGINT -> n.longValue();
      case REAL, FLOAT -> n.floatValue();
      case DOUBLE -> n.doubleValue();
      case DECIMAL -> n instanceof BigDecimal d ? d : new BigDecimal(n.toString());
      default -> v;
    };
  }

  private static long checked(Number n, long min, long max, AggregateSpec.Call c) {
    long v = n.longValue();
    if (v < min || v > max) {
      throw new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE, c.name() + " = " + v
          + " is out of range of " + c.resultType());
    }
    return v;
  }
}
