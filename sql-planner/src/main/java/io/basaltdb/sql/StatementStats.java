package io.basaltdb.sql;

import io.basaltdb.storage.Storage;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the SQL layer counts of the statements run on one open database (kept by it, as
 * {@link PlannerStats}): statements by kind, the executions of plans and their time (from the
 * start of an execution to its last row or its close), errors by SQLState, slow statements and
 * open connections. The metrics read them ({@code jdbc-driver/doc/metrics.md}). Counts only
 * grow. Thread-safe.
 */
public final class StatementStats {
  /** What a statement does, by its first word (told by the JDBC layer). */
  public enum Kind { QUERY, DML, DDL, OTHER }

  private final LongAdder[] statements = new LongAdder[Kind.values().length];
  public final LongAdder executions = new LongAdder();
  public final LongAdder executionNanos = new LongAdder();
  public final LongAdder slowStatements = new LongAdder();
  public final LongAdder connections = new LongAdder();
  private final ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
  /** The error each thread counted last: a failure passes several counting points. */
  private final ThreadLocal<Throwable> lastCounted = new ThreadLocal<>();

  private StatementStats() {
    for (int i = 0; i < statements.length; i++) {
      statements[i] = new LongAdder();
    }
  }

  /** The figures of {@code db} (for no database, figures nobody reads). */
  public static StatementStats of(Storage db) {
    return db == null ? new StatementStats()
        : db.extension(StatementStats.class, StatementStats::new);
  }

  /** A statement of kind {@code k} is run. */
  public void statement(Kind k) {
    statements[k.ordinal()].increment();
  }

  public long statements(Kind k) {
    return statements[k.ordinal()].sum();
  }

  /**
   * A statement failed with {@code sqlState}: counted once per failure, however many of the
   * layers it passes report it ({@code failure} is the error as first seen, or what wraps it).
   */
  public void error(Throwable failure, String sqlState) {
    Throwable last = lastCounted.get();
    for (Throwable c = failure; c != null && last != null; c = c.getCause()) {
      if (c == last) {
        return;
      }
    }
    lastCounted.set(failure);
    errors.computeIfAbsent(sqlState == null ? "" : sqlState, s -> new LongAdder()).increment();
  }

  /** Errors so far with {@code sqlState}. */
  public long errors(String sqlState) {
    LongAdder n = errors.get(sqlState);
    return n == null ? 0 : n.sum();
  }

  /** Errors so far by SQLState, in SQLState order. */
  public Map<String, Long> errors() {
    Map<String, Long> out = new TreeMap<>();
    errors.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
