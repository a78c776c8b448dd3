package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.StatementStats;
import io.basaltdb.sql.exec.context.Analysis;
import io.basaltdb.sql.exec.context.StatementSnapshot;
import io.basaltdb.storage.ScanMetrics;
import java.time.Instant;
import java.util.List;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.DelegatingEnumerator;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Watches one execution of a plan, from its start to its last row or its close: counts it and
 * its time in the database's {@link StatementStats}, counts an error met while reading its rows
 * by SQLState, and when it took at least the connection's {@code slowStatementMillis} writes a
 * line to the {@link SlowStatementLog}: when it ended, its time, its rows (or update count), the
 * counts its scans made (as EXPLAIN ANALYZE prints them, summed over its scans: an execution
 * watched for slowness runs with an {@link Analysis} in its data context, so its scans count)
 * and its text. An execution whose rows are dropped unread and unclosed is not counted.
 */
final class StatementWatch {
  /** Statement text longer than this is cut in the log (with its length said). */
  static final int MAX_TEXT = 4000;

  private final StatementStats stats;
  private final SlowStatementLog log;
  private final long slowNanos;
  private final String sql;
  private final boolean update;
  private final Analysis analysis;
  private final long start = System.nanoTime();
  private long rows;
  private Object firstRow;
  private boolean finished;

  /**
   * {@code slowNanos}: 0 for no slow log (and no analysis); {@code update}: the plan's one row
   * is an update count.
   */
  StatementWatch(StatementStats stats, SlowStatementLog log, long slowNanos, String sql,
      boolean update) {
    this.stats = stats;
    this.log = log;
    this.slowNanos = slowNanos;
    this.sql = sql;
    this.update = update;
    this.analysis = slowNanos > 0 ? new Analysis(0) : null;
  }

  /** Where the execution's scans count their reads, or null when it is not watched for slowness. */
  Analysis analysis() {
    return analysis;
  }

  /**
   * {@code rowsIn}, watched, releasing {@code snapshot} (the execution's) at their end or when
   * their enumerator closes: one wrapper for both, since every execution passes here.
   */
  <T> Enumerable<T> around(Enumerable<T> rowsIn, StatementSnapshot snapshot) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<T> enumerator() {
        Enumerator<T> in;
        try {
          in = rowsIn.enumerator();
        } catch (RuntimeException e) {
          failed(e);
          throw e;
        }
        return new DelegatingEnumerator<>(in) {
          @Override
          public boolean moveNext() {
            boolean more;
            try {
              more = delegate.moveNext();
            } catch (RuntimeException e) {
              failed(e);
              throw e;
            }
            if (more) {
              if (rows++ == 0 && update) {
                // a data change's one row, its update count (a query's current() may compute
                // its expressions anew at each call, NEXT VALUE FOR among them: never asked)
                firstRow = delegate.current();
              }
            } else {
              snapshot.release();
              finish();
            }
            return more;
          }

          @Override
          public T current() {
            try {
              return delegate.current(); // where a query's expressions may fail (a CAST)
            } catch (RuntimeException e) {
              failed(e);
              throw e;
            }
          }

          @Override
          public void close() {
            try {
              delegate.close();
            } finally {
              snapshot.release();
              finish();
            }
          }
        };
      }
    };
  }

  private void failed(RuntimeException e) {
    stats.error(e, SqlErrors.sqlState(e));
    finish();
  }

  private void finish() { // an execution's rows are read by one thread at a time
    if (finished) {
      return;
    }
    finished = true;
    long nanos = System.nanoTime() - start;
    stats.executions.increment();
    stats.executionNanos.add(nanos);
    if (slowNanos > 0 && nanos >= slowNanos) {
      stats.slowStatements.increment();
      log.write(line(nanos));
    }
  }

  private String line(long nanos) {
    StringBuilder b = new StringBuilder(200);
    b.append(Instant.now()).append(" basalt slow statement: ")
        .append(String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6)).append(" ms, ");
    if (update && firstRow instanceof Number n) {
      b.append("updated ").append(n.longValue());
    } else {
      b.append(rows).append(rows == 1 ? " row" : " rows");
    }
    List<ScanMetrics> scans = analysis.scans();
    ScanMetrics sum = new ScanMetrics();
    for (ScanMetrics m : scans) {
      sum.add(m);
    }
    b.append(scans.isEmpty() ? ", no scan" : ", scans (" + sum + ")");
    String text = sql.replaceAll("\\s+", " ").strip();
    b.append(": ").append(text.length() <= MAX_TEXT ? text
        : text.substring(0, MAX_TEXT) + "... (" + text.length() + " characters)");
    return b.toString();
  }
}
