package io.basaltdb.sql.prepare;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.basaltdb.sql.PlannerStats;
import io.basaltdb.storage.Storage;
import java.lang.reflect.Type;
import java.util.List;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;

/**
 * The plans of one open database, shared by its connections (kept by the database,
 * {@link Storage#extension}: two databases never share a plan, and the plans go with the
 * database). Least recently used out past its capacity ({@link #DEFAULT_CAPACITY}, or the
 * connection property {@code planCacheSize} of a connection to it: the last one opened with
 * it sets it; 0 keeps none). Its capacity, size, hits and misses are the database's
 * {@link PlannerStats}, read as {@code INFORMATION_SCHEMA.PLAN_CACHE}. Thread-safe.
 */
public final class PlanCache {
  public static final int DEFAULT_CAPACITY = PlannerStats.DEFAULT_PLAN_CACHE_CAPACITY;

  /** What makes a plan reusable: same catalog version, schema path, SQL text and shape. */
  record Key(long catalogVersion, List<String> schemaPath, String sql, Type elementType,
      long maxRowCount, String dialect) {}

  // replaced whole when the capacity changes; Guava's cache: reads take no lock
  private volatile Cache<Key, CalciteSignature<?>> plans = newPlans(DEFAULT_CAPACITY);
  private final PlannerStats stats;
  private volatile int capacity = DEFAULT_CAPACITY;

  private PlanCache(PlannerStats stats) {
    this.stats = stats;
    stats.planCache(capacity, this::size);
  }

  private static Cache<Key, CalciteSignature<?>> newPlans(int capacity) {
    return CacheBuilder.newBuilder().maximumSize(capacity).build();
  }

  static PlanCache of(Storage db) {
    PlannerStats stats = PlannerStats.of(db); // first: extensions are not made inside another
    return db.extension(PlanCache.class, () -> new PlanCache(stats));
  }

  /** Whether the database keeps plans (its capacity is above 0). */
  public static boolean keepsPlans(Storage db) {
    return of(db).capacity > 0;
  }

  /** A plan reused without a lookup here (a connection's own recent one): counted a hit. */
  public static void countReuse(Storage db) {
    of(db).stats.planCacheHits.incrementAndGet();
  }

  /** The plan for {@code key}, or null (counted as a hit or a miss). */
  CalciteSignature<?> get(Key key) {
    CalciteSignature<?> plan = plans.getIfPresent(key);
    (plan == null ? stats.planCacheMisses : stats.planCacheHits).incrementAndGet();
    return plan;
  }

  void put(Key key, CalciteSignature<?> plan) {
    if (capacity > 0) {
      plans.put(key, plan);
    }
  }

  /** Keeps at most {@code n} plans from now on (the most recently used are kept). */
  public static void setCapacity(Storage db, int n) {
    PlanCache c = of(db);
    synchronized (c) {
      if (n == c.capacity) {
        return;
      }
      Cache<Key, CalciteSignature<?>> next = newPlans(n);
      if (n > 0) {
        next.putAll(c.plans.asMap());
      }
      c.capacity = n;
      c.plans = next;
      c.stats.planCache(n, c::size);
    }
  }

  /** The plans held (evictions due done first). */
  private int size() {
    Cache<Key, CalciteSignature<?>> p = plans;
    p.cleanUp();
    return (int) p.size();
  }
}
