package io.basaltdb.sql;

import io.basaltdb.storage.Storage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * What the SQL layer counts for one open database, kept by it ({@link Storage#extension}: two
 * databases never mix their figures, and the figures go with the database): the plan cache's
 * capacity, size, hits and misses; statements run on a plan shared across literal values; and
 * how many statements each of Basalt's own planning lanes took (plans made without Calcite's
 * validator, the short path, plans run without generated code, planners that had to register
 * Calcite's default rules). Read as {@code INFORMATION_SCHEMA.PLAN_CACHE}, and by tests. The
 * counters only grow. Thread-safe.
 */
public final class PlannerStats {
  /**
   * Plans the plan cache holds at most unless a connection sets {@code planCacheSize}: a plan
   * takes about 10 KB (1,234 plans of {@code bench unseen} held 12.8 MB more than none), so at most
   * some 20 MB.
   */
  public static final int DEFAULT_PLAN_CACHE_CAPACITY = 2048;

  public final AtomicLong planCacheHits = new AtomicLong();
  public final AtomicLong planCacheMisses = new AtomicLong();
  /** Statements run on a plan shared across literal values. */
  public final AtomicLong sharedLiteralStatements = new AtomicLong();
  /** Plans made without Calcite's validator, conversion and planner. */
  public final AtomicLong directPlans = new AtomicLong();
  /**
   * Direct plans of a multi-row INSERT or UPSERT whose trailing rows of parameters the parser
   * did not read ({@code ParameterRows}).
   */
  public final AtomicLong rowsOfParametersScanned = new AtomicLong();
  /** Plans the short path made (one table, no cost-based search). */
  public final AtomicLong shortPaths = new AtomicLong();
  /** Statements of small tables planned without the search ({@code SmallPlans}). */
  public final AtomicLong smallPlans = new AtomicLong();
  /** Plans run by calling their operators' runtime directly, without generated code. */
  public final AtomicLong directExecutions = new AtomicLong();
  /** Plans whose generated code was compiled (not found compiled, by its text). */
  public final AtomicLong compiledPlans = new AtomicLong();
  /** Cost-based planners that registered Calcite's default rules (a costly first use). */
  public final AtomicLong defaultRuleRegistrations = new AtomicLong();

  private volatile int planCacheCapacity = DEFAULT_PLAN_CACHE_CAPACITY;
  private volatile IntSupplier planCacheSize = () -> 0;

  private PlannerStats() {}

  /** The figures of {@code db} (for no database, figures nobody reads). */
  public static PlannerStats of(Storage db) {
    return db == null ? new PlannerStats() : db.extension(PlannerStats.class, PlannerStats::new);
  }

  /** Told by the plan cache: its capacity, and how to count the plans it holds. */
  public void planCache(int capacity, IntSupplier size) {
    planCacheCapacity = capacity;
    planCacheSize = size;
  }

  public int planCacheCapacity() {
    return planCacheCapacity;
  }

  public int planCacheSize() {
    return planCacheSize.getAsInt();
  }
}
