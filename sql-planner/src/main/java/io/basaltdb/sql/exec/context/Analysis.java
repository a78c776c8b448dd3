package io.basaltdb.sql.exec.context;

import io.basaltdb.storage.ScanMetrics;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.DelegatingEnumerator;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * What one EXPLAIN ANALYZE execution measured: per plan operator (numbered in the plan's
 * pre-order) the rows it gave and the time spent in it and below it, and per Basalt scan (by
 * its spec object) the engine's counts of its reads ({@link ScanMetrics}). Reaches the running
 * plan through the execution's data context ({@link #wrap}); a plan that runs without one
 * counts nothing. Thread-safe (a scan's regions may be read by several threads).
 */
public final class Analysis {
  /** The data context variable holding an execution's analysis. */
  public static final String VARIABLE = "basaltAnalysis";
  private static final String NAME = VARIABLE;

  private final AtomicLong[] rows;
  private final AtomicLong[] nanos;
  private final Map<Object, ScanMetrics> scans = new IdentityHashMap<>();

  public Analysis(int operators) {
    rows = new AtomicLong[operators];
    nanos = new AtomicLong[operators];
    for (int i = 0; i < operators; i++) {
      rows[i] = new AtomicLong();
      nanos[i] = new AtomicLong();
    }
  }

  /** The analysis a plan runs under, or null. */
  static Analysis of(DataContext ctx) {
    return ctx == null ? null : ctx.get(NAME) instanceof Analysis a ? a : null;
  }

  /** Where the scan of {@code spec} counts its reads, or null when nothing is analyzed. */
  public static ScanMetrics scanMetrics(DataContext ctx, Object spec) {
    Analysis a = of(ctx);
    if (a == null) {
      return null;
    }
    synchronized (a.scans) {
      return a.scans.computeIfAbsent(spec, s -> new ScanMetrics());
    }
  }

  /** The counts of every scan that ran, in no particular order. */
  public java.util.List<ScanMetrics> scans() {
    synchronized (scans) {
      return java.util.List.copyOf(scans.values());
    }
  }

  /** The counts of the scan of {@code spec}, or null when it did not run. */
  public ScanMetrics scan(Object spec) {
    synchronized (scans) {
      return scans.get(spec);
    }
  }

  public long rows(int operator) {
    return rows[operator].get();
  }

  public long nanos(int operator) {
    return nanos[operator].get();
  }

  /** {@code ctx} with this analysis in it. */
  public DataContext wrap(DataContext ctx) {
    return new RowContext(ctx, NAME, this);
  }

  /**
   * {@code input} (operator {@code operator}'s output) counted: its rows, and the time spent
   * making its enumerator and moving it. Called by generated code.
   */
  public static <T> Enumerable<T> counted(Enumerable<T> input, DataContext ctx, int operator) {
    Analysis a = of(ctx);
    if (a == null || operator >= a.rows.length) {
      return input; // (an analysis of scans only: a watched statement's)
    }
    AtomicLong rows = a.rows[operator];
    AtomicLong nanos = a.nanos[operator];
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<T> enumerator() {
        long t0 = System.nanoTime();
        Enumerator<T> in = input.enumerator();
        nanos.addAndGet(System.nanoTime() - t0);
        return new DelegatingEnumerator<>(in) {
          @Override
          public boolean moveNext() {
            long t = System.nanoTime();
            boolean more = delegate.moveNext();
            nanos.addAndGet(System.nanoTime() - t);
            if (more) {
              rows.incrementAndGet();
            }
            return more;
          }

          @Override
          public void close() {
            long t = System.nanoTime();
            delegate.close();
            nanos.addAndGet(System.nanoTime() - t);
          }
        };
      }
    };
  }
}
